#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Corrupt dumps: orccrash on damaged copies of the real samples must end
# with a clear one-line error naming the file (exit 1) or a report marked
# unreliable with a reason (exit 3) -- never a signal, never a hang
# (docs/orccrash.1, docs/hardening.md).
#   tests/corrupt/run.sh [BUILD_DIR]
# Uses samples/default/vmcore (committed) and, when the sample cache has
# them, a 6.1 ELF dump, its flattened twin and both vmlinux files
# (${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv).  Works on copies
# in a temp dir; prints PASS/FAIL/SKIP lines and "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
O=$(cd "${1:-$root/build}" && pwd)
BIN=$O/orccrash
DUMPCAT=$O/tests/dumpcat
PATCH="python3 $here/patch.py"
cache=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
passed=0 failed=0 skipped=0
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/orccrash-corrupt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# an ASan build (make check-asan): libkdumpfile's own leaks are not ours
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
skip() { echo "SKIP $1"; skipped=$((skipped + 1)); }

# expect NAME CODES FILE -- ARGS...: run orccrash ARGS under timeout 60.
# CODES: the allowed exit codes ("1", "1 3", ...).  Exit 1 needs its last
# stderr line to name FILE; exit 3 needs "unreliable" in the report.
expect() {
	local name=$1 codes=$2 file=$3 rc line
	shift 4
	timeout 60 "$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	line=$(grep . "$tmp/err" | tail -n 1)
	if [ $rc -eq 124 ]; then
		fail "$name: hung (killed after 60 s)"; return
	elif [ $rc -ge 128 ]; then
		fail "$name: killed by signal $((rc - 128)): $(tail -n 3 "$tmp/err" | tr '\n' ' ')"; return
	elif ! [[ " $codes " == *" $rc "* ]]; then
		fail "$name: exit $rc, wanted $codes: ${line:-(no message)}"; return
	fi
	case $rc in
	1)
		if [[ "$line" != *"$(basename "$file")"* ]]; then
			fail "$name: exit 1 but the error does not name $(basename "$file"): $line"; return
		fi
		if [ "$(grep -c . "$tmp/err")" -ne 1 ]; then
			fail "$name: exit 1 with $(grep -c . "$tmp/err") lines on stderr, not one: $(head -n 3 "$tmp/err" | tr '\n' '|')"; return
		fi
		;;
	3)
		if ! grep -q unreliable "$tmp/out"; then
			fail "$name: exit 3 but no trace is marked unreliable"; return
		fi
		line=$(grep -m1 -o 'WARNING: .*' "$tmp/out" || grep -m1 -o 'unreliable: [^)]*' "$tmp/out")
		;;
	esac
	pass "$name (exit $rc: ${line:-ok})"
}

if [ ! -x "$BIN" ] || [ ! -x "$DUMPCAT" ]; then
	skip "corrupt: build $BIN and $DUMPCAT first (make all, make test's drivers)"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# --- kdump-compressed: the committed default sample (no vmlinux needed) ---
K=$root/samples/default/vmcore
if [ -r "$K" ]; then
	read -r koff ksize < <($PATCH kdump-notes "$K")
	ksz=$(stat -c %s "$K")
	for cut in "header:2000" "notes:$((koff + ksize / 2))" \
		   "mid-page:$((ksz / 2 + 2048))" "last-page:$((ksz - 3000))"; do
		c=$tmp/kdump-cut-${cut%%:*}.vmcore
		head -c "${cut#*:}" "$K" >"$c"
		expect "kdump truncated in the ${cut%%:*} (${cut#*:} bytes)" "1 3" "$c" -- --all-tasks "$c"
		rm -f "$c"
		# past the header: the size the page descriptors need is known
		case ${cut%%:*} in header|notes) continue ;; esac
		if grep -q "the dump is truncated: ${cut#*:} of $ksz bytes" "$tmp/err" "$tmp/out"; then
			pass "kdump truncated in the ${cut%%:*}: says so ($ksz bytes needed)"
		else
			fail "kdump truncated in the ${cut%%:*}: no \"the dump is truncated: ${cut#*:} of $ksz bytes\": $(grep . "$tmp/err" | tail -n 1)"
		fi
	done
	# cut short while orccrash has it open (it reads the file through
	# mmap(2): the read past the new end is a SIGBUS, which must be one
	# line naming the file, exit 1): a shell asked for pages after the cut
	c=$tmp/kdump-cut-later.vmcore
	cp "$K" "$c"
	mkfifo "$tmp/in"
	timeout 60 "$BIN" --shell "$c" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	exec 9>"$tmp/in"
	echo 'rd -p 0x1000' >&9
	for _ in $(seq 300); do grep -q '^1000:' "$tmp/out" && break; sleep 0.1; done
	truncate -s 4096 "$c"
	for s in modprobe_path core_pattern init_uts_ns jiffies_64 linux_banner; do
		(echo "rd -64 $s 4" >&9) 2>/dev/null
	done
	exec 9>&-
	wait "$pid"
	rc=$?
	line=$(grep . "$tmp/err" | tail -n 1)
	if [ $rc -eq 1 ] && [ "$(grep -c . "$tmp/err")" -eq 1 ] &&
	   [[ "$line" == "orccrash: $c: cut short or unreadable while orccrash read it (SIGBUS at offset 0x"* ]]; then
		pass "kdump cut short while open: $line"
	else
		fail "kdump cut short while open: exit $rc: $(head -n 3 "$tmp/err" | tr '\n' '|')"
	fi
	rm -f "$c" "$tmp/in"
	c=$tmp/kdump-incomplete.vmcore
	cp "$K" "$c"
	# disk_dump_header.status |= DUMP_DH_COMPRESSED_INCOMPLETE
	$PATCH or32 "$c" 424 0x8
	expect "kdump marked incomplete by makedumpfile" "3" "$c" -- --all-tasks "$c"
	if grep -q "WARNING: makedumpfile marked the dump incomplete" "$tmp/out"; then
		pass "kdump marked incomplete: a WARNING says so"
	else
		fail "kdump marked incomplete: no WARNING"
	fi
	rm -f "$c"
	c=$tmp/kdump-bitmap.vmcore
	cp "$K" "$c"
	# the first page bitmap: right after the sub-header and notes
	$PATCH xor "$c" $((koff + ksize + 4096)) 4096
	expect "kdump with a garbled page bitmap" "0 1 3" "$c" -- --all-tasks "$c"
	rm -f "$c"
