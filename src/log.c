// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's printk log from dump memory.  The ring buffer rules mirror
 * kernel/printk/printk_ringbuffer.[ch] (v5.10 on); the legacy
 * log_buf walk mirrors log_from_idx()/log_next() of kernel/printk/printk.c
 * (v3.5 - v5.9).  See log.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "log.h"
#include "strutil.h"
#include "vmcoreinfo.h"

/* ---- VMCOREINFO and type lookups ------------------------------------- */

/* A relocated symbol address: the model's symbol table, then VMCOREINFO. */
static uint64_t env_symbol(const struct oc_log_env *env, const char *name)
{
	uint64_t addr = 0;

	if (env->symbol)
		addr = env->symbol(env->arg, name);
	if (addr)
		return addr;
	if (oc_ok(oc_vmcoreinfo_symbol(env->vmcoreinfo, name, &addr)))
		return addr;
	return 0;
}

/* Offset of @member in struct @sname: types first, then OFFSET(s.m). */
static struct oc_error *layout_member(const struct oc_log_env *env,
				      const char *sname, const char *member,
				      struct oc_member *ret)
{
	char key[128];
	struct oc_error *err;

	memset(ret, 0, sizeof(*ret));
	if (env->types) {
		snprintf(key, sizeof(key), "struct %s", sname);
		err = oc_types_member(env->types, key, member, ret);
		if (!err)
			return NULL;
		oc_error_destroy(err);
		memset(ret, 0, sizeof(*ret));
	}
	err = oc_vmcoreinfo_offset(env->vmcoreinfo, sname, member, &ret->offset);
	if (!err || err->code != OC_ERR_LOOKUP)
		return err;	/* found, or there but unreadable */
	oc_error_destroy(err);
	return oc_error_format(OC_ERR_LOOKUP,
			       "no layout for %s.%s: not in the type information nor VMCOREINFO",
			       sname, member);
}

static struct oc_error *layout_offset(const struct oc_log_env *env,
				      const char *sname, const char *member,
				      uint64_t *ret)
{
	struct oc_member m;
	struct oc_error *err = layout_member(env, sname, member, &m);

	if (!err)
		*ret = m.offset;
	return err;
}

static struct oc_error *layout_size(const struct oc_log_env *env,
				    const char *sname, uint64_t *ret)
{
	char key[128];
	struct oc_error *err;

	if (env->types) {
		snprintf(key, sizeof(key), "struct %s", sname);
		err = oc_types_size(env->types, key, ret);
		if (!err)
			return NULL;
		oc_error_destroy(err);
	}
	err = oc_vmcoreinfo_size(env->vmcoreinfo, sname, ret);
	if (!err || err->code != OC_ERR_LOOKUP)
		return err;
	oc_error_destroy(err);
	return oc_error_format(OC_ERR_LOOKUP,
			       "no size for struct %s: not in the type information nor VMCOREINFO",
			       sname);
}

/*
 * The one-byte fields after text_len (printk_info, 5.10+) or dict_len
 * (printk_log, 3.5 - 5.9): "u8 facility; u8 flags:5; u8 level:3;".
 * VMCOREINFO does not export them (bit fields have no offsetof), so
 * without types we use that layout: x86-64 GCC allocates bit fields from
 * the least significant bit.
 */
static void layout_syslog_bits(const struct oc_log_env *env,
			       const char *sname, uint64_t after,
			       struct oc_member *facility,
			       struct oc_member *flags, struct oc_member *level)
{
	struct oc_error *err;

	if (env->types) {
		char type[64];

		snprintf(type, sizeof(type), "struct %s", sname);
		err = oc_types_member(env->types, type, "facility", facility);
		if (!err)
			err = oc_types_member(env->types, type, "flags", flags);
		if (!err)
			err = oc_types_member(env->types, type, "level", level);
		if (!err)
			return;
		oc_error_destroy(err);
	}
	*facility = (struct oc_member){ .offset = after + 2, .size = 1 };
	*flags = (struct oc_member){ .offset = after + 3, .size = 1,
				     .bit_offset = 0, .bit_size = 5 };
	*level = (struct oc_member){ .offset = after + 3, .size = 1,
				     .bit_offset = 5, .bit_size = 3 };
}

/* ---- little-endian field access -------------------------------------- */

/* @n bytes at @p, inside a block that blob_ok() or oc_member_fits() checked */
static uint64_t get_le(const char *p, size_t n)
{
	struct oc_cursor c;
	uint64_t v = 0;

	oc_cursor_init(&c, p, n, "log record");
	oc_ok(oc_cursor_le(&c, n, &v));
	return v;
}

/* ---- reading arrays of dump memory that may have holes --------------- */

