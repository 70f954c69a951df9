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
# drops the test module's frame after panic (mod-blocked, mod-timer,
# kdump-timer) and
# lists stale return addresses the kernel marks "?" (process, kdump-real).
# On a real kdump both agree from panic() on (orccrash walks out of
# __crash_kexec(), which has no ORC data, by its CFI or a verified call
# site) and on the stopped CPU's NMI frames.
set -u
# tst_init, tst_tally, tst_crash_stopped_before
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init crash "${1:-build}"
tst_tally
so=$O/orccrash.so
echo_so=${CRASH_ECHO_SO:-/usr/lib/crash/extensions/echo.so}
pyd=/usr/bin/python3	# Debian's, with python3-jsonschema
[ -x "$pyd" ] || pyd=python3

drv=$O/tests/crash-cmds
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
	say "SKIP crash-cmds: $O/tests/crash-cmds not built (make check-crash)"
fi
if [ ! -x "$bin" ]; then
	say "FAIL crash extension: $bin not built"
	tst_finish
fi
if [ $use_crash -eq 0 ] && [ -z "$drv" ]; then
	tst_finish
fi
if [ ! -s "$index" ]; then
	say "SKIP crash extension: no sample dumps ($index); run make samples"
	tst_finish
fi

n=0
while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	case $fmt in kdump|kdump-real) ;; *) continue ;; esac
	[ -n "$rel" ] && [ -r "$core" ] && [ -r "$vml" ] || continue
	n=$((n + 1))
	name="crash $rel/$scen/$fmt"
	# ORCCRASH_CRASH_FILTER: a regex on "release/scenario/format"
	[[ "$rel/$scen/$fmt" =~ ${ORCCRASH_CRASH_FILTER:-.} ]] || continue
	if tst_crash_stopped_before "$core"; then
		say "SKIP $name: crash $(crash --version 2>/dev/null | awk '/^crash /{print $2; exit}') cannot open this dump (as recorded in $(dirname "$core")/ref/crash-ps.txt): $(grep -m1 -E '^(crash: |# not run: )' "$(dirname "$core")/ref/crash-ps.txt" | head -c 200)"
		continue
	fi
	d=$tmp/$n
	mkdir -p "$d"
	if [ -z "${first_core:-}" ]; then
		first_core=$core first_vml=$vml first_d=$d first_name=$rel/$scen/$fmt
	fi

	# The batch reports to compare with (source lines on, as in orcbt).
	if ! tst_report "$d/all.txt" "$d/err" --all-tasks "$core" "$vml"; then
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
	"$bin" --active "$core" "$vml" >"$d/active.txt" 2>/dev/null
	"$bin" --active --no-regs "$core" "$vml" >"$d/active-noregs.txt" 2>/dev/null
	"$bin" --active --no-lines "$core" "$vml" >"$d/active-nolines.txt" 2>/dev/null
	"$bin" --scan --pid "$panic_pid" "$core" "$vml" >"$d/scan.txt" 2>/dev/null
	"$bin" --json --pid "$panic_pid" "$core" "$vml" >"$d/pid.json" 2>/dev/null
	# several tasks, in the order given: the highest pid, then init
	newest=$(sed -n '/^Tasks:/,$ s/^PID: \([0-9]*\) .*/\1/p' "$d/all.txt" | sort -n | tail -n 1)
	echo "$newest" >"$d/last"
	"$bin" --json --pid "$newest" --pid 1 "$core" "$vml" >"$d/pids.json" 2>/dev/null
	# module frames' lines: the test module's .ko is in the dump's directory
	moddir=
	if [ -r "$(dirname "$core")/orccrash_test.ko" ]; then
		moddir=$(dirname "$core")
		"$bin" --active --modules-dir "$moddir" "$core" "$vml" >"$d/active-mods.txt" 2>/dev/null
	fi
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
		printf 'a-nolines\torcbt -a -r -L\n'
		printf 'c0\torcbt -c 0 -r\n'
		for p in $pids; do
			printf 'pid-%s\torcbt -r %s\n' "$p" "$p"
		done
		printf 't\torcbt -t -r\n'
		printf 'scan\torcbt -s -r %s\n' "$panic_task"
		printf 'json\torcbt -j %s\n' "$panic_task"
		printf 'json2\torcbt -j %s 1\n' "$newest"
		printf 'alljson\torcbt -t -s --json\n'
		printf 'stack\torcstack\n'
		printf 'stackmap\torcstack -c %s\n' "$panic_cpu"
		if [ -n "$task_rsp" ]; then
			printf 'stack-task\torcstack %s\n' "$task_rsp"
		fi
		# --modules-dir stays for the session: last of the traces
		if [ -n "$moddir" ]; then
			printf 'a-mods\torcbt -a -r --modules-dir %s\n' "$moddir"
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

	# the vmlinux's mappings in crash (gdb maps it too): one more once
	# orccrash's model is open, another once the DWARF is
	maps="!grep -c -F '$(readlink -f "$vml")' /proc/\$PPID/maps"
	{
		echo "set scroll off"
		echo "extend $echo_so"
		echo "echo @@@ maps-before"
		echo "$maps"
		echo "extend $so"
		echo "echo @@@ maps-extend"
		echo "$maps"
		echo "echo @@@ nolines-first"
		echo "orcbt -a -r --no-lines"
		echo "echo @@@ maps-nolines"
		echo "$maps"
		while IFS=$'\t' read -r sec cmd; do
			echo "echo @@@ $sec"
			echo "$cmd"
			if [ "$sec" = cur ]; then
				echo "echo @@@ maps-lines"
				echo "$maps"
			fi
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
	mkdir -p "$d/cache"
	ORCCRASH_CACHE=$d/cache timeout 600 crash -s -i "$d/crash.cmd" "$vml" "$core" </dev/null >"$d/crash.out" 2>&1
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
	# orcbt's JSON (-t -s -j; -j PID is checked equal to pid.json) and
	# orccrash's, against docs/json-schema.json
	jsons=("$d/pid.json")
	[ -s "$d/orcbt-all.json" ] && jsons+=("$d/orcbt-all.json")
	"$pyd" "$top/tests/json/validate.py" "$name" "${jsons[@]}" | tee -a "$results"

	# the line cache orccrash.so wrote when crash exited is the batch
	# tool's: it finds every line of --all-tasks there (adds nothing)
	set -- "$d"/cache/lines/*
	if [ $# -ne 1 ] || [ ! -s "$1" ]; then
		say "FAIL $name: crash left no line cache in ORCCRASH_CACHE/lines ($(ls "$d/cache/lines" 2>&1 | head -c 200))"
	else
		cp "$1" "$d/cache.crash"
		ORCCRASH_CACHE=$d/cache "$bin" --all-tasks "$core" "$vml" >"$d/all-cached.txt" 2>/dev/null
		if ! cmp -s "$d/all-cached.txt" "$d/all.txt"; then
			say "FAIL $name: --all-tasks over the cache orcbt wrote differs from --all-tasks"
		elif ! cmp -s "$1" "$d/cache.crash"; then
			say "FAIL $name: --all-tasks added to the cache orcbt wrote (orcbt -t missed lines?)"
		else
			say "PASS $name: crash wrote the line cache at exit ($(grep -c '^[0-9a-f]' "$1") addresses); --all-tasks finds every line in it"
		fi
	fi
done <"$index"

if [ $n -eq 0 ]; then
	say "SKIP crash extension: no kdump-format sample in $index"
fi

# A vmlinux without DWARF: the traces without lines and one message; the
# same vmlinux with the DWARF as crash's separate debuginfo file
# (crash-cmds --debuginfo, as pc->namelist_debug): the lines again.
if [ -n "$drv" ] && [ -n "${first_core:-}" ] && command -v objcopy >/dev/null &&
   objcopy --strip-debug "$first_vml" "$tmp/vmlinux.stripped" 2>/dev/null; then
	name="crash-cmds $first_name"
	ORCCRASH_CACHE=$tmp/cache-stripped "$drv" "$first_core" "$tmp/vmlinux.stripped" bt -a -r >"$tmp/stripped.out" 2>&1
	ORCCRASH_CACHE=$tmp/cache-stripped "$drv" "$first_core" "$tmp/vmlinux.stripped" \
		--debuginfo "$first_vml" bt -a -r >"$tmp/debuginfo.out" 2>&1
	nmsg=$(grep -c '^orcbt: source lines unavailable: .*no DWARF' "$tmp/stripped.out")
	if [ "$nmsg" -eq 1 ] &&
	   [ "$(grep -v '^orcbt: ' "$tmp/stripped.out")" = "$(cat "$first_d/active-nolines.txt" |
		sed -n '/^CPU [0-9]/,$p')" ]; then
		say "PASS $name: a stripped vmlinux: the traces of --no-lines and one \"source lines unavailable\""
	else
		say "FAIL $name: a stripped vmlinux: $nmsg messages, or traces unlike --active --no-lines: $(head -c 300 "$tmp/stripped.out")"
	fi
	if [ "$(cat "$tmp/debuginfo.out")" = "$(sed -n '/^CPU [0-9]/,$p' "$first_d/active.txt")" ]; then
		say "PASS $name: a stripped vmlinux with the DWARF as the separate debuginfo file: the lines of --active"
	else
		say "FAIL $name: stripped vmlinux + debuginfo: differs from --active: $(diff "$tmp/debuginfo.out" <(sed -n '/^CPU [0-9]/,$p' "$first_d/active.txt") | head -c 400)"
	fi
fi
tst_finish
