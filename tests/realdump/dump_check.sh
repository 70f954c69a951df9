#!/bin/bash
# Real-dump checks of formats/dump.c (through tests/realdump/dumpcat.c):
#   tests/realdump/dump_check.sh [BUILD_DIR]
# For every dump in ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv
# (or $DUMP_CHECK_INDEX; columns: release scenario format path vmlinux
# kaslr): it opens, its format, OSRELEASE and notes are right; kernel
# memory read through our page walk equals what crash(8) reads on the
# same dump (a static variable, the kernel banner, init_task, a
# vmalloc'ed stack, a slab object, each CPU's stack at its saved sp);
# the formats of one crash read the same bytes (kernel text and the
# first 256M of the direct map: the dumps of one release/scenario must
# come from one paused VM); ELF segments with virtual addresses (QEMU
# -p, kdump) translate as our page walk does; the flattened file reassembles byte-identical to
# makedumpfile -R; the pages of one kdump-compressed file rewritten
# with lzo, snappy and zstd read the same; truncated copies fail with
# one clear line.
# Prints PASS/FAIL/SKIP lines; SKIP when there are no dumps.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init dump_check "${1:-build}"
index=${DUMP_CHECK_INDEX:-$index}
tst_need_index
mkfiles="-f Makefile"
grep -q 'tests/realdump/dump.mk' "$top/Makefile" || mkfiles="$mkfiles -f tests/realdump/dump.mk"
# shellcheck disable=SC2086
if ! make -s -C "$top" $mkfiles O="$O" "$O/tests/dumpcat" >/dev/null; then
	fail "dump_check: cannot build dumpcat"
	exit 1
fi
dc=$O/tests/dumpcat
sid=${SID_CHROOT:-$top/tests/bench/sid-chroot.sh}

