// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * makedumpfile's flattened format.  The layout mirrors makedumpfile's
 * makedumpfile.h (struct makedumpfile_header, struct
 * makedumpfile_data_header) and QEMU's include/sysemu/dump.h: all
 * integers are big-endian int64.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#include "array.h"
#include "cursor.h"
#include "flat.h"

static const char FLAT_SIGNATURE[] = "makedumpfile";
static const int64_t FLAT_TYPE = 1, FLAT_VERSION = 1;
static const int64_t FLAT_END = -1;
/* no real dump is this big; a bigger offset is garbage */
static const uint64_t FLAT_MAX_OUT = 1ULL << 46;

/* The big-endian int64 at @off of a header read whole (@size bytes). */
static int64_t get_be64(const unsigned char *buf, size_t size, size_t off)
{
	struct oc_cursor c;
	uint64_t v = 0;

	oc_cursor_init(&c, buf, size, "flattened header");
	if (!oc_ok(oc_cursor_seek(&c, off)) || !oc_ok(oc_cursor_be64(&c, &v)))
		return 0;
	return (int64_t)v;
}

bool oc_flat_detect(const void *head, size_t len)
{
	/* signature[16], NUL-padded */
	if (len < 16)
		return false;
	return !memcmp(head, FLAT_SIGNATURE, sizeof(FLAT_SIGNATURE));
}

static struct oc_error *index_add(struct oc_flat_index *index, uint64_t src,
				  uint64_t dst, uint64_t size)
{
	struct oc_flat_record *r = oc_array_grow(index->records, index->nr, 1,
						 &index->cap, sizeof(*r), 256);

	if (!r)
		return &oc_enomem;
	index->records = r;
	index->records[index->nr++] = (struct oc_flat_record){ src, dst, size };
	if (dst + size > index->out_size)
		index->out_size = dst + size;
	return NULL;
}

static struct oc_error *check_header(oc_flat_read_fn *read, void *arg,
				     uint64_t file_size)
{
	unsigned char hdr[32];
	int64_t type, version;
	struct oc_error *err;

	if (file_size < OC_FLAT_HEADER_SIZE)
		return oc_error_format(OC_ERR_FORMAT,
				       "truncated flattened header (%llu bytes)",
				       (unsigned long long)file_size);
	err = read(arg, 0, hdr, sizeof(hdr));
	if (err)
		return err;
	if (!oc_flat_detect(hdr, sizeof(hdr)))
		return oc_error_format(OC_ERR_FORMAT,
				       "not a flattened dump (no makedumpfile signature)");
	type = get_be64(hdr, sizeof(hdr), 16);
	version = get_be64(hdr, sizeof(hdr), 24);
	if (type != FLAT_TYPE || version != FLAT_VERSION)
		return oc_error_format(OC_ERR_UNSUPPORTED,
				       "flattened header type %lld version %lld (want 1, 1)",
				       (long long)type, (long long)version);
	return NULL;
}

void oc_flat_index_deinit(struct oc_flat_index *index)
{
	free(index->records);
	memset(index, 0, sizeof(*index));
}

struct oc_error *oc_flat_index(oc_flat_read_fn *read, void *arg,
			       uint64_t file_size, struct oc_flat_index *ret)
{
	uint64_t pos = OC_FLAT_HEADER_SIZE;
	struct oc_error *err;

	memset(ret, 0, sizeof(*ret));
	err = check_header(read, arg, file_size);
	if (err)
		return err;
	/* each record takes at least 16 bytes, which bounds the loop */
	for (;;) {
		unsigned char rh[OC_FLAT_RECORD_HEADER_SIZE];
		int64_t offset, size;

		if (pos == file_size) {
			err = oc_error_format(OC_ERR_FORMAT,
					      "truncated flattened dump: no end marker after %zu records",
					      ret->nr);
			goto fail;
		}
		if (file_size - pos < sizeof(rh)) {
			err = oc_error_format(OC_ERR_FORMAT,
					      "truncated flattened record header at offset %llu",
					      (unsigned long long)pos);
			goto fail;
		}
		err = read(arg, pos, rh, sizeof(rh));
		if (err)
			goto fail;
		offset = get_be64(rh, sizeof(rh), 0);
		size = get_be64(rh, sizeof(rh), 8);
		if (offset == FLAT_END)
			break;
		pos += sizeof(rh);
		if (offset < 0 || size < 0 ||
		    (uint64_t)offset + (uint64_t)size < (uint64_t)offset ||
		    (uint64_t)offset + (uint64_t)size > FLAT_MAX_OUT) {
			err = oc_error_format(OC_ERR_FORMAT,
					      "bad flattened record at offset %llu (offset %lld, size %lld)",
					      (unsigned long long)pos - sizeof(rh),
					      (long long)offset, (long long)size);
			goto fail;
		}
		if ((uint64_t)size > file_size - pos) {
			err = oc_error_format(OC_ERR_FORMAT,
					      "truncated flattened record at offset %llu: %lld bytes, %llu left",
					      (unsigned long long)pos - sizeof(rh),
					      (long long)size,
					      (unsigned long long)(file_size - pos));
			goto fail;
		}
		if (size) {
			err = index_add(ret, pos, offset, size);
			if (err)
				goto fail;
		}
		pos += size;
	}
	if (!ret->nr) {
		err = oc_error_format(OC_ERR_FORMAT, "empty flattened dump");
		goto fail;
	}
	return NULL;
fail:
	oc_flat_index_deinit(ret);
	return err;
}

