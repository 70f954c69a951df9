// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .debug_frame CFI (see dwarfcfi.h): an address index of the FDEs, and
 * the CFA program of one FDE run up to a pc (DWARF 5, section 6.4).
 */
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cursor.h"
#include "dwarfcfi.h"
#include "dwarfpriv.h"

/*
 * The FDEs, listed in one pass along the section when the index is
 * created, each an entry of three words: its start, its end, and its
 * entry's offset in the section, from which the lookup that finds it
 * reads its CIE and instructions again.  The words are 32 bits, the
 * addresses counted from base, when every FDE lies in the 4 GB window of
 * the first one (a vmlinux's text at 0xffffffff81000000, a module's
 * layout) and the section is under 4 GB; else 64 bits (wide: a hostile
 * section).  12 bytes an FDE, a vmlinux's 46,000 in 0.55 MB: fresh
 * memory costs 3-5 ms a 2 MB page on a virtual machine whose host took
 * it back (docs/benchmarks.md, "Fresh memory after a peer").
 *
 * The first lookups scan the entries (a kdump's report makes one to
 * three: its panic CPU's __crash_kexec(), which has no ORC; a sample's
 * blocked tasks' waits up to ten); past CFI_SCANS they are sorted and
 * made the index in place (build_index()).  Lookups take the lock:
 * threads unwinding side by side share one index.
 */
struct oc_cfi {
	const uint8_t *sec;
	size_t size;
	void *ents;		/* uint32_t, or uint64_t when wide */
	size_t nr;		/* entries */
	size_t nr_fdes;		/* FDEs listed (nr until indexed) */
	uint64_t base;		/* what 32-bit addresses count from */
	bool wide;
	pthread_mutex_t lock;
	size_t lookups;
	bool indexed;
	bool borrowed;		/* ents are the caller's (oc_cfi_view()) */
};

/*
 * The index as bytes (oc_cfi_write_index(), oc_cfi_view()): this head,
 * then the entries of build_index() as they are in memory (native byte
 * order: the file is this machine's cache).
 */
struct index_head {
	uint64_t sec_size;	/* the section's it indexes */
	uint64_t nr, nr_fdes, base;
	uint32_t wide, zero;
};

enum {
	CFI_MAX_REMEMBER = 16,	/* DW_CFA_remember_state depth */
	CFI_MAX_VERSION = 4,
	/* lookups answered by a scan of the FDEs before the index is made */
	CFI_SCANS = 16,
	/* the FDE array's first size at the most (list_fdes()) */
	CFI_FIRST_FDES = 1 << 20,
};

/* An entry's words: an FDE's start and end, then (indexed) the pcs it
 * answers, lo and hi (build_index()) */
enum { ENT_LO, ENT_HI, ENT_OFF, ENT_WORDS };

/* --- bounded readers ------------------------------------------------ */

/*
 * formats/cursor.h's reads with a sticky failure: a CFA program is read
 * operand after operand and judged once at the end ("truncated CFA
 * instruction").
 */
struct rd {
	struct oc_cursor c;
	bool bad;
};

static bool rd_ok(struct rd *r, struct oc_error *err)
{
	/* (no call for the reads that succeed: the listing makes five for
	 * each of a vmlinux's 46,000 FDEs) */
	if (__builtin_expect(err != NULL, 0)) {
		oc_error_destroy(err);
		r->bad = true;
	}
	return !r->bad;
}

static inline uint64_t rd_fixed(struct rd *r, size_t n)
{
	uint64_t v = 0;

	return !r->bad && rd_ok(r, oc_cursor_le(&r->c, n, &v)) ? v : 0;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;

	return !r->bad && rd_ok(r, oc_cursor_uleb128(&r->c, &v)) ? v : 0;
}

static int64_t rd_sleb(struct rd *r)
{
	int64_t v = 0;

	return !r->bad && rd_ok(r, oc_cursor_sleb128(&r->c, &v)) ? v : 0;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (!r->bad)
		rd_ok(r, oc_cursor_skip(&r->c, n));
}

/*
 * The entry at @r's position: its body (after the length) in *body,
 * whether it uses the 64-bit format; @r moves past it.  False when it
 * does not fit.
 */
