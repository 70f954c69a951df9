// SPDX-License-Identifier: GPL-2.0-or-later
/* A types backend that remembers another's answers (see typememo.h). */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cursor.h"
#include "typememo.h"

enum memo_op { MEMO_SIZE = 1, MEMO_MEMBER, MEMO_ENUM };

/*
 * What is kept: no more answers than a run asks by far (a report asks a
 * few hundred; the commands each their own), names no longer than C's
 * in the kernel, messages as long as an error's.
 */
enum {
	MEMO_MAX_ENTRIES = 4096,
	MEMO_MAX_NAME = 512,
	MEMO_MAX_MESSAGE = 1024,
	MEMO_NO_MESSAGE = 0xffffffff,
};

struct memo_entry {
	uint8_t op;
	bool has_path;
	int32_t code;		/* 0: an answer in v; else the error's */
	uint64_t v[4];		/* size; offset, size, bit offset, bits;
				 * the enumerator's value */
	char *type, *path;	/* path: NULL unless has_path */
	char *message;		/* the error's; NULL for an answer */
	uint32_t hash;
};

struct memo {
	pthread_mutex_t lock;
	struct oc_types *backend;	/* NULL until needed (@load) */
	oc_types_load_fn load;
	void *load_arg;
	struct oc_error *load_err;	/* the load failed: its error */
	bool load_tried;
	struct memo_entry *e;
	size_t nr, cap;
	uint32_t *slots;		/* entry index + 1; 0: empty */
	size_t nslots;			/* a power of two, > 2 * nr */
	bool changed;
	size_t answered, asked;		/* oc_types_memo_stats() */
};

static const struct oc_types_ops memo_ops;

