// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The printk log reader on synthetic kernels.  The ring buffer is filled
 * by a small writer that follows the kernel's own allocation rules
 * (kernel/printk/printk_ringbuffer.c desc_reserve(), data_alloc(),
 * get_next_lpos(), data_push_tail()) with the x86-64 layout of v6.1, so
 * IDs and lpos values start at DESC0_ID/BLK0_LPOS and overflow on the
 * first wrap exactly as in a real kernel.
 */
#include <stdbool.h>

#include "log.h"
#include "test.h"
#include "vmcoreinfo.h"

/* x86-64 v6.1 layout: the numbers the kernel puts in VMCOREINFO */
enum {
	RB_DESC_RING = 0, RB_TEXT_DATA_RING = 48, RB_FAIL = 80, RB_SIZE = 88,
	DR_COUNT_BITS = 0, DR_DESCS = 8, DR_INFOS = 16, DR_HEAD_ID = 24,
	DR_TAIL_ID = 32,
	DESC_SIZE = 24, DESC_STATE = 0, DESC_LPOS = 8,
	INFO_SIZE = 88, INFO_SEQ = 0, INFO_TS = 8, INFO_TEXT_LEN = 16,
	INFO_FACILITY = 18, INFO_FLAGS_LEVEL = 19, INFO_CALLER = 20,
	DATA_SIZE_BITS = 0, DATA_DATA = 8, DATA_HEAD = 16, DATA_TAIL = 24,
};

static const char VMCOREINFO[] =
	"OSRELEASE=6.1.0-test\n"
	"PAGESIZE=4096\n"
	"SIZE(printk_ringbuffer)=88\n"
	"OFFSET(printk_ringbuffer.desc_ring)=0\n"
	"OFFSET(printk_ringbuffer.text_data_ring)=48\n"
	"OFFSET(printk_ringbuffer.fail)=80\n"
	"SIZE(prb_desc_ring)=48\n"
	"OFFSET(prb_desc_ring.count_bits)=0\n"
	"OFFSET(prb_desc_ring.descs)=8\n"
	"OFFSET(prb_desc_ring.infos)=16\n"
	"OFFSET(prb_desc_ring.head_id)=24\n"
	"OFFSET(prb_desc_ring.tail_id)=32\n"
	"SIZE(prb_desc)=24\n"
	"OFFSET(prb_desc.state_var)=0\n"
	"OFFSET(prb_desc.text_blk_lpos)=8\n"
	"SIZE(prb_data_blk_lpos)=16\n"
	"OFFSET(prb_data_blk_lpos.begin)=0\n"
	"OFFSET(prb_data_blk_lpos.next)=8\n"
	"SIZE(printk_info)=88\n"
	"OFFSET(printk_info.seq)=0\n"
	"OFFSET(printk_info.ts_nsec)=8\n"
	"OFFSET(printk_info.text_len)=16\n"
	"OFFSET(printk_info.caller_id)=20\n"
	"OFFSET(printk_info.dev_info)=24\n"
	"SIZE(prb_data_ring)=32\n"
	"OFFSET(prb_data_ring.size_bits)=0\n"
	"OFFSET(prb_data_ring.data)=8\n"
	"OFFSET(prb_data_ring.head_lpos)=16\n"
	"OFFSET(prb_data_ring.tail_lpos)=24\n";

static const uint64_t PRB_SYM = 0xffffffff82a1b2c0ULL;	/* &prb */
static const uint64_t RB_ADDR = 0xffffffff82c00000ULL;	/* printk_rb_dynamic */
static const uint64_t DESCS_ADDR = 0xffff888004000000ULL;
static const uint64_t INFOS_ADDR = 0xffff888005000000ULL;
static const uint64_t DATA_ADDR = 0xffff888006000000ULL;

static const uint64_t ID_MASK = ~(3ULL << 62);
enum { ST_RESERVED, ST_COMMITTED, ST_FINALIZED, ST_REUSABLE };

static void put(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i-- > 0;)
		v = (v << 8) | p[i];
	return v;
}

/*
 * VMCOREINFO text as the log reader gets it, parsed by
 * formats/vmcoreinfo.c; one parse per distinct text, kept (reachable)
 * for the test binary's lifetime.
 */
static const struct oc_vmcoreinfo *vmci(const char *text)
{
	static struct oc_vmcoreinfo *parsed[16];
	static size_t nr;
	struct oc_vmcoreinfo *vi = NULL;

	for (size_t i = 0; i < nr; i++)
		if (!strcmp(oc_vmcoreinfo_text(parsed[i]), text))
			return parsed[i];
	CHECK_OK(oc_vmcoreinfo_parse(text, strlen(text), &vi));
	if (vi && nr < sizeof(parsed) / sizeof(parsed[0]))
		parsed[nr++] = vi;
	else
		FAIL_AT("more than 16 VMCOREINFO texts");
	return vi;
}

struct fake {
	unsigned int cbits, sbits;
	bool exact_fit;		/* the 2025 rule: no wrap when ending at the end */
	uint8_t rb[RB_SIZE];
	uint8_t prb_ptr[8];
	uint8_t *descs, *infos, *data;
	uint64_t head_id, tail_id, head_lpos, tail_lpos;
	struct oc_mem_region regions[5];
	struct oc_mem_buffers bufs;
	struct oc_mem mem;
	bool use_symbol;
	struct oc_log_env env;
};

