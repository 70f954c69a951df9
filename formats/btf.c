// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * struct oc_types over the kernel's BTF with libbpf's BTF API.
 *
 * Type names carry their kind ("struct task_struct", "union
 * thread_union", "enum stack_type"); a bare name is a typedef or a base
 * type ("pgd_t", "unsigned long"), and a trailing '*' a pointer.
 * Member paths are dotted ("thread.sp") with optional array indexes
 * ("x86_tss.ist[1]"); anonymous struct and union members are looked
 * through, and typedefs and const/volatile/restrict/type tags are
 * followed at every step.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf.h"

enum {
	MAX_PATH_DEPTH = 32,	/* components in a member path */
	MAX_ANON_DEPTH = 16,	/* nested anonymous members */
	MAX_CHAIN = 32,		/* typedef/modifier links */
};

/*
 * Name and kind -> the first type id with them, what
 * btf__find_by_name_kind() answers by a linear scan of every type
 * (~100,000 in a vmlinux's BTF, up to 7 kinds tried for a bare name,
 * ~100 names asked at each open).  Made when the BTF is read (so that
 * lookups from several threads only read it), in one pass over the
 * BTF's own ids, keeping the lowest id of each name and kind; open
 * addressing, a slot holding id + 1 (0: empty) and the key's hash.  A
 * module's split BTF indexes its own types only and asks its base's
 * index first: the base's ids are the lower, as libbpf's scan from id 1
 * meets them.  Only the kinds find_type() asks for are indexed; another
 * kind is scanned.
 */
struct name_slot {
	uint32_t id_1, hash;
};

struct btf_types {
	struct btf *btf;
	const struct btf_types *base;	/* a split BTF's; else NULL */
	uint32_t first_id;		/* the first of its own ids */
	struct name_slot *index;	/* NULL (out of memory): scan */
	size_t index_size;		/* a power of two */
};

static bool indexed_kind(int kind)
{
	switch (kind) {
	case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION:
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_TYPEDEF:
	case BTF_KIND_FLOAT: case BTF_KIND_VAR:
		return true;
	default:
		return false;
	}
}

/* FNV-1a of the name, then the kind */
static uint32_t name_hash(const char *name, int kind)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return (h ^ (uint32_t)kind) * 16777619u;
}

/* The slot of @name and @kind (hash @h) in @bt's index, or the empty
 * slot where it would go. */
static size_t index_slot(const struct btf_types *bt, const char *name,
			 int kind, uint32_t h)
{
	size_t slot = h & (bt->index_size - 1);

	for (; bt->index[slot].id_1; slot = (slot + 1) & (bt->index_size - 1)) {
		const struct btf_type *t;

		if (bt->index[slot].hash != h)
			continue;
		t = btf__type_by_id(bt->btf, bt->index[slot].id_1 - 1);
		if (btf_kind(t) == kind &&
		    !strcmp(btf__name_by_offset(bt->btf, t->name_off), name))
			break;
	}
	return slot;
}

static void make_index(struct btf_types *bt)
{
	uint32_t nr = btf__type_cnt(bt->btf), named = 0;
	size_t size = 16;

	for (uint32_t id = bt->first_id; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(bt->btf, id);

		named += t && t->name_off && indexed_kind(btf_kind(t));
	}
	while (size < 2 * (size_t)named)
		size *= 2;
	bt->index = calloc(size, sizeof(*bt->index));
	if (!bt->index)
		return;
	bt->index_size = size;
	for (uint32_t id = bt->first_id; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(bt->btf, id);
		const char *name;
		uint32_t h;
		size_t slot;

		if (!t || !t->name_off || !indexed_kind(btf_kind(t)))
			continue;
		name = btf__name_by_offset(bt->btf, t->name_off);
		if (!name)
			continue;
		h = name_hash(name, btf_kind(t));
		slot = index_slot(bt, name, btf_kind(t), h);
		/* taken: a lower id has the name already */
		if (!bt->index[slot].id_1)
			bt->index[slot] = (struct name_slot){ id + 1, h };
	}
}

/* What btf__find_by_name_kind() answers: the id, or < 0 for none. */
static int32_t find_by_name_kind(const struct btf_types *bt, const char *name,
				 int kind)
{
	uint32_t h;
	size_t slot;

	if (!indexed_kind(kind) || !bt->index || (bt->base && !bt->base->index))
		return btf__find_by_name_kind(bt->btf, name, kind);
	h = name_hash(name, kind);
	if (bt->base) {
		slot = index_slot(bt->base, name, kind, h);
		if (bt->base->index[slot].id_1)
			return (int32_t)bt->base->index[slot].id_1 - 1;
	}
	slot = index_slot(bt, name, kind, h);
	return bt->index[slot].id_1 ? (int32_t)bt->index[slot].id_1 - 1 : -ENOENT;
}

