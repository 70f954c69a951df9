# shellcheck shell=bash disable=SC2034
# Sourced (not run) by the test drivers that take a build directory
# (tests/realdump/*.sh, tests/orcdump/run.sh, tests/golden/cli.sh,
# tests/package/run.sh, tests/commands/run.sh, tests/crash/run.sh; the
# screen tier for tst_each_large alone): what each starts with, in one
# place (tests/tstlib.py is the Python checks').
#   . "$(dirname "$0")/../lib.sh"
#   tst_init NAME "${1:-build}"
# sets
#   here   the driver's directory        top    the checkout
#   O      the build directory, absolute bin    $O/orccrash
#   cache  ${ORCCRASH_CACHE:-~/.cache/orccrash} (make samples fills it)
#   index  $cache/dumps/index.tsv (release scenario format vmcore vmlinux
#          kaslr, one sample dump a line)
#   tmp    a scratch directory, removed at exit
#   nfail  the FAIL lines so far
# and gives pass/fail/skip (the PASS/FAIL/SKIP lines tests/run-tests.sh
# counts; fail also counts into nfail), tst_need_index (SKIP and exit 0
# without sample dumps), tst_need_exec (FAIL and exit 1 without a program
# the driver needs), tst_one_line_error (bad input: exit 1 and one
# line), tst_next_dump (the readable dumps of the index, one after the
# other), tst_report (a run of orccrash that must give a report),
# tst_first_of_scenario (one format of each sample scenario), tst_each_large
# (the bench's large dumps where made),
# tst_crash_stopped_before (crash need not run again on a dump),
# tst_chromium (headless Chromium, quiet), tst_speedscope (the flame
# graph tool, from npm into the cache) and tst_tally (say, record and
# tst_finish: the drivers that count their own lines).

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; nfail=$((nfail + 1)); }
skip() { echo "SKIP $*"; }

tst_init() {
	tst_name=$1
	O=${2:-build}
	here=$(cd "$(dirname "$0")" && pwd)
	top=$(cd "$here/../.." && pwd)
	case $O in /*) ;; *) O=$top/$O ;; esac
	bin=$O/orccrash
	cache=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
	index=${ORCCRASH_INDEX:-$cache/dumps/index.tsv}
	nfail=0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$tst_name.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
}

# tst_next_dump [-v]: the next row of the index on stdin (while
# tst_next_dump; do ...; done <"$index") into rel scen fmt core vml kaslr,
# and name=REL/SCEN/FORMAT; passes over the empty rows and the dumps not
# readable (-v: with a SKIP line); false at the end
tst_next_dump() {
	while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
		[ -n "$rel" ] || continue
		name="$rel/$scen/$fmt"
		[ -r "$core" ] && return 0
		[ "${1:-}" != -v ] || skip "$name: $core not readable"
	done
	return 1
}

# tst_report OUT ERR ARGS...: orccrash ARGS, its stdout into OUT and its
# stderr into ERR; true when it gave a whole report (exit 0, or 3: some
# trace unreliable), and its exit status in $rc
tst_report() {
	local out=$1 err=$2
	shift 2
	"$bin" "$@" >"$out" 2>"$err"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ]
}

# tst_tally: for the drivers that end with a count of their own lines
# (tests/commands/run.sh, tests/crash/run.sh), after tst_init: say LINE
# prints LINE and keeps it in $results, record does so with each line it
# reads, and tst_finish prints "N passed, N failed" of the lines kept and
# exits, non-zero after a FAIL
tst_tally() {
	results=$tmp/results
	: >"$results"
}
say() { echo "$*" | tee -a "$results"; }
record() { tee -a "$results"; }
tst_finish() {
	local p f
	p=$(grep -c '^PASS ' "$results")
	f=$(grep -c '^FAIL ' "$results")
	echo "$p passed, $f failed"
	[ "$f" -eq 0 ]
	exit
}

# tst_first_of_scenario REL SCEN VMCORE: true for the first readable dump
# of each release's scenario in the index (the drivers that check one
# format of each), false for the others
declare -A tst_scen_seen
tst_first_of_scenario() {
	[ -n "$1" ] && [ -r "$3" ] && [ -z "${tst_scen_seen[$1/$2]:-}" ] || return 1
	tst_scen_seen[$1/$2]=1
}

# tst_each_large FUNCTION: FUNCTION NAME VMCORE VMLINUX for each of the
# bench's large dumps (10,000 tasks; make bench-large) made with its
# kernel's vmlinux in the cache, NAME being REL/large/kdump-real, that
# ORCCRASH_TEST_SAMPLES and ORCCRASH_TEST_RELEASES select as they select
# the samples (tests/run-tests.sh): make check-tsan and check-asan see
# only the 6.1 kernel's
tst_each_large() {
	local core rel

	for core in "$cache"/bench/*/large/vmcore.kdump-real; do
		rel=${core#"$cache"/bench/}; rel=${rel%%/*}
		[ -r "$core" ] && [ -r "$cache/kernels/$rel/vmlinux" ] || continue
		[[ $rel =~ ${ORCCRASH_TEST_RELEASES:-} ]] &&
			[[ $rel/large/kdump-real =~ ${ORCCRASH_TEST_SAMPLES:-} ]] || continue
		"$1" "$rel/large/kdump-real" "$core" "$cache/kernels/$rel/vmlinux"
	done
}

# tst_need_index [INDEX]: no sample dumps is a SKIP, not a failure
tst_need_index() {
	local f=${1:-$index}

	if [ ! -s "$f" ]; then
		skip "$tst_name: no sample dumps ($f); run make samples"
		exit 0
	fi
}

# tst_one_line_error NAME WANT COMMAND...: bad input must end COMMAND
# with exit 1 and one line on stderr matching the regular expression WANT
# (grep's): the rule of docs/orccrash.1, "EXIT STATUS"
tst_one_line_error() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >/dev/null 2>"$tmp/one-line.err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/one-line.err")" -eq 1 ] &&
	   grep -q -- "$want" "$tmp/one-line.err"; then
		pass "$name: $(cat "$tmp/one-line.err")"
	else
		fail "$name: exit $rc: $(head -c 300 "$tmp/one-line.err")"
	fi
}

