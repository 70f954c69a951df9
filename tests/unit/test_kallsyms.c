// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kallsyms decoder on synthetic tables laid out the way
 * scripts/kallsyms.c's write_src() emits them: offsets (or addresses),
 * relative base, count, compressed names, markers, token table, token
 * index, all in one "kernel image" buffer behind an oc_mem.
 */
#include "kallsyms.h"
#include "test.h"

enum {
	IMAGE_SIZE = 512 * 1024,
	NR_FUNCS = 600,		/* > 2 x 256: several markers */
	LONG_NAME_LEN = 200,	/* > 127 tokens: a "big" symbol */
};

static const uint64_t image_addr = 0xffffffff82000000ull;
static const uint64_t text_base = 0xffffffff81000000ull;

enum layout_rule { L_ABS_PERCPU, L_RELATIVE, L_ADDRESSES, L_PLACE_RELATIVE };

struct ksym {
	char name[LONG_NAME_LEN + 8];
	char type;
	uint64_t addr;
	bool absolute;		/* an absolute per-CPU symbol */
};

struct image {
	uint8_t *buf;
	size_t used;
	struct oc_mem_region region;
	struct oc_mem_buffers bufs;
	struct oc_mem mem;
	struct oc_kallsyms_loc loc;
	struct ksym *syms;
	size_t nr;
	char tokens[256][16];
	uint64_t offsets_at;	/* image offset of kallsyms_offsets */
	uint64_t long_addr;	/* where the long-named symbol is */
	uint64_t markers_at;	/* image offset of kallsyms_markers (4-aligned) */
};

/* Multi-character tokens, as the kernel's compressor would have found. */
static const char *const multi_tokens[] = {
	"func_", "_start", "per_cpu", "Tsys_", "t__", "banner",
};

/*
 * As scripts/kallsyms.c lays tokens out: every character at its own
 * code, the multi-character ones in the unused codes (what the search
 * for the tables relies on); else packed from 0.
 */
static bool kernel_tokens;

static void make_tokens(struct image *im)
{
	int n = 0;

	memset(im->tokens, 0, sizeof(im->tokens));
	if (kernel_tokens) {
		for (int t = 0; t < 256; t++)
			snprintf(im->tokens[t], sizeof(im->tokens[0]), "?");
		for (int c = 33; c < 127; c++)
			snprintf(im->tokens[c], sizeof(im->tokens[0]), "%c", c);
		for (size_t i = 0; i < sizeof(multi_tokens) / sizeof(*multi_tokens); i++)
			snprintf(im->tokens[0x80 + i], sizeof(im->tokens[0]),
				 "%s", multi_tokens[i]);
		return;
	}
	for (size_t i = 0; i < sizeof(multi_tokens) / sizeof(*multi_tokens); i++)
		snprintf(im->tokens[n++], sizeof(im->tokens[0]), "%s",
			 multi_tokens[i]);
	/* then every printable character once, the rest reused as "?" */
	for (int c = 33; c < 127 && n < 256; c++) {
		im->tokens[n][0] = (char)c;
		n++;
	}
	while (n < 256)
		snprintf(im->tokens[n++], sizeof(im->tokens[0]), "?");
}

/* Greedy longest-token encoding of type + name. */
static size_t encode(const struct image *im, char type, const char *name,
		     uint8_t *out)
{
	char s[LONG_NAME_LEN + 16];
	size_t n = 0, pos = 0, len;

	snprintf(s, sizeof(s), "%c%s", type, name);
	len = strlen(s);
	while (pos < len) {
		int best = -1;
		size_t best_len = 0;

		for (int t = 0; t < 256; t++) {
			size_t tl = strlen(im->tokens[t]);

			if (tl > best_len && !strncmp(s + pos, im->tokens[t], tl)) {
				best = t;
				best_len = tl;
			}
		}
		out[n++] = (uint8_t)best;
		pos += best_len;
	}
	return n;
}