static bool next_entry(struct rd *r, struct rd *body, bool *is64)
{
	uint64_t len = rd_fixed(r, 4);

	*is64 = len == 0xffffffff;
	if (*is64)
		len = rd_fixed(r, 8);
	body->bad = false;
	return !r->bad && rd_ok(r, oc_cursor_sub(&r->c, len, &body->c));
}

/* The entry at offset @off (a CIE pointer's), as next_entry() */
static bool entry_at(const uint8_t *sec, size_t size, uint64_t off,
		     struct rd *body, bool *is64)
{
	struct rd r = { .bad = false };

	oc_cursor_init(&r.c, sec, size, ".debug_frame");
	/* (the seek checks off before forming sec + off: a hostile CIE
	 * pointer would overflow it) */
	rd_ok(&r, oc_cursor_seek(&r.c, off));
	return next_entry(&r, body, is64);
}

/* --- CIEs ----------------------------------------------------------- */

struct cie {
	unsigned addr_size;
	uint64_t code_align;
	int64_t data_align;
	unsigned ra_reg;
	const uint8_t *insns, *insns_end;
};

static bool parse_cie(const uint8_t *sec, size_t size, uint64_t off,
		      struct cie *ret, const char **why)
{
	struct rd r;
	bool is64;
	uint64_t id;
	unsigned version;

	if (!entry_at(sec, size, off, &r, &is64)) {
		*why = "CIE outside the section";
		return false;
	}
	id = rd_fixed(&r, is64 ? 8 : 4);
	if (r.bad || id != (is64 ? ~(uint64_t)0 : 0xffffffff)) {
		*why = "CIE pointer does not point to a CIE";
		return false;
	}
	version = rd_fixed(&r, 1);
	if (r.bad || (version != 1 && version != 3 && version != 4)) {
		*why = "unsupported CIE version";
		return false;
	}
	/* augmentation: only the empty one (gcc's .debug_frame) */
	if (rd_fixed(&r, 1) != 0 || r.bad) {
		*why = "CIE augmentation not supported";
		return false;
	}
	ret->addr_size = 8;
	if (version >= 4) {
		ret->addr_size = rd_fixed(&r, 1);
		if (rd_fixed(&r, 1) != 0 || ret->addr_size != 8) {
			*why = "CIE address or segment size not supported";
			return false;
		}
	}
	ret->code_align = rd_uleb(&r);
	ret->data_align = rd_sleb(&r);
	ret->ra_reg = version == 1 ? rd_fixed(&r, 1) : rd_uleb(&r);
	if (r.bad) {
		*why = "truncated CIE";
		return false;
	}
	ret->insns = r.c.pos;
	ret->insns_end = r.c.end;
	return true;
}

/* --- FDEs ----------------------------------------------------------- */

/* An FDE's CIE, parsed once for the run of FDEs that point to it. */
struct cie_memo {
	uint64_t off;		/* ~0: none yet (no CIE pointer is ~0) */
	bool ok;
	const char *why;	/* !ok: parse_cie()'s reason */
	struct cie cie;
};

/* An FDE that covers some address. */
struct cfi_fde {
	uint64_t start, end;
	uint64_t off;		/* the entry's offset in the section */
	const uint8_t *insns, *insns_end;
};

enum entry_kind {
	ENTRY_FDE,
	ENTRY_CIE,
	ENTRY_EMPTY,		/* an FDE of no range, or a discarded
				 * section's (address 0) */
	ENTRY_BAD,		/* its id, CIE or range cannot be read */
};

/*
 * The entry whose body (after its length) is @r, of the 64-bit format
 * when @is64, and the FDE in *ret.  The one reading of an FDE's head:
 * for the pass that lists the FDEs and for the lookup that runs one's
 * instructions; @memo keeps the last CIE.
 */
static enum entry_kind read_fde(const uint8_t *sec, size_t size,
				struct rd *r, bool is64,
				struct cie_memo *memo, struct cfi_fde *ret)
{
	uint64_t id = rd_fixed(r, is64 ? 8 : 4), range;

