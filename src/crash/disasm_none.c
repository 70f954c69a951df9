// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/disasm.h in the crash extension: no decoder.  crash exports
 * gdb's own bfd and opcodes under the names libopcodes has (crash 8.0.2:
 * gdb 10.2's disassembler(), init_disassemble_info(), ...; an
 * extension's undefined symbols bind to the executable's first), whose
 * struct disassemble_info is another layout than binutils 2.40's, so the
 * extension must not call libopcodes.  Linked ahead of liborccrash.a, so
 * formats/disasm.o (and libopcodes) stay out; in crash, crash's dis
 * disassembles.
 */
#include "disasm.h"

struct oc_error *oc_disasm(const uint8_t *code, size_t len, uint64_t addr,
			   size_t max,
			   bool (*fn)(void *arg, const struct oc_insn *insn),
			   void *arg, uint64_t *stopped_at)
{
	*stopped_at = addr;
	return oc_error_format(OC_ERR_UNSUPPORTED,
			       "no disassembler in the crash extension: crash's own dis does it");
}
