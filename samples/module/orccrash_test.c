// SPDX-License-Identifier: GPL-2.0
/*
 * orccrash_test: crashes the kernel on purpose, in ways whose stacks the
 * orccrash unwinder must handle, so samples/make-samples.sh can dump them.
 *
 * Write one word to /proc/orccrash_test:
 *   oops      NULL dereference in module code (process context, syscall
 *             stack); panics when panic_on_oops=1.
 *   timer     panic() from a timer callback while the writer spins in
 *             mdelay(): softirq on the IRQ stack (irq_exit_rcu ->
 *             handle_softirqs), above the task stack.
 *   hrtimer   panic() from a hard hrtimer's callback (HRTIMER_MODE_REL_HARD)
 *             while the writer spins in mdelay(): hard-IRQ context on the
 *             IRQ stack (hrtimer_interrupt -> __hrtimer_run_queues), even
 *             on PREEMPT_RT, where the timer above runs in a thread.
 *   overflow  unbounded recursion until the guard page below the (vmap'ed)
 *             task stack is hit: #PF cannot push its frame, so the CPU
 *             raises #DF, which runs on its own IST stack and panics
 *             ("kernel stack overflow (double-fault)").
 *   blocked   start kthreads that stay in D state in different waits inside
 *             this module (mutex, wait_event, msleep, completion); returns.
 *   block     the writing task itself blocks in mutex_lock (D state) on the
 *             mutex held by a kthread: a user task with module frames above
 *             the syscall entry.
 *   deadlock  start kthreads that deadlock: orccrash_ab holds
 *             orccrash_lock_a and waits for orccrash_lock_b, which
 *             orccrash_ba holds while it waits for orccrash_lock_a (ABBA);
 *             orccrash_writer holds orccrash_rwsem for writing and sleeps
 *             in msleep while orccrash_reader waits in down_read; returns.
 *   locks     start kthreads blocked on what has no owner field or a
 *             shared one: orccrash_fhold locks a folio (the module's
 *             orccrash_folio) and sleeps while orccrash_folio waits in
 *             folio_lock(); orccrash_rhold holds orccrash_rdsem for
 *             reading and sleeps while orccrash_rwrite waits in
 *             down_write(); on PREEMPT_RT also orccrash_shold holds the
 *             spinlock orccrash_spin (a sleeping lock there) and spins,
 *             preemptible, while orccrash_spin waits in spin_lock(); returns.
 *   nmi       arm an NMI handler that panics: the next NMI on another CPU
 *             (the guest then runs "echo l > /proc/sysrq-trigger", whose
 *             backtrace NMIs call every NMI_LOCAL handler) panics on that
 *             CPU's NMI stack.
 *   panic     panic() from process context.
 *
 * Every function is noinline and does some work after its call so that it
 * keeps its own frame (no tail calls): the traces stay readable.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include <linux/timer.h>
#include <linux/hrtimer.h>
#include <linux/version.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/wait.h>
#include <linux/delay.h>
#include <linux/completion.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/pagemap.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <asm/nmi.h>

/* del_timer_sync() was renamed timer_delete_sync() in 6.2 and the old name
 * removed in 6.15 (include/linux/timer.h) */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define timer_delete_sync del_timer_sync
#endif

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("orccrash test crashes");

static DEFINE_MUTEX(orccrash_mutex);
static DECLARE_WAIT_QUEUE_HEAD(orccrash_wq);
static DECLARE_COMPLETION(orccrash_done);
static DECLARE_COMPLETION(orccrash_mutex_held);
static int orccrash_never;	/* wait_event condition that never comes true */
static volatile int orccrash_depth_limit = 1 << 30;
static struct timer_list orccrash_timer;
static struct hrtimer orccrash_hrtimer;

/* --- oops --- */

static noinline int orccrash_oops_deref(int *p)
{
	int v = READ_ONCE(*p);	/* p is NULL: page fault, oops */

	pr_info("orccrash: read %d\n", v);
	return v + 1;
}

static noinline int orccrash_oops(void)
{
	int r = orccrash_oops_deref(NULL);

	pr_info("orccrash: survived the oops?\n");
	return r;
}

/* --- timer --- */

static noinline void orccrash_timer_panic(unsigned long in_irq)
{
	panic("orccrash: panic in timer callback (in_serving_softirq=%lu)",
	      in_irq);
}

static void orccrash_timer_fn(struct timer_list *t)
{
	orccrash_timer_panic(in_serving_softirq() ? 1 : 0);
	pr_info("orccrash: timer returned\n");
}