	if (r->bad)
		return ENTRY_BAD;
	if (id == (is64 ? ~(uint64_t)0 : 0xffffffff))
		return ENTRY_CIE;
	if (id != memo->off) {
		memo->off = id;
		memo->ok = parse_cie(sec, size, id, &memo->cie, &memo->why);
	}
	if (!memo->ok)
		return ENTRY_BAD;
	ret->start = rd_fixed(r, memo->cie.addr_size);
	range = rd_fixed(r, memo->cie.addr_size);
	if (r->bad)
		return ENTRY_BAD;
	if (!range || !ret->start || range > ~(uint64_t)0 - ret->start)
		return ENTRY_EMPTY;
	ret->end = ret->start + range;
	ret->insns = r->c.pos;
	ret->insns_end = r->c.end;
	return ENTRY_FDE;
}

/* The FDE whose entry is at @off (one the listing found), its CIE in
 * @memo: the same bytes read the same way. */
static bool fde_at(const struct oc_cfi *cfi, uint64_t off,
		   struct cfi_fde *ret, struct cie_memo *memo)
{
	struct rd r;
	bool is64;

	memo->off = ~(uint64_t)0;
	memo->ok = false;
	memo->why = "FDE outside the section";
	if (!entry_at(cfi->sec, cfi->size, off, &r, &is64) ||
	    read_fde(cfi->sec, cfi->size, &r, is64, memo, ret) != ENTRY_FDE)
		return false;
	ret->off = off;
	return true;
}

/* --- the entries ---------------------------------------------------- */

/* Word @w of entry @i (an address absolute) */
static uint64_t ent_get(const struct oc_cfi *cfi, size_t i, unsigned w)
{
	if (cfi->wide)
		return ((const uint64_t *)cfi->ents)[ENT_WORDS * i + w];
	return (w == ENT_OFF ? 0 : cfi->base) +
	       ((const uint32_t *)cfi->ents)[ENT_WORDS * i + w];
}

static void ent_set(struct oc_cfi *cfi, size_t i, unsigned w, uint64_t v)
{
	if (cfi->wide)
		((uint64_t *)cfi->ents)[ENT_WORDS * i + w] = v;
	else
		((uint32_t *)cfi->ents)[ENT_WORDS * i + w] =
			(uint32_t)(w == ENT_OFF ? v : v - cfi->base);
}

/* Whether @f fits a 32-bit entry (the first sets base). */
static bool fits_narrow(struct oc_cfi *cfi, const struct cfi_fde *f)
{
	if (!cfi->nr)
		cfi->base = f->start & ~(uint64_t)UINT32_MAX;
	return f->start >= cfi->base && f->end - cfi->base <= UINT32_MAX &&
	       f->off <= UINT32_MAX;
}

enum list_result { LIST_OK, LIST_NOMEM, LIST_TOO_WIDE };

/*
 * The FDEs in section order into cfi->ents (32-bit words unless
 * cfi->wide), unreadable entries counted in *nr_bad.  A pass along the
 * section: entries follow each other; a length that runs past it ends
 * the pass.
 */
static enum list_result list_fdes(struct oc_cfi *cfi, size_t *nr_bad)
{
	size_t cap = 0, ent = ENT_WORDS * (cfi->wide ? 8 : 4);
	/* the array sized once for as many FDEs as the section can hold
	 * (one takes at least 24 bytes, gcc's ~50: memory not filled is
	 * address space only, given back below), not doubled from 1,024
	 * (46,000 FDEs in a vmlinux); past CFI_FIRST_FDES (a section of 25
	 * MB) doubled as it fills */
	size_t first = cfi->size / 24 < CFI_FIRST_FDES ? cfi->size / 24 + 1 :
							 CFI_FIRST_FDES;
	struct cie_memo memo = { .off = ~(uint64_t)0 };
	struct rd top = { .bad = false };
	void *p;

