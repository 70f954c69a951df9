/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw ORC entries written by hand from objtool --dump=orc lines of
 * Debian's 6.1 and 6.12 vmlinux: test_orc decodes them, test_orcdump
 * prints them back, so both read the same bytes.
 */
#ifndef OC_TEST_ORC_ENTRIES_H
#define OC_TEST_ORC_ENTRIES_H

#include <stdint.h>

/* 6.12 "type:call sp:sp+8 bp:(und) signal:0": sp_offset 8, sp_reg 5
 * (SP), type 2 (CALL); before 6.4 the same bytes are
 * "sp:sp+8 bp:(und) type:regs (partial) end:0" */
static const uint8_t orc_call_612[6] = { 8, 0, 0, 0, 0x05, 0x02 };
/* 6.12 "type:regs (partial) sp:dx+8 bp:(und) signal:1" */
static const uint8_t orc_partial_612[6] = { 8, 0, 0, 0, 0x02, 0x0c };
/* 6.1 "sp:bp+16 bp:prevsp-16 type:call end:0" */
static const uint8_t orc_fp_61[6] = { 16, 0, 0xf0, 0xff, 0x14, 0x00 };
/* 6.1 "sp:(und) bp:(und) type:call end:1" */
static const uint8_t orc_end_61[6] = { 0, 0, 0, 0, 0x00, 0x04 };

#endif /* OC_TEST_ORC_ENTRIES_H */
