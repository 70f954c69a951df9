// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/btf.c on the real .BTF sections of Debian's 6.1 and 6.12
 * cloud kernels.  vmlinux files are found under
 * ${ORCCRASH_CACHE:-~/.cache/orccrash}/kernels/<release>/vmlinux, or in
 * $OC_TEST_VMLINUX (colon-separated paths); SKIP when there are none.
 *
 * The expected values are ground truth from the vmlinux DWARF, not from
 * BTF, e.g.
 *   gdb -batch -ex 'print (unsigned long)&((struct task_struct*)0)->thread.sp' vmlinux
 *   gdb -batch -ex 'ptype/o struct sk_buff' vmlinux
 * run on vmlinux-6.1.0-57-cloud-amd64 (6.1.192-3) and
 * vmlinux-6.12.118+deb12-cloud-amd64 (6.12.118-1~deb12u1).
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <glob.h>
#include <inttypes.h>
#include <unistd.h>

#include "btf.h"
#include "test.h"

struct truth {
	const char *release;
	uint64_t thread_sp, task_size, pid, tasks, thread_fsbase;
	uint64_t se_vruntime, rcu_nesting, comm;
	bool has_module_mem;
};

static const struct truth truths[] = {
	{ "6.1.0-57-cloud-amd64", 5336, 9728, 2416, 2192, 5352, 208, 2036, 2976, false },
	{ "6.12.118+deb12-cloud-amd64", 5400, 9792, 2432, 2224, 5416, 240, 2044, 2976, true },
};

static int tests_run;

static void *read_btf(const char *vmlinux, size_t *len)
{
	char tmp[] = "/tmp/oc-test-btf-XXXXXX", cmd[4096];
	int fd = mkstemp(tmp);
	void *data = NULL;
	FILE *f;
	long n;

	if (fd < 0)
		return NULL;
	close(fd);
	/* -O binary writes nothing of a section a .ko does not load
	 * (.BTF is not SHF_ALLOC there): --dump-section, at the cost of a
	 * copy of the file (small for a .ko) */
	snprintf(cmd, sizeof(cmd),
		 "objcopy -O binary --only-section=.BTF '%s' '%s' 2>/dev/null && "
		 "{ [ -s '%s' ] || { objcopy --dump-section .BTF='%s' '%s' '%s.o' 2>/dev/null; rm -f '%s.o'; }; }",
		 vmlinux, tmp, tmp, tmp, vmlinux, tmp, tmp);
	if (system(cmd) == 0 && (f = fopen(tmp, "rb"))) {
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		if (n > 0 && (data = malloc(n)) && fread(data, 1, n, f) == (size_t)n)
			*len = n;
		else {
			free(data);
			data = NULL;
		}
		fclose(f);
	}
	unlink(tmp);
	return data;
}

static void check_member(struct oc_types *t, const char *type, const char *path,
			 uint64_t offset, uint64_t size, uint32_t bit_offset,
			 uint32_t bit_size)
{
	struct oc_member m = { 0 };
	struct oc_error *err = oc_types_member(t, type, path, &m);

	if (err) {
		char buf[256];

		oc_error_string(err, buf, sizeof(buf));
		FAIL_AT("%s.%s: %s", type, path, buf);
		oc_error_destroy(err);
		return;
	}
	if (m.offset != offset || m.size != size || m.bit_offset != bit_offset ||
	    m.bit_size != bit_size)
		FAIL_AT("%s.%s: offset %llu size %llu bits %u:%u, want %llu %llu %u:%u",
			type, path, (unsigned long long)m.offset,
			(unsigned long long)m.size, m.bit_offset, m.bit_size,
			(unsigned long long)offset, (unsigned long long)size,
			bit_offset, bit_size);
}

static void check_size(struct oc_types *t, const char *type, uint64_t want)
{
	uint64_t size = 0;

	CHECK_OK(oc_types_size(t, type, &size));
	if (size != want)
		FAIL_AT("sizeof(%s) = %llu, want %llu", type,
			(unsigned long long)size, (unsigned long long)want);
}

static void check_enum(struct oc_types *t, const char *name, int64_t want)
{
	int64_t v = -12345;

	CHECK_OK(oc_types_enum_value(t, name, &v));
	if (v != want)
		FAIL_AT("%s = %lld, want %lld", name, (long long)v, (long long)want);
}

static void check_lookup_error(struct oc_error *err, const char *what)
{
	if (!err || err->code != OC_ERR_LOOKUP)
		FAIL_AT("%s: want OC_ERR_LOOKUP, got %s", what,
			err ? err->message : "success");
	oc_error_destroy(err);
}

/* What a types backend must say of a member, a type's size, an enumerator */
struct member_truth {
	const char *type, *path;
	uint64_t offset, size;
	uint32_t bit_offset, bit_size;
};

struct size_truth {
	const char *type;
	uint64_t size;
};