else
	skip "kdump: no samples/default/vmcore"
fi

# --- what is not a regular file: a FIFO (with no writer: open() would
# block), a directory, /dev/zero, a pipe; as VMCORE, VMLINUX and the
# orc-dump argument.  One line naming it, at once (docs/hardening.md). ---
mkfifo "$tmp/fifo" && mkdir "$tmp/dir"
# notfile NAME WHAT FILE ARGS...: exit 1 within 10 s, one stderr line
# naming FILE and saying WHAT it is
notfile() {
	local name=$1 what=$2 file=$3 rc line
	shift 3
	timeout 10 "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	line=$(grep . "$tmp/err" | tail -n 1)
	if [ $rc -eq 124 ]; then
		fail "$name: blocked (killed after 10 s)"
	elif [ $rc -ne 1 ] || [ "$(grep -c . "$tmp/err")" -ne 1 ]; then
		fail "$name: exit $rc, stderr: $(head -n 2 "$tmp/err" | tr '\n' '|')"
	elif [[ "$line" != *"$file: $what, not a regular file"* ]]; then
		fail "$name: does not say \"$file: $what, not a regular file\": $line"
	else
		pass "$name ($line)"
	fi
}
notfile "FIFO as VMCORE" "a pipe (FIFO)" "$tmp/fifo" --active "$tmp/fifo"
notfile "directory as VMCORE" "a directory" "$tmp/dir" --active "$tmp/dir"
notfile "/dev/zero as VMCORE" "a character device" /dev/zero --active /dev/zero
notfile "FIFO as orc-dump FILE" "a pipe (FIFO)" "$tmp/fifo" orc-dump "$tmp/fifo"
notfile "directory as orc-dump FILE" "a directory" "$tmp/dir" orc-dump "$tmp/dir"
if [ -r "$K" ]; then
	notfile "FIFO as VMLINUX" "a pipe (FIFO)" "$tmp/fifo" --active "$K" "$tmp/fifo"
	notfile "directory as VMLINUX" "a directory" "$tmp/dir" --active "$K" "$tmp/dir"
	notfile "/dev/zero as VMLINUX" "a character device" /dev/zero --active "$K" /dev/zero
	# a pipe from the shell: /dev/fd/N
	timeout 10 "$BIN" --active <(cat "$K") >"$tmp/out" 2>"$tmp/err"
	if [ $? -eq 1 ] && grep -q '/dev/fd/[0-9]*: a pipe (FIFO), not a regular file' "$tmp/err"; then
		pass "a pipe as VMCORE: $(cat "$tmp/err")"
	else
		fail "a pipe as VMCORE: $(head -n 2 "$tmp/err" | tr '\n' '|')"
	fi
fi
rm -rf "$tmp/fifo" "$tmp/dir"

# --- the sample cache: a 6.1 ELF dump and its vmlinux ---
index=${ORCCRASH_INDEX:-$cache/dumps/index.tsv}
pick() {	# pick RELEASE_PREFIX FORMAT -> "vmcore vmlinux" of the first readable one
	[ -r "$index" ] || return 1
	awk -F'\t' -v r="$1" -v f="$2" 'index($1, r) == 1 && $3 == f { print $4 "\t" $5 }' "$index" |
	while IFS=$'\t' read -r d v; do
		if [ -r "$d" ] && [ -r "$v" ]; then echo "$d	$v"; break; fi
	done
}
IFS=$'\t' read -r E V < <(pick 6.1. elf) || true
IFS=$'\t' read -r F _ < <(pick 6.1. flat) || true
IFS=$'\t' read -r _ V12 < <(pick 6.12. elf) || true
if [ -z "${E:-}" ]; then
	skip "ELF dump cases: no 6.1 ELF sample in $index (make samples)"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ $failed -eq 0 ]; exit
fi
e=$tmp/vmcore.elf
cp "$E" "$e"
chmod u+w "$e"
timeout 60 "$BIN" --json --all-tasks "$e" "$V" >"$tmp/tasks.json" 2>/dev/null
# the intact samples are not called truncated or incomplete
for d in "$K" "$e" "${F:-}"; do
	[ -r "$d" ] || continue
	if timeout 60 "$BIN" --active --no-lines "$d" "$V" 2>&1 | grep -Eq 'dump is truncated|marked the dump incomplete'; then
		fail "intact $(basename "$d"): called truncated or incomplete"
	else
		pass "intact $(basename "$d"): not called truncated or incomplete"
	fi
done
py=/usr/bin/python3	# Debian's, with python3-jsonschema
[ -x "$py" ] || py=python3
# json_valid NAME ARGS...: a partial or unreliable JSON report still
# validates against docs/json-schema.json (exit 1, nothing to check, is fine)
json_valid() {
	local name=$1 rc
	shift
	timeout 60 "$BIN" --json "$@" >"$tmp/corrupt.json" 2>/dev/null
	rc=$?
	[ $rc -eq 1 ] && return
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		fail "$name: --json exited $rc"
	elif "$py" "$here/../json/validate.py" "$name --json" "$tmp/corrupt.json" >"$tmp/valid"; then
		if grep -q '^SKIP' "$tmp/valid"; then
			skip "$(sed -n 's/^SKIP //p' "$tmp/valid")"
		else
			pass "$(sed -n 's/^PASS //p' "$tmp/valid") (exit $rc)"
		fi
	else
		fail "$name: the --json report does not validate: $(sed -n 2,4p "$tmp/valid" | tr '\n' ' ')"
	fi
}
vmci() { "$DUMPCAT" vmcoreinfo "$e" "$1"; }
phys_off() {	# file offset of kernel virtual address $1 in the ELF copy
	local pa
	pa=$("$DUMPCAT" v2p "$e" "$1") && $PATCH phys2off "$e" "$pa"
}

# hostile strings in the dump: a comm with '"', '\', an escape sequence, a
# bidi override and a C1 control; the panic message with an OSC title
# sequence, BEL, C1 CSI, U+202E and a byte that is not UTF-8.  Nothing
# of it may reach the terminal raw (docs/hardening.md): stdout, stderr
# and --json are clean (tests/corrupt/clean.py), and the task line
# quotes the comm unambiguously.
coff=$(command -v pahole >/dev/null &&
       pahole -C task_struct "$V" 2>/dev/null | awk '$1 == "char" && $2 == "comm[16];" { print $(NF-2) }')
