// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kdump-compressed file's headers (makedumpfile, QEMU
 * dump-guest-memory -z/-l/-s): checked before libkdumpfile trusts them
 * (it allocates its bitmaps and VMCOREINFO by these sizes), whether the
 * file was cut or marked incomplete, and the note area the sub-header
 * names (formats/dump_notes.c).  libkdumpfile's diskdump.c reads the
 * same.
 */
#include <inttypes.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zstd.h>

#include "cursor.h"
#include "dl.h"
#include "dumppriv.h"

/*
 * The header, from makedumpfile's diskdump_mod.h (struct
 * disk_dump_header, struct kdump_sub_header) for x86-64; only the
 * fields we use, by offset.
 */
enum {
	KDUMP_HDR_VERSION = 8,		/* int header_version */
	KDUMP_HDR_MACHINE = 272,	/* struct new_utsname's machine[65] */
	KDUMP_HDR_MACHINE_LEN = 65,
	KDUMP_HDR_STATUS = 424,		/* unsigned int status */
	KDUMP_HDR_BLOCK_SIZE = 428,	/* int block_size */
	KDUMP_HDR_SUB_HDR_SIZE = 432,	/* int sub_hdr_size (blocks) */
	KDUMP_HDR_BITMAP_BLOCKS = 436,	/* unsigned int bitmap_blocks */
	KDUMP_HDR_MAX_MAPNR = 440,	/* unsigned int max_mapnr */
	KDUMP_HDR_MIN = OC_DUMP_KDUMP_HDR_MIN,
	/* struct kdump_sub_header */
	KDUMP_SUB_SPLIT = 12,			/* int split, version >= 2 */
	KDUMP_SUB_OFFSET_VMCOREINFO = 32,	/* version >= 3 */
	KDUMP_SUB_SIZE_VMCOREINFO = 40,
	KDUMP_SUB_OFFSET_NOTE = 48,		/* version >= 4 */
	KDUMP_SUB_SIZE_NOTE = 56,
	KDUMP_SUB_OFFSET_ERASEINFO = 64,	/* version >= 5 */
	KDUMP_SUB_SIZE_ERASEINFO = 72,
	KDUMP_SUB_MAX_MAPNR_64 = 96,		/* version >= 6 */
	KDUMP_SUB_MIN = 104,
	/* status: makedumpfile could not write the whole dump (ENOSPC) */
	KDUMP_DH_COMPRESSED_INCOMPLETE = 0x8,
	/* struct page_desc: off, size, flags, page_flags */
	KDUMP_PAGE_DESC_SIZE = 24,
	/* page_desc.flags (makedumpfile's diskdump_mod.h) */
	KDUMP_COMPRESSED_ZLIB = 0x1,
	KDUMP_COMPRESSED_LZO = 0x2,
	KDUMP_COMPRESSED_SNAPPY = 0x4,
	KDUMP_COMPRESSED_ZSTD = 0x20,
	KDUMP_COMPRESSED = KDUMP_COMPRESSED_ZLIB | KDUMP_COMPRESSED_LZO |
			   KDUMP_COMPRESSED_SNAPPY | KDUMP_COMPRESSED_ZSTD,
	KDUMP_PAGE = 4096,
	/* a page's rank: set bits counted before each block of this many */
	KDUMP_RANK_BITS = 1024,
};

/* The @n-byte little-endian field at @off of a header or descriptor
 * buffer of @size bytes; 0 if it is not inside. */
static uint64_t field(const unsigned char *buf, size_t size, size_t off,
		      size_t n)
{
	struct oc_cursor c;
	uint64_t v = 0;

	oc_cursor_init(&c, buf, size, "kdump header");
	if (!oc_ok(oc_cursor_seek(&c, off)) || !oc_ok(oc_cursor_le(&c, n, &v)))
		return 0;
	return v;
}

/* [off, off + size) lies inside a file of @file_size bytes */
static bool in_file(uint64_t off, uint64_t size, uint64_t file_size)
{
	return off <= file_size && size <= file_size - off;
}

/*
 * The dump bitmap (the second of the two) is kept, one bit per page
 * frame, up to this size (8 TiB of RAM): fill_page() in formats/dump.c
 * asks it before libkdumpfile, which is never asked for an excluded page
 * (why: formats/dump.c).  A larger one is only counted.
 */
#define KDUMP_BITMAP_KEEP_MAX (256u << 20)

