// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF location expressions (DWARF 5 section 2.5 and 2.6) over one
 * frame's known registers, CFA and memory.  See dwexpr.h.
 *
 * Besides each stack entry's value we track what it is relative to
 * (the CFA, a register, a global address) so that the report can say
 * where a variable lives ("[CFA-0x30]") rather than only the address.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "dwexpr.h"

/* DW_OP_* (DWARF 5 table 7.9, and the GNU extensions gcc emits) */
enum {
	OP_addr = 0x03, OP_deref = 0x06,
	OP_const1u = 0x08, OP_const1s, OP_const2u, OP_const2s, OP_const4u,
	OP_const4s, OP_const8u, OP_const8s, OP_constu, OP_consts,
	OP_dup = 0x12, OP_drop, OP_over, OP_pick, OP_swap, OP_rot, OP_xderef,
	OP_abs = 0x19, OP_and, OP_div, OP_minus, OP_mod, OP_mul, OP_neg,
	OP_not, OP_or, OP_plus, OP_plus_uconst, OP_shl, OP_shr, OP_shra,
	OP_xor, OP_bra, OP_eq, OP_ge, OP_gt, OP_le, OP_lt, OP_ne, OP_skip,
	OP_lit0 = 0x30, OP_lit31 = 0x4f,
	OP_reg0 = 0x50, OP_reg31 = 0x6f,
	OP_breg0 = 0x70, OP_breg31 = 0x8f,
	OP_regx = 0x90, OP_fbreg, OP_bregx, OP_piece, OP_deref_size,
	OP_xderef_size, OP_nop, OP_push_object_address, OP_call2, OP_call4,
	OP_call_ref, OP_form_tls_address, OP_call_frame_cfa, OP_bit_piece,
	OP_implicit_value, OP_stack_value, OP_implicit_pointer, OP_addrx,
	OP_constx, OP_entry_value, OP_const_type, OP_regval_type,
	OP_deref_type, OP_xderef_type, OP_convert, OP_reinterpret,
	OP_GNU_push_tls_address = 0xe0,
	OP_GNU_uninit = 0xf0, OP_GNU_encoded_addr, OP_GNU_implicit_pointer,
	OP_GNU_entry_value, OP_GNU_const_type, OP_GNU_regval_type,
	OP_GNU_deref_type, OP_GNU_convert, OP_GNU_reinterpret = 0xf9,
	OP_GNU_parameter_ref, OP_GNU_addr_index, OP_GNU_const_index,
	OP_GNU_variable_value,
};

/* what a stack entry's value is relative to, for the "where" text */
enum sym_kind { SYM_NONE, SYM_CONST, SYM_CFA, SYM_REG, SYM_ADDR };

struct entry {
	uint64_t v;
	enum sym_kind sym;
	unsigned reg;
	int64_t off;
};

/* what the current piece (or the whole location) is */
enum piece_kind { PK_STACK, PK_REG, PK_VALUE, PK_IMPLICIT };

struct eval {
	const struct oc_dwexpr_ctx *ctx;
	struct oc_cursor cur;
	struct entry stack[OC_DWEXPR_MAX_STACK];
	size_t sp;
	unsigned ops;
	struct oc_dwexpr_result *res;
	bool done;		/* res->status is final */
	bool in_frame_base;
};

const char *oc_dwexpr_reg_name(unsigned reg, char *buf, size_t size)
{
	static const char *const names[] = {
		"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip",
	};

	if (reg < sizeof(names) / sizeof(names[0]))
		snprintf(buf, size, "%s", names[reg]);
	else if (reg >= 17 && reg <= 32)
		snprintf(buf, size, "xmm%u", reg - 17);
	else if (reg >= 33 && reg <= 40)
		snprintf(buf, size, "st%u", reg - 33);
	else
		snprintf(buf, size, "reg%u", reg);
	return buf;
}

