// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms from target memory.  The layout is scripts/kallsyms.c's
 * write_src(): kallsyms_offsets (or kallsyms_addresses),
 * kallsyms_relative_base, kallsyms_num_syms, kallsyms_names,
 * kallsyms_markers (a u32 name offset every 256 symbols), then the token
 * table and its index.  kernel/kallsyms.c reads them the same way; so
 * does drgn's libdrgn/kallsyms.c.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "kallsyms.h"

enum { PAGE = 4096, CHUNK = 64 * 1024 };

/*
 * kallsyms_names, read on demand: its length is only known once every
 * symbol has been walked.  Reads are page-aligned chunks; near an
 * unreadable page they fall back to single pages so that a table ending
 * just before a hole still reads.
 */
struct names_buf {
	const struct oc_mem *mem;
	uint64_t addr;
	uint8_t *data;
	size_t len, cap;
};

static struct oc_error *names_ensure(struct names_buf *b, size_t need)
{
	while (b->len < need) {
		uint64_t at = b->addr + b->len;
		size_t want = CHUNK - (size_t)(at % PAGE);
		struct oc_error *err;
		void *p;

		if (need > OC_KALLSYMS_MAX_NAMES)
			return oc_error_format(OC_ERR_FORMAT,
					       "kallsyms_names exceeds %d MiB: corrupt kallsyms_num_syms or lengths?",
					       OC_KALLSYMS_MAX_NAMES >> 20);
		p = oc_array_grow(b->data, b->len, want, &b->cap, 1, 4 * CHUNK);
		if (!p)
			return &oc_enomem;
		b->data = p;
		err = oc_mem_read(b->mem, at, b->data + b->len, want);
		if (err && want > PAGE - at % PAGE) {
			oc_error_destroy(err);
			want = PAGE - (size_t)(at % PAGE);
			err = oc_mem_read(b->mem, at, b->data + b->len, want);
		}
		if (err)
			return err;
		b->len += want;
	}
	return NULL;
}

struct tokens {
	uint16_t index[256];
	char *table;		/* every token NUL-terminated inside it */
};

static struct oc_error *read_tokens(const struct oc_mem *mem,
				    const struct oc_kallsyms_loc *loc,
				    struct tokens *t)
{
	uint8_t raw[512];
	size_t max = 0, size;
	struct oc_error *err;

