#!/bin/bash
# The vmlinux's symbol tables kept per build (src/symcache.c,
# ~/.cache/orccrash/syms/BUILD-ID) give the report the ELF symbol table
# gives: on one dump of each release, in a cache directory of the test's
# own, the report made while writing the file (cold), made from it
# (warm), and made where no file can be kept (a directory others can
# write: src/cachefile.c refuses it) are byte for byte the same; then the
# file damaged (cut short, its header changed, bytes flipped throughout)
# and the vmlinux another file of the same build (a copy): never a
# crash, the same report where the damage is found, and a file cut short
# is made anew.
# The same for the types memo (src/typecache.c, ~/.cache/orccrash/types/):
# the warm report is made without opening the BTF (its debug line says so),
# a memo a narrower run made (--log asks fewer questions) opens the BTF for
# the rest and gives the same report, a memo cut short is made anew, one
# with flipped bits never crashes.
# The same for the CFI index (src/cficache.c, ~/.cache/orccrash/cfi/), on
# each release's kdump-real dump (its panic CPU's __crash_kexec() has no
# ORC: the one frame a kdump always asks the CFI for): the cold run keeps
# the index, the warm report made over it is the same, a file cut short
# is refused and made anew, flipped bits never crash.
#   tests/realdump/symcache.sh [BUILD_DIR]
. "$(dirname "$0")/../lib.sh"
tst_init symcache "${1:-build}"
tst_need_index

# run OUT CACHE ARGS...: the plain report, exit status in $rc
run() {
	local out=$1 dir=$2
	shift 2
	ORCCRASH_CACHE=$dir "$bin" --all-tasks --no-lines "$@" >"$out" 2>"$out.err"
	rc=$?
}

# same NAME FILE: FILE is the cold report (but the VMLINUX line, which
# names the file given), exit status the same
same() {
	if [ "$rc" -ge 128 ]; then
		fail "$1: killed by signal $((rc - 128))"
	elif [ "$rc" -ne "$rc0" ]; then
		fail "$1: exit $rc, cold $rc0: $(head -c 200 "$2.err")"
	elif ! cmp -s <(grep -v '^ *VMLINUX: ' "$tmp/cold") <(grep -v '^ *VMLINUX: ' "$2"); then
		fail "$1: the report differs: $(diff "$tmp/cold" "$2" | head -4 | tr '\n' ' ' | head -c 300)"
	else
		pass "$1"
	fi
}

# flip FILE SEED: 64 bits of FILE flipped, where SEED says
flip() {
	python3 - "$1" "$2" <<'EOF'
import random, sys
p, seed = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
r = random.Random(seed)
for _ in range(64):
    b[r.randrange(len(b))] ^= 1 << r.randrange(8)
open(p, "wb").write(b)
EOF
}

# cut_remade NAME WHAT FILE GOOD: FILE (a copy of GOOD) cut to half: the
# report the same, the file made anew
cut_remade() {
	head -c "$(( $(stat -c %s "$4") / 2 ))" "$4" >"$3"
	run "$tmp/cut" "$c" "$core" "$vml"
	same "$1: $2 cut short is refused" "$tmp/cut"
	if cmp -s "$3" "$4"; then
		pass "$1: $2 cut short is made anew"
	else
		fail "$1: $2 cut short was not made anew"
	fi
}

