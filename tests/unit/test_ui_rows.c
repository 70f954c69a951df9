// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The browser's row building (ui/rows.c), key table (ui/keys.c) and
 * source files (ui/source.c) on a small fake kernel model and traces
 * built here, and files made in a temporary directory; no ncurses calls.
 */
#include <curses.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys.h"
#include "lines.h"
#include "rows.h"
#include "source.h"

#include "test.h"

/* A fake vmlinux: text symbols, 0x100 apart, from TEXT. */
static const uint64_t TEXT = 0xffffffff81000000ULL;
static const uint64_t TASK_STACK = 0xffffc90000010000ULL;
/* CPU n's IRQ stack: 16 KiB below IRQ_END + n MiB */
static const uint64_t IRQ_END = 0xffffc90000100000ULL;
enum { THREAD_SIZE = 0x4000 };

static const char *const text_syms[] = {
	"__schedule", "schedule", "schedule_timeout", "worker_thread",
	"kthread", "ret_from_fork", "asm_common_interrupt", "handle_irq",
	"_etext", "init_task", "_end",
};

static uint64_t sym(const char *name)
{
	for (size_t i = 0; i < sizeof(text_syms) / sizeof(text_syms[0]); i++)
		if (!strcmp(text_syms[i], name))
			return TEXT + i * 0x100;
	abort();
}

struct fake {
	struct oc_kernel k;
	struct oc_cpu cpus[2];
	struct oc_task tasks[4];
	struct oc_cpu_stacks cs[2];
	uint64_t stack[THREAD_SIZE / 8];	/* the task stack of pid 7 */
	struct oc_mem_region region;
	struct oc_mem_buffers bufs;
};

static void task(struct oc_task *t, int pid, const char *comm, char state,
		 int cpu, int running_on)
{
	memset(t, 0, sizeof(*t));
	t->pid = t->tgid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->state = state;
	t->cpu = cpu;
	t->running_on = running_on;
	t->stack = TASK_STACK + (uint64_t)pid * 0x100000;
}

static struct fake *fake_create(void)
{
	struct fake *f = calloc(1, sizeof(*f));
	struct oc_kernel *k = &f->k;

	oc_symtab_init(&k->syms);
	for (size_t i = 0; i < sizeof(text_syms) / sizeof(text_syms[0]); i++)
		CHECK_OK(oc_symtab_add(&k->syms, text_syms[i],
				       TEXT + i * 0x100, 't'));
	CHECK_OK(oc_symtab_finish(&k->syms));
	k->text_start = TEXT;
	k->text_end = sym("_etext");
	k->thread_size = THREAD_SIZE;
	snprintf(k->release, sizeof(k->release), "6.1.0-test");

	task(&f->tasks[0], 0, "swapper/0", 'R', 0, 0);
	task(&f->tasks[1], 7, "kworker/0:1", 'I', 1, -1);
	task(&f->tasks[2], 42, "Bash", 'D', 0, -1);
	task(&f->tasks[3], 3, "cat", 'S', 1, 1);
	f->tasks[1].stack = TASK_STACK;
	k->tasks = f->tasks;
	k->nr_tasks = 4;

	for (unsigned int c = 0; c < 2; c++) {
		f->cpus[c].cpu = c;
		f->cpus[c].present = true;
		f->cpus[c].has_regs = true;
		f->cs[c].irq_end = IRQ_END + c * 0x100000;
		f->cs[c].irq_size = 0x4000;
	}
	f->cpus[0].task = &f->tasks[0];
	f->cpus[1].task = &f->tasks[3];
	k->cpus = f->cpus;
	k->nr_cpus = 2;
	k->panic_cpu = 1;
	k->stacks.rules = OC_STACK_RULES_5_2;
	k->stacks.nr_cpus = 2;
	k->stacks.cpus = f->cs;

	f->region = (struct oc_mem_region){ TASK_STACK, sizeof(f->stack),
					    f->stack };
	f->bufs = (struct oc_mem_buffers){ &f->region, 1 };
	oc_mem_buffers_init(&k->mem, &f->bufs);
	return f;
}

static void fake_destroy(struct fake *f)
{
	oc_symtab_deinit(&f->k.syms);
	free(f);
}

static struct oc_frame *push(struct oc_trace *tr, uint64_t ip,
			     enum oc_stack_type stack)
{
	struct oc_frame *f;

	if (tr->nr == tr->cap) {
		tr->cap = tr->cap ? tr->cap * 2 : 8;
		tr->frames = realloc(tr->frames, tr->cap * sizeof(*f));
	}
	f = &tr->frames[tr->nr++];
	memset(f, 0, sizeof(*f));
	f->ip = ip;
	f->stack = stack;
	f->reliable = true;
	return f;
}

/* A blocked kworker: __schedule, schedule, a "?" entry, worker_thread,
 * kthread, ret_from_fork; sp and return slots on its task stack. */
static void kworker_trace(struct oc_trace *tr)
{
	struct oc_frame *f;

	oc_trace_init(tr);
	tr->reliable = true;
	tr->stop = OC_STOP_END_OF_STACK;
	f = push(tr, sym("__schedule") + 0x34, OC_STACK_TASK);
	f->sp = TASK_STACK + 0x3e00;
	f->ip_addr = TASK_STACK + 0x3df8;
	f = push(tr, sym("schedule") + 0x5a, OC_STACK_TASK);
	f->sp = TASK_STACK + 0x3e20;
	f->ip_addr = TASK_STACK + 0x3e18;
	f = push(tr, sym("handle_irq") + 0x10, OC_STACK_TASK);
	f->reliable = false;
	f->scanned = true;
	f->ip_addr = TASK_STACK + 0x3e28;
	f = push(tr, sym("worker_thread") + 0xaf, OC_STACK_TASK);
	f->sp = TASK_STACK + 0x3e40;
	f->ip_addr = TASK_STACK + 0x3e38;
	/* a return address right after a call that ends kthread: %pB
	 * must name kthread, not ret_from_fork */
	f = push(tr, sym("ret_from_fork"), OC_STACK_TASK);
	f->sp = TASK_STACK + 0x3f00;
	f->ip_addr = TASK_STACK + 0x3ef8;
	f = push(tr, sym("ret_from_fork") + 0x22, OC_STACK_TASK);
	f->sp = TASK_STACK + 0x3f58;
	f->ip_addr = TASK_STACK + 0x3f50;
}

