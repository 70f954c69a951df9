/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal unit-test harness.  Each test binary runs its TEST()s and
 * prints one "PASS name" / "FAIL name: why" line each, then
 * "N passed, N failed"; tests/run-tests.sh adds the binaries up.
 */
#ifndef OC_TEST_H
#define OC_TEST_H

#include <inttypes.h>
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

#define CHECK_STR(a, b)                                                     \
	do {                                                                \
		const char *_a = (a), *_b = (b);                            \
		if (!_a || !_b || strcmp(_a, _b))                           \
			FAIL_AT("%s == %s: \"%s\" != \"%s\"", #a, #b,       \
				_a ? _a : "(null)", _b ? _b : "(null)");    \
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

#endif /* OC_TEST_H */