static void set_status(struct eval *e, enum oc_dwexpr_status status,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_status(struct eval *e, enum oc_dwexpr_status status,
		       const char *fmt, ...)
{
	va_list ap;

	if (e->done)
		return;
	e->done = true;
	e->res->status = status;
	va_start(ap, fmt);
	vsnprintf(e->res->why, sizeof(e->res->why), fmt, ap);
	va_end(ap);
}

#define bad(e, ...) set_status(e, OC_DWEXPR_BAD, __VA_ARGS__)
#define unavailable(e, ...) set_status(e, OC_DWEXPR_UNAVAILABLE, __VA_ARGS__)

/* --- operand decoding ---------------------------------------------- */

/* A cursor read: true if it worked, else the expression is bad. */
static bool got(struct eval *e, struct oc_error *err)
{
	if (!err)
		return true;
	bad(e, "%s", err->message);
	oc_error_destroy(err);
	return false;
}

static bool get_u(struct eval *e, size_t n, uint64_t *ret)
{
	return got(e, oc_cursor_le(&e->cur, n, ret));
}

static bool get_s(struct eval *e, size_t n, int64_t *ret)
{
	return got(e, oc_cursor_sle(&e->cur, n, ret));
}

static bool get_uleb(struct eval *e, uint64_t *ret)
{
	return got(e, oc_cursor_uleb128(&e->cur, ret));
}

static bool get_sleb(struct eval *e, int64_t *ret)
{
	return got(e, oc_cursor_sleb128(&e->cur, ret));
}

/* A length-prefixed block (DW_OP_implicit_value, entry_value). */
static bool get_block(struct eval *e, const uint8_t **ret, uint64_t *len_ret)
{
	return get_uleb(e, len_ret) &&
	       got(e, oc_cursor_bytes(&e->cur, *len_ret, ret));
}

/* --- the stack ------------------------------------------------------- */

static bool push(struct eval *e, struct entry ent)
{
	if (e->sp == OC_DWEXPR_MAX_STACK) {
		bad(e, "DWARF stack overflow (more than %d entries)",
		    OC_DWEXPR_MAX_STACK);
		return false;
	}
	e->stack[e->sp++] = ent;
	return true;
}

static bool push_v(struct eval *e, uint64_t v, enum sym_kind sym)
{
	return push(e, (struct entry){ .v = v, .sym = sym });
}

static bool need(struct eval *e, size_t n, uint8_t op)
{
	if (e->sp < n) {
		bad(e, "DWARF stack underflow at DW_OP 0x%02x", op);
		return false;
	}
	return true;
}

static bool reg_value(struct eval *e, unsigned reg, uint64_t *ret)
{
	char name[16];

	if (reg < OC_DWREG_NR && (e->ctx->known >> reg) & 1) {
		*ret = e->ctx->regs[reg];
		return true;
	}
	unavailable(e, "needs %%%s, not recovered",
		    oc_dwexpr_reg_name(reg, name, sizeof(name)));
	return false;
}

/* Offsets from hostile expressions wrap like the values they describe
 * (signed overflow would be undefined). */
static int64_t wrap_add(int64_t a, uint64_t b)
{
	return (int64_t)((uint64_t)a + b);
}

static bool breg(struct eval *e, unsigned reg, int64_t off)
{
	uint64_t v;

	if (!reg_value(e, reg, &v))
		return false;
	return push(e, (struct entry){ .v = v + (uint64_t)off, .sym = SYM_REG,
				       .reg = reg, .off = off });
}

static bool read_mem(struct eval *e, uint64_t addr, void *buf, size_t n)
{
	struct oc_error *err;

	if (!e->ctx->mem) {
		unavailable(e, "no target memory to read 0x%" PRIx64, addr);
		return false;
	}
	err = oc_mem_read(e->ctx->mem, addr, buf, n);
	if (err) {
		oc_error_destroy(err);
		unavailable(e, "read of %zu bytes at 0x%" PRIx64 " failed", n,
			    addr);
		return false;
	}
	return true;
}

static bool deref(struct eval *e, size_t n)
{
	uint8_t buf[8] = { 0 };
	uint64_t v = 0;

	if (n == 0 || n > 8) {
		bad(e, "DW_OP_deref_size %zu", n);
		return false;
	}
	if (!read_mem(e, e->stack[e->sp - 1].v, buf, n))
		return false;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)buf[i] << (8 * i);
	e->stack[e->sp - 1] = (struct entry){ .v = v };
	return true;
}

static void run(struct eval *e, struct oc_dwexpr_result *ret);