/* The panic CPU: crash registers on the IRQ stack, then an interrupt's
 * pt_regs on the task stack, ending in an error. */
static void irq_trace(struct oc_trace *tr)
{
	struct oc_frame *f;

	oc_trace_init(tr);
	tr->reliable = false;
	tr->stop = OC_STOP_ERROR;
	snprintf(tr->message, sizeof(tr->message), "bad ORC entry at 0x1");
	f = push(tr, sym("handle_irq") + 0x33, OC_STACK_IRQ);
	f->signal = f->exact = true;
	f->regs_kind = OC_REGS_FULL;
	f->regs.ip = f->ip;
	f->regs.sp = IRQ_END + 0x100000 - 0x200;
	f->regs.cs = 0x10;
	f->regs.ax = 0x1234;
	f = push(tr, sym("asm_common_interrupt") + 0x22, OC_STACK_TASK);
	f->sp = TASK_STACK + 0x3c00;
	f = push(tr, sym("worker_thread") + 0x10, OC_STACK_TASK);
	f->signal = f->exact = true;
	f->regs_kind = OC_REGS_FULL;
	f->regs_addr = TASK_STACK + 0x3c28;
	f->regs.ip = f->ip;
	f->regs.sp = TASK_STACK + 0x3cd8;
	f->regs.bx = sym("kthread") + 4;
	f->regs.orig_ax = UINT64_MAX;
	f = push(tr, sym("kthread") + 0x40, OC_STACK_TASK);
	f->regs_kind = OC_REGS_PARTIAL;
	f->regs_addr = TASK_STACK + 0x3d00;
	f->regs.ip = f->ip;
	f->regs.sp = TASK_STACK + 0x3e00;
}

/* @t (a thread of @f) with the trace @build makes, and @l empty */
static void thread_start(struct fake *f, struct oc_ui_thread *t,
			 struct oc_ui_lines *l, void (*build)(struct oc_trace *))
{
	struct oc_trace tr;

	oc_ui_lines_init(l);
	oc_trace_init(&t->trace);
	build(&tr);
	oc_ui_thread_set_trace(&f->k, t, &tr);
}

static void thread_end(struct fake *f, struct oc_ui_thread *t,
		       struct oc_ui_lines *l)
{
	oc_ui_thread_deinit(t);
	oc_ui_lines_deinit(l);
	fake_destroy(f);
}

TEST(wait_primitives)
{
	static const char *const waits[] = {
		"__schedule", "schedule", "schedule_timeout",
		"schedule_hrtimeout_range_clock", "io_schedule_timeout",
		"wait_for_completion_killable", "__wait_for_common",
		"rwsem_down_write_slowpath", "__mutex_lock.constprop.0",
		"do_nanosleep", "msleep_interruptible", "usleep_range_state",
	};
	static const char *const others[] = {
		"worker_thread", "do_wait", "pipe_read", "schedule_work",
		"kthread",
	};

	CHECK_EACH(oc_ui_is_wait_primitive, waits, true);
	CHECK_EACH(oc_ui_is_wait_primitive, others, false);
}

TEST(top_frame)
{
	struct fake *f = fake_create();
	struct oc_trace tr;

	kworker_trace(&tr);
	/* __schedule, schedule skipped; the "?" entry is not a frame */
	CHECK_EQ(oc_ui_top_frame(&f->k, &tr), 3);
	tr.nr = 2;	/* only primitives: the first frame */
	CHECK_EQ(oc_ui_top_frame(&f->k, &tr), 0);
	tr.nr = 0;
	CHECK_EQ(oc_ui_top_frame(&f->k, &tr), -1);
	oc_trace_deinit(&tr);
	fake_destroy(f);
}

TEST(frame_addr_like_pB)
{
	struct fake *f = fake_create();
	struct oc_frame fr = { .ip = sym("ret_from_fork") };
	char buf[128];

	/* a return address at the next function's first byte */
	oc_ui_format_frame_addr(&f->k, &fr, buf, sizeof(buf));
	CHECK_STR(buf, "kthread+0x100/0x100");
	fr.signal = fr.exact = true;	/* an exact ip is looked up as is */
	oc_ui_format_frame_addr(&f->k, &fr, buf, sizeof(buf));
	CHECK_STR(buf, "ret_from_fork+0x0/0x100");
	fr.ip = 0x1234;
	oc_ui_format_frame_addr(&f->k, &fr, buf, sizeof(buf));
	CHECK_STR(buf, "0x1234");
	fake_destroy(f);
}

TEST(frame_lines_kernel_style)
{
	struct fake *f = fake_create();
	struct oc_ui_thread t = { .cpu = 1, .task = &f->tasks[3] };
	struct oc_ui_lines l;
	struct oc_trace tr;
	static const char *const want[] = {
		"<IRQ>", "#0   handle_irq+0x33/0x100  [crash regs]", "</IRQ>",
		"<TASK>", "#1   asm_common_interrupt+0x22/0x100",
		"#2   worker_thread+0x10/0x100  [pt_regs]",
		"#3   kthread+0x40/0x100  [iret frame]", "</TASK>",
		"(unreliable: error: bad ORC entry at 0x1)",
	};

	oc_ui_lines_init(&l);
	oc_trace_init(&t.trace);
	/* pending and failed threads say so */
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, NULL, &l));
	CHECK_EQ(l.nr, 1);
	CHECK_STR(l.v[0].text, "unwinding...");
	oc_ui_thread_set_error(&t, "CPU 1: no registers saved in the dump");
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, NULL, &l));
	CHECK_EQ(l.nr, 1);
	CHECK_EQ(l.v[0].style, OC_STYLE_ERROR);
	CHECK_STR(t.top, "(error: CPU 1: no registers saved in the dump)");

	irq_trace(&tr);
	oc_ui_thread_set_trace(&f->k, &t, &tr);
	CHECK_EQ(tr.nr, 0);	/* handed over */
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, NULL, &l));
	CHECK_EQ(l.nr, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < l.nr && i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_STR(l.v[i].text, want[i]);
	CHECK_EQ(l.v[0].ref, -1);
	CHECK_EQ(l.v[0].style, OC_STYLE_SEPARATOR);
	CHECK_EQ(l.v[1].ref, 0);
	CHECK_EQ(l.v[2].ref, -1);
	CHECK_EQ(l.v[5].ref, 2);
	CHECK_EQ(l.v[5].style, OC_STYLE_MARK);
	CHECK_EQ(l.v[8].style, OC_STYLE_ERROR);
	/* the cursor skips separators both ways */
	CHECK_EQ(oc_ui_lines_selectable(&l, 2, 1), 4);
	CHECK_EQ(oc_ui_lines_selectable(&l, 3, -1), 1);
	CHECK_EQ(oc_ui_lines_selectable(&l, 8, 1), 8);
	CHECK_EQ(oc_ui_lines_selectable(&l, 0, -1), 0);
	thread_end(f, &t, &l);
}

