#!/bin/bash
# Screen tests of the browser: drive the real binary in a headless tmux
# on real sample dumps and read the screen back.
#   tests/screen/run.sh [BUILD_DIR]
# Dumps: ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv (one per
# release and scenario for the releases matching SCREEN_EVERY, the two
# Debian 12 cloud kernels by default, one per release for the others,
# whose scenario-specific views still run; SCREEN_ALL=1 for every
# scenario and format) and
# samples/default/vmcore; SCREEN_ONLY=REGEX limits the dumps by
# "release/scenario/format".  The oracle for frames and registers is the
# batch report of the same binary (`--active`), which renders the same
# unwinder output through a different path (src/report.c).
# Prints PASS/FAIL/SKIP lines and ends with "N passed, N failed".
set -u
O=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BIN=$top/$O/orccrash
[ -x "$O/orccrash" ] && BIN=$(cd "$O" && pwd)/orccrash
cache=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
# tst_each_large; its pass/fail/skip are replaced by this tier's below
. "$here/../lib.sh"
passed=0 failed=0
sock=orccrash-screen-$$
T() { tmux -L "$sock" -f /dev/null "$@"; }
tmp=$(mktemp -d)
# the server's socket file outlives kill-server: remove it too
sockpath=${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock
trap 'T kill-server 2>/dev/null; rm -f "$sockpath"; rm -rf "$tmp"' EXIT

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() {
	echo "FAIL $1: $2"
	failed=$((failed + 1))
	if [ -s "$tmp/screen" ]; then sed 's/^/  | /' "$tmp/screen" | head -45; fi
}
skip() { echo "SKIP $1: $2"; }

cap() { T capture-pane -p -t ui >"$tmp/screen" 2>/dev/null; }
# wait_for REGEX [SECONDS]: until the screen matches (extended regex).
# A capture can catch a screen half redrawn: on a match, capture again
# a moment later and go on waiting unless it still matches.
wait_for() {
	local i n=$(( ${2:-10} * 10 ))
	for ((i = 0; i < n; i++)); do
		cap
		if grep -Eq -- "$1" "$tmp/screen"; then
			sleep 0.1
			cap
			grep -Eq -- "$1" "$tmp/screen" && return 0
		fi
		sleep 0.1
	done
	return 1
}
# the same, for the registers pane alone
wait_regs() {
	local i n=$(( ${2:-10} * 10 ))
	for ((i = 0; i < n; i++)); do
		cap
		regs_col "${W:-120}" | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
wait_regs200() { W=200 wait_regs "$@"; }
keys() { T send-keys -t ui "$@"; sleep 0.15; }
# have_dump LABEL VMCORE VMLINUX: both readable, or a SKIP line for LABEL
have_dump() {
	[ -r "$2" ] && [ -r "$3" ] && return 0
	skip "$1" "dump or vmlinux missing"
	return 1
}
# new_ui WIDTH COMMAND: a new session ui of WIDTH columns and 40 rows
# (the old one killed) running the shell command line COMMAND, and
# printing EXIT=its exit status when it ends
new_ui() {
	T kill-session -t ui 2>/dev/null
	T new-session -d -s ui -x "$1" -y 40 "$2; echo EXIT=\$?; sleep 60"
}
# down_until MAX COND: capture the screen and try COND (a command line,
# eval'd), press j where it fails, at most MAX times; false when COND
# never held
down_until() {
	local _try
	for ((_try = 0; _try < $1; _try++)); do
		cap
		eval "$2" && return 0
		keys j
	done
	return 1
}
# mawk has no {n} intervals: no such regexes in awk
# the frames pane is the left half of the bottom, the registers the right
frames_col() { cut -c1-$(( $1 / 2 )) "$tmp/screen"; }
regs_col() { cut -c$(( $1 / 2 + 2 ))- "$tmp/screen"; }

# The bytes of a button-1 press and release at row $1, column $2.
mouse_click() {
	local cx cy
	cx=$(printf '\\%03o' $((32 + $2 + 1)))
	cy=$(printf '\\%03o' $((32 + $1 + 1)))
	printf "\033[M $cx$cy\033[M#$cx$cy"
}

# Function names of the panic CPU's trace in the batch report: a frame
# line, or the RIP of a register block (printed instead of its frame).
report_funcs() {
	awk '/^CPU [0-9]+ \(panic\)/ { on = 1; next } on && /^$/ { exit }
	     on && /^ RIP: [0-9a-f]+:/ { sub(/^ RIP: [0-9a-f]+:/, ""); print $1; next }
	     on && /^ [^ <?]/ && $1 !~ /:$/ { print $1 }' "$tmp/report"
}

# Register block number $1 (from 1) of the panic CPU in the report,
# as "NAME VALUE" lines.
report_regs() {
	awk -v want="$1" '/^CPU [0-9]+ \(panic\)/ { on = 1; next } on && /^$/ { exit }
	     on && /^ RIP: / { n++ } on && n == want && /^ R[A-Z0-9]+: / {
		for (i = 1; i <= NF; i++) if ($i ~ /^R[A-Z0-9]+:$/ && $i != "RIP:" && $i != "RSP:")
			{ name = $i; sub(/:$/, "", name); print name, $(i + 1) } }' "$tmp/report"
}

check_dump() {
	local label=$1 vmcore=$2 vmlinux=$3 release pcpu want got n block ok kind what sig

	have_dump "$label" "$vmcore" "$vmlinux" || return
	# the plain kernel-style report (no file:line rows) when it can
	"$BIN" --active --no-lines "$vmcore" "$vmlinux" >"$tmp/report" 2>"$tmp/report.err"
	[ $? -ne 2 ] ||
		"$BIN" --active "$vmcore" "$vmlinux" >"$tmp/report" 2>"$tmp/report.err"
	release=$(awk '/^ *RELEASE:/ { print $2; exit }' "$tmp/report")

	new_ui 120 "'$BIN' '$vmcore' '$vmlinux'"
	: >"$tmp/screen"
	# "6.12.118+deb12": quote the release for the regex
	rel_re=$(printf '%s' "$release" | sed 's/[][\\.*^$+?(){}|]/\\&/g')
	if ! wait_for "^orccrash  Linux ${rel_re:-[^ ]+}" 20 ||
	   ! wait_for '^ Frames: ' 5; then
		fail "$label: open" "no header with release ${release:-?}"
		return
	fi
	pass "$label: open"

	# the top-frame column fills in while idle
	if wait_for 'traces ([0-9]+)/\1[ ,]' 20 &&
	   ! sed -n '/^ *PID  CPU ST COMM/,/^ Frames:/p' "$tmp/screen" |
		grep -q ' \.\.\.$'; then
		pass "$label: every trace unwound while idle"
	else
		fail "$label: idle unwinding" "traces still pending"
	fi

	# the first screen: the panic CPU's frames, as in the report
	pcpu=$(sed -n 's/^orccrash  Linux [^ ]*  panic on CPU \([0-9]*\).*/\1/p' "$tmp/screen")
	want=$(report_funcs)
	got=$(frames_col 120 | sed -n 's/^#[0-9][0-9]*  *\([^ ?][^ ]*\).*/\1/p')
	n=$(printf '%s\n' "$got" | grep -c .)
	# at least three frames, or all the report has
	min=$(printf '%s\n' "$want" | grep -c .)
	[ "$min" -le 3 ] || min=3
	if [ -z "$pcpu" ]; then
		fail "$label: panic frames" "no panic CPU in the header"
	elif ! grep -q "Frames: CPU $pcpu " "$tmp/screen"; then
		fail "$label: panic frames" "frames pane is not CPU $pcpu's"
	elif [ "$n" -lt 1 ] || [ "$n" -lt "$min" ]; then
		fail "$label: panic frames" "only $n frames on screen"
	elif [ "$got" != "$(printf '%s\n' "$want" | head -n "$n")" ]; then
		fail "$label: panic frames" "differ from the report: $(echo $want | head -c 300)"
	else
		pass "$label: panic frames ($n match the report)"
	fi
	# the header's crash line: the report's crash title (its panic
	# message for a plain panic()) and signature (docs/triage.md), as
	# much of it as the 120 columns show
	kind=$(awk '/^ *KIND:/ { print $2; exit }' "$tmp/report")
	case $kind in
	panic | sysrq | unknown | "") what=$(sed -n 's/^ *MESSAGE: //p' "$tmp/report" | head -n 1) ;;
	*) what=$(sed -n 's/^ *CRASH: //p' "$tmp/report" | head -n 1) ;;
	esac
	sig=$(awk '/^ *SIGNATURE:/ { print $2; exit }' "$tmp/report")
	want="orccrash  Linux $release  panic on CPU $pcpu: $what${sig:+  signature $sig}"
	got=$(head -n 1 "$tmp/screen" | sed 's/ *$//')
	if [ -n "$what" ] && [ "${#got}" -ge 60 ] && [ "${want:0:${#got}}" = "$got" ]; then
		pass "$label: header crash line (${#got} of ${#want} columns as in the report)"
	else
		fail "$label: header crash line" "'$got', the report's '$want'"
	fi
	# an unreliable trace says so, as the report does
	if grep -q '^ *(unreliable: ' "$tmp/report" &&
	   ! sed -n '/^CPU [0-9]* (panic)/,/^$/p' "$tmp/report" | grep -q '(unreliable: '; then
		:	# another CPU's trace
	elif sed -n '/^CPU [0-9]* (panic)/,/^$/p' "$tmp/report" | grep -q '(unreliable: '; then
		keys End
		cap
		if frames_col 120 | grep -q '^(unreliable: ' &&
		   grep -q '^unreliable trace: ' "$tmp/screen"; then
			pass "$label: panic trace marked unreliable like the report"
		else
			fail "$label: unreliable" "the report says unreliable, the frames pane does not"
		fi
	fi

	# down the frames to the first pt_regs frame: its registers
	if ! down_until 80 "regs_col 120 | grep -q '^#[0-9]* pt_regs at'"; then
		if [ "$(report_funcs | wc -l)" -gt 0 ] &&
		   [ "$(sed -n '/^CPU [0-9]* (panic)/,/^$/p' "$tmp/report" |
			grep -c '^ RIP: ')" -lt 2 ]; then
			skip "$label: pt_regs" "the panic CPU has no pt_regs frame"
		else
			fail "$label: pt_regs" "no pt_regs frame reached"
		fi
	else
		# the same registers as one of the report's blocks; the
		# source rows may push the last ones below: scroll there too
		regs_col 120 >"$tmp/regs"
		# End again while the frame's variables still load (the
		# worker's rows arrive later under load and push R15 down)
		keys Tab
		for ((i = 0; i < 5; i++)); do
			keys End
			wait_regs '^R15 ' 2 && break
		done
		regs_col 120 >>"$tmp/regs"
		keys BTab
		got=$(awk '/^R[A-Z0-9]+ +[0-9a-f]+/ && length($2) == 16 &&
			$1 != "RIP" && $1 != "RSP" { print $1, $2 }' "$tmp/regs" |
			sort -u)
		block=0
		for ((b = 2; b <= $(grep -c '^ RIP: ' "$tmp/report"); b++)); do
			want=$(report_regs "$b" | sort)
			if [ "$got" = "$want" ]; then block=$b; break; fi
		done
		if [ "$(echo "$got" | wc -l)" -lt 15 ]; then
			fail "$label: pt_regs" "only $(echo "$got" | wc -l) registers shown"
		elif [ "$block" = 0 ]; then
			fail "$label: pt_regs" "registers match no block of the report"
		elif ! regs_col 120 | grep -Eq '^RIP +[0-9a-f]{16}'; then
			fail "$label: pt_regs" "no RIP"
		else
			pass "$label: pt_regs registers (match report block $block)"
		fi
	fi

	# stack memory of frame #0: from its sp, the return address slot of
	# an unwound frame above it (a few pages down at most)
	keys Home m
	ok=
	if wait_for 'Stack memory: ' 3 && grep -q '^sp#0  ' "$tmp/screen"; then
		for ((i = 0; i < 8; i++)); do
			if grep -Eq '^ +[0-9a-f]+: [0-9a-f]+  <- #[1-9][0-9]* return to ' "$tmp/screen"; then
				ok=1
				break
			fi
			keys NPage
			cap
		done
	fi
	if [ -n "$ok" ]; then
		pass "$label: stack memory"
	else
		fail "$label: stack memory" "no annotated return address"
	fi
	keys q

	# the source line of the panic() frame, against addr2line
	keys Home
	wait_for '^ Frames: ' 3
	read -r n off <<<"$(frames_col 120 |
		sed -n 's/^#\([0-9][0-9]*\)  *panic+0x\([0-9a-f]*\)\/.*/\1 \2/p' | head -1)"
	base=$(nm "$vmlinux" 2>/dev/null | awk '$3 == "panic" { print $1; exit }')
	if [ -z "$n" ] || [ -z "$base" ] || ! command -v addr2line >/dev/null; then
		skip "$label: source line" "no panic() frame on screen, or no nm/addr2line"
	else
		# a return address: the call is at ip - 1
		want=$(addr2line -e "$vmlinux" -i "$(printf '%x' $((0x$base + 0x$off - 1)))" |
			tail -1 | sed 's/ (discriminator [0-9]*)//; s/.*\/kernel\/panic\.c/kernel\/panic.c/')
		# inlined rows are rows too: down until frame #n's own row
		down_until $((3 * n + 10)) 'grep -q "Registers: #$n\$" "$tmp/screen"'
		if wait_for "Registers: #$n\$" 5 &&
		   wait_regs '^at kernel/panic\.c:[0-9]+ \(panic\)$' 5 &&
		   regs_col 120 | grep -qx "at $want (panic)"; then
			pass "$label: source line ($want, as addr2line)"
		else
			fail "$label: source line" "want at $want (panic)"
		fi
	fi

	# Enter on a return-address slot goes to that frame (when frame #0's
	# sp holds one, as it does after a call)
	keys Home m
	wait_for 'Stack memory: .*, frame #0$' 5
	n=$(sed -n 's/^sp#0 .*<- #\([0-9]*\) return to .*/\1/p' "$tmp/screen")
	if [ -z "$n" ]; then
		skip "$label: memory Enter" "frame #0's sp holds no return address"
	else
		keys Enter
		if wait_for "Registers: #$n\$" 5 &&
		   wait_for "^frame #$n\$" 2; then
			pass "$label: memory Enter goes to frame #$n"
		else
			fail "$label: memory Enter" "frame #$n not selected"
		fi
	fi

	# the log, opened at its end; search back to the panic line
	keys l
	if ! wait_for 'Kernel log: [0-9]+ lines' 5; then
		fail "$label: log" "no log view"
	elif ! tail -3 "$tmp/screen" | head -1 | grep -q '^\[ *[0-9]*\.[0-9]*\] '; then
		fail "$label: log" "the view does not end with a log line"
	elif keys / K e r n e l Space p a n i c Enter &&
	     wait_for '^\[ *[0-9]*\.[0-9]*\] Kernel panic - not syncing' 3 &&
	     grep -q '^line [0-9]*' "$tmp/screen"; then
		pass "$label: log"
	elif grep -q 'log not available' "$tmp/screen"; then
		fail "$label: log" "log not available"
	else
		fail "$label: log" "no \"Kernel panic - not syncing\" line found"
	fi
	keys q

	# a mouse click (xterm X10 encoding, as tmux's TERM=screen has it)
	# on the kthreadd row selects it
	cap
	y=$(awk '$1 == "2" && $4 == "kthreadd" { print NR - 1; exit }' "$tmp/screen")
	if [ -z "$y" ]; then
		fail "$label: mouse" "no kthreadd row on the first screen"
	else
		keys -l "$(mouse_click "$y" 20)"
		if wait_for 'Frames: pid 2 \[kthreadd\]' 3; then
			pass "$label: mouse click"
		else
			fail "$label: mouse click" "kthreadd not selected"
		fi
	fi

	# search a comm (pid 2 is kthreadd on every kernel since 2.6.22)
	keys / k t h r e a d d Enter
	if wait_for 'Frames: pid 2 \[kthreadd\]' 5; then
		pass "$label: search comm"
	else
		fail "$label: search comm" "kthreadd not found"
	fi

	# state filter: only R tasks
	keys f
	if wait_for 'Threads: [0-9]+ shown, sort pid, state R' 3 &&
	   [ -z "$(sed -n '/^ *PID  CPU ST COMM/,/^ Frames:/p' "$tmp/screen" |
		   awk 'NR > 1 && !/^ Frames:/ && $1 !~ /^CPU/ && $3 != "R"')" ]; then
		pass "$label: state filter"
	else
		fail "$label: state filter" "not only R tasks shown"
	fi
	keys F

	# help, generated from the key table
	keys '?'
	if wait_for 'orccrash browser: keys' 3 && grep -q 'sort tasks by pid' "$tmp/screen" &&
	   grep -Eq '^  / +search threads' "$tmp/screen"; then
		keys Escape
		if wait_for '^ Frames: ' 3; then
			pass "$label: help"
		else
			fail "$label: help" "Esc does not leave the help"
		fi
	else
		fail "$label: help" "no help screen"
	fi

	# resize smaller and back
	T resize-window -t ui -x 80 -y 24
	sleep 0.3
	if wait_for '^ Frames: ' 3 && [ "$(wc -l <"$tmp/screen")" -eq 24 ] &&
	   head -1 "$tmp/screen" | grep -q '^orccrash' &&
	   tail -1 "$tmp/screen" | grep -q '^? help  Tab pane' &&
	   [ "$(awk '{ if (length($0) > 80) n++ } END { print n + 0 }' "$tmp/screen")" -eq 0 ]; then
		T resize-window -t ui -x 120 -y 40
		sleep 0.3
		if wait_for '^ Threads: ' 3 && [ "$(wc -l <"$tmp/screen")" -eq 40 ]; then
			pass "$label: resize"
		else
			fail "$label: resize" "not redrawn at 120x40"
		fi
	else
		fail "$label: resize" "not redrawn at 80x24"
	fi

	# quit: q leaves the registers or frames pane, then quits from the
	# threads pane
	keys Tab
	for ((i = 0; i < 3; i++)); do
		keys q
		wait_for '^EXIT=' 1 && break
	done
	if grep -q '^EXIT=0' "$tmp/screen"; then
		pass "$label: quit"
	else
		fail "$label: quit" "still running or non-zero exit"
	fi
	T kill-session -t ui 2>/dev/null
}

