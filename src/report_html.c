// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --html FILE: one self-contained page to attach to a bug report
 * (docs/html.md): the crash summary, the panic CPU's trace with its
 * registers and source lines, the wait chains with their graph, an
 * icicle of every task's stack and the log's tail.
 *
 * The parts are the text report's own renderers (the header, the CPUs
 * part, the chains) and --folded's stacks, so the page says what the
 * reports say.  Self-contained: the styles and the few lines of script
 * are inline, the graph is Graphviz's SVG inline (when `dot` is
 * installed: orccrash runs without it, the page then holds the DOT
 * source), and a Content-Security-Policy of default-src 'none' keeps
 * the browser from fetching anything, whatever the page holds.
 *
 * Escaping: every dump string reaches the page through the report's
 * sanitiser (oc_esc: no control bytes, valid UTF-8) and then
 * html_text() (&, <, >, ", ' as entities), in text and attributes alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "array.h"
#include "dump.h"
#include "report.h"
#include "strutil.h"
#include "triage.h"
#include "waits.h"

extern char **environ;

/* The graph is drawn up to this many tasks waiting; dot is slow beyond. */
enum { HTML_GRAPH_MAX_WAITERS = 400, HTML_LOG_TAIL = 120 };

/* Text of the report (already sanitised) or of the dump (sanitised
 * here) as HTML text or the inside of a quoted attribute. */
static void html_text(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* the sanitiser left none; a last guard */
			if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
				fputc('?', out);
			else
				fputc(c, out);
		}
	}
}

static void html_dump_str(FILE *out, const char *s)
{
	char e[1024];

	oc_esc(e, sizeof(e), s, 0);
	html_text(out, e, strlen(e));
}

/* What a renderer wrote into memory, as a <pre> (or @fallback). */
struct mbuf {
	char *s;
	size_t len;
	FILE *f;
};

static FILE *mbuf_open(struct mbuf *m)
{
	m->s = NULL;
	m->len = 0;
	m->f = open_memstream(&m->s, &m->len);
	return m->f;
}

/* Closes the stream; false when it failed (out of memory). */
static bool mbuf_close(struct mbuf *m)
{
	bool ok = m->f && !ferror(m->f);

	if (m->f && fclose(m->f))
		ok = false;
	m->f = NULL;
	return ok && m->s;
}

static void mbuf_pre(FILE *out, const char *id, struct mbuf *m)
{
	fprintf(out, "<pre id=\"%s\">", id);
	html_text(out, m->s, m->len);
	fputs("</pre>\n", out);
}

/* ---- the icicle: a prefix tree of the folded stacks ---- */

struct fnode {
	char *name;		/* a frame of the folded line, NUL-terminated */
	size_t count;		/* tasks through it */
	struct fnode *child, *next;	/* children in first-seen order */
};

static struct fnode *fnode_child(struct fnode *p, char *name)
{
	struct fnode **pp = &p->child;

	for (; *pp; pp = &(*pp)->next)
		if (!strcmp((*pp)->name, name))
			return *pp;
	*pp = calloc(1, sizeof(**pp));
	if (*pp)
		(*pp)->name = name;
	return *pp;
}

static void fnode_free(struct fnode *n)
{
	while (n) {
		struct fnode *next = n->next;

		fnode_free(n->child);
		free(n);
		n = next;
	}
}

/* Children by name, so the same dump draws the same picture. */
static int cmp_fnode(const void *a, const void *b)
{
	return strcmp((*(struct fnode *const *)a)->name,
		      (*(struct fnode *const *)b)->name);
}

