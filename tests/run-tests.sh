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
jobs=${ORCCRASH_TEST_JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
	echo "tests/run-tests.sh: ORCCRASH_TEST_JOBS=$jobs: not a number of jobs (1 or more)" >&2
	exit 2
fi
log=$(mktemp)
dir=$(mktemp -d)
idx_tmp=
trap 'rm -f "$log" $idx_tmp; rm -rf "$dir"' EXIT

# report NAME LOG RC SECONDS: a test program's block.  The program prints
# PASS/FAIL/SKIP lines and its own "N passed, N failed" line; FAIL and
# SKIP lines are shown, and the counts added up.
report() {
	local name=$1 out=$2 rc=$3 secs=$4 p f s
	echo "== $name"
	grep -E '^(PASS|FAIL|SKIP) |^  ' "$out" | grep -v '^PASS ' || true
	p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out"); s=$(grep -c '^SKIP ' "$out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited $rc"; tail -n 20 "$out"; f=1
	fi
	echo "   $p passed, $f failed, $s skipped ($secs s)"
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

# run NAME PROGRAM ARGS...: one test program, in the foreground
run() {
	local name=$1 t0=$SECONDS rc
	shift
	"$@" >"$log" 2>&1
	rc=$?
	report "$name" "$log" "$rc" $((SECONDS - t0))
}

# ORCCRASH_TEST_SAMPLES (an extended regular expression): the real-dump
# tiers see only the sample dumps whose "RELEASE/SCENARIO/FORMAT"
# matches it, through a filtered copy of the index that every tier reads
# as ORCCRASH_INDEX (make check-asan: one kernel's, fewer formats: the CI
# budget).  ORCCRASH_TEST_RELEASES, an older form, matches the release.
if [ -n "${ORCCRASH_TEST_SAMPLES:-}${ORCCRASH_TEST_RELEASES:-}" ]; then
	src=${ORCCRASH_INDEX:-${ORCCRASH_CACHE:-$HOME/.cache/orccrash}/dumps/index.tsv}
	ORCCRASH_INDEX=$(mktemp)
	idx_tmp=$ORCCRASH_INDEX
	[ -r "$src" ] && awk -F'\t' '$1 ~ ENVIRON["ORCCRASH_TEST_RELEASES"] &&
		($1 "/" $2 "/" $3) ~ ENVIRON["ORCCRASH_TEST_SAMPLES"]' "$src" >"$ORCCRASH_INDEX"
	export ORCCRASH_INDEX
	echo "== sample dumps: $(wc -l <"$ORCCRASH_INDEX") of $src (matching ${ORCCRASH_TEST_SAMPLES:-$ORCCRASH_TEST_RELEASES})"
fi

for t in "$O"/tests/test_*; do
	[ -x "$t" ] || continue
	run "unit: $(basename "$t")" "$t"
done

# The tiers run side by side, ORCCRASH_TEST_JOBS at a time (default: one
# more than the cores, since the screen tier mostly sleeps waiting for
# the terminal), the longest first; each one's block is printed whole
# when it ends, and the totals add up as before.  Every tier works in a
# scratch directory of its own (mktemp) and finds its helper programs
# built already (make test builds TEST_BIN first).
slow_first="screen/run.sh realdump/dump_check.sh commands/run.sh realdump/html.sh
	realdump/log_check.sh crash/run.sh realdump/lines.sh realdump/locals.sh
	realdump/novmlinux.sh realdump/run.sh realdump/folded.sh"
tiers=()
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
		# ORCCRASH_TEST_ONLY (an extended regular expression): only
		# the tiers it matches (make check-tsan: realdump/threads.sh)
		if [ -n "${ORCCRASH_TEST_ONLY:-}" ] &&
		   ! [[ ${t#"$here"/} =~ $ORCCRASH_TEST_ONLY ]]; then
			continue
		fi
		tiers+=("$t")
	done
fi
ordered=()
for s in $slow_first; do
	for t in ${tiers[@]+"${tiers[@]}"}; do [ "${t#"$here"/}" = "$s" ] && ordered+=("$t"); done
done
for t in ${tiers[@]+"${tiers[@]}"}; do
	[[ " $slow_first " =~ [[:space:]]${t#"$here"/}[[:space:]] ]] || ordered+=("$t")
done

declare -A started	# index in ordered -> start time, while it runs
declare -A pids		# index in ordered -> the tier's subshell
nrun=0	# (bash's set -u calls an emptied array unbound: count them)
# stopped (SIGTERM from CI's timeout, SIGINT): the tiers stop too, each
# with what it started (its own process group: crash, drgn, QEMU)
stop_tiers() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do kill -TERM -- "-$p" 2>/dev/null; done
	exit 143
}
trap stop_tiers TERM INT
# report_ended: the block of every tier that has ended and is not yet
# told; with @1 (wait -n found no child left), the tiers that never said
# how they ended are failures
report_ended() {
	local i t
	[ "$nrun" -gt 0 ] || return 0
	for i in "${!started[@]}"; do
		if [ -e "$dir/$i.end" ]; then
			t=${ordered[$i]}
			report "${t#"$here"/}" "$dir/$i.log" "$(cat "$dir/$i.rc")" \
				$(( $(cat "$dir/$i.end") - ${started[$i]} ))
		elif [ -n "${1:-}" ]; then
			t=${ordered[$i]}
			report "${t#"$here"/}" "$dir/$i.log" 1 $(( $(date +%s) - ${started[$i]} ))
		else
			continue
		fi
		unset "started[$i]" "pids[$i]"
		nrun=$((nrun - 1))
	done
}
# wait_one: until a tier ends (127: no child left, every tier told)
wait_one() {
	local rc=0
	wait -n || rc=$?
	if [ "$rc" -eq 127 ]; then report_ended gone; else report_ended; fi
}
set -m	# each tier in a process group of its own (stop_tiers)
for ((i = 0; i < ${#ordered[@]}; i++)); do
	while [ "$nrun" -ge "$jobs" ]; do
		wait_one
	done
	started[$i]=$(date +%s)
	nrun=$((nrun + 1))
	# .end last, and whole (renamed into place): the tier has ended
	( "${ordered[$i]}" "$O" >"$dir/$i.log" 2>&1; echo $? >"$dir/$i.rc"
	  date +%s >"$dir/$i.end.tmp" && mv "$dir/$i.end.tmp" "$dir/$i.end" ) &
	pids[$i]=$!
done
while [ "$nrun" -gt 0 ]; do
	wait_one
done
set +m

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