/* Follow typedefs and modifiers to the type that has a layout. */
static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id,
					uint32_t *id_ret)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	for (unsigned int i = 0; t && i < MAX_CHAIN; i++) {
		if (!btf_is_mod(t) && !btf_is_typedef(t))
			break;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (t && (btf_is_mod(t) || btf_is_typedef(t)))
		return NULL;	/* a loop: hostile data */
	if (id_ret)
		*id_ret = id;
	return t;
}

/* "struct task_struct" -> its BTF id.  A bare name: typedef, int, ... */
static struct oc_error *find_type(struct btf_types *bt, const char *type,
				  uint32_t *id_ret, bool *pointer_ret)
{
	static const struct {
		const char *prefix;
		int kinds[2];
	} prefixes[] = {
		{ "struct ", { BTF_KIND_STRUCT, -1 } },
		{ "union ", { BTF_KIND_UNION, -1 } },
		{ "enum ", { BTF_KIND_ENUM, BTF_KIND_ENUM64 } },
	};
	static const int bare_kinds[] = {
		BTF_KIND_TYPEDEF, BTF_KIND_INT, BTF_KIND_STRUCT,
		BTF_KIND_UNION, BTF_KIND_ENUM, BTF_KIND_ENUM64, BTF_KIND_FLOAT,
	};
	static const char *const c_names[][2] = {
		{ "unsigned long", "long unsigned int" },
		{ "long", "long int" },
		{ "signed long", "long int" },
		{ "unsigned long long", "long long unsigned int" },
		{ "long long", "long long int" },
		{ "unsigned", "unsigned int" },
		{ "unsigned short", "short unsigned int" },
		{ "short", "short int" },
	};
	char name[256];
	size_t len = strlen(type);
	const int *kinds = bare_kinds;
	size_t nkinds = sizeof(bare_kinds) / sizeof(bare_kinds[0]);
	const char *p = type;

	*pointer_ret = false;
	while (len && type[len - 1] == ' ')
		len--;
	/* typeof(NAME): the type of the variable NAME (a BTF VAR: the
	 * per-CPU variables, every global since pahole 1.27's global_var) */
	if (len > 8 && !strncmp(type, "typeof(", 7) && type[len - 1] == ')') {
		const struct btf_type *v;
		int32_t id;

		if (len - 8 >= sizeof(name))
			return oc_error_format(OC_ERR_LOOKUP, "bad type name \"%s\"", type);
		memcpy(name, type + 7, len - 8);
		name[len - 8] = '\0';
		id = find_by_name_kind(bt, name, BTF_KIND_VAR);
		v = id > 0 ? btf__type_by_id(bt->btf, id) : NULL;
		if (!v || !v->type)
			return oc_error_format(OC_ERR_LOOKUP, "no variable %s in BTF", name);
		*id_ret = v->type;
		return NULL;
	}
	if (len && type[len - 1] == '*') {
		*pointer_ret = true;
		*id_ret = 0;
		return NULL;
	}
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t plen = strlen(prefixes[i].prefix);

		if (!strncmp(type, prefixes[i].prefix, plen)) {
			p = type + plen;
			len -= plen;
			kinds = prefixes[i].kinds;
			nkinds = kinds[1] < 0 ? 1 : 2;
			break;
		}
	}
	if (!len || len >= sizeof(name))
		return oc_error_format(OC_ERR_LOOKUP, "bad type name \"%s\"", type);
	memcpy(name, p, len);
	name[len] = '\0';
	/* BTF spells base types as DWARF does: "long unsigned int" */
	if (kinds == bare_kinds) {
		for (size_t i = 0; i < sizeof(c_names) / sizeof(c_names[0]); i++) {
			if (!strcmp(name, c_names[i][0])) {
				snprintf(name, sizeof(name), "%s", c_names[i][1]);
				break;
			}
		}
	}
	for (size_t i = 0; i < nkinds; i++) {
		int32_t id = find_by_name_kind(bt, name, kinds[i]);

		if (id > 0) {
			*id_ret = id;
			return NULL;
		}
	}
	return oc_error_format(OC_ERR_LOOKUP, "no type %s in BTF", type);
}

/*
 * "E [N]" (one dimension, as formats/dwarfvars.c prints a global's type:
 * `p` of an array): its element type's name into @elem and N; false
 * for any other type name.  A pointer element ("pg_data_t *[1024]") is
 * taken: element_type() finds its BTF type.
 */
