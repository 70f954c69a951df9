#!/bin/bash
# sid-chroot.sh: Debian sid's crash, drgn and makedumpfile in a chroot, for
# `make bench` (the newest peer generation beside Debian 12's) and as an
# oracle for tests on dumps that Debian 12's tools cannot open (6.12, 7.x).
#
# sid's tools need sid's libraries (glibc, libkdumpfile, elfutils), so they
# live in a debootstrap root of their own: $ORCCRASH_CACHE/sid-root, made
# once from the machine's mirror and kept like the sample dumps.
#
#   tests/bench/sid-chroot.sh ensure          make the root if it is missing
#   tests/bench/sid-chroot.sh run CMD [ARG]   run CMD inside it (see below)
#   tests/bench/sid-chroot.sh versions        print the tools' versions
#   tests/bench/sid-chroot.sh root            print the root's path, exit 1
#                                             if it is not made (no apt)
#
# `run` needs the root made (it never runs debootstrap itself: a test that
# finds no root says SKIP), mounts a fresh /proc, /dev, /tmp, the sample
# cache and this repository at their own paths, and runs CMD as root in the
# chroot, in the same directory when that is one of the bound paths.  The
# mounts live in a private mount namespace (unshare -m): they vanish when
# CMD exits, and concurrent runs never see or unmount each other's.  Exit
# status: CMD's; 125 when the root is missing or the mounts fail.
# Examples (from a test script):
#   sid=tests/bench/sid-chroot.sh
#   $sid root > /dev/null || { echo "SKIP: no sid root"; exit 77; }
#   $sid run crash -s -i cmds "$vmlinux" "$vmcore"
#   $sid run drgn -q -c "$vmcore" -s "$vmlinux" script.py
#   $sid run makedumpfile -v
#
# Environment: ORCCRASH_CACHE (cache root, default ~/.cache/orccrash),
# SID_MIRROR (http://deb.debian.org/debian), SID_BIND (more host paths to
# bind, space-separated), SID_PACKAGES (more packages to install).
# Idempotent: the root is made under sid-root.tmp and renamed when complete;
# `ensure` on a complete root does nothing (delete the directory, or run
# `ensure --refresh`, to make it again from today's sid).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
CACHE=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
export ORCCRASH_CACHE=$CACHE
ROOT=$CACHE/sid-root
MIRROR=${SID_MIRROR:-http://deb.debian.org/debian}
# libkdumpfile comes with python3-drgn (its Depends); file for the checks.
PACKAGES="crash python3-drgn makedumpfile ${SID_PACKAGES:-}"
VERSIONS=$ROOT/.orccrash-versions

log() { printf '[sid-chroot %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "error: $*"; exit 125; }

complete() { [ -f "$VERSIONS" ]; }

# The paths bound into the root, each at its own path, existing ones only
# (no forks here: `run` is timed by make bench).
bind_paths() {
	local p q seen=" "
	for p in "$CACHE" "$TOP" /tmp ${SID_BIND:-}; do
		[ -d "$p" ] || continue
		[ -L "$p" ] && p=$(readlink -f "$p")
		for q in $seen; do
			case $p/ in "$q"/*) continue 2 ;; esac
		done
		seen+="$p "
	done
	echo $seen
}

# Run "$@" inside root $1 (made or being made) in a private mount namespace.
in_root() {
	local root=$1; shift
	[ "$EUID" = 0 ] || die "needs root (chroot, mount)"
	local binds cwd=/ p
	binds=$(bind_paths)
	for p in $binds; do
		case $PWD/ in "$p"/*) cwd=$PWD ;; esac
	done
	# The mount script gets its arguments positionally: no quoting of
	# paths into shell text.  CMD is exec'd by the chroot's sh; a caller's
	# /usr/bin/time sees its CPU time and peak RSS (waited-for children).
	exec_in_root "$root" "$cwd" "$binds" "$@"
}

exec_in_root() {
	unshare --mount --propagation private -- /bin/bash -c '
		set -e
		root=$1 cwd=$2 binds=$3; shift 3
		mount -t proc proc "$root/proc"
		mount --bind /dev "$root/dev"
		for p in $binds; do
			[ -d "$root$p" ] || mkdir -p "$root$p"
			mount --bind "$p" "$root$p"
		done
		exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" ORCCRASH_CACHE="$ORCCRASH_CACHE" \
			DEBIAN_FRONTEND=noninteractive \
			/bin/sh -c "cd \"\$1\" 2>/dev/null || cd /; shift; exec \"\$@\"" sh "$cwd" "$@"
	' sid-chroot "$@"
}

write_versions() {
	local root=$1
	{
		echo "# made $(date -u '+%Y-%m-%d %H:%M UTC') by tests/bench/sid-chroot.sh from $MIRROR sid"
		echo "crash=$(in_root "$root" crash --version 2>/dev/null | sed -n 's/^crash \([^ ]*\).*/\1/p' | head -n1)"
		echo "drgn=$(in_root "$root" python3 -c 'import drgn; print(drgn.__version__)' 2>/dev/null | tail -n1)"
		echo "makedumpfile=$(in_root "$root" makedumpfile -v 2>&1 | sed -n 's/.*version \([^ ]*\).*/\1/p' | head -n1)"
		echo "libkdumpfile=$(in_root "$root" dpkg-query -W -f='${db:Status-Abbrev} ${Version}\n' 'libkdumpfile[0-9]*' 2>/dev/null |
			sed -n 's/^ii *//p' | head -n1)"
		echo "glibc=$(in_root "$root" dpkg-query -W -f='${Version}' libc6 2>/dev/null)"
		echo "python3=$(in_root "$root" python3 -c 'import platform; print(platform.python_version())' 2>/dev/null)"
		in_root "$root" dpkg-query -W -f='${db:Status-Abbrev} package=${Package} ${Version}\n' crash \
			python3-drgn makedumpfile 'libkdumpfile[0-9]*' 'libaddrxlat[0-9]*' libelf1t64 \
			libdw1t64 2>/dev/null | sed -n 's/^ii *//p' || true
	} > "$root/.orccrash-versions.tmp"
	grep -q '^crash=[0-9]' "$root/.orccrash-versions.tmp" || die "crash --version gave no version in $root"
	grep -q '^drgn=[0-9]' "$root/.orccrash-versions.tmp" || die "import drgn failed in $root"
	mv "$root/.orccrash-versions.tmp" "$root/.orccrash-versions"
}

