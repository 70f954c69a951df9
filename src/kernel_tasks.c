// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every task: all threads of all processes (init_task.tasks, then each
 * process's signal->thread_head), and the idle task of every CPU, which
 * no list holds but the runqueue.
 *
 * The browser does not wait for the list (opts->tasks_later): the open
 * lists the CPUs' tasks only and a thread of its own, with its own
 * reader of the dump, walks the lists behind the first screen; the
 * model's owner installs the result (oc_kernel_tasks_sync()).
 */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "kmodel.h"

struct task_layout {
	uint64_t size;
	struct oc_member pid, tgid, comm, state, exit_state, flags, stack,
		thread_sp, tasks, signal, thread_node, cpu, real_parent;
	/* the bytes from the start that hold every member read into the
	 * copy (all but the end of a 9.5 KB task_struct, whose last page
	 * is then not read) */
	uint64_t span;
	uint64_t thread_head;	/* in struct signal_struct */
	uint64_t children, sibling;	/* 0/0 if unknown */
	bool have_threads;
	/* the PID IDR (walk_pids()): &init_pid_ns.idr's xa_head, struct
	 * xa_node's slots (nr_slots of them), struct pid's
	 * tasks[PIDTYPE_PID], task_struct's pid_links[PIDTYPE_PID];
	 * pid_root 0 if the kernel's types lack one of them */
	uint64_t pid_root, xa_slots, nr_slots, pid_tasks, pid_links;
};

static const uint64_t pf_kthread = 0x00200000;
static const uint64_t max_task_struct = 65536;

static struct oc_error *member(struct oc_kernel *k, const char *type,
			       const char *name, struct oc_member *ret)
{
	return oc_types_member(k->types, type, name, ret);
}

/* The members add_task() takes from the task_struct's copy. */
#define NR_COPIED 11
static const struct oc_member *copied_member(const struct task_layout *l,
					     size_t i)
{
	const struct oc_member *ms[NR_COPIED] = {
		&l->pid, &l->tgid, &l->comm, &l->state, &l->exit_state,
		&l->cpu, &l->flags, &l->stack, &l->thread_sp,
		&l->real_parent, &l->tasks,
	};

	return ms[i];
}

/* The bytes that hold a member (a bit field's, from its byte) */
static uint64_t member_bytes(const struct oc_member *m)
{
	if (m->bit_size)
		return (m->bit_offset + m->bit_size + 7) / 8;
	return m->size ? m->size : 8;
}

/* What walk_pids() needs; l->pid_root stays 0 when something is not
 * there (an older kernel's radix tree has other names: the walk is
 * skipped). */
