/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ELF notes, wherever they are: a dump's PT_NOTE segments and kdump note
 * area, a CPU's crash_notes buffer in dump memory, a module's
 * notes_attrs.  One reader over formats/cursor.h, and the decoder of the
 * one note whose body we read, NT_PRSTATUS.
 *
 * A note is Elf64_Nhdr (namesz, descsz, type: 32-bit words), then the
 * name and the desc, each padded to 4 bytes (<elf.h>; the kernel writes
 * them with append_elf_note(), kernel/crash_core.c).
 */
#ifndef OC_FORMATS_ELFNOTE_H
#define OC_FORMATS_ELFNOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "error.h"
#include "regs.h"

/* Note types we look for (include/uapi/linux/elf.h, <elf.h>). */
enum {
	OC_NT_PRSTATUS = 1,		/* "CORE" */
	OC_NT_GNU_BUILD_ID = 3,		/* "GNU" */
};

struct oc_elfnote {
	const char *name;	/* namesz bytes, in the buffer */
	uint32_t namesz;
	uint32_t type;
	const uint8_t *desc;	/* descsz bytes, in the buffer */
	uint32_t descsz;
};

/*
 * The next note of @c into *ret.  False, with no error, at the end: fewer
 * bytes left than a note header, or an all-zero header (the padding
 * that ends a kdump note area).  A note that runs past the buffer is an
 * OC_ERR_FORMAT error naming its offset.
 */
struct oc_error *oc_elfnote_next(struct oc_cursor *c, struct oc_elfnote *ret,
				 bool *more_ret);

/* Is the note's name @name ("CORE", "GNU", "VMCOREINFO"), NUL included? */
bool oc_elfnote_named(const struct oc_elfnote *n, const char *name);

/*
 * NT_PRSTATUS: struct elf_prstatus of include/uapi/linux/elfcore.h on
 * x86-64, pr_pid at 32 and pr_reg at 112.  pr_reg is struct
 * user_regs_struct (arch/x86/include/asm/user_64.h), whose first 21
 * words are struct pt_regs in order, then fs_base and gs_base.
 */
struct oc_prstatus {
	uint32_t pid;		/* pr_pid: a task pid (kdump) or CPU + 1 (QEMU) */
	struct oc_regs regs;
	/* as saved: QEMU stores the live MSRs (in kernel mode gs_base is
	 * the CPU's per-CPU base); kdump what elf_core_copy_regs() gives,
	 * often 0 */
	uint64_t fs_base, gs_base;
};

enum {
	OC_PRSTATUS_PID = 32,
	OC_PRSTATUS_REG = 112,
	OC_PRSTATUS_NREGS = 27,		/* struct user_regs_struct */
	/* bytes we read: up to the end of pr_reg */
	OC_PRSTATUS_MIN = OC_PRSTATUS_REG + OC_PRSTATUS_NREGS * 8,
};

/*
 * The GNU build-id of the loaded object (the program, a shared library)
 * whose mapped segments hold @addr, read from its PT_NOTE segments as the
 * loader mapped them (dl_iterate_phdr(3)): at most 64 bytes into @id;
 * false when no object holds @addr or it has no build-id.
 */
bool oc_elfnote_loaded_build_id(const void *addr, uint8_t id[64],
				uint32_t *len_ret);

/* OC_ERR_FORMAT if the note is too short for pr_reg. */
struct oc_error *oc_elfnote_prstatus(const struct oc_elfnote *n,
				     struct oc_prstatus *ret);

#endif /* OC_FORMATS_ELFNOTE_H */
