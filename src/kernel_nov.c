// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dump-only path: symbols from kallsyms, types from BTF and ORC
 * tables, all read from dump memory when no vmlinux is given.  Every
 * address here is the running kernel's (KASLR already applied): nothing
 * is relocated.  docs/no-vmlinux.md says what this mode lacks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "dump.h"
#include "kallsyms.h"
#include "kmodel.h"
#include "vmcoreinfo.h"

/* Caps on sections whose size comes from two symbols in the dump. */
static const uint64_t max_btf_size = 256u << 20;
static const uint64_t max_orc_entries = 1u << 24;

static uint64_t vmcoreinfo_symbol(const struct oc_kernel *k, const char *name)
{
	uint64_t v;

	if (!oc_ok(oc_vmcoreinfo_symbol(oc_dump_vmcoreinfo(k->dump), name, &v)))
		return 0;
	return v;
}

/*
 * A symbol from the kernel's table only: VMCOREINFO never has these, and
 * this path must not need the dump for anything but memory.
 */
static uint64_t sym_addr(const struct oc_kernel *k, const char *name)
{
	const struct oc_symbol *s = oc_symtab_find(&k->syms, name);

	return s ? oc_symtab_addr(&k->syms, s) : 0;
}

/*
 * Say what was being read: "reading kallsyms: 0x...: not mapped (...)",
 * and for a failed read that the dump, not the kernel, is the likely
 * culprit -- or that it certainly is, when the file is known to be cut.
 */
static struct oc_error *context(const struct oc_kernel *k,
				struct oc_error *err, const char *what)
{
	const char *hint = err && err->code == OC_ERR_FAULT ?
		" (is the dump truncated or filtered of kernel image pages?)" : "";
	char *msg, known[96];
	uint64_t size, needed;

	if (!err || !err->needs_destroy)
		return err;
	if (err->code == OC_ERR_FAULT && k->dump) {
		if (oc_dump_truncated(k->dump, &size, &needed)) {
			snprintf(known, sizeof(known),
				 " (the dump is truncated: %" PRIu64 " of %" PRIu64 " bytes)",
				 size, needed);
			hint = known;
		} else if (oc_dump_incomplete(k->dump)) {
			hint = " (makedumpfile marked the dump incomplete)";
		}
	}
	if (asprintf(&msg, "%s: %s%s", what, err->message, hint) < 0) {
		oc_error_destroy(err);
		return &oc_enomem;
	}
	free(err->message);
	err->message = msg;
	return err;
}

static struct oc_error *dump_error(const struct oc_kernel *k,
				   struct oc_error *err, const char *what)
{
	err = context(k, err, what);
	return k->dump ? oc_error_set_path(err, oc_dump_path(k->dump)) : err;
}

static void read_banner(struct oc_kernel *k)
{
	uint64_t addr = sym_addr(k, "linux_banner");
	struct oc_error *err;

	if (!addr) {
		oc_kernel_warn(k, "no linux_banner symbol in kallsyms");
		return;
	}
	err = oc_mem_read_string(&k->mem, addr, k->banner, sizeof(k->banner));
	if (err) {
		char buf[160];

		oc_error_take(err, buf, sizeof(buf));
		k->banner[0] = '\0';
		oc_kernel_warn(k, "linux_banner: %s", buf);
		return;
	}
	k->banner[strcspn(k->banner, "\n")] = '\0';
}

/*
 * A table found by its shape is trusted only if it agrees with every
 * SYMBOL() VMCOREINFO lists that it has, _stext and init_uts_ns among
 * them (both always there: kernel/crash_core.c, arch/x86/kernel/
 * machine_kexec_64.c).
 */