static void add(struct image *im, const char *name, char type, uint64_t addr,
		bool absolute)
{
	struct ksym *k = &im->syms[im->nr++];

	snprintf(k->name, sizeof(k->name), "%s", name);
	k->type = type;
	k->addr = addr;
	k->absolute = absolute;
}

static char long_name[LONG_NAME_LEN + 1];

/*
 * The symbols of a small kernel, sorted by address as kallsyms sorts
 * them.  With absolute per-CPU symbols, those come first (zero-based,
 * type 'A'); otherwise the per-CPU area sits at a kernel address.
 */
static void make_symbols(struct image *im, enum layout_rule rule,
			 bool long_last)
{
	uint64_t pcpu = rule == L_ABS_PERCPU ? 0 : 0xffffffff83000000ull;
	bool abs = rule == L_ABS_PERCPU;
	char name[32];
	uint64_t a;

	im->syms = calloc(NR_FUNCS + 32, sizeof(*im->syms));
	im->nr = 0;
	memset(long_name, 'x', LONG_NAME_LEN);
	memcpy(long_name, "long_", 5);
	long_name[LONG_NAME_LEN] = '\0';
	if (abs) {
		add(im, "__per_cpu_start", 'A', pcpu, true);
		add(im, "fixed_percpu_data", 'A', pcpu, true);
		add(im, "cpu_number", 'A', pcpu + 0x1f000, true);
		add(im, "current_task", 'A', pcpu + 0x1f040, true);
		add(im, "__per_cpu_end", 'A', pcpu + 0x30000, true);
	}
	add(im, "_text", 'T', text_base, false);
	add(im, "startup_64", 'T', text_base, false);
	add(im, "_stext", 'T', text_base + 0x1000, false);
	add(im, "sys_read", 'T', text_base + 0x1000, false);
	for (int i = 0; i < NR_FUNCS; i++) {
		snprintf(name, sizeof(name), "func_%03d", i);
		add(im, name, i % 3 ? 't' : 'T', text_base + 0x2000 + i * 0x40,
		    false);
	}
	a = text_base + 0x2000 + NR_FUNCS * 0x40;
	im->long_addr = long_last ? a + 0x3000 : a;
	if (!long_last)
		add(im, long_name, 't', a, false);
	add(im, "_etext", 'T', a + 0x100, false);
	add(im, "linux_banner", 'D', a + 0x1000, false);
	add(im, "__start_BTF", 'R', a + 0x2000, false);
	if (long_last)
		add(im, long_name, 'd', im->long_addr, false);
	if (!abs) {
		add(im, "__per_cpu_start", 'D', pcpu, false);
		add(im, "cpu_number", 'D', pcpu + 0x1f000, false);
		add(im, "__per_cpu_end", 'D', pcpu + 0x30000, false);
		add(im, "_end", 'B', pcpu + 0x40000, false);
	}
}

static uint64_t place(struct image *im, size_t len)
{
	uint64_t off;

	im->used = (im->used + 7) & ~(size_t)7;	/* ALGN: .balign 8 */
	off = im->used;
	im->used += len;
	if (im->used > IMAGE_SIZE)
		abort();
	return off;
}

static void put32(struct image *im, uint64_t off, uint32_t v)
{
	memcpy(im->buf + off, &v, 4);
}