	oc_cursor_init(&top.c, cfi->sec, cfi->size, ".debug_frame");
	while (oc_cursor_left(&top.c)) {
		struct cfi_fde f;
		struct rd r;
		bool is64;

		f.off = oc_cursor_offset(&top.c);
		if (!next_entry(&top, &r, &is64)) {
			++*nr_bad;
			break;
		}
		switch (read_fde(cfi->sec, cfi->size, &r, is64, &memo, &f)) {
		case ENTRY_FDE:
			break;
		case ENTRY_BAD:
			++*nr_bad;
			continue;
		case ENTRY_CIE:
		case ENTRY_EMPTY:
			continue;
		}
		if (!cfi->wide && !fits_narrow(cfi, &f))
			return LIST_TOO_WIDE;
		p = oc_array_grow(cfi->ents, cfi->nr, 1, &cap, ent, first);
		if (!p)
			return LIST_NOMEM;
		cfi->ents = p;
		ent_set(cfi, cfi->nr, ENT_LO, f.start);
		ent_set(cfi, cfi->nr, ENT_HI, f.end);
		ent_set(cfi, cfi->nr, ENT_OFF, f.off);
		cfi->nr++;
	}
	/* the rest of the first size back to the heap (a shrink in place) */
	if (cfi->nr && cfi->nr < cap && (p = realloc(cfi->ents, cfi->nr * ent)))
		cfi->ents = p;
	cfi->nr_fdes = cfi->nr;
	return LIST_OK;
}

struct oc_error *oc_cfi_create(const uint8_t *sec, size_t size,
			       struct oc_cfi **ret, size_t *nr_bad_ret)
{
	struct oc_cfi *cfi;
	enum list_result res;
	size_t nr_bad = 0;

	*ret = NULL;
	cfi = calloc(1, sizeof(*cfi));
	if (!cfi)
		return &oc_enomem;
	cfi->sec = sec;
	cfi->size = sec ? size : 0;
	pthread_mutex_init(&cfi->lock, NULL);
	res = list_fdes(cfi, &nr_bad);
	if (res == LIST_TOO_WIDE) {
		/* again, in 64-bit words */
		free(cfi->ents);
		cfi->ents = NULL;
		cfi->nr = 0;
		cfi->wide = true;
		nr_bad = 0;
		res = list_fdes(cfi, &nr_bad);
	}
	if (res != LIST_OK) {
		oc_cfi_destroy(cfi);
		return &oc_enomem;
	}
	if (nr_bad_ret)
		*nr_bad_ret = nr_bad;
	*ret = cfi;
	return NULL;
}

void oc_cfi_destroy(struct oc_cfi *cfi)
{
	if (!cfi)
		return;
	pthread_mutex_destroy(&cfi->lock);
	if (!cfi->borrowed)
		free(cfi->ents);
	free(cfi);
}

size_t oc_cfi_nr_fdes(const struct oc_cfi *cfi)
{
	return cfi ? cfi->nr_fdes : 0;
}

/* --- the index ------------------------------------------------------ */

/* (start, end) order of the entries, listed (build_index()) */
static int ent32_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[ENT_LO] != y[ENT_LO])
		return x[ENT_LO] < y[ENT_LO] ? -1 : 1;
	return x[ENT_HI] < y[ENT_HI] ? -1 : x[ENT_HI] > y[ENT_HI];
}

static int ent64_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[ENT_LO] != y[ENT_LO])
		return x[ENT_LO] < y[ENT_LO] ? -1 : 1;
	return x[ENT_HI] < y[ENT_HI] ? -1 : x[ENT_HI] > y[ENT_HI];
}

/*
 * The entries made an index, in place.  Sorted by (start, end), FDE i
 * answers pc (find_fde()) when it is the last to start at or before pc
 * (pc < the next one's start), covers pc, and no earlier one reaches pc
 * (pc >= the largest end before it): for the pcs in
 *
 *	[max(start, the largest end before), min(end, the next start))
 *
 * These ranges ascend and do not overlap, so a lookup is one binary
 * search and needs no table of the largest ends.  An FDE whose range is
 * empty (overlapped, a duplicate) answers no pc and is left out.
 */
