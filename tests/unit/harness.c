// SPDX-License-Identifier: GPL-2.0-or-later
#include "test.h"

int oc_test_failed_now;

extern const struct oc_test __start_oc_tests[], __stop_oc_tests[];

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (const struct oc_test *t = __start_oc_tests; t < __stop_oc_tests;
	     t++) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		oc_test_failed_now = 0;
		t->fn();
		if (oc_test_failed_now) {
			printf("FAIL %s\n", t->name);
			failed++;
		} else {
			printf("PASS %s\n", t->name);
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