/*
 * The set bits of @n bytes: 8 at a time, by the shifts and masks of
 * Hacker's Delight 5-1 (x86-64's baseline has no POPCNT: gcc's
 * __builtin_popcount is a call into libgcc for every byte).
 */
static uint64_t popcount_bytes(const unsigned char *p, size_t n)
{
	uint64_t sum = 0, x;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&x, p, 8);
		x -= (x >> 1) & 0x5555555555555555ULL;
		x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
		x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
		sum += (x * 0x0101010101010101ULL) >> 56;
	}
	for (; n; p++, n--)
		for (unsigned int b = *p; b; b &= b - 1)
			sum++;
	return sum;
}

/*
 * How long a kdump-compressed file should be: its page descriptors
 * follow the bitmaps, one per page set in the second (dump) bitmap, and
 * makedumpfile writes the pages' data in pfn order behind them, so the
 * last descriptor's data ends the page data.  libkdumpfile fails reads
 * past the end of a cut file by itself; this only lets the report say
 * that the file was cut.  Best effort: 0 if anything is unreadable.
 * The bitmap read on the way is kept in h->bitmap when it fits.
 */
static uint64_t needed_size(struct oc_dump_hdr *h, uint64_t bitmap_off,
			    uint64_t bitmap_len, uint64_t nbits,
			    uint64_t desc_off)
{
	/* 64 KB: a whole number of KDUMP_RANK_BITS blocks */
	unsigned char buf[65536], *keep = NULL;
	const uint64_t block = KDUMP_RANK_BITS / 8;
	uint64_t pages = 0, len = (nbits + 7) / 8, end, data_off, *rank = NULL;
	uint32_t data_size;
	struct oc_error *err;

	if (len > bitmap_len)
		len = bitmap_len;
	if (len && len <= KDUMP_BITMAP_KEEP_MAX) {
		keep = malloc(len);	/* NULL: only counted */
		/* the set bits before each block (NULL: libkdumpfile reads) */
		rank = keep ? malloc(((size_t)((len + block - 1) / block) + 1) *
				     sizeof(*rank)) : NULL;
	}
	for (uint64_t done = 0; done < len;) {
		size_t n = len - done < sizeof(buf) ? (size_t)(len - done) :
			   sizeof(buf);
		unsigned char *at = keep ? keep + done : buf;

		err = oc_dump_hdr_pread(h, at, n, bitmap_off + done, "bitmap");
		if (err) {
			oc_error_destroy(err);
			free(keep);
			free(rank);
			return 0;
		}
		/* bits past max_mapnr in the last byte */
		if (done + n == len && nbits % 8 && nbits / 8 < len)
			at[n - 1] &= (unsigned char)((1u << (nbits % 8)) - 1);
		for (size_t i = 0; i < n; i += block) {
			if (rank)
				rank[(done + i) / block] = pages;
			pages += popcount_bytes(at + i, n - i < block ? n - i : block);
		}
		done += n;
	}
	if (rank)
		rank[(len + block - 1) / block] = pages;
	if (keep) {
		h->bitmap = keep;
		h->bitmap_bits = len * 8 < nbits ? len * 8 : nbits;
		h->rank = rank;
		h->desc_off = desc_off;
	}
	end = desc_off + pages * KDUMP_PAGE_DESC_SIZE;
	if (!pages || end > h->file_size)
		return end;
	/*
	 * Zero pages all point at one block written first, right behind
	 * the descriptors: the last descriptor of another page ends the
	 * data.  Backwards, a chunk at a time, for at most 16 MiB.
	 */
	for (uint64_t at = end, seen = 0; at > desc_off && seen < (16u << 20);) {
		size_t n = at - desc_off < sizeof(buf) ? (size_t)(at - desc_off) :
			   sizeof(buf) / KDUMP_PAGE_DESC_SIZE * KDUMP_PAGE_DESC_SIZE;

		err = oc_dump_hdr_pread(h, buf, n, at - n, "page descriptors");
		if (err) {
			oc_error_destroy(err);
			return 0;
		}
		for (size_t i = n; i >= KDUMP_PAGE_DESC_SIZE;
		     i -= KDUMP_PAGE_DESC_SIZE) {
			data_off = field(buf, n, i - KDUMP_PAGE_DESC_SIZE, 8);
			data_size = (uint32_t)field(buf, n,
						    i - KDUMP_PAGE_DESC_SIZE + 8, 4);
			if (data_off == end)
				continue;	/* the zero page */
			/* a garbled descriptor is libkdumpfile's to report */
			if (data_off < end || data_off + data_size < data_off)
				return end;
			return data_off + data_size;
		}
		at -= n;
		seen += n;
	}
	return end;
}