	err = oc_mem_read(mem, loc->token_index, raw, sizeof(raw));
	if (err)
		return err;
	for (int i = 0; i < 256; i++) {
		t->index[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
		if (t->index[i] > max)
			max = t->index[i];
	}
	/* the last token: up to a name's length past the highest index */
	size = max + OC_KALLSYMS_NAME_LEN;
	t->table = malloc(size + 1);
	if (!t->table)
		return &oc_enomem;
	err = oc_mem_read(mem, loc->token_table, t->table, max);
	if (!err)
		err = oc_mem_read_string(mem, loc->token_table + max,
					 t->table + max, OC_KALLSYMS_NAME_LEN);
	if (err)
		return err;
	t->table[size] = '\0';
	for (int i = 0; i < 256; i++) {
		size_t n = strnlen(t->table + t->index[i], size - t->index[i]);

		if (n > 255 || t->index[i] + n >= size)
			return oc_error_format(OC_ERR_FORMAT,
					       "kallsyms_token_table: token %d at %u is not terminated",
					       i, t->index[i]);
	}
	return NULL;
}

/*
 * A compressed name's length, its first byte at @p with @left bytes
 * there: one byte, or since 6.1 (commit 73bbb94466fd "kallsyms: support
 * "big" kernel symbols", @long_names) two when the first has bit 7 set,
 * the low seven bits first.  *@hdr is how many bytes it took; 0 if they
 * are not there.
 */
static size_t name_len(const uint8_t *p, size_t left, bool long_names,
		       size_t *hdr)
{
	if (!left)
		return *hdr = 0;
	if (!(p[0] & 0x80) || !long_names) {
		*hdr = 1;
		return p[0];
	}
	if (left < 2)
		return *hdr = 0;
	*hdr = 2;
	return (size_t)(p[0] & 0x7f) | (size_t)p[1] << 7;
}

/* One symbol's compressed name: its token count and where the tokens are. */
static struct oc_error *name_at(struct names_buf *b, size_t off, bool long_names,
				size_t *ntok_ret, size_t *data_ret)
{
	struct oc_error *err = names_ensure(b, off + 2);
	size_t n, hdr;

	if (err)
		return err;
	n = name_len(b->data + off, 2, long_names, &hdr);
	off += hdr;
	err = names_ensure(b, off + n);
	if (err)
		return err;
	*ntok_ret = n;
	*data_ret = off;
	return NULL;
}

/*
 * Walk every name with one length encoding, noting where each 256th
 * symbol starts; check those against kallsyms_markers, which follows
 * the names at the next 8-byte (4-byte in 7.x) boundary (ALGN in
 * write_src()).
 */
static struct oc_error *walk_names(struct names_buf *b, uint32_t nr,
				   bool long_names, size_t *end_ret,
				   bool *markers_ok_ret)
{
	size_t nr_markers = ((size_t)nr + 255) / 256;
	uint32_t *markers = malloc(nr_markers * sizeof(*markers));
	uint32_t *found = NULL;
	size_t off = 0, ntok, data;
	struct oc_error *err = NULL;

	if (!markers)
		return &oc_enomem;
	for (uint32_t i = 0; i < nr; i++) {
		if (!(i & 0xff))
			markers[i >> 8] = (uint32_t)off;
		err = name_at(b, off, long_names, &ntok, &data);
		if (err)
			goto out;
		if (!ntok) {
			err = oc_error_format(OC_ERR_FORMAT,
					      "kallsyms_names: symbol %" PRIu32 " has no name",
					      i);
			goto out;
		}
		off = data + ntok;
	}
	*end_ret = off;
	*markers_ok_ret = false;
	found = malloc(nr_markers * sizeof(*found));
	if (!found) {
		err = &oc_enomem;
		goto out;
	}
	/* ALGN is ".balign 8" while the tables hold 8-byte values; in 7.x
	 * (no kallsyms_relative_base) 4: 7.2.13+deb14 has kallsyms_markers
	 * 4- but not 8-aligned after the names */
	for (size_t align = 8; align >= 4 && !*markers_ok_ret; align /= 2) {
		/* .balign aligns the address, not the offset from the
		 * names (4-aligned themselves in 7.x) */
		uint64_t at = (b->addr + off + align - 1) & ~(uint64_t)(align - 1);
		struct oc_error *merr = oc_mem_read(b->mem, at, found,
						    nr_markers * sizeof(*found));

		if (merr)
			oc_error_destroy(merr);
		else
			*markers_ok_ret = !memcmp(found, markers,
						  nr_markers * sizeof(*found));
	}
out:
	free(found);
	free(markers);
	return err;
}

/* Expand one name; its first character is the type letter. */
static void expand(const struct names_buf *b, const struct tokens *t,
		   size_t data, size_t ntok, char *type_ret, char *out)
{
	size_t len = 0;
	bool first = true;

	*type_ret = '?';
	for (size_t i = 0; i < ntok; i++) {
		const char *tok = t->table + t->index[b->data[data + i]];

		for (; *tok; tok++) {
			if (first) {
				*type_ret = *tok;
				first = false;
			} else if (len < OC_KALLSYMS_NAME_LEN - 1) {
				out[len++] = *tok;
			}
		}
	}
	out[len] = '\0';
}

static struct oc_error *read_addresses(const struct oc_mem *mem,
				       const struct oc_kallsyms_loc *loc,
				       uint32_t nr, int32_t **offs_ret,
				       uint64_t **addrs_ret)
{
	struct oc_error *err;

	if (loc->offsets) {
		int32_t *o = malloc((size_t)nr * sizeof(*o));

		if (!o)
			return &oc_enomem;
		*offs_ret = o;
		err = oc_mem_read(mem, loc->offsets, o, (size_t)nr * sizeof(*o));
	} else {
		uint64_t *a = malloc((size_t)nr * sizeof(*a));

		if (!a)
			return &oc_enomem;
		*addrs_ret = a;
		err = oc_mem_read(mem, loc->addresses, a,
				  (size_t)nr * sizeof(*a));
	}
	return err;
}

struct decoded {
	char *pool;		/* names, NUL-separated */
	uint32_t *name;		/* offset of each name in pool */
	char *type;
	size_t stext, per_cpu_start, per_cpu_end;	/* indexes, or SIZE_MAX */
};

static struct oc_error *decode_names(struct names_buf *b,
				     const struct tokens *t, uint32_t nr,
				     bool long_names, struct decoded *d)
{
	size_t off = 0, pool_len = 0, pool_cap = 1 << 20, ntok, data;
	char name[OC_KALLSYMS_NAME_LEN];

	d->pool = malloc(pool_cap);
	d->name = malloc((size_t)nr * sizeof(*d->name));
	d->type = malloc(nr);
	if (!d->pool || !d->name || !d->type)
		return &oc_enomem;
	d->stext = d->per_cpu_start = d->per_cpu_end = SIZE_MAX;
	for (uint32_t i = 0; i < nr; i++) {
		struct oc_error *err = name_at(b, off, long_names, &ntok, &data);
		size_t len;
		void *p;

		if (err)
			return err;
		off = data + ntok;
		expand(b, t, data, ntok, &d->type[i], name);
		len = strlen(name) + 1;
		/* names are found by a 32-bit offset into the pool */
		if (pool_len + len > UINT32_MAX)
			return oc_error_create(OC_ERR_FORMAT,
					       "kallsyms names exceed 4 GiB");
		p = oc_array_grow(d->pool, pool_len, len, &pool_cap, 1, 1 << 20);
		if (!p)
			return &oc_enomem;
		d->pool = p;
		memcpy(d->pool + pool_len, name, len);
		d->name[i] = (uint32_t)pool_len;
		pool_len += len;
		if (d->stext == SIZE_MAX && !strcmp(name, "_stext"))
			d->stext = i;
		else if (!strcmp(name, "__per_cpu_start"))
			d->per_cpu_start = i;
		else if (!strcmp(name, "__per_cpu_end"))
			d->per_cpu_end = i;
	}
	return NULL;
}

static uint64_t address_of(const struct oc_kallsyms_info *info,
			   const int32_t *offs, const uint64_t *addrs, size_t i)
{
	switch (info->rule) {
	case OC_KALLSYMS_ABSOLUTE:
		return addrs[i];
	case OC_KALLSYMS_RELATIVE:
		return info->base + (uint32_t)offs[i];
	case OC_KALLSYMS_PLACE_RELATIVE:
		return info->base + 4 * (uint64_t)i + (uint64_t)(int64_t)offs[i];
	case OC_KALLSYMS_ABSOLUTE_PERCPU:
		break;
	}
	/* kallsyms_sym_address() under CONFIG_KALLSYMS_ABSOLUTE_PERCPU */
	if (offs[i] >= 0)
		return (uint64_t)offs[i];
	return info->base - 1 - (uint64_t)(int64_t)offs[i];
}

/*
 * Which rule turns the offsets into addresses: the one that puts
 * _stext where VMCOREINFO says it is.  x86-64 used absolute per-CPU
 * symbols (positive offsets are absolute, negative ones relative to
 * base - 1) until the per-CPU rework of 6.15 removed
 * CONFIG_KALLSYMS_ABSOLUTE_PERCPU; 7.x dropped kallsyms_relative_base
 * and stores place-relative offsets (below).  A table without
 * kallsyms_relative_base whose _stext does not decode place-relative is
 * read base-relative with the base derived from _stext.
 */
static struct oc_error *choose_rule(const struct oc_mem *mem,
				    const struct oc_kallsyms_loc *loc,
				    const struct decoded *d,
				    const int32_t *offs,
				    struct oc_kallsyms_info *info)
{
	struct oc_error *err;
	uint64_t base;
	int32_t o;