# crash's (or drgn's) reads vs ours.  $1 dump, $2 vmlinux, $3 name,
# $4 dumpcat info.  crash 8.0.2 cannot open 6.12 dumps and drgn 0.0.22
# cannot translate addresses in QEMU dumps made without -p, so either
# may be the oracle, then sid's drgn 0.3.0 (7.x's real kdump; no drgn
# opens QEMU's kdump-compressed files); none -> SKIP.
compare_with_crash() {
	local dump=$1 vmlinux=$2 name=$3 info=$4 cmds=$tmp/crash.cmds out=$tmp/oracle.out
	local sps oracle=crash
	sps=$(awk '/^note /{ sp = $7; if (sp ~ /^ff/ && sp ~ /[08]$/) print sp }' <<<"$info")
	{
		echo "rd -64 -x jiffies_64 1"
		echo "rd -64 -x linux_banner 8"
		echo "rd -64 -x init_task 8"
		echo "p/x init_task.stack"
		echo "p/x *(unsigned long (*)[8])init_task.stack"
		echo "p/x init_task.tasks.next"
		echo "p/x *(unsigned long (*)[4])init_task.tasks.next"
		# each CPU's stack at the sp of its note (kernel mode only)
		for sp in $sps; do echo "rd -64 -x $sp 4"; done
		echo "quit"
	} >"$cmds"
	: >"$out"
	if command -v crash >/dev/null && ! tst_crash_stopped_before "$dump"; then
		timeout 300 crash -s "$vmlinux" "$dump" -i "$cmds" </dev/null >"$out" 2>&1
	fi
	rm -f "$tmp/drgn.py"
	if ! grep -q '^ffffffff[0-9a-f]*:  ' "$out"; then
		oracle=drgn
		cat >"$tmp/drgn.py" <<'EOF'
import sys
def rd(addr, n):
    data = prog.read(addr, 8 * n)
    w = [int.from_bytes(data[i:i + 8], 'little') for i in range(0, len(data), 8)]
    for i in range(0, n, 2):
        print('%016x:  %s' % (addr + 8 * i, ' '.join('%016x' % x for x in w[i:i + 2])))
rd(prog.symbol('jiffies_64').address, 1)
rd(prog.symbol('linux_banner').address, 8)
rd(prog.symbol('init_task').address, 8)
t = prog['init_task']
rd(t.stack.value_(), 8)
rd(t.tasks.next.value_(), 4)
for sp in sys.argv[1:]:
    rd(int(sp, 16), 4)
EOF
		# shellcheck disable=SC2086
		command -v drgn >/dev/null &&
			timeout 300 drgn -q -c "$dump" -s "$vmlinux" "$tmp/drgn.py" $sps </dev/null >"$out" 2>&1
	fi
	# sid's drgn (0.3.0, tests/bench/sid-chroot.sh) where Debian 12's
	# tools read nothing (7.x), when its root is made
	if ! grep -q '^ffffffff[0-9a-f]*:  ' "$out" && [ -s "$tmp/drgn.py" ] &&
		"$sid" root >/dev/null 2>&1; then
		oracle="drgn 0.3.0 (sid)"
		# shellcheck disable=SC2086
		timeout 300 "$sid" run drgn -q -c "$dump" -s "$vmlinux" "$tmp/drgn.py" $sps </dev/null >"$out" 2>&1
	fi
	if ! grep -q '^ffffffff[0-9a-f]*:  ' "$out"; then
		local why
		why=$(grep -m1 -iE 'error|fault|exception' "$out" | head -c 200)
		skip "$name: neither crash nor drgn can read this dump (${why:-no output}$(tst_crash_stopped_before "$dump" && echo "; crash: as recorded in ref/crash-ps.txt"))"
		return
	fi
	python3 - "$dc" "$dump" "$name" "$out" "$oracle" <<'EOF'
import re, subprocess, sys
dc, dump, name, out, oracle = sys.argv[1:]
checks = []                     # (what, address, [words])
pending = None
for line in open(out, errors='replace'):
    m = re.match(r'^([0-9a-f]{16}):\s+([0-9a-f]{16})(?:\s+([0-9a-f]{16}))?\s*$', line)
    if m:
        words = [int(w, 16) for w in m.groups()[1:] if w]
        checks.append(('rd %s' % m.group(1), int(m.group(1), 16), words))
        continue
    m = re.match(r'^\$\d+ = (0x[0-9a-f]+)\s*$', line)
    if m:
        pending = int(m.group(1), 16)
        continue
    m = re.match(r'^\$\d+ = \{(.*)\}\s*$', line)
    if m and pending is not None:
        words = [int(w.strip(), 16) for w in m.group(1).split(',')]
        checks.append(('*0x%x' % pending, pending, words))
        pending = None
if len(checks) < 5:
    print('FAIL %s: only %d values from %s' % (name, len(checks), oracle))
    sys.exit(0)
bad = []
for what, addr, words in checks:
    r = subprocess.run([dc, 'rd64', dump, hex(addr), str(len(words))],
                       capture_output=True, text=True)
    ours = [int(w, 16) for w in r.stdout.split()]
    if r.returncode or ours != words:
        bad.append('%s: %s %s, ours %s %s' % (what, oracle, [hex(w) for w in words],
                   [hex(w) for w in ours], r.stderr.strip()))
if bad:
    print('FAIL %s: page-walked reads differ from %s: %s' % (name, oracle, '; '.join(bad[:3])))
else:
    print('PASS %s: %d reads (%d words) equal %s\'s' %
          (name, len(checks), sum(len(c[2]) for c in checks), oracle))
EOF
}

