// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ui/worker.c: the browser's DWARF worker thread, with a lines handle on
 * a vmlinux that does not exist (every lookup is quick and says why
 * lines are unavailable).  The browser waits for a key without a timeout
 * once oc_ui_worker_busy() is 0, so busy must stay non-zero while a
 * finished job waits to be collected: the screen tests once hung on a
 * "variables: loading" that the worker had long finished.
 */
#include <time.h>
#include <unistd.h>

#include "worker.h"

#include "test.h"

/* A worker on lines of a vmlinux that is not there; its first job held
 * back @delay_ms (the screen tests' delay) */
static struct oc_ui_worker *start_delayed(struct oc_lines **l,
					  unsigned int delay_ms)
{
	struct oc_ui_worker *w = NULL;

	*l = NULL;
	if (oc_lines_open_cache("/nonexistent/orccrash-test/vmlinux", NULL,
				l) || !*l)
		return NULL;
	if (oc_ui_worker_start(*l, delay_ms, &w))
		return NULL;
	return w;
}

static struct oc_ui_worker *start(struct oc_lines **l)
{
	return start_delayed(l, 0);
}

/* Started (a failure if not), the model released to it as the browser
 * does once it has read the dump */
static struct oc_ui_worker *start_released(struct oc_lines **l,
					   unsigned int delay_ms)
{
	struct oc_ui_worker *w = start_delayed(l, delay_ms);

	CHECK(w);
	if (w)
		oc_ui_worker_model_release(w);
	return w;
}

static struct oc_ui_job *lines_job(size_t thread, size_t frame)
{
	struct oc_ui_job *j = calloc(1, sizeof(*j));

	if (j) {
		j->kind = OC_UI_JOB_LINES;
		j->thread = thread;
		j->frame = frame;
		j->addr = 0xffffffff81000000ull + frame;
	}
	return j;
}

static void stop(struct oc_ui_worker *w, struct oc_lines *l)
{
	oc_ui_worker_stop(w);
	oc_lines_close(l);
}

/* Finished and not collected: still busy, until oc_ui_worker_done(). */
TEST(busy_until_collected)
{
	struct oc_lines *l;
	struct oc_ui_worker *w = start_released(&l, 0);
	struct oc_ui_job *got = NULL;
	int i;

	if (!w)
		return;
	oc_ui_worker_push(w, lines_job(0, 1), false);
	/* the browser's loop: wait, ask busy, then collect */
	for (i = 0; i < 1000 && !got; i++) {
		usleep(10000);
		if (!oc_ui_worker_busy(w)) {
			FAIL_AT("busy 0 with the job not collected (try %d)", i);
			break;
		}
		got = oc_ui_worker_done(w);
	}
	CHECK(got);
	CHECK(got && got->frame == 1 && !got->next);
	/* a vmlinux that is not there: no lines, and a reason */
	CHECK(got && got->nr == 0 && got->unavailable);
	CHECK_EQ(oc_ui_worker_busy(w), 0);
	CHECK(!oc_ui_worker_done(w));
	oc_ui_job_free(got);
	oc_ui_worker_model_take(w);
	stop(w, l);
}

/* Front jobs go first, promote moves a thread's queued jobs ahead, and
 * finished jobs come back in the order done.  The first job is held back
 * (the screen tests' delay) while the others are queued behind it. */
TEST(order_front_and_promote)
{
	struct oc_lines *l;
	struct oc_ui_worker *w = start_released(&l, 500);
	struct oc_ui_job *j;
	size_t seen[8], n = 0;
	int i;

	if (!w)
		return;
	oc_ui_worker_push(w, lines_job(1, 10), false);
	for (i = 0; i < 500 && oc_ui_worker_queued(w); i++)
		usleep(1000);		/* taken, and held back */
	oc_ui_worker_push(w, lines_job(2, 20), false);
	oc_ui_worker_push(w, lines_job(1, 11), false);
	oc_ui_worker_push(w, lines_job(3, 30), true);	/* 30 20 11 */
	oc_ui_worker_promote(w, 1);			/* 11 30 20 */
	CHECK(oc_ui_worker_busy(w) == 4);
	for (i = 0; i < 1000 && n < 4; i++) {
		usleep(10000);
		for (j = oc_ui_worker_done(w); j;) {
			struct oc_ui_job *next = j->next;

			if (n < 8)
				seen[n++] = j->frame;
			oc_ui_job_free(j);
			j = next;
		}
	}
	if (CHECKED_EQ(n, 4)) {
		CHECK_EQ(seen[0], 10);
		CHECK_EQ(seen[1], 11);
		CHECK_EQ(seen[2], 30);
		CHECK_EQ(seen[3], 20);
	}
	CHECK_EQ(oc_ui_worker_busy(w), 0);
	oc_ui_worker_model_take(w);
	stop(w, l);
}

/* Stop with jobs still queued: they are dropped, nothing leaks, no hang. */
TEST(stop_with_queue)
{
	struct oc_lines *l;
	struct oc_ui_worker *w = start(&l);
	int i;

	CHECK(w);
	if (!w)
		return;
	for (i = 0; i < 50; i++)
		oc_ui_worker_push(w, lines_job(0, (size_t)i), i % 2);
	stop(w, l);
}