	if (!loc->offsets) {
		info->rule = OC_KALLSYMS_ABSOLUTE;
		return NULL;
	}
	if (d->stext == SIZE_MAX)
		return oc_error_create(OC_ERR_FORMAT,
				       "kallsyms has no _stext symbol: cannot tell how its addresses are stored");
	if (!loc->stext)
		return oc_error_create(OC_ERR_LOOKUP,
				       "VMCOREINFO has no SYMBOL(_stext) to check the kallsyms addresses against");
	o = offs[d->stext];
	if (!loc->relative_base) {
		/*
		 * 7.x (7.2.13+deb14): each offset is relative to its own
		 * slot, kallsyms_sym_address() is
		 * offset_to_ptr(&kallsyms_offsets[idx]) (its code in that
		 * vmlinux: movslq kallsyms_offsets(,%rdi,4),%rax; lea
		 * kallsyms_offsets(%rax,%rdi,4),%rax) and the tables have no
		 * kallsyms_relative_base.  loc->offsets is the table's
		 * address as the kernel sees it (VMCOREINFO, relocated).
		 */
		if (loc->offsets + 4 * (uint64_t)d->stext + (uint64_t)(int64_t)o ==
		    loc->stext) {
			info->rule = OC_KALLSYMS_PLACE_RELATIVE;
			info->base = loc->offsets;
			return NULL;
		}
		info->rule = OC_KALLSYMS_RELATIVE;
		info->base = loc->stext - (uint32_t)o;
		info->base_derived = true;
		return NULL;
	}
	err = oc_mem_read_u64(mem, loc->relative_base, &base);
	if (err)
		return err;
	info->base = base;
	if (base + (uint32_t)o == loc->stext) {
		info->rule = OC_KALLSYMS_RELATIVE;
		return NULL;
	}
	if (o < 0 && base - 1 - (uint64_t)(int64_t)o == loc->stext) {
		info->rule = OC_KALLSYMS_ABSOLUTE_PERCPU;
		return NULL;
	}
	return oc_error_format(OC_ERR_FORMAT,
			       "kallsyms addresses do not decode: _stext is 0x%" PRIx64
			       " in VMCOREINFO, offset %" PRId32 " from base 0x%" PRIx64,
			       loc->stext, o, base);
}

/*
 * scripts/kallsyms.c sorts the table by address, so a rule that decodes
 * _stext right but leaves the table unsorted is the wrong one (or the
 * table is corrupt).
 */
static struct oc_error *check_sorted(const struct oc_kallsyms_info *info,
				     const int32_t *offs, const uint64_t *addrs,
				     uint32_t nr)
{
	uint64_t prev = 0;

	for (uint32_t i = 0; i < nr; i++) {
		uint64_t addr = address_of(info, offs, addrs, i);

		if (addr < prev)
			return oc_error_format(OC_ERR_FORMAT,
					       "kallsyms addresses are not sorted (symbol %" PRIu32
					       " at 0x%" PRIx64 " after 0x%" PRIx64
					       "): corrupt table or an address rule we do not know",
					       i, addr, prev);
		prev = addr;
	}
	return NULL;
}

static struct oc_error *fill(const struct decoded *d, const int32_t *offs,
			     const uint64_t *addrs, uint32_t nr,
			     struct oc_kallsyms_info *info,
			     struct oc_symtab *syms,
			     struct oc_symtab *percpu_syms)
{
	uint64_t pcpu_lo = 0, pcpu_hi = 0;

