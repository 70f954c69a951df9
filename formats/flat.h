/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * makedumpfile's flattened format (makedumpfile -F, QEMU's
 * dump-guest-memory -z/-l/-s): a 4096-byte header starting with
 * "makedumpfile", then records of { be64 offset, be64 size, data },
 * ended by a record whose offset is -1.  Writing each record's data at
 * its offset gives the kdump-compressed file (makedumpfile -R).
 * Debian's libkdumpfile 0.5.1 cannot read it, so formats/dump.c
 * reassembles it into an anonymous file first.
 */
#ifndef OC_FORMATS_FLAT_H
#define OC_FORMATS_FLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum {
	OC_FLAT_HEADER_SIZE = 4096,
	OC_FLAT_RECORD_HEADER_SIZE = 16,
};

/* Read @len bytes of the flattened stream at @offset; short = error. */
typedef struct oc_error *oc_flat_read_fn(void *arg, uint64_t offset,
					  void *buf, size_t len);

struct oc_flat_record {
	uint64_t src;		/* where the data starts in the flattened file */
	uint64_t dst;		/* where it goes in the reassembled file */
	uint64_t size;
};

struct oc_flat_index {
	struct oc_flat_record *records;
	size_t nr, cap;
	uint64_t out_size;	/* size of the reassembled file */
};

/* True if @head (the first bytes of a file) is a flattened-format header. */
bool oc_flat_detect(const void *head, size_t len);

/*
 * Index the records of a stream of @file_size bytes.  A bad header, a
 * negative or overflowing record, a record running past the end of the
 * stream or a missing end marker is an OC_ERR_FORMAT error.
 */
struct oc_error *oc_flat_index(oc_flat_read_fn *read, void *arg,
			       uint64_t file_size, struct oc_flat_index *ret);
void oc_flat_index_deinit(struct oc_flat_index *index);

/* Write the reassembled file to @dst_fd (sized to index->out_size). */
struct oc_error *oc_flat_reassemble(int src_fd, const struct oc_flat_index *index,
				    int dst_fd);

/* oc_flat_read_fn over a file descriptor (@arg points to the int fd). */
struct oc_error *oc_flat_read_fd(void *arg, uint64_t offset, void *buf,
				 size_t len);

#endif /* OC_FORMATS_FLAT_H */
