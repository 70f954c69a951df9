#!/bin/bash
# The top-level test runner: runs every tier and ends with one line
# "N passed, N failed" that CI reads.
#   tests/run-tests.sh --unit BUILD_DIR   unit tests only
#   tests/run-tests.sh --all BUILD_DIR    unit, golden, screen and real-dump tests
set -u
mode=${1:---all}
O=${2:-build}
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Run one test program; it prints PASS/FAIL/SKIP lines and its own
# "N passed, N failed" line, which we add up.
run() {
	local name=$1; shift
	echo "== $name"
	local t0=$SECONDS
	"$@" >"$log" 2>&1
	local rc=$?
	grep -E '^(PASS|FAIL|SKIP) |^  ' "$log" | grep -v '^PASS ' || true
	local p f s
	p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited $rc"; tail -n 20 "$log"; f=1
	fi
	echo "   $p passed, $f failed, $s skipped ($((SECONDS - t0)) s)"
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

# ORCCRASH_TEST_RELEASES (an extended regular expression): the real-dump
# tiers see only the sample dumps whose release matches it, through a
# filtered copy of the index that every tier reads as ORCCRASH_INDEX
# (make check-asan runs the sanitizers on the two Debian 12 kernels only:
# the CI budget).
if [ -n "${ORCCRASH_TEST_RELEASES:-}" ]; then
	src=${ORCCRASH_INDEX:-${ORCCRASH_CACHE:-$HOME/.cache/orccrash}/dumps/index.tsv}
	ORCCRASH_INDEX=$(mktemp)
	trap 'rm -f "$log" "$ORCCRASH_INDEX"' EXIT
	[ -r "$src" ] && awk -F'\t' '$1 ~ ENVIRON["ORCCRASH_TEST_RELEASES"]' "$src" >"$ORCCRASH_INDEX"
	export ORCCRASH_INDEX
	echo "== sample dumps: $(wc -l <"$ORCCRASH_INDEX") of $src (releases matching $ORCCRASH_TEST_RELEASES)"
fi

for t in "$O"/tests/test_*; do
	[ -x "$t" ] || continue
	run "unit: $(basename "$t")" "$t"
done

if [ "$mode" = --all ]; then
	for t in "$here"/../samples/test-parse-serial.sh "$here"/golden/run.sh \
		 "$here"/golden/cli.sh "$here"/orcdump/run.sh "$here"/realdump/*.sh "$here"/corrupt/*.sh \
		 "$here"/fuzz/run.sh "$here"/screen/run.sh "$here"/crash/run.sh "$here"/commands/run.sh \
		 "$here"/package/run.sh; do
		[ -x "$t" ] || continue
		# ORCCRASH_TEST_SKIP (an extended regular expression): tiers
		# left out by name (make check-asan: those that build and test
		# binaries of their own, not $O's)
		if [ -n "${ORCCRASH_TEST_SKIP:-}" ] &&
		   [[ ${t#"$here"/} =~ $ORCCRASH_TEST_SKIP ]]; then
			echo "== ${t#"$here"/}: left out (ORCCRASH_TEST_SKIP)"
			continue
		fi
		run "${t#"$here"/}" "$t" "$O"
	done
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