enum { LOG_PAGE = 4096 };

/*
 * A copy of a range of target memory.  If a single read fails it is read
 * page by page: unreadable pages are zeroed and marked, and only the
 * records that touch them are lost.
 */
struct blob {
	uint64_t addr;
	size_t size;
	char *data;
	unsigned char *bad;	/* one flag per page; NULL if all read */
};

static void blob_free(struct blob *b)
{
	free(b->data);
	free(b->bad);
	memset(b, 0, sizeof(*b));
}

static size_t blob_page(const struct blob *b, size_t off)
{
	return ((b->addr & (LOG_PAGE - 1)) + off) / LOG_PAGE;
}

static struct oc_error *blob_read(const struct oc_mem *mem, uint64_t addr,
				  size_t size, const char *what,
				  struct blob *ret)
{
	struct oc_error *err;
	size_t good = 0;

	memset(ret, 0, sizeof(*ret));
	ret->addr = addr;
	ret->size = size;
	ret->data = malloc(size ? size : 1);
	if (!ret->data)
		return &oc_enomem;
	err = oc_mem_read(mem, addr, ret->data, size);
	if (!err)
		return NULL;
	ret->bad = calloc(blob_page(ret, size) + 1, 1);
	if (!ret->bad) {
		oc_error_destroy(err);
		blob_free(ret);
		return &oc_enomem;
	}
	for (size_t off = 0; off < size;) {
		size_t chunk = LOG_PAGE - ((addr + off) & (LOG_PAGE - 1));
		struct oc_error *e;

		if (chunk > size - off)
			chunk = size - off;
		e = oc_mem_read(mem, addr + off, ret->data + off, chunk);
		if (e) {
			oc_error_destroy(e);
			memset(ret->data + off, 0, chunk);
			ret->bad[blob_page(ret, off)] = 1;
		} else {
			good++;
		}
		off += chunk;
	}
	if (good) {
		oc_error_destroy(err);
		return NULL;
	}
	blob_free(ret);
	{
		char msg[256];
		uint64_t fault = err->has_address ? err->address : addr;

		oc_error_take(err, msg, sizeof(msg));
		return oc_error_fault(fault, "%s (%zu bytes at 0x%llx): %s",
				      what, size, (unsigned long long)addr,
				      msg);
	}
}

static bool blob_ok(const struct blob *b, size_t off, size_t len)
{
	if (off > b->size || len > b->size - off)
		return false;
	if (!b->bad || !len)
		return true;
	for (size_t p = blob_page(b, off); p <= blob_page(b, off + len - 1);
	     p++) {
		if (b->bad[p])
			return false;
	}
	return true;
}

/* ---- the result ------------------------------------------------------ */

