#!/bin/bash
# Dump-only mode against the vmlinux path, on every sample dump:
#   tests/realdump/novmlinux.sh [BUILD_DIR]
# For each row of ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv
# (release scenario format vmcore vmlinux kaslr):
#   A  orccrash --json --all-tasks --scan VMCORE VMLINUX
#   B  orccrash --json --all-tasks --scan --no-vmlinux VMCORE VMLINUX
#   C  orccrash --json --all-tasks --scan VMCORE
# B and C (symbols from kallsyms, types from BTF and ORC from dump
# memory) must give the same kernel header, CPUs, tasks and frames (ip,
# sp, symbol, offset, size, module, stack, registers, stop reasons) as A,
# and C the same text report with --log (but for its VMLINUX line).
# Excluded, because only a vmlinux's DWARF has them: a frame's "file",
# "line" and "inlines"; and a frame's "how" may be "cfi" with the vmlinux
# (its .debug_frame) where it is "callsite" without: the same frame,
# found by the next rule (docs/design.md, "Where ORC has no entry").  The banner is compared: both paths read it from
# dump memory.  The time of each path is reported, not asserted.
# Prints PASS/FAIL/SKIP lines; exits 1 if anything failed.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init novmlinux "${1:-build}"
tst_need_index
tst_need_exec "$bin" "run make"

cat >"$tmp/cmp.py" <<'EOF'
import json, sys

# Only a vmlinux's DWARF knows these; dump-only mode has no DWARF.
EXCLUDED = {"file", "line", "inlines"}
# and where the crash summary found a page fault's address and error
# code: exc_page_fault's DWARF variables, or (without them) the log
EXCLUDED |= {"from"}
# CFI (.debug_frame, with the vmlinux) or the verified call site (without)
SAME_FRAME = {"cfi", "callsite"}