struct enum_truth {
	const char *name;
	int64_t value;
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void check_truths(struct oc_types *t,
			 const struct member_truth *members, size_t nr_members,
			 const struct size_truth *sizes, size_t nr_sizes,
			 const struct enum_truth *enums, size_t nr_enums)
{
	for (size_t i = 0; i < nr_members; i++)
		check_member(t, members[i].type, members[i].path,
			     members[i].offset, members[i].size,
			     members[i].bit_offset, members[i].bit_size);
	for (size_t i = 0; i < nr_sizes; i++)
		check_size(t, sizes[i].type, sizes[i].size);
	for (size_t i = 0; i < nr_enums; i++)
		check_enum(t, enums[i].name, enums[i].value);
}

/* Layouts that every x86-64 kernel of these years shares. */
static const struct member_truth common_members[] = {
	{ "struct pt_regs", "ip", 128, 8, 0, 0 },
	{ "struct pt_regs", "sp", 152, 8, 0, 0 },
	{ "struct inactive_task_frame", "bp", 40, 8, 0, 0 },
	{ "struct inactive_task_frame", "ret_addr", 48, 8, 0, 0 },
	{ "struct cea_exception_stacks", "DF_stack", 4096, 8192, 0, 0 },
	{ "struct cea_exception_stacks", "NMI_stack", 16384, 8192, 0, 0 },
	{ "struct cea_exception_stacks", "MCE_stack", 40960, 8192, 0, 0 },
	{ "struct page", "mapping", 24, 8, 0, 0 },
	/* array index, through a typedef'd array of u64 */
	{ "struct tss_struct", "x86_tss.ist[1]", 44, 8, 0, 0 },
	/* inside anonymous unions/structs (struct_group) and bit fields */
	{ "struct sk_buff", "len", 112, 4, 0, 0 },
	{ "struct sk_buff", "__pkt_type_offset", 128, 0, 0, 0 },
	{ "struct sk_buff", "pkt_type", 128, 1, 0, 3 },
	{ "struct sk_buff", "ignore_df", 128, 1, 3, 1 },
	{ "struct sk_buff", "ip_summed", 128, 1, 5, 2 },
};

static const struct size_truth common_sizes[] = {
	{ "struct pt_regs", 168 }, { "struct inactive_task_frame", 56 },
	{ "struct cea_exception_stacks", 77824 },
	{ "struct tss_struct", 20480 }, { "unsigned long", 8 },
	{ "long unsigned int", 8 }, { "unsigned short", 2 },
	{ "struct task_struct *", 8 }, { "pgd_t", 8 },
	{ "enum stack_type", 4 },
};

static const struct enum_truth common_enums[] = {
	{ "ESTACK_DF", 0 }, { "ESTACK_NMI", 1 }, { "ESTACK_MCE", 3 },
	{ "ESTACK_VC2", 5 }, { "N_EXCEPTION_STACKS", 6 },
};

static void check_common(struct oc_types *t)
{
	struct oc_member m;
	uint64_t u;
	int64_t v;

	check_truths(t, common_members, N(common_members), common_sizes,
		     N(common_sizes), common_enums, N(common_enums));

	check_lookup_error(oc_types_size(t, "struct no_such_struct", &u),
			   "struct no_such_struct");
	/* there is a struct task_struct but no union of that name */
	check_lookup_error(oc_types_size(t, "union task_struct", &u),
			   "union task_struct");
	check_lookup_error(oc_types_member(t, "struct task_struct", "thread.nope", &m),
			   "thread.nope");
	check_lookup_error(oc_types_member(t, "struct task_struct", "pid.x", &m),
			   "pid.x");
	check_lookup_error(oc_types_member(t, "struct task_struct", "pid[2]", &m),
			   "pid[2]");
	check_lookup_error(oc_types_enum_value(t, "ESTACK_NOPE", &v), "ESTACK_NOPE");
	{
		struct oc_error *err = oc_types_member(t, "struct task_struct", "a..b", &m);

		CHECK(err && err->code == OC_ERR_INVALID);
		oc_error_destroy(err);
		err = oc_types_member(t, "struct task_struct", "comm[x]", &m);
		CHECK(err && err->code == OC_ERR_INVALID);
		oc_error_destroy(err);
	}
}

static void check_release(const struct truth *tr, struct oc_types *t)
{
	/* task_struct members (none a bit field): path, offset, size */
	const struct {
		const char *path;
		uint64_t offset, size;
	} task[] = {
		/* __state since 5.14 (2f064a59a11f), state before: not common */
		{ "__state", 24, 4 }, { "stack", 32, 8 }, { "comm", tr->comm, 16 },
		{ "thread.sp", tr->thread_sp, 8 },
		{ "thread.fsbase", tr->thread_fsbase, 8 }, { "pid", tr->pid, 4 },
		{ "tasks", tr->tasks, 16 }, { "tasks.next", tr->tasks, 8 },
		{ "tasks.prev", tr->tasks + 8, 8 },
		{ "se.vruntime", tr->se_vruntime, 8 },
		{ "rcu_read_lock_nesting", tr->rcu_nesting, 4 },
	};
	struct oc_member m;

	check_size(t, "struct task_struct", tr->task_size);
	for (size_t i = 0; i < N(task); i++)
		check_member(t, "struct task_struct", task[i].path,
			     task[i].offset, task[i].size, 0, 0);
	if (tr->has_module_mem) {
		CHECK_OK(oc_types_member(t, "struct module", "mem", &m));
	} else {
		check_lookup_error(oc_types_member(t, "struct module", "mem", &m),
				   "module.mem");
	}
}

struct named {
	int kind;
	const char *name;
	uint32_t id;
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = x->kind - y->kind;

