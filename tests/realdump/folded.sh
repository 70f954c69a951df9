#!/bin/bash
# --folded (docs/orccrash.1): on one format of every sample scenario, the
# folded stacks parse as the flame graph tools read them, add up to the
# report's tasks and are each task's JSON trace (tests/realdump/folded.py);
# a selection narrows them; a bad field list is a usage error.
#   tests/realdump/folded.sh [BUILD_DIR]
. "$(dirname "$0")/../lib.sh"
tst_init folded "${1:-build}"
tst_need_index
py=/usr/bin/python3
[ -x "$py" ] || py=python3

while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	tst_first_of_scenario "$rel" "$scen" "$core" || continue
	name="$rel/$scen/$fmt"
	"$bin" --folded=state,comm "$core" "$vml" >"$tmp/folded" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		fail "$name: --folded exited $rc: $(head -c 200 "$tmp/err")"
		continue
	fi
	"$bin" --json --all-tasks --no-lines "$core" "$vml" >"$tmp/json" 2>/dev/null
	"$py" "$here/folded.py" "$name" "$tmp/folded" "$tmp/json"
done <"$index"

# one sample for the options
IFS=$'\t' read -r rel scen fmt core vml kaslr <"$index"
pid1=$("$bin" --folded=comm --pid 1 "$core" "$vml" 2>/dev/null)
if [ "$(printf '%s\n' "$pid1" | wc -l)" -eq 1 ] && [ "${pid1##* }" = 1 ]; then
	pass "--folded --pid 1: one stack of one task"
else
	fail "--folded --pid 1: $(printf '%s' "$pid1" | head -c 200)"
fi
"$bin" --folded=comm,bogus "$core" "$vml" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'bad --folded=comm,bogus' "$tmp/err"; then
	pass "--folded=comm,bogus: usage error (exit 2)"
else
	fail "--folded=comm,bogus: exit $rc: $(head -c 200 "$tmp/err")"
fi
exit 0
