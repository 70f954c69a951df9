// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Line tables and inlined chains through libdwarf (see dwarflines.h for
 * why the file is mapped and given to libdwarf by hand).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "array.h"
#include "cursor.h"
#include "dwarflines.h"
#include "fileopen.h"
#include "dwarfpriv.h"
#include "lineprog.h"

/* --- the object-access interface over the mapping ------------------- */

static const char *sec_name(const struct oc_dwarf *d, const Elf64_Shdr *sh)
{
	if (sh->sh_name >= d->shstr_size)
		return "";
	/* shstr is NUL-terminated at its end: checked at open */
	return d->shstr + sh->sh_name;
}

static int obj_section_info(void *obj, Dwarf_Half index,
			    Dwarf_Obj_Access_Section *ret, int *error)
{
	const struct oc_dwarf *d = obj;
	const Elf64_Shdr *sh;

	if (index >= d->shnum)
		return DW_DLV_NO_ENTRY;
	sh = &d->shdrs[index];
	memset(ret, 0, sizeof(*ret));
	ret->addr = d->secaddr[index];
	ret->type = sh->sh_type;
	ret->size = sh->sh_size;
	ret->link = sh->sh_link;
	ret->info = sh->sh_info;
	ret->entrysize = sh->sh_entsize;
	/* Hide the relocations: a linked vmlinux has them applied already
	 * (they are there because of --emit-relocs), and applying them again
	 * is what costs libdwarf seconds and hundreds of MB.  Hide the
	 * location and DWARF 5 range lists too: we read them ourselves
	 * (oc_dwarf_loclist_find(), oc_dwarf_rnglist_each()), and libdwarf
	 * reads the header of every CU's list when it first loads
	 * .debug_info (20210528: _dwarf_load_debug_info() ->
	 * dwarf_load_loclists(), dwarf_load_rnglists()), a third of a
	 * blocked task's wait (6.1 vmlinux, 3,000 headers). */
	if (sh->sh_type == SHT_RELA || sh->sh_type == SHT_REL ||
	    !strcmp(sec_name(d, sh), ".debug_loclists") ||
	    !strcmp(sec_name(d, sh), ".debug_loc") ||
	    !strcmp(sec_name(d, sh), ".debug_rnglists"))
		ret->name = ".orccrash.hidden";
	else
		ret->name = sec_name(d, sh);
	return DW_DLV_OK;
}

static Dwarf_Endianness obj_byte_order(void *obj)
{
	return DW_OBJECT_LSB;
}

static Dwarf_Small obj_length_size(void *obj)
{
	return 4;
}

static Dwarf_Small obj_pointer_size(void *obj)
{
	return 8;
}

static Dwarf_Unsigned obj_section_count(void *obj)
{
	const struct oc_dwarf *d = obj;

	return d->shnum;
}

