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
 *
 * symcheck --scan VMCORE VMLINUX: the dump-only side finds the kallsyms
 * tables by their shape in the kernel image (what kernels before 6.0
 * need) although VMCOREINFO lists them; first every symbol it decodes
 * (name, address, type, in order, per-CPU ones too) must be the one the
 * listed tables give, then the lookups above.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\n";
}

static struct oc_kernel *open_kernel(const char *vmcore, const char *vmlinux,
				     bool no_vmlinux, bool scan)
{
	struct oc_kernel_options ko = { .no_vmlinux = no_vmlinux,
					.kallsyms_scan = scan };
	struct oc_kernel *k = NULL;
	struct oc_error *err = oc_kernel_open(vmcore, vmlinux, &ko, &k);

	if (err) {
		oc_error_fprint(stderr, err);
		oc_error_destroy(err);
		return NULL;
	}
	return k;
}

/* Every symbol of @a and @b the same, in the same order; the count differing. */
static size_t same_table(const char *what, const struct oc_symtab *a,
			 const struct oc_symtab *b)
{
	size_t differ = a->nr != b->nr;

	if (differ)
		printf("%s: %zu symbols found by the search, %zu listed\n",
		       what, a->nr, b->nr);
	for (size_t i = 0; i < a->nr && i < b->nr; i++) {
		const struct oc_symbol *x = &a->syms[i], *y = &b->syms[i];

		if (oc_symtab_addr(a, x) == oc_symtab_addr(b, y) && x->type == y->type &&
		    !strcmp(oc_symtab_name(a, x), oc_symtab_name(b, y)))
			continue;
		if (differ++ < (getenv("SYMCHECK_ALL") ? SIZE_MAX : 20))
			printf("%s %zu: search %c %s 0x%" PRIx64 ", listed %c %s 0x%" PRIx64 "\n",
			       what, i, x->type, oc_symtab_name(a, x), oc_symtab_addr(a, x),
			       y->type, oc_symtab_name(b, y), oc_symtab_addr(b, y));
	}
	return differ;
}

int main(int argc, char **argv)
{
	struct oc_kernel *kv, *km, *kl = NULL;
	size_t n = 0, aliased = 0, differ = 0;
	bool scan = argc == 4 && !strcmp(argv[1], "--scan");

	if (argc != 3 && !scan) {
		fprintf(stderr, "usage: symcheck [--scan] VMCORE VMLINUX\n");
		return 2;
	}
	argv += scan;
	kv = open_kernel(argv[1], argv[2], false, false);
	km = open_kernel(argv[1], argv[2], true, scan);
	if (scan)
		kl = open_kernel(argv[1], argv[2], true, false);
	if (!kv || !km || (scan && !kl)) {
		if (kv)
			oc_kernel_close(kv);
		if (km)
			oc_kernel_close(km);
		if (kl)
			oc_kernel_close(kl);
		return 2;
	}
	if (kl) {
		size_t d = same_table("kallsyms", &km->syms, &kl->syms) +
			   same_table("per-CPU", &km->percpu_syms,
				      &kl->percpu_syms);

		printf("search: %zu symbols, %zu per-CPU, %zu differ from the listed tables\n",
		       km->syms.nr, km->percpu_syms.nr, d);
		oc_kernel_close(kl);
		if (d) {
			oc_kernel_close(kv);
			oc_kernel_close(km);
			return 1;
		}
	}
	/* the kernel's table (dump memory) decides which addresses count:
	 * the vmlinux has symbols kallsyms leaves out */
	for (size_t i = 0; i < km->syms.nr; i++) {
		const struct oc_symbol *m = &km->syms.syms[i], *v;
		uint64_t addr = oc_symtab_addr(&km->syms, m);
		const char *mn, *vn;

		/* (one table: the values compare as the addresses do) */
		if (i && km->syms.syms[i - 1].value == m->value)
			continue;
		if (!m->size)
			continue;	/* the last one, or an absolute symbol */
		n++;
		if (i + 1 < km->syms.nr && km->syms.syms[i + 1].value == m->value)
			aliased++;
		v = oc_symtab_lookup(&kv->syms, addr);
		m = oc_symtab_lookup(&km->syms, addr);
		mn = m ? oc_symtab_name(&km->syms, m) : "(none)";
		vn = v ? oc_symtab_name(&kv->syms, v) : "(none)";
		if (!v || !m || oc_symtab_addr(&kv->syms, v) != oc_symtab_addr(&km->syms, m) ||
		    strcmp(mn, vn)) {
			if (differ++ < (getenv("SYMCHECK_ALL") ? SIZE_MAX : 20))
				printf("0x%" PRIx64 ": kallsyms %s, vmlinux %s\n",
				       addr, mn, vn);
		}
	}
	printf("%zu addresses, %zu with aliases, %zu differ\n", n, aliased,
	       differ);
	oc_kernel_close(kv);
	oc_kernel_close(km);
	return differ ? 1 : 0;
}