/* DW_OP_fbreg: the frame base (itself an expression) + offset */
static bool fbreg(struct eval *e, int64_t off)
{
	const struct oc_dwexpr_ctx *ctx = e->ctx;
	struct oc_dwexpr_result fb;
	struct eval sub;
	struct entry ent = { .off = off };

	if (e->in_frame_base) {
		bad(e, "DW_OP_fbreg inside the frame base");
		return false;
	}
	if (!ctx->frame_base || !ctx->frame_base_len) {
		unavailable(e, "no frame base (DW_AT_frame_base) at this pc");
		return false;
	}
	memset(&sub, 0, sizeof(sub));
	sub.ctx = ctx;
	oc_cursor_init(&sub.cur, ctx->frame_base, ctx->frame_base_len,
		       "DWARF frame base");
	sub.in_frame_base = true;
	run(&sub, &fb);
	if (fb.status != OC_DWEXPR_OK) {
		set_status(e, fb.status == OC_DWEXPR_OPTIMIZED_OUT ?
			   OC_DWEXPR_UNAVAILABLE : fb.status,
			   "frame base: %s", fb.status == OC_DWEXPR_OPTIMIZED_OUT ?
			   "none at this pc" : fb.why);
		return false;
	}
	if (fb.loc == OC_DWLOC_MEMORY) {
		/* DW_OP_call_frame_cfa (gcc), DW_OP_breg7 N (clang) */
		ent.v = fb.addr + (uint64_t)off;
		if (sub.sp && sub.stack[sub.sp - 1].sym == SYM_CFA) {
			ent.sym = SYM_CFA;
			ent.off = wrap_add(sub.stack[sub.sp - 1].off, (uint64_t)off);
		} else if (sub.sp && sub.stack[sub.sp - 1].sym == SYM_REG) {
			ent.sym = SYM_REG;
			ent.reg = sub.stack[sub.sp - 1].reg;
			ent.off = wrap_add(sub.stack[sub.sp - 1].off, (uint64_t)off);
		}
		return push(e, ent);
	}
	/* DW_OP_regN as a frame base: the register's value */
	if (fb.nr_bytes == 8) {
		struct oc_cursor c;
		uint64_t v = 0;

		oc_cursor_init(&c, fb.bytes, fb.nr_bytes, "DWARF frame base");
		oc_ok(oc_cursor_le64(&c, &v));
		ent.v = v + (uint64_t)off;
		return push(e, ent);
	}
	unavailable(e, "unusable frame base");
	return false;
}

/* two operands popped into a (second) and b (top) */
static bool binop(struct eval *e, uint8_t op)
{
	struct entry *a, *b;
	uint64_t x, y, r;
	struct entry res = { 0 };

	if (!need(e, 2, op))
		return false;
	a = &e->stack[e->sp - 2];
	b = &e->stack[e->sp - 1];
	x = a->v;
	y = b->v;
	switch (op) {
	case OP_and: r = x & y; break;
	case OP_or: r = x | y; break;
	case OP_xor: r = x ^ y; break;
	case OP_mul: r = x * y; break;
	case OP_plus:
		r = x + y;
		/* keep "CFA + constant" readable */
		if (b->sym == SYM_CONST && a->sym != SYM_NONE &&
		    a->sym != SYM_CONST) {
			res = *a;
			res.off = wrap_add(res.off, y);
		} else if (a->sym == SYM_CONST && b->sym != SYM_NONE &&
			   b->sym != SYM_CONST) {
			res = *b;
			res.off = wrap_add(res.off, x);
		} else if (a->sym == SYM_CONST && b->sym == SYM_CONST) {
			res.sym = SYM_CONST;
		}
		break;
	case OP_minus:
		r = x - y;
		if (b->sym == SYM_CONST && a->sym != SYM_NONE) {
			res = *a;
			res.off = wrap_add(res.off, -y);
		}
		break;
	case OP_div:
		if (y == 0) {
			bad(e, "DW_OP_div by zero");
			return false;
		}
		/* signed; INT64_MIN / -1 overflows: give INT64_MIN */
		if ((int64_t)y == -1)
			r = -x;
		else
			r = (uint64_t)((int64_t)x / (int64_t)y);
		break;
	case OP_mod:
		if (y == 0) {
			bad(e, "DW_OP_mod by zero");
			return false;
		}
		r = x % y;
		break;
	case OP_shl: r = y >= 64 ? 0 : x << y; break;
	case OP_shr: r = y >= 64 ? 0 : x >> y; break;
	case OP_shra:
		if (y >= 64)
			r = (int64_t)x < 0 ? ~(uint64_t)0 : 0;
		else if ((int64_t)x < 0)
			r = ~(~x >> y);
		else
			r = x >> y;
		break;
	case OP_eq: r = x == y; break;
	case OP_ne: r = x != y; break;
	case OP_lt: r = (int64_t)x < (int64_t)y; break;
	case OP_le: r = (int64_t)x <= (int64_t)y; break;
	case OP_gt: r = (int64_t)x > (int64_t)y; break;
	case OP_ge: r = (int64_t)x >= (int64_t)y; break;
	default:
		bad(e, "internal: binop 0x%02x", op);
		return false;
	}
	e->sp--;
	res.v = r;
	e->stack[e->sp - 1] = res;
	return true;
}

