// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF line-number programs, rows only (see lineprog.h): the state
 * machine of DWARF 5 section 6.2.  The header is read as far as the
 * program needs (minimum_instruction_length, line_base, line_range,
 * opcode_base, standard_opcode_lengths); the directory and file tables
 * are skipped through header_length.
 */
#include <string.h>

#include "lineprog.h"

static uint64_t get_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static bool read_uleb(const uint8_t **p, const uint8_t *end, uint64_t *ret)
{
	uint64_t v = 0;

	for (unsigned shift = 0; *p < end; shift += 7) {
		uint8_t b = *(*p)++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*ret = v;
			return true;
		}
	}
	return false;
}

static bool read_sleb(const uint8_t **p, const uint8_t *end, int64_t *ret)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		if (*p >= end)
			return false;
		b = *(*p)++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~0ULL << shift;
	*ret = (int64_t)v;
	return true;
}

static struct oc_error *bad(const char *what)
{
	return oc_error_format(OC_ERR_FORMAT, "line program: %s", what);
}

/* DW_LNS_* and DW_LNE_* (DWARF 5 tables 7.25 and 7.26) */
enum {
	LNS_copy = 1, LNS_advance_pc, LNS_advance_line, LNS_set_file,
	LNS_set_column, LNS_negate_stmt, LNS_set_basic_block,
	LNS_const_add_pc, LNS_fixed_advance_pc,
	LNE_end_sequence = 1, LNE_set_address,
};

struct lineprog {
	const uint8_t *std_lens;
	uint8_t min_inst, line_range, opcode_base;
	int8_t line_base;
};

/* One sequence, up to and including DW_LNE_end_sequence, from *pp. */
static struct oc_error *run_sequence(const struct lineprog *lp,
				     const uint8_t **pp, const uint8_t *end,
				     oc_lineprog_row_fn *row, void *arg)
{
	const uint8_t *p = *pp;
	uint64_t addr = 0, line = 1, file = 1, u;
	int64_t sv;

	while (p < end) {
		uint8_t op = *p++;

		if (op >= lp->opcode_base) {
			unsigned adj = op - lp->opcode_base;

			addr += (uint64_t)(adj / lp->line_range) * lp->min_inst;
			line += lp->line_base + (int)(adj % lp->line_range);
			if (!row(arg, addr, line, file, false))
				return &oc_enomem;
			continue;
		}
		switch (op) {
		case 0: {	/* extended: ULEB length, sub-opcode, operands */
			const uint8_t *next;

			if (!read_uleb(&p, end, &u) || !u ||
			    u > (uint64_t)(end - p))
				return bad("truncated extended opcode");
			next = p + u;
			if (*p == LNE_end_sequence) {
				*pp = next;
				return row(arg, addr, line, file, true) ?
				       NULL : &oc_enomem;
			}
			if (*p == LNE_set_address) {
				if (u != 9)
					return bad("DW_LNE_set_address not 8 bytes");
				addr = get_le(p + 1, 8);
			}
			/* others (define_file, set_discriminator): skipped */
			p = next;
			break;
		}
		case LNS_copy:
			if (!row(arg, addr, line, file, false))
				return &oc_enomem;
			break;
		case LNS_advance_pc:
			if (!read_uleb(&p, end, &u))
				return bad("truncated DW_LNS_advance_pc");
			addr += u * lp->min_inst;
			break;
		case LNS_advance_line:
			if (!read_sleb(&p, end, &sv))
				return bad("truncated DW_LNS_advance_line");
			line += sv;
			break;
		case LNS_set_file:
			if (!read_uleb(&p, end, &file))
				return bad("truncated DW_LNS_set_file");
			break;
		case LNS_const_add_pc:
			addr += (uint64_t)((255 - lp->opcode_base) /
					   lp->line_range) * lp->min_inst;
			break;
		case LNS_fixed_advance_pc:
			if (end - p < 2)
				return bad("truncated DW_LNS_fixed_advance_pc");
			addr += get_le(p, 2);
			p += 2;
			break;
		default:
			/* column, stmt, basic block, prologue, epilogue, isa
			 * and opcodes we do not know: skip their ULEBs */
			for (unsigned k = 0; k < lp->std_lens[op - 1]; k++)
				if (!read_uleb(&p, end, &u))
					return bad("truncated standard opcode");
			break;
		}
	}
	return bad("sequence without DW_LNE_end_sequence");
}

struct oc_error *oc_lineprog_decode(const uint8_t *unit, size_t size,
				    oc_lineprog_row_fn *row, void *arg)
{
	const uint8_t *p = unit, *end = unit + size, *prog;
	uint64_t len, hlen, offsz = 4, ver;
	struct lineprog lp;
	uint8_t max_ops = 1;

	if (size < 4)
		return bad("truncated unit length");
	len = get_le(p, 4);
	p += 4;
	if (len == 0xffffffff) {
		if (end - p < 8)
			return bad("truncated 64-bit unit length");
		len = get_le(p, 8);
		p += 8;
		offsz = 8;
	}
	if (len > (uint64_t)(end - p) || len < 2)
		return bad("unit length beyond the section");
	end = p + len;
	ver = get_le(p, 2);
	p += 2;
	if (ver < 2 || ver > 5)
		return bad("unknown version");
	if (ver >= 5) {
		/* address_size, segment_selector_size */
		if (end - p < 2 || p[0] != 8 || p[1] != 0)
			return bad("address size not 8");
		p += 2;
	}
	if ((uint64_t)(end - p) < offsz)
		return bad("truncated header");
	hlen = get_le(p, offsz);
	p += offsz;
	if (hlen > (uint64_t)(end - p))
		return bad("header length beyond the unit");
	prog = p + hlen;
	if (prog - p < 5 + (ver >= 4))
		return bad("truncated header");
	lp.min_inst = *p++;
	if (ver >= 4)
		max_ops = *p++;
	p++;		/* default_is_stmt: rows are kept either way */
	lp.line_base = (int8_t)*p++;
	lp.line_range = *p++;
	lp.opcode_base = *p++;
	if (max_ops != 1)
		return bad("VLIW maximum_operations_per_instruction");
	if (!lp.line_range || !lp.opcode_base ||
	    prog - p < lp.opcode_base - 1)
		return bad("bad line_range or opcode_base");
	lp.std_lens = p;

	for (p = prog; p < end;) {
		struct oc_error *err = run_sequence(&lp, &p, end, row, arg);

		if (err)
			return err;
	}
	return NULL;
}