static bool array_name(const char *type, char *elem, size_t size, uint64_t *n)
{
	size_t len = strlen(type);
	const char *open = len && type[len - 1] == ']' ? strrchr(type, '[') : NULL;
	char *end;
	size_t elen;

	if (!open || open == type || open[1] == ']' || !isdigit((unsigned char)open[1]))
		return false;
	errno = 0;
	*n = strtoull(open + 1, &end, 10);
	if (errno || end != type + len - 1)
		return false;
	for (elen = (size_t)(open - type); elen && type[elen - 1] == ' '; elen--)
		;
	if (!elen || elen >= size || type[elen - 1] == ']')
		return false;
	memcpy(elem, type, elen);
	elem[elen] = '\0';
	return true;
}

/*
 * An array's element type by name into *@id_ret: find_type()'s, or for
 * a pointer ("pg_data_t *", "struct file **") a BTF PTR to the pointee
 * (BTF has no names for pointers: the first PTR whose target, through
 * const/volatile, is the pointee's id; none when no C code of the kernel
 * spells that pointer type).
 */
static struct oc_error *element_type(struct btf_types *bt, const char *elem, uint32_t *id_ret)
{
	char pointee[256];
	size_t len = strlen(elem);
	uint32_t target, n;
	struct oc_error *err;
	bool pointer;

	if ((err = find_type(bt, elem, id_ret, &pointer)) || !pointer)
		return err;
	while (len && (elem[len - 1] == ' ' || elem[len - 1] == '*'))
		if (elem[--len] == '*')
			break;
	while (len && elem[len - 1] == ' ')
		len--;
	if (!len || len >= sizeof(pointee))
		return oc_error_format(OC_ERR_LOOKUP, "bad type name \"%s\"", elem);
	memcpy(pointee, elem, len);
	pointee[len] = '\0';
	if ((err = element_type(bt, pointee, &target)))
		return err;
	n = btf__type_cnt(bt->btf);
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(bt->btf, id);
		uint32_t to;

		if (!t || !btf_is_ptr(t))
			continue;
		/* a few qualifiers at most: a loop of them (a hostile BTF
		 * from the dump) ends here */
		to = t->type;
		for (unsigned int hops = 0; to && hops < MAX_CHAIN; hops++) {
			const struct btf_type *m = btf__type_by_id(bt->btf, to);

			if (to == target || !m || !(btf_is_const(m) || btf_is_volatile(m)))
				break;
			to = m->type;
		}
		if (to == target) {
			*id_ret = id;
			return NULL;
		}
	}
	return oc_error_format(OC_ERR_LOOKUP, "no pointer type %s in BTF", elem);
}

static struct oc_error *btf_type_size(void *arg, const char *type,
				      uint64_t *ret)
{
	struct btf_types *bt = arg;
	struct oc_error *err;
	uint32_t id;
	bool pointer;
	int64_t size;
	char elem[256];
	uint64_t n = 1;
	bool array = array_name(type, elem, sizeof(elem), &n);

	pointer = false;
	err = array ? element_type(bt, elem, &id) : find_type(bt, type, &id, &pointer);
	if (err)
		return err;
	if (pointer) {
		*ret = 8;
		return NULL;
	}
	size = btf__resolve_size(bt->btf, id);
	if (size < 0)
		return oc_error_format(OC_ERR_FORMAT,
				       "btf__resolve_size(%s): %s", type,
				       strerror((int)-size));
	if (n && (uint64_t)size > UINT64_MAX / n)
		return oc_error_format(OC_ERR_INVALID, "%s: too large", type);
	*ret = (uint64_t)size * n;
	return NULL;
}

/*
 * Find member @name in the struct/union @t, looking through anonymous
 * members.  Adds the member's bit offset to *bits.
 */
static bool find_member(const struct btf *btf, const struct btf_type *t,
			const char *name, unsigned int depth, uint64_t *bits,
			uint32_t *type_ret, uint32_t *bitfield_ret)
{
	const struct btf_member *m = btf_members(t);
	unsigned int n = btf_vlen(t);

	if (depth > MAX_ANON_DEPTH)
		return false;
	for (unsigned int i = 0; i < n; i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);

		if (mname && *mname) {
			if (strcmp(mname, name))
				continue;
			*bits += btf_member_bit_offset(t, i);
			*type_ret = m->type;
			*bitfield_ret = btf_member_bitfield_size(t, i);
			return true;
		}
		/* an anonymous struct or union: its members are ours */
		{
			const struct btf_type *inner = skip_mods(btf, m->type, NULL);
			uint64_t inner_bits = 0;

			if (!inner || !btf_is_composite(inner))
				continue;
			if (find_member(btf, inner, name, depth + 1,
					&inner_bits, type_ret, bitfield_ret)) {
				*bits += btf_member_bit_offset(t, i) + inner_bits;
				return true;
			}
		}
	}
	return false;
}