const char *oc_dump_hdr_kdump_page_missing(const struct oc_dump_hdr *h,
					   uint64_t paddr)
{
	uint64_t pfn = paddr / KDUMP_PAGE;

	if (!h->bitmap)
		return NULL;
	if (pfn >= h->bitmap_bits)
		return "past the kdump file's last page frame";
	if (!(h->bitmap[pfn / 8] & (1u << (pfn % 8))))
		return "excluded from the kdump file";
	return NULL;
}

/*
 * A window on a file that is not mapped (a block device, or mmap()
 * failed; oc_dump_hdr_map()): a pread of many KB serves the next reads
 * near it (descriptors are read in pfn order, and makedumpfile writes the
 * pages' data in pfn order too: a stack's pages are neighbours).  A
 * mapped file's bytes are read where they are: the windows' preads had
 * copied 360 MB for the 10,000-task 6.1 real kdump's report, a fifth of
 * its CPU time (docs/benchmarks.md).
 */
struct window {
	uint64_t off;
	size_t len;
	size_t cap;
	unsigned char *buf;
};

/*
 * The libraries of makedumpfile's other compressions are opened on their
 * first page (formats/dl.h), zlib's format (-c, QEMU's -z: libdeflate
 * below) being the one linked:
 * libsnappy is C++, and libstdc++ behind it cost every start ~2 ms of
 * ld.so's time; liblzo2 and libzstd ~10 page faults each (~0.1 ms).
 */
#define SNAPPY_FNS(X) X(snappy_uncompress)
OC_DL_DEFINE(sn, OC_SNAPPY_SONAME, SNAPPY_FNS);
#define LZO_FNS(X) X(lzo1x_decompress_safe)
OC_DL_DEFINE(lz, OC_LZO_SONAME, LZO_FNS);
#define ZSTD_FNS(X)							\
	X(ZSTD_createDCtx) X(ZSTD_decompressDCtx) X(ZSTD_freeDCtx)	\
	X(ZSTD_isError)
OC_DL_DEFINE(zs, OC_ZSTD_SONAME, ZSTD_FNS);

struct oc_kdump_pager {
	struct libdeflate_decompressor *deflate;
	ZSTD_DCtx *zstd;
	struct window desc, data;
};

enum {
	DESC_WINDOW = 16 << 10,
	DATA_WINDOW = 64 << 10,
	/* a compressed page's size at most: makedumpfile and QEMU store a
	 * page compressed only when that makes it smaller */
	MAX_COMPRESSED = KDUMP_PAGE,
};

/* @len bytes at @off of the file, from @w (read again around @off if
 * they are not in it); NULL and *err if the file has not them. */
static const unsigned char *window_at(const struct oc_dump_hdr *h,
				      struct window *w, uint64_t off,
				      size_t len, const char *what,
				      struct oc_error **err)
{
	size_t n;

	if (off >= w->off && len <= w->len && off - w->off <= w->len - len)
		return w->buf + (off - w->off);
	if (off > h->file_size || len > h->file_size - off) {
		*err = oc_error_file(OC_ERR_FORMAT, h->path,
				     "truncated %s (%zu bytes at %" PRIu64 ")",
				     what, len, off);
		return NULL;
	}
	if (h->map)
		return h->map + off;
	n = h->file_size - off < w->cap ? (size_t)(h->file_size - off) : w->cap;
	w->len = 0;
	*err = oc_dump_hdr_pread(h, w->buf, n, off, what);
	if (*err)
		return NULL;
	w->off = off;
	w->len = n;
	return w->buf;
}

struct oc_error *oc_kdump_pager_create(struct oc_kdump_pager **ret)
{
	struct oc_kdump_pager *pg = calloc(1, sizeof(*pg));

	if (!pg)
		return &oc_enomem;
	pg->desc.cap = DESC_WINDOW;
	pg->data.cap = DATA_WINDOW;
	pg->desc.buf = malloc(DESC_WINDOW);
	pg->data.buf = malloc(DATA_WINDOW);
	if (!pg->desc.buf || !pg->data.buf) {
		oc_kdump_pager_destroy(pg);
		return &oc_enomem;
	}
	*ret = pg;
	return NULL;
}