static void log_note(struct oc_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void log_note(struct oc_log *log, const char *fmt, ...)
{
	va_list ap;

	if (log->note[0])
		return;
	va_start(ap, fmt);
	vsnprintf(log->note, sizeof(log->note), fmt, ap);
	va_end(ap);
}

enum rec_status { REC_OK, REC_LOST, REC_BAD };

/* ---- the lockless ring buffer (5.10+) -------------------------------- */

/*
 * kernel/printk/printk_ringbuffer.h: the top two bits of a descriptor's
 * state_var are its state, the rest its ID.
 */
enum desc_state {
	desc_reserved = 0,
	desc_committed = 1,
	desc_finalized = 2,
	desc_reusable = 3,
};
static const unsigned int DESC_FLAGS_SHIFT = 62;
static const uint64_t DESC_ID_MASK = ~(3ULL << 62);
/* Data-less blocks have bit 0 set in both lpos values.  FAILED_LPOS
 * (0x1): the data is gone; NO_LPOS, renamed EMPTY_LINE_LPOS in 6.7
 * (0x3): an empty line, valid. */
static const uint64_t EMPTY_LINE_LPOS = 0x3;
/* struct prb_data_block: "unsigned long id; char data[];" */
static const uint64_t BLK_ID_SIZE = 8;

struct prb_layout {
	uint64_t rb_desc_ring, rb_text_data_ring;
	uint64_t dr_count_bits, dr_descs, dr_infos, dr_head_id, dr_tail_id;
	uint64_t desc_size, desc_state_var, lpos_base, lpos_begin, lpos_next;
	uint64_t info_size;
	struct oc_member seq, ts_nsec, text_len, caller_id;
	struct oc_member facility, flags, level;
	uint64_t data_size_bits, data_data;
};

/*
 * What prb_layout_init() looks up, in this order (the first missing one
 * is the error): an offset (VMCOREINFO's OFFSET(), a member's offset),
 * a size (SIZE()) or a member (its offset; the size is x86-64's, set
 * after).
 */
enum prb_key_kind { PRB_OFFSET, PRB_SIZE, PRB_MEMBER };

static const struct prb_key {
	enum prb_key_kind kind;
	const char *type, *member;
	size_t at;			/* where in struct prb_layout */
} prb_keys[] = {
#define K(kind, type, member, field) \
	{ kind, type, member, offsetof(struct prb_layout, field) }
	K(PRB_OFFSET, "printk_ringbuffer", "desc_ring", rb_desc_ring),
	K(PRB_OFFSET, "printk_ringbuffer", "text_data_ring", rb_text_data_ring),
	K(PRB_OFFSET, "prb_desc_ring", "count_bits", dr_count_bits),
	K(PRB_OFFSET, "prb_desc_ring", "descs", dr_descs),
	K(PRB_OFFSET, "prb_desc_ring", "infos", dr_infos),
	K(PRB_OFFSET, "prb_desc_ring", "head_id", dr_head_id),
	K(PRB_OFFSET, "prb_desc_ring", "tail_id", dr_tail_id),
	K(PRB_SIZE, "prb_desc", NULL, desc_size),
	K(PRB_OFFSET, "prb_desc", "state_var", desc_state_var),
	K(PRB_OFFSET, "prb_desc", "text_blk_lpos", lpos_base),
	K(PRB_OFFSET, "prb_data_blk_lpos", "begin", lpos_begin),
	K(PRB_OFFSET, "prb_data_blk_lpos", "next", lpos_next),
	K(PRB_SIZE, "printk_info", NULL, info_size),
	K(PRB_MEMBER, "printk_info", "seq", seq),
	K(PRB_MEMBER, "printk_info", "ts_nsec", ts_nsec),
	K(PRB_MEMBER, "printk_info", "text_len", text_len),
	K(PRB_OFFSET, "prb_data_ring", "size_bits", data_size_bits),
	K(PRB_OFFSET, "prb_data_ring", "data", data_data),
#undef K
};

static struct oc_error *prb_layout_init(const struct oc_log_env *env,
					struct prb_layout *l)
{
	struct oc_error *err;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < sizeof(prb_keys) / sizeof(prb_keys[0]); i++) {
		const struct prb_key *key = &prb_keys[i];
		void *at = (char *)l + key->at;

		if (key->kind == PRB_OFFSET)
			err = layout_offset(env, key->type, key->member, at);
		else if (key->kind == PRB_SIZE)
			err = layout_size(env, key->type, at);
		else
			err = layout_member(env, key->type, key->member, at);
		if (err)
			return err;
	}
	/* caller_id is in every 5.10+ printk_info; tolerate its absence */
	err = layout_member(env, "printk_info", "caller_id", &l->caller_id);
	if (err) {
		oc_error_destroy(err);
		l->caller_id = (struct oc_member){ 0 };
	} else {
		l->caller_id = (struct oc_member){ .offset = l->caller_id.offset,
						   .size = 4 };
	}
	/* The x86-64 sizes: VMCOREINFO has offsets only. */
	l->seq = (struct oc_member){ .offset = l->seq.offset, .size = 8 };
	l->ts_nsec = (struct oc_member){ .offset = l->ts_nsec.offset, .size = 8 };
	l->text_len = (struct oc_member){ .offset = l->text_len.offset, .size = 2 };
	layout_syslog_bits(env, "printk_info", l->text_len.offset, &l->facility,
			   &l->flags, &l->level);
	l->lpos_begin += l->lpos_base;
	l->lpos_next += l->lpos_base;

	/* VMCOREINFO is dump data too. */
	if (l->desc_size < 24 || l->desc_size > 4096 ||
	    l->desc_state_var > l->desc_size - 8 ||
	    l->lpos_begin > l->desc_size - 8 ||
	    l->lpos_next > l->desc_size - 8 || l->info_size < 20 ||
	    l->info_size > 4096 || !oc_member_fits(&l->seq, l->info_size) ||
	    !oc_member_fits(&l->ts_nsec, l->info_size) ||
	    !oc_member_fits(&l->text_len, l->info_size) ||
	    (l->caller_id.size && !oc_member_fits(&l->caller_id, l->info_size)) ||
	    !oc_member_fits(&l->facility, l->info_size) ||
	    !oc_member_fits(&l->flags, l->info_size) ||
	    !oc_member_fits(&l->level, l->info_size) ||
	    l->rb_desc_ring > 4096 || l->rb_text_data_ring > 4096 ||
	    l->dr_count_bits > 4096 || l->dr_descs > 4096 ||
	    l->dr_infos > 4096 || l->dr_head_id > 4096 ||
	    l->dr_tail_id > 4096 || l->data_size_bits > 4096 ||
	    l->data_data > 4096)
		return oc_error_format(OC_ERR_FORMAT,
				       "implausible printk ring buffer layout (struct prb_desc %" PRIu64
				       " bytes, struct printk_info %" PRIu64 " bytes)",
				       l->desc_size, l->info_size);
	return NULL;
}