static void build_index(struct oc_cfi *cfi)
{
	uint64_t max_end = 0;
	size_t n = cfi->nr, k = 0;

	if (!n)		/* (cfi->ents may be NULL) */
		return;
	if (cfi->wide)
		qsort(cfi->ents, n, ENT_WORDS * sizeof(uint64_t), ent64_cmp);
	else
		qsort(cfi->ents, n, ENT_WORDS * sizeof(uint32_t), ent32_cmp);
	/* entry k <= i is written once entry i + 1 is read */
	for (size_t i = 0; i < n; i++) {
		uint64_t start = ent_get(cfi, i, ENT_LO);
		uint64_t end = ent_get(cfi, i, ENT_HI);
		uint64_t off = ent_get(cfi, i, ENT_OFF);
		uint64_t next = i + 1 < n ? ent_get(cfi, i + 1, ENT_LO) :
					    ~(uint64_t)0;
		uint64_t lo = start > max_end ? start : max_end;
		uint64_t hi = end < next ? end : next;

		if (end > max_end)
			max_end = end;
		if (lo >= hi)
			continue;
		ent_set(cfi, k, ENT_LO, lo);
		ent_set(cfi, k, ENT_HI, hi);
		ent_set(cfi, k, ENT_OFF, off);
		k++;
	}
	cfi->nr = k;
}

/*
 * What find_fde() answers, from the entries in section order: the last
 * FDE by (start, end) that starts at or before @pc, when it is the only
 * one that covers @pc.
 */
static bool scan_fde(const struct oc_cfi *cfi, uint64_t pc, uint64_t *off_ret)
{
	size_t last = SIZE_MAX, cover = SIZE_MAX, covering = 0;
	uint64_t last_start = 0, last_end = 0;

	for (size_t i = 0; i < cfi->nr; i++) {
		uint64_t start = ent_get(cfi, i, ENT_LO), end;

		if (start > pc)
			continue;
		end = ent_get(cfi, i, ENT_HI);
		if (last == SIZE_MAX || start > last_start ||
		    (start == last_start && end >= last_end)) {
			last = i;
			last_start = start;
			last_end = end;
		}
		if (pc < end) {
			covering++;
			cover = i;
		}
	}
	if (covering != 1 || cover != last)
		return false;
	*off_ret = ent_get(cfi, cover, ENT_OFF);
	return true;
}

/* The FDE that answers @pc, from the index (build_index()). */
static bool find_fde(const struct oc_cfi *cfi, uint64_t pc, uint64_t *off_ret)
{
	/* oc_array_upper_bound()'s search, over entries of either width:
	 * the last entry starting at or before pc */
	size_t lo = 0, hi = cfi->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ent_get(cfi, mid, ENT_LO) <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || pc >= ent_get(cfi, lo - 1, ENT_HI))
		return false;
	*off_ret = ent_get(cfi, lo - 1, ENT_OFF);
	return true;
}

/* --- the CFA program ------------------------------------------------ */

struct state {
	enum oc_cfi_cfa_kind cfa_kind;
	unsigned cfa_reg;
	int64_t cfa_off;
	struct oc_cfi_rule regs[OC_CFI_NR_REGS];
};

struct machine {
	struct state cur;
	const struct state *initial;	/* NULL while running the CIE's */
	struct state stack[CFI_MAX_REMEMBER];
	size_t depth;
	uint64_t loc, pc;
	const struct cie *cie;
	const char *why;
};

static void set_rule(struct machine *m, uint64_t reg,
		     enum oc_cfi_rule_kind kind, int64_t off, uint64_t reg2)
{
	if (reg >= OC_CFI_NR_REGS)
		return;		/* not one we keep (xmm...) */
	m->cur.regs[reg].kind = kind;
	m->cur.regs[reg].off = off;
	m->cur.regs[reg].reg = reg2 < 0x10000 ? (unsigned)reg2 : 0xffff;
}

static void restore_rule(struct machine *m, uint64_t reg)
{
	if (reg >= OC_CFI_NR_REGS)
		return;
	if (m->initial)
		m->cur.regs[reg] = m->initial->regs[reg];
	else
		memset(&m->cur.regs[reg], 0, sizeof(m->cur.regs[reg]));
}

static int64_t factored(uint64_t n, int64_t align)
{
	/* wraps instead of overflowing: garbage stays garbage, no UB */
	return (int64_t)(n * (uint64_t)align);
}

/*
 * Advance the location by @delta code units.  False when the new
 * location is past the pc: the row in effect is the current one.
 */
static bool advance(struct machine *m, uint64_t delta)
{
	uint64_t d = delta * m->cie->code_align, loc = m->loc + d;

	if ((m->cie->code_align && d / m->cie->code_align != delta) ||
	    loc < m->loc || loc > m->pc)
		return false;
	m->loc = loc;
	return true;
}

