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
 *    records where bp is saved).  No CFI is used, so the other
 *    callee-saved registers are not recovered, and caller-saved ones are
 *    dead below a call anyway.
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
	if (!s) {
		p->nomem = true;
		return NULL;
	}
	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		char **n = realloc(p->strs, cap * sizeof(*n));

		if (!n) {
			free(s);
			p->nomem = true;
			return NULL;
		}
		p->strs = n;
		p->cap = cap;
	}
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
		for (size_t i = 0; i < p->nr; i++)
			free(p->strs[i]);
		free(p->strs);
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

static void frame_ctx(const struct oc_kernel *k, const struct oc_trace *trace,
		      size_t index, const struct oc_task *task,
		      struct oc_dwexpr_ctx *c)
{
	const struct oc_frame *f = &trace->frames[index];

	memset(c, 0, sizeof(*c));
	c->mem = &k->mem;
	c->addr_offset = k->kaslr_offset;
	if (f->regs_kind == OC_REGS_FULL) {
		full_regs(c, &f->regs);
	} else if (f->regs_kind == OC_REGS_PARTIAL) {
		set_reg(c, OC_DWREG_RSP, f->regs.sp);
		set_reg(c, OC_DWREG_RIP, f->regs.ip);
	} else {
		set_reg(c, OC_DWREG_RSP, f->sp);
		set_reg(c, OC_DWREG_RBP, f->bp);
		if (is_blocked_start(trace, index))
			blocked_regs(k, f, task, c);
	}
	/* the CFA: the caller's sp, if reached through a return address */
	for (size_t j = index + 1; j < trace->nr; j++) {
		const struct oc_frame *n = &trace->frames[j];

		if (n->scanned)
			continue;
		if (n->ip_addr && n->ip_addr == n->sp - 8 &&
		    !(trace->resynced && n->ip_addr == trace->resync_addr)) {
			c->cfa_known = true;
			c->cfa = n->sp;
		}
		break;
	}
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
	uint64_t raw = 0;

	memcpy(&raw, bytes, dv->size);
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
		     const struct oc_dwexpr_ctx *c, const struct oc_dwvar *dv,
		     struct oc_framevar *v)
{
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
		v->where = pool_str(p, r.where);
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
	struct oc_dwexpr_ctx ctx;
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
	exact = f->regs_kind != OC_REGS_NONE || (f->signal && !f->scanned);
	if (!oc_kernel_symbolize_frame(k, f, &s))
		s.module = NULL;
	frame_ctx(k, trace, index, task, &ctx);
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
		ctx.no_addr = true;
		ctx.addr_offset = 0;
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

		oc_error_string(err, msg, sizeof(msg));
		oc_error_destroy(err);
		snprintf(why, sizeof(why), "bad DWARF: %s", msg);
		return frame_unavailable(fv, p, ret, why);
	}
	if (!dv->nr_scopes) {
		oc_dwvars_free(dv);
		return frame_unavailable(fv, p, ret,
					 "no DWARF function at this address");
	}
	ctx.frame_base = dv->frame_base;
	ctx.frame_base_len = dv->frame_base_len;
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
			eval_var(p, k, &ctx, d, v);
		}
	}
	oc_dwvars_free(dv);
	return finish(fv, p, ret);
}