struct prb_reader {
	const struct prb_layout *l;
	unsigned int count_bits, size_bits;
	struct blob descs, infos, data;
};

static const char *const desc_state_names[] = {
	"reserved", "committed", "finalized", "reusable",
};

/*
 * Where the text block of a descriptor lies: get_data() of
 * printk_ringbuffer.c.  A regular block has @begin and @next - 1 in the
 * same wrap: since "printk_ringbuffer: don't needlessly wrap data blocks
 * around" (2025) a block may end exactly at the end of the ring, and the
 * "next - 1" comparison of its is_blk_wrapped() covers the old rule too,
 * and lpos overflowing to 0 after the first wrap (BLK0_LPOS is
 * -DATA_SIZE).  A wrapping block stores its data at index 0 and @next is
 * one wrap ahead of @begin.
 */
static enum rec_status prb_block(const struct prb_reader *r, uint64_t begin,
				 uint64_t next, size_t *off_ret,
				 size_t *size_ret, const char **why)
{
	uint64_t dsize = 1ULL << r->size_bits, mask = dsize - 1;
	unsigned int sb = r->size_bits;
	uint64_t off, size;

	if ((begin & 1) && (next & 1)) {
		if (begin == EMPTY_LINE_LPOS && next == EMPTY_LINE_LPOS) {
			*off_ret = 0;
			*size_ret = 0;
			return REC_OK;
		}
		*why = "no data block (FAILED_LPOS)";
		return REC_LOST;
	}
	if ((begin | next) & (BLK_ID_SIZE - 1)) {
		*why = "misaligned lpos";
		return REC_BAD;
	}
	if (begin >> sb == (next - 1) >> sb) {
		off = begin & mask;
		size = next - begin;
		if (!size || size > dsize - off) {
			*why = "lpos out of range";
			return REC_BAD;
		}
	} else if ((begin + dsize) >> sb == (next - 1) >> sb) {
		off = 0;
		size = ((next - 1) & mask) + 1;
	} else {
		*why = "lpos out of range";
		return REC_BAD;
	}
	if (size < BLK_ID_SIZE) {
		*why = "data block smaller than its ID";
		return REC_BAD;
	}
	*off_ret = off;
	*size_ret = size;
	return REC_OK;
}

static enum rec_status prb_record(const struct prb_reader *r, uint64_t id,
				  struct oc_log_record *rec, const char **why)
{
	const struct prb_layout *l = r->l;
	uint64_t idx = id & ((1ULL << r->count_bits) - 1);
	const char *desc, *info;
	uint64_t sv, begin, next, text_len;
	size_t off, size;
	enum rec_status st;

	if (!blob_ok(&r->descs, idx * l->desc_size, l->desc_size) ||
	    !blob_ok(&r->infos, idx * l->info_size, l->info_size)) {
		*why = "descriptor unreadable";
		return REC_LOST;
	}
	desc = r->descs.data + idx * l->desc_size;
	info = r->infos.data + idx * l->info_size;
	sv = get_le(desc + l->desc_state_var, 8);
	/* desc_read(): another ID in the slot is "desc_miss" */
	if ((sv & DESC_ID_MASK) != id) {
		*why = "descriptor reused";
		return REC_LOST;
	}
	/* Committed but not finalized: the last record, which a
	 * continuation could have extended; crash and drgn show it too. */
	if (sv >> DESC_FLAGS_SHIFT != desc_committed &&
	    sv >> DESC_FLAGS_SHIFT != desc_finalized) {
		*why = desc_state_names[sv >> DESC_FLAGS_SHIFT];
		return REC_LOST;
	}
	rec->seq = oc_member_get(info, l->info_size, &l->seq);
	/* desc_reserve() keeps seq and ID in the same slot modulo count */
	if ((rec->seq & ((1ULL << r->count_bits) - 1)) != idx) {
		*why = "sequence number does not match its descriptor";
		return REC_BAD;
	}
	begin = get_le(desc + l->lpos_begin, 8);
	next = get_le(desc + l->lpos_next, 8);
	st = prb_block(r, begin, next, &off, &size, why);
	if (st != REC_OK)
		return st;
	text_len = oc_member_get(info, l->info_size, &l->text_len);
	rec->ts_nsec = oc_member_get(info, l->info_size, &l->ts_nsec);
	/* 0 without a caller_id (size 0) */
	rec->caller_id = (uint32_t)oc_member_get(info, l->info_size,
						 &l->caller_id);
	rec->facility = (uint8_t)oc_member_get(info, l->info_size, &l->facility);
	rec->flags = (uint8_t)oc_member_get(info, l->info_size, &l->flags);
	rec->level = (uint8_t)oc_member_get(info, l->info_size, &l->level);
	if (!size) {
		rec->text = "";
		rec->len = 0;
		return REC_OK;
	}
	if (!blob_ok(&r->data, off, size)) {
		*why = "text unreadable";
		return REC_LOST;
	}
	/* data_alloc() writes the descriptor ID at the start of the block */
	if ((get_le(r->data.data + off, 8) & DESC_ID_MASK) != id) {
		*why = "data block belongs to another descriptor";
		return REC_BAD;
	}
	/* copy_data(): a text_len past the block is not trusted */
	if (text_len > size - BLK_ID_SIZE) {
		*why = "text_len larger than its data block";
		return REC_BAD;
	}
	rec->text = r->data.data + off + BLK_ID_SIZE;
	rec->len = text_len;
	return REC_OK;
}

