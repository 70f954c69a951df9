/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the blocked tasks wait on, and who waits for whom (docs/triage.md,
 * "What a blocked task waits on").
 *
 * For a task in D sleeping in a mutex, an rwsem or a completion, the lock
 * is found from its trace: the lock argument among the DWARF variables
 * of the frame that sleeps on it (src/framevars.h: only values the walk
 * vouches for), and, with or without DWARF, the waiter the kernel put on
 * that frame's stack (struct mutex_waiter, rwsem_waiter, swait_queue:
 * its task pointer is the task, its list_head is linked, both ways, into
 * the lock's wait list, whose head is the one node of the ring on no
 * waiter's stack).  Then the owner from the lock itself (mutex.owner,
 * rw_semaphore.owner / count, kernel/locking/mutex.c and rwsem.c), the
 * lock's symbol when it is a global or a module's static, and the chains
 * (a waiter, the owner of its lock, what that owner waits on ...) with
 * the cycles among them: deadlocks.
 */
#ifndef OC_WAITS_H
#define OC_WAITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct oc_kernel;
struct oc_lines;
struct oc_task;

enum oc_wait_kind {
	OC_WAIT_NONE,		/* not a wait this file knows */
	OC_WAIT_MUTEX,
	OC_WAIT_RWSEM_READ,	/* down_read() */
	OC_WAIT_RWSEM_WRITE,	/* down_write() */
	OC_WAIT_COMPLETION,
	OC_WAIT_RT_MUTEX,	/* an rt_mutex (task->pi_blocked_on) */
	OC_WAIT_QUEUE,		/* a wait queue: wait_event*(), ... */
	OC_WAIT_FOLIO,		/* a folio's (page's) lock or writeback bit */
	OC_WAIT_SPINLOCK,	/* PREEMPT_RT's spinlock_t (an rt_mutex) */
};

/* "mutex", "rwsem-read", "rwsem-write", "completion", "rt_mutex",
 * "waitqueue", "folio", "spinlock"; NULL for NONE */
const char *oc_wait_kind_name(enum oc_wait_kind kind);

/* One task's wait.  Strings are owned by the entry. */
struct oc_task_wait {
	const struct oc_task *task;
	/* the first frame of its trace that is not the scheduler's
	 * (schedule(), schedule_timeout(), ...): "msleep"; "" unknown */
	char sleeps_in[96];
	enum oc_wait_kind kind;
	bool have_address;
	/* the lock (struct mutex *, ...); a folio wait's struct folio *
	 * (struct page * before 5.16) */
	uint64_t address;
	/* a folio wait: the page flag waited for, "PG_locked",
	 * "PG_writeback", "bit 5"; "" otherwise */
	char bit[24];
	/* a wait queue's or a folio wait's struct wait_queue_head */
	uint64_t queue;
	/* the lock's symbol: "orccrash_mutex", "foo+0x10" inside one; ""
	 * when no symbol has it (a lock on the heap or a stack) */
	char symbol[128];
	char module[64];	/* the symbol's module; "" for vmlinux */
	/* where the address came from: "dwarf" (the frame's variable),
	 * "waiter" (the wait list through the waiter on its stack), or
	 * "dwarf+waiter" (both, agreeing); "pi_blocked_on" (an rt_mutex's
	 * waiter); "owner" (PREEMPT_RT's writer waiting for readers: the
	 * rwsem on its stack whose rt_mutex it owns), "dwarf+owner" */
	const char *from;
	/* false when something was not derived from values the walk and
	 * the lock's own wait list vouch for; ->why says what */
	bool reliable;
	char why[192];
	/* the owner: mutex.owner or rw_semaphore.owner without its flag
	 * bits; ->owner its task (NULL if no task has that address) */
	bool have_owner;
	uint64_t owner_addr;
	const struct oc_task *owner;
	/* rwsem held by readers: how many (rw_semaphore.count, or
	 * rwbase.readers on PREEMPT_RT); else -1 */
	long readers;
	long next;		/* the entry of the owner in oc_waits, -1 */
};

/* A chain: entries of oc_waits, each waiting for the next one's lock. */
struct oc_wait_chain {
	size_t *idx;
	size_t nr;
	/* a cycle: the last one waits for idx[cycle_from] (a deadlock) */
	bool cycle;
	size_t cycle_from;
};

struct oc_waits {
	/* every task in D (and S when asked), in the kernel's task order,
	 * then the owners in another state that are in no such entry */
	struct oc_task_wait *waits;
	size_t nr;
	size_t nr_blocked;	/* the first nr_blocked: those in D (S) */
	struct oc_wait_chain *chains;	/* deadlocks first, longer first */
	size_t nr_chains;
	/* oc_waits_find()'s index: for each of the @nr_tasks tasks at
	 * @tasks (the kernel's), its entry plus one, 0 for none; NULL in a
	 * struct made by hand (then a search) */
	const struct oc_task *tasks;
	size_t nr_tasks;
	size_t *slot;
};

/*
 * Computes the waits of every task in D (unwinding each) and the chains;
 * @lines may be NULL (no DWARF).  Only allocation failure is an error.
 */
struct oc_error *oc_waits_compute(const struct oc_kernel *k,
				  struct oc_lines *lines, struct oc_waits *ret);
/*
 * The same for the tasks whose state letter is in @states ("D", "DS": a
 * mutex_lock_interruptible() waiter, a task in wait_event_interruptible()
 * are in S): oc_waits_compute() is this with "D".
 */
