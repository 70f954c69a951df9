// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "types.h"

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
