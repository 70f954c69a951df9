// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: opening a dump (formats/dump.h) from a memfd holding
 * the input: ELF, kdump-compressed or flattened headers and notes, and
 * what the kernel model reads first (VMCOREINFO values, CPU notes, a
 * physical and a virtual read).  libkdumpfile itself is not
 * instrumented for coverage, only our checks in front of it.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "dump.h"
#include "fuzz_common.h"
#include "vmcoreinfo.h"

/* libkdumpfile 0.5.1 leaks on some error paths of kdump_open_fd()
 * (as in tests/realdump/dumpcat.c); not ours to fix. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

static const char *const keys[] = {
	"OSRELEASE", "PAGESIZE", "KERNELOFFSET", "NUMBER(phys_base)",
	"SYMBOL(init_top_pgt)", "SYMBOL(_stext)", "NUMBER(pgtable_l5_enabled)",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("fuzz-dump", 0);
	struct oc_dump *dump;
	const struct oc_vmcoreinfo *vi;
	struct oc_error *err;
	struct oc_mem mem;
	uint64_t v, stext = 0xffffffff81000000ull;
	uint8_t buf[64];

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err = oc_dump_open(path, &dump);
	if (err) {
		fuzz_check_error(err);
		close(fd);
		return 0;
	}
	FUZZ_ASSERT(oc_dump_format_name(dump));
	vi = oc_dump_vmcoreinfo(dump);
	FUZZ_ASSERT(!vi || oc_vmcoreinfo_text(vi));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *text;

		err = oc_vmcoreinfo_value(vi, keys[i], &text);
		FUZZ_ASSERT(err || text);
		fuzz_check_error(err);
		err = oc_vmcoreinfo_u64(vi, keys[i], &v);
		if (!err && i == 5)
			stext = v;
		fuzz_check_error(err);
	}
	for (size_t i = 0; i < oc_dump_nr_cpu_notes(dump); i++)
		FUZZ_ASSERT(oc_dump_cpu_note(dump, i));
	fuzz_check_error(oc_dump_read_phys(dump, 0x1000, buf, sizeof(buf)));
	oc_dump_mem(dump, &mem);
	fuzz_check_error(oc_mem_read(&mem, stext, buf, sizeof(buf)));
	oc_dump_close(dump);
	close(fd);
	return 0;
}