static bool fnode_sort(struct fnode *p)
{
	size_t n = 0, i = 0;
	struct fnode **v;

	for (struct fnode *c = p->child; c; c = c->next)
		n++;
	if (n < 2)
		return !p->child || fnode_sort(p->child);
	v = malloc(n * sizeof(*v));
	if (!v)
		return false;
	for (struct fnode *c = p->child; c; c = c->next)
		v[i++] = c;
	qsort(v, n, sizeof(*v), cmp_fnode);
	for (i = 0; i < n; i++)
		v[i]->next = i + 1 < n ? v[i + 1] : NULL;
	p->child = v[0];
	free(v);
	for (struct fnode *c = p->child; c; c = c->next)
		if (!fnode_sort(c))
			return false;
	return true;
}

static size_t fnode_depth(const struct fnode *n)
{
	size_t d = 0;

	for (const struct fnode *c = n->child; c; c = c->next) {
		size_t cd = fnode_depth(c);

		if (cd > d)
			d = cd;
	}
	return d + 1;
}

enum { FLAME_W = 1200, FLAME_ROW = 17 };
#define FLAME_CHAR_W 6.6	/* 11px monospace */

/* A colour from the frame's kind and name: states and the root grey,
 * module frames blue, user mode green, the kernel's warm. */
static void fnode_colour(const char *name, size_t depth, char *buf, size_t size)
{
	uint32_t h = 2166136261u;
	size_t len = strlen(name);

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	if (depth <= 1)
		snprintf(buf, size, "#c8c8c8");
	else if (!strcmp(name, "[user]"))
		snprintf(buf, size, "rgb(%u,%u,%u)", 90 + h % 40, 190 + h % 50, 90);
	else if (len > 2 && name[len - 1] == ']' && strstr(name, " ["))
		snprintf(buf, size, "rgb(%u,%u,%u)", 80 + h % 50, 140 + h % 60, 230);
	else
		snprintf(buf, size, "rgb(%u,%u,%u)", 220 + h % 35, 90 + h % 120, 40 + h % 50);
}

static void flame_label(FILE *out, const char *name, double w)
{
	long fit = (long)((w - 6) / FLAME_CHAR_W);
	size_t len = strlen(name);

	if (fit < 3)
		return;
	if ((size_t)fit >= len) {
		html_text(out, name, len);
	} else {
		/* whole UTF-8 characters only */
		size_t cut = (size_t)fit - 2;

		while (cut > 0 && ((unsigned char)name[cut] & 0xc0) == 0x80)
			cut--;
		html_text(out, name, cut);
		fputs("..", out);
	}
}

static void flame_node(FILE *out, const struct fnode *n, size_t x, size_t depth,
		       size_t total)
{
	double px = (double)x * FLAME_W / (double)total;
	double pw = (double)n->count * FLAME_W / (double)total;
	char colour[32];

	fnode_colour(n->name, depth, colour, sizeof(colour));
	fprintf(out, "<g data-x=\"%zu\" data-w=\"%zu\" data-d=\"%zu\" data-n=\"",
		x, n->count, depth);
	html_text(out, n->name, strlen(n->name));
	fputs("\"><title>", out);
	html_text(out, n->name, strlen(n->name));
	fprintf(out, " (%zu task%s, %.1f%%)</title>", n->count,
		n->count == 1 ? "" : "s", 100.0 * (double)n->count / (double)total);
	fprintf(out, "<rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>",
		px, depth * FLAME_ROW, pw > 0.6 ? pw - 0.5 : 0.1, FLAME_ROW - 1, colour);
	fprintf(out, "<text x=\"%.2f\" y=\"%zu\">", px + 3, depth * FLAME_ROW + 12);
	flame_label(out, n->name, pw);
	fputs("</text></g>\n", out);
	for (const struct fnode *c = n->child; c; c = c->next) {
		flame_node(out, c, x, depth + 1, total);
		x += c->count;
	}
}

/*
 * The icicle of @lines (sorted folded lines, one a task, state first):
 * the root "all tasks" on top, each task's outermost frame below it.
 * false when out of memory.
 */