/* --- hrtimer --- */

static noinline void orccrash_hrtimer_panic(unsigned long in_hardirq)
{
	panic("orccrash: panic in hard hrtimer callback (in_hardirq=%lu)",
	      in_hardirq);
}

static enum hrtimer_restart orccrash_hrtimer_fn(struct hrtimer *t)
{
	orccrash_hrtimer_panic(hardirq_count() ? 1 : 0);
	pr_info("orccrash: hrtimer returned\n");
	return HRTIMER_NORESTART;
}

/* --- overflow --- */

static noinline int orccrash_recurse(int depth)
{
	volatile char buf[200];
	int r;

	buf[0] = (char)depth;
	if (depth >= orccrash_depth_limit)
		return depth;
	r = orccrash_recurse(depth + 1);
	return r + buf[0];
}

/* --- blocked --- */

static noinline void orccrash_hold_mutex(void)
{
	mutex_lock(&orccrash_mutex);
	complete(&orccrash_mutex_held);
	for (;;)
		msleep(60000);	/* D state in msleep, mutex held */
}

static int orccrash_kthread_holder(void *arg)
{
	orccrash_hold_mutex();
	return 0;
}

static noinline void orccrash_lock_mutex(void)
{
	mutex_lock(&orccrash_mutex);	/* D state in mutex_lock */
	mutex_unlock(&orccrash_mutex);
}

static int orccrash_kthread_mutex(void *arg)
{
	orccrash_lock_mutex();
	return 0;
}

static noinline void orccrash_wait_event(void)
{
	wait_event(orccrash_wq, READ_ONCE(orccrash_never));	/* D state */
}

static int orccrash_kthread_wait(void *arg)
{
	orccrash_wait_event();
	return 0;
}

static noinline void orccrash_wait_completion(void)
{
	wait_for_completion(&orccrash_done);	/* D state */
}

static int orccrash_kthread_completion(void *arg)
{
	orccrash_wait_completion();
	return 0;
}

static int orccrash_start_blocked(void)
{
	static bool started;
	struct task_struct *t;

	if (started)
		return 0;
	started = true;
	t = kthread_run(orccrash_kthread_holder, NULL, "orccrash_holder");
	if (IS_ERR(t))
		return PTR_ERR(t);
	wait_for_completion(&orccrash_mutex_held);
	t = kthread_run(orccrash_kthread_mutex, NULL, "orccrash_mutex");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_wait, NULL, "orccrash_wait");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_completion, NULL, "orccrash_compl");
	if (IS_ERR(t))
		return PTR_ERR(t);
	return 0;
}

/* --- deadlock --- */

static DEFINE_MUTEX(orccrash_lock_a);
static DEFINE_MUTEX(orccrash_lock_b);
static DECLARE_RWSEM(orccrash_rwsem);
static DECLARE_COMPLETION(orccrash_a_held);
static DECLARE_COMPLETION(orccrash_b_held);
static DECLARE_COMPLETION(orccrash_rwsem_held);

/* Takes @first, says so, waits until the other took its own, then
 * takes @second: each waits for the other's (D state in mutex_lock). */
static noinline void orccrash_abba(struct mutex *first, struct completion *mine,
				   struct completion *theirs,
				   struct mutex *second)
{
	mutex_lock(first);
	complete(mine);
	wait_for_completion(theirs);
	mutex_lock(second);	/* never returns */
	mutex_unlock(second);
	mutex_unlock(first);
}

static int orccrash_kthread_ab(void *arg)
{
	orccrash_abba(&orccrash_lock_a, &orccrash_a_held, &orccrash_b_held,
		      &orccrash_lock_b);
	return 0;
}

static int orccrash_kthread_ba(void *arg)
{
	orccrash_abba(&orccrash_lock_b, &orccrash_b_held, &orccrash_a_held,
		      &orccrash_lock_a);
	return 0;
}

static noinline void orccrash_hold_rwsem(void)
{
	down_write(&orccrash_rwsem);
	complete(&orccrash_rwsem_held);
	for (;;)
		msleep(60000);	/* D state in msleep, rwsem held */
}

static int orccrash_kthread_writer(void *arg)
{
	orccrash_hold_rwsem();
	return 0;
}

static noinline void orccrash_read_rwsem(void)
{
	down_read(&orccrash_rwsem);	/* D state in down_read */
	up_read(&orccrash_rwsem);
}

static int orccrash_kthread_reader(void *arg)
{
	wait_for_completion(&orccrash_rwsem_held);
	orccrash_read_rwsem();
	return 0;
}