/* write_src() with --base-relative [--absolute-percpu] */
static void build_ex(struct image *im, enum layout_rule rule, bool long_names,
		     bool long_last)
{
	uint8_t enc[LONG_NAME_LEN + 16];
	uint64_t base = 0, off, names, markers, ttab, tidx;
	size_t pos = 0, tlen = 0;

	memset(im, 0, sizeof(*im));
	im->buf = calloc(1, IMAGE_SIZE);
	make_tokens(im);
	make_symbols(im, rule, long_last);
	for (size_t i = 0; i < im->nr; i++) {
		if (!im->syms[i].absolute) {
			base = im->syms[i].addr;
			break;
		}
	}
	if (rule == L_ADDRESSES) {
		off = place(im, im->nr * 8);
		for (size_t i = 0; i < im->nr; i++)
			memcpy(im->buf + off + 8 * i, &im->syms[i].addr, 8);
		im->loc.addresses = image_addr + off;
	} else {
		off = place(im, im->nr * 4);
		im->offsets_at = off;
		for (size_t i = 0; i < im->nr; i++) {
			const struct ksym *k = &im->syms[i];
			int64_t v;

			if (rule == L_ABS_PERCPU)
				v = k->absolute ? (int64_t)k->addr
						: (int64_t)(base - k->addr - 1);
			else if (rule == L_PLACE_RELATIVE)
				v = (int64_t)(k->addr - (image_addr + off + 4 * i));
			else
				v = (int64_t)(k->addr - base);
			put32(im, off + 4 * i, (uint32_t)v);
		}
		im->loc.offsets = image_addr + off;
		/* 7.x: no kallsyms_relative_base */
		if (rule != L_PLACE_RELATIVE) {
			off = place(im, 8);
			memcpy(im->buf + off, &base, 8);
			im->loc.relative_base = image_addr + off;
		}
	}
	off = place(im, 4);
	put32(im, off, (uint32_t)im->nr);
	im->loc.num_syms = image_addr + off;

	/* 7.x: the names right after kallsyms_num_syms, 4-aligned */
	names = rule == L_PLACE_RELATIVE ? im->used : place(im, 0);
	markers = 0;
	{
		uint32_t mk[8];

		for (size_t i = 0; i < im->nr; i++) {
			size_t n = encode(im, im->syms[i].type, im->syms[i].name,
					  enc);

			if (!(i & 0xff))
				mk[i >> 8] = (uint32_t)pos;
			if (n > 0x7f && long_names) {
				im->buf[names + pos++] = (uint8_t)((n & 0x7f) | 0x80);
				im->buf[names + pos++] = (uint8_t)(n >> 7);
			} else {
				im->buf[names + pos++] = (uint8_t)n;
			}
			memcpy(im->buf + names + pos, enc, n);
			pos += n;
		}
		im->used = names + pos;
		if (rule == L_PLACE_RELATIVE) {
			/* 7.x: ALGN is 4 bytes (7.2.13+deb14) */
			markers = (im->used + 3) & ~(size_t)3;
			im->used = markers + ((im->nr + 255) / 256) * 4;
			im->markers_at = markers;
		} else {
			markers = place(im, ((im->nr + 255) / 256) * 4);
		}
		for (size_t i = 0; i < (im->nr + 255) / 256; i++)
			put32(im, markers + 4 * i, mk[i]);
	}
	im->loc.names = image_addr + names;

	ttab = place(im, 0);
	{
		uint16_t index[256];

		for (int t = 0; t < 256; t++) {
			index[t] = (uint16_t)tlen;
			memcpy(im->buf + ttab + tlen, im->tokens[t],
			       strlen(im->tokens[t]) + 1);
			tlen += strlen(im->tokens[t]) + 1;
		}
		im->used = ttab + tlen;
		tidx = place(im, sizeof(index));
		memcpy(im->buf + tidx, index, sizeof(index));
	}
	im->loc.token_table = image_addr + ttab;
	im->loc.token_index = image_addr + tidx;
	im->loc.stext = text_base + 0x1000;
	im->loc.long_names = long_names;

	im->region = (struct oc_mem_region){
		.addr = image_addr, .len = IMAGE_SIZE, .data = im->buf,
	};
	im->bufs = (struct oc_mem_buffers){ .regions = &im->region, .nr = 1 };
	oc_mem_buffers_init(&im->mem, &im->bufs);
}

static void build(struct image *im, enum layout_rule rule, bool long_names)
{
	build_ex(im, rule, long_names, false);
}

