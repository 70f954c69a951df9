#!/bin/bash
# Real-dump tests: orccrash on every sample dump (make samples) against
# the kernel's own traces (ref/kernel.txt), plus the other formats of the
# same dump, crash's task list, drgn's task list and traces
# (tests/realdump/drgn_traces.py on ref/drgn.txt), and bad input.
# PASS/FAIL/SKIP lines.
# A real kdump (format kdump-real) must exit 0, or 3 only where memory is
# missing with every trace reliable; its stopped CPUs must show the crash
# NMI's frames, as crash's bt -a does (ref/crash-bt-a.txt, or crash 9 from
# tests/bench/sid-chroot.sh, $SID_CHROOT, when Debian 12's cannot open
# the dump).
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init realdump "${1:-build}"
tst_need_index

# crash's bt -a of a real kdump into $tmp/crash-bt: the sample's
# ref/crash-bt-a.txt when Debian 12's crash could read the dump, else
# crash 9 in the sid chroot when there is one.  Empty: no oracle.
crash_bt() {
	local core=$1 vml=$2 ref sid
	ref=$(dirname "$core")/ref/crash-bt-a.txt
	: >"$tmp/crash-bt"
	if grep -q '^ *#0 ' "$ref" 2>/dev/null; then
		cp "$ref" "$tmp/crash-bt"
		return
	fi
	sid=${SID_CHROOT:-$top/tests/bench/sid-chroot.sh}
	[ -x "$sid" ] && "$sid" root >/dev/null 2>&1 || return 0
	printf 'bt -a\nquit\n' >"$tmp/crash.cmds"
	timeout 600 "$sid" run crash -s -i "$tmp/crash.cmds" "$vml" "$core" \
		>"$tmp/crash-bt" 2>/dev/null </dev/null || : >"$tmp/crash-bt"
	grep -q '^ *#0 ' "$tmp/crash-bt" || : >"$tmp/crash-bt"
}

# A real kdump: exit 0 (every trace reliable, the panic CPU's registers in
# __crash_kexec() included), or 3 only because memory the report needs is
# not in the dump (then it says so in a warning) with every trace reliable;
# the sysrq-t kdump (scenario kdump), captured whole, exits 0.
kdump_checks() {
	local name=$1 core=$2 vml=$3 json=$4 rc=$5 why
	crash_bt "$core" "$vml"
	[ -s "$tmp/crash-bt" ] || echo "SKIP $name: no crash bt -a to compare the stopped CPUs with (no sid chroot)"
	why=$(python3 "$here/kdump_status.py" "$json")
	# why pages are missing, held to drgn's reading of their struct page
	"$py" "$here/missing_pages.py" "$name" "$json" "$core" "$vml"
	if [ "$rc" -eq 0 ]; then
		echo "PASS $name: a real kdump exits 0"
	elif [ "${name#*/kdump/}" != "$name" ]; then
		# the sysrq-t kdump is captured whole (samples/guest-init.sh)
		echo "FAIL $name: the sysrq-t kdump exits $rc, not 0: ${why:-see the report}"
	elif [ "$rc" -eq 3 ] && [ "${why#memory missing: }" != "$why" ]; then
		echo "PASS $name: exit 3 only because the dump lacks memory, every trace reliable ($why)"
	else
		echo "FAIL $name: a real kdump exits $rc: ${why:-see the report}"
	fi
}