/* @size bytes of a kernel variable or header field, named in the error. */
static struct oc_error *read_var(const struct oc_log_env *env, uint64_t addr,
				 const char *what, void *buf, size_t size)
{
	struct oc_error *err = oc_mem_read(env->mem, addr, buf, size);

	if (err) {
		oc_error_destroy(err);
		return oc_error_fault(addr, "cannot read %s at 0x%llx", what,
				      (unsigned long long)addr);
	}
	return NULL;
}

static struct oc_error *read_var_u64(const struct oc_log_env *env,
				     uint64_t addr, const char *what,
				     uint64_t *ret)
{
	return read_var(env, addr, what, ret, sizeof(*ret));
}

static struct oc_error *read_var_u32(const struct oc_log_env *env,
				     uint64_t addr, const char *what,
				     unsigned int *ret)
{
	uint32_t v;
	struct oc_error *err = read_var(env, addr, what, &v, sizeof(v));

	if (!err)
		*ret = v;
	return err;
}

static struct oc_error *read_ringbuffer(const struct oc_log_env *env,
					uint64_t prb_addr, struct oc_log *log)
{
	struct prb_layout l;
	struct prb_reader r = { .l = &l };
	uint64_t rb, dr, tdr, descs, infos, data, head_id, tail_id, n, count;
	struct oc_error *err;

	if ((err = prb_layout_init(env, &l)))
		return err;
	/* "struct printk_ringbuffer *prb": printk_rb_static at boot,
	 * printk_rb_dynamic after setup_log_buf() */
	if ((err = read_var_u64(env, prb_addr, "prb", &rb)))
		return err;
	if (!rb)
		return oc_error_format(OC_ERR_FORMAT, "prb is NULL");
	dr = rb + l.rb_desc_ring;
	tdr = rb + l.rb_text_data_ring;
	if ((err = read_var_u32(env, dr + l.dr_count_bits,
				"prb->desc_ring.count_bits", &r.count_bits)) ||
	    (err = read_var_u64(env, dr + l.dr_descs, "prb->desc_ring.descs",
				&descs)) ||
	    (err = read_var_u64(env, dr + l.dr_infos, "prb->desc_ring.infos",
				&infos)) ||
	    (err = read_var_u64(env, dr + l.dr_head_id,
				"prb->desc_ring.head_id", &head_id)) ||
	    (err = read_var_u64(env, dr + l.dr_tail_id,
				"prb->desc_ring.tail_id", &tail_id)) ||
	    (err = read_var_u32(env, tdr + l.data_size_bits,
				"prb->text_data_ring.size_bits",
				&r.size_bits)) ||
	    (err = read_var_u64(env, tdr + l.data_data,
				"prb->text_data_ring.data", &data)))
		return err;
	if (r.count_bits > OC_LOG_MAX_DESC_BITS ||
	    r.size_bits > OC_LOG_MAX_BUF_BITS || r.size_bits < 4)
		return oc_error_format(OC_ERR_FORMAT,
				       "implausible printk ring buffer: %u descriptor bits, %u data bits",
				       r.count_bits, r.size_bits);
	count = 1ULL << r.count_bits;
	if (count * l.desc_size > 1ULL << OC_LOG_MAX_BUF_BITS ||
	    count * l.info_size > 1ULL << OC_LOG_MAX_BUF_BITS)
		return oc_error_format(OC_ERR_FORMAT,
				       "implausible printk ring buffer: %" PRIu64 " descriptors",
				       count);

	if ((err = blob_read(env->mem, descs, count * l.desc_size,
			     "printk descriptor ring", &r.descs)) ||
	    (err = blob_read(env->mem, infos, count * l.info_size,
			     "printk info array", &r.infos)) ||
	    (err = blob_read(env->mem, data, 1ULL << r.size_bits,
			     "printk text data ring", &r.data)))
		goto out;

	head_id &= DESC_ID_MASK;
	tail_id &= DESC_ID_MASK;
	n = ((head_id - tail_id) & DESC_ID_MASK) + 1;
	if (n > count) {
		log_note(log,
			 "tail_id 0x%" PRIx64 " is %" PRIu64 " descriptors behind head_id 0x%" PRIx64 " in a ring of %" PRIu64,
			 tail_id, n - 1, head_id, count);
		n = count;
	}
	if (n > OC_LOG_MAX_RECORDS) {
		log->truncated = true;
		n = OC_LOG_MAX_RECORDS;
	}
	tail_id = (head_id - (n - 1)) & DESC_ID_MASK;
	log->records = calloc(n, sizeof(*log->records));
	if (!log->records) {
		err = &oc_enomem;
		goto out;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t id = (tail_id + i) & DESC_ID_MASK;
		struct oc_log_record *rec = &log->records[log->nr];
		const char *why = "";

		memset(rec, 0, sizeof(*rec));
		switch (prb_record(&r, id, rec, &why)) {
		case REC_OK:
			log->nr++;
			break;
		case REC_LOST:
			log->nr_lost++;
			break;
		case REC_BAD:
			log->nr_bad++;
			log_note(log, "bad printk record (descriptor ID 0x%" PRIx64 "): %s",
				 id, why);
			break;
		}
	}
	log->format = OC_LOG_RINGBUFFER;
	log->pool = r.data.data;	/* the records point into it */
	r.data.data = NULL;
out:
	blob_free(&r.descs);
	blob_free(&r.infos);
	blob_free(&r.data);
	return err;
}