static int obj_load_section(void *obj, Dwarf_Half index, Dwarf_Small **ret,
			    int *error)
{
	const struct oc_dwarf *d = obj;
	const Elf64_Shdr *sh;

	if (index >= d->shnum)
		return DW_DLV_NO_ENTRY;
	sh = &d->shdrs[index];
	if (sh->sh_type == SHT_NOBITS || sh->sh_size == 0)
		return DW_DLV_NO_ENTRY;
	/* bounds checked for every section at open */
	*ret = (Dwarf_Small *)(d->map + sh->sh_offset);
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods obj_methods = {
	.get_section_info = obj_section_info,
	.get_byte_order = obj_byte_order,
	.get_length_size = obj_length_size,
	.get_pointer_size = obj_pointer_size,
	.get_section_count = obj_section_count,
	.load_section = obj_load_section,
	.relocate_a_section = NULL,
};

/* --- errors ------------------------------------------------------------ */

struct oc_error *oc_dw_err(struct oc_dwarf *d, Dwarf_Error e,
			       const char *what, uint64_t addr)
{
	struct oc_error *err;

	err = oc_error_file(OC_ERR_FORMAT, d->path, "%s(0x%llx): %s", what,
			    (unsigned long long)addr,
			    e ? dwarf_errmsg(e) : "no entry");
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	return err;
}

/* --- open / close ---------------------------------------------------- */

const Elf64_Shdr *oc_dw_find_section(const struct oc_dwarf *d,
				      const char *name)
{
	for (size_t i = 1; i < d->shnum; i++)
		if (!strcmp(sec_name(d, &d->shdrs[i]), name))
			return &d->shdrs[i];
	return NULL;
}

const uint8_t *oc_dw_section_at(const struct oc_dwarf *d, const char *name,
				uint64_t off, size_t *size_ret)
{
	const Elf64_Shdr *sh = oc_dw_find_section(d, name);

	if (!sh || sh->sh_type == SHT_NOBITS || off >= sh->sh_size)
		return NULL;
	*size_ret = sh->sh_size - off;
	return d->map + sh->sh_offset + off;
}

bool oc_dw_list_index(const struct oc_dwarf *d, const char *name,
		      uint64_t base, uint64_t idx, unsigned int offsz,
		      Dwarf_Off *off_ret)
{
	size_t size;
	const uint8_t *tab = oc_dw_section_at(d, name, base, &size);
	struct oc_cursor c;
	uint64_t rel;

	if (!tab || idx >= size / offsz)
		return false;
	oc_cursor_init(&c, tab + idx * offsz, offsz, name);
	if (!oc_ok(oc_cursor_le(&c, offsz, &rel)))
		return false;
	*off_ret = base + rel;
	return true;
}

static struct oc_error *check_elf(struct oc_dwarf *d)
{
	Elf64_Ehdr eh;
	const Elf64_Shdr *str;

	if (d->size < sizeof(eh))
		return oc_error_file(OC_ERR_FORMAT, d->path, "not an ELF file");
	memcpy(&eh, d->map, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64)
		return oc_error_file(OC_ERR_FORMAT, d->path,
				     "not an x86-64 ELF64 file");
	d->rel = eh.e_type == ET_REL;
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
	    eh.e_shoff > d->size ||
	    (d->size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum ||
	    eh.e_shoff % 8 || eh.e_shstrndx >= eh.e_shnum)
		return oc_error_file(OC_ERR_FORMAT, d->path,
				     "bad section header table");
	d->shdrs = (const Elf64_Shdr *)(d->map + eh.e_shoff);
	d->shnum = eh.e_shnum;
	for (size_t i = 0; i < d->shnum; i++) {
		const Elf64_Shdr *sh = &d->shdrs[i];

		if (sh->sh_type != SHT_NOBITS &&
		    (sh->sh_offset > d->size ||
		     sh->sh_size > d->size - sh->sh_offset))
			return oc_error_file(OC_ERR_FORMAT, d->path,
					     "section %zu outside the file", i);
	}
	str = &d->shdrs[eh.e_shstrndx];
	if (str->sh_type == SHT_NOBITS || str->sh_size == 0 ||
	    d->map[str->sh_offset + str->sh_size - 1] != '\0')
		return oc_error_file(OC_ERR_FORMAT, d->path,
				     "bad section name table");
	d->shstr = (const char *)d->map + str->sh_offset;
	d->shstr_size = str->sh_size;

	d->secaddr = calloc(d->shnum, sizeof(*d->secaddr));
	if (!d->secaddr)
		return &oc_enomem;
	for (size_t i = 0; i < d->shnum; i++)
		d->secaddr[i] = d->shdrs[i].sh_addr;

	if (oc_dw_find_section(d, ".gnu_debugaltlink") || oc_dw_find_section(d, ".debug_sup"))
		return oc_error_file(OC_ERR_UNSUPPORTED, d->path,
				     "DWARF compressed with dwz (.gnu_debugaltlink) is not supported");
	if (!oc_dw_find_section(d, ".debug_info") || !oc_dw_find_section(d, ".debug_line"))
		return oc_error_file(OC_ERR_LOOKUP, d->path,
				     "no DWARF line information (stripped vmlinux? install the -dbg package's)");
	for (size_t i = 1; i < d->shnum; i++)
		if (!strncmp(sec_name(d, &d->shdrs[i]), ".debug_", 7) &&
		    (d->shdrs[i].sh_flags & SHF_COMPRESSED))
			return oc_error_file(OC_ERR_UNSUPPORTED, d->path,
					     "compressed debug sections are not supported");
	return NULL;
}

/*
 * A .ko is a relocatable object: every section starts at 0 and the
 * DWARF's addresses and string offsets are left to .rela.debug_*.  Lay
 * the allocated sections out one after another (from 0x1000, so that 0
 * stays "no address") and apply the relocations that point into the
 * debug sections, in our private copy of the mapping.  Only the two
 * absolute types the x86-64 compilers emit there are needed.
 */
static struct oc_error *relocate(struct oc_dwarf *d)
{
	uint64_t base = 0x1000;

	for (size_t i = 1; i < d->shnum; i++) {
		const Elf64_Shdr *sh = &d->shdrs[i];
		uint64_t align = sh->sh_addralign ? sh->sh_addralign : 1;

		if (!(sh->sh_flags & SHF_ALLOC))
			continue;
		if (align & (align - 1) || align > 4096)
			align = 16;
		base = (base + align - 1) & ~(align - 1);
		d->secaddr[i] = base;
		base += sh->sh_size;
	}
	for (size_t i = 1; i < d->shnum; i++) {
		const Elf64_Shdr *rs = &d->shdrs[i], *ts, *ss;
		uint8_t *target;
		const uint8_t *syms;
		size_t nr_syms;

		if (rs->sh_type != SHT_RELA || rs->sh_info >= d->shnum ||
		    rs->sh_link >= d->shnum || rs->sh_entsize != sizeof(Elf64_Rela))
			continue;
		ts = &d->shdrs[rs->sh_info];
		ss = &d->shdrs[rs->sh_link];
		if (strncmp(sec_name(d, ts), ".debug_", 7) ||
		    ts->sh_type == SHT_NOBITS || ss->sh_type != SHT_SYMTAB ||
		    ss->sh_entsize != sizeof(Elf64_Sym))
			continue;
		target = (uint8_t *)d->map + ts->sh_offset;
		syms = d->map + ss->sh_offset;
		nr_syms = ss->sh_size / sizeof(Elf64_Sym);
		for (size_t k = 0; k < rs->sh_size / sizeof(Elf64_Rela); k++) {
			Elf64_Rela r;
			Elf64_Sym sym;
			uint64_t val, symi;
			unsigned type;

			memcpy(&r, d->map + rs->sh_offset + k * sizeof(r),
			       sizeof(r));
			symi = ELF64_R_SYM(r.r_info);
			type = ELF64_R_TYPE(r.r_info);
			if (symi >= nr_syms)
				return oc_error_file(OC_ERR_FORMAT, d->path,
						     "relocation %zu of section %zu: bad symbol",
						     k, i);
			memcpy(&sym, syms + symi * sizeof(sym), sizeof(sym));
			val = sym.st_value + r.r_addend;
			if (sym.st_shndx != SHN_UNDEF &&
			    sym.st_shndx < SHN_LORESERVE &&
			    sym.st_shndx < d->shnum)
				val += d->secaddr[sym.st_shndx];
			if (type == R_X86_64_64) {
				if (r.r_offset > ts->sh_size - 8 || ts->sh_size < 8)
					goto bad;
				memcpy(target + r.r_offset, &val, 8);
			} else if (type == R_X86_64_32 || type == R_X86_64_32S) {
				uint32_t v32 = val;

				if (r.r_offset > ts->sh_size - 4 || ts->sh_size < 4)
					goto bad;
				memcpy(target + r.r_offset, &v32, 4);
			}
			continue;
bad:
			return oc_error_file(OC_ERR_FORMAT, d->path,
					     "relocation %zu of section %zu outside its target",
					     k, i);
		}
	}
	return NULL;
}

uint64_t oc_dwarf_symbol_addr(const struct oc_dwarf *d, const char *name)
{
	uint64_t found = 0;

	for (size_t i = 1; i < d->shnum; i++) {
		const Elf64_Shdr *ss = &d->shdrs[i], *strs;
		const char *str;

		if (ss->sh_type != SHT_SYMTAB ||
		    ss->sh_entsize != sizeof(Elf64_Sym) ||
		    ss->sh_link >= d->shnum)
			continue;
		strs = &d->shdrs[ss->sh_link];
		if (strs->sh_type == SHT_NOBITS || !strs->sh_size ||
		    d->map[strs->sh_offset + strs->sh_size - 1])
			continue;
		str = (const char *)d->map + strs->sh_offset;
		for (size_t k = 1; k < ss->sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym sym;

			memcpy(&sym, d->map + ss->sh_offset + k * sizeof(sym),
			       sizeof(sym));
			if (sym.st_name >= strs->sh_size ||
			    strcmp(str + sym.st_name, name) ||
			    sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= d->shnum)
				continue;
			if (!(d->shdrs[sym.st_shndx].sh_flags & SHF_ALLOC))
				continue;
			found = sym.st_value + (d->rel ? d->secaddr[sym.st_shndx] : 0);
			/* a function beats a same-named object or label */
			if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC)
				return found;
		}
	}
	return found;
}

/* libdwarf over @d's sections (the object-access interface above) */
static struct oc_error *dbg_init(struct oc_dwarf *d)
{
	Dwarf_Error de = NULL;
	struct oc_error *err;
	int res;

