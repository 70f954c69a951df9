// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A dump's ELF notes, read by us rather than libkdumpfile so that they
 * stay in file order: the PT_NOTE segments of an ELF vmcore, the note
 * area a kdump-compressed sub-header names.  We keep the saved registers
 * (NT_PRSTATUS), VMCOREINFO, and whether QEMU wrote the dump.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dumppriv.h"
#include "fileopen.h"
#include "flat.h"
#include "vmcoreinfo.h"

void oc_dump_hdr_deinit(struct oc_dump_hdr *h)
{
	free(h->notes);
	free(h->loads);
	free(h->bitmap);
	free(h->rank);
	oc_vmcoreinfo_destroy(h->vmcoreinfo);
	oc_file_unmap(h->map, h->file_size);
	memset(h, 0, sizeof(*h));
	h->fd = -1;
}

void oc_dump_hdr_map(struct oc_dump_hdr *h)
{
	struct stat st;

	if (h->map || fstat(h->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != h->file_size || h->file_size > SIZE_MAX)
		return;
	h->map = oc_file_map(h->fd, h->file_size, h->path);
}

struct oc_error *oc_dump_hdr_pread(const struct oc_dump_hdr *h, void *buf,
				   size_t len, uint64_t off, const char *what)
{
	int fd = h->fd;
	struct oc_error *err = oc_flat_read_fd(&fd, off, buf, len);

	if (err && err->code == OC_ERR_FORMAT) {
		oc_error_destroy(err);
		return oc_error_file(OC_ERR_FORMAT, h->path, "truncated %s",
				     what);
	}
	return oc_error_set_path(err, h->path);
}

struct oc_error *oc_dump_hdr_add_cpu(struct oc_dump_hdr *h,
				     const struct oc_elfnote *n)
{
	struct oc_prstatus *notes;
	struct oc_error *err;

	if (h->nr_notes >= OC_DUMP_MAX_CPU_NOTES)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "more than %d NT_PRSTATUS notes",
				     OC_DUMP_MAX_CPU_NOTES);
	notes = realloc(h->notes, (h->nr_notes + 1) * sizeof(*notes));
	if (!notes)
		return &oc_enomem;
	h->notes = notes;
	err = oc_elfnote_prstatus(n, &h->notes[h->nr_notes]);
	if (err)
		return oc_error_set_path(err, h->path);
	h->nr_notes++;
	return NULL;
}

/*
 * libkdumpfile 0.5.1 makes each VMCOREINFO key an attribute path and
 * crashes (SIGSEGV in kdump_open_fd) on one that starts with '.': refuse
 * it before it reads the text, in all of it as it reads it, past any NUL
 * (found by fuzz_dump).
 */
struct oc_error *oc_dump_hdr_check_vmcoreinfo(const struct oc_dump_hdr *h,
					      const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((i == 0 || text[i - 1] == '\n' || text[i - 1] == '\0') &&
		    text[i] == '.')
			return oc_error_file(OC_ERR_FORMAT, h->path,
					     "VMCOREINFO line at byte %zu has a key starting with '.'",
					     i);
	return NULL;
}

struct oc_error *oc_dump_hdr_set_vmcoreinfo(struct oc_dump_hdr *h,
					    const char *text, size_t len)
{
	struct oc_error *err;

	if (h->vmcoreinfo)
		return NULL;
	err = oc_dump_hdr_check_vmcoreinfo(h, text, len);
	if (!err)
		err = oc_vmcoreinfo_parse(text, len, &h->vmcoreinfo);
	return oc_error_set_path(err, h->path);
}

/* Walk a buffer of ELF notes: CPU registers, VMCOREINFO, "QEMU". */
static struct oc_error *parse_notes(struct oc_dump_hdr *h, const void *buf,
				    size_t size)
{
	struct oc_cursor c;
	struct oc_elfnote n;
	struct oc_error *err;
	bool more;

	oc_cursor_init(&c, buf, size, "note area");
	while (!(err = oc_elfnote_next(&c, &n, &more)) && more) {
		if (oc_elfnote_named(&n, "CORE") && n.type == OC_NT_PRSTATUS)
			err = oc_dump_hdr_add_cpu(h, &n);
		else if (oc_elfnote_named(&n, "QEMU"))
			/* QEMU's per-CPU state note (target/i386/arch_dump.c) */
			h->qemu = true;
		else if (oc_elfnote_named(&n, "VMCOREINFO"))
			err = oc_dump_hdr_set_vmcoreinfo(h, (const char *)n.desc,
							 n.descsz);
		if (err)
			return err;
	}
	return oc_error_set_path(err, h->path);
}

struct oc_error *oc_dump_hdr_read_notes(struct oc_dump_hdr *h, uint64_t off,
					uint64_t size)
{
	unsigned char *buf;
	struct oc_error *err;

	if (!size)
		return NULL;
	if (size > OC_DUMP_MAX_NOTES_SIZE)
		return oc_error_file(OC_ERR_FORMAT, h->path,
				     "note area of %" PRIu64 " bytes", size);
	buf = malloc(size);
	if (!buf)
		return &oc_enomem;
	err = oc_dump_hdr_pread(h, buf, size, off, "note area");
	if (!err)
		err = parse_notes(h, buf, size);
	free(buf);
	return err;
}