static uint64_t count_of(const struct fake *f) { return 1ULL << f->cbits; }
static uint64_t dsize_of(const struct fake *f) { return 1ULL << f->sbits; }
static uint8_t *desc_at(struct fake *f, uint64_t id)
{
	return f->descs + (id & (count_of(f) - 1)) * DESC_SIZE;
}
static uint8_t *info_at(struct fake *f, uint64_t id)
{
	return f->infos + (id & (count_of(f) - 1)) * INFO_SIZE;
}

static uint64_t fake_symbol(void *arg, const char *name)
{
	struct fake *f = arg;

	if (f->use_symbol && !strcmp(name, "prb"))
		return PRB_SYM;
	return 0;
}

static void fake_sync(struct fake *f)
{
	uint8_t *dr = f->rb + RB_DESC_RING, *tdr = f->rb + RB_TEXT_DATA_RING;

	put(dr + DR_COUNT_BITS, f->cbits, 4);
	put(dr + DR_DESCS, DESCS_ADDR, 8);
	put(dr + DR_INFOS, INFOS_ADDR, 8);
	put(dr + DR_HEAD_ID, f->head_id, 8);
	put(dr + DR_TAIL_ID, f->tail_id, 8);
	put(tdr + DATA_SIZE_BITS, f->sbits, 4);
	put(tdr + DATA_DATA, DATA_ADDR, 8);
	put(tdr + DATA_HEAD, f->head_lpos, 8);
	put(tdr + DATA_TAIL, f->tail_lpos, 8);
	put(f->rb + RB_FAIL, 0, 8);
}

/* prb_init() / DEFINE_PRINTKRB() */
static void fake_init(struct fake *f, unsigned int cbits, unsigned int sbits)
{
	uint64_t count, desc0;

	memset(f, 0, sizeof(*f));
	f->cbits = cbits;
	f->sbits = sbits;
	count = count_of(f);
	f->descs = calloc(count, DESC_SIZE);
	f->infos = calloc(count, INFO_SIZE);
	f->data = calloc(dsize_of(f), 1);
	desc0 = (-(count + 1)) & ID_MASK;		/* DESC0_ID */
	f->head_id = f->tail_id = desc0;
	f->head_lpos = f->tail_lpos = -dsize_of(f);	/* BLK0_LPOS */
	put(info_at(f, 0) + INFO_SEQ, -count, 8);
	put(desc_at(f, desc0) + DESC_STATE, (3ULL << 62) | desc0, 8);
	put(desc_at(f, desc0) + DESC_LPOS, 1, 8);	/* FAILED_LPOS */
	put(desc_at(f, desc0) + DESC_LPOS + 8, 1, 8);
	put(f->prb_ptr, RB_ADDR, 8);

	f->regions[0] = (struct oc_mem_region){ PRB_SYM, 8, f->prb_ptr };
	f->regions[1] = (struct oc_mem_region){ RB_ADDR, RB_SIZE, f->rb };
	f->regions[2] = (struct oc_mem_region){ DESCS_ADDR, count * DESC_SIZE, f->descs };
	f->regions[3] = (struct oc_mem_region){ INFOS_ADDR, count * INFO_SIZE, f->infos };
	f->regions[4] = (struct oc_mem_region){ DATA_ADDR, dsize_of(f), f->data };
	f->bufs = (struct oc_mem_buffers){ f->regions, 5 };
	oc_mem_buffers_init(&f->mem, &f->bufs);
	f->use_symbol = true;
	f->env = (struct oc_log_env){ .mem = &f->mem, .vmcoreinfo = vmci(VMCOREINFO),
				      .symbol = fake_symbol, .arg = f };
	fake_sync(f);
}

static void fake_free(struct fake *f)
{
	free(f->descs);
	free(f->infos);
	free(f->data);
}

static bool blk_wraps(const struct fake *f, uint64_t begin, uint64_t next)
{
	if (f->exact_fit)	/* is_blk_wrapped() */
		return begin >> f->sbits != (next - 1) >> f->sbits;
	return begin >> f->sbits != next >> f->sbits;
}

/* desc_push_tail() + data_push_tail(): retire the oldest record. */
static void fake_pop(struct fake *f)
{
	uint8_t *d = desc_at(f, f->tail_id);
	uint64_t next = get(d + DESC_LPOS + 8, 8);

	put(d + DESC_STATE, (3ULL << 62) | f->tail_id, 8);
	if (!(next & 1))
		f->tail_lpos = next;
	f->tail_id = (f->tail_id + 1) & ID_MASK;
}