static bool branch(struct eval *e, int64_t off)
{
	/* relative to the byte after the operand */
	uint64_t to = oc_cursor_offset(&e->cur) + (uint64_t)off;
	struct oc_error *err = oc_cursor_seek(&e->cur, to);

	if (!err)
		return true;
	oc_error_destroy(err);
	bad(e, "branch outside the expression");
	return false;
}

/* --- pieces and the result ----------------------------------------- */

struct piece {
	enum piece_kind kind;
	unsigned reg;
	const uint8_t *implicit;
	size_t implicit_len;
};

static void where_of(const struct entry *t, char *buf, size_t size)
{
	char name[16];
	int64_t off = t->off;
	const char *sign = off < 0 ? "-" : "+";
	uint64_t mag = off < 0 ? -(uint64_t)off : (uint64_t)off;

	switch (t->sym) {
	case SYM_CFA:
		if (off)
			snprintf(buf, size, "[CFA%s0x%" PRIx64 "]", sign, mag);
		else
			snprintf(buf, size, "[CFA]");
		break;
	case SYM_REG:
		oc_dwexpr_reg_name(t->reg, name, sizeof(name));
		if (off)
			snprintf(buf, size, "[%%%s%s0x%" PRIx64 "]", name, sign,
				 mag);
		else
			snprintf(buf, size, "[%%%s]", name);
		break;
	case SYM_ADDR:
		snprintf(buf, size, "global 0x%" PRIx64, t->v);
		break;
	default:
		snprintf(buf, size, "[0x%" PRIx64 "]", t->v);
		break;
	}
}

static void append_where(struct oc_dwexpr_result *res, const char *w)
{
	size_t n = strlen(res->where);

	if (n)
		snprintf(res->where + n, sizeof(res->where) - n, " + %s", w);
	else
		snprintf(res->where, sizeof(res->where), "%s", w);
}

/* A whole location that is a value: @n bytes of @bytes. */
static bool whole_value(struct oc_dwexpr_result *res, const void *bytes,
			size_t n, const char *where)
{
	res->loc = OC_DWLOC_VALUE;
	memcpy(res->bytes, bytes, n);
	res->nr_bytes = n;
	append_where(res, where);
	return true;
}

/*
 * The current piece (or whole location) as bytes: @size bytes of it
 * when @size is not 0 (a DW_OP_piece), appended to res->bytes.
 * Returns false when the result is settled (unavailable, bad).
 */
