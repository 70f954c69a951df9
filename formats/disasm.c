// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/disasm.h over capstone 4 (cs_disasm_iter(): one instruction at
 * a time, no allocation per instruction).  Intel syntax, as objdump -M
 * intel prints it, so tests/commands compares the two mnemonic for
 * mnemonic.
 */
#include <capstone/capstone.h>
#include <stdio.h>
#include <string.h>

#include "disasm.h"

struct oc_error *oc_disasm(const uint8_t *code, size_t len, uint64_t addr,
			   size_t max,
			   bool (*fn)(void *arg, const struct oc_insn *insn),
			   void *arg, uint64_t *stopped_at)
{
	csh h;
	cs_insn *ci;
	const uint8_t *p = code;
	size_t left = len;
	uint64_t at = addr;
	cs_err e = cs_open(CS_ARCH_X86, CS_MODE_64, &h);

	if (e != CS_ERR_OK)
		return oc_error_format(OC_ERR_FORMAT, "capstone: %s", cs_strerror(e));
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs_malloc(h);
	if (!ci) {
		cs_close(&h);
		return &oc_enomem;
	}
	for (size_t n = 0; n < max && left; n++) {
		struct oc_insn in = { 0 };
		const cs_x86 *x;

		if (!cs_disasm_iter(h, &p, &left, &at, ci))
			break;
		in.addr = ci->address;
		in.len = (uint8_t)(ci->size < sizeof(in.bytes) ? ci->size : sizeof(in.bytes));
		memcpy(in.bytes, ci->bytes, in.len);
		snprintf(in.mnemonic, sizeof(in.mnemonic), "%s", ci->mnemonic);
		snprintf(in.operands, sizeof(in.operands), "%s", ci->op_str);
		in.call = cs_insn_group(h, ci, CS_GRP_CALL);
		x = &ci->detail->x86;
		/* a relative jump or call: its one operand is the target */
		if ((in.call || cs_insn_group(h, ci, CS_GRP_JUMP)) && x->op_count == 1 &&
		    x->operands[0].type == X86_OP_IMM) {
			in.has_target = true;
			in.target = (uint64_t)x->operands[0].imm;
		}
		if (!fn(arg, &in))
			break;
	}
	*stopped_at = at;
	cs_free(ci, 1);
	cs_close(&h);
	return NULL;
}