/*
 * Run @insns; returns 1 when stopped by reaching the pc (or the end), 0
 * when malformed (m->why).
 */
static int run(struct machine *m, const uint8_t *insns, const uint8_t *end)
{
	struct rd r = { .bad = false };
	int64_t daf = m->cie->data_align;
	uint8_t op;

	oc_cursor_init(&r.c, insns, (size_t)(end - insns), "CFA program");
	while (!r.bad && oc_cursor_next(&r.c, &op)) {
		uint64_t reg, n;

		switch (op >> 6) {
		case 1:
			if (!advance(m, op & 0x3f))
				return 1;
			continue;
		case 2:
			n = rd_uleb(&r);
			set_rule(m, op & 0x3f, OC_CFI_OFFSET, factored(n, daf), 0);
			continue;
		case 3:
			restore_rule(m, op & 0x3f);
			continue;
		}
		switch (op) {
		case DW_CFA_nop:
			break;
		case DW_CFA_set_loc:
			n = rd_fixed(&r, m->cie->addr_size);
			if (r.bad)
				break;
			if (n < m->loc) {
				m->why = "DW_CFA_set_loc backwards";
				return 0;
			}
			if (n > m->pc)
				return 1;
			m->loc = n;
			break;
		case DW_CFA_advance_loc1:
		case DW_CFA_advance_loc2:
		case DW_CFA_advance_loc4:
			n = rd_fixed(&r, op == DW_CFA_advance_loc1 ? 1 :
				     op == DW_CFA_advance_loc2 ? 2 : 4);
			if (!r.bad && !advance(m, n))
				return 1;
			break;
		case DW_CFA_offset_extended:
			reg = rd_uleb(&r);
			n = rd_uleb(&r);
			set_rule(m, reg, OC_CFI_OFFSET, factored(n, daf), 0);
			break;
		case DW_CFA_restore_extended:
			restore_rule(m, rd_uleb(&r));
			break;
		case DW_CFA_undefined:
			set_rule(m, rd_uleb(&r), OC_CFI_UNDEFINED, 0, 0);
			break;
		case DW_CFA_same_value:
			set_rule(m, rd_uleb(&r), OC_CFI_SAME_VALUE, 0, 0);
			break;
		case DW_CFA_register:
			reg = rd_uleb(&r);
			n = rd_uleb(&r);
			set_rule(m, reg, OC_CFI_REGISTER, 0, n);
			break;
		case DW_CFA_remember_state:
			if (m->depth == CFI_MAX_REMEMBER) {
				m->why = "DW_CFA_remember_state too deep";
				return 0;
			}
			m->stack[m->depth++] = m->cur;
			break;
		case DW_CFA_restore_state:
			if (!m->depth) {
				m->why = "DW_CFA_restore_state without remember";
				return 0;
			}
			/* the CFA rule is restored too (DWARF 5 6.4.2.4) */
			m->cur = m->stack[--m->depth];
			break;
		case DW_CFA_def_cfa:
		case DW_CFA_def_cfa_sf:
			reg = rd_uleb(&r);
			m->cur.cfa_kind = OC_CFI_CFA_REG_OFFSET;
			m->cur.cfa_reg = reg < 0x10000 ? (unsigned)reg : 0xffff;
			m->cur.cfa_off = op == DW_CFA_def_cfa ?
				(int64_t)rd_uleb(&r) :
				factored((uint64_t)rd_sleb(&r), daf);
			break;
		case DW_CFA_def_cfa_register:
			reg = rd_uleb(&r);
			if (m->cur.cfa_kind != OC_CFI_CFA_REG_OFFSET) {
				m->why = "DW_CFA_def_cfa_register without a register rule";
				return 0;
			}
			m->cur.cfa_reg = reg < 0x10000 ? (unsigned)reg : 0xffff;
			break;
		case DW_CFA_def_cfa_offset:
		case DW_CFA_def_cfa_offset_sf: {
			int64_t off = op == DW_CFA_def_cfa_offset ?
				(int64_t)rd_uleb(&r) :
				factored((uint64_t)rd_sleb(&r), daf);

			if (m->cur.cfa_kind != OC_CFI_CFA_REG_OFFSET) {
				m->why = "DW_CFA_def_cfa_offset without a register rule";
				return 0;
			}
			m->cur.cfa_off = off;
			break;
		}
		case DW_CFA_def_cfa_expression:
			n = rd_uleb(&r);
			rd_skip(&r, n);
			m->cur.cfa_kind = OC_CFI_CFA_EXPRESSION;
			break;
		case DW_CFA_expression:
		case DW_CFA_val_expression:
			reg = rd_uleb(&r);
			n = rd_uleb(&r);
			rd_skip(&r, n);
			set_rule(m, reg, OC_CFI_EXPRESSION, 0, 0);
			break;
		case DW_CFA_offset_extended_sf:
		case DW_CFA_val_offset:
		case DW_CFA_val_offset_sf: {
			int64_t off;

			reg = rd_uleb(&r);
			off = op == DW_CFA_val_offset ?
				factored(rd_uleb(&r), daf) :
				factored((uint64_t)rd_sleb(&r), daf);
			set_rule(m, reg, op == DW_CFA_offset_extended_sf ?
				 OC_CFI_OFFSET : OC_CFI_VAL_OFFSET, off, 0);
			break;
		}
		case DW_CFA_GNU_args_size:
			rd_uleb(&r);
			break;
		case DW_CFA_GNU_negative_offset_extended:
			reg = rd_uleb(&r);
			n = rd_uleb(&r);
			set_rule(m, reg, OC_CFI_OFFSET,
				 (int64_t)(0 - (uint64_t)factored(n, daf)), 0);
			break;
		default:
			m->why = "unknown CFA operation";
			return 0;
		}
	}
	if (r.bad) {
		m->why = "truncated CFA instruction";
		return 0;
	}
	return 1;
}

