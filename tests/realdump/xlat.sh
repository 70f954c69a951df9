#!/bin/bash
# Our page walk (formats/pgwalk.c) against libkdumpfile's own address
# translation, on every dump of the sample cache:
#   tests/realdump/xlat.sh [BUILD_DIR]
# docs/design.md keeps our own walk because Debian's libkdumpfile 0.5.1
# got kernel addresses wrong; this is the evidence, or its absence.
# For each dump (every format: libkdumpfile sets its translation up per
# format) dumpcat translates a set of addresses both ways, and each
# answer is held against the kernel's own mapping where the kernel
# defines it in closed form (arch/x86/include/asm/page_64.h,
# __phys_addr_nodebug()):
#  - the kernel image, __START_KERNEL_map + KASLR offset: a sample of the
#    vmlinux's symbols from _stext to _end (text, rodata, data, bss), whose
#    physical address is vaddr - __START_KERNEL_map + phys_base
#    (VMCOREINFO NUMBER(phys_base));
#  - the direct map: page_offset_base (read from the dump) + every 4 MiB
#    of the first 2 GiB of physical memory, physical address vaddr -
#    page_offset_base (what is past the guest's RAM is unmapped both
#    ways and only counted);
#  - per-CPU areas, the cpu_entry_area and VMCOREINFO's own SYMBOL()s,
#    where no closed form exists: both answers are compared only.
# Our walk must give the kernel's mapping for every address (FAIL
# otherwise); libkdumpfile's misses are counted and listed as evidence.
# The last line says which way the evidence points.
# Prints PASS/FAIL/SKIP lines; SKIP without dumps or nm.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init xlat "${1:-build}"
index=${XLAT_INDEX:-$index}
dc=$O/tests/dumpcat
tst_need_index
if ! command -v nm >/dev/null || ! command -v python3 >/dev/null; then
	skip "xlat: needs nm (binutils) and python3"
	exit 0
fi
tst_need_exec "$dc" "make $dc"

# addresses.py SYMS KASLR PAGE_OFFSET_BASE PER_CPU_OFFSETS VMCOREINFO
# -> "vaddr kind truth" lines (truth "-" where there is no closed form)
cat >"$tmp/addresses.py" <<'EOF'
import sys
syms_path, kaslr, pob, pcpu, vmci = sys.argv[1:6]
kaslr, pob = int(kaslr, 0), int(pob, 0)
pcpu = [int(x, 16) for x in pcpu.split()]
phys_base = None
symbols = []
for line in open(vmci):
    k, _, v = line.strip().partition('=')
    if k == 'NUMBER(phys_base)':
        phys_base = int(v) & (2**64 - 1)
    elif k.startswith('SYMBOL('):
        symbols.append(int(v, 16))
syms = {}
image = []
for line in open(syms_path):
    f = line.split()
    if len(f) < 3:
        continue
    a = int(f[0], 16)
    syms.setdefault(f[2], a)
    if f[1] in 'TtRrDdBb':
        image.append(a)