def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in EXCLUDED:
                continue
            if k == "how" and {a.get(k), b.get(k)} <= SAME_FRAME:
                continue
            if k not in a or k not in b:
                out.append("%s.%s: only in %s" % (path, k, "vmlinux" if k in a else "dump-only"))
            else:
                diff(a[k], b[k], path + "." + k, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: %d entries with the vmlinux, %d dump-only" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i), out)
    elif a != b:
        out.append("%s: %r with the vmlinux, %r dump-only" % (path, a, b))

ref, other = (json.load(open(p)) for p in sys.argv[1:3])
out = []
diff(ref, other, "", out)
tasks = ref.get("tasks", [])
frames = sum(len(t.get("frames", [])) for t in tasks + ref.get("cpus", []))
named = sum(1 for t in tasks + ref.get("cpus", []) for f in t.get("frames", []) if f.get("symbol"))
if out:
    print("%d differences:" % len(out))
    for line in out[:12]:
        print("  " + line)
    sys.exit(1)
if not tasks or not named:
    print("nothing compared (%d tasks, %d named frames)" % (len(tasks), named))
    sys.exit(1)
print("%d tasks, %d CPUs, %d frames (%d named)" % (len(tasks), len(ref.get("cpus", [])), frames, named))
EOF

# run NAME OUT ARGS...: orccrash with its wall time in $tmp/NAME.time
run() {
	local name=$1 out=$2 t0 t1 rc
	shift 2
	t0=$(date +%s.%N)
	"$bin" --json --all-tasks --scan "$@" >"$out" 2>"$tmp/$name.err"
	rc=$?
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.2fs", $2 - $1 }' >"$tmp/$name.time"
	# 3: complete, some traces unreliable
	[ $rc -eq 0 ] || [ $rc -eq 3 ]
}

pyd=/usr/bin/python3	# Debian's, with python3-jsonschema
[ -x "$pyd" ] || pyd=python3
declare -A validated
n=0
while tst_next_dump -v; do
	n=$((n + 1))
	if ! run ref "$tmp/a.json" "$core" "$vml"; then
		skip "$name: the vmlinux path fails: $(head -c 200 "$tmp/ref.err")"
		continue
	fi
	# the vmlinux report is validated by run.sh; these once per scenario
	# (every format gives the same report, run.sh checks)
	validate=
	[ -z "${validated[$rel/$scen]:-}" ] && validate=1 && validated[$rel/$scen]=1
	for variant in nov alone; do
		if [ $variant = nov ]; then
			label="--no-vmlinux"
			run $variant "$tmp/b.json" --no-vmlinux "$core" "$vml"
		else
			label="vmcore alone"
			run $variant "$tmp/b.json" "$core"
		fi
		if [ $? -ne 0 ]; then
			fail "$name: $label failed: $(head -c 300 "$tmp/$variant.err")"
			continue
		fi
		[ -n "$validate" ] &&
			"$pyd" "$top/tests/json/validate.py" --need-frames "$name: $label" "$tmp/b.json"
		if res=$(python3 "$tmp/cmp.py" "$tmp/a.json" "$tmp/b.json"); then
			pass "$name: $label same report as with the vmlinux: $res (vmlinux $(cat "$tmp/ref.time"), dump-only $(cat "$tmp/$variant.time"))"
		else
			fail "$name: $label: $res"
		fi
	done
	# The text report with the kernel log (found through kallsyms'
	# prb/log_buf symbols): the same but for the VMLINUX header line.
	"$bin" --all-tasks --log --no-lines "$core" "$vml" 2>&1 | grep -v '^ *VMLINUX: ' >"$tmp/a.txt"
	"$bin" --all-tasks --log "$core" 2>&1 | grep -v '^ *VMLINUX: ' >"$tmp/b.txt"
	if ! grep -q 'Kernel panic - not syncing' "$tmp/a.txt"; then
		skip "$name: the vmlinux text report has no panic line to compare"
	elif cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
		pass "$name: vmcore alone same text report and log ($(wc -l <"$tmp/a.txt") lines)"
	else
		fail "$name: vmcore alone text report differs:"
		diff "$tmp/a.txt" "$tmp/b.txt" | head -8 | sed 's/^/  /'
	fi
done <"$index"

if [ $n -eq 0 ]; then
	skip "novmlinux: no readable dumps in $index"
fi

# A kernel without the kallsyms entries in VMCOREINFO (pre-6.0), made by
# renaming one in a copy of a kdump-compressed dump (VMCOREINFO is stored
# uncompressed there): the tables are then found by their shape in the
# kernel image (src/kernel_nov.c) and the report is the one the listed
# tables give.  With SYMBOL(init_uts_ns) renamed too there is no image to
# search: one clear line asking for the vmlinux, exit 1; with the vmlinux
# the same copy still works.  With SYMBOL(clear_seq) off by 0x40
# the table found disagrees with VMCOREINFO: refused, in one line.
# One kdump-compressed dump of each release; a real pre-6.0 one (5.10)
# needs no renaming and has no listed tables to compare with.
# The search knows the tables as scripts/kallsyms.c laid them out before
# 6.15 (names, markers, token table, token index, then the offsets, and a
# relative base); 6.15+ orders them otherwise and stores place-relative
# offsets, and lists them in VMCOREINFO like every kernel since 6.0: no
# such kernel needs the search, so it is not held to them.
search_knows() {
	local v=${1%%-*} maj min
	maj=${v%%.*}; v=${v#*.}; min=${v%%.*}
	[ "$maj" -lt 6 ] || { [ "$maj" -eq 6 ] && [ "$min" -lt 15 ]; }
}
declare -A pre6_done
while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	case $fmt in kdump | kdump-real) ;; *) continue ;; esac
	[ -r "$core" ] && [ -z "${pre6_done[$rel]:-}" ] || continue
	pre6_done[$rel]=1
	if ! search_knows "$rel"; then
		skip "$rel: pre-6.0 VMCOREINFO: the search knows the table layouts before 6.15 only (this kernel lists its tables)"
		continue
	fi
	kind=$(python3 - "$core" "$tmp/old.kdump" "$tmp/bare.kdump" "$tmp/wrong.kdump" <<'EOF'
import re, sys
data = open(sys.argv[1], "rb").read()
for key in (b"SYMBOL(init_uts_ns)=", b"SYMBOL(clear_seq)="):
    if data.count(key) != 1:
        sys.exit("no single %s" % key.decode())
listed = data.count(b"SYMBOL(kallsyms_names)=")
if listed > 1:
    sys.exit("several SYMBOL(kallsyms_names)")
old = data.replace(b"SYMBOL(kallsyms_names)=", b"SYMBOL(kallsyms_namez)=")
open(sys.argv[2], "wb").write(old)
open(sys.argv[3], "wb").write(old.replace(b"SYMBOL(init_uts_ns)=", b"SYMBOL(init_uts_nz)="))
m = re.search(rb"SYMBOL\(clear_seq\)=([0-9a-f]{16})", old)
wrong = b"%016x" % (int(m.group(1), 16) ^ 0x40)
open(sys.argv[4], "wb").write(old[:m.start(1)] + wrong + old[m.end(1):])
print("listed" if listed else "pre6")
EOF
)
	if [ $? -ne 0 ]; then
		skip "$rel: pre-6.0 VMCOREINFO: cannot make the copies of $core"
		continue
	fi
	if [ "$kind" = pre6 ]; then
		:	# the loop above compared it with the vmlinux's report
	elif run listed "$tmp/a.json" "$core" && run searched "$tmp/b.json" "$tmp/old.kdump"; then
		if res=$(python3 "$tmp/cmp.py" "$tmp/a.json" "$tmp/b.json"); then
			pass "$rel: pre-6.0 VMCOREINFO without a vmlinux: kallsyms found in the image, same report as the listed tables: $res"
		else
			fail "$rel: pre-6.0 VMCOREINFO without a vmlinux: kallsyms found in the image: $res"
		fi
	else
		fail "$rel: pre-6.0 VMCOREINFO without a vmlinux: $(head -c 300 "$tmp/listed.err" "$tmp/searched.err")"
	fi
	tst_one_line_error "$rel: pre-6.0 VMCOREINFO with a wrong SYMBOL(clear_seq), no vmlinux" \
		"no kallsyms tables.*SYMBOL(clear_seq) is 0x[0-9a-f]* in VMCOREINFO.*a vmlinux is needed" \
		"$bin" --json "$tmp/wrong.kdump"
	tst_one_line_error "$rel: pre-6.0 VMCOREINFO without SYMBOL(init_uts_ns), no vmlinux" \
		"no kallsyms tables.*init_uts_ns.*a vmlinux is needed" \
		"$bin" --json "$tmp/bare.kdump"
	"$bin" --json "$tmp/bare.kdump" "$vml" >/dev/null 2>"$tmp/old.err"
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -eq 3 ]; then
		pass "$rel: pre-6.0 VMCOREINFO with the vmlinux: report produced"
	else
		fail "$rel: pre-6.0 VMCOREINFO with the vmlinux: exit $rc: $(head -c 300 "$tmp/old.err")"
	fi
	rm -f "$tmp/old.kdump" "$tmp/bare.kdump" "$tmp/wrong.kdump"