static int orccrash_start_deadlock(void)
{
	static bool started;
	struct task_struct *t;

	if (started)
		return 0;
	started = true;
	t = kthread_run(orccrash_kthread_ab, NULL, "orccrash_ab");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_ba, NULL, "orccrash_ba");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_writer, NULL, "orccrash_writer");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_reader, NULL, "orccrash_reader");
	if (IS_ERR(t))
		return PTR_ERR(t);
	return 0;
}

/* --- locks --- */

/* folios came in 5.16; before, the same wait is on the page */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
static struct folio *orccrash_folio;
#define orccrash_lock_it(f) folio_lock(f)
#define orccrash_unlock_it(f) folio_unlock(f)
#else
static struct page *orccrash_folio;
#define orccrash_lock_it(f) lock_page(f)
#define orccrash_unlock_it(f) unlock_page(f)
#endif
static DECLARE_RWSEM(orccrash_rdsem);
static DECLARE_COMPLETION(orccrash_folio_held);
static DECLARE_COMPLETION(orccrash_rdsem_held);

static noinline void orccrash_hold_folio(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
	orccrash_folio = folio_alloc(GFP_KERNEL, 0);
#else
	orccrash_folio = alloc_page(GFP_KERNEL);
#endif
	if (orccrash_folio) {
		orccrash_lock_it(orccrash_folio);
		pr_info("orccrash: folio %px locked by pid %d\n", orccrash_folio,
			task_pid_nr(current));
	}
	complete(&orccrash_folio_held);
	for (;;)
		msleep(60000);	/* D state in msleep, folio locked */
}

static int orccrash_kthread_fholder(void *arg)
{
	orccrash_hold_folio();
	return 0;
}

static noinline void orccrash_lock_folio(void)
{
	orccrash_lock_it(orccrash_folio);	/* D state in folio_lock */
	orccrash_unlock_it(orccrash_folio);
}

static int orccrash_kthread_folio(void *arg)
{
	wait_for_completion(&orccrash_folio_held);
	if (orccrash_folio)
		orccrash_lock_folio();
	return 0;
}

static noinline void orccrash_read_rdsem(void)
{
	down_read(&orccrash_rdsem);
	complete(&orccrash_rdsem_held);
	for (;;)
		msleep(60000);	/* D state in msleep, rwsem held for reading */
}

static int orccrash_kthread_rholder(void *arg)
{
	orccrash_read_rdsem();
	return 0;
}

static noinline void orccrash_write_rdsem(void)
{
	down_write(&orccrash_rdsem);	/* D state in down_write */
	up_write(&orccrash_rdsem);
}

static int orccrash_kthread_rwriter(void *arg)
{
	wait_for_completion(&orccrash_rdsem_held);
	orccrash_write_rdsem();
	return 0;
}

#ifdef CONFIG_PREEMPT_RT
/*
 * PREEMPT_RT's spinlock_t is an rt_mutex (include/linux/spinlock_rt.h):
 * its holder is preemptible and its waiter sleeps in rtlock_slowlock().
 * The holder spins rather than sleeps: sleeping inside rt_spin_lock()'s
 * RCU read-side section would warn.
 */
static DEFINE_SPINLOCK(orccrash_spin);
static DECLARE_COMPLETION(orccrash_spin_held);

/*
 * For 20 s at most: RCU boosting (CONFIG_RCU_BOOST) makes the holder of
 * an RCU read-side section SCHED_FIFO after half a second, and the RCU
 * stall warning comes at 21 s; the dump is taken well before.
 */
static noinline void orccrash_hold_spin(void)
{
	unsigned long end = jiffies + 20 * HZ;

	spin_lock(&orccrash_spin);
	complete(&orccrash_spin_held);
	while (time_before(jiffies, end))
		cpu_relax();	/* running (preemptible), spinlock held */
	spin_unlock(&orccrash_spin);
	for (;;)
		msleep(60000);
}

static int orccrash_kthread_sholder(void *arg)
{
	orccrash_hold_spin();
	return 0;
}

static noinline void orccrash_take_spin(void)
{
	spin_lock(&orccrash_spin);	/* sleeps in rtlock_slowlock */
	spin_unlock(&orccrash_spin);
}

static int orccrash_kthread_spin(void *arg)
{
	wait_for_completion(&orccrash_spin_held);
	orccrash_take_spin();
	return 0;
}
#endif