static void pid_layout(struct oc_kernel *k, struct task_layout *l)
{
	uint64_t ns = oc_kernel_symbol_addr(k, "init_pid_ns"), root = 0;
	struct oc_member slots;
	struct oc_error *err;

	l->pid_root = 0;
	if (!ns)
		return;
	if ((err = oc_kernel_offsetof(k, "struct pid_namespace",
				      "idr.idr_rt.xa_head", &root)) ||
	    (err = member(k, "struct xa_node", "slots", &slots)) ||
	    (err = oc_kernel_offsetof(k, "struct pid", "tasks",
				      &l->pid_tasks)) ||
	    (err = oc_kernel_offsetof(k, "struct task_struct", "pid_links",
				      &l->pid_links))) {
		oc_error_destroy(err);
		return;
	}
	/* XA_CHUNK_SIZE: 64, or 16 with CONFIG_BASE_SMALL */
	if (slots.size < 8 || slots.size > 64 * 8 || slots.size % 8)
		return;
	l->xa_slots = slots.offset;
	l->nr_slots = slots.size / 8;
	l->pid_root = ns + root;
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
	pid_layout(k, l);
	l->span = 0;
	for (size_t i = 0; i < NR_COPIED; i++) {
		const struct oc_member *m = copied_member(l, i);
		uint64_t end = m->offset + member_bytes(m);

		if (end > l->span)
			l->span = end;
	}
	if (l->span > l->size)
		l->span = l->size;
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

/*
 * What the list walks take of one task_struct (read_task()): the model's
 * struct oc_task but its ppid, the real_parent pointer, and the list
 * words the walks follow, each where the read held it (known's bits).
 * A pure function of the dump, so one read ahead in another thread
 * (read_ahead()) is the one the walk would have made.
 */
enum task_read {
	TASK_NONE,	/* not read (read ahead: given up, out of memory) */
	TASK_READ,	/* its members read (task_copy.partial: one by one) */
	TASK_UNREAD,	/* a member unreadable: not listed */
	TASK_ZEROS,	/* tasks.next and .prev NULL: not a task */
};

enum { W_NEXT, W_PREV, W_SIGNAL, W_THREAD, NR_WORDS };

/* what a struct pid of the IDR gives (pid_task_of()) */
enum pid_entry { PID_NONE, PID_HOLE, PID_TASK };

struct task_copy {
	uint64_t addr;
	enum pid_entry entry;	/* read_ahead(): what its pid gave */
	enum task_read how;
	bool partial;		/* the span unreadable, the members read alone */
	uint8_t known;		/* 1 << W_*: words[] read */
	uint64_t parent;	/* real_parent */
	uint64_t words[NR_WORDS];
	struct oc_task t;
};

/*
 * One reading of the task list.  It writes nothing of the model's (a
 * reading behind the open runs beside the model's owner): the tasks,
 * warnings and flags wait here until install() hands them over.
 */
struct task_reader {
	struct oc_kernel *k;
	struct task_layout l;
	uint8_t *buf;
	struct addr_set seen;
	struct oc_task *tasks;
	size_t nr_tasks, cap, max;
	/* one budget of list steps for every walk of the model together:
	 * a dump of many looping lists costs max steps, not max per list */
	size_t steps;
	/* where a task_struct can be: the direct map (slab), or init_task */
	uint64_t dm_start, dm_end, init_task;
	/* per CPU, where its runqueue's idle pointer is (0: unknown) */
	uint64_t *idle_ptr;
	unsigned int bad, not_tasks, partial;
	size_t from_pids;	/* tasks walk_pids() alone found */
	unsigned int pid_holes;	/* its nodes and pids not read */
	/* processes whose threads could not all be read: the first
	 * MAX_THREAD_NOTES are named, the rest counted in one note */
	unsigned int thread_errs;
	char notes[8][192];
	unsigned int nr_notes;
	bool incomplete;	/* becomes k->tasks_incomplete */
	const atomic_bool *stop;	/* the model is closing: give up */
	/* the task_structs read ahead (read_ahead()), by address; a
	 * reader of the dump for the second thread that reads them, when
	 * the kernel has tasks enough (reader_init()) */
	struct task_copy *ahead;
	size_t nr_ahead;
	struct oc_kernel_reader *helper;
	/* the IDR's tasks in its order and its holes, as read_ahead()'s
	 * walk found them, for walk_pids() (pids_known: it went through) */
	uint64_t *pids;
	size_t nr_pids, cap_pids;
	unsigned int pids_holes;
	bool pids_known;
};

#define note(r, ...) OC_APPEND_LINE((r)->notes, (r)->nr_notes, __VA_ARGS__)

static struct oc_error *over_budget(const struct task_reader *r)
{
	return oc_error_format(OC_ERR_FORMAT,
			       "more than %zu steps through the task lists: corrupt (lists that loop)?",
			       r->max);
}

/* One more step through a list: none past the budget, none once the
 * model is closing (the walk's result is not wanted then). */
static bool step(struct task_reader *r)
{
	if (r->stop && atomic_load_explicit(r->stop, memory_order_relaxed))
		r->steps = r->max;
	return ++r->steps <= r->max;
}

/*
 * A list_head of the task lists (tasks, thread_node, children/sibling)
 * is in a task_struct or signal_struct: slab memory, which x86-64
 * allocates from the direct map (mm/slub.c: page_address() of the slab
 * page), or init_task/init_signals in the kernel image.  The lists are
 * circular (include/linux/list.h): a NULL or any other pointer is not
 * how the kernel ends one, so the list read is incomplete.
 */
static struct oc_error *check_link(const struct task_reader *r, uint64_t node,
				   uint64_t head, uint64_t from)
{
	if (node == head)
		return NULL;
	if (!node)
		return oc_error_format(OC_ERR_FORMAT,
				       "NULL pointer in the list at 0x%" PRIx64 " (after 0x%" PRIx64 "): the kernel's lists never end so",
				       head, from);
	if ((node & 7) || ((node < r->dm_start || node >= r->dm_end) &&
			   (node < r->init_task ||
			    node >= r->init_task + r->l.size)))
		return oc_error_format(OC_ERR_FORMAT,
				       "pointer 0x%" PRIx64 " in the list at 0x%" PRIx64 " (after 0x%" PRIx64 ") is outside the direct map",
				       node, head, from);
	return NULL;
}

/*
 * A task_struct the dump lacks a page of (makedumpfile's -d 31 on 6.10+
 * kernels excludes some slab pages, docs/kernels.md): only the members
 * the model takes from @buf, each read alone, the rest zeros.  false
 * when one of them is missing too.
 */
static bool read_members(const struct oc_kernel *k, const struct task_layout *l,
			 uint8_t *buf, uint64_t addr)
{
	memset(buf, 0, l->size);
	for (size_t i = 0; i < NR_COPIED; i++) {
		const struct oc_member *m = copied_member(l, i);
		uint64_t size = member_bytes(m);
		struct oc_error *err;

		if (m->offset > l->size || size > l->size - m->offset)
			return false;
		err = oc_mem_read(&k->mem, addr + m->offset, buf + m->offset,
				  size);
		if (err) {
			oc_error_destroy(err);
			return false;
		}
	}
	return true;
}

/* A list word of @c taken from @buf, when the read held it. */
static void copy_word(struct task_copy *c, const uint8_t *buf,
		      const struct task_layout *l, unsigned int w,
		      uint64_t offset, bool held)
{
	struct oc_member m = { .offset = offset, .size = 8 };

	if (!held || offset > l->span || l->span - offset < 8)
		return;
	c->words[w] = get(buf, l, &m);
	c->known |= 1u << w;
}

/*
 * The task_struct at @addr into @c, through @buf (l->size bytes), in
 * any thread with a reader of its own.  Only running out of memory is
 * an error.
 */
static struct oc_error *read_task(const struct oc_kernel *k,
				  const struct task_layout *l, uint8_t *buf,
				  uint64_t addr, struct task_copy *c)
{
	struct oc_task *t = &c->t;
	struct oc_error *err;

	memset(c, 0, sizeof(*c));
	c->addr = addr;
	/* the members' bytes only (most of a task_struct is not needed to
	 * list it: a page less to read and inflate for each task) */
	err = oc_mem_read(&k->mem, addr, buf, l->span);
	if (err) {
		if (err == &oc_enomem)
			return err;
		oc_error_destroy(err);
		if (!read_members(k, l, buf, addr)) {
			c->how = TASK_UNREAD;
			return NULL;
		}
		c->partial = true;
	}
	c->how = TASK_READ;
	/* tasks is a copied member: read either way; signal and
	 * thread_node only with the whole span */
	copy_word(c, buf, l, W_NEXT, l->tasks.offset, true);
	copy_word(c, buf, l, W_PREV, l->tasks.offset + 8, true);
	copy_word(c, buf, l, W_SIGNAL, l->signal.offset,
		  !c->partial && l->have_threads);
	copy_word(c, buf, l, W_THREAD, l->thread_node.offset,
		  !c->partial && l->have_threads);
	/*
	 * tasks.next and .prev are never NULL in a task_struct: init_task's
	 * are LIST_HEAD_INIT (init/init_task.c), every other one starts as
	 * a copy of its parent's (kernel/fork.c dup_task_struct()), and
	 * list_del_rcu() poisons only .prev.  Both NULL is a zeroed page (a
	 * hole a dump reads as zeros), not a task to list; one NULL pointer
	 * is a corrupt link, which the list walks report.
	 */
	if (!c->words[W_NEXT] && !c->words[W_PREV])
		c->how = TASK_ZEROS;
	t->addr = addr;
	t->pid = (int32_t)get(buf, l, &l->pid);
	t->tgid = (int32_t)get(buf, l, &l->tgid);
	memcpy(t->comm, buf + l->comm.offset,
	       l->comm.size < OC_COMM_LEN ? l->comm.size : OC_COMM_LEN);
	t->comm[OC_COMM_LEN] = '\0';
	/* prctl(PR_SET_NAME) takes any bytes: the model keeps them as the
	 * kernel has them, every renderer escapes them (formats/strutil.h) */
	t->state_raw = (uint32_t)get(buf, l, &l->state) |
		       (uint32_t)get(buf, l, &l->exit_state);
	t->state = state_letter((uint32_t)get(buf, l, &l->state),
				(uint32_t)get(buf, l, &l->exit_state));
	t->cpu = (int)get(buf, l, &l->cpu);
	t->running_on = -1;
	t->kthread = get(buf, l, &l->flags) & pf_kthread;
	t->stack = get(buf, l, &l->stack);
	t->thread_sp = get(buf, l, &l->thread_sp);
	c->parent = get(buf, l, &l->real_parent);
	return NULL;
}

static int copy_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct task_copy *)a)->addr;
	uint64_t y = ((const struct task_copy *)b)->addr;

	return x < y ? -1 : x > y;
}

