// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the blocked tasks wait on, and the wait chains (src/waits.h,
 * docs/triage.md).
 *
 * The sleeping primitives this knows, each with the frame that sleeps on
 * the lock, the DWARF name of its lock argument, and the waiter it keeps
 * on that frame's stack while it sleeps (kernel 6.1 - 6.12):
 *
 *   mutex        __mutex_lock (its inlined __mutex_lock_common):
 *                struct mutex_waiter { list, task } on mutex.wait_list
 *                (kernel/locking/mutex.c)
 *   rwsem        rwsem_down_read_slowpath / rwsem_down_write_slowpath:
 *                struct rwsem_waiter { list, task } on
 *                rw_semaphore.wait_list (kernel/locking/rwsem.c)
 *   completion   __wait_for_common (its inlined do_wait_for_common):
 *                struct swait_queue { task, task_list } on
 *                completion.wait.task_list (kernel/sched/completion.c,
 *                DECLARE_SWAITQUEUE)
 *   wait queue   any other sleeping frame, the first that is not the
 *                scheduler's: struct wait_queue_entry { flags, private,
 *                func, entry } (include/linux/wait.h: ___wait_event()'s
 *                init_wait_entry(), DEFINE_WAIT, folio_wait_bit_common()'s
 *                wait_page_queue.wait) on wait_queue_head.head; no owner
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "framevars.h"
#include "kernel.h"
#include "strutil.h"
#include "triage.h"
#include "waits.h"

static const char *const kind_names[] = {
	[OC_WAIT_MUTEX] = "mutex",
	[OC_WAIT_RWSEM_READ] = "rwsem-read",
	[OC_WAIT_RWSEM_WRITE] = "rwsem-write",
	[OC_WAIT_COMPLETION] = "completion",
	[OC_WAIT_RT_MUTEX] = "rt_mutex",
	[OC_WAIT_QUEUE] = "waitqueue",
	[OC_WAIT_FOLIO] = "folio",
	[OC_WAIT_SPINLOCK] = "spinlock",
};

const char *oc_wait_kind_name(enum oc_wait_kind kind)
{
	return (size_t)kind < OC_ARRAY_LEN(kind_names) ? kind_names[kind] : NULL;
}

struct wait_rule {
	enum oc_wait_kind kind;
	const char *frames[8];	/* base names of the sleeping frame */
	const char *param;	/* its lock argument's DWARF name */
	const char *waiter, *waiter_list, *waiter_task;
	const char *lock, *lock_list;
};

static const struct wait_rule rules[] = {
	{ OC_WAIT_MUTEX, { "__mutex_lock", "__mutex_lock_slowpath",
			   "__mutex_lock_killable_slowpath",
			   "__mutex_lock_interruptible_slowpath" },
	  "lock", "struct mutex_waiter", "list", "task",
	  "struct mutex", "wait_list" },
	{ OC_WAIT_RWSEM_READ, { "rwsem_down_read_slowpath" },
	  "sem", "struct rwsem_waiter", "list", "task",
	  "struct rw_semaphore", "wait_list" },
	{ OC_WAIT_RWSEM_WRITE, { "rwsem_down_write_slowpath" },
	  "sem", "struct rwsem_waiter", "list", "task",
	  "struct rw_semaphore", "wait_list" },
	/* wait_for_completion*() when __wait_for_common() is inlined into
	 * them (6.1 rt): the same completion argument, x */
	{ OC_WAIT_COMPLETION, { "__wait_for_common", "wait_for_common",
				"wait_for_common_io", "wait_for_completion",
				"wait_for_completion_io",
				"wait_for_completion_timeout",
				"wait_for_completion_killable" },
	  "x", "struct swait_queue", "task_list", "task",
	  "struct completion", "wait.task_list" },
};

/*
 * A wait queue: no frame of its own (wait_event*() is expanded in its
 * caller), the entry on the sleeping frame's stack (task_wait()).
 */
static const struct wait_rule queue_rule = {
	OC_WAIT_QUEUE, { NULL }, NULL,
	"struct wait_queue_entry", "entry", "private",
	"struct wait_queue_head", "head",
};

