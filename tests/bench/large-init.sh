#!/bin/busybox sh
# /init of the benchmark's large-dump guest (tests/bench/make-large-dump.sh):
# ~10,000 sleeping tasks, then a panic.  Runs inside the guest only.
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
say() { echo "ORCCRASH-$*" > /dev/ttyS0; sleep 0.3; }
say "INIT scenario=large kernel=$(uname -r)"
# qemu_fw_cfg (and what it depends on): VMCOREINFO for QEMU's dump.
while read -r m; do
	[ -n "$m" ] && { insmod "/lib/modules/$m" || say "INSMOD-FAILED $m"; }
done < /lib/modules/order
echo 1 > /proc/sys/kernel/sysrq
# large_capture=kdump: the panic kexecs into this kernel with the samples'
# capture initramfs, whose /init (samples/guest-init.sh, scenario capture)
# saves /proc/vmcore with makedumpfile -c -d 31 onto /dev/vda.
if grep -q 'large_capture=kdump' /proc/cmdline; then
	kexec -p /boot/vmlinuz --initrd=/boot/capture.cpio \
		--append="console=ttyS0,115200 orccrash=capture nr_cpus=1 irqpoll reset_devices panic=1 no_timer_check" \
		> /dev/ttyS0 2>&1 || say "KEXEC-FAILED"
	say "KEXEC-LOADED $(cat /sys/kernel/kexec_crash_loaded)"
fi
# threads-max defaults to RAM / 128 KiB (8192 for 1 GiB): too few; pid_max
# (32768, or 1024 per CPU) too: room for the 100,000-task dump.
echo 1000000 > /proc/sys/kernel/threads-max
echo 4194304 > /proc/sys/kernel/pid_max
nproc=$(sed -n 's/.*large_procs=\([0-9]*\).*/\1/p' /proc/cmdline)
nthr=$(sed -n 's/.*large_threads=\([0-9]*\).*/\1/p' /proc/cmdline)
/bin/spawn "${nproc:-500}" "${nthr:-20}" > /dev/ttyS0 2>&1 || say "SPAWN-FAILED"
say "TASKS $(ls -d /proc/[0-9]*/task/[0-9]* | wc -l)"
# a few busybox sleepers too
for i in 1 2 3 4 5 6 7 8; do sleep 100000 & done
sleep 2
say "CRASH"
echo c > /proc/sysrq-trigger
sleep 30
say "NO-CRASH"
poweroff -f