static void set_why(char *why, size_t size, const char *s)
{
	if (why && size)
		snprintf(why, size, "%s", s);
}

enum oc_cfi_status oc_cfi_find(const struct oc_cfi *cfi, uint64_t pc,
			       struct oc_cfi_row *ret, char *why,
			       size_t why_size)
{
	struct oc_cfi *c = (struct oc_cfi *)cfi;
	struct cfi_fde fde;
	struct cie_memo memo;
	struct machine m;
	struct state initial;
	uint64_t off = 0;
	bool found;

	memset(ret, 0, sizeof(*ret));
	/* (nr_fdes, not nr: the index's making changes nr) */
	if (!cfi || !cfi->nr_fdes)
		return OC_CFI_NO_FDE;
	/* the index is made on use: the lock keeps it the callers' */
	pthread_mutex_lock(&c->lock);
	if (!c->indexed && ++c->lookups > CFI_SCANS) {
		build_index(c);
		c->indexed = true;
	}
	found = c->indexed ? find_fde(c, pc, &off) : scan_fde(c, pc, &off);
	pthread_mutex_unlock(&c->lock);
	if (!found)
		return OC_CFI_NO_FDE;
	/* its CIE and instructions: the entry read again */
	if (!fde_at(cfi, off, &fde, &memo)) {
		set_why(why, why_size, memo.ok ? "FDE unreadable" : memo.why);
		return OC_CFI_MALFORMED;
	}
	/* (always so from an index made here; a viewed one is checked) */
	if (pc < fde.start || pc >= fde.end)
		return OC_CFI_NO_FDE;
	memset(&m, 0, sizeof(m));
	m.cie = &memo.cie;
	m.cur.cfa_kind = OC_CFI_CFA_UNDEFINED;
	/* the CIE's initial instructions apply whatever the pc */
	m.loc = 0;
	m.pc = ~(uint64_t)0;
	if (!run(&m, memo.cie.insns, memo.cie.insns_end)) {
		set_why(why, why_size, m.why);
		return OC_CFI_MALFORMED;
	}
	initial = m.cur;
	m.initial = &initial;
	m.depth = 0;
	m.loc = fde.start;
	m.pc = pc;
	if (!run(&m, fde.insns, fde.insns_end)) {
		set_why(why, why_size, m.why);
		return OC_CFI_MALFORMED;
	}
	ret->fde_start = fde.start;
	ret->fde_end = fde.end;
	ret->cfa_kind = m.cur.cfa_kind;
	ret->cfa_reg = m.cur.cfa_reg;
	ret->cfa_off = m.cur.cfa_off;
	memcpy(ret->regs, m.cur.regs, sizeof(ret->regs));
	return OC_CFI_FOUND;
}

