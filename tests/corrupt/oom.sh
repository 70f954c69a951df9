#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Out of memory at every stage: orccrash runs with malloc, calloc and
# realloc failing from the Nth call on (tests/corrupt/failmalloc.c, an
# LD_PRELOAD library), N spread over the whole run of the text and the
# JSON report of the committed default sample and of a sample dump with
# its vmlinux.  Each run must end in exit 1 with an error as the last
# line on stderr, or exit 0/3 with a whole report (JSON that parses):
# never a signal, a hang, or a JSON document cut short with exit 0
# (docs/hardening.md).
#   tests/corrupt/oom.sh [BUILD_DIR]
# SKIP for a sanitizer build (ASan has its own allocator) or without cc.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init oom "${1:-build}"
BIN=$bin
STEPS=${OOM_STEPS:-40}

done_() { [ $nfail -eq 0 ]; exit; }
if [ ! -x "$BIN" ]; then
	skip "oom: no $BIN (make)"; done_
fi
if nm "$BIN" 2>/dev/null | grep -q '__asan_init'; then
	skip "oom: $BIN is built with AddressSanitizer (its own allocator)"; done_
fi
if ! cc -O2 -shared -fPIC -o "$tmp/failmalloc.so" "$here/failmalloc.c" 2>"$tmp/cc.err"; then
	skip "oom: cannot build the preload library: $(head -c 200 "$tmp/cc.err")"; done_
fi

# one NAME JSON(0/1) ARGS...: the run with no failure counts the
# allocations; then STEPS + 1 runs failing from N = total * i / STEPS
one() {
	local name=$1 json=$2 total n rc bad=0 i last
	shift 2
	# env sets the preload for orccrash alone, not for timeout
	timeout 120 env FAILMALLOC_COUNT="$tmp/count" LD_PRELOAD="$tmp/failmalloc.so" \
		"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		fail "$name: exit $rc without any failure injected"; return
	fi
	total=$(cat "$tmp/count")
	for i in $(seq 0 "$STEPS"); do
		n=$((total * i / STEPS))
		timeout 120 env FAILMALLOC_AFTER="$n" LD_PRELOAD="$tmp/failmalloc.so" \
			"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		last=$(grep . "$tmp/err" | tail -n 1)
		case $rc in
		1)
			if [[ "$last" != orccrash:* ]]; then
				fail "$name: failing from allocation $n of $total: exit 1, last line on stderr not an error: ${last:0:200}"
				bad=1
			fi ;;
		0 | 3)
			if [ "$json" = 1 ] && ! python3 -c '
import json, sys
# one document, or one a command (-e): each whole
t, d, i = open(sys.argv[1]).read(), json.JSONDecoder(), 0
n = 0
while t[i:].strip():
    i += len(t[i:]) - len(t[i:].lstrip())
    _, i = d.raw_decode(t, i)
    n += 1
sys.exit(n == 0)' "$tmp/out" 2>/dev/null; then
				fail "$name: failing from allocation $n of $total: exit $rc with JSON that does not parse"
				bad=1
			fi ;;
		124)
			fail "$name: failing from allocation $n of $total: hung (killed after 120 s)"; bad=1 ;;
		*)
			fail "$name: failing from allocation $n of $total: exit $rc: $(tail -n 2 "$tmp/err" | tr '\n' ' ' | head -c 200)"; bad=1 ;;
		esac
	done
	[ $bad = 0 ] &&
		pass "$name: $((STEPS + 1)) runs failing from allocation 0 to $total: each an error or a whole report"
}

one "default sample, text" 0 --all-tasks
one "default sample, --json" 1 --json --all-tasks
one "default sample, commands --json" 1 --json -e ps -e mod -e "bt -a" -e "sym schedule"
IFS=$'\t' read -r C V < <([ -r "$index" ] &&
	awk -F'\t' '$2 ~ /^mod-/ && $3 == "kdump" { print $4 "\t" $5 }' "$index" |
	while IFS=$'\t' read -r d v; do [ -r "$d" ] && [ -r "$v" ] && { echo "$d	$v"; break; }; done) || true
if [ -n "${C:-}" ]; then
	r=$(basename "$(dirname "$(dirname "$C")")")/$(basename "$(dirname "$C")")
	one "$r with its vmlinux, --json" 1 --json --all-tasks "$C" "$V"
else
	skip "oom: no mod-* kdump sample in $index (make samples)"
fi
done_
