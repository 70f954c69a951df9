// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/dl.c: a library opened on first use, its functions by name. */
#include <string.h>
#include <zlib.h>

#include "dl.h"
#include "test.h"

/* zlib: linked into every test binary, so its SONAME is on the machine */
#define Z_FNS(X) X(zlibVersion) X(adler32)
OC_DL_DEFINE(z, "libz.so.1", Z_FNS);

TEST(dl_loads_functions_once)
{
	CHECK(!oc_dl_load(&z_dl));
	CHECK(z.zlibVersion && !strcmp(z.zlibVersion(), zlibVersion()));
	CHECK(z.adler32 && z.adler32(1, (const Bytef *)"abc", 3) ==
			   adler32(1, (const Bytef *)"abc", 3));
	CHECK(!oc_dl_load(&z_dl));	/* again: loaded */
}

#define MISSING_FNS(X) X(zlibVersion) X(oc_no_such_function)
void oc_no_such_function(void);	/* never defined: only its type */
OC_DL_DEFINE(m, "libz.so.1", MISSING_FNS);

TEST(dl_says_which_function_is_missing)
{
	const char *why = oc_dl_load(&m_dl);

	CHECK(why && !strcmp(why, "libz.so.1 has no oc_no_such_function"));
	/* the same answer, not a second try */
	CHECK(oc_dl_load(&m_dl) == why);
}

OC_DL_DEFINE(nz, "liborccrash-no-such-lib.so.9", Z_FNS);

TEST(dl_says_why_a_library_cannot_be_opened)
{
	const char *why = oc_dl_load(&nz_dl);

	CHECK(why && strstr(why, "liborccrash-no-such-lib.so.9"));
	CHECK(!nz.zlibVersion);
}
