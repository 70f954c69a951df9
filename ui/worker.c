// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The browser's DWARF worker thread.  Reading the DWARF the first time
 * costs from tens of milliseconds to seconds (libdwarf sets up its CU
 * contexts on the first DIE read deep into .debug_info), so it is done
 * here, one job at a time, while the UI thread keeps drawing and reading
 * keys.  libdwarf is not thread-safe: while the worker lives, the oc_lines
 * handle is its alone but when the UI thread borrows it for a command
 * (the lines lock, held by the worker around each job).  Quitting drops
 * the queue and waits only for the lookup in progress.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker.h"

struct oc_ui_worker {
	struct oc_lines *lines;
	unsigned int test_delay_ms;
	pthread_t thread;
	/* the oc_lines handle's user: the worker around each job, the UI
	 * thread while it borrows it; taken before the model lock */
	pthread_mutex_t lines_lock;
	pthread_mutex_t model;	/* the dump's reader: see worker.h */
	bool model_wanted;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct oc_ui_job *head, *tail;		/* queued */
	struct oc_ui_job *done, *done_tail;	/* finished */
	size_t queued;
	bool running;		/* a job is out of the queue */
	bool stop;
};

/* @j at the end of the list @head..@tail (the queue, or the finished). */
static void append_job(struct oc_ui_job **head, struct oc_ui_job **tail,
		       struct oc_ui_job *j)
{
	j->next = NULL;
	if (*tail)
		(*tail)->next = j;
	else
		*head = j;
	*tail = j;
}

static void run_job(struct oc_ui_worker *w, struct oc_ui_job *j)
{
	struct oc_lines *l = w->lines;

	if (j->kind == OC_UI_JOB_VARS) {
		pthread_mutex_lock(&w->lock);
		w->model_wanted = true;
		pthread_mutex_unlock(&w->lock);
		pthread_mutex_lock(&w->model);
		pthread_mutex_lock(&w->lock);
		w->model_wanted = false;
		pthread_mutex_unlock(&w->lock);
		j->err = oc_framevars_get(j->k, l, &j->trace, j->frame, j->task,
					  &j->vars);
		pthread_mutex_unlock(&w->model);
		return;
	}
	j->nr = 0;
	if (j->module)
		j->err = oc_lines_lookup_module(l, j->module, j->symbol,
						j->offset, j->exact, j->chain,
						OC_UI_CHAIN_MAX, &j->nr);
	else
		j->err = oc_lines_lookup(l, j->addr, j->chain, OC_UI_CHAIN_MAX,
					 &j->nr);
	j->unavailable = j->module ? oc_lines_module_unavailable(l, j->module)
				   : oc_lines_unavailable(l);
}

static void *worker_main(void *arg)
{
	struct oc_ui_worker *w = arg;
	bool first = true, stop;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct oc_ui_job *j;

		while (!w->stop && !w->head)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->stop)
			break;
		j = w->head;
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		w->queued--;
		w->running = true;
		pthread_mutex_unlock(&w->lock);

		if (first && w->test_delay_ms) {
			/* the screen tests' hold-back; quitting cuts it short */
			struct timespec until;

			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_sec += w->test_delay_ms / 1000;
			until.tv_nsec += (long)(w->test_delay_ms % 1000) * 1000000;
			if (until.tv_nsec >= 1000000000) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000;
			}
			pthread_mutex_lock(&w->lock);
			while (!w->stop &&
			       pthread_cond_timedwait(&w->cond, &w->lock, &until) == 0)
				;
			pthread_mutex_unlock(&w->lock);
		}
		first = false;
		pthread_mutex_lock(&w->lock);
		stop = w->stop;
		pthread_mutex_unlock(&w->lock);
		if (!stop) {
			pthread_mutex_lock(&w->lines_lock);
			run_job(w, j);
			pthread_mutex_unlock(&w->lines_lock);
		}

		pthread_mutex_lock(&w->lock);
		w->running = false;
		append_job(&w->done, &w->done_tail, j);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct oc_error *oc_ui_worker_start(struct oc_lines *lines,
				    unsigned int test_delay_ms,
				    struct oc_ui_worker **ret)
{
	struct oc_ui_worker *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int rc;

