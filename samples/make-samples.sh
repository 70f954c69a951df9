#!/bin/bash
# make-samples.sh: real crash dumps of Debian's own kernels under QEMU.
#
# Picks the newest Debian cloud kernel of the 6.1 and 6.12 series (bookworm),
# of 7.x (sid) and of 5.10 (bullseye), the last two through a private apt
# state under $CACHE/apt (papt_init), boots each
# under qemu-system-x86_64 -accel tcg with a busybox initramfs, crashes it in
# several ways (samples/README.md lists the scenarios) and saves:
#   - QEMU dump-guest-memory: ELF (vmcore.elf) and kdump-compressed, which
#     QEMU 7.2 writes in makedumpfile's flattened format (vmcore.flat), plus
#     its makedumpfile -R reassembly (vmcore.kdump);
#   - a real kdump: crashkernel= + kexec -p, makedumpfile -c -d 31 (-d 17 on
#     6.10+: samples/guest-init.sh whole_level) in the capture kernel
#     (vmcore.kdump-real; scenarios kdump and kdump-timer).
# Next to each dump: serial.log, info, ref/ (the kernel's own traces parsed from
# the serial log, crash and drgn output).
#
# Cache: ${ORCCRASH_CACHE:-$HOME/.cache/orccrash}/{debs,kernels,dumps}.
# Idempotent: a dump directory appears only when complete, and a complete one
# is never redone (delete it to redo it).
#
# Knobs (environment):
#   ORCCRASH_CACHE       cache root
#   ORCCRASH_RELEASES    space-separated kernel releases instead of the newest
#                        6.1, 6.12, 7.x and 5.10 cloud, 6.1 rt and 6.1 generic
#                        (e.g. "6.1.0-57-cloud-amd64 6.1.0-57-rt-amd64")
#   ORCCRASH_SCENARIOS   space-separated subset of the scenarios
#   ORCCRASH_NO_APT=1    never call apt-get (use only what is cached)
#   ORCCRASH_NO_TOOLS=1  skip the crash/drgn reference runs
set -euo pipefail

SAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
DEBS=$CACHE/debs
ALL_SCENARIOS="process hardirq kdump mod-oops mod-timer mod-overflow mod-blocked mod-nmi kdump-timer mod-hrtimer mod-deadlock mod-locks"
SCENARIOS=${ORCCRASH_SCENARIOS:-$ALL_SCENARIOS}
# drgn is a module of Debian's python3, not of any other python on PATH.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# wait_serial, wait_exit
. "$SAMPLES/qemu-lib.sh"

log() { printf '[make-samples %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "error: $*"; exit 1; }

# --- host packages -----------------------------------------------------------

APT_UPDATED=
apt_update() {
	[ -n "$APT_UPDATED" ] && return 0
	[ "${ORCCRASH_NO_APT:-}" = 1 ] && return 1
	log "apt-get update"
	apt-get update -qq >&2 || return 1
	APT_UPDATED=1
}

# --- a private apt state for the suites the machine's apt lacks --------------

# The machine's own Debian mirror (and its security mirror), read from
# /etc/apt/sources.list.d/*.sources (deb822), *.list and sources.list:
# "MIRROR SECURITY_MIRROR" (the latter may be empty).
papt_mirrors() {
	local f main='' sec='' uri suites
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		while IFS='|' read -r uri suites; do
			case " $suites" in
			*-security*) [ -n "$sec" ] || sec=$uri ;;
			*) [ -n "$main" ] || main=$uri ;;
			esac
		done < <(awk 'BEGIN { RS = ""; FS = "\n" }
			{ u = ""; s = ""; t = 0
			  for (i = 1; i <= NF; i++) {
				if ($i ~ /^Types:.*deb( |$)/) t = 1
				if ($i ~ /^URIs:/) { sub(/^URIs: */, "", $i); split($i, a, " "); u = a[1] }
				if ($i ~ /^Suites:/) { sub(/^Suites: */, "", $i); s = $i }
			  }
			  if (t && u ~ /\/debian(-security)?\/?$/) print u "|" s }' "$f")
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		while read -r uri suites; do
			case $suites in
			*-security*) [ -n "$sec" ] || sec=$uri ;;
			*) [ -n "$main" ] || main=$uri ;;
			esac
		done < <(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\(-security\)\{0,1\}\/\{0,1\}\) \([^ ]*\).*/\2 \4/p' "$f")
	done
	[ -n "$main" ] || return 1
	echo "$main $sec"
}