TEST(scanned_frames_dimmed)
{
	struct fake *f = fake_create();
	struct oc_ui_thread t = { .cpu = -1, .task = &f->tasks[1] };
	struct oc_ui_lines l;

	thread_start(f, &t, &l, kworker_trace);
	CHECK_EQ(t.top_frame, 3);
	CHECK_STR(t.top, "worker_thread+0xaf/0x100");
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, NULL, &l));
	/* <TASK>, six frames, </TASK>; clean: no stop line */
	CHECK_EQ(l.nr, 8);
	CHECK_STR(l.v[3].text, "#2   ? handle_irq+0x10/0x100");
	CHECK_EQ(l.v[3].style, OC_STYLE_DIM);
	CHECK_EQ(l.v[4].style, OC_STYLE_NORMAL);
	CHECK_STR(l.v[5].text, "#4   kthread+0x100/0x100");
	CHECK_STR(l.v[7].text, "</TASK>");
	/* an unwound frame that is not reliable (after a resync): dimmed,
	 * but no "?", which is for the scan's entries; still a top frame */
	t.trace.frames[0].reliable = false;
	t.trace.frames[3].reliable = false;
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, NULL, &l));
	CHECK_STR(l.v[4].text, "#3   worker_thread+0xaf/0x100");
	CHECK_EQ(l.v[4].style, OC_STYLE_DIM);
	CHECK_EQ(oc_ui_top_frame(&f->k, &t.trace), 3);
	/* pt_regs from user mode (CPL 3) say so */
	t.trace.frames[5].regs_kind = OC_REGS_FULL;
	t.trace.frames[5].regs_addr = TASK_STACK + 0x3f58;
	t.trace.frames[5].regs.cs = 0x33;
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, NULL, &l));
	CHECK_STR(l.v[6].text,
		  "#5   ret_from_fork+0x22/0x100  [pt_regs, user mode]");
	CHECK_EQ(l.v[6].style, OC_STYLE_MARK);
	thread_end(f, &t, &l);
}

TEST(threads_build_sort_filter)
{
	struct fake *f = fake_create();
	struct oc_ui_threads th;
	struct oc_ui_lines l;
	struct oc_trace tr;
	char buf[256];

	oc_ui_lines_init(&l);
	CHECK_OK(oc_ui_threads_build(&f->k, &th));
	CHECK_EQ(th.nr, 6);
	CHECK_EQ(th.nr_cpus, 2);
	CHECK(!th.v[0].panic);
	CHECK(th.v[1].panic);
	CHECK_EQ(th.v[1].task, &f->tasks[3]);
	/* by pid: CPUs, then 0, 3, 7, 42 */
	CHECK_EQ(th.nr_shown, 6);
	CHECK_EQ(th.shown[0], 0);
	CHECK_EQ(th.shown[1], 1);
	CHECK_EQ(th.v[th.shown[2]].task->pid, 0);
	CHECK_EQ(th.v[th.shown[3]].task->pid, 3);
	CHECK_EQ(th.v[th.shown[5]].task->pid, 42);

	kworker_trace(&tr);
	oc_ui_thread_set_trace(&f->k, &th.v[3], &tr);	/* pid 7 */
	CHECK_OK(oc_ui_threads_lines(&th, &l));
	CHECK_EQ(l.nr, 6);
	oc_ui_threads_heading(buf, sizeof(buf));
	CHECK_STR(buf, "          PID  CPU ST COMM             TOP FRAME");
	CHECK_STR(l.v[1].text,
		  "CPU1!       3   1* S  cat              ...");
	CHECK_EQ(l.v[1].style, OC_STYLE_PANIC);
	CHECK_STR(l.v[4].text,
		  "            7    1 I  kworker/0:1      worker_thread+0xaf/0x100");
	CHECK_EQ(l.v[4].ref, 3);

	/* a comm from the dump cannot move the cursor */
	memcpy(f->tasks[2].comm, "a\nb\x1b[2J\xff", 8);
	CHECK_OK(oc_ui_threads_lines(&th, &l));
	CHECK_STR(l.v[5].text, "           42    0 D  a?b?[2J?         ...");
	oc_ui_thread_name(&th.v[4], buf, sizeof(buf));
	CHECK_STR(buf, "pid 42 [a?b?[2J?]");
	snprintf(f->tasks[2].comm, sizeof(f->tasks[2].comm), "Bash");

	th.sort = OC_SORT_COMM;	/* strcmp: "Bash" < "cat" < "kworker" */
	CHECK_OK(oc_ui_threads_update(&th));
	CHECK_EQ(th.v[th.shown[2]].task->pid, 42);
	CHECK_EQ(th.v[th.shown[3]].task->pid, 3);
	th.sort = OC_SORT_STATE;	/* D I R S */
	CHECK_OK(oc_ui_threads_update(&th));
	CHECK_EQ(th.v[th.shown[2]].task->state, 'D');
	CHECK_EQ(th.v[th.shown[5]].task->state, 'S');
	th.sort = OC_SORT_CPU;	/* cpu 0: pids 0, 42; cpu 1: 3, 7 */
	CHECK_OK(oc_ui_threads_update(&th));
	CHECK_EQ(th.v[th.shown[3]].task->pid, 42);
	CHECK_EQ(th.v[th.shown[4]].task->pid, 3);

	/* states in the order R D S I, then all again */
	CHECK_EQ(oc_ui_threads_next_state(&th, 0, 1), 'R');
	CHECK_EQ(oc_ui_threads_next_state(&th, 'R', 1), 'D');
	CHECK_EQ(oc_ui_threads_next_state(&th, 'D', 1), 'S');
	CHECK_EQ(oc_ui_threads_next_state(&th, 'S', 1), 'I');
	CHECK_EQ(oc_ui_threads_next_state(&th, 'I', 1), 0);
	CHECK_EQ(oc_ui_threads_next_state(&th, 0, -1), 'I');
	th.state = 'D';
	CHECK_OK(oc_ui_threads_update(&th));
	CHECK_EQ(th.nr_shown, 3);	/* both CPUs and pid 42 */
	CHECK_EQ(th.v[th.shown[2]].task->pid, 42);
	oc_ui_threads_deinit(&th);
	oc_ui_lines_deinit(&l);
	fake_destroy(f);
}