read -r cpid ctask < <(python3 -c '
import json, sys
t = [x for x in json.load(open(sys.argv[1])).get("tasks", []) if x["pid"] > 1]
print(t[0]["pid"], t[0]["task"]) if t else None' "$tmp/tasks.json")
pmsg='Kernel panic - not syncing: sysrq triggered crash'
hmsg='Kernel panic - not syncing: sysrq \x1b]0;x\x07\xc2\x9b\xe2\x80\xae\xffcra'
if [ -n "$coff" ] && [ -n "${ctask:-}" ] && coff=$(phys_off "$(printf '0x%x' $((ctask + coff)))") &&
   [ "$($PATCH replace "$e" "$pmsg" "$hmsg" "$(stat -c %s "$e")")" -ge 1 ]; then
	dd if="$e" of="$tmp/comm.orig" bs=1 skip="$coff" count=16 status=none
	printf 'a"b\\\033[2J\342\200\256\302\233z\0' | dd of="$e" bs=1 seek="$coff" conv=notrunc status=none
	for args in "--all-tasks" "--log" "--json --all-tasks" "--no-header --group --all-tasks" "--html -"; do
		# shellcheck disable=SC2086
		timeout 60 "$BIN" $args "$e" "$V" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -ge 2 ] && [ $rc -ne 3 ]; then
			fail "hostile strings, $args: exit $rc"
		elif ! python3 "$here/clean.py" "$tmp/out" "$tmp/err" >"$tmp/why"; then
			fail "hostile strings, $args: raw control characters: $(head -n 2 "$tmp/why" | tr '\n' ' ')"
		else
			pass "hostile strings, $args: stdout and stderr clean UTF-8 (exit $rc)"
		fi
	done
	# the page (src/report_html.c): the title is the report's CRASH:
	# line, sanitised as the report sanitises it (no '<', '&' or '"' in it)
	crash_line=$(timeout 60 "$BIN" "$e" "$V" 2>/dev/null | sed -n 's/^     CRASH: //p')
	if [ -n "$crash_line" ] && ! printf '%s' "$crash_line" | grep -q '[<&"]' &&
	   grep -qF "<title>$crash_line</title>" "$tmp/out" &&
	   grep -qF "<h1 id=\"title\">$crash_line</h1>" "$tmp/out"; then
		pass "hostile strings, --html: the title is the report's CRASH: line ($(printf '%s' "$crash_line" | cat -v))"
	else
		fail "hostile strings, --html: $(grep -a -m1 '<h1' "$tmp/out" | cat -v | head -c 300), the report's: $(printf '%s' "$crash_line" | cat -v)"
	fi
	timeout 60 "$BIN" --pid "$cpid" "$e" "$V" >"$tmp/out" 2>/dev/null
	if grep -qF 'COMM: "a\"b\\\x1b[2J\u{202e}\u{9b}z"' "$tmp/out"; then
		pass "hostile comm: quoted with '\"', '\\' and the controls escaped"
	else
		fail "hostile comm: not escaped in the task line: $(grep -a 'COMM:' "$tmp/out" | head -n 1 | od -c | head -n 2 | tr '\n' ' ')"
	fi
	if grep -qF 'MESSAGE: sysrq \x1b]0;x\x07\u{9b}\u{202e}\xffcra' "$tmp/out"; then
		pass "hostile panic message: escaped as --log escapes it"
	else
		fail "hostile panic message: $(grep -a 'MESSAGE:' "$tmp/out" | od -c | head -n 2 | tr '\n' ' ')"
	fi
	json_valid "hostile strings" --all-tasks "$e" "$V"
	dd if="$tmp/comm.orig" of="$e" bs=1 seek="$coff" conv=notrunc status=none
	$PATCH replace "$e" "$hmsg" "$pmsg" "$(stat -c %s "$e")" >/dev/null
	cmp -s "$E" "$e" || fail "ELF copy not restored after the hostile strings"
else
	skip "hostile strings: no pahole, no task or no panic message \"$pmsg\" in $E"
fi

# page tables: the physical page of init_top_pgt
pgd=$(vmci 'SYMBOL(init_top_pgt)')
if pgd_off=$(phys_off "$pgd"); then
	$PATCH xor "$e" "$pgd_off" 4096
	expect "ELF: init_top_pgt page garbled" "1 3" "$e" -- --all-tasks "$e" "$V"
	json_valid "ELF: init_top_pgt page garbled" --all-tasks "$e" "$V"
	$PATCH xor "$e" "$pgd_off" 4096
	old=$($PATCH put64 "$e" $((pgd_off + 511 * 8)) 0)	# kernel text PGD entry
	expect "ELF: kernel text PGD entry cleared" "1 3" "$e" -- --all-tasks "$e" "$V"
	$PATCH put64 "$e" $((pgd_off + 511 * 8)) "$old" >/dev/null
	old=$($PATCH put64 "$e" $((pgd_off + 511 * 8)) "$((old ^ (1 << 33)))")	# a frame bit
	expect "ELF: kernel text PGD entry points elsewhere" "1 3" "$e" -- --all-tasks "$e" "$V"
	$PATCH put64 "$e" $((pgd_off + 511 * 8)) "$old" >/dev/null
else
	fail "ELF: cannot find init_top_pgt ($pgd) in $E"
fi

# a blocked task with a few frames: pid, its frames' sp, ip
read -r tpid tsp0 tsp1 tip0 < <(python3 - "$tmp/tasks.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d.get('tasks', []):
    f = [x for x in t['frames'] if not x['scanned']]
    if not t['on_cpu'] and t['pid'] > 1 and len(f) >= 4 and t['reliable']:
        print(t['pid'], f[0]['sp'], f[1]['sp'], f[0]['ip'])
        break
PY
)
if [ -n "${tpid:-}" ] && soff=$(phys_off "$tsp1"); then
	page=$(( soff - (tsp1 & 4095) ))
	$PATCH xor "$e" "$page" 4096
	expect "ELF: bit flips in task $tpid's stack page" "3" "$e" -- --pid "$tpid" "$e" "$V"
	$PATCH xor "$e" "$page" 4096
	# a stack that loops: from the first frame up to the page end, its own
	# return address over and over, with bp words pointing back at themselves
	cp "$e" "$tmp/pristine-stack" 2>/dev/null || true
	python3 - "$e" "$soff" "$tsp1" "$tip0" <<'PY'