static void image_free(struct image *im)
{
	free(im->buf);
	free(im->syms);
}

static struct oc_error *decode(struct image *im, struct oc_symtab *syms,
			       struct oc_symtab *pcpu,
			       struct oc_kallsyms_info *info)
{
	oc_symtab_init(syms);
	oc_symtab_init(pcpu);
	return oc_kallsyms_read(&im->mem, &im->loc, syms, pcpu, info);
}

static bool fails(struct image *im)
{
	struct oc_symtab syms, pcpu;
	struct oc_kallsyms_info info;
	struct oc_error *err = decode(im, &syms, &pcpu, &info);

	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&pcpu);
	if (!err)
		return false;
	oc_error_destroy(err);
	return true;
}

static void check_text(const struct image *im, struct oc_symtab *syms)
{
	const struct oc_symbol *s;
	char name[32];

	for (int i = 0; i < NR_FUNCS; i += 37) {
		snprintf(name, sizeof(name), "func_%03d", i);
		s = oc_symtab_find(syms, name);
		CHECK(s);
		if (!s)
			continue;
		CHECK_EQ(oc_symtab_addr(syms, s), text_base + 0x2000 + i * 0x40);
		CHECK_EQ(s->size, 0x40);
		CHECK_EQ(s->type, i % 3 ? 't' : 'T');
	}
	s = oc_symtab_lookup(syms, text_base + 0x2000 + 5 * 0x40 + 3);
	CHECK(s && !strcmp(oc_symtab_name(syms, s), "func_005"));
	s = oc_symtab_find(syms, "_stext");
	CHECK(s && oc_symtab_addr(syms, s) == text_base + 0x1000);
	/* a multi-character token at the start, fused with the type */
	s = oc_symtab_find(syms, "sys_read");
	CHECK(s && s->type == 'T' && oc_symtab_addr(syms, s) == text_base + 0x1000);
	s = oc_symtab_find(syms, long_name);
	CHECK(s);
	CHECK(s && oc_symtab_addr(syms, s) == im->long_addr);
	s = oc_symtab_find(syms, "linux_banner");
	CHECK(s && s->type == 'D');
}

TEST(kallsyms_absolute_percpu_6_1)
{
	struct image im;
	struct oc_symtab syms, pcpu;
	struct oc_kallsyms_info info;
	const struct oc_symbol *s;

	build(&im, L_ABS_PERCPU, true);
	CHECK_OK(decode(&im, &syms, &pcpu, &info));
	CHECK_EQ(info.nr_syms, im.nr);
	CHECK_EQ(info.rule, OC_KALLSYMS_ABSOLUTE_PERCPU);
	CHECK_EQ(info.base, text_base);
	CHECK(info.long_names);
	CHECK(info.markers_checked);
	CHECK_EQ(info.nr_percpu, 5);
	check_text(&im, &syms);
	/* per-CPU symbols are zero-based offsets and only in @pcpu */
	s = oc_symtab_find(&pcpu, "cpu_number");
	CHECK(s && oc_symtab_addr(&pcpu, s) == 0x1f000 && s->type == 'A');
	s = oc_symtab_find(&pcpu, "current_task");
	CHECK(s && oc_symtab_addr(&pcpu, s) == 0x1f040);
	CHECK(!oc_symtab_find(&syms, "cpu_number"));
	CHECK(!oc_symtab_find(&pcpu, "func_001"));
	CHECK_EQ(syms.nr + pcpu.nr, im.nr);
	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&pcpu);
	image_free(&im);
}

/*
 * Decodes @im: every text symbol, the name lengths read as @long_names,
 * the markers confirming that or not.  The image is freed.
 */