struct oc_error *oc_waits_compute_states(const struct oc_kernel *k,
					 struct oc_lines *lines,
					 const char *states,
					 struct oc_waits *ret);
/* @t's entry when @t is one of the tasks asked about (not only an owner),
 * or NULL; @w may be NULL. */
const struct oc_task_wait *oc_waits_blocked(const struct oc_waits *w,
					    const struct oc_task *t);
void oc_waits_deinit(struct oc_waits *w);
/* @t's entry, or NULL. */
const struct oc_task_wait *oc_waits_find(const struct oc_waits *w,
					 const struct oc_task *t);

/*
 * The pure part, for tests: the chains of a wait-for graph of @n nodes
 * where node i waits for node next[i] (-1: for nothing known).  A chain
 * starts at every waiter no one waits for and follows next[] until a node
 * that waits for nothing, or one already on the chain (a cycle); a cycle
 * no one outside it waits for is reported once, from its lowest node.
 * Sorted: cycles first, then longer chains, then by the first node.
 */
struct oc_error *oc_waits_chains(const long *next, size_t n,
				 struct oc_wait_chain **ret, size_t *nr_ret);
void oc_waits_chains_free(struct oc_wait_chain *chains, size_t nr);

/*
 * The lock of a waiter on a stack, the part of oc_waits_compute() that
 * needs no DWARF, for tests: in [@lo, @hi) the first 8-byte slot holding
 * @task at the waiter's task member (@lay->task_off) whose list_head
 * (@lay->list_off) is linked both ways; round its ring (every node linked
 * both ways), @on_own_stack(arg, waiter's task, node) tells the waiters
 * from the head, which must be the one node that is not on its task's
 * stack: the lock is the head minus @lay->head_off, the waiter (its
 * slot minus @lay->task_off) into *@waiter_ret (may be NULL).  false,
 * with *why, when there is no such slot, the ring is broken or has not
 * one head.  @memo (may be NULL) answers a waiter on a ring already gone
 * round, as it was answered then, and learns each ring gone round.
 */
struct oc_mem;
/*
 * What oc_waits_ring_lock() learned of the rings it went round: each
 * waiter's node of a ring, and its head or how it failed, so the next
 * waiter on the same ring is answered without going round it again (a
 * thousand tasks on one queue: a thousand rounds of a thousand nodes,
 * each on its own stack page, otherwise).  Zeroed to start.
 */
struct oc_ring_memo {
	/* open addressing, 0: empty slot; a head below 8: the ring failed */
	uint64_t *node, *head;
	size_t nr, cap;		/* cap a power of two, or 0 */
	uint64_t *scratch;	/* one ring's waiter nodes */
};
void oc_ring_memo_deinit(struct oc_ring_memo *m);
struct oc_waiter_layout {
	uint64_t list_off;	/* the waiter's list_head */
	uint64_t task_off;	/* the waiter's struct task_struct * */
	uint64_t head_off;	/* the wait list's head in the lock */
};
bool oc_waits_ring_lock(const struct oc_mem *mem,
			const struct oc_waiter_layout *lay, uint64_t lo,
			uint64_t hi, uint64_t task,
			bool (*on_own_stack)(void *arg, uint64_t task, uint64_t addr),
			void *arg, struct oc_ring_memo *memo, uint64_t *ret,
			uint64_t *waiter_ret, char *why, size_t wsize);

/*
 * The wait queue @t sleeps on, in whatever state: the struct
 * wait_queue_head whose list holds the wait_queue_entry (private: @t) on
 * the stack of @t's first frame that is not the scheduler's, found as
 * oc_waits_ring_lock() finds a lock.  false, with *why, when there is
 * none (or out of memory).
 */
bool oc_waits_queue_of(const struct oc_kernel *k, const struct oc_task *t,
		       uint64_t *ret, char *why, size_t wsize);

/*
 * The symbol that holds the data at @addr: "orccrash_mutex",
 * "folio_wait_table+0x1c0" inside one (its size known), its module's
 * name into @mod (may be NULL; "" for vmlinux); false for none or a
 * text symbol (a lock on the heap or a stack).
 */
bool oc_waits_data_symbol(const struct oc_kernel *k, uint64_t addr,
			  char *sym, size_t ssize, char *mod, size_t msize);

/*
 * The owner of the lock at @tw->address of kind @tw->kind, by the
 * kernel's rules (mutex.owner, rw_semaphore.owner and count), into @tw's
 * owner fields and ->readers, ->reliable, ->why: the part of
 * oc_waits_compute() after the address, for tests.  Only allocation
 * failure is an error.
 */
struct oc_error *oc_waits_read_owner(const struct oc_kernel *k,
				     struct oc_task_wait *tw);

/*
 * One chain in words, into @buf (always NUL-terminated): "pid 155
 * (orccrash_mutex) waits for mutex orccrash_mutex [orccrash_test] held
 * by pid 154 (orccrash_holder), which sleeps in msleep"; a cycle ends
 * "...held by pid 155 (orccrash_mutex): deadlock".  Comms escaped.
 */
void oc_waits_chain_string(const struct oc_waits *w,
			   const struct oc_wait_chain *c, char *buf,
			   size_t size);
/* A lock in words: "mutex orccrash_mutex [orccrash_test]", "mutex at
 * 0xffff..." without a symbol. */
void oc_waits_lock_string(const struct oc_task_wait *tw, char *buf,
			  size_t size);

#endif /* OC_WAITS_H */
