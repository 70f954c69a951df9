#!/bin/bash
# --folded (docs/orccrash.1): on one format of every sample scenario, the
# folded stacks parse as the flame graph tools read them, add up to the
# report's tasks and are each task's JSON trace (tests/realdump/folded.py);
# a selection narrows them; a bad field list is a usage error.  Each is
# loaded unchanged into a flame graph tool, speedscope (npm) in headless
# Chromium, whose reading of every function must be the file's
# (tests/realdump/folded_speedscope.py).
#   tests/realdump/folded.sh [BUILD_DIR]
. "$(dirname "$0")/../lib.sh"
tst_init folded "${1:-build}"
tst_need_index
py=/usr/bin/python3
[ -x "$py" ] || py=python3
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
	skip "folded: no chromium (apt-get install chromium): not loaded into speedscope"
elif ! tst_speedscope >"$tmp/why"; then
	chromium=
	skip "folded: no speedscope ($(head -c 200 "$tmp/why")): not loaded into a flame graph tool"
else
	tst_chromium	# sets chromium_argv
fi

# check NAME VMCORE VMLINUX: --folded=state,comm against the JSON report
# (folded.py), then through speedscope
check() {
	local name=$1 core=$2 vml=$3 rc

	"$bin" --folded=state,comm "$core" "$vml" >"$tmp/folded" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		fail "$name: --folded exited $rc: $(head -c 200 "$tmp/err")"
		return
	fi
	"$bin" --json --all-tasks --no-lines "$core" "$vml" >"$tmp/json" 2>/dev/null
	"$py" "$here/folded.py" "$name" "$tmp/folded" "$tmp/json"
	[ -n "$chromium" ] || return
	"$py" "$here/folded_speedscope.py" "$name" "$tmp/folded" "$speedscope" "$tmp" -- \
		"${chromium_argv[@]}"
}

while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	tst_first_of_scenario "$rel" "$scen" "$core" || continue
	check "$rel/$scen/$fmt" "$core" "$vml"
done <"$index"

# the bench's large dumps (10,000 tasks; make bench-large), where made
tst_each_large check

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