	d->obj.object = d;
	d->obj.methods = &obj_methods;
	res = dwarf_object_init_b(&d->obj, NULL, NULL, DW_GROUPNUMBER_ANY,
				  &d->dbg, &de);
	if (res == DW_DLV_OK)
		return NULL;
	err = oc_error_file(OC_ERR_FORMAT, d->path, "dwarf_object_init_b: %s",
			    res == DW_DLV_ERROR ? dwarf_errmsg(de) : "no DWARF");
	if (res == DW_DLV_ERROR)
		dwarf_dealloc(NULL, de, DW_DLA_ERROR);
	d->dbg = NULL;
	return err;
}

void oc_dwarf_close(struct oc_dwarf *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_views; i++)
		oc_dwarf_close(d->views[i].d);
	free(d->views);
	if (d->dbg) {
		/* dwarf_finish() frees what libdwarf allocated for us (DIEs,
		 * line contexts, srcfiles). */
		dwarf_object_finish(d->dbg, NULL);
	}
	oc_cfi_destroy(d->cfi);
	for (size_t i = 0; i < d->nr_globals; i++)
		free(d->globals[i].name);
	free(d->globals);
	for (size_t i = 0; i < d->nr_cus; i++)
		free(d->cus[i].rows);
	free(d->cus);
	free(d->ar);
	free(d->view_shdrs);
	if (!d->parent) {	/* a view borrows these */
		free(d->secaddr);
		if (d->map) {
			oc_file_map_forget(d->map);
			munmap((void *)d->map, d->size ? d->size : 1);
		}
		if (d->fd >= 0)
			close(d->fd);
		free(d->path);
	}
	free(d);
}

struct oc_error *oc_dwarf_open(const char *path, struct oc_dwarf **ret)
{
	struct oc_dwarf *d;
	struct oc_error *err;
	struct stat st;
	void *map;

	d = calloc(1, sizeof(*d));
	if (!d)
		return &oc_enomem;
	d->fd = -1;
	d->path = strdup(path);
	if (!d->path) {
		err = &oc_enomem;
		goto fail;
	}
	err = oc_file_open(path, false, &d->fd, &st);
	if (err)
		goto fail;
	d->size = st.st_size;
	/* Writable private mapping: libdwarf's section pointers are not
	 * const, and a write would then stay ours instead of faulting. */
	map = mmap(NULL, d->size ? d->size : 1, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE, d->fd, 0);
	if (map == MAP_FAILED) {
		err = oc_error_os(errno, path, "mmap");
		goto fail;
	}
	d->map = map;
	oc_file_map_note(map, d->size ? d->size : 1, d->path);
	err = check_elf(d);
	if (err)
		goto fail;

	if (d->rel) {
		err = relocate(d);
		if (err)
			goto fail;
	}
	err = dbg_init(d);
	if (err)
		goto fail;
	*ret = d;
	return NULL;

fail:
	oc_dwarf_close(d);
	return err;
}

/* --- CUs and line tables ------------------------------------------- */

static bool add_arange(struct oc_dwarf *d, uint64_t lo, uint64_t hi,
		       uint64_t off)
{
	struct dw_arange *n;

	if (hi <= lo)
		return true;
	n = oc_array_grow(d->ar, d->nr_ar, 1, &d->cap_ar, sizeof(*n), 4096);
	if (!n)
		return false;
	d->ar = n;
	d->ar[d->nr_ar++] = (struct dw_arange){ lo, hi, off };
	return true;
}

static void sink_put(struct range_sink *s, uint64_t lo, uint64_t hi)
{
	if (s->collect) {
		if (!add_arange(s->d, lo, hi, s->cu_off))
			s->nomem = true;
	} else if (lo <= s->addr && s->addr < hi) {
		s->found = true;
	}
}

static uint64_t get_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * .debug_aranges read straight from the mapping: a list of sets, each a
 * header (unit_length, version 2, debug_info offset, address and segment
 * size) and (address, length) pairs aligned to twice the address size,
 * ended by (0, 0).  libdwarf's dwarf_get_aranges() takes 0.3 s on a
 * Debian vmlinux for the same 7,600 entries.  A set that does not parse
 * ends the walk; false when nothing was usable.
 */
static struct oc_error *parse_aranges(struct oc_dwarf *d, bool *any)
{
	const Elf64_Shdr *sh = oc_dw_find_section(d, ".debug_aranges");
	const uint8_t *p, *end;

	*any = false;
	if (!sh || sh->sh_type == SHT_NOBITS)
		return NULL;
	p = d->map + sh->sh_offset;
	end = p + sh->sh_size;
	while (end - p >= 4) {
		const uint8_t *set = p, *set_end, *q;
		uint64_t len = get_le(p, 4), info;
		size_t offsz = 4, hdr = 4, tuple;

		if (len == 0xffffffff) {
			if (end - p < 12)
				break;
			len = get_le(p + 4, 8);
			offsz = 8;
			hdr = 12;
		}
		if (len > (uint64_t)(end - p) - hdr)
			break;
		set_end = p + hdr + len;
		q = p + hdr;
		/* version (2), debug_info offset, address size, segment size */
		if (set_end - q < (ptrdiff_t)(2 + offsz + 2) ||
		    get_le(q, 2) != 2)
			break;
		info = get_le(q + 2, offsz);
		if (q[2 + offsz] != 8 || q[3 + offsz] != 0)
			break;
		tuple = 16;
		q = set + ((q + 4 + offsz - set + tuple - 1) / tuple) * tuple;
		for (; set_end - q >= 16; q += 16) {
			uint64_t lo = get_le(q, 8), n = get_le(q + 8, 8);

			if (!lo && !n)
				break;
			if (lo + n < lo)
				continue;
			if (!add_arange(d, lo, lo + n, info))
				return &oc_enomem;
			*any = true;
		}
		p = set_end;
	}
	return NULL;
}

static void die_ranges(struct oc_dwarf *d, Dwarf_Half version,
		       Dwarf_Die cu_die, Dwarf_Die die,
		       struct range_sink *sink);

int oc_dw_next_cu(struct oc_dwarf *d, unsigned long n, Dwarf_Half *version,
		  Dwarf_Die *die, struct oc_error **err)
{
	Dwarf_Unsigned hlen, typeoff, next;
	Dwarf_Half addrsz, lensz, extsz, type;
	Dwarf_Off abbrev;
	Dwarf_Sig8 sig;
	Dwarf_Error de = NULL;
	int res;

	*die = NULL;
	/* a walk that stopped at an error left libdwarf's next-CU state
	 * mid-way (it retries the bad header): no walk after it */
	if (d->cus_broken) {
		*err = oc_error_format(OC_ERR_FORMAT, "%s: .debug_info: a CU header is unreadable",
				       d->path);
		return -1;
	}
	res = dwarf_next_cu_header_d(d->dbg, true, &hlen, version, &abbrev,
				     &addrsz, &lensz, &extsz, &sig,
				     &typeoff, &next, &type, &de);
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	if (res == DW_DLV_ERROR) {
		*err = oc_dw_err(d, de, "dwarf_next_cu_header_d", n);
		d->cus_broken = true;
		return -1;
	}
	if (dwarf_siblingof_b(d->dbg, NULL, true, die, &de) != DW_DLV_OK) {
		if (de)
			dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
		*die = NULL;
	}
	return 1;
}

