// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Many tasks' traces, in order, unwound ahead by worker threads
 * (tasktraces.h).  A ring of WINDOW slots: slot i % WINDOW holds task i
 * from its claim until the caller takes it; a worker claims the next
 * task only while it is within WINDOW of the next one to be taken, so
 * memory stays flat in the task count.  The caller, while the task it
 * wants is not done, unwinds the next unclaimed one itself with the
 * model's own reader: with no workers that is the whole job.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tasktraces.h"

#define WINDOW 256

enum slot_state { SLOT_FREE, SLOT_CLAIMED, SLOT_DONE };

struct slot {
	enum slot_state state;
	struct oc_task_result r;
};

/*
 * Where a thread renders a task's part: one memory stream for all its
 * tasks, rewound for each and the part copied out (a stream opened and
 * closed per task took glibc's lock of its list of open files each time,
 * which the threads then shared: 2% of a 10,000-task report's CPU).
 */
struct sink {
	FILE *fp;
	char *buf;
	size_t len;
};

struct worker {
	struct oc_task_traces *tt;
	struct oc_kernel_reader *reader;
	struct sink sink;
	pthread_t thread;
};

struct oc_task_traces {
	const struct oc_kernel *k;
	const struct oc_task *const *tasks;
	size_t nr;
	struct oc_unwind_options opts;
	struct oc_task_render render;
	bool have_render;

	struct slot slots[WINDOW];
	size_t next_claim, next_take;
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t done;	/* a slot became SLOT_DONE */
	pthread_cond_t room;	/* a slot was taken, or stop */

	unsigned int nr_workers;
	struct worker *workers;
	struct sink sink;	/* the caller's: oc_task_traces_next() */
};

static void sink_close(struct sink *k)
{
	if (k->fp)
		fclose(k->fp);
	free(k->buf);
	memset(k, 0, sizeof(*k));
}

static void render(struct oc_task_traces *tt, size_t i, struct slot *s,
		   struct sink *k)
{
	bool made;

	s->r.ok = true;
	s->r.text = NULL;
	s->r.len = 0;
	if (!k->fp)
		k->fp = open_memstream(&k->buf, &k->len);
	if (!k->fp || fseek(k->fp, 0, SEEK_SET)) {
		/* no text: the caller says out of memory */
		oc_error_destroy(s->r.err);
		s->r.err = NULL;
		s->r.ok = false;
		return;
	}
	made = tt->render.fn(tt->render.arg, i, &s->r.trace, s->r.err, k->fp,
			     &s->r.ok);
	s->r.err = NULL;
	/* the stream's size is where this part ended (open_memstream(3)) */
	if (fflush(k->fp) || ferror(k->fp) || !made ||
	    !(s->r.text = malloc(k->len + 1))) {
		clearerr(k->fp);
		return;
	}
	memcpy(s->r.text, k->buf, k->len);
	s->r.text[k->len] = '\0';
	s->r.len = k->len;
}

static void unwind(struct oc_task_traces *tt, size_t i, struct slot *s,
		   struct sink *k)
{
	oc_trace_init(&s->r.trace);
	s->r.err = oc_kernel_unwind_task(tt->k, tt->tasks[i], &tt->opts,
					 &s->r.trace);
	if (tt->have_render && !tt->render.serial)
		render(tt, i, s, k);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct oc_task_traces *tt = w->tt;

	/* k->mem reads through this thread's own reader */
	oc_kernel_reader_use(w->reader);
	pthread_mutex_lock(&tt->lock);
	while (!tt->stop) {
		size_t i = tt->next_claim;
		struct slot *s;

		if (i >= tt->nr)
			break;
		if (i >= tt->next_take + WINDOW) {
			pthread_cond_wait(&tt->room, &tt->lock);
			continue;
		}
		tt->next_claim++;
		s = &tt->slots[i % WINDOW];
		s->state = SLOT_CLAIMED;
		pthread_mutex_unlock(&tt->lock);
		unwind(tt, i, s, &w->sink);
		pthread_mutex_lock(&tt->lock);
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&tt->done);
	}
	pthread_mutex_unlock(&tt->lock);
	sink_close(&w->sink);
	oc_kernel_reader_use(NULL);
	return NULL;
}