static bool finish_piece(struct eval *e, const struct piece *pc, size_t size,
			 bool whole)
{
	struct oc_dwexpr_result *res = e->res;
	uint8_t buf[OC_DWEXPR_MAX_VALUE] = { 0 };
	char where[64], name[16];
	uint64_t v;

	switch (pc->kind) {
	case PK_REG:
		oc_dwexpr_reg_name(pc->reg, name, sizeof(name));
		snprintf(where, sizeof(where), "%%%s", name);
		if (pc->reg >= OC_DWREG_NR || !((e->ctx->known >> pc->reg) & 1)) {
			unavailable(e, "in %%%s, not recovered", name);
			append_where(res, where);
			return false;
		}
		v = e->ctx->regs[pc->reg];
		memcpy(buf, &v, 8);
		if (whole)
			return whole_value(res, buf, 8, where);
		break;
	case PK_VALUE:
		if (!need(e, 1, OP_stack_value))
			return false;
		v = e->stack[e->sp - 1].v;
		memcpy(buf, &v, 8);
		snprintf(where, sizeof(where), "%s",
			 e->stack[e->sp - 1].sym == SYM_CONST ? "constant" :
			 "computed");
		if (whole)
			return whole_value(res, buf, 8, where);
		break;
	case PK_IMPLICIT:
		snprintf(where, sizeof(where), "constant");
		if (whole) {
			if (pc->implicit_len > OC_DWEXPR_MAX_VALUE) {
				unavailable(e, "implicit value of %zu bytes",
					    pc->implicit_len);
				return false;
			}
			return whole_value(res, pc->implicit,
					   pc->implicit_len, where);
		}
		memcpy(buf, pc->implicit,
		       pc->implicit_len < sizeof(buf) ? pc->implicit_len :
		       sizeof(buf));
		break;
	case PK_STACK:
		if (e->sp == 0) {
			/* an empty piece: this part is optimized out */
			if (whole) {
				set_status(e, OC_DWEXPR_OPTIMIZED_OUT, "%s",
					   "no location");
				return false;
			}
			unavailable(e, "partly optimized out (%zu-byte piece)",
				    size);
			return false;
		}
		where_of(&e->stack[e->sp - 1], where, sizeof(where));
		if (whole) {
			res->loc = OC_DWLOC_MEMORY;
			res->addr = e->stack[e->sp - 1].v;
			append_where(res, where);
			return true;
		}
		if (size > sizeof(buf)) {
			unavailable(e, "%zu-byte piece", size);
			return false;
		}
		if (!read_mem(e, e->stack[e->sp - 1].v, buf, size))
			return false;
		break;
	}
	append_where(res, where);
	if (size > OC_DWEXPR_MAX_VALUE - res->nr_bytes) {
		unavailable(e, "pieces larger than %d bytes",
			    OC_DWEXPR_MAX_VALUE);
		return false;
	}
	memcpy(res->bytes + res->nr_bytes, buf, size);
	res->nr_bytes += size;
	res->loc = OC_DWLOC_VALUE;
	return true;
}