static uint32_t key_hash(uint8_t op, const char *type, const char *path)
{
	uint32_t h = 2166136261u ^ op;

	for (const char *s = type; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	h = (h ^ 0x100) * 16777619u;	/* the path, or its absence */
	for (const char *s = path ? path : ""; path && *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static bool same_key(const struct memo_entry *e, uint8_t op, const char *type,
		     const char *path)
{
	return e->op == op && !strcmp(e->type, type) &&
	       e->has_path == (path != NULL) &&
	       (!path || !strcmp(e->path, path));
}

/* The slot of the key, or the empty one where it would go. */
static size_t find_slot(const struct memo *m, uint8_t op, const char *type,
			const char *path, uint32_t h)
{
	size_t slot = h & (m->nslots - 1);

	while (m->slots[slot]) {
		const struct memo_entry *e = &m->e[m->slots[slot] - 1];

		if (e->hash == h && same_key(e, op, type, path))
			break;
		slot = (slot + 1) & (m->nslots - 1);
	}
	return slot;
}

static bool grow_slots(struct memo *m)
{
	size_t n = m->nslots ? m->nslots : 64;
	uint32_t *slots;

	while (n <= 2 * (m->nr + 1))
		n *= 2;
	if (n == m->nslots)
		return true;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return false;
	free(m->slots);
	m->slots = slots;
	m->nslots = n;
	for (size_t i = 0; i < m->nr; i++)
		m->slots[find_slot(m, m->e[i].op, m->e[i].type, m->e[i].path,
				   m->e[i].hash)] = (uint32_t)(i + 1);
	return true;
}

static void entry_free(struct memo_entry *e)
{
	free(e->type);
	free(e->path);
	free(e->message);
}

/* Add a filled-in entry (its strings taken); false: not kept (full, out
 * of memory, a duplicate), the strings freed. */
static bool add(struct memo *m, struct memo_entry *e)
{
	struct memo_entry *p;
	size_t slot;

	e->hash = key_hash(e->op, e->type, e->path);
	if (m->nr >= MEMO_MAX_ENTRIES || !grow_slots(m))
		goto drop;
	slot = find_slot(m, e->op, e->type, e->path, e->hash);
	if (m->slots[slot])
		goto drop;
	p = oc_array_grow(m->e, m->nr, 1, &m->cap, sizeof(*m->e), 64);
	if (!p)
		goto drop;
	m->e = p;
	m->e[m->nr] = *e;
	m->slots[slot] = (uint32_t)++m->nr;
	return true;
drop:
	entry_free(e);
	return false;
}

/* The entry for the key, or NULL (call with the lock held). */
static const struct memo_entry *lookup(const struct memo *m, uint8_t op,
				       const char *type, const char *path)
{
	size_t slot;

	if (!m->nslots)
		return NULL;
	slot = find_slot(m, op, type, path, key_hash(op, type, path));
	return m->slots[slot] ? &m->e[m->slots[slot] - 1] : NULL;
}

/* The backend, made if it was not (the lock held). */
static struct oc_error *backend(struct memo *m, struct oc_types **ret)
{
	if (!m->backend && !m->load_tried) {
		m->load_tried = true;
		m->load_err = m->load ? m->load(m->load_arg, &m->backend)
				      : oc_error_create(OC_ERR_INVALID, "types memo without a backend");
	}
	*ret = m->backend;
	if (m->backend)
		return NULL;
	if (m->load_err == &oc_enomem)
		return &oc_enomem;
	return oc_error_create(m->load_err->code, m->load_err->message);
}

/* An entry's answer as the backend gave it. */
static struct oc_error *answer(const struct memo_entry *e, uint64_t v[4])
{
	if (!e->code) {
		memcpy(v, e->v, sizeof(e->v));
		return NULL;
	}
	return oc_error_create((enum oc_error_code)e->code, e->message);
}

/* Remember the backend's answer @err (not taken) / @v for the key. */
static void remember(struct memo *m, uint8_t op, const char *type,
		     const char *path, const struct oc_error *err,
		     const uint64_t v[4])
{
	struct memo_entry e = { .op = op, .has_path = path != NULL };

	if (strlen(type) > MEMO_MAX_NAME || (path && strlen(path) > MEMO_MAX_NAME))
		return;
	/* what an error holds besides its code and message is not kept:
	 * such an error is asked again */
	if (err && (err == &oc_enomem || err->code == OC_ERR_NOMEM ||
		    !err->message || err->path || err->has_address ||
		    err->errnum || strlen(err->message) > MEMO_MAX_MESSAGE ||
		    !err->code))
		return;
	e.code = err ? (int32_t)err->code : 0;
	if (!err)
		memcpy(e.v, v, sizeof(e.v));
	e.type = strdup(type);
	e.path = path ? strdup(path) : NULL;
	e.message = err ? strdup(err->message) : NULL;
	if (!e.type || (path && !e.path) || (err && !e.message)) {
		entry_free(&e);
		return;
	}
	if (add(m, &e))
		m->changed = true;
}

/* One question: from the memo, else asked of the backend and kept. */
static struct oc_error *ask(struct memo *m, uint8_t op, const char *type,
			    const char *path, uint64_t v[4])
{
	const struct memo_entry *e;
	struct oc_types *b;
	struct oc_error *err;

	pthread_mutex_lock(&m->lock);
	e = lookup(m, op, type, path);
	if (e) {
		m->answered++;
		err = answer(e, v);
		pthread_mutex_unlock(&m->lock);
		return err;
	}
	err = backend(m, &b);
	if (!err) {
		struct oc_member mb;
		int64_t value;

		/* the backend as formats/types.c asks any (one without a
		 * fallback: its own answer, or its own way of having none) */
		m->asked++;
		memset(v, 0, 4 * sizeof(*v));
		switch (op) {
		case MEMO_SIZE:
			err = oc_types_size(b, type, &v[0]);
			break;
		case MEMO_MEMBER:
			err = oc_types_member(b, type, path, &mb);
			if (!err) {
				v[0] = mb.offset;
				v[1] = mb.size;
				v[2] = mb.bit_offset;
				v[3] = mb.bit_size;
			}
			break;
		default:
			err = oc_types_enum_value(b, type, &value);
			if (!err)
				v[0] = (uint64_t)value;
			break;
		}
		remember(m, op, type, path, err, v);
	}
	pthread_mutex_unlock(&m->lock);
	return err;
}

/* An answer of one word: a size, an enumerator's value. */
static struct oc_error *ask_word(void *arg, uint8_t op, const char *name,
				 uint64_t *ret)
{
	uint64_t v[4];
	struct oc_error *err = ask(arg, op, name, NULL, v);

	if (!err)
		*ret = v[0];
	return err;
}

static struct oc_error *memo_type_size(void *arg, const char *type,
				       uint64_t *ret)
{
	return ask_word(arg, MEMO_SIZE, type, ret);
}

static struct oc_error *memo_member(void *arg, const char *type,
				    const char *path, struct oc_member *ret)
{
	uint64_t v[4];
	struct oc_error *err = ask(arg, MEMO_MEMBER, type, path, v);

	if (!err)
		*ret = (struct oc_member){ .offset = v[0], .size = v[1],
					   .bit_offset = (uint32_t)v[2],
					   .bit_size = (uint32_t)v[3] };
	return err;
}

static struct oc_error *memo_enum_value(void *arg, const char *name,
					int64_t *ret)
{
	return ask_word(arg, MEMO_ENUM, name, (uint64_t *)ret);
}

/* The backend's, made now (the lock only around the making). */
static struct oc_error *the_backend(struct memo *m, struct oc_types **ret)
{
	struct oc_error *err;

	pthread_mutex_lock(&m->lock);
	err = backend(m, ret);
	pthread_mutex_unlock(&m->lock);
	return err;
}

static struct oc_error *memo_type_name(void *arg, const char *type,
				       const char *path, char *buf, size_t size)
{
	struct oc_types *b;
	struct oc_error *err = the_backend(arg, &b);

	return err ? err : oc_types_name(b, type, path, buf, size);
}

static struct oc_error *memo_dump(void *arg, const char *type, const char *path,
				  const void *buf, size_t len, unsigned int flags,
				  oc_types_emit_fn emit, oc_types_symbol_fn symbol,
				  void *ctx)
{
	struct oc_types *b;
	struct oc_error *err = the_backend(arg, &b);

	return err ? err : oc_types_dump(b, type, path, buf, len, flags, emit,
					 symbol, ctx);
}

static void memo_complete(void *arg, const char *type, const char *path,
			  const char *prefix, oc_types_name_fn fn, void *ctx)
{
	struct oc_types *b;

	if (!oc_ok(the_backend(arg, &b)) || !b->ops->complete)
		return;
	b->ops->complete(b->arg, type, path, prefix, fn, ctx);
}

static void memo_destroy(void *arg)
{
	struct memo *m = arg;

	if (!m)
		return;
	for (size_t i = 0; i < m->nr; i++)
		entry_free(&m->e[i]);
	free(m->e);
	free(m->slots);
	oc_types_destroy(m->backend);
	oc_error_destroy(m->load_err);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

static const struct oc_types_ops memo_ops = {
	.type_size = memo_type_size,
	.member = memo_member,
	.enum_value = memo_enum_value,
	.type_name = memo_type_name,
	.dump = memo_dump,
	.complete = memo_complete,
	.destroy = memo_destroy,
};

/* ---- as bytes ------------------------------------------------------------ */

/*
 * A u32 count, then per entry: u8 op, u8 has_path, u16 0, i32 code,
 * u64 v[4], u32 lengths of the type, the path and the message
 * (MEMO_NO_MESSAGE: none), then their bytes, no NULs.  Little-endian.
 */
static struct oc_error *read_string(struct oc_cursor *c, uint32_t len,
				    uint32_t max, char **ret)
{
	const uint8_t *p;
	struct oc_error *err;

	*ret = NULL;
	if (len > max)
		return oc_cursor_error(c, "a name of %u bytes", len);
	if ((err = oc_cursor_bytes(c, len, &p)))
		return err;
	if (memchr(p, 0, len))
		return oc_cursor_error(c, "a NUL inside a name");
	*ret = malloc((size_t)len + 1);
	if (!*ret)
		return &oc_enomem;
	memcpy(*ret, p, len);
	(*ret)[len] = '\0';
	return NULL;
}

static struct oc_error *parse(struct memo *m, const void *bytes, size_t len)
{
	struct oc_cursor c;
	struct oc_error *err;
	uint64_t count;

	oc_cursor_init(&c, bytes, len, "types memo");
	if ((err = oc_cursor_le(&c, 4, &count)))
		return err;
	if (count > MEMO_MAX_ENTRIES)
		return oc_cursor_error(&c, "%" PRIu64 " answers", count);
	for (uint64_t i = 0; i < count; i++) {
		struct memo_entry e = { 0 };
		uint64_t op, has_path, pad, code, tl, pl, ml;

		if ((err = oc_cursor_le(&c, 1, &op)) ||
		    (err = oc_cursor_le(&c, 1, &has_path)) ||
		    (err = oc_cursor_le(&c, 2, &pad)) ||
		    (err = oc_cursor_le(&c, 4, &code)))
			return err;
		for (int j = 0; j < 4; j++)
			if ((err = oc_cursor_le(&c, 8, &e.v[j])))
				return err;
		if ((err = oc_cursor_le(&c, 4, &tl)) ||
		    (err = oc_cursor_le(&c, 4, &pl)) ||
		    (err = oc_cursor_le(&c, 4, &ml)))
			return err;
		if (op < MEMO_SIZE || op > MEMO_ENUM || has_path > 1 || pad ||
		    code > OC_ERR_OTHER || code == OC_ERR_NOMEM ||
		    (code && ml == MEMO_NO_MESSAGE) ||
		    (!code && ml != MEMO_NO_MESSAGE) || (!has_path && pl))
			return oc_cursor_error(&c, "a malformed answer");
		e.op = (uint8_t)op;
		e.has_path = has_path;
		e.code = (int32_t)(uint32_t)code;
		if ((err = read_string(&c, (uint32_t)tl, MEMO_MAX_NAME, &e.type)) ||
		    (has_path && (err = read_string(&c, (uint32_t)pl, MEMO_MAX_NAME, &e.path))) ||
		    (code && (err = read_string(&c, (uint32_t)ml, MEMO_MAX_MESSAGE, &e.message)))) {
			entry_free(&e);
			return err;
		}
		if (!add(m, &e))
			return oc_cursor_error(&c, "an answer twice");
	}
	if (oc_cursor_left(&c))
		return oc_cursor_error(&c, "%zu bytes after the answers", oc_cursor_left(&c));
	return NULL;
}

struct oc_error *oc_types_memo_create(struct oc_types *backend,
				      oc_types_load_fn load, void *arg,
				      const void *bytes, size_t len,
				      struct oc_types **ret)
{
	struct memo *m = calloc(1, sizeof(*m));
	struct oc_types *t = calloc(1, sizeof(*t));
	struct oc_error *err;

	if (!m || !t) {
		free(m);
		free(t);
		return &oc_enomem;
	}
	pthread_mutex_init(&m->lock, NULL);
	m->load = load;
	m->load_arg = arg;
	if (bytes && (err = parse(m, bytes, len))) {
		memo_destroy(m);
		free(t);
		return err;
	}
	/* written when a run adds to it */
	m->changed = false;
	m->backend = backend;
	t->ops = &memo_ops;
	t->arg = m;
	*ret = t;
	return NULL;
}

bool oc_types_is_memo(const struct oc_types *types)
{
	return types && types->ops == &memo_ops;
}

struct oc_error *oc_types_memo_backend(struct oc_types *types,
				       struct oc_types **ret)
{
	if (!oc_types_is_memo(types)) {
		*ret = types;
		return NULL;
	}
	return the_backend(types->arg, ret);
}

bool oc_types_memo_changed(const struct oc_types *types)
{
	struct memo *m;
	bool changed;

	if (!oc_types_is_memo(types))
		return false;
	m = types->arg;
	pthread_mutex_lock(&m->lock);
	changed = m->changed;
	pthread_mutex_unlock(&m->lock);
	return changed;
}

void oc_types_memo_stats(const struct oc_types *types, size_t *answered_ret,
			 size_t *asked_ret, bool *loaded_ret)
{
	struct memo *m;

	*answered_ret = *asked_ret = 0;
	*loaded_ret = false;
	if (!oc_types_is_memo(types))
		return;
	m = types->arg;
	pthread_mutex_lock(&m->lock);
	*answered_ret = m->answered;
	*asked_ret = m->asked;
	*loaded_ret = m->backend != NULL;
	pthread_mutex_unlock(&m->lock);
}

static bool put(FILE *fp, uint64_t v, size_t n)
{
	uint8_t b[8];

	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return fwrite(b, 1, n, fp) == n;
}

struct oc_error *oc_types_memo_write(const struct oc_types *types, FILE *fp)
{
	struct memo *m;
	bool ok;

	if (!oc_types_is_memo(types))
		return oc_error_format(OC_ERR_INVALID, "not a types memo");
	m = types->arg;
	pthread_mutex_lock(&m->lock);
	ok = put(fp, m->nr, 4);
	for (size_t i = 0; ok && i < m->nr; i++) {
		const struct memo_entry *e = &m->e[i];
		size_t tl = strlen(e->type), pl = e->path ? strlen(e->path) : 0;
		size_t ml = e->message ? strlen(e->message) : 0;

		ok = put(fp, e->op, 1) && put(fp, e->has_path, 1) && put(fp, 0, 2) &&
		     put(fp, (uint32_t)e->code, 4);
		for (int j = 0; ok && j < 4; j++)
			ok = put(fp, e->v[j], 8);
		ok = ok && put(fp, tl, 4) && put(fp, pl, 4) &&
		     put(fp, e->message ? ml : MEMO_NO_MESSAGE, 4) &&
		     fwrite(e->type, 1, tl, fp) == tl &&
		     (!pl || fwrite(e->path, 1, pl, fp) == pl) &&
		     (!ml || fwrite(e->message, 1, ml, fp) == ml);
	}
	pthread_mutex_unlock(&m->lock);
	return ok ? NULL : oc_error_format(OC_ERR_OS, "writing the types memo failed");
}
