#!/bin/bash
# The command layer (orccrash -e, --shell; docs/commands.md) on real dumps,
# held to oracles that read the same dump independently:
#   - drgn (tests/commands/drgn_oracle.py): ps (pid, ppid, cpu, state,
#     comm, task of every task), mod (struct module, base, size), the
#     addresses of symbols picked from the vmlinux, the bytes of rd's
#     reads (every width, the kernel image, a task_struct, a module), and
#     struct's members (the on-CPU tasks' task_structs, a struct module,
#     pid 1's mm_struct: every named top-level scalar, pointer, enum and
#     char[] member);
#   - crash, on the dumps it opens (6.1's; crash 8.0.2 cannot open 6.12):
#     mod, sym -m MODULE (every module's symbols), sym NAME, sym ADDRESS,
#     rd in every width and -s, and log, compared block for block;
#   - the kernel's own sysrq-t (the process scenario's serial log): every
#     task it listed, with the same ppid and comm, and a task it showed
#     asleep in the same state;
#   - the dump's own kallsyms: sym NAME without the vmlinux must give the
#     vmlinux's address, and ps, mod and rd must not change without it.
# Then: every --json document against docs/commands-schema.json; bad input
# (unknown command, symbol, option, an address not in the dump, a user
# address) is exit 1 with one line on stderr and nothing on stdout; the
# shell over a pipe gives what -e gives and goes on after an error; and,
# with tmux, completion of a command, a symbol name, a type and its
# members (a module's own type too) at the prompt and
# the history file.  Dumps: the default sample and, from the sample cache,
# per Debian 12 cloud release: the real kdump, the QEMU ELF dump with the
# test module's tasks blocked, the process scenario's kdump-compressed
# dump (sysrq-t); per other release, the real kdump (below).
# PASS/FAIL/SKIP lines, then
# "N passed, N failed".
set -u
# tst_init, tst_tally, tst_crash_stopped_before
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init commands "${1:-build}"
trap '[ -n "${ORCCRASH_KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
tst_tally
echo_so=${CRASH_ECHO_SO:-/usr/lib/crash/extensions/echo.so}
pyd=/usr/bin/python3	# Debian's, with python3-drgn and python3-jsonschema
[ -x "$pyd" ] || pyd=python3
if [ ! -x "$bin" ]; then
	say "FAIL commands: $bin not built"
	tst_finish
fi

# The dumps: "name<TAB>core<TAB>vmlinux<TAB>crash-able".
dumps=$tmp/dumps
: >"$dumps"
def_rel=$(sed -n 's/^release=//p' "$top/samples/default/README")
def_vml=$cache/kernels/$def_rel/vmlinux
[ -r "$def_vml" ] || def_vml=
# "-": no vmlinux (read's tab IFS would merge an empty field away)
printf 'default\t%s\t%s\t1\n' "$top/samples/default/vmcore" "${def_vml:--}" >>"$dumps"
# The commands are held to their oracles on every release of the
# samples: the Debian 12 cloud kernels (COMMANDS_RELEASES, an extended
# regular expression) on three dumps each, every other release
# (COMMANDS_MORE_RELEASES: 5.10, 6.1 generic and rt, 7.2) on its real
# kdump alone, to keep the tier's time in bounds.
export COMMANDS_RELEASES=${COMMANDS_RELEASES:-'^6\.1\.0-[0-9]+-cloud-amd64$|^6\.12\.[0-9]+\+deb12-cloud-amd64$'}
export COMMANDS_MORE_RELEASES=${COMMANDS_MORE_RELEASES:-.}
if [ -s "$index" ]; then
	# one kdump-compressed dump per release (crash reads those best)
	awk -F'\t' '$1 ~ ENVIRON["COMMANDS_RELEASES"] &&
		     (($2 == "kdump" && $3 == "kdump-real") || ($2 == "mod-blocked" && $3 == "elf") ||
		      ($2 == "process" && $3 == "kdump")) { printf "%s/%s/%s\t%s\t%s\t1\n", $1, $2, $3, $4, $5; next }
		     $1 ~ ENVIRON["COMMANDS_MORE_RELEASES"] && $2 == "kdump" && $3 == "kdump-real" {
			printf "%s/%s/%s\t%s\t%s\t1\n", $1, $2, $3, $4, $5 }' \
		"$index" >>"$dumps"
else
	say "SKIP commands: no sample dumps ($index): the default sample only"
fi

# Names to look up: every 1500th symbol of the vmlinux (nm: Debian's
# System.map is a placeholder) whose name is unique there (sym NAME of a
# name several static symbols share is any of them), at most 60; not the
# names the kernel's kallsyms leaves out (scripts/kallsyms.c
# is_ignored_symbol(): __crc_, __kstrtab_ ...), which orccrash's symbols,
# like the kernel's own, do not have (formats/elffile.c).
pick_symbols() {
	nm "$1" | awk '$3 ~ /^(\$|\.L|__crc_|__kstrtab_|__kstrtabns_|__efistub_|__kvm_nvhe_)/ { next }
	     $2 ~ /^[TtDdBbRr]$/ && $1 ~ /^ffffffff/ { n[$3]++; a[NR] = $3 }
	     END { for (i = 1; i <= NR; i++) if ((i % 1500) == 0 && n[a[i]] == 1) print a[i] }' |
		head -n 60
}

# orccrash's JSON documents on stdin (concatenated) -> {name: address|null}
syms_json() {
	"$pyd" -c '
import json, sys
sys.path.insert(0, sys.argv[2])
from jsondocs import docs
names = open(sys.argv[1]).read().split()
found = {d["args"][0]: d["result"]["address"] for d in docs(sys.stdin.read())}
json.dump({n: found.get(n) for n in names}, sys.stdout)
' "$1" "$here"
}