static void run(struct eval *e, struct oc_dwexpr_result *ret)
{
	struct piece pc = { .kind = PK_STACK };
	bool pieces = false;
	char name[16];
	uint8_t op;

	memset(ret, 0, sizeof(*ret));
	e->res = ret;
	if (!oc_cursor_left(&e->cur)) {
		ret->status = OC_DWEXPR_OPTIMIZED_OUT;
		return;
	}
	while (!e->done && oc_cursor_next(&e->cur, &op)) {
		uint64_t u = 0, u2;
		int64_t s = 0;
		const uint8_t *block;

		if (++e->ops > OC_DWEXPR_MAX_OPS) {
			bad(e, "more than %d operations", OC_DWEXPR_MAX_OPS);
			break;
		}
		/* after DW_OP_regN, stack_value or implicit_value only a
		 * piece may follow */
		if (pc.kind != PK_STACK && op != OP_piece &&
		    op != OP_bit_piece) {
			bad(e, "DW_OP 0x%02x after a register or value location",
			    op);
			break;
		}
		if (op >= OP_lit0 && op <= OP_lit31) {
			push_v(e, op - OP_lit0, SYM_CONST);
			continue;
		}
		if (op >= OP_reg0 && op <= OP_reg31) {
			pc.kind = PK_REG;
			pc.reg = op - OP_reg0;
			continue;
		}
		if (op >= OP_breg0 && op <= OP_breg31) {
			if (get_sleb(e, &s))
				breg(e, op - OP_breg0, s);
			continue;
		}
		switch (op) {
		case OP_addr:
			if (!get_u(e, 8, &u))
				break;
			if (e->ctx->no_addr) {
				unavailable(e, "static address 0x%" PRIx64
					    " in a module (load address unknown)",
					    u);
				break;
			}
			push_v(e, u + e->ctx->addr_offset, SYM_ADDR);
			break;
		case OP_deref:
			if (need(e, 1, op))
				deref(e, 8);
			break;
		case OP_deref_size:
			if (get_u(e, 1, &u) && need(e, 1, op))
				deref(e, u);
			break;
		case OP_const1u: if (get_u(e, 1, &u)) push_v(e, u, SYM_CONST); break;
		case OP_const2u: if (get_u(e, 2, &u)) push_v(e, u, SYM_CONST); break;
		case OP_const4u: if (get_u(e, 4, &u)) push_v(e, u, SYM_CONST); break;
		case OP_const8u: if (get_u(e, 8, &u)) push_v(e, u, SYM_CONST); break;
		case OP_const1s: if (get_s(e, 1, &s)) push_v(e, s, SYM_CONST); break;
		case OP_const2s: if (get_s(e, 2, &s)) push_v(e, s, SYM_CONST); break;
		case OP_const4s: if (get_s(e, 4, &s)) push_v(e, s, SYM_CONST); break;
		case OP_const8s: if (get_s(e, 8, &s)) push_v(e, s, SYM_CONST); break;
		case OP_constu: if (get_uleb(e, &u)) push_v(e, u, SYM_CONST); break;
		case OP_consts: if (get_sleb(e, &s)) push_v(e, s, SYM_CONST); break;
		case OP_dup:
			if (need(e, 1, op))
				push(e, e->stack[e->sp - 1]);
			break;
		case OP_drop:
			if (need(e, 1, op))
				e->sp--;
			break;
		case OP_over:
			if (need(e, 2, op))
				push(e, e->stack[e->sp - 2]);
			break;
		case OP_pick:
			if (!get_u(e, 1, &u))
				break;
			if (u >= e->sp) {
				bad(e, "DW_OP_pick %" PRIu64 " beyond the stack", u);
				break;
			}
			push(e, e->stack[e->sp - 1 - u]);
			break;
		case OP_swap:
			if (need(e, 2, op)) {
				struct entry t = e->stack[e->sp - 1];

				e->stack[e->sp - 1] = e->stack[e->sp - 2];
				e->stack[e->sp - 2] = t;
			}
			break;
		case OP_rot:
			if (need(e, 3, op)) {
				struct entry t = e->stack[e->sp - 1];

				e->stack[e->sp - 1] = e->stack[e->sp - 2];
				e->stack[e->sp - 2] = e->stack[e->sp - 3];
				e->stack[e->sp - 3] = t;
			}
			break;
		case OP_abs:
			if (need(e, 1, op)) {
				struct entry *t = &e->stack[e->sp - 1];

				if ((int64_t)t->v < 0)
					t->v = -t->v;
				t->sym = t->sym == SYM_CONST ? SYM_CONST : SYM_NONE;
			}
			break;
		case OP_neg:
		case OP_not:
			if (need(e, 1, op)) {
				struct entry *t = &e->stack[e->sp - 1];

				t->v = op == OP_neg ? -t->v : ~t->v;
				t->sym = t->sym == SYM_CONST ? SYM_CONST : SYM_NONE;
			}
			break;
		case OP_and: case OP_div: case OP_minus: case OP_mod:
		case OP_mul: case OP_or: case OP_plus: case OP_shl:
		case OP_shr: case OP_shra: case OP_xor: case OP_eq:
		case OP_ge: case OP_gt: case OP_le: case OP_lt: case OP_ne:
			binop(e, op);
			break;
		case OP_plus_uconst:
			if (get_uleb(e, &u) && need(e, 1, op)) {
				struct entry *t = &e->stack[e->sp - 1];

				t->v += u;
				t->off = wrap_add(t->off, u);
			}
			break;
		case OP_skip:
			if (get_s(e, 2, &s))
				branch(e, s);
			break;
		case OP_bra:
			if (get_s(e, 2, &s) && need(e, 1, op)) {
				if (e->stack[--e->sp].v)
					branch(e, s);
			}
			break;
		case OP_regx:
			if (get_uleb(e, &u)) {
				pc.kind = PK_REG;
				pc.reg = u > 0xffff ? 0xffff : (unsigned)u;
			}
			break;
		case OP_bregx:
			if (get_uleb(e, &u) && get_sleb(e, &s))
				breg(e, u > 0xffff ? 0xffff : (unsigned)u, s);
			break;
		case OP_fbreg:
			if (get_sleb(e, &s))
				fbreg(e, s);
			break;
		case OP_call_frame_cfa:
			if (!e->ctx->cfa_known) {
				unavailable(e, "CFA unknown");
				break;
			}
			push(e, (struct entry){ .v = e->ctx->cfa, .sym = SYM_CFA });
			break;
		case OP_nop:
			break;
		case OP_stack_value:
			if (need(e, 1, op))
				pc.kind = PK_VALUE;
			break;
		case OP_implicit_value:
			if (!get_block(e, &block, &u))
				break;
			pc.kind = PK_IMPLICIT;
			pc.implicit = block;
			pc.implicit_len = u;
			break;
		case OP_piece:
			if (!get_uleb(e, &u))
				break;
			pieces = true;
			if (finish_piece(e, &pc, u, false)) {
				pc = (struct piece){ .kind = PK_STACK };
				e->sp = 0;
			}
			break;
		case OP_bit_piece:
			if (get_uleb(e, &u) && get_uleb(e, &u2))
				unavailable(e, "bit pieces");
			break;
		case OP_entry_value:
		case OP_GNU_entry_value:
			/* the value a register had on entry: a caller's
			 * value we cannot recover post mortem */
			if (!get_block(e, &block, &u))
				break;
			if (u >= 1 && block[0] >= OP_reg0 && block[0] <= OP_reg31)
				unavailable(e, "entry value (of %%%s)",
					    oc_dwexpr_reg_name(block[0] - OP_reg0,
							       name, sizeof(name)));
			else
				unavailable(e, "entry value");
			break;
		case OP_GNU_parameter_ref:
			if (get_u(e, 4, &u))
				unavailable(e, "entry value (parameter ref)");
			break;
		case OP_implicit_pointer:
		case OP_GNU_implicit_pointer:
			/* 4-byte DIE reference (32-bit DWARF), sleb offset */
			if (get_u(e, 4, &u) && get_sleb(e, &s))
				unavailable(e, "implicit pointer (pointee optimized into its uses)");
			break;
		case OP_const_type: case OP_GNU_const_type:
		case OP_regval_type: case OP_GNU_regval_type:
		case OP_deref_type: case OP_GNU_deref_type:
		case OP_convert: case OP_GNU_convert:
		case OP_reinterpret: case OP_GNU_reinterpret:
		case OP_xderef_type:
			unavailable(e, "typed DWARF stack (DW_OP 0x%02x)", op);
			break;
		case OP_addrx: case OP_constx:
		case OP_GNU_addr_index: case OP_GNU_const_index:
			unavailable(e, "DW_OP 0x%02x needs .debug_addr", op);
			break;
		case OP_xderef: case OP_xderef_size:
		case OP_push_object_address: case OP_call2: case OP_call4:
		case OP_call_ref: case OP_form_tls_address:
		case OP_GNU_push_tls_address: case OP_GNU_uninit:
		case OP_GNU_encoded_addr: case OP_GNU_variable_value:
			unavailable(e, "unsupported DW_OP 0x%02x", op);
			break;
		default:
			bad(e, "unknown DW_OP 0x%02x", op);
			break;
		}
	}
	if (e->done)
		return;
	if (pieces) {
		/* bytes after the last piece are not part of the object */
		if (pc.kind != PK_STACK || e->sp) {
			bad(e, "location after the last DW_OP_piece");
			return;
		}
		ret->status = OC_DWEXPR_OK;
		ret->loc = OC_DWLOC_VALUE;
		return;
	}
	if (finish_piece(e, &pc, 0, true))
		ret->status = OC_DWEXPR_OK;
}

void oc_dwexpr_eval(const struct oc_dwexpr_ctx *ctx, const uint8_t *expr,
		    size_t len, struct oc_dwexpr_result *ret)
{
	struct eval e;

	memset(&e, 0, sizeof(e));
	e.ctx = ctx;
	oc_cursor_init(&e.cur, expr, len, "DWARF expression");
	run(&e, ret);
}