	if (!c)
		c = strcmp(x->name, y->name);
	if (!c)
		c = x->id < y->id ? -1 : x->id > y->id;
	return c;
}

/*
 * A name asked of the types answers the lowest id of that name and kind,
 * as libbpf's btf__find_by_name_kind() scan does (formats/btf.c keeps an
 * index instead): every struct, union, enum and typedef name of the
 * vmlinux, its size against the first type's of that name.  The names
 * that several types of different sizes share are where an index that
 * kept another id would show.
 */
static void check_first_ids(const void *data, size_t len, struct oc_types *t)
{
	struct btf *btf = btf__new(data, (uint32_t)len);
	struct named *all;
	size_t nr = 0, checked = 0, shared = 0, bad = 0;
	uint32_t cnt;

	CHECK(btf && !libbpf_get_error(btf));
	if (!btf || libbpf_get_error(btf))
		return;
	cnt = btf__type_cnt(btf);
	all = malloc(cnt * sizeof(*all));
	CHECK(all != NULL);
	for (uint32_t id = 1; all && id < cnt; id++) {
		const struct btf_type *bt = btf__type_by_id(btf, id);
		int kind = btf_kind(bt);
		const char *name = btf__name_by_offset(btf, bt->name_off);

		if ((kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION ||
		     kind == BTF_KIND_ENUM || kind == BTF_KIND_TYPEDEF) && name && *name)
			all[nr++] = (struct named){ kind, name, id };
	}
	qsort(all, nr, sizeof(*all), named_cmp);
	for (size_t i = 0, j; i < nr; i = j) {
		static const char *const prefix[] = {
			[BTF_KIND_STRUCT] = "struct ", [BTF_KIND_UNION] = "union ",
			[BTF_KIND_ENUM] = "enum ", [BTF_KIND_TYPEDEF] = "",
		};
		long want = btf__resolve_size(btf, all[i].id);
		char query[300];
		uint64_t got = 0;
		struct oc_error *err;

		for (j = i + 1; j < nr && all[j].kind == all[i].kind &&
		     !strcmp(all[j].name, all[i].name); j++)
			shared += btf__resolve_size(btf, all[j].id) != want;
		if (want < 0 || strlen(all[i].name) > 250)
			continue;
		snprintf(query, sizeof(query), "%s%s", prefix[all[i].kind], all[i].name);
		err = oc_types_size(t, query, &got);
		if (err || got != (uint64_t)want) {
			if (bad++ < 5)
				FAIL_AT("%s: %s %" PRIu64 ", the first type (id %u) %ld",
					query, err ? err->message : "size", got,
					all[i].id, want);
			oc_error_destroy(err);
		}
		checked++;
	}
	printf("  %zu names: the first type's size for each; %zu later types of a shared name differ\n",
	       checked, shared);
	CHECK(checked > 1000);
	free(all);
	btf__free(btf);
}

static void run_one(const char *vmlinux)
{
	struct oc_types *t = NULL;
	const struct truth *tr = NULL;
	size_t len = 0;
	void *data = read_btf(vmlinux, &len);

	if (!data) {
		printf("  %s: no .BTF section\n", vmlinux);
		return;
	}
	CHECK_OK(oc_btf_types_create(data, len, &t));
	if (t)
		check_first_ids(data, len, t);
	/* the types must not point into the caller's buffer */
	memset(data, 0xa5, len);
	free(data);
	if (!t)
		return;
	tests_run++;
	for (size_t i = 0; i < sizeof(truths) / sizeof(truths[0]); i++)
		if (strstr(vmlinux, truths[i].release))
			tr = &truths[i];
	check_common(t);
	if (tr)
		check_release(tr, t);
	else
		printf("  %s: unknown release, common layouts only\n", vmlinux);
	oc_types_destroy(t);
}

static void for_each_vmlinux(void (*fn)(const char *))
{
	const char *env = getenv("OC_TEST_VMLINUX");
	const char *cache = getenv("ORCCRASH_CACHE");
	char pattern[4096];
	glob_t g;

	if (env && *env) {
		char *copy = strdup(env), *save = NULL;

		for (char *p = strtok_r(copy, ":", &save); p;
		     p = strtok_r(NULL, ":", &save))
			fn(p);
		free(copy);
		return;
	}
	if (cache && *cache)
		snprintf(pattern, sizeof(pattern), "%s/kernels/*/vmlinux", cache);
	else
		snprintf(pattern, sizeof(pattern), "%s/.cache/orccrash/kernels/*/vmlinux",
			 getenv("HOME") ? getenv("HOME") : "");
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			fn(g.gl_pathv[i]);
		globfree(&g);
	}
}

TEST(btf_real_vmlinux)
{
	for_each_vmlinux(run_one);
	if (!tests_run)
		printf("SKIP btf_real_vmlinux: no vmlinux with .BTF (set OC_TEST_VMLINUX or make samples)\n");
}

/*
 * A small BTF blob built here (the .BTF format of
 * Documentation/bpf/btf.rst), so the member walk is tested without a
 * vmlinux: typedef/const/volatile chains, an anonymous union, a struct
 * member path, bit fields (kind_flag encoding), an array, a signed enum.
 */
struct btf_builder {
	uint32_t types[256];
	size_t nt;
	char strs[512];
	size_t ns;
};

static uint32_t str(struct btf_builder *b, const char *s)
{
	uint32_t off = b->ns;

	if (!*s)
		return 0;
	memcpy(b->strs + b->ns, s, strlen(s) + 1);
	b->ns += strlen(s) + 1;
	return off;
}

static void w(struct btf_builder *b, uint32_t v)
{
	b->types[b->nt++] = v;
}