struct oc_error *oc_task_traces_begin(const struct oc_kernel *k,
				      const struct oc_task *const *tasks,
				      size_t nr,
				      const struct oc_unwind_options *opts,
				      const struct oc_task_render *render,
				      struct oc_task_traces **ret)
{
	struct oc_task_traces *tt = calloc(1, sizeof(*tt));
	unsigned int want = oc_kernel_threads(nr);

	if (!tt)
		return &oc_enomem;
	tt->k = k;
	tt->tasks = tasks;
	tt->nr = nr;
	if (opts)
		tt->opts = *opts;
	if (render) {
		tt->render = *render;
		tt->have_render = true;
	}
	pthread_mutex_init(&tt->lock, NULL);
	pthread_cond_init(&tt->done, NULL);
	pthread_cond_init(&tt->room, NULL);
	/* the caller is one of the threads; more workers than tasks is
	 * pointless */
	if (want > 1 && nr > 1)
		tt->workers = calloc(want - 1, sizeof(*tt->workers));
	for (unsigned int i = 0; tt->workers && i < want - 1 && i + 1 < nr; i++) {
		struct worker *w = &tt->workers[tt->nr_workers];

		/* a reader that cannot be made (the crash extension's
		 * memory, no file descriptor left): fewer workers */
		if (!oc_ok(oc_kernel_reader_open(k, &w->reader)))
			break;
		w->tt = tt;
		if (pthread_create(&w->thread, NULL, work, w)) {
			oc_kernel_reader_close(w->reader);
			w->reader = NULL;
			break;
		}
		tt->nr_workers++;
	}
	if (oc_kernel_threads_debug())
		fprintf(stderr, "orccrash: %zu tasks, %u worker threads\n", nr,
			tt->nr_workers);
	*ret = tt;
	return NULL;
}

bool oc_task_traces_next(struct oc_task_traces *tt,
			 struct oc_task_result *ret)
{
	size_t i;
	struct slot *s;

	pthread_mutex_lock(&tt->lock);
	i = tt->next_take;
	if (i >= tt->nr) {
		pthread_mutex_unlock(&tt->lock);
		return false;
	}
	s = &tt->slots[i % WINDOW];
	/*
	 * Until task i is done, do the next task nobody has (task i itself
	 * first, when the workers have not come to it), with the model's
	 * reader: the caller is one of the threads that unwind.
	 */
	while (s->state != SLOT_DONE) {
		size_t j = tt->next_claim;
		struct slot *o = &tt->slots[j % WINDOW];

		if (j >= tt->nr || j >= tt->next_take + WINDOW) {
			pthread_cond_wait(&tt->done, &tt->lock);
			continue;
		}
		tt->next_claim++;
		o->state = SLOT_CLAIMED;
		pthread_mutex_unlock(&tt->lock);
		unwind(tt, j, o, &tt->sink);
		pthread_mutex_lock(&tt->lock);
		o->state = SLOT_DONE;
	}
	*ret = s->r;
	memset(s, 0, sizeof(*s));
	tt->next_take++;
	pthread_cond_broadcast(&tt->room);
	pthread_mutex_unlock(&tt->lock);
	if (tt->have_render && tt->render.serial) {
		struct slot here = { .r = *ret };

		render(tt, i, &here, &tt->sink);
		*ret = here.r;
	}
	return true;
}

void oc_task_traces_end(struct oc_task_traces *tt)
{
	if (!tt)
		return;
	pthread_mutex_lock(&tt->lock);
	tt->stop = true;
	pthread_cond_broadcast(&tt->room);
	pthread_mutex_unlock(&tt->lock);
	for (unsigned int i = 0; i < tt->nr_workers; i++) {
		pthread_join(tt->workers[i].thread, NULL);
		oc_kernel_reader_close(tt->workers[i].reader);
	}
	free(tt->workers);
	sink_close(&tt->sink);
	/* a worker finishes the task it claimed before it sees stop */
	for (size_t i = 0; i < WINDOW; i++) {
		if (tt->slots[i].state == SLOT_DONE) {
			oc_trace_deinit(&tt->slots[i].r.trace);
			oc_error_destroy(tt->slots[i].r.err);
			free(tt->slots[i].r.text);
		}
	}
	pthread_cond_destroy(&tt->room);
	pthread_cond_destroy(&tt->done);
	pthread_mutex_destroy(&tt->lock);
	free(tt);
}
