#!/bin/busybox sh
# /init of the orccrash sample initramfs (busybox sh, PID 1 in the guest).
# make-samples.sh boots it with "orccrash=<scenario>" on the kernel command
# line; the scenario decides how the guest crashes. The host watches the serial
# log for the ORCCRASH-* markers printed here and for the kernel's panic.
#
# Runs inside the guest only: nothing here touches the host.

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp

scenario=$(sed -n 's/.*orccrash=\([a-z0-9-]*\).*/\1/p' /proc/cmdline)
# Markers go through the tty, not printk: give them time to drain before the
# kernel prints again, so they do not land inside its lines.
say() { echo "ORCCRASH-$*" > /dev/ttyS0; sleep 0.3; }
say "INIT scenario=$scenario kernel=$(uname -r)"

# Modules in dependency order (listed by make-samples.sh). qemu_fw_cfg lets
# the kernel publish its VMCOREINFO note to QEMU's -device vmcoreinfo, so QEMU
# dumps carry it.
while read -r m; do
	[ -n "$m" ] && insmod "/lib/modules/$m" || say "INSMOD-FAILED $m"
done < /lib/modules/order

echo 8 > /proc/sys/kernel/printk
echo 1 > /proc/sys/kernel/sysrq
ip link set lo up 2>/dev/null

# User tasks blocked in different syscalls, each with its own kernel stack
# shape; "dd" keeps a CPU busy so sysrq-l / the crash NMI catch it running.
blocked_tasks() {
	sleep 10000 &				# nanosleep
	mkfifo /tmp/fifo
	cat /tmp/fifo > /dev/null &		# open() of a FIFO with no writer
	nc -l -p 4242 > /dev/null 2>&1 &	# accept
	sh -c 'sleep 10001; echo done' &	# the shell in wait4
	sleep 10002 | cat > /dev/null &		# cat in pipe read
}
busy() {	# bs=1M: mostly in the kernel (read_zero); 4k: more in user space
	dd if=/dev/zero of=/dev/null bs=${1:-1M} 2>/dev/null &
}

orc_proc=/proc/orccrash_test
# Load this same kernel as the crash kernel; a panic then kexecs into it and
# its /init (scenario "capture") saves /proc/vmcore.
# The capture's makedumpfile dump level: 31 (no zero, cache, user or free
# pages), as Debian's kdump-tools; $1 overrides it.
#
# Debian 12's makedumpfile 1.7.2 does not support 6.10+: it misreads their
# struct page (page types moved, slab no longer PG_slab) and drops pages
# under -d 31 and -d 15 that are neither cache nor user pages: some slab
# pages (tests/realdump/missing_pages.py explains them from drgn), and on
# some boots far more (a 6.12 kdump-timer capture lost the printk ring,
# the crash notes, the IRQ stack, vmemmap and the page of `modules`).  On
# those kernels the samples exclude only zero and free pages (17), so each
# real kdump is whole whatever the boot; whole_level says which.
whole_level() {
	IFS=.- read -r major minor _ <<EOF_REL
$(uname -r)
EOF_REL
	if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 10 ]; }; then
		echo 17
	else
		echo 31
	fi
}
load_capture() {
	if ! kexec -p /boot/vmlinuz --initrd=/boot/capture.cpio \
		--append="console=ttyS0,115200 orccrash=capture orccrash_dl=${1:-31} nr_cpus=1 irqpoll reset_devices panic=1 no_timer_check" \
		> /dev/ttyS0 2>&1; then
		say "KEXEC-FAILED"
	fi
	say "KEXEC-LOADED $(cat /sys/kernel/kexec_crash_loaded)"
}
case "$scenario" in
process)
	blocked_tasks
	busy
	sleep 2
	say "SYSRQ-T"
	echo t > /proc/sysrq-trigger
	sleep 2
	say "SYSRQ-L"
	echo l > /proc/sysrq-trigger
	sleep 2
	say "CRASH"
	echo c > /proc/sysrq-trigger
	;;
