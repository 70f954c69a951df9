// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wait chains (src/waits.c) on synthetic wait-for graphs: chains from
 * the waiters no one waits for, cycles (deadlocks) alone or at the end of
 * a chain, a task waiting for itself, the order, and the chain in words.
 */
#include "kernel.h"
#include "report.h"
#include "test.h"
#include "waits.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void check_chain(const struct oc_wait_chain *c, const size_t *idx,
			size_t nr, bool cycle, size_t cycle_from)
{
	CHECK_EQ(c->nr, nr);
	for (size_t i = 0; i < nr && i < c->nr; i++)
		CHECK_EQ(c->idx[i], idx[i]);
	CHECK_EQ(c->cycle, cycle);
	if (cycle)
		CHECK_EQ(c->cycle_from, cycle_from);
}

/* A chain oc_waits_chains() must find: its tasks, whether it ends in a
 * cycle and where that starts. */
struct want_chain {
	size_t idx[4];
	size_t nr;
	bool cycle;
	size_t cycle_from;
};

/* The chains of the wait-for graph @next are @want, in that order. */
static void check_chains(const long *next, size_t n,
			 const struct want_chain *want, size_t nr_want)
{
	struct oc_wait_chain *c;
	size_t nr;

	CHECK(!oc_waits_chains(next, n, &c, &nr));
	CHECK_EQ(nr, nr_want);
	for (size_t i = 0; i < nr && i < nr_want; i++)
		check_chain(&c[i], want[i].idx, want[i].nr, want[i].cycle,
			    want[i].cycle_from);
	oc_waits_chains_free(c, nr);
}

TEST(chain_simple)
{
	/* 0 waits for 1, which waits for 2, which waits for nothing */
	static const long next[] = { 1, 2, -1 };
	static const struct want_chain want[] = {
		{ { 0, 1, 2 }, 3, false, 0 },
	};

	check_chains(next, N(next), want, N(want));
}

TEST(chain_two_waiters_one_owner)
{
	/* 0 and 3 wait for 2; 1 waits for nothing and no one waits for it */
	static const long next[] = { 2, -1, -1, 2 };
	static const struct want_chain want[] = {
		{ { 0, 2 }, 2, false, 0 },
		{ { 3, 2 }, 2, false, 0 },
	};

	check_chains(next, N(next), want, N(want));
}

TEST(deadlock_cycle_alone)
{
	/* ABBA and a third: 1 -> 2 -> 0 -> 1, reported once from 0 */
	static const long next[] = { 1, 2, 0, -1 };
	static const struct want_chain want[] = {
		{ { 0, 1, 2 }, 3, true, 0 },
	};

	check_chains(next, N(next), want, N(want));
}

TEST(deadlock_at_the_end_of_a_chain)
{
	/* 3 waits for 0; 0 and 1 deadlock: one chain, ending in the cycle,
	 * and the cycle not again on its own */
	static const long next[] = { 1, 0, -1, 0 };
	static const struct want_chain want[] = {
		{ { 3, 0, 1 }, 3, true, 1 },
	};

	check_chains(next, N(next), want, N(want));
}

TEST(deadlock_on_itself)
{
	/* mutex_lock() of a mutex the task holds */
	static const long next[] = { -1, 1 };
	static const struct want_chain want[] = {
		{ { 1 }, 1, true, 0 },
	};

	check_chains(next, N(next), want, N(want));
}

TEST(chain_order)
{
	/* 0 -> 1 (short), 2 -> 3 -> 4 (long), 5 <-> 6 (deadlock):
	 * deadlocks first, then the longer chain */
	static const long next[] = { 1, -1, 3, 4, -1, 6, 5 };
	static const struct want_chain want[] = {
		{ { 5, 6 }, 2, true, 0 },
		{ { 2, 3, 4 }, 3, false, 0 },
		{ { 0, 1 }, 2, false, 0 },
	};

	check_chains(next, N(next), want, N(want));
}

TEST(chain_none)
{
	static const long next[] = { -1, -1, 7 };	/* 7: out of range, no edge */

	check_chains(next, N(next), NULL, 0);
	check_chains(NULL, 0, NULL, 0);
}

static struct oc_task tasks[3] = {
	{ .addr = 0x1000, .pid = 10, .comm = "a\x1b", .state = 'D', .running_on = -1 },
	{ .addr = 0x2000, .pid = 11, .comm = "b", .state = 'D', .running_on = -1 },
	{ .addr = 0x3000, .pid = 12, .comm = "c", .state = 'S', .running_on = -1 },
};

