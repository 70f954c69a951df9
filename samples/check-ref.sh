#!/bin/bash
# check-ref.sh: does a dump directory hold what its scenario promises?
#
# Usage: check-ref.sh DUMPDIR SCENARIO [RELEASE]
#
# Checks ref/kernel.txt (the kernel's own traces from the serial log) for the
# traces that make the scenario worth having — e.g. a hard-IRQ panic must show
# i8042_interrupt inside <IRQ> — and that the vmcore files exist and carry
# VMCOREINFO. make-samples.sh runs it before a dump is put in place, so a
# scenario that booted but did not crash the intended way counts as failed.
# RELEASE (make-samples.sh gives it) says the flavour: the rt and generic
# ones have only QEMU's ELF (qemu_elf_only in make-samples.sh), and on rt the
# timer callback runs in a thread, not on the IRQ stack.
# Prints one line per failed check; exit status 1 if any failed.
set -euo pipefail

dir=$1
sc=$2
rel=${3:-}
ref=$dir/ref/kernel.txt
fails=0

fail() {
	echo "check-ref: $sc: $*"
	fails=$((fails + 1))
}

# has HEADER_ERE LINE_ERE: some block whose @ line matches HEADER_ERE holds a
# line matching LINE_ERE.
has() {
	awk -v h="$1" -v l="$2" '
		/^@end$/ { inb = 0; next }
		/^@/ { inb = ($0 ~ h); next }
		inb && $0 ~ l { found = 1; exit }
		END { exit !found }' "$ref" || fail "no '$1' block with a line matching '$2'"
}

vmcore() {
	local f=$dir/$1
	if [ ! -s "$f" ]; then
		fail "$1 missing or empty"
		return
	fi
	grep -a -q -m1 'OSRELEASE=' "$f" || fail "$1 has no VMCOREINFO (OSRELEASE=)"
}

[ -s "$ref" ] || { echo "check-ref: $sc: $ref missing or empty"; exit 1; }

case $sc in
process | kdump)
	has '^@task .*comm=sleep state=S' 'do_nanosleep'
	has '^@task .*comm=cat state=S' '^fifo_open'
	has '^@task .*comm=cat state=S' '^(anon_)?pipe_read'
	has '^@task .*comm=nc state=S' 'inet_csk_accept'
	has '^@task .*comm=sh state=S' '^do_wait'
	has '^@task .*comm=dd ' '.'
	has '^@panic ' '^sysrq_handle_crash'
	if [ "$sc" = process ]; then
		has '^@nmi cpu=0 ' '.'
		has '^@nmi cpu=1 ' '.'
	fi
	;;
hardirq)
	has '^@panic ' '^sysrq_handle_crash'
	has '^@panic ' '^i8042_interrupt'
	case $rel in
	*-rt-amd64)
		# PREEMPT_RT forces every handler not flagged IRQF_NO_THREAD
		# into its irq/N thread (force_irqthreads() is true there,
		# include/linux/interrupt.h, v6.1): the handler runs on the
		# thread's task stack
		has '^@panic .*comm=irq/1-i8042' '^irq_forced_thread_fn\+'
		;;
	*) has '^@panic ' '^<IRQ>$' ;;
	esac
	;;
mod-oops)
	has '^@oops ' '^RIP 0010:orccrash_oops_deref.*\[orccrash_test\]$'
	has '^@oops ' '^orccrash_oops\+.*\[orccrash_test\]$'
	;;
mod-timer | kdump-timer)
	has '^@panic ' '^orccrash_timer_fn\+.*\[orccrash_test\]$'
	case $rel in
	*-rt-amd64)
		# PREEMPT_RT: the timer softirq runs in the per-CPU ktimers
		# thread (Debian 6.1-rt's "softirq: Use a dedicated thread for
		# timer wakeups"), on its task stack
		has '^@panic .*comm=ktimers/' '^run_timer_softirq\+'
		;;
	*) has '^@panic ' '^<IRQ>$' ;;
	esac
	if [ "$sc" = kdump-timer ]; then
		# the case it exists for: the timer softirq run on the IRQ
		# stack on the way out of an interrupt of kernel code
		# (handle_softirqs, __do_softirq before v6.10 and Debian's
		# 6.1 backport of the rename), and kexec loaded
		has '^@panic ' '^(__do_softirq|handle_softirqs)\+'
		has '^@panic ' '^RIP 0010:'
		grep -q 'ORCCRASH-KEXEC-LOADED 1' "$dir/serial.log" ||
			fail "kexec -p did not load the capture kernel"
	fi
	;;
mod-hrtimer)
	has '^@panic ' '^orccrash_hrtimer_fn\+.*\[orccrash_test\]$'
	has '^@panic ' '^__hrtimer_run_queues\+'
	has '^@panic ' '^<IRQ>$'
	;;
mod-overflow)
	has '^@oops ' '^orccrash_recurse\+.*\[orccrash_test\]$'
	;;
mod-blocked)
	has '^@task .*comm=orccrash_holder state=D' '^msleep'
	has '^@task .*comm=orccrash_mutex state=D' '^orccrash_lock_mutex'
	case $rel in
	*-rt-amd64)
		# PREEMPT_RT: struct mutex is an rt_mutex (kernel/locking/
		# rtmutex_api.c, v6.1): the sleeper waits in its slow path
		has '^@task .*comm=orccrash_mutex state=D' '^rt_mutex_slowlock_block'
		;;
	esac
	has '^@task .*comm=orccrash_wait state=D' '^orccrash_wait_event'
	has '^@task .*comm=orccrash_compl state=D' 'orccrash_kthread_completion'
	has '^@task .*comm=sh state=D' '^orccrash_write'
	has '^@panic ' '^orccrash_panic'
	;;
mod-deadlock)
	has '^@task .*comm=orccrash_ab state=D' '^orccrash_abba'
	has '^@task .*comm=orccrash_ba state=D' '^orccrash_abba'
	has '^@task .*comm=orccrash_writer state=D' '^msleep'
	has '^@task .*comm=orccrash_reader state=D' '^orccrash_read_rwsem'
	has '^@panic ' '^orccrash_panic'
	;;
mod-locks)
	has '^@task .*comm=orccrash_fhold state=D' '^msleep'
	has '^@task .*comm=orccrash_folio state=D' '^orccrash_lock_folio'
	has '^@task .*comm=orccrash_rhold state=D' '^msleep'
	has '^@task .*comm=orccrash_rwrite state=D' '^orccrash_write_rdsem'
	case $rel in
	*-rt-amd64)
		# a spinlock_t is an rt_mutex there (include/linux/spinlock_rt.h);
		# sysrq-t shows TASK_RTLOCK_WAIT as D (task_state_index())
		has '^@task .*comm=orccrash_spin state=D' '^rtlock_slowlock'
		has '^@task .*comm=orccrash_spin state=D' '^orccrash_take_spin'
		;;
	esac
	has '^@panic ' '^orccrash_panic'
	;;
mod-nmi)
	has '^@panic ' '^<NMI>$'
	has '^@panic ' '^orccrash_nmi_handler(\.cold)?\+.*\[orccrash_test\]$'
	;;
*)
	fail "unknown scenario"
	;;
esac

if [ "$sc" = kdump ] || [ "$sc" = kdump-timer ]; then
	vmcore vmcore.kdump-real
else
	vmcore vmcore.elf
	case $rel in
	*-cloud-amd64 | '')
		vmcore vmcore.kdump
		[ -s "$dir/vmcore.flat" ] || fail "vmcore.flat missing or empty"
		;;
	esac
fi

[ $fails = 0 ]