static int orccrash_start_locks(void)
{
	static bool started;
	struct task_struct *t;

	if (started)
		return 0;
	started = true;
	t = kthread_run(orccrash_kthread_fholder, NULL, "orccrash_fhold");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_folio, NULL, "orccrash_folio");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_rholder, NULL, "orccrash_rhold");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_rwriter, NULL, "orccrash_rwrite");
	if (IS_ERR(t))
		return PTR_ERR(t);
#ifdef CONFIG_PREEMPT_RT
	t = kthread_run(orccrash_kthread_sholder, NULL, "orccrash_shold");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t = kthread_run(orccrash_kthread_spin, NULL, "orccrash_spin");
	if (IS_ERR(t))
		return PTR_ERR(t);
#endif
	return 0;
}

/* --- nmi --- */

static atomic_t orccrash_nmi_armed = ATOMIC_INIT(0);
static bool orccrash_nmi_registered;

static noinline void orccrash_nmi_panic(int cpu)
{
	panic("orccrash: panic in NMI handler on CPU %d", cpu);
}

static int orccrash_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	/* Only the first NMI after arming, whichever CPU takes it. */
	if (atomic_xchg(&orccrash_nmi_armed, 0))
		orccrash_nmi_panic(smp_processor_id());
	return NMI_DONE;	/* not ours: let the backtrace handler run */
}

static int orccrash_arm_nmi(void)
{
	int r;

	if (!orccrash_nmi_registered) {
		r = register_nmi_handler(NMI_LOCAL, orccrash_nmi_handler, 0,
					 "orccrash");
		if (r)
			return r;
		orccrash_nmi_registered = true;
	}
	atomic_set(&orccrash_nmi_armed, 1);
	return 0;
}

/* --- panic --- */

static noinline void orccrash_panic(void)
{
	panic("orccrash: panic requested");
}

/* --- /proc/orccrash_test --- */

static ssize_t orccrash_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char cmd[16];
	size_t n = min(len, sizeof(cmd) - 1);
	int r = 0;

	if (copy_from_user(cmd, ubuf, n))
		return -EFAULT;
	cmd[n] = '\0';
	strim(cmd);
	pr_info("orccrash: command '%s' from pid %d (%s)\n", cmd,
		task_pid_nr(current), current->comm);

	if (!strcmp(cmd, "oops")) {
		r = orccrash_oops();
	} else if (!strcmp(cmd, "timer")) {
		/*
		 * Spin in the kernel while the timer expires: the timer
		 * interrupt then comes from kernel mode, so its softirq runs on
		 * the IRQ stack above this task's stack (from user mode it
		 * would run on the task stack).
		 */
		mod_timer(&orccrash_timer, jiffies + 2);
		mdelay(2000);
	} else if (!strcmp(cmd, "hrtimer")) {
		/* as "timer": the interrupt comes from kernel mode */
		hrtimer_start(&orccrash_hrtimer, ms_to_ktime(20),
			      HRTIMER_MODE_REL_HARD);
		mdelay(2000);
	} else if (!strcmp(cmd, "overflow")) {
		r = orccrash_recurse(0);
	} else if (!strcmp(cmd, "blocked")) {
		r = orccrash_start_blocked();
	} else if (!strcmp(cmd, "deadlock")) {
		r = orccrash_start_deadlock();
	} else if (!strcmp(cmd, "locks")) {
		r = orccrash_start_locks();
	} else if (!strcmp(cmd, "block")) {
		orccrash_lock_mutex();
	} else if (!strcmp(cmd, "nmi")) {
		r = orccrash_arm_nmi();
	} else if (!strcmp(cmd, "panic")) {
		orccrash_panic();
	} else {
		return -EINVAL;
	}
	return r < 0 ? r : len;
}

static const struct proc_ops orccrash_proc_ops = {
	.proc_write = orccrash_write,
};

static int __init orccrash_init(void)
{
	timer_setup(&orccrash_timer, orccrash_timer_fn, 0);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)	/* hrtimer_init is gone in 6.15 */
	hrtimer_setup(&orccrash_hrtimer, orccrash_hrtimer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
#else
	hrtimer_init(&orccrash_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	orccrash_hrtimer.function = orccrash_hrtimer_fn;
#endif
	if (!proc_create("orccrash_test", 0200, NULL, &orccrash_proc_ops))
		return -ENOMEM;
	pr_info("orccrash: loaded\n");
	return 0;
}

static void __exit orccrash_exit(void)
{
	remove_proc_entry("orccrash_test", NULL);
	if (orccrash_nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "orccrash");
	timer_delete_sync(&orccrash_timer);
	hrtimer_cancel(&orccrash_hrtimer);
}

module_init(orccrash_init);
module_exit(orccrash_exit);