# papt_init SUITE...: an apt state of its own under $CACHE/apt with those
# suites (main) from the machine's mirror, e.g. "sid" for 7.x, "bullseye
# bullseye-security" for 5.10; updated when its sources change, it has no
# lists or they are a day old (sid's pool drops old kernels). The system's apt setup is never touched: every call passes
# PAPT_OPTS. Returns 1 (and PAPT_OPTS empty) without apt or a mirror.
PAPT_OPTS=()
PAPT_SUITES=
papt_init() {
	local dir=$CACHE/apt m main sec s want
	[ "${ORCCRASH_NO_APT:-}" = 1 ] && return 1
	for s in "$@"; do
		case " $PAPT_SUITES " in *" $s "*) ;; *) PAPT_SUITES+="${PAPT_SUITES:+ }$s" ;; esac
	done
	m=$(papt_mirrors) || return 1
	read -r main sec <<< "$m"
	[ -n "$sec" ] || sec=${main%/debian*}/debian-security
	want=$(for s in $PAPT_SUITES; do
		case $s in
		*-security) echo "deb $sec $s main" ;;
		*) echo "deb $main $s main" ;;
		esac
	done)
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	PAPT_OPTS=(-o "Dir::Etc::sourcelist=$dir/sources.list"
		-o Dir::Etc::sourceparts=/nonexistent
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache")
	if [ "$(cat "$dir/sources.list" 2>/dev/null)" != "$want" ] ||
		! ls "$dir"/lists/*_Packages* > /dev/null 2>&1 ||
		[ -n "$(find "$dir/lists" -maxdepth 1 -name '*_InRelease' -mtime +0)" ]; then
		echo "$want" > "$dir/sources.list"
		log "apt-get update (private state $dir: $PAPT_SUITES)"
		apt-get "${PAPT_OPTS[@]}" update -qq >&2 || { PAPT_OPTS=(); return 1; }
	fi
}

# The suites a release series comes from when the machine's apt lacks it.
papt_suites_of() {
	case $1 in
	7*) echo sid ;;
	5.10*) echo "bullseye bullseye-security" ;;
	esac
}

# Debian packages the script uses (dwarves: pahole, for 6.12 module BTF;
# libxenmisc4.17: kexec-tools links it).
HOST_PKGS="qemu-system-x86 busybox-static cpio kexec-tools libxenmisc4.17
makedumpfile crash python3-drgn python3 gcc gcc-12 make dwarves kmod xz-utils
zstd file"

ensure_host_packages() {
	local missing=() pkg
	for pkg in $HOST_PKGS; do
		if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
			grep -q 'ok installed'; then
			missing+=("$pkg")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "${ORCCRASH_NO_APT:-}" = 1 ] && die "missing packages: ${missing[*]}"
	log "installing: ${missing[*]}"
	apt_update || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >&2
}

# --- kernels -----------------------------------------------------------------

# Newest release of a series and flavour (default cloud-amd64; rt-amd64 and
# amd64 are the PREEMPT_RT and generic ones) among the -unsigned images apt
# knows, e.g. "6.1.0-57-cloud-amd64"; falls back to the newest one already
# in $DEBS.
newest_release() {
	local re=$1 flav=${2:-cloud-amd64} found=
	# 7.x's image is linux-binary-REL (see image_packages)
	local pat="^linux-(image-${re}-${flav}-unsigned|binary-${re}-${flav})\$"
	pick() { awk '{print $1}' | sed -E 's/^linux-(image|binary)-//; s/-unsigned$//' | sort -V | tail -n1; }
	if [ "${ORCCRASH_NO_APT:-}" != 1 ]; then
		# a series of another suite (7.x: sid) from the private state,
		# the others from the machine's apt
		local suites
		suites=$(papt_suites_of "${re//\\/}")
		if [ -n "$suites" ]; then
			# The index of an older suite may list releases whose
			# files the pool no longer has (bullseye's 5.10.0-46 to
			# -44 are 404 today): the newest whose image downloads.
			local c
			# shellcheck disable=SC2086 # one word a suite
			if papt_init $suites; then
				for c in $(apt-cache "${PAPT_OPTS[@]}" search --names-only "$pat" |
					awk '{print $1}' | sed -E 's/^linux-(image|binary)-//; s/-unsigned$//' |
					sort -V -r); do
					if ls "$DEBS"/linux-*-"$c"{,-unsigned}_*.deb >/dev/null 2>&1 ||
					   (mkdir -p "$DEBS" && cd "$DEBS" &&
					    apt-get "${PAPT_OPTS[@]}" download -q \
						"$(case $c in 7.*) echo "linux-binary-$c" ;; *) echo "linux-image-$c-unsigned" ;; esac)" >/dev/null 2>&1); then
						found=$c
						break
					fi
					log "$c: listed by the index, not in the pool: trying an older one"
				done
			fi
		else
			found=$(apt-cache search --names-only "$pat" 2>/dev/null | pick)
			if [ -z "$found" ] && apt_update; then
				found=$(apt-cache search --names-only "$pat" | pick)
			fi
		fi
	fi
	if [ -z "$found" ]; then
		found=$(ls "$DEBS" 2>/dev/null | sed -n -E "s/^linux-(image-(.*-${flav})-unsigned|binary-(.*-${flav}))_.*\\.deb\$/\\2\\3/p" |
			grep -E "^${re}-${flav}\$" | sort -V | tail -n1) || true
	fi
	[ -n "$found" ] || die "no $flav kernel matching $re"
	echo "$found"
}

# Path of the cached .deb of a package, downloading it if needed.
deb_of() {
	local pkg=$1 f
	f=$(ls "$DEBS/${pkg}"_*.deb 2>/dev/null | sort -V | tail -n1) || true
	if [ -z "$f" ]; then
		[ "${ORCCRASH_NO_APT:-}" = 1 ] && die "$pkg not in $DEBS"
		log "apt-get download $pkg"
		mkdir -p "$DEBS"
		(cd "$DEBS" && apt-get download -q "$pkg" >&2 2>/dev/null) ||
			{ [ ${#PAPT_OPTS[@]} -gt 0 ] &&
			  (cd "$DEBS" && apt-get "${PAPT_OPTS[@]}" download -q "$pkg" >&2 2>/dev/null); } ||
			{ apt_update && (cd "$DEBS" && apt-get download -q "$pkg" >&2); } ||
			die "cannot download $pkg"
		f=$(ls "$DEBS/${pkg}"_*.deb | sort -V | tail -n1)
	fi
	echo "$f"
}

# The linux-headers-<abi>-common and linux-kbuild-<ver> packages that
# linux-headers-<release> depends on, read from the .deb itself.
header_deps() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' |
		grep -E '^linux-(headers-.*-common|kbuild-)'
}

# Module file names (basename without .ko) and their dependencies, resolved
# recursively and printed deepest first.
module_order() {
	local dir=$1; shift
	local -A seen=()
	local out=()
	visit() {
		local name=$1 f dep
		[ -n "${seen[$name]:-}" ] && return 0
		seen[$name]=1
		f=$dir/$name.ko
		[ -f "$f" ] || die "module $name not found in $dir"
		for dep in $(modinfo -F depends "$f" | tr ',' ' '); do
			visit "$dep"
		done
		out+=("$name.ko")
	}
	local m
	for m in "$@"; do
		# A top-level module absent from the package is built in (e.g.
		# virtio_pci in 6.12's cloud config): nothing to load.
		[ -f "$dir/$m.ko" ] && visit "$m"
	done
	printf '%s\n' "${out[@]}"
}

# The packages holding a release's vmlinuz, System.map, config and modules:
# one linux-image-REL-unsigned up to 6.x; from 7.x (sid, 7.2.13+deb14)
# linux-image-REL is a meta package and the files are split over
# linux-binary-REL (usr/lib/modules/REL/vmlinuz), linux-base-REL (System.map,
# config) and linux-modules-REL. Chosen by which one is cached or apt knows.
image_packages() {
	local rel=$1
	if ls "$DEBS/linux-binary-$rel"_*.deb > /dev/null 2>&1 ||
		{ ! ls "$DEBS/linux-image-$rel-unsigned"_*.deb > /dev/null 2>&1 &&
		  [ "${ORCCRASH_NO_APT:-}" != 1 ] &&
		  apt-cache "${PAPT_OPTS[@]}" show "linux-binary-$rel" > /dev/null 2>&1; }; then
		echo "linux-binary-$rel linux-base-$rel linux-modules-$rel"
	else
		echo "linux-image-$rel-unsigned"
	fi
}

prepare_kernel() {
	local rel=$1 kdir=$CACHE/kernels/$1
	local img dbg hdr tmp pkg d
	if [ -f "$kdir/.complete" ]; then
		build_module "$rel"
		return 0
	fi
	log "$rel: preparing kernel"
	local imgs=() img_debs
	img_debs=$(image_packages "$rel")
	for pkg in $img_debs; do imgs+=("$(deb_of "$pkg")"); done
	dbg=$(deb_of "linux-image-$rel-dbg")
	hdr=$(deb_of "linux-headers-$rel")
	local extra=()
	for pkg in $(header_deps "$hdr"); do extra+=("$(deb_of "$pkg")"); done

	tmp=$kdir.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp/x" "$tmp/modules"
	# Only the few modules the guest loads: qemu_fw_cfg (VMCOREINFO for
	# -device vmcoreinfo) and virtio_blk with its virtio stack (kdump disk).
	# Up to 6.x the image package has /boot/{vmlinuz,System.map,config}-REL
	# and /lib/modules; 7.x (sid) has /usr/lib/modules/REL/{vmlinuz,
	# System.map,config} split over linux-binary, -base and -modules.
	for img in "${imgs[@]}"; do
		local l=./lib/modules/$rel
		case $img in */linux-image-*) ;; *) l=./usr/lib/modules/$rel ;; esac
		# (tar fails on the names a package lacks; what it has is there)
		dpkg-deb --fsys-tarfile "$img" | tar -x -C "$tmp/x" --wildcards \
			'./boot/vmlinuz-*' './boot/System.map-*' './boot/config-*' \
			"$l/vmlinuz" "$l/System.map" "$l/config" \
			"$l/kernel/drivers/firmware/qemu_fw_cfg.ko*" \
			"$l/kernel/drivers/virtio/*" \
			"$l/kernel/drivers/block/virtio_blk.ko*" 2>/dev/null || true
	done
	local f
	for f in vmlinuz System.map config; do
		if [ -f "$tmp/x/boot/$f-$rel" ]; then
			mv "$tmp/x/boot/$f-$rel" "$tmp/$f"
		elif [ -f "$tmp/x/usr/lib/modules/$rel/$f" ]; then
			mv "$tmp/x/usr/lib/modules/$rel/$f" "$tmp/$f"
		else
			die "$rel: no $f in ${imgs[*]}"
		fi
	done
	find "$tmp/x" -name '*.ko*' -exec mv -t "$tmp/modules" {} +
	for d in "$tmp"/modules/*.ko.xz; do [ -e "$d" ] && xz -d "$d"; done
	for d in "$tmp"/modules/*.ko.zst; do [ -e "$d" ] && zstd -q -d --rm "$d"; done
	rm -rf "$tmp/x"

	log "$rel: extracting vmlinux from $(basename "$dbg")"
	# 7.x: usr/lib/debug/boot/vmlinux-REL is a symlink to
	# ../lib/modules/REL/vmlinux; earlier it is the file. One pass takes
	# both names (tar fails on the one a package lacks).
	mkdir -p "$tmp/x"
	dpkg-deb --fsys-tarfile "$dbg" | tar -x -C "$tmp/x" \
		"./usr/lib/debug/boot/vmlinux-$rel" \
		"./usr/lib/debug/lib/modules/$rel/vmlinux" 2>/dev/null || true
	[ -f "$tmp/x/usr/lib/debug/boot/vmlinux-$rel" ] ||
		die "$rel: no vmlinux in $(basename "$dbg")"
	mv "$(readlink -f "$tmp/x/usr/lib/debug/boot/vmlinux-$rel")" "$tmp/vmlinux"
	rm -rf "$tmp/x"

	mkdir -p "$tmp/headers"
	for d in "$hdr" "${extra[@]}"; do dpkg-deb -x "$d" "$tmp/headers"; done
	# The headers' Makefile includes the -common tree by absolute path under
	# /usr/src: point it at our extracted copy (the final location).
	local mk=$tmp/headers/usr/src/linux-headers-$rel/Makefile
	# (7.x also sets KBUILD_OUTPUT=/usr/src/linux-headers-REL there)
	sed -i "s|\([ =]\)/usr/src/|\1$kdir/headers/usr/src/|" "$mk"

	{
		for d in "${imgs[@]}" "$dbg" "$hdr" "${extra[@]}"; do
			echo "$(dpkg-deb -f "$d" Package) $(dpkg-deb -f "$d" Version)"
		done
	} > "$tmp/package.txt"
	touch "$tmp/.complete"
	rm -rf "$kdir"
	mv "$tmp" "$kdir"
	build_module "$rel"
}

# What runs a release's kbuild: nothing on this host when the compiler the
# kernel was built with (CC in the headers' .kernelvariables, e.g. gcc-12 for
# 6.1, gcc-16 for 7.2: 7.x's flags such as -fmin-function-alignment are
# unknown to gcc-12) is here; else Debian sid's chroot of
# tests/bench/sid-chroot.sh, with that gcc, make and dwarves (pahole, for the
# module's BTF) installed in it. It binds $CACHE at the same path.
kbuild_runner() {
	local rel=$1 kv cc sid=$SAMPLES/../tests/bench/sid-chroot.sh
	kv=$CACHE/kernels/$rel/headers/usr/src/linux-headers-$rel/.kernelvariables
	cc=$(sed -n 's/^CC = .*\(gcc-[0-9][0-9]*\)$/\1/p' "$kv" 2>/dev/null)
	if [ -z "$cc" ] || command -v "$cc" > /dev/null; then
		return 0
	fi
	# an older gcc than the host's (bullseye's gcc-10, which neither
	# bookworm nor sid serves): the host's gcc-12 builds it (build_module)
	if [ "${cc#gcc-}" -lt 12 ] 2>/dev/null && command -v gcc-12 > /dev/null; then
		return 0
	fi
	log "$rel: $cc is not on this host: building in sid's chroot"
	if ! "$sid" root > /dev/null 2>&1; then
		[ "${ORCCRASH_NO_APT:-}" = 1 ] && die "$rel: needs $cc: no sid root (tests/bench/sid-chroot.sh ensure)"
		SID_PACKAGES="$cc make dwarves libc6-dev" "$sid" ensure >&2 ||
			die "$rel: cannot make the sid root for $cc"
	fi
	if ! "$sid" run sh -c "command -v $cc && command -v make && command -v pahole" > /dev/null 2>&1; then
		[ "${ORCCRASH_NO_APT:-}" = 1 ] && die "$rel: $cc, make or pahole missing in the sid root"
		"$sid" run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "$cc" make dwarves libc6-dev >&2 ||
			die "$rel: cannot install $cc in the sid root"
	fi
	echo "$sid run"
}

# samples/module/orccrash_test.ko against the release's own headers, so its
# vermagic and modversions match. Rebuilt when the sources change.
build_module() {
	local rel=$1 kdir=$CACHE/kernels/$1 sum b
	sum=$(cat "$SAMPLES/module/orccrash_test.c" "$SAMPLES/module/Kbuild" | sha256sum | cut -c1-16)
	if [ -f "$kdir/modules/orccrash_test.ko" ] &&
		[ "$(cat "$kdir/modules/.orccrash_test.sum" 2>/dev/null)" = "$sum" ]; then
		return 0
	fi
	log "$rel: building orccrash_test.ko"
	b=$kdir/module-build
	rm -rf "$b"
	mkdir -p "$b"
	cp "$SAMPLES/module/orccrash_test.c" "$SAMPLES/module/Kbuild" "$b/"
	local in_root=()
	read -ra in_root <<< "$(kbuild_runner "$rel")"
	# run from `make O=DIR samples`, the caller's O= (in MAKEFLAGS) would
	# become kbuild's output directory: the kbuild make gets none of it
	# bullseye's 5.10 headers name gcc-10 (.kernelvariables), which the
	# host may lack: its gcc-12 then builds a module 5.10 loads (7.x's
	# gcc-16 kbuild runs in sid's chroot: kbuild_runner)
	local cc=() want
	want=$(sed -n 's/^CC = .*\(gcc-[0-9]*\)$/\1/p' \
		"$kdir/headers/usr/src/linux-headers-$rel/.kernelvariables" 2>/dev/null) || true
	[ ${#in_root[@]} -eq 0 ] && [ -n "$want" ] && ! command -v "$want" >/dev/null && cc=(CC=gcc-12)
	"${in_root[@]}" env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u O \
		make -s -C "$kdir/headers/usr/src/linux-headers-$rel" M="$b" "${cc[@]}" modules >&2 ||
		die "$rel: module build failed"
	modinfo -F vermagic "$b/orccrash_test.ko" | grep -q "^$rel " ||
		die "$rel: orccrash_test.ko vermagic mismatch"
	cp "$b/orccrash_test.ko" "$kdir/modules/"
	echo "$sum" > "$kdir/modules/.orccrash_test.sum"
	rm -f "$kdir/initramfs.cpio"	# holds the old module
}

# Copy an executable and the shared libraries ldd lists into a root.
copy_exe() {
	local root=$1 exe=$2 lib
	install -D -m 755 "$exe" "$root$exe"
	for lib in $(ldd "$exe" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$root$lib"
	done
}

# initramfs.cpio: busybox, /init, modules, kexec, makedumpfile, and (for
# kdump) the kernel plus capture.cpio, the same minus those two. Left
# uncompressed: the guest kernel unpacks it faster under TCG.
make_initramfs() {
	local rel=$1 kdir=$CACHE/kernels/$1 root m
	local want=$kdir/initramfs.cpio
	if [ -f "$want" ] && [ "$want" -nt "$SAMPLES/guest-init.sh" ] &&
		[ "$want" -nt "$kdir/modules/orccrash_test.ko" ]; then
		return 0
	fi
	log "$rel: building initramfs"
	root=$(mktemp -d "$CACHE/tmp.initramfs.XXXXXX")
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,boot,lib/modules}
	cp /bin/busybox "$root/bin/busybox"
	install -m 755 "$SAMPLES/guest-init.sh" "$root/init"
	cp "$kdir"/modules/*.ko "$root/lib/modules/"
	module_order "$kdir/modules" qemu_fw_cfg virtio_pci virtio_blk orccrash_test > "$root/lib/modules/order"
	copy_exe "$root" "$(command -v makedumpfile)"
	copy_exe "$root" "$(command -v kexec)"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$kdir/capture.cpio"
	cp "$kdir/capture.cpio" "$root/boot/capture.cpio"
	cp "$kdir/vmlinuz" "$root/boot/vmlinuz"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$want.tmp"
	mv "$want.tmp" "$want"
	rm -rf "$root"
}

# --- one dump ----------------------------------------------------------------

scenario_kaslr() {
	case $1 in
	hardirq | kdump | mod-timer | mod-blocked | mod-deadlock) echo on ;;
	*) echo off ;;
	esac
}

# What an older kernel adds to `make samples` (CI time): 5.10 (bullseye,
# docs/kernels.md) gets the scenarios that test something of its own, and of
# QEMU's formats only the kdump-compressed one (the ELF and flattened
# readers are the same code on every kernel).
# A real kdump (kexec into a capture kernel, makedumpfile there) rather than
# QEMU's dump-guest-memory.
scenario_is_kdump() {
	case $1 in
	kdump | kdump-timer) return 0 ;;
	*) return 1 ;;
	esac
}

# The PREEMPT_RT (-rt-amd64) and generic (-amd64) flavours: only the
# scenarios that hold what differs there (sysrq-t of threaded IRQs, the
# keyboard interrupt, which rt runs in its irq/1-i8042 thread, the timer
# callback's panic, which rt runs in the ktimers thread, and the real kdump),
# plus on rt the module's blocked tasks, deadlock and locks (a mutex, an
# rwsem and a spinlock_t are rt_mutexes there) and
# its hard hrtimer (rt's only hard-IRQ panic: hardirq is threaded there),
# and of QEMU's formats only the ELF: the others read the same memory
# through code the cloud samples test already. The cloud kernels make every
# scenario but mod-hrtimer (their hardirq is on the IRQ stack already).
flavour_scenarios="process hardirq mod-timer kdump"
qemu_elf_only() {
	case $1 in
	*-cloud-amd64) return 1 ;;
	*) return 0 ;;
	esac
}

# How often a scenario is tried: a crash that depends on timing (where an
# interrupt lands) may miss what check-ref.sh requires. kdump-timer exists
# for one case only (the timer's softirq on the IRQ stack, from kernel
# mode), so it is tried until its serial log shows it, at most 5 times.
scenario_attempts() {
	case $1 in
	kdump-timer) echo 5 ;;
	*) echo 2 ;;
	esac
}

# The scenarios a release makes (CI time), unless ORCCRASH_SCENARIOS names
# them: another generation (7.x, 5.10) a few, process (sysrq-t), hardirq,
# kdump (the real capture) and mod-oops; the flavours flavour_scenarios
# (above); the Debian 12 cloud kernels every one but mod-hrtimer.
REDUCED_SCENARIOS="process hardirq kdump mod-oops"
release_has_scenario() {
	local want
	[ -n "${ORCCRASH_SCENARIOS:-}" ] && return 0
	case $1 in
	7.* | 5.10.*) want=$REDUCED_SCENARIOS ;;
	*-cloud-amd64) [ "$2" != mod-hrtimer ]; return ;;
	*-rt-amd64) want="$flavour_scenarios mod-blocked mod-hrtimer mod-deadlock mod-locks" ;;
	*) want=$flavour_scenarios ;;
	esac
	case " $want " in
	*" $2 "*) return 0 ;;
	*) return 1 ;;
	esac
}

# The dump formats a release keeps: every one for 6.1 and 6.12; for a
# reduced release (7.x) the QEMU dumps keep only vmcore.kdump (the flat
# file's reassembly: kdump-compressed, the format of a real capture too)
# beside the real kdump; the ELF and flat files test nothing new there.
release_drops_formats() {
	case $1 in
	7.* | 5.10.*) echo "vmcore.elf vmcore.flat" ;;
	esac
}

make_dump() {
	local final=$CACHE/dumps/$1/$2
	if [ -f "$final/info" ]; then
		# Keep ref/kernel.txt in step with the parser.
		if [ "$SAMPLES/parse-serial.py" -nt "$final/ref/kernel.txt" ]; then
			"$PY" "$SAMPLES/parse-serial.py" "$final/serial.log" > "$final/ref/kernel.txt.tmp"
			mv "$final/ref/kernel.txt.tmp" "$final/ref/kernel.txt"
		fi
		# Dumps made before the module's source was kept beside its
		# .ko: the current source when the .ko is the current build.
		local kb=$CACHE/kernels/$1/module-build
		if [ -f "$final/orccrash_test.ko" ] && [ ! -f "$final/orccrash_test.c" ] &&
		   [ -f "$kb/orccrash_test.c" ] && cmp -s "$final/orccrash_test.ko" "$kb/orccrash_test.ko"; then
			cp "$kb/orccrash_test.c" "$final/orccrash_test.c"
		fi
		return 0
	fi
	local i n
	n=$(scenario_attempts "$2")
	for ((i = 1; i <= n; i++)); do
		[ $i -gt 1 ] && log "$1: scenario $2: attempt $i of $n"
		make_dump_once "$1" "$2" && return 0
	done
	return 1
}

make_dump_once() {
	local rel=$1 sc=$2 kdir=$CACHE/kernels/$1
	local final=$CACHE/dumps/$rel/$sc d
	log "$rel: scenario $sc"
	d=$CACHE/dumps/$rel/.$sc.tmp
	rm -rf "$d"
	mkdir -p "$d/ref"
	local kaslr mem append capture
	kaslr=$(scenario_kaslr "$sc")
	mem=256M
	append="console=ttyS0,115200 orccrash=$sc panic=0 sysrq_always_enabled no_timer_check"
	capture=qemu
	[ "$kaslr" = off ] && append+=" nokaslr"
	local qemu=(qemu-system-x86_64 -accel tcg -smp 2 -nographic -no-reboot
		-kernel "$kdir/vmlinuz" -initrd "$kdir/initramfs.cpio"
		-device vmcoreinfo -serial "file:$d/serial.log"
		-monitor none -qmp "unix:$d/qmp.sock,server=on,wait=off")
	if scenario_is_kdump "$sc"; then
		mem=512M
		capture=kdump
		append+=" crashkernel=192M"
		truncate -s 256M "$d/disk.raw"
		qemu+=(-drive "file=$d/disk.raw,format=raw,if=virtio")
	fi
	qemu+=(-m "$mem" -append "$append")
	# The exact test module this guest loads (with its debug info): a
	# later rebuild of the module must not change what the dump matches.
	cp "$kdir/modules/orccrash_test.ko" "$d/orccrash_test.ko"
	# and its source, for the browser's source view (--source)
	cp "$kdir/module-build/orccrash_test.c" "$d/orccrash_test.c"

	timeout 600 "${qemu[@]}" < /dev/null > "$d/qemu.out" 2>&1 &
	local qpid=$!
	local ok=1
	if [ "$sc" = hardirq ]; then
		if wait_serial "$d/serial.log" 'ORCCRASH-READY-SENDKEY' 240 $qpid; then
			sleep 1
			"$PY" "$SAMPLES/qmp.py" "$d/qmp.sock" \
				'human-monitor-command {"command-line": "sendkey alt-sysrq-c"}' >&2 || ok=0
		else
			ok=0
		fi
	fi
	if scenario_is_kdump "$sc"; then
		# The capture kernel powers the VM off when done. "end Kernel
		# panic" means the panic did not reach kexec: no capture.
		wait_serial "$d/serial.log" 'ORCCRASH-CAPTURE-(DONE|FAILED|NO-VMCORE)|end Kernel panic' \
			480 $qpid || ok=0
		grep -q 'ORCCRASH-CAPTURE-DONE' "$d/serial.log" || ok=0
		# The disk image is complete only once QEMU has exited.
		wait_exit $qpid 60 || ok=0
		if [ $ok = 1 ]; then
			makedumpfile -R "$d/vmcore.kdump-real" < "$d/disk.raw" > "$d/makedumpfile-R.log" 2>&1 || ok=0
		fi
		rm -f "$d/disk.raw"
	else
		local cmds=('stop' "dump-guest-memory {\"paging\": false, \"protocol\": \"file:$d/vmcore.elf\"}")
		qemu_elf_only "$rel" ||
			cmds+=("dump-guest-memory {\"paging\": false, \"protocol\": \"file:$d/vmcore.flat\", \"format\": \"kdump-zlib\"}")
		if [ $ok = 1 ] && wait_serial "$d/serial.log" 'end Kernel panic' 300 $qpid; then
			sleep 1
			"$PY" "$SAMPLES/qmp.py" "$d/qmp.sock" "${cmds[@]}" 'quit' >&2 || ok=0
		else
			ok=0
		fi
		wait_exit $qpid 30 || true
		if [ $ok = 1 ] && [ -f "$d/vmcore.flat" ]; then
			makedumpfile -R "$d/vmcore.kdump" < "$d/vmcore.flat" > "$d/makedumpfile-R.log" 2>&1 || ok=0
		fi
	fi
	kill $qpid 2>/dev/null || true
	wait $qpid 2>/dev/null || true
	rm -f "$d/qmp.sock"
	if [ $ok != 1 ]; then
		log "$rel: scenario $sc FAILED; serial log tail:"
		tail -n 15 "$d/serial.log" >&2 || true
		rm -rf "$CACHE/dumps/$rel/.$sc.failed"
		mv "$d" "$CACHE/dumps/$rel/.$sc.failed"
		return 1
	fi

	local f main
	for f in vmcore.elf vmcore.kdump vmcore.kdump-real; do
		[ -f "$d/$f" ] && { main=$f; break; }
	done
	"$PY" "$SAMPLES/parse-serial.py" "$d/serial.log" > "$d/ref/kernel.txt"
	if ! "$SAMPLES/check-ref.sh" "$d" "$sc" "$rel" > "$d/check-ref.log" 2>&1; then
		log "$rel: scenario $sc did not crash as intended:"
		cat "$d/check-ref.log" >&2
		rm -rf "$CACHE/dumps/$rel/.$sc.failed"
		mv "$d" "$CACHE/dumps/$rel/.$sc.failed"
		return 1
	fi
	rm -f "$d/check-ref.log"
	for f in vmcore.elf vmcore.kdump vmcore.kdump-real; do
		[ -f "$d/$f" ] && { main=$f; break; }
	done
	reference_tools "$d" "$kdir/vmlinux" "$main"
	{
		echo "release=$rel"
		echo "scenario=$sc"
		echo "kaslr=$kaslr"
		echo "capture=$capture"
		echo "vmlinux=$kdir/vmlinux"
		echo "module=$final/orccrash_test.ko"
		echo "memory=$mem"
		echo "vmcoreinfo=$(grep -a -c -m1 'OSRELEASE=' "$d/$main" >/dev/null && echo yes || echo no)"
		for f in vmcore.elf vmcore.flat vmcore.kdump vmcore.kdump-real; do
			[ -f "$d/$f" ] && echo "file.$f=$(file -b "$d/$f" | cut -c1-100)"
		done
		local q=() a
		for a in "${qemu[@]}"; do q+=("${a//"$d"/"$final"}"); done
		echo "qemu=$(printf '%q ' "${q[@]}")"
	} > "$d/info.tmp"
	mv "$d/info.tmp" "$d/info"
	for f in $(release_drops_formats "$rel"); do
		[ "$f" = "$main" ] && [ ! -f "$d/vmcore.kdump" ] && continue
		[ -f "$d/$f" ] && { rm -f "$d/$f"; echo "dropped.$f=yes" >> "$d/info"; }
	done
	rm -rf "$final"
	mv "$d" "$final"
}

# crash and drgn output for the ref/ directory. Failures are recorded in the
# file: they are facts about those tools, not errors of this script.
reference_tools() {
	local d=$1 vmlinux=$2
	local core=$d/$3
	if [ "${ORCCRASH_NO_TOOLS:-}" = 1 ]; then
		return 0
	fi
	# One crash session runs the three commands (loading the vmlinux takes
	# most of its time); "!echo" markers split the output per command.
	# (crash 8.0.2 stops at 6.12's module list; --no_modules gets no
	# further with bt, see README.md, so there is no second session.)
	crash_session "$d" "$vmlinux" "$core"
	# drgn 0.0.22 may fail on one format and not another: try each file,
	# most compressed first, and keep every attempt's output.
	local f rc
	{
		echo "# drgn $("$PY" -c 'import drgn; print(drgn.__version__)' 2>&1 | tail -n1)"
		for f in vmcore.kdump-real vmcore.kdump vmcore.elf; do
			[ -f "$d/$f" ] || continue
			echo "# python3 samples/drgn-ref.py $vmlinux $f"
			rc=0
			timeout 180 "$PY" "$SAMPLES/drgn-ref.py" "$vmlinux" "$d/$f" 2>&1 || rc=$?
			echo "# exit status $rc"
			[ $rc = 0 ] && break
		done
	} > "$d/ref/drgn.txt"
	drgn_usable "$d/ref/drgn.txt" && return 0
	# Debian 12's drgn cannot read it (6.4+ ORC on 6.12 and 7.x):
	# sid's drgn (0.3.0) in tests/bench/sid-chroot.sh's root, when that
	# root is made, each attempt appended to the same file.
	local sid=$SAMPLES/../tests/bench/sid-chroot.sh
	"$sid" root > /dev/null 2>&1 || return 0
	{
		echo "# drgn $("$sid" run python3 -c 'import drgn; print(drgn.__version__)' 2>&1 | tail -n1) (sid chroot)"
		for f in vmcore.kdump-real vmcore.kdump vmcore.elf; do
			[ -f "$d/$f" ] || continue
			echo "# sid-chroot.sh run python3 samples/drgn-ref.py $vmlinux $f"
			rc=0
			timeout 180 "$sid" run python3 "$SAMPLES/drgn-ref.py" "$vmlinux" "$d/$f" 2>&1 || rc=$?
			echo "# exit status $rc"
			[ $rc = 0 ] && break
		done
	} >> "$d/ref/drgn.txt"
}

# ref/drgn.txt has an attempt that exited 0 with every trace read.
drgn_usable() {
	awk '/^# (sid-chroot.sh run )?python3 samples\/drgn-ref.py / { err = 0; task = 0; next }
		/^@task / { task = 1 }
		/^error: / { err = 1 }
		/^# exit status 0$/ && task && !err { ok = 1 }
		END { exit !ok }' "$1"
}

# Append one crash session's output to ref/crash-{ps,bt-a,foreach-bt}.txt.
crash_session() {
	local d=$1 vmlinux=$2 core=$3 what rc=0 ver stop
	shift 3
	# crash stops at start on a vmlinux whose structures it does not know
	# ("invalid structure member offset": 8.0.2 on 6.4+ kernels), a fact of
	# the vmlinux and crash's version alone: the first scenario's failure
	# is recorded beside the vmlinux and the others are not run again
	# (~10 s of CPU each).
	ver=$(crash --version 2>/dev/null | grep -m1 '^crash ' || true)
	stop=$(dirname "$vmlinux")/crash-stopped.txt
	if [ -n "$ver" ] && [ -s "$stop" ] && [ "$(head -n1 "$stop")" = "$ver" ]; then
		for what in ps bt-a foreach-bt; do
			{
				echo "# crash command: $(case $what in bt-a) echo "bt -a" ;; foreach-bt) echo "foreach bt" ;; *) echo ps ;; esac)"
				echo "# $ver"
				echo "# not run: $(sed -n 2p "$stop")"
			} >> "$d/ref/crash-$what.txt"
		done
		return 0
	fi
	printf '%s\n' 'ps' '!echo "@@ORCCRASH-SPLIT bt-a"' 'bt -a' \
		'!echo "@@ORCCRASH-SPLIT foreach-bt"' 'foreach bt' 'quit' > "$d/ref/crash.cmd"
	timeout 300 crash -s "$@" -i "$d/ref/crash.cmd" "$vmlinux" "$core" \
		< /dev/null > "$d/ref/crash.out" 2>&1 || rc=$?
	if [ -n "$ver" ] && ! grep -q '^@@ORCCRASH-SPLIT ' "$d/ref/crash.out" &&
		grep -qE '^crash: invalid structure (member offset|size)' "$d/ref/crash.out"; then
		printf '%s\n%s stopped at start on this vmlinux (scenario %s): %s\n' "$ver" "$ver" \
			"$(basename "$d")" "$(grep -m1 -E '^crash: invalid structure' "$d/ref/crash.out")" > "$stop"
	fi
	rm -f "$d"/ref/crash-*.part
	awk -v dir="$d/ref" 'BEGIN { f = "ps" }
		/^@@ORCCRASH-SPLIT / { f = $2; next }
		{ print > (dir "/crash-" f ".part") }' "$d/ref/crash.out"
	for what in ps bt-a foreach-bt; do
		# No marker: crash stopped before the commands; its output
		# is the answer for each of them.
		[ -f "$d/ref/crash-$what.part" ] || cp "$d/ref/crash.out" "$d/ref/crash-$what.part"
		{
			case $what in
			ps) echo "# crash command: ps" ;;
			bt-a) echo "# crash command: bt -a" ;;
			foreach-bt) echo "# crash command: foreach bt" ;;
			esac
			echo "# crash -s $* -i <commands> $vmlinux $(basename "$core")"
			echo "# $(crash --version 2>/dev/null | grep -m1 crash)"
			cat "$d/ref/crash-$what.part"
			echo "# exit status $rc"
		} >> "$d/ref/crash-$what.txt"
	done
	rm -f "$d"/ref/crash-*.part "$d/ref/crash.out" "$d/ref/crash.cmd"
}

# --- default committed sample ------------------------------------------------

# samples/default/vmcore: the 6.1 real kdump (makedumpfile -c -d 31), only if
# it is at most 25 MB. Refreshed only when absent.
default_sample() {
	local rel=$1 src=$CACHE/dumps/$1/kdump/vmcore.kdump-real
	local dst=$SAMPLES/default
	[ -f "$src" ] || return 0
	# The committed sample is never replaced (the golden tests pin it),
	# even when Debian moves on to a newer kernel: only made when missing.
	if [ -f "$dst/vmcore" ]; then
		return 0
	fi
	local size
	size=$(stat -c %s "$src")
	if [ "$size" -gt $((25 * 1024 * 1024)) ]; then
		log "default sample: $src is $size bytes (> 25 MB), not copied"
		return 0
	fi
	mkdir -p "$dst"
	cp "$src" "$dst/vmcore"
	{
		echo "orccrash default sample: a real kdump (makedumpfile -c -d 31 in the"
		echo "capture kernel after kexec -p; other CPUs stopped by the crash NMI)"
		echo "of Debian's cloud kernel, scenario 'kdump' of samples/make-samples.sh:"
		echo "user tasks blocked in syscalls, dd busy on a CPU, then echo c >"
		echo "/proc/sysrq-trigger. KASLR on."
		echo
		echo "release=$rel"
		sed 's/^/package=/' "$CACHE/kernels/$rel/package.txt"
		echo "sha256=$(sha256sum "$dst/vmcore" | cut -d' ' -f1)"
		echo
		echo "The vmlinux is not committed: it is in the -dbg package above, at"
		echo "usr/lib/debug/boot/vmlinux-$rel (make samples extracts it to"
		echo "\$ORCCRASH_CACHE/kernels/$rel/vmlinux). The kernel's own traces of"
		echo "this crash (parsed from the serial console, format in samples/README.md)"
		echo "are in kernel.txt; Debian's crash 8.0.2 'bt -a' in crash-bt-a.txt and"
		echo "drgn 0.0.22's traces of every task in drgn.txt (vmlinux paths in them"
		echo "are those of the machine that made the sample). orccrash_test.ko is"
		echo "the test module (samples/module) loaded in the guest, with debug info."
	} > "$dst/README"
	cp "$CACHE/dumps/$rel/kdump/ref/kernel.txt" "$dst/kernel.txt"
	cp "$CACHE/dumps/$rel/kdump/ref/crash-bt-a.txt" "$dst/crash-bt-a.txt"
	cp "$CACHE/dumps/$rel/kdump/ref/drgn.txt" "$dst/drgn.txt"
	cp "$CACHE/dumps/$rel/kdump/orccrash_test.ko" "$dst/orccrash_test.ko"
	sed -i "s|$CACHE|\$ORCCRASH_CACHE|g" "$dst/crash-bt-a.txt" "$dst/drgn.txt"
	chmod 644 "$dst"/*
	log "default sample: $dst/vmcore ($size bytes) from $rel"
}

write_index() {
	local idx=$CACHE/dumps/index.tsv rel sc d f fmt
	: > "$idx.tmp"
	for d in "$CACHE"/dumps/*/*/; do
		d=${d%/}
		[ -f "$d/info" ] || continue
		rel=$(sed -n 's/^release=//p' "$d/info")
		sc=$(sed -n 's/^scenario=//p' "$d/info")
		local vmlinux kaslr
		vmlinux=$(sed -n 's/^vmlinux=//p' "$d/info")
		kaslr=$(sed -n 's/^kaslr=//p' "$d/info")
		for f in vmcore.elf vmcore.flat vmcore.kdump vmcore.kdump-real; do
			[ -f "$d/$f" ] || continue
			fmt=${f#vmcore.}
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rel" "$sc" "$fmt" "$d/$f" "$vmlinux" "$kaslr" >> "$idx.tmp"
		done
	done
	mv "$idx.tmp" "$idx"
}