	if (info->rule != OC_KALLSYMS_ABSOLUTE_PERCPU &&
	    d->per_cpu_start != SIZE_MAX && d->per_cpu_end != SIZE_MAX) {
		pcpu_lo = address_of(info, offs, addrs, d->per_cpu_start);
		pcpu_hi = address_of(info, offs, addrs, d->per_cpu_end);
	}
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t addr = address_of(info, offs, addrs, i);
		const char *name = d->pool + d->name[i];
		bool percpu;
		struct oc_error *err;

		if (info->rule == OC_KALLSYMS_ABSOLUTE_PERCPU)
			percpu = offs[i] >= 0;
		else
			percpu = addr >= pcpu_lo && addr < pcpu_hi;
		if (percpu) {
			info->nr_percpu++;
			err = oc_symtab_add(percpu_syms, name, addr, d->type[i]);
		} else {
			err = oc_symtab_add(syms, name, addr, d->type[i]);
		}
		if (err)
			return err;
	}
	return NULL;
}

static bool loc_complete(const struct oc_kallsyms_loc *loc)
{
	return loc->names && loc->num_syms && loc->token_table &&
	       loc->token_index && (loc->offsets || loc->addresses);
}

struct oc_error *oc_kallsyms_read(const struct oc_mem *mem,
				  const struct oc_kallsyms_loc *loc,
				  struct oc_symtab *syms,
				  struct oc_symtab *percpu_syms,
				  struct oc_kallsyms_info *info_ret)
{
	struct oc_kallsyms_info info = { 0 };
	struct names_buf b = { .mem = mem, .addr = loc->names };
	struct tokens t = { .table = NULL };
	struct decoded d = { 0 };
	int32_t *offs = NULL;
	uint64_t *addrs = NULL;
	struct oc_error *err;
	uint32_t nr;
	bool ok[2] = { false, false };
	size_t end[2] = { 0, 0 };