/* At most max_kept whole traces: the oldest one not on screen is
 * dropped, its row keeps its top frame, the one shown is never dropped. */
TEST(traces_kept_bounded)
{
	struct fake *f = fake_create();
	struct oc_ui_threads th;
	struct oc_ui_lines l;
	struct oc_trace tr;

	oc_ui_lines_init(&l);
	CHECK_OK(oc_ui_threads_build(&f->k, &th));
	CHECK_EQ(th.max_kept, OC_UI_MAX_TRACES);
	th.max_kept = 2;
	for (size_t i = 2; i < 6; i++) {
		kworker_trace(&tr);
		oc_ui_thread_set_trace(&f->k, &th.v[i], &tr);
		/* thread 2 is on screen all along */
		oc_ui_threads_keep(&th, i, 2);
	}
	CHECK_EQ(th.nr_kept, 2);
	CHECK_EQ(th.v[2].trace_state, OC_UI_TRACE_READY);
	CHECK(!th.v[2].dropped);
	CHECK_EQ(th.v[3].trace_state, OC_UI_TRACE_PENDING);
	CHECK(th.v[3].dropped);
	CHECK_EQ(th.v[3].trace.nr, 0);
	CHECK(th.v[3].info == NULL);
	CHECK_EQ(th.v[4].trace_state, OC_UI_TRACE_PENDING);
	CHECK_EQ(th.v[5].trace_state, OC_UI_TRACE_READY);
	/* a dropped row still says where the thread is */
	CHECK_OK(oc_ui_threads_lines(&th, &l));
	CHECK_STR(l.v[3].text,
		  "            3   1* S  cat              worker_thread+0xaf/0x100");
	/* unwound again: back in, the oldest other than the shown goes */
	kworker_trace(&tr);
	oc_ui_thread_set_trace(&f->k, &th.v[3], &tr);
	oc_ui_threads_keep(&th, 3, 3);
	CHECK_EQ(th.nr_kept, 2);
	CHECK_EQ(th.v[2].trace_state, OC_UI_TRACE_PENDING);
	CHECK_EQ(th.v[3].trace_state, OC_UI_TRACE_READY);
	CHECK_EQ(th.v[5].trace_state, OC_UI_TRACE_READY);
	oc_ui_threads_deinit(&th);
	oc_ui_lines_deinit(&l);
	fake_destroy(f);
}

TEST(cpu_without_task)
{
	struct fake *f = fake_create();
	struct oc_ui_threads th;
	struct oc_ui_lines l;
	char buf[128];

	oc_ui_lines_init(&l);
	f->cpus[0].task = NULL;
	f->cpus[0].has_regs = false;
	CHECK_OK(oc_ui_threads_build(&f->k, &th));
	CHECK(th.v[0].task == NULL);
	CHECK_EQ(oc_ui_thread_cpu(&f->k, &th.v[0]), -1);
	CHECK_EQ(oc_ui_thread_cpu(&f->k, &th.v[1]), 1);
	/* pid 3 runs on CPU 1, which has registers; pid 7 is blocked */
	CHECK_EQ(oc_ui_thread_cpu(&f->k, &th.v[5]), 1);
	CHECK_EQ(oc_ui_thread_cpu(&f->k, &th.v[3]), -1);
	oc_ui_thread_set_error(&th.v[0], "CPU 0: no registers saved in the dump");
	th.nr_ready++;
	CHECK_OK(oc_ui_threads_lines(&th, &l));
	/* CPU0, pid "-", cpu 0, no state, no comm (16 blanks), the error */
	CHECK_STR(l.v[0].text, "CPU0        -    0    "
		  "                 (error: CPU 0: no registers saved in the dump)");
	CHECK_EQ(l.v[0].style, OC_STYLE_ERROR);
	oc_ui_thread_name(&th.v[0], buf, sizeof(buf));
	CHECK_STR(buf, "CPU 0 (no task)");
	/* a state byte from the dump that is not a letter */
	f->tasks[2].state = '\n';
	CHECK_OK(oc_ui_threads_lines(&th, &l));
	CHECK(strstr(l.v[5].text, " ?  Bash") != NULL);
	oc_ui_threads_deinit(&th);
	oc_ui_lines_deinit(&l);
	fake_destroy(f);
}

TEST(thread_search)
{
	struct fake *f = fake_create();
	struct oc_ui_thread t = { .cpu = -1, .task = &f->tasks[1] };
	struct oc_trace tr;
	long frame;

	oc_trace_init(&t.trace);
	CHECK(oc_ui_thread_matches(&f->k, &t, "7", &frame));
	CHECK_EQ(frame, -1);
	CHECK(!oc_ui_thread_matches(&f->k, &t, "77", &frame));
	CHECK(oc_ui_thread_matches(&f->k, &t, "KWORKER", &frame));
	/* functions only once the trace is there */
	CHECK(!oc_ui_thread_matches(&f->k, &t, "worker_thr", &frame));
	kworker_trace(&tr);
	oc_ui_thread_set_trace(&f->k, &t, &tr);
	CHECK(oc_ui_thread_matches(&f->k, &t, "worker_thr", &frame));
	CHECK_EQ(frame, 3);
	/* looked up like %pB: frame 4 is in kthread */
	CHECK(oc_ui_thread_matches(&f->k, &t, "kthread", &frame));
	CHECK_EQ(frame, 4);
	CHECK(!oc_ui_thread_matches(&f->k, &t, "nothing", &frame));
	CHECK(!oc_ui_thread_matches(&f->k, &t, "", &frame));
	oc_ui_thread_deinit(&t);
	fake_destroy(f);
}