# tst_need_exec PATH HOW: PATH must be there; HOW says how to get it
tst_need_exec() {
	if [ ! -x "$1" ]; then
		fail "$tst_name: no $1 ($2)"
		exit 1
	fi
}

# The same crash stopped before its first command on this crash (the
# scenario's main file, of the same memory) when the
# sample was made (ref/crash-ps.txt: its version line, no output of ps,
# a non-zero exit; 8.0.2 on 6.4+ kernels): running it again would take
# ~10 s of CPU to fail the same way.  $1 dump.
tst_crash_stopped_before() {
	local ref ver
	ref=$(dirname "$1")/ref/crash-ps.txt
	[ -r "$ref" ] || return 1
	ver=$(crash --version 2>/dev/null | grep -m1 '^crash ')
	[ -n "$ver" ] && grep -qxF "# $ver" "$ref" || return 1
	grep -qE '^# (exit status [1-9]|not run: )' "$ref" && ! grep -q '^ *PID ' "$ref"
}

# tst_chromium ARGS...: Debian's chromium, headless, without its background
# traffic (a net log would hold it) and without a profile of the user's;
# $chromium is the program (command -v chromium).  The command is also
# left in the array chromium_argv, for a script to run.
tst_chromium() {
	chromium_argv=(timeout 120 "$chromium" --headless --no-sandbox --disable-gpu
		--hide-scrollbars --no-first-run --disable-sync
		--disable-background-networking --disable-component-update
		--disable-default-apps --user-data-dir="$tmp/profile")
	[ $# -eq 0 ] || "${chromium_argv[@]}" "$@"
}

# tst_speedscope: speedscope (the flame graph viewer, MIT, from the npm
# registry) unpacked into the cache, its tarball checked against the
# registry's integrity of this version; sets $speedscope to its
# dist/release/index.html, or says why not on stdout and returns 1
tst_speedscope_version=1.25.0
tst_speedscope_sha512=cpf9HWTZf1ijLXBJrk87Ve/54tnYx6rlf0gUThvn3ook6h63hLXVOQiMf44PT+XoV503cPfvfiT5gP5vojp6Ag==
tst_speedscope() {
	local dir=$cache/npm/speedscope-$tst_speedscope_version tgz sum
	speedscope=$dir/package/dist/release/index.html
	[ -s "$speedscope" ] && return 0
	command -v npm >/dev/null || { echo "no npm"; return 1; }
	mkdir -p "$dir" && rm -rf "$dir/package" "$dir"/*.tgz || return 1
	tgz=$( (cd "$dir" && npm pack --silent "speedscope@$tst_speedscope_version") 2>/dev/null | tail -n 1)
	[ -n "$tgz" ] && [ -s "$dir/$tgz" ] || { echo "npm pack speedscope@$tst_speedscope_version failed"; return 1; }
	sum=$(python3 -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$dir/$tgz")
	if [ "$sum" != "$tst_speedscope_sha512" ]; then
		echo "speedscope-$tst_speedscope_version.tgz: sha512 $sum is not the registry's"
		rm -f "$dir/$tgz"
		return 1
	fi
	tar -xzf "$dir/$tgz" -C "$dir" && [ -s "$speedscope" ] || { echo "speedscope: cannot unpack $dir/$tgz"; return 1; }
}