/* The scheduler's own frames, passed over for "sleeps in". */
static bool sched_frame(const char *base)
{
	static const char *const prefixes[] = {
		"__schedule", "schedule", "io_schedule", "context_switch",
		"__switch_to", "preempt_schedule", "__cond_resched",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(base, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* --- the pure part: chains and cycles --- */

void oc_waits_chains_free(struct oc_wait_chain *chains, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(chains[i].idx);
	free(chains);
}

static int chain_cmp(const void *a, const void *b)
{
	const struct oc_wait_chain *x = a, *y = b;

	if (x->cycle != y->cycle)
		return x->cycle ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr > y->nr ? -1 : 1;
	return x->idx[0] < y->idx[0] ? -1 : x->idx[0] > y->idx[0];
}

/*
 * Follows next[] from @start, appending to a new chain; @pos[i] is i's
 * position on the chain being built plus one (0: not on it), cleared
 * before returning; @seen marks every node on any chain.
 */
static struct oc_error *follow(const long *next, size_t n, size_t start,
			       size_t *pos, bool *seen,
			       struct oc_wait_chain *c)
{
	size_t cur = start;

	memset(c, 0, sizeof(*c));
	c->idx = malloc(n * sizeof(*c->idx));
	if (!c->idx)
		return &oc_enomem;
	for (;;) {
		if (pos[cur]) {
			c->cycle = true;
			c->cycle_from = pos[cur] - 1;
			break;
		}
		c->idx[c->nr++] = cur;
		pos[cur] = c->nr;
		seen[cur] = true;
		if (next[cur] < 0 || (size_t)next[cur] >= n)
			break;
		cur = (size_t)next[cur];
	}
	for (size_t i = 0; i < c->nr; i++)
		pos[c->idx[i]] = 0;
	return NULL;
}

struct oc_error *oc_waits_chains(const long *next, size_t n,
				 struct oc_wait_chain **ret, size_t *nr_ret)
{
	bool *waited = calloc(n + 1, sizeof(*waited));
	bool *seen = calloc(n + 1, sizeof(*seen));
	size_t *pos = calloc(n + 1, sizeof(*pos));
	struct oc_wait_chain *chains = calloc(n + 1, sizeof(*chains));
	struct oc_error *err = NULL;
	size_t nr = 0;

	*ret = NULL;
	*nr_ret = 0;
	if (!waited || !seen || !pos || !chains) {
		err = &oc_enomem;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (next[i] >= 0 && (size_t)next[i] < n)
			waited[next[i]] = true;
	/* from every waiter no one waits for */
	for (size_t i = 0; i < n && !err; i++)
		if (next[i] >= 0 && (size_t)next[i] < n && !waited[i])
			err = follow(next, n, i, pos, seen, &chains[nr++]);
	/* what is left waits and is waited for: cycles alone, once each
	 * (from their lowest node: the loop meets it first) */
	for (size_t i = 0; i < n && !err; i++)
		if (next[i] >= 0 && (size_t)next[i] < n && !seen[i])
			err = follow(next, n, i, pos, seen, &chains[nr++]);
	if (err)
		goto out;
	qsort(chains, nr, sizeof(*chains), chain_cmp);
	*ret = chains;
	*nr_ret = nr;
	chains = NULL;
	nr = 0;
out:
	if (chains)
		oc_waits_chains_free(chains, nr);
	free(waited);
	free(seen);
	free(pos);
	return err;
}

/* --- reading the dump --- */

struct ctx {
	const struct oc_kernel *k;
	struct oc_lines *lines;
	/* the tasks by address, for the waiter's and the owner's task */
	const struct oc_task **by_addr;
	/* the rings gone round (points at memo_store) */
	struct oc_ring_memo *memo, memo_store;
};

static int task_addr_cmp(const void *a, const void *b)
{
	uint64_t x = (*(const struct oc_task *const *)a)->addr,
		 y = (*(const struct oc_task *const *)b)->addr;

	return x < y ? -1 : x > y;
}

/* @c for @k: its tasks sorted by address; false when out of memory. */
static bool ctx_init(struct ctx *c, const struct oc_kernel *k,
		     struct oc_lines *lines)
{
	c->k = k;
	c->lines = lines;
	memset(&c->memo_store, 0, sizeof(c->memo_store));
	c->memo = &c->memo_store;
	c->by_addr = malloc((k->nr_tasks + 1) * sizeof(*c->by_addr));
	if (!c->by_addr)
		return false;
	for (size_t i = 0; i < k->nr_tasks; i++)
		c->by_addr[i] = &k->tasks[i];
	qsort(c->by_addr, k->nr_tasks, sizeof(*c->by_addr), task_addr_cmp);
	return true;
}

static void ctx_deinit(struct ctx *c)
{
	free(c->by_addr);
	oc_ring_memo_deinit(&c->memo_store);
}

static const struct oc_task *task_at(const struct ctx *c, uint64_t addr)
{
	size_t lo = 0, hi = c->k->nr_tasks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->by_addr[mid]->addr == addr)
			return c->by_addr[mid];
		if (c->by_addr[mid]->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void frame_base(const struct oc_kernel *k, const struct oc_frame *f,
		       char *buf, size_t size)
{
	struct oc_sym_result s;

	buf[0] = 0;
	if (oc_kernel_symbolize_frame(k, f, &s) && s.name)
		oc_triage_base_name(s.name, buf, size);
}

/* The lock argument from the frame's DWARF variables, when vouched for. */
static bool dwarf_lock(const struct ctx *c, const struct oc_trace *tr,
		       size_t fi, const struct oc_task *t,
		       const struct wait_rule *r, uint64_t *ret)
{
	struct oc_framevars *fv = NULL;
	bool found = false;

	if (!c->lines ||
	    !oc_ok(oc_framevars_get(c->k, c->lines, tr, fi, t, &fv)) || !fv)
		return false;
	for (size_t l = 0; l < fv->nr_levels && !found; l++)
		for (size_t v = 0; v < fv->levels[l].nr_vars; v++) {
			const struct oc_framevar *var = &fv->levels[l].vars[v];

			if (var->kind != OC_FRAMEVAR_PARAM ||
			    strcmp(var->name, r->param) ||
			    var->status != OC_FRAMEVAR_VALUE || !var->has_raw ||
			    !var->raw)
				continue;
			*ret = var->raw;
			found = true;
			break;
		}
	oc_framevars_free(fv);
	return found;
}

#define RING_MAX 4096	/* nodes gone round at most */
/* the memo's answer for a ring that failed: broken, does not close
 * within RING_MAX, has not one head */
enum { RING_BROKEN = 1, RING_OPEN, RING_HEADS };

void oc_ring_memo_deinit(struct oc_ring_memo *m)
{
	free(m->node);
	free(m->head);
	free(m->scratch);
	memset(m, 0, sizeof(*m));
}

static size_t memo_slot(const struct oc_ring_memo *m, uint64_t node)
{
	size_t i = (size_t)((node >> 3) * 0x9e3779b97f4a7c15ULL) & (m->cap - 1);

	while (m->node[i] && m->node[i] != node)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static bool memo_get(const struct oc_ring_memo *m, uint64_t node, uint64_t *head)
{
	size_t i;

	if (!m || !m->cap)
		return false;
	i = memo_slot(m, node);
	if (!m->node[i])
		return false;
	*head = m->head[i];
	return true;
}

/* @node's answer into @m, which has room; kept when it has one. */
static void memo_insert(struct oc_ring_memo *m, uint64_t node, uint64_t head)
{
	size_t j = memo_slot(m, node);

	if (!m->node[j]) {
		m->node[j] = node;
		m->head[j] = head;
		m->nr++;
	}
}

/* Learns @nr waiters' nodes of a ring and its @head; out of memory: the
 * memo only learns less. */
static void memo_put(struct oc_ring_memo *m, const uint64_t *nodes, size_t nr,
		     uint64_t head)
{
	if ((m->nr + nr) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap : 64;
		struct oc_ring_memo n = { .scratch = m->scratch };

		while ((m->nr + nr) * 2 > cap)
			cap *= 2;
		n.node = calloc(cap, sizeof(*n.node));
		n.head = calloc(cap, sizeof(*n.head));
		if (!n.node || !n.head) {
			free(n.node);
			free(n.head);
			return;
		}
		n.cap = cap;
		for (size_t i = 0; i < m->cap; i++)
			if (m->node[i])
				memo_insert(&n, m->node[i], m->head[i]);
		free(m->node);
		free(m->head);
		*m = n;
	}
	for (size_t i = 0; i < nr; i++)
		memo_insert(m, nodes[i], head);
}

bool oc_waits_ring_lock(const struct oc_mem *mem,
			const struct oc_waiter_layout *lay, uint64_t lo,
			uint64_t hi, uint64_t task,
			bool (*on_own_stack)(void *arg, uint64_t task, uint64_t addr),
			void *arg, struct oc_ring_memo *memo, uint64_t *ret,
			uint64_t *waiter_ret, char *why, size_t wsize)
{
	if (memo && !memo->scratch)
		memo->scratch = malloc(RING_MAX * sizeof(*memo->scratch));
	for (uint64_t a = lo; a + 8 <= hi; a += 8) {
		uint64_t v, node, n, p, back, head = 0;
		size_t steps;
		int heads = 0;

		if (a < lay->task_off || !oc_ok(oc_mem_read_u64(mem, a, &v)) ||
		    v != task)
			continue;
		node = a - lay->task_off + lay->list_off;
		if (!oc_ok(oc_mem_read_u64(mem, node, &n)) ||
		    !oc_ok(oc_mem_read_u64(mem, node + 8, &p)) ||
		    !oc_ok(oc_mem_read_u64(mem, n + 8, &back)) || back != node ||
		    !oc_ok(oc_mem_read_u64(mem, p, &back)) || back != node)
			continue;
		/* a ring gone round before: its one head, or how it failed
		 * (RING_BROKEN...: a head is 8-byte aligned) */
		if (memo_get(memo, node, &head))
			goto answer;
		/* round the ring: every node linked both ways; the waiters
		 * are on their own tasks' stacks, the head is not */
		size_t nw = 0;

		for (steps = 0, n = node; steps < RING_MAX; steps++) {
			uint64_t next, wt;

			if (!oc_ok(oc_mem_read_u64(mem, n, &next)) ||
			    !oc_ok(oc_mem_read_u64(mem, next + 8, &back)) ||
			    back != n) {
				heads = -1;
				break;
			}
			if (!oc_ok(oc_mem_read_u64(mem, n - lay->list_off + lay->task_off, &wt)) ||
			    !on_own_stack(arg, wt, n)) {
				heads++;
				head = n;
			} else if (memo && memo->scratch) {
				memo->scratch[nw++] = n;
			}
			n = next;
			if (n == node)
				break;
		}
		if (!(heads == 1 && n == node))
			head = heads < 0 ? RING_BROKEN : n != node ? RING_OPEN : RING_HEADS;
		/* every waiter met on the way is on the same ring, and its
		 * round would end the same way */
		if (memo && memo->scratch)
			memo_put(memo, memo->scratch, nw, head);
answer:
		if (head >= 8) {
			*ret = head - lay->head_off;
			if (waiter_ret)
				*waiter_ret = a - lay->task_off;
			return true;
		}
		snprintf(why, wsize, head == RING_BROKEN ?
			 "the wait list through the waiter at 0x%" PRIx64 " is broken" :
			 head == RING_OPEN ? "the wait list through the waiter at 0x%" PRIx64 " does not close" :
			 "the wait list through the waiter at 0x%" PRIx64 " has no one head",
			 a - lay->task_off);
		return false;
	}
	snprintf(why, wsize, "no waiter of this task on the frame's stack");
	return false;
}

/* Whether @addr is on the stack of the task at @task (a waiter's node). */
static bool on_own_stack(void *arg, uint64_t task, uint64_t addr)
{
	const struct ctx *c = arg;
	const struct oc_task *t = task_at(c, task);

	return t && t->stack && addr >= t->stack &&
	       addr < t->stack + c->k->thread_size;
}

/* A frame's part of the stack: from its sp to its caller's (512 bytes
 * for the last frame or a span that makes no sense). */
static void frame_span(const struct oc_trace *tr, size_t fi, uint64_t *lo,
		       uint64_t *hi)
{
	*lo = tr->frames[fi].sp;
	*hi = fi + 1 < tr->nr ? tr->frames[fi + 1].sp : *lo + 512;
	if (*hi <= *lo || *hi - *lo > 4096)
		*hi = *lo + 512;
}

/*
 * The waiter on the sleeping frame's stack (src/waits.h
 * oc_waits_ring_lock()), from the frame's sp to its caller's.
 */
static bool waiter_lock(const struct ctx *c, const struct oc_trace *tr,
			size_t fi, const struct oc_task *t,
			const struct wait_rule *r, uint64_t *ret,
			uint64_t *waiter_ret, char *why, size_t wsize)
{
	const struct oc_kernel *k = c->k;
	struct oc_waiter_layout lay;
	uint64_t lo, hi;

	if (!k->types ||
	    !oc_ok(oc_types_offsetof(k->types, r->waiter, r->waiter_list, &lay.list_off)) ||
	    !oc_ok(oc_types_offsetof(k->types, r->waiter, r->waiter_task, &lay.task_off)) ||
	    !oc_ok(oc_types_offsetof(k->types, r->lock, r->lock_list, &lay.head_off))) {
		snprintf(why, wsize, "no layout of %s or %s", r->waiter, r->lock);
		return false;
	}
	frame_span(tr, fi, &lo, &hi);
	return oc_waits_ring_lock(&k->mem, &lay, lo, hi, t->addr, on_own_stack,
				  (void *)c, c->memo, ret, waiter_ret, why, wsize);
}


bool oc_waits_data_symbol(const struct oc_kernel *k, uint64_t addr,
			  char *sym, size_t ssize, char *mod, size_t msize)
{
	struct oc_sym_result s;

	if (!oc_kernel_symbolize_data(k, addr, &s) || !s.name)
		return false;
	if (s.offset && (!s.size || s.offset >= s.size))
		return false;
	if (s.type == 't' || s.type == 'T' || s.type == 'W' || s.type == 'w')
		return false;
	if (s.offset)
		snprintf(sym, ssize, "%s+0x%" PRIx64, s.name, s.offset);
	else
		snprintf(sym, ssize, "%s", s.name);
	if (mod)
		snprintf(mod, msize, "%s", s.module ? s.module : "");
	return true;
}

static void lock_symbol(const struct oc_kernel *k, struct oc_task_wait *tw)
{
	oc_waits_data_symbol(k, tw->address, tw->symbol, sizeof(tw->symbol),
			     tw->module, sizeof(tw->module));
}

static void add_why(struct oc_task_wait *tw, const char *s)
{
	size_t n = strlen(tw->why);

	tw->reliable = false;
	snprintf(tw->why + n, sizeof(tw->why) - n, "%s%s", n ? "; " : "", s);
}

/*
 * Where a lock of @kind keeps its struct rt_mutex_base on PREEMPT_RT
 * (include/linux/mutex.h, rwsem.h: rwbase_rt's rtmutex,
 * spinlock_types.h: spinlock_t's lock; an rt_mutex is one): true with
 * its offset in the lock, false when the kernel's types have no such
 * member (not PREEMPT_RT) or @kind has none.
 */
static bool rt_lock_offset(const struct oc_kernel *k, enum oc_wait_kind kind,
			   uint64_t *ret)
{
	const char *type, *member;

	switch (kind) {
	case OC_WAIT_MUTEX:
		type = "struct mutex";
		member = "rtmutex";
		break;
	case OC_WAIT_RWSEM_READ:
	case OC_WAIT_RWSEM_WRITE:
		type = "struct rw_semaphore";
		member = "rwbase.rtmutex";
		break;
	case OC_WAIT_SPINLOCK:
		type = "struct spinlock";
		member = "lock";
		break;
	case OC_WAIT_RT_MUTEX:
		*ret = 0;
		return k->types != NULL;
	default:
		return false;
	}
	return k->types && oc_ok(oc_types_offsetof(k->types, type, member, ret));
}

/*
 * The owner, from the lock (6.1 - 6.12): mutex.owner is the task with
 * MUTEX_FLAGS (0x07: WAITERS, HANDOFF, PICKUP) in its low bits
 * (kernel/locking/mutex.c __mutex_owner()); rw_semaphore.owner the
 * writer, or with RWSEM_READER_OWNED (bit 0) the last reader to take it,
 * with RWSEM_NONSPINNABLE (bit 1) (RWSEM_OWNER_FLAGS_MASK, rwsem.c), and
 * count's bits from RWSEM_READER_SHIFT (8) the readers, bit 63
 * (RWSEM_FLAG_READFAIL) left out.
 */
static void lock_owner(const struct ctx *c, struct oc_task_wait *tw)
{
	const struct oc_kernel *k = c->k;
	const char *type = tw->kind == OC_WAIT_MUTEX ? "struct mutex" :
			   "struct rw_semaphore";
	uint64_t off, roff, owner, count;
	char buf[96];

	if (tw->kind == OC_WAIT_QUEUE || tw->kind == OC_WAIT_FOLIO)
		return;		/* a wait queue, a page flag: no owner */
	if (tw->kind == OC_WAIT_COMPLETION || !k->types) {
		if (!k->types)
			add_why(tw, "the owner could not be read");
		return;
	}
	/*
	 * PREEMPT_RT: the rt_mutex_base inside the lock; its owner has
	 * RT_MUTEX_HAS_WAITERS (bit 0) in its low bit (kernel/locking/
	 * rtmutex.c rt_mutex_owner()).  An rwsem's writer takes that
	 * rt_mutex first and then sleeps until the readers have left
	 * (rwbase_write_lock(), kernel/locking/rwbase_rt.c): an owner that
	 * is the waiter itself means the readers hold it, rwbase.readers of
	 * them (rwbase_write_lock() took READER_BIAS off; the last reader
	 * to leave lets __rwbase_write_trylock() succeed).
	 */
	if (rt_lock_offset(k, tw->kind, &roff)) {
		uint32_t readers;

		if (!oc_ok(oc_types_offsetof(k->types, "struct rt_mutex_base", "owner", &off)) ||
		    !oc_ok(oc_mem_read_u64(&k->mem, tw->address + roff + off, &owner))) {
			add_why(tw, "the owner could not be read");
			return;
		}
		owner &= ~(uint64_t)1;
		if (tw->task && owner == tw->task->addr &&
		    (tw->kind == OC_WAIT_RWSEM_READ || tw->kind == OC_WAIT_RWSEM_WRITE)) {
			if (oc_ok(oc_types_offsetof(k->types, type, "rwbase.readers", &off)) &&
			    oc_ok(oc_mem_read_u32(&k->mem, tw->address + off, &readers)) &&
			    readers < (1u << 30))	/* below WRITER_BIAS */
				tw->readers = (long)readers;
			else
				add_why(tw, "it owns the rwsem's rt_mutex, but no readers could be read");
			return;
		}
		goto have;
	}
	if (tw->kind == OC_WAIT_SPINLOCK || tw->kind == OC_WAIT_RT_MUTEX) {
		add_why(tw, "the owner could not be read: no rt_mutex in the types");
		return;
	}
	if (!k->types || !oc_ok(oc_types_offsetof(k->types, type, "owner", &off)) ||
	    !oc_ok(oc_mem_read_u64(&k->mem, tw->address + off, &owner))) {
		add_why(tw, "the owner could not be read");
		return;
	}
	if (tw->kind == OC_WAIT_MUTEX) {
		owner &= ~(uint64_t)0x7;
	} else if (owner & 1) {
		if (oc_ok(oc_types_offsetof(k->types, type, "count", &off)) &&
		    oc_ok(oc_mem_read_u64(&k->mem, tw->address + off, &count)))
			tw->readers = (long)((count & ~(1ULL << 63)) >> 8);
		/* the last reader may have released it since: no owner */
		return;
	} else {
		owner &= ~(uint64_t)0x3;
	}
have:
	if (!owner) {
		add_why(tw, "the lock has no owner (a hand-off under way?)");
		return;
	}
	tw->have_owner = true;
	tw->owner_addr = owner;
	tw->owner = task_at(c, owner);
	if (!tw->owner) {
		snprintf(buf, sizeof(buf), "the owner 0x%" PRIx64 " is no task in the list",
			 owner);
		add_why(tw, buf);
	}
}

struct oc_error *oc_waits_read_owner(const struct oc_kernel *k,
				     struct oc_task_wait *tw)
{
	struct ctx c;

	if (!ctx_init(&c, k, NULL))
		return &oc_enomem;
	tw->reliable = true;
	tw->why[0] = 0;
	tw->have_owner = false;
	tw->owner = NULL;
	tw->readers = -1;
	lock_owner(&c, tw);
	ctx_deinit(&c);
	return NULL;
}

/*
 * A task blocked on an rt_mutex (every mutex on PREEMPT_RT, and the
 * rt_mutexes of other kernels): the kernel keeps the waiter it is
 * blocked on in task->pi_blocked_on (task_blocks_on_rt_mutex(),
 * kernel/locking/rtmutex.c), a struct rt_mutex_waiter on the task's own
 * stack whose ->lock is the struct rt_mutex_base and ->task the task.
 * The lock is the @kind (a struct mutex, rw_semaphore, spinlock_t:
 * rt_lock_offset()) around it.  True with the lock's address in *ret.
 */
static bool pi_blocked_lock(const struct ctx *c, const struct oc_task *t,
			    enum oc_wait_kind kind, uint64_t *ret, char *why,
			    size_t wsize)
{
	const struct oc_kernel *k = c->k;
	uint64_t off, waiter = 0, task_off, lock_off, wtask, lock, moff = 0;

	if (!k->types ||
	    !oc_ok(oc_types_offsetof(k->types, "struct task_struct", "pi_blocked_on", &off)) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct rt_mutex_waiter", "task", &task_off)) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct rt_mutex_waiter", "lock", &lock_off))) {
		snprintf(why, wsize, "no task_struct.pi_blocked_on in the types");
		return false;
	}
	if (!oc_ok(oc_mem_read_u64(&k->mem, t->addr + off, &waiter)) || !waiter) {
		snprintf(why, wsize, "pi_blocked_on is %s",
			 waiter ? "unreadable" : "NULL");
		return false;
	}
	if (!on_own_stack((void *)c, t->addr, waiter) ||
	    !oc_ok(oc_mem_read_u64(&k->mem, waiter + task_off, &wtask)) ||
	    wtask != t->addr ||
	    !oc_ok(oc_mem_read_u64(&k->mem, waiter + lock_off, &lock)) || !lock) {
		snprintf(why, wsize, "pi_blocked_on 0x%" PRIx64
			 " is not a waiter of this task on its stack", waiter);
		return false;
	}
	if (!rt_lock_offset(k, kind, &moff)) {
		snprintf(why, wsize, "an rt_mutex of a %s, but the types have no rt_mutex in one",
			 oc_wait_kind_name(kind));
		return false;
	}
	*ret = lock - moff;
	return true;
}

/*
 * The kind of lock whose rt_mutex a task blocked in, from the first frame
 * past the rt_mutex's own (and rwbase_rt's, kernel/locking/rwbase_rt.c):
 * mutex_lock*() (PREEMPT_RT's mutex, kernel/locking/rtmutex_api.c),
 * rt_spin_lock*() (spinlock_t, spinlock_rt.c), down_read*() and
 * down_write*() (rwsem, rwsem.c), or, past rwbase_rt's frames (@rwbase:
 * the rwsem kind of the last one), any caller but rt_read_lock() and
 * rt_write_lock() (an rwlock_t's, spinlock_rt.c): down_read() and
 * down_write() tail-call them (6.1 rt); any other caller: an rt_mutex.
 */
static enum oc_wait_kind rt_caller_kind(const char *base,
					enum oc_wait_kind rwbase)
{
	if (!strncmp(base, "mutex_lock", 10) || !strncmp(base, "__mutex_lock", 12))
		return OC_WAIT_MUTEX;
	if (!strncmp(base, "rt_spin_lock", 12))
		return OC_WAIT_SPINLOCK;
	if (!strncmp(base, "down_read", 9))
		return OC_WAIT_RWSEM_READ;
	if (!strncmp(base, "down_write", 10))
		return OC_WAIT_RWSEM_WRITE;
	if (!strncmp(base, "rt_read_lock", 12) || !strncmp(base, "rt_write_lock", 13))
		return OC_WAIT_RT_MUTEX;
	return rwbase != OC_WAIT_NONE ? rwbase : OC_WAIT_RT_MUTEX;
}

static bool rwbase_frame(const char *base)
{
	return !strncmp(base, "rwbase_", 7) || !strncmp(base, "__rwbase_", 9);
}

/* The first frame from @fi on that the walk did not find by scanning. */
static size_t next_frame(const struct oc_trace *tr, size_t fi)
{
	while (fi < tr->nr && tr->frames[fi].scanned)
		fi++;
	return fi;
}

/* oc_task_wait.from for the other way alone, the DWARF alone, both */
static const char *const from_waiter[3] = { "waiter", "dwarf", "dwarf+waiter" };
static const char *const from_owner[3] = { "owner", "dwarf", "dwarf+owner" };

/*
 * The lock's address into @tw, with its symbol and owner: from the
 * frame's DWARF argument @param (@have_dw: @dw) and from the dump's own
 * structures (@have_other: @other, @other_name: the wait list, the
 * rt_mutex the task owns), the DWARF's when both, which must agree or
 * the entry is unreliable; @from names the three cases; neither: @none
 * says why.
 */
static void settle_lock(const struct ctx *c, struct oc_task_wait *tw,
			const char *param, bool have_dw, uint64_t dw,
			bool have_other, uint64_t other, const char *other_name,
			const char *const from[3], const char *none)
{
	if (have_dw && have_other && dw != other) {
		char b[192];

		snprintf(b, sizeof(b), "the DWARF's %s 0x%" PRIx64 " is not %s 0x%" PRIx64,
			 param, dw, other_name, other);
		add_why(tw, b);
	}
	if (!have_dw && !have_other) {
		add_why(tw, none);
		return;
	}
	tw->have_address = true;
	tw->address = have_dw ? dw : other;
	tw->from = have_dw && have_other ? from[2] : have_dw ? from[1] : from[0];
	lock_symbol(c->k, tw);
	lock_owner(c, tw);
}

/*
 * PREEMPT_RT's rwsem writer waiting for its readers: rwbase_write_lock()
 * (kernel/locking/rwbase_rt.c) took the rwsem's rt_mutex, then sleeps
 * until rwbase.readers drops to 0, with no waiter of it anywhere.  The
 * rwsem is the frame's rwb argument (the DWARF; rwbase is its
 * rw_semaphore's first member), and the rw_semaphore a word of the stack
 * points to, from the task's sp to the next frame's caller, whose rt_mutex
 * this task owns while readers hold it (1 .. WRITER_BIAS - 1 of them):
 * both when both, agreeing.  @fi is rwbase_write_lock's frame.
 */
static void rt_writer_wait(const struct ctx *c, const struct oc_trace *tr,
			   size_t fi, const struct oc_task *t,
			   struct oc_task_wait *tw)
{
	static const struct wait_rule rwb_rule = {
		.kind = OC_WAIT_RWSEM_WRITE, .frames = { "rwbase_write_lock" },
		.param = "rwb",
	};
	const struct oc_kernel *k = c->k;
	uint64_t roff, ooff, boff, rdoff, dw = 0, found = 0, lo, hi, dummy;
	size_t j = next_frame(tr, fi + 1), words = 0;
	bool have_dw, many = false;
	char base[96];

	/* an rwlock_t's writer comes from rt_write_lock() (spinlock_rt.c);
	 * down_write() may have tail-called it (6.1 rt): its caller is next */
	if (j >= tr->nr)
		return;
	frame_base(k, &tr->frames[j], base, sizeof(base));
	if (!strncmp(base, "rt_write_lock", 13))
		return;
	tw->kind = OC_WAIT_RWSEM_WRITE;
	if (!rt_lock_offset(k, tw->kind, &roff) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct rt_mutex_base", "owner", &ooff)) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct rw_semaphore", "rwbase", &boff)) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct rw_semaphore", "rwbase.readers", &rdoff))) {
		add_why(tw, "no PREEMPT_RT rw_semaphore in the types");
		return;
	}
	have_dw = dwarf_lock(c, tr, fi, t, &rwb_rule, &dw);
	if (have_dw)
		dw -= boff;
	lo = tr->frames[0].sp;
	frame_span(tr, j, &dummy, &hi);
	for (uint64_t a = lo; a + 8 <= hi && words < 512; a += 8, words++) {
		uint64_t v, owner;
		uint32_t readers;

		if (!oc_ok(oc_mem_read_u64(&k->mem, a, &v)) || v == found ||
		    v < 0xffff800000000000ULL ||
		    !oc_ok(oc_mem_read_u64(&k->mem, v + roff + ooff, &owner)) ||
		    (owner & ~(uint64_t)1) != t->addr ||
		    !oc_ok(oc_mem_read_u32(&k->mem, v + rdoff, &readers)) ||
		    !readers || readers >= (1u << 30))
			continue;
		if (found)
			many = true;
		found = v;
	}
	if (many)
		found = 0;
	settle_lock(c, tw, "rwb's rwsem", have_dw, dw, found != 0, found,
		    "the one whose rt_mutex it owns,", from_owner,
		    many ? "more than one rwsem on its stack whose rt_mutex it owns" :
		    "no rwsem on its stack whose rt_mutex it owns");
}

/*
 * A wait on a folio's flag (folio_wait_bit_common(), mm/filemap.c; the
 * page's before 5.16): the wait_queue_entry is the `wait` of a struct
 * wait_page_queue, marked by its func, wake_page_function; its folio
 * (page) and bit_nr say which folio and which flag (PG_locked:
 * folio_lock(), PG_writeback: folio_wait_writeback()).  A page flag has
 * no owner.  Leaves @tw a wait queue's when @entry is no such entry.
 */
static void folio_wait(const struct ctx *c, uint64_t entry,
		       struct oc_task_wait *tw)
{
	const struct oc_kernel *k = c->k;
	uint64_t func_off, wait_off, folio_off, bit_off, func, wake, folio, q;
	uint32_t bit;
	int64_t v;

	if (!k->types || !(wake = oc_kernel_symbol_addr(k, "wake_page_function")) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct wait_queue_entry", "func", &func_off)) ||
	    !oc_ok(oc_mem_read_u64(&k->mem, entry + func_off, &func)) || func != wake)
		return;
	if (!oc_ok(oc_types_offsetof(k->types, "struct wait_page_queue", "wait", &wait_off)) ||
	    !oc_ok(oc_types_offsetof(k->types, "struct wait_page_queue", "bit_nr", &bit_off)) ||
	    (!oc_ok(oc_types_offsetof(k->types, "struct wait_page_queue", "folio", &folio_off)) &&
	     !oc_ok(oc_types_offsetof(k->types, "struct wait_page_queue", "page", &folio_off)))) {
		add_why(tw, "a page wait, but no struct wait_page_queue in the types");
		return;
	}
	q = entry - wait_off;
	if (!oc_ok(oc_mem_read_u64(&k->mem, q + folio_off, &folio)) || !folio ||
	    !oc_ok(oc_mem_read_u32(&k->mem, q + bit_off, &bit))) {
		add_why(tw, "its wait_page_queue could not be read");
		return;
	}
	tw->kind = OC_WAIT_FOLIO;
	tw->address = folio;
	tw->symbol[0] = tw->module[0] = 0;
	if (oc_ok(oc_types_enum_value(k->types, "PG_locked", &v)) && v == bit)
		snprintf(tw->bit, sizeof(tw->bit), "PG_locked");
	else if (oc_ok(oc_types_enum_value(k->types, "PG_writeback", &v)) && v == bit)
		snprintf(tw->bit, sizeof(tw->bit), "PG_writeback");
	else
		snprintf(tw->bit, sizeof(tw->bit), "bit %" PRIu32, bit);
}

static bool rt_mutex_frame(const char *base)
{
	return !strncmp(base, "rt_mutex_slowlock", 17) ||
	       !strncmp(base, "__rt_mutex_slowlock", 19) ||
	       !strncmp(base, "rtlock_slowlock", 15);
}

static struct oc_error *task_wait(const struct ctx *c, const struct oc_task *t,
				  struct oc_task_wait *tw)
{
	struct oc_unwind_options uo = { 0 };
	struct oc_trace tr;
	struct oc_error *err;

	memset(tw, 0, sizeof(*tw));
	tw->task = t;
	tw->readers = -1;
	tw->next = -1;
	tw->reliable = true;
	oc_trace_init(&tr);
	err = oc_kernel_unwind_task(c->k, t, &uo, &tr);
	if (err) {
		if (err == &oc_enomem)
			return err;
		oc_error_destroy(err);
		oc_trace_deinit(&tr);
		return NULL;
	}
	bool rt = false;
	enum oc_wait_kind rwbase = OC_WAIT_NONE;
	size_t sleep_fi = SIZE_MAX;

	for (size_t i = 0; i < tr.nr; i++) {
		const struct wait_rule *r = NULL;
		char base[96];

		if (tr.frames[i].scanned)
			continue;
		frame_base(c->k, &tr.frames[i], base, sizeof(base));
		if (!tw->sleeps_in[0] && base[0] && !sched_frame(base)) {
			snprintf(tw->sleeps_in, sizeof(tw->sleeps_in), "%s", base);
			sleep_fi = i;
		}
		if (rt_mutex_frame(base)) {
			rt = true;
			continue;
		}
		if (rt && rwbase_frame(base)) {
			rwbase = strstr(base, "rwbase_read") ? OC_WAIT_RWSEM_READ :
				 OC_WAIT_RWSEM_WRITE;
			continue;
		}
		if (rt) {
			/* the first frame past the rt_mutex's: who took it */
			uint64_t lock;
			char why[160] = "";

			tw->kind = rt_caller_kind(base, rwbase);
			if (pi_blocked_lock(c, t, tw->kind, &lock, why, sizeof(why))) {
				tw->have_address = true;
				tw->address = lock;
				tw->from = "pi_blocked_on";
				lock_symbol(c->k, tw);
				lock_owner(c, tw);
			} else {
				add_why(tw, why);
			}
			break;
		}
		if (!strcmp(base, "rwbase_write_lock")) {
			rt_writer_wait(c, &tr, i, t, tw);
			break;
		}
		for (size_t j = 0; j < sizeof(rules) / sizeof(rules[0]) && !r; j++)
			for (size_t f = 0; f < 8 && rules[j].frames[f]; f++)
				if (!strcmp(base, rules[j].frames[f]))
					r = &rules[j];
		if (!r)
			continue;
		uint64_t dw = 0, wl = 0;
		char why[160] = "";
		bool have_dw = dwarf_lock(c, &tr, i, t, r, &dw);
		bool have_wl = waiter_lock(c, &tr, i, t, r, &wl, NULL, why, sizeof(why));

		tw->kind = r->kind;
		settle_lock(c, tw, r->param, have_dw, dw, have_wl, wl,
			    "the wait list's", from_waiter, why);
		break;
	}
	if (tw->kind == OC_WAIT_NONE && sleep_fi != SIZE_MAX) {
		uint64_t head, entry = 0;
		char why[160];

		/* the sleeping frame's, or its caller's when the entry is
		 * the caller's (do_wait()'s wo->child_wait lives in
		 * kernel_wait4()'s frame, kernel/exit.c) */
		if (waiter_lock(c, &tr, sleep_fi, t, &queue_rule, &head, &entry,
				why, sizeof(why)) ||
		    (sleep_fi + 1 < tr.nr && !tr.frames[sleep_fi].regs_kind &&
		     !tr.frames[sleep_fi + 1].regs_kind &&
		     waiter_lock(c, &tr, sleep_fi + 1, t, &queue_rule, &head, &entry,
				 why, sizeof(why)))) {
			tw->kind = OC_WAIT_QUEUE;
			tw->have_address = true;
			tw->address = head;
			tw->queue = head;
			tw->from = "waiter";
			lock_symbol(c->k, tw);
			folio_wait(c, entry, tw);
		}
	}
	if (!tr.reliable)
		add_why(tw, "the trace is unreliable");
	oc_trace_deinit(&tr);
	return NULL;
}

bool oc_waits_queue_of(const struct oc_kernel *k, const struct oc_task *t,
		       uint64_t *ret, char *why, size_t wsize)
{
	struct oc_task_wait tw;
	struct ctx c;
	bool found;

	if (!ctx_init(&c, k, NULL)) {
		snprintf(why, wsize, "out of memory");
		return false;
	}
	if (task_wait(&c, t, &tw)) {
		snprintf(why, wsize, "out of memory");
		found = false;
	} else if (tw.kind != OC_WAIT_QUEUE && tw.kind != OC_WAIT_FOLIO) {
		snprintf(why, wsize, "%s", tw.kind != OC_WAIT_NONE ?
			 "it waits on a lock, not a wait queue" :
			 tw.sleeps_in[0] ? "no wait queue entry of it on its sleeping frame's stack" :
			 "no sleeping frame");
		found = false;
	} else {
		*ret = tw.queue;
		found = true;
	}
	ctx_deinit(&c);
	return found;
}

/* @t's entry in @w, -1 for none: through the index when @t is one of
 * its tasks (every task the kernel lists), else a search. */
static long entry_of(const struct oc_waits *w, const struct oc_task *t)
{
	if (w->slot && t >= w->tasks && t < w->tasks + w->nr_tasks)
		return (long)w->slot[t - w->tasks] - 1;
	for (size_t i = 0; i < w->nr; i++)
		if (w->waits[i].task == t)
			return (long)i;
	return -1;
}

const struct oc_task_wait *oc_waits_find(const struct oc_waits *w,
					 const struct oc_task *t)
{
	long i = entry_of(w, t);

	return i < 0 ? NULL : &w->waits[i];
}

void oc_waits_deinit(struct oc_waits *w)
{
	oc_waits_chains_free(w->chains, w->nr_chains);
	free(w->waits);
	free(w->slot);
	memset(w, 0, sizeof(*w));
}

const struct oc_task_wait *oc_waits_blocked(const struct oc_waits *w,
					    const struct oc_task *t)
{
	long i = w ? entry_of(w, t) : -1;

	return i >= 0 && (size_t)i < w->nr_blocked ? &w->waits[i] : NULL;
}

/* Adds @t's wait to @w (room for it made by the caller), indexed. */
static struct oc_error *add_wait(const struct ctx *c, struct oc_waits *w,
				 const struct oc_task *t)
{
	if (t >= w->tasks && t < w->tasks + w->nr_tasks)
		w->slot[t - w->tasks] = w->nr + 1;
	return task_wait(c, t, &w->waits[w->nr++]);
}

struct oc_error *oc_waits_compute(const struct oc_kernel *k,
				  struct oc_lines *lines, struct oc_waits *ret)
{
	return oc_waits_compute_states(k, lines, "D", ret);
}

struct oc_error *oc_waits_compute_states(const struct oc_kernel *k,
					 struct oc_lines *lines,
					 const char *states,
					 struct oc_waits *ret)
{
	struct oc_error *err = NULL;
	size_t cap = 0;
	long *next = NULL;
	struct ctx c;

	memset(ret, 0, sizeof(*ret));
	if (!ctx_init(&c, k, lines))
		return &oc_enomem;
	for (size_t i = 0; i < k->nr_tasks; i++)
		cap += k->tasks[i].state && strchr(states, k->tasks[i].state);
	/* each task asked about, and at most one owner each */
	cap = 2 * cap + 1;
	ret->waits = calloc(cap, sizeof(*ret->waits));
	ret->tasks = k->tasks;
	ret->nr_tasks = k->nr_tasks;
	ret->slot = calloc(k->nr_tasks + 1, sizeof(*ret->slot));
	if (!ret->waits || !ret->slot) {
		err = &oc_enomem;
		goto out;
	}
	for (size_t i = 0; i < k->nr_tasks && !err; i++)
		if (k->tasks[i].state && strchr(states, k->tasks[i].state))
			err = add_wait(&c, ret, &k->tasks[i]);
	ret->nr_blocked = ret->nr;
	/* the other owners: what they do (their own wait, if any) */
	for (size_t i = 0; i < ret->nr_blocked && !err; i++) {
		const struct oc_task *o = ret->waits[i].owner;

		if (o && !oc_waits_find(ret, o))
			err = add_wait(&c, ret, o);
	}
	if (err)
		goto out;
	next = malloc((ret->nr + 1) * sizeof(*next));
	if (!next) {
		err = &oc_enomem;
		goto out;
	}
	for (size_t i = 0; i < ret->nr; i++) {
		const struct oc_task *o = ret->waits[i].owner;

		next[i] = o ? entry_of(ret, o) : -1;
		ret->waits[i].next = next[i];
	}
	err = oc_waits_chains(next, ret->nr, &ret->chains, &ret->nr_chains);
out:
	free(next);
	ctx_deinit(&c);
	if (err)
		oc_waits_deinit(ret);
	return err;
}

/* --- words --- */

void oc_waits_lock_string(const struct oc_task_wait *tw, char *buf,
			  size_t size)
{
	const char *kind = tw->kind == OC_WAIT_RWSEM_READ ||
			   tw->kind == OC_WAIT_RWSEM_WRITE ? "rwsem" :
			   oc_wait_kind_name(tw->kind);

	if (!kind)
		snprintf(buf, size, "nothing known");
	else if (tw->kind == OC_WAIT_FOLIO)
		snprintf(buf, size, "folio 0x%" PRIx64 " (%s)", tw->address, tw->bit);
	else if (tw->symbol[0] && tw->module[0])
		snprintf(buf, size, "%s %s [%s]", kind, tw->symbol, tw->module);
	else if (tw->symbol[0])
		snprintf(buf, size, "%s %s", kind, tw->symbol);
	else if (tw->have_address)
		snprintf(buf, size, "%s at 0x%" PRIx64, kind, tw->address);
	else
		snprintf(buf, size, "a %s", kind);
}

static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

void oc_waits_chain_string(const struct oc_waits *w,
			   const struct oc_wait_chain *c, char *buf,
			   size_t size)
{
	size_t len = 0;

	if (!size)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < c->nr; i++) {
		const struct oc_task_wait *tw = &w->waits[c->idx[i]];
		char comm[64], lock[256];

		oc_esc(comm, sizeof(comm), tw->task->comm, 0);
		if (i == 0)
			append(buf, size, &len, "pid %d (%s)", tw->task->pid, comm);
		if (tw->next < 0) {
			if (tw->kind == OC_WAIT_QUEUE || tw->kind == OC_WAIT_FOLIO) {
				oc_waits_lock_string(tw, lock, sizeof(lock));
				append(buf, size, &len, ", which waits on %s", lock);
			} else if (tw->readers > 0 && !tw->have_owner) {
				oc_waits_lock_string(tw, lock, sizeof(lock));
				append(buf, size, &len, ", which waits for %s held by %ld reader%s",
				       lock, tw->readers, tw->readers == 1 ? "" : "s");
			} else if (tw->task->running_on >= 0)
				append(buf, size, &len, ", which is running on CPU %d",
				       tw->task->running_on);
			else if (tw->sleeps_in[0])
				append(buf, size, &len, ", which %s in %s",
				       tw->task->state == 'D' || tw->task->state == 'S' ?
				       "sleeps" : "is", tw->sleeps_in);
			break;
		}
		oc_waits_lock_string(tw, lock, sizeof(lock));
		const struct oc_task *o = tw->owner;

		oc_esc(comm, sizeof(comm), o->comm, 0);
		append(buf, size, &len, "%s waits for %s held by pid %d (%s)",
		       i ? ", which" : "", lock, o->pid, comm);
		if (i + 1 == c->nr && c->cycle) {
			append(buf, size, &len, ": deadlock");
			break;
		}
	}
}
