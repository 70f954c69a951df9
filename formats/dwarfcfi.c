// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .debug_frame CFI (see dwarfcfi.h): an address index of the FDEs, and
 * the CFA program of one FDE run up to a pc (DWARF 5, section 6.4).
 */
#include <elf.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cursor.h"
#include "dwarfcfi.h"
#include "dwarfpriv.h"

/* One FDE: its range and where its CIE and instructions are. */
struct cfi_fde {
	uint64_t start, end;
	uint64_t cie;		/* offset of the CIE entry */
	uint64_t insns;		/* offset of the instructions */
	uint64_t insns_len;
};

/*
 * The FDEs in section order; sorted, with max_end, once lookups make the
 * index pay (a vmlinux has ~50,000 FDEs, a kdump's report looks up one
 * or two: its panic CPU's __crash_kexec(), which has no ORC).  Lookups
 * take the lock: threads unwinding side by side share one index.
 */
struct oc_cfi {
	const uint8_t *sec;
	size_t size;
	struct cfi_fde *fdes;	/* sorted by start once indexed */
	uint64_t *max_end;	/* max_end[i]: the largest end of fdes[0..i] */
	size_t nr;
	pthread_mutex_t lock;
	size_t lookups;
	bool indexed;
};

enum {
	CFI_MAX_REMEMBER = 16,	/* DW_CFA_remember_state depth */
	CFI_MAX_VERSION = 4,
	/* lookups answered by a scan of the FDEs before the index is made */
	CFI_SCANS = 16,
	/* the FDE array's first size at the most (oc_cfi_create()) */
	CFI_FIRST_FDES = 1 << 20,
};

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
	if (!oc_ok(err))
		r->bad = true;
	return !r->bad;
}

static uint64_t rd_fixed(struct rd *r, size_t n)
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

/* --- the index ------------------------------------------------------ */