# The kernel banner read through the page walk (at its KASLR-shifted
# address) against the bytes of the vmlinux file: an oracle that needs
# neither crash nor drgn.  $1 dump, $2 vmlinux, $3 name.
compare_banner() {
	local dump=$1 vmlinux=$2 name=$3 off want got addr sym len bytes
	off=$("$dc" vmcoreinfo "$dump" KERNELOFFSET 2>/dev/null || echo 0)
	want=$(python3 - "$vmlinux" <<'EOF'
import struct, sys
f = open(sys.argv[1], 'rb')
eh = f.read(64)
shoff, = struct.unpack_from('<Q', eh, 0x28)
shentsize, shnum = struct.unpack_from('<HH', eh, 0x3a)
f.seek(shoff)
secs = [struct.unpack_from('<IIQQQQIIQQ', f.read(shentsize)) for _ in range(shnum)]
strtab, symtab = None, None
for s in secs:
    if s[1] == 2:                       # SHT_SYMTAB
        symtab = s
        strtab = secs[s[6]]
f.seek(symtab[4]); syms = f.read(symtab[5])
f.seek(strtab[4]); names = f.read(strtab[5])
for i in range(0, len(syms), 24):
    name, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', syms, i)
    if names[name:names.index(b'\0', name)] == b'linux_banner':
        sec = secs[shndx]
        f.seek(sec[4] + value - sec[3])
        data = f.read(min(size, 128))
        print('%x %d %s' % (value, len(data), data.hex()))
        break
EOF
)
	if [ -z "$want" ]; then
		skip "$name: no linux_banner in $vmlinux"
		return
	fi
	read -r sym len bytes <<<"$want"
	addr=$((0x$sym + off))
	got=$("$dc" read "$dump" "$addr" "$len" 2>&1 | tr -d ' \n')
	if [ "$got" = "$bytes" ]; then
		pass "$name: linux_banner through the page walk equals vmlinux's"
	else
		fail "$name: linux_banner at $(printf 0x%x "$addr") differs from vmlinux's: $got"
	fi
}

# text and direct-map checksums of one dump, for the cross-format check
checksums() {
	local dump=$1 vmlinux=$2 off stext etext pob base mem
	off=$("$dc" vmcoreinfo "$dump" KERNELOFFSET 2>/dev/null || echo 0)
	stext=$(nm "$vmlinux" | awk '$3 == "_stext" { print $1 }')
	etext=$(nm "$vmlinux" | awk '$3 == "_etext" { print $1 }')
	pob=$(nm "$vmlinux" | awk '$3 == "page_offset_base" { print $1 }')
	[ -n "$stext" ] && [ -n "$etext" ] && [ -n "$pob" ] || return 1
	base=$("$dc" rd64 "$dump" $((0x$pob + off)) 1) || return 1
	mem=$((256 << 20))
	echo "text $("$dc" sum "$dump" $((0x$stext + off)) $((0x$etext - 0x$stext)))"
	echo "direct $("$dc" sum "$dump" 0x$base $mem)"
}

expected_format() {
	case $1 in
	elf|elf-p) echo "elf" ;;
	flat) echo "flattened kdump-compressed" ;;
	kdump|kdump-real) echo "kdump-compressed" ;;
	*) echo "" ;;
	esac
}

# Rewrite a zlib kdump-compressed file with another compression: QEMU
# 7.2 writes only zlib and makedumpfile 1.7.2 refuses these kernels,
# but Debian's libkdumpfile reads lzo, snappy and zstd too.
recompress_py=$tmp/recompress.py
cat >"$recompress_py" <<'EOF'
# Rewrite a kdump-compressed file's pages with another compression.
import struct, sys, zlib
src, dst, method = sys.argv[1:]
FLAGS = {'zlib': 0x1, 'lzo': 0x2, 'snappy': 0x4, 'zstd': 0x20}
if method == 'lzo':
    import lzo
    comp = lambda d: lzo.compress(d, 1, False)
elif method == 'snappy':
    import snappy
    comp = snappy.compress
elif method == 'zstd':
    import zstandard
    comp = zstandard.ZstdCompressor().compress
else:
    comp = zlib.compress
f = open(src, 'rb')
hdr = f.read(464)
if hdr[:8] != b'KDUMP   ':
    sys.exit('not kdump-compressed')
