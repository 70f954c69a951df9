// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every task: all threads of all processes (init_task.tasks, then each
 * process's signal->thread_head), and the idle task of every CPU, which
 * no list holds but the runqueue.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmodel.h"

struct task_layout {
	uint64_t size;
	struct oc_member pid, tgid, comm, state, exit_state, flags, stack,
		thread_sp, tasks, signal, thread_node, cpu, real_parent;
	uint64_t thread_head;	/* in struct signal_struct */
	uint64_t children, sibling;	/* 0/0 if unknown */
	bool have_threads;
};

static const uint64_t pf_kthread = 0x00200000;
static const uint64_t max_task_struct = 65536;

static struct oc_error *member(struct oc_kernel *k, const char *type,
			       const char *name, struct oc_member *ret)
{
	return oc_types_member(k->types, type, name, ret);
}

static struct oc_error *read_layout(struct oc_kernel *k, struct task_layout *l)
{
	static const char ts[] = "struct task_struct";
	struct oc_error *err;

	err = oc_types_size(k->types, ts, &l->size);
	if (err)
		return err;
	if (l->size > max_task_struct)
		return oc_error_format(OC_ERR_FORMAT,
				       "implausible sizeof(task_struct) %" PRIu64,
				       l->size);
	if ((err = member(k, ts, "pid", &l->pid)) ||
	    (err = member(k, ts, "tgid", &l->tgid)) ||
	    (err = member(k, ts, "comm", &l->comm)) ||
	    (err = member(k, ts, "exit_state", &l->exit_state)) ||
	    (err = member(k, ts, "flags", &l->flags)) ||
	    (err = member(k, ts, "stack", &l->stack)) ||
	    (err = member(k, ts, "thread.sp", &l->thread_sp)) ||
	    (err = member(k, ts, "tasks", &l->tasks)) ||
	    (err = member(k, ts, "real_parent", &l->real_parent)))
		return err;
	/* the layout may come from BTF in dump memory: every member we copy
	 * out must lie inside the struct */
	if (l->comm.offset > l->size || l->comm.size > l->size - l->comm.offset)
		return oc_error_format(OC_ERR_FORMAT,
				       "task_struct.comm (%" PRIu64 " bytes at %" PRIu64 ") outside its %" PRIu64 " bytes",
				       l->comm.size, l->comm.offset, l->size);
	/* __state since 5.14, state before */
	err = member(k, ts, "__state", &l->state);
	if (err) {
		oc_error_destroy(err);
		if ((err = member(k, ts, "state", &l->state)))
			return err;
	}
	/* x86 keeps the CPU in thread_info since 5.16 */
	err = member(k, ts, "thread_info.cpu", &l->cpu);
	if (err) {
		oc_error_destroy(err);
		if ((err = member(k, ts, "cpu", &l->cpu)))
			return err;
	}
	{
		struct oc_member c, sb;

		err = member(k, ts, "children", &c);
		if (!err)
			err = member(k, ts, "sibling", &sb);
		if (err) {
			oc_error_destroy(err);
		} else {
			l->children = c.offset;
			l->sibling = sb.offset;
		}
	}
	err = member(k, ts, "signal", &l->signal);
	if (!err)
		err = member(k, ts, "thread_node", &l->thread_node);
	if (!err)
		err = oc_kernel_offsetof(k, "struct signal_struct",
					 "thread_head", &l->thread_head);
	if (err) {
		oc_error_destroy(err);
		oc_kernel_warn(k, "no signal->thread_head: listing group leaders only");
	} else {
		l->have_threads = true;
	}
	return NULL;
}

/* A member of the task_struct copy in @buf (@l->size bytes). */
static uint64_t get(const uint8_t *buf, const struct task_layout *l,
		    const struct oc_member *m)
{
	return oc_member_get(buf, l->size, m);
}

