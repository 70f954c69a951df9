#!/bin/bash
# orc-dump against objtool itself: `orccrash orc-dump vmlinux` must be
# byte-identical to Debian's own `objtool --dump=orc vmlinux` (from the
# linux-kbuild package of the same kernel) for each sample kernel.
#   tests/orcdump/run.sh [BUILD_DIR]
# Prints PASS/FAIL/SKIP lines and "N passed, N failed".  SKIP when the
# vmlinux (extracted by samples/make-samples.sh) or objtool is missing.
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init orcdump "${1:-build}"
CACHE=$cache
passed=0 failed=0

# release  kbuild-package  (objtool lives in the kbuild package)
kernels=(
	"6.1.0-57-cloud-amd64 linux-kbuild-6.1"
	"6.12.118+deb12-cloud-amd64 linux-kbuild-6.12.118+deb12"
	"6.1.0-57-rt-amd64 linux-kbuild-6.1"
	"6.1.0-57-amd64 linux-kbuild-6.1"
)

# objtool of @pkg, from the cache, else fetched with apt-get download
find_objtool() {
	local pkg=$1 dir=$CACHE/kbuild/$1 deb
	local tool
	tool=$(find "$dir" -path '*tools/objtool/objtool' -type f 2>/dev/null | head -n1)
	if [ -z "$tool" ]; then
		mkdir -p "$dir" || return 1
		(cd "$dir" && apt-get download "$pkg" >/dev/null 2>&1) || return 1
		deb=$(ls "$dir"/*.deb 2>/dev/null | head -n1)
		[ -n "$deb" ] || return 1
		dpkg-deb -x "$deb" "$dir/root" || return 1
		tool=$(find "$dir" -path '*tools/objtool/objtool' -type f | head -n1)
	fi
	[ -n "$tool" ] && echo "$tool"
}

if [ ! -x "$bin" ]; then
	echo "FAIL orcdump: $bin not built"
	echo "0 passed, 1 failed"
	exit 1
fi

for k in "${kernels[@]}"; do
	set -- $k
	rel=$1 pkg=$2 name="orcdump $1"
	vmlinux=$CACHE/kernels/$rel/vmlinux
	if [ ! -f "$vmlinux" ]; then
		echo "SKIP $name: no $vmlinux (run make samples)"
		continue
	fi
	if ! objtool=$(find_objtool "$pkg"); then
		echo "SKIP $name: no objtool ($pkg not available)"
		continue
	fi
	# objtool 6.12 wants SRCARCH (tools/objtool/builtin-check.c)
	if ! SRCARCH=x86 "$objtool" --dump=orc "$vmlinux" >"$tmp/want" 2>"$tmp/want.err"; then
		echo "SKIP $name: objtool failed: $(head -n1 "$tmp/want.err")"
		continue
	fi
	if [ ! -s "$tmp/want" ]; then
		echo "SKIP $name: objtool printed nothing"
		continue
	fi
	if ! "$bin" orc-dump "$vmlinux" >"$tmp/got" 2>"$tmp/got.err"; then
		echo "FAIL $name: orccrash orc-dump failed: $(head -n1 "$tmp/got.err")"
		failed=$((failed + 1))
		continue
	fi
	if cmp -s "$tmp/want" "$tmp/got"; then
		echo "PASS $name ($(wc -l <"$tmp/want") entries identical to objtool)"
		passed=$((passed + 1))
	else
		echo "FAIL $name: differs from objtool --dump=orc:"
		diff "$tmp/want" "$tmp/got" | head -n 10 | sed 's/^/  /'
		failed=$((failed + 1))
	fi

	# the modules the samples use (unsorted tables, symbol relocations)
	nmod=0 bad=
	for ko in "$CACHE/kernels/$rel/modules"/*.ko; do
		[ -f "$ko" ] || continue
		SRCARCH=x86 "$objtool" --dump=orc "$ko" >"$tmp/want" 2>/dev/null || continue
		"$bin" orc-dump "$ko" >"$tmp/got" 2>"$tmp/got.err"
		if cmp -s "$tmp/want" "$tmp/got"; then
			nmod=$((nmod + 1))
		else
			bad="$bad $(basename "$ko")"
		fi
	done
	if [ -n "$bad" ]; then
		echo "FAIL $name modules: differ from objtool:$bad"
		failed=$((failed + 1))
	elif [ "$nmod" -gt 0 ]; then
		echo "PASS $name modules: $nmod .ko files identical to objtool"
		passed=$((passed + 1))
	else
		echo "SKIP $name modules: no .ko files in $CACHE/kernels/$rel/modules"
	fi
done
# The lookup index against the kernel's own orc_lookup[] in each sample
# dump (one dump per kernel is enough: the array is the same in all).
if [ ! -s "$index" ]; then
	echo "SKIP orc_lookup: no sample dumps ($index)"
elif ! make -s -C "$top" O="$O" "$O/tests/lookup_check" >"$tmp/cc.err" 2>&1; then
	echo "FAIL orc_lookup: cannot build lookup_check: $(grep -m1 -i error "$tmp/cc.err")"
	failed=$((failed + 1))
else
	declare -A seen
	while IFS=$'\t' read -r rel scen fmt core vml rest; do
		[ -n "$rel" ] && [ -r "$core" ] && [ -r "$vml" ] || continue
		[ -z "${seen[$rel]:-}" ] || continue
		seen[$rel]=1
		while read -r verdict line; do
			case $verdict in
			PASS) passed=$((passed + 1)) ;;
			FAIL) failed=$((failed + 1)) ;;
			esac
			echo "$verdict $rel/$scen/$fmt $line"
		done < <("$O/tests/lookup_check" "$core" "$vml" 2>&1)
	done <"$index"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