# flips_no_crash NAME WHAT FILE GOOD: six copies of GOOD with 64 bits
# flipped each: never a crash (what passes the checks is the user's own
# file, trusted as the lines cache is); GOOD back in place after
flips_no_crash() {
	local bad=0 seed
	for seed in 1 2 3 4 5 6; do
		cp "$4" "$3"
		flip "$3" "$seed"
		run "$tmp/flip" "$c" "$core" "$vml"
		if [ "$rc" -ge 128 ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$rc" -ne 1 ]; }; then
			fail "$1: $2 with flipped bytes (seed $seed): exit $rc: $(tail -c 300 "$tmp/flip.err")"
			bad=1
		fi
	done
	cp "$4" "$3"
	[ "$bad" -ne 0 ] || pass "$1: 6 of $2 with 64 flipped bits each: no crash"
}

# cold_kept DIR SUBDIR WHAT: the cold report ($tmp/cold, its exit in
# $rc0) made with the new cache directory DIR ($c); $file the file it kept
# under DIR/SUBDIR; false, with a failure, when the run failed or kept none
cold_kept() {
	c=$1
	rm -rf "$c"
	mkdir -p "$c"
	run "$tmp/cold" "$c" "$core" "$vml"
	rc0=$rc
	if [ "$rc0" -ne 0 ] && [ "$rc0" -ne 3 ]; then
		fail "$name: cold run exit $rc0: $(head -c 200 "$tmp/cold.err")"
		return 1
	fi
	file=$(find "$c/$2" -type f 2>/dev/null | head -n 1)
	if [ -z "$file" ] || [ ! -s "$file" ]; then
		fail "$name: no $3 under $c/$2"
		return 1
	fi
	pass "$name: the cold run kept $3 $(basename "$file") ($(stat -c %s "$file") bytes)"
}

declare -A rel_seen
while tst_next_dump; do
	[ -z "${rel_seen[$rel]:-}" ] && [ -r "$vml" ] || continue
	rel_seen[$rel]=1
	cold_kept "$tmp/cache-$rel" syms "the symbol cache" || continue
	cp "$file" "$tmp/good"
	types=$(find "$c/types" -type f 2>/dev/null | head -n 1)
	if [ -z "$types" ] || [ ! -s "$types" ]; then
		fail "$name: no types memo under $c/types"
		continue
	fi
	cp "$types" "$tmp/types.good"
	ORCCRASH_TYPES_DEBUG=1 run "$tmp/warm" "$c" "$core" "$vml"
	same "$name: the report from the kept symbols is the ELF's" "$tmp/warm"
	if grep -q '^orccrash: types memo: [0-9]* answers kept, 0 asked of the BTF (not opened)$' "$tmp/warm.err"; then
		pass "$name: the warm report opened no BTF ($(grep -o '[0-9]* answers kept' "$tmp/warm.err"))"
	else
		fail "$name: the warm report's types memo: $(grep 'types memo' "$tmp/warm.err" || echo 'no debug line')"
	fi
	# a memo of a narrower run: the BTF opened for the rest
	mkdir -p "$tmp/narrow"
	ORCCRASH_CACHE=$tmp/narrow "$bin" --log --no-lines "$core" "$vml" >/dev/null 2>&1
	ORCCRASH_TYPES_DEBUG=1 run "$tmp/narrow.out" "$tmp/narrow" "$core" "$vml"
	if grep -q 'asked of the BTF (opened)$' "$tmp/narrow.out.err"; then
		same "$name: a narrower run's memo, the BTF opened for the rest: the same report" "$tmp/narrow.out"
	else
		fail "$name: a narrower run's memo: $(grep 'types memo' "$tmp/narrow.out.err" || echo 'no debug line')"
	fi
	rm -rf "$tmp/narrow"
	# the memo cut short: refused, the BTF read, the file made anew
	cut_remade "$name" "a types memo" "$types" "$tmp/types.good"
	flips_no_crash "$name" "the types memo" "$types" "$tmp/types.good"
	# a cache directory others can write: no file kept or read
	mkdir -p "$tmp/open/syms" "$tmp/open/types"
	chmod 0777 "$tmp/open/syms" "$tmp/open/types"
	run "$tmp/open.out" "$tmp/open" "$core" "$vml"
	if [ -n "$(find "$tmp/open" -type f)" ]; then
		fail "$name: a file kept in a directory others can write"
	else
		same "$name: no cache in a directory others can write, the same report" "$tmp/open.out"
	fi
	rm -rf "$tmp/open"
	# cut short: refused, the ELF read, the file made anew
	cut_remade "$name" "a symbol cache" "$file" "$tmp/good"
	# another vmlinux of the build (a copy: another inode, another
	# mtime): a miss, its own file
	cp "$vml" "$tmp/vmlinux"
	run "$tmp/copy" "$c" "$core" "$tmp/vmlinux"
	same "$name: a copy of the vmlinux reads its own symbols" "$tmp/copy"
	rm -f "$tmp/vmlinux"
	# bytes flipped throughout: never a crash
	flips_no_crash "$name" "the symbol cache" "$file" "$tmp/good"
done <"$index"
[ "${#rel_seen[@]}" -gt 0 ] || skip "symcache: no dump with its vmlinux readable"

declare -A cfi_seen
while tst_next_dump; do
	[ "$fmt" = kdump-real ] && [ -z "${cfi_seen[$rel]:-}" ] && [ -r "$vml" ] || continue
	cfi_seen[$rel]=1
	cold_kept "$tmp/cfi-$rel" cfi "the CFI index" || continue
	cp "$file" "$tmp/cfi.good"
	run "$tmp/warm" "$c" "$core" "$vml"
	same "$name: the report over the kept CFI index is the listed one's" "$tmp/warm"
	if cmp -s "$file" "$tmp/cfi.good"; then
		pass "$name: the warm run left the CFI index as it was"
	else
		fail "$name: the warm run changed the CFI index"
	fi
	cut_remade "$name" "a CFI index" "$file" "$tmp/cfi.good"
	flips_no_crash "$name" "the CFI index" "$file" "$tmp/cfi.good"
done <"$index"
[ "${#cfi_seen[@]}" -gt 0 ] || skip "symcache: no kdump-real dump with its vmlinux readable"
exit 0