struct oc_error *oc_cfi_write_index(struct oc_cfi *cfi, FILE *fp)
{
	struct index_head h = { 0 };
	size_t width;
	bool ok;

	pthread_mutex_lock(&cfi->lock);
	if (!cfi->indexed) {
		build_index(cfi);
		cfi->indexed = true;
	}
	h.sec_size = cfi->size;
	h.nr = cfi->nr;
	h.nr_fdes = cfi->nr_fdes;
	h.base = cfi->base;
	h.wide = cfi->wide;
	width = ENT_WORDS * (cfi->wide ? 8 : 4);
	ok = fwrite(&h, sizeof(h), 1, fp) == 1 &&
	     (!cfi->nr || fwrite(cfi->ents, width, cfi->nr, fp) == cfi->nr);
	pthread_mutex_unlock(&cfi->lock);
	return ok ? NULL : oc_error_os(errno, NULL, "writing a CFI index");
}

struct oc_error *oc_cfi_view(const uint8_t *sec, size_t size,
			     const void *index, size_t len,
			     struct oc_cfi **ret)
{
	struct index_head h;
	struct oc_cfi *cfi;
	size_t width;

	*ret = NULL;
	if (len < sizeof(h) || (uintptr_t)index % 8)
		return oc_error_create(OC_ERR_FORMAT, "CFI index: too short or misaligned");
	memcpy(&h, index, sizeof(h));
	width = ENT_WORDS * (h.wide ? 8 : 4);
	/* the section's own size; no more FDEs than it can hold (24 bytes
	 * at the least), entries that fill the rest exactly */
	if (!sec || h.sec_size != size || h.wide > 1 || h.zero ||
	    h.nr > h.nr_fdes || h.nr_fdes > size / 24 + 1 ||
	    h.nr != (len - sizeof(h)) / width || (len - sizeof(h)) % width)
		return oc_error_create(OC_ERR_FORMAT, "CFI index: not the section's");
	cfi = calloc(1, sizeof(*cfi));
	if (!cfi)
		return &oc_enomem;
	cfi->sec = sec;
	cfi->size = size;
	cfi->ents = h.nr ? (void *)((uintptr_t)index + sizeof(h)) : NULL;
	cfi->nr = h.nr;
	cfi->nr_fdes = h.nr_fdes;
	cfi->base = h.base;
	cfi->wide = h.wide;
	cfi->indexed = true;
	cfi->borrowed = true;
	pthread_mutex_init(&cfi->lock, NULL);
	*ret = cfi;
	return NULL;
}

struct oc_error *oc_dwarf_cfi_find(struct oc_dwarf *d, uint64_t pc,
				   struct oc_cfi_row *row,
				   enum oc_cfi_status *status_ret)
{
	*status_ret = OC_CFI_NO_FDE;
	if (!d->cfi_done) {
		const Elf64_Shdr *sh = oc_dw_find_section(d, ".debug_frame");
		struct oc_error *err;

		if (sh && sh->sh_type != SHT_NOBITS && sh->sh_size) {
			/* bounds checked at open (check_elf) */
			err = oc_cfi_create(d->map + sh->sh_offset,
					    sh->sh_size, &d->cfi, NULL);
			if (err)
				return err;
		}
		d->cfi_done = true;
	}
	if (d->cfi)
		*status_ret = oc_cfi_find(d->cfi, pc, row, NULL, 0);
	return NULL;
}

const char *oc_cfi_rule_kind_string(enum oc_cfi_rule_kind kind)
{
	switch (kind) {
	case OC_CFI_UNSPECIFIED: return "unspecified";
	case OC_CFI_UNDEFINED: return "undefined";
	case OC_CFI_SAME_VALUE: return "same value";
	case OC_CFI_OFFSET: return "offset";
	case OC_CFI_VAL_OFFSET: return "val_offset";
	case OC_CFI_REGISTER: return "register";
	case OC_CFI_EXPRESSION: return "expression";
	}
	return "?";
}