done <"$index"

# An ELF dump cut before the kernel image's rodata (kallsyms, BTF): one
# line naming what could not be read and that the file is cut (its size
# against the size its segments need), exit 1.  The 6.1 `process` dump:
# booted with nokaslr, its image lies at 16 MiB physical, so both cuts
# fall before its rodata whatever the other samples' layouts.
row=$(awk -F'\t' '$1 ~ /^6\.1\./ && $2 == "process" && $3 == "elf"' "$index" | head -n 1)
if [ -n "$row" ]; then
	core=$(cut -f4 <<<"$row")
	for cut_at in 20 60; do
		head -c ${cut_at}M "$core" >"$tmp/cut.elf"
		tst_one_line_error "ELF dump cut at ${cut_at} MiB, no vmlinux" \
			"reading .*(the dump is truncated: $((cut_at * 1048576)) of [0-9]* bytes)\$" \
			"$bin" --json "$tmp/cut.elf"
	done
	rm -f "$tmp/cut.elf"
fi
# The vmlinux's symbols answer address lookups as the kernel's own
# kallsyms in dump memory does, aliases included (scripts/kallsyms.c
# orders them; kallsyms_lookup() answers the first): every address of the
# kernel's table, one dump per release.
symcheck=$O/tests/symcheck
declare -A sym_done
while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	[ -n "$rel" ] && [ -r "$core" ] && [ -z "${sym_done[$rel]:-}" ] || continue
	sym_done[$rel]=1
	if [ ! -x "$symcheck" ]; then
		fail "$rel: no $symcheck; run make test's drivers"
		break
	fi
	"$symcheck" "$core" "$vml" >"$tmp/sym.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "$rel: symbol lookups equal the dump's kallsyms ($(tail -n 1 "$tmp/sym.out"))"
	elif [ $rc -eq 2 ]; then
		skip "$rel: symcheck cannot open the dump both ways: $(tail -n 1 "$tmp/sym.out")"
	else
		fail "$rel: symbol lookups differ from the dump's kallsyms: $(tail -n 1 "$tmp/sym.out"); first: $(head -n 1 "$tmp/sym.out")"
	fi
	# Where VMCOREINFO lists the tables (6.0+), the search of the image
	# that older kernels need must find the very same symbols (without
	# the list, the lookups above already went through the search).
	if ! grep -a -q -m1 'SYMBOL(kallsyms_names)=' "$core" || ! search_knows "$rel"; then
		continue
	fi
	"$symcheck" --scan "$core" "$vml" >"$tmp/sym.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "$rel: kallsyms found in the image equal the listed tables ($(head -n 1 "$tmp/sym.out"))"
	else
		fail "$rel: kallsyms found in the image: exit $rc: $(head -n 3 "$tmp/sym.out" | tr '\n' ' ')"
	fi
done <"$index"
[ $nfail -eq 0 ]
