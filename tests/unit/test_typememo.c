// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "test.h"
#include "typememo.h"

/* A backend that knows one struct and one enumerator, and counts what
 * it was asked. */
static int asked, loads;

static struct oc_error *fake_size(void *arg, const char *type, uint64_t *ret)
{
	(void)arg;
	asked++;
	if (!strcmp(type, "struct a")) {
		*ret = 16;
		return NULL;
	}
	if (!strcmp(type, "struct on_disk"))	/* an error with a path */
		return oc_error_file(OC_ERR_LOOKUP, "/some/file", "no type %s", type);
	return oc_error_format(OC_ERR_LOOKUP, "no type %s", type);
}

static struct oc_error *fake_member(void *arg, const char *type,
				    const char *path, struct oc_member *ret)
{
	(void)arg;
	asked++;
	if (!strcmp(type, "struct a") && !strcmp(path, "b")) {
		*ret = (struct oc_member){ .offset = 8, .size = 4 };
		return NULL;
	}
	if (!strcmp(type, "struct a") && !strcmp(path, "bits")) {
		*ret = (struct oc_member){ .offset = 4, .size = 4, .bit_offset = 3,
					   .bit_size = 5 };
		return NULL;
	}
	return oc_error_format(OC_ERR_LOOKUP, "no member %s in %s", path, type);
}

static struct oc_error *fake_enum(void *arg, const char *name, int64_t *ret)
{
	(void)arg;
	asked++;
	if (!strcmp(name, "E_ONE")) {
		*ret = -1;
		return NULL;
	}
	return oc_error_format(OC_ERR_LOOKUP, "no enumerator %s", name);
}

static void fake_destroy(void *arg)
{
	(void)arg;
}

static const struct oc_types_ops fake_ops = {
	.type_size = fake_size,
	.member = fake_member,
	.enum_value = fake_enum,
	.destroy = fake_destroy,
};

static struct oc_types *fake_new(void)
{
	struct oc_types *t = calloc(1, sizeof(*t));

	if (t)
		t->ops = &fake_ops;
	return t;
}

static struct oc_error *fake_load(void *arg, struct oc_types **ret)
{
	(void)arg;
	loads++;
	*ret = fake_new();
	return *ret ? NULL : &oc_enomem;
}

/* Every question asked of @t answered as the fake answers it. */
static void check_answers(struct oc_types *t)
{
	struct oc_member m;
	struct oc_error *err;
	uint64_t size = 0;
	int64_t v = 0;

	CHECK_OK(oc_types_size(t, "struct a", &size));
	CHECK_EQ(size, 16);
	CHECK_OK(oc_types_member(t, "struct a", "b", &m));
	CHECK(m.offset == 8 && m.size == 4 && !m.bit_offset && !m.bit_size);
	CHECK_OK(oc_types_member(t, "struct a", "bits", &m));
	CHECK(m.offset == 4 && m.size == 4 && m.bit_offset == 3 && m.bit_size == 5);
	CHECK_OK(oc_types_enum_value(t, "E_ONE", &v));
	CHECK_EQ(v, -1);
	err = oc_types_member(t, "struct a", "nope", &m);
	CHECK(err && err->code == OC_ERR_LOOKUP);
	CHECK(err && !strcmp(err->message, "no member nope in struct a"));
	oc_error_destroy(err);
	err = oc_types_size(t, "struct zz", &size);
	CHECK(err && err->code == OC_ERR_LOOKUP && !strcmp(err->message, "no type struct zz"));
	oc_error_destroy(err);
}

/* The memo answers as its backend, asking it each question once; its
 * bytes make a memo that answers the same without loading the backend,
 * which is loaded once for the first question they lack. */
TEST(typememo_answers_once_and_from_bytes)
{
	const char *path = oc_test_tmp_path("typememo.bin");
	struct oc_types *memo = NULL, *back = NULL, *b = NULL;
	struct oc_error *err;
	unsigned char *bytes = NULL;
	uint64_t size;
	long len = 0;
	FILE *fp;

	asked = loads = 0;
	CHECK_OK(oc_types_memo_create(fake_new(), NULL, NULL, NULL, 0, &memo));
	if (!memo)
		return;
	CHECK(oc_types_is_memo(memo));
	CHECK(!oc_types_memo_changed(memo));
	check_answers(memo);
	CHECK_EQ(asked, 6);
	check_answers(memo);
	CHECK_EQ(asked, 6);		/* the second time from the memo */
	CHECK(oc_types_memo_changed(memo));
	/* an error with a path is not kept: asked each time */
	err = oc_types_size(memo, "struct on_disk", &size);
	CHECK(err && err->path);
	oc_error_destroy(err);
	oc_error_destroy(oc_types_size(memo, "struct on_disk", &size));
	CHECK_EQ(asked, 8);

	fp = fopen(path, "w+");
	CHECK(fp);
	if (!fp) {
		oc_types_destroy(memo);
		return;
	}
	CHECK_OK(oc_types_memo_write(memo, fp));
	len = ftell(fp);
	rewind(fp);
	bytes = malloc((size_t)len + 1);
	CHECK(bytes && fread(bytes, 1, (size_t)len, fp) == (size_t)len);
	fclose(fp);
	oc_types_destroy(memo);
	if (!bytes)
		return;

	asked = 0;
	CHECK_OK(oc_types_memo_create(NULL, fake_load, NULL, bytes, (size_t)len, &back));
	if (back) {
		check_answers(back);
		CHECK_EQ(loads, 0);
		CHECK_EQ(asked, 0);
		CHECK(!oc_types_memo_changed(back));
		/* a question it lacks: the backend loaded, once */
		err = oc_types_enum_value(back, "E_TWO", &(int64_t){ 0 });
		CHECK(err && err->code == OC_ERR_LOOKUP);
		oc_error_destroy(err);
		CHECK(oc_types_memo_changed(back));
		CHECK_OK(oc_types_memo_backend(back, &b));
		CHECK(b && !oc_types_is_memo(b));
		CHECK_EQ(loads, 1);
		CHECK_EQ(asked, 1);
		oc_types_destroy(back);
	}
	/* not a memo: its own backend */
	b = fake_new();
	CHECK_OK(oc_types_memo_backend(b, &back));
	CHECK(back == b);
	oc_types_destroy(b);

	/* damaged bytes, each refused: cut short, one byte more, a count
	 * past the limit, an unknown question, a NUL inside a name */
	for (int damage = 0; damage < 5; damage++) {
		unsigned char *d = malloc((size_t)len + 1);
		size_t n = (size_t)len;

		if (!d)
			break;
		memcpy(d, bytes, (size_t)len);
		if (damage == 0)
			n -= 3;
		else if (damage == 1)
			d[n++] = 0;
		else if (damage == 2)
			memcpy(d, &(uint32_t){ 1u << 20 }, 4);
		else if (damage == 3)
			d[4] = 9;		/* the first answer's op */
		else
			d[4 + 52] = 0;		/* its type's first byte */
		back = NULL;
		err = oc_types_memo_create(NULL, fake_load, NULL, d, n, &back);
		CHECK(err && err->code == OC_ERR_FORMAT);
		CHECK(!back);
		oc_error_destroy(err);
		free(d);
	}
	CHECK_EQ(loads, 1);
	free(bytes);
}