static void type(struct btf_builder *b, const char *name, unsigned int kind,
		 unsigned int vlen, bool kflag, uint32_t size_or_type)
{
	w(b, str(b, name));
	w(b, (kflag ? 1u << 31 : 0) | kind << 24 | vlen);
	w(b, size_or_type);
}

static void member(struct btf_builder *b, const char *name, uint32_t t,
		   uint32_t offset)
{
	w(b, str(b, name));
	w(b, t);
	w(b, offset);
}

enum { K_INT = 1, K_PTR = 2, K_ARRAY = 3, K_STRUCT = 4, K_UNION = 5, K_ENUM = 6,
       K_TYPEDEF = 8, K_VOLATILE = 9, K_CONST = 10, K_VAR = 14 };

static void *build_btf(size_t *len)
{
	static struct btf_builder b;
	unsigned char *blob;
	uint32_t hdr[6];

	memset(&b, 0, sizeof(b));
	b.ns = 1;			/* offset 0 is "" */
	type(&b, "int", K_INT, 0, false, 4);			/* 1 */
	w(&b, 1u << 24 | 32);					/* signed, 32 bits */
	type(&b, "long unsigned int", K_INT, 0, false, 8);	/* 2 */
	w(&b, 64);
	type(&b, "u64", K_TYPEDEF, 0, false, 2);		/* 3 */
	type(&b, "", K_CONST, 0, false, 3);			/* 4 */
	type(&b, "inner", K_STRUCT, 2, false, 16);		/* 5 */
	member(&b, "a", 4, 0);
	member(&b, "b", 1, 64);
	type(&b, "", K_UNION, 2, false, 8);			/* 6 */
	member(&b, "x", 1, 0);
	member(&b, "y", 3, 0);
	/* kind_flag: offset = bit offset | bit-field size << 24 */
	type(&b, "outer", K_STRUCT, 6, true, 48);		/* 7 */
	member(&b, "first", 1, 0);
	member(&b, "", 6, 64);
	member(&b, "in", 5, 128);
	member(&b, "flags", 1, (256 + 5) | 3u << 24);
	member(&b, "arr", 8, 320);
	member(&b, "wide", 1, (256 + 14) | 4u << 24);
	type(&b, "", K_ARRAY, 0, false, 0);			/* 8 */
	w(&b, 1);
	w(&b, 1);
	w(&b, 2);
	type(&b, "color", K_ENUM, 2, true, 4);			/* 9 */
	w(&b, str(&b, "RED"));
	w(&b, 0);
	w(&b, str(&b, "BLUE"));
	w(&b, (uint32_t)-2);
	type(&b, "outer_t", K_TYPEDEF, 0, false, 7);		/* 10 */
	type(&b, "", K_VOLATILE, 0, false, 10);			/* 11 */
	type(&b, "holder", K_STRUCT, 1, false, 48);		/* 12 */
	member(&b, "v", 11, 0);
	/* for the value printer: a char array, then 1-byte ints after it */
	type(&b, "char", K_INT, 0, false, 1);			/* 13 */
	w(&b, 1u << 24 | 8);
	type(&b, "_Bool", K_INT, 0, false, 1);			/* 14 */
	w(&b, 4u << 24 | 8);					/* BTF_INT_BOOL */
	type(&b, "unsigned char", K_INT, 0, false, 1);		/* 15 */
	w(&b, 8);
	type(&b, "", K_ARRAY, 0, false, 0);			/* 16: char[8] */
	w(&b, 13);
	w(&b, 1);
	w(&b, 8);
	type(&b, "rec", K_STRUCT, 4, false, 16);		/* 17 */
	member(&b, "name", 16, 0);
	member(&b, "ok", 14, 64);
	member(&b, "small", 15, 72);
	member(&b, "col", 9, 96);
	type(&b, "", K_PTR, 0, false, 5);			/* 18: struct inner * */
	type(&b, "node", K_STRUCT, 2, false, 16);		/* 19 */
	member(&b, "p", 18, 0);
	member(&b, "q", 18, 64);
	/* a variable (BTF_KIND_VAR: its type, then its linkage) */
	type(&b, "the_outer", K_VAR, 0, false, 11);		/* 20 */
	w(&b, 1);						/* global */
	/* char pointers: printed with their string */
	type(&b, "", K_CONST, 0, false, 13);			/* 21: const char */
	type(&b, "", K_PTR, 0, false, 21);			/* 22: const char * */
	type(&b, "msg", K_STRUCT, 3, false, 24);		/* 23 */
	member(&b, "s", 22, 0);
	member(&b, "t", 22, 64);
	member(&b, "u", 22, 128);

	hdr[0] = 0xeB9F | 1u << 16;	/* magic, version 1, flags 0 */
	hdr[1] = 24;			/* hdr_len */
	hdr[2] = 0;			/* type_off */
	hdr[3] = b.nt * 4;		/* type_len */
	hdr[4] = b.nt * 4;		/* str_off */
	hdr[5] = b.ns;			/* str_len */
	*len = 24 + b.nt * 4 + b.ns;
	blob = malloc(*len);
	memcpy(blob, hdr, 24);
	memcpy(blob + 24, b.types, b.nt * 4);
	memcpy(blob + 24 + b.nt * 4, b.strs, b.ns);
	return blob;
}