# The panic CPU's trace in the batch report with lines, one item a line:
# "sym+off/size" for a frame (scan entries with "? "), "name (inlined)
# FILE:LINE" for an inlined function (--active --scan --no-regs).
report_items() {
	awk '/^CPU [0-9]+ \(panic\)/ { on = 1; next } on && /^$/ { exit }
	     on && /^ [^<(]/ { sub(/^ /, ""); print }' "$1"
}

# Source lines in the browser (a hardirq dump: inlined frames on the
# panic CPU).  Cold cache (ORCCRASH_CACHE empty) and the worker's first
# lookup held back: the first screen shows without them and the keys
# work meanwhile; then they fill in, inlined rows as in the report;
# quitting writes the cache; quitting while the worker is busy does not
# wait for it.
check_lines() {
	local label=$1 vmcore=$2 vmlinux=$3 c=$tmp/cache-lines got want i ok row name fl
	local t0 t1 W=160	# a long dump path must not push the header's state off

	have_dump "$label: lines" "$vmcore" "$vmlinux" || return
	"$BIN" --active --scan --no-regs "$vmcore" "$vmlinux" >"$tmp/report-lines" 2>/dev/null
	rm -rf "$c"
	mkdir -p "$c"
	new_ui 160 "ORCCRASH_CACHE='$c' ORCCRASH_TEST_LINES_DELAY_MS=5000 '$BIN' '$vmcore' '$vmlinux'"
	: >"$tmp/screen"
	if wait_for '^ Frames: ' 10 && grep -q ', lines: loading' "$tmp/screen" &&
	   regs_col 160 | grep -q '^lines: loading$' &&
	   frames_col 160 | grep -q '^#0  ' &&
	   ! frames_col 160 | grep -q '(inlined)'; then
		pass "$label: first screen before the DWARF (cold cache): frames, \"lines: loading\""
	else
		fail "$label: first screen before the DWARF" "no frames or no \"lines: loading\""
	fi
	keys j
	if wait_for 'Registers: #1$' 2 && grep -q ', lines: loading' "$tmp/screen"; then
		pass "$label: keys work while the DWARF loads"
	else
		fail "$label: keys while loading" "j did not move to frame #1 while loading"
	fi
	keys Home
	ok=
	for ((i = 0; i < 300; i++)); do
		cap
		if ! grep -q 'lines: loading' "$tmp/screen" &&
		   frames_col 160 | grep -Eq '^#[0-9]+ .*  [^ ]+:[0-9]+ *$'; then
			ok=1
			break
		fi
		sleep 0.1
	done
	if [ -z "$ok" ]; then
		fail "$label: lines filled in" "still loading after 30 s"
	else
		pass "$label: lines filled in once the DWARF is read"
	fi
	# the frames pane against the report: frames and inlined functions
	# in the same order (names; the pane cuts file names to its width)
	got=$(frames_col 160 | sed -n '/^ Frames: /,$p' | awk '
		/^#[0-9]+ / { sub(/^#[0-9]+ +/, ""); print ($1 == "?" ? "? " $2 : $1); next }
		/^     [^ ].* \(inlined\)/ { sub(/^ +/, ""); sub(/ \(inlined\).*/, " (inlined)"); print }')
	want=$(report_items "$tmp/report-lines" | awk '
		/ \(inlined\)  / { sub(/ \(inlined\).*/, " (inlined)"); print; next }
		{ print ($1 == "?" ? "? " $2 : $1) }' | head -n "$(printf '%s\n' "$got" | grep -c .)")
	if [ -z "$got" ] || ! printf '%s\n' "$got" | grep -q '(inlined)'; then
		if grep -q '(inlined)' "$tmp/report-lines"; then
			fail "$label: inlined rows" "no inlined rows on screen; the report has some"
		else
			skip "$label: inlined rows" "the panic CPU's trace has no inlined frames"
		fi
	elif [ "$got" != "$want" ]; then
		fail "$label: inlined rows" "differ from the report: $(diff <(echo "$want") <(echo "$got") | head -8 | tr '\n' '|')"
	else
		pass "$label: frames and inlined rows as the report ($(printf '%s\n' "$got" | wc -l) rows, $(printf '%s\n' "$got" | grep -c inlined) inlined)"
	fi
	# select the first inlined row: its level's line, from the report
	row=$(frames_col 160 | awk '/^ Frames: / { on = 1; next } on && /^     [^ ].* \(inlined\)/ { print NR; exit }')
	name=$(frames_col 160 | awk -v r="$row" 'NR == r { sub(/^ +(\? )?/, ""); sub(/ .*/, ""); print }')
	fl=$(report_items "$tmp/report-lines" | awk -v n="$name" '{ sub(/^\? /, "") } $1 == n && $2 == "(inlined)" { print $3; exit }')
	if [ -n "$row" ] && [ -n "$fl" ]; then
		keys Home
		down_until 40 'regs_col 160 | grep -qF "at $fl ($name" && grep -q " (inlined)\$" "$tmp/screen"'
		if grep -Eq "Registers: #[0-9]+ $name \(inlined\)\$" "$tmp/screen" &&
		   regs_col 160 | grep -q "^at $fl ($name"; then
			pass "$label: an inlined row selected: its level, at $fl as the report"
		else
			fail "$label: inlined row details" "want \"Registers: #N $name (inlined)\" and at $fl"
		fi
	fi
	# the panic() frame's parameters and locals, as --locals prints them
	"$BIN" --active --scan --no-regs --locals "$vmcore" "$vmlinux" >"$tmp/report-locals" 2>/dev/null
	want=$(awk '/^CPU [0-9]+ \(panic\)/ { on = 1; next } on && /^$/ { exit }
		on && /^ panic\+/ { p = 1; next }
		p && /^       (param|local) / { sub(/^ +/, ""); print; next } p { exit }' "$tmp/report-locals")
	n=$(frames_col 160 | sed -n 's/^#\([0-9][0-9]*\)  *panic+.*/\1/p' | head -1)
	if [ -z "$want" ] || [ -z "$n" ]; then
		skip "$label: variables" "no panic() frame with variables (--locals) on screen"
	else
		keys Home
		down_until 40 'grep -q "Registers: #$n\$" "$tmp/screen"'
		wait_regs '^variables of panic:$' 30
		got=$(regs_col 160 | sed -n 's/^  \(param\|local\) /\1 /p' | sed 's/ *$//')
		ok=1
		[ "$(echo "$got" | wc -l)" -eq "$(echo "$want" | wc -l)" ] || ok=
		while read -r g && read -r w <&3; do
			case $w in "$g"*) ;; *) ok= ;; esac
		done <<<"$got" 3<<<"$want"
		if [ -n "$ok" ] && [ -n "$got" ]; then
			pass "$label: panic()'s $(echo "$got" | wc -l) parameters and locals as --locals prints them"
		else
			fail "$label: variables" "want: $(echo "$want" | head -3 | tr '\n' '|') got: $(echo "$got" | head -3 | tr '\n' '|')"
		fi
	fi
	# L hides the file:line column, and shows it again
	keys L
	if wait_for '^file:line in the frames pane: off' 2 &&
	   ! frames_col 160 | grep -Eq '^#[0-9]+ .*  [^ ]+:[0-9]+ *$'; then
		keys L
		pass "$label: L toggles file:line in the frames pane"
	else
		fail "$label: L" "file:line still shown"
	fi
	# quit: the cache is written (lines/<build-id>)
	keys Q
	if wait_for '^EXIT=0' 5 && [ -s "$(ls -d "$c"/lines/* 2>/dev/null | head -1)" ]; then
		pass "$label: quit writes the line cache ($(grep -c '^[0-9a-f]' "$c"/lines/* | head -1) addresses)"
	else
		fail "$label: quit and cache" "no EXIT=0 or no $c/lines/* file"
	fi
	# quit while the worker is busy (held back 60 s): no waiting for it
	rm -rf "$c"
	new_ui 160 "ORCCRASH_CACHE='$c' ORCCRASH_TEST_LINES_DELAY_MS=60000 '$BIN' '$vmcore' '$vmlinux'"
	wait_for ', lines: loading' 10
	t0=$(date +%s%N)
	keys Q
	if wait_for '^EXIT=0' 5; then
		t1=$(date +%s%N)
		pass "$label: quit while the DWARF loads: $(( (t1 - t0) / 1000000 )) ms"
	else
		fail "$label: quit while loading" "no exit within 5 s"
	fi
	# again with a real cold lookup in progress (no hold-back)
	rm -rf "$c"
	new_ui 160 "ORCCRASH_CACHE='$c' '$BIN' '$vmcore' '$vmlinux'"
	wait_for '^ Frames: ' 10
	keys Q
	if wait_for '^EXIT=0' 10; then
		pass "$label: quit at once on a cold cache"
	else
		fail "$label: quit on a cold cache" "no exit within 10 s"
	fi
	T kill-session -t ui 2>/dev/null
}

# The source view (--source DIR): a module frame's source from our own
# samples/module, or the copy make-samples keeps beside the dump's .ko
# (the .ko with --modules-dir, the dump's directory), the
# current line's text checked against the file; a vmlinux frame whose
# file the tree lacks says so; v toggles registers and source.
check_source() {
	local label=$1 vmcore=$2 vmlinux=$3 moddir src=$top/samples/module i ok
	local line text want w

	moddir=$(dirname "$vmcore")
	# the source the dump's .ko was built from, when make-samples kept it
	# (dumps made before a change of samples/module keep the old .ko); a
	# short directory of its own, so the messages naming it fit the pane
	if [ -r "$moddir/orccrash_test.c" ]; then
		src=$tmp/modsrc
		mkdir -p "$src"
		cp "$moddir/orccrash_test.c" "$src/"
	fi
	if [ ! -r "$vmcore" ] || [ ! -r "$vmlinux" ] || [ ! -r "$moddir/orccrash_test.ko" ]; then
		skip "$label: source view" "dump, vmlinux or orccrash_test.ko missing"
		return
	fi
	"$BIN" --active --modules-dir "$moddir" "$vmcore" "$vmlinux" >"$tmp/report-mod" 2>/dev/null
	# the report's line of the test module's oops function
	line=$(awk '/^CPU [0-9]+ \(panic\)/ { on = 1; next } on && /^$/ { exit }
		on && /^ orccrash_oops\+/ { sub(/.*:/, ""); print; exit }' "$tmp/report-mod")
	if [ -z "$line" ]; then
		fail "$label: source view" "no orccrash_oops frame with a line in --active --modules-dir"
		return
	fi
	new_ui 200 "'$BIN' --modules-dir '$moddir' --source '$src' '$vmcore' '$vmlinux'"
	: >"$tmp/screen"
	wait_for '^ Frames: ' 10
	# frame #0 is the kernel's (the panic path): not in samples/module
	if wait_for '^ Frames: .*\| Source: #' 5 &&
	   wait_regs200 "^source: [^ ]+ not found under $src\$" 10 &&
	   grep -q "^source: [^ ]* not found under $src" "$tmp/screen"; then
		pass "$label: a vmlinux frame's file missing from --source: said (pane and status line)"
	else
		fail "$label: missing source" "no \"source: FILE not found under $src\""
	fi
	if ! down_until 80 'regs_col 200 | grep -Eq "^#[0-9]+ orccrash_oops, line [0-9]+: "'; then
		fail "$label: module source view" "never showed orccrash_oops's source"
		return
	fi
	w=$(( 200 - 200 / 2 - 1 - 7 ))	# the pane, minus "%5u> "
	want=$(sed -n "${line}p" "$src/orccrash_test.c" | expand | cut -c1-"$w" | sed 's/ *$//')
	text=$(regs_col 200 | sed -n "s/^ *$line> //p" | sed 's/ *$//')
	if ! regs_col 200 | grep -Eq "^#[0-9]+ orccrash_oops, line $line: "; then
		fail "$label: module source view" "not at line $line (the report's)"
	elif [ -z "$want" ] || [ "$text" != "$want" ]; then
		fail "$label: module source view" "line $line reads \"$text\", the file has \"$want\""
	elif [ "$(regs_col 200 | grep -Ec '^ *[0-9]+[ >] ')" -lt 15 ]; then
		fail "$label: module source view" "fewer than 15 source lines fill the pane"
	else
		pass "$label: module frame's source (orccrash_test.c:$line, the line's text as in the file, $(regs_col 200 | grep -Ec '^ *[0-9]+[ >] ') lines shown)"
		# orccrash_oops's line is its call of orccrash_oops_deref,
		# unless the dump's .ko was built from another revision
		case $text in
		*orccrash_oops_deref\(*) ;;
		*) echo "NOTE $label: orccrash_oops's line $line reads \"$text\": the dump's orccrash_test.ko was built from another revision of samples/module/orccrash_test.c (make samples again)" ;;
		esac
	fi
	keys v
	if wait_for '\| Registers: #[0-9]+$' 3 && regs_col 200 | grep -q '^RIP '; then
		keys v
		if wait_for '\| Source: #[0-9]+$' 3; then
			pass "$label: v toggles registers and source"
		else
			fail "$label: v" "no way back to the source"
		fi
	else
		fail "$label: v" "no registers after v"
	fi
	T kill-session -t ui 2>/dev/null
}

# The source view over the kernel's own source tree, when it is cached
# (not downloaded here; see docs/browser.md):
#   ${ORCCRASH_CACHE:-~/.cache/orccrash}/src/linux-source-MAJOR.MINOR
# from Debian's linux-source-MAJOR.MINOR package of the kernel's version.
# Down the panic CPU's rows: each level's source heading and marked line,
# the line's text as in the tree; where a row is the call site of the
# inlined function on the row above, the line names that function (the
# DWARF's call_line, checked against the source itself).
check_kernel_source() {
	local label=$1 vmcore=$2 vmlinux=$3 release tree i hd fn line file text want
	local rows=0 same=0 missing=0 calls=0 named=0 prev= W=200

	release=$(basename "$(dirname "$vmlinux")")
	tree=$cache/src/linux-source-$(echo "$release" | cut -d. -f1-2)
	if [ ! -r "$tree/Makefile" ]; then
		skip "$label: kernel source view" "no $tree (apt-get download linux-source-$(echo "$release" | cut -d. -f1-2), unpacked there)"
		return
	fi
	new_ui 200 "'$BIN' --source '$tree' '$vmcore' '$vmlinux'"
	: >"$tmp/screen"
	wait_for '^ Frames: .*\| Source: #' 10
	wait_regs '^#0 ' 20
	for ((i = 0; i < 25; i++)); do
		cap
		hd=$(regs_col 200 | sed -n 's/^#[0-9][0-9]* \(.*\)$/\1/p' | head -1)
		# "FUNC[ (inlined)], line L: FILE"
		fn=$(echo "$hd" | sed -n 's/^\([^ ,]*\).*, line [0-9]*: .*/\1/p')
		line=$(echo "$hd" | sed -n 's/.*, line \([0-9]*\): .*/\1/p')
		file=$(echo "$hd" | sed -n 's/.*, line [0-9]*: \(.*\)$/\1/p')
		if [ -n "$line" ] && [ -n "$file" ]; then
			rows=$((rows + 1))
			if regs_col 200 | grep -q '^source: .* not found under '; then
				missing=$((missing + 1))
			else
				want=$(sed -n "${line}p" "$tree/$file" 2>/dev/null | expand | cut -c1-92 | sed 's/ *$//')
				text=$(regs_col 200 | sed -n "s/^ *$line> //p" | cut -c1-92 | sed 's/ *$//')
				[ -n "$text" ] && [ "$text" = "$want" ] && same=$((same + 1))
				if [ -n "$prev" ]; then
					calls=$((calls + 1))
					case $text in *"$prev"*) named=$((named + 1)) ;; esac
				fi
			fi
		fi
		# the row under the cursor is an inlined function: the next
		# row's line is its call site
		prev=
		case $hd in *" (inlined), line "*) prev=$fn ;; esac
		keys j
	done
	T kill-session -t ui 2>/dev/null
	if [ "$rows" -lt 5 ]; then
		fail "$label: kernel source view" "only $rows source headings seen"
	elif [ "$missing" -gt 0 ] || [ "$same" -ne "$rows" ]; then
		fail "$label: kernel source view" "$rows rows: $same lines as in $tree, $missing files not found"
	elif [ "$calls" -gt 0 ] && [ $((named * 2)) -lt "$calls" ]; then
		fail "$label: kernel source view" "only $named of $calls inline call sites name the inlined function"
	else
		pass "$label: kernel source view: $rows rows, every file found and its line as in $tree; $named of $calls inline call sites name the inlined function"
	fi
}

