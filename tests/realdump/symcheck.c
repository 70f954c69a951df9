// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symcheck VMCORE VMLINUX: the vmlinux's symbol table answers address
 * lookups as the crashed kernel's own kallsyms does.  Opens the dump
 * twice — with the vmlinux (symbols from its ELF symtab, ordered by the
 * rules of scripts/kallsyms.c) and without (symbols decoded from the
 * kallsyms tables in dump memory, in the kernel's own order) — and looks
 * up every address that has a symbol in the kernel's table in both.
 * Where several symbols share an address, both must answer the same one:
 * the kernel's kallsyms_lookup() answers the first of them.
 *
 * Prints "N addresses, A with aliases, D differ" and the first
 * differences; exits 1 if any differ, 2 if the dump cannot be opened.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kernel.h"

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

static struct oc_kernel *open_kernel(const char *vmcore, const char *vmlinux,
				     bool no_vmlinux)
{
	struct oc_kernel_options ko = { .no_vmlinux = no_vmlinux };
	struct oc_kernel *k = NULL;
	struct oc_error *err = oc_kernel_open(vmcore, vmlinux, &ko, &k);

	if (err) {
		oc_error_fprint(stderr, err);
		oc_error_destroy(err);
		return NULL;
	}
	return k;
}

int main(int argc, char **argv)
{
	struct oc_kernel *kv, *km;
	size_t n = 0, aliased = 0, differ = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: symcheck VMCORE VMLINUX\n");
		return 2;
	}
	kv = open_kernel(argv[1], argv[2], false);
	km = open_kernel(argv[1], argv[2], true);
	if (!kv || !km) {
		if (kv)
			oc_kernel_close(kv);
		if (km)
			oc_kernel_close(km);
		return 2;
	}
	/* the kernel's table (dump memory) decides which addresses count:
	 * the vmlinux has symbols kallsyms leaves out */
	for (size_t i = 0; i < km->syms.nr; i++) {
		const struct oc_symbol *m = &km->syms.syms[i], *v;
		const char *mn, *vn;

		if (i && km->syms.syms[i - 1].addr == m->addr)
			continue;
		if (!m->size)
			continue;	/* the last one, or an absolute symbol */
		n++;
		if (i + 1 < km->syms.nr && km->syms.syms[i + 1].addr == m->addr)
			aliased++;
		v = oc_symtab_lookup(&kv->syms, m->addr);
		m = oc_symtab_lookup(&km->syms, m->addr);
		mn = m ? oc_symtab_name(&km->syms, m) : "(none)";
		vn = v ? oc_symtab_name(&kv->syms, v) : "(none)";
		if (!v || !m || v->addr != m->addr || strcmp(mn, vn)) {
			if (differ++ < 20)
				printf("0x%" PRIx64 ": kallsyms %s, vmlinux %s\n",
				       km->syms.syms[i].addr, mn, vn);
		}
	}
	printf("%zu addresses, %zu with aliases, %zu differ\n", n, aliased,
	       differ);
	oc_kernel_close(kv);
	oc_kernel_close(km);
	return differ ? 1 : 0;
}
