/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Struct layouts of the analysed kernel behind one small interface.
 * The backend is the kernel's BTF (formats/btf.c, from the vmlinux .BTF
 * section or from dump memory); ->fallback chains a second one for what
 * the first lacks.  Type names carry their kind ("struct task_struct",
 * "union thread_union"; "typeof(runqueues)" is a variable's type, when
 * the backend knows it); member paths are dotted ("thread.sp") and look
 * through anonymous structs and unions.
 */
#ifndef OC_TYPES_H
#define OC_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct oc_member {
	uint64_t offset;	/* bytes from the start of the outer type */
	uint64_t size;		/* bytes; 0 for a flexible array */
	uint32_t bit_offset;	/* for bit fields: bits past @offset */
	uint32_t bit_size;	/* 0 unless a bit field */
};

/*
 * A member's value in a copy of its struct read from the dump: the
 * bytes it spans (bit fields included; 0 when wider than 8 bytes, or
 * absurd), whether it lies inside a struct of @size bytes (check once,
 * when the layout is read: a hostile BTF can say anything), and its
 * value, little-endian, bit field extracted (0 if it does not fit).
 */
size_t oc_member_span(const struct oc_member *m);
bool oc_member_fits(const struct oc_member *m, uint64_t size);
uint64_t oc_member_get(const void *buf, uint64_t size,
		       const struct oc_member *m);

/* Where oc_types_dump() writes its text, piece by piece. */
typedef void (*oc_types_emit_fn)(void *ctx, const char *fmt, va_list ap);
/* What a pointer value points at, into @buf: the symbol; with @string
 * (a char pointer) the bytes there instead, up to their NUL, at most
 * @size - 1 of them (NUL-terminated).  false: none, unreadable. */
typedef bool (*oc_types_symbol_fn)(void *ctx, uint64_t addr, bool string,
				   char *buf, size_t size);

/* One name of oc_types_complete(); false: enough. */
typedef bool (*oc_types_name_fn)(void *ctx, const char *name);

struct oc_types_ops {
	struct oc_error *(*type_size)(void *arg, const char *type,
				      uint64_t *ret);
	struct oc_error *(*member)(void *arg, const char *type,
				   const char *path, struct oc_member *ret);
	/* The C name of @type, or of its member @path (NULL: the type):
	 * "struct rq" for "typeof(runqueues)", "unsigned int" for its
	 * "nr_running"; NULL: this backend cannot. */
	struct oc_error *(*type_name)(void *arg, const char *type,
				      const char *path, char *buf, size_t size);
	/* The value of an enumerator (e.g. "ESTACK_DF"). */
	struct oc_error *(*enum_value)(void *arg, const char *name,
				       int64_t *ret);
	/* Print a value of @type held in @buf (its size bytes) as C, every
	 * member named; NULL: this backend cannot. */
	struct oc_error *(*dump)(void *arg, const char *type, const char *path,
				 const void *buf, size_t len, unsigned int flags,
				 oc_types_emit_fn emit, oc_types_symbol_fn symbol,
				 void *ctx);
	/* Names for completion, each starting with @prefix, to @fn (false:
	 * stop): @type NULL, the type names struct takes ("task_struct":
	 * structs', unions', typedefs'; a split BTF's own alone); else the
	 * members of @type, or of its member @path (NULL: the type's own),
	 * anonymous members looked through.  NULL: this backend cannot. */
	void (*complete)(void *arg, const char *type, const char *path,
			 const char *prefix, oc_types_name_fn fn, void *ctx);
	void (*destroy)(void *arg);
};

struct oc_types {
	const struct oc_types_ops *ops;
	void *arg;
	/* consulted when the first backend says OC_ERR_LOOKUP */
	struct oc_types *fallback;
};

struct oc_error *oc_types_size(struct oc_types *types, const char *type,
			       uint64_t *ret);
struct oc_error *oc_types_member(struct oc_types *types, const char *type,
				 const char *path, struct oc_member *ret);
struct oc_error *oc_types_offsetof(struct oc_types *types, const char *type,
				   const char *path, uint64_t *ret);
struct oc_error *oc_types_enum_value(struct oc_types *types, const char *name,
				     int64_t *ret);
/* The C name of @type, or of its member @path (NULL: the type itself),
 * into @buf: typedefs kept, "typeof(x)" resolved. */
struct oc_error *oc_types_name(struct oc_types *types, const char *type,
			       const char *path, char *buf, size_t size);
/* oc_types_dump()'s @flags: integers (not bools, enums) in hex, as
 * crash's -x and drgn's format_(integer_base=16) print them */
#define OC_TYPES_HEX 1u

/*
 * A value of @type, or of its member @path (NULL or "": the whole value;
 * "se.vruntime": @buf then starts at oc_types_member()'s offset), its
 * bytes in @buf as read from the dump, as C
 * text: nested structs, arrays, enums by name, char arrays as strings,
 * pointers as hex, with " <symbol>" when @symbol (may be NULL) names
 * one, a char pointer with the string @symbol reads there (256 bytes
 * at most, "..." after a longer one); nesting and array elements
 * capped.  @emit gets the text, tabs
 * for indentation; strings from the dump come escaped.
 */
struct oc_error *oc_types_dump(struct oc_types *types, const char *type,
			       const char *path, const void *buf, size_t len,
			       unsigned int flags, oc_types_emit_fn emit, oc_types_symbol_fn symbol,
			       void *ctx);
/* Names for a shell's completion (struct oc_types_ops' complete): every
 * backend's type names; a type's members from the first that knows it. */
void oc_types_complete(struct oc_types *types, const char *type, const char *path,
		       const char *prefix, oc_types_name_fn fn, void *ctx);
/* Destroys the fallback chain too. */
void oc_types_destroy(struct oc_types *types);

#endif /* OC_TYPES_H */