static bool flame_svg(FILE *out, char **lines, size_t n)
{
	struct fnode root = { .name = "all tasks", .count = n };
	bool ok = true;
	size_t depth;

	for (size_t i = 0; i < n && ok; i++) {
		struct fnode *p = &root;

		/* the lines are ours to cut: frames never hold ';' */
		for (char *save, *f = strtok_r(lines[i], ";", &save); f;
		     f = strtok_r(NULL, ";", &save)) {
			p = fnode_child(p, f);
			if (!p) {
				ok = false;
				break;
			}
			p->count++;
		}
	}
	if (ok)
		ok = fnode_sort(&root);
	if (ok) {
		depth = fnode_depth(&root);
		fprintf(out, "<svg id=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
			"viewBox=\"0 0 %d %zu\" width=\"%d\" height=\"%zu\" "
			"data-total=\"%zu\">\n", FLAME_W, depth * FLAME_ROW, FLAME_W,
			depth * FLAME_ROW, n ? n : 1);
		if (n)
			flame_node(out, &root, 0, 0, n);
		fputs("</svg>\n", out);
	}
	fnode_free(root.child);
	return ok;
}

/* ---- the wait-for graph through Graphviz ---- */

/*
 * `dot -Tsvg` of @dot (a file) into a malloc'ed string from "<svg" on;
 * NULL when dot is not there or fails (*why says which).
 */
