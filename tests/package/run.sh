#!/bin/bash
# The packaging, as a distribution and a user would meet it, from a clean
# `git clone` of this tree (its HEAD: commit first):
#  1. dpkg-buildpackage -us -uc -b builds orccrash and crash-orccrash,
#     with dpkg-buildflags' flags on every compile and link and no
#     compiler warning; lintian reports no error or warning (overrides
#     are explained in debian/*.lintian-overrides);
#  2. make install PREFIX=<scratch> (the default sample's place follows
#     PREFIX: main.o is rebuilt for it), the installed orccrash with no
#     dump opens that sample, and make uninstall leaves nothing behind;
#  3. both packages unpacked into a scratch root: the orccrash there
#     gives the same JSON report of its sample as this tree's build
#     (valid against docs/json-schema.json), and crash loads its
#     orccrash.so and runs orcbt (needs the sample's vmlinux in the
#     sample cache: make samples);
#  4. only as root with CI=true or ORCCRASH_PKG_INSTALL=1, and only if
#     neither package nor a make install is there: dpkg -i both, then
#     `orccrash` with no argument, its manual page and bash completion,
#     `extend orccrash.so` by name in crash; dpkg --purge afterwards.
# PASS/FAIL/SKIP lines, then "N passed, N failed".
#   tests/package/run.sh [BUILD_DIR]
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tst_init package "${1:-build}"
ob=$O
py=/usr/bin/python3
[ -x "$py" ] || py=python3
installed=
cleanup() {
	if [ -n "$installed" ]; then
		dpkg --purge crash-orccrash orccrash >/dev/null 2>&1
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
passed=0 failed=0
pass() { echo "PASS package $*"; passed=$((passed + 1)); }
fail() { echo "FAIL package $*"; failed=$((failed + 1)); }
skip() { echo "SKIP package $*"; }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

if [ -x "$bin" ] && nm -D "$bin" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
	# make check-asan reruns every tier: the packages do not change
	skip "packages: $ob is a sanitizer build (make check-asan); this tier runs in make test"
	finish
fi
missing=
for c in git dpkg-buildpackage dh lintian crash; do
	command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
[ -r /usr/include/crash/defs.h ] || missing="$missing crash/defs.h"
if [ -n "$missing" ]; then
	skip "build: missing$missing (apt-get install git dpkg-dev debhelper lintian crash: tests/install-deps.sh test)"
	finish
fi
if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	skip "build: $top is not a git checkout"
	finish
fi
if [ -n "$(git -C "$top" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	echo "NOTE package: uncommitted changes are not in the clone: it builds HEAD $(git -C "$top" rev-parse --short HEAD)"
fi
# default_sample NAME BIN SAMPLE: BIN with no dump, run from /, opens SAMPLE
default_sample() {
	local rc
	(cd / && "$2" --active </dev/null >"$tmp/default.txt" 2>&1)
	rc=$?
	if { [ $rc -eq 0 ] || [ $rc -eq 3 ]; } &&
	   grep -q "^ *DUMP: $3 " "$tmp/default.txt"; then
		pass "$1: orccrash with no dump opens $3 (exit $rc)"
	else
		fail "$1: orccrash with no dump (exit $rc), not $3: $(head -n 2 "$tmp/default.txt")"
	fi
}

src=$tmp/src
git clone -q "$top" "$src" || { fail "git clone $top"; finish; }

# --- 1. dpkg-buildpackage, build flags, lintian ------------------------------
t0=$SECONDS
# a package builds from its own tree: none of the caller's make variables
# (`make O=DIR test` puts O= in MAKEFLAGS, and the build would go there)
(cd "$src" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u O dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1
rc=$?
debs=$(cd "$tmp" && ls orccrash_*.deb crash-orccrash_*.deb 2>/dev/null | tr '\n' ' ')
if [ $rc -ne 0 ] || [ "$(echo $debs | wc -w)" -ne 2 ]; then
	fail "dpkg-buildpackage -us -uc -b: exit $rc, packages: ${debs:-none}"
	grep -E '^FAIL |: error: |\*\*\*|^dpkg[a-z-]*: error' "$tmp/build.log" | tail -n 10 | sed 's/^/  /'
	finish
fi
pass "dpkg-buildpackage -us -uc -b: $debs($((SECONDS - t0)) s)"
# every compile and link with dpkg-buildflags' flags (V=1 in debian/rules)
cppflags=$(cd "$src" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CPPFLAGS)
ldflags=$(cd "$src" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)
# (make prints a recipe's backslash-newlines: joined here)
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$tmp/build.log" >"$tmp/build.joined"
ncc=$(grep -cE '^cc .* -c -o ' "$tmp/build.joined")
bad=$(grep -E '^cc .* -c -o ' "$tmp/build.joined" | grep -vcF -- "$cppflags")
nld=$(grep -cE '^cc .* -o build/(orccrash|orccrash\.so) ' "$tmp/build.joined")
badld=$(grep -E '^cc .* -o build/(orccrash|orccrash\.so) ' "$tmp/build.joined" | grep -vcF -- "$ldflags")
if [ "$ncc" -gt 0 ] && [ "$bad" -eq 0 ] && [ "$nld" -ge 2 ] && [ "$badld" -eq 0 ]; then
	pass "build flags: $ncc compiles with CPPFLAGS ($cppflags), $nld links with LDFLAGS ($ldflags)"
else
	fail "build flags: $bad of $ncc compiles without '$cppflags', $badld of $nld links without '$ldflags'"
fi
warn=$(grep -E ': warning: ' "$tmp/build.log" | sort -u)
if [ -z "$warn" ]; then
	pass "build log: no compiler warning"
else
	fail "build log: $(echo "$warn" | wc -l) compiler warnings:"
	echo "$warn" | head -n 10 | sed 's/^/  /'
fi
ut=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/build.log" | tail -n 1)
check_unit_ok=$(grep -qE '^[0-9]+ passed, 0 failed' <<<"$ut" && echo y)
if [ -n "$check_unit_ok" ]; then
	pass "dh_auto_test (make check-unit): $ut"
else
	fail "dh_auto_test (make check-unit) did not pass: ${ut:-no summary line}"
fi
t0=$SECONDS
lintian -I --pedantic --show-overrides "$tmp"/orccrash_*.changes >"$tmp/lintian.txt" 2>&1
lrc=$?
grep -E '^[EWIPNOX]: ' "$tmp/lintian.txt" | sed 's/^/NOTE lintian: /'
nbad=$(grep -cE '^[EW]: ' "$tmp/lintian.txt")
if [ "$nbad" -eq 0 ] && [ $lrc -eq 0 ]; then
	pass "lintian --pedantic: no error or warning ($(grep -cE '^[IPO]: ' "$tmp/lintian.txt") info/pedantic/overridden tags, above; $((SECONDS - t0)) s)"
else
	fail "lintian: $nbad errors or warnings (exit $lrc)"
	grep -E '^[EW]: ' "$tmp/lintian.txt" | head -n 20 | sed 's/^/  /'
fi
# libopcodes, libkdumpfile, libsnappy, liblzo2, libzstd and libedit are
# dlopen()ed (formats/dl.h): their packages by hand
# (debian/dlopen-depends), each as its shlibs file says
odeps=$(dpkg-deb -f "$tmp"/orccrash_*.deb Depends)
for lib in "libopcodes libbinutils" "libkdumpfile libkdumpfile10" "libsnappy libsnappy1v5" "liblzo2 liblzo2-2" "libzstd libzstd1" "libedit libedit2"; do
	set -- $lib
	want=$(sed -n "s/^$1 [^ ]* //p" \
		"$(dpkg-query --control-path "$2:$(dpkg --print-architecture)" shlibs)")
	if [ -n "$want" ] && grep -qF "$want" <<<"$odeps"; then
		pass "orccrash depends on $1's package, which it opens with dlopen(): $want"
	else
		fail "orccrash: Depends lacks $1's package (${want:-no shlibs entry}): $odeps"
	fi
done
deps=$(dpkg-deb -f "$tmp"/crash-orccrash_*.deb Depends)
cver=$(dpkg-query -W -f='${Version}' crash | sed -e 's/^[0-9]*://' -e 's/-[^-]*$//')
if grep -qF "crash (>= $cver)" <<<"$deps" && grep -qF "crash (<< $cver.0~)" <<<"$deps"; then
	pass "crash-orccrash depends on crash $cver, whose defs.h it was built with: $deps"
else
	fail "crash-orccrash: Depends does not pin crash $cver: $deps"
fi

# --- 2. make install / uninstall with a PREFIX ------------------------------
# Over the package's build/: only main.o is rebuilt, for the new DATADIR.
t0=$SECONDS
prefix=$tmp/prefix
if ! make -C "$src" -j2 install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then
	fail "make install PREFIX=$prefix: $(tail -n 3 "$tmp/install.log")"
else
	want="bin/orccrash share/man/man1/orccrash.1 share/orccrash/vmcore
		share/bash-completion/completions/orccrash share/doc/orccrash/README.md
		share/doc/orccrash/json-schema.json share/doc/orccrash/default-sample.txt
		lib/crash/extensions/orccrash.so"
	miss=
	for f in $want; do [ -e "$prefix/$f" ] || miss="$miss $f"; done
	if [ -z "$miss" ]; then
		pass "make install PREFIX=DIR: $(find "$prefix" -type f | wc -l) files, all under DIR ($((SECONDS - t0)) s)"
	else
		fail "make install PREFIX=DIR: missing$miss"
	fi
	# no dump given: the sample under PREFIX (not /usr/local, not the tree)
	default_sample "make install PREFIX=DIR" "$prefix/bin/orccrash" "$prefix/share/orccrash/vmcore"
	make -C "$src" uninstall PREFIX="$prefix" >>"$tmp/install.log" 2>&1
	left=$(find "$prefix" -type f | sed "s#^$prefix/##")
	if [ -z "$left" ]; then
		pass "make uninstall PREFIX=DIR: no file left"
	else
		fail "make uninstall PREFIX=DIR left: $(echo $left)"
	fi
fi

# --- 3. unpacked into a scratch root ------------------------------------------
root=$tmp/root
for d in "$tmp"/orccrash_*.deb "$tmp"/crash-orccrash_*.deb; do dpkg-deb -x "$d" "$root"; done
rbin=$root/usr/bin/orccrash
# orccrash does not link the libraries it opens on first use: what it never uses is never loaded
needed=$(objdump -p "$rbin" 2>/dev/null | awk '$1 == "NEEDED" { print $2 }')
if [ -n "$needed" ] && ! grep -qE '^lib(kdumpfile|addrxlat|snappy|opcodes|stdc\+\+|edit|lzo2|zstd)' <<<"$needed"; then
	pass "orccrash links none of the libraries it opens on first use: $(echo $needed)"
else
	fail "orccrash links a library it should open on first use (or has no NEEDED): $(echo $needed)"
fi
if ! grep -qa /usr/share/orccrash "$rbin"; then
	fail "the packaged orccrash does not look for its sample in /usr/share/orccrash"
fi
"$rbin" --json --all-tasks "$root/usr/share/orccrash/vmcore" >"$tmp/pkg.json" 2>"$tmp/pkg.err"
rc=$?
"$bin" --json --all-tasks "$top/samples/default/vmcore" >"$tmp/tree.json" 2>/dev/null
if { [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && cmp -s "$tmp/pkg.json" "$tmp/tree.json"; then
	pass "packaged orccrash: its sample's JSON report is this tree's (exit $rc, $(wc -c <"$tmp/pkg.json") bytes)"
else
	fail "packaged orccrash --json --all-tasks on its sample: exit $rc, differs from $bin's: $(head -c 200 "$tmp/pkg.err")"
fi
"$py" "$top/tests/json/validate.py" --need-frames "packaged orccrash --json --all-tasks" "$tmp/pkg.json" ||
	true	# its FAIL line is counted by tests/run-tests.sh
so=$root/usr/lib/crash/extensions/orccrash.so

# crash needs the vmlinux: the default sample's kernel, from make samples
rel=$(sed -n 's/^release=//p' "$top/samples/default/README")
vml=$cache/kernels/$rel/vmlinux
crash_check() {	# crash_check NAME EXTEND_ARG [ENV...]
	local name=$1 ext=$2
	shift 2
	printf 'extend %s\norcbt -a\nquit\n' "$ext" >"$tmp/crash.cmd"
	env "$@" timeout 300 crash -s -i "$tmp/crash.cmd" "$vml" "$top/samples/default/vmcore" \
		</dev/null >"$tmp/crash.out" 2>&1
	local frames
	frames=$(grep -cE '^ *(\? )?[a-z_][a-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+' "$tmp/crash.out")
	if grep -q 'orccrash.so: shared object loaded' "$tmp/crash.out" &&
	   grep -q 'panic+0x' "$tmp/crash.out" && [ "$frames" -ge 5 ]; then
		pass "$name: crash loads it, orcbt -a prints $frames frames (panic among them)"
	else
		fail "$name: crash did not load it or run orcbt:"
		grep -v '^$' "$tmp/crash.out" | tail -n 5 | sed 's/^/  /'
	fi
}
if [ ! -r "$vml" ]; then
	skip "crash-orccrash in crash: no $vml (make samples)"
else
	crash_check "crash-orccrash (scratch root): extend $so" "$so"
fi

# --- 4. dpkg -i, only where it is safe ------------------------------------------
if [ "$(id -u)" -ne 0 ] || { [ "${CI:-}" != true ] && [ "${ORCCRASH_PKG_INSTALL:-}" != 1 ]; }; then
	skip "dpkg -i: only as root with CI=true or ORCCRASH_PKG_INSTALL=1 (installs, then purges)"
	finish
fi
if dpkg-query -W orccrash crash-orccrash >/dev/null 2>&1 ||
   [ -e /usr/bin/orccrash ] || [ -e /usr/lib/crash/extensions/orccrash.so ]; then
	skip "dpkg -i: orccrash is already installed here (a package or make install): not touching it"
	finish
fi
installed=1
if ! dpkg -i "$tmp"/orccrash_*.deb "$tmp"/crash-orccrash_*.deb >"$tmp/dpkg.log" 2>&1; then
	fail "dpkg -i: $(tail -n 3 "$tmp/dpkg.log")"
	finish
fi
pass "dpkg -i orccrash crash-orccrash: installed"
default_sample installed orccrash /usr/share/orccrash/vmcore
if man -w orccrash 2>/dev/null | grep -q '^/usr/share/man/man1/orccrash.1'; then
	pass "installed: man orccrash finds $(man -w orccrash)"
else
	fail "installed: man -w orccrash: $(man -w orccrash 2>&1)"
fi
# bash-completion loads completions/orccrash on demand
comp=$(bash -c 'source /usr/share/bash-completion/bash_completion
	_completion_loader orccrash; complete -p orccrash' 2>&1)
if [ "$comp" = "complete -F _orccrash orccrash" ]; then
	pass "installed: bash completion is loaded for orccrash ($comp)"
else
	fail "installed: bash completion for orccrash: $comp"
fi
if [ -r "$vml" ]; then
	crash_check "installed crash-orccrash: extend orccrash.so (by name)" orccrash.so
fi
dpkg --purge crash-orccrash orccrash >"$tmp/purge.log" 2>&1
installed=
if [ ! -e /usr/bin/orccrash ] && [ ! -e /usr/share/orccrash ] &&
   [ ! -e /usr/lib/crash/extensions/orccrash.so ]; then
	pass "dpkg --purge: nothing of orccrash left"
else
	fail "dpkg --purge left files: $(ls -d /usr/bin/orccrash /usr/share/orccrash /usr/lib/crash/extensions/orccrash.so 2>/dev/null)"
fi
finish