/* ---- the legacy log_buf (3.5 - 5.9) ---------------------------------- */

struct legacy_layout {
	uint64_t size;
	struct oc_member ts_nsec, len, text_len, dict_len, caller_id;
	struct oc_member facility, flags, level;
};

static struct oc_error *legacy_layout_init(const struct oc_log_env *env,
					   struct legacy_layout *l)
{
	/* "struct log" until 3.11 renamed it (commit 62e32ac3505a) */
	static const char *const names[] = { "printk_log", "log" };
	struct oc_error *err = NULL;

	for (size_t i = 0; i < 2; i++) {
		const char *s = names[i];

		memset(l, 0, sizeof(*l));
		oc_error_destroy(err);
		if ((err = layout_size(env, s, &l->size)) ||
		    (err = layout_member(env, s, "ts_nsec", &l->ts_nsec)) ||
		    (err = layout_member(env, s, "len", &l->len)) ||
		    (err = layout_member(env, s, "text_len", &l->text_len)) ||
		    (err = layout_member(env, s, "dict_len", &l->dict_len)))
			continue;
		l->ts_nsec = (struct oc_member){ .offset = l->ts_nsec.offset, .size = 8 };
		l->len = (struct oc_member){ .offset = l->len.offset, .size = 2 };
		l->text_len = (struct oc_member){ .offset = l->text_len.offset, .size = 2 };
		l->dict_len = (struct oc_member){ .offset = l->dict_len.offset, .size = 2 };
		/* CONFIG_PRINTK_CALLER (5.1+) only, and not in VMCOREINFO */
		if (env->types && oc_ok(layout_member(env, s, "caller_id",
							&l->caller_id)))
			l->caller_id = (struct oc_member){
				.offset = l->caller_id.offset, .size = 4 };
		else
			l->caller_id = (struct oc_member){ 0 };
		layout_syslog_bits(env, s, l->dict_len.offset, &l->facility,
				   &l->flags, &l->level);
		if (l->size < 16 || l->size > 256 ||
		    !oc_member_fits(&l->ts_nsec, l->size) ||
		    !oc_member_fits(&l->len, l->size) ||
		    !oc_member_fits(&l->text_len, l->size) ||
		    !oc_member_fits(&l->dict_len, l->size) ||
		    (l->caller_id.size && !oc_member_fits(&l->caller_id, l->size)) ||
		    !oc_member_fits(&l->facility, l->size) ||
		    !oc_member_fits(&l->flags, l->size) ||
		    !oc_member_fits(&l->level, l->size))
			return oc_error_format(OC_ERR_FORMAT,
					       "implausible struct %s layout (%" PRIu64 " bytes)",
					       s, l->size);
		return NULL;
	}
	return err;
}