TEST(chain_words)
{
	struct oc_task_wait tw[3] = {
		{ .task = &tasks[0], .kind = OC_WAIT_MUTEX, .have_address = true,
		  .address = 0xffffffffc0001000, .symbol = "lock_a",
		  .module = "mod", .owner = &tasks[1], .have_owner = true },
		{ .task = &tasks[1], .kind = OC_WAIT_RWSEM_WRITE,
		  .have_address = true, .address = 0xffff888000001000,
		  .owner = &tasks[0], .have_owner = true },
		{ .task = &tasks[2], .sleeps_in = "pipe_read" },
	};
	struct oc_waits w = { .waits = tw, .nr = 3, .nr_blocked = 2 };
	long next[3] = { 1, 0, -1 };
	struct oc_wait_chain *c;
	size_t nr;
	char buf[512];

	for (size_t i = 0; i < 3; i++)
		tw[i].next = next[i];
	CHECK(!oc_waits_chains(next, 3, &c, &nr));
	CHECK_EQ(nr, 1);
	oc_waits_chain_string(&w, &c[0], buf, sizeof(buf));
	/* the comm's control character escaped */
	CHECK_STR(buf, "pid 10 (a\\x1b) waits for mutex lock_a [mod] held by "
		  "pid 11 (b), which waits for rwsem at 0xffff888000001000 "
		  "held by pid 10 (a\\x1b): deadlock");
	oc_waits_chains_free(c, nr);

	/* 0 waits for 2, which sleeps elsewhere */
	tw[0].owner = &tasks[2];
	tw[0].next = next[0] = 2;
	tw[1].kind = OC_WAIT_NONE;
	tw[1].next = next[1] = -1;
	CHECK(!oc_waits_chains(next, 3, &c, &nr));
	CHECK_EQ(nr, 1);
	oc_waits_chain_string(&w, &c[0], buf, sizeof(buf));
	CHECK_STR(buf, "pid 10 (a\\x1b) waits for mutex lock_a [mod] held by "
		  "pid 12 (c), which sleeps in pipe_read");
	/* cut short, still terminated */
	oc_waits_chain_string(&w, &c[0], buf, 20);
	CHECK_EQ(strlen(buf), 19);
	oc_waits_chains_free(c, nr);
}

TEST(kind_names)
{
	CHECK_STR(oc_wait_kind_name(OC_WAIT_MUTEX), "mutex");
	CHECK_STR(oc_wait_kind_name(OC_WAIT_RWSEM_READ), "rwsem-read");
	CHECK_STR(oc_wait_kind_name(OC_WAIT_RWSEM_WRITE), "rwsem-write");
	CHECK_STR(oc_wait_kind_name(OC_WAIT_COMPLETION), "completion");
	CHECK(!oc_wait_kind_name(OC_WAIT_NONE));
}