/* build_btf()'s types, as the comments there lay them out */
static const struct member_truth synthetic_members[] = {
	{ "struct outer", "first", 0, 4, 0, 0 },
	/* through the anonymous union */
	{ "struct outer", "x", 8, 4, 0, 0 },
	{ "struct outer", "y", 8, 8, 0, 0 },
	/* a path, through const and a typedef */
	{ "struct outer", "in", 16, 16, 0, 0 },
	{ "struct outer", "in.a", 16, 8, 0, 0 },
	{ "struct outer", "in.b", 24, 4, 0, 0 },
	/* 3 bits at bit 261: byte 32, bits 5..7 */
	{ "struct outer", "flags", 32, 1, 5, 3 },
	/* 4 bits at bit 270: byte 33, bit 6, spilling into byte 34 */
	{ "struct outer", "wide", 33, 2, 6, 4 },
	{ "struct outer", "arr", 40, 8, 0, 0 },
	{ "struct outer", "arr[1]", 44, 4, 0, 0 },
	/* a member whose type is volatile typedef'd struct */
	{ "struct holder", "v.in.b", 24, 4, 0, 0 },
	{ "struct holder", "v.arr[0]", 40, 4, 0, 0 },
	/* a variable's type, through its volatile typedef */
	{ "typeof(the_outer)", "in.b", 24, 4, 0, 0 },
};

static const struct size_truth synthetic_sizes[] = {
	{ "struct outer", 48 }, { "outer_t", 48 }, { "u64", 8 },
	{ "unsigned long", 8 }, { "struct inner *", 8 },
	{ "typeof(the_outer)", 48 },
};

static const struct enum_truth synthetic_enums[] = {
	{ "RED", 0 }, { "BLUE", -2 },
};

TEST(btf_synthetic)
{
	struct oc_types *t = NULL;
	size_t len;
	void *blob = build_btf(&len);
	struct oc_member m;
	uint64_t u;

	CHECK_OK(oc_btf_types_create(blob, len, &t));
	free(blob);
	if (!t)
		return;
	check_truths(t, synthetic_members, N(synthetic_members),
		     synthetic_sizes, N(synthetic_sizes), synthetic_enums,
		     N(synthetic_enums));
	check_lookup_error(oc_types_size(t, "typeof(no_such_var)", &u), "no_such_var");
	{
		char tn[64];

		CHECK_OK(oc_types_name(t, "typeof(the_outer)", NULL, tn, sizeof(tn)));
		if (strcmp(tn, "outer_t"))
			FAIL_AT("typeof(the_outer) is %s, not outer_t", tn);
		CHECK_OK(oc_types_name(t, "typeof(the_outer)", "in.b", tn, sizeof(tn)));
		if (strcmp(tn, "int"))
			FAIL_AT("typeof(the_outer).in.b is %s, not int", tn);
	}
	check_lookup_error(oc_types_size(t, "typeof(outer)", &u), "outer");
	check_lookup_error(oc_types_size(t, "union inner", &u), "union inner");
	check_lookup_error(oc_types_member(t, "struct outer", "in.c", &m), "in.c");
	check_lookup_error(oc_types_member(t, "struct outer", "flags.x", &m),
			   "flags.x");
	check_lookup_error(oc_types_member(t, "struct outer", "first[0]", &m),
			   "first[0]");
	check_lookup_error(oc_types_member(t, "struct inner *", "a", &m),
			   "pointer");
	check_lookup_error(oc_types_enum_value(t, "GREEN", (int64_t *)&u), "GREEN");
	oc_types_destroy(t);
}

struct text {
	char s[2048];
	size_t len;
};

static void emit(void *ctx, const char *fmt, va_list ap)
{
	struct text *t = ctx;
	int n = vsnprintf(t->s + t->len, sizeof(t->s) - t->len, fmt, ap);

	if (n > 0 && t->len + n < sizeof(t->s))
		t->len += n;
}

static bool symbol(void *ctx, uint64_t addr, bool string, char *buf, size_t size)
{
	(void)ctx;
	/* a string at 0xffffffff82000000: 300 'x's at 0xffffffff82000100 */
	if (string && addr == 0xffffffff82000000ULL) {
		snprintf(buf, size, "hi \"there\"\n");
		return true;
	}
	if (string && addr == 0xffffffff82000100ULL) {
		memset(buf, 'x', size - 1);
		buf[size - 1] = '\0';
		return true;
	}
	if (string)
		return false;
	if (addr != 0xffffffff81000000ULL)
		return false;
	snprintf(buf, size, "_stext");
	return true;
}

static void put(uint8_t *buf, size_t off, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[off + i] = (uint8_t)(v >> (8 * i));
}

/*
 * The value printer (oc_types_dump()) on the synthetic BTF: every member
 * named, through the anonymous union, typedefs and const; bit fields
 * (3 bits at bit 261, 4 bits spilling across bytes 33-34); arrays; a
 * char[] as a string with its control byte escaped; and the 1-byte ints
 * after it (libbpf 1.1's btf_dump printed nothing for them); a bool; an
 * enum by name; a pointer with its symbol.
 */
