// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/disasm.h over binutils' libopcodes (Debian's binutils-dev): the
 * decoder objdump, gdb and so crash use.  Intel syntax, as objdump -M
 * intel prints it.  Capstone 4.0.2, Debian 12's, was the decoder before:
 * it reads UD1 (0F B9 /r, the SDM's since 2017; 7.x's WARN and UBSAN
 * traps) without its ModRM and so loses step, and does not know RDPKRU
 * (0F 01 EE, 6.1's internal_get_user_pages_fast()): a function's
 * disassembly stopped there.
 *
 * libopcodes prints an instruction through a styled printf: the
 * mnemonic's pieces (prefixes included: "rep stos", "data16 cs nop")
 * come in dis_style_mnemonic, a direct branch's target and a
 * RIP-relative operand's address through print_address_func (the latter
 * after a dis_style_comment_start "#"), which tells them apart.
 */
#include <dis-asm.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "disasm.h"
#include "dl.h"

/*
 * libopcodes is opened on the first disassembly, not linked: with
 * libbfd (and libsframe, libstdc++ behind it) it was a third of the
 * shared libraries every run mapped and relocated at startup, ~2-3 ms
 * of a sample's 40 ms `--all-tasks` that never disassembles
 * (docs/benchmarks.md).  OC_OPCODES_SONAME, from the Makefile, is the
 * SONAME of the libopcodes it was built against (binutils' SONAMEs carry
 * their version: libopcodes-2.40-system.so); debian/control depends on
 * its package as dpkg-shlibdeps would have.
 */
#define OPCODES_FNS(X)							\
	X(disassembler) X(init_disassemble_info)			\
	X(disassemble_init_for_target) X(disassemble_free_target)	\
	X(buffer_read_memory)
OC_DL_DEFINE(op, OC_OPCODES_SONAME, OPCODES_FNS);

struct dis_buf {
	struct oc_insn *in;
	size_t mlen, olen;
	bool operands;		/* past the mnemonic */
	bool comment;		/* past "#": an address is a reference */
	bool has_addr;
	uint64_t addr;		/* print_address_func's, outside a comment */
};

static void put(char *dst, size_t size, size_t *len, const char *s)
{
	int n = snprintf(dst + *len, size - *len, "%s", s);

	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

static int ATTRIBUTE_FPTR_PRINTF_3 styled(void *arg, enum disassembler_style style,
					  const char *fmt, ...)
{
	struct dis_buf *b = arg;
	char s[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	if (style == dis_style_comment_start)
		b->comment = true;
	if (b->comment)
		return n;
	if (style == dis_style_mnemonic || style == dis_style_sub_mnemonic) {
		if (!b->operands) {
			put(b->in->mnemonic, sizeof(b->in->mnemonic), &b->mlen, s);
			return n;
		}
	} else if (strspn(s, " \t") < strlen(s)) {
		b->operands = true;
	}
	if (b->operands)
		put(b->in->operands, sizeof(b->in->operands), &b->olen, s);
	return n;
}

static int ATTRIBUTE_PRINTF_2 plain(void *arg, const char *fmt, ...)
{
	char s[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	return styled(arg, dis_style_text, "%s", s);
}

static void print_address(bfd_vma addr, struct disassemble_info *info)
{
	struct dis_buf *b = info->stream;
	char s[24];

	if (b->comment) {
		b->in->has_ref = true;
		b->in->ref = addr;
		return;
	}
	b->has_addr = true;
	b->addr = addr;
	snprintf(s, sizeof(s), "0x%" PRIx64, (uint64_t)addr);
	b->operands = true;
	put(b->in->operands, sizeof(b->in->operands), &b->olen, s);
}

/* trailing blanks (the mnemonic's padding) */
static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

struct oc_error *oc_disasm(const uint8_t *code, size_t len, uint64_t addr,
			   size_t max,
			   bool (*fn)(void *arg, const struct oc_insn *insn),
			   void *arg, uint64_t *stopped_at)
{
	struct disassemble_info info;
	disassembler_ftype dis;
	uint64_t at = addr;
	struct dis_buf b;

	const char *why = oc_dl_load(&op_dl);

	if (why)
		return oc_error_format(OC_ERR_UNSUPPORTED, "no disassembler: %s",
				       why);
	dis = op.disassembler(bfd_arch_i386, false, bfd_mach_x86_64, NULL);
	if (!dis)
		return oc_error_format(OC_ERR_FORMAT, "libopcodes: no x86-64 disassembler");
	op.init_disassemble_info(&info, &b, plain, styled);
	info.arch = bfd_arch_i386;
	info.mach = bfd_mach_x86_64;
	info.disassembler_options = "intel";
	info.buffer = (bfd_byte *)code;
	info.buffer_length = len;
	info.buffer_vma = addr;
	info.read_memory_func = op.buffer_read_memory;
	info.print_address_func = print_address;
	op.disassemble_init_for_target(&info);
	for (size_t n = 0; n < max && at < addr + len; n++) {
		struct oc_insn in = { .addr = at };
		int size;

		b = (struct dis_buf){ .in = &in };
		info.insn_info_valid = 0;
		info.insn_type = dis_noninsn;
		info.target = 0;
		size = dis(at, &info);
		/* "(bad)": bytes that are no instruction; one cut off at the
		 * end of what was read is ".byte 0xNN", no mnemonic */
		if (size <= 0 || at + (uint64_t)size > addr + len || !in.mnemonic[0] ||
		    !strcmp(in.mnemonic, "(bad)"))
			break;
		in.len = (uint8_t)(size < (int)sizeof(in.bytes) ? size : (int)sizeof(in.bytes));
		memcpy(in.bytes, code + (at - addr), in.len);
		trim(in.mnemonic);
		trim(in.operands);
		in.ref_percpu = in.has_ref && strstr(in.operands, "gs:");
		in.call = info.insn_type == dis_jsr || info.insn_type == dis_condjsr;
		/* a direct jump or call: libopcodes says so (insn_info_valid)
		 * and prints its target as the operand */
		if (info.insn_info_valid && b.has_addr &&
		    (info.insn_type == dis_branch || info.insn_type == dis_condbranch || in.call)) {
			in.has_target = true;
			in.target = b.addr;
		}
		at += (uint64_t)size;
		if (!fn(arg, &in))
			break;
	}
	op.disassemble_free_target(&info);
	*stopped_at = at;
	return NULL;
}