/* The DOT of a synthetic deadlock: red cycle, escaped labels. */
TEST(dot_deadlock)
{
	static struct oc_task dt[3] = {
		{ .addr = 0x1000, .pid = 20, .comm = "q\"\\", .state = 'D', .running_on = -1 },
		{ .addr = 0x2000, .pid = 21, .comm = "r", .state = 'D', .running_on = -1 },
		{ .addr = 0x3000, .pid = 22, .comm = "s", .state = 'D', .running_on = -1 },
	};
	struct oc_task_wait tw[3] = {
		{ .task = &dt[0], .kind = OC_WAIT_MUTEX, .have_address = true,
		  .address = 0xa0, .symbol = "A", .owner = &dt[1], .have_owner = true,
		  .readers = -1 },
		{ .task = &dt[1], .kind = OC_WAIT_MUTEX, .have_address = true,
		  .address = 0xb0, .symbol = "B", .owner = &dt[0], .have_owner = true,
		  .readers = -1 },
		/* waits on A too, outside the cycle */
		{ .task = &dt[2], .kind = OC_WAIT_MUTEX, .have_address = true,
		  .address = 0xa0, .symbol = "A", .owner = &dt[1], .have_owner = true,
		  .readers = -1 },
	};
	long next[3] = { 1, 0, 1 };
	struct oc_waits w = { .waits = tw, .nr = 3, .nr_blocked = 3 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	for (size_t i = 0; i < 3; i++)
		tw[i].next = next[i];
	CHECK(!oc_waits_chains(next, 3, &w.chains, &w.nr_chains));
	CHECK_EQ(w.nr_chains, 1);
	CHECK(w.chains[0].cycle);
	f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	oc_report_dot_graph(&w, "t\"itle", f);
	fclose(f);
	CHECK(strstr(buf, "digraph waits {\n") == buf);
	CHECK(strstr(buf, "label=\"t\\\"itle\";"));
	/* the comm's '"' and '\' cannot end the string */
	CHECK(strstr(buf, "t20 [shape=box, label=\"pid 20 (q\\\"\\\\) D\", color=red"));
	CHECK(strstr(buf, "t21 [shape=box, label=\"pid 21 (r) D\", color=red"));
	CHECK(strstr(buf, "t22 [shape=box, label=\"pid 22 (s) D\"];"));
	/* the cycle's edges red, the third waiter's not; each lock once */
	CHECK(strstr(buf, "t20 -> la0 [label=\"waits for\", color=red"));
	CHECK(strstr(buf, "la0 -> t21 [label=\"held by\", color=red"));
	CHECK(strstr(buf, "t21 -> lb0 [label=\"waits for\", color=red"));
	CHECK(strstr(buf, "lb0 -> t20 [label=\"held by\", color=red"));
	CHECK(strstr(buf, "t22 -> la0 [label=\"waits for\"];"));
	CHECK(!strstr(strstr(buf, "la0 [shape=ellipse") + 1, "la0 [shape=ellipse"));
	CHECK(strlen(buf) > 2 && !strcmp(buf + strlen(buf) - 2, "}\n"));
	free(buf);
	oc_waits_chains_free(w.chains, w.nr_chains);
}

/* A sparse memory of 8-byte words, for oc_waits_ring_lock(). */
struct words {
	uint64_t addr[32], val[32];
	size_t n;
};

static void put(struct words *w, uint64_t addr, uint64_t val)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->addr[i] == addr) {
			w->val[i] = val;
			return;
		}
	w->addr[w->n] = addr;
	w->val[w->n++] = val;
}

static struct oc_error *words_read(void *arg, uint64_t addr, void *buf,
				   size_t len)
{
	struct words *w = arg;

	for (size_t i = 0; len == 8 && i < w->n; i++)
		if (w->addr[i] == addr) {
			memcpy(buf, &w->val[i], 8);
			return NULL;
		}
	return oc_error_fault(addr, "no word at 0x%llx", (unsigned long long)addr);
}

/* Task 0xA000's stack is 0x10000-0x14000, 0xB000's 0x20000-0x24000. */
static bool own_stack(void *arg, uint64_t task, uint64_t addr)
{
	(void)arg;
	return (task == 0xA000 && addr >= 0x10000 && addr < 0x14000) ||
	       (task == 0xB000 && addr >= 0x20000 && addr < 0x24000);
}

/*
 * struct mutex_waiter { list_head list; task_struct *task; } on A's and
 * B's stacks, linked into the wait_list of a mutex at 0x5000 (its head at
 * +0x10): head -> A -> B -> head.
 */
static void two_waiters(struct words *w)
{
	memset(w, 0, sizeof(*w));
	put(w, 0x5010, 0x10100);	/* head.next = A */
	put(w, 0x5018, 0x20200);	/* head.prev = B */
	put(w, 0x5020, 0);		/* what follows the mutex */
	put(w, 0x100f8, 0xA000);	/* a stray copy of A's task_struct * */
	put(w, 0x10100, 0x20200);	/* A.next = B */
	put(w, 0x10108, 0x5010);	/* A.prev = head */
	put(w, 0x10110, 0xA000);	/* A.task */
	put(w, 0x20200, 0x5010);	/* B.next = head */
	put(w, 0x20208, 0x10100);	/* B.prev = A */
	put(w, 0x20210, 0xB000);	/* B.task */
}