static const char *find_line(const struct oc_ui_lines *l, const char *prefix)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strncmp(l->v[i].text, prefix, strlen(prefix)))
			return l->v[i].text;
	return NULL;
}

TEST(registers)
{
	struct fake *f = fake_create();
	struct oc_ui_thread t = { .cpu = 1, .task = &f->tasks[1] };
	struct oc_ui_lines l;

	thread_start(f, &t, &l, irq_trace);
	/* the trace is on pid 7's stack: make it CPU 1's current task */
	f->cpus[1].task = &f->tasks[1];

	CHECK_OK(oc_ui_regs_lines(&f->k, &t, 0, &l));
	CHECK_STR(l.v[0].text, "#0 registers saved at the crash");
	CHECK_EQ(l.nr, 22);	/* title and 21 registers */
	CHECK_STR(find_line(&l, "RIP"),
		  "RIP    ffffffff81000733 handle_irq+0x33/0x100");
	/* CPU 1's IRQ stack: [IRQ_END + 1M - 16K, IRQ_END + 1M) */
	CHECK_STR(find_line(&l, "RSP"),
		  "RSP    ffffc900001ffe00 -> IRQ stack +0x3e00");
	CHECK_STR(find_line(&l, "RAX"), "RAX    0000000000001234");

	CHECK_OK(oc_ui_regs_lines(&f->k, &t, 2, &l));
	CHECK_STR(l.v[0].text, "#2 pt_regs at ffffc90000013c28");
	CHECK_STR(find_line(&l, "RBX"),
		  "RBX    ffffffff81000404 kthread+0x4/0x100");
	CHECK_STR(find_line(&l, "ORIG_RAX"), "ORIG_RAX ffffffffffffffff");
	/* vmlinux data by symbol; nothing past _end */
	t.trace.frames[2].regs.cx = sym("init_task") + 0x28;
	t.trace.frames[2].regs.dx = sym("_end") + 0x28;
	CHECK_OK(oc_ui_regs_lines(&f->k, &t, 2, &l));
	CHECK_STR(find_line(&l, "RCX"), "RCX    ffffffff81000928 init_task+0x28");
	CHECK_STR(find_line(&l, "RDX"), "RDX    ffffffff81000a28");

	CHECK_OK(oc_ui_regs_lines(&f->k, &t, 3, &l));
	CHECK_STR(l.v[0].text, "#3 iret frame at ffffc90000013d00");
	CHECK_EQ(l.nr, 6);	/* RIP CS EFLAGS RSP SS */
	CHECK(!find_line(&l, "RAX"));

	CHECK_OK(oc_ui_regs_lines(&f->k, &t, 1, &l));
	CHECK_STR(l.v[0].text, "#1 frame (no saved registers)");
	CHECK_EQ(l.nr, 4);	/* RIP RSP RBP, no return slot */
	CHECK_STR(find_line(&l, "RSP"),
		  "RSP    ffffc90000013c00 -> TASK stack +0x3c00");
	CHECK(find_line(&l, "RBP    ") && !strstr(find_line(&l, "RBP"), "unknown"));
	/* after a call-site step the walk has no bp: never a stale value */
	t.trace.frames[1].bp_unknown = true;
	CHECK_OK(oc_ui_regs_lines(&f->k, &t, 1, &l));
	CHECK_EQ(l.nr, 4);
	CHECK_STR(find_line(&l, "RBP"), "RBP    unknown (no rule restores it here)");

	CHECK_OK(oc_ui_regs_lines(&f->k, &t, 9, &l));
	CHECK_STR(l.v[0].text, "no frame");
	thread_end(f, &t, &l);
}

TEST(stack_memory)
{
	struct fake *f = fake_create();
	struct oc_ui_thread t = { .cpu = -1, .task = &f->tasks[1] };
	struct oc_ui_lines l;
	struct oc_error *fault;

	thread_start(f, &t, &l, kworker_trace);
	/* frame #1's return slot, a "?" text word, a stack pointer */
	f->stack[0x3e18 / 8] = sym("schedule") + 0x5a;
	f->stack[0x3e28 / 8] = sym("handle_irq") + 0x10;
	f->stack[0x3e30 / 8] = TASK_STACK + 0x3f00;

	CHECK_OK(oc_ui_memory_lines(&f->k, &t, 0, 8, &l, &fault));
	CHECK(!fault);
	CHECK_EQ(l.nr, 9);
	CHECK_STR(l.v[0].text,
		  "#0 sp ffffc90000013e00 on the TASK stack "
		  "[ffffc90000010000, ffffc90000014000)");
	CHECK_STR(l.v[1].text,
		  "sp#0   ffffc90000013e00: 0000000000000000  ");
	CHECK_EQ(l.v[1].ref, TASK_STACK + 0x3e00);
	CHECK_STR(l.v[4].text,
		  "       ffffc90000013e18: ffffffff8100015a  "
		  "<- #1 return to schedule+0x5a/0x100");
	CHECK_EQ(l.v[4].style, OC_STYLE_MARK);
	CHECK_EQ(l.v[4].value, sym("schedule") + 0x5a);
	CHECK_EQ(l.v[0].value, 0);
	CHECK_STR(l.v[5].text,
		  "sp#1   ffffc90000013e20: 0000000000000000  ");
	CHECK_STR(l.v[7].text,
		  "       ffffc90000013e30: ffffc90000013f00  "
		  "-> TASK stack +0x3f00");
	/* words stop at the end of the stack */
	CHECK_OK(oc_ui_memory_lines(&f->k, &t, 5, 100, &l, &fault));
	CHECK(!fault);
	CHECK_EQ(l.nr, 1 + (THREAD_SIZE - 0x3f58) / 8);

	/* an unreadable word: an error row, and the fault handed back */
	f->tasks[1].stack = TASK_STACK + 0x1000;	/* past the buffer */
	t.trace.frames[0].sp = TASK_STACK + THREAD_SIZE - 8;
	CHECK_OK(oc_ui_memory_lines(&f->k, &t, 0, 8, &l, &fault));
	CHECK(fault != NULL);
	if (fault) {
		CHECK_EQ(fault->code, OC_ERR_FAULT);
		oc_error_destroy(fault);
	}
	CHECK_EQ(l.nr, 3);
	CHECK(strstr(l.v[2].text, "ffffc90000014000: unreadable") != NULL);
	CHECK_EQ(l.v[2].style, OC_STYLE_ERROR);
	thread_end(f, &t, &l);
}