static struct oc_error *check_vmcoreinfo(const struct oc_kernel *k,
					 const struct oc_symtab *syms,
					 size_t *nr_checked_ret)
{
	const struct oc_vmcoreinfo *vi = oc_dump_vmcoreinfo(k->dump);
	bool stext = false, uts = false;
	size_t checked = 0;

	for (size_t i = 0; i < oc_vmcoreinfo_nr(vi); i++) {
		const char *key, *value, *close;
		const struct oc_symbol *sym;
		char name[128];
		uint64_t want, held, addr;
		size_t len;

		oc_vmcoreinfo_line(vi, i, &key, &value);
		if (strncmp(key, "SYMBOL(", 7) || !(close = strchr(key + 7, ')')))
			continue;
		len = (size_t)(close - key - 7);
		if (!len || len >= sizeof(name))
			continue;
		memcpy(name, key + 7, len);
		name[len] = '\0';
		if (!oc_ok(oc_vmcoreinfo_symbol(vi, name, &want)))
			continue;
		sym = oc_symtab_find(syms, name);
		if (!sym)
			continue;
		addr = oc_symtab_addr(syms, sym);
		/*
		 * VMCOREINFO_SYMBOL_ARRAY() publishes an array's value: for
		 * a pointer (mem_section under SPARSEMEM_EXTREME,
		 * kernel/crash_core.c) that is what the symbol holds
		 */
		if (addr != want &&
		    (!oc_ok(oc_mem_read_u64(&k->mem, addr, &held)) ||
		     held != want))
			return oc_error_format(OC_ERR_FORMAT,
					       "SYMBOL(%s) is 0x%" PRIx64 " in VMCOREINFO, 0x%" PRIx64 " in the table",
					       name, want, addr);
		checked++;
		stext |= !strcmp(name, "_stext");
		uts |= !strcmp(name, "init_uts_ns");
	}
	if (!stext || !uts)
		return oc_error_format(OC_ERR_FORMAT,
				       "the table has no %s to check against VMCOREINFO",
				       stext ? "init_uts_ns" : "_stext");
	*nr_checked_ret = checked;
	return NULL;
}

/* the kernel image as read for the scan: [_stext, init_uts_ns) */
static const uint64_t max_image = 256u << 20;

static struct oc_error *read_image(struct oc_kernel *k, uint64_t start,
				   uint64_t end, uint8_t **img_ret,
				   size_t *len_ret)
{
	size_t len = (size_t)(end - start), missing = 0;
	uint8_t *img = malloc(len);

	if (!img)
		return &oc_enomem;
	for (size_t off = 0; off < len; off += 4096) {
		size_t n = len - off < 4096 ? len - off : 4096;
		struct oc_error *err = oc_mem_read(&k->mem, start + off,
						   img + off, n);

		if (err) {
			oc_error_destroy(err);
			memset(img + off, 0, n);
			missing++;
		}
	}
	if (missing == (len + 4095) / 4096) {
		free(img);
		return oc_error_format(OC_ERR_FAULT,
				       "none of the kernel image 0x%" PRIx64 "..0x%" PRIx64 " is in the dump",
				       start, end);
	}
	*img_ret = img;
	*len_ret = len;
	return NULL;
}

/*
 * No kallsyms entries in VMCOREINFO (before 6.0): find the tables in the
 * kernel image in the dump, between _stext and init_uts_ns (.text, then
 * .rodata, which holds them, then .data: arch/x86/kernel/vmlinux.lds.S),
 * and keep the first candidate that decodes and agrees with VMCOREINFO.
 */
static struct oc_error *kallsyms_scan(struct oc_kernel *k,
				      struct oc_kallsyms_info *info)
{
	struct oc_kallsyms_loc cands[8];
	uint64_t stext = vmcoreinfo_symbol(k, "_stext");
	uint64_t end = vmcoreinfo_symbol(k, "init_uts_ns");
	struct oc_error *first = NULL, *err;
	bool first_decoded = false;
	const char *why;
	uint8_t *img = NULL;
	size_t len = 0, n;

