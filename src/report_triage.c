// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * orccrash --triage DUMP...: one JSON object per dump, one a line (JSON
 * Lines, docs/json.md "--triage"), in the order of the arguments.  The
 * dumps are read in parallel, one child process each, as many at a time
 * as there are online CPUs; each child writes its line into its own
 * anonymous file, which the parent copies out in argument order as soon
 * as every line before it is out.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "report.h"

/* One dump's line into @out; returns its exit code (0, 1, 3). */
static int triage_one(const char *path, const struct oc_kernel_options *ko,
		      FILE *out)
{
	struct oc_kernel *k = NULL;
	struct oc_error *err = oc_kernel_open(path, NULL, ko, &k);
	struct json_object *o;
	int rc = OC_EXIT_OK;

	if (err) {
		char msg[512];

		oc_error_take(oc_error_set_path(err, path), msg, sizeof(msg));
		o = oc_report_triage_error_json(path, msg);
		rc = OC_EXIT_ERROR;
	} else {
		o = oc_report_triage_json(k, path);
		if (k->tasks_incomplete || k->modules_incomplete ||
		    k->dump_truncated || k->release_mismatch)
			rc = OC_EXIT_UNRELIABLE;
		oc_kernel_close(k);
	}
	const char *line = o ? json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;

	if (!line) {
		/* no line: the parent says so (copy_out()) */
		json_object_put(o);
		return OC_EXIT_ERROR;
	}
	fprintf(out, "%s\n", line);
	json_object_put(o);
	return rc;
}

struct slot {
	FILE *f;
	pid_t pid;
	int rc;
	bool done;
};

/* A dump's line to @out; the error, kept in *@first unless one is
 * there, when the dump has no line (its child ran out of memory). */
static int copy_out(struct slot *s, const char *path, FILE *out,
		    struct oc_error **first)
{
	char buf[8192];
	size_t n, total = 0;

	rewind(s->f);
	while ((n = fread(buf, 1, sizeof(buf), s->f)) > 0) {
		fwrite(buf, 1, n, out);
		total += n;
	}
	fclose(s->f);
	s->f = NULL;
	if (!total && !*first)
		*first = oc_error_file(OC_ERR_OTHER, path,
				       "--triage: no line (out of memory or a write error)");
	return s->rc;
}

/* The worst exit code: 1 over 3 over 0. */
static int worse(int a, int b)
{
	if (a == OC_EXIT_ERROR || b == OC_EXIT_ERROR)
		return OC_EXIT_ERROR;
	return a ? a : b;
}

struct oc_error *oc_report_triage(char *const *paths, size_t n,
				  const struct oc_kernel_options *ko,
				  FILE *out, int *worst)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t running = 0, next = 0, printed = 0;
	struct slot *slots = calloc(n + 1, sizeof(*slots));
	struct oc_error *first = NULL;
	int rc = OC_EXIT_OK;

	*worst = OC_EXIT_ERROR;
	if (!slots)
		return &oc_enomem;
	if (ncpu < 1)
		ncpu = 1;
	fflush(out);
	while (printed < n) {
		while (next < n && running < (size_t)ncpu) {
			struct slot *s = &slots[next];

			s->f = tmpfile();
			if (!s->f) {
				if (!first)
					first = oc_error_os(errno, paths[next],
							    "--triage: a temporary file");
				rc = OC_EXIT_ERROR;
				s->done = true;
				s->rc = OC_EXIT_ERROR;
				next++;
				continue;
			}
			fflush(NULL);
			s->pid = fork();
			if (s->pid == 0) {
				int r = triage_one(paths[next], ko, s->f);

				_exit(fflush(s->f) ? OC_EXIT_ERROR : r);
			}
			if (s->pid < 0) {
				/* no child: this one in the parent */
				s->rc = triage_one(paths[next], ko, s->f);
				s->done = true;
			} else {
				running++;
			}
			next++;
		}
		/* the lines that are ready, in order */
		while (printed < n && slots[printed].done) {
			if (slots[printed].f)
				rc = worse(rc, copy_out(&slots[printed], paths[printed],
							out, &first));
			printed++;
		}
		if (printed >= n)
			break;
		if (running) {
			int status;
			pid_t pid = wait(&status);

			if (pid < 0)
				break;
			for (size_t i = 0; i < next; i++)
				if (slots[i].pid == pid && !slots[i].done) {
					slots[i].done = true;
					slots[i].rc = WIFEXITED(status) ?
						      WEXITSTATUS(status) : OC_EXIT_ERROR;
					if (!WIFEXITED(status)) {
						/* its line says so, in its place */
						char msg[64];
						struct json_object *o;

						snprintf(msg, sizeof(msg), "killed by signal %d",
							 WTERMSIG(status));
						o = oc_report_triage_error_json(paths[i], msg);
						if (o) {
							fseek(slots[i].f, 0, SEEK_SET);
							fprintf(slots[i].f, "%s\n",
								json_object_to_json_string_ext(o,
								JSON_C_TO_STRING_PLAIN |
								JSON_C_TO_STRING_NOSLASHESCAPE));
							json_object_put(o);
						}
					}
					running--;
				}
		}
	}
	for (size_t i = 0; i < n; i++)
		if (slots[i].f)
			fclose(slots[i].f);
	free(slots);
	*worst = rc;
	return first;
}