lo, hi = syms['_stext'], syms['_end']
image = sorted(a for a in image if lo <= a < hi)
step = max(1, len(image) // 1500)
picked = image[::step] + [lo, syms.get('_etext', lo) - 1, hi - 1]
M = 2**64
KMAP = 0xffffffff80000000
for a in sorted(set(picked)):
    va = (a + kaslr) % M
    truth = '0x%x' % ((va - KMAP + phys_base) % M) if phys_base is not None else '-'
    print('0x%016x text %s' % (va, truth))
for pa in range(0, 1 << 31, 4 << 20):
    for off in (0, 0x1238):
        print('0x%016x direct 0x%x' % ((pob + pa + off) % M, pa + off))
for base in pcpu:
    for name in ('current_task', 'pcpu_hot', 'cpu_number', 'irq_stack_backing_store'):
        if name in syms and syms[name] < (1 << 32):
            print('0x%016x percpu -' % ((base + syms[name]) % M))
for cpu in range(len(pcpu)):
    # cpu_entry_area (4-level): CPU_ENTRY_AREA_BASE + the IDT page + cpu pages
    print('0x%016x cea -' % (0xfffffe0000001000 + cpu * 0x3b000))
for a in symbols:
    print('0x%016x vmcoreinfo -' % a)
EOF

# compare.py: dumpcat xlat output joined with the addresses
cat >"$tmp/judge.py" <<'EOF'
import sys
want = {}
for line in open(sys.argv[1]):
    va, kind, truth = line.split()
    want[int(va, 16)] = (kind, truth)
stats = {}
bad_ours, bad_theirs = [], []
for line in open(sys.argv[2]):
    va, ours, theirs = line.split()
    kind, truth = want[int(va, 16)]
    s = stats.setdefault(kind, [0, 0, 0, 0, 0, 0, 0])
    s[0] += 1
    if truth == '-':
        # no closed form: the two against each other
        if ours != theirs:
            s[6] += 1
            bad_theirs.append('%s %s: ours %s, libkdumpfile %s' % (kind, va, ours, theirs))
        continue
    t = int(truth, 16)
    if ours == '-' and theirs == '-':
        s[5] += 1          # unmapped both ways (a hole in RAM)
        continue
    for who, got, wrong, bad in (('ours', ours, 1, bad_ours),
                                 ('libkdumpfile', theirs, 3, bad_theirs)):
        if got == '-':
            s[wrong + 1] += 1
            bad.append('%s %s: %s fails, kernel 0x%x' % (kind, va, who, t))
        elif int(got, 16) != t:
            s[wrong] += 1
            bad.append('%s %s: %s %s, kernel 0x%x' % (kind, va, who, got, t))
parts = []
for kind, s in sorted(stats.items()):
    if kind in ('text', 'direct'):
        parts.append('%s %d (ours %d wrong %d failed; libkdumpfile %d wrong %d failed; %d unmapped)'
                     % (kind, s[0], s[1], s[2], s[3], s[4], s[5]))
    else:
        parts.append('%s %d (%d differ)' % (kind, s[0], s[6]))
print('STATS ' + '; '.join(parts))
print('OURS %d' % len(bad_ours))
for b in bad_ours[:5]:
    print('  ' + b)
print('THEIRS %d' % len(bad_theirs))
for b in bad_theirs[:5]:
    print('  ' + b)
EOF

# $2 words of kernel variable $1 (nm's list $syms, KASLR offset $ko)
var() {
	local s
	s=$(awk -v n="$1" '$3 == n { print $1; exit }' "$syms")
	[ -n "$s" ] && "$dc" rd64 "$dump" "$(printf '0x%x' $((0x$s + ko)))" "$2" 2>/dev/null
}

# the judge itself: a wrong and a failed answer on either side are caught
printf '0x%016x text 0x1000\n0x%016x direct 0x2000\n0x%016x text 0x3000\n' \
	0xffffffff81000000 0xffff888000002000 0xffffffff81002000 >"$tmp/a"
printf '0x%016x 0x1000 0x9000\n0x%016x - 0x2000\n0x%016x 0x3000 0x3000\n' \
	0xffffffff81000000 0xffff888000002000 0xffffffff81002000 >"$tmp/x"
if python3 "$tmp/judge.py" "$tmp/a" "$tmp/x" | grep -q '^OURS 1$' &&
   python3 "$tmp/judge.py" "$tmp/a" "$tmp/x" | grep -q '^THEIRS 1$'; then
	pass "xlat: the judge catches a wrong and a failed translation"
else
	fail "xlat: the judge misses a wrong or a failed translation"
fi

declare -A nmcache
total=0 kdump_bad=0 kdump_bad_dumps=""
while IFS=$'\t' read -r rel sc fmt dump vmlinux kaslr; do
	[ -r "$dump" ] && [ -r "$vmlinux" ] || continue
	name="$rel/$sc ($fmt)"
	syms=${nmcache[$rel]:-}
	if [ -z "$syms" ]; then
		syms=$tmp/nm.$(echo "$rel" | tr -c 'A-Za-z0-9.\n' _)
		nm "$vmlinux" >"$syms" 2>/dev/null || { skip "$name: nm $vmlinux failed"; continue; }
		nmcache[$rel]=$syms
	fi
	"$dc" vmcoreinfo "$dump" >"$tmp/vmci" 2>/dev/null || { fail "$name: no VMCOREINFO"; continue; }
	ko=$(sed -n 's/^KERNELOFFSET=//p' "$tmp/vmci")
	ko=0x${ko:-0}
	# page_offset_base (RANDOMIZE_MEMORY; else the fixed base) and the
	# first two CPUs' __per_cpu_offset, read from the dump
	pob=$(var page_offset_base 1 | head -n1)
	pob=0x${pob:-ffff888000000000}
	pcpu=$(var __per_cpu_offset 2 | tr '\n' ' ')
	python3 "$tmp/addresses.py" "$syms" "$ko" "$pob" "$pcpu" "$tmp/vmci" >"$tmp/addrs" ||
		{ fail "$name: cannot list addresses"; continue; }
	if ! cut -d' ' -f1 "$tmp/addrs" | "$dc" xlat "$dump" >"$tmp/xlat" 2>"$tmp/err"; then
		fail "$name: dumpcat xlat: $(head -n1 "$tmp/err")"
		continue
	fi
	python3 "$tmp/judge.py" "$tmp/addrs" "$tmp/xlat" >"$tmp/judged"
	stats=$(sed -n 's/^STATS //p' "$tmp/judged")
	nours=$(sed -n 's/^OURS //p' "$tmp/judged")
	ntheirs=$(sed -n 's/^THEIRS //p' "$tmp/judged")
	total=$((total + 1))
	if [ "$nours" -eq 0 ]; then
		pass "$name: our walk maps every address as the kernel does: $stats"
	else
		fail "$name: our walk disagrees with the kernel on $nours addresses: $stats"
		sed -n '/^OURS/,/^THEIRS/p' "$tmp/judged" | grep '^  '
	fi
	if [ "$ntheirs" -gt 0 ]; then
		kdump_bad=$((kdump_bad + 1))
		kdump_bad_dumps+=" $rel/$sc($fmt)"
		echo "  libkdumpfile $(pkg-config --modversion libkdumpfile 2>/dev/null) misses $ntheirs:"
		sed -n '/^THEIRS/,$p' "$tmp/judged" | grep '^  ' | sed 's/^/  /'
	fi
done <"$index"

if [ "$total" -eq 0 ]; then
	skip "xlat: no readable dump with its vmlinux"
elif [ "$kdump_bad" -gt 0 ]; then
	pass "xlat: libkdumpfile's own translation misses on $kdump_bad of $total dumps:$kdump_bad_dumps (our walk stays: docs/design.md)"
else
	pass "xlat: libkdumpfile's own translation agrees with the kernel's mapping on all $total dumps: formats/pgwalk.c is not needed for these samples"
fi
[ "$nfail" -eq 0 ]
