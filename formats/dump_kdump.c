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
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "dumppriv.h"

/*
 * The header, from makedumpfile's diskdump_mod.h (struct
 * disk_dump_header, struct kdump_sub_header) for x86-64; only the
 * fields we use, by offset.
 */
enum {
	KDUMP_HDR_VERSION = 8,		/* int header_version */
	KDUMP_HDR_STATUS = 424,		/* unsigned int status */
	KDUMP_HDR_BLOCK_SIZE = 428,	/* int block_size */
	KDUMP_HDR_SUB_HDR_SIZE = 432,	/* int sub_hdr_size (blocks) */
	KDUMP_HDR_BITMAP_BLOCKS = 436,	/* unsigned int bitmap_blocks */
	KDUMP_HDR_MAX_MAPNR = 440,	/* unsigned int max_mapnr */
	KDUMP_HDR_MIN = OC_DUMP_KDUMP_HDR_MIN,
	/* struct kdump_sub_header */
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
	unsigned char buf[65536], *keep = NULL;
	uint64_t pages = 0, len = (nbits + 7) / 8, end, data_off;
	uint32_t data_size;
	struct oc_error *err;

	if (len > bitmap_len)
		len = bitmap_len;
	if (len && len <= KDUMP_BITMAP_KEEP_MAX)
		keep = malloc(len);	/* NULL: only counted */
	for (uint64_t done = 0; done < len;) {
		size_t n = len - done < sizeof(buf) ? (size_t)(len - done) :
			   sizeof(buf);
		unsigned char *at = keep ? keep + done : buf;

		err = oc_dump_hdr_pread(h, at, n, bitmap_off + done, "bitmap");
		if (err) {
			oc_error_destroy(err);
			free(keep);
			return 0;
		}
		/* bits past max_mapnr in the last byte */
		if (done + n == len && nbits % 8 && nbits / 8 < len)
			at[n - 1] &= (unsigned char)((1u << (nbits % 8)) - 1);
		for (size_t i = 0; i < n; i++)
			pages += (uint64_t)__builtin_popcount(at[i]);
		done += n;
	}
	if (keep) {
		h->bitmap = keep;
		h->bitmap_bits = len * 8 < nbits ? len * 8 : nbits;
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
	uint64_t pfn = paddr / 4096;

	if (!h->bitmap)
		return NULL;
	if (pfn >= h->bitmap_bits)
		return "past the kdump file's last page frame";
	if (!(h->bitmap[pfn / 8] & (1u << (pfn % 8))))
		return "excluded from the kdump file";
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
