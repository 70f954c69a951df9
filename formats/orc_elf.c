// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ORC sections of a vmlinux or .ko, for orc-dump (objtool's
 * orc_dump.c reads the same sections the same way), through
 * formats/elffile.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elffile.h"
#include "orc_elf.h"

struct oc_orc_elf {
	struct oc_elf *elf;
	struct oc_elf_section rela;	/* .rela.orc_unwind_ip, if any */
	struct oc_orc_elf_info info;
	char release[128];
};

/* A module's "vermagic=6.1.0-57-cloud-amd64 SMP ..." in .modinfo */
static void read_vermagic(struct oc_orc_elf *e, const char *p, size_t size)
{
	const char *end = p + size;

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
	struct oc_elf_section modinfo;
	char buf[sizeof(e->release) + 16];
	uint64_t addr;

	if (oc_ok(oc_elf_section(e->elf, ".modinfo", &modinfo))) {
		/* an empty or SHT_NOBITS .modinfo has no data */
		if (modinfo.data)
			read_vermagic(e, modinfo.data, modinfo.size);
		return;
	}
	if (!oc_ok(oc_elf_symbol(e->elf, "linux_banner", &addr)) ||
	    !oc_ok(oc_elf_read_string(e->elf, addr, buf, sizeof(buf))))
		return;
	if (sscanf(buf, "Linux version %127s", e->release) != 1)
		e->release[0] = '\0';
}

/* Section @name, or all zero (no data) when the file has none. */
static struct oc_error *section(struct oc_orc_elf *e, const char *name,
				struct oc_elf_section *ret)
{
	struct oc_error *err = oc_elf_section(e->elf, name, ret);

	if (err && err->code == OC_ERR_LOOKUP) {
		oc_error_destroy(err);
		memset(ret, 0, sizeof(*ret));
		return NULL;
	}
	return err;
}

void oc_orc_elf_close(struct oc_orc_elf *e)
{
	if (!e)
		return;
	oc_elf_close(e->elf);
	free(e);
}

struct oc_error *oc_orc_elf_open(const char *path, struct oc_orc_elf **ret)
{
	struct oc_orc_elf *e;
	struct oc_elf_section ip, orc, hdr;
	struct oc_error *err;

	e = calloc(1, sizeof(*e));
	if (!e)
		return &oc_enomem;
	e->info.release = e->release;
	err = oc_elf_open(path, &e->elf);
	if (!err)
		err = section(e, ".orc_unwind", &orc);
	if (!err)
		err = section(e, ".orc_unwind_ip", &ip);
	if (!err)
		err = section(e, ".orc_header", &hdr);
	if (!err)
		err = section(e, ".rela.orc_unwind_ip", &e->rela);
	if (err)
		goto fail;
	if (!orc.data || !ip.data) {
		err = oc_error_file(OC_ERR_LOOKUP, path,
				    "no .orc_unwind and .orc_unwind_ip sections");
		goto fail;
	}
	e->info.orc_data = orc.data;
	e->info.orc_len = orc.size;
	e->info.ip_data = ip.data;
	e->info.ip_len = ip.size;
	e->info.ip_addr = ip.addr;
	e->info.header = hdr.data;
	e->info.header_len = hdr.data ? hdr.size : 0;
	if (e->rela.data)
		e->info.nr_rela = e->rela.size / 24;	/* sizeof(Elf64_Rela) */
	read_release(e);
	*ret = e;
	return NULL;
fail:
	oc_orc_elf_close(e);
	return err;
}

const struct oc_orc_elf_info *oc_orc_elf_info(const struct oc_orc_elf *e)
{
	return &e->info;
}

struct oc_error *oc_orc_elf_rela(struct oc_orc_elf *e, size_t i,
				 const char **name_ret, int64_t *addend_ret)
{
	if (i >= e->info.nr_rela)
		return oc_error_file(OC_ERR_LOOKUP, oc_elf_path(e->elf),
				     "no relocation %zu for .orc_unwind_ip", i);
	return oc_elf_rela(e->elf, &e->rela, i, name_ret, addend_ret);
}