	if (!stext || !end || end <= stext || end - stext > max_image)
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "VMCOREINFO's SYMBOL(_stext) 0x%" PRIx64 " and SYMBOL(init_uts_ns) 0x%" PRIx64
				       " do not bound a kernel image to search",
				       stext, end);
	err = read_image(k, stext, end, &img, &len);
	if (err)
		return err;
	n = oc_kallsyms_scan(img, len, stext,
			     k->version >= OC_KERNEL_VERSION(6, 1, 0), cands,
			     sizeof(cands) / sizeof(cands[0]), &why);
	free(img);
	if (!n)
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "%s in the kernel image 0x%" PRIx64 "..0x%" PRIx64,
				       why, stext, end);
	for (size_t i = 0; i < n; i++) {
		struct oc_symtab syms, percpu;
		size_t checked;
		bool decoded;

		cands[i].stext = stext;
		oc_symtab_init(&syms);
		oc_symtab_init(&percpu);
		syms.ties = k->syms.ties;
		percpu.ties = k->percpu_syms.ties;
		err = oc_kallsyms_read(&k->mem, &cands[i], &syms, &percpu, info);
		decoded = !err;
		if (!err)
			err = check_vmcoreinfo(k, &syms, &checked);
		if (!err) {
			oc_error_destroy(first);
			oc_symtab_deinit(&k->syms);
			oc_symtab_deinit(&k->percpu_syms);
			k->syms = syms;
			k->percpu_syms = percpu;
			return NULL;
		}
		oc_symtab_deinit(&syms);
		oc_symtab_deinit(&percpu);
		/* the most telling error: a table that decoded but disagrees */
		if (!first || (decoded && !first_decoded)) {
			oc_error_destroy(first);
			first = err;
			first_decoded = decoded;
		} else {
			oc_error_destroy(err);
		}
	}
	return first;
}

struct oc_error *oc_kmodel_kallsyms(struct oc_kernel *k, bool scan)
{
	struct oc_kallsyms_loc loc = {
		.names = vmcoreinfo_symbol(k, "kallsyms_names"),
		.num_syms = vmcoreinfo_symbol(k, "kallsyms_num_syms"),
		.token_table = vmcoreinfo_symbol(k, "kallsyms_token_table"),
		.token_index = vmcoreinfo_symbol(k, "kallsyms_token_index"),
		.offsets = vmcoreinfo_symbol(k, "kallsyms_offsets"),
		.relative_base = vmcoreinfo_symbol(k, "kallsyms_relative_base"),
		.addresses = vmcoreinfo_symbol(k, "kallsyms_addresses"),
		.stext = vmcoreinfo_symbol(k, "_stext"),
		/* "big" symbols since 6.1 (73bbb94466fd); verified by markers */
		.long_names = k->version >= OC_KERNEL_VERSION(6, 1, 0),
	};
	struct oc_kallsyms_info info;
	struct oc_error *err;

	bool listed = loc.names && loc.num_syms && loc.token_table &&
		      loc.token_index && (loc.offsets || loc.addresses);

	if (scan || !listed) {
		err = kallsyms_scan(k, &info);
		if (err) {
			char buf[300];

			oc_error_take(err, buf, sizeof(buf));
			return oc_error_file(OC_ERR_UNSUPPORTED, oc_dump_path(k->dump),
					     "%s kernel %s, and the search of its image in the dump found none to trust: %s; a vmlinux is needed",
					     listed ? "kallsyms search forced on" :
					     "VMCOREINFO has no kallsyms tables (6.0+ lists them) for",
					     k->release, buf);
		}
	} else {
		err = oc_kallsyms_read(&k->mem, &loc, &k->syms,
				       &k->percpu_syms, &info);
		if (err)
			return dump_error(k, err, "reading kallsyms");
	}
	if (!info.markers_checked)
		oc_kernel_warn(k, "kallsyms: kallsyms_markers did not confirm the names (%s lengths assumed)",
			       info.long_names ? "two-byte" : "one-byte");
	read_banner(k);
	return NULL;
}

