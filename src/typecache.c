// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-build types memo of the vmlinux's BTF (see typecache.h). */
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "cachefile.h"
#include "strutil.h"
#include "typecache.h"

static const char magic[8] = "OCTYPES";
/* a few hundred answers; the commands add theirs */
static const off_t max_file = 4 << 20;

struct head {
	struct oc_cache_head vmlinux;
	uint32_t prog_id_len, pad;
	uint8_t prog_id[64];
	uint64_t btf_size;
};

/* ---- this program's own build-id ------------------------------------- */

struct find_self {
	uintptr_t addr;		/* an address of our own code */
	uint8_t *id;
	uint32_t *len;
};

/* The GNU build-id note of the loaded object that holds f->addr: the
 * program, or the crash extension's shared object. */
static int self_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find_self *f = arg;
	bool ours = false;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum && !ours; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		ours = ph->p_type == PT_LOAD &&
		       f->addr - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz;
	}
	if (!ours)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		size_t off = 0;

		if (ph->p_type != PT_NOTE)
			continue;
		/* the notes are our own, as the loader mapped them */
		while (off + sizeof(ElfW(Nhdr)) <= ph->p_memsz) {
			ElfW(Nhdr) n;
			size_t name, desc;

			memcpy(&n, p + off, sizeof(n));
			name = (n.n_namesz + 3) & ~(size_t)3;
			desc = (n.n_descsz + 3) & ~(size_t)3;
			if (name > ph->p_memsz || desc > ph->p_memsz ||
			    off + sizeof(n) + name + desc > ph->p_memsz)
				break;
			if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 &&
			    !memcmp(p + off + sizeof(n), "GNU", 4) &&
			    n.n_descsz && n.n_descsz <= 64) {
				memcpy(f->id, p + off + sizeof(n) + name, n.n_descsz);
				*f->len = n.n_descsz;
				return 1;
			}
			off += sizeof(n) + name + desc;
		}
	}
	return 1;	/* ours, without a build-id */
}

static bool make_head(struct oc_elf *elf, uint64_t btf_size, struct head *h,
		      char **path_ret)
{
	struct find_self f;
	char prog[2 * 8 + 1];

	memset(h, 0, sizeof(*h));
	f = (struct find_self){ (uintptr_t)&make_head, h->prog_id, &h->prog_id_len };
	dl_iterate_phdr(self_note, &f);
	if (!h->prog_id_len)
		return false;
	h->btf_size = btf_size;
	/* a file per orccrash build (the program and the crash extension
	 * are two), named by the first 8 bytes of its build-id */
	oc_hex_string(h->prog_id, h->prog_id_len < 8 ? h->prog_id_len : 8, prog,
		      sizeof(prog));
	return oc_cache_head_of(elf, "types", prog, magic, 0, &h->vmlinux, path_ret);
}

bool oc_typecache_load(struct oc_elf *elf, uint64_t btf_size,
		       oc_types_load_fn load, void *arg,
		       struct oc_types **ret)
{
	struct head want, got;
	char *path, *bytes = NULL;
	size_t len = 0;
	FILE *fp;
	bool ok = false;

	if (!make_head(elf, btf_size, &want, &path))
		return false;
	fp = oc_cache_open_read(path, max_file);
	free(path);
	if (!fp)
		return false;
	if (fread(&got, sizeof(got), 1, fp) == 1 && !memcmp(&got, &want, sizeof(got))) {
		long at = ftell(fp);

		if (at >= 0 && !fseek(fp, 0, SEEK_END)) {
			long end = ftell(fp);

			len = end > at ? (size_t)(end - at) : 0;
			bytes = len ? malloc(len) : NULL;
			ok = bytes && !fseek(fp, at, SEEK_SET) &&
			     fread(bytes, 1, len, fp) == len &&
			     oc_ok(oc_types_memo_create(NULL, load, arg, bytes, len, ret));
		}
	}
	fclose(fp);
	free(bytes);
	return ok;
}

struct save {
	const struct head *h;
	const struct oc_types *types;
};

static bool write_memo(FILE *fp, void *arg)
{
	const struct save *s = arg;

	return fwrite(s->h, sizeof(*s->h), 1, fp) == 1 &&
	       oc_ok(oc_types_memo_write(s->types, fp));
}

void oc_typecache_save(struct oc_elf *elf, uint64_t btf_size,
		       const struct oc_types *types)
{
	struct head h;
	struct save s = { .h = &h, .types = types };
	char *path;

	if (!oc_types_memo_changed(types) || !make_head(elf, btf_size, &h, &path))
		return;
	oc_cache_write(path, write_memo, &s);
	free(path);
}