/* __task_state_index(): the letter sysrq-t and ps print. */
static char state_letter(uint32_t state, uint32_t exit_state)
{
	static const char letters[] = "RSDTtXZPI";
	uint32_t s = (state | exit_state) & 0x7f;	/* TASK_REPORT */
	int idx = 0;

	if (state == 0x402)			/* TASK_IDLE */
		return 'I';
	if (state & 0x1000)			/* TASK_RTLOCK_WAIT */
		s = 2;
	while (s) {
		idx++;
		s >>= 1;
	}
	return letters[idx];
}

/* A set of task addresses, so no task is listed twice and no loop runs on. */
struct addr_set {
	uint64_t *slots;
	size_t size, nr;
};

static bool set_add(struct addr_set *set, uint64_t addr)
{
	size_t i;

	if (set->nr * 2 >= set->size) {
		struct addr_set bigger = { .size = set->size ? set->size * 2 : 1024 };

		bigger.slots = calloc(bigger.size, sizeof(uint64_t));
		if (!bigger.slots)
			return false;
		for (size_t j = 0; j < set->size; j++)
			if (set->slots[j])
				set_add(&bigger, set->slots[j]);
		free(set->slots);
		*set = bigger;
	}
	i = (addr * 0x9e3779b97f4a7c15ull >> 20) & (set->size - 1);
	while (set->slots[i]) {
		if (set->slots[i] == addr)
			return false;
		i = (i + 1) & (set->size - 1);
	}
	set->slots[i] = addr;
	set->nr++;
	return true;
}

static bool set_has(const struct addr_set *set, uint64_t addr)
{
	size_t i;

	if (!set->size)
		return false;
	i = (addr * 0x9e3779b97f4a7c15ull >> 20) & (set->size - 1);
	while (set->slots[i]) {
		if (set->slots[i] == addr)
			return true;
		i = (i + 1) & (set->size - 1);
	}
	return false;
}

struct task_reader {
	struct oc_kernel *k;
	struct task_layout l;
	uint8_t *buf;
	struct addr_set seen;
	size_t cap, max;
	unsigned int bad;
};

static struct oc_error *add_task(struct task_reader *r, uint64_t addr)
{
	struct oc_kernel *k = r->k;
	struct oc_task *t;
	struct oc_error *err;
	uint64_t parent;

	if (!addr || !set_add(&r->seen, addr))
		return NULL;
	if (k->nr_tasks >= r->max)
		return oc_error_format(OC_ERR_FORMAT,
				       "more than %zu tasks: task list corrupt?",
				       r->max);
	err = oc_mem_read(&k->mem, addr, r->buf, r->l.size);
	if (err) {
		r->bad++;
		oc_error_destroy(err);
		return NULL;
	}
	if (k->nr_tasks == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		void *p = realloc(k->tasks, cap * sizeof(*k->tasks));

		if (!p)
			return &oc_enomem;
		k->tasks = p;
		r->cap = cap;
	}
	t = &k->tasks[k->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->addr = addr;
	t->pid = (int32_t)get(r->buf, &r->l, &r->l.pid);
	t->tgid = (int32_t)get(r->buf, &r->l, &r->l.tgid);
	memcpy(t->comm, r->buf + r->l.comm.offset,
	       r->l.comm.size < OC_COMM_LEN ? r->l.comm.size : OC_COMM_LEN);
	t->comm[OC_COMM_LEN] = '\0';
	/* prctl(PR_SET_NAME) takes any bytes: the model keeps them as the
	 * kernel has them, every renderer escapes them (formats/strutil.h) */
	t->state_raw = (uint32_t)get(r->buf, &r->l, &r->l.state) |
		       (uint32_t)get(r->buf, &r->l, &r->l.exit_state);
	t->state = state_letter((uint32_t)get(r->buf, &r->l, &r->l.state),
				(uint32_t)get(r->buf, &r->l, &r->l.exit_state));
	t->cpu = (int)get(r->buf, &r->l, &r->l.cpu);
	t->running_on = -1;
	t->kthread = get(r->buf, &r->l, &r->l.flags) & pf_kthread;
	t->stack = get(r->buf, &r->l, &r->l.stack);
	t->thread_sp = get(r->buf, &r->l, &r->l.thread_sp);
	parent = get(r->buf, &r->l, &r->l.real_parent);
	t->ppid = 0;
	if (parent && parent != addr) {
		uint32_t ppid = 0;

		err = oc_mem_read(&k->mem, parent + r->l.pid.offset, &ppid, 4);
		if (!err)
			t->ppid = (int32_t)ppid;
		oc_error_destroy(err);
	}
	return NULL;
}

/* Follow a list_head chain from @head, calling add_task on each entry. */
static struct oc_error *walk_list(struct task_reader *r, uint64_t head,
				  uint64_t link_off, bool include_head_owner)
{
	struct oc_kernel *k = r->k;
	uint64_t node;
	struct oc_error *err;
	size_t steps = 0;

	if (include_head_owner && (err = add_task(r, head - link_off)))
		return err;
	err = oc_mem_read_u64(&k->mem, head, &node);
	if (err)
		return err;
	while (node != head) {
		if (++steps > r->max)
			return oc_error_format(OC_ERR_FORMAT,
					       "list at 0x%" PRIx64 " does not end: corrupt?",
					       head);
		if (!node || node - link_off == 0)
			return oc_error_fault(node, "null pointer in task list at 0x%" PRIx64,
					      head);
		err = add_task(r, node - link_off);
		if (err)
			return err;
		err = oc_mem_read_u64(&k->mem, node, &node);
		if (err)
			return err;
	}
	return NULL;
}

static struct oc_error *add_threads(struct task_reader *r, uint64_t task)
{
	struct oc_kernel *k = r->k;
	uint64_t sig;
	struct oc_error *err;