TEST(ring_lock)
{
	static const struct oc_waiter_layout lay = { 0, 16, 16 };
	struct words w;
	struct oc_mem mem = { words_read, &w };
	uint64_t lock = 0, waiter = 0;
	char why[160];

	two_waiters(&w);
	/* each waiter finds the mutex, past the stray copy, and its waiter */
	CHECK(oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
				 own_stack, NULL, NULL, &lock, &waiter, why, sizeof(why)));
	CHECK_EQ(lock, 0x5000);
	CHECK_EQ(waiter, 0x10100);
	lock = 0;
	CHECK(oc_waits_ring_lock(&mem, &lay, 0x20200, 0x20240, 0xB000,
				 own_stack, NULL, NULL, &lock, &waiter, why, sizeof(why)));
	CHECK_EQ(lock, 0x5000);
	CHECK_EQ(waiter, 0x20200);
	/* a memo learns A's ring: B is answered from it without going
	 * round (a link broken further round no longer matters), and
	 * without the memo the same round finds the break */
	{
		struct oc_ring_memo memo = { 0 };

		two_waiters(&w);
		CHECK(oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
					 own_stack, NULL, &memo, &lock, &waiter, why,
					 sizeof(why)));
		CHECK_EQ(memo.nr, 2);	/* A's node and B's, not the head */
		put(&w, 0x10108, 0x99);	/* A.prev: broken */
		lock = waiter = 0;
		CHECK(oc_waits_ring_lock(&mem, &lay, 0x20200, 0x20240, 0xB000,
					 own_stack, NULL, &memo, &lock, &waiter, why,
					 sizeof(why)));
		CHECK_EQ(lock, 0x5000);
		CHECK_EQ(waiter, 0x20200);
		CHECK(!oc_waits_ring_lock(&mem, &lay, 0x20200, 0x20240, 0xB000,
					  own_stack, NULL, NULL, &lock, NULL, why,
					  sizeof(why)));
		CHECK(strstr(why, "broken"));
		oc_ring_memo_deinit(&memo);
		/* and a failed round: answered the same from the memo */
		two_waiters(&w);
		put(&w, 0x5018, 0x99);	/* head.prev: broken further round */
		CHECK(!oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
					  own_stack, NULL, &memo, &lock, NULL, why,
					  sizeof(why)));
		CHECK(strstr(why, "broken"));
		two_waiters(&w);
		why[0] = 0;
		CHECK(!oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
					  own_stack, NULL, &memo, &lock, NULL, why,
					  sizeof(why)));
		CHECK(strstr(why, "broken"));
		oc_ring_memo_deinit(&memo);
		CHECK(oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
					 own_stack, NULL, NULL, &lock, NULL, why,
					 sizeof(why)));
	}
	/* not on this frame */
	CHECK(!oc_waits_ring_lock(&mem, &lay, 0x10120, 0x10140, 0xA000,
				  own_stack, NULL, NULL, &lock, NULL, why, sizeof(why)));
	CHECK(strstr(why, "no waiter"));
	/* another task's waiter is not ours */
	CHECK(!oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xB000,
				  own_stack, NULL, NULL, &lock, NULL, why, sizeof(why)));
	/* a link one way only further round the ring: broken */
	put(&w, 0x5018, 0x99);
	CHECK(!oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
				  own_stack, NULL, NULL, &lock, NULL, why, sizeof(why)));
	CHECK(strstr(why, "broken"));
	/* B's waiter not on B's stack: two nodes could be the head */
	two_waiters(&w);
	put(&w, 0x20210, 0xC000);
	CHECK(!oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
				  own_stack, NULL, NULL, &lock, NULL, why, sizeof(why)));
	CHECK(strstr(why, "no one head"));
	/* a ring of waiters alone: no head at all */
	two_waiters(&w);
	put(&w, 0x10108, 0x20200);	/* A.prev = B */
	put(&w, 0x20200, 0x10100);	/* B.next = A */
	CHECK(!oc_waits_ring_lock(&mem, &lay, 0x100f0, 0x10140, 0xA000,
				  own_stack, NULL, NULL, &lock, NULL, why, sizeof(why)));
	CHECK(strstr(why, "no one head"));
	/* an swait_queue { task; list_head task_list; } on a completion
	 * whose list is at +0x10: the other layout */
	{
		static const struct oc_waiter_layout sq = { 8, 0, 16 };

		memset(&w, 0, sizeof(w));
		put(&w, 0x6010, 0x10108);	/* head.next = the waiter's list */
		put(&w, 0x6018, 0x10108);
		put(&w, 0x6000, 0);
		put(&w, 0x10100, 0xA000);	/* task */
		put(&w, 0x10108, 0x6010);	/* task_list.next = head */
		put(&w, 0x10110, 0x6010);	/* task_list.prev = head */
		lock = 0;
		CHECK(oc_waits_ring_lock(&mem, &sq, 0x10100, 0x10120, 0xA000,
					 own_stack, NULL, NULL, &lock, NULL, why, sizeof(why)));
		CHECK_EQ(lock, 0x6000);
	}
}

