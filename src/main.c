// SPDX-License-Identifier: GPL-2.0-or-later
/* orccrash: the command line.  Filled in as the front ends land. */
#include <stdio.h>

int main(int argc, char **argv)
{
	fprintf(stderr, "orccrash: not yet\n");
	return 2;
}
