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
p=$(echo "$out" | grep -c '^PASS '); f=$(echo "$out" | grep -c '^FAIL '); s=$(echo "$out" | grep -c '^SKIP ')
if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
	echo "FAIL fuzz-smoke: make exited $rc"; echo "$out" | tail -n 15; f=1
fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