make_root() {
	local tmp=$CACHE/sid-root.tmp
	command -v debootstrap > /dev/null || {
		log "installing debootstrap"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2 ||
			{ apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2; } ||
			die "cannot install debootstrap"
	}
	rm -rf "$tmp"
	mkdir -p "$tmp"
	log "debootstrap sid into $tmp (a few minutes)"
	debootstrap --variant=minbase --merged-usr sid "$tmp" "$MIRROR" > "$CACHE/sid-root.debootstrap.log" 2>&1 ||
		{ tail -n 20 "$CACHE/sid-root.debootstrap.log" >&2; die "debootstrap failed (log: $CACHE/sid-root.debootstrap.log)"; }
	# The mirror may serve a sid whose Release file is past its Valid-Until
	# (a frozen copy): take it as it is, inside the chroot only.
	echo 'Acquire::Check-Valid-Until "false";' > "$tmp/etc/apt/apt.conf.d/99orccrash"
	# No daemons started by package scripts inside the chroot.
	printf '#!/bin/sh\nexit 101\n' > "$tmp/usr/sbin/policy-rc.d"
	chmod 755 "$tmp/usr/sbin/policy-rc.d"
	log "apt-get install $PACKAGES"
	in_root "$tmp" apt-get update -qq >&2
	# shellcheck disable=SC2086
	in_root "$tmp" apt-get install -y -qq --no-install-recommends $PACKAGES \
		> "$CACHE/sid-root.apt.log" 2>&1 ||
		{ tail -n 20 "$CACHE/sid-root.apt.log" >&2; die "apt-get install in $tmp failed (log: $CACHE/sid-root.apt.log)"; }
	in_root "$tmp" apt-get clean
	write_versions "$tmp"
	rm -rf "$ROOT"
	mv "$tmp" "$ROOT"
	# The versions file was written with the tmp root's paths nowhere in it.
	log "$ROOT: $(grep -E '^(crash|drgn|makedumpfile)=' "$VERSIONS" | tr '\n' ' ')"
}

cmd_ensure() {
	local refresh=
	[ "${1:-}" = --refresh ] && refresh=1
	mkdir -p "$CACHE"
	# One builder at a time; another caller waits for it.
	exec 9> "$CACHE/.sid-root.lock"
	flock 9
	if complete && [ -z "$refresh" ]; then
		return 0
	fi
	make_root
}

main() {
	local cmd=${1:-}
	[ $# -gt 0 ] && shift
	case $cmd in
	ensure) cmd_ensure "$@" ;;
	run)
		[ $# -gt 0 ] || die "usage: $0 run CMD [ARG...]"
		complete || die "no sid root at $ROOT (make it with: $0 ensure)"
		in_root "$ROOT" "$@"
		;;
	versions)
		complete || die "no sid root at $ROOT (make it with: $0 ensure)"
		grep -v '^#' "$VERSIONS"
		;;
	root)
		complete || exit 1
		echo "$ROOT"
		;;
	write-versions)	# after changing the root by hand
		complete || die "no sid root at $ROOT"
		write_versions "$ROOT"
		;;
	*)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
		exit 2
		;;
	esac
}

main "$@"; exit $?
