// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the .debug_frame reader (formats/dwarfcfi.h) that
 * recovers callee-saved registers for parameters and locals.
 * Input:
 *	u8  n			how many pcs to look up (at most 32)
 *	u64 pcs[n]
 *	then the .debug_frame section bytes
 * Invariants: a status in range; a found row covers the pc, its rule
 * kinds and register numbers in range; a reason for a malformed entry,
 * NUL-terminated; the same answer twice, and from an index past its
 * scans (the first 8 pcs are scanned for, formats/dwarfcfi.c CFI_SCANS),
 * and from that index written and viewed again (oc_cfi_write_index(),
 * oc_cfi_view(): the symbol cache's src/cficache.c).  The section's own
 * bytes viewed as an index (hostile entries): found rows cover the pc.
 */
#include "dwarfcfi.h"
#include "fuzz_common.h"

static void check_row(const struct oc_cfi_row *row, uint64_t pc)
{
	FUZZ_ASSERT(row->fde_start <= pc && pc < row->fde_end);
	FUZZ_ASSERT(row->cfa_kind <= OC_CFI_CFA_UNDEFINED);
	for (int r = 0; r < OC_CFI_NR_REGS; r++)
		FUZZ_ASSERT(row->regs[r].kind <= OC_CFI_EXPRESSION);
}

/* @cfi's index written (into *@index_ret, 8-byte aligned) and viewed
 * over @sec again; NULL only when memory runs out. */
static struct oc_cfi *viewed(struct oc_cfi *cfi, const uint8_t *sec,
			     size_t len, void **index_ret)
{
	struct oc_cfi *view = NULL;
	struct oc_error *err;
	char *mem = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&mem, &n);

	*index_ret = NULL;
	if (!fp)
		return NULL;
	err = oc_cfi_write_index(cfi, fp);
	FUZZ_ASSERT(!err);
	if (fclose(fp) || !(*index_ret = malloc(n + 8))) {
		free(mem);
		return NULL;
	}
	memcpy(*index_ret, mem, n);
	free(mem);
	err = oc_cfi_view(sec, len, *index_ret, n, &view);
	FUZZ_ASSERT(!err || err == &oc_enomem);
	return view;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t pcs[32];
	struct oc_cfi *cfi, *warm, *view, *hostile = NULL;
	uint8_t *hostile_bytes;
	void *index;
	struct oc_error *err;
	size_t n, nr_bad = 0, len;
	const uint8_t *sec;
	uint8_t *copy;

	n = fuzz_u8(&in) % 33;
	for (size_t i = 0; i < n; i++)
		pcs[i] = fuzz_u64(&in);
	len = in.left;
	sec = fuzz_bytes(&in, &len);
	/* an exact-size heap copy: ASan sees any read past the section */
	copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	memcpy(copy, sec, len);

	err = oc_cfi_create(copy, len, &cfi, &nr_bad);
	if (err) {
		FUZZ_ASSERT(err == &oc_enomem);
		free(copy);
		return 0;
	}
	err = oc_cfi_create(copy, len, &warm, NULL);
	if (err) {
		FUZZ_ASSERT(err == &oc_enomem);
		oc_cfi_destroy(cfi);
		free(copy);
		return 0;
	}
	for (int i = 0; i < 17; i++) {
		struct oc_cfi_row r;

		(void)oc_cfi_find(warm, 0, &r, NULL, 0);
	}
	view = viewed(warm, copy, len, &index);
	/* the section's bytes as an index over itself (8-byte aligned) */
	hostile_bytes = malloc(len + 8);
	if (!hostile_bytes)
		abort();
	memcpy(hostile_bytes, copy, len);
	err = oc_cfi_view(copy, len, hostile_bytes, len, &hostile);
	FUZZ_ASSERT(!err || err->code == OC_ERR_FORMAT || err == &oc_enomem);
	oc_error_destroy(err);
	for (size_t i = 0; i < n; i++) {
		struct oc_cfi_row r1, r2, r3, r4;
		char why1[64], why2[64], why3[64];
		enum oc_cfi_status s1, s2, s3;

		memset(why1, 0x41, sizeof(why1));
		s1 = oc_cfi_find(cfi, pcs[i], &r1, why1, sizeof(why1));
		s2 = oc_cfi_find(cfi, pcs[i], &r2, why2, sizeof(why2));
		s3 = oc_cfi_find(warm, pcs[i], &r3, why3, sizeof(why3));
		FUZZ_ASSERT(s1 <= OC_CFI_MALFORMED);
		FUZZ_ASSERT(s1 == s2 && s1 == s3);
		if (view) {
			FUZZ_ASSERT(oc_cfi_find(view, pcs[i], &r4, NULL, 0) == s1);
			FUZZ_ASSERT(s1 != OC_CFI_FOUND ||
				    !memcmp(&r1, &r4, sizeof(r1)));
		}
		if (hostile &&
		    oc_cfi_find(hostile, pcs[i], &r4, NULL, 0) == OC_CFI_FOUND)
			check_row(&r4, pcs[i]);
		if (s1 == OC_CFI_FOUND) {
			check_row(&r1, pcs[i]);
			FUZZ_ASSERT(!memcmp(&r1, &r2, sizeof(r1)));
			FUZZ_ASSERT(!memcmp(&r1, &r3, sizeof(r1)));
		} else if (s1 == OC_CFI_MALFORMED) {
			FUZZ_ASSERT(memchr(why1, 0, sizeof(why1)));
			FUZZ_ASSERT(why1[0]);
			FUZZ_ASSERT(!strcmp(why1, why2));
			FUZZ_ASSERT(!strcmp(why1, why3));
		}
	}
	FUZZ_ASSERT(oc_cfi_nr_fdes(cfi) <= len / 8 + 1);
	FUZZ_ASSERT(oc_cfi_nr_fdes(warm) == oc_cfi_nr_fdes(cfi));
	oc_cfi_destroy(hostile);
	free(hostile_bytes);
	oc_cfi_destroy(view);
	free(index);
	oc_cfi_destroy(warm);
	oc_cfi_destroy(cfi);
	free(copy);
	return 0;
}
