#!/bin/bash
# Every fuzz target for a few seconds over its committed seeds (make
# fuzz-smoke): the regress-* seeds replay the inputs behind past fixes.
# PASS/FAIL lines per target; SKIP without clang's libFuzzer.
top=$(cd "$(dirname "$0")/../.." && pwd)
make -k -s --no-print-directory -C "$top" fuzz-smoke 2>&1 | grep -E '^(PASS|FAIL|SKIP|  )'