void oc_kdump_pager_destroy(struct oc_kdump_pager *pg)
{
	if (!pg)
		return;
	libdeflate_free_decompressor(pg->deflate);
	if (pg->zstd)	/* then libzstd was opened */
		zs.ZSTD_freeDCtx(pg->zstd);
	free(pg->desc.buf);
	free(pg->data.buf);
	free(pg);
}

/*
 * zlib, as makedumpfile's compress2() (and QEMU's -z) wrote it: one
 * whole stream, its header and Adler-32 checked, bytes after its end
 * ignored, as zlib's inflate() did here before: libdeflate 1.14 inflates
 * a page in under half of zlib 1.2.13's time, and inflating was half of
 * a 10,000-task kdump's --all-tasks (docs/benchmarks.md).  A stream
 * that would give more than a page fails as zlib's Z_BUF_ERROR did.
 */
static const char *inflate_page(struct oc_kdump_pager *pg,
				const unsigned char *in, size_t size,
				unsigned char *page)
{
	size_t out = 0;

	if (!pg->deflate && !(pg->deflate = libdeflate_alloc_decompressor()))
		return "zlib: out of memory";
	switch (libdeflate_zlib_decompress(pg->deflate, in, size, page,
					   KDUMP_PAGE, &out)) {
	case LIBDEFLATE_SUCCESS:
		return out == KDUMP_PAGE ? NULL : "zlib: wrong uncompressed size";
	default:
		return "zlib: decompression failed";
	}
}

/* One compressed page, @size bytes at @in, into @page; NULL or why not. */
static const char *decompress(struct oc_kdump_pager *pg, uint32_t flags,
			      const unsigned char *in, size_t size,
			      unsigned char *page)
{
	if (flags & KDUMP_COMPRESSED_ZLIB)
		return inflate_page(pg, in, size, page);
	if (flags & KDUMP_COMPRESSED_LZO) {
		lzo_uint n = KDUMP_PAGE;
		const char *why = oc_dl_load(&lz_dl);

		if (why)
			return why;
		if (lz.lzo1x_decompress_safe(in, size, page, &n, NULL) != LZO_E_OK)
			return "lzo: decompression failed";
		return n == KDUMP_PAGE ? NULL : "lzo: wrong uncompressed size";
	}
	if (flags & KDUMP_COMPRESSED_SNAPPY) {
		size_t n = KDUMP_PAGE;
		const char *why = oc_dl_load(&sn_dl);

		if (why)
			return why;
		if (sn.snappy_uncompress((const char *)in, size, (char *)page,
					 &n) != SNAPPY_OK)
			return "snappy: decompression failed";
		return n == KDUMP_PAGE ? NULL : "snappy: wrong uncompressed size";
	}
	{
		size_t n;
		const char *why = oc_dl_load(&zs_dl);

		if (why)
			return why;
		if (!pg->zstd && !(pg->zstd = zs.ZSTD_createDCtx()))
			return "zstd: out of memory";
		n = zs.ZSTD_decompressDCtx(pg->zstd, page, KDUMP_PAGE, in, size);
		if (zs.ZSTD_isError(n))
			return "zstd: decompression failed";
		return n == KDUMP_PAGE ? NULL : "zstd: wrong uncompressed size";
	}
}

/*
 * As libkdumpfile 0.5.1's diskdump_read_page() (src/kdumpfile/
 * diskdump.c) reads a page the dump bitmap has: its descriptor is the
 * one after as many as the bitmap has set bits before it; its data is
 * pd.size bytes at pd.offset, compressed by the method its flags name
 * (zlib first, then lzo, snappy, zstd: the order libkdumpfile tests
 * them in), else exactly a page.  Without libkdumpfile's page cache
 * (a linear search, a copy, and an inflateInit() for each page): a
 * third of a sample's run (docs/benchmarks.md).
 */