	if (!loc_complete(loc))
		return oc_error_create(OC_ERR_UNSUPPORTED,
				       "the kallsyms tables are not all located (VMCOREINFO of 6.0+ has them)");
	err = oc_mem_read_u32(mem, loc->num_syms, &nr);
	if (err)
		return err;
	if (!nr || nr > OC_KALLSYMS_MAX_SYMS)
		return oc_error_format(OC_ERR_FORMAT,
				       "kallsyms_num_syms is %" PRIu32 ": corrupt?",
				       nr);
	info.nr_syms = nr;
	err = read_tokens(mem, loc, &t);
	if (err)
		goto out;
	/* the preferred length encoding first; the other if markers disagree */
	for (int pass = 0; pass < 2; pass++) {
		bool long_names = pass ? !loc->long_names : loc->long_names;
		struct oc_error *werr = walk_names(&b, nr, long_names,
						   &end[pass], &ok[pass]);

		if (werr && werr != &oc_enomem) {
			if (!pass)
				err = werr;
			else
				oc_error_destroy(werr);
			continue;
		}
		if (werr) {
			err = werr;
			goto out;
		}
		if (ok[pass]) {
			oc_error_destroy(err);
			err = NULL;
			info.long_names = long_names;
			info.markers_checked = true;
			info.names_len = end[pass];
			break;
		}
	}
	if (!info.markers_checked) {
		/* no confirmation either way: trust the preferred encoding */
		if (err)
			goto out;
		info.long_names = loc->long_names;
		info.names_len = end[0];
	}
	err = decode_names(&b, &t, nr, info.long_names, &d);
	if (!err)
		err = read_addresses(mem, loc, nr, &offs, &addrs);
	if (!err)
		err = choose_rule(mem, loc, &d, offs, &info);
	if (!err)
		err = check_sorted(&info, offs, addrs, nr);
	if (!err)
		err = fill(&d, offs, addrs, nr, &info, syms, percpu_syms);
	if (!err)
		err = oc_symtab_finish(syms);
	if (!err)
		err = oc_symtab_finish(percpu_syms);
	if (!err && info_ret)
		*info_ret = info;
out:
	free(offs);
	free(addrs);
	free(d.pool);
	free(d.name);
	free(d.type);
	free(t.table);
	free(b.data);
	return err;
}

/*
 * Finding the tables by their shape, for kernels whose VMCOREINFO does
 * not list them (before 6.0).  scripts/kallsyms.c write_src() (5.10 to
 * 6.12) puts each table behind an 8-byte aligned label in .rodata, in
 * this order: kallsyms_offsets (or kallsyms_addresses),
 * kallsyms_relative_base, kallsyms_num_syms, kallsyms_names,
 * kallsyms_markers, [kallsyms_seqs_of_names, 6.2+,] kallsyms_token_table,
 * kallsyms_token_index.  The token table is found first, then the
 * markers, the names and the count before them, and the ways the
 * addresses may be stored are left to oc_kallsyms_read() to decide
 * (the one that puts _stext where VMCOREINFO says) and to the caller to
 * check against every other VMCOREINFO symbol.  vmlinux-to-elf finds the
 * token table by the same digits.
 */

/* the scan: the image and where it is */
struct scan {
	const uint8_t *img;
	size_t len;
	uint64_t addr;
};

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* the next offset at or after @off whose address is 8-byte aligned (ALGN) */
static size_t align8(const struct scan *s, size_t off)
{
	return off + (size_t)(-(s->addr + off) & 7);
}

/*
 * kallsyms_token_index at @idx for a token table at @tab: 256 offsets,
 * the first 0, strictly increasing, each token NUL-terminated right
 * before the next and not empty, the last one ending within the
 * alignment padding before the index.
 */
