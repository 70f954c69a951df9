// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-user cache's files (see cachefile.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cachefile.h"
#include "elffile.h"
#include "strutil.h"

char *oc_cache_path(const char *kind, const char *name)
{
	const char *base = getenv("ORCCRASH_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *path = NULL;
	int rc = -1;

	if (base && *base)
		rc = asprintf(&path, "%s/%s/%s", base, kind, name);
	else if (xdg && xdg[0] == '/')
		rc = asprintf(&path, "%s/orccrash/%s/%s", xdg, kind, name);
	else if (home && *home)
		rc = asprintf(&path, "%s/.cache/orccrash/%s/%s", home, kind, name);
	return rc < 0 ? NULL : path;
}

void oc_cache_make_parent_dirs(const char *path)
{
	char *dir = strdup(path);

	if (!dir)
		return;
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(dir, 0700);
		*p = '/';
	}
	free(dir);
}

/*
 * In a directory someone else can write, a planted link or file would
 * redirect what we write or feed what we read.
 */
bool oc_cache_dir_ok(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path)) :
			    strdup(".");
	struct stat st;
	bool ok;

	if (!dir)
		return false;
	ok = !lstat(*dir ? dir : "/", &st) && S_ISDIR(st.st_mode) &&
	     st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
	free(dir);
	return ok;
}

/* @path open for reading when oc_cache_open_read() takes it, else -1 */
static int open_read(const char *path, off_t max_size, struct stat *st)
{
	int fd;

	if (!oc_cache_dir_ok(path))
		return -1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) || !S_ISREG(st->st_mode) || st->st_uid != geteuid() ||
	    st->st_size > max_size) {
		close(fd);
		return -1;
	}
	return fd;
}

FILE *oc_cache_open_read(const char *path, off_t max_size)
{
	struct stat st;
	FILE *fp;
	int fd = open_read(path, max_size, &st);

	if (fd < 0)
		return NULL;
	if (!(fp = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return fp;
}

bool oc_cache_map_read(const char *path, off_t max_size,
		       struct oc_cache_map *ret)
{
	struct stat st;
	void *p;
	int fd = open_read(path, max_size, &st);

	memset(ret, 0, sizeof(*ret));
	if (fd < 0)
		return false;
	/* MAP_POPULATE: the page tables made in one call, not a fault per
	 * 64 KB (the files are read whole, and are in the page cache) */
	p = st.st_size > 0 ? mmap(NULL, (size_t)st.st_size, PROT_READ,
				  MAP_PRIVATE | MAP_POPULATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (p == MAP_FAILED)
		return false;
	ret->base = p;
	ret->len = (size_t)st.st_size;
	return true;
}

void oc_cache_unmap(struct oc_cache_map *map)
{
	if (map->base)
		munmap(map->base, map->len);
	memset(map, 0, sizeof(*map));
}

bool oc_cache_map_with_head(const char *path, off_t max_size,
			    const void *head, size_t head_len,
			    struct oc_cache_map *ret)
{
	if (!oc_cache_map_read(path, max_size, ret))
		return false;
	if (ret->len >= head_len && !memcmp(ret->base, head, head_len))
		return true;
	oc_cache_unmap(ret);
	return false;
}

bool oc_cache_map_made_of(struct oc_elf *elf, const char *kind,
			  const char *suffix, const char magic[8],
			  uint32_t keep, off_t max_size,
			  struct oc_cache_map *map, const uint8_t **body_ret,
			  size_t *len_ret)
{
	struct oc_cache_head want;
	char *path;
	bool ok;

	memset(map, 0, sizeof(*map));
	if (!oc_cache_head_of(elf, kind, suffix, magic, keep, &want, &path))
		return false;
	ok = oc_cache_map_with_head(path, max_size, &want, sizeof(want), map);
	free(path);
	if (ok) {
		*body_ret = (const uint8_t *)map->base + sizeof(want);
		*len_ret = map->len - sizeof(want);
	}
	return ok;
}

struct made_of {
	const struct oc_cache_head *h;
	bool (*write_body)(FILE *fp, void *arg);
	void *arg;
};

static bool write_made_of(FILE *fp, void *arg)
{
	const struct made_of *m = arg;

	return fwrite(m->h, sizeof(*m->h), 1, fp) == 1 &&
	       m->write_body(fp, m->arg);
}

void oc_cache_write_made_of(struct oc_elf *elf, const char *kind,
			    const char *suffix, const char magic[8],
			    uint32_t keep,
			    bool (*write_body)(FILE *fp, void *arg), void *arg)
{
	struct oc_cache_head h;
	struct made_of m = { .h = &h, .write_body = write_body, .arg = arg };
	char *path;

	if (!oc_cache_head_of(elf, kind, suffix, magic, keep, &h, &path))
		return;
	oc_cache_write(path, write_made_of, &m);
	free(path);
}

bool oc_cache_write(const char *path, bool (*write)(FILE *fp, void *arg),
		    void *arg)
{
	char *tmp;
	FILE *fp;
	bool ok;
	int fd;

	oc_cache_make_parent_dirs(path);
	if (!oc_cache_dir_ok(path))
		return false;
	/* a new file of our own: mkstemp() is O_CREAT|O_EXCL, 0600, and
	 * follows no link planted under the name */
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return false;
	fd = mkstemp(tmp);
	fp = fd < 0 ? NULL : fdopen(fd, "w");
	if (!fp) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return false;
	}
	ok = write(fp, arg);
	ok &= !ferror(fp);
	ok &= fclose(fp) == 0;
	if (!ok || rename(tmp, path) < 0) {
		unlink(tmp);
		ok = false;
	}
	free(tmp);
	return ok;
}

bool oc_cache_head_of(struct oc_elf *elf, const char *kind,
		      const char *suffix, const char magic[8], uint32_t keep,
		      struct oc_cache_head *h, char **path_ret)
{
	size_t len;
	const uint8_t *id = oc_elf_build_id(elf, &len);
	char hex[2 * 64 + 1 + 64 + 1];
	struct stat st;

	*path_ret = NULL;
	if (!id || !len || len > sizeof(h->build_id) ||
	    stat(oc_elf_path(elf), &st))
		return false;
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, magic, sizeof(h->magic));
	h->keep = keep;
	h->build_id_len = (uint32_t)len;
	memcpy(h->build_id, id, len);
	h->size = (uint64_t)st.st_size;
	h->mtime_sec = (uint64_t)st.st_mtim.tv_sec;
	h->mtime_nsec = (uint64_t)st.st_mtim.tv_nsec;
	h->ino = (uint64_t)st.st_ino;
	h->dev = (uint64_t)st.st_dev;
	oc_hex_string(id, len, hex, sizeof(hex));
	if (suffix)
		snprintf(hex + strlen(hex), sizeof(hex) - strlen(hex), "-%.64s", suffix);
	*path_ret = oc_cache_path(kind, hex);
	return *path_ret != NULL;
}
