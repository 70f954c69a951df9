/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal unit-test harness.  Each test binary runs its TEST()s and
 * prints one "PASS name" / "FAIL name: why" line each, then
 * "N passed, N failed"; tests/run-tests.sh adds the binaries up.
 */
#ifndef OC_TEST_H
#define OC_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct oc_test {
	const char *name;
	void (*fn)(void);
};

extern int oc_test_failed_now;

#define TEST(name)                                                          \
	static void test_##name(void);                                      \
	static const struct oc_test test_desc_##name                        \
		__attribute__((used, section("oc_tests"), aligned(8))) = {  \
			#name, test_##name};                                \
	static void test_##name(void)

#define FAIL_AT(...)                                                        \
	do {                                                                \
		printf("  %s:%d: ", __FILE__, __LINE__);                    \
		printf(__VA_ARGS__);                                        \
		printf("\n");                                               \
		oc_test_failed_now = 1;                                     \
	} while (0)

#define CHECK(cond)                                                         \
	do {                                                                \
		if (!(cond))                                                \
			FAIL_AT("check failed: %s", #cond);                 \
	} while (0)

#define CHECK_EQ(a, b)                                                      \
	do {                                                                \
		unsigned long long _a = (unsigned long long)(a);            \
		unsigned long long _b = (unsigned long long)(b);            \
		if (_a != _b)                                               \
			FAIL_AT("%s == %s: 0x%llx != 0x%llx", #a, #b, _a, _b); \
	} while (0)

/* CHECK_EQ() as a condition, true when @a equals @b: a count checked,
 * then the entries looked at only if it is right ("if (CHECKED_EQ(nr,
 * 3)) { ... chain[2] ... }"). */
#define CHECKED_EQ(a, b)                                                    \
	({                                                                  \
		unsigned long long _a = (unsigned long long)(a);            \
		unsigned long long _b = (unsigned long long)(b);            \
		if (_a != _b)                                               \
			FAIL_AT("%s == %s: 0x%llx != 0x%llx", #a, #b, _a, _b); \
		_a == _b;                                                   \
	})

#define CHECK_STR(a, b)                                                     \
	do {                                                                \
		const char *_a = (a), *_b = (b);                            \
		if (!_a || !_b || strcmp(_a, _b))                           \
			FAIL_AT("%s == %s: \"%s\" != \"%s\"", #a, #b,       \
				_a ? _a : "(null)", _b ? _b : "(null)");    \
	} while (0)

/* The predicate @pred is @want of each string of the array @names. */
#define CHECK_EACH(pred, names, want)                                       \
	do {                                                                \
		for (size_t _i = 0; _i < sizeof(names) / sizeof((names)[0]); \
		     _i++)                                                  \
			if ((pred)((names)[_i]) != (want))                  \
				FAIL_AT("%s(\"%s\") != %s", #pred,         \
					(names)[_i], #want);                \
	} while (0)

/* An oc_error * that must be NULL; destroys it otherwise. */
#define CHECK_OK(expr)                                                      \
	do {                                                                \
		struct oc_error *_e = (expr);                               \
		if (_e) {                                                   \
			char _buf[512];                                     \
			oc_error_string(_e, _buf, sizeof(_buf));            \
			FAIL_AT("%s: %s", #expr, _buf);                     \
			oc_error_destroy(_e);                               \
		}                                                           \
	} while (0)

/*
 * Shared helpers (tests/unit/harness.c).  Files go to one temporary
 * directory per test binary (tmpfs when there is one: the corruption
 * tests write many files), removed at exit.
 */

/* @name inside that directory; 8 buffers in rotation. */
const char *oc_test_tmp_path(const char *name);
/* Writes @len bytes to @path; the binary aborts when it cannot. */
void oc_test_write_file(const char *path, const void *data, size_t len);
/* Writes the string @text to @path, likewise. */
void oc_test_write_text(const char *path, const char *text);
/* The compiler for the programs the tests compile: $CC, else cc. */
const char *oc_test_cc(void);
/* Runs a shell command; false, with a failure, when it does not exit 0. */
bool oc_test_system(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* @name's address in the ELF file @path's symbol table; 0, with a
 * failure, when it has none. */
uint64_t oc_test_sym_addr(const char *path, const char *name);
/* The next number of a reproducible sequence (xorshift64*) from the
 * non-zero *@state. */
static inline uint64_t oc_test_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

#endif /* OC_TEST_H */
