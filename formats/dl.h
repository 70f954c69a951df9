/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared libraries opened on first use with dlopen(), not linked: what a
 * run never needs is never mapped and relocated at startup (ld.so was a
 * sixth of a sample's --all-tasks, docs/benchmarks.md).  A library's
 * functions are a struct of function pointers, one a name (a variable's
 * entry is a pointer to it):
 *
 *	#define FOO_FNS(X) X(foo_open) X(foo_read)
 *	static struct { FOO_FNS(OC_DL_FN) } foo;
 *	static const char *const foo_names[] = { FOO_FNS(OC_DL_NAME) };
 *	static struct oc_dl foo_dl = OC_DL_INIT(FOO_SONAME, foo_names, foo);
 *	...
 *	if ((why = oc_dl_load(&foo_dl)))
 *		return an error saying why;
 *	foo.foo_open(...);
 *
 * The SONAME is the one built against (the Makefile's soname()); the
 * package depends on the library's package by hand (debian/rules), as
 * dpkg-shlibdeps cannot see a dlopen().
 */
#ifndef OC_FORMATS_DL_H
#define OC_FORMATS_DL_H

#include <pthread.h>
#include <stddef.h>

struct oc_dl {
	const char *soname;
	const char *const *names;
	size_t nr;
	void *fns;		/* nr function pointers, in names' order */
	size_t fns_size;	/* sizeof(*fns), checked against nr */
	pthread_mutex_t lock;
	int state;		/* 0: not tried; 1: loaded; -1: failed */
	char error[256];
};

#define OC_DL_FN(f) __typeof__(f) *f;
#define OC_DL_NAME(f) #f,
#define OC_DL_INIT(so, names_, fns_) {					\
	.soname = (so), .names = (names_),				\
	.nr = sizeof(names_) / sizeof((names_)[0]),			\
	.fns = &(fns_), .fns_size = sizeof(fns_),			\
	.lock = PTHREAD_MUTEX_INITIALIZER,				\
}

/*
 * Opens @dl's library and looks up its functions, once (any thread);
 * NULL when they can be called, else why not ("libfoo.so.1: cannot open
 * shared object file: ...", "libfoo.so.1 has no foo_read"), the same
 * text on every later call.  The library stays open.
 */
const char *oc_dl_load(struct oc_dl *dl);

#endif
