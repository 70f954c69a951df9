#!/bin/bash
# Real-dump checks of source lines (src/lines.c, formats/dwarflines.c)
# through tests/realdump/linescat.c:
#   tests/realdump/lines.sh [BUILD_DIR]
# For one format of every (release, scenario) in
# ${ORCCRASH_CACHE:-~/.cache/orccrash}/dumps/index.tsv:
#  - `orccrash --json --all-tasks`, then linescat report with an empty line
#    cache: >= 95% of the vmlinux frames (no module) get a file:line, per
#    dump and per release;
#  - the same report again from the cache it wrote: identical, with no
#    DWARF lookup at all;
#  - every address looked up (ip - 1 for return addresses), straight from
#    the DWARF and then from the cache, against binutils'
#    `addr2line -a -i -f`: the same inline chain, functions, files and
#    lines.  Normalised: "(discriminator N)" dropped, "//" in names, an
#    unknown line ("??:0" vs "file:?") and addr2line's symbol-table
#    fallback for the function where the DWARF has none; rows where
#    binutils gets a DWARF 5 file wrong are settled by elfutils or by
#    libdwarf's reader (see compare());
#  - module frames with a .ko in kernels/RELEASE/modules (--modules-dir):
#    the same against addr2line -j SECTION on the .ko;
#  - module debuginfo matched by build-id (a .ko of the other release is
#    refused, a NAME.ko.debug with the right build-id is found);
#  - a stripped vmlinux with its DWARF in a -dbg package's places.
# Prints PASS/FAIL/SKIP lines; SKIP when there are no dumps or no
# addr2line.  $LINESCAT names a linescat built elsewhere.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init lines "${1:-build}"
linescat=${LINESCAT:-$O/tests/linescat}

pyd=/usr/bin/python3	# Debian's, with python3-jsonschema
[ -x "$pyd" ] || pyd=python3

tst_need_index
tst_need_exec "$linescat" "make $O/tests/linescat"

