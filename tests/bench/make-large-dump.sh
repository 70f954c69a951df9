#!/bin/bash
# make-large-dump.sh: a crash dump with ~10,000 sleeping tasks, for
# `make bench` (all-tasks cost and memory against the task count).
#
# Reuses the kernel files samples/make-samples.sh extracted into
# $CACHE/kernels/<release>/ (vmlinuz, vmlinux, modules/qemu_fw_cfg.ko) and
# builds its own initramfs: busybox, tests/bench/large-init.sh as /init and
# tests/bench/spawn.c (static) which forks NPROC processes of NTHREADS
# threads, each blocked in a different syscall.  The guest then panics
# (sysrq c).  Two boots: one captured with QEMU's dump-guest-memory
# kdump-zlib (-z) through the QMP socket, as the samples script does, and
# reassembled by makedumpfile -R (vmcore.kdump); one captured by a real
# kdump (kexec -p into the samples' capture initramfs, makedumpfile -c -d 31
# onto a virtio disk: vmcore.kdump-real), which drgn 0.0.22 can open.
#
# Output: $CACHE/bench/<release>/large/{vmcore.kdump,vmcore.kdump-real,
# serial-*.log,info}.
# Idempotent: a complete directory (with info) is kept.
#
# Environment: ORCCRASH_CACHE, ORCCRASH_RELEASES (default: every cloud
# release in $CACHE/kernels with .complete; the rt and generic flavours of
# make samples get no large dumps), LARGE_PROCS (500), LARGE_THREADS (20),
# LARGE_NAME (large: the directory under $CACHE/bench/<release>/),
# LARGE_MEM (1536M), LARGE_SMP (2: the guest's CPUs), LARGE_TIMEOUT (1500:
# seconds to wait for the guest to crash, and again for the capture).
# `make bench-large` makes four of them (tests/bench/bench.mk): large (500 x
# 20), medium (125 x 20), smp8 (8 CPUs, 4 GB, 500 x 20) and huge (1,000
# processes of 100 threads: 100,100 tasks, 6 GB).
#
# Only one QEMU-heavy job runs at a time on the machine: each dump is made
# under flock $CACHE/.lock (as samples/make-samples.sh is run), and the
# minutes it took are kept in its info file (made.*).
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SAMPLES=$BENCH/../../samples
CACHE=${ORCCRASH_CACHE:-$HOME/.cache/orccrash}
NPROC=${LARGE_PROCS:-500}
NTHREADS=${LARGE_THREADS:-20}
MEM=${LARGE_MEM:-1536M}
SMP=${LARGE_SMP:-2}
NAME=${LARGE_NAME:-large}
TIMEOUT=${LARGE_TIMEOUT:-1500}
PY=/usr/bin/python3

# wait_serial, wait_exit, qemu_base_args, qmp_dump
. "$SAMPLES/qemu-lib.sh"