main() {
	mkdir -p "$CACHE" "$DEBS" "$CACHE/kernels" "$CACHE/dumps"
	ensure_host_packages
	local releases=${ORCCRASH_RELEASES:-}
	if [ -z "$releases" ]; then
		# sid's 7.x through the private apt state (made here, in this
		# shell, so that deb_of has it too)
		papt_init sid || true
		releases="$(newest_release '6\.1\.0-[0-9]+') $(newest_release '6\.12\.[0-9]+[^-]*')"
		releases+=" $(newest_release '7\.[0-9]+\.[0-9]+\+deb[0-9]+')"
		releases+=" $(newest_release '5\.10\.0-[0-9]+')"
		# 6.1's PREEMPT_RT and generic flavours (flavour_scenarios only)
		releases+=" $(newest_release '6\.1\.0-[0-9]+' rt-amd64)"
		releases+=" $(newest_release '6\.1\.0-[0-9]+' amd64)"
	fi
	log "kernels: $releases"
	local rel sc failed=0 suites
	for rel in $releases; do
		suites=$(papt_suites_of "$rel")
		# shellcheck disable=SC2086 # one word a suite
		[ -z "$suites" ] || papt_init $suites || true
	done
	for rel in $releases; do
		prepare_kernel "$rel"
		make_initramfs "$rel"
	done
	for sc in $SCENARIOS; do
		for rel in $releases; do
			release_has_scenario "$rel" "$sc" || continue
			make_dump "$rel" "$sc" || failed=$((failed + 1))
		done
	done
	write_index
	for rel in $releases; do
		case $rel in 6.1.*-cloud-amd64) default_sample "$rel" ;; esac
	done
	log "done: $(wc -l < "$CACHE/dumps/index.tsv") vmcore files in $CACHE/dumps/index.tsv, $failed failed scenario(s)"
	[ $failed = 0 ]
}

# On one line: bash has read it whole before main runs, so editing this file
# during a run cannot make bash execute stray bytes afterwards.
main "$@"; exit $?