static bool token_index_at(const struct scan *s, size_t tab, size_t idx)
{
	uint16_t ix[256];

	if (idx + 512 > s->len || tab >= idx)
		return false;
	for (int i = 0; i < 256; i++) {
		ix[i] = get16(s->img + idx + 2 * i);
		if (i ? ix[i] <= ix[i - 1] : ix[i] != 0)
			return false;
	}
	if (tab + ix[255] >= idx)
		return false;
	for (int i = 0; i < 256; i++) {
		size_t at = tab + ix[i];
		size_t end = i < 255 ? tab + ix[i + 1] - 1 : idx;
		size_t n = strnlen((const char *)s->img + at, end - at);

		if (!n || (i < 255 ? n != end - at : end - (at + n + 1) >= 8))
			return false;
	}
	return true;
}

/*
 * Every character that occurs in some symbol name stays a token of its
 * own, at its own code (insert_real_symbols_in_table() in
 * scripts/kallsyms.c): the digits are tokens 0x30..0x39, consecutive in
 * the table.
 */
static const char digits[] = "0\0" "1\0" "2\0" "3\0" "4\0" "5\0" "6\0" "7\0" "8\0" "9";

static bool find_tokens(const struct scan *s, size_t from, size_t *tab_ret,
			size_t *idx_ret, size_t *next_ret)
{
	const uint8_t *p = s->img + from;

	while ((p = memmem(p, s->len - (size_t)(p - s->img), digits,
			   sizeof(digits))) != NULL) {
		size_t at = (size_t)(p - s->img);
		size_t lim = at + 65536 < s->len ? at + 65536 : s->len;

		/* the index follows the table (ALGN): at most 64 KiB on */
		for (size_t q = align8(s, at + sizeof(digits)); q + 512 <= lim;
		     q += 8) {
			const uint8_t *ix = s->img + q;
			size_t off0 = get16(ix + 2 * '0'), tab;

			if (get16(ix) || off0 > at ||
			    get16(ix + 2 * '1') != off0 + 2)
				continue;
			tab = at - off0;
			if (align8(s, tab) != tab || !token_index_at(s, tab, q))
				continue;
			*tab_ret = tab;
			*idx_ret = q;
			*next_ret = at + 1;
			return true;
		}
		p++;
	}
	return false;
}

/* One name's compressed length at @off (its bytes follow), or 0. */
static size_t scan_name(const struct scan *s, size_t off, size_t lim,
			bool long_names, size_t *next_ret)
{
	size_t n, hdr;

	if (off >= lim)
		return 0;
	n = name_len(s->img + off, lim - off, long_names, &hdr);
	off += hdr;
	if (!hdr || !n || off + n > lim)
		return 0;
	*next_ret = off + n;
	return n;
}

/* Walk @nr names from @off, not past @lim; the offset after them or 0. */
static size_t scan_walk(const struct scan *s, size_t off, size_t lim,
			uint32_t nr, bool long_names)
{
	for (uint32_t i = 0; i < nr; i++)
		if (!scan_name(s, off, lim, long_names, &off))
			return 0;
	return off;
}

enum { MAX_GROUP = 256 * (OC_KALLSYMS_NAME_LEN + 2) };

/*
 * kallsyms_names and kallsyms_num_syms before markers @m[0..@nr_markers):
 * the names end where the markers start (after alignment), the count is
 * the 8 bytes before the names, it needs exactly that many markers, and
 * walking the names lands on the markers' offsets.
 */
static bool names_before(const struct scan *s, size_t m, size_t nr_markers,
			 bool long_names, size_t *names_ret, uint32_t *nr_ret)
{
	uint32_t last = get32(s->img + m + 4 * (nr_markers - 1));
	uint32_t second = get32(s->img + m + 4);

	size_t names;

	if (m < (size_t)last + 16)
		return false;
	/* the last group of names is 1 to 256 names long */
	names = m - (size_t)last - 2;
	names -= (size_t)((s->addr + names) & 7);
	for (; names >= 8 && m - names <= (size_t)last + MAX_GROUP; names -= 8) {
		size_t end;
		uint32_t nr;

		nr = get32(s->img + names - 8);
		if (!nr || ((size_t)nr + 255) / 256 != nr_markers)
			continue;
		if (scan_walk(s, names, m, 256, long_names) != names + second)
			continue;
		end = scan_walk(s, names + last, m,
				nr - 256 * (uint32_t)(nr_markers - 1), long_names);
		if (!end || align8(s, end) != m)
			continue;
		*names_ret = names;
		*nr_ret = nr;
		return true;
	}
	return false;
}

