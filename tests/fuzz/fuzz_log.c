// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the printk log reader (src/log.h), both formats,
 * over a memory image.  Input: the VMCOREINFO text (NUL-terminated; its
 * SYMBOL(prb) / SYMBOL(log_buf) ... lines and OFFSET()/SIZE() lines are
 * all the reader gets: no types, no symbol callback), then a memory
 * image (fuzz_common.h).  The text goes through formats/vmcoreinfo.c
 * first, as the model's does.  The records are printed to /dev/null and the
 * panic message searched, as the report does.
 * Invariants: at most OC_LOG_MAX_RECORDS records, each one's text inside
 * the pool the log owns, the note terminated.
 */
#include "fuzz_common.h"
#include "log.h"
#include "vmcoreinfo.h"

static FILE *devnull;
static volatile unsigned int sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct fuzz_image img;
	struct oc_log_env env = { 0 };
	struct oc_log log;
	char *vmcoreinfo = fuzz_string(&in);
	struct oc_vmcoreinfo *vi;
	struct oc_error *err;
	char buf[128];

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	fuzz_image_read(&in, &img);
	env.mem = &img.mem;
	err = oc_vmcoreinfo_parse(vmcoreinfo, strlen(vmcoreinfo), &vi);
	if (err) {
		fuzz_check_error(err);
		free(vmcoreinfo);
		return 0;
	}
	env.vmcoreinfo = vi;
	memset(&log, 0, sizeof(log));
	err = oc_log_read(&env, &log);
	if (getenv("FUZZ_VERBOSE"))	/* checking a seed */
		fprintf(stderr, "%s: %zu records, %zu lost, %zu bad\n",
			err ? err->message : "ok", log.nr, log.nr_lost,
			log.nr_bad);
	if (err) {
		fuzz_check_error(err);
	} else {
		FUZZ_ASSERT(log.nr <= OC_LOG_MAX_RECORDS);
		FUZZ_ASSERT(memchr(log.note, 0, sizeof(log.note)));
		for (size_t i = 0; i < log.nr; i++) {
			const struct oc_log_record *r = &log.records[i];

			FUZZ_ASSERT(r->level <= 7);
			/* touch every byte: ASan checks the bounds */
			for (size_t j = 0; j < r->len; j++)
				sink += (unsigned char)r->text[j];
		}
		oc_log_print(&log, devnull);
		(void)oc_log_panic_message(&log, buf, sizeof(buf));
		if (log.nr)
			oc_log_format_time(log.records[log.nr - 1].ts_nsec, buf,
					   sizeof(buf));
	}
	oc_log_deinit(&log);
	oc_vmcoreinfo_destroy(vi);
	free(vmcoreinfo);
	return 0;
}