log() { printf '[make-large-dump %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "error: $*"; exit 1; }

# The samples' initramfs (busybox, modules, kexec, makedumpfile, the kernel
# and capture.cpio for kdump) with large-init.sh as /init and spawn added.
make_initramfs() {
	local kdir=$1 out=$2 root
	[ -f "$kdir/initramfs.cpio" ] || die "$kdir/initramfs.cpio missing: run make samples first"
	root=$(mktemp -d "$CACHE/tmp.large.XXXXXX")
	(cd "$root" && cpio -i -d --quiet < "$kdir/initramfs.cpio")
	install -m 755 "$BENCH/large-init.sh" "$root/init"
	gcc -static -O2 -pthread -o "$root/bin/spawn" "$BENCH/spawn.c"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
	rm -rf "$root"
}

# One boot of the guest; $3 = qemu (QEMU's dump-guest-memory kdump-zlib,
# reassembled to vmcore.kdump) or kdump (kexec + makedumpfile in the guest,
# vmcore.kdump-real: the only kind drgn 0.0.22 opens, see docs/benchmarks.md).
boot() {
	local kdir=$1 d=$2 capture=$3 t0=$SECONDS
	local append="console=ttyS0,115200 panic=0 no_timer_check large_procs=$NPROC large_threads=$NTHREADS large_capture=$capture"
	local serial=$d/serial-$capture.log qemu
	qemu_base_args qemu "$SMP" "$kdir/vmlinuz" "$d/initramfs.cpio" "$serial" "$d/qmp.sock"
	if [ "$capture" = kdump ]; then
		append+=" crashkernel=192M"
		# sparse; makedumpfile -d 31 -c writes far less than the RAM
		truncate -s "$MEM" "$d/disk.raw"
		qemu+=(-drive "file=$d/disk.raw,format=raw,if=virtio")
	fi
	qemu+=(-m "$MEM" -append "$append")
	echo "qemu.$capture=${qemu[*]}" >> "$d/qemu-cmds"
	log "booting the guest (capture $capture, $SMP CPUs, $MEM)"
	# (QEMU does not hold the lock: it is released when this script ends)
	timeout $((2 * TIMEOUT + 300)) "${qemu[@]}" < /dev/null > "$d/qemu-$capture.out" 2>&1 {lock}>&- &
	local qpid=$! ok=1
	if [ "$capture" = kdump ]; then
		wait_serial "$serial" 'ORCCRASH-CAPTURE-(DONE|FAILED|NO-VMCORE)|end Kernel panic|ORCCRASH-SPAWN-FAILED' \
			$((2 * TIMEOUT)) $qpid || ok=0
		grep -aq 'ORCCRASH-CAPTURE-DONE' "$serial" || ok=0
		wait_exit $qpid 120 || ok=0
		[ $ok = 1 ] && { makedumpfile -R "$d/vmcore.kdump-real" < "$d/disk.raw" > "$d/makedumpfile-R-kdump.log" 2>&1 || ok=0; }
		rm -f "$d/disk.raw"
	elif wait_serial "$serial" 'end Kernel panic' "$TIMEOUT" $qpid; then
		sleep 1
		qmp_dump "$d/qmp.sock" "kdump-zlib:$d/vmcore.flat" || ok=0
		wait_exit $qpid 60 || true
		[ $ok = 1 ] && { makedumpfile -R "$d/vmcore.kdump" < "$d/vmcore.flat" > "$d/makedumpfile-R-qemu.log" 2>&1 || ok=0; }
		rm -f "$d/vmcore.flat"
	else
		ok=0
	fi
	kill $qpid 2>/dev/null || true
	wait $qpid 2>/dev/null || true
	rm -f "$d/qmp.sock"
	grep -aq 'ORCCRASH-SPAWN-FAILED' "$serial" && ok=0
	echo "made.$capture=$((SECONDS - t0)) s" >> "$d/qemu-cmds"
	log "$(grep -a -m1 'ORCCRASH-TASKS' "$serial" | tr -d '\r') (capture $capture, ok=$ok, $((SECONDS - t0)) s)"
	[ $ok = 1 ] || { tail -n 15 "$serial" >&2; return 1; }
}

one() {
	local rel=$1 kdir=$CACHE/kernels/$1
	local final=$CACHE/bench/$rel/$NAME d
	[ -f "$final/info" ] && { log "$rel: $final exists"; return 0; }
	[ -f "$kdir/.complete" ] || die "$rel: $kdir incomplete: run make samples first"
	command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 missing"
	# one QEMU-heavy job at a time (make-samples.sh runs under the same lock)
	exec {lock}> "$CACHE/.lock"
	log "$rel: $NAME: waiting for $CACHE/.lock"
	flock "$lock"
	d=$CACHE/bench/$rel/.$NAME.tmp
	rm -rf "$d"
	mkdir -p "$d"
	log "$rel: $NAME: building initramfs ($NPROC processes x $NTHREADS threads)"
	make_initramfs "$kdir" "$d/initramfs.cpio"
	if ! boot "$kdir" "$d" qemu || ! boot "$kdir" "$d" kdump; then
		log "$rel: $NAME: FAILED"
		rm -f "$d/initramfs.cpio"
		rm -rf "$CACHE/bench/$rel/.$NAME.failed"
		mv "$d" "$CACHE/bench/$rel/.$NAME.failed"
		exec {lock}>&-
		return 1
	fi
	exec {lock}>&-
	rm -f "$d/initramfs.cpio"
	{
		echo "release=$rel"
		echo "scenario=$NAME"
		echo "vmlinux=$kdir/vmlinux"
		echo "memory=$MEM"
		echo "cpus=$SMP"
		echo "procs=$NPROC threads=$NTHREADS"
		echo "guest.qemu: $(grep -a -m1 'ORCCRASH-TASKS' "$d/serial-qemu.log" | tr -d '\r')"
		echo "guest.kdump: $(grep -a -m1 'ORCCRASH-TASKS' "$d/serial-kdump.log" | tr -d '\r')"
		echo "file.vmcore.kdump=$(file -b "$d/vmcore.kdump" | cut -c1-100)"
		echo "file.vmcore.kdump-real=$(file -b "$d/vmcore.kdump-real" | cut -c1-100)"
		sed "s|$d|$final|g" "$d/qemu-cmds"
	} > "$d/info"
	rm -f "$d/qemu-cmds"
	rm -rf "$final"
	mv "$d" "$final"
	log "$rel: $final: vmcore.kdump $(stat -c %s "$final/vmcore.kdump") bytes, vmcore.kdump-real $(stat -c %s "$final/vmcore.kdump-real") bytes"
}

main() {
	local releases=${ORCCRASH_RELEASES:-} rel failed=0
	if [ -z "$releases" ]; then
		for rel in "$CACHE"/kernels/*-cloud-amd64/.complete; do
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