TEST(log_lines)
{
	static const char t0[] = "Linux version 6.1.0";
	static const char t1[] = "Kernel panic - not syncing: test\nsecond\x01line";
	struct oc_log_record recs[] = {
		{ .ts_nsec = 0, .level = 5, .text = t0, .len = sizeof(t0) - 1 },
		{ .ts_nsec = 12345678901ULL, .level = 0, .text = t1,
		  .len = sizeof(t1) - 1 },
	};
	struct oc_log log = { .format = OC_LOG_RINGBUFFER, .records = recs,
			      .nr = 2 };
	struct oc_ui_lines l;

	oc_ui_lines_init(&l);
	CHECK_OK(oc_ui_log_lines(&log, &l));
	CHECK_EQ(l.nr, 3);
	CHECK_STR(l.v[0].text, "[    0.000000] Linux version 6.1.0");
	CHECK_STR(l.v[1].text,
		  "[   12.345678] Kernel panic - not syncing: test");
	CHECK_STR(l.v[2].text, "[   12.345678] second\\x01line");
	CHECK_EQ(l.v[1].style, OC_STYLE_ERROR);
	CHECK_EQ(l.v[0].style, OC_STYLE_NORMAL);
	CHECK_EQ(l.v[2].ref, 1);
	oc_ui_lines_deinit(&l);
}

TEST(source_rows)
{
	const struct oc_line_info chain[] = {
		{ "/build/linux/arch/x86/include/asm/uaccess_64.h", 124,
		  "clear_user", true },
		{ "debian/build/build_amd64_none_cloud-amd64/drivers/char/mem.c",
		  521, "read_zero", false },
		{ NULL, 0, "mystery", false },
	};
	struct oc_ui_lines l, more;

	oc_ui_lines_init(&l);
	oc_ui_lines_init(&more);
	CHECK_OK(oc_ui_lines_add(&l, OC_STYLE_TITLE, -1, "title"));
	CHECK_OK(oc_ui_lines_add(&l, OC_STYLE_NORMAL, -1, "RIP"));
	CHECK_OK(oc_ui_source_lines(chain, 3, NULL, &more));
	CHECK_EQ(more.nr, 3);
	CHECK_STR(more.v[0].text,
		  "at arch/x86/include/asm/uaccess_64.h:124 (clear_user, inlined)");
	CHECK_STR(more.v[1].text, "at drivers/char/mem.c:521 (read_zero)");
	CHECK_STR(more.v[2].text, "in mystery");
	CHECK_OK(oc_ui_lines_insert(&l, 1, &more));
	CHECK_EQ(l.nr, 5);
	CHECK_STR(l.v[0].text, "title");
	CHECK_STR(l.v[1].text, more.v[0].text);
	CHECK_STR(l.v[3].text, "in mystery");
	CHECK_STR(l.v[4].text, "RIP");
	oc_ui_lines_clear(&more);
	CHECK_OK(oc_ui_source_lines(NULL, 0, "no debuginfo", &more));
	CHECK_STR(more.v[0].text, "source: no debuginfo");
	CHECK_EQ(more.v[0].style, OC_STYLE_DIM);
	CHECK_OK(oc_ui_lines_insert(&l, 99, &more));	/* past the end */
	CHECK_STR(l.v[5].text, "source: no debuginfo");
	oc_ui_lines_deinit(&l);
	oc_ui_lines_deinit(&more);
}

/* The worker's answers: inlined rows before their frame, file:line
 * after it, the base name alone where the pane is narrow. */
TEST(frame_rows_with_lines)
{
	struct fake *f = fake_create();
	struct oc_ui_thread t = { .cpu = -1, .task = &f->tasks[1] };
	const struct oc_line_info sched[] = {
		{ "/build/linux/kernel/sched/core.c", 5257, "context_switch", true },
		{ "/build/linux/kernel/sched/core.c", 6584, "__schedule", false },
	};
	const struct oc_line_info kt[] = {
		{ "debian/build/build_amd64_none_cloud-amd64/kernel/kthread.c",
		  376, "kthread", false },
	};
	struct oc_ui_frame_opts narrow = { .files = true, .width = 40 };
	struct oc_ui_frame_opts off = { .files = false };
	struct oc_ui_lines l;

	thread_start(f, &t, &l, kworker_trace);
	CHECK(t.info != NULL);
	CHECK(!t.info[0].queued && !t.info[0].ready);
	CHECK_OK(oc_ui_thread_set_lines(&t, 0, sched, 2, NULL));
	CHECK_OK(oc_ui_thread_set_lines(&t, 4, kt, 1, NULL));
	CHECK_OK(oc_ui_thread_set_lines(&t, 1, NULL, 0, "no debuginfo"));
	CHECK_OK(oc_ui_thread_set_lines(&t, 99, kt, 1, NULL));	/* ignored */
	CHECK(t.info[1].ready && !t.info[1].nr);
	CHECK_STR(t.info[1].why, "no debuginfo");
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, NULL, &l));
	/* <TASK>, the inlined row, six frames, </TASK> */
	CHECK_EQ(l.nr, 9);
	CHECK_STR(l.v[1].text, "     context_switch (inlined)  kernel/sched/core.c:5257");
	CHECK_EQ(l.v[1].ref, 0);
	CHECK_EQ(l.v[1].level, 0);
	CHECK_STR(l.v[2].text, "#0   __schedule+0x34/0x100  kernel/sched/core.c:6584");
	CHECK_EQ(l.v[2].ref, 0);
	CHECK_EQ(l.v[2].level, -1);
	CHECK_STR(l.v[3].text, "#1   schedule+0x5a/0x100");
	CHECK_STR(l.v[6].text, "#4   kthread+0x100/0x100  kernel/kthread.c:376");
	CHECK_EQ(l.v[0].level, -1);	/* a separator */
	/* the cursor stops on the inlined row too */
	CHECK_EQ(oc_ui_lines_selectable(&l, 0, 1), 1);
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, &narrow, &l));
	CHECK_STR(l.v[1].text, "     context_switch (inlined)  core.c:5257");
	CHECK_STR(l.v[2].text, "#0   __schedule+0x34/0x100  core.c:6584");
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, &off, &l));
	CHECK_STR(l.v[1].text, "     context_switch (inlined)");
	CHECK_STR(l.v[2].text, "#0   __schedule+0x34/0x100");
	/* a "?" entry's inline chain is marked like the entry */
	CHECK_OK(oc_ui_thread_set_lines(&t, 2, sched, 2, NULL));
	CHECK_OK(oc_ui_frame_lines(&f->k, &t, &off, &l));
	CHECK_STR(l.v[4].text, "     ? context_switch (inlined)");
	CHECK_EQ(l.v[4].style, OC_STYLE_DIM);
	oc_ui_thread_deinit(&t);
	CHECK(t.info == NULL);
	oc_ui_lines_deinit(&l);
	fake_destroy(f);
}

