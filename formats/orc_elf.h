/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `orc-dump` needs from a vmlinux or .ko, read through
 * formats/elffile.c: the raw ORC sections in file order, the
 * .rela.orc_unwind_ip names objtool prints when the relocations are
 * kept, and the kernel release from linux_banner or a module's vermagic
 * (to tell pre-6.4 formats apart).
 */
#ifndef OC_FORMATS_ORC_ELF_H
#define OC_FORMATS_ORC_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct oc_orc_elf;

struct oc_orc_elf_info {
	uint64_t ip_addr;		/* sh_addr of .orc_unwind_ip */
	const void *ip_data, *orc_data, *header;
	size_t ip_len, orc_len, header_len;	/* header: 0 if none */
	size_t nr_rela;			/* .rela.orc_unwind_ip entries */
	const char *release;		/* "" if unknown */
};

/* OC_ERR_LOOKUP if the file has no .orc_unwind/.orc_unwind_ip. */
struct oc_error *oc_orc_elf_open(const char *path, struct oc_orc_elf **ret);
void oc_orc_elf_close(struct oc_orc_elf *e);
const struct oc_orc_elf_info *oc_orc_elf_info(const struct oc_orc_elf *e);
/*
 * The symbol (or, for a section symbol, the section) name and addend of
 * relocation @i of .rela.orc_unwind_ip, as objtool's orc_dump() prints
 * them.
 */
struct oc_error *oc_orc_elf_rela(struct oc_orc_elf *e, size_t i,
				 const char **name_ret, int64_t *addend_ret);

#endif /* OC_FORMATS_ORC_ELF_H */