static uint64_t fake_add(struct fake *f, const char *text, uint64_t ts,
			 unsigned int level, int state)
{
	uint64_t id = (f->head_id + 1) & ID_MASK, count = count_of(f);
	uint64_t dsize = dsize_of(f), len = strlen(text), begin, next, seq;
	uint8_t *d, *info;

	/* desc_reserve(): the slot must not hold the tail */
	if (((id - count) & ID_MASK) == f->tail_id)
		fake_pop(f);
	if (!len) {
		begin = next = 3;	/* EMPTY_LINE_LPOS */
	} else {
		uint64_t size = (8 + len + 7) & ~7ULL;

		begin = f->head_lpos;
		next = begin + size;
		if (blk_wraps(f, begin, next))	/* get_next_lpos() */
			next = (next & ~(dsize - 1)) + size;
		while (next - f->tail_lpos > dsize)
			fake_pop(f);
		put(f->data + (begin & (dsize - 1)), id, 8);
		if (blk_wraps(f, begin, next)) {
			put(f->data, id, 8);
			memcpy(f->data + 8, text, len);
		} else {
			memcpy(f->data + (begin & (dsize - 1)) + 8, text, len);
		}
		f->head_lpos = next;
	}
	d = desc_at(f, id);
	info = info_at(f, id);
	seq = get(info + INFO_SEQ, 8);
	if (seq == 0 && (id & (count - 1)) != 0)
		seq = id & (count - 1);
	else
		seq += count;
	memset(info, 0, INFO_SIZE);
	put(info + INFO_SEQ, seq, 8);
	put(info + INFO_TS, ts, 8);
	put(info + INFO_TEXT_LEN, len, 2);
	info[INFO_FACILITY] = 0;
	info[INFO_FLAGS_LEVEL] = (uint8_t)((level << 5) | 2 /* LOG_NEWLINE */);
	put(info + INFO_CALLER, 0x80000000u | 1, 4);
	put(d + DESC_STATE, ((uint64_t)state << 62) | id, 8);
	put(d + DESC_LPOS, begin, 8);
	put(d + DESC_LPOS + 8, next, 8);
	f->head_id = id;
	fake_sync(f);
	return seq;
}

static bool rec_is(const struct oc_log_record *r, const char *text)
{
	return r->len == strlen(text) && !memcmp(r->text, text, r->len);
}

static char *print_to_string(const struct oc_log *log)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	oc_log_print(log, fp);
	fclose(fp);
	return buf;
}

TEST(log_prb_basic)
{
	struct fake f;
	struct oc_log log;
	char buf[64], *out;

	fake_init(&f, 4, 9);
	fake_add(&f, "Linux version 6.1.0-test", 0, 5, ST_FINALIZED);
	fake_add(&f, "", 1500, 6, ST_FINALIZED);
	fake_add(&f, "sysrq: Show State\ntask:init state:S", 12345678901ULL, 6,
		 ST_FINALIZED);
	fake_add(&f, "Kernel panic - not syncing: sysrq triggered crash\n",
		 13000000000ULL, 0, ST_COMMITTED);
	CHECK_OK(oc_log_read(&f.env, &log));
	CHECK_EQ(log.format, OC_LOG_RINGBUFFER);
	CHECK_EQ(log.nr, 4);
	CHECK_EQ(log.nr_bad, 0);
	/* the initial DESC0_ID descriptor is in [tail, head] and reusable */
	CHECK_EQ(log.nr_lost, 1);
	CHECK_STR(log.note, "");
	if (log.nr == 4) {
		CHECK(rec_is(&log.records[0], "Linux version 6.1.0-test"));
		CHECK_EQ(log.records[0].seq, 0);
		CHECK_EQ(log.records[0].level, 5);
		CHECK_EQ(log.records[0].flags, 2);
		CHECK_EQ(log.records[0].caller_id, 0x80000001u);
		CHECK(rec_is(&log.records[1], ""));
		CHECK_EQ(log.records[1].seq, 1);
		CHECK_EQ(log.records[2].ts_nsec, 12345678901ULL);
		CHECK_EQ(log.records[3].seq, 3);
		CHECK_EQ(log.records[3].level, 0);
	}
	out = print_to_string(&log);
	CHECK_STR(out,
		  "[    0.000000] Linux version 6.1.0-test\n"
		  "[    0.000001] \n"
		  "[   12.345678] sysrq: Show State\n"
		  "[   12.345678] task:init state:S\n"
		  "[   13.000000] Kernel panic - not syncing: sysrq triggered crash\n");
	free(out);
	CHECK_STR(oc_log_panic_message(&log, buf, sizeof(buf)),
		  "sysrq triggered crash");
	CHECK_STR(oc_log_panic_message(&log, buf, 6), "sysrq");
	oc_log_deinit(&log);

	/* the end marker printed after it does not win; alone, it serves */
	fake_add(&f, "---[ end Kernel panic - not syncing: sysrq triggered crash ]---",
		 13100000000ULL, 0, ST_FINALIZED);
	CHECK_OK(oc_log_read(&f.env, &log));
	CHECK_EQ(log.nr, 5);
	CHECK_STR(oc_log_panic_message(&log, buf, sizeof(buf)),
		  "sysrq triggered crash");
	log.records[3].len = 0;
	CHECK_STR(oc_log_panic_message(&log, buf, sizeof(buf)),
		  "sysrq triggered crash");
	log.records[4].len -= 8;	/* a cut-off marker */
	CHECK_STR(oc_log_panic_message(&log, buf, sizeof(buf)),
		  "sysrq triggered cr");
	oc_log_deinit(&log);
	fake_free(&f);
}

/*
 * Fill a small ring many times over, stop when a live block wraps (or,
 * with @want_exact, ends exactly at the end of the ring) after lpos
 * overflowed, and compare with what survived.
 */
