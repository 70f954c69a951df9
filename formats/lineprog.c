// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF line-number programs, rows only (see lineprog.h): the state
 * machine of DWARF 5 section 6.2.  The header is read as far as the
 * program needs (minimum_instruction_length, line_base, line_range,
 * opcode_base, standard_opcode_lengths); the directory and file tables
 * are skipped through header_length.
 */
#include <string.h>

#include "cursor.h"
#include "lineprog.h"

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

/* An error of the cursor, or one of ours at the cursor's last read. */
#define TRY(expr)                                                             \
	do {                                                                  \
		struct oc_error *_err = (expr);                               \
		if (_err)                                                     \
			return _err;                                          \
	} while (0)

/* One sequence, up to and including DW_LNE_end_sequence. */
static struct oc_error *run_sequence(const struct lineprog *lp,
				     struct oc_cursor *c,
				     oc_lineprog_row_fn *row, void *arg)
{
	uint64_t addr = 0, line = 1, file = 1, u;
	int64_t sv;
	uint16_t u16;

	while (oc_cursor_left(c)) {
		uint8_t op;

		TRY(oc_cursor_u8(c, &op));
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
			struct oc_cursor ext;
			uint8_t sub;

			TRY(oc_cursor_uleb128(c, &u));
			if (!u)
				return oc_cursor_error(c, "empty extended opcode");
			TRY(oc_cursor_sub(c, u, &ext));
			TRY(oc_cursor_u8(&ext, &sub));
			if (sub == LNE_end_sequence)
				return row(arg, addr, line, file, true) ?
				       NULL : &oc_enomem;
			if (sub == LNE_set_address) {
				if (u != 9)
					return oc_cursor_error(c, "DW_LNE_set_address not 8 bytes");
				TRY(oc_cursor_le64(&ext, &addr));
			}
			/* others (define_file, set_discriminator): skipped */
			break;
		}
		case LNS_copy:
			if (!row(arg, addr, line, file, false))
				return &oc_enomem;
			break;
		case LNS_advance_pc:
			TRY(oc_cursor_uleb128(c, &u));
			addr += u * lp->min_inst;
			break;
		case LNS_advance_line:
			TRY(oc_cursor_sleb128(c, &sv));
			line += sv;
			break;
		case LNS_set_file:
			TRY(oc_cursor_uleb128(c, &file));
			break;
		case LNS_const_add_pc:
			addr += (uint64_t)((255 - lp->opcode_base) /
					   lp->line_range) * lp->min_inst;
			break;
		case LNS_fixed_advance_pc:
			TRY(oc_cursor_le16(c, &u16));
			addr += u16;
			break;
		default:
			/* column, stmt, basic block, prologue, epilogue, isa
			 * and opcodes we do not know: skip their ULEBs */
			for (unsigned k = 0; k < lp->std_lens[op - 1]; k++)
				TRY(oc_cursor_uleb128(c, &u));
			break;
		}
	}
	return oc_cursor_error(c, "sequence without DW_LNE_end_sequence");
}

struct oc_error *oc_lineprog_decode(const uint8_t *unit, size_t size,
				    oc_lineprog_row_fn *row, void *arg)
{
	struct oc_cursor c, u, hdr;
	uint64_t len, hlen;
	size_t offsz = 4;
	uint16_t ver;
	uint8_t max_ops = 1, b, seg;
	struct lineprog lp;
	const uint8_t *std_lens;

	oc_cursor_init(&c, unit, size, "line program");
	TRY(oc_cursor_le(&c, 4, &len));
	if (len == 0xffffffff) {
		TRY(oc_cursor_le64(&c, &len));
		offsz = 8;
	}
	TRY(oc_cursor_sub(&c, len, &u));
	TRY(oc_cursor_le16(&u, &ver));
	if (ver < 2 || ver > 5)
		return oc_cursor_error(&u, "unknown version %u", ver);
	if (ver >= 5) {
		TRY(oc_cursor_u8(&u, &b));
		TRY(oc_cursor_u8(&u, &seg));
		if (b != 8 || seg != 0)
			return oc_cursor_error(&u, "address size not 8");
	}
	TRY(oc_cursor_le(&u, offsz, &hlen));
	/* the header; the program follows it */
	TRY(oc_cursor_sub(&u, hlen, &hdr));
	TRY(oc_cursor_u8(&hdr, &lp.min_inst));
	if (ver >= 4)
		TRY(oc_cursor_u8(&hdr, &max_ops));
	TRY(oc_cursor_u8(&hdr, &b));	/* default_is_stmt: rows kept either way */
	TRY(oc_cursor_u8(&hdr, &b));
	lp.line_base = (int8_t)b;
	TRY(oc_cursor_u8(&hdr, &lp.line_range));
	TRY(oc_cursor_u8(&hdr, &lp.opcode_base));
	if (max_ops != 1)
		return oc_cursor_error(&hdr, "VLIW maximum_operations_per_instruction");
	if (!lp.line_range || !lp.opcode_base)
		return oc_cursor_error(&hdr, "bad line_range or opcode_base");
	TRY(oc_cursor_bytes(&hdr, lp.opcode_base - 1, &std_lens));
	lp.std_lens = std_lens;

	while (oc_cursor_left(&u))
		TRY(run_sequence(&lp, &u, row, arg));
	return NULL;
}
