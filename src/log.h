/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's printk log, read from dump memory.
 *
 * Two formats:
 *  - the lockless ring buffer of 5.10+ (kernel/printk/printk_ringbuffer.[ch],
 *    commit 896fbe20b4e2 "printk: use the lockless ringbuffer"): the
 *    `prb` pointer, a descriptor ring with a parallel printk_info array,
 *    and a text data ring of ID-prefixed blocks;
 *  - the variable-length `log_buf` of struct printk_log records
 *    (3.11 - 5.9; "struct log" in 3.5 - 3.10).
 *
 * Struct layouts come from BTF/DWARF (struct oc_types) when available,
 * else from the OFFSET()/SIZE() lines the kernel exports in VMCOREINFO
 * (kernel/printk/printk.c log_buf_vmcoreinfo_setup()).
 *
 * Dump data is hostile: every size and index is checked against the
 * ring sizes and a malformed record is skipped and counted, never
 * followed.
 */
#ifndef OC_LOG_H
#define OC_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "mem.h"
#include "types.h"

struct oc_vmcoreinfo;

/* What oc_log_read() needs from the kernel model. */
struct oc_log_env {
	const struct oc_mem *mem;
	struct oc_types *types;		/* may be NULL */
	const struct oc_vmcoreinfo *vmcoreinfo;	/* may be NULL */
	/* Relocated address of a vmlinux symbol, 0 if unknown; may be
	 * NULL.  VMCOREINFO's SYMBOL(name) is used when it cannot answer. */
	uint64_t (*symbol)(void *arg, const char *name);
	void *arg;
};

enum oc_log_format {
	OC_LOG_NONE,
	OC_LOG_RINGBUFFER,	/* 5.10+ lockless printk_ringbuffer */
	OC_LOG_LEGACY,		/* 3.5 - 5.9 struct printk_log records */
};

/* Caps on what hostile dump data can make us allocate or loop over. */
enum {
	OC_LOG_MAX_RECORDS = 1 << 20,
	OC_LOG_MAX_BUF_BITS = 28,	/* 256 MiB of text */
	OC_LOG_MAX_DESC_BITS = 23,
};

struct oc_log_record {
	uint64_t seq;
	uint64_t ts_nsec;
	uint32_t caller_id;	/* 0x80000000 | cpu, or a pid; 0 if unknown */
	uint8_t level;		/* 0 (KERN_EMERG) .. 7 (KERN_DEBUG) */
	uint8_t facility;
	uint8_t flags;		/* LOG_NEWLINE 2, LOG_CONT 8 */
	const char *text;	/* not NUL-terminated; may contain '\n' */
	size_t len;
};

struct oc_log {
	enum oc_log_format format;
	struct oc_log_record *records;	/* oldest first */
	size_t nr;
	char *pool;			/* owns the text the records point into */
	/* records whose text the kernel itself no longer has: reserved or
	 * reusable descriptors, overwritten slots, FAILED_LPOS blocks,
	 * unreadable dump pages */
	size_t nr_lost;
	/* records skipped because they break the format's invariants */
	size_t nr_bad;
	bool truncated;			/* stopped at OC_LOG_MAX_RECORDS */
	/* the first anomaly seen, for a warning line; "" if none */
	char note[160];
};

/*
 * Read the log.  On success @ret owns its records (free with
 * oc_log_deinit(), also safe after a failure).  Fails only when the log
 * cannot be found or its headers are unreadable or absurd; bad records
 * are skipped and counted.
 */
struct oc_error *oc_log_read(const struct oc_log_env *env, struct oc_log *ret);
void oc_log_deinit(struct oc_log *log);

/* "[   12.345678] " like the kernel's print_time(); returns its length. */
size_t oc_log_format_time(uint64_t ts_nsec, char *buf, size_t size);
/*
 * Each line of each record, split as the kernel's record_print_text()
 * does: @fn gets the record, its oc_log_format_time() prefix and the
 * line without its '\n' (a record's text is at least one line).
 */
typedef void oc_log_line_fn(void *arg, const struct oc_log_record *rec,
			    const char *prefix, const char *line, size_t len);
void oc_log_each_line(const struct oc_log *log, oc_log_line_fn *fn,
		      void *arg);
/*
 * dmesg-style text: "[   12.345678] text" for each line of each record,
 * control characters other than tab escaped as \xNN.
 */
void oc_log_print(const struct oc_log *log, FILE *out);
/*
 * The panic message: the rest of the line after "Kernel panic - not
 * syncing: " in the last record that has it, copied into @buf (always
 * NUL-terminated); NULL if no record has it.
 */
const char *oc_log_panic_message(const struct oc_log *log, char *buf,
				 size_t size);

#endif /* OC_LOG_H */