	if (!r->l.have_threads)
		return add_task(r, task);
	err = oc_mem_read_u64(&k->mem, task + r->l.signal.offset, &sig);
	if (err || !sig) {
		oc_error_destroy(err);
		return add_task(r, task);
	}
	err = add_task(r, task);
	if (!err)
		err = walk_list(r, sig + r->l.thread_head, r->l.thread_node.offset,
				false);
	return err;
}

/*
 * Walk the processes of the tasks list from @head, forward (@link 0:
 * list_head.next) or backward (@link 8: .prev), until back at @head or at
 * a process already seen.  A process whose threads cannot all be read is
 * noted and passed; an unreadable list pointer ends the walk with an error.
 */
static struct oc_error *walk_processes(struct task_reader *r, uint64_t head,
				       uint64_t link, size_t max_tasks)
{
	struct oc_kernel *k = r->k;
	uint64_t node = head;
	size_t steps = 0;
	struct oc_error *err;

	for (;;) {
		if (++steps > max_tasks)
			return oc_error_format(OC_ERR_FORMAT,
					       "task list does not end: corrupt?");
		if (link == 0 || node != head) {
			err = add_threads(r, node - r->l.tasks.offset);
			if (err == &oc_enomem)
				return err;
			if (err) {
				char buf[160];

				oc_error_string(err, buf, sizeof(buf));
				oc_kernel_warn(k, "threads of task 0x%llx: %s",
					       (unsigned long long)(node - r->l.tasks.offset),
					       buf);
				k->tasks_incomplete = true;
				oc_error_destroy(err);
			}
		}
		err = oc_mem_read_u64(&k->mem, node + link, &node);
		if (err)
			return err;
		if (node == head || !node)
			return NULL;
		/* going backward, stop where the forward walk got to */
		if (link && set_has(&r->seen, node - r->l.tasks.offset))
			return NULL;
	}
}

/*
 * When the tasks list has holes, the process tree still reaches the
 * tasks behind them: each task's children list (linked through the
 * children's sibling fields), from every task found so far.  Errors only
 * skip a list.
 */
static struct oc_error *walk_children(struct task_reader *r, size_t max_tasks)
{
	struct oc_kernel *k = r->k;
	size_t steps = 0;

