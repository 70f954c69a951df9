// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats/elfnote.c: ELF notes assembled here (names and descs of every
 * padding), cut at every byte, and NT_PRSTATUS as x86-64 lays it out.
 */
#include "elfnote.h"
#include "test.h"

struct buf {
	uint8_t b[2048];
	size_t n;
};

static void put32(struct buf *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

static void put_note(struct buf *b, const char *name, uint32_t type,
		     const void *desc, uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;

	put32(b, namesz);
	put32(b, descsz);
	put32(b, type);
	memcpy(b->b + b->n, name, namesz);
	b->n += (namesz + 3) & ~3u;
	memcpy(b->b + b->n, desc, descsz);
	b->n += (descsz + 3) & ~3u;
}

/* struct elf_prstatus: pid at 32, pr_reg (27 words) at 112, 336 bytes */
static void prstatus(uint8_t *d, uint32_t pid)
{
	memset(d, 0, 336);
	memcpy(d + 32, &pid, 4);
	for (uint64_t i = 0; i < 27; i++) {
		uint64_t v = 0x1000 + i;

		memcpy(d + 112 + 8 * i, &v, 8);
	}
}

static size_t build(struct buf *b)
{
	uint8_t st[336];

	memset(b, 0, sizeof(*b));
	prstatus(st, 42);
	put_note(b, "CORE", OC_NT_PRSTATUS, st, sizeof(st));
	put_note(b, "QEMU", 0, "abcdefg", 7);		/* desc padded to 8 */
	put_note(b, "VMCOREINFO", 0, "OSRELEASE=6.1\n", 14);
	put_note(b, "GNU", OC_NT_GNU_BUILD_ID, "\x01\x02\x03", 3);
	return b->n;
}

TEST(elfnote_walk)
{
	struct buf b;
	size_t len = build(&b);
	struct oc_cursor c;
	struct oc_elfnote n[5];
	struct oc_prstatus st;
	bool more = true;
	size_t nr = 0;

	/* end with zero padding, as a kdump note area does */
	b.n += 12;
	oc_cursor_init(&c, b.b, b.n, "notes");
	while (nr < 5 && more) {
		CHECK_OK(oc_elfnote_next(&c, &n[nr], &more));
		if (more)
			nr++;
	}
	CHECK_EQ(nr, 4);
	CHECK_EQ(oc_cursor_offset(&c), len);
	CHECK(oc_elfnote_named(&n[0], "CORE") && n[0].type == OC_NT_PRSTATUS);
	CHECK(!oc_elfnote_named(&n[0], "COR") && !oc_elfnote_named(&n[0], "CORE2"));
	CHECK(oc_elfnote_named(&n[1], "QEMU"));
	CHECK_EQ(n[1].descsz, 7);
	CHECK(!memcmp(n[1].desc, "abcdefg", 7));
	CHECK(oc_elfnote_named(&n[2], "VMCOREINFO"));
	CHECK(!memcmp(n[2].desc, "OSRELEASE=6.1\n", 14));
	CHECK(oc_elfnote_named(&n[3], "GNU") && n[3].type == OC_NT_GNU_BUILD_ID);
	CHECK_EQ(n[3].descsz, 3);
	CHECK_OK(oc_elfnote_prstatus(&n[0], &st));
	CHECK_EQ(st.pid, 42);
	CHECK_EQ(st.regs.r15, 0x1000);		/* pt_regs order */
	CHECK_EQ(st.regs.ip, 0x1000 + 16);
	CHECK_EQ(st.regs.sp, 0x1000 + 19);
	CHECK_EQ(st.regs.ss, 0x1000 + 20);
	CHECK_EQ(st.fs_base, 0x1000 + 21);
	CHECK_EQ(st.gs_base, 0x1000 + 22);
}

/* Every cut: notes before it read, then a clean end or an error at a
 * note's start; never a read past the cut (make check-asan). */
TEST(elfnote_truncated)
{
	struct buf b;
	size_t len = build(&b);

	for (size_t cut = 0; cut <= len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		struct oc_cursor c;
		struct oc_elfnote n;
		struct oc_error *err;
		bool more;
		size_t nr = 0;

		memcpy(copy, b.b, cut);
		oc_cursor_init(&c, copy, cut, "notes");
		while (!(err = oc_elfnote_next(&c, &n, &more)) && more) {
			CHECK(n.desc + n.descsz <= copy + cut);
			nr++;
		}
		if (err) {
			CHECK(err->code == OC_ERR_FORMAT &&
			      strstr(err->message, "runs past the end"));
			CHECK(oc_cursor_left(&c) >= 12);
		} else {
			/* a clean end only where fewer than 12 bytes are left */
			CHECK(oc_cursor_left(&c) < 12);
		}
		oc_error_destroy(err);
		CHECK(nr <= 4);
		free(copy);
	}
}

TEST(elfnote_prstatus_short_and_sizes)
{
	struct buf b = { .n = 0 };
	uint8_t st[336];
	struct oc_cursor c;
	struct oc_elfnote n;
	struct oc_prstatus ps;
	struct oc_error *err;
	bool more;

	prstatus(st, 7);
	put_note(&b, "CORE", OC_NT_PRSTATUS, st, OC_PRSTATUS_MIN - 1);
	oc_cursor_init(&c, b.b, b.n, "notes");
	CHECK_OK(oc_elfnote_next(&c, &n, &more));
	err = oc_elfnote_prstatus(&n, &ps);
	CHECK(err && err->code == OC_ERR_FORMAT &&
	      strstr(err->message, "NT_PRSTATUS note of 327 bytes"));
	oc_error_destroy(err);
	/* exactly what we read is enough */
	n.descsz = OC_PRSTATUS_MIN;
	n.desc = st;
	CHECK_OK(oc_elfnote_prstatus(&n, &ps));
	CHECK_EQ(ps.pid, 7);
	/* sizes that would wrap a 32-bit sum */
	b.n = 0;
	put32(&b, 0xfffffffd);
	put32(&b, 8);
	put32(&b, 1);
	oc_cursor_init(&c, b.b, b.n + 16, "notes");
	err = oc_elfnote_next(&c, &n, &more);
	CHECK(err && strstr(err->message, "notes+0x0: ELF note"));
	oc_error_destroy(err);
}
