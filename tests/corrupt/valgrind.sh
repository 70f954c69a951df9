#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Valgrind (memcheck, full leak check) on `orccrash --all-tasks` of the
# committed default sample, with and without the cache's vmlinux, and on
# one corrupt copy (a truncated dump: the error path).
#   tests/corrupt/valgrind.sh [BUILD_DIR]
# SKIP when valgrind is not installed.  libkdumpfile 0.5.1's own leaks
# are suppressed (tests/corrupt/valgrind.supp), nothing of ours is.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
O=$(cd "${1:-$root/build}" && pwd)
BIN=$O/orccrash
cache=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
passed=0 failed=0 skipped=0
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/orccrash-vg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! command -v valgrind >/dev/null; then
	echo "SKIP valgrind: not installed (apt-get install valgrind)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	echo "SKIP valgrind: no $BIN (make)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
# valgrind cannot run a sanitizer build (make check-asan): that run has
# ASan's own checks instead
if nm "$BIN" 2>/dev/null | grep -q '__asan_init'; then
	echo "SKIP valgrind: $BIN is built with AddressSanitizer"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# vg NAME CODES -- ARGS: valgrind must report nothing (exit 99 if it
# does) and orccrash must exit with one of CODES.
vg() {
	local name=$1 codes=$2 rc
	shift 3
	timeout 600 valgrind -q --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
		--suppressions="$here/valgrind.supp" "$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 99 ] || grep -q '^==[0-9]*== ' "$tmp/err"; then
		echo "FAIL valgrind $name: exit $rc"
		grep '^==' "$tmp/err" | head -n 30 | sed 's/^/  /'
		failed=$((failed + 1))
	elif ! [[ " $codes " == *" $rc "* ]]; then
		echo "FAIL valgrind $name: exit $rc, wanted $codes: $(tail -n 1 "$tmp/err")"
		failed=$((failed + 1))
	else
		echo "PASS valgrind $name (exit $rc)"
		passed=$((passed + 1))
	fi
}

K=$root/samples/default/vmcore
V=$cache/kernels/6.1.0-57-cloud-amd64/vmlinux
if [ -r "$K" ]; then
	vg "--all-tasks samples/default (dump only)" "0 3" -- --all-tasks --log "$K"
	if [ -r "$V" ]; then
		vg "--all-tasks samples/default with its vmlinux" "0 3" -- --all-tasks "$K" "$V"
		vg "--json --all-tasks --scan samples/default" "0 3" -- --json --all-tasks --scan "$K" "$V"
	else
		echo "SKIP valgrind with a vmlinux: no $V (make samples)"
		skipped=$((skipped + 1))
	fi
	head -c $(( $(stat -c %s "$K") / 2 + 2048 )) "$K" >"$tmp/cut.vmcore"
	vg "truncated dump" "1 3" -- --all-tasks "$tmp/cut.vmcore"
else
	echo "SKIP valgrind: no samples/default/vmcore"
	skipped=$((skipped + 1))
fi
# an ELF dump of the sample cache (libkdumpfile's other reader)
index=${ORCCRASH_INDEX:-$cache/dumps/index.tsv}
E=$( [ -r "$index" ] && awk -F'\t' '$3 == "elf" { print $4 "\t" $5 }' "$index" |
	while IFS=$'\t' read -r d v; do [ -r "$d" ] && [ -r "$v" ] && { echo "$d	$v"; break; }; done)
if [ -n "$E" ]; then
	vg "--all-tasks --scan --log ${E%%	*}" "0 3" -- --all-tasks --scan --log "${E%%	*}" "${E#*	}"
else
	echo "SKIP valgrind on an ELF dump: none in $index (make samples)"
	skipped=$((skipped + 1))
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
