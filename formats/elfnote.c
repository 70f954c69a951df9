// SPDX-License-Identifier: GPL-2.0-or-later
/* ELF notes and NT_PRSTATUS (see elfnote.h). */
#include <link.h>
#include <string.h>

#include "elfnote.h"

enum { NHDR_SIZE = 12 };

_Static_assert(sizeof(struct oc_regs) == 21 * 8,
	       "struct oc_regs is pt_regs: 21 words");

static uint64_t pad4(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}

struct oc_error *oc_elfnote_next(struct oc_cursor *c, struct oc_elfnote *ret,
				 bool *more_ret)
{
	struct oc_cursor hdr = *c, body;
	const uint8_t *name;
	struct oc_error *err;

	*more_ret = false;
	if (oc_cursor_left(c) < NHDR_SIZE)
		return NULL;
	if ((err = oc_cursor_le32(&hdr, &ret->namesz)) ||
	    (err = oc_cursor_le32(&hdr, &ret->descsz)) ||
	    (err = oc_cursor_le32(&hdr, &ret->type)))
		return err;
	if (!ret->namesz && !ret->descsz && !ret->type)
		return NULL;	/* padding at the end of a kdump note area */
	body = hdr;
	if ((err = oc_cursor_bytes(&body, pad4(ret->namesz), &name)) ||
	    (err = oc_cursor_bytes(&body, pad4(ret->descsz), &ret->desc))) {
		oc_error_destroy(err);
		c->prev = c->pos;
		return oc_cursor_error(c, "ELF note (name %u, desc %u bytes) runs past the end",
				       ret->namesz, ret->descsz);
	}
	ret->name = (const char *)name;
	*c = body;
	*more_ret = true;
	return NULL;
}

bool oc_elfnote_named(const struct oc_elfnote *n, const char *name)
{
	size_t len = strlen(name) + 1;

	return n->namesz == len && !memcmp(n->name, name, len);
}

struct oc_error *oc_elfnote_prstatus(const struct oc_elfnote *n,
				     struct oc_prstatus *ret)
{
	struct oc_cursor c;
	uint64_t regs[OC_PRSTATUS_NREGS];
	struct oc_error *err;

	if (n->descsz < OC_PRSTATUS_MIN)
		return oc_error_format(OC_ERR_FORMAT,
				       "NT_PRSTATUS note of %u bytes (want %d)",
				       n->descsz, OC_PRSTATUS_MIN);
	oc_cursor_init(&c, n->desc, n->descsz, "NT_PRSTATUS");
	memset(ret, 0, sizeof(*ret));
	if ((err = oc_cursor_seek(&c, OC_PRSTATUS_PID)) ||
	    (err = oc_cursor_le32(&c, &ret->pid)) ||
	    (err = oc_cursor_seek(&c, OC_PRSTATUS_REG)))
		return err;
	for (size_t i = 0; i < OC_PRSTATUS_NREGS; i++)
		if ((err = oc_cursor_le64(&c, &regs[i])))
			return err;
	/* user_regs_struct starts with pt_regs' 21 fields in the same order */
	memcpy(&ret->regs, regs, sizeof(ret->regs));
	ret->fs_base = regs[21];
	ret->gs_base = regs[22];
	return NULL;
}

struct loaded_note {
	uintptr_t addr;
	uint8_t *id;
	uint32_t *len;
	bool found;
};

static int loaded_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded_note *w = arg;
	bool holds = false;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum && !holds; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		holds = ph->p_type == PT_LOAD &&
			w->addr - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz;
	}
	if (!holds)
		return 0;
	for (int i = 0; i < info->dlpi_phnum && !w->found; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		struct oc_cursor c;
		struct oc_elfnote n;
		bool more = true;

		if (ph->p_type != PT_NOTE)
			continue;
		oc_cursor_init(&c, (const void *)(info->dlpi_addr + ph->p_vaddr),
			       ph->p_memsz, "PT_NOTE");
		while (!w->found && oc_ok(oc_elfnote_next(&c, &n, &more)) && more) {
			if (n.type == OC_NT_GNU_BUILD_ID && oc_elfnote_named(&n, "GNU") &&
			    n.descsz && n.descsz <= 64) {
				memcpy(w->id, n.desc, n.descsz);
				*w->len = n.descsz;
				w->found = true;
			}
		}
	}
	return 1;	/* the object is found, with a build-id or without */
}

bool oc_elfnote_loaded_build_id(const void *addr, uint8_t id[64],
				uint32_t *len_ret)
{
	struct loaded_note w = { (uintptr_t)addr, id, len_ret, false };

	dl_iterate_phdr(loaded_object, &w);
	return w.found;
}