/* Split "name[3]" into "name" and 3; no brackets -> index -1. */
static struct oc_error *parse_component(const char *comp, size_t len,
					char *name, size_t size, int64_t *index)
{
	const char *br = memchr(comp, '[', len);
	size_t nlen = br ? (size_t)(br - comp) : len;

	*index = -1;
	if (!nlen || nlen >= size)
		return oc_error_format(OC_ERR_INVALID, "bad member path component \"%.*s\"",
				       (int)len, comp);
	memcpy(name, comp, nlen);
	name[nlen] = '\0';
	if (br) {
		char *end;

		errno = 0;
		*index = strtoll(br + 1, &end, 0);
		if (errno || *index < 0 || end != comp + len - 1 || *end != ']')
			return oc_error_format(OC_ERR_INVALID,
					       "bad array index in \"%.*s\"",
					       (int)len, comp);
	}
	return NULL;
}

/* @type's member @path: its type, bit offset and bit-field size */
static struct oc_error *resolve_path(struct btf_types *bt, const char *type,
				     const char *path, uint32_t *id_ret,
				     uint64_t *bits_ret, uint32_t *bitfield_ret)
{
	const struct btf *btf = bt->btf;
	struct oc_error *err;
	uint32_t id, bitfield = 0;
	uint64_t bits = 0;
	bool pointer;
	const char *p = path;

	if (!*path || *path == '.' || path[strlen(path) - 1] == '.' ||
	    strstr(path, ".."))
		return oc_error_format(OC_ERR_INVALID, "bad member path \"%s\"",
				       path);
	err = find_type(bt, type, &id, &pointer);
	if (err)
		return err;
	if (pointer)
		return oc_error_format(OC_ERR_LOOKUP, "%s is a pointer, not a struct",
				       type);
	for (unsigned int depth = 0; *p; depth++) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		const struct btf_type *t = skip_mods(btf, id, NULL);
		char name[128];
		int64_t index;

		if (depth >= MAX_PATH_DEPTH)
			return oc_error_format(OC_ERR_INVALID, "member path too long: %s",
					       path);
		err = parse_component(p, len, name, sizeof(name), &index);
		if (err)
			return err;
		if (!t || !btf_is_composite(t))
			return oc_error_format(OC_ERR_LOOKUP,
					       "%s.%.*s: not a struct or union before \"%s\"",
					       type, (int)(p - path), path, name);
		if (bitfield)
			return oc_error_format(OC_ERR_LOOKUP,
					       "%s.%s: a bit field has no members",
					       type, path);
		if (!find_member(btf, t, name, 0, &bits, &id, &bitfield))
			return oc_error_format(OC_ERR_LOOKUP, "%s has no member %.*s",
					       type, (int)(p + len - path), path);
		if (index >= 0) {
			const struct btf_type *at = skip_mods(btf, id, NULL);
			int64_t esize;

			if (!at || !btf_is_array(at))
				return oc_error_format(OC_ERR_LOOKUP,
						       "%s.%.*s is not an array", type,
						       (int)(p + len - path), path);
			/* index past nelems is allowed: flexible arrays */
			id = btf_array(at)->type;
			esize = btf__resolve_size(btf, id);
			if (esize < 0)
				return oc_error_format(OC_ERR_FORMAT,
						       "btf__resolve_size(%s.%s): %s",
						       type, path, strerror((int)-esize));
			bits += (uint64_t)index * esize * 8;
		}
		p += len;
		if (*p == '.')
			p++;
	}
	*id_ret = id;
	*bits_ret = bits;
	*bitfield_ret = bitfield;
	return NULL;
}

static struct oc_error *btf_member(void *arg, const char *type,
				   const char *path, struct oc_member *ret)
{
	struct btf_types *bt = arg;
	const struct btf *btf = bt->btf;
	struct oc_error *err;
	uint32_t id, bitfield;
	uint64_t bits;
	int64_t size;

	err = resolve_path(bt, type, path, &id, &bits, &bitfield);
	if (err)
		return err;
	memset(ret, 0, sizeof(*ret));
	if (bitfield) {
		/* the bytes that hold the bits: read them, shift, mask */
		ret->offset = bits / 8;
		ret->bit_offset = bits % 8;
		ret->bit_size = bitfield;
		ret->size = (ret->bit_offset + bitfield + 7) / 8;
		return NULL;
	}
	if (bits % 8)
		return oc_error_format(OC_ERR_FORMAT,
				       "%s.%s: member at bit %llu is not byte-aligned",
				       type, path, (unsigned long long)bits);
	size = btf__resolve_size(btf, id);
	if (size < 0)
		return oc_error_format(OC_ERR_FORMAT,
				       "btf__resolve_size(%s.%s): %s", type, path,
				       strerror((int)-size));
	ret->offset = bits / 8;
	ret->size = size;	/* 0 for a flexible array */
	return NULL;
}