import struct, sys
path, off, sp, ip = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 0), int(sys.argv[4], 0)
n = (4096 - (sp & 4095)) // 8
with open(path, 'r+b') as f:
    f.seek(off)
    words = [ip if i % 2 == 0 else sp + 8 * i - 16 for i in range(n)]
    f.write(struct.pack(f'<{n}Q', *words))
PY
	expect "ELF: task $tpid's stack loops" "3" "$e" -- --pid "$tpid" "$e" "$V"
	expect "ELF: task $tpid's looping stack, --scan --all-tasks" "3" "$e" -- --scan --all-tasks "$e" "$V"
	json_valid "ELF: task $tpid's looping stack" --scan --all-tasks "$e" "$V"
	# restore from the original dump
	dd if="$E" of="$e" bs=4096 skip=$((page / 4096)) seek=$((page / 4096)) count=2 conv=notrunc status=none
	cmp -s "$E" "$e" || fail "ELF copy not restored after the stack cases"
	rm -f "$tmp/pristine-stack"
	# a stack that cannot be followed at all (thread.sp on no stack, as
	# a stack page a dump lacks): no frames, and --folded still gives
	# the task a stack of its own under its state and comm
	read -r tstate tcomm ttask < <(python3 -c '
import json, sys
t = [x for x in json.load(open(sys.argv[1]))["tasks"] if x["pid"] == int(sys.argv[2])][0]
print(t["state"], t["comm"], t["task"])' "$tmp/tasks.json" "$tpid")
	thoff=$(command -v pahole >/dev/null &&
		pahole -C task_struct "$V" 2>/dev/null | awk '$1 == "struct" && $2 == "thread_struct" && $3 ~ /^thread/ { print $(NF-2) }')
	spoff=$(command -v pahole >/dev/null &&
		pahole -C thread_struct "$V" 2>/dev/null | awk '$NF == "*/" && $(NF-4) == "sp;" { print $(NF-2) }')
	if [ -n "$thoff" ] && [ -n "$spoff" ] && [ -n "${ttask:-}" ] &&
	   toff=$(phys_off "$(printf '0x%x' $((ttask + thoff + spoff)))"); then
		$PATCH put64 "$e" "$toff" 0x10 >/dev/null
		timeout 60 "$BIN" --folded=state,comm --pid "$tpid" "$e" "$V" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -eq 3 ] && [ "$(cat "$tmp/out")" = "$tstate;$tcomm;[no frames] 1" ]; then
			pass "ELF: task $tpid's thread.sp on no stack: --folded=state,comm says $tstate;$tcomm;[no frames] (exit 3)"
		else
			fail "ELF: task $tpid's thread.sp on no stack: exit $rc, --folded=state,comm: $(head -c 200 "$tmp/out")"
		fi
		dd if="$E" of="$e" bs=1 skip="$toff" seek="$toff" count=8 conv=notrunc status=none
		cmp -s "$E" "$e" || fail "ELF copy not restored after the thread.sp case"
	else
		skip "ELF: thread.sp on no stack: no pahole offsets for task_struct.thread.sp"
	fi
else
	skip "ELF stack cases: no blocked task with 4 frames found in $E"
fi

# a task list that loops: the 3rd task's tasks.next back to the 2nd
toff=$(command -v pahole >/dev/null &&
       pahole -C task_struct "$V" 2>/dev/null | awk '$1 == "struct" && $2 == "list_head" && $3 == "tasks;" { print $(NF-2) }')
read -r ta tb < <(python3 -c '
import json, sys
t = [x for x in json.load(open(sys.argv[1])).get("tasks", []) if x["pid"] > 0]
print(t[1]["task"], t[2]["task"]) if len(t) > 2 else None' "$tmp/tasks.json")
if [ -n "$toff" ] && [ -n "${tb:-}" ] && noff=$(phys_off "$(printf '0x%x' $((tb + toff)))"); then
	cur=$($PATCH get64 "$e" "$noff")
	old=$($PATCH put64 "$e" "$noff" $((ta + toff)))
	expect "ELF: task list loops (tasks.next $cur -> $(printf '0x%x' $((ta + toff))))" "1 3" "$e" -- --all-tasks "$e" "$V"
	$PATCH put64 "$e" "$noff" "$old" >/dev/null
else
	skip "ELF task-list loop: no pahole or no tasks to link"
fi

# lists that end as the kernel's never do (include/linux/list.h: they are
# circular): a NULL tasks.next, a pointer outside the direct map, a
# task_struct read as zeros (a hole).  Each is an incomplete list: a
# WARNING, exit 3, and the backward walk finds the tasks behind it.
tasks_count() { sed -n 's/^ *TASKS: \([0-9]*\).*/\1/p' "$tmp/out"; }
incomplete() {	# incomplete NAME WARNING_TEXT MIN_TASKS
	if [ "$(grep -c 'WARNING: .*'"$2" "$tmp/out")" -lt 1 ]; then
		fail "$1: no WARNING saying \"$2\": $(grep -m1 WARNING "$tmp/out")"
	elif [ "${rc_last:-0}" -ne 3 ]; then
		fail "$1: exit $rc_last, wanted 3"
	elif [ "$(tasks_count)" -lt "$3" ]; then
		fail "$1: $(tasks_count) tasks, the recovery walks should find $3"
	elif grep -q 'COMM: ""' "$tmp/out"; then
		fail "$1: a task with an empty comm (a zeroed task_struct) listed"
	else
		pass "$1: exit 3, $(tasks_count) of $ntasks tasks, WARNING: $(grep -m1 -o "$2.*" "$tmp/out" | cut -c1-90)"
	fi
}
# run_all WHAT: the report on one thread, and again with a second thread
# reading the PID IDR's task_structs ahead of the walks (ORCCRASH_THREADS=4:
# src/kernel_tasks.c read_ahead()), which must change nothing
run_all() {
	local rc4
	ORCCRASH_THREADS=1 timeout 60 "$BIN" --all-tasks --no-lines "$e" "$V" >"$tmp/out" 2>"$tmp/err"
	rc_last=$?
	ORCCRASH_THREADS=4 timeout 60 "$BIN" --all-tasks --no-lines "$e" "$V" >"$tmp/out4" 2>"$tmp/err4"
	rc4=$?
	if [ $rc4 -ne $rc_last ] || ! cmp -s "$tmp/out" "$tmp/out4" || ! cmp -s "$tmp/err" "$tmp/err4"; then
		fail "ELF: $1: read ahead, exit $rc4 and not the report of one thread (exit $rc_last): $(diff "$tmp/out" "$tmp/out4" | head -3 | tr '\n' ' ' | head -c 200)"
	fi
}
if [ -n "$toff" ] && [ -n "${tb:-}" ] && noff=$(phys_off "$(printf '0x%x' $((tb + toff)))"); then
	run_all "the intact list"
	ntasks=$(tasks_count)
	old=$($PATCH put64 "$e" "$noff" 0)
	run_all "a NULL tasks.next"
	incomplete "ELF: a NULL tasks.next" "task list incomplete: NULL pointer" "$ntasks"
	$PATCH put64 "$e" "$noff" "$(vmci 'SYMBOL(init_top_pgt)')" >/dev/null
	run_all "tasks.next into the kernel image"
	incomplete "ELF: tasks.next into the kernel image" "outside the direct map" "$ntasks"
	$PATCH put64 "$e" "$noff" "$old" >/dev/null
	# the page of task $tb's tasks field as a hole read as zeros (makedumpfile
	# or a flattened file missing a record): $tb and its threads are lost,
	# and at most one task whose tail shares the page
	nthr=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1])).get("tasks", [])