static void run_wrapping(bool exact_fit, bool want_exact)
{
	enum { MAX = 400 };
	struct fake f;
	struct oc_log log;
	char texts[MAX][64];
	uint64_t seqs[MAX];
	int n = 0;
	bool saw_overflow = false, found = false;

	fake_init(&f, 4, 9);	/* 16 descriptors, 512 bytes of text */
	f.exact_fit = exact_fit;
	while (n < MAX && !found) {
		int len = 3 + (n * 7) % 45;

		snprintf(texts[n], sizeof(texts[n]), "%03d %.*s", n, len,
			 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
		seqs[n] = fake_add(&f, texts[n], 1000ULL * n, n % 8,
				   ST_FINALIZED);
		n++;
		if (f.head_lpos < dsize_of(&f))
			saw_overflow = true;
		if (n < 100 || !saw_overflow)
			continue;
		for (uint64_t id = f.tail_id; id != ((f.head_id + 1) & ID_MASK);
		     id = (id + 1) & ID_MASK) {
			uint8_t *d = desc_at(&f, id);
			uint64_t b = get(d + DESC_LPOS, 8);
			uint64_t nx = get(d + DESC_LPOS + 8, 8);

			if (get(d, 8) >> 62 == ST_REUSABLE || (b & 1))
				continue;
			if (want_exact ? !(nx & (dsize_of(&f) - 1)) :
					 blk_wraps(&f, b, nx))
				found = true;
		}
	}
	CHECK(found);
	CHECK_OK(oc_log_read(&f.env, &log));
	CHECK_EQ(log.nr_bad, 0);
	CHECK(log.nr >= 5);
	CHECK(log.nr <= (size_t)n);
	for (size_t i = 0; i < log.nr && log.nr <= (size_t)n; i++) {
		size_t k = n - log.nr + i;

		if (!rec_is(&log.records[i], texts[k]) ||
		    log.records[i].seq != seqs[k] ||
		    log.records[i].seq != k ||
		    log.records[i].ts_nsec != 1000ULL * k ||
		    log.records[i].level != k % 8) {
			FAIL_AT("record %zu: \"%.*s\" seq %llu, want \"%s\" seq %zu",
				i, (int)log.records[i].len, log.records[i].text,
				(unsigned long long)log.records[i].seq,
				texts[k], k);
			break;
		}
	}
	/* the newest record is last and nothing newer is invented */
	if (log.nr)
		CHECK(rec_is(&log.records[log.nr - 1], texts[n - 1]));
	oc_log_deinit(&log);
	fake_free(&f);
}

TEST(log_prb_wrapping_blocks)
{
	run_wrapping(false, false);
}

TEST(log_prb_exact_fit_blocks)
{
	run_wrapping(true, true);
	run_wrapping(true, false);
}

TEST(log_prb_symbol_from_vmcoreinfo)
{
	struct fake f;
	struct oc_log log;
	char *vmci_text;

	fake_init(&f, 3, 8);
	fake_add(&f, "hello", 1, 6, ST_FINALIZED);
	f.use_symbol = false;
	{
		struct oc_error *err = oc_log_read(&f.env, &log);

		CHECK(err && err->code == OC_ERR_LOOKUP);	/* no prb */
		oc_error_destroy(err);
	}
	CHECK_EQ(log.nr, 0);
	CHECK(asprintf(&vmci_text, "%sSYMBOL(prb)=%llx\n", VMCOREINFO,
		       (unsigned long long)PRB_SYM) > 0);
	f.env.vmcoreinfo = vmci(vmci_text);
	f.env.symbol = NULL;
	CHECK_OK(oc_log_read(&f.env, &log));
	if (CHECKED_EQ(log.nr, 1))
		CHECK(rec_is(&log.records[0], "hello"));
	oc_log_deinit(&log);
	free(vmci_text);
	fake_free(&f);
}

/* A types backend with the same layout, to check the BTF path. */
static struct oc_error *ft_size(void *arg, const char *type, uint64_t *ret)
{
	/* the two arrays the reader indexes; the rest it reads member-wise */
	static const struct {
		const char *type;
		uint64_t size;
	} sizes[] = {
		{ "struct prb_desc", DESC_SIZE },
		{ "struct printk_info", INFO_SIZE },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (!strcmp(sizes[i].type, type)) {
			*ret = sizes[i].size;
			return NULL;
		}
	}
	return oc_error_format(OC_ERR_LOOKUP, "no %s", type);
}

static struct oc_error *ft_member(void *arg, const char *type,
				  const char *path, struct oc_member *ret)
{
	static const struct {
		const char *type, *path;
		struct oc_member m;
	} tab[] = {
		{ "struct printk_ringbuffer", "desc_ring", { 0, 48, 0, 0 } },
		{ "struct printk_ringbuffer", "text_data_ring", { 48, 32, 0, 0 } },
		{ "struct prb_desc_ring", "count_bits", { 0, 4, 0, 0 } },
		{ "struct prb_desc_ring", "descs", { 8, 8, 0, 0 } },
		{ "struct prb_desc_ring", "infos", { 16, 8, 0, 0 } },
		{ "struct prb_desc_ring", "head_id", { 24, 8, 0, 0 } },
		{ "struct prb_desc_ring", "tail_id", { 32, 8, 0, 0 } },
		{ "struct prb_desc", "state_var", { 0, 8, 0, 0 } },
		{ "struct prb_desc", "text_blk_lpos", { 8, 16, 0, 0 } },
		{ "struct prb_data_blk_lpos", "begin", { 0, 8, 0, 0 } },
		{ "struct prb_data_blk_lpos", "next", { 8, 8, 0, 0 } },
		{ "struct printk_info", "seq", { 0, 8, 0, 0 } },
		{ "struct printk_info", "ts_nsec", { 8, 8, 0, 0 } },
		{ "struct printk_info", "text_len", { 16, 2, 0, 0 } },
		{ "struct printk_info", "caller_id", { 20, 4, 0, 0 } },
		/* bit fields as a BTF backend may express them: from the
		 * start of a 4-byte unit */
		{ "struct printk_info", "facility", { 18, 1, 0, 0 } },
		{ "struct printk_info", "flags", { 16, 0, 24, 5 } },
		{ "struct printk_info", "level", { 16, 0, 29, 3 } },
		{ "struct prb_data_ring", "size_bits", { 0, 4, 0, 0 } },
		{ "struct prb_data_ring", "data", { 8, 8, 0, 0 } },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (!strcmp(tab[i].type, type) && !strcmp(tab[i].path, path)) {
			*ret = tab[i].m;
			return NULL;
		}
	}
	return oc_error_format(OC_ERR_LOOKUP, "no %s.%s", type, path);
}

static const struct oc_types_ops ft_ops = { .type_size = ft_size,
					    .member = ft_member };

TEST(log_prb_layout_from_types)
{
	struct fake f;
	struct oc_log log;
	struct oc_types types = { .ops = &ft_ops };

	fake_init(&f, 3, 8);
	fake_add(&f, "<4>warning", 7, 4, ST_FINALIZED);
	fake_add(&f, "info", 8, 6, ST_FINALIZED);
	f.env.types = &types;
	f.env.vmcoreinfo = vmci("OFFSET(printk_info.seq)=999\n");	/* types win */
	CHECK_OK(oc_log_read(&f.env, &log));
	if (CHECKED_EQ(log.nr, 2)) {
		CHECK(rec_is(&log.records[0], "<4>warning"));
		CHECK_EQ(log.records[0].level, 4);
		CHECK_EQ(log.records[0].flags, 2);
		CHECK_EQ(log.records[1].level, 6);
		CHECK_EQ(log.records[1].ts_nsec, 8);
	}
	oc_log_deinit(&log);
	/* neither types nor VMCOREINFO: a lookup error, not a guess */
	f.env.types = NULL;
	f.env.vmcoreinfo = vmci("SYMBOL(prb)=ffffffff82a1b2c0\n");
	{
		struct oc_error *err = oc_log_read(&f.env, &log);

		CHECK(err && err->code == OC_ERR_LOOKUP);
		oc_error_destroy(err);
	}
	fake_free(&f);
}

/* Five records, one of them damaged by @damage; the rest must survive. */
static void check_damaged(void (*damage)(struct fake *f, uint64_t id),
			  size_t want_bad, size_t want_lost)
{
	static const char *const texts[] = { "zero", "one", "two", "three",
					     "four" };
	struct fake f;
	struct oc_log log;
	uint64_t ids[5];

	fake_init(&f, 3, 9);
	for (int i = 0; i < 5; i++) {
		fake_add(&f, texts[i], (uint64_t)i, 6, ST_FINALIZED);
		ids[i] = f.head_id;
	}
	damage(&f, ids[2]);
	CHECK_OK(oc_log_read(&f.env, &log));
	CHECK_EQ(log.nr, 4);
	CHECK_EQ(log.nr_bad, want_bad);
	CHECK_EQ(log.nr_lost, want_lost + 1);	/* + DESC0 */
	if (want_bad)
		CHECK(log.note[0] != '\0');
	if (log.nr == 4) {
		CHECK(rec_is(&log.records[0], "zero"));
		CHECK(rec_is(&log.records[1], "one"));
		CHECK(rec_is(&log.records[2], "three"));
		CHECK(rec_is(&log.records[3], "four"));
		CHECK_EQ(log.records[3].seq, 4);
	}
	oc_log_deinit(&log);
	fake_free(&f);
}

static void dmg_reserved(struct fake *f, uint64_t id)
{
	put(desc_at(f, id) + DESC_STATE, id, 8);	/* desc_reserved */
}

static void dmg_reusable(struct fake *f, uint64_t id)
{
	put(desc_at(f, id) + DESC_STATE, (3ULL << 62) | id, 8);
}

static void dmg_other_id(struct fake *f, uint64_t id)
{
	put(desc_at(f, id) + DESC_STATE, (2ULL << 62) | ((id + 8) & ID_MASK), 8);
}

static void dmg_lpos_far(struct fake *f, uint64_t id)
{
	uint8_t *d = desc_at(f, id);

	put(d + DESC_LPOS + 8, get(d + DESC_LPOS, 8) + 4 * dsize_of(f), 8);
}

static void dmg_lpos_backwards(struct fake *f, uint64_t id)
{
	uint8_t *d = desc_at(f, id);
	uint64_t b = get(d + DESC_LPOS, 8);

	put(d + DESC_LPOS, b + 64, 8);
}

static void dmg_lpos_misaligned(struct fake *f, uint64_t id)
{
	uint8_t *d = desc_at(f, id);

	put(d + DESC_LPOS, get(d + DESC_LPOS, 8) + 4, 8);
}

static void dmg_text_len(struct fake *f, uint64_t id)
{
	put(info_at(f, id) + INFO_TEXT_LEN, 200, 2);	/* block is 16 bytes */
}

static void dmg_seq(struct fake *f, uint64_t id)
{
	put(info_at(f, id) + INFO_SEQ, 3, 8);
}

static void dmg_block_id(struct fake *f, uint64_t id)
{
	uint64_t b = get(desc_at(f, id) + DESC_LPOS, 8);

	put(f->data + (b & (dsize_of(f) - 1)), id + 1, 8);
}

static void dmg_failed_lpos(struct fake *f, uint64_t id)
{
	put(desc_at(f, id) + DESC_LPOS, 1, 8);
	put(desc_at(f, id) + DESC_LPOS + 8, 1, 8);
}

TEST(log_prb_bad_state_is_skipped)
{
	check_damaged(dmg_reserved, 0, 1);
	check_damaged(dmg_reusable, 0, 1);
	check_damaged(dmg_other_id, 0, 1);
	check_damaged(dmg_failed_lpos, 0, 1);
}

TEST(log_prb_bad_lpos_is_skipped)
{
	check_damaged(dmg_lpos_far, 1, 0);
	check_damaged(dmg_lpos_backwards, 1, 0);
	check_damaged(dmg_lpos_misaligned, 1, 0);
	check_damaged(dmg_block_id, 1, 0);
}

TEST(log_prb_bad_text_len_and_seq_are_skipped)
{
	check_damaged(dmg_text_len, 1, 0);
	check_damaged(dmg_seq, 1, 0);
}

TEST(log_prb_hostile_headers)
{
	struct fake f;
	struct oc_log log;
	struct oc_error *err;

	fake_init(&f, 3, 8);
	fake_add(&f, "a", 1, 6, ST_FINALIZED);
	fake_add(&f, "b", 2, 6, ST_FINALIZED);

	/* head and tail IDs far apart: read one ring's worth, no more */
	put(f.rb + RB_DESC_RING + DR_TAIL_ID, 5, 8);
	CHECK_OK(oc_log_read(&f.env, &log));
	CHECK_EQ(log.nr, 2);
	CHECK_EQ(log.nr + log.nr_lost + log.nr_bad, 8);
	CHECK(strstr(log.note, "tail_id") != NULL);
	oc_log_deinit(&log);
	fake_sync(&f);

	/* absurd sizes fail without allocating them */
	put(f.rb + RB_DESC_RING + DR_COUNT_BITS, 60, 4);
	err = oc_log_read(&f.env, &log);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	fake_sync(&f);
	put(f.rb + RB_TEXT_DATA_RING + DATA_SIZE_BITS, 63, 4);
	err = oc_log_read(&f.env, &log);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	fake_sync(&f);

	/* prb == NULL */
	put(f.prb_ptr, 0, 8);
	err = oc_log_read(&f.env, &log);
	CHECK(err != NULL);
	oc_error_destroy(err);
	put(f.prb_ptr, RB_ADDR, 8);

	/* VMCOREINFO with an absurd size, or with a second, different
	 * SIZE(prb_desc): a format error either way (formats/vmcoreinfo.h) */
	{
		char *v;

		CHECK(asprintf(&v, "SIZE(prb_desc)=100000\n%s", VMCOREINFO) > 0);
		f.env.vmcoreinfo = vmci(v);
		err = oc_log_read(&f.env, &log);
		CHECK(err && err->code == OC_ERR_FORMAT);
		oc_error_destroy(err);
		free(v);
	}
	f.env.vmcoreinfo = vmci(VMCOREINFO);

	/* the descriptor array unreadable: an error naming it */
	f.regions[2].addr = 0x1000;
	err = oc_log_read(&f.env, &log);
	CHECK(err && err->code == OC_ERR_FAULT);
	if (err)
		CHECK(strstr(err->message, "descriptor") != NULL);
	oc_error_destroy(err);
	CHECK_EQ(log.nr, 0);
	CHECK(log.records == NULL);
	fake_free(&f);
}

TEST(log_prb_unreadable_text_page)
{
	struct fake f;
	struct oc_log log;
	int n = 0;

	fake_init(&f, 8, 13);	/* two pages of text */
	while (f.head_lpos + dsize_of(&f) < 6000) {
		char t[64];

		snprintf(t, sizeof(t), "record %d with some text", n++);
		fake_add(&f, t, (uint64_t)n, 6, ST_FINALIZED);
	}
	/* only the first page of the text ring is in the dump */
	f.regions[4].len = 4096;
	CHECK_OK(oc_log_read(&f.env, &log));
	CHECK(log.nr > 10);
	CHECK(log.nr < (size_t)n);
	CHECK_EQ(log.nr + log.nr_lost, (size_t)n + 1);
	CHECK_EQ(log.nr_bad, 0);
	if (log.nr)
		CHECK(rec_is(&log.records[0], "record 0 with some text"));
	oc_log_deinit(&log);
	fake_free(&f);
}

/* ---- legacy log_buf: struct printk_log, packed, 16 bytes (x86-64) ---- */

static const uint64_t LB_PTR = 0xffffffff82600000ULL;	/* &log_buf */
static const uint64_t LB_VARS = 0xffffffff82600100ULL;
static const uint64_t LB_BUF = 0xffff888007000000ULL;

struct legacy {
	uint8_t ptr[8];
	uint8_t vars[32];	/* log_buf_len, log_first_idx, log_next_idx, log_first_seq */
	uint8_t buf[256];
	uint32_t next;
	struct oc_mem_region regions[3];
	struct oc_mem_buffers bufs;
	struct oc_mem mem;
	struct oc_log_env env;
};

static uint64_t legacy_symbol(void *arg, const char *name)
{
	if (!strcmp(name, "log_buf"))
		return LB_PTR;
	if (!strcmp(name, "log_buf_len"))
		return LB_VARS;
	if (!strcmp(name, "log_first_idx"))
		return LB_VARS + 4;
	if (!strcmp(name, "log_next_idx"))
		return LB_VARS + 8;
	if (!strcmp(name, "log_first_seq"))
		return LB_VARS + 16;
	return 0;
}

static const char LEGACY_VMCOREINFO[] =
	"SIZE(printk_log)=16\n"
	"OFFSET(printk_log.ts_nsec)=0\n"
	"OFFSET(printk_log.len)=8\n"
	"OFFSET(printk_log.text_len)=10\n"
	"OFFSET(printk_log.dict_len)=12\n";

/* log_store(): wrap with a zeroed header when the record does not fit */
static uint32_t legacy_store(struct legacy *l, const char *text, uint64_t ts,
			     unsigned int level)
{
	uint32_t len = (uint32_t)strlen(text), size = (16 + len + 3) & ~3u;
	uint32_t at;

	if (l->next + size + 16 > sizeof(l->buf)) {
		memset(l->buf + l->next, 0, 16);
		l->next = 0;
	}
	at = l->next;
	put(l->buf + at, ts, 8);
	put(l->buf + at + 8, size, 2);
	put(l->buf + at + 10, len, 2);
	put(l->buf + at + 12, 0, 2);
	l->buf[at + 14] = 0;
	l->buf[at + 15] = (uint8_t)(level << 5 | 2);
	memcpy(l->buf + at + 16, text, len);
	l->next += size;
	return at;
}

static void legacy_init(struct legacy *l)
{
	memset(l, 0, sizeof(*l));
	put(l->ptr, LB_BUF, 8);
	put(l->vars, sizeof(l->buf), 4);
	l->regions[0] = (struct oc_mem_region){ LB_PTR, 8, l->ptr };
	l->regions[1] = (struct oc_mem_region){ LB_VARS, 32, l->vars };
	l->regions[2] = (struct oc_mem_region){ LB_BUF, sizeof(l->buf), l->buf };
	l->bufs = (struct oc_mem_buffers){ l->regions, 3 };
	oc_mem_buffers_init(&l->mem, &l->bufs);
	l->env = (struct oc_log_env){ .mem = &l->mem,
				      .vmcoreinfo = vmci(LEGACY_VMCOREINFO),
				      .symbol = legacy_symbol, .arg = l };
}

TEST(log_legacy_wrapped_buffer)
{
	struct legacy l;
	struct oc_log log;
	uint32_t first;

	legacy_init(&l);
	legacy_store(&l, "old record overwritten later ......", 1, 6);
	first = legacy_store(&l, "second: the oldest that survives", 2, 6);
	legacy_store(&l, "third", 3, 4);
	legacy_store(&l, "fourth record, long enough to wrap ....", 4, 6);
	legacy_store(&l, "fifth", 5, 6);
	legacy_store(&l, "sixth at the start again", 6, 3);
	CHECK(l.next < first);	/* wrapped */
	put(l.vars + 4, first, 4);
	put(l.vars + 8, l.next, 4);
	put(l.vars + 16, 41, 8);
	CHECK_OK(oc_log_read(&l.env, &log));
	CHECK_EQ(log.format, OC_LOG_LEGACY);
	CHECK_EQ(log.nr_bad, 0);
	if (CHECKED_EQ(log.nr, 5)) {
		CHECK(rec_is(&log.records[0], "second: the oldest that survives"));
		CHECK_EQ(log.records[0].seq, 41);
		CHECK(rec_is(&log.records[1], "third"));
		CHECK_EQ(log.records[1].level, 4);
		CHECK(rec_is(&log.records[4], "sixth at the start again"));
		CHECK_EQ(log.records[4].level, 3);
		CHECK_EQ(log.records[4].ts_nsec, 6);
		CHECK_EQ(log.records[4].seq, 45);
	}
	oc_log_deinit(&log);
}

TEST(log_legacy_hostile)
{
	struct legacy l;
	struct oc_log log;
	struct oc_error *err;

	legacy_init(&l);
	legacy_store(&l, "one", 1, 6);
	legacy_store(&l, "two", 2, 6);
	/* log_next_idx inside a record: stop there, no second lap */
	put(l.vars + 4, 0, 4);
	put(l.vars + 8, 30, 4);
	memset(l.buf + l.next, 0, 16);	/* end marker after "two" */
	CHECK_OK(oc_log_read(&l.env, &log));
	CHECK_EQ(log.nr, 1);
	CHECK_EQ(log.nr_bad, 1);
	CHECK(log.note[0] != '\0');
	oc_log_deinit(&log);

	/* an end marker although first < next */
	put(l.vars + 8, l.next + 20, 4);
	CHECK_OK(oc_log_read(&l.env, &log));
	CHECK_EQ(log.nr, 2);
	CHECK_EQ(log.nr_bad, 1);
	oc_log_deinit(&log);

	/* a record length that is not a multiple of 4 */
	put(l.vars + 8, l.next, 4);
	put(l.buf + 8, 23, 2);
	CHECK_OK(oc_log_read(&l.env, &log));
	CHECK_EQ(log.nr, 0);
	CHECK_EQ(log.nr_bad, 1);
	oc_log_deinit(&log);
	put(l.buf + 8, 20, 2);

	/* text_len past the record: skipped, the walk goes on */
	put(l.buf + 10, 100, 2);
	CHECK_OK(oc_log_read(&l.env, &log));
	CHECK_EQ(log.nr, 1);
	CHECK_EQ(log.nr_bad, 1);
	if (log.nr == 1)
		CHECK(rec_is(&log.records[0], "two"));
	oc_log_deinit(&log);

	/* indexes outside the buffer */
	put(l.vars + 4, 5000, 4);
	err = oc_log_read(&l.env, &log);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
}

TEST(log_panic_message_absent)
{
	struct oc_log log = { 0 };
	struct oc_log_record r = { .text = "Kernel panic - not", .len = 18 };
	char buf[32];

	CHECK(oc_log_panic_message(&log, buf, sizeof(buf)) == NULL);
	log.records = &r;
	log.nr = 1;
	CHECK(oc_log_panic_message(&log, buf, sizeof(buf)) == NULL);
}

TEST(log_print_escapes_control_characters)
{
	struct oc_log_record r = { .ts_nsec = 5000, .text = "a\x1b[2Jb\tc\r",
				   .len = 9 };
	struct oc_log log = { .records = &r, .nr = 1 };
	char *out = print_to_string(&log);

	CHECK_STR(out, "[    0.000005] a\\x1b[2Jb\tc\\x0d\n");
	free(out);
}

/* ---- garbage in: no crash, no hang, every text inside the pool ---- */

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 11;
}