TEST(source_view_rows)
{
	struct oc_ui_source src = { 0 };
	char text[] = "int a;\n\tint b;\nint c;\nint d;\nint e;\n";
	char *lines[5];
	const struct oc_line_info e = { "/x/kernel/f.c", 3, "f", false };
	const struct oc_line_info past = { "/x/kernel/f.c", 9, "g", true };
	struct oc_ui_lines l;
	size_t cur;

	/* what oc_ui_source_read() makes of the text above */
	src.text = text;
	src.lines = lines;
	for (char *p = text; *p; p = strchr(p, '\n') + 1) {
		lines[src.nr++] = p;
	}
	for (size_t i = 0; i < sizeof(text); i++)
		if (text[i] == '\n')
			text[i] = '\0';
	oc_ui_lines_init(&l);
	CHECK_OK(oc_ui_source_view(7, &e, &src, NULL, 1, &l, &cur));
	CHECK_EQ(l.nr, 4);
	CHECK_STR(l.v[0].text, "#7 f, line 3: kernel/f.c");
	CHECK_STR(l.v[1].text, "    2          int b;");
	CHECK_STR(l.v[2].text, "    3> int c;");
	CHECK_EQ(l.v[2].style, OC_STYLE_MARK);
	CHECK_EQ(cur, 2);
	oc_ui_lines_clear(&l);
	CHECK_OK(oc_ui_source_view(7, &e, &src, NULL, 10, &l, &cur));
	CHECK_EQ(l.nr, 6);	/* the whole file: 1..5 */
	CHECK_EQ(cur, 3);
	oc_ui_lines_clear(&l);
	CHECK_OK(oc_ui_source_view(0, &past, &src, NULL, 10, &l, &cur));
	CHECK_STR(l.v[0].text, "#0 g (inlined), line 9: kernel/f.c");
	CHECK_STR(l.v[1].text, "source: no such line in the file");
	oc_ui_lines_clear(&l);
	CHECK_OK(oc_ui_source_view(0, &e, NULL, "kernel/f.c not found under /src", 10,
				   &l, &cur));
	CHECK_EQ(l.nr, 2);
	CHECK_STR(l.v[1].text, "source: kernel/f.c not found under /src");
	oc_ui_lines_deinit(&l);
}

static void put_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* --source DIR: the three ways of finding a DWARF name under DIR, and
 * nothing outside it. */