/*
 * [__start_NAME, __stop_NAME) from the symbol table, size-checked;
 * *data_ret is malloc'ed.
 */
static struct oc_error *read_bounded(struct oc_kernel *k, const char *start,
				     const char *stop, uint64_t max,
				     uint64_t *addr_ret, void **data_ret,
				     size_t *len_ret)
{
	uint64_t a = sym_addr(k, start);
	uint64_t b = sym_addr(k, stop);
	struct oc_error *err;
	void *data;

	if (!a || !b)
		return oc_error_format(OC_ERR_LOOKUP, "no %s symbol",
				       a ? stop : start);
	if (b < a || b - a > max)
		return oc_error_format(OC_ERR_FORMAT,
				       "%s..%s is 0x%" PRIx64 "..0x%" PRIx64
				       ": not a plausible section", start, stop,
				       a, b);
	data = malloc(b - a ? b - a : 1);
	if (!data)
		return &oc_enomem;
	err = oc_mem_read(&k->mem, a, data, b - a);
	if (err) {
		free(data);
		return err;
	}
	*addr_ret = a;
	*data_ret = data;
	*len_ret = b - a;
	return NULL;
}

struct oc_error *oc_kmodel_btf_from_memory(struct oc_kernel *k)
{
	uint64_t addr;
	void *data;
	size_t len;
	struct oc_error *err;

	err = read_bounded(k, "__start_BTF", "__stop_BTF", max_btf_size, &addr,
			   &data, &len);
	if (err && err->code != OC_ERR_LOOKUP)
		return dump_error(k, err, "reading BTF (__start_BTF..__stop_BTF)");
	if (err) {
		char buf[200];

		oc_error_take(err, buf, sizeof(buf));
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "no BTF in the dump (%s): kernel built without CONFIG_DEBUG_INFO_BTF? a vmlinux with .BTF is needed",
				       buf);
	}
	err = oc_btf_types_create(data, len, &k->types);
	free(data);
	return err;
}

struct oc_error *oc_kmodel_orc_from_memory(struct oc_kernel *k)
{
	uint64_t ip_addr, orc_addr, hdr_addr;
	void *ip = NULL, *orc = NULL, *hdr = NULL;
	size_t ip_len, orc_len, hdr_len = 0;
	struct oc_error *err;

	err = read_bounded(k, "__start_orc_unwind_ip", "__stop_orc_unwind_ip",
			   max_orc_entries * 4, &ip_addr, &ip, &ip_len);
	if (!err)
		err = read_bounded(k, "__start_orc_unwind", "__stop_orc_unwind",
				   max_orc_entries * 6, &orc_addr, &orc,
				   &orc_len);
	if (err && err->code == OC_ERR_LOOKUP) {
		char buf[160];

		oc_error_take(err, buf, sizeof(buf));
		err = oc_error_format(OC_ERR_UNSUPPORTED,
				      "no ORC tables in kallsyms (%s): kernel built without CONFIG_UNWINDER_ORC?",
				      buf);
		goto out;
	}
	if (err) {
		err = dump_error(k, err, "reading the ORC tables");
		goto out;
	}
	/* .orc_header (6.4+, commit b9f174c811e3): the format's hash */
	if (sym_addr(k, "__start_orc_header")) {
		err = read_bounded(k, "__start_orc_header",
				   "__stop_orc_header", 64, &hdr_addr, &hdr,
				   &hdr_len);
		if (err)
			goto out;
	}
	/* without a header, 6.4+ is refused there: the hash is the only truth */
	err = oc_orc_detect_version(hdr, hdr_len, k->release, &k->orc_version);
	if (!err)
		err = oc_orc_table_parse(&k->orc, k->orc_version, ip_addr, ip,
					 ip_len, orc, orc_len);
out:
	free(ip);
	free(orc);
	free(hdr);
	return err;
}