struct oc_error *oc_dump_hdr_kdump_read_page(const struct oc_dump_hdr *h,
					     struct oc_kdump_pager *pg,
					     uint64_t paddr,
					     unsigned char *page)
{
	uint64_t pfn = paddr / KDUMP_PAGE, idx, at;
	const uint64_t block = KDUMP_RANK_BITS / 8;
	const unsigned char *pd, *data;
	unsigned char last;
	uint64_t data_off;
	uint32_t size, flags;
	const char *why;
	struct oc_error *err;

	idx = h->rank[pfn / KDUMP_RANK_BITS] +
	      popcount_bytes(h->bitmap + pfn / KDUMP_RANK_BITS * block,
			     pfn % KDUMP_RANK_BITS / 8);
	last = h->bitmap[pfn / 8] & ((1u << (pfn % 8)) - 1);
	idx += popcount_bytes(&last, 1);
	at = h->desc_off + idx * KDUMP_PAGE_DESC_SIZE;
	pd = window_at(h, &pg->desc, at, KDUMP_PAGE_DESC_SIZE,
		       "page descriptor", &err);
	if (!pd)
		return err;
	data_off = field(pd, KDUMP_PAGE_DESC_SIZE, 0, 8);
	size = (uint32_t)field(pd, KDUMP_PAGE_DESC_SIZE, 8, 4);
	flags = (uint32_t)field(pd, KDUMP_PAGE_DESC_SIZE, 12, 4);
	if (!(flags & KDUMP_COMPRESSED) && size != KDUMP_PAGE)
		return oc_error_format(OC_ERR_FORMAT,
				       "page descriptor at %" PRIu64 ": wrong page size %" PRIu32,
				       at, size);
	if (size > MAX_COMPRESSED)
		return oc_error_format(OC_ERR_FORMAT,
				       "page descriptor at %" PRIu64 ": compressed size %" PRIu32,
				       at, size);
	data = window_at(h, &pg->data, data_off, size, "page data", &err);
	if (!data)
		return err;
	if (!(flags & KDUMP_COMPRESSED)) {
		memcpy(page, data, KDUMP_PAGE);
		return NULL;
	}
	why = decompress(pg, flags, data, size, page);
	if (why)
		return oc_error_format(OC_ERR_FORMAT, "page data at %" PRIu64 ": %s",
				       data_off, why);
	return NULL;
}

/* Check what libkdumpfile 0.5.1 would trust, then read the notes. */
struct oc_error *oc_dump_hdr_read_kdump(struct oc_dump_hdr *h)
{
	unsigned char hdr[KDUMP_HDR_MIN], sub[KDUMP_SUB_MIN];
	int32_t version, block_size, sub_hdr_size, bitmap_blocks;
	uint32_t max_mapnr;
	uint64_t off_note, size_note, off_vmci, size_vmci, bitmap_bits;
	uint64_t off_erase, size_erase, max_mapnr_64, file_size = h->file_size;
	struct oc_error *err;

