#!/bin/bash
# Install the Debian 12 packages orccrash needs, only those missing.
#   tests/install-deps.sh build   building and running orccrash
#   tests/install-deps.sh test    + what the tests and `make samples` use
#   tests/install-deps.sh bench   + libdw-dev (make bench's DWARF table),
#                                 debootstrap (the sid chroot of the newest
#                                 peers), linux-perf (tests/bench/profile.py)
set -euo pipefail
what=${1:-build}
build_pkgs="make gcc pkg-config libkdumpfile-dev libelf-dev libbpf-dev libdwarf-dev
	libncurses-dev libjson-c-dev zlib1g-dev libdeflate-dev liblzo2-dev libsnappy-dev
	libzstd-dev libedit-dev binutils-dev"
test_pkgs="python3 tmux clang crash python3-drgn graphviz binutils qemu-system-x86 busybox-static
	cpio kexec-tools libxenmisc4.17 makedumpfile socat valgrind libclang-rt-14-dev
	python3-lzo python3-snappy python3-zstandard time pahole elfutils
	python3-jsonschema bash-completion jq git dpkg-dev debhelper lintian man-db
	chromium python3-pil"
pkgs=$build_pkgs
[ "$what" = test ] && pkgs="$pkgs $test_pkgs"
[ "$what" = bench ] && pkgs="$pkgs $test_pkgs libdw-dev debootstrap linux-perf"
missing=()
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "orccrash: missing packages: ${missing[*]}" >&2
	echo "orccrash: run as root (sudo make deps) or: sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "orccrash: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
