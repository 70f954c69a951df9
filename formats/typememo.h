/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A types backend that remembers another's answers: the sizes, members
 * and enumerators a run asked of the kernel's BTF, kept as bytes between
 * runs (src/typecache.c) so that the next run over the same vmlinux
 * answers them without the BTF.  Opening a vmlinux's BTF is libbpf's
 * copy of its ~4 MB and a check of every type, then the name index
 * (formats/btf.c): a fifth of a sample report's time, and 4.5 MB of fresh
 * memory.  Here the backend is made on the first question the memo
 * cannot answer (by @load), or given at once; every answer it gives is
 * added to the memo.  Printing and completion (the commands') always go
 * to the backend.  Answers are the backend's exactly: errors with their
 * code and message (not one with a path or an address: those are asked
 * again).  Thread-safe: one lock around the memo and the loading.
 */
#ifndef OC_FORMATS_TYPEMEMO_H
#define OC_FORMATS_TYPEMEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "types.h"

/* Make the backend the memo stands for (called once, under the lock). */
typedef struct oc_error *(*oc_types_load_fn)(void *arg, struct oc_types **ret);

/*
 * A memo over @backend (taken; NULL: made by @load(@arg) when first
 * needed), holding the answers in @bytes (@len; NULL/0: none) as
 * oc_types_memo_write() wrote them.  Bytes that do not parse are
 * OC_ERR_FORMAT (and @backend is not taken).
 */
struct oc_error *oc_types_memo_create(struct oc_types *backend,
				      oc_types_load_fn load, void *arg,
				      const void *bytes, size_t len,
				      struct oc_types **ret);
/* Whether @types is a memo. */
bool oc_types_is_memo(const struct oc_types *types);
/* The backend behind memo @types, made now if it was not yet (its error
 * when that fails); any other @types is its own backend. */
struct oc_error *oc_types_memo_backend(struct oc_types *types,
				       struct oc_types **ret);
/* Answers were added since the memo was made: worth writing. */
bool oc_types_memo_changed(const struct oc_types *types);
/* How many questions the memo answered, how many went to the backend,
 * and whether the backend was made (for a debug line). */
void oc_types_memo_stats(const struct oc_types *types, size_t *answered_ret,
			 size_t *asked_ret, bool *loaded_ret);
/* The memo's answers as bytes, for oc_types_memo_create(). */
struct oc_error *oc_types_memo_write(const struct oc_types *types, FILE *fp);

#endif /* OC_FORMATS_TYPEMEMO_H */