# NO_COLOR: attributes only, no colour escapes; with colours, some.
# The wait view (w): the same chains as the text report's CHAIN: and
# DEADLOCK: lines (tests/realdump/chains.sh holds those to crash and the
# kernel's sysrq-w), and Enter on a task's row shows that task's frames.
check_waits() {
	local label=$1 vmcore=$2 vmlinux=$3 want got pid n i
	"$BIN" --all-tasks "$vmcore" "$vmlinux" 2>/dev/null |
		sed -n 's/^ *\(CHAIN\|DEADLOCK\): //p' | sort >"$tmp/chains-want"
	if [ ! -s "$tmp/chains-want" ]; then
		skip "$label: wait view" "no chain in the report"
		return
	fi
	T kill-session -t ui 2>/dev/null
	T new-session -d -s ui -x 250 -y 40 "'$BIN' '$vmcore' '$vmlinux'; sleep 60"
	: >"$tmp/screen"
	wait_for '^ Threads: ' 10
	keys w
	if ! wait_for '^ Waits: [0-9]+ tasks in D, [0-9]+ chains' 10; then
		fail "$label: wait view" "w did not open it"
		return
	fi
	sed -n 's/^\(CHAIN\|DEADLOCK\): //p' "$tmp/screen" | sed 's/ *$//' | sort >"$tmp/chains-got"
	want=$(wc -l <"$tmp/chains-want"); got=$(wc -l <"$tmp/chains-got")
	if cmp -s "$tmp/chains-want" "$tmp/chains-got"; then
		pass "$label: wait view: the report's $want chains"
	else
		fail "$label: wait view" "$got chains on screen, $want in the report: $(diff "$tmp/chains-want" "$tmp/chains-got" | head -4 | tr '\n' ' ')"
		return
	fi
	# the first task row: Enter shows that task (its row's place in the
	# view: the lines after the " Waits:" title)
	pid=$(sed -n 's/^pid \([0-9][0-9]*\) .*/\1/p' "$tmp/screen" | head -n 1)
	n=$(awk '/^ Waits: / { t = NR } /^pid / { print NR - t - 1; exit }' "$tmp/screen")
	keys Home
	for ((i = 0; i < n; i++)); do keys Down; done
	key_leads_to "$label" Enter "^ Frames: pid $pid " "wait view: Enter on pid $pid shows its frames"
}