/* The task_struct at @addr as read ahead, or NULL. */
static const struct task_copy *ahead_find(const struct task_reader *r,
					  uint64_t addr)
{
	size_t lo = 0, hi = r->nr_ahead;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct task_copy *c = &r->ahead[mid];

		if (c->addr == addr)
			return c->how == TASK_NONE ? NULL : c;
		if (c->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The list word @w of the task_struct at @task, @offset into it: as read
 * ahead, or from the dump. */
static struct oc_error *task_word(const struct task_reader *r, uint64_t task,
				  unsigned int w, uint64_t offset,
				  uint64_t *ret)
{
	const struct task_copy *c = ahead_find(r, task);

	if (c && (c->known & 1u << w)) {
		*ret = c->words[w];
		return NULL;
	}
	return oc_mem_read_u64(&r->k->mem, task + offset, ret);
}

static struct oc_error *add_task(struct task_reader *r, uint64_t addr)
{
	const struct task_copy *c, *p;
	struct task_copy own;
	struct oc_task *t;
	struct oc_error *err;
	void *grown;

	if (!addr || !set_add(&r->seen, addr))
		return NULL;
	if (r->nr_tasks >= r->max)
		return oc_error_format(OC_ERR_FORMAT,
				       "more than %zu tasks: task list corrupt?",
				       r->max);
	c = ahead_find(r, addr);
	if (!c) {
		err = read_task(r->k, &r->l, r->buf, addr, &own);
		if (err)
			return err;
		c = &own;
	}
	if (c->how == TASK_UNREAD) {
		r->bad++;
		return NULL;
	}
	r->partial += c->partial;
	if (c->how == TASK_ZEROS) {
		r->not_tasks++;
		return NULL;
	}
	grown = oc_array_grow(r->tasks, r->nr_tasks, 1, &r->cap,
			      sizeof(*r->tasks), 256);
	if (!grown)
		return &oc_enomem;
	r->tasks = grown;
	t = &r->tasks[r->nr_tasks++];
	*t = c->t;
	t->ppid = 0;
	if (c->parent && c->parent != addr) {
		uint32_t ppid = 0;

		/* an unreadable parent's pid may still be on a page the
		 * dump has: read as before */
		p = ahead_find(r, c->parent);
		if (p && p->how != TASK_UNREAD) {
			t->ppid = p->t.pid;
		} else {
			err = oc_mem_read(&r->k->mem, c->parent + r->l.pid.offset,
					  &ppid, 4);
			if (!err)
				t->ppid = (int32_t)ppid;
			oc_error_destroy(err);
		}
	}
	return NULL;
}

/*
 * Follow a thread list (signal->thread_head) from @head, adding each
 * entry but @owner, the group leader added before.  Each thread is on
 * one thread list only: a task seen before is a loop or a cross-link.
 */
static struct oc_error *walk_list(struct task_reader *r, uint64_t head,
				  uint64_t owner)
{
	struct oc_kernel *k = r->k;
	uint64_t link_off = r->l.thread_node.offset, node, prev = head;
	struct oc_error *err;
	bool owner_seen = false;

	err = oc_mem_read_u64(&k->mem, head, &node);
	while (!err && node != head) {
		uint64_t task = node - link_off;

		if (!step(r))
			return over_budget(r);
		if ((err = check_link(r, node, head, prev)))
			return err;
		if (task == owner && !owner_seen)
			owner_seen = true;
		else if (set_has(&r->seen, task))
			return oc_error_format(OC_ERR_FORMAT,
					       "thread list at 0x%" PRIx64 " loops back to task 0x%" PRIx64,
					       head, task);
		err = add_task(r, task);
		prev = node;
		if (!err)
			err = task_word(r, task, W_THREAD, link_off, &node);
	}
	return err;
}

static struct oc_error *add_threads(struct task_reader *r, uint64_t task)
{
	uint64_t sig;
	struct oc_error *err;

	if (!r->l.have_threads)
		return add_task(r, task);
	err = task_word(r, task, W_SIGNAL, r->l.signal.offset, &sig);
	if (err || !sig) {
		oc_error_destroy(err);
		return add_task(r, task);
	}
	err = add_task(r, task);
	if (!err)
		err = walk_list(r, sig + r->l.thread_head, task);
	return err;
}

/* processes whose thread-list errors are named (the rest are counted) */
enum { MAX_THREAD_NOTES = 3 };

/*
 * Walk the processes of the tasks list from @head, forward (@link 0:
 * list_head.next) or backward (@link 8: .prev), until back at @head or at
 * a process already seen.  A process whose threads cannot all be read is
 * noted and passed; an unreadable list pointer ends the walk with an error.
 */
static struct oc_error *walk_processes(struct task_reader *r, uint64_t head,
				       uint64_t link)
{
	uint64_t node = head, prev;
	struct oc_error *err;

	for (;;) {
		if (!step(r))
			return over_budget(r);
		if (link == 0 || node != head) {
			err = add_threads(r, node - r->l.tasks.offset);
			if (err == &oc_enomem)
				return err;
			if (err) {
				char buf[160];

				oc_error_string(err, buf, sizeof(buf));
				if (r->thread_errs++ < MAX_THREAD_NOTES)
					note(r, "threads of task 0x%llx: %s",
					     (unsigned long long)(node - r->l.tasks.offset),
					     buf);
				r->incomplete = true;
				oc_error_destroy(err);
			}
			if (r->steps > r->max)
				return over_budget(r);
		}
		prev = node;
		err = task_word(r, node - r->l.tasks.offset,
				link ? W_PREV : W_NEXT, r->l.tasks.offset + link,
				&node);
		if (err)
			return err;
		if (node == head)
			return NULL;
		if ((err = check_link(r, node, head, prev)))
			return err;
		if (set_has(&r->seen, node - r->l.tasks.offset)) {
			/* going backward, stop where the forward walk got to */
			if (link)
				return NULL;
			return oc_error_format(OC_ERR_FORMAT,
					       "task list loops back to task 0x%" PRIx64,
					       node - r->l.tasks.offset);
		}
	}
}

/*
 * When the tasks list has holes, the process tree still reaches the
 * tasks behind them: each task's children list (linked through the
 * children's sibling fields), from every task found so far.  Errors only
 * skip a list.
 */
static struct oc_error *walk_children(struct task_reader *r)
{
	const struct oc_kernel *k = r->k;

	if (!r->l.children && !r->l.sibling)
		return NULL;
	/* r->nr_tasks grows as children are found: they are visited too */
	for (size_t i = 0; i < r->nr_tasks; i++) {
		uint64_t head = r->tasks[i].addr + r->l.children;

		/* forward (next), then backward (prev) past a hole */
		for (uint64_t link = 0; link <= 8; link += 8) {
			uint64_t node, prev = head;
			struct oc_error *err = oc_mem_read_u64(&k->mem, head + link,
							       &node);

			while (!err && node != head) {
				uint64_t child = node - r->l.sibling;

				if (!step(r)) {
					/* already incomplete: keep what was found */
					note(r, "process tree: more than %zu steps through the task lists in all: stopped",
					     r->max);
					return NULL;
				}
				/* a NULL or stray link: try the other way */
				if ((err = check_link(r, node, head, prev)))
					break;
				if (!set_has(&r->seen, child)) {
					err = add_threads(r, child);
					if (err == &oc_enomem)
						return err;
					oc_error_destroy(err);
				} else if (link) {
					break;	/* back where the forward walk was */
				}
				prev = node;
				err = oc_mem_read_u64(&k->mem, node + link, &node);
			}
			if (!err)
				break;	/* the forward walk went all the way round */
			oc_error_destroy(err);
		}
	}
	return NULL;
}

/* A slab object's address: in the direct map, 8-byte aligned. */
static bool in_direct_map(const struct task_reader *r, uint64_t addr)
{
	return !(addr & 7) && addr >= r->dm_start && addr < r->dm_end;
}

/*
 * One entry of the PID IDR's xarray (lib/xarray.c, include/linux/
 * xarray.h): a node (an internal entry above 4096: xa_to_node() is the
 * entry less 2), whose slots are walked, or a struct pid *; NULL, a
 * value entry (low bit set) and the other internal entries (sibling,
 * retry, XA_ZERO_ENTRY: 4096 and below) hold no pid.  @depth bounds a
 * corrupt tree (a 64-bit index is 11 levels of 6 bits).  @found gets
 * each struct pid *.
 */
typedef struct oc_error *xa_found_fn(struct task_reader *r, uint64_t pid);

static struct oc_error *walk_xa(struct task_reader *r, uint64_t entry,
				unsigned int depth, xa_found_fn *found)
{
	const struct oc_kernel *k = r->k;
	const struct task_layout *l = &r->l;
	struct oc_error *err;

	if (!step(r))
		return over_budget(r);
	if (!entry || (entry & 1))
		return NULL;
	if ((entry & 3) == 2) {
		uint64_t node = entry - 2, slots[64];

		if (entry <= 4096 || depth > 11 || !in_direct_map(r, node))
			return NULL;
		err = oc_mem_read(&k->mem, node + l->xa_slots, slots,
				  l->nr_slots * 8);
		if (err) {
			r->pid_holes++;
			oc_error_destroy(err);
			return NULL;
		}
		for (size_t i = 0; i < l->nr_slots; i++) {
			err = walk_xa(r, slots[i], depth + 1, found);
			if (err)
				return err;
		}
		return NULL;
	}
	return found(r, entry);
}

/*
 * The task of the struct pid at @pid, pid_task(pid, PIDTYPE_PID):
 * tasks[0].first, a task's pid_links[0].  PID_HOLE: the pid unreadable.
 */
static enum pid_entry pid_task_of(const struct task_reader *r, uint64_t pid,
				  uint64_t *task)
{
	uint64_t first;

	if (!in_direct_map(r, pid))
		return PID_NONE;
	if (!oc_ok(oc_mem_read_u64(&r->k->mem, pid + r->l.pid_tasks, &first)))
		return PID_HOLE;
	if (!first || !in_direct_map(r, first - r->l.pid_links))
		return PID_NONE;
	*task = first - r->l.pid_links;
	return PID_TASK;
}

/* walk_pids(): a task the lists did not reach */
static struct oc_error *pid_task(struct task_reader *r, uint64_t task)
{
	size_t nr = r->nr_tasks;
	struct oc_error *err;

	if (set_has(&r->seen, task))
		return NULL;
	err = add_task(r, task);
	/* listed, not only tried (an unreadable one is counted as such) */
	r->from_pids += r->nr_tasks - nr;
	return err;
}

static struct oc_error *pid_found(struct task_reader *r, uint64_t pid)
{
	uint64_t task = 0;

	switch (pid_task_of(r, pid, &task)) {
	case PID_HOLE:
		r->pid_holes++;
		return NULL;
	case PID_TASK:
		return pid_task(r, task);
	default:
		return NULL;
	}
}

/*
 * Every task with a PID, from the PID namespace's IDR (init_pid_ns.idr,
 * an xarray of struct pid *: kernel/pid.c alloc_pid(), pid_task()), as
 * crash (refresh_xarray_task_table()) and drgn (for_each_task()) list
 * them: the tasks behind holes of the tasks list and the process tree
 * (makedumpfile 1.7.2 -d 31 drops slab pages of 6.10+ kernels,
 * docs/kernels.md) and any task the lists do not hold.  A task found
 * here alone is noted and the list marked incomplete.
 */
static struct oc_error *walk_pids(struct task_reader *r)
{
	uint64_t head;
	size_t steps = r->steps;
	struct oc_error *err;

	if (!r->l.pid_root)
		return NULL;
	if (r->pids_known) {
		/* read_ahead() walked the same tree, within the same budget */
		err = NULL;
		r->pid_holes += r->pids_holes;
		for (size_t i = 0; !err && i < r->nr_pids; i++)
			err = pid_task(r, r->pids[i]);
	} else {
		err = oc_mem_read_u64(&r->k->mem, r->l.pid_root, &head);
		if (err) {
			note(r, "PID IDR (init_pid_ns.idr) unread: tasks the lists miss are not looked for");
			oc_error_destroy(err);
			return NULL;
		}
		/* a budget of its own: the lists of a dump of more than
		 * half the budget's tasks used more than half of it already */
		r->steps = 0;
		err = walk_xa(r, head, 0, pid_found);
		r->steps = steps;
	}
	if (err == &oc_enomem)
		return err;
	if (err) {
		/* over the budget: keep what was found */
		char buf[160];

		oc_error_take(err, buf, sizeof(buf));
		note(r, "PID IDR: %s", buf);
	}
	if (r->from_pids) {
		note(r, "%zu task%s found only through the PID IDR (init_pid_ns.idr), not through the tasks list and process tree",
		     r->from_pids, r->from_pids == 1 ? "" : "s");
		r->incomplete = true;
	}
	if (r->pid_holes && r->incomplete)
		note(r, "PID IDR: %u node%s or pid%s unreadable: tasks behind them may be missing",
		     r->pid_holes, r->pid_holes == 1 ? "" : "s",
		     r->pid_holes == 1 ? "" : "s");
	return NULL;
}

/* ---- reading ahead ---------------------------------------------------- */

/*
 * A thread of the list reading's own: no signal is its but the faults it
 * takes itself (SIGBUS on a cut mapped dump: src/main.c on_sigbus());
 * SIGWINCH and SIGINT go to the UI.
 */
static int start_thread(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* read_ahead(): a struct pid of the IDR, to read */
static struct oc_error *ahead_pid(struct task_reader *r, uint64_t pid)
{
	void *grown = oc_array_grow(r->pids, r->nr_pids, 1, &r->cap_pids,
				    sizeof(*r->pids), 256);

	if (!grown)
		return &oc_enomem;
	r->pids = grown;
	r->pids[r->nr_pids++] = pid;
	return NULL;
}

/* One thread's share of r->ahead, through @reader (NULL: the caller's) */
struct ahead_part {
	const struct task_reader *r;
	const struct oc_kernel_reader *reader;
	size_t from, to;
};

static void *read_part(void *arg)
{
	const struct ahead_part *p = arg;
	const struct task_reader *r = p->r;
	uint8_t *buf = malloc(r->l.size);

	if (p->reader)
		oc_kernel_reader_use(p->reader);
	for (size_t i = p->from; buf && i < p->to; i++) {
		struct task_copy *c = &r->ahead[i];
		uint64_t addr = 0;
		enum pid_entry e;

		if (r->stop && atomic_load_explicit(r->stop, memory_order_relaxed))
			break;
		e = pid_task_of(r, r->pids[i], &addr);
		/* out of memory: left unread (TASK_NONE), the walk reads it */
		if (e == PID_TASK && read_task(r->k, &r->l, buf, addr, c))
			*c = (struct task_copy){ .addr = addr };
		c->entry = e;
	}
	if (p->reader)
		oc_kernel_reader_use(NULL);
	free(buf);
	return NULL;
}

/*
 * The task_structs of every task the PID IDR holds, read before the
 * walks by two threads (this one, and one through r->helper), so the
 * walks take them from r->ahead: they follow one pointer after the
 * other, on one core, and listing the tasks was most of a 10,000-task
 * report's time (docs/benchmarks.md).  The walks are unchanged: what
 * they find read ahead is what they would have read (read_task(), a
 * function of the dump alone), and what is not there (init_task, the
 * idle tasks, a task the IDR lacks or a hole hides) they read as
 * before.  Nothing here is noted or counted: walk_pids(), after the
 * lists, takes the IDR's tasks in its order from r->pids and says what
 * it finds.
 */
static void read_ahead(struct task_reader *r)
{
	size_t steps = r->steps, n;
	unsigned int holes = r->pid_holes;
	struct ahead_part mine, other;
	struct oc_error *err;
	pthread_t thread;
	uint64_t head;
	bool two;

	if (!r->helper || !r->l.pid_root ||
	    !oc_ok(oc_mem_read_u64(&r->k->mem, r->l.pid_root, &head)))
		return;
	r->steps = 0;
	err = walk_xa(r, head, 0, ahead_pid);
	r->steps = steps;
	n = r->nr_pids;
	if (err || !(r->ahead = calloc(n ? n : 1, sizeof(*r->ahead)))) {
		oc_error_destroy(err);
		r->pid_holes = holes;
		r->nr_pids = 0;
		return;
	}
	r->nr_ahead = n;
	/* the pids and their tasks, half each */
	mine = (struct ahead_part){ r, NULL, 0, n / 2 };
	other = (struct ahead_part){ r, r->helper, n / 2, n };
	two = oc_kernel_threads(n) > 1 &&
	      !start_thread(&thread, read_part, &other);
	read_part(&mine);
	if (two) {
		pthread_join(thread, NULL);
		/* what the second reader found missing, for
		 * oc_kmodel_explain_missing() */
		oc_kmodel_reader_add_missing(r->k, r->helper);
	} else {
		other.reader = NULL;
		read_part(&other);
	}
	/* the IDR's tasks in its order, its holes (the nodes' counted by
	 * the walk, the pids' here), for walk_pids() */
	r->nr_pids = 0;
	for (size_t i = 0; i < n; i++) {
		if (r->ahead[i].entry == PID_HOLE)
			r->pid_holes++;
		else if (r->ahead[i].entry == PID_TASK)
			r->pids[r->nr_pids++] = r->ahead[i].addr;
	}
	r->pids_holes = r->pid_holes - holes;
	r->pid_holes = holes;
	r->pids_known = !(r->stop && atomic_load(r->stop));
	qsort(r->ahead, n, sizeof(*r->ahead), copy_cmp);
	if (oc_kernel_threads_debug())
		fprintf(stderr, "orccrash: %zu pids and task_structs read ahead by %d threads\n",
			n, two ? 2 : 1);
}

/* What read_ahead() made, when the walks are done with it. */
static void ahead_free(struct task_reader *r)
{
	free(r->ahead);
	free(r->pids);
	r->ahead = NULL;
	r->pids = NULL;
	r->nr_ahead = r->nr_pids = r->cap_pids = 0;
	r->pids_known = false;
}

/*
 * The direct map, from page_offset_base (a variable since 4.8 with
 * CONFIG_RANDOMIZE_MEMORY, arch/x86/mm/kaslr.c) and its largest size,
 * 2^MAX_PHYSMEM_BITS: 64 TiB with 4-level paging, 4 PiB with 5-level
 * (arch/x86/include/asm/sparsemem.h, Documentation/arch/x86/x86_64/mm.rst).
 * Without the variable: __PAGE_OFFSET_BASE_L4 (asm/page_64_types.h), or
 * with 5-level paging _L5.
 */
static void direct_map(struct oc_kernel *k, struct task_reader *r)
{
	static const uint64_t base_l4 = 0xffff888000000000ull;
	static const uint64_t base_l5 = 0xff11000000000000ull;
	uint64_t sym = oc_kernel_symbol_addr(k, "page_offset_base"), base = 0;

	if (!sym || !oc_ok(oc_mem_read_u64(&k->mem, sym, &base)) ||
	    (base != base_l4 && base != base_l5 &&
	     (base < base_l5 || base > 0xfffffe0000000000ull)))
		base = 0;
	if (!base) {
		/* no answer from the dump: any kernel half address below the
		 * kernel image's mapping (__START_KERNEL_map) */
		r->dm_start = base_l5;
		r->dm_end = 0xffffffff80000000ull;
		return;
	}
	r->dm_start = base;
	r->dm_end = base + (base < 0xff80000000000000ull ? 1ull << 52 : 1ull << 46);
	if (r->dm_end < base)
		r->dm_end = UINT64_MAX;	/* a base near the top: no wrap */
}

static void reader_deinit(struct task_reader *r)
{
	free(r->buf);
	free(r->seen.slots);
	free(r->tasks);
	free(r->idle_ptr);
	ahead_free(r);
	oc_kernel_reader_close(r->helper);
	r->helper = NULL;
	r->buf = NULL;
	r->seen.slots = NULL;
	r->tasks = NULL;
	r->idle_ptr = NULL;
}

/*
 * @r empty again for a reading of the whole list (its layout, buffers,
 * per-CPU idle pointers and step budget kept): what a reading fills,
 * the tasks seen and the counts and notes of the ones that failed; its
 * tasks were installed.
 */
static void reader_restart(struct task_reader *r)
{
	free(r->seen.slots);
	r->seen = (struct addr_set){ 0 };
	r->bad = r->not_tasks = r->partial = r->pid_holes = 0;
	r->thread_errs = 0;
	r->from_pids = 0;
	r->nr_notes = 0;
	r->incomplete = false;
}

/* What a reading needs of the model, read in the model's own thread. */
static struct oc_error *reader_init(struct oc_kernel *k, struct task_reader *r,
				    size_t max_tasks)
{
	uint64_t init_task = oc_kernel_symbol_addr(k, "init_task"), rq_idle = 0;
	struct oc_error *err;

	*r = (struct task_reader){ .k = k, .max = max_tasks };
	if (!init_task)
		return oc_error_format(OC_ERR_LOOKUP, "no symbol init_task");
	err = read_layout(k, &r->l);
	if (err)
		return err;
	direct_map(k, r);
	r->init_task = init_task;
	r->buf = malloc(r->l.size);
	r->idle_ptr = calloc(k->nr_cpus ? k->nr_cpus : 1, sizeof(*r->idle_ptr));
	if (!r->buf || !r->idle_ptr) {
		reader_deinit(r);
		return &oc_enomem;
	}
	/* a second reader for read_ahead(), opened in the model's thread,
	 * when the kernel counts tasks enough (kernel/fork.c nr_threads)
	 * and its PID IDR can be walked */
	if (r->l.pid_root) {
		uint64_t sym = oc_kernel_symbol_addr(k, "nr_threads");
		int32_t nr = 0;

		if (sym && oc_ok(oc_mem_read(&k->mem, sym, &nr, 4)) && nr > 0 &&
		    oc_kernel_threads((size_t)nr) > 1)
			oc_error_destroy(oc_kernel_reader_open(k, &r->helper));
	}
	err = oc_kernel_offsetof(k, "struct rq", "idle", &rq_idle);
	if (err) {
		oc_error_destroy(err);
		return NULL;
	}
	for (unsigned int i = 0; i < k->nr_cpus; i++) {
		uint64_t rq = oc_kernel_percpu_addr(k, "runqueues", i);

		r->idle_ptr[i] = rq ? rq + rq_idle : 0;
	}
	return NULL;
}

/* idle tasks (rq->idle) and whatever else is current on a CPU */
static struct oc_error *read_cpu_tasks(struct task_reader *r)
{
	const struct oc_kernel *k = r->k;
	struct oc_error *err = NULL;

	for (unsigned int i = 0; i < k->nr_cpus; i++) {
		uint64_t idle = 0;

		if (r->idle_ptr[i]) {
			oc_error_destroy(oc_mem_read_u64(&k->mem, r->idle_ptr[i],
							 &idle));
			err = add_task(r, idle);
			if (err)
				break;
		}
		err = add_task(r, k->cpus[i].current);
		if (err)
			break;
	}
	return err;
}

/* The whole list: every process and thread, then the CPUs' tasks. */
static struct oc_error *read_list(struct task_reader *r)
{
	uint64_t head = r->init_task + r->l.tasks.offset;
	struct oc_error *err;

	read_ahead(r);
	/* every process, from init_task around the tasks list */
	err = walk_processes(r, head, 0);
	if (err && err != &oc_enomem) {
		/*
		 * A task_struct the dump lacks (makedumpfile excluded its page,
		 * or it is corrupt) breaks the forward walk: keep what was
		 * read, and come back from the other end through the prev
		 * pointers, so only the tasks behind the hole are lost.
		 */
		char buf[160];
		struct oc_error *back;

		oc_error_take(err, buf, sizeof(buf));
		back = walk_processes(r, head, 8);
		if (back == &oc_enomem) {
			err = back;
		} else {
			oc_error_destroy(back);
			err = NULL;
		}
		note(r, "task list incomplete: %s", buf);
		r->incomplete = true;
	}
	if (r->thread_errs > MAX_THREAD_NOTES)
		note(r, "threads of %u more process%s unread",
		     r->thread_errs - MAX_THREAD_NOTES,
		     r->thread_errs - MAX_THREAD_NOTES == 1 ? "" : "es");
	if (!err && r->incomplete)
		err = walk_children(r);
	if (!err)
		err = walk_pids(r);
	if (!err)
		err = read_cpu_tasks(r);
	ahead_free(r);
	return err;
}

/*
 * @r's tasks become the model's (the list before is freed: every
 * struct oc_task pointer into it is stale), with the CPUs' links to
 * theirs; @final: the whole list, with its warnings and flags.
 */
static void install(struct oc_kernel *k, struct task_reader *r, bool final)
{
	free(k->tasks);
	k->tasks = r->tasks;
	k->nr_tasks = r->nr_tasks;
	r->tasks = NULL;
	r->nr_tasks = r->cap = 0;
	for (unsigned int c = 0; c < k->nr_cpus; c++)
		k->cpus[c].task = NULL;
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
	if (!final)
		return;
	for (unsigned int i = 0; i < r->nr_notes; i++)
		oc_kernel_warn(k, "%s", r->notes[i]);
	if (r->incomplete)
		k->tasks_incomplete = true;
	if (r->partial)
		oc_kernel_warn(k, "%u task_structs read in part: a page of each is missing from the dump, not the members orccrash lists tasks with",
			       r->partial);
	if (r->bad) {
		oc_kernel_warn(k, "%u task_structs could not be read", r->bad);
		k->tasks_incomplete = true;
	}
	if (r->not_tasks) {
		oc_kernel_warn(k, "%u task_structs read as zeros (tasks.next and .prev NULL: a hole in the dump?) not listed",
			       r->not_tasks);
		k->tasks_incomplete = true;
	}
}

/* ---- the list read behind the open ----------------------------------- */

struct oc_task_job {
	pthread_t thread;
	struct task_reader r;
	struct oc_kernel_reader *reader;
	atomic_bool stop, done;
	struct oc_error *err;
};

static void *job_main(void *arg)
{
	struct oc_task_job *j = arg;

	oc_kernel_reader_use(j->reader);
	j->err = read_list(&j->r);
	oc_kernel_reader_use(NULL);
	atomic_store(&j->done, true);
	return NULL;
}

static void job_free(struct oc_task_job *j)
{
	reader_deinit(&j->r);
	oc_error_destroy(j->err);
	oc_kernel_reader_close(j->reader);
	free(j);
}

/*
 * A thread that reads the list from @r (its own now) through a reader
 * of its own.  false when it cannot (no second reader: the crash
 * extension's; no thread): @r is left to the caller then.
 */
static bool job_start(struct oc_kernel *k, struct task_reader *r)
{
	struct oc_task_job *j = calloc(1, sizeof(*j));
	struct oc_error *err;

	if (!j)
		return false;
	err = oc_kernel_reader_open(k, &j->reader);
	if (err) {
		oc_error_destroy(err);
		free(j);
		return false;
	}
	j->r = *r;
	j->r.stop = &j->stop;
	if (start_thread(&j->thread, job_main, j)) {
		oc_kernel_reader_close(j->reader);
		free(j);
		return false;
	}
	k->task_job = j;
	return true;
}

struct oc_error *oc_kmodel_read_tasks(struct oc_kernel *k, size_t max_tasks,
				      bool later)
{
	struct task_reader r;
	struct oc_error *err;

	err = reader_init(k, &r, max_tasks);
	if (err)
		return err;
	if (later) {
		/* the CPUs' tasks now, for the first screen; then the same
		 * reader, emptied, goes to the thread for the whole list */
		err = read_cpu_tasks(&r);
		if (err) {
			reader_deinit(&r);
			return err;
		}
		install(k, &r, false);
		reader_restart(&r);
		if (job_start(k, &r))
			return NULL;
	}
	err = read_list(&r);
	if (!err)
		install(k, &r, true);
	reader_deinit(&r);
	return err;
}

bool oc_kernel_tasks_pending(const struct oc_kernel *k)
{
	return k->task_job != NULL;
}

bool oc_kernel_tasks_sync(struct oc_kernel *k, bool wait)
{
	struct oc_task_job *j = k->task_job;

	if (!j || (!wait && !atomic_load(&j->done)))
		return false;
	pthread_join(j->thread, NULL);
	k->task_job = NULL;
	if (j->err) {
		/* the list the open would have failed on: the CPUs' tasks
		 * stay, the report says it is not the whole list */
		oc_kernel_warn_err(k, j->err, "task list unread");
		j->err = NULL;
		k->tasks_incomplete = true;
	} else {
		install(k, &j->r, true);
	}
	oc_kmodel_explain_missing(k, j->reader);
	job_free(j);
	return true;
}

void oc_kmodel_tasks_stop(struct oc_kernel *k)
{
	struct oc_task_job *j = k->task_job;

	if (!j)
		return;
	atomic_store(&j->stop, true);
	pthread_join(j->thread, NULL);
	k->task_job = NULL;
	job_free(j);
}