static struct oc_error *btf_enum_value(void *arg, const char *name,
				       int64_t *ret)
{
	struct btf_types *bt = arg;
	const struct btf *btf = bt->btf;
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		unsigned int vlen;

		if (!t)
			continue;
		vlen = btf_vlen(t);
		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);

			for (unsigned int i = 0; i < vlen; i++, e++) {
				const char *en = btf__name_by_offset(btf, e->name_off);

				if (!en || strcmp(en, name))
					continue;
				/* kflag: signed values (since 6.0) */
				*ret = btf_kflag(t) ? (int64_t)e->val
						    : (int64_t)(uint32_t)e->val;
				return NULL;
			}
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);

			for (unsigned int i = 0; i < vlen; i++, e++) {
				const char *en = btf__name_by_offset(btf, e->name_off);

				if (!en || strcmp(en, name))
					continue;
				*ret = (int64_t)btf_enum64_value(e);
				return NULL;
			}
		}
	}
	return oc_error_format(OC_ERR_LOOKUP, "no enumerator %s in BTF", name);
}

/*
 * The value printer: C-like text, every member named, as drgn and crash
 * print a struct ("(struct list_head){ .next = (struct list_head *)0x...,
 * ... }").  Our own rather than libbpf's btf_dump__dump_type_data(): in
 * libbpf 1.1 (Debian 12) a char array leaves its "array of char" state
 * set, and every 1-byte int after it (bool, u8) prints nothing.  Capped:
 * nesting depth, array elements, values in all, and it never reads past
 * @len.
 */
enum {
	DUMP_MAX_DEPTH = 16,
	DUMP_MAX_ELEMS = 256,
	/* values printed in all: nested arrays of a hostile BTF could ask
	 * for 256^16 */
	DUMP_MAX_VALUES = 1 << 20,
	DUMP_MAX_STRING = 256,	/* bytes of a char pointer's string */
};

struct dumper {
	const struct btf *btf;
	const uint8_t *buf;
	size_t len;
	oc_types_emit_fn emit;
	oc_types_symbol_fn symbol;
	void *ctx;
	unsigned long budget;	/* values left to print */
	bool hex;		/* integers in hex (OC_TYPES_HEX) */
};

