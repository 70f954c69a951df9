// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The batch reports' selection (src/select.c) on a fake kernel model
 * built here: which CPUs and tasks, in which order, and the errors for
 * a pid, comm or CPU the dump does not have.
 */
#include "select.h"
#include "test.h"

/*
 * Two CPUs: CPU 0 runs init, CPU 1 runs kworker/1:0; two idle tasks
 * (pid 0), kworker/0:1 in D.  In the kernel's task list order.
 */
struct fake {
	struct oc_kernel k;
	struct oc_cpu cpus[2];
	struct oc_task tasks[6];
};

static void task(struct oc_task *t, int pid, const char *comm, char state,
		 int running_on)
{
	memset(t, 0, sizeof(*t));
	t->pid = t->tgid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->state = state;
	t->running_on = running_on;
	t->idle = pid == 0;
}

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	task(&f->tasks[0], 0, "swapper/0", 'R', -1);
	task(&f->tasks[1], 1, "init", 'R', 0);
	task(&f->tasks[2], 2, "kthreadd", 'S', -1);
	task(&f->tasks[3], 7, "kworker/0:1", 'D', -1);
	task(&f->tasks[4], 9, "kworker/1:0", 'R', 1);
	task(&f->tasks[5], 0, "swapper/1", 'R', -1);
	f->k.tasks = f->tasks;
	f->k.nr_tasks = 6;
	f->k.cpus = f->cpus;
	f->k.nr_cpus = 2;
	f->cpus[0].task = &f->tasks[1];
	f->cpus[1].task = &f->tasks[4];
}

/* "pid pid ...|cpu cpu ..." of a selection, "-" when no task part */
static const char *shown(const struct oc_selection *sel, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sel->nr_tasks && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? " " : "",
				      sel->tasks[i]->pid);
	if (!sel->show_tasks && n < size)
		n += (size_t)snprintf(buf + n, size - n, "-");
	if (n < size)
		n += (size_t)snprintf(buf + n, size - n, "|");
	for (size_t i = 0; i < sel->nr_cpus && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%u", i ? " " : "",
				      sel->cpus[i]);
	return buf;
}

/* Selects with @o and checks the result against @want. */
static void check_select(const struct oc_select_options *o, const char *want)
{
	struct fake f;
	struct oc_selection sel;
	char buf[128];

	fake_init(&f);
	CHECK_OK(oc_select(&f.k, o, &sel));
	CHECK_STR(shown(&sel, buf, sizeof(buf)), want);
	oc_selection_deinit(&sel);
}

static void check_error(const struct oc_select_options *o, const char *want)
{
	struct fake f;
	struct oc_selection sel;
	struct oc_error *err;
	char buf[256] = "";

	fake_init(&f);
	err = oc_select(&f.k, o, &sel);
	CHECK(err != NULL);
	if (!err) {
		oc_selection_deinit(&sel);
		return;
	}
	CHECK_EQ(err->code, OC_ERR_LOOKUP);
	oc_error_string(err, buf, sizeof(buf));
	CHECK_STR(buf, want);
	oc_error_destroy(err);
}

/*
 * One selection: the options a row names over the defaults (any CPU, any
 * state, no --pid or --comm), and what it shows or the error it gives.
 */
struct select_case {
	const struct oc_select_task *which;
	size_t nr_which;
	bool all_tasks, active;
	bool on_cpu;		/* --cpu cpu */
	int cpu;
	char state;
	const char *shows, *error;
};

#define WHICH(...)                                                          \
	.which = (const struct oc_select_task[]){ __VA_ARGS__ },            \
	.nr_which = sizeof((const struct oc_select_task[]){ __VA_ARGS__ }) / \
		    sizeof(struct oc_select_task)
#define PID(p) { .pid = (p) }
#define COMM(c) { .pid = -1, .comm = (c) }
#define CPU(c) .on_cpu = true, .cpu = (c)

/* Each row from the default options: no row depends on the one before. */
static void check_cases(const struct select_case *c, size_t n)
{
	for (; n--; c++) {
		struct oc_select_options o;

		oc_select_options_init(&o);
		o.which = c->which;
		o.nr_which = c->nr_which;
		o.all_tasks = c->all_tasks;
		o.active = c->active;
		if (c->on_cpu)
			o.cpu = c->cpu;
		o.state = c->state;
		if (c->error)
			check_error(&o, c->error);
		else
			check_select(&o, c->shows);
	}
}

#define CHECK_CASES(cases) \
	check_cases(cases, sizeof(cases) / sizeof((cases)[0]))

TEST(select_all_and_active)
{
	const struct select_case cases[] = {
		{ .shows = "-|0 1" },		/* the CPUs only */
		{ .all_tasks = true,
		  .shows = "0 1 2 7 9 0|0 1" },	/* the task list's order */
		{ .all_tasks = true, .active = true, .shows = "-|0 1" },
	};

	CHECK_CASES(cases);
}

TEST(select_pids_in_order_given)
{
	const struct select_case cases[] = {
		{ WHICH(PID(9), PID(1)), .shows = "9 1|0 1" },
		/* each once; neither is running */
		{ WHICH(PID(2), PID(2), PID(7)), .shows = "2 7|" },
		/* every idle task */
		{ WHICH(PID(0)), .shows = "0 0|" },
	};

	CHECK_CASES(cases);
}

TEST(select_comm_glob)
{
	const struct select_case cases[] = {
		{ WHICH(COMM("kworker/*")), .shows = "7 9|1" },
		{ WHICH(PID(9), COMM("kworker/*"), COMM("k?hread[a-d]")),
		  .shows = "9 7 2|1" },
		/* the rest after init */
		{ WHICH(COMM("init"), COMM("*")), .shows = "1 0 2 7 9 0|0 1" },
	};

	CHECK_CASES(cases);
}

TEST(select_filters)
{
	const struct select_case cases[] = {
		{ WHICH(COMM("kworker/*")), .state = 'D', .shows = "7|" },
		{ WHICH(COMM("kworker/*")), CPU(1), .shows = "9|1" },
		/* --cpu alone: that CPU */
		{ CPU(0), .shows = "-|0" },
		{ CPU(0), .all_tasks = true, .shows = "1|0" },
		/* a task there, only not in that state: an empty part, no
		 * error */
		{ WHICH(PID(1)), .state = 'D', .shows = "|" },
		{ .state = 'T', .shows = "|" },
	};

	CHECK_CASES(cases);
}

TEST(select_errors)
{
	const char *no_cpu = "no CPU 2 (the dump has 2: 0-1)";
	const struct select_case cases[] = {
		{ WHICH(PID(1), PID(99)), .error = "no task with pid 99" },
		{ WHICH(COMM("zz*")),
		  .error = "no task whose comm matches 'zz*'" },
		/* no raw control character */
		{ WHICH(COMM("a\033[2Jb")),
		  .error = "no task whose comm matches 'a\\x1b[2Jb'" },
		{ CPU(2), .error = no_cpu },
		/* whatever the rest */
		{ CPU(2), .active = true, .error = no_cpu },
	};

	CHECK_CASES(cases);
}