/* No .debug_aranges (clang does not emit it): the CU DIEs' own ranges.
 * Every CU is visited (libdwarf's next-CU state then starts over). */
static struct oc_error *scan_cus(struct oc_dwarf *d)
{
	Dwarf_Error de = NULL;
	struct oc_error *err = NULL;
	Dwarf_Half ver;
	Dwarf_Die die;
	int res;

	d->off_is_die = true;
	for (unsigned long n = 0; (res = oc_dw_next_cu(d, n, &ver, &die, &err)) > 0; n++) {
		struct range_sink sink = { .d = d, .collect = true };
		Dwarf_Off off;

		if (!die || err || n >= DW_MAX_CUS)
			goto next;
		if (dwarf_dieoffset(die, &off, &de) != DW_DLV_OK) {
			if (de)
				dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
			de = NULL;
			goto next;
		}
		sink.cu_off = off;
		die_ranges(d, ver, die, die, &sink);
		if (sink.nomem)
			err = &oc_enomem;
next:
		if (die)
			dwarf_dealloc_die(die);
	}
	return err;
}

static int cmp_arange(const void *a, const void *b)
{
	const struct dw_arange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static struct oc_error *build_index(struct oc_dwarf *d)
{
	struct oc_error *err;
	bool any;

	d->index_done = true;
	err = parse_aranges(d, &any);
	if (!err && !any) {
		d->nr_ar = 0;
		err = scan_cus(d);
	}
	if (err)
		return err;
	if (d->nr_ar)
		qsort(d->ar, d->nr_ar, sizeof(*d->ar), cmp_arange);
	return NULL;
}

/* The entry covering @addr: the last starting at or below it, or one
 * just before that (ranges of neighbouring CUs do not overlap, but a
 * set may hold an empty or stray entry). */
static const struct dw_arange *index_find(const struct oc_dwarf *d,
					  uint64_t addr)
{
	size_t lo = oc_array_upper_bound(d->ar, d->nr_ar, sizeof(*d->ar),
					 offsetof(struct dw_arange, lo), addr);

	for (size_t i = lo, k = 0; i-- > 0 && k < 8; k++)
		if (addr < d->ar[i].hi)
			return &d->ar[i];
	return NULL;
}

/*
 * The offset of the CU DIE after the CU header at @off (what
 * .debug_aranges names): unit_length, version, then for DWARF 5 the unit
 * type, address size and abbreviation offset (and an 8-byte id for
 * skeleton and split units), for DWARF 2-4 the abbreviation offset and
 * address size.  Read from the mapping: libdwarf's
 * dwarf_get_cu_die_offset_given_cu_header_offset_b() crashes when
 * .debug_info is not loaded yet.
 */
static bool cu_header(const struct oc_dwarf *d, uint64_t off,
		      Dwarf_Off *die_ret, uint64_t *len_ret,
		      uint64_t *abbrev_ret)
{
	const Elf64_Shdr *sh = oc_dw_find_section(d, ".debug_info");
	const uint8_t *p;
	uint64_t size, hdr = 4, offsz = 4, ver, len, abbrev;

	if (!sh || sh->sh_type == SHT_NOBITS || off >= sh->sh_size ||
	    sh->sh_size - off < 24)
		return false;
	p = d->map + sh->sh_offset + off;
	size = sh->sh_size - off;
	len = get_le(p, 4);
	if (len == 0xffffffff) {
		hdr = 12;
		offsz = 8;
		len = get_le(p + 4, 8);
	}
	if (size < hdr + 2 + 2 + offsz + 8)
		return false;
	*len_ret = len > size - hdr ? 0 : hdr + len;	/* 0: past the end */
	ver = get_le(p + hdr, 2);
	if (ver >= 5) {
		uint8_t type = p[hdr + 2];

		abbrev = get_le(p + hdr + 4, offsz);
		hdr += 2 + 2 + offsz;
		if (type == DW_UT_skeleton || type == DW_UT_split_compile)
			hdr += 8;
		else if (type != DW_UT_compile && type != DW_UT_partial)
			return false;
	} else if (ver >= 2) {
		abbrev = get_le(p + hdr + 2, offsz);
		hdr += 2 + offsz + 1;
	} else {
		return false;
	}
	*die_ret = off + hdr;
	*abbrev_ret = abbrev;
	return true;
}

static bool cu_die_offset(const struct oc_dwarf *d, uint64_t off,
			  Dwarf_Off *ret)
{
	uint64_t len, abbrev;

	return cu_header(d, off, ret, &len, &abbrev);
}

/*
 * Whether the abbreviations at @off of .debug_abbrev (one CU's) hold a
 * form whose DIE reference is not relative to the CU (DW_FORM_ref_addr,
 * GNU_ref_alt, ref_sig8) or cannot be known before the DIE is read
 * (DW_FORM_indirect); true too when the table cannot be read.
 */
static bool abbrevs_refer_out(const struct oc_dwarf *d, uint64_t off)
{
	const Elf64_Shdr *sh = oc_dw_find_section(d, ".debug_abbrev");
	struct oc_cursor c;

	if (!sh || sh->sh_type == SHT_NOBITS || off >= sh->sh_size)
		return true;
	oc_cursor_init(&c, d->map + sh->sh_offset + off, sh->sh_size - off,
		       ".debug_abbrev");
	for (;;) {
		uint64_t code, tag, at, form;
		int64_t konst;

		if (!oc_ok(oc_cursor_uleb128(&c, &code)))
			return true;
		if (!code)
			return false;	/* the table's end */
		if (!oc_ok(oc_cursor_uleb128(&c, &tag)) ||
		    !oc_ok(oc_cursor_skip(&c, 1)))	/* DW_CHILDREN_* */
			return true;
		do {
			if (!oc_ok(oc_cursor_uleb128(&c, &at)) ||
			    !oc_ok(oc_cursor_uleb128(&c, &form)))
				return true;
			if (form == DW_FORM_implicit_const &&
			    !oc_ok(oc_cursor_sleb128(&c, &konst)))
				return true;
			if (form == DW_FORM_ref_addr || form == DW_FORM_GNU_ref_alt ||
			    form == DW_FORM_ref_sig8 || form == DW_FORM_indirect)
				return true;
		} while (at || form);
	}
}

/*
 * libdwarf 20210528 reaches the DIE at a .debug_info offset by making a
 * context for every CU before it that it has not made yet (dwarf_offdie_b()
 * -> _dwarf_create_a_new_cu_context_record_on_list(), each reading the
 * CU's first DIE and abbreviations): on the 6.1 vmlinux, ~1,500 CUs and
 * ~7 ms to reach kernel/locking/mutex.c's, where a blocked task's wait is
 * read.  A view is a second libdwarf over the same mapping whose
 * .debug_info is that CU alone: one context.  Its DIE offsets count from
 * the CU, which changes nothing while no DIE refers outside it; a CU
 * whose abbreviations could (abbrevs_refer_out()) keeps the file's own
 * libdwarf.  Debian's vmlinux (no LTO, no dwz) has no such CU.
 */
static struct oc_dwarf *make_view(struct oc_dwarf *d, uint64_t off,
				  uint64_t len)
{
	const Elf64_Shdr *info = oc_dw_find_section(d, ".debug_info");
	struct oc_dwarf *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->parent = d;
	v->fd = -1;
	v->path = d->path;
	v->map = d->map;
	v->size = d->size;
	v->shnum = d->shnum;
	v->shstr = d->shstr;
	v->shstr_size = d->shstr_size;
	v->secaddr = d->secaddr;
	v->view_shdrs = malloc(d->shnum * sizeof(*v->view_shdrs));
	v->ar = malloc(sizeof(*v->ar));
	if (!v->view_shdrs || !v->ar)
		goto fail;
	memcpy(v->view_shdrs, d->shdrs, d->shnum * sizeof(*v->view_shdrs));
	v->view_shdrs[info - d->shdrs].sh_offset += off;
	v->view_shdrs[info - d->shdrs].sh_size = len;
	v->shdrs = v->view_shdrs;
	/* every address is the one CU's, at offset 0 */
	v->ar[0] = (struct dw_arange){ 0, UINT64_MAX, 0 };
	v->nr_ar = v->cap_ar = 1;
	v->index_done = true;
	if (!oc_ok(dbg_init(v)))
		goto fail;
	return v;
fail:
	oc_dwarf_close(v);
	return NULL;
}

struct oc_dwarf *oc_dw_cu_view(struct oc_dwarf *d, uint64_t addr)
{
	const struct dw_arange *ar;
	struct dw_view *views;
	struct oc_dwarf *v;
	Dwarf_Off die;
	uint64_t len, abbrev;

	if (d->rel || d->parent || (!d->index_done && !oc_ok(build_index(d))) ||
	    d->off_is_die || !(ar = index_find(d, addr)))
		return d;
	for (size_t i = 0; i < d->nr_views; i++)
		if (d->views[i].off == ar->off)
			return d->views[i].d ? d->views[i].d : d;
	if (d->nr_views >= DW_MAX_VIEWS)
		return d;
	views = oc_array_grow(d->views, d->nr_views, 1, &d->cap_views,
			      sizeof(*views), 8);
	if (!views)
		return d;
	d->views = views;
	/* NULL (kept: not tried again): the file's own libdwarf answers */
	v = cu_header(d, ar->off, &die, &len, &abbrev) && len &&
	    !abbrevs_refer_out(d, abbrev) ? make_view(d, ar->off, len) : NULL;
	d->views[d->nr_views++] = (struct dw_view){ ar->off, v };
	return v ? v : d;
}

struct oc_error *oc_dw_find_cu(struct oc_dwarf *d, uint64_t addr,
				struct dw_cu **ret)
{
	Dwarf_Error de = NULL;
	const struct dw_arange *ar;
	struct oc_error *err;
	Dwarf_Off off;
	Dwarf_Die die;
	struct dw_cu *cu, *cus;
	int res;

	*ret = NULL;
	if (!d->index_done) {
		err = build_index(d);
		if (err)
			return err;
	}
	ar = index_find(d, addr);
	if (!ar)
		return NULL;
	off = ar->off;
	if (!d->off_is_die && !cu_die_offset(d, ar->off, &off))
		return oc_error_file(OC_ERR_FORMAT, d->path,
				     "bad CU header at .debug_info+0x%llx",
				     (unsigned long long)ar->off);
	for (size_t i = 0; i < d->nr_cus; i++)
		if (d->cus[i].off == off) {
			*ret = &d->cus[i];
			return NULL;
		}
	res = dwarf_offdie_b(d->dbg, off, true, &die, &de);
	if (res != DW_DLV_OK)
		return oc_dw_err(d, de, "dwarf_offdie_b", off);
	cus = oc_array_grow(d->cus, d->nr_cus, 1, &d->cap_cus, sizeof(*cus), 16);
	if (!cus) {
		dwarf_dealloc_die(die);
		return &oc_enomem;
	}
	d->cus = cus;
	cu = &d->cus[d->nr_cus++];
	memset(cu, 0, sizeof(*cu));
	cu->off = off;
	cu->die = die;
	{
		Dwarf_Half ver = 0, offsz = 0;

		if (dwarf_get_version_of_die(die, &ver, &offsz) == DW_DLV_OK)
			cu->version = ver;
	}
	*ret = cu;
	return NULL;
}

/*
 * The file table index of a line row's or DW_AT_call_file's file
 * number: DWARF 5 numbers files from 0 (0 is the primary file), DWARF 2-4
 * from 1, and dwarf_srcfiles() lists them from index 0 either way.
 */
static bool file_index(const struct dw_cu *cu, Dwarf_Unsigned fileno,
		       uint32_t *ret)
{
	if (cu->version < 5) {
		if (fileno == 0)
			return false;
		fileno--;
	}
	if (fileno >= (Dwarf_Unsigned)cu->nr_files)
		return false;
	*ret = fileno;
	return true;
}

struct row_sink {
	struct dw_cu *cu;
	size_t cap;
};

/* oc_lineprog_decode()'s row callback: into cu->rows, file mapped. */
static bool add_row(void *arg, uint64_t addr, uint64_t line, uint64_t file,
		    bool end)
{
	struct row_sink *rs = arg;
	struct dw_cu *cu = rs->cu;
	struct dw_row *r, *rows;

	rows = oc_array_grow(cu->rows, cu->nr_rows, 1, &rs->cap, sizeof(*rows),
			     1024);
	if (!rows)
		return false;
	cu->rows = rows;
	r = &cu->rows[cu->nr_rows++];
	r->addr = addr;
	r->line = line > UINT32_MAX ? 0 : line;
	r->end = end;
	if (!file_index(cu, file, &r->file))
		r->file = UINT32_MAX;
	return true;
}

/*
 * The CU's line program decoded straight from the mapping
 * (formats/lineprog.c).  Returns false, with no rows kept, when our
 * reader refuses the unit: libdwarf then reads the table.
 */
static bool decode_lines(struct oc_dwarf *d, struct dw_cu *cu, bool *nomem)
{
	const Elf64_Shdr *sh = oc_dw_find_section(d, ".debug_line");
	struct row_sink rs = { .cu = cu };
	struct oc_error *err;
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Off off;
	bool ok;

	*nomem = false;
	if (!sh || sh->sh_type == SHT_NOBITS)
		return false;
	if (dwarf_attr(cu->die, DW_AT_stmt_list, &attr, &de) != DW_DLV_OK) {
		if (de)
			dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
		return false;
	}
	ok = dwarf_global_formref(attr, &off, &de) == DW_DLV_OK;
	dwarf_dealloc_attribute(attr);
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
	if (!ok || off >= sh->sh_size)
		return false;
	err = oc_lineprog_decode(d->map + sh->sh_offset + off,
				 sh->sh_size - off, add_row, &rs);
	if (!err)
		return true;
	*nomem = err == &oc_enomem;
	oc_error_destroy(err);
	free(cu->rows);
	cu->rows = NULL;
	cu->nr_rows = 0;
	return false;
}

static struct oc_error *load_lines(struct oc_dwarf *d, struct dw_cu *cu)
{
	Dwarf_Error de = NULL;
	Dwarf_Unsigned version;
	Dwarf_Small count;
	Dwarf_Line_Context ctx;
	Dwarf_Line *lines;
	Dwarf_Signed nr;
	int res;

	cu->lines_done = true;
	res = dwarf_srcfiles(cu->die, &cu->files, &cu->nr_files, &de);
	if (res == DW_DLV_ERROR)
		return oc_dw_err(d, de, "dwarf_srcfiles", cu->off);
	if (res == DW_DLV_NO_ENTRY) {
		cu->files = NULL;
		cu->nr_files = 0;
	}
	if (!getenv("OC_DWARF_LIBDWARF_LINES")) {
		bool nomem;

		if (decode_lines(d, cu, &nomem))
			return NULL;
		if (nomem)
			return &oc_enomem;
	}
	res = dwarf_srclines_b(cu->die, &version, &count, &ctx, &de);
	if (res == DW_DLV_NO_ENTRY)
		return NULL;
	if (res == DW_DLV_ERROR)
		return oc_dw_err(d, de, "dwarf_srclines_b", cu->off);
	res = dwarf_srclines_from_linecontext(ctx, &lines, &nr, &de);
	if (res == DW_DLV_ERROR) {
		dwarf_srclines_dealloc_b(ctx);
		return oc_dw_err(d, de, "dwarf_srclines_from_linecontext", cu->off);
	}
	if (res == DW_DLV_NO_ENTRY || nr <= 0) {
		dwarf_srclines_dealloc_b(ctx);
		return NULL;
	}
	cu->rows = calloc(nr, sizeof(*cu->rows));
	if (!cu->rows) {
		dwarf_srclines_dealloc_b(ctx);
		return &oc_enomem;
	}
	for (Dwarf_Signed i = 0; i < nr; i++) {
		struct dw_row *r = &cu->rows[cu->nr_rows];
		Dwarf_Addr addr;
		Dwarf_Unsigned lineno, fileno;
		Dwarf_Bool end = false;

		if (dwarf_lineaddr(lines[i], &addr, &de) != DW_DLV_OK ||
		    dwarf_lineno(lines[i], &lineno, &de) != DW_DLV_OK ||
		    dwarf_line_srcfileno(lines[i], &fileno, &de) != DW_DLV_OK ||
		    dwarf_lineendsequence(lines[i], &end, &de) != DW_DLV_OK) {
			if (de)
				dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
			de = NULL;
			continue;
		}
		r->addr = addr;
		r->line = lineno;
		r->end = end;
		if (!file_index(cu, fileno, &r->file))
			r->file = UINT32_MAX;
		cu->nr_rows++;
	}
	/* the rows are copied: the context's memory can go now */
	dwarf_srclines_dealloc_b(ctx);
	return NULL;
}

/*
 * The row for @addr: within one sequence, the last row at or below addr
 * whose successor is above it (so of several rows at one address the last,
 * like binutils' addr2line).
 */
static const struct dw_row *find_row(const struct dw_cu *cu, uint64_t addr)
{
	for (size_t i = 0; i + 1 < cu->nr_rows; i++) {
		const struct dw_row *r = &cu->rows[i];

		if (r->end || r->addr > addr)
			continue;
		if (cu->rows[i + 1].addr > addr)
			return r;
	}
	return NULL;
}

static const char *cu_file(const struct dw_cu *cu, uint32_t index)
{
	if (index >= (Dwarf_Unsigned)cu->nr_files)
		return NULL;
	return cu->files[index];
}

/* --- DIE ranges and names ----------------------------------------- */


bool oc_dwarf_rnglist_each(const uint8_t *list, size_t size, uint64_t base,
			   const uint8_t *addrs, size_t nr_addrs,
			   bool (*fn)(void *arg, uint64_t lo, uint64_t hi),
			   void *arg)
{
	struct oc_cursor c;

	oc_cursor_init(&c, list, size, "range list");
	for (int n = 0; n < DW_MAX_LIST_ENTRIES; n++) {
		uint64_t lo, hi, a, b;
		uint8_t kind;

		if (!oc_ok(oc_cursor_u8(&c, &kind)))
			return false;
		switch (kind) {	/* DWARF 5, 7.25 */
		case DW_RLE_end_of_list:
			return true;
		case DW_RLE_base_addressx:
			if (!oc_ok(oc_cursor_uleb128(&c, &a)) ||
			    !oc_dw_addrx(addrs, nr_addrs, a, &base))
				return false;
			continue;
		case DW_RLE_startx_endx:
			if (!oc_dw_uleb2(&c, &a, &b) ||
			    !oc_dw_addrx(addrs, nr_addrs, a, &lo) ||
			    !oc_dw_addrx(addrs, nr_addrs, b, &hi))
				return false;
			break;
		case DW_RLE_startx_length:
			if (!oc_dw_uleb2(&c, &a, &b) ||
			    !oc_dw_addrx(addrs, nr_addrs, a, &lo))
				return false;
			hi = lo + b;
			break;
		case DW_RLE_offset_pair:
			if (!oc_dw_uleb2(&c, &a, &b))
				return false;
			lo = base + a;
			hi = base + b;
			break;
		case DW_RLE_base_address:
			if (!oc_ok(oc_cursor_le64(&c, &base)))
				return false;
			continue;
		case DW_RLE_start_end:
			if (!oc_ok(oc_cursor_le64(&c, &lo)) ||
			    !oc_ok(oc_cursor_le64(&c, &hi)))
				return false;
			break;
		case DW_RLE_start_length:
			if (!oc_ok(oc_cursor_le64(&c, &lo)) ||
			    !oc_ok(oc_cursor_uleb128(&c, &b)))
				return false;
			hi = lo + b;
			break;
		default:
			return false;
		}
		if (!fn(arg, lo, hi))
			return true;
	}
	return false;
}

/* A CU's base address for its range lists: its DW_AT_low_pc, 0 when it
 * has none (DWARF 5, 2.17.3) */
static Dwarf_Addr cu_base(struct oc_dwarf *d, Dwarf_Die cu_die)
{
	Dwarf_Error de = NULL;
	Dwarf_Addr base = 0;

	if (dwarf_lowpc(cu_die, &base, &de) != DW_DLV_OK)
		base = 0;
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
	return base;
}

static bool sink_range(void *arg, uint64_t lo, uint64_t hi)
{
	struct range_sink *sink = arg;

	sink_put(sink, lo, hi);
	return !sink->found;
}

bool oc_dw_attr_offset(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at,
		       Dwarf_Off *ret)
{
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	bool ok = false;

	if (dwarf_attr(die, at, &attr, &de) == DW_DLV_OK) {
		ok = dwarf_global_formref(attr, ret, &de) == DW_DLV_OK;
		dwarf_dealloc_attribute(attr);
	}
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
	return ok;
}

/*
 * DWARF 5 DW_AT_ranges, read from .debug_rnglists ourselves: libdwarf
 * 20210528 reads every CU's range list header when it first loads
 * .debug_info (_dwarf_load_debug_info() -> dwarf_load_rnglists(), ~1 ms
 * on the 6.1 vmlinux, again for each CU view), so the section is hidden
 * from it like the location lists.  DW_FORM_rnglistx indexes the offsets
 * that follow the CU's list table header (DW_AT_rnglists_base), counted
 * from there; DW_FORM_sec_offset is the list's offset in the section.
 * The base address is the CU's DW_AT_low_pc (DWARF 5, 2.17.3).
 */
static void rnglists_ranges(struct oc_dwarf *d, Dwarf_Die cu_die,
			    Dwarf_Attribute attr, struct range_sink *sink)
{
	Dwarf_Error de = NULL;
	Dwarf_Half form, ver = 0, offsz = 4;
	Dwarf_Unsigned val;
	Dwarf_Off off, abase;
	const uint8_t *list, *addrs = NULL;
	size_t size, nr_addrs = 0;

	if (dwarf_whatform(attr, &form, &de) != DW_DLV_OK)
		goto out;
	if (form == DW_FORM_rnglistx) {
		Dwarf_Off rbase;

		if (dwarf_formudata(attr, &val, &de) != DW_DLV_OK ||
		    !oc_dw_attr_offset(d, cu_die, DW_AT_rnglists_base, &rbase))
			goto out;
		dwarf_get_version_of_die(cu_die, &ver, &offsz);
		if ((offsz != 4 && offsz != 8) ||
		    !oc_dw_list_index(d, ".debug_rnglists", rbase, val, offsz, &off))
			goto out;
	} else if (dwarf_global_formref(attr, &off, &de) != DW_DLV_OK) {
		goto out;
	}
	list = oc_dw_section_at(d, ".debug_rnglists", off, &size);
	if (!list)
		goto out;
	if (oc_dw_attr_offset(d, cu_die, DW_AT_addr_base, &abase) &&
	    (addrs = oc_dw_section_at(d, ".debug_addr", abase, &nr_addrs)))
		nr_addrs /= 8;
	oc_dwarf_rnglist_each(list, size, cu_base(d, cu_die), addrs, nr_addrs,
			      sink_range, sink);
out:
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
}

/* DWARF 2-4 DW_AT_ranges: offsets into .debug_ranges, base = CU low_pc. */
static void debug_ranges(struct oc_dwarf *d, Dwarf_Die cu_die, Dwarf_Die die,
			 Dwarf_Attribute attr, struct range_sink *sink)
{
	Dwarf_Error de = NULL;
	Dwarf_Off off, real;
	Dwarf_Ranges *r;
	Dwarf_Signed n;
	Dwarf_Unsigned bytes;
	Dwarf_Addr base = 0;

	if (dwarf_global_formref(attr, &off, &de) != DW_DLV_OK)
		goto out;
	base = cu_base(d, cu_die);
	if (dwarf_get_ranges_b(d->dbg, off, die, &real, &r, &n, &bytes,
			       &de) != DW_DLV_OK)
		goto out;
	for (Dwarf_Signed i = 0; i < n && !sink->found; i++) {
		if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else if (r[i].dwr_type == DW_RANGES_ENTRY)
			sink_put(sink, base + r[i].dwr_addr1,
				 base + r[i].dwr_addr2);
	}
	dwarf_ranges_dealloc(d->dbg, r, n);
out:
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
}

/* Every address range of @die (low_pc/high_pc or DW_AT_ranges) to @sink. */
static void die_ranges(struct oc_dwarf *d, Dwarf_Half version,
		       Dwarf_Die cu_die, Dwarf_Die die,
		       struct range_sink *sink)
{
	Dwarf_Error de = NULL;
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	Dwarf_Attribute attr;
	int res;

	/* low_pc alone (a CU with DW_AT_ranges) is only a base address */
	res = dwarf_lowpc(die, &lo, &de);
	if (res == DW_DLV_OK) {
		res = dwarf_highpc_b(die, &hi, &form, &cls, &de);
		if (res == DW_DLV_OK) {
			if (cls == DW_FORM_CLASS_CONSTANT)
				hi += lo;
			sink_put(sink, lo, hi);
			goto out;
		}
	}
	if (res == DW_DLV_ERROR)
		goto out;
	res = dwarf_attr(die, DW_AT_ranges, &attr, &de);
	if (res != DW_DLV_OK)
		goto out;
	if (version >= 5)
		rnglists_ranges(d, cu_die, attr, sink);
	else
		debug_ranges(d, cu_die, die, attr, sink);
	dwarf_dealloc_attribute(attr);
out:
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
}

Dwarf_Die oc_dw_child_first(struct dw_children *it, struct oc_dwarf *d,
			    Dwarf_Die parent)
{
	Dwarf_Error de = NULL;

	it->d = d;
	it->die = NULL;
	it->taken = false;
	if (dwarf_child(parent, &it->die, &de) != DW_DLV_OK)
		it->die = NULL;
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
	return it->die;
}

Dwarf_Die oc_dw_child_next(struct dw_children *it)
{
	Dwarf_Error de = NULL;
	Dwarf_Die next = NULL;

	if (!it->die)
		return NULL;
	if (dwarf_siblingof_b(it->d->dbg, it->die, true, &next, &de) !=
	    DW_DLV_OK)
		next = NULL;
	if (de)
		dwarf_dealloc(it->d->dbg, de, DW_DLA_ERROR);
	if (!it->taken)
		dwarf_dealloc_die(it->die);
	it->die = next;
	it->taken = false;
	return next;
}

Dwarf_Die oc_dw_child_take(struct dw_children *it)
{
	it->taken = true;
	return it->die;
}

void oc_dw_child_end(struct dw_children *it)
{
	if (it->die && !it->taken)
		dwarf_dealloc_die(it->die);
	it->die = NULL;
}

bool oc_dw_die_contains(struct oc_dwarf *d, const struct dw_cu *cu,
			 Dwarf_Die die, uint64_t addr)
{
	struct range_sink sink = { .d = d, .addr = addr };

	die_ranges(d, cu->version, cu->die, die, &sink);
	return sink.found;
}

/* The DIE that @at of @die refers to (abstract origin, specification). */
Dwarf_Die oc_dw_die_ref(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Off off;
	Dwarf_Die ret = NULL;

	if (dwarf_attr(die, at, &attr, &de) != DW_DLV_OK)
		goto out;
	if (dwarf_global_formref(attr, &off, &de) == DW_DLV_OK &&
	    dwarf_offdie_b(d->dbg, off, true, &ret, &de) != DW_DLV_OK)
		ret = NULL;
	dwarf_dealloc_attribute(attr);
out:
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
	return ret;
}

/*
 * A function's name: its own DW_AT_name, else its abstract origin's
 * (inlined instances, out-of-line .constprop/.isra copies), else its
 * specification's.  A few hops at most.
 */
const char *oc_dw_die_function_name(struct oc_dwarf *d, Dwarf_Die die)
{
	Dwarf_Error de = NULL;
	Dwarf_Die cur = die, next;
	const char *name = NULL;

	for (int hop = 0; hop < 4 && cur; hop++) {
		char *s;
		int res = dwarf_diename(cur, &s, &de);

		if (res == DW_DLV_OK) {
			name = s;
			break;
		}
		if (res == DW_DLV_ERROR) {
			dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
			de = NULL;
			break;
		}
		next = oc_dw_die_ref(d, cur, DW_AT_abstract_origin);
		if (!next)
			next = oc_dw_die_ref(d, cur, DW_AT_specification);
		cur = oc_dw_die_hop(die, cur, next);
	}
	oc_dw_die_let_go(die, cur);
	return name;
}

Dwarf_Unsigned oc_dw_die_udata(struct oc_dwarf *d, Dwarf_Die die,
				Dwarf_Half at)
{
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Unsigned val = 0;

	if (dwarf_attr(die, at, &attr, &de) == DW_DLV_OK) {
		Dwarf_Half form = 0;
		Dwarf_Signed sval;

		/* gcc 12 puts DW_AT_call_file/line in the abbreviation as
		 * DW_FORM_implicit_const when they repeat; libdwarf 20210528's
		 * dwarf_formudata() refuses that form, dwarf_formsdata() reads
		 * it. */
		if (dwarf_whatform(attr, &form, &de) == DW_DLV_OK &&
		    form == DW_FORM_implicit_const) {
			if (dwarf_formsdata(attr, &sval, &de) == DW_DLV_OK &&
			    sval >= 0)
				val = sval;
		} else if (dwarf_formudata(attr, &val, &de) != DW_DLV_OK) {
			val = 0;
		}
		dwarf_dealloc_attribute(attr);
	}
	if (de)
		dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
	return val;
}

/*
 * The scopes around @addr, outermost first: the subprogram, then each
 * inlined subroutine nested in it (lexical blocks are gone through, not
 * kept).  Returns how many DIEs are in @chain; the caller deallocates them.
 */
static size_t die_chain(struct oc_dwarf *d, const struct dw_cu *cu,
			uint64_t addr, Dwarf_Die *chain, size_t max)
{
	Dwarf_Die parent = cu->die, block = NULL;
	size_t nr = 0;
	/* A cap on the DIEs visited: a malformed tree cannot loop us. */
	unsigned long budget = 1UL << 22;

	while (parent) {
		struct dw_children it;
		Dwarf_Die found = NULL;
		Dwarf_Half tag = 0;

		for (Dwarf_Die c = oc_dw_child_first(&it, d, parent);
		     c && budget; c = oc_dw_child_next(&it), budget--) {
			Dwarf_Error de = NULL;
			bool descend = false;

			if (dwarf_tag(c, &tag, &de) != DW_DLV_OK) {
				if (de)
					dwarf_dealloc(d->dbg, de, DW_DLA_ERROR);
				break;
			}
			/* a top-level subprogram starts the chain; inlined
			 * subroutines and lexical blocks continue it */
			if (tag == DW_TAG_subprogram)
				descend = nr == 0;
			else if (tag == DW_TAG_inlined_subroutine ||
				 tag == DW_TAG_lexical_block)
				descend = nr > 0;
			if (descend && oc_dw_die_contains(d, cu, c, addr)) {
				found = oc_dw_child_take(&it);
				break;
			}
		}
		oc_dw_child_end(&it);
		/* a lexical block is gone through, not kept */
		if (block)
			dwarf_dealloc_die(block);
		block = NULL;
		if (!found)
			break;
		if (tag == DW_TAG_lexical_block) {
			block = found;
		} else if (nr == max) {
			dwarf_dealloc_die(found);
			break;
		} else {
			chain[nr++] = found;
		}
		parent = found;
	}
	if (block)
		dwarf_dealloc_die(block);
	return nr;
}

struct oc_error *oc_dwarf_lookup(struct oc_dwarf *d, uint64_t addr,
				 struct oc_line_info *chain, size_t max,
				 size_t *nr_ret)
{
	struct oc_error *err;
	struct dw_cu *cu;
	const struct dw_row *row;
	Dwarf_Die dies[DW_MAX_DEPTH];
	size_t nr_dies, nr = 0;

	*nr_ret = 0;
	if (!max)
		return NULL;
	err = oc_dw_find_cu(d, addr, &cu);
	if (err || !cu)
		return err;
	if (!cu->lines_done) {
		err = load_lines(d, cu);
		if (err)
			return err;
	}
	row = find_row(cu, addr);
	nr_dies = die_chain(d, cu, addr, dies, DW_MAX_DEPTH);

	/* innermost: the line table's row */
	chain[nr].file = row ? cu_file(cu, row->file) : NULL;
	chain[nr].line = row && chain[nr].file ? row->line : 0;
	chain[nr].function = nr_dies ? oc_dw_die_function_name(d, dies[nr_dies - 1])
				     : NULL;
	chain[nr].inlined = nr_dies > 1;
	if (row || nr_dies)
		nr++;
	/* outer ones: the call site of the scope inside them */
	for (size_t i = nr_dies ? nr_dies - 1 : 0; nr && i > 0 && nr < max; i--) {
		uint32_t idx;
		Dwarf_Unsigned fileno = oc_dw_die_udata(d, dies[i], DW_AT_call_file);

		chain[nr].file = file_index(cu, fileno, &idx) ?
				 cu_file(cu, idx) : NULL;
		chain[nr].line = chain[nr].file ?
				 oc_dw_die_udata(d, dies[i], DW_AT_call_line) : 0;
		chain[nr].function = oc_dw_die_function_name(d, dies[i - 1]);
		chain[nr].inlined = i - 1 > 0;
		nr++;
	}
	for (size_t i = 0; i < nr_dies; i++)
		dwarf_dealloc_die(dies[i]);
	*nr_ret = nr;
	return NULL;
}
