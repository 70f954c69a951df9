/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the libFuzzer targets: a bounds-checked cursor over
 * the input, and a memory image (a list of regions) read from it into
 * struct oc_mem_buffers.  Every target's input layout is documented at
 * its top; tests/fuzz/make-seeds.py writes seeds in the same layouts.
 *
 * An invariant the code under test must keep is checked with
 * FUZZ_ASSERT(): a violation aborts, so libFuzzer reports it like a crash.
 */
#ifndef OC_FUZZ_COMMON_H
#define OC_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "mem.h"
#include "symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond)                                                   \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "%s:%d: invariant broken: %s\n",    \
				__FILE__, __LINE__, #cond);                 \
			abort();                                            \
		}                                                           \
	} while (0)

struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline bool fuzz_take(struct fuzz_in *in, void *buf, size_t len)
{
	if (in->left < len) {
		memset(buf, 0, len);
		in->p += in->left;
		in->left = 0;
		return false;
	}
	memcpy(buf, in->p, len);
	in->p += len;
	in->left -= len;
	return true;
}

/* fuzz_u64() .. fuzz_u8(): a number as it is in the input, 0 past its end */
#define FUZZ_DEFINE_UINT(bits)                                              \
	static inline uint##bits##_t fuzz_u##bits(struct fuzz_in *in)       \
	{                                                                   \
		uint##bits##_t v;                                           \
									    \
		fuzz_take(in, &v, sizeof(v));                               \
		return v;                                                   \
	}
FUZZ_DEFINE_UINT(64)
FUZZ_DEFINE_UINT(32)
FUZZ_DEFINE_UINT(16)
FUZZ_DEFINE_UINT(8)
#undef FUZZ_DEFINE_UINT

/* Up to @len bytes in place (fewer at the end of the input). */
static inline const uint8_t *fuzz_bytes(struct fuzz_in *in, size_t *len)
{
	const uint8_t *p = in->p;

	if (*len > in->left)
		*len = in->left;
	in->p += *len;
	in->left -= *len;
	return p;
}

/* A NUL-terminated string of the input (or the rest of it), copied. */
static inline char *fuzz_string(struct fuzz_in *in)
{
	const uint8_t *nul = memchr(in->p, 0, in->left);
	size_t len = nul ? (size_t)(nul - in->p) : in->left;
	char *s = malloc(len + 1);

	if (!s)
		abort();
	memcpy(s, in->p, len);
	s[len] = '\0';
	in->p += len + (nul != NULL);
	in->left -= len + (nul != NULL);
	return s;
}

/*
 * A memory image: regions of { u64 addr, u32 len, len bytes } until the
 * input ends (a short last region keeps the bytes there are).
 */
enum { FUZZ_MAX_REGIONS = 16, FUZZ_MAX_REGION = 1 << 20 };

struct fuzz_image {
	struct oc_mem_region regions[FUZZ_MAX_REGIONS];
	struct oc_mem_buffers bufs;
	struct oc_mem mem;
};

static inline void fuzz_image_read(struct fuzz_in *in, struct fuzz_image *img)
{
	size_t nr = 0;

	while (in->left >= 12 && nr < FUZZ_MAX_REGIONS) {
		uint64_t addr = fuzz_u64(in);
		size_t len = fuzz_u32(in) % FUZZ_MAX_REGION;
		const uint8_t *data = fuzz_bytes(in, &len);

		img->regions[nr++] = (struct oc_mem_region){
			.addr = addr, .len = len, .data = data };
	}
	img->bufs.regions = img->regions;
	img->bufs.nr = nr;
	oc_mem_buffers_init(&img->mem, &img->bufs);
}

/* Every error must be well formed: a code and a message. */
static inline void fuzz_check_error(struct oc_error *err)
{
	if (!err)
		return;
	FUZZ_ASSERT(err->code != 0);
	FUZZ_ASSERT(err->message != NULL);
	oc_error_destroy(err);
}

/*
 * A finished symbol table: names inside the pool and terminated, sorted
 * addresses, and lookups that agree with the table.
 */
static inline void fuzz_check_symtab(const struct oc_symtab *tab)
{
	for (size_t i = 0; i < tab->nr; i++) {
		const struct oc_symbol *s = &tab->syms[i];
		const struct oc_symbol *found;

		FUZZ_ASSERT(s->name < tab->pool_len);
		FUZZ_ASSERT(memchr(tab->pool + s->name, 0,
				   tab->pool_len - s->name));
		FUZZ_ASSERT(!i || tab->syms[i - 1].value <= s->value);
		found = oc_symtab_lookup(tab, oc_symtab_addr(tab, s));
		FUZZ_ASSERT(!found || found->value == s->value || !s->size);
		if (i < 64)
			FUZZ_ASSERT(oc_symtab_find(tab,
						   oc_symtab_name(tab, s)));
	}
}
#define FUZZ_CHECK_SYMTAB(tab) fuzz_check_symtab(tab)

#endif /* OC_FUZZ_COMMON_H */