static struct oc_error *read_legacy(const struct oc_log_env *env,
				    uint64_t log_buf_sym, struct oc_log *log)
{
	struct legacy_layout l;
	struct blob buf = { 0 };
	uint64_t buf_addr, sym, seq = 0;
	unsigned int buf_len, idx, first_idx, next_idx;
	size_t cap, iter;
	bool wrapped = false;
	struct oc_error *err;

	if ((err = legacy_layout_init(env, &l)))
		return err;
	if ((err = read_var_u64(env, log_buf_sym, "log_buf", &buf_addr)))
		return err;
	if (!(sym = env_symbol(env, "log_buf_len")) ||
	    (err = read_var_u32(env, sym, "log_buf_len", &buf_len)))
		return err ? err : oc_error_format(OC_ERR_LOOKUP,
						   "no symbol log_buf_len");
	if (!(sym = env_symbol(env, "log_first_idx")) ||
	    (err = read_var_u32(env, sym, "log_first_idx", &idx)))
		return err ? err : oc_error_format(OC_ERR_LOOKUP,
						   "no symbol log_first_idx");
	if (!(sym = env_symbol(env, "log_next_idx")) ||
	    (err = read_var_u32(env, sym, "log_next_idx", &next_idx)))
		return err ? err : oc_error_format(OC_ERR_LOOKUP,
						   "no symbol log_next_idx");
	/* optional: numbers records like the kernel does */
	if ((sym = env_symbol(env, "log_first_seq"))) {
		err = oc_mem_read_u64(env->mem, sym, &seq);
		if (err) {
			oc_error_destroy(err);
			seq = 0;
		}
	}
	if (buf_len < l.size || buf_len > 1U << OC_LOG_MAX_BUF_BITS ||
	    idx >= buf_len || next_idx >= buf_len)
		return oc_error_format(OC_ERR_FORMAT,
				       "implausible log_buf: %u bytes, first index %u, next index %u",
				       buf_len, idx, next_idx);
	first_idx = idx;
	if ((err = blob_read(env->mem, buf_addr, buf_len, "log_buf", &buf)))
		return err;
	/* every record is at least a header long: a bound on the walk */
	cap = buf_len / l.size + 2;
	log->records = calloc(cap < OC_LOG_MAX_RECORDS ? cap : OC_LOG_MAX_RECORDS,
			      sizeof(*log->records));
	if (!log->records) {
		blob_free(&buf);
		return &oc_enomem;
	}
	for (iter = 0; idx != next_idx; iter++) {
		struct oc_log_record *rec = &log->records[log->nr];
		const char *hdr;
		uint64_t len, text_len;

		if (iter >= cap || log->nr >= OC_LOG_MAX_RECORDS) {
			log->truncated = log->nr >= OC_LOG_MAX_RECORDS;
			if (!log->truncated)
				log_note(log, "log_buf walk does not reach log_next_idx");
			break;
		}
		if (idx > buf_len - l.size || !blob_ok(&buf, idx, l.size)) {
			log->nr_bad++;
			log_note(log, "log_buf record header at %u out of range or unreadable", idx);
			break;
		}
		hdr = buf.data + idx;
		len = oc_member_get(hdr, l.size, &l.len);
		/*
		 * log_next(): a zero length marks the end of the buffer.  The
		 * records lie in [first, next) or, wrapped, in [first, end)
		 * and [0, next): anything else is damage, not a reason to go
		 * round again.
		 */
		if (!len) {
			if (wrapped || first_idx < next_idx) {
				log->nr_bad++;
				log_note(log, "log_buf end marker at %u where none can be", idx);
				break;
			}
			wrapped = true;
			idx = 0;
			continue;
		}
		text_len = oc_member_get(hdr, l.size, &l.text_len);
		/* LOG_ALIGN is 4 on x86 (HAVE_EFFICIENT_UNALIGNED_ACCESS) */
		if (len < l.size || len > buf_len - idx || (len & 3) ||
		    ((wrapped || first_idx < next_idx) &&
		     len > next_idx - idx)) {
			log->nr_bad++;
			log_note(log, "log_buf record at %u has length %" PRIu64, idx, len);
			break;
		}
		if (text_len > len - l.size || !blob_ok(&buf, idx, len)) {
			/* the next record is still where len says */
			if (text_len > len - l.size) {
				log->nr_bad++;
				log_note(log, "log_buf record at %u: text_len %" PRIu64 " larger than the record",
					 idx, text_len);
			} else {
				log->nr_lost++;
			}
			idx += len;
			seq++;
			continue;
		}
		memset(rec, 0, sizeof(*rec));
		rec->seq = seq++;
		rec->ts_nsec = oc_member_get(hdr, l.size, &l.ts_nsec);
		rec->caller_id = (uint32_t)oc_member_get(hdr, l.size,
							 &l.caller_id);
		rec->facility = (uint8_t)oc_member_get(hdr, l.size, &l.facility);
		rec->flags = (uint8_t)oc_member_get(hdr, l.size, &l.flags);
		rec->level = (uint8_t)oc_member_get(hdr, l.size, &l.level);
		rec->text = hdr + l.size;
		rec->len = text_len;
		log->nr++;
		idx += len;
	}
	log->format = OC_LOG_LEGACY;
	log->pool = buf.data;
	buf.data = NULL;
	blob_free(&buf);
	return NULL;
}