	err = oc_dump_hdr_pread(h, hdr, sizeof(hdr), 0, "kdump header");
	if (err)
		return err;
	version = (int32_t)field(hdr, sizeof(hdr), KDUMP_HDR_VERSION, 4);
	block_size = (int32_t)field(hdr, sizeof(hdr), KDUMP_HDR_BLOCK_SIZE, 4);
	sub_hdr_size = (int32_t)field(hdr, sizeof(hdr), KDUMP_HDR_SUB_HDR_SIZE, 4);
	bitmap_blocks = (int32_t)field(hdr, sizeof(hdr), KDUMP_HDR_BITMAP_BLOCKS, 4);
	max_mapnr = (uint32_t)field(hdr, sizeof(hdr), KDUMP_HDR_MAX_MAPNR, 4);
	/* QEMU writes "x86_64" but no other utsname field */
	h->foreign_machine = hdr[KDUMP_HDR_MACHINE] &&
			     strncmp((const char *)hdr + KDUMP_HDR_MACHINE,
				     "x86_64", KDUMP_HDR_MACHINE_LEN);
	if (block_size < 512 || block_size > (1 << 20) ||
	    (block_size & (block_size - 1)))
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "bad kdump block size %d", block_size);
	/* makedumpfile writes 6 (since 1.5.0); 1 is the old diskdump */
	if (version < 1 || version > 16)
		return oc_error_file(OC_ERR_UNSUPPORTED, h->path,
				     "kdump header version %d", version);
	if (sub_hdr_size < 0 || bitmap_blocks <= 0 || (bitmap_blocks & 1) ||
	    !in_file(0, (1 + (uint64_t)sub_hdr_size + bitmap_blocks) * block_size,
		     file_size))
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "truncated or bad kdump header (sub-header %d blocks, bitmaps %d blocks of %d bytes)",
				     sub_hdr_size, bitmap_blocks, block_size);
	/* two bitmaps, one bit per page frame */
	bitmap_bits = (uint64_t)bitmap_blocks * block_size / 2 * 8;
	if (max_mapnr > bitmap_bits)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "kdump max_mapnr %u exceeds its bitmap (%" PRIu64 " pages)",
				     max_mapnr, bitmap_bits);
	{
		uint64_t bitmap_off = (1 + (uint64_t)sub_hdr_size) * block_size,
			 half = (uint64_t)bitmap_blocks * block_size / 2, nbits;

		h->incomplete = field(hdr, sizeof(hdr), KDUMP_HDR_STATUS, 4) &
				KDUMP_DH_COMPRESSED_INCOMPLETE;
		/* max_mapnr_64 (version 6) when the 32-bit field is too
		 * small; the bitmap's own size bounds it either way */
		nbits = bitmap_bits;
		if (version < 6 && max_mapnr)
			nbits = max_mapnr;
		h->file_needed = needed_size(h, bitmap_off + half, half, nbits,
					     bitmap_off + 2 * half);
	}
	if (version < 3 || block_size != KDUMP_PAGE) {
		/* libkdumpfile reads the pages of old files (the split
		 * field below is not read for them) and of other page sizes */
		free(h->rank);
		h->rank = NULL;
	}
	if (version < 3)
		return NULL;	/* no VMCOREINFO before version 3, no notes before 4 */
	if (!sub_hdr_size)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "kdump header version %d without a sub-header",
				     version);
	err = oc_dump_hdr_pread(h, sub, sizeof(sub), block_size,
				"kdump sub-header");
	if (err)
		return err;
	off_vmci = field(sub, sizeof(sub), KDUMP_SUB_OFFSET_VMCOREINFO, 8);
	size_vmci = field(sub, sizeof(sub), KDUMP_SUB_SIZE_VMCOREINFO, 8);
	off_note = field(sub, sizeof(sub), KDUMP_SUB_OFFSET_NOTE, 8);
	size_note = field(sub, sizeof(sub), KDUMP_SUB_SIZE_NOTE, 8);
	off_erase = field(sub, sizeof(sub), KDUMP_SUB_OFFSET_ERASEINFO, 8);
	size_erase = field(sub, sizeof(sub), KDUMP_SUB_SIZE_ERASEINFO, 8);
	max_mapnr_64 = field(sub, sizeof(sub), KDUMP_SUB_MAX_MAPNR_64, 8);
	/*
	 * One file of makedumpfile --split: its bitmap is the whole dump's
	 * but it holds only the descriptors of [start_pfn, end_pfn), which
	 * libkdumpfile 0.5.1 counts from start_pfn; its pages stay
	 * libkdumpfile's (our rank counts from pfn 0).
	 */
	if (field(sub, sizeof(sub), KDUMP_SUB_SPLIT, 4)) {
		free(h->rank);
		h->rank = NULL;
	}
	if (!in_file(off_vmci, size_vmci, file_size) ||
	    size_vmci > OC_DUMP_MAX_NOTES_SIZE)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "kdump VMCOREINFO (%" PRIu64 " bytes at %" PRIu64 ") is past the end of the file",
				     size_vmci, off_vmci);
	if (size_vmci) {	/* libkdumpfile parses it: check it first */
		char *vmci = malloc(size_vmci);

		if (!vmci)
			return &oc_enomem;
		err = oc_dump_hdr_pread(h, vmci, size_vmci, off_vmci,
					"kdump VMCOREINFO");
		if (!err)
			err = oc_dump_hdr_check_vmcoreinfo(h, vmci, size_vmci);
		free(vmci);
		if (err)
			return err;
	}
	if (version < 4)
		return NULL;
	if (!in_file(off_note, size_note, file_size))
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "kdump note area (%" PRIu64 " bytes at %" PRIu64 ") is past the end of the file",
				     size_note, off_note);
	if (version >= 5 && !in_file(off_erase, size_erase, file_size))
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "kdump eraseinfo (%" PRIu64 " bytes at %" PRIu64 ") is past the end of the file",
				     size_erase, off_erase);
	if (version >= 6 && max_mapnr_64 > bitmap_bits)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "kdump max_mapnr_64 %" PRIu64 " exceeds its bitmap (%" PRIu64 " pages)",
				     max_mapnr_64, bitmap_bits);
	return oc_dump_hdr_read_notes(h, off_note, size_note);
}
