#!/bin/bash
# orccrash.so inside Debian's crash, non-interactively, on the real sample
# dumps: `crash -s -i CMDFILE VMLINUX VMCORE` with `extend orccrash.so`,
# then orcbt (-a, -t, pids, -s, -j), orcstack, error paths and help; the
# output is checked block for block against orccrash's own batch report of
# the same dump, and orcbt's JSON against the kernel's own traces
# (ref/kernel.txt) with tests/realdump/compare.py.  PASS/FAIL/SKIP/NOTE
# lines, then "N passed, N failed".
#
# Only the kdump-compressed samples: crash 8.0.2 reads them best (on the
# QEMU ELF dumps it stops at "active task not found in PID hash" and
# cannot read the exception stacks), and it cannot open 6.12 kernels at
# all: a dump crash cannot open is a SKIP naming crash's error.
#
# Where crash's own bt disagrees with the kernel (NOTE lines, from
# check.py; see docs/crash-extension.md): on the 6.1 samples crash 8.0.2
# finds only the active tasks (its PID hash walk fails), so `bt PID` of a
# sleeping task is impossible while `orcbt PID` works from orccrash's own
# task list; and on a panic taken in an interrupt (hardirq) crash's bt
# prints a bogus exception frame ("exception RIP: unknown or invalid
# address") and stale return addresses as frames after the IRQ stack,
# where the kernel's trace and orcbt both go asm_common_interrupt ->
# clear_user_rep_good -> read_zero -> vfs_read -> ksys_read.
set -u
O=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case $O in /*) ob=$O ;; *) ob=$top/$O ;; esac
so=$ob/orccrash.so
bin=$ob/orccrash
cache=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
index=$cache/dumps/index.tsv
echo_so=${CRASH_ECHO_SO:-/usr/lib/crash/extensions/echo.so}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=$tmp/results
: >"$results"

say() { echo "$*" | tee -a "$results"; }
finish() {
	local p f
	p=$(grep -c '^PASS ' "$results")
	f=$(grep -c '^FAIL ' "$results")
	echo "$p passed, $f failed"
	[ "$f" -eq 0 ]
	exit
}

if ! command -v crash >/dev/null 2>&1; then
	say "SKIP crash extension: crash is not installed (apt-get install crash)"
	finish
fi
if [ ! -r "$echo_so" ]; then
	say "SKIP crash extension: no $echo_so (crash's example extension, used for section markers)"
	finish
fi
if [ ! -r "$so" ] || [ ! -x "$bin" ]; then
	say "FAIL crash extension: $so or $bin not built (make crash-extension)"
	finish
fi
# A sanitizer build (make check-asan) cannot be loaded into crash, which
# is not built with the sanitizer runtime.
if nm -D --undefined-only "$so" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
	say "SKIP crash extension: $so is a sanitizer build; crash cannot load it"
	finish
fi
if [ ! -s "$index" ]; then
	say "SKIP crash extension: no sample dumps ($index); run make samples"
	finish
fi

n=0
while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	case $fmt in kdump|kdump-real) ;; *) continue ;; esac
	[ -n "$rel" ] && [ -r "$core" ] && [ -r "$vml" ] || continue
	n=$((n + 1))
	name="crash $rel/$scen/$fmt"
	# ORCCRASH_CRASH_FILTER: a regex on "release/scenario/format"
	[[ "$rel/$scen/$fmt" =~ ${ORCCRASH_CRASH_FILTER:-.} ]] || continue
	d=$tmp/$n
	mkdir -p "$d"

	# The batch reports to compare with.
	"$bin" --all-tasks "$core" "$vml" >"$d/all.txt" 2>"$d/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		say "FAIL $name: orccrash --all-tasks exited $rc: $(head -c 300 "$d/err")"
		continue
	fi
	panic_pid=$(sed -n 's/^ *PANIC: CPU [0-9]*, PID \([0-9]*\) .*/\1/p' "$d/all.txt")
	if [ -z "$panic_pid" ]; then
		say "SKIP $name: no panic task in the dump"
		continue
	fi
	# pid 0 is one idle task per CPU: the panic task is named by address.
	panic_task=$(sed -n 's/^CPU [0-9]* (panic): PID: .* TASK: \([0-9a-f]*\).*/\1/p' "$d/all.txt")
	if [ -z "$panic_task" ]; then
		say "FAIL $name: orccrash --all-tasks names no panic CPU task"
		continue
	fi
	echo "$panic_pid $panic_task" >"$d/panic_pid"
	# A few pids: init, kthreadd, the panic task, the newest task.
	last=$(sed -n '/^Tasks:/,$ s/^PID: \([0-9]*\) .*/\1/p' "$d/all.txt" | tail -n 1)
	pids=$(printf '%s\n' 1 2 "$panic_pid" "$last" | awk '!seen[$0]++' | tr '\n' ' ')
	echo "$pids" >"$d/pids"
	"$bin" --active "$core" "$vml" >"$d/active.txt" 2>/dev/null
	"$bin" --active --no-regs "$core" "$vml" >"$d/active-noregs.txt" 2>/dev/null
	"$bin" --scan --pid "$panic_pid" "$core" "$vml" >"$d/scan.txt" 2>/dev/null
	"$bin" --json --pid "$panic_pid" "$core" "$vml" >"$d/pid.json" 2>/dev/null
	ref=$(dirname "$core")/ref/kernel.txt
	if [ -s "$ref" ]; then cp "$ref" "$d/ref.txt"; else : >"$d/ref.txt"; fi
	# A kernel-mode pt_regs RSP inside the panic task's <TASK> part.
	task_rsp=$(awk -v t="$panic_task" '
		/^Tasks:/ { tasks = 1 }
		tasks && /^PID: / { mine = index($0, "TASK: " t) > 0 }
		tasks && mine && /^ <[^\/]/ { in_task = ($1 == "<TASK>") }
		tasks && mine && /^ <\// { in_task = 0 }
		tasks && mine && in_task && /RSP: 0018:/ { split($2, a, ":"); print a[2]; exit }
	' "$d/all.txt")

	{
		echo "set scroll off"
		echo "extend $echo_so"
		echo "extend $so"
		echo "echo @@@ cur"
		echo "orcbt -r"
		echo "echo @@@ a-r"
		echo "orcbt -a -r"
		echo "echo @@@ a"
		echo "orcbt -a"
		for p in $pids; do
			echo "echo @@@ pid-$p"
			echo "orcbt -r $p"
		done
		echo "echo @@@ t"
		echo "orcbt -t -r"
		echo "echo @@@ scan"
		echo "orcbt -s -r $panic_task"
		echo "echo @@@ json"
		echo "orcbt -j $panic_task"
		echo "echo @@@ alljson"
		echo "orcbt -t -s --json"
		echo "echo @@@ stack"
		echo "orcstack"
		if [ -n "$task_rsp" ]; then
			echo "echo @@@ stack-task"
			echo "orcstack $task_rsp"
		fi
		echo "echo @@@ badpid"
		echo "orcbt 99999"
		echo "echo @@@ badpid-after"
		echo "echo @@@ browse"
		echo "orcbrowse"
		echo "echo @@@ help"
		echo "help orcbt"
		echo "echo @@@ crashbt"
		echo "bt"
		echo "echo @@@ end"
		echo "quit"
	} >"$d/crash.cmd"
	timeout 600 crash -s -i "$d/crash.cmd" "$vml" "$core" </dev/null >"$d/crash.out" 2>&1
	rc=$?
	if ! grep -q 'orccrash.so: shared object loaded\|^extend: ' "$d/crash.out"; then
		# crash did not get as far as its command loop.
		why=$(grep -m 1 -E 'invalid structure|cannot|not supported' "$d/crash.out")
		[ -n "$why" ] || why=$(grep -v -e '^$' -e 'error trace' "$d/crash.out" | tail -n 1)
		[ -n "$why" ] || why="it exits without a message"
		say "SKIP $name: crash $(crash --version 2>/dev/null | awk '/^crash /{print $2; exit}') cannot open this dump (exit $rc): ${why:0:200}"
		continue
	fi
	python3 "$here/check.py" "$name" "$d" | tee -a "$results"
done <"$index"

if [ $n -eq 0 ]; then
	say "SKIP crash extension: no kdump-format sample in $index"
fi
finish