/* All of @len bytes at @offset, EINTR retried; the end of the file is
 * an error. */
static struct oc_error *pread_all(int fd, char *p, size_t len, uint64_t offset)
{
	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return oc_error_os(errno, NULL, "pread at %llu",
					   (unsigned long long)offset);
		if (n == 0)
			return oc_error_format(OC_ERR_FORMAT, "unexpected end of file at offset %llu",
					       (unsigned long long)offset);
		p += n;
		len -= n;
		offset += n;
	}
	return NULL;
}

struct oc_error *oc_flat_read_fd(void *arg, uint64_t offset, void *buf,
				 size_t len)
{
	return pread_all(*(int *)arg, buf, len, offset);
}

/* All of @iov[0..@nr) written at @offset, EINTR and short writes retried
 * (@iov is advanced past what was written). */
static struct oc_error *pwritev_all(int fd, struct iovec *iov, int nr,
				    uint64_t offset)
{
	while (nr) {
		ssize_t n = pwritev(fd, iov, nr, (off_t)offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return oc_error_os(errno, NULL,
					   "writing the reassembled dump at %llu",
					   (unsigned long long)offset);
		if (n == 0)
			return oc_error_format(OC_ERR_FORMAT,
					       "no room to write at offset %llu",
					       (unsigned long long)offset);
		offset += (uint64_t)n;
		while (nr && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			nr--;
		}
		if (nr) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return NULL;
}

/*
 * The stream is read in windows of WINDOW bytes, and each run of
 * records that follow each other in the output is written with one
 * pwritev(2): makedumpfile writes its records (mostly 16 KB) in output
 * order, so a 48 MB sample's 3,179 records take ~50 reads and ~200
 * writes instead of 3,179 of each.  Runs are written in record order, so
 * a record that overlaps an earlier one overwrites it, as makedumpfile
 * -R's writes in stream order do.
 */
enum { WINDOW = 1 << 20, RUN_IOV = 64 };

struct run {
	struct iovec iov[RUN_IOV];
	int nr;
	uint64_t dst, len;
};

static struct oc_error *run_flush(int fd, struct run *run)
{
	struct oc_error *err = NULL;

	if (run->nr)
		err = pwritev_all(fd, run->iov, run->nr, run->dst);
	run->nr = 0;
	run->len = 0;
	return err;
}

struct oc_error *oc_flat_reassemble(int src_fd, const struct oc_flat_index *index,
				    int dst_fd)
{
	struct oc_error *err = NULL;
	/* the records are in stream order: the last one ends the data */
	uint64_t src_end, wstart = 0, wend = 0;
	struct run run = { .nr = 0 };
	char *buf;

	/* size it first: unwritten ranges stay holes, read back as zeros */
	if (ftruncate(dst_fd, index->out_size) < 0)
		return oc_error_os(errno, NULL,
				   "sizing the reassembled dump to %llu bytes",
				   (unsigned long long)index->out_size);
	if (!index->nr)
		return NULL;
	src_end = index->records[index->nr - 1].src +
		  index->records[index->nr - 1].size;
	buf = malloc(WINDOW);
	if (!buf)
		return &oc_enomem;
	for (size_t i = 0; i < index->nr && !err; i++) {
		const struct oc_flat_record *r = &index->records[i];

		if (r->size > WINDOW) {
			/* a big record on its own, a window at a time */
			err = run_flush(dst_fd, &run);
			wstart = wend = 0;
			for (uint64_t done = 0; done < r->size && !err;) {
				size_t n = r->size - done < WINDOW ? r->size - done : WINDOW;
				struct iovec v = { buf, n };

				err = oc_flat_read_fd(&src_fd, r->src + done, buf, n);
				if (!err)
					err = pwritev_all(dst_fd, &v, 1, r->dst + done);
				done += n;
			}
			continue;
		}
		if (r->src < wstart || r->src + r->size > wend) {
			/* the run's data is in the window: write it first */
			err = run_flush(dst_fd, &run);
			if (err)
				break;
			wstart = r->src;
			wend = src_end - wstart < WINDOW ? src_end : wstart + WINDOW;
			err = oc_flat_read_fd(&src_fd, wstart, buf, wend - wstart);
			if (err)
				break;
		}
		if (run.nr && (run.dst + run.len != r->dst || run.nr == RUN_IOV)) {
			err = run_flush(dst_fd, &run);
			if (err)
				break;
		}
		if (!run.nr)
			run.dst = r->dst;
		run.iov[run.nr++] = (struct iovec){ buf + (r->src - wstart), r->size };
		run.len += r->size;
	}
	if (!err)
		err = run_flush(dst_fd, &run);
	free(buf);
	return err;
}