TEST(btf_dump_value)
{
	struct oc_types *t = NULL;
	size_t len;
	void *blob = build_btf(&len);
	uint8_t outer[48] = { 0 }, rec[16] = { 0 };
	struct text txt = { .len = 0 };
	static const char want_outer[] =
		"(struct outer){\n"
		"\t.first = (int)-5,\n"
		"\t(union (anonymous)){\n"
		"\t\t.x = (int)7,\n"
		"\t\t.y = (u64)7,\n"
		"\t},\n"
		"\t.in = (struct inner){\n"
		"\t\t.a = (u64)1234605616436508552,\n"
		"\t\t.b = (int)-1,\n"
		"\t},\n"
		"\t.flags = (int)-3,\n"
		"\t.arr = (int[2]){ 10, 20 },\n"
		"\t.wide = (int)-7,\n"
		"}\n";
	static const char want_rec[] =
		"(struct rec){\n"
		"\t.name = (char[8])\"a\\\"b\\x01\",\n"
		"\t.ok = (_Bool)true,\n"
		"\t.small = (unsigned char)200,\n"
		"\t.col = (enum color)BLUE,\n"
		"}\n";

	CHECK_OK(oc_btf_types_create(blob, len, &t));
	free(blob);
	if (!t)
		return;
	put(outer, 0, (uint32_t)-5, 4);
	put(outer, 8, 7, 8);
	put(outer, 16, 0x1122334455667788ULL, 8);
	put(outer, 24, (uint32_t)-1, 4);
	outer[32] = 5 << 5;			/* flags: 0b101, signed: -3 */
	outer[33] = (9 & 3) << 6;		/* wide: 0b1001, signed: -7 */
	outer[34] = 9 >> 2;
	put(outer, 40, 10, 4);
	put(outer, 44, 20, 4);
	CHECK_OK(oc_types_dump(t, "struct outer", NULL, outer, sizeof(outer), 0, emit, symbol, &txt));
	if (strcmp(txt.s, want_outer))
		FAIL_AT("struct outer:\n%s\nwanted:\n%s", txt.s, want_outer);
	/* one member alone: @buf starts at the byte holding its first bit */
	txt.len = 0;
	txt.s[0] = '\0';
	CHECK_OK(oc_types_dump(t, "struct outer", "flags", outer + 32, 1, 0, emit, symbol, &txt));
	CHECK_OK(oc_types_dump(t, "struct outer", "in.b", outer + 24, 4, 0, emit, symbol, &txt));
	CHECK_OK(oc_types_dump(t, "struct outer", "wide", outer + 33, 2, 0, emit, symbol, &txt));
	if (strcmp(txt.s, "(int)-3\n(int)-1\n(int)-7\n"))
		FAIL_AT("members alone:\n%s", txt.s);
	/* OC_TYPES_HEX: integers in hex, the bits as they are (crash's
	 * p -x); a variable's type by typeof() */
	txt.len = 0;
	txt.s[0] = '\0';
	CHECK_OK(oc_types_dump(t, "typeof(the_outer)", "in", outer + 16, 16, OC_TYPES_HEX,
			       emit, symbol, &txt));
	CHECK_OK(oc_types_dump(t, "struct outer", "flags", outer + 32, 1, OC_TYPES_HEX,
			       emit, symbol, &txt));
	if (strcmp(txt.s, "(struct inner){\n\t.a = (u64)0x1122334455667788,\n"
			  "\t.b = (int)0xffffffff,\n}\n(int)0x5\n"))
		FAIL_AT("hex:\n%s", txt.s);
	check_lookup_error(oc_types_dump(t, "struct outer", "nosuch", outer, 4, 0, emit, symbol, &txt),
			   "nosuch");
	memcpy(rec, "a\"b\x01", 4);
	rec[8] = 1;
	rec[9] = 200;
	put(rec, 12, (uint32_t)-2, 4);
	txt.len = 0;
	txt.s[0] = '\0';
	CHECK_OK(oc_types_dump(t, "rec", NULL, rec, sizeof(rec), 0, emit, symbol, &txt));
	if (strcmp(txt.s, want_rec))
		FAIL_AT("struct rec:\n%s\nwanted:\n%s", txt.s, want_rec);
	/* pointers in hex, with the symbol they point at */
	put(rec, 0, 0xffffffff81000000ULL, 8);
	put(rec, 8, 0xffff888000001000ULL, 8);
	txt.len = 0;
	txt.s[0] = '\0';
	CHECK_OK(oc_types_dump(t, "struct node", NULL, rec, sizeof(rec), 0, emit, symbol, &txt));
	if (strcmp(txt.s, "(struct node){\n"
			  "\t.p = (struct inner *)0xffffffff81000000 <_stext>,\n"
			  "\t.q = (struct inner *)0xffff888000001000,\n}\n"))
		FAIL_AT("struct node:\n%s", txt.s);
	/* a pointer type by name (p of a pointer global) prints its value
	 * as a member's, and has no members; a short buffer is not read
	 * past its end (the member is printed as 0) */
	txt.len = 0;
	txt.s[0] = '\0';
	CHECK_OK(oc_types_dump(t, "struct inner *", NULL, rec, 8, 0, emit, symbol, &txt));
	CHECK_STR(txt.s, "(struct inner *)0xffffffff81000000 <_stext>\n");
	{
		struct oc_error *err = oc_types_dump(t, "struct inner *", "a", rec, 8,
						     0, emit, symbol, &txt);

		CHECK(err && err->code == OC_ERR_INVALID);
		oc_error_destroy(err);
	}
	/* an array type by name, "ELEM [N]" as formats/dwarfvars.c prints a
	 * global's: its size, its C name, its elements as an array member's
	 * (a char array as a string); no pointer elements, no members */
	{
		uint64_t size = 0;
		char name[64];
		struct oc_error *err;

		CHECK_OK(oc_types_size(t, "int [2]", &size));
		CHECK_EQ(size, 8);
		CHECK_OK(oc_types_name(t, "int [2]", NULL, name, sizeof(name)));
		CHECK_STR(name, "int [2]");
		txt.len = 0;
		txt.s[0] = '\0';
		CHECK_OK(oc_types_dump(t, "int [2]", NULL, outer + 40, 8, 0, emit, symbol, &txt));
		CHECK_OK(oc_types_dump(t, "int [2]", NULL, outer + 40, 8, OC_TYPES_HEX, emit,
				       symbol, &txt));
		memcpy(rec, "a\"b\x01", 5);
		CHECK_OK(oc_types_dump(t, "char [8]", NULL, rec, 8, 0, emit, symbol, &txt));
		CHECK_STR(txt.s, "(int [2]){ 10, 20 }\n(int [2]){ 0xa, 0x14 }\n"
				 "(char [8])\"a\\\"b\\x01\"\n");
		err = oc_types_dump(t, "int [2]", "x", outer + 40, 8, 0, emit, symbol, &txt);
		CHECK(err && err->code == OC_ERR_INVALID);
		oc_error_destroy(err);
		/* an array of pointers: its element the BTF's PTR to the
		 * pointee (type 18); none points to struct outer */
		CHECK_OK(oc_types_size(t, "struct inner *[2]", &size));
		CHECK_EQ(size, 16);
		put(rec, 0, 0xffffffff81000000ULL, 8);
		put(rec, 8, 0xffff888000001000ULL, 8);
		txt.len = 0;
		txt.s[0] = '\0';
		CHECK_OK(oc_types_dump(t, "struct inner *[2]", NULL, rec, 16, 0, emit, symbol, &txt));
		CHECK_STR(txt.s, "(struct inner *[2]){ 0xffffffff81000000 <_stext>, 0xffff888000001000 }\n");
		err = oc_types_size(t, "struct outer *[2]", &size);
		CHECK(err && err->code == OC_ERR_LOOKUP);
		oc_error_destroy(err);
	}
	put(rec, 0, 0xffffffff81000000ULL, 8);
	put(rec, 8, 0xffff888000001000ULL, 8);
	txt.len = 0;
	txt.s[0] = '\0';
	CHECK_OK(oc_types_dump(t, "struct node", NULL, rec, 8, 0, emit, NULL, &txt));
	CHECK(strstr(txt.s, ".q = (struct inner *)0x0,") != NULL);
	/* a char pointer: its string, escaped; cut at 256 bytes ("..."
	 * after); where none can be read, the symbol */
	{
		uint8_t m[24];
		char want[600];

		put(m, 0, 0xffffffff82000000ULL, 8);
		put(m, 8, 0xffffffff82000100ULL, 8);
		put(m, 16, 0xffffffff81000000ULL, 8);
		txt.len = 0;
		txt.s[0] = '\0';
		CHECK_OK(oc_types_dump(t, "struct msg", "s", m, 8, 0, emit, symbol, &txt));
		CHECK_STR(txt.s, "(char *)0xffffffff82000000 \"hi \\\"there\\\"\\x0a\"\n");
		txt.len = 0;
		txt.s[0] = '\0';
		CHECK_OK(oc_types_dump(t, "struct msg", NULL, m, 24, 0, emit, symbol, &txt));
		snprintf(want, sizeof(want), "\t.t = (char *)0xffffffff82000100 \"%0256d\"...,\n", 0);
		for (char *p = strchr(want, '"') + 1; *p == '0'; p++)
			*p = 'x';
		CHECK(strstr(txt.s, want) != NULL);
		CHECK(strstr(txt.s, "\t.u = (char *)0xffffffff81000000 <_stext>,\n") != NULL);
		/* by name, as p prints a global of DWARF type "char *" */
		txt.len = 0;
		txt.s[0] = '\0';
		CHECK_OK(oc_types_dump(t, "char *", NULL, m, 8, 0, emit, symbol, &txt));
		CHECK_STR(txt.s, "(char *)0xffffffff82000000 \"hi \\\"there\\\"\\x0a\"\n");
	}
	oc_types_destroy(t);
}

