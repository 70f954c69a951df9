# shellcheck shell=bash disable=SC2034
# Sourced (not run) by the test drivers that take a build directory
# (tests/realdump/*.sh, tests/orcdump/run.sh, tests/golden/cli.sh,
# tests/package/run.sh): what each starts with, in one place.
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
# line), tst_first_of_scenario (one format of each sample scenario) and
# tst_crash_stopped_before (crash need not run again on a dump).

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

# tst_first_of_scenario REL SCEN VMCORE: true for the first readable dump
# of each release's scenario in the index (the drivers that check one
# format of each), false for the others
declare -A tst_scen_seen
tst_first_of_scenario() {
	[ -n "$1" ] && [ -r "$3" ] && [ -z "${tst_scen_seen[$1/$2]:-}" ] || return 1
	tst_scen_seen[$1/$2]=1
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
