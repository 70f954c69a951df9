// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the types memo's bytes (formats/typememo.h, a cache
 * file's: src/typecache.c) made into a memo and asked, its backend one
 * that cannot be made (so every question the bytes lack is the load's
 * error).  Input: the memo's bytes as oc_types_memo_write() lays them out.
 * Invariants: refused bytes are OC_ERR_FORMAT; a memo made from them
 * answers or errs (an error with a code and a message), written again
 * makes a memo of the same bytes.
 */
#include "fuzz_common.h"
#include "typememo.h"

static struct oc_error *no_backend(void *arg, struct oc_types **ret)
{
	(void)arg;
	*ret = NULL;
	return oc_error_create(OC_ERR_FORMAT, "no BTF in the fuzzer");
}

static void check(struct oc_error *err)
{
	if (err) {
		FUZZ_ASSERT(err->code && err->message);
		oc_error_destroy(err);
	}
}

/* The memo's bytes, written to memory (malloc'd; NULL on failure). */
static char *written(const struct oc_types *t, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	if (!fp)
		return NULL;
	if (!oc_ok(oc_types_memo_write(t, fp))) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const types[] = { "struct task_struct", "struct a",
					     "typeof(runqueues)", "" };
	struct oc_types *t = NULL, *again = NULL;
	struct oc_member m;
	struct oc_error *err;
	uint64_t v;
	int64_t e;
	char *w, *w2;
	size_t len = 0, len2 = 0;

	err = oc_types_memo_create(NULL, no_backend, NULL, data, size, &t);
	if (err) {
		FUZZ_ASSERT(err->code == OC_ERR_FORMAT && !t);
		oc_error_destroy(err);
		return 0;
	}
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		check(oc_types_size(t, types[i], &v));
		check(oc_types_member(t, types[i], "se.vruntime", &m));
		check(oc_types_enum_value(t, types[i], &e));
	}
	w = written(t, &len);
	if (w) {
		FUZZ_ASSERT(oc_ok(oc_types_memo_create(NULL, no_backend, NULL, w, len, &again)));
		w2 = again ? written(again, &len2) : NULL;
		FUZZ_ASSERT(!w2 || (len2 == len && !memcmp(w, w2, len)));
		free(w2);
		oc_types_destroy(again);
		free(w);
	}
	oc_types_destroy(t);
	return 0;
}