static void out(struct dumper *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void out(struct dumper *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	d->emit(d->ctx, fmt, ap);
	va_end(ap);
}

/* A type's C name: "struct list_head *", "char[16]", "pid_t" ... */
static void type_name(const struct btf *btf, uint32_t id, char *buf,
		      size_t size, unsigned int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	char inner[200];

	if (!id || !t || depth > MAX_CHAIN) {
		snprintf(buf, size, "%s", id ? "?" : "void");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		snprintf(buf, size, "%s %s", btf_is_struct(t) ? "struct" :
			 btf_is_union(t) ? "union" : "enum", name && *name ? name : "(anonymous)");
		return;
	case BTF_KIND_PTR:
		type_name(btf, t->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, size, "%s *", inner);
		return;
	case BTF_KIND_ARRAY:
		type_name(btf, btf_array(t)->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, size, "%s[%u]", inner, btf_array(t)->nelems);
		return;
	case BTF_KIND_FUNC_PROTO:
		snprintf(buf, size, "function");
		return;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		type_name(btf, t->type, buf, size, depth + 1);
		return;
	default:
		snprintf(buf, size, "%s", name && *name ? name : "?");
	}
}

/* @bits bits at bit @off of the buffer, little-endian; 0 if outside */
static uint64_t get_bits(const struct dumper *d, uint64_t off, uint32_t bits)
{
	uint64_t v = 0;

	if (!bits || bits > 64 || (off + bits + 7) / 8 > d->len)
		return 0;
	for (uint32_t i = 0; i < bits; i++) {
		uint64_t b = off + i;

		v |= (uint64_t)(d->buf[b / 8] >> (b % 8) & 1) << i;
	}
	return v;
}

static void dump_type(struct dumper *d, uint32_t id, uint64_t bit_off,
		      uint32_t bitfield, unsigned int depth);

static void dump_members(struct dumper *d, const struct btf_type *t,
			 uint64_t bit_off, unsigned int depth)
{
	const struct btf_member *m = btf_members(t);

	for (unsigned int i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(d->btf, m->name_off);
		char tn[256];

		for (unsigned int j = 0; j <= depth; j++)
			out(d, "\t");
		type_name(d->btf, m->type, tn, sizeof(tn), 0);
		if (name && *name)
			out(d, ".%s = (%s)", name, tn);
		else
			out(d, "(%s)", tn);
		dump_type(d, m->type, bit_off + btf_member_bit_offset(t, i),
			  btf_member_bitfield_size(t, i), depth + 1);
		out(d, ",\n");
	}
}

static bool char_type(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = skip_mods(btf, id, NULL);
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

	return t && btf_is_int(t) && t->size == 1 && name &&
	       (!strcmp(name, "char") || !strcmp(name, "signed char") ||
		!strcmp(name, "unsigned char"));
}

/* The bytes at @p (@avail there, at most @max), to their NUL, as a C
 * string: '"' and '\\' escaped, bytes outside 0x20-0x7e as \\xNN */
static void put_string(struct dumper *d, const uint8_t *p, size_t avail, uint64_t max)
{
	out(d, "\"");
	for (uint64_t i = 0; i < max && i < avail && p[i]; i++) {
		uint8_t c = p[i];

		if (c == '"' || c == '\\')
			out(d, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			out(d, "\\x%02x", c);
		else
			out(d, "%c", c);
	}
	out(d, "\"");
}

/*
 * A pointer's value @v, then what it points at when the caller's
 * callback knows: a char pointer's string (crash's and drgn's "0x...
 * \"text\""; "..." after it when cut at DUMP_MAX_STRING), else the
 * symbol.  @pointee: the pointer's target type id.
 */
static void dump_pointer(struct dumper *d, uint32_t pointee, uint64_t v)
{
	char sym[DUMP_MAX_STRING + 1];

	out(d, "0x%" PRIx64, v);
	if (!d->symbol || !v)
		return;
	if (char_type(d->btf, pointee) && d->symbol(d->ctx, v, true, sym, sizeof(sym))) {
		size_t n = strnlen(sym, sizeof(sym));

		out(d, " ");
		put_string(d, (const uint8_t *)sym, n, n);
		if (n == DUMP_MAX_STRING)
			out(d, "...");
	} else if (d->symbol(d->ctx, v, false, sym, sizeof(sym))) {
		out(d, " <%s>", sym);
	}
}

/* @nelems elements of type @elem from @bit_off: a char array as a
 * string (to its NUL), another as "{ e0, e1, ... }", capped */
static void dump_array(struct dumper *d, uint32_t elem, uint64_t nelems,
		       uint64_t bit_off, unsigned int depth)
{
	__s64 esz = btf__resolve_size(d->btf, elem);
	uint64_t byte = bit_off / 8;

	if (esz <= 0) {
		out(d, "[]");
		return;
	}
	if (char_type(d->btf, elem)) {
		put_string(d, d->buf + byte, byte < d->len ? d->len - byte : 0, nelems);
		return;
	}
	out(d, "{");
	for (uint64_t i = 0; i < nelems; i++) {
		if (i == DUMP_MAX_ELEMS) {
			out(d, " ... (%" PRIu64 " more)", nelems - i);
			break;
		}
		out(d, i ? ", " : " ");
		dump_type(d, elem, bit_off + i * (uint64_t)esz * 8, 0, depth + 1);
	}
	out(d, " }");
}

static void dump_type(struct dumper *d, uint32_t id, uint64_t bit_off,
		      uint32_t bitfield, unsigned int depth)
{
	uint32_t rid;
	const struct btf_type *t = skip_mods(d->btf, id, &rid);
	uint64_t v;

	if (!t || depth > DUMP_MAX_DEPTH || !d->budget) {
		out(d, "...");
		return;
	}
	d->budget--;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		uint8_t enc = btf_int_encoding(t);
		uint32_t bits = bitfield ? bitfield : btf_int_bits(t);

		if (bits > 64 || (!bitfield && t->size > 8)) {
			out(d, "(%u bytes)", t->size);
			return;
		}
		v = get_bits(d, bit_off + (bitfield ? 0 : btf_int_offset(t)), bits);
		if (enc & BTF_INT_BOOL)
			out(d, "%s", v ? "true" : "false");
		else if (d->hex)
			out(d, "0x%" PRIx64, v);
		else if (enc & BTF_INT_SIGNED && bits < 64 && v >> (bits - 1))
			out(d, "%" PRId64, (int64_t)(v | ~0ULL << bits));
		else if (enc & BTF_INT_SIGNED)
			out(d, "%" PRId64, (int64_t)v);
		else
			out(d, "%" PRIu64, v);
		return;
	}
	case BTF_KIND_PTR:
		dump_pointer(d, t->type, get_bits(d, bit_off, 64));
		return;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		uint32_t bits = bitfield ? bitfield : t->size * 8;

		v = get_bits(d, bit_off, bits);
		for (unsigned int i = 0; i < btf_vlen(t); i++) {
			const char *en;
			uint64_t ev;

			if (btf_is_enum(t)) {
				en = btf__name_by_offset(d->btf, btf_enum(t)[i].name_off);
				ev = (uint32_t)btf_enum(t)[i].val;
			} else {
				en = btf__name_by_offset(d->btf, btf_enum64(t)[i].name_off);
				ev = btf_enum64_value(&btf_enum64(t)[i]);
			}
			if (bits < 64)
				ev &= (1ULL << bits) - 1;
			if (ev == v && en) {
				out(d, "%s", en);
				return;
			}
		}
		out(d, "%" PRIu64, v);
		return;
	}
	case BTF_KIND_ARRAY:
		dump_array(d, btf_array(t)->type, btf_array(t)->nelems, bit_off, depth);
		return;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		out(d, "{\n");
		dump_members(d, t, bit_off, depth);
		for (unsigned int j = 0; j < depth; j++)
			out(d, "\t");
		out(d, "}");
		return;
	default:
		out(d, "(%s)", btf_kind(t) == BTF_KIND_FWD ? "incomplete type" : "?");
	}
}

