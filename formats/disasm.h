/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86-64 instructions decoded by binutils' libopcodes (Debian's
 * binutils-dev), objdump's decoder: formats/disasm.c is the only file that
 * includes it.  No decoder of our own.
 */
#ifndef OC_FORMATS_DISASM_H
#define OC_FORMATS_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct oc_insn {
	uint64_t addr;
	uint8_t bytes[16];
	uint8_t len;
	char mnemonic[32];	/* Intel syntax, as objdump -M intel */
	char operands[160];
	/* a direct jump or call: its target */
	bool has_target;
	bool call;
	uint64_t target;
	/* a RIP-relative memory operand: the address it reads (objdump's
	 * "# ADDR"); in the gs segment, a per-CPU variable's offset */
	bool has_ref;
	bool ref_percpu;
	uint64_t ref;
};

/*
 * Decodes @code (@len bytes, at @addr) instruction by instruction, at
 * most @max, calling @fn for each until it returns false.  Bytes that
 * do not decode end it: *@stopped_at is then the address of the first
 * (else the end reached).  Errors: libopcodes has no x86-64 decoder.
 */
struct oc_error *oc_disasm(const uint8_t *code, size_t len, uint64_t addr,
			   size_t max,
			   bool (*fn)(void *arg, const struct oc_insn *insn),
			   void *arg, uint64_t *stopped_at);

#endif /* OC_FORMATS_DISASM_H */