declare -A first_json order_done
py=/usr/bin/python3
[ -x "$py" ] || py=python3
n=0
while tst_next_dump; do
	n=$((n + 1))
	out=$tmp/$n.json
	if ! tst_report "$out" "$tmp/err" --json --all-tasks --scan "$core" "$vml"; then
		echo "FAIL $name: orccrash exited $rc: $(head -c 300 "$tmp/err")"
		continue
	fi
	echo "PASS $name: report produced (exit $rc)"
	# once per scenario: the other formats must give the same report (below)
	if [ -z "${first_json[$rel/$scen]:-}" ]; then
		"$py" "$top/tests/json/validate.py" --need-frames "$name" "$out"
		# --group: the same tasks, each stack once (tests/json/groups.py)
		"$bin" --json --group --all-tasks --scan "$core" "$vml" >"$tmp/group.json" 2>/dev/null
		"$py" "$top/tests/json/validate.py" --need-frames "$name --group" "$tmp/group.json"
		python3 "$top/tests/json/groups.py" "$name" "$tmp/group.json" "$out"
		# drgn's task list and traces (ref/drgn.txt: Debian 12's drgn,
		# or sid's where that one cannot read the dump)
		dref=$(dirname "$core")/ref/drgn.txt
		if [ -s "$dref" ]; then
			python3 "$here/drgn_traces.py" "$name" "$out" "$dref"
		else
			echo "SKIP $name: no ref/drgn.txt"
		fi
	fi
	# crash's order, VMLINUX VMCORE: the same report (once per release)
	if [ -r "$vml" ] && [ -z "${order_done[$rel]:-}" ]; then
		order_done[$rel]=1
		"$bin" --active "$core" "$vml" >"$tmp/order1" 2>&1
		rc1=$?
		"$bin" --active "$vml" "$core" >"$tmp/order2" 2>&1
		rc2=$?
		if [ $rc1 -eq $rc2 ] && cmp -s "$tmp/order1" "$tmp/order2" &&
		   grep -q "^ *DUMP: $core " "$tmp/order2"; then
			echo "PASS $name: VMLINUX VMCORE gives the report of VMCORE VMLINUX (exit $rc2)"
		else
			echo "FAIL $name: VMLINUX VMCORE (exit $rc2) differs from VMCORE VMLINUX (exit $rc1)"
			diff "$tmp/order1" "$tmp/order2" | head -n 5 | sed 's/^/  /'
		fi
	fi
	ref=$(dirname "$core")/ref/kernel.txt
	kd=()
	if [ "$fmt" = kdump-real ]; then
		kdump_checks "$name" "$core" "$vml" "$out" "$rc"
		kd=(--kdump)
		[ -s "$tmp/crash-bt" ] && kd+=(--crash-bt "$tmp/crash-bt")
	fi
	if [ -s "$ref" ]; then
		python3 "$here/compare.py" "$out" "$ref" "${kd[@]}" >"$tmp/compare.out" 2>&1
		crc=$?
		sed -E "s#^(PASS|FAIL|SKIP) #\1 $name: #" "$tmp/compare.out"
		# a compare.py that dies (say on a ref/kernel.txt it cannot
		# read) must not pass for one with nothing to say
		if [ $crc -gt 1 ] || { [ $crc -ne 0 ] && ! grep -q '^FAIL ' "$tmp/compare.out"; }; then
			fail "$name: compare.py exited $crc: $(tail -n 1 "$tmp/compare.out")"
		fi
	else
		echo "SKIP $name: no ref/kernel.txt"
	fi
	# Every format of one dump must give the same report.
	key="$rel/$scen"
	if [ -z "${first_json[$key]:-}" ]; then
		first_json[$key]=$out
	elif cmp -s "${first_json[$key]}" "$out"; then
		echo "PASS $name: same report as the first format of $key"
	else
		echo "FAIL $name: report differs from the first format of $key"
		diff "${first_json[$key]}" "$out" | head -10 | sed 's/^/  /'
	fi
	# The text report and the kernel log come out too.
	if "$bin" --all-tasks --log "$core" "$vml" >"$tmp/text" 2>&1 || [ $? -eq 3 ]; then
		if grep -q 'Kernel panic - not syncing' "$tmp/text"; then
			echo "PASS $name: text report with the kernel log"
		else
			echo "FAIL $name: the text report's log has no panic line"
		fi
	else
		echo "FAIL $name: text report failed: $(head -c 300 "$tmp/text")"
	fi
done <"$index"

# Bad input: a clear one-line error naming the file, exit 1, no signal.
row=$(grep -P '\tkdump\t' "$index" | head -n 1)
if [ -n "$row" ]; then
	core=$(cut -f4 <<<"$row"); vml=$(cut -f5 <<<"$row"); rel=$(cut -f1 <<<"$row")
	check_error() {	# name, expected text, command...
		local name=$1
		shift
		tst_one_line_error "bad input: $name" "$@"
	}
	for cut_at in 100 4096 65536 1048576; do
		head -c $cut_at "$core" >"$tmp/trunc"
		check_error "kdump cut at $cut_at bytes" "trunc" "$bin" --all-tasks "$tmp/trunc" "$vml"
	done
	: >"$tmp/empty"
	check_error "empty file" "$tmp/empty" "$bin" --all-tasks "$tmp/empty" "$vml"
	check_error "vmlinux is not ELF" "$tmp/empty" "$bin" --all-tasks "$core" "$tmp/empty"
	other=$(awk -F'\t' -v r="$rel" '$1 != r { print $5; exit }' "$index")
	if [ -n "$other" ]; then
		check_error "vmlinux of another kernel" "does not match" "$bin" --all-tasks "$core" "$other"
	else
		echo "SKIP bad input: no vmlinux of another kernel in the samples"
	fi
	objcopy --strip-all "$vml" "$tmp/stripped" 2>/dev/null &&
		check_error "stripped vmlinux" "stripped" "$bin" --all-tasks "$core" "$tmp/stripped"
fi
