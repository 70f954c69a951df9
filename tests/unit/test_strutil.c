// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sanitiser of dump strings (formats/strutil.h): what reaches a
 * terminal has no C0/C1 control, DEL or bidi override, and is UTF-8.
 */
#include "strutil.h"
#include "test.h"

static const char *esc(const char *s, size_t len, unsigned int flags)
{
	static char buf[256];

	oc_str_escape(buf, sizeof(buf), s, len, flags);
	return buf;
}

#define ESC(lit, flags) esc(lit, sizeof(lit) - 1, flags)

TEST(strutil_plain_text_unchanged)
{
	CHECK_STR(ESC("6.1.0-18-amd64 #1 SMP", 0), "6.1.0-18-amd64 #1 SMP");
	CHECK_STR(ESC("tab\there", 0), "tab\there");
	/* valid UTF-8 outside the dangerous ranges stays */
	CHECK_STR(ESC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", 0),
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7");
}

TEST(strutil_c0_and_del)
{
	/* an ANSI sequence as an OSRELEASE would carry it */
	CHECK_STR(ESC("\x1b[2J\x1b]0;pwned\x07x", 0),
		  "\\x1b[2J\\x1b]0;pwned\\x07x");
	CHECK_STR(ESC("a\nb\rc\x7f", 0), "a\\x0ab\\x0dc\\x7f");
	CHECK_STR(ESC("a\nb", OC_ESC_KEEP_NL), "a\nb");
	CHECK_STR(ESC("a\0b", 0), "a\\x00b");
}

TEST(strutil_c1_bidi_and_invalid_utf8)
{
	/* U+009B (CSI as a C1 control), U+202E, U+2066..U+2069 */
	CHECK_STR(ESC("x\xc2\x9b" "31m", 0), "x\\u{9b}31m");
	CHECK_STR(ESC("evil\xe2\x80\xaetxt.exe", 0), "evil\\u{202e}txt.exe");
	CHECK_STR(ESC("\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9", 0),
		  "\\u{202a}\\u{2066}\\u{2069}");
	/* a lone C1 byte, 0xff, a cut sequence, an overlong '/', a surrogate */
	CHECK_STR(ESC("\x9b\xff", 0), "\\x9b\\xff");
	CHECK_STR(ESC("\xe2\x80", 0), "\\xe2\\x80");
	CHECK_STR(ESC("\xc0\xaf", 0), "\\xc0\\xaf");
	CHECK_STR(ESC("\xed\xa0\x80", 0), "\\xed\\xa0\\x80");
	CHECK_STR(ESC("\xf4\x90\x80\x80", 0), "\\xf4\\x90\\x80\\x80");
}

TEST(strutil_quote_mode)
{
	CHECK_STR(ESC("a\"b\\c", OC_ESC_QUOTE), "a\\\"b\\\\c");
	CHECK_STR(ESC("a\"b\\c", 0), "a\"b\\c");
}

TEST(strutil_json_mode)
{
	/* C0 is left to the JSON writer, NUL would end the string */
	CHECK_STR(ESC("a\n\x1b" "b", OC_ESC_JSON), "a\n\x1b" "b");
	CHECK_STR(ESC("a\0\x7f\xff\xc2\x85", OC_ESC_JSON), "a\\x00\\x7f\\xff\\u{85}");
}

TEST(strutil_cut_between_escapes)
{
	char buf[8];
	size_t n = oc_str_escape(buf, sizeof(buf), "ab\x1b\x1b", 4, 0);

	/* "ab\x1b" fits in 7, the second escape does not: never half of one */
	CHECK_EQ(n, 10);
	CHECK_STR(buf, "ab\\x1b");
	n = oc_str_escape(buf, 4, "ab\xc3\xa9", 4, 0);
	CHECK_STR(buf, "ab");
	CHECK_EQ(n, 4);
	n = oc_str_escape(buf, sizeof(buf), "abc\x1b", 4, 0);
	CHECK_STR(buf, "abc\\x1b");
}

TEST(strutil_dup_and_fput)
{
	char *d = oc_str_escape_dup("\xe2\x80\xae" "x", 4, 0);
	char big[3000], *out = NULL;
	size_t outlen = 0;
	FILE *f;

	CHECK_STR(d, "\\u{202e}x");
	free(d);
	/* oc_str_fput() in pieces: no UTF-8 sequence split between them */
	for (size_t i = 0; i + 2 < sizeof(big); i += 3)
		memcpy(big + i, "\xe2\x80\xae", 3);
	f = open_memstream(&out, &outlen);
	oc_str_fput(f, big, sizeof(big) - sizeof(big) % 3, 0);
	fclose(f);
	CHECK_EQ(outlen, (sizeof(big) / 3) * 8);
	CHECK(out && !strchr(out, '\xe2'));
	free(out);
}

TEST(hex_string_whole_bytes)
{
	const uint8_t id[] = { 0x01, 0xd2, 0x64, 0xff };
	char buf[9], small[6];

	oc_hex_string(id, sizeof(id), buf, sizeof(buf));
	CHECK_STR(buf, "01d264ff");
	/* 5 bytes of room: two whole bytes and the NUL */
	oc_hex_string(id, sizeof(id), small, sizeof(small));
	CHECK_STR(small, "01d2");
	oc_hex_string(id, 0, buf, sizeof(buf));
	CHECK_STR(buf, "");
	oc_hex_string(id, sizeof(id), small, 1);
	CHECK_STR(small, "");
}