/* oc_types_complete()'s names, joined by ' ' */
static bool collect(void *ctx, const char *name)
{
	struct text *t = ctx;
	int n = snprintf(t->s + t->len, sizeof(t->s) - t->len, "%s%s", t->len ? " " : "", name);

	if (n > 0 && t->len + n < sizeof(t->s))
		t->len += n;
	return true;
}

static bool first_only(void *ctx, const char *name)
{
	collect(ctx, name);
	return false;
}

/* oc_types_complete()'s names into @txt (emptied first) */
static const char *completed(struct oc_types *t, const char *type, const char *path,
			     const char *prefix, struct text *txt)
{
	txt->len = 0;
	txt->s[0] = '\0';
	oc_types_complete(t, type, path, prefix, collect, txt);
	return txt->s;
}

/* Completion (the shell's struct TYPE[.MEMBER]) on the synthetic BTF */
TEST(btf_complete)
{
	struct oc_types *t = NULL;
	size_t len;
	void *blob = build_btf(&len);
	struct text txt = { .len = 0 };

	CHECK_OK(oc_btf_types_create(blob, len, &t));
	free(blob);
	if (!t)
		return;
	/* type names: structs, unions, typedefs (not ints, enums, vars) */
	CHECK_STR(completed(t, NULL, NULL, "o", &txt), "outer outer_t");
	CHECK_STR(completed(t, NULL, NULL, "", &txt), "u64 inner outer outer_t holder rec node msg");
	/* members, through the anonymous union; a member path's */
	CHECK_STR(completed(t, "struct outer", NULL, "", &txt), "first x y in flags arr wide");
	CHECK_STR(completed(t, "struct outer", "in", "", &txt), "a b");
	CHECK_STR(completed(t, "outer_t", NULL, "f", &txt), "first flags");
	/* no members: a bit field, an int, an unknown type or path */
	CHECK_STR(completed(t, "struct outer", "flags", "", &txt), "");
	CHECK_STR(completed(t, "int", NULL, "", &txt), "");
	CHECK_STR(completed(t, "struct nosuch", NULL, "", &txt), "");
	CHECK_STR(completed(t, "struct outer", "nosuch", "", &txt), "");
	txt.len = 0;
	txt.s[0] = '\0';
	/* the callback stops it */
	oc_types_complete(t, "struct outer", NULL, "", first_only, &txt);
	CHECK_STR(txt.s, "first");
	oc_types_destroy(t);
}