static int fde_cmp(const void *a, const void *b)
{
	const struct cfi_fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

struct oc_error *oc_cfi_create(const uint8_t *sec, size_t size,
			       struct oc_cfi **ret, size_t *nr_bad_ret)
{
	struct oc_cfi *cfi;
	size_t cap = 0, nr_bad = 0;
	uint64_t last_cie = ~(uint64_t)0;
	struct cie cie = { 0 };
	bool cie_ok = false;
	struct rd top = { .bad = false };

	*ret = NULL;
	cfi = calloc(1, sizeof(*cfi));
	if (!cfi)
		return &oc_enomem;
	cfi->sec = sec;
	cfi->size = size;
	pthread_mutex_init(&cfi->lock, NULL);
	/* one pass along the section (entries follow each other); the
	 * array sized once for as many FDEs as the section can hold (one
	 * takes at least 24 bytes, gcc's ~40: memory not filled is address
	 * space only), not doubled from 1,024 (60,000 FDEs in a vmlinux);
	 * past CFI_FIRST_FDES (a section of 25 MB) doubled as it fills */
	oc_cursor_init(&top.c, sec, size, ".debug_frame");
	while (sec && oc_cursor_left(&top.c)) {
		struct rd r;
		struct cfi_fde f, *fdes;
		bool is64;
		uint64_t id, range;
		const char *why;

		if (!next_entry(&top, &r, &is64)) {
			nr_bad++;
			break;
		}
		id = rd_fixed(&r, is64 ? 8 : 4);
		if (r.bad) {
			nr_bad++;
			continue;
		}
		if (id == (is64 ? ~(uint64_t)0 : 0xffffffff))
			continue;	/* a CIE */
		if (id != last_cie) {
			last_cie = id;
			cie_ok = parse_cie(sec, size, id, &cie, &why);
		}
		if (!cie_ok) {
			nr_bad++;
			continue;
		}
		f.start = rd_fixed(&r, cie.addr_size);
		range = rd_fixed(&r, cie.addr_size);
		if (r.bad) {
			nr_bad++;
			continue;
		}
		/* no range, or a discarded section's (address 0) */
		if (!range || !f.start || range > ~(uint64_t)0 - f.start)
			continue;
		f.end = f.start + range;
		f.cie = id;
		f.insns = (uint64_t)(r.c.pos - sec);
		f.insns_len = oc_cursor_left(&r.c);
		fdes = oc_array_grow(cfi->fdes, cfi->nr, 1, &cap, sizeof(f),
				     size / 24 < CFI_FIRST_FDES ?
				     size / 24 + 1 : CFI_FIRST_FDES);
		if (!fdes) {
			oc_cfi_destroy(cfi);
			return &oc_enomem;
		}
		cfi->fdes = fdes;
		cfi->fdes[cfi->nr++] = f;
	}
	if (nr_bad_ret)
		*nr_bad_ret = nr_bad;
	*ret = cfi;
	return NULL;
}

/* The FDEs sorted, and max_end: false when out of memory. */
static bool build_index(struct oc_cfi *cfi)
{
	cfi->max_end = malloc(cfi->nr * sizeof(*cfi->max_end));
	if (!cfi->max_end)
		return false;
	qsort(cfi->fdes, cfi->nr, sizeof(*cfi->fdes), fde_cmp);
	for (size_t i = 0; i < cfi->nr; i++) {
		uint64_t e = cfi->fdes[i].end;

		if (i && cfi->max_end[i - 1] > e)
			e = cfi->max_end[i - 1];
		cfi->max_end[i] = e;
	}
	return true;
}

void oc_cfi_destroy(struct oc_cfi *cfi)
{
	if (!cfi)
		return;
	pthread_mutex_destroy(&cfi->lock);
	free(cfi->fdes);
	free(cfi->max_end);
	free(cfi);
}

size_t oc_cfi_nr_fdes(const struct oc_cfi *cfi)
{
	return cfi ? cfi->nr : 0;
}

/*
 * What find_fde() answers, from the FDEs in any order: the last FDE by
 * (start, end) that starts at or before @pc, when it is the only one
 * that covers @pc.
 */
static const struct cfi_fde *scan_fde(const struct oc_cfi *cfi, uint64_t pc)
{
	const struct cfi_fde *last = NULL, *cover = NULL;
	size_t covering = 0;

	for (size_t i = 0; i < cfi->nr; i++) {
		const struct cfi_fde *f = &cfi->fdes[i];

		if (f->start > pc)
			continue;
		if (!last || fde_cmp(f, last) >= 0)
			last = f;
		if (pc < f->end) {
			covering++;
			cover = f;
		}
	}
	return covering == 1 && cover == last ? cover : NULL;
}

/* The one FDE covering @pc, or NULL (none, or two that overlap). */
static const struct cfi_fde *find_fde(const struct oc_cfi *cfi, uint64_t pc)
{
	/* the last FDE starting at or before pc */
	size_t lo = oc_array_upper_bound(cfi->fdes, cfi->nr, sizeof(*cfi->fdes),
					 offsetof(struct cfi_fde, start), pc);
	size_t i;

	if (!lo)
		return NULL;
	i = lo - 1;
	if (pc >= cfi->fdes[i].end)
		return NULL;
	/* an earlier FDE reaching pc too: ambiguous, trust neither */
	if (i && cfi->max_end[i - 1] > pc)
		return NULL;
	return &cfi->fdes[i];
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
	const struct cfi_fde *found;
	struct cfi_fde fde;
	struct machine m;
	struct state initial;
	struct cie cie;
	const char *cwhy = NULL;

	memset(ret, 0, sizeof(*ret));
	if (!cfi || !cfi->nr)
		return OC_CFI_NO_FDE;
	{
		/* the index is made on use: the lock keeps it the callers' */
		struct oc_cfi *c = (struct oc_cfi *)cfi;

		pthread_mutex_lock(&c->lock);
		if (!c->indexed && ++c->lookups > CFI_SCANS)
			c->indexed = build_index(c);
		found = c->indexed ? find_fde(c, pc) : scan_fde(c, pc);
		/* a copy: the index may be sorted in place after this */
		if (found)
			fde = *found;
		pthread_mutex_unlock(&c->lock);
	}
	if (!found)
		return OC_CFI_NO_FDE;
	if (!parse_cie(cfi->sec, cfi->size, fde.cie, &cie, &cwhy)) {
		set_why(why, why_size, cwhy);
		return OC_CFI_MALFORMED;
	}
	memset(&m, 0, sizeof(m));
	m.cie = &cie;
	m.cur.cfa_kind = OC_CFI_CFA_UNDEFINED;
	/* the CIE's initial instructions apply whatever the pc */
	m.loc = 0;
	m.pc = ~(uint64_t)0;
	if (!run(&m, cie.insns, cie.insns_end)) {
		set_why(why, why_size, m.why);
		return OC_CFI_MALFORMED;
	}
	initial = m.cur;
	m.initial = &initial;
	m.depth = 0;
	m.loc = fde.start;
	m.pc = pc;
	if (!run(&m, cfi->sec + fde.insns, cfi->sec + fde.insns + fde.insns_len)) {
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