status, block_size, sub_hdr_size, bitmap_blocks = struct.unpack_from('<iiiI', hdr, 424)
f.seek((1 + sub_hdr_size) * block_size + bitmap_blocks * block_size // 2)
dumpable = f.read(bitmap_blocks * block_size // 2)
count = sum(bin(b).count('1') for b in dumpable)
desc_off = (1 + sub_hdr_size + bitmap_blocks) * block_size
f.seek(desc_off)
descs = [struct.unpack_from('<qIIQ', f.read(24)) for _ in range(count)]
data_off = desc_off + 24 * count
f.seek(0)
head = bytearray(f.read(data_off))
struct.pack_into('<i', head, 424, (status & ~0x27) | FLAGS[method])
out = open(dst, 'wb')
out.write(head)
pos, done, newdescs = data_off, {}, []
for off, size, flags, pflags in descs:
    if off not in done:
        f.seek(off)
        raw = f.read(size)
        if flags & 0x27:
            if not flags & 0x1:
                sys.exit('source must be zlib')
            raw = zlib.decompress(raw)
        c = comp(raw)
        nf = FLAGS[method]
        if len(c) >= len(raw):
            c, nf = raw, 0
        out.write(c)
        done[off] = (pos, len(c), nf)
        pos += len(c)
    p, s, nf = done[off]
    newdescs.append(struct.pack('<qIIQ', p, s, nf, pflags))
out.seek(desc_off)
out.write(b''.join(newdescs))
out.close()
print('%d pages, %d stored' % (count, len(done)))
EOF
# the python3 that has Debian's python3-lzo, -snappy and -zstandard
pydeb=/usr/bin/python3
recompressed=no

# $1 kdump-compressed (zlib) file, $2 vmlinux, $3 name
check_compressions() {
	local kd=$1 vmlinux=$2 name=$3 m want got
	if ! "$pydeb" -c 'import lzo, snappy, zstandard' 2>/dev/null; then
		skip "$name: lzo/snappy/zstd pages (apt-get install python3-lzo python3-snappy python3-zstandard)"
		return
	fi
	want=$(checksums "$kd" "$vmlinux") || { fail "$name: cannot checksum"; return; }
	for m in lzo snappy zstd; do
		if ! "$pydeb" "$recompress_py" "$kd" "$tmp/re.$m" "$m" >/dev/null 2>"$tmp/re.err"; then
			fail "$name: recompressing to $m: $(tail -n 1 "$tmp/re.err")"
			continue
		fi
		got=$(checksums "$tmp/re.$m" "$vmlinux")
		[ "$got" = "$want" ] && pass "$name: the same pages recompressed with $m read the same" ||
			fail "$name: $m pages read differently: $got vs $want"
		rm -f "$tmp/re.$m"
	done
}

declare -A group_sums group_first
ndumps=0
while IFS=$'\t' read -r -u 3 release scenario format path vmlinux kaslr; do
	[ -n "$release" ] && [ "${release#\#}" = "$release" ] || continue
	name="$release/$scenario/$format"
	if [ ! -r "$path" ]; then
		skip "$name: $path not there"
		continue
	fi
	ndumps=$((ndumps + 1))
	if ! info=$("$dc" info "$path" 2>&1); then
		fail "$name: open: $info"
		continue
	fi
	want=$(expected_format "$format")
	got=$(sed -n 's/^format: //p' <<<"$info")
	if [ -z "$want" ] || [ "$got" = "$want" ]; then
		pass "$name: format \"$got\""
	else
		fail "$name: format \"$got\", want \"$want\""
	fi
	rel=$(sed -n 's/^osrelease: //p' <<<"$info")
	[ "$rel" = "$release" ] && pass "$name: OSRELEASE $rel" ||
		fail "$name: OSRELEASE \"$rel\", want \"$release\""
	grep -q '^page-walk: yes' <<<"$info" && pass "$name: page walk from VMCOREINFO" ||
		fail "$name: no page walk (VMCOREINFO lacks init_top_pgt/phys_base?)"
	nnotes=$(sed -n 's/^notes: //p' <<<"$info")
	if [ "${nnotes:-0}" -gt 0 ]; then
		if grep -q '^qemu: yes' <<<"$info"; then
			# QEMU numbers its notes' pids CPU + 1, in order
			badpid=$(awk '/^note /{ n = $2 + 0; if ($4 != n + 1) print $2 }' <<<"$info")
			[ -z "$badpid" ] && pass "$name: $nnotes QEMU CPU notes, pids 1..$nnotes" ||
				fail "$name: QEMU note pids out of order at note $badpid"
		else
			pass "$name: $nnotes CPU notes"
		fi
	else
		fail "$name: no NT_PRSTATUS notes"
	fi

	# QEMU -p and kdump ELF files name each segment's virtual address:
	# an oracle for the page walk that needs no vmlinux
	if [ "$format" = elf ] || [ "$format" = elf-p ]; then
		loads=$("$dc" checkloads "$path" 2>&1)
		case $loads in
		"0 kernel segments"*) ;;
		*" 0 mismatched") pass "$name: page walk agrees with the ELF segments: $loads" ;;
		*) fail "$name: page walk vs ELF segments: $(tr '\n' ' ' <<<"$loads")" ;;
		esac
	fi

	if [ ! -r "$vmlinux" ]; then
		skip "$name: no vmlinux for crash and checksums"
	else
		compare_banner "$path" "$vmlinux" "$name"
		# the other formats of a crash are compared to the first by
		# checksum, so one oracle run per crash is enough (slow: crash
		# starts in ~5 s); DUMP_CHECK_ALL=1 runs it on every file
		key="$release/$scenario"
		if [ -z "${group_sums[$key]:-}" ] || [ "${DUMP_CHECK_ALL:-0}" = 1 ]; then
			compare_with_crash "$path" "$vmlinux" "$name" "$info"
		fi
		if sums=$(checksums "$path" "$vmlinux"); then
			if [ -z "${group_sums[$key]:-}" ]; then
				group_sums[$key]="$sums"
				group_first[$key]="$format"
				pass "$name: checksums taken ($(tr '\n' ' ' <<<"$sums"))"
			elif [ "${group_sums[$key]}" = "$sums" ]; then
				pass "$name: text and direct map read the same as ${group_first[$key]}"
			else
				fail "$name: bytes differ from ${group_first[$key]}: $(tr '\n' ' ' <<<"$sums") vs $(tr '\n' ' ' <<<"${group_sums[$key]}")"
			fi
		else
			fail "$name: cannot checksum (symbols or page_offset_base)"
		fi
	fi

	if [ "$format" = flat ]; then
		if command -v makedumpfile >/dev/null; then
			if makedumpfile -R "$tmp/R" <"$path" >/dev/null 2>&1 &&
				"$dc" flat "$path" "$tmp/ours" >/dev/null &&
				cmp -s "$tmp/R" "$tmp/ours"; then
				pass "$name: reassembly byte-identical to makedumpfile -R"
			else
				fail "$name: reassembly differs from makedumpfile -R"
			fi
			rm -f "$tmp/R" "$tmp/ours"
		else
			skip "$name: makedumpfile not installed"
		fi
	fi

	if [ "$recompressed" = no ] && [ -r "$vmlinux" ] &&
		{ [ "$format" = kdump ] || [ "$format" = flat ]; }; then
		recompressed=yes
		kd=$path
		if [ "$format" = flat ]; then
			kd=$tmp/flat.kdump
			"$dc" flat "$path" "$kd" >/dev/null
		fi
		check_compressions "$kd" "$vmlinux" "$name"
		rm -f "$tmp/flat.kdump"
	fi

	# truncated copies: one line naming the file, never a crash
	size=$(stat -c %s "$path")
	cuts="0 1 100 5000 1048576"
	[ "$format" = flat ] && cuts="$cuts $((size / 2)) $((size - 16))"
	bad=""
	for cut in $cuts; do
		[ "$cut" -lt "$size" ] || continue
		head -c "$cut" "$path" >"$tmp/cut"
		msg=$("$dc" info "$tmp/cut" 2>&1 >/dev/null)
		rc=$?
		if [ $rc -ge 128 ]; then
			bad="$bad $cut:signal$((rc - 128))"
		elif [ $rc -ne 0 ] && { [ "$(wc -l <<<"$msg")" -ne 1 ] || ! grep -q "$tmp/cut" <<<"$msg"; }; then
			bad="$bad $cut:\"$msg\""
		elif [ $rc -eq 0 ] && [ "$cut" -lt 4096 ]; then
			bad="$bad $cut:opened"
		fi
	done
	rm -f "$tmp/cut"
	[ -z "$bad" ] && pass "$name: truncated copies fail cleanly" ||
		fail "$name: truncated copies:$bad"
done 3<"$index"

[ "$ndumps" -gt 0 ] || skip "dump_check: no readable dumps in $index"
[ "$nfail" -eq 0 ]