/* ---- API ------------------------------------------------------------- */

void oc_log_deinit(struct oc_log *log)
{
	if (!log)
		return;
	free(log->records);
	free(log->pool);
	log->records = NULL;
	log->pool = NULL;
	log->nr = 0;
}

struct oc_error *oc_log_read(const struct oc_log_env *env, struct oc_log *ret)
{
	struct oc_error *err;
	uint64_t sym;

	memset(ret, 0, sizeof(*ret));
	if (!env || !env->mem)
		return oc_error_format(OC_ERR_INVALID, "oc_log_read: no memory source");
	/* 896fbe20b4e2 (v5.10) replaced log_buf's records with prb */
	if ((sym = env_symbol(env, "prb")))
		err = read_ringbuffer(env, sym, ret);
	else if ((sym = env_symbol(env, "log_buf")) &&
		 env_symbol(env, "log_first_idx"))
		err = read_legacy(env, sym, ret);
	else
		err = oc_error_format(OC_ERR_LOOKUP,
				      "no kernel log: neither prb nor log_buf/log_first_idx is known");
	if (err)
		oc_log_deinit(ret);
	return err;
}

size_t oc_log_format_time(uint64_t ts_nsec, char *buf, size_t size)
{
	int n = snprintf(buf, size, "[%5" PRIu64 ".%06" PRIu64 "] ",
			 ts_nsec / 1000000000, ts_nsec % 1000000000 / 1000);

	return n < 0 ? 0 : (size_t)n;
}

void oc_log_each_line(const struct oc_log *log, oc_log_line_fn *fn,
		      void *arg)
{
	for (size_t i = 0; i < log->nr; i++) {
		const struct oc_log_record *rec = &log->records[i];
		const char *p = rec->text, *end = rec->text + rec->len;
		char prefix[48];

		oc_log_format_time(rec->ts_nsec, prefix, sizeof(prefix));
		/* record_print_text(): every line gets the prefix */
		do {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *eol = nl ? nl : end;

			fn(arg, rec, prefix, p, (size_t)(eol - p));
			p = nl ? nl + 1 : end;
		} while (p < end);
	}
}

static void print_line(void *arg, const struct oc_log_record *rec,
		       const char *prefix, const char *line, size_t len)
{
	FILE *out = arg;

	fputs(prefix, out);
	oc_str_fput(out, line, len, 0);
	fputc('\n', out);
}

void oc_log_print(const struct oc_log *log, FILE *out)
{
	oc_log_each_line(log, print_line, out);
}

/*
 * panic() prints "Kernel panic - not syncing: %s" at the start of a
 * record, and since 4.9 a closing "---[ end Kernel panic - not syncing:
 * %s ]---"; prefer the former, take the latter without its "]---" if
 * the panic line itself was lost.
 */
const char *oc_log_panic_message(const struct oc_log *log, char *buf,
				 size_t size)
{
	static const char needle[] = "Kernel panic - not syncing: ";
	static const char end_mark[] = " ]---";
	const size_t nlen = sizeof(needle) - 1, elen = sizeof(end_mark) - 1;

	if (!size)
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = log->nr; i-- > 0;) {
			const struct oc_log_record *rec = &log->records[i];
			const char *m = rec->len >= nlen ?
					memmem(rec->text, rec->len, needle, nlen) :
					NULL;
			const char *p, *end;
			size_t n;

			if (!m || (pass == 0 && m != rec->text))
				continue;
			p = m + nlen;
			end = rec->text + rec->len;
			n = (size_t)(end - p);
			if ((end = memchr(p, '\n', n)))
				n = (size_t)(end - p);
			if (m != rec->text && n >= elen &&
			    !memcmp(p + n - elen, end_mark, elen))
				n -= elen;
			if (n > size - 1)
				n = size - 1;
			memcpy(buf, p, n);
			buf[n] = '\0';
			return buf;
		}
	}
	return NULL;
}