static char *dot_to_svg(const char *dot_path, const char **why)
{
	char *argv[] = { "dot", "-Tsvg", (char *)dot_path, NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2], status, e;
	char *buf = NULL, *svg;
	size_t len = 0, cap = 0;
	pid_t pid;
	ssize_t r;

	*why = "Graphviz's dot could not be run";
	if (pipe(pfd))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	e = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (e) {
		close(pfd[0]);
		if (e == ENOENT)
			*why = "Graphviz's dot is not installed (apt-get install graphviz)";
		return NULL;
	}
	for (;;) {
		char *nb = oc_array_grow(buf, len, 4096 + 1, &cap, 1, 65536);

		if (!nb)
			break;
		buf = nb;
		r = read(pfd[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!buf || !WIFEXITED(status) || WEXITSTATUS(status)) {
		*why = "Graphviz's dot failed on the graph";
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	svg = strstr(buf, "<svg");
	if (!svg) {
		*why = "Graphviz's dot wrote no SVG";
		free(buf);
		return NULL;
	}
	memmove(buf, svg, strlen(svg) + 1);
	return buf;
}

static void print_graph(FILE *out, const struct oc_waits *w,
			const char *release)
{
	struct mbuf dot;
	const char *why = NULL;
	char path[] = "/tmp/orccrash-dot-XXXXXX", title[256], *svg = NULL;
	size_t waiters = 0;
	int fd;

	for (size_t i = 0; i < w->nr; i++)
		if (w->waits[i].kind != OC_WAIT_NONE)
			waiters++;
	if (!waiters) {
		fputs("<p>No task waits on a lock or completion orccrash knows.</p>\n", out);
		return;
	}
	if (waiters > HTML_GRAPH_MAX_WAITERS) {
		fprintf(out, "<p>%zu tasks wait: too many to draw (orccrash --dot "
			"writes the graph).</p>\n", waiters);
		return;
	}
	snprintf(title, sizeof(title), "%s: who waits for whom", release);
	if (!mbuf_open(&dot))
		return;
	oc_report_dot_graph(w, title, dot.f);
	if (!mbuf_close(&dot)) {
		free(dot.s);
		return;
	}
	fd = mkstemp(path);
	if (fd >= 0) {
		bool ok = write(fd, dot.s, dot.len) == (ssize_t)dot.len;

		close(fd);
		if (ok)
			svg = dot_to_svg(path, &why);
		unlink(path);
	}
	if (svg) {
		fputs("<div id=\"graph\">\n", out);
		fputs(svg, out);	/* Graphviz escapes the labels for XML */
		fputs("</div>\n", out);
	} else {
		fprintf(out, "<p>The graph as DOT (%s; render it with "
			"<code>dot -Tsvg</code>):</p>\n", why ? why : "no temporary file");
		mbuf_pre(out, "dot", &dot);
	}
	free(svg);
	free(dot.s);
}

static const char html_style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1250px}\n"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
	"pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:12px;line-height:1.3}\n"
	".sub{color:#666}#flame text{font:11px monospace;pointer-events:none}\n"
	"#flame g{cursor:pointer}#flame rect{stroke:none}#flame g:hover rect{stroke:#000;stroke-width:.5}\n"
	"#graph svg{max-width:100%;height:auto}\n";

/* Click a frame: it and what it calls fill the width, its callers span
 * it; click the root (or a caller) to zoom back out. */
static const char html_script[] =
	"(function(){var f=document.getElementById('flame');if(!f)return;\n"
	"var W=1200,gs=[].slice.call(f.querySelectorAll('g[data-x]'));\n"
	"function lab(n,w){var k=Math.floor((w-6)/6.6);return k<3?'':n.length>k?n.slice(0,k-2)+'..':n;}\n"
	"function zoom(x,w,d){gs.forEach(function(g){var gx=+g.dataset.x,gw=+g.dataset.w,gd=+g.dataset.d;\n"
	"var up=gd<d,show=up?(gx<=x&&gx+gw>=x+w):(gx>=x&&gx+gw<=x+w);g.style.display=show?'':'none';if(!show)return;\n"
	"var nx=up?0:(gx-x)/w*W,nw=up?W:gw/w*W,r=g.querySelector('rect'),t=g.querySelector('text');\n"
	"r.setAttribute('x',nx);r.setAttribute('width',Math.max(nw-.5,.1));t.setAttribute('x',nx+3);t.textContent=lab(g.dataset.n,nw);});}\n"
	"gs.forEach(function(g){g.addEventListener('click',function(){zoom(+g.dataset.x,+g.dataset.w,+g.dataset.d);});});})();\n";

static void print_page(const struct oc_kernel *k,
		       const struct oc_report_options *opts,
		       const struct oc_report_start *st, char **folded,
		       size_t nr_folded, bool *reliable, FILE *out)
{
	const struct oc_log *log = st->have_log ? &st->log : NULL;
	const struct oc_waits *waits = st->have_waits ? &st->waits : NULL;
	struct oc_report_options hopts = *opts;
	struct oc_select_options so;
	struct oc_selection sel;
	struct oc_crash c;
	struct oc_error *err;
	struct mbuf m;
	bool first = true, have_crash;

	/* the summary once: the title here, the header below (which says
	 * why when it could not be made) */
	err = oc_triage(k, opts->lines, log, &c);
	have_crash = !err;
	if (err) {
		oc_error_destroy(err);
		snprintf(c.title, sizeof(c.title), "%s", "crash not analysed");
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>", out);
	html_dump_str(out, c.title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1 id=\"title\">",
		html_style);
	html_dump_str(out, c.title);
	fputs("</h1>\n<p class=\"sub\">", out);
	html_dump_str(out, k->release);
	fputs(" &middot; ", out);
	html_dump_str(out, oc_dump_path(k->dump));
	fprintf(out, " &middot; orccrash %s</p>\n", OC_VERSION);

	/* the header as the text report has it, without the log's tail */
	fputs("<h2>Crash summary</h2>\n", out);
	hopts.log_tail = 0;
	if (mbuf_open(&m)) {
		if (st->log_err) {
			fprintf(m.f, "   WARNING: kernel log: ");
			oc_error_fprint(m.f, st->log_err);
			fputc('\n', m.f);
		}
		oc_report_print_header(k, &hopts, log, waits,
				       have_crash ? &c : NULL, m.f);
		if (mbuf_close(&m))
			mbuf_pre(out, "summary", &m);
		free(m.s);
	}

	/* the panic CPU's trace: every CPU when none is known */
	fputs(k->panic_cpu >= 0 ? "<h2>The panic CPU</h2>\n" : "<h2>The CPUs</h2>\n", out);
	oc_select_options_init(&so);
	so.active = true;
	so.cpu = k->panic_cpu;
	err = oc_select(k, &so, &sel);
	if (err) {
		char msg[512];

		oc_error_string(err, msg, sizeof(msg));
		fputs("<p>", out);
		html_dump_str(out, msg);
		fputs("</p>\n", out);
		oc_error_destroy(err);
	} else {
		if (mbuf_open(&m)) {
			if (oc_report_traces(k, opts, &sel, waits, reliable, &first, m.f))
				*reliable = false;
			if (mbuf_close(&m))
				mbuf_pre(out, "panic", &m);
			free(m.s);
		}
		oc_selection_deinit(&sel);
	}

	fputs("<h2>Wait chains</h2>\n", out);
	if (!waits) {
		fputs("<p>Not computed (out of memory).</p>\n", out);
	} else {
		if (waits->nr_chains && mbuf_open(&m)) {
			oc_report_print_chains(waits, waits->nr_chains, m.f);
			if (mbuf_close(&m))
				mbuf_pre(out, "chains", &m);
			free(m.s);
		}
		print_graph(out, waits, k->release);
	}

	fprintf(out, "<h2>Where the tasks are</h2>\n<p>%zu tasks, one column a task, "
		"their state, then their stacks from the outermost frame down. "
		"Hover for a frame's name and count, click to zoom in, click the top bar "
		"to zoom out.</p>\n", nr_folded);
	if (!flame_svg(out, folded, nr_folded))
		fputs("<p>Out of memory.</p>\n", out);

	fputs("<h2>Kernel log</h2>\n", out);
	if (!log) {
		fputs("<p>The log could not be read.</p>\n", out);
	} else if (mbuf_open(&m)) {
		struct oc_log tail = *log;
		size_t from = log->nr > HTML_LOG_TAIL ? log->nr - HTML_LOG_TAIL : 0;

		tail.records += from;
		tail.nr -= from;
		fprintf(out, "<p>The last %zu of %zu records.</p>\n", tail.nr, log->nr);
		oc_log_print(&tail, m.f);
		if (mbuf_close(&m))
			mbuf_pre(out, "log", &m);
		free(m.s);
	}
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", html_script);
}

struct oc_error *oc_report_html(const struct oc_kernel *k,
				const struct oc_report_options *opts,
				const char *path, bool *reliable)
{
	struct oc_report_options fopts = *opts;
	struct oc_report_start st;
	bool to_stdout = !strcmp(path, "-");
	struct oc_error *err;
	char **folded;
	size_t nr_folded;
	FILE *out;

	/* every task's stack, the state first (the icicle's second row) */
	oc_select_options_init(&fopts.sel);
	fopts.sel.all_tasks = true;
	fopts.folded_fields = "s";
	err = oc_report_folded_lines(k, &fopts, &folded, &nr_folded, reliable);
	if (err)
		return err;
	err = oc_report_begin(k, opts, &st);
	if (err) {
		oc_report_folded_free(folded, nr_folded);
		return err;
	}
	out = to_stdout ? stdout : fopen(path, "w");
	if (!out) {
		/* "PATH: ERRNO", as a file that cannot be opened reads */
		err = oc_error_file(OC_ERR_OS, path, "%s", strerror(errno));
		oc_report_finish(&st);
		oc_report_folded_free(folded, nr_folded);
		return err;
	}
	oc_report_print_warnings(k, stderr);
	*reliable &= st.complete;
	print_page(k, opts, &st, folded, nr_folded, reliable, out);
	oc_report_finish(&st);
	oc_report_folded_free(folded, nr_folded);
	if (!to_stdout && (ferror(out) | fclose(out)))
		return oc_error_file(OC_ERR_OS, path, "error writing the page");
	return NULL;
}