check_color() {
	local label=$1 vmcore=$2 vmlinux=$3 c0 c1

	have_dump "$label: NO_COLOR" "$vmcore" "$vmlinux" || return
	for nc in 0 1; do
		T kill-session -t ui 2>/dev/null
		if [ $nc = 1 ]; then
			T new-session -d -s ui -x 120 -y 40 "NO_COLOR=1 '$BIN' '$vmcore' '$vmlinux'; sleep 60"
		else
			T new-session -d -s ui -x 120 -y 40 "env -u NO_COLOR '$BIN' '$vmcore' '$vmlinux'; sleep 60"
		fi
		wait_for '^ Frames: ' 10
		sleep 0.3
		T capture-pane -e -p -t ui >"$tmp/screen.e"
		eval "c$nc=\$(grep -Ec $'\e''\[[0-9;]*(3[0-7]|38;5;[0-9]+)m' \"\$tmp/screen.e\")"
	done
	T kill-session -t ui 2>/dev/null
	if [ "$c1" -eq 0 ] && [ "$c0" -gt 0 ]; then
		pass "$label: NO_COLOR (colour lines: $c0 with, 0 without)"
	else
		fail "$label: NO_COLOR" "colour lines: $c0 with colours, $c1 with NO_COLOR"
	fi
}