/*
 * kallsyms_markers at @m: 0, then offsets growing by at least 2 bytes
 * (a length and a token) and at most MAX_GROUP per 256 names.  The
 * number of markers in the run, 0 if fewer than 2.
 */
static size_t markers_at(const struct scan *s, size_t m, size_t lim)
{
	size_t n = 1;
	uint32_t prev = 0;

	if (m + 8 > lim || get32(s->img + m))
		return 0;
	while (m + 4 * (n + 1) <= lim) {
		uint32_t v = get32(s->img + m + 4 * n);

		if (v < prev + 512 || v - prev > MAX_GROUP)
			break;
		prev = v;
		n++;
	}
	return n >= 2 ? n : 0;
}

static size_t add_layouts(const struct scan *s, size_t tab, size_t idx,
			  size_t names, uint32_t nr, bool long_names,
			  struct oc_kallsyms_loc *cands, size_t n, size_t max)
{
	size_t count = names - 8;	/* kallsyms_num_syms */
	size_t offs_len = ((size_t)nr * 4 + 7) & ~(size_t)7;
	size_t after = align8(s, idx + 512);
	struct oc_kallsyms_loc base = {
		.names = s->addr + names,
		.num_syms = s->addr + count,
		.token_table = s->addr + tab,
		.token_index = s->addr + idx,
		.long_names = long_names,
	};
	struct oc_kallsyms_loc c;

	/* offsets, relative_base, num_syms: Debian's (BASE_RELATIVE) */
	if (count >= 8 + offs_len && n < max) {
		c = base;
		c.relative_base = s->addr + count - 8;
		c.offsets = c.relative_base - offs_len;
		cands[n++] = c;
	}
	/* kallsyms_addresses, num_syms: without BASE_RELATIVE */
	if (count >= (size_t)nr * 8 && n < max) {
		c = base;
		c.addresses = s->addr + count - (size_t)nr * 8;
		cands[n++] = c;
	}
	/* offsets right before num_syms: no kallsyms_relative_base */
	if (count >= offs_len && n < max) {
		c = base;
		c.offsets = s->addr + count - offs_len;
		cands[n++] = c;
	}
	/* offsets (and base) after the token index */
	if (after + (size_t)nr * 4 + 8 <= s->len && n < max) {
		c = base;
		c.offsets = s->addr + after;
		c.relative_base = s->addr + align8(s, after + (size_t)nr * 4);
		cands[n++] = c;
	}
	return n;
}

size_t oc_kallsyms_scan(const uint8_t *img, size_t len, uint64_t addr,
			bool long_names_first, struct oc_kallsyms_loc *cands,
			size_t max, const char **why_ret)
{
	const struct scan s = { .img = img, .len = len, .addr = addr };
	size_t from = 0, tab, idx, n = 0;
	const char *why = "no kallsyms_token_table (the digits as tokens)";

	while (n < max && find_tokens(&s, from, &tab, &idx, &from)) {
		/*
		 * The markers: before the token table, right before it or
		 * (6.2+) with kallsyms_seqs_of_names, 3 or 4 bytes a
		 * symbol, between them: up to 16 MiB before it.
		 */
		size_t win = 16u << 20;
		size_t lo = tab > win ? tab - win : 0;

		/* a real image has one markers array; a hostile one could
		 * offer a run at every other word */
		size_t budget = 1024;

		why = "no kallsyms_markers with kallsyms_names and kallsyms_num_syms before them";
		for (size_t m = align8(&s, lo); m + 8 <= tab && n < max && budget;
		     m += 8) {
			size_t runs, names;
			uint32_t nr;

			runs = markers_at(&s, m, tab);
			/* what follows the markers may look like one more */
			for (size_t k = runs; k >= 2 && k + 2 >= runs; k--) {
				/* no more than the seqs of 256 * k names between */
				if (tab - (m + 4 * k) > 4 * 256 * k + 16 || !budget)
					continue;
				budget--;
				bool found = false;

				for (int pass = 0; pass < 2 && !found; pass++) {
					bool ln = pass ? !long_names_first : long_names_first;

					if (!names_before(&s, m, k, ln, &names, &nr))
						continue;
					n = add_layouts(&s, tab, idx, names, nr,
							ln, cands, n, max);
					found = true;
				}
				if (found)
					break;
			}
		}
	}
	if (why_ret)
		*why_ret = n ? NULL : why;
	return n;
}
