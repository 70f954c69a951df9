#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The libFuzzer smoke run for tests/run-tests.sh: every target a few
# seconds over its committed seeds (make fuzz-smoke, tests/fuzz/fuzz.mk).
# PASS/FAIL/SKIP lines; SKIP without clang's fuzzer runtime.
#   tests/fuzz/run.sh [BUILD_DIR]   (BUILD_DIR unused: builds in build/fuzz)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$(make --no-print-directory fuzz-smoke 2>&1)
rc=$?
echo "$out" | grep -E '^(PASS|FAIL|SKIP) |^[A-Z]*Sanitizer|invariant|Test unit'
# fuzz_model's seeds each show one hostile class (tests/fuzz/model.expected):
# the model's outcome on each alone, so a seed that no longer shows what it
# was made for (or a model that no longer catches it) fails here
if [ -x build/fuzz/fuzz_model ] && echo "$out" | grep -q '^PASS fuzz_model'; then
	for seed in tests/fuzz/corpus/model/*; do
		name=${seed##*/}
		want=$(awk -F '\t' -v n="$name" '$1 == n { print $2 }' tests/fuzz/model.expected)
		got=$(FUZZ_VERBOSE=1 build/fuzz/fuzz_model "$seed" 2>/dev/null |
			grep -m1 '^model: tasks' | sed 's/^model: //')
		if [ -n "$want" ] && [ "$got" = "$want" ]; then
			out+=$'\n'"PASS fuzz_model seed $name"
		else
			out+=$'\n'"FAIL fuzz_model seed $name: want '${want:-(not in tests/fuzz/model.expected)}', got '$got'"
		fi
	done
fi
echo "$out" | grep -E '^(PASS|FAIL) fuzz_model seed'
p=$(echo "$out" | grep -c '^PASS '); f=$(echo "$out" | grep -c '^FAIL '); s=$(echo "$out" | grep -c '^SKIP ')
if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
	echo "FAIL fuzz-smoke: make exited $rc"; echo "$out" | tail -n 15; f=1
fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
