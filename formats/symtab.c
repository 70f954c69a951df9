// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "symtab.h"

void oc_symtab_init(struct oc_symtab *tab)
{
	memset(tab, 0, sizeof(*tab));
}

void oc_symtab_deinit(struct oc_symtab *tab)
{
	if (!tab->borrowed) {
		free(tab->syms);
		free(tab->pool);
		free(tab->hash);
	}
	memset(tab, 0, sizeof(*tab));
}

static struct oc_error *read_only(void)
{
	return oc_error_create(OC_ERR_INVALID,
			       "a symbol table over a cache file is read-only");
}

/* A name's hash, eight bytes at a time (a multiplicative hash on words). */
static uint32_t name_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, len);	/* the tail, and the length in the high byte */
	w |= (uint64_t)len << 56;
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	h ^= h >> 32;
	return (uint32_t)h;
}

struct oc_error *oc_symtab_reserve(struct oc_symtab *tab, size_t nr,
				   size_t pool_bytes)
{
	if (tab->borrowed)
		return read_only();
	if (nr > UINT32_MAX || pool_bytes > UINT32_MAX)
		return NULL;	/* oc_symtab_add() says what is too big */
	if (tab->nr + nr > tab->cap) {
		void *p = realloc(tab->syms, (tab->nr + nr) * sizeof(*tab->syms));

		if (!p)
			return &oc_enomem;
		tab->syms = p;
		tab->cap = tab->nr + nr;
	}
	if (tab->pool_len + pool_bytes > tab->pool_cap) {
		void *p = realloc(tab->pool, tab->pool_len + pool_bytes);

		if (!p)
			return &oc_enomem;
		tab->pool = p;
		tab->pool_cap = tab->pool_len + pool_bytes;
	}
	return NULL;
}

/*
 * Every byte 0x20..0x7e, eight at a time (a symbol table's every name):
 * a byte below 0x20 borrows into its top bit when 0x20 is taken from
 * it, one of 0x7f or more has it set or carries into it when 1 is added;
 * a borrow or carry from a byte below only makes a false alarm, which
 * the byte-by-byte loop after it settles.
 */