static void check_lengths(struct image *im, bool long_names,
			  bool markers_checked)
{
	struct oc_symtab syms, pcpu;
	struct oc_kallsyms_info info;

	CHECK_OK(decode(im, &syms, &pcpu, &info));
	CHECK_EQ(info.long_names, long_names);
	CHECK_EQ(info.markers_checked, markers_checked);
	check_text(im, &syms);
	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&pcpu);
	image_free(im);
}

/* The preferred length encoding is wrong: the markers catch it. */
TEST(kallsyms_long_names_detected_by_markers)
{
	struct image im;

	build(&im, L_ABS_PERCPU, true);
	im.loc.long_names = false;	/* as for a kernel guessed pre-6.1 */
	check_lengths(&im, true, true);

	/*
	 * And the reverse: one-byte lengths (a 200-token name is only
	 * possible pre-6.1 synthetically, which is the point).  With the
	 * long name last, the two-byte reading walks to a plausible end and
	 * only kallsyms_markers tell it is wrong.
	 */
	build_ex(&im, L_ABS_PERCPU, false, true);
	im.loc.long_names = true;
	check_lengths(&im, false, true);
}

/* Markers that do not match either reading: the preferred one is used. */
TEST(kallsyms_markers_unconfirmed)
{
	struct image im;
	struct oc_symtab syms, pcpu;

	build(&im, L_ABS_PERCPU, true);
	/* the first marker is always 0: break it */
	{
		uint64_t names = im.loc.names - image_addr;
		struct oc_kallsyms_info ok;

		CHECK_OK(decode(&im, &syms, &pcpu, &ok));
		oc_symtab_deinit(&syms);
		oc_symtab_deinit(&pcpu);
		put32(&im, (names + ok.names_len + 7) & ~7ull, 0xdead);
	}
	check_lengths(&im, true, false);
}

/*
 * Decode a table whose per-CPU symbols are kernel addresses (x86-64
 * after 6.15) and check them: [__per_cpu_start, __per_cpu_end), the end
 * marker not per-CPU.  The image is freed.
 */
static void check_percpu_range(struct image *im,
			       struct oc_kallsyms_info *info)
{
	struct oc_symtab syms, pcpu;
	const struct oc_symbol *s;

	CHECK_OK(decode(im, &syms, &pcpu, info));
	check_text(im, &syms);
	s = oc_symtab_find(&pcpu, "cpu_number");
	CHECK(s && oc_symtab_addr(&pcpu, s) == 0xffffffff83000000ull + 0x1f000);
	CHECK(oc_symtab_find(&pcpu, "__per_cpu_start"));
	CHECK(oc_symtab_find(&syms, "__per_cpu_end"));
	CHECK(oc_symtab_find(&syms, "_end"));
	CHECK_EQ(info->nr_percpu, 2);
	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&pcpu);
	image_free(im);
}

/* After 6.15: unsigned offsets, per-CPU symbols at kernel addresses. */
TEST(kallsyms_relative_percpu_range)
{
	struct image im;
	struct oc_kallsyms_info info;

	build(&im, L_RELATIVE, true);
	check_percpu_range(&im, &info);
	CHECK_EQ(info.rule, OC_KALLSYMS_RELATIVE);
	CHECK(!info.base_derived);
}

/* Newest kernels: no kallsyms_relative_base; the base comes from _stext. */
TEST(kallsyms_base_from_stext)
{
	struct image im;
	struct oc_symtab syms, pcpu;
	struct oc_kallsyms_info info;

	build(&im, L_RELATIVE, true);
	im.loc.relative_base = 0;
	CHECK_OK(decode(&im, &syms, &pcpu, &info));
	CHECK(info.base_derived);
	CHECK_EQ(info.base, text_base);
	check_text(&im, &syms);
	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&pcpu);
	image_free(&im);

	/* an absolute-percpu table read that way is unsorted: refused */
	build(&im, L_ABS_PERCPU, true);
	im.loc.relative_base = 0;
	CHECK(fails(&im));
	image_free(&im);
}

