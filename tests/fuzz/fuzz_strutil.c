// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the sanitiser of dump strings (formats/strutil.h),
 * oc_str_escape() into a full and into a short buffer, and
 * oc_str_escape_dup().  Input: u8 flags (OC_ESC_*), u8 short buffer
 * size, then the string's bytes.
 * Invariants: the output is valid UTF-8 with no C0 control but tab
 * (newline with OC_ESC_KEEP_NL; any but NUL with OC_ESC_JSON), no DEL,
 * no C1 control, no bidi override or isolate; with OC_ESC_QUOTE every
 * '"' is escaped; the returned length is the output's; a cut output is
 * a prefix of the whole one, cut between escapes.
 */
#include "fuzz_common.h"
#include "strutil.h"

/* The length of a valid UTF-8 character at s, its code point in *cp. */
static size_t utf8_char(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	uint32_t c = n == 1 ? s[0] : s[0] & (0x7f >> n);

	FUZZ_ASSERT(s[0] < 0x80 || (s[0] >= 0xc2 && s[0] <= 0xf4));
	FUZZ_ASSERT(n <= len);
	for (size_t i = 1; i < n; i++) {
		FUZZ_ASSERT((s[i] & 0xc0) == 0x80);
		c = c << 6 | (s[i] & 0x3f);
	}
	FUZZ_ASSERT(c <= 0x10ffff && (c < 0xd800 || c > 0xdfff));
	FUZZ_ASSERT(n == 1 || c >= (n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u));
	*cp = c;
	return n;
}

static void check_output(const char *out, size_t len, unsigned int flags)
{
	const unsigned char *s = (const unsigned char *)out;
	bool escaped = false;

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_char(s + i, len - i, &cp);

		if (cp < 0x20 && cp != '\t')
			FUZZ_ASSERT((cp == '\n' && (flags & OC_ESC_KEEP_NL)) ||
				    (cp && (flags & OC_ESC_JSON)));
		FUZZ_ASSERT(cp != 0x7f && !(cp >= 0x80 && cp <= 0x9f));
		FUZZ_ASSERT(!(cp >= 0x202a && cp <= 0x202e) &&
			    !(cp >= 0x2066 && cp <= 0x2069));
		if ((flags & OC_ESC_QUOTE) && cp == '"')
			FUZZ_ASSERT(escaped);
		escaped = cp == '\\' && !escaped;
		i += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int flags;
	size_t small, full_len, cut_len, len;
	char *full, *cut, *dup;

	if (size < 2)
		return 0;
	flags = data[0] & (OC_ESC_KEEP_NL | OC_ESC_QUOTE | OC_ESC_JSON);
	small = data[1];
	data += 2;
	size -= 2;
	full_len = oc_str_escape(NULL, 0, (const char *)data, size, flags);
	FUZZ_ASSERT(full_len <= size * 10);
	full = malloc(full_len + 1);
	cut = malloc(small + 1);
	if (!full || !cut)
		abort();
	len = oc_str_escape(full, full_len + 1, (const char *)data, size, flags);
	FUZZ_ASSERT(len == full_len);
	FUZZ_ASSERT(strlen(full) == full_len);
	check_output(full, full_len, flags);
	/* a short buffer: a prefix, whole escapes only */
	len = oc_str_escape(cut, small + 1, (const char *)data, size, flags);
	FUZZ_ASSERT(len == full_len);
	cut_len = strlen(cut);
	FUZZ_ASSERT(cut_len <= small && !memcmp(cut, full, cut_len));
	check_output(cut, cut_len, flags);
	if (cut_len < full_len)
		FUZZ_ASSERT(cut_len + 10 > small);
	dup = oc_str_escape_dup((const char *)data, size, flags);
	FUZZ_ASSERT(dup && !strcmp(dup, full));
	free(dup);
	free(full);
	free(cut);
	return 0;
}