# ours: one command (-e), with its marker, for the blocks compared with crash
ours_block() {
	local d=$1 core=$2 vml=$3; shift 3
	for c in "$@"; do
		echo "@@ $c"
		"$bin" -e "$c" "$core" ${vml:+"$vml"} 2>&1
	done >"$d/ours-blocks.txt"
}

# The debug .ko files (DWARF) of the sample modules whose own types the
# commands tier holds to drgn (virtio_blk, virtio_ring), from RELEASE's
# -dbg package in the cache, extracted once into
# $cache/kernels/RELEASE/modules-dbg (~20 s: the package is read whole);
# prints that directory, nothing when the package is not in the cache.
debug_kos() {
	local kd=$cache/kernels/$1 deb t f
	if [ -f "$kd/modules-dbg/.complete" ]; then
		echo "$kd/modules-dbg"
		return
	fi
	deb=$(find "$cache/debs" -maxdepth 1 -name "linux-image-$1-dbg_*.deb" 2>/dev/null | head -n 1)
	[ -n "$deb" ] && [ -d "$kd" ] || return 0
	t=$(mktemp -d "$kd/modules-dbg.XXXXXX") || return 0
	# a pattern no file matches is tar's complaint, not a failure here
	dpkg-deb --fsys-tarfile "$deb" 2>/dev/null |
		tar -x -C "$t" --wildcards '*/virtio_blk.ko*' '*/virtio_ring.ko*' 2>/dev/null
	find "$t" -mindepth 2 -name '*.ko*' -exec mv -t "$t" {} +
	for f in "$t"/*.ko.xz; do [ -e "$f" ] && xz -d "$f"; done
	for f in "$t"/*.ko.zst; do [ -e "$f" ] && zstd -q -d --rm "$f"; done
	find "$t" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	touch "$t/.complete"
	# another dump of the release may have made it meanwhile
	mv -T "$t" "$kd/modules-dbg" 2>/dev/null || rm -rf "$t"
	[ -f "$kd/modules-dbg/.complete" ] && echo "$kd/modules-dbg"
}

check_dump() {
	local name=$1 core=$2 vml=$3 crashable=$4 d=$5
	local m

	if [ -z "$vml" ]; then
		say "SKIP commands $name: no vmlinux (make samples extracts it): no oracle"
		return
	fi
	pick_symbols "$vml" >"$d/names"
	[ -s "$d/names" ] || say "FAIL commands $name: no symbol names from nm $vml"
	# ours, with and without the vmlinux
	"$bin" --json -e ps "$core" "$vml" >"$d/ours-ps.json" 2>"$d/err" &&
	"$bin" --json --modules-dir "$(dirname "$core")" -e mod "$core" "$vml" >"$d/ours-mod.json" 2>>"$d/err" || {
		say "FAIL commands $name: orccrash -e ps/mod failed: $(head -c 300 "$d/err")"
		return
	}
	sed 's/^/sym /' "$d/names" | "$bin" --json --shell "$core" "$vml" 2>/dev/null |
		syms_json "$d/names" >"$d/ours-syms.json"
	sed 's/^/sym /' "$d/names" | "$bin" --json --shell "$core" 2>/dev/null |
		syms_json "$d/names" >"$d/ours-syms-novmlinux.json"
	mods=$("$pyd" -c 'import json,sys; print(" ".join(m["name"] for m in json.load(open(sys.argv[1]))["result"]["modules"]))' "$d/ours-mod.json")
	for m in $mods; do
		"$bin" --json -e "sym -m $m" "$core" "$vml" >"$d/ours-symm-$m.json" 2>/dev/null
	done
	"$bin" -e log "$core" "$vml" >"$d/ours-log.txt" 2>/dev/null
	"$bin" --json -e "ps -m" "$core" "$vml" >"$d/ours-psm.json" 2>/dev/null
	"$bin" -e "ps -m" "$core" "$vml" >"$d/ours-psm.txt" 2>/dev/null

	# without the vmlinux: the same tasks, modules and memory (mod's
	# DEBUGINFO column aside: without the lines it is unknown, '-')
	for c in ps "ps -m" mod "rd -64 linux_banner 9" "rd -s init_task 16"; do
		if cmp -s <("$bin" --no-lines -e "$c" "$core" "$vml" 2>&1) <("$bin" -e "$c" "$core" 2>&1); then
			say "PASS commands $name: '$c' the same without the vmlinux"
		else
			say "FAIL commands $name: '$c' differs without the vmlinux"
		fi
	done

	# struct: the on-CPU tasks' task_structs, the first module's struct
	# module, the mm_struct of pid 1, for drgn to hold every member to
	"$pyd" -c '
import json, sys
ps = json.load(open(sys.argv[1]))["result"]["tasks"]
for t in ps:
    if t["on_cpu"] is not None:
        print("struct task_struct", t["task"])
mods = json.load(open(sys.argv[2]))["result"]["modules"]
if mods:
    print("struct module", mods[0]["module"])
# members alone (struct TYPE.member ADDRESS): nested, a bit field, a string
for t in ps:
    if t["on_cpu"] is not None:
        for p in ("se.vruntime", "thread.sp", "comm", "sched_remote_wakeup", "signal"):
            print("struct task_struct.%s %s" % (p, t["task"]))
        break' "$d/ours-ps.json" "$d/ours-mod.json" >"$d/structs.list"
	local mm
	mm=$("$bin" -e "struct task_struct $(grep -m1 '"pid":1,' -A5 "$d/ours-ps.json" >/dev/null; "$pyd" -c 'import json,sys; print([t["task"] for t in json.load(open(sys.argv[1]))["result"]["tasks"] if t["pid"] == 1][0])' "$d/ours-ps.json")" "$core" "$vml" 2>/dev/null |
		sed -n 's/^    \.mm = (struct mm_struct \*)\(0x[0-9a-f]*\)[^,]*,$/\1/p')
	[ -n "$mm" ] && echo "struct mm_struct $mm" >>"$d/structs.list"
	# p: per-CPU variables (the kernel's BTF types those) on every CPU,
	# whole, a member alone, -x; drgn reads them through per_cpu()
	local ncpu
	ncpu=$("$pyd" -c 'import json,sys; print(len({t["cpu"] for t in json.load(open(sys.argv[1]))["result"]["tasks"] if t["pid"] == 0}))' "$d/ours-ps.json")
	for ((cpu = 0; cpu < ncpu; cpu++)); do
		echo "p runqueues:$cpu"
		echo "p -x runqueues:$cpu.nr_running"
		echo "p -x runqueues:$cpu.cpu"
		echo "p -x this_cpu_off:$cpu"
	done >>"$d/structs.list"
	echo "p runqueues:0.clock" >>"$d/structs.list"
	# p: globals BTF has no VAR for, typed by the vmlinux's DWARF:
	# scalars, an enum, a typedef'd struct, a struct's member, a pointer,
	# a const pointer, a list head, an array of unknown length (a
	# string), arrays of pointers (pg_data_t *[N], char *const [5]); jiffies, which only the linker script defines, drgn cannot
	# type: checked against jiffies_64 below
	printf 'p %s\n' jiffies_64 "-x jiffies_64" nr_cpu_ids max_pfn system_state panic_cpu \
		init_uts_ns.name.release init_task.pid saved_command_line blkcg_root_css modules linux_banner \
		node_data zone_names >>"$d/structs.list"
	i=0
	while read -r st; do
		i=$((i + 1))
		"$bin" -e "$st" "$core" "$vml" >"$d/ours-struct-$i.txt" 2>&1
		echo "$st" >"$d/ours-struct-$i.key"
	done <"$d/structs.list"
	# a module's own types, which only its BTF in the dump has
	# (src/kernel_modbtf.c): the virtio disk's struct virtio_blk and its
	# first queue's struct vring_virtqueue (virtio_ring's), which drgn
	# finds and reads with the modules' debug .ko (the -dbg package's
	# DWARF); asked of orccrash once drgn has found them (below)
	local kos="" rel
	rel=$(basename "$(dirname "$vml")")
	if grep -q '"name":"virtio_blk"' <(tr -d ' \n' <"$d/ours-mod.json"); then
		kos=$(debug_kos "$rel")
		# virtio_ring is built in from 6.12 on (Debian's cloud kernels):
		# its types are the vmlinux's there
		if [ -z "$kos" ] || [ ! -r "$kos/virtio_blk.ko" ]; then
			say "SKIP commands $name: a module's own types: no debug .ko of virtio_blk for drgn (the -dbg package is not in $cache/debs)"
			kos=""
		elif ! "$pyd" -c 'import json,sys; m = [m for m in json.load(open(sys.argv[1]))["result"]["modules"] if m["name"] == "virtio_blk"][0]; sys.exit(0 if m["btf"] else 1)' "$d/ours-mod.json"; then
			# btf_modules: 5.11 (kernel/bpf/btf.c, commit 36e68442d1af)
			case $rel in
			5.10.*) say "SKIP commands $name: a module's own types: no module BTF before 5.11 (mod says BTF no, rightly)" ;;
			*) say "FAIL commands $name: mod says virtio_blk has no BTF on $rel (btf_modules has it from 5.11)" ;;
			esac
			kos=""
		else
			printf 'disk virtio_blk struct virtio_blk\ndisk virtio_blk struct virtio_blk vqs[0].vq struct vring_virtqueue\n' >>"$d/structs.list"
		fi
	fi
	# struct TYPE with no address: the layout, held to drgn's type
	# (every member's name, bit offset and bit-field width), the module's
	# own type too when drgn has its debug .ko
	local lt
	for lt in task_struct mm_struct module sched_entity ${kos:+virtio_blk}; do
		echo "layout struct $lt" >>"$d/structs.list"
		"$bin" --json -e "struct $lt" "$core" "$vml" >"$d/ours-layout-struct_$lt.json" 2>/dev/null
	done
	# jiffies: the extern's declaration types it (vmlinux.lds.S makes it
	# jiffies_64's low word; on x86-64 all of it): the same address and
	# value as jiffies_64, whose definition drgn holds to its value above
	local pj pj64
	pj=$("$bin" -e "p jiffies" "$core" "$vml" 2>&1 | sed '1s/^jiffies //')
	pj64=$("$bin" -e "p jiffies_64" "$core" "$vml" 2>&1 | sed '1s/^jiffies_64 //')
	if [ -n "$pj" ] && [ "$(sed -n 2p <<<"$pj" | sed 's/^([^)]*)//')" = "$(sed -n 2p <<<"$pj64" | sed 's/^([^)]*)//')" ] &&
	   [ "$(head -n 1 <<<"$pj")" = "$(head -n 1 <<<"$pj64")" ] && grep -q '^(long unsigned int)[0-9]' <<<"$pj"; then
		say "PASS commands $name: p jiffies (the extern's declaration): $(tr '\n' ' ' <<<"$pj")as jiffies_64"
	else
		say "FAIL commands $name: p jiffies: '$pj', p jiffies_64: '$pj64'"
	fi

	# task PID is struct task_struct of the address ps gives the pid;
	# ps -S is ps's rows in that state
	local pid1
	pid1=$("$pyd" -c 'import json,sys; print([t["task"] for t in json.load(open(sys.argv[1]))["result"]["tasks"] if t["pid"] == 1][0])' "$d/ours-ps.json")
	if cmp -s <("$bin" -e "task 1" "$core" "$vml" 2>&1) <("$bin" -e "struct task_struct $pid1" "$core" "$vml" 2>&1); then
		say "PASS commands $name: 'task 1' prints the task_struct at ps's address for pid 1"
	else
		say "FAIL commands $name: 'task 1' differs from 'struct task_struct $pid1'"
	fi
	local bad_st=
	for st in S R D I; do
		cmp -s <("$bin" -e "ps -S $st" "$core" "$vml" 2>&1) \
		       <("$bin" -e ps "$core" "$vml" 2>&1 | awk -v s="$st" 'NR == 1 || substr($0, 42, 1) == s') ||
			bad_st="$bad_st $st"
	done
	if [ -z "$bad_st" ]; then
		say "PASS commands $name: 'ps -S S|R|D|I' are ps's rows in that state"
	else
		say "FAIL commands $name: 'ps -S STATE' is not ps's rows in STATE for:$bad_st"
	fi

	# bt prints the report's traces for the same selection (one printer,
	# src/report.c): the panic CPU, every CPU, a pid, a comm, a state
	local bad_bt= panic_cpu bt ro=()
	panic_cpu=$("$bin" --json --active "$core" "$vml" 2>/dev/null |
		"$pyd" -c 'import json,sys; c=json.load(sys.stdin)["kernel"]["panic"]["cpu"]; print("" if c is None else c)')
	for bt in "bt" "bt -a" "bt 1" "bt -s D" "bt --scan -s S" "bt kworker/*"; do
		case $bt in
		bt) ro=(--active --cpu "${panic_cpu:-0}") ;;
		"bt -a") ro=(--active) ;;
		"bt 1") ro=(--pid 1) ;;
		"bt -s D") ro=(--state D) ;;
		"bt --scan -s S") ro=(--scan --state S) ;;
		*) ro=(--comm 'kworker/*') ;;
		esac
		if [ "$bt" = bt ] && [ -z "$panic_cpu" ]; then
			[ "$("$bin" -e bt "$core" "$vml" 2>&1)" = "orccrash: bt: no panic CPU recorded (bt -a: every CPU)" ] ||
				bad_bt="$bad_bt 'bt' (no panic CPU)"
			continue
		fi
		cmp -s <("$bin" -e "$bt" "$core" "$vml" 2>&1) \
		       <("$bin" --no-header --no-lines "${ro[@]}" "$core" "$vml" 2>/dev/null) ||
			bad_bt="$bad_bt '$bt'"
	done
	if [ -z "$bad_bt" ]; then
		say "PASS commands $name: bt, bt -a, bt PID, bt COMM, bt -s STATE, bt --scan print the report's traces of that selection"
	else
		say "FAIL commands $name: bt differs from the report's traces for:$bad_bt"
	fi
	# and the kernel's own sysrq-t traces of the tasks asleep then
	local ref
	ref=$(dirname "$core")/ref/kernel.txt
	if [ -s "$ref" ]; then
		for sc in "" --scan; do
			for v in "$vml" ""; do
				for st in S D I; do
					"$bin" --json -e "bt $sc -s $st" "$core" ${v:+"$v"} 2>/dev/null
				done >"$d/bt.json"
				"$pyd" "$here/bt_check.py" $sc "commands $name${v:- (no vmlinux)}" "$ref" "$d/bt.json" |
					sed "s#$vml##" | record
			done
		done
	fi

	# dis against objdump of the vmlinux: every 500th text symbol, at
	# most 40, and the panic CPU's trace's functions; not the __init
	# ones (__init_begin..__init_end: free_initmem() gave that memory
	# back after boot, it holds something else now)
	nm -n "$vml" | awk '$3 == "__init_begin" { init = 1 } $3 == "__init_end" { init = 0 }
		!init && $2 ~ /^[Tt]$/ && $1 ~ /^ffffffff/ && $3 !~ /^(__pfx_|\.L|\$)/ && (++n % 500) == 0 { print $3 }' |
		head -n 40 >"$d/dis.names"
	"$bin" --json -e bt "$core" "$vml" 2>/dev/null | "$pyd" -c '
import json, sys
for c in json.load(sys.stdin)["result"]["cpus"]:
    for f in c["frames"]:
        if f["symbol"] and not f["module"]:
            print(f["symbol"])' | sort -u >>"$d/dis.names"
	sed 's/^/dis /' "$d/dis.names" | "$bin" --json --shell "$core" "$vml" >"$d/dis.json" 2>"$d/dis.err"
	"$pyd" "$here/dis_check.py" "commands $name" "$vml" "$d/dis.json" | record
	# dis -l: each instruction's source line against addr2line's
	sed 's/^/dis -l /' "$d/dis.names" | "$bin" --json --shell "$core" "$vml" >"$d/disl.json" 2>"$d/disl.err"
	"$pyd" "$here/dis_lines_check.py" "commands $name" "$vml" "$d/disl.json" | record
	if cmp -s <(sed 's/^/dis /' "$d/dis.names" | "$bin" --shell "$core" "$vml" 2>&1) \
		  <(sed 's/^/dis /' "$d/dis.names" | "$bin" --shell "$core" 2>&1); then
		say "PASS commands $name: dis of $(wc -l <"$d/dis.names") functions the same without the vmlinux"
	else
		say "FAIL commands $name: dis differs without the vmlinux"
	fi
	# and a module's functions against its .ko (relocated bytes aside)
	local ko
	ko=$(dirname "$core")/orccrash_test.ko
	if [ -r "$ko" ] && [ -s "$d/ours-symm-orccrash_test.json" ]; then
		"$pyd" -c '
import json, sys
for s in json.load(open(sys.argv[1]))["result"]["symbols"]:
    if s["type"] in "tT" and s["size"] > 0:
        print("dis " + s["name"])' "$d/ours-symm-orccrash_test.json" |
			"$bin" --json --shell "$core" "$vml" >"$d/dis-mod.json" 2>/dev/null
		"$pyd" "$here/dis_check.py" "commands $name" "$ko" "$d/dis-mod.json" | record
	fi
	# dis -f SYMBOL+OFF (a frame as the trace prints it) marks the
	# instruction at each frame's ip of the panic CPU's trace: one mark,
	# at the ip; a return address follows a call (or, a call that does
	# not return being the function's last, is the function's end)
	local bad_f=
	while read -r ip how at; do
		"$bin" --json -e "dis -f $at" "$core" "$vml" 2>/dev/null >"$d/disf.json"
		"$pyd" -c '
import json, sys
r = json.load(open(sys.argv[1]))["result"]
ins, ip, how = r["instructions"], int(sys.argv[2], 16), sys.argv[3]
m = [i for i, x in enumerate(ins) if x["marked"]]
if r["end_marked"]:
    # a return address at the function end: its last instruction a call
    ok = not m and how not in ("start", "regs") and ins[-1]["mnemonic"] == "call" and \
        int(ins[-1]["address"], 16) + len(ins[-1]["bytes"]) // 2 == ip
else:
    ok = len(m) == 1 and int(ins[m[0]]["address"], 16) == ip
    if ok and how not in ("start", "regs"):
        ok = m[0] > 0 and ins[m[0] - 1]["mnemonic"] == "call"
sys.exit(0 if ok else 1)' "$d/disf.json" "$ip" "$how" || bad_f="$bad_f $at($how)"
	done < <("$bin" --json -e bt "$core" "$vml" 2>/dev/null | "$pyd" -c '
import json, sys
for c in json.load(sys.stdin)["result"]["cpus"]:
    for f in c["frames"]:
        if f["symbol"] and not f["scanned"]:
            # as the trace prints the frame: symbol+offset
            print(f["ip"], "regs" if f.get("regs") else f["how"], "%s+0x%x" % (f["symbol"], f["offset"]))')
	if [ -z "$bad_f" ]; then
		say "PASS commands $name: dis -f IP marks each frame's ip of the panic CPU's trace, a return address after a call"
	else
		say "FAIL commands $name: dis -f IP: no single mark at the ip, or no call before a return address:$bad_f"
	fi

	# the commands compared with crash text for text
	local task mod1 sa=() rds=()
	task=$("$pyd" -c 'import json,sys; t=[t for t in json.load(open(sys.argv[1]))["result"]["tasks"] if t["on_cpu"] is not None and t["pid"]]; print(t[0]["task"] if t else "")' "$d/ours-ps.json")
	mod1=$(set -- $mods; echo "${1:-}")
	for s in $(head -n 12 "$d/names"); do
		a=$("$pyd" -c 'import json,sys; a=json.load(open(sys.argv[1])).get(sys.argv[2]); print("%x" % (int(a,16)+3) if a else "")' "$d/ours-syms.json" "$s")
		[ -n "$a" ] && sa+=("sym $a")
	done
	# and a module's: its first text and its first data symbol, + 3
	if [ -n "$mod1" ]; then
		for a in $("$pyd" -c '
import json, sys
syms = json.load(open(sys.argv[1]))["result"]["symbols"]
for kind in "tT", "dDbBrR":
    s = [x for x in syms if x["type"] in kind and x["size"] > 3]
    if s:
        print("%x" % (int(s[0]["address"], 16) + 3))' "$d/ours-symm-$mod1.json"); do
			sa+=("sym $a")
		done
	fi
	rds=("rd linux_banner 9" "rd -32 linux_banner 9" "rd -16 linux_banner 11" "rd -8 linux_banner 37"
	     "rd -64 init_task 7" "rd -s init_task 24" "rd -s jiffies 3")
	[ -n "$task" ] && rds+=("rd -s $task 20" "rd -32 $task 6")
	# a module's struct module (crash and we name its words alike)
	[ -n "$mod1" ] && rds+=("rd -s $("$pyd" -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"]["modules"][0]["module"])' "$d/ours-mod.json") 8")
	# physical memory: linux_banner's page (where the kernel image is,
	# phys_base from VMCOREINFO), and the first MiB
	local ban_pa
	ban_pa=$("$bin" -e "sym linux_banner" "$core" "$vml" 2>/dev/null | "$pyd" -c '
import sys
v = int(sys.stdin.read().split()[0], 16)
print("%x" % ((v - 0xffffffff80000000 + int(sys.argv[1])) % 2**64))' \
		"$(head -c 16777216 "$core" | strings -n 8 | sed -n 's/^NUMBER(phys_base)=//p' | head -n 1)" 2>/dev/null)
	# (and across a page boundary: the image is physically contiguous)
	[ -n "$ban_pa" ] && rds+=("rd -p $ban_pa 6" "rd -32 -p $ban_pa 6"
				  "rd -p $(printf '%x' $(((0x$ban_pa | 0xfff) - 7))) 3")
	# a user address of the panic task: its syscall's user ip and stack,
	# in the QEMU ELF dumps (all memory; makedumpfile drops user pages)
	local uregs uregs_skip=
	[[ $name == */elf ]] || uregs_skip=1
	uregs=$("$bin" --json -e bt "$core" "$vml" 2>/dev/null | "$pyd" -c '
import json, sys
for c in json.load(sys.stdin)["result"]["cpus"]:
    for f in c["frames"]:
        if f.get("regs") and not f["symbol"] and c["pid"]:
            print(c["pid"], f["regs"]["ip"][2:], f["regs"]["sp"][2:])
            sys.exit()')
	if [ -n "$uregs" ] && [ -z "${uregs_skip:-}" ]; then
		set -- $uregs
		rds+=("rd -u $1 $2 4" "rd -8 -u $1 $3 32")
	fi
	ours_block "$d" "$core" "$vml" "${sa[@]}" "${rds[@]}"
	# the same reads as JSON, for drgn's prog.read() of the same bytes
	local i=0
	for c in "${rds[@]}"; do
		i=$((i + 1))
		"$bin" --json -e "$c" "$core" "$vml" >"$d/ours-rd-$i.json" 2>/dev/null
	done
	"$pyd" -c '
import glob, json, sys
for p in sorted(glob.glob(sys.argv[1] + "/ours-rd-*.json")):
    r = json.load(open(p))["result"]
    if r.get("space", "kernel") != "user":
        print(r["address"], len(r["words"]) * r["width"] // 8, r.get("space", "kernel"))' "$d" >"$d/rd.list"

	if [ -n "$crashable" ] && [ "$have_crash" = 1 ] && tst_crash_stopped_before "$core"; then
		say "SKIP commands $name: crash cannot open it: as recorded in $(dirname "$core")/ref/crash-ps.txt: $(grep -m1 -E '^(crash: |# not run: )' "$(dirname "$core")/ref/crash-ps.txt" | head -c 200)"
	elif [ -n "$crashable" ] && [ "$have_crash" = 1 ]; then
		# crash's echo takes "-32" for an option: the markers are
		# numbers, turned back into the commands afterwards
		{
			echo mod
			echo "mod -t"
			echo "ps -m"
			for m in $mods; do echo "sym -m $m"; done
			sed 's/^/sym /' "$d/names"
			for c in "${sa[@]}" "${rds[@]}"; do echo "$c"; done
			echo log
		} >"$d/keys"
		{
			echo "extend $echo_so"
			# rd -u PID: crash's "set PID" first, its output under a
			# marker no key has
			awk '$1 == "rd" && / -u / { for (i = 2; i < NF; i++) if ($i == "-u") { pid = $(i + 1); $(i + 1) = ""; break }
					printf "echo @@ 0\nset %s\necho @@ %d\n%s\n", pid, NR, $0; next }
			     { printf "echo @@ %d\n%s\n", NR, $0 }' "$d/keys"
			echo "quit"
		} >"$d/crash.cmds"
		timeout 600 crash -s -i "$d/crash.cmds" "$vml" "$core" 2>&1 </dev/null |
			awk 'NR == FNR { key[FNR] = $0; next }
			     /^@@ [0-9]+ *$/ { print "@@ " key[$2]; next } { print }' "$d/keys" - >"$d/crash.txt"
		if ! grep -q '^@@ mod' "$d/crash.txt"; then
			local why
			why=$(grep -m1 -v "^ *$" "$d/crash.txt" | head -c 200)
			say "SKIP commands $name: crash cannot open it: ${why:-(no output)}"
			rm -f "$d/crash.txt"
		fi
	fi
	if [ "$have_drgn" = 1 ]; then
		local kargs=() f
		for f in ${kos:+"$kos"/*.ko}; do kargs+=(-s "$f"); done
		timeout 600 "$pyd" -m drgn -q -c "$core" -s "$vml" "${kargs[@]}" \
			"$here/drgn_oracle.py" "$d/names" "$d/rd.list" "$d/structs.list" \
			>"$d/drgn.json" 2>"$d/drgn.err" ||
			{ say "SKIP commands $name: drgn cannot read it: $(tail -n 1 "$d/drgn.err" | head -c 200)"; rm -f "$d/drgn.json"; }
	fi
	# the objects drgn found for a module's own types: orccrash's struct
	# of each, with and without the vmlinux (the module's BTF over the
	# dump's own), for check.py (modtypes.list: their own line)
	: >"$d/modtypes.list"
	if [ -n "$kos" ] && [ -s "$d/drgn.json" ]; then
		"$pyd" -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1])).get("located", [])))' \
			"$d/drgn.json" >"$d/modtypes.list"
		while read -r st; do
			[ -n "$st" ] || continue
			i=$((i + 1))
			"$bin" -e "$st" "$core" "$vml" >"$d/ours-struct-$i.txt" 2>&1
			echo "$st" >"$d/ours-struct-$i.key"
			if cmp -s "$d/ours-struct-$i.txt" <("$bin" -e "$st" "$core" 2>&1); then
				say "PASS commands $name: '$st' the same without the vmlinux (the module's BTF over the dump's)"
			else
				say "FAIL commands $name: '$st' differs without the vmlinux"
			fi
		done <"$d/modtypes.list"
		# none found: drgn could not read this dump's memory at all
		# (Debian 12's drgn on QEMU's ELF dumps: "recursive address
		# translation": every struct it lists has no member read; check.py
		# says SKIP for them), else
		# a failure
		if ! grep -q . "$d/modtypes.list"; then
			if "$pyd" -c 'import json,sys; sys.exit(0 if any(json.load(open(sys.argv[1]))["structs"].values()) else 1)' "$d/drgn.json"; then
				say "FAIL commands $name: drgn found no virtio_blk objects: $(grep -m1 'disk' "$d/drgn.json" | head -c 200)"
			else
				say "SKIP commands $name: a module's own types: drgn reads no struct of this dump: $(grep -m1 'disk' "$d/drgn.json" | head -c 200)"
			fi
		fi
	fi
	# p of a module's globals through its .ko's DWARF (--modules-dir):
	# the address, the type (qualifiers dropped) and an int's value as
	# crash reads them after `mod -s` loads the .ko (gdb relocates it by
	# the module's sections; Debian 12's drgn loads it unrelocated).  A
	# struct of the module's own is not in the kernel's BTF: left out.
	local ko
	ko=$(dirname "$core")/orccrash_test.ko
	if command -v crash >/dev/null && [ -r "$ko" ]; then
		local g globals="orccrash_depth_limit orccrash_never orccrash_mutex orccrash_wq orccrash_done"
		{
			echo "mod -s orccrash_test $ko"
			for g in $globals; do echo "p &$g"; echo "p $g"; done
			echo quit
		} >"$d/crash-modglobals.cmds"
		timeout 600 crash -s -i "$d/crash-modglobals.cmds" "$vml" "$core" </dev/null >"$d/crash-modglobals.out" 2>&1
		for g in $globals; do
			"$bin" --modules-dir "$(dirname "$core")" -e "p $g" "$core" "$vml" >"$d/ours-modglobal-$g.txt" 2>&1
		done
		"$pyd" - "commands $name" "$d" $globals <<'PY' | record
import re, sys
name, d, names = sys.argv[1], sys.argv[2], sys.argv[3:]
out = open(d + "/crash-modglobals.out", errors="replace").read()
quals = r"(?:(?:const|volatile) )*"
n, bad = 0, []
for g in names:
    a = re.search(r"^\$\d+ = \(%s(.*?) \*\) (0x[0-9a-f]+) <%s>$" % (quals, g), out, re.M)
    if not a:
        continue
    n += 1
    v = re.search(r"^%s = \$\d+ = (-?\d+)$" % g, out, re.M)
    ours = open("%s/ours-modglobal-%s.txt" % (d, g)).read().splitlines()
    m = re.match(r"^(\S+) at (0x[0-9a-f]+):$", ours[0] if ours else "")
    o = re.match(r"^\((.*?)\)(-?\d+)?", ours[1] if len(ours) > 1 else "")
    got = (m.group(2) if m else None, o.group(1) if o else None, o.group(2) if o else None)
    want = (a.group(2), a.group(1), v.group(1) if v else None)
    if got != want:
        bad.append("%s: ours %s, crash %s" % (g, got, want))
if not n:
    print("SKIP %s: crash read none of the module's globals: %s" %
          (name, (out.strip().splitlines() or [""])[-1][:200]))
elif bad:
    print("FAIL %s: p of the module's globals against crash: %s" % (name, "; ".join(bad)))
else:
    print("PASS %s: p of %d of the module's globals (its .ko's DWARF, --modules-dir): the address, "
          "type and int value crash reads after mod -s" % (name, n))
PY
	fi
	# the kernel's own sysrq-t task lines, when the scenario has them
	[ -r "$(dirname "$core")/serial.log" ] && ln -s "$(dirname "$core")/serial.log" "$d/serial.log"
	"$pyd" "$here/check.py" "commands $name" "$d" | record

	# every command's JSON against the schema
	for c in "dis schedule" "dis -f schedule+0x5" "dis schedule+0x4 3" "dis -l -f schedule+0x5" bt "bt -a" "bt 1" "bt -s D" "p runqueues" "p runqueues:0.nr_running" "p -x this_cpu_off:1" "ps -m" "ps -m -S D" ps "ps -S S" "task 1" mod log help "sym schedule" "sym jiffies" "sym -m ${mod1:-none}" \
		 "$(head -n 1 "$d/structs.list")" "struct list_head" "struct -o task_struct.se" \
		 "rd -s init_task 8" "rd -8 linux_banner 5"; do
		"$bin" --json -e "$c" "$core" "$vml" >"$d/json-$(echo "$c" | tr -c 'a-z0-9\n' _).json" 2>/dev/null
	done
	"$pyd" "$top/tests/json/validate.py" --schema "$top/docs/commands-schema.json" \
		"commands $name" "$d"/json-*.json | record
}

have_crash=0
command -v crash >/dev/null 2>&1 && [ -r "$echo_so" ] && have_crash=1
[ $have_crash = 1 ] || say "SKIP commands: no crash or no $echo_so: no crash oracle"
have_drgn=0
"$pyd" -c 'import drgn' 2>/dev/null && have_drgn=1
[ $have_drgn = 1 ] || say "SKIP commands: no python3-drgn: no drgn oracle"

n=0
while IFS=$'\t' read -r name core vml crashable; do
	n=$((n + 1))
	[ "$vml" = - ] && vml=
	[[ "$name" =~ ${ORCCRASH_COMMANDS_FILTER:-.} ]] || continue
	mkdir -p "$tmp/$n"
	check_dump "$name" "$core" "$vml" "$crashable" "$tmp/$n"
done <"$dumps"

# ---- bad input: one line, exit 1, nothing on stdout (the default sample)
core=$top/samples/default/vmcore
bad_input() {
	local what=$1 want=$2; shift 2
	"$bin" "$@" "$core" >"$tmp/out" 2>"$tmp/err"
	local rc=$? lines
	lines=$(wc -l <"$tmp/err")
	if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ ! -s "$tmp/out" ] &&
	   grep -q "^orccrash: $want" "$tmp/err" && ! grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/err"; then
		say "PASS commands: $what: exit 1, '$(cat "$tmp/err")'"
	else
		say "FAIL commands: $what: exit $rc, $lines lines on stderr, $(wc -c <"$tmp/out") bytes on stdout: $(head -c 300 "$tmp/err")"
	fi
}
bad_input "unknown command" "frobnicate: unknown command" -e frobnicate
bad_input "unknown symbol" "sym: no symbol no_such_symbol_here" -e "sym no_such_symbol_here"
bad_input "address not in the dump" "rd: 0xffff800000000000: not in the dump" -e "rd ffff800000000000 4"
bad_input "user address" "rd: 0x400000: not a kernel virtual address" -e "rd 400000"
bad_input "unknown option" "rd: unknown option -q" -e "rd -q jiffies"
bad_input "control bytes in an argument" "sym: no symbol a\\\\x1bb" -e $'sym a\033b'
bad_input "unknown type" "struct: no type no_such_type" -e "struct no_such_type init_task"
bad_input "struct not in the dump" "struct: 0xffff800000000000 (" -e "struct list_head ffff800000000000"
bad_input "no such pid" "task: no task with pid 99999" -e "task 99999"
bad_input "bt of no such task" "bt: no task whose comm matches 'nosuch'" -e "bt nosuch"
bad_input "bt -s with no state" "bt: -s STATE: one of" -e "bt -s"
bad_input "p of a variable BTF does not type" "p: jiffies: no type in the kernel's BTF" -e "p jiffies"
bad_input "p of a CPU the dump has not" "p: bad CPU 4096" -e "p runqueues:4096"
bad_input "p of no such member" "p: " -e "p runqueues:0.no_such_member"
bad_input "dis of an address not in the dump" "dis: 0xffff800000000000: not in the dump" -e "dis ffff800000000000 4"
bad_input "dis -f with a count" "dis: -f takes no COUNT" -e "dis -f schedule 3"
bad_input "dis -l without a vmlinux" "dis: -l: no source lines here" -e "dis -l schedule"
bad_input "rd -u of a kernel thread" "rd: pid 2: a kernel thread, no user memory" -e "rd -u 2 400000"
bad_input "rd -u of a kernel address" "rd: 0xffffffff81000000: not a user address" -e "rd -u 1 ffffffff81000000"
bad_input "rd -p of a symbol" "rd: linux_banner: not a hex address" -e "rd -p linux_banner"
bad_input "bad ps state" "ps: usage: ps \[-m\] \[-S STATE\]" -e "ps -S Q"
bad_input "unterminated quote" "command line: unterminated quote" -e "sym 'jiffies"
bad_input "an unknown command stops -e" "nosuch: unknown command" --json -e nosuch -e "sym jiffies"

# ---- the shell over a pipe: what -e prints; goes on after an error
"$bin" -e "sym jiffies" -e "rd -32 linux_banner 8" -e mod "$core" >"$tmp/e.txt" 2>&1
printf 'sym jiffies\nnosuch\nrd -32 linux_banner 8\n\nmod\nquit\nps\n' |
	"$bin" --shell "$core" >"$tmp/sh.txt" 2>"$tmp/sh.err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$tmp/e.txt" "$tmp/sh.txt" && [ "$(wc -l <"$tmp/sh.err")" -eq 1 ] &&
   grep -q '^orccrash: nosuch: unknown command' "$tmp/sh.err"; then
	say "PASS commands: --shell over a pipe prints what -e prints, one line for the bad command, stops at quit"
else
	say "FAIL commands: --shell over a pipe: exit $rc; $(diff "$tmp/e.txt" "$tmp/sh.txt" | head -5); stderr: $(head -c 200 "$tmp/sh.err")"
fi

# ---- bash completion: -e <TAB> offers the commands `help` lists
if [ -r /usr/share/bash-completion/bash_completion ]; then
	want=$("$bin" -e help "$core" | awk '{ print $1 }' | sort | xargs)
	got=$(bash -c 'source /usr/share/bash-completion/bash_completion
		source "$1/completion/orccrash"
		COMP_WORDS=("$2" -e ""); COMP_CWORD=2; COMP_LINE="$2 -e "; COMP_POINT=${#COMP_LINE}
		_orccrash "$2" "" -e; printf "%s\n" "${COMPREPLY[@]}"' _ "$top" "$bin" | sort | xargs)
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		say "PASS commands: bash completion of -e offers the commands help lists ($got)"
	else
		say "FAIL commands: bash completion of -e offers '$got', help lists '$want'"
	fi
else
	say "SKIP commands: no bash-completion: -e completion not tested"
fi

# ---- the prompt: completion and history (tmux)
if command -v tmux >/dev/null 2>&1; then
	sock=$tmp/tmux.sock hist=$tmp/history
	tmux -S "$sock" new-session -d -x 160 -y 40 \
		"env ORCCRASH_HISTORY=$hist TERM=xterm $bin --shell $core; sleep 30"
	wait_for() {	# wait_for REGEX: up to 10 s for the screen to show it
		for _ in $(seq 50); do
			tmux -S "$sock" capture-pane -p >"$tmp/screen" 2>/dev/null
			grep -qE "$1" "$tmp/screen" && return 0
			sleep 0.2
		done
		return 1
	}
	jif=$("$bin" -e "sym linux_banner" "$core" | cut -c1-16)
	if wait_for '^orccrash>' &&
	   tmux -S "$sock" send-keys 'sym linux_ban' Tab Enter && wait_for "^$jif \\(.\\) linux_banner" &&
	   tmux -S "$sock" send-keys 'mo' Tab Enter && wait_for 'MODULE +NAME +BASE' &&
	   tmux -S "$sock" send-keys 'struct task_str' Tab '.se.vrun' Tab ' init_task' Enter &&
	   wait_for '^struct task_struct\.se\.vruntime at 0x[0-9a-f]+:' &&
	   tmux -S "$sock" send-keys 'struct -x virtio_blk_v' Tab && wait_for '^orccrash> struct -x virtio_blk_vq *$' &&
	   tmux -S "$sock" send-keys C-u 'quit' Enter && for _ in $(seq 25); do [ -s "$hist" ] && break; sleep 0.2; done &&
	   grep -Eq 'sym( |\\040)linux_banner' "$hist" && grep -q '^mod' "$hist"; then
		say "PASS commands: --shell completes 'sym linux_ban', 'mo', struct's type and members ('struct task_str' then '.se.vrun': task_struct.se.vruntime) and a module's own type (virtio_blk_vq, from the module's BTF), keeps the history in \$ORCCRASH_HISTORY"
	else
		say "FAIL commands: --shell completion/history; screen:"
		sed 's/^/  /' "$tmp/screen" | tail -n 12
		[ -r "$hist" ] && sed 's/^/  history: /' "$hist"
	fi
	tmux -S "$sock" kill-server 2>/dev/null
else
	say "SKIP commands: no tmux: prompt completion not tested"
fi
tst_finish
