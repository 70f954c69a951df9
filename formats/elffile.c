// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmlinux and .ko files through libelf.  The file is mapped, not read:
 * a Debian -dbg vmlinux is ~600 MB, of which we touch the symbol table,
 * .orc_*, .BTF and a few notes.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elffile.h"
#include "fileopen.h"

struct oc_elf {
	char *path;
	int fd;
	Elf *elf;
	size_t shstrndx;
	uint8_t *build_id;
	size_t build_id_len;
	bool build_id_done;
	/* section index of .data..percpu, 0 if none, and where it lies */
	size_t percpu_shndx;
	uint64_t percpu_addr, percpu_size;
	unsigned int keep;	/* OC_ELF_KEEP_*: oc_elf_kallsyms_keep() */
};

static struct oc_error *elf_err(const struct oc_elf *e, const char *what)
{
	return oc_error_file(OC_ERR_FORMAT, e->path, "%s: %s", what,
			     elf_errmsg(-1));
}

void oc_elf_close(struct oc_elf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->build_id);
	free(e->path);
	free(e);
}

struct oc_error *oc_elf_open(const char *path, struct oc_elf **ret)
{
	struct oc_elf *e;
	struct oc_error *err;
	GElf_Ehdr ehdr;
	Elf_Scn *scn = NULL;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return oc_error_format(OC_ERR_OTHER, "elf_version: %s",
				       elf_errmsg(-1));
	e = calloc(1, sizeof(*e));
	if (!e)
		return &oc_enomem;
	e->fd = -1;
	e->path = strdup(path);
	if (!e->path) {
		free(e);
		return &oc_enomem;
	}
	err = oc_file_open(path, false, &e->fd, NULL);
	if (err)
		goto fail;
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf) {
		err = elf_err(e, "elf_begin");
		goto fail;
	}
	if (elf_kind(e->elf) != ELF_K_ELF) {
		err = oc_error_file(OC_ERR_FORMAT, path, "not an ELF file");
		goto fail;
	}
	if (!gelf_getehdr(e->elf, &ehdr)) {
		err = elf_err(e, "gelf_getehdr");
		goto fail;
	}
	if (ehdr.e_ident[EI_CLASS] != ELFCLASS64 || ehdr.e_machine != EM_X86_64) {
		err = oc_error_file(OC_ERR_UNSUPPORTED, path,
				    "not an x86-64 ELF64 file");
		goto fail;
	}
	{
		/* libelf quietly yields no sections when the section
		 * headers are past the end: say "truncated", not "stripped" */
		struct stat st;
		uint64_t end = ehdr.e_shoff +
			       (uint64_t)ehdr.e_shnum * ehdr.e_shentsize;

		if (fstat(e->fd, &st) < 0) {
			err = oc_error_os(errno, path, "fstat");
			goto fail;
		}
		if (ehdr.e_shoff && (end < ehdr.e_shoff ||
				     end > (uint64_t)st.st_size)) {
			err = oc_error_file(OC_ERR_FORMAT, path,
					    "truncated: section headers end at %llu, the file has %llu bytes",
					    (unsigned long long)end,
					    (unsigned long long)st.st_size);
			goto fail;
		}
	}
	if (elf_getshdrstrndx(e->elf, &e->shstrndx)) {
		err = elf_err(e, "elf_getshdrstrndx");
		goto fail;
	}
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".data..percpu")) {
			e->percpu_shndx = elf_ndxscn(scn);
			e->percpu_addr = sh.sh_addr;
			e->percpu_size = sh.sh_size;
		}
	}
	*ret = e;
	return NULL;
fail:
	oc_elf_close(e);
	return err;
}

const char *oc_elf_path(const struct oc_elf *e)
{
	return e->path;
}

static Elf_Scn *find_scn(struct oc_elf *e, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(e->elf, e->shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

struct oc_error *oc_elf_section(struct oc_elf *e, const char *name,
				struct oc_elf_section *ret)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_scn(e, name, &sh);
	Elf_Data *data;

	if (!scn)
		return oc_error_file(OC_ERR_LOOKUP, e->path, "no section %s",
				     name);
	ret->name = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
	ret->addr = sh.sh_addr;
	ret->size = sh.sh_size;
	ret->data = NULL;
	ret->index = elf_ndxscn(scn);
	if (sh.sh_type == SHT_NOBITS)
		return NULL;
	data = elf_rawdata(scn, NULL);
	if (!data)
		return oc_error_file(OC_ERR_FORMAT, e->path,
				     "elf_rawdata(%s): %s", name,
				     elf_errmsg(-1));
	if (data->d_size < sh.sh_size)
		return oc_error_file(OC_ERR_FORMAT, e->path,
				     "section %s is truncated (%zu of %llu bytes)",
				     name, data->d_size,
				     (unsigned long long)sh.sh_size);
	ret->data = data->d_buf;
	return NULL;
}

/* The allocated PROGBITS section holding @addr, its data and header. */
static Elf_Data *section_at(struct oc_elf *e, uint64_t addr, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, sh) || !(sh->sh_flags & SHF_ALLOC) ||
		    sh->sh_type != SHT_PROGBITS ||
		    addr < sh->sh_addr || addr - sh->sh_addr >= sh->sh_size)
			continue;
		data = elf_rawdata(scn, NULL);
		return data && data->d_size >= sh->sh_size ? data : NULL;
	}
	return NULL;
}

