/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared libraries opened on first use with dlopen(), not linked: what a
 * run never needs is never mapped and relocated at startup (ld.so was a
 * sixth of a sample's --all-tasks, docs/benchmarks.md).  A library's
 * functions are a struct of function pointers, one a name (a variable's
 * entry is a pointer to it):
 *
 *	#define FOO_FNS(X) X(foo_open) X(foo_read)
 *	OC_DL_DEFINE(foo, FOO_SONAME, FOO_FNS);
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

/*
 * The libraries so opened, by the SONAME the Makefile found (objdump -p
 * of the one linked against: -DOC_..._SONAME); without it (a build by
 * other means: tests/fuzz), the development link's name.
 */
#ifndef OC_OPCODES_SONAME
#define OC_OPCODES_SONAME "libopcodes.so"
#endif
#ifndef OC_KDUMPFILE_SONAME
#define OC_KDUMPFILE_SONAME "libkdumpfile.so"
#endif
#ifndef OC_SNAPPY_SONAME
#define OC_SNAPPY_SONAME "libsnappy.so"
#endif
#ifndef OC_LZO_SONAME
#define OC_LZO_SONAME "liblzo2.so"
#endif
#ifndef OC_ZSTD_SONAME
#define OC_ZSTD_SONAME "libzstd.so"
#endif
#ifndef OC_EDIT_SONAME
#define OC_EDIT_SONAME "libedit.so"
#endif

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

/* The functions @var (a struct), their names @var##_names and the library
 * @var##_dl, static to the file */
#define OC_DL_DEFINE(var, soname, FNS)					\
	static struct { FNS(OC_DL_FN) } var;				\
	static const char *const var##_names[] = { FNS(OC_DL_NAME) };	\
	static struct oc_dl var##_dl = OC_DL_INIT(soname, var##_names, var)

/*
 * Opens @dl's library and looks up its functions, once (any thread);
 * NULL when they can be called, else why not ("libfoo.so.1: cannot open
 * shared object file: ...", "libfoo.so.1 has no foo_read"), the same
 * text on every later call.  The library stays open.
 */
const char *oc_dl_load(struct oc_dl *dl);

#endif