TEST(source_find)
{
	char dir[] = "/tmp/oc-test-source-XXXXXX", path[256], buf[PATH_MAX];
	char outside[256];
	struct oc_ui_source src;

	if (!mkdtemp(dir)) {
		FAIL_AT("mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/tree/kernel/sched", dir);
	snprintf(buf, sizeof(buf), "%s/tree", dir);
	mkdir(buf, 0700);
	snprintf(buf, sizeof(buf), "%s/tree/kernel", dir);
	mkdir(buf, 0700);
	mkdir(path, 0700);
	snprintf(buf, sizeof(buf), "%s/core.c", path);
	put_file(buf, "line 1\n\tline 2\r\nline\0033\n");
	snprintf(buf, sizeof(buf), "%s/tree/mod.c", dir);
	put_file(buf, "m\n");
	snprintf(outside, sizeof(outside), "%s/secret.c", dir);
	put_file(outside, "secret\n");
	/* a symlink out of the tree */
	snprintf(buf, sizeof(buf), "%s/tree/link.c", dir);
	CHECK(!symlink(outside, buf));
	snprintf(path, sizeof(path), "%s/tree", dir);

	/* relative to the build directory (oc_lines_short_file()) */
	CHECK(oc_ui_source_find(path, "/build/linux-6.1/kernel/sched/core.c",
				buf, sizeof(buf)));
	CHECK(strstr(buf, "/tree/kernel/sched/core.c") != NULL);
	CHECK(oc_ui_source_find(path,
				"debian/build/build_amd64_none_cloud-amd64/kernel/sched/core.c",
				buf, sizeof(buf)));
	/* as it is, and DIR in place of a build prefix */
	CHECK(oc_ui_source_find(path, "./mod.c", buf, sizeof(buf)));
	CHECK(oc_ui_source_find(path, "/root/build/module-build/mod.c", buf,
				sizeof(buf)));
	CHECK(strstr(buf, "/tree/mod.c") != NULL);
	/* never outside DIR: "..", a symlink out, a directory, nothing */
	CHECK(!oc_ui_source_find(path, "../secret.c", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find(path, "kernel/../../secret.c", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find(path, "link.c", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find(path, "/x/kernel/sched", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find(path, "/x/kernel/nothing.c", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find(path, "", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find(NULL, "mod.c", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find("/nonexistent-dir", "mod.c", buf, sizeof(buf)));
	CHECK(!oc_ui_source_find(path, "mod.c", buf, 8));	/* too long */

	/* reading: lines, tabs, CR of CRLF, control characters */
	snprintf(buf, sizeof(buf), "%s/tree/kernel/sched/core.c", dir);
	CHECK_OK(oc_ui_source_read(buf, &src));
	CHECK_EQ(src.nr, 3);
	oc_ui_source_line(&src, 1, buf, sizeof(buf));
	CHECK_STR(buf, "line 1");
	oc_ui_source_line(&src, 2, buf, sizeof(buf));
	CHECK_STR(buf, "        line 2");
	oc_ui_source_line(&src, 3, buf, sizeof(buf));
	CHECK_STR(buf, "line?3");
	oc_ui_source_line(&src, 4, buf, sizeof(buf));
	CHECK_STR(buf, "");
	oc_ui_source_line(&src, 2, buf, 5);
	CHECK_STR(buf, "    ");
	oc_ui_source_deinit(&src);
	{
		struct oc_error *err = oc_ui_source_read(path, &src);

		CHECK(err != NULL);	/* a directory */
		oc_error_destroy(err);
		snprintf(buf, sizeof(buf), "%s/none.c", dir);
		err = oc_ui_source_read(buf, &src);
		CHECK(err != NULL);
		oc_error_destroy(err);
		/* a FIFO with no writer: refused at once, not a blocked open() */
		snprintf(buf, sizeof(buf), "%s/fifo.c", dir);
		CHECK(mkfifo(buf, 0600) == 0);
		err = oc_ui_source_read(buf, &src);
		CHECK(err != NULL && err->path && strstr(err->message, "FIFO"));
		oc_error_destroy(err);
	}
	/* clean up */
	snprintf(buf, sizeof(buf), "rm -rf '%s'", dir);
	CHECK(system(buf) == 0);
}

TEST(key_table)
{
	char buf[64];

	CHECK_EQ(oc_ui_key_request('j'), OC_REQ_DOWN);
	CHECK_EQ(oc_ui_key_request(KEY_DOWN), OC_REQ_DOWN);
	CHECK_EQ(oc_ui_key_request('\t'), OC_REQ_NEXT_PANE);
	CHECK_EQ(oc_ui_key_request(27), OC_REQ_BACK);
	CHECK_EQ(oc_ui_key_request('/'), OC_REQ_SEARCH);
	CHECK_EQ(oc_ui_key_request('Z'), OC_REQ_NONE);
	/* one key bound once; every request described and reachable */
	for (size_t i = 0; i < oc_ui_nr_keys; i++) {
		CHECK(oc_ui_request_info(oc_ui_keys[i].req) != NULL);
		for (size_t j = i + 1; j < oc_ui_nr_keys; j++)
			CHECK(oc_ui_keys[i].key != oc_ui_keys[j].key);
	}
	for (int r = OC_REQ_NONE + 1; r < OC_REQ_NR; r++) {
		CHECK(oc_ui_request_info(r) != NULL);
		CHECK(oc_ui_request_keys(r, buf, sizeof(buf))[0] != '\0');
	}
	CHECK_STR(oc_ui_request_keys(OC_REQ_UP, buf, sizeof(buf)), "Up k");
	CHECK_STR(oc_ui_request_keys(OC_REQ_ENTER, buf, sizeof(buf)), "Enter");
	CHECK_STR(oc_ui_key_name('L' - '@', buf, sizeof(buf)), "^L");
}

TEST(help_and_footer)
{
	struct oc_ui_lines l;
	char buf[512];

	oc_ui_lines_init(&l);
	CHECK_OK(oc_ui_help_lines(&l));
	CHECK_STR(l.v[0].text, "orccrash browser: keys");
	/* one line per request, generated from the table */
	for (size_t i = 0; i < oc_ui_nr_requests; i++)
		CHECK(strstr(l.v[1 + i].text, oc_ui_requests[i].help));
	CHECK(find_line(&l, "  /  ") != NULL);
	CHECK(find_line(&l, "  s  ") != NULL);
	oc_ui_lines_deinit(&l);

	oc_ui_footer(OC_CTX_HELP, buf, sizeof(buf));
	CHECK_STR(buf, "? help  q back");
	oc_ui_footer(OC_CTX_THREADS, buf, sizeof(buf));
	CHECK(strstr(buf, "s sort") && strstr(buf, "f state") &&
	      strstr(buf, "/ search") && strstr(buf, "Enter open"));
	oc_ui_footer(OC_CTX_FRAMES, buf, sizeof(buf));
	CHECK(strstr(buf, "s sort") && strstr(buf, "m memory"));
	oc_ui_footer(OC_CTX_MEMORY, buf, sizeof(buf));
	CHECK(!strstr(buf, "s sort") && strstr(buf, "l log"));
	oc_ui_footer(OC_CTX_LOG, buf, sizeof(buf));
	CHECK(strstr(buf, "/ search") && !strstr(buf, "m memory"));
	/* ':' everywhere but the help; its view searches and goes back */
	oc_ui_footer(OC_CTX_FRAMES, buf, sizeof(buf));
	CHECK(strstr(buf, ": command") != NULL);
	oc_ui_footer(OC_CTX_COMMAND, buf, sizeof(buf));
	CHECK(strstr(buf, "/ search") && strstr(buf, "q back") && strstr(buf, ": command") &&
	      !strstr(buf, "s sort"));
	/* a footer that does not fit is cut between keys */
	oc_ui_footer(OC_CTX_THREADS, buf, 29);
	CHECK_STR(buf, "? help  Tab pane  Enter open");
	oc_ui_footer(OC_CTX_THREADS, buf, 28);
	CHECK_STR(buf, "? help  Tab pane");
	oc_ui_footer(OC_CTX_THREADS, buf, 7);
	CHECK_STR(buf, "? help");
	oc_ui_footer(OC_CTX_THREADS, buf, 6);
	CHECK_STR(buf, "");
}
