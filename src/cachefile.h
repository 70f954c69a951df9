/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files of the per-user cache (~/.cache/orccrash/KIND/NAME): where they
 * are, and reading and writing them safely.  A cache directory must be
 * the user's own and writable by no one else, a cache file a regular
 * file of the user's, not a link (docs/hardening.md); a file is written
 * whole under a temporary name and renamed into place, so a reader sees
 * the old file or the new one.  The lines cache (src/lines.c) and the
 * symbol cache (src/symcache.c), the types memo (src/typecache.c) and
 * the CFI index (src/cficache.c) keep their files here.
 */
#ifndef OC_CACHEFILE_H
#define OC_CACHEFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct oc_elf;

/*
 * $ORCCRASH_CACHE/KIND/NAME, else $XDG_CACHE_HOME/orccrash/KIND/NAME
 * (when absolute: the XDG Base Directory Specification 0.8 says a
 * relative one is invalid and ignored), else
 * $HOME/.cache/orccrash/KIND/NAME; malloc'd, NULL when there is no home
 * or no memory.
 */
char *oc_cache_path(const char *kind, const char *name);
/* mkdir -p of @path's directory; what it creates only the user's. */
void oc_cache_make_parent_dirs(const char *path);
/* @path's directory is the user's own and no one else can write it. */
bool oc_cache_dir_ok(const char *path);
/* @path for reading, when it is a regular file of the user's (not a
 * link) of at most @max_size bytes, in a directory oc_cache_dir_ok()
 * accepts; else NULL. */
FILE *oc_cache_open_read(const char *path, off_t max_size);
/* A cache file mapped whole, read-only (oc_cache_map_read()). */
struct oc_cache_map {
	void *base;
	size_t len;
};
/* The same file mapped whole, read-only (its pages the page cache's: a
 * reader that would copy megabytes gets them for no fresh memory); false
 * (nothing mapped) when it is refused as above, is empty, or cannot be
 * mapped. */
bool oc_cache_map_read(const char *path, off_t max_size,
		       struct oc_cache_map *ret);
/* Unmap it (nothing when nothing is mapped), once no reader uses it. */
void oc_cache_unmap(struct oc_cache_map *map);
/* oc_cache_map_read() of a file that starts with the @head_len bytes of
 * @head: false (nothing mapped) when it does not. */
bool oc_cache_map_with_head(const char *path, off_t max_size,
			    const void *head, size_t head_len,
			    struct oc_cache_map *ret);
/*
 * Write @path anew: its directories made, then @write() into a new
 * file of the user's (mkstemp(): it follows no link planted under the
 * name) renamed over @path.  false (nothing changed) when the directory
 * is not the user's own, or writing failed, or @write() said so.
 */
bool oc_cache_write(const char *path, bool (*write)(FILE *fp, void *arg),
		    void *arg);

/*
 * The head of a cache file made from a vmlinux: what names the file as it
 * is now (its GNU build-id, size, modification time, inode and device),
 * the cache's own @magic (its layout) and a @keep of the caller's; a
 * cache file whose head differs is a miss.  The symbol cache, the types
 * memo and the CFI index (src/symcache.c, src/typecache.c,
 * src/cficache.c) start with one.
 */
struct oc_cache_head {
	char magic[8];
	uint32_t keep, build_id_len;
	uint8_t build_id[64];
	uint64_t size, mtime_sec, mtime_nsec, ino, dev;
};

/* @elf's head, and its cache file's path ($cache/@kind/BUILD-ID, and
 * -@suffix when not NULL; malloc'd); false when @elf has no build-id or
 * is gone. */
bool oc_cache_head_of(struct oc_elf *elf, const char *kind,
		      const char *suffix, const char magic[8], uint32_t keep,
		      struct oc_cache_head *ret, char **path_ret);

/*
 * The cache file oc_cache_head_of() names for @elf, mapped in @map when it
 * starts with that head: the bytes after it in *@body_ret (8-byte aligned
 * when the file is mapped: the head's size is a multiple of 8), *@len_ret
 * long.  false (nothing mapped) on a miss.
 */
bool oc_cache_map_made_of(struct oc_elf *elf, const char *kind,
			  const char *suffix, const char magic[8],
			  uint32_t keep, off_t max_size,
			  struct oc_cache_map *map, const uint8_t **body_ret,
			  size_t *len_ret);
/*
 * Write that file anew (oc_cache_write()): its head, then what
 * @write_body(fp, @arg) writes.  Quietly nothing when @elf has no
 * build-id, or the file cannot be written.
 */
void oc_cache_write_made_of(struct oc_elf *elf, const char *kind,
			    const char *suffix, const char magic[8],
			    uint32_t keep,
			    bool (*write_body)(FILE *fp, void *arg), void *arg);

#endif /* OC_CACHEFILE_H */
