/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the kernel model (src/kernel*.c): the reading steps. */
#ifndef OC_KMODEL_H
#define OC_KMODEL_H

#include "kernel.h"

void oc_kernel_warn(struct oc_kernel *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The warning "FMT...: ERROR", and @err destroyed. */
void oc_kernel_warn_err(struct oc_kernel *k, struct oc_error *err,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct oc_error *oc_kernel_offsetof(struct oc_kernel *k, const char *type,
				    const char *member, uint64_t *ret);
struct oc_error *oc_kernel_read_member(struct oc_kernel *k, uint64_t obj,
				       const char *type, const char *member,
				       uint64_t *ret);

/* kernel_cpus.c: CPUs, per-CPU offsets, current tasks, stacks, registers */
struct oc_error *oc_kmodel_read_cpus(struct oc_kernel *k);
struct oc_error *oc_kmodel_read_stacks(struct oc_kernel *k);
void oc_kmodel_read_regs(struct oc_kernel *k);
/* kernel_tasks.c; @later: the CPUs' tasks now, the rest in a thread of
 * its own (oc_kernel_tasks_sync()); oc_kmodel_tasks_stop() ends it */
struct oc_error *oc_kmodel_read_tasks(struct oc_kernel *k, size_t max_tasks,
				      bool later);
void oc_kmodel_tasks_stop(struct oc_kernel *k);
/* kernel.c: why pages the model missed are missing, when the kernel says
 * (the dump's reader and @other's, if not NULL) */
void oc_kmodel_explain_missing(struct oc_kernel *k,
			       const struct oc_kernel_reader *other);
/* kernel.c: the pages @from missed as missed by the calling thread's
 * reader (its own, or the dump's first), for the explanation above */
void oc_kmodel_reader_add_missing(const struct oc_kernel *k,
				  const struct oc_kernel_reader *from);
/* kernel_modules.c */
struct oc_error *oc_kmodel_read_modules(struct oc_kernel *k,
					size_t max_modules,
					uint64_t max_orcs, uint64_t max_syms);
/* kernel_nov.c: the dump-only path (no vmlinux) */
struct oc_error *oc_kmodel_kallsyms(struct oc_kernel *k, bool scan);
struct oc_error *oc_kmodel_btf_from_memory(struct oc_kernel *k);
struct oc_error *oc_kmodel_orc_from_memory(struct oc_kernel *k);

#endif /* OC_KMODEL_H */
