#!/bin/bash
# Real-dump checks of src/log.c (through tests/realdump/logcat.c):
#   tests/realdump/log_check.sh [BUILD_DIR]
# For every dump in ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv
# (or $LOG_CHECK_INDEX; columns: release scenario format path vmlinux
# kaslr):
#  - the log reads from VMCOREINFO alone with no bad records;
#  - every kernel line of the serial console (serial.log next to the dump)
#    from the oldest record still in the buffer on is in the log, in
#    order (the log has more: console_loglevel hides KERN_DEBUG), among
#    them the panic line and sysrq's "Show State";
#  - the panic message equals the serial console's;
#  - the kernel model's path (symbols and BTF/DWARF types, with and
#    without VMCOREINFO) gives the same records and levels as the
#    VMCOREINFO path, and every format of one dump the same log;
#  - crash(8)'s "log -m" (in --minimal mode) prints the same lines and levels (its
#    indented continuation lines normalised to ours), once per dump.
# Prints PASS/FAIL/SKIP lines; SKIP when there are no dumps.  $LOGCAT
# names a logcat built elsewhere (e.g. under AddressSanitizer).
#
# The sample dumps' logs are too short to wrap the 128 KiB ring, so
#   tests/realdump/log_check.sh --make-wrapped
# makes one more dump that does (the 6.1 "process" scenario booted with
# initcall_debug ignore_loglevel, KASLR on: ~2700 lines, a data block
# that wraps across the lpos overflow) under $cache/logwrap/RELEASE/,
# whose index.tsv is checked too when present.  A release may follow.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ "${1:-}" = --make-wrapped ] && tst_init log_check || tst_init log_check "${1:-build}"

make_wrapped() {
	local rel=${1:-6.1.0-57-cloud-amd64} kdir d pid i
	kdir=$cache/kernels/$rel
	d=$cache/logwrap/$rel/process
	[ -r "$kdir/vmlinuz" ] && [ -r "$kdir/initramfs.cpio" ] ||
		{ echo "no $kdir/vmlinuz and initramfs.cpio: run make samples" >&2; return 1; }
	rm -rf "$d" && mkdir -p "$d" || return 1
	timeout 600 qemu-system-x86_64 -accel tcg -smp 2 -nographic -no-reboot \
		-kernel "$kdir/vmlinuz" -initrd "$kdir/initramfs.cpio" \
		-device vmcoreinfo -serial "file:$d/serial.log" -monitor none \
		-qmp "unix:$d/qmp.sock,server=on,wait=off" -m 256M \
		-append "console=ttyS0,115200 orccrash=process panic=0 sysrq_always_enabled no_timer_check initcall_debug ignore_loglevel" \
		</dev/null >"$d/qemu.out" 2>&1 &
	pid=$!
	for i in $(seq 300); do
		grep -q 'end Kernel panic' "$d/serial.log" 2>/dev/null && break
		kill -0 $pid 2>/dev/null || break
		sleep 1
	done
	grep -q 'end Kernel panic' "$d/serial.log" || { kill $pid; echo "no panic" >&2; return 1; }
	sleep 1
	python3 "$top/samples/qmp.py" "$d/qmp.sock" 'stop' \
		"dump-guest-memory {\"paging\": false, \"protocol\": \"file:$d/vmcore.flat\", \"format\": \"kdump-zlib\"}" \
		'quit' >/dev/null || { kill $pid; return 1; }
	wait $pid
	rm -f "$d/qmp.sock"
	makedumpfile -R "$d/vmcore.kdump" <"$d/vmcore.flat" >/dev/null 2>&1 || return 1
	printf '%s\twrapped-log\t%s\t%s\t%s\ton\n' \
		"$rel" kdump "$d/vmcore.kdump" "$kdir/vmlinux" \
		"$rel" flat "$d/vmcore.flat" "$kdir/vmlinux" >"$cache/logwrap/$rel/index.tsv"
	echo "wrote $cache/logwrap/$rel/index.tsv" >&2
}

if [ "${1:-}" = --make-wrapped ]; then
	make_wrapped "${2:-}"
	exit
fi
index=$tmp/index
: >"$index"
if [ -n "${LOG_CHECK_INDEX:-}" ]; then
	indexes=("$LOG_CHECK_INDEX")
