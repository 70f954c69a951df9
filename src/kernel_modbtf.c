// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The modules' own types: each loaded module's split BTF, read from the
 * dump, behind the kernel's BTF for the commands (struct, p, the
 * browser's struct views).
 *
 * Where the kernel keeps it (kernel/bpf/btf.c, CONFIG_DEBUG_INFO_BTF_MODULES,
 * from 5.11: commit 36e68442d1af "bpf: Load and verify kernel module
 * BTFs"): btf_module_notify() parses the module's .BTF section into a
 * struct btf whose ->data is a kvmalloc'd copy of it (btf_parse_module())
 * and links a struct btf_module { list; module; btf; ... } into the
 * static list btf_modules.  mod->btf_data itself cannot be used: .BTF is
 * not SHF_ALLOC and do_init_module() sets the pointer to NULL once the
 * module is live (commit 607c543f939d).  So this walks btf_modules, as
 * /sys/kernel/btf/NAME serves the same bytes (btf_module_read()).
 *
 * Read on first use, never at open: the kernel model's own lookups go
 * to k->types alone (a type a release lacks is a normal miss there and
 * must not cost every module's BTF).  A module whose BTF the kernel
 * relocated against a distilled base (6.11+, out-of-tree modules built
 * by pahole 1.28+: the samples' test module on 7.2 has a .BTF.base)
 * has its ids and string offsets already rewritten to the vmlinux's
 * (kernel/bpf/btf_relocate.c, in place in ->data): libbpf reads it as
 * any split BTF.  Checked by hand on 7.2's kdump: bpftool's dump of
 * those bytes over the vmlinux's BTF gives orccrash_abba() its
 * (struct mutex *, struct completion *, ...) prototype.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "kernel.h"
#include "kmodel.h"
#include "typememo.h"

enum {
	MAX_MODULE_BTF = 64 << 20,	/* bytes: the largest in Debian's 7.2 is ~1.5 MiB */
};

/* One module's BTF from its struct btf at @btf, or why not. */
static struct oc_error *read_module_btf(struct oc_kernel *k, uint64_t btf,
					struct oc_types **ret)
{
	uint64_t data, size;
	struct oc_error *err;
	void *buf;

	if ((err = oc_kernel_read_member(k, btf, "struct btf", "data", &data)) ||
	    (err = oc_kernel_read_member(k, btf, "struct btf", "data_size", &size)))
		return err;
	if (!data || size < 24 || size > MAX_MODULE_BTF)
		return oc_error_format(OC_ERR_FORMAT, "BTF of %" PRIu64 " bytes at 0x%" PRIx64,
				       size, data);
	if (!(buf = malloc(size)))
		return &oc_enomem;
	err = oc_mem_read(&k->mem, data, buf, size);
	if (!err) {
		struct oc_types *base;

		/* over the kernel's BTF itself, not its memo (typememo.h) */
		err = oc_types_memo_backend(k->types, &base);
		if (!err)
			err = oc_btf_types_create_split(buf, size, base, ret);
	}
	free(buf);
	return err;
}

/*
 * Walk btf_modules once, setting each listed module's ->btf.  A module
 * not listed has none (built without BTF, or a kernel before 5.11).
 * Problems become warnings: the vmlinux's types still work.
 */
static void read_modules_btf(struct oc_kernel *k)
{
	uint64_t head, node, list_off, mod_off, btf_off;
	struct oc_error *err;
	size_t n = 0;

	k->modules_btf_read = true;
	head = oc_kernel_symbol_addr(k, "btf_modules");
	if (!head || !k->nr_modules)
		return;
	if ((err = oc_kernel_offsetof(k, "struct btf_module", "list", &list_off)) ||
	    (err = oc_kernel_offsetof(k, "struct btf_module", "module", &mod_off)) ||
	    (err = oc_kernel_offsetof(k, "struct btf_module", "btf", &btf_off)) ||
	    (err = oc_mem_read_u64(&k->mem, head, &node))) {
		oc_kernel_warn_err(k, err, "modules' BTF: btf_modules");
		return;
	}
	/* one entry per module that has BTF: a longer walk is a loop */
	for (; node != head; n++) {
		uint64_t bm = node - list_off, mod, btf;
		struct oc_module *m = NULL;

		if (n > k->nr_modules || (int64_t)node >= 0) {	/* not a kernel address */
			oc_kernel_warn(k, "modules' BTF: btf_modules corrupt at 0x%" PRIx64
				       " (the modules' types after it not read)", node);
			return;
		}
		if ((err = oc_mem_read_u64(&k->mem, bm + mod_off, &mod)) ||
		    (err = oc_mem_read_u64(&k->mem, bm + btf_off, &btf))) {
			oc_kernel_warn_err(k, err, "modules' BTF: btf_modules entry at 0x%" PRIx64, bm);
			return;
		}
		for (size_t i = 0; i < k->nr_modules; i++)
			if (k->modules[i].addr == mod)
				m = &k->modules[i];
		if (m && !m->btf && btf &&
		    (err = read_module_btf(k, btf, &m->btf)))
			oc_kernel_warn_err(k, err, "module %s: BTF", m->name);
		if ((err = oc_mem_read_u64(&k->mem, node, &node))) {
			oc_kernel_warn_err(k, err, "modules' BTF: btf_modules");
			return;
		}
	}
}

struct oc_types *oc_kernel_module_btf(struct oc_kernel *k,
					    const struct oc_module *m)
{
	if (!k->modules_btf_read && k->types)
		read_modules_btf(k);
	return m->btf;
}

/* ---- the kernel's types, then each module's ------------------------- */

/*
 * The @i-th backend: the kernel's BTF, then every module's that has one
 * (read at the first question that reaches them); NULL past the last.
 */
static struct oc_types *backend(struct oc_kernel *k, size_t i)
{
	if (i == 0)
		return k->types;
	if (!k->modules_btf_read)
		read_modules_btf(k);
	for (size_t j = 0; j < k->nr_modules; j++) {
		if (!k->modules[j].btf)
			continue;
		if (--i == 0)
			return k->modules[j].btf;
	}
	return NULL;
}

/*
 * Each operation asks the backends in turn until one knows the type;
 * the error when none does is the kernel's BTF's (the module BTFs, over
 * the same base, say the same).
 */
#define EACH_BACKEND(k, call)                                            \
	do {                                                             \
		struct oc_error *first = NULL, *err;                     \
		struct oc_types *t;                                      \
		for (size_t i = 0; (t = backend((k), i)); i++) {         \
			err = (call);                                    \
			if (!err || err->code != OC_ERR_LOOKUP) {        \
				oc_error_destroy(first);                 \
				return err;                              \
			}                                                \
			if (first)                                       \
				oc_error_destroy(err);                   \
			else                                             \
				first = err;                             \
		}                                                        \
		return first ? first : oc_error_format(OC_ERR_LOOKUP, "no BTF"); \
	} while (0)

static struct oc_error *all_size(void *arg, const char *type, uint64_t *ret)
{
	EACH_BACKEND((struct oc_kernel *)arg, oc_types_size(t, type, ret));
}

static struct oc_error *all_member(void *arg, const char *type, const char *path,
				   struct oc_member *ret)
{
	EACH_BACKEND((struct oc_kernel *)arg, oc_types_member(t, type, path, ret));
}

static struct oc_error *all_name(void *arg, const char *type, const char *path,
				 char *buf, size_t size)
{
	EACH_BACKEND((struct oc_kernel *)arg, oc_types_name(t, type, path, buf, size));
}

static struct oc_error *all_enum(void *arg, const char *name, int64_t *ret)
{
	EACH_BACKEND((struct oc_kernel *)arg, oc_types_enum_value(t, name, ret));
}

static struct oc_error *all_dump(void *arg, const char *type, const char *path,
				 const void *buf, size_t len, unsigned int flags,
				 oc_types_emit_fn emit, oc_types_symbol_fn symbol, void *ctx)
{
	EACH_BACKEND((struct oc_kernel *)arg,
		     oc_types_dump(t, type, path, buf, len, flags, emit, symbol, ctx));
}

static void all_complete(void *arg, const char *type, const char *path,
			 const char *prefix, oc_types_name_fn fn, void *ctx)
{
	struct oc_types *t;
	uint64_t size;

	for (size_t i = 0; (t = backend(arg, i)); i++) {
		if (!type) {
			oc_types_complete(t, NULL, NULL, prefix, fn, ctx);
		} else if (oc_ok(oc_types_size(t, type, &size))) {
			oc_types_complete(t, type, path, prefix, fn, ctx);
			return;
		}
	}
}

static void all_destroy(void *arg)
{
	(void)arg;	/* the backends are the kernel's */
}

static const struct oc_types_ops all_ops = {
	.type_size = all_size,
	.member = all_member,
	.type_name = all_name,
	.enum_value = all_enum,
	.dump = all_dump,
	.complete = all_complete,
	.destroy = all_destroy,
};

struct oc_types *oc_kernel_all_types(struct oc_kernel *k)
{
	if (!k->types)
		return NULL;
	k->all_types.ops = &all_ops;
	k->all_types.arg = k;
	k->all_types.fallback = NULL;
	return &k->all_types;
}
