// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parameters and locals of a frame (see framevars.h): the DWARF's
 * variables at the frame's pc (formats/dwarfvars.c), their locations
 * evaluated (src/dwexpr.c) against what the unwinder can vouch for in
 * this frame, and their values rendered by type.
 *
 * Which registers a frame knows (docs/lines.md, "Parameters and locals"):
 *  - a frame whose ip came from a full pt_regs (a CPU's crash registers,
 *    an exception or interrupt frame): all of them, at that exact ip;
 *    an iret frame only ip and sp;
 *  - a blocked task's first frame: rbx, rbp, r12-r15 from its struct
 *    inactive_task_frame (callee-saved: __switch_to_asm pushed the values
 *    its caller had), and sp;
 *  - any other frame: sp and bp, which the ORC walk tracks (objtool
 *    records where bp is saved), and the callee-saved rbx, r12-r15
 *    carried out from the inner frames through each callee's .debug_frame
 *    CFI row (formats/dwarfcfi.c): read from the callee's save slot at
 *    its CFA + n, or the callee's own value where the row leaves the
 *    register alone.  Only while the CFI's CFA equals the walk's (else
 *    nothing more from CFI until a pt_regs), never through a callee
 *    without an FDE (assembly), and rbp stays ORC's (a CFI value that
 *    differs is noted in ->cfi_note).  Caller-saved registers are dead
 *    below a call.
 * The CFA of frame i is the sp the walk computed for its caller when
 * the caller was reached through a return address (ip_addr == sp - 8).
 * Inlined levels share their frame's registers and CFA.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cursor.h"
#include "dwarfcfi.h"
#include "dwarflines.h"
#include "dwarfvars.h"
#include "dwexpr.h"
#include "framevars.h"
#include "kernel.h"
#include "lines.h"

/* The strings of a list, freed together. */
struct pool {
	char **strs;
	size_t nr, cap;
	bool nomem;
};

static const char *pool_add(struct pool *p, char *s)
{
	char **n;

	if (!s) {
		p->nomem = true;
		return NULL;
	}
	n = oc_array_grow(p->strs, p->nr, 1, &p->cap, sizeof(*n), 32);
	if (!n) {
		free(s);
		p->nomem = true;
		return NULL;
	}
	p->strs = n;
	p->strs[p->nr++] = s;
	return s;
}

static const char *pool_str(struct pool *p, const char *s)
{
	return s ? pool_add(p, strdup(s)) : NULL;
}