b = [x for x in t if x["task"] == sys.argv[2]][0]
print(sum(1 for x in t if x["tgid"] == b["pid"]) or 1)' "$tmp/tasks.json" "$tb")
	page=$(( $(phys_off "$(printf '0x%x' $((tb + toff)))") & ~4095 ))
	dd if="$e" of="$tmp/page.orig" bs=4096 skip=$((page / 4096)) count=1 status=none
	dd if=/dev/zero of="$e" bs=4096 seek=$((page / 4096)) count=1 conv=notrunc status=none
	run_all "a task_struct's page read as zeros"
	incomplete "ELF: a task_struct's page read as zeros" "task_structs read as zeros" $((ntasks - nthr - 1))
	dd if="$tmp/page.orig" of="$e" bs=4096 seek=$((page / 4096)) conv=notrunc status=none
	cmp -s "$E" "$e" || fail "ELF copy not restored after the incomplete-list cases"
else
	skip "ELF incomplete task lists: no pahole or no tasks"
fi

# a process on neither the tasks list nor its parent's children list
# (unlinked from both as list_del() would, the lists still whole): only
# the PID IDR (init_pid_ns.idr, walked as crash and drgn list tasks)
# holds it.  It is listed, and a WARNING says where it was found.
sboff=$(command -v pahole >/dev/null &&
	pahole -C task_struct "$V" 2>/dev/null | awk '$1 == "struct" && $2 == "list_head" && $3 == "sibling;" { print $(NF-2) }')
read -r upid utask < <(python3 -c '
import json, sys
t = [x for x in json.load(open(sys.argv[1])).get("tasks", [])
     if x["pid"] > 2 and x["pid"] == x["tgid"] and x["state"] != "R"]
print(t[-1]["pid"], t[-1]["task"]) if t else None' "$tmp/tasks.json")
unlink_at() {	# unlink_at NODE: the list_head at NODE out of its list
	local no po nx pv
	no=$(phys_off "$(printf '0x%x' "$1")") &&
	nx=$($PATCH get64 "$e" "$no") && pv=$($PATCH get64 "$e" $((no + 8))) &&
	po=$(phys_off "$pv") && echo "$po $($PATCH put64 "$e" "$po" "$nx")" >>"$tmp/restore" &&
	po=$(phys_off "$(printf '0x%x' $((nx + 8)))") &&
	echo "$po $($PATCH put64 "$e" "$po" "$pv")" >>"$tmp/restore"
}
if [ -n "$toff" ] && [ -n "$sboff" ] && [ -n "${utask:-}" ]; then
	run_all "the intact list (PID IDR case)"
	ntasks=$(tasks_count)
	: >"$tmp/restore"
	if unlink_at $((utask + toff)) && unlink_at $((utask + sboff)); then
		run_all "a process only in the PID IDR"
		if [ "${rc_last:-0}" -ne 3 ]; then
			fail "ELF: a process only in the PID IDR: exit $rc_last, wanted 3"
		elif [ "$(tasks_count)" != "$ntasks" ]; then
			fail "ELF: a process only in the PID IDR: $(tasks_count) tasks, wanted $ntasks"
		elif ! grep -q "^PID: $upid " "$tmp/out"; then
			fail "ELF: a process only in the PID IDR: PID $upid not listed"
		elif ! grep -q 'WARNING: 1 task found only through the PID IDR' "$tmp/out"; then
			fail "ELF: a process only in the PID IDR: no WARNING: $(grep -m1 WARNING "$tmp/out")"
		else
			pass "ELF: a process only in the PID IDR: PID $upid listed, $(tasks_count) of $ntasks tasks, exit 3"
		fi
	else
		fail "ELF: a process only in the PID IDR: could not unlink task $utask"
	fi
	tac "$tmp/restore" | while read -r o v; do $PATCH put64 "$e" "$o" "$v" >/dev/null; done
	cmp -s "$E" "$e" || fail "ELF copy not restored after the PID IDR case"
else
	skip "ELF: a process only in the PID IDR: no pahole or no task"
fi

# every process's thread list loops (thread_node.next back to itself):
# one step budget for the whole model and a loop seen at once, not
# 2^20 steps per list (docs/hardening.md)
thoff=$(pahole -C task_struct "$V" 2>/dev/null | awk '$1 == "struct" && $2 == "list_head" && $3 == "thread_node;" { print $(NF-2) }')
if [ -n "$thoff" ]; then
	python3 - "$tmp/tasks.json" "$thoff" >"$tmp/leaders" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])).get("tasks", [])
for x in t:
    if x["pid"] > 0 and x["pid"] == x["tgid"]:
        print(hex(int(x["task"], 16) + int(sys.argv[2])))
