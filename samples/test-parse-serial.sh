#!/bin/bash
# Self-test of parse-serial.py on tests/serial-excerpt.log, real console
# lines cut from the sample dumps (6.1 and 6.12: a sysrq-t task, an NMI
# backtrace, a hard-IRQ panic, a module oops, a kdump-loaded panic, a #DF
# stack overflow; 5.10: a sysrq-t task, "pid:%5d"). Two checks:
#  - every frame line the kernel printed is in the output, none invented
#    (counted independently of the parser);
#  - the output equals tests/serial-excerpt.expected (reviewed by hand).
# Exit status 0 when both hold. Standard tools and python3 only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log=$here/tests/serial-excerpt.log
out=$(mktemp)
trap 'rm -f "$out"' EXIT
python3 "$here/parse-serial.py" "$log" > "$out"

frame='(\? )?([A-Za-z0-9_.$]+\+0x[0-9a-f]+/0x[0-9a-f]+( \[[A-Za-z0-9_]+\])?|0x[0-9a-f]+)$'
want=$(tr -d '\r' < "$log" | grep -cE "^\[ *[0-9]+\.[0-9]+\]  $frame" || true)
got=$(grep -cE "^$frame" "$out" || true)
status=0
if [ "$want" != "$got" ]; then
	echo "FAIL parse-serial: $got frame lines out, $want in the log"
	status=1
fi
if ! diff -u "$here/tests/serial-excerpt.expected" "$out"; then
	echo "FAIL parse-serial: output differs from tests/serial-excerpt.expected"
	status=1
fi
[ $status = 0 ] && echo "PASS parse-serial ($got frames)"
exit $status