	*ret = NULL;
	if (!w)
		return &oc_enomem;
	w->lines = lines;
	w->test_delay_ms = test_delay_ms;
	pthread_mutex_init(&w->lock, NULL);
	pthread_mutex_init(&w->lines_lock, NULL);
	pthread_mutex_init(&w->model, NULL);
	pthread_cond_init(&w->cond, NULL);
	/* the new thread inherits the mask: no signal is ever its */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&w->thread, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->model);
		pthread_mutex_destroy(&w->lines_lock);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return oc_error_os(rc, NULL, "pthread_create");
	}
	pthread_mutex_lock(&w->model);	/* the UI thread's, from now on */
	*ret = w;
	return NULL;
}

void oc_ui_worker_model_release(struct oc_ui_worker *w)
{
	if (w)
		pthread_mutex_unlock(&w->model);
}

void oc_ui_worker_model_take(struct oc_ui_worker *w)
{
	if (w)
		pthread_mutex_lock(&w->model);
}

struct oc_lines *oc_ui_worker_borrow_lines(struct oc_ui_worker *w)
{
	if (!w)
		return NULL;
	/*
	 * The worker takes the lines lock, then (a variables job) the
	 * model: the same order here, the model let go of meanwhile, or a
	 * job waiting for it would wait for us as we wait for it.
	 */
	pthread_mutex_unlock(&w->model);
	pthread_mutex_lock(&w->lines_lock);
	pthread_mutex_lock(&w->model);
	return w->lines;
}

void oc_ui_worker_return_lines(struct oc_ui_worker *w)
{
	if (w)
		pthread_mutex_unlock(&w->lines_lock);
}

/* @expr, read under @w's lock */
#define LOCKED(w, expr)                                                      \
	({                                                                   \
		__typeof__(expr) v_;                                         \
		pthread_mutex_lock(&(w)->lock);                              \
		v_ = (expr);                                                 \
		pthread_mutex_unlock(&(w)->lock);                            \
		v_;                                                          \
	})

bool oc_ui_worker_model_wanted(struct oc_ui_worker *w)
{
	return LOCKED(w, w->model_wanted);
}

void oc_ui_job_free(struct oc_ui_job *j)
{
	if (!j)
		return;
	oc_error_destroy(j->err);
	oc_framevars_free(j->vars);
	free(j);
}

void oc_ui_worker_push(struct oc_ui_worker *w, struct oc_ui_job *job,
		       bool front)
{
	pthread_mutex_lock(&w->lock);
	if (front) {
		job->next = w->head;
		w->head = job;
		if (!w->tail)
			w->tail = job;
	} else {
		append_job(&w->head, &w->tail, job);
	}
	w->queued++;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void oc_ui_worker_promote(struct oc_ui_worker *w, size_t thread)
{
	struct oc_ui_job *mine = NULL, **mine_tail = &mine;
	struct oc_ui_job **pp;

	pthread_mutex_lock(&w->lock);
	for (pp = &w->head; *pp; ) {
		struct oc_ui_job *j = *pp;

		if (j->thread != thread) {
			pp = &j->next;
			continue;
		}
		*pp = j->next;
		j->next = NULL;
		*mine_tail = j;
		mine_tail = &j->next;
	}
	if (mine) {
		*mine_tail = w->head;
		w->head = mine;
	}
	/* the tail may have moved to the front */
	w->tail = NULL;
	for (struct oc_ui_job *j = w->head; j; j = j->next)
		w->tail = j;
	pthread_mutex_unlock(&w->lock);
}

struct oc_ui_job *oc_ui_worker_done(struct oc_ui_worker *w)
{
	struct oc_ui_job *j;

	pthread_mutex_lock(&w->lock);
	j = w->done;
	w->done = w->done_tail = NULL;
	pthread_mutex_unlock(&w->lock);
	return j;
}

size_t oc_ui_worker_busy(struct oc_ui_worker *w)
{
	/* a finished job counts until it is collected: the UI thread that
	 * drew "loading" and then found nothing queued or running would
	 * otherwise wait for a key with the results left on the done list */
	return LOCKED(w, w->queued + (w->running ? 1 : 0) + (w->done ? 1 : 0));
}

size_t oc_ui_worker_queued(struct oc_ui_worker *w)
{
	return LOCKED(w, w->queued);
}

static void free_jobs(struct oc_ui_job *j)
{
	while (j) {
		struct oc_ui_job *next = j->next;

		oc_ui_job_free(j);
		j = next;
	}
}

void oc_ui_worker_stop(struct oc_ui_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	/* a variables job in progress may be waiting for the model */
	pthread_mutex_unlock(&w->model);
	pthread_join(w->thread, NULL);
	free_jobs(w->head);
	free_jobs(w->done);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->model);
	pthread_mutex_destroy(&w->lines_lock);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