PY
	: >"$tmp/restore"
	while read -r a; do
		o=$(phys_off "$a") || continue
		echo "$o $($PATCH put64 "$e" "$o" "$a")" >>"$tmp/restore"
	done <"$tmp/leaders"
	start=$(date +%s%N)
	timeout 60 "$BIN" --all-tasks --no-lines "$e" "$V" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	n=$(wc -l <"$tmp/restore")
	if [ $rc -eq 3 ] && [ $ms -lt 5000 ] && grep -q 'WARNING: threads of task .*loops back' "$tmp/out"; then
		pass "ELF: $n looping thread lists: exit 3 in $ms ms, the loops named"
	else
		fail "ELF: $n looping thread lists: exit $rc in $ms ms: $(grep -m1 WARNING "$tmp/out")"
	fi
	while read -r o v; do $PATCH put64 "$e" "$o" "$v" >/dev/null; done <"$tmp/restore"
	cmp -s "$E" "$e" || fail "ELF copy not restored after the looping thread lists"
else
	skip "ELF looping thread lists: no pahole"
fi

# a module list that loops: the first module's list.next back to itself
# (needs a dump with a module loaded: the mod-* scenarios)
IFS=$'\t' read -r M MV < <([ -r "$index" ] &&
	awk -F'\t' 'index($1, "6.1.") == 1 && $3 == "elf" && $2 ~ /^mod-/ { print $4 "\t" $5 }' "$index" |
	while IFS=$'\t' read -r d v; do [ -r "$d" ] && [ -r "$v" ] && { echo "$d	$v"; break; }; done) || true
msym=$([ -n "${MV:-}" ] && nm "$MV" 2>/dev/null | awk '$3 == "modules" { print $1; exit }')
if [ -n "${M:-}" ] && [ -n "$msym" ]; then
	m=$tmp/vmcore-mod.elf
	cp "$M" "$m"
	chmod u+w "$m"
	mko=$("$DUMPCAT" vmcoreinfo "$m" KERNELOFFSET 2>/dev/null || echo 0x0)
	first=0x$("$DUMPCAT" rd64 "$m" "$(printf '0x%x' $((0x$msym + mko)))" 1)
	if mpa=$("$DUMPCAT" v2p "$m" "$first") && moff=$($PATCH phys2off "$m" "$mpa"); then
		$PATCH put64 "$m" "$moff" "$first" >/dev/null
		expect "ELF: module list loops" "3" "$m" -- --all-tasks "$m" "$MV"
		# the list on into the kernel image: not where a struct module is
		$PATCH put64 "$m" "$moff" "$("$DUMPCAT" vmcoreinfo "$m" 'SYMBOL(init_top_pgt)')" >/dev/null
		expect "ELF: module list into the kernel image" "3" "$m" -- --all-tasks "$m" "$MV"
		if grep -q 'WARNING: module list incomplete.*outside the modules area' "$tmp/out"; then
			pass "ELF: module list into the kernel image: the WARNING says where"
		else
			fail "ELF: module list into the kernel image: no WARNING naming the pointer"
		fi
	else
		fail "ELF: cannot find the first module ($first) in $M"
	fi
	# a module whose ORC tables point at another module's: the kernel
	# takes them from the module's own sections (module_finalize()), so
	# they are not used (no second parsed copy of the same bytes)
	cp "$M" "$m"
	aoff=$(pahole -C module "$MV" 2>/dev/null | awk '$1 == "struct" && $2 == "mod_arch_specific" && $3 == "arch;" { print $(NF-2) }')
	ioff=$(pahole -C mod_arch_specific "$MV" 2>/dev/null | awk '$2 == "*" && $3 == "orc_unwind_ip;" { print $(NF-2) }')
	loff=$(pahole -C module "$MV" 2>/dev/null | awk '$1 == "struct" && $2 == "list_head" && $3 == "list;" { print $(NF-2) }')
	second=0x$("$DUMPCAT" rd64 "$m" "$first" 1 2>/dev/null)
	if [ -n "$aoff" ] && [ -n "$ioff" ] && [ -n "$loff" ] &&
	   other=0x$("$DUMPCAT" rd64 "$m" "$(printf '0x%x' $((second - loff + aoff + ioff)))" 1) &&
	   pa=$("$DUMPCAT" v2p "$m" "$(printf '0x%x' $((first - loff + aoff + ioff)))") &&
	   ioff=$($PATCH phys2off "$m" "$pa"); then
		$PATCH put64 "$m" "$ioff" "$other" >/dev/null
		timeout 60 "$BIN" --all-tasks --no-lines "$m" "$MV" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -le 3 ] && [ $rc -ne 1 ] && [ $rc -ne 2 ] &&
		   grep -q "WARNING: module .*: ORC: tables at $other and .* are outside the module's memory: not used" "$tmp/out"; then
			pass "ELF: a module's ORC tables in another module: not used, the WARNING says where (exit $rc)"
		else
			fail "ELF: a module's ORC tables in another module: exit $rc: $(grep -m1 WARNING "$tmp/out")"
		fi
	else
		fail "ELF: cannot find the first module's ORC pointer ($first) in $M"
	fi
	# the second module's memory said to be the first's (core_layout.base
	# before 6.4): the kernel never allocates two modules one memory
	cp "$M" "$m"
	coff=$(pahole -C module "$MV" 2>/dev/null | awk '$1 == "struct" && $2 == "module_layout" && $3 == "core_layout" { print $(NF-2) }')
	if [ -n "$coff" ] && [ -n "$loff" ] &&
	   base=0x$("$DUMPCAT" rd64 "$m" "$(printf '0x%x' $((first - loff + coff)))" 1) &&
	   pa=$("$DUMPCAT" v2p "$m" "$(printf '0x%x' $((second - loff + coff)))") &&
	   boff=$($PATCH phys2off "$m" "$pa"); then
		$PATCH put64 "$m" "$boff" "$base" >/dev/null
		expect "ELF: two modules in one memory" "3" "$m" -- --all-tasks --no-lines "$m" "$MV"
		if grep -q "WARNING: module .*: its memory overlaps module .*'s: list corrupt?" "$tmp/out"; then
			pass "ELF: two modules in one memory: the WARNING names both"
		else
			fail "ELF: two modules in one memory: no WARNING naming both"
		fi
	else
		skip "ELF: two modules in one memory: no core_layout (6.4+) in $MV"
	fi
	# the modules' own BTF (kernel/bpf/btf.c's btf_modules list, read at
	# the commands' first need: src/kernel_modbtf.c): the first entry's
	# list.next back to itself, then its struct btf's data_size made
	# 4 GiB - 1: mod ends (exit 0) with the BTF column of the modules
	# it could still read, the rest of its table as it was
	cp "$M" "$m"
	bsym=$(nm "$MV" 2>/dev/null | awk '$3 == "btf_modules" { print $1; exit }')
	bmoff=$(pahole -C btf_module "$MV" 2>/dev/null | awk '$NF == "*/" && $(NF-4) == "btf;" { print $(NF-2) }')
	dsoff=$(pahole -C btf "$MV" 2>/dev/null | awk '$1 == "u32" && $2 == "data_size;" { print $(NF-2) }')
	"$BIN" -e mod "$m" "$MV" >"$tmp/mod.want" 2>/dev/null
	nbtf=$(awk 'NR > 1 && $8 == "yes"' "$tmp/mod.want" | wc -l)
	if [ -n "$bsym" ] && [ -n "$bmoff" ] && [ -n "$dsoff" ] && [ "$nbtf" -gt 1 ] &&
	   bfirst=0x$("$DUMPCAT" rd64 "$m" "$(printf '0x%x' $((0x$bsym + mko)))" 1) &&
	   pa=$("$DUMPCAT" v2p "$m" "$bfirst") && boff=$($PATCH phys2off "$m" "$pa"); then
		$PATCH put64 "$m" "$boff" "$bfirst" >/dev/null
		expect "ELF: the modules' BTF list loops" "0" "$m" -- -e mod "$m" "$MV"
		if [ "$(awk 'NR > 1 && $8 == "yes"' "$tmp/out" | wc -l)" -eq 1 ] &&
		   cmp -s <(awk '{ $8 = ""; print }' "$tmp/out") <(awk '{ $8 = ""; print }' "$tmp/mod.want"); then
			pass "ELF: the modules' BTF list loops: the first entry's module alone has BTF, mod's other columns unchanged"
		else
			fail "ELF: the modules' BTF list loops: mod says $(awk 'NR > 1 { printf "%s=%s ", $2, $8 }' "$tmp/out")"
		fi
		cp "$M" "$m"
		btf=0x$("$DUMPCAT" rd64 "$m" "$(printf '0x%x' $((bfirst + bmoff)))" 1)
		if pa=$("$DUMPCAT" v2p "$m" "$(printf '0x%x' $((btf + dsoff)))") &&
		   doff=$($PATCH phys2off "$m" "$pa"); then
			v=$($PATCH get64 "$m" "$doff")
			$PATCH put64 "$m" "$doff" "$(printf '0x%x' $(((v & ~0xffffffff) | 0xffffffff)))" >/dev/null
			expect "ELF: a module's BTF of 4 GiB" "0" "$m" -- -e mod "$m" "$MV"
			if [ "$(awk 'NR > 1 && $8 == "yes"' "$tmp/out" | wc -l)" -eq $((nbtf - 1)) ]; then
				pass "ELF: a module's BTF of 4 GiB: refused, the other $((nbtf - 1)) modules' read"
			else
				fail "ELF: a module's BTF of 4 GiB: mod says $(awk 'NR > 1 { printf "%s=%s ", $2, $8 }' "$tmp/out")"
			fi
		else
			fail "ELF: cannot find the first module's struct btf ($btf) in $M"
		fi
	else
		skip "ELF: the modules' BTF: no btf_modules, pahole or modules with BTF in $MV"
	fi
	rm -f "$m"