	if (!r->l.children && !r->l.sibling)
		return NULL;
	/* k->nr_tasks grows as children are found: they are visited too */
	for (size_t i = 0; i < k->nr_tasks; i++) {
		uint64_t head = k->tasks[i].addr + r->l.children;

		/* forward (next), then backward (prev) past a hole */
		for (uint64_t link = 0; link <= 8; link += 8) {
			uint64_t node;
			struct oc_error *err = oc_mem_read_u64(&k->mem, head + link,
							       &node);

			while (!err && node && node != head) {
				uint64_t child = node - r->l.sibling;

				if (++steps > max_tasks)
					return oc_error_format(OC_ERR_FORMAT,
							       "process tree does not end: corrupt?");
				if (!set_has(&r->seen, child)) {
					err = add_threads(r, child);
					if (err == &oc_enomem)
						return err;
					oc_error_destroy(err);
				} else if (link) {
					break;	/* back where the forward walk was */
				}
				err = oc_mem_read_u64(&k->mem, node + link, &node);
			}
			if (!err)
				break;	/* the forward walk went all the way round */
			oc_error_destroy(err);
		}
	}
	return NULL;
}

struct oc_error *oc_kmodel_read_tasks(struct oc_kernel *k, size_t max_tasks)
{
	struct task_reader r = { .k = k, .max = max_tasks };
	uint64_t init_task = oc_kernel_symbol_addr(k, "init_task");
	uint64_t head, rq_idle = 0;
	struct oc_error *err;

	if (!init_task)
		return oc_error_format(OC_ERR_LOOKUP, "no symbol init_task");
	err = read_layout(k, &r.l);
	if (err)
		return err;
	r.buf = malloc(r.l.size);
	if (!r.buf)
		return &oc_enomem;

	/* every process, from init_task around the tasks list */
	head = init_task + r.l.tasks.offset;
	err = walk_processes(&r, head, 0, max_tasks);
	if (err && err != &oc_enomem) {
		/*
		 * A task_struct the dump lacks (makedumpfile excluded its page,
		 * or it is corrupt) breaks the forward walk: keep what was
		 * read, and come back from the other end through the prev
		 * pointers, so only the tasks behind the hole are lost.
		 */
		char buf[160];
		struct oc_error *back;

		oc_error_string(err, buf, sizeof(buf));
		oc_error_destroy(err);
		back = walk_processes(&r, head, 8, max_tasks);
		if (back == &oc_enomem) {
			err = back;
		} else {
			oc_error_destroy(back);
			err = NULL;
		}
		oc_kernel_warn(k, "task list incomplete: %s", buf);
		k->tasks_incomplete = true;
	}
	if (!err && k->tasks_incomplete)
		err = walk_children(&r, max_tasks);
	if (err) {
		free(r.buf);
		free(r.seen.slots);
		return err;
	}

	/* idle tasks (rq->idle) and whatever else is current on a CPU */
	err = oc_kernel_offsetof(k, "struct rq", "idle", &rq_idle);
	if (err) {
		oc_error_destroy(err);
		rq_idle = UINT64_MAX;
	}
	for (unsigned int i = 0; i < k->nr_cpus; i++) {
		uint64_t rq = oc_kernel_percpu_addr(k, "runqueues", i), idle = 0;

		if (rq && rq_idle != UINT64_MAX) {
			err = oc_mem_read_u64(&k->mem, rq + rq_idle, &idle);
			oc_error_destroy(err);
			err = add_task(&r, idle);
			if (err)
				break;
		}
		err = add_task(&r, k->cpus[i].current);
		if (err)
			break;
	}
	free(r.buf);
	free(r.seen.slots);
	if (err)
		return err;
	if (r.bad) {
		oc_kernel_warn(k, "%u task_structs could not be read", r.bad);
		k->tasks_incomplete = true;
	}

	for (size_t i = 0; i < k->nr_tasks; i++) {
		struct oc_task *t = &k->tasks[i];

		t->idle = t->pid == 0;
		for (unsigned int c = 0; c < k->nr_cpus; c++) {
			if (k->cpus[c].current == t->addr) {
				t->running_on = (int)c;
				k->cpus[c].task = t;
			}
		}
	}
	return NULL;
}