/* Synthetic types: struct mutex { owner @0 }, struct rw_semaphore
 * { count @0, owner @8 }. */
static struct oc_error *fake_member(void *arg, const char *type,
				    const char *path, struct oc_member *ret)
{
	(void)arg;
	memset(ret, 0, sizeof(*ret));
	ret->size = 8;
	if (!strcmp(type, "struct mutex") && !strcmp(path, "owner"))
		return NULL;
	if (!strcmp(type, "struct rw_semaphore") && !strcmp(path, "count"))
		return NULL;
	if (!strcmp(type, "struct rw_semaphore") && !strcmp(path, "owner")) {
		ret->offset = 8;
		return NULL;
	}
	return oc_error_format(OC_ERR_LOOKUP, "no %s.%s", type, path);
}

TEST(owner_rules)
{
	static const struct oc_types_ops ops = { .member = fake_member };
	struct oc_types types = { &ops, NULL, NULL };
	struct oc_task tk[2] = {
		{ .addr = 0xffff888000a00000, .pid = 30 },
		{ .addr = 0xffff888000b00000, .pid = 31 },
	};
	struct words w;
	struct oc_kernel k;
	struct oc_task_wait tw;

	memset(&k, 0, sizeof(k));
	memset(&w, 0, sizeof(w));
	k.types = &types;
	k.mem.read = words_read;
	k.mem.arg = &w;
	k.tasks = tk;
	k.nr_tasks = 2;
	memset(&tw, 0, sizeof(tw));

	/* a mutex: the task with MUTEX_FLAGS (waiters, hand-off) masked */
	tw.kind = OC_WAIT_MUTEX;
	tw.address = 0x7000;
	put(&w, 0x7000, 0xffff888000b00003);
	CHECK(!oc_waits_read_owner(&k, &tw));
	CHECK(tw.have_owner && tw.owner == &tk[1] && tw.reliable);
	CHECK_EQ(tw.owner_addr, 0xffff888000b00000);
	/* no owner: a hand-off under way, said */
	put(&w, 0x7000, 0x1);
	CHECK(!oc_waits_read_owner(&k, &tw));
	CHECK(!tw.have_owner && !tw.reliable && strstr(tw.why, "no owner"));
	/* an owner that is no task */
	put(&w, 0x7000, 0xffff888000c00001);
	CHECK(!oc_waits_read_owner(&k, &tw));
	CHECK(tw.have_owner && !tw.owner && !tw.reliable && strstr(tw.why, "no task"));
	/* an rwsem's writer: RWSEM_NONSPINNABLE masked */
	tw.kind = OC_WAIT_RWSEM_WRITE;
	tw.address = 0x8000;
	put(&w, 0x8000, 1);		/* count: RWSEM_WRITER_LOCKED */
	put(&w, 0x8008, 0xffff888000a00002);
	CHECK(!oc_waits_read_owner(&k, &tw));
	CHECK(tw.owner == &tk[0] && tw.readers == -1 && tw.reliable);
	/* held by readers: RWSEM_READER_OWNED, count >> 8 readers, no owner */
	tw.kind = OC_WAIT_RWSEM_READ;
	/* 3 readers, waiters, RWSEM_FLAG_READFAIL */
	put(&w, 0x8000, 1ULL << 63 | 3 << 8 | 2);
	put(&w, 0x8008, 0xffff888000a00001);
	CHECK(!oc_waits_read_owner(&k, &tw));
	CHECK(!tw.have_owner && tw.readers == 3 && tw.reliable);
	/* a completion has no owner */
	tw.kind = OC_WAIT_COMPLETION;
	CHECK(!oc_waits_read_owner(&k, &tw));
	CHECK(!tw.have_owner && tw.readers == -1 && tw.reliable);
	/* unreadable */
	tw.kind = OC_WAIT_MUTEX;
	tw.address = 0x9000;
	CHECK(!oc_waits_read_owner(&k, &tw));
	CHECK(!tw.have_owner && !tw.reliable && strstr(tw.why, "could not be read"));
}