else
	skip "module list loop: no mod-* ELF sample or no nm"
fi

# says NAME FILE TEXT: FILE holds TEXT (a fixed string)
says() {
	if grep -qF -- "$3" "$2"; then
		pass "$1"
	else
		fail "$1: no \"$3\": $(head -c 300 "$2")"
	fi
}

# VMCOREINFO's OSRELEASE claims another kernel (4.14: another ORC
# format) while linux_banner and init_uts_ns say 6.1: refused, and with
# --force a WARNING, exit 3 and the banner's release (never the ORC
# format of the least trusted source).  The same without a vmlinux.
read -r noff nsize < <($PATCH notes "$e")
rel=$("$DUMPCAT" vmcoreinfo "$e" | sed -n "s/^OSRELEASE=//p")
fake=$(printf '4.14.0-%s' "${rel#*-}" | cut -c1-${#rel})
fake=$fake$(printf '%*s' $((${#rel} - ${#fake})) '' | tr ' ' x)
if [ "${rel%%.*}" -ge 5 ] && [ "$($PATCH replace "$e" "OSRELEASE=$rel" "OSRELEASE=$fake" $((noff + nsize)))" -ge 1 ]; then
	expect "ELF: OSRELEASE $fake on a $rel dump" "1" "$e" -- --active "$e" "$V"
	says "ELF: OSRELEASE $fake: the error names all three sources" "$tmp/err" \
	     "release sources disagree (VMCOREINFO OSRELEASE $fake, linux_banner $rel, init_uts_ns $rel)"
	expect "ELF: OSRELEASE $fake, --no-vmlinux" "1" "$e" -- --no-vmlinux --active "$e"
	timeout 60 "$BIN" --force --active --no-lines "$e" "$V" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 3 ] && grep -q "^   RELEASE: $rel\$" "$tmp/out" &&
	   grep -q "WARNING: the kernel's release sources disagree" "$tmp/out" &&
	   ! grep -q '^       ORC: 4.14' "$tmp/out"; then
		pass "ELF: OSRELEASE $fake, --force: exit 3, a WARNING, release $rel, $(grep -o 'ORC: .*' "$tmp/out")"
	else
		fail "ELF: OSRELEASE $fake, --force: exit $rc, $(grep -E 'RELEASE|ORC:' "$tmp/out" | tr -s ' ' | tr '\n' ' ')"
	fi
	$PATCH replace "$e" "OSRELEASE=$fake" "OSRELEASE=$rel" $((noff + nsize)) >/dev/null
	cmp -s "$E" "$e" || fail "ELF copy not restored after the OSRELEASE cases"
else
	skip "ELF OSRELEASE: $rel not found to replace in $E"
fi

# VMCOREINFO's BUILD-ID (since 5.9) names another build than the
# vmlinux's build-id note, though the banners agree: another build
bid=$("$DUMPCAT" vmcoreinfo "$e" | sed -n 's/^BUILD-ID=//p')
if [ -n "$bid" ]; then
	obid=$(printf '%s' "$bid" | tr '0-9a-f' '1-9a-f0')
	$PATCH replace "$e" "BUILD-ID=$bid" "BUILD-ID=$obid" $((noff + nsize)) >/dev/null
	expect "ELF: VMCOREINFO BUILD-ID of another build" "1" "$V" -- --active "$e" "$V"
	says "ELF: VMCOREINFO BUILD-ID of another build: both named" "$tmp/err" \
	     "the dump's build-id is $obid, this vmlinux's $bid"
	$PATCH replace "$e" "BUILD-ID=$obid" "BUILD-ID=$bid" $((noff + nsize)) >/dev/null
	cmp -s "$E" "$e" || fail "ELF copy not restored after the BUILD-ID case"
else
	skip "ELF BUILD-ID: no BUILD-ID in the VMCOREINFO of $E"
fi

# no VMCOREINFO note
read -r noff nsize < <($PATCH notes "$e")
if [ "$($PATCH rename-note "$e" "$noff" "$nsize" VMCOREINFO XMCOREINFO)" -ge 1 ]; then
	expect "ELF without a VMCOREINFO note" "1" "$e" -- --all-tasks "$e" "$V"
	$PATCH rename-note "$e" "$noff" "$nsize" XMCOREINFO VMCOREINFO >/dev/null
else
	fail "ELF: no VMCOREINFO note to remove in $E"
fi

# a section header claiming more than the whole file (QEMU writes one
# section): libkdumpfile would allocate and read all of it
shoff=$($PATCH get64 "$e" 40)
if [ "$((shoff))" -gt 0 ] && [ "$((shoff))" -lt "$(stat -c %s "$e")" ]; then
	szoff=$((shoff + 64 + 32))	# section 1's sh_size
	old=$($PATCH put64 "$e" "$szoff" $((1 << 36)))
	expect "ELF: a section of 64 GiB in the headers" "1" "$e" -- --all-tasks "$e" "$V"
	$PATCH put64 "$e" "$szoff" "$old" >/dev/null
else
	skip "ELF huge section: $E has no section headers"
fi

# vmlinux: another kernel's, stripped, truncated
if [ -n "${V12:-}" ]; then
	expect "6.1 dump with the 6.12 vmlinux" "1" "$V12" -- --all-tasks "$e" "$V12"
else
	skip "other-kernel vmlinux: no 6.12 sample"
fi
sv=$tmp/vmlinux.stripped
if objcopy --strip-all "$V" "$sv" 2>/dev/null; then
	expect "stripped vmlinux" "1 3" "$sv" -- --all-tasks "$e" "$sv"
else
	skip "stripped vmlinux: objcopy failed"
fi
head -c 1000000 "$V" >"$tmp/vmlinux.cut"
expect "truncated vmlinux" "1" "$tmp/vmlinux.cut" -- --all-tasks "$e" "$tmp/vmlinux.cut"
rm -f "$sv" "$tmp/vmlinux.cut"

# truncated ELF dump: in place, largest cut first.  The mid-page cut lies
# past the kernel image (text, data, the early page tables and the brk
# area, up to _end) and at half the file or later: with physical KASLR the
# image may sit anywhere in memory, and a cut inside it leaves nothing to
# report (exit 1 naming the cut), which is right but not this case.
esz=$(stat -c %s "$e")
mid=$((esz / 2))
kend=$(nm "$V" 2>/dev/null | awk '$3 == "_end" { print $1 }')
kslr=$(vmci KERNELOFFSET 2>/dev/null || echo 0x0)
if [ -n "$kend" ] && eoff=$(phys_off "$(printf '0x%x' $((0x$kend + ${kslr:-0})))"); then
	[ "$eoff" -gt "$mid" ] && mid=$(( (eoff + 4095) / 4096 * 4096 ))
else
	fail "ELF truncated mid-page: cannot find the file offset of _end (nm, KERNELOFFSET)"
fi
for cut in "mid-page:$((mid + 2048))" "notes:$((noff + nsize / 2))" "header:40"; do
	truncate -s "${cut#*:}" "$e"
	expect "ELF truncated in the ${cut%%:*} (${cut#*:} bytes)" "1 3" "$e" -- --all-tasks "$e" "$V"
	[ "${cut%%:*}" = mid-page ] || continue
	# what lies past the cut is missing, not zeros: the report says the
	# file is short, and no trace walks a zeroed stack (a column of "0x0")
	if ! grep -q "WARNING: the dump is truncated: ${cut#*:} of " "$tmp/out"; then
		fail "ELF truncated mid-page: no \"the dump is truncated\" warning"
	elif grep -Eq '^ +(\? )?0x0+$' "$tmp/out"; then
		fail "ELF truncated mid-page: a frame at 0x0: $(grep -Ec '^ +(\? )?0x0+$' "$tmp/out") of them"
	else
		pass "ELF truncated mid-page: says so, and no frame at 0x0 ($(grep -c 'past the end of the truncated file' "$tmp/out") reads past the end named)"
	fi
	# without the header (--no-header; --log alone) the warning goes to
	# stderr and the exit status stays 3
	for args in "--no-header --active" "--log"; do
		# shellcheck disable=SC2086
		timeout 60 "$BIN" $args "$e" "$V" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -eq 3 ] && grep -q "^orccrash: WARNING: the dump is truncated: ${cut#*:} of " "$tmp/err" &&
		   [ -s "$tmp/out" ] && ! grep -q WARNING "$tmp/out"; then
			pass "ELF truncated mid-page, $args: exit 3, the warning on stderr"
		else
			fail "ELF truncated mid-page, $args: exit $rc, stderr: $(head -c 200 "$tmp/err")"
		fi
	done
done
rm -f "$e"

# truncated flattened file
if [ -n "${F:-}" ]; then
	f=$tmp/vmcore.flat
	head -c $(( $(stat -c %s "$F") / 2 + 1234 )) "$F" >"$f"
	expect "flattened file truncated mid-record" "1" "$f" -- --all-tasks "$f" "$V"
	rm -f "$f"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