static bool printable(const char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull, tops = 0x8080808080808080ull;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		if (((x - 0x20 * ones) | (x + ones) | x) & tops)
			return false;
	}
	for (; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

struct oc_error *oc_symtab_add(struct oc_symtab *tab, const char *name,
			       uint64_t addr, char type)
{
	size_t len = strlen(name) + 1;
	void *p;

	if (tab->borrowed)
		return read_only();
	p = oc_array_grow(tab->syms, tab->nr, 1, &tab->cap, sizeof(*tab->syms),
			  1024);
	if (!p)
		return &oc_enomem;
	tab->syms = p;
	/* names are found by a 32-bit offset into the pool */
	if (tab->pool_len + len > UINT32_MAX)
		return oc_error_create(OC_ERR_FORMAT, "symbol names exceed 4 GiB");
	p = oc_array_grow(tab->pool, tab->pool_len, len, &tab->pool_cap, 1,
			  65536);
	if (!p)
		return &oc_enomem;
	tab->pool = p;
	memcpy(tab->pool + tab->pool_len, name, len);
	/* names from dump memory (kallsyms, modules) are hostile: no
	 * terminal control sequences in a report; kernel names are ASCII */
	if (!printable(tab->pool + tab->pool_len, len - 1)) {
		for (size_t i = 0; i + 1 < len; i++) {
			unsigned char c = (unsigned char)tab->pool[tab->pool_len + i];

			if (c < 0x20 || c > 0x7e)
				tab->pool[tab->pool_len + i] = '?';
		}
	}
	tab->syms[tab->nr++] = (struct oc_symbol){
		.value = addr - tab->bias,
		.name = (uint32_t)tab->pool_len,
		.seq = (uint32_t)(tab->nr - 1),
		.hash = name_hash(tab->pool + tab->pool_len, len - 1),
		.type = type,
	};
	tab->pool_len += len;
	tab->finished = false;
	return NULL;
}

void oc_symtab_relocate(struct oc_symtab *tab, uint64_t delta)
{
	tab->bias += delta;
}

static const struct oc_symtab *sort_tab;

/* scripts/kallsyms.c may_be_linker_script_provide_symbol() */
static bool linker_script_symbol(const char *s)
{
	size_t len = strlen(s);

	if (len < 8 || s[0] != '_' || s[1] != '_')
		return false;
	return !strncmp(s + 2, "start_", 6) || !strncmp(s + 2, "stop_", 5) ||
	       !strncmp(s + 2, "end_", 4) ||
	       !strcmp(s + len - 6, "_start") || !strcmp(s + len - 4, "_end");
}

/* scripts/kallsyms.c compare_symbols() after the address */
static int kallsyms_script_cmp(const struct oc_symbol *x,
			       const struct oc_symbol *y)
{
	const char *nx = sort_tab->pool + x->name, *ny = sort_tab->pool + y->name;
	int wx = x->type == 'w' || x->type == 'W';
	int wy = y->type == 'w' || y->type == 'W';

	if (wx != wy)
		return wx - wy;
	wx = linker_script_symbol(nx);
	wy = linker_script_symbol(ny);
	if (wx != wy)
		return wx - wy;
	wx = (int)strspn(nx, "_");
	wy = (int)strspn(ny, "_");
	if (wx != wy)
		return wx - wy;
	return strcmp(nx, ny);
}

/* By address; at one address, in the order the kernel's lookup sees
 * them (enum oc_symtab_ties), so the first alias is the kernel's answer. */
static int sym_cmp(const void *a, const void *b)
{
	const struct oc_symbol *x = a, *y = b;
	int c;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (sort_tab->ties == OC_SYMTAB_TIES_KALLSYMS_SCRIPT) {
		c = kallsyms_script_cmp(x, y);
		if (c)
			return c;
	}
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Sort by sym_cmp(): a stable radix sort on the address (11-bit digits,
 * only those where the addresses differ: a vmlinux's span ~26 bits, three
 * passes), then each run of equal addresses by sym_cmp() itself.  The
 * order is total (seq is unique), so this is exactly qsort()'s result, at
 * a tenth of its cost on a vmlinux's 150,000 symbols.
 */
#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

static struct oc_error *sort_symbols(struct oc_symtab *tab)
{
	struct oc_symbol *a = tab->syms, *b, *t;
	size_t n = tab->nr, *count;
	uint64_t diff = 0;

	if (n < 2)	/* nothing to sort (and syms may be NULL) */
		return NULL;
	for (size_t i = 1; i < n; i++)
		diff |= a[i].value ^ a[0].value;
	b = malloc(n * sizeof(*b));
	count = malloc(RADIX_SIZE * sizeof(*count));
	if (!b || !count) {
		free(b);
		free(count);
		return &oc_enomem;
	}
	for (unsigned int shift = 0; shift < 64 && (diff >> shift); shift += RADIX_BITS) {
		size_t sum = 0;

		if (!((diff >> shift) & (RADIX_SIZE - 1)))
			continue;	/* one digit for all: nothing moves */
		memset(count, 0, RADIX_SIZE * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(a[i].value >> shift) & (RADIX_SIZE - 1)]++;
		for (size_t d = 0; d < RADIX_SIZE; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[(a[i].value >> shift) & (RADIX_SIZE - 1)]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	free(count);
	if (a != tab->syms) {
		memcpy(tab->syms, a, n * sizeof(*a));
		b = a;
	}
	free(b);
	/* the ties: each run of one address in the full order */
	sort_tab = tab;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && tab->syms[j].value == tab->syms[i].value; j++)
			;
		if (j - i > 1)
			qsort(tab->syms + i, j - i, sizeof(*tab->syms), sym_cmp);
	}
	sort_tab = NULL;
	return NULL;
}

struct oc_error *oc_symtab_finish(struct oc_symtab *tab)
{
	struct oc_error *err;
	size_t n = 0;

	if (tab->borrowed)
		return read_only();
	err = sort_symbols(tab);
	if (err)
		return err;
	for (size_t i = 0; i < tab->nr; i++) {
		bool dup = false;

		/* the same name twice at one address: keep the first (among
		 * the nearest aliases: a hostile table's pile of symbols at
		 * one address costs no more than that) */
		for (size_t j = n, k = 0; j-- > 0 && k < 64 &&
		     tab->syms[j].value == tab->syms[i].value; k++)
			if (!strcmp(tab->pool + tab->syms[j].name,
				    tab->pool + tab->syms[i].name)) {
				dup = true;
				break;
			}
		if (!dup)
			tab->syms[n++] = tab->syms[i];
	}
	tab->nr = n;
	/* kallsyms: size is the distance to the next higher address */
	for (size_t i = 0; i < n; i++) {
		size_t j = i + 1;

		while (j < n && tab->syms[j].value == tab->syms[i].value)
			j++;
		tab->syms[i].size = j < n ? tab->syms[j].value - tab->syms[i].value
					  : 0;
	}

	free(tab->hash);
	tab->hash_size = 16;
	while (tab->hash_size < n * 2)
		tab->hash_size *= 2;
	tab->hash = calloc(tab->hash_size, sizeof(*tab->hash));
	if (!tab->hash)
		return &oc_enomem;
	for (size_t i = 0; i < n; i++) {
		const char *name = tab->pool + tab->syms[i].name;
		uint32_t h = tab->syms[i].hash;
		size_t slot = h & (tab->hash_size - 1);
		struct oc_symtab_slot *sl;

		while ((sl = &tab->hash[slot])->idx) {
			const struct oc_symbol *o = &tab->syms[sl->idx - 1];

			if (sl->tag == h &&
			    !strcmp(tab->pool + o->name, name))
				break;
			slot = (slot + 1) & (tab->hash_size - 1);
		}
		if (!sl->idx)
			*sl = (struct oc_symtab_slot){ (uint32_t)(i + 1), h };
		else if (!isupper((unsigned char)tab->syms[sl->idx - 1].type) &&
			 isupper((unsigned char)tab->syms[i].type))
			sl->idx = (uint32_t)(i + 1);
	}
	tab->finished = true;
	return NULL;
}

const struct oc_symbol *oc_symtab_lookup(const struct oc_symtab *tab,
					 uint64_t addr)
{
	const struct oc_symbol *s;
	size_t lo;

	/* below the first address (kernel addresses do not wrap: from
	 * there on addr - bias does not either) */
	if (!tab->nr || addr < oc_symtab_addr(tab, &tab->syms[0]))
		return NULL;
	addr -= tab->bias;
	/* a first value that wrapped with the bias (a corrupt cache file's):
	 * nothing below it, and no index before the table's start */
	if (addr < tab->syms[0].value)
		return NULL;
	/* the last symbol at or below addr (syms[0] is) */
	lo = oc_array_upper_bound(tab->syms, tab->nr, sizeof(*tab->syms),
				  offsetof(struct oc_symbol, value), addr) - 1;
	/* first of the aliases at this address (the preferred one) */
	while (lo && tab->syms[lo - 1].value == tab->syms[lo].value)
		lo--;
	s = &tab->syms[lo];
	if (!s->size || addr - s->value >= s->size)
		return NULL;
	return s;
}

const struct oc_symbol *oc_symtab_find(const struct oc_symtab *tab,
				       const char *name)
{
	uint32_t h;
	size_t slot;

	if (!tab->hash)
		return NULL;
	h = name_hash(name, strlen(name));
	slot = h & (tab->hash_size - 1);
	/* a view's index is checked here, as it is used (oc_symtab_view()):
	 * an entry past the symbols ends the search, and so does a full
	 * circle */
	for (size_t n = 0; n < tab->hash_size && tab->hash[slot].idx &&
	     tab->hash[slot].idx <= tab->nr; n++) {
		const struct oc_symbol *s = &tab->syms[tab->hash[slot].idx - 1];

		if (tab->hash[slot].tag == h &&
		    !strcmp(oc_symtab_name(tab, s), name))
			return s;
		slot = (slot + 1) & (tab->hash_size - 1);
	}
	return NULL;
}

/* ---- the table as bytes (a cache's) -------------------------------------- */

struct symtab_head {
	uint64_t nr, pool_len, hash_size;
	uint32_t ties, symbol_size;
};

/* the names are padded to this: the name index after them, and what
 * follows the table, stay aligned for a view over the bytes */
enum { POOL_ALIGN = 8 };

static size_t pool_padded(uint64_t pool_len)
{
	return (size_t)((pool_len + POOL_ALIGN - 1) & ~(uint64_t)(POOL_ALIGN - 1));
}

struct oc_error *oc_symtab_write(const struct oc_symtab *tab, FILE *fp)
{
	static const char zeros[POOL_ALIGN];
	struct symtab_head h = {
		.nr = tab->nr, .pool_len = tab->pool_len,
		.hash_size = tab->hash ? tab->hash_size : 0,
		.ties = tab->ties, .symbol_size = sizeof(struct oc_symbol),
	};
	size_t pad = pool_padded(tab->pool_len) - tab->pool_len;

	if (!tab->finished)
		return oc_error_format(OC_ERR_INVALID, "the symbol table is not finished");
	bool ok = fwrite(&h, sizeof(h), 1, fp) == 1;

	/* field by field into zeroed copies: no padding byte unset; the
	 * values as they are (a table is written unrelocated) */
	for (size_t i = 0; ok && i < tab->nr; i++) {
		struct oc_symbol s;

		memset(&s, 0, sizeof(s));
		s.value = tab->syms[i].value;
		s.size = tab->syms[i].size;
		s.name = tab->syms[i].name;
		s.seq = tab->syms[i].seq;
		s.hash = tab->syms[i].hash;
		s.type = tab->syms[i].type;
		ok = fwrite(&s, sizeof(s), 1, fp) == 1;
	}
	if (!ok || fwrite(tab->pool, 1, tab->pool_len, fp) != tab->pool_len ||
	    fwrite(zeros, 1, pad, fp) != pad ||
	    fwrite(tab->hash, sizeof(*tab->hash), h.hash_size, fp) != h.hash_size)
		return oc_error_format(OC_ERR_OS, "writing a symbol table failed");
	return NULL;
}

static struct oc_error *bad(struct oc_symtab *tab, const char *why)
{
	oc_symtab_init(tab);
	return oc_error_format(OC_ERR_FORMAT, "symbol table: %s", why);
}

/* Not more than a vmlinux has by far (~200,000 symbols, 5 MB of names). */
static const uint64_t max_read_symbols = 1u << 22, max_read_pool = 1u << 28;

struct oc_error *oc_symtab_view(struct oc_symtab *tab, const void *buf,
				size_t len, size_t *used_ret)
{
	const uint8_t *b = buf;
	struct symtab_head h;
	size_t at, need;

	oc_symtab_init(tab);
	if ((uintptr_t)buf % POOL_ALIGN)
		return bad(tab, "misaligned");
	if (len < sizeof(h))
		return bad(tab, "truncated");
	memcpy(&h, b, sizeof(h));
	if (h.symbol_size != sizeof(struct oc_symbol) || h.nr > max_read_symbols ||
	    h.pool_len > max_read_pool || h.hash_size > 4 * max_read_symbols ||
	    (h.hash_size & (h.hash_size - 1)) || h.hash_size <= h.nr ||
	    h.ties > OC_SYMTAB_TIES_KALLSYMS_SCRIPT || (!h.pool_len && h.nr))
		return bad(tab, "implausible sizes");
	/* the limits above keep these sums far from overflowing */
	at = sizeof(h) + h.nr * sizeof(struct oc_symbol);
	need = at + pool_padded(h.pool_len) + h.hash_size * sizeof(*tab->hash);
	if (len < need)
		return bad(tab, "truncated");
	/* the bytes are read-only (a mapped file): the table only reads */
	tab->syms = (struct oc_symbol *)(uintptr_t)(b + sizeof(h));
	tab->pool = (char *)(uintptr_t)(b + at);
	tab->hash = (struct oc_symtab_slot *)(uintptr_t)(b + at + pool_padded(h.pool_len));
	tab->borrowed = true;
	tab->nr = tab->cap = h.nr;
	tab->pool_len = tab->pool_cap = h.pool_len;
	tab->hash_size = h.hash_size;
	tab->ties = h.ties;
	if (tab->pool_len && tab->pool[tab->pool_len - 1])
		return bad(tab, "names not NUL-terminated");
	/* the arrays (7 MB of a vmlinux's) are not read here, only where a
	 * lookup goes: a name's offset is checked as it is read
	 * (oc_symtab_name()), and the name index's entries as a lookup by
	 * name uses them (oc_symtab_find()); symbols out of order only make
	 * a lookup by address answer wrong (the file is the user's own, as
	 * the lines cache is) */
	tab->finished = true;
	*used_ret = need;
	return NULL;
}