static struct oc_error *btf_dump_value(void *arg, const char *type,
				       const char *path, const void *buf,
				       size_t len, unsigned int flags,
				       oc_types_emit_fn emit,
				       oc_types_symbol_fn symbol, void *ctx)
{
	struct btf_types *bt = arg;
	struct dumper d = { bt->btf, buf, len, emit, symbol, ctx, DUMP_MAX_VALUES,
			    flags & OC_TYPES_HEX };
	struct oc_error *err;
	uint32_t id, bitfield = 0;
	uint64_t bits = 0, nelems;
	bool pointer;
	char tn[256];

	/* an array by name ("long unsigned int [8]"): its elements, as a
	 * member's */
	if (array_name(type, tn, sizeof(tn), &nelems)) {
		if (path && *path)
			return oc_error_format(OC_ERR_INVALID, "%s: an array has no members", type);
		if ((err = element_type(bt, tn, &id)))
			return err;
		out(&d, "(%s)", type);
		dump_array(&d, id, nelems, 0, 0);
		out(&d, "\n");
		return NULL;
	}
	if ((err = find_type(bt, type, &id, &pointer)))
		return err;
	/* a pointer type by name ("char *"): its value, as a member's */
	if (pointer) {
		if (path && *path)
			return oc_error_format(OC_ERR_INVALID, "%s: a pointer has no members", type);
		if (len < 8)
			return oc_error_format(OC_ERR_INVALID, "%s: %zu bytes, not a pointer's 8", type, len);
		/* its target by name ("char *": "char"), for a string */
		size_t n = strlen(type);
		uint32_t pointee = 0;
		bool pp;

		while (n && (type[n - 1] == '*' || type[n - 1] == ' '))
			n--;
		if (n < sizeof(tn) && type[n] == ' ' && type[n + 1] == '*' && !type[n + 2]) {
			memcpy(tn, type, n);
			tn[n] = '\0';
			if (!oc_ok(find_type(bt, tn, &pointee, &pp)) || pp)
				pointee = 0;
		}
		out(&d, "(%s)", type);
		dump_pointer(&d, pointee, get_bits(&d, 0, 64));
		out(&d, "\n");
		return NULL;
	}
	/* a member: @buf starts at the byte that holds its first bit */
	if (path && *path && (err = resolve_path(bt, type, path, &id, &bits, &bitfield)))
		return err;
	type_name(bt->btf, id, tn, sizeof(tn), 0);
	out(&d, "(%s)", tn);
	dump_type(&d, id, bits % 8, bitfield, 0);
	out(&d, "\n");
	return NULL;
}

static struct oc_error *btf_type_name(void *arg, const char *type,
				      const char *path, char *buf, size_t size)
{
	struct btf_types *bt = arg;
	struct oc_error *err;
	uint32_t id, bitfield = 0;
	uint64_t bits = 0;
	bool pointer;
	char elem[256];
	uint64_t n;

	if (array_name(type, elem, sizeof(elem), &n)) {
		if (path && *path)
			return oc_error_format(OC_ERR_INVALID, "%s: an array has no members", type);
		snprintf(buf, size, "%s", type);
		return NULL;
	}
	if ((err = find_type(bt, type, &id, &pointer)))
		return err;
	if (pointer) {
		snprintf(buf, size, "%s", type);
		return NULL;
	}
	if (path && *path && (err = resolve_path(bt, type, path, &id, &bits, &bitfield)))
		return err;
	type_name(bt->btf, id, buf, size, 0);
	return NULL;
}

/* The named members of struct/union @t with @prefix, anonymous ones'
 * looked through; false: @fn had enough */
static bool complete_members(const struct btf *btf, const struct btf_type *t,
			     const char *prefix, size_t len, unsigned int depth,
			     oc_types_name_fn fn, void *ctx)
{
	const struct btf_member *m = btf_members(t);

	if (depth > MAX_ANON_DEPTH)
		return true;
	for (unsigned int i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		const struct btf_type *inner;

		if (name && *name) {
			if (!strncmp(name, prefix, len) && !fn(ctx, name))
				return false;
			continue;
		}
		inner = skip_mods(btf, m->type, NULL);
		if (inner && btf_is_composite(inner) &&
		    !complete_members(btf, inner, prefix, len, depth + 1, fn, ctx))
			return false;
	}
	return true;
}