/*
 * 7.x (7.2.13+deb14): each offset relative to its own slot in
 * kallsyms_offsets, no kallsyms_relative_base; the per-CPU symbols are
 * kernel addresses in [__per_cpu_start, __per_cpu_end).
 */
TEST(kallsyms_place_relative)
{
	struct image im;
	struct oc_kallsyms_info info;
	uint64_t offsets;

	build(&im, L_PLACE_RELATIVE, true);
	CHECK(!im.loc.relative_base);
	offsets = im.loc.offsets;
	/* the markers 4- but not 8-aligned, as in 7.2.13+deb14
	 * (0xffffffff8282d1c4): found */
	CHECK((image_addr + im.markers_at) % 8 == 4);
	check_percpu_range(&im, &info);
	CHECK_EQ(info.rule, OC_KALLSYMS_PLACE_RELATIVE);
	CHECK_EQ(info.base, offsets);
	CHECK(info.markers_checked);

	/* one corrupt offset (a function 1 MiB back) leaves the decoded
	 * table unsorted: refused, not misread */
	build(&im, L_PLACE_RELATIVE, true);
	put32(&im, im.offsets_at + 4 * 100, (uint32_t)-0x100000);
	CHECK(fails(&im));
	image_free(&im);
}

/* !CONFIG_KALLSYMS_BASE_RELATIVE: kallsyms_addresses[] */
TEST(kallsyms_plain_addresses)
{
	struct image im;
	struct oc_symtab syms, pcpu;
	struct oc_kallsyms_info info;

	build(&im, L_ADDRESSES, true);
	CHECK_OK(decode(&im, &syms, &pcpu, &info));
	CHECK_EQ(info.rule, OC_KALLSYMS_ABSOLUTE);
	check_text(&im, &syms);
	CHECK(oc_symtab_find(&pcpu, "cpu_number"));
	oc_symtab_deinit(&syms);
	oc_symtab_deinit(&pcpu);
	image_free(&im);
}

TEST(kallsyms_hostile_tables)
{
	struct image im;
	uint64_t at;

	build(&im, L_ABS_PERCPU, true);
	CHECK(!fails(&im));

	/* kallsyms_num_syms: absurd, zero */
	at = im.loc.num_syms - image_addr;
	put32(&im, at, 0xffffffffu);
	CHECK(fails(&im));
	put32(&im, at, 0);
	CHECK(fails(&im));
	put32(&im, at, (uint32_t)im.nr);

	/* _stext is not where VMCOREINFO says */
	im.loc.stext += 0x10;
	CHECK(fails(&im));
	im.loc.stext -= 0x10;

	/* two text symbols out of order */
	{
		uint32_t a, b;
		uint64_t o = im.offsets_at + 4 * 20;

		memcpy(&a, im.buf + o, 4);
		memcpy(&b, im.buf + o + 4, 4);
		put32(&im, o, b);
		put32(&im, o + 4, a);
		CHECK(fails(&im));
		put32(&im, o, a);
		put32(&im, o + 4, b);
	}
	CHECK(!fails(&im));

	/* the names run off the readable memory */
	im.region.len = im.loc.names - image_addr + 1000;
	CHECK(fails(&im));
	im.region.len = IMAGE_SIZE;

	/* a table not located at all (pre-6.0 VMCOREINFO) */
	im.loc.token_index = 0;
	CHECK(fails(&im));
	image_free(&im);

	/* the last token is never terminated */
	build(&im, L_ABS_PERCPU, true);
	{
		uint16_t idx[256];
		size_t max = 0;
		uint64_t moved = IMAGE_SIZE - sizeof(idx);

		memcpy(idx, im.buf + (im.loc.token_index - image_addr),
		       sizeof(idx));
		for (int t = 0; t < 256; t++)
			if (idx[t] > max)
				max = idx[t];
		/* the index elsewhere, 'a's past the last token */
		memcpy(im.buf + moved, idx, sizeof(idx));
		im.loc.token_index = image_addr + moved;
		memset(im.buf + (im.loc.token_table - image_addr) + max, 'a',
		       2 * OC_KALLSYMS_NAME_LEN);
	}
	CHECK(fails(&im));
	image_free(&im);
}