# ':' runs a command of the command layer (orccrash -e's): its output in
# a view of its own, line for line what -e prints (tabs expanded), that
# scrolls (its last line after G), searches (/), and q leaves; a bad
# command is one error on the status line.
check_command() {
	local label=$1 vmcore=$2 vmlinux=$3 want last

	T kill-session -t ui 2>/dev/null
	T new-session -d -s ui -x 160 -y 40 "'$BIN' '$vmcore' '$vmlinux'; sleep 60"
	if ! wait_for '^ Frames: ' 20; then
		fail "$label: :" "the browser did not open"
		return
	fi
	want=$("$BIN" -e "sym schedule" "$vmcore" "$vmlinux")
	keys ':'
	keys -l 'sym schedule'
	keys Enter
	if wait_for '^ :sym schedule' 5 && grep -qF -- "$want" "$tmp/screen"; then
		pass "$label: ':sym schedule' shows what -e prints ($want)"
	else
		fail "$label: ':sym schedule'" "no view with '$want'"
	fi
	# a long output: dis of a whole function, every line as -e prints it
	"$BIN" -e "dis -f schedule+0x5" "$vmcore" "$vmlinux" | expand >"$tmp/dis.want"
	last=$(tail -n 1 "$tmp/dis.want" | sed 's/ *$//')
	keys ':'
	keys -l 'dis -f schedule+0x5'
	keys Enter
	keys G
	if wait_for '^ :dis -f schedule\+0x5' 5 && grep -qF -- "$last" "$tmp/screen" &&
	   ! grep -qF -- "$(head -n 1 "$tmp/dis.want" | sed 's/ *$//')" "$tmp/screen"; then
		pass "$label: ':dis -f schedule+0x5' scrolls to its last line ($(wc -l <"$tmp/dis.want") lines)"
	else
		fail "$label: ':dis' view" "not scrolled to '$last'"
	fi
	keys g
	if wait_for '=> 0x' 3 || { keys '/'; keys -l '=>'; keys Enter; wait_for '=> 0x' 3; }; then
		pass "$label: the marked instruction in the ':dis' view"
	else
		fail "$label: ':dis' view" "no => line"
	fi
	keys q
	if wait_for '^ Frames: ' 5; then
		pass "$label: q leaves the command's view"
	else
		fail "$label: q from ':'" "not back to the frames"
	fi
	keys ':'
	keys -l 'nosuch'
	keys Enter
	if wait_for 'nosuch: unknown command' 5 && grep -q '^ Frames: ' "$tmp/screen"; then
		pass "$label: ':nosuch' says 'nosuch: unknown command' and stays"
	else
		fail "$label: ':nosuch'" "no error on the status line"
	fi
	# with the vmlinux a command has the DWARF too (the worker's lines,
	# borrowed between its lookups): a global the BTF does not type
	# (dump-only p refuses it), and dis -l's source lines
	if [ -r "$vmlinux" ]; then
		for cmd in 'p jiffies_64' 'dis -l schedule 4'; do
			keys ':'
			keys -l "$cmd"
			keys Enter
			shows_cmd "$label" "$cmd" "':${cmd%% *}' with the vmlinux's DWARF" "" 30
			# q leaves the view; from the frames it would quit
			grep -q '^ Frames: ' "$tmp/screen" || keys q
			wait_for '^ Frames: ' 5
		done
	fi
	check_follow "$label" "$vmcore" "$vmlinux"
	check_disassemble "$label" "$vmcore" "$vmlinux"
	check_memory_struct "$label" "$vmcore" "$vmlinux"
	check_variables "$label" "$vmcore" "$vmlinux"
	T kill-session -t ui 2>/dev/null
}