static bool texts_in_pool(const struct oc_log *log, size_t pool_size)
{
	for (size_t i = 0; i < log->nr; i++) {
		const struct oc_log_record *r = &log->records[i];

		if (!r->len)
			continue;
		if (r->text < log->pool || r->len > pool_size ||
		    (size_t)(r->text - log->pool) > pool_size - r->len)
			return false;
	}
	return true;
}

/*
 * A read of garbage may fail; what it does return stays in bounds: at
 * most @max_nr records, @max_seen with the lost and bad ones, every text
 * inside the pool of @pool_size bytes.
 */
static void check_garbage_read(const struct oc_log_env *env, size_t max_nr,
			       size_t max_seen, size_t pool_size)
{
	struct oc_log log;
	struct oc_error *err = oc_log_read(env, &log);

	if (err) {
		oc_error_destroy(err);
		return;
	}
	CHECK(log.nr <= max_nr);
	CHECK(log.nr + log.nr_lost + log.nr_bad <= max_seen);
	CHECK(texts_in_pool(&log, pool_size));
	oc_log_deinit(&log);
}

TEST(log_prb_random_garbage)
{
	uint64_t seed = 42;

	for (int round = 0; round < 300; round++) {
		struct fake f;

		fake_init(&f, 3 + round % 4, 8 + round % 3);
		for (int i = 0; i < 40; i++)
			fake_add(&f, i % 3 ? "some text" : "a longer line of text",
				 (uint64_t)i, 6, ST_FINALIZED);
		/* flip bytes everywhere, more of them as rounds go on */
		for (int k = 0; k < 1 + round; k++) {
			uint64_t r = lcg(&seed);
			uint8_t v = (uint8_t)lcg(&seed);

			switch (r % 4) {
			case 0:
				f.descs[r / 4 % (count_of(&f) * DESC_SIZE)] = v;
				break;
			case 1:
				f.infos[r / 4 % (count_of(&f) * INFO_SIZE)] = v;
				break;
			case 2:
				f.data[r / 4 % dsize_of(&f)] = v;
				break;
			default:
				/* head and tail IDs only: sizes are checked above */
				f.rb[RB_DESC_RING + DR_HEAD_ID + r / 4 % 16] = v;
				break;
			}
		}
		check_garbage_read(&f.env, count_of(&f), count_of(&f),
				   dsize_of(&f));
		fake_free(&f);
	}
}

TEST(log_legacy_random_garbage)
{
	uint64_t seed = 7;

	for (int round = 0; round < 300; round++) {
		struct legacy l;
		struct oc_log log;

		legacy_init(&l);
		for (int i = 0; i < 12; i++)
			legacy_store(&l, i % 2 ? "odd record" : "an even record here",
				     (uint64_t)i, 6);
		/* the records written since the last wrap */
		put(l.vars + 4, 0, 4);
		put(l.vars + 8, l.next, 4);
		if (round == 0) {
			CHECK_OK(oc_log_read(&l.env, &log));
			CHECK(log.nr >= 2);
			oc_log_deinit(&log);
		}
		for (int k = 0; k < 1 + round / 4; k++) {
			uint64_t r = lcg(&seed);

			l.buf[r % sizeof(l.buf)] = (uint8_t)lcg(&seed);
		}
		if (round % 3 == 0)
			put(l.vars + 4, lcg(&seed) % sizeof(l.buf), 4);
		/* the records alone are bounded here, not the lost and bad */
		check_garbage_read(&l.env, sizeof(l.buf) / 16, SIZE_MAX,
				   sizeof(l.buf));
	}
}
