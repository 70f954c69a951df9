// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "cursor.h"
#include "types.h"

size_t oc_member_span(const struct oc_member *m)
{
	uint64_t bits;

	if (!m->bit_size)
		return m->size <= 8 ? m->size : 0;
	if (m->bit_size > 57 || m->bit_offset > 64)
		return 0;
	bits = (uint64_t)m->bit_offset + m->bit_size;
	return bits <= 64 ? (bits + 7) / 8 : 0;
}

bool oc_member_fits(const struct oc_member *m, uint64_t size)
{
	size_t n = oc_member_span(m);

	return n && m->offset <= size && n <= size - m->offset;
}

uint64_t oc_member_get(const void *buf, uint64_t size,
		       const struct oc_member *m)
{
	size_t n = oc_member_span(m);
	struct oc_cursor c;
	uint64_t v = 0;

	if (!oc_member_fits(m, size))
		return 0;
	oc_cursor_init(&c, (const uint8_t *)buf + m->offset, n, "member");
	if (!oc_ok(oc_cursor_le(&c, n, &v)))
		return 0;
	if (m->bit_size)
		v = (v >> m->bit_offset) & ((1ULL << m->bit_size) - 1);
	return v;
}

struct oc_error *oc_types_size(struct oc_types *types, const char *type,
			       uint64_t *ret)
{
	for (struct oc_types *t = types; t; t = t->fallback) {
		struct oc_error *err = t->ops->type_size(t->arg, type, ret);

		if (!err || err->code != OC_ERR_LOOKUP || !t->fallback)
			return err;
		oc_error_destroy(err);
	}
	return oc_error_format(OC_ERR_LOOKUP, "no type information");
}

struct oc_error *oc_types_member(struct oc_types *types, const char *type,
				 const char *path, struct oc_member *ret)
{
	for (struct oc_types *t = types; t; t = t->fallback) {
		struct oc_error *err = t->ops->member(t->arg, type, path, ret);

		if (!err || err->code != OC_ERR_LOOKUP || !t->fallback)
			return err;
		oc_error_destroy(err);
	}
	return oc_error_format(OC_ERR_LOOKUP, "no type information");
}

struct oc_error *oc_types_offsetof(struct oc_types *types, const char *type,
				   const char *path, uint64_t *ret)
{
	struct oc_member m;
	struct oc_error *err = oc_types_member(types, type, path, &m);

	if (!err)
		*ret = m.offset;
	return err;
}

struct oc_error *oc_types_enum_value(struct oc_types *types, const char *name,
				     int64_t *ret)
{
	for (struct oc_types *t = types; t; t = t->fallback) {
		struct oc_error *err;

		if (!t->ops->enum_value)
			continue;
		err = t->ops->enum_value(t->arg, name, ret);
		if (!err || err->code != OC_ERR_LOOKUP || !t->fallback)
			return err;
		oc_error_destroy(err);
	}
	return oc_error_format(OC_ERR_LOOKUP, "no enumerator %s", name);
}

struct oc_error *oc_types_name(struct oc_types *types, const char *type,
			       const char *path, char *buf, size_t size)
{
	for (struct oc_types *t = types; t; t = t->fallback) {
		struct oc_error *err;

		if (!t->ops->type_name)
			continue;
		err = t->ops->type_name(t->arg, type, path, buf, size);
		if (!err || err->code != OC_ERR_LOOKUP || !t->fallback)
			return err;
		oc_error_destroy(err);
	}
	return oc_error_format(OC_ERR_LOOKUP, "no type %s", type);
}

struct oc_error *oc_types_dump(struct oc_types *types, const char *type,
			       const char *path, const void *buf, size_t len,
			       unsigned int flags, oc_types_emit_fn emit,
			       oc_types_symbol_fn symbol, void *ctx)
{
	for (struct oc_types *t = types; t; t = t->fallback) {
		struct oc_error *err;

		if (!t->ops->dump)
			continue;
		err = t->ops->dump(t->arg, type, path, buf, len, flags, emit, symbol, ctx);
		if (!err || err->code != OC_ERR_LOOKUP || !t->fallback)
			return err;
		oc_error_destroy(err);
	}
	return oc_error_format(OC_ERR_LOOKUP, "no type information to print %s", type);
}

void oc_types_complete(struct oc_types *types, const char *type, const char *path,
		       const char *prefix, oc_types_name_fn fn, void *ctx)
{
	for (struct oc_types *t = types; t; t = t->fallback) {
		uint64_t size;

		if (!t->ops->complete)
			continue;
		if (!type) {
			t->ops->complete(t->arg, NULL, NULL, prefix, fn, ctx);
		} else if (oc_ok(t->ops->type_size(t->arg, type, &size))) {
			t->ops->complete(t->arg, type, path, prefix, fn, ctx);
			return;
		}
	}
}

void oc_types_destroy(struct oc_types *types)
{
	while (types) {
		struct oc_types *next = types->fallback;

		if (types->ops && types->ops->destroy)
			types->ops->destroy(types->arg);
		free(types);
		types = next;
	}
}