# The task list is read behind the first screen (src/kernel_tasks.c, a
# thread of its own): held back (ORCCRASH_TEST_TASKS_DELAY_MS), the first
# screen has the CPUs' rows and says it reads the list; then every task
# the batch report lists is there.  A key that reads every task (s: sort)
# takes the list in at once, hold-back or not.
check_tasks_later() {
	local label=$1 vmcore=$2 vmlinux=$3 ntasks ncpus

	have_dump "$label" "$vmcore" "$vmlinux" || return
	"$BIN" --all-tasks --no-lines "$vmcore" "$vmlinux" >"$tmp/report" 2>/dev/null
	ntasks=$(sed -n 's/^ *TASKS: \([0-9]*\).*/\1/p' "$tmp/report")
	ncpus=$(sed -n 's/^ *CPUS: \([0-9]*\).*/\1/p' "$tmp/report")
	if [ -z "$ntasks" ] || [ -z "$ncpus" ]; then
		fail "$label: tasks later" "no TASKS or CPUS in the batch report"
		return
	fi
	new_ui 160 "ORCCRASH_TEST_TASKS_DELAY_MS=4000 '$BIN' '$vmcore' '$vmlinux'"
	if wait_for "^$ncpus CPUs, reading the task list, " 3 &&
	   grep -q "^ Threads: $ncpus shown" "$tmp/screen"; then
		pass "$label: the first screen before the task list: $ncpus CPU rows, 'reading the task list'"
	else
		fail "$label: tasks later" "no first screen of $ncpus CPU rows saying 'reading the task list'"
	fi
	if wait_for "^$ncpus CPUs, $ntasks tasks, " 10 &&
	   grep -q "^ Threads: $((ncpus + ntasks)) shown" "$tmp/screen"; then
		pass "$label: the task list came in: $ntasks tasks, as the batch report lists"
	else
		fail "$label: tasks later" "not the batch report's $ntasks tasks after the hold-back"
	fi
	new_ui 160 "ORCCRASH_TEST_TASKS_DELAY_MS=600000 '$BIN' '$vmcore' '$vmlinux'"
	wait_for "^$ncpus CPUs, reading the task list, " 3
	keys s
	if wait_for "^$ncpus CPUs, $ntasks tasks, " 5 && grep -q "tasks sorted by" "$tmp/screen"; then
		pass "$label: 's' takes the task list in at once ($ntasks tasks sorted)"
	else
		fail "$label: tasks later" "'s' did not sort the whole task list"
	fi
	T kill-session -t ui 2>/dev/null
}

