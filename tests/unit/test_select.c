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

#define WHICH(o, ...)                                                       \
	do {                                                                \
		static const struct oc_select_task w_[] = { __VA_ARGS__ };  \
		(o).which = w_;                                             \
		(o).nr_which = sizeof(w_) / sizeof(w_[0]);                  \
	} while (0)
#define PID(p) { .pid = (p) }
#define COMM(c) { .pid = -1, .comm = (c) }

TEST(select_all_and_active)
{
	struct oc_select_options o;

	oc_select_options_init(&o);
	check_select(&o, "-|0 1");		/* the CPUs only */
	o.all_tasks = true;
	check_select(&o, "0 1 2 7 9 0|0 1");	/* the task list's order */
	o.active = true;
	check_select(&o, "-|0 1");
}

TEST(select_pids_in_order_given)
{
	struct oc_select_options o;

	oc_select_options_init(&o);
	WHICH(o, PID(9), PID(1));
	check_select(&o, "9 1|0 1");
	WHICH(o, PID(2), PID(2), PID(7));	/* each once */
	check_select(&o, "2 7|");		/* neither is running */
	WHICH(o, PID(0));			/* every idle task */
	check_select(&o, "0 0|");
}

TEST(select_comm_glob)
{
	struct oc_select_options o;

	oc_select_options_init(&o);
	WHICH(o, COMM("kworker/*"));
	check_select(&o, "7 9|1");
	WHICH(o, PID(9), COMM("kworker/*"), COMM("k?hread[a-d]"));
	check_select(&o, "9 7 2|1");
	WHICH(o, COMM("init"), COMM("*"));	/* the rest after init */
	check_select(&o, "1 0 2 7 9 0|0 1");
}

TEST(select_filters)
{
	struct oc_select_options o;

	oc_select_options_init(&o);
	WHICH(o, COMM("kworker/*"));
	o.state = 'D';
	check_select(&o, "7|");
	o.state = 0;
	o.cpu = 1;
	check_select(&o, "9|1");
	o.nr_which = 0;
	o.cpu = 0;
	check_select(&o, "-|0");		/* --cpu alone: that CPU */
	o.all_tasks = true;
	check_select(&o, "1|0");
	/* a task there, only not in that state: an empty part, no error */
	oc_select_options_init(&o);
	WHICH(o, PID(1));
	o.state = 'D';
	check_select(&o, "|");
	o.nr_which = 0;
	o.state = 'T';
	check_select(&o, "|");
}

TEST(select_errors)
{
	struct oc_select_options o;

	oc_select_options_init(&o);
	WHICH(o, PID(1), PID(99));
	check_error(&o, "no task with pid 99");
	WHICH(o, COMM("zz*"));
	check_error(&o, "no task whose comm matches 'zz*'");
	WHICH(o, COMM("a\033[2Jb"));		/* no raw control character */
	check_error(&o, "no task whose comm matches 'a\\x1b[2Jb'");
	o.nr_which = 0;
	o.cpu = 2;
	check_error(&o, "no CPU 2 (the dump has 2: 0-1)");
	o.active = true;			/* whatever the rest */
	check_error(&o, "no CPU 2 (the dump has 2: 0-1)");
}
