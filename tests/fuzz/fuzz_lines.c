// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: a lines cache file (src/lines.c, its layout in
 * docs/lines.md) opened, looked up where it lies, and written anew.
 * Input: the file's bytes, as the writer lays them out (a head of 96
 * bytes, records, entries, strings).
 * Invariants: the addresses of the file's first records (read here from
 * the input, bounds-checked) and a few others answer a chain of at most
 * the buffer's length whose names hold no control character; the file
 * written at close (a lookup of a bad record, or a bad head, makes it
 * rewrite) opens again and answers the same chains.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "lines.h"

enum { HEAD = 96, MAX_ADDRS = 64, MAX_CHAIN = 16 };

static bool plain(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

struct answer {
	size_t nr;
	struct oc_line_info chain[MAX_CHAIN];
	char names[MAX_CHAIN][2][64];	/* copies: the strings die at close */
};

static void ask(struct oc_lines *l, uint64_t addr, struct answer *a)
{
	struct oc_error *err;

	err = oc_lines_lookup(l, addr, a->chain, MAX_CHAIN, &a->nr);
	FUZZ_ASSERT(!err || err->code == OC_ERR_NOMEM);
	oc_error_destroy(err);
	FUZZ_ASSERT(a->nr <= MAX_CHAIN);
	for (size_t i = 0; i < a->nr; i++) {
		const struct oc_line_info *e = &a->chain[i];

		FUZZ_ASSERT(plain(e->function) && plain(e->file));
		FUZZ_ASSERT(e->file || !e->line);
		snprintf(a->names[i][0], sizeof(a->names[i][0]), "%s",
			 e->function ? e->function : "(null)");
		snprintf(a->names[i][1], sizeof(a->names[i][1]), "%s",
			 e->file ? e->file : "(null)");
	}
}

static bool same(const struct answer *a, const struct answer *b)
{
	if (a->nr != b->nr)
		return false;
	for (size_t i = 0; i < a->nr; i++)
		if (a->chain[i].line != b->chain[i].line ||
		    a->chain[i].inlined != b->chain[i].inlined ||
		    strcmp(a->names[i][0], b->names[i][0]) ||
		    strcmp(a->names[i][1], b->names[i][1]))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[] = "/tmp/fuzz-lines.XXXXXX";
	static bool made;
	static struct answer first[MAX_ADDRS + 3], again;
	uint64_t addrs[MAX_ADDRS + 3] = { 0, 0xffffffff81000000ull, UINT64_MAX };
	size_t nr_addrs = 3;
	struct oc_lines *l;
	char path[64];
	uint32_t nr_recs = 0;
	FILE *fp;

	/* the cache rules want a directory of the user's, 0700 */
	if (!made && !mkdtemp(dir))
		return 0;
	made = true;
	snprintf(path, sizeof(path), "%s/cache", dir);
	fp = fopen(path, "w");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	if (size >= HEAD)
		memcpy(&nr_recs, data + 80, 4);
	for (size_t i = 0; i < nr_recs && i < MAX_ADDRS &&
			   HEAD + 16 * (i + 1) <= size; i++)
		memcpy(&addrs[nr_addrs++], data + HEAD + 16 * i, 8);

	if (oc_lines_open_cache("/nonexistent/vmlinux", path, &l))
		return 0;
	for (size_t i = 0; i < nr_addrs; i++)
		ask(l, addrs[i], &first[i]);
	oc_lines_close(l);

	/* what was written (or left) answers the same */
	if (oc_lines_open_cache("/nonexistent/vmlinux", path, &l))
		return 0;
	for (size_t i = 0; i < nr_addrs; i++) {
		ask(l, addrs[i], &again);
		FUZZ_ASSERT(same(&first[i], &again));
	}
	oc_lines_close(l);
	unlink(path);
	return 0;
}
