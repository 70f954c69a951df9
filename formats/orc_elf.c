// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ORC sections of a vmlinux or .ko through libelf, for orc-dump
 * (objtool's orc_dump.c reads the same sections the same way).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orc_elf.h"

struct oc_orc_elf {
	char *path;
	int fd;
	Elf *elf;
	size_t shstrndx;
	size_t strtab_idx;
	Elf_Data *symtab;
	Elf_Data *rela;
	Elf_Data *modinfo;
	struct oc_orc_elf_info info;
	char release[128];
};

static struct oc_error *elf_err(const struct oc_orc_elf *e, const char *what)
{
	return oc_error_file(OC_ERR_FORMAT, e->path, "%s: %s", what,
			     elf_errmsg(-1));
}

/* A module's "vermagic=6.1.0-57-cloud-amd64 SMP ..." in .modinfo */
static void read_vermagic(struct oc_orc_elf *e)
{
	const char *p = e->modinfo->d_buf, *end;

	if (!p)		/* an empty or SHT_NOBITS .modinfo */
		return;
	end = p + e->modinfo->d_size;
	while (p < end) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);

		if (len > 9 && !memcmp(p, "vermagic=", 9)) {
			char buf[sizeof(e->release)];

			len -= 9;
			if (len >= sizeof(buf))
				len = sizeof(buf) - 1;
			memcpy(buf, p + 9, len);
			buf[len] = '\0';
			if (sscanf(buf, "%127s", e->release) != 1)
				e->release[0] = '\0';
			return;
		}
		p += len + 1;
	}
}

/* "Linux version 6.1.0-57-cloud-amd64 (...)" -> the release; a module's
 * vermagic when there is no linux_banner */
static void read_release(struct oc_orc_elf *e)
{
	size_t n;
	GElf_Shdr sh;

	if (e->modinfo) {
		read_vermagic(e);
		return;
	}
	if (!e->symtab || !e->strtab_idx)
		return;
	n = e->symtab->d_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		Elf_Scn *scn;
		Elf_Data *data;
		uint64_t off;
		char buf[sizeof(e->release) + 16];

		if (!gelf_getsym(e->symtab, (int)i, &sym))
			return;
		name = elf_strptr(e->elf, e->strtab_idx, sym.st_name);
		if (!name || strcmp(name, "linux_banner"))
			continue;
		scn = elf_getscn(e->elf, sym.st_shndx);
		if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			return;
		data = elf_getdata(scn, NULL);
		if (!data || sym.st_value < sh.sh_addr)
			return;
		off = sym.st_value - sh.sh_addr;
		if (off >= data->d_size)
			return;
		n = data->d_size - off;
		if (n > sizeof(buf) - 1)
			n = sizeof(buf) - 1;
		memcpy(buf, (const char *)data->d_buf + off, n);
		buf[n] = '\0';
		if (sscanf(buf, "Linux version %127s", e->release) != 1)
			e->release[0] = '\0';
		return;
	}
}

struct oc_error *oc_orc_elf_open(const char *path, struct oc_orc_elf **ret)
{
	struct oc_orc_elf *e;
	struct oc_error *err;
	Elf_Scn *scn = NULL;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return oc_error_format(OC_ERR_OTHER, "elf_version: %s",
				       elf_errmsg(-1));
	e = calloc(1, sizeof(*e));
	if (!e)
		return &oc_enomem;
	e->fd = -1;
	e->info.release = e->release;
	e->path = strdup(path);
	if (!e->path) {
		free(e);
		return &oc_enomem;
	}
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0) {
		err = oc_error_os(errno, path, "cannot open");
		goto fail;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf) {
		err = elf_err(e, "elf_begin");
		goto fail;
	}
	if (elf_kind(e->elf) != ELF_K_ELF ||
	    gelf_getclass(e->elf) != ELFCLASS64) {
		err = oc_error_file(OC_ERR_FORMAT, path, "not an ELF64 file");
		goto fail;
	}
	if (elf_getshdrstrndx(e->elf, &e->shstrndx)) {
		err = elf_err(e, "elf_getshdrstrndx");
		goto fail;
	}
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh)) {
			err = elf_err(e, "gelf_getshdr");
			goto fail;
		}
		name = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
		if (!name) {
			err = elf_err(e, "elf_strptr");
			goto fail;
		}
		if (strcmp(name, ".symtab") && strcmp(name, ".strtab") &&
		    strcmp(name, ".orc_unwind") &&
		    strcmp(name, ".orc_unwind_ip") &&
		    strcmp(name, ".rela.orc_unwind_ip") &&
		    strcmp(name, ".orc_header") && strcmp(name, ".modinfo"))
			continue;
		if (sh.sh_type == SHT_NOBITS)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data) {
			err = elf_err(e, "elf_getdata");
			goto fail;
		}
		if (!strcmp(name, ".symtab")) {
			e->symtab = data;
		} else if (!strcmp(name, ".strtab")) {
			e->strtab_idx = elf_ndxscn(scn);
		} else if (!strcmp(name, ".orc_unwind")) {
			e->info.orc_data = data->d_buf;
			e->info.orc_len = data->d_size;
		} else if (!strcmp(name, ".orc_unwind_ip")) {
			e->info.ip_data = data->d_buf;
			e->info.ip_len = data->d_size;
			e->info.ip_addr = sh.sh_addr;
		} else if (!strcmp(name, ".modinfo")) {
			e->modinfo = data;
		} else if (!strcmp(name, ".rela.orc_unwind_ip")) {
			e->rela = data;
			e->info.nr_rela = data->d_size / sizeof(Elf64_Rela);
		} else {
			e->info.header = data->d_buf;
			e->info.header_len = data->d_size;
		}
	}
	if (!e->info.orc_data || !e->info.ip_data) {
		err = oc_error_file(OC_ERR_LOOKUP, path,
				    "no .orc_unwind and .orc_unwind_ip sections");
		goto fail;
	}
	e->info.has_symtab = e->symtab && e->strtab_idx;
	read_release(e);
	*ret = e;
	return NULL;
fail:
	oc_orc_elf_close(e);
	return err;
}

void oc_orc_elf_close(struct oc_orc_elf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->path);
	free(e);
}

const struct oc_orc_elf_info *oc_orc_elf_info(const struct oc_orc_elf *e)
{
	return &e->info;
}

struct oc_error *oc_orc_elf_rela(struct oc_orc_elf *e, size_t i,
				 const char **name_ret, int64_t *addend_ret)
{
	GElf_Rela rela;
	GElf_Sym sym;
	const char *name;

	if (!e->rela || i >= e->info.nr_rela || !e->info.has_symtab)
		return oc_error_file(OC_ERR_LOOKUP, e->path,
				     "no relocation %zu for .orc_unwind_ip", i);
	if (!gelf_getrela(e->rela, (int)i, &rela))
		return elf_err(e, "gelf_getrela");
	if (!gelf_getsym(e->symtab, (int)GELF_R_SYM(rela.r_info), &sym))
		return elf_err(e, "gelf_getsym");
	if (GELF_ST_TYPE(sym.st_info) == STT_SECTION) {
		Elf_Scn *scn = elf_getscn(e->elf, sym.st_shndx);
		GElf_Shdr sh;

		if (!scn)
			return elf_err(e, "elf_getscn");
		if (!gelf_getshdr(scn, &sh))
			return elf_err(e, "gelf_getshdr");
		name = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
	} else {
		name = elf_strptr(e->elf, e->strtab_idx, sym.st_name);
	}
	if (!name)
		return elf_err(e, "elf_strptr");
	*name_ret = name;
	*addend_ret = rela.r_addend;
	return NULL;
}