TEST(btf_bad_data)
{
	struct oc_types *t = NULL;
	static unsigned char junk[4096];
	struct oc_error *err;

	err = oc_btf_types_create(junk, sizeof(junk), &t);
	CHECK(err && err->code == OC_ERR_FORMAT && strstr(err->message, "btf__new"));
	oc_error_destroy(err);
	err = oc_btf_types_create(junk, 3, &t);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
	/* a BTF magic with garbage behind it */
	junk[0] = 0x9f;
	junk[1] = 0xeb;
	junk[2] = 1;
	junk[4] = 24;
	junk[12] = 0xff;
	junk[13] = 0xff;
	err = oc_btf_types_create(junk, sizeof(junk), &t);
	CHECK(err && err->code == OC_ERR_FORMAT);
	oc_error_destroy(err);
}

/*
 * A module's split BTF (oc_btf_types_create_split(), what
 * src/kernel_modbtf.c makes of each module's in the dump) on Debian's 6.1
 * cloud kernel: virtio_blk.ko's .BTF (kernels/RELEASE/modules, the
 * installed module) over the vmlinux's.  Ground truth from the -dbg
 * package's virtio_blk.ko DWARF:
 *   gdb -batch -ex 'ptype/o struct virtio_blk' virtio_blk.ko
 * sizeof(struct virtio_blk) 280, index at 248, num_vqs at 252, vqs (a
 * pointer) at 272; sizeof(struct virtio_blk_vq) 64.
 */
TEST(btf_module_split)
{
	static const char rel[] = "6.1.0-57-cloud-amd64";
	const char *cache = getenv("ORCCRASH_CACHE");
	char vml[4096], ko[4096];
	struct oc_types *base = NULL, *mod = NULL;
	struct oc_member m = { 0 };
	size_t blen = 0, mlen = 0;
	void *bdata, *mdata;
	struct oc_error *err;
	uint64_t size = 0;

	snprintf(vml, sizeof(vml), "%s%s/kernels/%s/vmlinux", cache && *cache ? cache : getenv("HOME"),
		 cache && *cache ? "" : "/.cache/orccrash", rel);
	snprintf(ko, sizeof(ko), "%s%s/kernels/%s/modules/virtio_blk.ko",
		 cache && *cache ? cache : getenv("HOME"), cache && *cache ? "" : "/.cache/orccrash", rel);
	if (access(vml, R_OK) || access(ko, R_OK)) {
		printf("SKIP btf_module_split: no %s or %s (make samples)\n", vml, ko);
		return;
	}
	bdata = read_btf(vml, &blen);
	mdata = read_btf(ko, &mlen);
	CHECK(bdata && mdata);
	if (!bdata || !mdata)
		goto out;
	CHECK_OK(oc_btf_types_create(bdata, blen, &base));
	/* without the kernel's BTF as its base: refused, not misread */
	err = oc_btf_types_create_split(mdata, mlen, NULL, &mod);
	CHECK(err && err->code == OC_ERR_INVALID);
	oc_error_destroy(err);
	/* alone, its type ids and strings point past its own: libbpf refuses */
	err = oc_btf_types_create(mdata, mlen, &mod);
	CHECK(err != NULL);
	oc_error_destroy(err);
	mod = NULL;
	CHECK_OK(oc_btf_types_create_split(mdata, mlen, base, &mod));
	if (!mod)
		goto out;
	/* the module's own type: in its BTF, not the kernel's */
	check_lookup_error(oc_types_size(base, "struct virtio_blk", &size), "kernel's struct virtio_blk");
	check_size(mod, "struct virtio_blk", 280);
	check_size(mod, "struct virtio_blk_vq", 64);
	check_member(mod, "struct virtio_blk", "index", 248, 4, 0, 0);
	check_member(mod, "struct virtio_blk", "num_vqs", 252, 4, 0, 0);
	check_member(mod, "struct virtio_blk", "vqs", 272, 8, 0, 0);
	/* a member whose type is the base's: struct gendisk * at 40 */
	CHECK_OK(oc_types_member(mod, "struct virtio_blk", "disk", &m));
	CHECK(m.offset == 40 && m.size == 8);
	/* the base's types through the module's */
	check_size(mod, "struct task_struct", 9728);
out:
	oc_types_destroy(mod);
	oc_types_destroy(base);
	free(bdata);
	free(mdata);
}