else
	indexes=("${ORCCRASH_INDEX:-$cache/dumps/index.tsv}" "$cache"/logwrap/*/index.tsv)
fi
for f in "${indexes[@]}"; do
	[ -s "$f" ] && cat "$f" >>"$index"
done

if [ ! -s "$index" ]; then
	skip "log_check: no dumps (no ${LOG_CHECK_INDEX:-${ORCCRASH_INDEX:-$cache/dumps/index.tsv}})"
	exit 0
fi
# $LOGCAT: a logcat built elsewhere (e.g. under AddressSanitizer)
lc=${LOGCAT:-$O/tests/logcat}
# the top-level Makefile includes tests/realdump/dump.mk
if [ -z "${LOGCAT:-}" ] &&
   ! make -s -C "$top" O="$O" "$O/tests/logcat" >/dev/null; then
	fail "log_check: cannot build logcat"
	exit 1
fi

# The kernel lines of a serial log: "[ secs.usecs] text", \r removed,
# found anywhere in a line (firmware escapes may precede the first one).
# A serial log can hold several boots (kdump: the capture kernel boots
# after the panic): keep the last boot that panicked, else the first.
serial_lines() {
	tr -d '\r' <"$1" | grep -ao '\[ *[0-9]*\.[0-9]\{6\}\] .*' |
	python3 -c '
import re, sys
boots = [[]]
for l in sys.stdin.read().splitlines():
    if re.match(r"^\[ *0\.0+\] Linux version ", l) and boots[-1]:
        boots.append([])
    boots[-1].append(l)
panicked = [b for b in boots
            if any("] Kernel panic - not syncing: " in l for l in b)]
print("\n".join((panicked[-1:] or boots)[0]))
'
}

# Is every line of $1 from the first one at or after the log's first
# timestamp in $2, in order?  Prints one result line.
subsequence() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
ts = re.compile(r'^\[ *(\d+)\.(\d{6})\] ')
def stamp(l):
    m = ts.match(l)
    return (int(m.group(1)), int(m.group(2))) if m else None
serial = open(sys.argv[1], errors='replace').read().splitlines()
log = open(sys.argv[2], errors='replace').read().splitlines()
if not log:
    print('FAIL the log is empty'); sys.exit()
first = stamp(log[0])
# the console drops trailing blanks of some lines; compare without them
serial = [l.rstrip() for l in serial if stamp(l) and stamp(l) >= first]
# early timestamps repeat (a coarse clock): the records before the
# oldest one kept may share its stamp
if log[0].rstrip() in serial:
    serial = serial[serial.index(log[0].rstrip()):]
j = 0
for n, l in enumerate(serial):
    while j < len(log) and log[j].rstrip() != l:
        j += 1
    if j == len(log):
        print('FAIL serial line %d of %d not in the log (in order): %s'
              % (n + 1, len(serial), l[:160]))
        sys.exit()
    j += 1
print('PASS all %d serial console lines since %s are in the log of %d lines'
      % (len(serial), log[0][:14], len(log)))
EOF
}

# crash's "log -m" prints continuation lines indented by the width of
# "[    1.234567] <6>"; ours repeat the prefix like the kernel's console.
normalise_crash_log() {
	python3 - "$1" <<'EOF'
import re, sys
ts = re.compile(r'^(\[ *\d+\.\d{6}\] <\d+>)')
prefix = None
for l in open(sys.argv[1], errors='replace').read().splitlines():
    m = ts.match(l)
    if m:
        prefix = m.group(1)
        print(l)
    elif prefix and l.startswith(' ' * len(prefix)):
        print(prefix + l[len(prefix):])
EOF
}

declare -A first_out crash_done
n=0
while tst_next_dump; do
	n=$((n + 1))
	name="log $name"
	out=$tmp/$n.log
	if ! "$lc" --stats "$core" >"$out" 2>"$tmp/stats"; then
		fail "$name: logcat failed: $(head -c 300 "$tmp/stats")"
		continue
	fi
	stats=$(tail -n 1 "$tmp/stats")
	if grep -q ' bad=0 ' <<<"$stats" && grep -q 'format=ringbuffer\|format=legacy' <<<"$stats"; then
		pass "$name: read from VMCOREINFO: $stats"
	else
		fail "$name: $stats"
	fi

	serial=$(dirname "$core")/serial.log
	if [ -s "$serial" ]; then
		serial_lines "$serial" >"$tmp/serial"
		subsequence "$tmp/serial" "$out" | sed "s#^\(PASS\|FAIL\|SKIP\) #\1 $name: #"
		for want in 'Kernel panic - not syncing: ' 'sysrq: Show State'; do
			line=$(grep -a -m1 -F -- "] $want" "$tmp/serial")
			if [ -z "$line" ]; then
				skip "$name: no \"$want\" line on the serial console"
			elif grep -q -F -x -- "$line" "$out"; then
				pass "$name: log has \"${line:0:100}\""
			else
				fail "$name: log lacks \"${line:0:100}\""
			fi
		done
		want=$(grep -a '\] Kernel panic - not syncing: ' "$tmp/serial" | tail -n 1 |
		       sed 's/.*\] Kernel panic - not syncing: //')
		got=$("$lc" --panic "$core" 2>&1)
		if [ -z "$want" ]; then
			skip "$name: no panic message on the serial console"
		elif [ "$got" = "$want" ]; then
			pass "$name: panic message \"$got\""
		else
			fail "$name: panic message \"$got\", serial console says \"$want\""
		fi
	else
		skip "$name: no serial.log"
	fi

	if [ -r "$vml" ]; then
		"$lc" --levels "$core" >"$tmp/levels" 2>/dev/null
		for mode in "" --types-only; do
			what="the kernel model (symbols, types, VMCOREINFO)"
			[ -n "$mode" ] && what="symbols and types alone"
			if "$lc" --levels $mode "$core" "$vml" >"$tmp/k.log" 2>"$tmp/k.err"; then
				if cmp -s "$tmp/levels" "$tmp/k.log"; then
					pass "$name: $what: same records and levels"
				else
					fail "$name: $what: the log differs from VMCOREINFO's"
					diff "$tmp/levels" "$tmp/k.log" | head -6 | sed 's/^/  /'
				fi
			else
				fail "$name: $what: logcat failed: $(head -c 300 "$tmp/k.err")"
			fi
		done
	else
		skip "$name: no vmlinux"
	fi

	key="$rel/$scen"
	if [ -n "${first_out[$key]:-}" ]; then
		if cmp -s "${first_out[$key]}" "$out"; then
			pass "$name: same log as the first format of $key"
		else
			fail "$name: log differs from the first format of $key"
		fi
	else
		first_out[$key]=$out
	fi
	# crash once per dump: on the first format it can open
	[ -n "${crash_done[$key]:-}" ] && continue
	if ! command -v crash >/dev/null || [ ! -r "$vml" ]; then
		skip "$name: no crash or vmlinux to compare with"
		continue
	fi
	printf 'log -m\nquit\n' >"$tmp/crash.cmds"
	# crash 8.0 finds no KASLR offset in a QEMU dump of 6.12: give it
	kaslr=$(grep -a -m1 -o 'KERNELOFFSET=[0-9a-f]*' "$core" | cut -d= -f2)
	# stderr apart: on 5.10 crash 8.0.2 ends "log" with an error about
	# the printk_safe buffers (after the whole log), which written to
	# the same file lands in the middle of a line
	if timeout 300 crash -s --minimal ${kaslr:+--kaslr=0x$kaslr} "$vml" "$core" \
		-i "$tmp/crash.cmds" </dev/null >"$tmp/crash.out" 2>"$tmp/crash.err"; then
		# crash 8.0.2 prints nothing for a record with no text on 5.10
		# (its sysrq-t logs some: "[    6.379675] " on the serial
		# console, which the serial check above holds ours to), but
		# "[   13.877294] <4>" for 7.2's: such lines are left out on
		# both sides
		normalise_crash_log "$tmp/crash.out" |
			grep -Ev '^\[ *[0-9]+\.[0-9]{6}\] <[0-9]+>$' >"$tmp/crash.log"
		"$lc" --levels "$core" 2>/dev/null |
			grep -Ev '^\[ *[0-9]+\.[0-9]{6}\] <[0-9]+>$' >"$tmp/levels"
		if [ ! -s "$tmp/crash.log" ]; then
			skip "$name: crash printed no log: $(head -c 200 "$tmp/crash.out")"
			continue
		fi
		crash_done[$key]=1
		if cmp -s "$tmp/crash.log" "$tmp/levels"; then
			pass "$name: same $(wc -l <"$out") lines and levels as crash's log -m"
		else
			fail "$name: differs from crash's log -m"
			diff "$tmp/crash.log" "$tmp/levels" | head -6 | sed 's/^/  /'
		fi
	else
		skip "$name: crash could not open the dump: $(cat "$tmp/crash.out" "$tmp/crash.err" | grep -m1 -i error || tail -n 1 "$tmp/crash.err")"
	fi
done <"$index"
[ $n -gt 0 ] || skip "log_check: no readable dumps in $index"