struct oc_error *oc_elf_read(struct oc_elf *e, uint64_t addr, void *buf,
			     size_t len)
{
	GElf_Shdr sh;
	Elf_Data *data = section_at(e, addr, &sh);

	if (!data || len > sh.sh_size - (addr - sh.sh_addr))
		return oc_error_file(OC_ERR_FAULT, e->path,
				     "no section data at 0x%llx",
				     (unsigned long long)addr);
	memcpy(buf, (const char *)data->d_buf + (addr - sh.sh_addr), len);
	return NULL;
}

struct oc_error *oc_elf_read_string(struct oc_elf *e, uint64_t addr,
				    char *buf, size_t size)
{
	GElf_Shdr sh;
	Elf_Data *data = size ? section_at(e, addr, &sh) : NULL;
	size_t n;

	if (!data)
		return oc_error_file(OC_ERR_FAULT, e->path,
				     "no section data at 0x%llx",
				     (unsigned long long)addr);
	n = sh.sh_size - (addr - sh.sh_addr);
	if (n > size - 1)
		n = size - 1;
	memcpy(buf, (const char *)data->d_buf + (addr - sh.sh_addr), n);
	buf[n] = '\0';
	return NULL;
}

/* The symbol table and its string table's index (.symtab). */
static Elf_Data *symtab_data(struct oc_elf *e, size_t index, size_t *strtab_ret)
{
	Elf_Scn *scn = index ? elf_getscn(e->elf, index) : NULL;
	GElf_Shdr sh;

	if (!index) {
		while ((scn = elf_nextscn(e->elf, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
				break;
	}
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
	    !sh.sh_entsize)
		return NULL;
	*strtab_ret = sh.sh_link;
	return elf_getdata(scn, NULL);
}

struct oc_error *oc_elf_symbol(struct oc_elf *e, const char *name,
			       uint64_t *addr_ret)
{
	size_t strtab = 0;
	Elf_Data *data = symtab_data(e, 0, &strtab);
	GElf_Sym sym;

	for (int i = 1; data && gelf_getsym(data, i, &sym); i++) {
		const char *s = elf_strptr(e->elf, strtab, sym.st_name);

		if (s && !strcmp(s, name)) {
			*addr_ret = sym.st_value;
			return NULL;
		}
	}
	return oc_error_file(OC_ERR_LOOKUP, e->path, "no symbol %s", name);
}

struct oc_error *oc_elf_rela(struct oc_elf *e,
			     const struct oc_elf_section *rela, size_t i,
			     const char **name_ret, int64_t *addend_ret)
{
	Elf_Scn *scn = elf_getscn(e->elf, rela->index);
	GElf_Shdr sh;
	GElf_Rela r;
	GElf_Sym sym;
	Elf_Data *data, *syms;
	size_t strtab = 0;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA)
		return oc_error_file(OC_ERR_FORMAT, e->path,
				     "section %s is not SHT_RELA", rela->name);
	data = elf_getdata(scn, NULL);
	if (!data || !gelf_getrela(data, (int)i, &r))
		return elf_err(e, "gelf_getrela");
	syms = symtab_data(e, sh.sh_link, &strtab);
	if (!syms || !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
		return elf_err(e, "gelf_getsym");
	if (GELF_ST_TYPE(sym.st_info) == STT_SECTION) {
		Elf_Scn *target = elf_getscn(e->elf, sym.st_shndx);
		GElf_Shdr tsh;

		if (!target || !gelf_getshdr(target, &tsh))
			return elf_err(e, "elf_getscn");
		name = elf_strptr(e->elf, e->shstrndx, tsh.sh_name);
	} else {
		name = elf_strptr(e->elf, strtab, sym.st_name);
	}
	if (!name)
		return elf_err(e, "elf_strptr");
	*name_ret = name;
	*addend_ret = r.r_addend;
	return NULL;
}

/* nm's type letter for a symbol, enough for kallsyms' purposes. */
static char sym_type(const GElf_Sym *sym, const GElf_Shdr *sh)
{
	char c;

	if (sh->sh_type == SHT_NOBITS)
		c = 'b';
	else if (sh->sh_flags & SHF_EXECINSTR)
		c = 't';
	else if (sh->sh_flags & SHF_WRITE)
		c = 'd';
	else
		c = 'r';
	if (GELF_ST_BIND(sym->st_info) == STB_WEAK)
		return 'W';
	if (GELF_ST_BIND(sym->st_info) != STB_LOCAL)
		c = (char)(c - 'a' + 'A');
	return c;
}

/*
 * The symbols scripts/kallsyms.c would keep: nm's view of the symbol
 * table (no section or file symbols, nothing undefined or absolute), less
 * the names kallsyms ignores ($-prefixed mapping symbols, .L locals,
 * __crc_, __kstrtab_ and friends), as of 6.1.  Older kernels kept more
 * (OC_ELF_KEEP_*, formats/elffile.h).
 */
static bool kallsyms_ignored(const struct oc_elf *e, const char *name)
{
	static const char *const prefixes[] = {
		"$", ".L", "__crc_", "__kstrtab_", "__kstrtabns_",
		"__efistub_", "__kvm_nvhe_",
	};
	/* kallsyms' own tables (kernel/kallsyms_internal.h), added after its
	 * first pass: 6.1's ignored_symbols[] (OC_ELF_KEEP_KALLSYMS_TABLES) */
	static const char *const tables[] = {
		"kallsyms_addresses", "kallsyms_offsets", "kallsyms_relative_base",
		"kallsyms_num_syms", "kallsyms_names", "kallsyms_markers",
		"kallsyms_token_table", "kallsyms_token_index", "kallsyms_seqs_of_names",
	};

	if (name[0] == 'k' && !(e->keep & OC_ELF_KEEP_KALLSYMS_TABLES) &&
	    !strncmp(name, "kallsyms_", 9)) {
		for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
			if (!strcmp(name, tables[i]))
				return true;
		return false;
	}

	/* a quick no for most names, 6.12's __pfx_ ones among them: every
	 * prefix starts with '$', '.' or "__" and one of c, e, k */
	if (name[0] != '$' && name[0] != '.' && name[0] != '_')
		return !name[0];
	if ((e->keep & OC_ELF_KEEP_LOCAL_LABELS) && !strncmp(name, ".L", 2))
		return !strncmp(name, ".LASANPC", 8);
	if ((e->keep & OC_ELF_KEEP_KSTRTAB) && !strncmp(name, "__kstrtab", 9))
		return false;
	if (name[0] == '_' && (name[1] != '_' || !name[2] || !strchr("cek", name[2])))
		return false;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* What read_symtabs() needs of one section, looked up once per section. */
struct sec_info {
	bool known, ok;		/* looked up; it exists and is allocated */
	GElf_Shdr sh;
};

/*
 * One pass over .symtab filling @tab (ordinary symbols) and @percpu (the
 * per-CPU ones), either may be NULL.  Each section's header is looked up
 * once, not once per symbol, and the tables are sized up front from the
 * symbol count and .strtab's size.
 */
static struct oc_error *read_symtabs(struct oc_elf *e, struct oc_symtab *tab,
				     struct oc_symtab *percpu)
{
	GElf_Shdr symsh, strsh;
	Elf_Scn *scn = NULL, *strscn;
	Elf_Data *data, *strdata = NULL;
	const Elf64_Sym *raw = NULL;
	const char *strs = NULL;
	struct sec_info *secs;
	size_t n, nsecs = 0;
	struct oc_error *err = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		if (gelf_getshdr(scn, &symsh) && symsh.sh_type == SHT_SYMTAB)
			break;
	}
	if (!scn)
		return oc_error_file(OC_ERR_LOOKUP, e->path,
				     "no symbol table (stripped?)");
	data = elf_getdata(scn, NULL);
	if (!data || !symsh.sh_entsize)
		return elf_err(e, "elf_getdata(.symtab)");
	n = data->d_size / symsh.sh_entsize;
	/* the memory form of an ELF64 symbol is GElf_Sym itself */
	if (data->d_type == ELF_T_SYM && symsh.sh_entsize == sizeof(Elf64_Sym) &&
	    data->d_buf && !((uintptr_t)data->d_buf % _Alignof(Elf64_Sym)))
		raw = data->d_buf;
	/* names straight from .strtab when it ends in a NUL (every offset
	 * inside it is then a terminated string), else elf_strptr() */
	strscn = elf_getscn(e->elf, symsh.sh_link);
	if (strscn && gelf_getshdr(strscn, &strsh) && strsh.sh_type == SHT_STRTAB)
		strdata = elf_getdata(strscn, NULL);
	if (strdata && strdata->d_buf && strdata->d_size &&
	    !((const char *)strdata->d_buf)[strdata->d_size - 1])
		strs = strdata->d_buf;
	if (elf_getshdrnum(e->elf, &nsecs))
		return elf_err(e, "elf_getshdrnum");
	secs = calloc(nsecs ? nsecs : 1, sizeof(*secs));
	if (!secs)
		return &oc_enomem;
	if (tab)
		err = oc_symtab_reserve(tab, n, strdata ? strdata->d_size : 0);
	for (size_t i = 1; !err && i < n; i++) {
		GElf_Sym sym;
		struct sec_info *si;
		struct oc_symtab *to;
		const char *name;
		int st = 0;
		bool in_percpu;

		if (raw)
			sym = raw[i];
		else if (!gelf_getsym(data, (int)i, &sym))
			continue;
		st = GELF_ST_TYPE(sym.st_info);
		if (st == STT_SECTION || st == STT_FILE)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
		    sym.st_shndx >= SHN_LORESERVE || sym.st_shndx >= nsecs)
			continue;
		/* a per-CPU variable lies inside .data..percpu, both ends
		 * included as scripts/kallsyms.c's symbol_in_range() takes
		 * __per_cpu_start..__per_cpu_end (so __per_cpu_end, a small
		 * offset, never names a user address); a symbol the linker
		 * script puts at its load address (__init_begin,
		 * __per_cpu_load) is an ordinary kernel address.  Linked in
		 * place (6.15+, x86-64 no longer zero-based; see read_vmlinux()
		 * in src/kernel.c) the range is [__per_cpu_start,
		 * __per_cpu_end), as the dump's own kallsyms has it:
		 * __per_cpu_end is then an ordinary address (7.2.13+deb14) */
		in_percpu = e->percpu_shndx && sym.st_shndx == e->percpu_shndx &&
			    sym.st_value >= e->percpu_addr &&
			    (sym.st_value - e->percpu_addr < e->percpu_size ||
			     (!e->percpu_addr &&
			      sym.st_value - e->percpu_addr == e->percpu_size));
		to = in_percpu ? percpu : tab;
		if (!to)
			continue;
		if (strs)
			name = sym.st_name < strdata->d_size ? strs + sym.st_name : NULL;
		else
			name = elf_strptr(e->elf, symsh.sh_link, sym.st_name);
		if (!name || kallsyms_ignored(e, name))
			continue;
		si = &secs[sym.st_shndx];
		if (!si->known) {
			Elf_Scn *sec = elf_getscn(e->elf, sym.st_shndx);

			si->known = true;
			si->ok = sec && gelf_getshdr(sec, &si->sh) &&
				 (si->sh.sh_flags & SHF_ALLOC);
		}
		if (!si->ok)
			continue;
		err = oc_symtab_add(to, name, sym.st_value, sym_type(&sym, &si->sh));
	}
	free(secs);
	return err;
}

struct oc_error *oc_elf_symtabs(struct oc_elf *e, struct oc_symtab *tab,
				struct oc_symtab *percpu)
{
	return read_symtabs(e, tab, percpu);
}

void oc_elf_kallsyms_keep(struct oc_elf *e, unsigned int keep)
{
	e->keep = keep;
}

struct oc_error *oc_elf_symtab(struct oc_elf *e, struct oc_symtab *tab)
{
	return read_symtabs(e, tab, NULL);
}

struct oc_error *oc_elf_percpu_symtab(struct oc_elf *e,
				      struct oc_symtab *tab)
{
	if (!e->percpu_shndx)
		return NULL;
	return read_symtabs(e, NULL, tab);
}

static void find_build_id(struct oc_elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &name_off,
					   &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + name_off, "GNU", 4) &&
			    nh.n_descsz > 0 && nh.n_descsz <= 64) {
				e->build_id = malloc(nh.n_descsz);
				if (!e->build_id)
					return;
				memcpy(e->build_id,
				       (char *)data->d_buf + desc_off,
				       nh.n_descsz);
				e->build_id_len = nh.n_descsz;
				return;
			}
		}
	}
}

const uint8_t *oc_elf_build_id(struct oc_elf *e, size_t *len_ret)
{
	if (!e->build_id_done) {
		find_build_id(e);
		e->build_id_done = true;
	}
	*len_ret = e->build_id_len;
	return e->build_id;
}
