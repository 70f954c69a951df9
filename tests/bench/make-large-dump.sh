#!/bin/bash
# make-large-dump.sh: a crash dump with ~10,000 sleeping tasks, for
# `make bench` (all-tasks cost and memory against the task count).
#
# Reuses the kernel files samples/make-samples.sh extracted into
# $CACHE/kernels/<release>/ (vmlinuz, vmlinux, modules/qemu_fw_cfg.ko) and
# builds its own initramfs: busybox, tests/bench/large-init.sh as /init and
# tests/bench/spawn.c (static) which forks NPROC processes of NTHREADS
# threads, each blocked in a different syscall.  The guest then panics
# (sysrq c); QEMU's dump-guest-memory kdump-zlib (-z) is taken through the
# QMP socket, as the samples script does, and reassembled by makedumpfile -R.
#
# Output: $CACHE/bench/<release>/large/{vmcore.kdump,serial.log,info}.
# Idempotent: a complete directory (with info) is kept.
#
# Environment: ORCCRASH_CACHE, ORCCRASH_RELEASES (default: every release in
# $CACHE/kernels with .complete), LARGE_PROCS (500), LARGE_THREADS (20),
# LARGE_MEM (1536M).
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SAMPLES=$BENCH/../../samples
CACHE=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
NPROC=${LARGE_PROCS:-500}
NTHREADS=${LARGE_THREADS:-20}
MEM=${LARGE_MEM:-1536M}
PY=/usr/bin/python3

log() { printf '[make-large-dump %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "error: $*"; exit 1; }

wait_serial() {
	local file=$1 re=$2 secs=$3 pid=$4 i
	for ((i = 0; i < secs * 2; i++)); do
		grep -qE "$re" "$file" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || { grep -qE "$re" "$file" 2>/dev/null; return; }
		sleep 0.5
	done
	return 1
}

make_initramfs() {
	local kdir=$1 out=$2 root
	root=$(mktemp -d "$CACHE/tmp.large.XXXXXX")
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,lib/modules}
	cp /bin/busybox "$root/bin/busybox"
	install -m 755 "$BENCH/large-init.sh" "$root/init"
	gcc -static -O2 -pthread -o "$root/bin/spawn" "$BENCH/spawn.c"
	cp "$kdir/modules/qemu_fw_cfg.ko" "$root/lib/modules/"
	echo qemu_fw_cfg.ko > "$root/lib/modules/order"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
	rm -rf "$root"
}

one() {
	local rel=$1 kdir=$CACHE/kernels/$1
	local final=$CACHE/bench/$rel/large d
	[ -f "$final/info" ] && { log "$rel: $final exists"; return 0; }
	[ -f "$kdir/.complete" ] || die "$rel: $kdir incomplete: run make samples first"
	command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 missing"
	d=$CACHE/bench/$rel/.large.tmp
	rm -rf "$d"
	mkdir -p "$d"
	log "$rel: building initramfs ($NPROC processes x $NTHREADS threads)"
	make_initramfs "$kdir" "$d/initramfs.cpio"
	local append="console=ttyS0,115200 panic=0 no_timer_check large_procs=$NPROC large_threads=$NTHREADS"
	local qemu=(qemu-system-x86_64 -accel tcg -smp 2 -m "$MEM" -nographic -no-reboot
		-kernel "$kdir/vmlinuz" -initrd "$d/initramfs.cpio"
		-device vmcoreinfo -serial "file:$d/serial.log"
		-monitor none -qmp "unix:$d/qmp.sock,server=on,wait=off"
		-append "$append")
	log "$rel: booting the guest"
	timeout 1800 "${qemu[@]}" < /dev/null > "$d/qemu.out" 2>&1 &
	local qpid=$! ok=1
	if wait_serial "$d/serial.log" 'end Kernel panic' 1500 $qpid; then
		sleep 1
		log "$rel: $(grep -a -m1 'ORCCRASH-TASKS' "$d/serial.log" | tr -d '\r'); dumping"
		"$PY" "$SAMPLES/qmp.py" "$d/qmp.sock" 'stop' \
			"dump-guest-memory {\"paging\": false, \"protocol\": \"file:$d/vmcore.flat\", \"format\": \"kdump-zlib\"}" \
			'quit' >&2 || ok=0
	else
		ok=0
	fi
	kill $qpid 2>/dev/null || true
	wait $qpid 2>/dev/null || true
	rm -f "$d/qmp.sock" "$d/initramfs.cpio"
	grep -aq 'ORCCRASH-SPAWN-FAILED' "$d/serial.log" && ok=0
	if [ $ok = 1 ]; then
		makedumpfile -R "$d/vmcore.kdump" < "$d/vmcore.flat" > "$d/makedumpfile-R.log" 2>&1 || ok=0
		rm -f "$d/vmcore.flat"
	fi
	if [ $ok != 1 ]; then
		log "$rel: FAILED; serial log tail:"
		tail -n 15 "$d/serial.log" >&2 || true
		rm -rf "$CACHE/bench/$rel/.large.failed"
		mv "$d" "$CACHE/bench/$rel/.large.failed"
		return 1
	fi
	{
		echo "release=$rel"
		echo "scenario=large"
		echo "vmlinux=$kdir/vmlinux"
		echo "memory=$MEM"
		echo "procs=$NPROC threads=$NTHREADS"
		echo "guest: $(grep -a -m1 'ORCCRASH-TASKS' "$d/serial.log" | tr -d '\r')"
		echo "file.vmcore.kdump=$(file -b "$d/vmcore.kdump" | cut -c1-100)"
		echo "qemu=${qemu[*]//"$d"/"$final"}"
	} > "$d/info"
	rm -rf "$final"
	mv "$d" "$final"
	log "$rel: $final/vmcore.kdump ($(stat -c %s "$final/vmcore.kdump") bytes)"
}

main() {
	local releases=${ORCCRASH_RELEASES:-} rel failed=0
	if [ -z "$releases" ]; then
		for rel in "$CACHE"/kernels/*/.complete; do
			[ -e "$rel" ] && releases+=" $(basename "$(dirname "$rel")")"
		done
	fi
	[ -n "$releases" ] || die "no kernels in $CACHE/kernels: run make samples first"
	for rel in $releases; do
		one "$rel" || failed=$((failed + 1))
	done
	[ $failed = 0 ]
}

main "$@"; exit $?