hardirq)
	# The host sends Alt+SysRq+C to the emulated PS/2 keyboard: the i8042
	# interrupt handler runs sysrq_handle_crash in hard-IRQ context. Both
	# CPUs run dd bs=1M, almost always in the kernel (read_zero), so the
	# interrupt comes from kernel mode and runs on the IRQ stack (from
	# user mode it would stay on the task stack).
	blocked_tasks
	busy
	busy
	sleep 2
	say "READY-SENDKEY"
	;;
kdump)
	# -d 17 on 6.10+ (whole_level)
	load_capture "$(whole_level)"
	blocked_tasks
	busy
	sleep 2
	say "SYSRQ-T"
	echo t > /proc/sysrq-trigger
	sleep 2
	say "CRASH"
	echo c > /proc/sysrq-trigger
	;;
capture)
	# In the crash kernel: compress the old kernel's memory with
	# makedumpfile (-d 31 unless load_capture said otherwise) in flattened
	# form straight onto the raw virtio disk; the host reassembles it.
	if [ -e /proc/vmcore ]; then
		say "CAPTURE-START"
		dl=$(sed -n 's/.*orccrash_dl=\([0-9]*\).*/\1/p' /proc/cmdline)
		say "CAPTURE-LEVEL ${dl:-31}"
		if makedumpfile -F -c -d "${dl:-31}" /proc/vmcore > /dev/vda 2> /tmp/mkd.err; then
			sync
			say "CAPTURE-DONE"
		else
			cat /tmp/mkd.err > /dev/ttyS0
			say "CAPTURE-FAILED"
		fi
	else
		say "CAPTURE-NO-VMCORE"
	fi
	sync
	poweroff -f
	;;
mod-oops)
	echo 1 > /proc/sys/kernel/panic_on_oops
	busy
	sleep 1
	say "CRASH"
	echo oops > $orc_proc
	;;
mod-timer)
	busy
	sleep 1
	say "CRASH"
	echo timer > $orc_proc
	sleep 5
	;;
mod-hrtimer)
	# the module's hard hrtimer panics in hard-IRQ context on the IRQ
	# stack, above the writer spinning in mdelay() (PREEMPT_RT too)
	busy
	sleep 1
	say "CRASH"
	echo hrtimer > $orc_proc
	sleep 5
	;;
kdump-timer)
	# mod-timer's crash captured by a real kdump: the timer callback's
	# panic() runs in softirq on the IRQ stack, then __crash_kexec()
	# saves the registers and kexecs; dd keeps the other CPU busy for
	# the crash NMI.  -d 17 on 6.10+ (whole_level)
	load_capture "$(whole_level)"
	busy
	sleep 1
	say "CRASH"
	echo timer > $orc_proc
	sleep 5
	;;
mod-overflow)
	sleep 1
	say "CRASH"
	echo overflow > $orc_proc
	;;
mod-blocked)
	echo blocked > $orc_proc
	sh -c "echo block > $orc_proc" &	# a user task in D inside the module
	blocked_tasks
	busy
	sleep 2
	say "SYSRQ-W"
	echo w > /proc/sysrq-trigger
	sleep 1
	say "SYSRQ-T"
	echo t > /proc/sysrq-trigger
	sleep 2
	say "CRASH"
	echo panic > $orc_proc
	;;
mod-deadlock)
	echo deadlock > $orc_proc
	busy
	sleep 2
	say "SYSRQ-W"
	echo w > /proc/sysrq-trigger
	sleep 1
	say "CRASH"
	echo panic > $orc_proc
	;;
mod-locks)
	echo locks > $orc_proc
	sleep 2
	say "SYSRQ-W"
	echo w > /proc/sysrq-trigger
	sleep 1
	say "SYSRQ-T"
	echo t > /proc/sysrq-trigger
	sleep 2
	say "CRASH"
	echo panic > $orc_proc
	;;
mod-nmi)
	# Arm the module's NMI handler, then let sysrq-l send backtrace NMIs
	# to the other CPU, busy in dd: it panics on its NMI stack.
	busy
	busy
	sleep 1
	echo nmi > $orc_proc
	say "CRASH"
	echo l > /proc/sysrq-trigger
	sleep 5
	;;
*)
	say "UNKNOWN-SCENARIO"
	;;
esac
sleep 30
say "NO-CRASH"
poweroff -f