static void btf_complete(void *arg, const char *type, const char *path,
			 const char *prefix, oc_types_name_fn fn, void *ctx)
{
	struct btf_types *bt = arg;
	const struct btf *base = btf__base_btf(bt->btf);
	size_t len = strlen(prefix);
	uint32_t id, bitfield;
	uint64_t bits;
	bool pointer;
	const struct btf_type *t;

	if (!type) {
		/* a split BTF's own types: its base lists the rest */
		for (uint32_t i = base ? btf__type_cnt(base) : 1; i < btf__type_cnt(bt->btf); i++) {
			const char *name;

			t = btf__type_by_id(bt->btf, i);
			if (!t || !(btf_is_composite(t) || btf_is_typedef(t)))
				continue;
			name = btf__name_by_offset(bt->btf, t->name_off);
			if (name && *name && !strncmp(name, prefix, len) && !fn(ctx, name))
				return;
		}
		return;
	}
	if (path && *path) {
		if (!oc_ok(resolve_path(bt, type, path, &id, &bits, &bitfield)) || bitfield)
			return;
	} else if (!oc_ok(find_type(bt, type, &id, &pointer)) || pointer) {
		return;
	}
	t = skip_mods(bt->btf, id, NULL);
	if (t && btf_is_composite(t))
		complete_members(bt->btf, t, prefix, len, 0, fn, ctx);
}

static void btf_types_destroy(void *arg)
{
	struct btf_types *bt = arg;

	free(bt->index);
	btf__free(bt->btf);
	free(bt);
}

static const struct oc_types_ops btf_types_ops = {
	.type_size = btf_type_size,
	.member = btf_member,
	.enum_value = btf_enum_value,
	.type_name = btf_type_name,
	.dump = btf_dump_value,
	.complete = btf_complete,
	.destroy = btf_types_destroy,
};

/* Wraps @btf (taken; NULL or an error pointer: libbpf failed), split
 * over @base's types or not (NULL). */
static struct oc_error *wrap(struct btf *btf, const struct btf_types *base,
			     struct oc_types **ret)
{
	struct btf_types *bt;
	struct oc_types *types;

	if (!btf || libbpf_get_error(btf)) {
		int e = btf ? (int)-libbpf_get_error(btf) : errno;

		return oc_error_format(OC_ERR_FORMAT, "btf__new: %s",
				       strerror(e ? e : EINVAL));
	}
	bt = calloc(1, sizeof(*bt));
	types = calloc(1, sizeof(*types));
	if (!bt || !types) {
		free(bt);
		free(types);
		btf__free(btf);
		return &oc_enomem;
	}
	bt->btf = btf;
	bt->base = base;
	bt->first_id = base ? btf__type_cnt(base->btf) : 1;
	make_index(bt);
	types->ops = &btf_types_ops;
	types->arg = bt;
	*ret = types;
	return NULL;
}

struct oc_error *oc_btf_types_create(const void *data, size_t len,
				     struct oc_types **ret)
{
	if (len < 24 || len > UINT32_MAX)
		return oc_error_format(OC_ERR_FORMAT, "BTF of %zu bytes", len);
	/* btf__new() copies the data and checks it */
	errno = 0;
	return wrap(btf__new(data, (uint32_t)len), NULL, ret);
}

/*
 * btf__new_split() is in libbpf's btf.h but not exported by Debian 12's
 * libbpf 1.1 (its libbpf.map lacks it); btf__parse_raw_split() is, and
 * reads a file: the bytes go through an anonymous memory file.  NULL
 * (errno set) on failure, as libbpf returns.
 */
static struct btf *new_split(const void *data, size_t len, struct btf *base)
{
	char path[64];
	struct btf *btf;
	int fd, e;

	fd = memfd_create("orccrash-btf", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			close(fd);
			errno = e;
			return NULL;
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	errno = 0;
	btf = btf__parse_raw_split(path, base);
	e = errno;
	close(fd);
	errno = e;
	return btf;
}

struct oc_error *oc_btf_types_create_split(const void *data, size_t len,
					   const struct oc_types *base,
					   struct oc_types **ret)
{
	const struct btf_types *bb;

	if (!base || base->ops != &btf_types_ops)
		return oc_error_format(OC_ERR_INVALID, "split BTF without the kernel's BTF as its base");
	if (len < 24 || len > UINT32_MAX)
		return oc_error_format(OC_ERR_FORMAT, "BTF of %zu bytes", len);
	bb = base->arg;
	return wrap(new_split(data, len, bb->btf), bb, ret);
}

const void *oc_btf_library_address(void)
{
	/* a function of libbpf's, as the loader mapped it */
	return (const void *)(uintptr_t)btf__type_by_id;
}