# Compare linescat addrs output ($1) with addr2line -a -i -f ($2).  Where
# they differ, $3 (eu-addr2line -a -i -f, elfutils, when installed) or $4
# (ours with libdwarf's own line-table reader) decides: binutils 2.40 and
# libdwarf 20210528 both start a DWARF 5 line program's file register at
# entry 0 instead of 1 (the spec's initial value, which elfutils and gdb
# use), so rows before the first DW_LNS_set_file of a sequence get the
# CU's primary file instead of the header (e.g. include/trace/events/ext4.h
# for __traceiter_* in fs/ext4/super.c).  Accepted: elfutils agrees with
# us, or libdwarf's reader agrees with addr2line and we differ from it only
# in the innermost file.
compare() {
	python3 - "$@" <<'EOF'
import re, sys

def parse(path, eu=False):
    chains, cur = {}, None
    try:
        text = open(path).read()
    except OSError:
        return None
    for line in text.split('\n'):
        if re.fullmatch(r'0x[0-9a-f]{16}', line):
            cur = line
            chains[cur] = []
        elif line and cur is not None:
            if eu:
                line = re.sub(r' inlined at .* in \S+$', '', line)
                line = re.sub(r'(:\d+):\d+$', r'\1', line)
            line = re.sub(r' \(discriminator \d+\)$', '', line)
            line = line.replace('//', '/')
            if line == '??:0' or line.endswith(':?'):
                line = '??'
            chains[cur].append(line)
    return chains

def same(got, want):
    # addr2line names the ELF symbol when no DIE covers the address
    return got == want or (got is not None and len(got) == 2 == len(want)
                           and got[0] == '??' and got[1] == want[1])

def line_of(loc):
    return loc.rsplit(':', 1)[-1]

mine, ref = parse(sys.argv[1]), parse(sys.argv[2])
eu = parse(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
eu = parse(sys.argv[3], True) if eu is not None else None
old = parse(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
bad = initial_file = 0
for addr, want in ref.items():
    got = mine.get(addr)
    if same(got, want):
        continue
    if got and eu and eu.get(addr) is not None:
        e = eu[addr]
        if len(e) == len(got) and all(x == y or (i % 2 == 0 and y == '??')
                                      for i, (y, x) in enumerate(zip(e, got))):
            initial_file += 1
            continue
    if got and old and same(old.get(addr), want):
        o = old[addr]
        if len(o) == len(got) and o[0] == got[0] and o[2:] == got[2:] and \
           line_of(o[1]) == line_of(got[1]):
            initial_file += 1
            continue
    bad += 1
    if bad <= 5:
        print('  %s: ours %s, addr2line %s' % (addr, got, want))
print('%d addresses, %d differ, %d inlined levels, %d DWARF 5 initial-file rows' %
      (len(ref), bad, sum(len(c) // 2 - 1 for c in ref.values()), initial_file))
sys.exit(1 if bad or len(mine) != len(ref) else 0)
EOF
}

# Module frames: linescat modaddrs output ($1) against addr2line -j
# SECTION on the .ko under $2 (the symbol's section and value from
# readelf), for each "NAME SYMBOL OFFSET EXACT" line of $3.
compare_modules() {
	python3 - "$1" "$2" "$3" <<'EOF'
import os, re, subprocess, sys

ours_path, moddir, frames_path = sys.argv[1:4]

def norm(lines):
    out = []
    for line in lines:
        line = re.sub(r' \(discriminator \d+\)$', '', line).replace('//', '/')
        if line == '??:0' or line.endswith(':?'):
            line = '??'
        out.append(line)
    return out

ours, cur = {}, None
for line in open(ours_path).read().split('\n'):
    if len(line.split()) == 4:
        cur = line
        ours[cur] = []
    elif line and cur:
        ours[cur].append(line)

kos = {}
for root, dirs, files in os.walk(moddir):
    for f in files:
        if f.endswith('.ko'):
            kos.setdefault(f[:-3].replace('-', '_'), os.path.join(root, f))

bad = checked = 0
for key in sorted(set(open(frames_path).read().split('\n')) - {''}):
    name, sym, off, exact = key.split()
    ko = kos.get(name.replace('-', '_'))
    if not ko:
        continue
    secs = {}
    for l in subprocess.run(['readelf', '-SW', ko], capture_output=True, text=True).stdout.split('\n'):
        m = re.match(r'\s*\[\s*(\d+)\]\s+(\S+)', l)
        if m:
            secs[m.group(1)] = m.group(2)
    where = None
    for l in subprocess.run(['readelf', '-sW', ko], capture_output=True, text=True).stdout.split('\n'):
        f = l.split()
        if len(f) == 8 and f[7] == sym and f[6].isdigit():
            cand = (secs.get(f[6]), int(f[1], 16))
            if where is None or f[3] == 'FUNC':
                where = cand
    if not where or not where[0]:
        continue
    addr = where[1] + int(off) - (0 if exact == '1' else 1)
    ref = subprocess.run(['addr2line', '-i', '-f', '-j', where[0], '-e', ko, hex(addr)],
                         capture_output=True, text=True).stdout.split('\n')[:-1]
    got = ours.get(key)
    checked += 1
    if got is None or norm(got) != norm(ref):
        bad += 1
        print('  %s: ours %s, addr2line %s' % (key, got, ref))
print('%d module frames checked, %d differ' % (checked, bad))
sys.exit(1 if bad or not checked else 0)
EOF
}

declare -A seen rel_frames rel_lines
n=0
while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	[ -n "$rel" ] && [ -r "$core" ] && [ -r "$vml" ] || continue
	[ -z "${seen[$rel/$scen]:-}" ] || continue
	seen[$rel/$scen]=1
	n=$((n + 1))
	name="$rel/$scen ($fmt)"
	d=$tmp/$n
	mkdir -p "$d/cache"
	if ! tst_report "$d/report.json" "$d/err" --json --all-tasks "$core" "$vml"; then
		fail "$name: orccrash exited $rc: $(head -c 300 "$d/err")"
		continue
	fi
	"$pyd" "$top/tests/json/validate.py" --need-frames "$name" "$d/report.json"

	# cold: an empty cache
	ORCCRASH_CACHE=$d/cache "$linescat" report "$vml" "$d/report.json" \
		>"$d/cold.txt" 2>"$d/cold.err" ||
		{ fail "$name: linescat report: $(tail -n 3 "$d/cold.err")"; continue; }
	read -r _ frames _ vmf _ withl < <(tail -n 1 "$d/cold.txt")
	if [ "${vmf:-0}" -eq 0 ]; then
		fail "$name: no vmlinux frames in the report"
		continue
	fi
	rel_frames[$rel]=$(( ${rel_frames[$rel]:-0} + vmf ))
	rel_lines[$rel]=$(( ${rel_lines[$rel]:-0} + withl ))
	if [ $((withl * 100)) -ge $((vmf * 95)) ]; then
		pass "$name: $withl of $vmf vmlinux frames have a file:line ($(sed 's/^lines: //' "$d/cold.err"))"
	else
		fail "$name: only $withl of $vmf vmlinux frames have a file:line"
	fi

	# warm: the same from the cache, no DWARF
	ORCCRASH_CACHE=$d/cache "$linescat" report "$vml" "$d/report.json" \
		>"$d/warm.txt" 2>"$d/warm.err"
	if ! cmp -s "$d/cold.txt" "$d/warm.txt"; then
		fail "$name: the cached report differs: $(diff "$d/cold.txt" "$d/warm.txt" | head -n 4 | tr '\n' ' ')"
	elif ! grep -q ' misses 0 dwarf-open 0.000s' "$d/warm.err"; then
		fail "$name: warm run still used the DWARF: $(cat "$d/warm.err")"
	else
		pass "$name: warm cache gives the same report ($(sed 's/^lines: //' "$d/warm.err"))"
	fi

	# against addr2line, from the DWARF and from the cache
	if ! command -v addr2line >/dev/null; then
		skip "$name: no addr2line (binutils)"
		continue
	fi
	"$linescat" lookups "$d/report.json" | sort -u >"$d/addrs"
	addr2line -a -i -f -e "$vml" <"$d/addrs" >"$d/a2l.txt" 2>/dev/null
	"$linescat" --no-cache addrs "$vml" <"$d/addrs" >"$d/dwarf.txt" 2>/dev/null
	OC_DWARF_LIBDWARF_LINES=1 "$linescat" --no-cache addrs "$vml" <"$d/addrs" \
		>"$d/libdwarf.txt" 2>/dev/null
	eu=
	if command -v eu-addr2line >/dev/null; then
		eu-addr2line -a -i -f -e "$vml" <"$d/addrs" >"$d/eu.txt" 2>/dev/null &&
			eu=$d/eu.txt
	fi
	if out=$(compare "$d/dwarf.txt" "$d/a2l.txt" "$eu" "$d/libdwarf.txt"); then
		pass "$name: addr2line -i agrees on every address: ${out##*$'\n'}"
	else
		fail "$name: addr2line -i differs: $out"
	fi
	ORCCRASH_CACHE=$d/cache "$linescat" addrs "$vml" <"$d/addrs" \
		>"$d/cached.txt" 2>/dev/null
	if cmp -s "$d/dwarf.txt" "$d/cached.txt"; then
		pass "$name: the cache holds the same chains as the DWARF"
	else
		fail "$name: cache and DWARF differ: $(diff "$d/dwarf.txt" "$d/cached.txt" | head -n 4 | tr '\n' ' ')"
	fi

	# module frames, with the release's .ko files (--modules-dir)
	moddir=$(dirname "$vml")/modules
	"$linescat" --modules lookups "$d/report.json" | sort -u >"$d/modframes"
	[ -s "$d/modframes" ] && [ -d "$moddir" ] || continue
	"$linescat" --no-cache --modules-dir "$moddir" modaddrs "$vml" \
		<"$d/modframes" >"$d/mod.txt" 2>/dev/null
	if out=$(compare_modules "$d/mod.txt" "$moddir" "$d/modframes"); then
		pass "$name: module frames agree with addr2line on the .ko: ${out##*$'\n'}"
	elif grep -q '^0 module frames checked' <<<"$out"; then
		skip "$name: no module frame with a .ko in $moddir"
	else
		fail "$name: module frames differ from addr2line: $out"
	fi
done <"$index"

if [ $n -eq 0 ]; then
	skip "lines: no readable dump in $index"
	exit 0
fi

# Module debuginfo is matched by build-id (the dump's, from
# mod->notes_attrs, against readelf's on the .ko): a .ko of the other
# release, even under the right name, gives no lines and says why; the
# right one is found under another file name form (NAME.ko.debug, '-').
buildid() { readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: //p'; }
declare -A modcore modko
while IFS=$'\t' read -r rel scen fmt core vml kaslr; do
	[ "$scen" = mod-oops ] && [ -r "$core" ] && [ -r "$vml" ] &&
		[ -r "$(dirname "$core")/orccrash_test.ko" ] || continue
	modcore[$rel]="$core $vml"
	modko[$rel]=$(dirname "$core")/orccrash_test.ko
done <"$index"
rels=("${!modcore[@]}")
if [ ${#rels[@]} -lt 2 ]; then
	skip "module build-id: needs the mod-oops dumps of two releases"
else
	for i in 0 1; do
		rel=${rels[$i]} other=${rels[$((1 - i))]}
		read -r core vml <<<"${modcore[$rel]}"
		want=$(buildid "${modko[$rel]}") wrong=$(buildid "${modko[$other]}")
		d=$tmp/buildid-$i
		mkdir -p "$d/wrong" "$d/both/a" "$d/both/b"
		cp "${modko[$other]}" "$d/wrong/orccrash_test.ko"
		cp "${modko[$other]}" "$d/both/a/orccrash_test.ko"
		cp "${modko[$rel]}" "$d/both/b/orccrash-test.ko.debug"
		"$bin" --active --modules-dir "$d/wrong" "$core" "$vml" >"$d/w.out" 2>"$d/w.err"
		if [ -n "$want" ] && [ "$want" != "$wrong" ] &&
		   grep -q "module orccrash_test: no source lines: .* has build-id $wrong, the dump's orccrash_test has $want" "$d/w.err" &&
		   ! grep -q 'orccrash_oops+.*orccrash_test\.c:' "$d/w.out"; then
			pass "$rel: a .ko of another build gives no module lines and names both build-ids"
		else
			fail "$rel: wrong .ko: want build-id '$want' refused in favour of none: $(head -c 300 "$d/w.err")"
		fi
		"$bin" --active --modules-dir "$d/both" "$core" "$vml" >"$d/b.out" 2>"$d/b.err"
		if grep -q 'orccrash_oops+.*orccrash_test\.c:[0-9]' "$d/b.out" &&
		   ! grep -q 'module orccrash_test' "$d/b.err"; then
			pass "$rel: the .ko.debug with the dump's build-id is chosen over a same-named .ko"
		else
			fail "$rel: the matching orccrash-test.ko.debug was not used: $(head -c 300 "$d/b.err")"
		fi
	done
fi
# Debuginfo apart from the vmlinux, as Debian's linux-image-RELEASE-dbg
# installs it (ORCCRASH_DEBUG_ROOT stands for /usr/lib/debug): a vmlinux
# stripped of its DWARF finds it in boot/vmlinux-RELEASE when the build-id
# matches, refuses another kernel's there, and says once that lines are
# unavailable when there is none; the modules' .ko come from
# lib/modules/RELEASE without --modules-dir.
first_rel=${rels[0]:-}
if [ -z "$first_rel" ] || ! command -v objcopy >/dev/null; then
	skip "split debuginfo: no mod-oops dump or no objcopy"
else
	read -r core vml <<<"${modcore[$first_rel]}"
	other_vml=
	[ -n "${rels[1]:-}" ] && read -r _ other_vml <<<"${modcore[${rels[1]}]}"
	d=$tmp/split
	mkdir -p "$d/root/boot" "$d/root/lib/modules/$first_rel/extra" "$d/none" "$d/bad/boot"
	if objcopy --strip-debug "$vml" "$d/vmlinux" 2>"$d/objcopy.err"; then
		ln -s "$vml" "$d/root/boot/vmlinux-$first_rel"
		cp "${modko[$first_rel]}" "$d/root/lib/modules/$first_rel/extra/"
		want=$("$bin" --active "$core" "$vml" 2>/dev/null | grep -c '\.c:[0-9]')
		got=$(ORCCRASH_CACHE=$d/c1 ORCCRASH_DEBUG_ROOT=$d/root "$bin" --active "$core" "$d/vmlinux" 2>"$d/e1" | grep -c '\.c:[0-9]')
		ORCCRASH_CACHE=$d/c1b ORCCRASH_DEBUG_ROOT=$d/root "$bin" --active "$core" "$d/vmlinux" 2>/dev/null >"$d/o1"
		if [ "$got" -gt 0 ] && [ "$got" -ge "$want" ] && [ ! -s "$d/e1" ] &&
		   grep -q 'orccrash_oops+.*orccrash_test\.c:[0-9]' "$d/o1"; then
			pass "$first_rel: stripped vmlinux: lines from boot/vmlinux-RELEASE ($got lines, $want with the full vmlinux), module lines from lib/modules/RELEASE"
		else
			fail "$first_rel: stripped vmlinux with debuginfo: $got lines (want $want): $(head -c 300 "$d/e1")"
		fi
		ORCCRASH_CACHE=$d/c2 ORCCRASH_DEBUG_ROOT=$d/none "$bin" --active "$core" "$d/vmlinux" >"$d/o2" 2>"$d/e2"
		if [ "$(grep -c 'source lines unavailable' "$d/e2")" = 1 ] && ! grep -q '\.c:[0-9]' "$d/o2"; then
			pass "$first_rel: stripped vmlinux, no debuginfo: no lines, said once: $(head -n 1 "$d/e2")"
		else
			fail "$first_rel: stripped vmlinux without debuginfo: $(head -c 300 "$d/e2")"
		fi
		if [ -n "$other_vml" ]; then
			ln -s "$other_vml" "$d/bad/boot/vmlinux-$first_rel"
			ORCCRASH_CACHE=$d/c3 ORCCRASH_DEBUG_ROOT=$d/bad "$bin" --active "$core" "$d/vmlinux" >"$d/o3" 2>"$d/e3"
			if grep -q "vmlinux-$first_rel has build-id .*, the vmlinux " "$d/e3" && ! grep -q '\.c:[0-9]' "$d/o3"; then
				pass "$first_rel: another kernel's debug vmlinux is refused by build-id"
			else
				fail "$first_rel: another kernel's debug vmlinux was not refused: $(head -c 300 "$d/e3")"
			fi
		fi
	else
		skip "split debuginfo: objcopy --strip-debug failed: $(head -c 200 "$d/objcopy.err")"
	fi
fi

# Where the line cache goes: $ORCCRASH_CACHE/lines, else
# $XDG_CACHE_HOME/orccrash/lines (an absolute one only: the XDG Base
# Directory Specification ignores a relative one), else ~/.cache/orccrash/lines.
if [ -n "$first_rel" ]; then
	read -r core vml <<<"${modcore[$first_rel]}"
	bid=$(readelf -n "$vml" 2>/dev/null | sed -n 's/^ *Build ID: *//p' | head -n 1)
	d=$tmp/xdg
	mkdir -p "$d/home" "$d/cwd"
	where() {	# where ENV...: orccrash --active with ENV, then the cache files made under $d
		(cd "$d/cwd" && env -u ORCCRASH_CACHE "$@" HOME="$d/home" \
			"$bin" --active "$core" "$vml" >/dev/null 2>&1)
		(cd "$d" && find . -type f -path '*/lines/*' | sort | tr '\n' ' ')
		rm -rf "${d:?}"/home/.cache "$d/xdg" "$d/oc" "$d/cwd"/*
	}
	if [ -z "$bid" ]; then
		fail "$first_rel: line cache place: no build-id in $vml"
	else
		got=$(where XDG_CACHE_HOME="$d/xdg")
		[ "$got" = "./xdg/orccrash/lines/$bid-2 " ] &&
			pass "$first_rel: line cache in \$XDG_CACHE_HOME/orccrash/lines/BUILD-ID" ||
			fail "$first_rel: with XDG_CACHE_HOME=$d/xdg the line cache went to: ${got:-nowhere}"
		got=$(where XDG_CACHE_HOME=rel/x)
		[ "$got" = "./home/.cache/orccrash/lines/$bid-2 " ] &&
			pass "$first_rel: a relative XDG_CACHE_HOME is ignored: ~/.cache/orccrash/lines/BUILD-ID" ||
			fail "$first_rel: with XDG_CACHE_HOME=rel/x the line cache went to: ${got:-nowhere}"
		got=$(where -u XDG_CACHE_HOME)
		[ "$got" = "./home/.cache/orccrash/lines/$bid-2 " ] &&
			pass "$first_rel: no XDG_CACHE_HOME: ~/.cache/orccrash/lines/BUILD-ID" ||
			fail "$first_rel: without XDG_CACHE_HOME the line cache went to: ${got:-nowhere}"
		got=$(where ORCCRASH_CACHE="$d/oc" XDG_CACHE_HOME="$d/xdg")
		[ "$got" = "./oc/lines/$bid-2 " ] &&
			pass "$first_rel: ORCCRASH_CACHE comes before XDG_CACHE_HOME" ||
			fail "$first_rel: with ORCCRASH_CACHE and XDG_CACHE_HOME the line cache went to: ${got:-nowhere}"
	fi
fi

for rel in "${!rel_frames[@]}"; do
	f=${rel_frames[$rel]} w=${rel_lines[$rel]}
	if [ $((w * 100)) -ge $((f * 95)) ]; then
		pass "$rel: $w of $f vmlinux frames have a file:line over all scenarios"
	else
		fail "$rel: only $w of $f vmlinux frames have a file:line"
	fi
done
exit 0