static const char *pool_fmt(struct pool *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const char *pool_fmt(struct pool *p, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return pool_add(p, n < 0 ? NULL : s);
}

void oc_framevars_free(struct oc_framevars *fv)
{
	struct pool *p;

	if (!fv)
		return;
	p = fv->priv;
	if (p) {
		oc_strv_free(p->strs, p->nr);
		free(p);
	}
	for (size_t i = 0; i < fv->nr_levels; i++)
		free(fv->levels[i].vars);
	free(fv->levels);
	free(fv);
}

const char *oc_framevar_kind_string(enum oc_framevar_kind kind)
{
	return kind == OC_FRAMEVAR_PARAM ? "param" : "local";
}

const char *oc_framevar_status_string(enum oc_framevar_status status)
{
	switch (status) {
	case OC_FRAMEVAR_VALUE: return "value";
	case OC_FRAMEVAR_IN_MEMORY: return "in memory";
	case OC_FRAMEVAR_UNAVAILABLE: return "unavailable";
	case OC_FRAMEVAR_OPTIMIZED_OUT: return "optimized out";
	}
	return "?";
}

/* " at [CFA-0x30]" for memory, " [%rbx]", " [constant]" otherwise */
static void where_suffix(const struct oc_framevar *v, char *buf, size_t size)
{
	if (!v->where)
		buf[0] = '\0';
	else if (v->where[0] == '[')
		snprintf(buf, size, " at %s", v->where);
	else
		snprintf(buf, size, " [%s]", v->where);
}

void oc_framevar_format(const struct oc_framevar *v, char *buf, size_t size)
{
	const char *kind = oc_framevar_kind_string(v->kind);
	char where[128];

	where_suffix(v, where, sizeof(where));
	switch (v->status) {
	case OC_FRAMEVAR_VALUE:
		snprintf(buf, size, "%s %s = %s (%s)%s", kind, v->name,
			 v->value, v->type, where);
		break;
	case OC_FRAMEVAR_IN_MEMORY:
		snprintf(buf, size, "%s %s = %s%s", kind, v->name, v->value,
			 where);
		break;
	case OC_FRAMEVAR_UNAVAILABLE:
		snprintf(buf, size, "%s %s: unavailable (%s) (%s)", kind,
			 v->name, v->why ? v->why : "?", v->type);
		break;
	case OC_FRAMEVAR_OPTIMIZED_OUT:
		snprintf(buf, size, "%s %s: optimized out (%s)", kind, v->name,
			 v->type);
		break;
	}
}

/* --- the frame's registers and CFA --------------------------------- */

static void set_reg(struct oc_dwexpr_ctx *c, unsigned reg, uint64_t v)
{
	c->regs[reg] = v;
	c->known |= 1u << reg;
}

static void full_regs(struct oc_dwexpr_ctx *c, const struct oc_regs *r)
{
	set_reg(c, OC_DWREG_RAX, r->ax);
	set_reg(c, OC_DWREG_RDX, r->dx);
	set_reg(c, OC_DWREG_RCX, r->cx);
	set_reg(c, OC_DWREG_RBX, r->bx);
	set_reg(c, OC_DWREG_RSI, r->si);
	set_reg(c, OC_DWREG_RDI, r->di);
	set_reg(c, OC_DWREG_RBP, r->bp);
	set_reg(c, OC_DWREG_RSP, r->sp);
	set_reg(c, OC_DWREG_R8, r->r8);
	set_reg(c, OC_DWREG_R9, r->r9);
	set_reg(c, OC_DWREG_R10, r->r10);
	set_reg(c, OC_DWREG_R11, r->r11);
	set_reg(c, OC_DWREG_R12, r->r12);
	set_reg(c, OC_DWREG_R13, r->r13);
	set_reg(c, OC_DWREG_R14, r->r14);
	set_reg(c, OC_DWREG_R15, r->r15);
	set_reg(c, OC_DWREG_RIP, r->ip);
}

/*
 * A blocked task's first frame: oc_unwind_blocked() put its ip_addr at
 * thread.sp + offsetof(ret_addr); the callee-saved registers
 * __switch_to_asm pushed are below it in struct inactive_task_frame.
 */
static bool blocked_regs(const struct oc_kernel *k, const struct oc_frame *f,
			 const struct oc_task *task, struct oc_dwexpr_ctx *c)
{
	static const struct { const char *member; unsigned reg; } saved[] = {
		{ "bx", OC_DWREG_RBX }, { "bp", OC_DWREG_RBP },
		{ "r12", OC_DWREG_R12 }, { "r13", OC_DWREG_R13 },
		{ "r14", OC_DWREG_R14 }, { "r15", OC_DWREG_R15 },
	};
	uint64_t thread_sp;

	if (f->regs_kind != OC_REGS_NONE || !f->ip_addr || !k->types ||
	    f->ip_addr < k->inactive_ret_offset)
		return false;
	thread_sp = f->ip_addr - k->inactive_ret_offset;
	if (task && task->thread_sp != thread_sp)
		return false;
	for (size_t i = 0; i < sizeof(saved) / sizeof(saved[0]); i++) {
		struct oc_error *err;
		uint64_t off, v;

		err = oc_types_offsetof(k->types, "struct inactive_task_frame",
					saved[i].member, &off);
		if (!err)
			err = oc_mem_read_u64(&k->mem, thread_sp + off, &v);
		if (err) {
			oc_error_destroy(err);
			continue;
		}
		set_reg(c, saved[i].reg, v);
	}
	return true;
}

/* The first frame of a walk that did not start from registers. */
static bool is_blocked_start(const struct oc_trace *trace, size_t index)
{
	for (size_t i = 0; i < index; i++)
		if (!trace->frames[i].scanned)
			return false;
	return true;
}

/* The caller of the frame before it, reached through a return address
 * (its ip_addr is the callee's CFA - 8): the callee's CFA is its sp. */
static bool is_return_frame(const struct oc_trace *trace,
			    const struct oc_frame *n)
{
	return n->regs_kind == OC_REGS_NONE && n->ip_addr &&
	       n->ip_addr == n->sp - 8 && n->how != OC_HOW_SCAN;
}

/* The previous (inner) real frame, or SIZE_MAX. */
static size_t prev_frame(const struct oc_trace *trace, size_t index)
{
	while (index--)
		if (!trace->frames[index].scanned)
			return index;
	return SIZE_MAX;
}

/* Where a register a frame knows came from (the "where" of a value). */
enum reg_origin {
	ORIGIN_FRAME,		/* the frame's own: pt_regs, sp, ORC's bp */
	ORIGIN_INACTIVE,	/* a blocked task's inactive_task_frame */
	ORIGIN_SLOT,		/* CFI: read from a callee's save slot */
	ORIGIN_CFA,		/* CFI: val_offset, CFA + n */
};

/* What a frame knows: the registers, and where they came from. */
struct frame_regs {
	struct oc_dwexpr_ctx c;
	uint8_t origin[OC_DWREG_NR];
	uint64_t slot[OC_DWREG_NR];	/* ORIGIN_SLOT: its address */
	uint32_t cfi;		/* registers recovered through the CFI */
	bool poisoned;		/* the CFI disagreed with the walk: no
				 * more CFI until a pt_regs resets */
	char note[160];		/* what the CFI disagreed on, here */
};

/* The frame's own registers (docs/lines.md), no CFI. */
static void own_regs(const struct oc_kernel *k, const struct oc_trace *trace,
		     size_t index, const struct oc_task *task,
		     struct frame_regs *r)
{
	const struct oc_frame *f = &trace->frames[index];
	struct oc_dwexpr_ctx *c = &r->c;

	memset(r, 0, sizeof(*r));
	c->mem = &k->mem;
	c->addr_offset = k->kaslr_offset;
	if (f->regs_kind == OC_REGS_FULL) {
		full_regs(c, &f->regs);
	} else if (f->regs_kind == OC_REGS_PARTIAL) {
		set_reg(c, OC_DWREG_RSP, f->regs.sp);
		set_reg(c, OC_DWREG_RIP, f->regs.ip);
	} else {
		set_reg(c, OC_DWREG_RSP, f->sp);
		/* after a call-site step the walk has no bp (CFI may) */
		if (!f->bp_unknown)
			set_reg(c, OC_DWREG_RBP, f->bp);
		if (is_blocked_start(trace, index) &&
		    blocked_regs(k, f, task, c)) {
			static const unsigned saved[] = {
				OC_DWREG_RBX, OC_DWREG_R12, OC_DWREG_R13,
				OC_DWREG_R14, OC_DWREG_R15,
			};

			for (size_t i = 0; i < sizeof(saved) / sizeof(saved[0]); i++)
				r->origin[saved[i]] = ORIGIN_INACTIVE;
		}
	}
}

/* A frame's pc in its DWARF (vmlinux or the module's .ko), as the
 * variables are looked up; false when there is none. */
static bool frame_dwarf_pc(const struct oc_kernel *k, struct oc_lines *lines,
			   const struct oc_frame *f, struct oc_dwarf **dwarf_ret,
			   uint64_t *pc_ret)
{
	bool exact = f->exact;
	struct oc_sym_result s;
	struct oc_error *err;
	uint64_t addr;

	if (!oc_kernel_symbolize_frame(k, f, &s))
		s.module = NULL;
	if (!s.module) {
		*dwarf_ret = oc_lines_dwarf(lines);
		*pc_ret = oc_lines_addr(f->ip, exact, k->kaslr_offset);
		return *dwarf_ret != NULL;
	}
	err = oc_lines_module_dwarf(lines, s.module, dwarf_ret);
	if (err) {
		oc_error_destroy(err);
		return false;
	}
	if (!*dwarf_ret || !(addr = oc_dwarf_symbol_addr(*dwarf_ret, s.name)))
		return false;
	*pc_ret = addr + s.offset - (exact ? 0 : 1);
	return true;
}

/* Callee-saved registers: what the caller must find unchanged (psABI
 * 3.2.1), so what CFI describes.  rbp is ORC's (compared), unless the
 * walk has none for the frame (struct oc_frame's bp_unknown). */
static const unsigned callee_saved[] = {
	OC_DWREG_RBX, OC_DWREG_RBP, OC_DWREG_R12, OC_DWREG_R13,
	OC_DWREG_R14, OC_DWREG_R15,
};

/*
 * The registers of frame @n, the caller of frame @j (whose registers are
 * @in), through frame @j's CFI row: its own (sp, ORC's bp) plus every
 * callee-saved register the row recovers.  @n was reached through a
 * return address, so the walk's CFA of @j is n->sp.
 */
static void step_regs(const struct oc_kernel *k, struct oc_lines *lines,
		      const struct oc_trace *trace, size_t j, size_t n,
		      const struct frame_regs *in, struct frame_regs *out)
{
	const struct oc_frame *fj = &trace->frames[j], *fn = &trace->frames[n];
	struct oc_dwarf *dwarf;
	struct oc_cfi_row row;
	enum oc_cfi_status st;
	struct oc_error *err;
	uint64_t pc, cfa = fn->sp;

	own_regs(k, trace, n, NULL, out);
	/* a pt_regs frame starts afresh; so does a broken chain (no CFA) */
	if (fn->regs_kind != OC_REGS_NONE || !is_return_frame(trace, fn))
		return;
	out->poisoned = in->poisoned;
	if (in->poisoned || !lines || !frame_dwarf_pc(k, lines, fj, &dwarf, &pc))
		return;
	err = oc_dwarf_cfi_find(dwarf, pc, &row, &st);
	if (err) {
		oc_error_destroy(err);
		return;
	}
	/* no FDE (entry code, __switch_to_asm...): nothing passes */
	if (st != OC_CFI_FOUND)
		return;
	if (row.cfa_kind == OC_CFI_CFA_REG_OFFSET && row.cfa_reg < OC_DWREG_NR &&
	    (in->c.known >> row.cfa_reg & 1)) {
		uint64_t cfi_cfa = in->c.regs[row.cfa_reg] + (uint64_t)row.cfa_off;

		if (cfi_cfa != cfa) {
			char rn[16];

			snprintf(out->note, sizeof(out->note),
				 "CFI CFA %s%+" PRId64 " = 0x%" PRIx64 " in the callee, the walk's 0x%" PRIx64 ": no CFI from here",
				 oc_dwexpr_reg_name(row.cfa_reg, rn, sizeof(rn)),
				 row.cfa_off, cfi_cfa, cfa);
			out->poisoned = true;
			return;
		}
	}
	for (size_t i = 0; i < sizeof(callee_saved) / sizeof(callee_saved[0]); i++) {
		unsigned reg = callee_saved[i];
		const struct oc_cfi_rule *rule = &row.regs[reg];
		uint8_t origin = ORIGIN_FRAME;
		uint64_t v = 0, slot = 0;
		bool known = false;

		switch (rule->kind) {
		case OC_CFI_UNSPECIFIED:	/* gcc: callee-saved = same value */
		case OC_CFI_SAME_VALUE:
			if (in->c.known >> reg & 1) {
				known = true;
				v = in->c.regs[reg];
				origin = in->origin[reg];
				slot = in->slot[reg];
			}
			break;
		case OC_CFI_REGISTER:
			if (rule->reg < OC_DWREG_NR && (in->c.known >> rule->reg & 1)) {
				known = true;
				v = in->c.regs[rule->reg];
				origin = in->origin[rule->reg];
				slot = in->slot[rule->reg];
			}
			break;
		case OC_CFI_OFFSET:
			slot = cfa + (uint64_t)rule->off;
			err = oc_mem_read_u64(&k->mem, slot, &v);
			if (err)
				oc_error_destroy(err);
			known = !err;
			origin = ORIGIN_SLOT;
			break;
		case OC_CFI_VAL_OFFSET:
			known = true;
			v = cfa + (uint64_t)rule->off;
			origin = ORIGIN_CFA;
			break;
		case OC_CFI_UNDEFINED:
		case OC_CFI_EXPRESSION:
			break;
		}
		if (!known)
			continue;
		if (reg == OC_DWREG_RBP && !fn->bp_unknown) {
			/* the kernel's own unwinder has the last word, where
			 * it has one */
			if (v != fn->bp)
				snprintf(out->note, sizeof(out->note),
					 "CFI rbp 0x%" PRIx64 " differs from ORC's 0x%" PRIx64 ": ORC's used",
					 v, fn->bp);
			continue;
		}
		set_reg(&out->c, reg, v);
		out->origin[reg] = origin;
		out->slot[reg] = slot;
		out->cfi |= 1u << reg;
	}
}

/*
 * Frame @index's registers: its own, and the callee-saved ones carried
 * out from the innermost frame through each frame's CFI (docs/lines.md).
 * The carrying starts at the nearest frame inside that has its own
 * registers (pt_regs, a blocked task's first frame, the trace's first
 * frame) or after which the chain of return addresses breaks.
 */
static void frame_regs(const struct oc_kernel *k, struct oc_lines *lines,
		       const struct oc_trace *trace, size_t index,
		       const struct oc_task *task, struct frame_regs *ret)
{
	struct frame_regs tmp;
	size_t s = index, p;

	while (trace->frames[s].regs_kind == OC_REGS_NONE &&
	       !is_blocked_start(trace, s) &&
	       is_return_frame(trace, &trace->frames[s]) &&
	       (p = prev_frame(trace, s)) != SIZE_MAX)
		s = p;
	own_regs(k, trace, s, task, ret);
	while (s != index) {
		size_t n = s + 1;

		while (trace->frames[n].scanned)
			n++;
		step_regs(k, lines, trace, s, n, ret, &tmp);
		*ret = tmp;
		s = n;
	}
}

static void frame_ctx(const struct oc_kernel *k, struct oc_lines *lines,
		      const struct oc_trace *trace, size_t index,
		      const struct oc_task *task, struct frame_regs *r)
{
	struct oc_dwexpr_ctx *c = &r->c;

	frame_regs(k, lines, trace, index, task, r);
	/* the CFA: the caller's sp, if reached through a return address */
	for (size_t j = index + 1; j < trace->nr; j++) {
		const struct oc_frame *n = &trace->frames[j];

		if (n->scanned)
			continue;
		if (n->ip_addr && n->ip_addr == n->sp - 8 &&
		    n->how != OC_HOW_SCAN) {
			c->cfa_known = true;
			c->cfa = n->sp;
		}
		break;
	}
}

/* "%rbx" of a register the CFI recovered: say how. */
static const char *cfi_where(struct pool *p, const struct frame_regs *r,
			     const char *where)
{
	for (size_t i = 0; i < sizeof(callee_saved) / sizeof(callee_saved[0]); i++) {
		unsigned reg = callee_saved[i];
		char name[16];

		if (!(r->cfi >> reg & 1))
			continue;
		oc_dwexpr_reg_name(reg, name, sizeof(name));
		if (where[0] != '%' || strcmp(where + 1, name))
			continue;
		switch (r->origin[reg]) {
		case ORIGIN_SLOT:
			return pool_fmt(p, "%s, saved by a callee at 0x%" PRIx64,
					where, r->slot[reg]);
		case ORIGIN_INACTIVE:
			return pool_fmt(p, "%s, as in the inactive_task_frame",
					where);
		case ORIGIN_CFA:
			return pool_fmt(p, "%s, CFA-based (CFI)", where);
		default:
			return pool_fmt(p, "%s, as in the pt_regs", where);
		}
	}
	return pool_str(p, where);
}

/* --- values ------------------------------------------------------------ */

static uint64_t sign_extend(uint64_t v, uint64_t size)
{
	if (size && size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * size);
	return v;
}

static const char *render(struct pool *p, const struct oc_dwvar *dv,
			  uint64_t raw)
{
	uint64_t size = dv->size ? dv->size : 8;
	int64_t sv = (int64_t)sign_extend(raw, size);

	switch (dv->enc) {
	case OC_DWENC_SIGNED:
		return pool_fmt(p, "%" PRId64, sv);
	case OC_DWENC_UNSIGNED:
		if (size >= 8)
			return pool_fmt(p, "0x%" PRIx64, raw);
		return pool_fmt(p, "%" PRIu64, raw);
	case OC_DWENC_BOOL:
		if (raw <= 1)
			return pool_str(p, raw ? "true" : "false");
		return pool_fmt(p, "true (0x%" PRIx64 ")", raw);
	case OC_DWENC_SIGNED_CHAR:
	case OC_DWENC_UNSIGNED_CHAR: {
		int64_t n = dv->enc == OC_DWENC_SIGNED_CHAR ? sv : (int64_t)raw;

		if (size == 1 && raw < 0x80 && isprint((int)raw) &&
		    raw != '\'' && raw != '\\')
			return pool_fmt(p, "%" PRId64 " '%c'", n, (int)raw);
		return pool_fmt(p, "%" PRId64, n);
	}
	case OC_DWENC_POINTER:
		return pool_fmt(p, "0x%" PRIx64, raw);
	case OC_DWENC_ENUM: {
		int64_t want = dv->enum_signed ? sv : (int64_t)raw;

		for (size_t i = 0; i < dv->nr_enums; i++)
			if (dv->enums[i].value == want)
				return pool_str(p, dv->enums[i].name);
		return pool_fmt(p, "%" PRId64, want);
	}
	case OC_DWENC_FLOAT:
		if (size == 4) {
			float fl;
			uint32_t r32 = raw;

			memcpy(&fl, &r32, 4);
			return pool_fmt(p, "%g", fl);
		}
		if (size == 8) {
			double db;

			memcpy(&db, &raw, 8);
			return pool_fmt(p, "%g", db);
		}
		return pool_fmt(p, "0x%" PRIx64, raw);
	default:
		return pool_fmt(p, "0x%" PRIx64, raw);
	}
}

static bool scalar(const struct oc_dwvar *dv)
{
	return dv->enc != OC_DWENC_COMPOSITE && dv->enc != OC_DWENC_UNKNOWN &&
	       dv->size >= 1 && dv->size <= 8;
}

static void set_value(struct pool *p, struct oc_framevar *v,
		      const struct oc_dwvar *dv, const uint8_t *bytes)
{
	struct oc_cursor c;
	uint64_t raw = 0;

	/* scalar(): 1 to 8 bytes */
	oc_cursor_init(&c, bytes, dv->size, "variable");
	oc_ok(oc_cursor_le(&c, dv->size, &raw));
	v->status = OC_FRAMEVAR_VALUE;
	v->has_raw = true;
	v->raw = raw;
	v->value = render(p, dv, raw);
}

static void unavailable(struct pool *p, struct oc_framevar *v,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void unavailable(struct pool *p, struct oc_framevar *v,
			const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	v->status = OC_FRAMEVAR_UNAVAILABLE;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	v->why = pool_add(p, n < 0 ? NULL : s);
}

/* An object in memory at @addr: its value, or its address and type. */
static void in_memory(struct pool *p, const struct oc_kernel *k,
		      struct oc_framevar *v, const struct oc_dwvar *dv,
		      uint64_t addr)
{
	uint8_t buf[8];
	struct oc_error *err;
	size_t n = scalar(dv) ? dv->size : 1;

	v->address = addr;
	/* even a struct is only shown at an address that can be read */
	err = oc_mem_read(&k->mem, addr, buf, n);
	if (err) {
		oc_error_destroy(err);
		unavailable(p, v, "read of %zu bytes at 0x%" PRIx64 " failed",
			    n, addr);
		return;
	}
	if (scalar(dv)) {
		set_value(p, v, dv, buf);
		return;
	}
	v->status = OC_FRAMEVAR_IN_MEMORY;
	if (dv->size)
		v->value = pool_fmt(p, "%s at 0x%" PRIx64 ", %" PRIu64 " bytes",
				    dv->type, addr, dv->size);
	else
		v->value = pool_fmt(p, "%s at 0x%" PRIx64, dv->type, addr);
}

static void eval_var(struct pool *p, const struct oc_kernel *k,
		     const struct frame_regs *fr, const struct oc_dwvar *dv,
		     struct oc_framevar *v)
{
	const struct oc_dwexpr_ctx *c = &fr->c;
	struct oc_dwexpr_result r;

	switch (dv->loc) {
	case OC_DWVAR_NONE:
		v->status = OC_FRAMEVAR_OPTIMIZED_OUT;
		return;
	case OC_DWVAR_BAD:
		unavailable(p, v, "bad DWARF: %s", dv->why ? dv->why : "?");
		return;
	case OC_DWVAR_CONST:
		v->where = pool_str(p, "constant");
		if (scalar(dv) && dv->expr_len >= dv->size)
			set_value(p, v, dv, dv->expr);
		else
			unavailable(p, v, "constant of %zu bytes", dv->expr_len);
		return;
	case OC_DWVAR_EXPR:
		break;
	}
	oc_dwexpr_eval(c, dv->expr, dv->expr_len, &r);
	if (r.where[0])
		v->where = cfi_where(p, fr, r.where);
	switch (r.status) {
	case OC_DWEXPR_OPTIMIZED_OUT:
		v->status = OC_FRAMEVAR_OPTIMIZED_OUT;
		return;
	case OC_DWEXPR_UNAVAILABLE:
		unavailable(p, v, "%s", r.why);
		return;
	case OC_DWEXPR_BAD:
		unavailable(p, v, "bad location expression: %s", r.why);
		return;
	case OC_DWEXPR_OK:
		break;
	}
	if (r.loc == OC_DWLOC_MEMORY) {
		in_memory(p, k, v, dv, r.addr);
		return;
	}
	if (!scalar(dv)) {
		unavailable(p, v, "%s held in registers or computed",
			    dv->enc == OC_DWENC_COMPOSITE ? "an object" :
			    "a value of unknown size");
		return;
	}
	if (r.nr_bytes < dv->size) {
		unavailable(p, v, "only %zu of %" PRIu64 " bytes known",
			    r.nr_bytes, dv->size);
		return;
	}
	set_value(p, v, dv, r.bytes);
}

/* --- the frame --------------------------------------------------------- */

static struct oc_error *finish(struct oc_framevars *fv, struct pool *p,
			       struct oc_framevars **ret)
{
	if (p->nomem) {
		oc_framevars_free(fv);
		return &oc_enomem;
	}
	*ret = fv;
	return NULL;
}

static struct oc_error *frame_unavailable(struct oc_framevars *fv,
					  struct pool *p,
					  struct oc_framevars **ret,
					  const char *why)
{
	fv->unavailable = pool_fmt(p, "unavailable: %s", why);
	return finish(fv, p, ret);
}

struct oc_error *oc_framevars_get(const struct oc_kernel *k,
				  struct oc_lines *lines,
				  const struct oc_trace *trace, size_t index,
				  const struct oc_task *task,
				  struct oc_framevars **ret)
{
	const struct oc_frame *f;
	struct oc_framevars *fv;
	struct oc_dwvars *dv = NULL;
	struct oc_dwarf *dwarf = NULL;
	struct frame_regs fr;
	struct oc_dwexpr_ctx *ctx = &fr.c;
	struct oc_sym_result s;
	struct oc_error *err;
	struct pool *p;
	uint64_t addr;
	bool exact;
	char why[320];

	*ret = NULL;
	fv = calloc(1, sizeof(*fv));
	p = calloc(1, sizeof(*p));
	if (!fv || !p) {
		free(fv);
		free(p);
		return &oc_enomem;
	}
	fv->priv = p;
	if (!trace || index >= trace->nr)
		return frame_unavailable(fv, p, ret, "no such frame");
	f = &trace->frames[index];
	if (f->scanned)
		return frame_unavailable(fv, p, ret,
					 "not a frame (a \"?\" entry found by scanning the stack)");
	if (!f->ip)
		return frame_unavailable(fv, p, ret, "no ip");
	if (f->regs_kind != OC_REGS_NONE && (f->regs.cs & 3))
		return frame_unavailable(fv, p, ret, "user mode");
	if (!lines)
		return frame_unavailable(fv, p, ret, "no debuginfo (lines are off)");
	/* an exact ip shows its own variables; a return address its call's,
	 * as the lines do (src/report.c) */
	exact = f->exact;
	if (!oc_kernel_symbolize_frame(k, f, &s))
		s.module = NULL;
	frame_ctx(k, lines, trace, index, task, &fr);
	fv->cfi_regs = fr.cfi;
	if (fr.note[0])
		fv->cfi_note = pool_str(p, fr.note);
	if (s.module) {
		err = oc_lines_module_dwarf(lines, s.module, &dwarf);
		if (err) {
			oc_framevars_free(fv);
			return err;
		}
		if (!dwarf) {
			const char *mwhy = oc_lines_module_unavailable(lines,
								       s.module);

			snprintf(why, sizeof(why), "module %s (%s)", s.module,
				 mwhy ? mwhy : "no .ko with DWARF: --modules-dir");
			return frame_unavailable(fv, p, ret, why);
		}
		addr = oc_dwarf_symbol_addr(dwarf, s.name);
		if (!addr) {
			snprintf(why, sizeof(why), "module %s: no symbol %s in its .ko",
				 s.module, s.name);
			return frame_unavailable(fv, p, ret, why);
		}
		addr += s.offset - (exact ? 0 : 1);
		/* DW_OP_addr in a .ko is in our layout, not the load address */
		ctx->no_addr = true;
		ctx->addr_offset = 0;
	} else {
		dwarf = oc_lines_dwarf(lines);
		if (!dwarf) {
			const char *lwhy = oc_lines_unavailable(lines);

			snprintf(why, sizeof(why), "no debuginfo%s%s%s",
				 lwhy ? " (" : "", lwhy ? lwhy : "", lwhy ? ")" : "");
			return frame_unavailable(fv, p, ret, why);
		}
		addr = oc_lines_addr(f->ip, exact, k->kaslr_offset);
	}
	err = oc_dwarf_vars(dwarf, addr, &dv);
	if (err == &oc_enomem) {
		oc_framevars_free(fv);
		return err;
	}
	if (err) {
		char msg[256];

		oc_error_take(err, msg, sizeof(msg));
		snprintf(why, sizeof(why), "bad DWARF: %s", msg);
		return frame_unavailable(fv, p, ret, why);
	}
	if (!dv->nr_scopes) {
		oc_dwvars_free(dv);
		return frame_unavailable(fv, p, ret,
					 "no DWARF function at this address");
	}
	ctx->frame_base = dv->frame_base;
	ctx->frame_base_len = dv->frame_base_len;
	fv->levels = calloc(dv->nr_scopes, sizeof(*fv->levels));
	if (!fv->levels) {
		oc_dwvars_free(dv);
		oc_framevars_free(fv);
		return &oc_enomem;
	}
	fv->nr_levels = dv->nr_scopes;
	for (size_t i = 0; i < dv->nr_scopes && !p->nomem; i++) {
		const struct oc_dwscope *sc = &dv->scopes[i];
		struct oc_framevars_level *l = &fv->levels[i];

		l->function = pool_str(p, sc->function);
		l->inlined = sc->inlined;
		if (!sc->nr_vars)
			continue;
		l->vars = calloc(sc->nr_vars, sizeof(*l->vars));
		if (!l->vars) {
			p->nomem = true;
			break;
		}
		l->nr_vars = sc->nr_vars;
		for (size_t n = 0; n < sc->nr_vars; n++) {
			const struct oc_dwvar *d = &sc->vars[n];
			struct oc_framevar *v = &l->vars[n];

			v->name = pool_str(p, d->name ? d->name : "<anonymous>");
			v->type = pool_str(p, d->type ? d->type : "?");
			v->kind = d->param ? OC_FRAMEVAR_PARAM : OC_FRAMEVAR_LOCAL;
			v->size = d->size;
			eval_var(p, k, &fr, d, v);
		}
	}
	oc_dwvars_free(dv);
	return finish(fv, p, ret);
}
