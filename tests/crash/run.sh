#!/bin/bash
# orccrash.so inside Debian's crash, non-interactively, on the real sample
# dumps: `crash -s -i CMDFILE VMLINUX VMCORE` with `extend orccrash.so`,
# then orcbt (-a, -t, pids, -s, -j), orcstack, error paths and help; the
# output is checked block for block against orccrash's own batch report of
# the same dump, and orcbt's JSON against the kernel's own traces
# (ref/kernel.txt) with tests/realdump/compare.py.  PASS/FAIL/SKIP/NOTE
# lines, then "N passed, N failed".
#
# The same commands also run without crash through build/tests/crash-cmds
# (tests/crash/cmdsdrv.c: src/crash/cmds.c over orccrash's own dump
# reader): its output is checked the same way and must equal crash's, and
# it is what runs under `make check-asan`, whose orccrash.so crash cannot
# load.
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
# clear_user_rep_good -> read_zero -> vfs_read -> ksys_read; crash's bt
# drops the test module's frame after panic (mod-blocked, mod-timer) and
# lists stale return addresses the kernel marks "?" (process, kdump-real).
# crash's bt does better on a real kdump's panic CPU, whose registers are
# saved in __crash_kexec() without ORC data: orccrash resynchronises past
# it and marks the trace unreliable.
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

drv=$ob/tests/crash-cmds
[ -x "$drv" ] || drv=
use_crash=1
if ! command -v crash >/dev/null 2>&1; then
	say "SKIP crash extension: crash is not installed (apt-get install crash)"
	use_crash=0
elif [ ! -r "$echo_so" ]; then
	say "SKIP crash extension: no $echo_so (crash's example extension, used for section markers)"
	use_crash=0
elif [ ! -r "$so" ]; then
	say "FAIL crash extension: $so not built (make crash-extension)"
	use_crash=0
elif nm -D --undefined-only "$so" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
	# make check-asan: crash is not built with the sanitizer runtime.
	say "SKIP crash extension: $so is a sanitizer build; crash cannot load it (crash-cmds runs instead)"
	use_crash=0
fi
if [ -z "$drv" ]; then
	say "SKIP crash-cmds: $ob/tests/crash-cmds not built (make check-crash)"
fi
if [ ! -x "$bin" ]; then
	say "FAIL crash extension: $bin not built"
	finish
fi
if [ $use_crash -eq 0 ] && [ -z "$drv" ]; then
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
	"$bin" --no-lines --all-tasks "$core" "$vml" >"$d/all.txt" 2>"$d/err"
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
	panic_cpu=$(sed -n 's/^CPU \([0-9]*\) (panic): .*/\1/p' "$d/all.txt")
	echo "$panic_pid $panic_task $panic_cpu" >"$d/panic_pid"
	# A few pids: init, kthreadd, the panic task, the newest task.
	last=$(sed -n '/^Tasks:/,$ s/^PID: \([0-9]*\) .*/\1/p' "$d/all.txt" | tail -n 1)
	pids=$(printf '%s\n' 1 2 "$panic_pid" "$last" | awk '!seen[$0]++' | tr '\n' ' ')
	echo "$pids" >"$d/pids"
	"$bin" --no-lines --active "$core" "$vml" >"$d/active.txt" 2>/dev/null
	"$bin" --no-lines --active --no-regs "$core" "$vml" >"$d/active-noregs.txt" 2>/dev/null
	"$bin" --no-lines --scan --pid "$panic_pid" "$core" "$vml" >"$d/scan.txt" 2>/dev/null
	"$bin" --no-lines --json --pid "$panic_pid" "$core" "$vml" >"$d/pid.json" 2>/dev/null
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

	# The orccrash commands, one section each: "SECTION<TAB>COMMAND".
	{
		printf 'cur\torcbt -r\n'
		printf 'a-r\torcbt -a -r\n'
		printf 'a\torcbt -a\n'
		printf 'c0\torcbt -c 0 -r\n'
		for p in $pids; do
			printf 'pid-%s\torcbt -r %s\n' "$p" "$p"
		done
		printf 't\torcbt -t -r\n'
		printf 'scan\torcbt -s -r %s\n' "$panic_task"
		printf 'json\torcbt -j %s\n' "$panic_task"
		printf 'alljson\torcbt -t -s --json\n'
		printf 'stack\torcstack\n'
		printf 'stackmap\torcstack -c %s\n' "$panic_cpu"
		if [ -n "$task_rsp" ]; then
			printf 'stack-task\torcstack %s\n' "$task_rsp"
		fi
		printf 'badcpu\torcbt -c 99\n'
		printf 'badpid\torcbt 99999\n'
	} >"$d/cmds"

	if [ -n "$drv" ]; then
		while IFS=$'\t' read -r sec cmd; do
			echo "@@@ $sec"
			set -- $cmd
			case $1 in
			orcbt) shift; "$drv" "$core" "$vml" bt "$@" ;;
			orcstack) shift; "$drv" "$core" "$vml" stack "$@" ;;
			esac
		done <"$d/cmds" >"$d/drv.out" 2>&1
		echo "@@@ badpid-after" >>"$d/drv.out"
		echo "@@@ end" >>"$d/drv.out"
		python3 "$here/check.py" "crash-cmds $rel/$scen/$fmt" "$d" drv.out | tee -a "$results"
	fi
	[ $use_crash -eq 1 ] || continue

	{
		echo "set scroll off"
		echo "extend $echo_so"
		echo "extend $so"
		while IFS=$'\t' read -r sec cmd; do
			echo "echo @@@ $sec"
			echo "$cmd"
		done <"$d/cmds"
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
	python3 "$here/check.py" "$name" "$d" crash.out | tee -a "$results"
done <"$index"

if [ $n -eq 0 ]; then
	say "SKIP crash extension: no kdump-format sample in $index"
fi
finish
