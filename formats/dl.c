// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/dl.h: shared libraries opened on first use. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "dl.h"

static void load(struct oc_dl *dl)
{
	void *h;

	if (dl->fns_size != dl->nr * sizeof(void (*)(void))) {
		snprintf(dl->error, sizeof(dl->error),
			 "%s: %zu names for %zu bytes of functions",
			 dl->soname, dl->nr, dl->fns_size);
		return;
	}
	h = dlopen(dl->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();

		snprintf(dl->error, sizeof(dl->error), "%s", e ? e : dl->soname);
		return;
	}
	for (size_t i = 0; i < dl->nr; i++) {
		/* POSIX: a dlsym() result converts to a function pointer */
		void *p = dlsym(h, dl->names[i]);

		if (!p) {
			snprintf(dl->error, sizeof(dl->error), "%s has no %s",
				 dl->soname, dl->names[i]);
			return;	/* the handle stays: other users may share it */
		}
		memcpy((char *)dl->fns + i * sizeof(p), &p, sizeof(p));
	}
}

const char *oc_dl_load(struct oc_dl *dl)
{
	int state = __atomic_load_n(&dl->state, __ATOMIC_ACQUIRE);

	if (!state) {
		pthread_mutex_lock(&dl->lock);
		state = dl->state;
		if (!state) {
			load(dl);
			state = dl->error[0] ? -1 : 1;
			__atomic_store_n(&dl->state, state, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&dl->lock);
	}
	return state > 0 ? NULL : dl->error;
}