# shows_cmd LABEL CMD WHAT [LINES] [SECONDS]: the command view of CMD is
# up (within SECONDS, default 5) and holds, line for line, the first LINES
# (default: all) of what -e CMD prints (tabs expanded, as the view does);
# PASS says WHAT
shows_cmd() {
	local label=$1 cmd=$2 what=$3 n=${4:-1000000} secs=${5:-5} title
	"$BIN" -e "$cmd" "$vmcore" "$vmlinux" | expand | head -n "$n" | sed 's/ *$//' >"$tmp/cmd.want"
	title=$(printf '%s' "$cmd" | sed 's/[][\.*^$+?(){}|]/\\&/g')
	if ! wait_for "^ :$title" "$secs"; then
		fail "$label: $what" "no ':$cmd' view"
	elif sed 's/ *$//' "$tmp/screen" | grep -vxFf - "$tmp/cmd.want" >"$tmp/missing"; then
		fail "$label: $what" "lines of -e '$cmd' not on the screen: $(head -n 3 "$tmp/missing")"
	else
		pass "$label: $what: '$cmd' as -e prints it"
	fi
}

# key_leads_to LABEL KEY REGEX WHAT [ROW]: KEY leads to a screen matching
# REGEX (and holding a line matching ROW, grep's, when given)
key_leads_to() {
	keys "$2"
	if wait_for "$3" 5 && grep -q -- "${5:-}" "$tmp/screen"; then
		pass "$1: $4"
	else
		fail "$1: $4" "no screen matching '$3'${5:+ with a line matching '$5'}"
	fi
}

# pointer following in a command's output (the browser open, in its
# frames): Enter on ':task 1's .mm row shows 'struct mm_struct ADDR' as -e
# prints it, ADDR the row's pointer; Backspace comes back to ':task 1'
# with the cursor on that row; Enter on a row that is no pointer says so
check_follow() {
	local label=$1 vmcore=$2 vmlinux=$3 mm want
	mm=$("$BIN" -e 'task 1' "$vmcore" "$vmlinux" |
		sed -n 's/^ *\.mm = (struct mm_struct \*)\(0x[0-9a-f]*\),$/\1/p')
	if [ -z "$mm" ] || [ "$mm" = 0x0 ]; then
		fail "$label: Enter on a pointer" "no .mm in -e 'task 1'"
		return
	fi
	keys ':'
	keys -l 'task 1'
	keys Enter
	keys '/'
	keys -l '.mm = '
	keys Enter
	keys Enter
	shows_cmd "$label" "struct mm_struct $mm" "Enter on ':task 1's .mm row" 20
	key_leads_to "$label" BSpace '^ :task 1' "Backspace back to ':task 1', its .mm row on the screen" \
		"^ *>\? *\.mm = (struct mm_struct \*)$mm,"
	keys g
	key_leads_to "$label" Enter 'not a pointer to a struct or union' \
		"Enter on a row that holds no pointer says so and stays" '^ :task 1'
	key_leads_to "$label" q '^ Frames: ' "q from the pointer chain's first view back to the frames"
}

# Enter on a stack word that is a kernel address outside the view: a
# prompt for its struct, then that struct as -e prints it.  The default
# sample's panic stack holds &sysrq_crash_op (drivers/tty/sysrq.c: a
# struct sysrq_key_op) a few words above the panic CPU's frame #0 sp.
check_memory_struct() {
	local label=$1 vmcore=$2 vmlinux=$3 addr row i
	addr=0x$("$BIN" -e 'sym sysrq_crash_op' "$vmcore" "$vmlinux" | awk '{ print $1 }')
	keys Home m
	if ! wait_for 'Stack memory: ' 5; then
		fail "$label: memory Enter on a kernel address" "no stack memory view"
		return
	fi
	row=$(grep -n "^ *[0-9a-f]*: ${addr#0x}  sysrq_crash_op+0x0\$" "$tmp/screen" | head -n 1 | cut -d: -f1)
	i=$(grep -n '^sp#0 ' "$tmp/screen" | head -n 1 | cut -d: -f1)
	if [ -z "$row" ] || [ -z "$i" ]; then
		skip "$label: memory Enter on a kernel address" "no &sysrq_crash_op word on the first page"
		keys q
		return
	fi
	for ((; i < row; i++)); do keys j; done
	keys Enter
	if ! wait_for "struct TYPE at $addr:" 5; then
		fail "$label: memory Enter on $addr" "no 'struct TYPE at $addr' prompt"
		keys Escape q
		return
	fi
	keys -l 'sysrq_key_op'
	keys Enter
	shows_cmd "$label" "struct sysrq_key_op $addr" "memory Enter on &sysrq_crash_op, type sysrq_key_op"
	key_leads_to "$label" q 'Stack memory: ' "q from the struct back to the stack memory"
	keys q
}