/* The search for the tables (no VMCOREINFO entries) on kernel-style tokens. */
static size_t scan(struct image *im, struct oc_kallsyms_loc *cands,
		   const char **why)
{
	return oc_kallsyms_scan(im->buf, IMAGE_SIZE, image_addr,
				im->loc.long_names, cands, 8, why);
}

static bool same_tables(const struct oc_kallsyms_loc *a,
			const struct oc_kallsyms_loc *b)
{
	return a->names == b->names && a->num_syms == b->num_syms &&
	       a->token_table == b->token_table &&
	       a->token_index == b->token_index && a->offsets == b->offsets &&
	       a->relative_base == b->relative_base &&
	       a->addresses == b->addresses && a->long_names == b->long_names;
}

TEST(kallsyms_scan_finds_the_tables)
{
	static const enum layout_rule rules[] = {
		L_ABS_PERCPU, L_RELATIVE, L_ADDRESSES,
	};

	kernel_tokens = true;
	for (size_t r = 0; r < 3; r++) {
		for (int ln = 0; ln < 2; ln++) {
			struct oc_kallsyms_loc cands[8];
			struct oc_symtab syms, pcpu;
			struct oc_kallsyms_info info;
			const char *why = "";
			struct image im;
			size_t n, hit = 8;

			build(&im, rules[r], ln);
			n = scan(&im, cands, &why);
			CHECK(n > 0 && !why);
			for (size_t i = 0; i < n && hit == 8; i++)
				if (same_tables(&cands[i], &im.loc))
					hit = i;
			CHECK(hit < n);
			if (hit < n) {
				/* and they decode as the listed ones do */
				cands[hit].stext = im.loc.stext;
				im.loc = cands[hit];
				CHECK_OK(decode(&im, &syms, &pcpu, &info));
				check_text(&im, &syms);
				CHECK(info.markers_checked);
				oc_symtab_deinit(&syms);
				oc_symtab_deinit(&pcpu);
			}
			image_free(&im);
		}
	}
	kernel_tokens = false;
}

TEST(kallsyms_scan_says_what_is_missing)
{
	struct oc_kallsyms_loc cands[8];
	const char *why = NULL;
	struct image im;
	uint64_t at;

	kernel_tokens = true;
	/* the digit tokens broken: no token table */
	build(&im, L_ABS_PERCPU, true);
	at = im.loc.token_table - image_addr;
	for (size_t i = 0; i < 256 * 16; i++)
		if (im.buf[at + i] == '5' && !im.buf[at + i + 1])
			im.buf[at + i] = '%';
	CHECK_EQ(scan(&im, cands, &why), 0);
	CHECK(why && strstr(why, "kallsyms_token_table"));
	image_free(&im);

	/* a marker that does not grow: no markers */
	build(&im, L_ABS_PERCPU, true);
	at = im.loc.token_table - image_addr;
	while (at > 4 && im.buf[at - 1] == 0 && im.buf[at - 2] == 0 &&
	       im.buf[at - 3] == 0 && im.buf[at - 4] == 0)
		at -= 4;	/* over the alignment padding */
	put32(&im, at - 4, 1);	/* the last marker */
	CHECK_EQ(scan(&im, cands, &why), 0);
	CHECK(why && strstr(why, "kallsyms_markers"));
	image_free(&im);

	/* the count does not need that many markers: no names */
	build(&im, L_ABS_PERCPU, true);
	put32(&im, im.loc.num_syms - image_addr, 100);
	CHECK_EQ(scan(&im, cands, &why), 0);
	CHECK(why && strstr(why, "kallsyms_names"));
	image_free(&im);
	kernel_tokens = false;
}