# Enter in the frame-details pane: the selected frame's variables in the
# command view, as the pane (and --locals) show them; Enter on a pointer
# to a struct among them shows it as -e prints it; Backspace back to the
# variables.  The default sample's panic CPU: frame #0 is __crash_kexec's
# inlined crash_setup_regs(), whose newregs is a struct pt_regs *.
check_variables() {
	local label=$1 vmcore=$2 vmlinux=$3 addr
	addr=$("$BIN" --locals --cpu 0 "$vmcore" "$vmlinux" 2>/dev/null |
		sed -n 's/^ *param newregs = \(0x[0-9a-f]*\) (struct pt_regs \*).*/\1/p' | head -n 1)
	if [ -z "$addr" ]; then
		skip "$label: variables view" "no newregs in --locals of CPU 0"
		return
	fi
	keys Home
	keys Tab
	if ! wait_for 'param newregs = ' 10; then
		fail "$label: variables view" "the details pane shows no newregs"
		return
	fi
	keys Enter
	if ! wait_for '^ variables and registers of frame #0' 5 || ! grep -q "param newregs = $addr (struct pt_regs \*)" "$tmp/screen"; then
		fail "$label: Enter in the details pane" "no 'variables and registers of frame #0' view with newregs = $addr"
		return
	fi
	pass "$label: Enter in the details pane: the frame's variables in a view"
	keys '/'
	keys -l 'newregs'
	keys Enter
	keys Enter
	shows_cmd "$label" "struct pt_regs $addr" "Enter on the variable newregs"
	key_leads_to "$label" BSpace '^ variables and registers of frame #0' "Backspace back to the frame's variables" \
		"param newregs = $addr"
	# its registers follow (the registers pane's rows): a register has
	# no type, so Enter on one asks for the struct at its value
	local rsp
	keys '/'
	keys -l 'RSP '
	keys Enter
	if wait_for '^ *RSP +[0-9a-f]{16}' 5; then
		rsp=$(grep -m1 -E '^ *RSP +[0-9a-f]{16}' "$tmp/screen" | awk '{ print $2 }')
		keys Enter
		if wait_for "struct TYPE at 0x$rsp:" 5; then
			keys -l 'pt_regs'
			keys Enter
			shows_cmd "$label" "struct pt_regs 0x$rsp" "Enter on the register RSP, type pt_regs"
			key_leads_to "$label" BSpace '^ variables and registers of frame #0' \
				"Backspace from a register's struct back to the variables and registers" "RSP "
		else
			fail "$label: Enter on a register" "no 'struct TYPE at 0x$rsp' prompt"
			keys Escape
		fi
	else
		fail "$label: registers in the variables view" "no RSP row after the variables"
	fi
	key_leads_to "$label" q '^ Frames: ' "q from the variables back to the main view"
	keys BTab
	# Backspace walks back, but does not quit from the threads pane
	keys BTab
	keys BSpace
	if wait_for 'q quits' 3 && grep -q '^ Threads: ' "$tmp/screen"; then
		pass "$label: Backspace in the threads pane does not quit"
	else
		fail "$label: Backspace in the threads pane" "no 'q quits', or the browser is gone"
	fi
	keys Tab
}

# d: the selected frame's function disassembled, the frame's ip marked,
# as -e 'dis -f IP' prints it; IP one of the panic CPU's frames (the
# frame selected when the browser opens)
check_disassemble() {
	local label=$1 vmcore=$2 vmlinux=$3 ip ips
	keys d
	if ! wait_for '^ :dis -f 0x[0-9a-f]+' 5; then
		fail "$label: d" "no ':dis -f IP' view"
		return
	fi
	ip=$(sed -n 's/^ :dis -f \(0x[0-9a-f]*\).*/\1/p' "$tmp/screen" | head -n 1)
	ips=$("$BIN" --json "$vmcore" "$vmlinux" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
for c in r["cpus"]:
    if c.get("panic"):
        for f in c["frames"]:
            print("0x%x" % int(f["ip"], 16))')
	if ! printf '%s\n' "$ips" | grep -qx -- "$ip"; then
		fail "$label: d" "$ip is not a frame of the panic CPU ($(echo $ips))"
	else
		shows_cmd "$label" "dis -f $ip" "d disassembles the selected frame's function" 12
	fi
	key_leads_to "$label" q '^ Frames: ' "q from d's view back to the frames"
}

if ! command -v tmux >/dev/null; then
	skip screen "tmux not installed"
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -x "$BIN" ]; then
	fail screen "no binary $BIN"
	echo "$passed passed, $failed failed"
	exit 1
fi

# a session that lives as long as the run, so that the server does not
# exit (and race with the next new-session) when a test's session ends
T new-session -d -s keep -x 20 -y 5 "sleep 100000"

ran=0
if [ -r "${ORCCRASH_INDEX:-$cache/dumps/index.tsv}" ]; then
	declare -A seen rel_seen
	SCREEN_EVERY=${SCREEN_EVERY:-'^6\.1\.0-[0-9]+-cloud-amd64$|^6\.12\.[0-9]+\+deb12-cloud-amd64$'}
	while IFS=$'\t' read -r release scenario format vmcore vmlinux kaslr; do
		[ -n "$release" ] || continue
		[[ "$release/$scenario/$format" =~ ${SCREEN_ONLY:-.} ]] || continue
		if [ -z "${SCREEN_ALL:-}" ]; then
			[ -z "${seen[$release/$scenario]:-}" ] || continue
			# a missing format falls back to the next one
			[ -r "$vmcore" ] && [ -r "$vmlinux" ] &&
				seen[$release/$scenario]=1
		fi
		# the browser is the same code on every kernel: every scenario
		# of the two Debian 12 kernels, one scenario (and the
		# scenario-specific views below) of the other generations and
		# flavours, whose models the report tiers hold to their traces
		# (CI time)
		if [ -n "${SCREEN_ALL:-}" ] || [[ "$release" =~ $SCREEN_EVERY ]] ||
		   [ -z "${rel_seen[$release]:-}" ]; then
			check_dump "$release/$scenario/$format" "$vmcore" "$vmlinux"
		fi
		rel_seen[$release]=1
		case $scenario in
		hardirq) check_lines "$release/$scenario/$format" "$vmcore" "$vmlinux"
			check_kernel_source "$release/$scenario/$format" "$vmcore" "$vmlinux" ;;
		mod-oops) check_source "$release/$scenario/$format" "$vmcore" "$vmlinux" ;;
		mod-blocked | mod-deadlock | mod-locks) check_waits "$release/$scenario/$format" "$vmcore" "$vmlinux" ;;
		esac
		if [ "$ran" -eq 0 ]; then
			check_color "$release/$scenario/$format" "$vmcore" "$vmlinux"
		fi
		ran=$((ran + 1))
	done <"${ORCCRASH_INDEX:-$cache/dumps/index.tsv}"
fi
if [ -r "$top/samples/default/vmcore" ]; then
	# its vmlinux is not committed: make samples extracts it to the cache
	vml=$top/samples/default/vmlinux
	rel=$(sed -n 's/^release=//p' "$top/samples/default/README" \
		"$top/samples/default/kernel.txt" 2>/dev/null | head -1)
	[ -r "$vml" ] || vml=$cache/kernels/$rel/vmlinux
	check_dump "samples/default" "$top/samples/default/vmcore" "${vml:-missing}"
	check_command "samples/default" "$top/samples/default/vmcore" "${vml:-missing}"
	check_tasks_later "samples/default" "$top/samples/default/vmcore" "${vml:-missing}"
	ran=$((ran + 1))
fi
# the bench's large dumps (10,000 tasks; make bench-large), where made,
# as tests/lib.sh's tst_each_large selects them, and by SCREEN_ONLY
large_tasks_later() {
	[[ $1 =~ ${SCREEN_ONLY:-} ]] || return 0
	check_tasks_later "$@"
	ran=$((ran + 1))
}
tst_each_large large_tasks_later
[ "$ran" -gt 0 ] || skip screen "no sample dump (make samples)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
