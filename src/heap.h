/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The orccrash program's heap (src/heap.c): set up once, first thing in
 * main(), before any thread.  Only the program calls it: the crash
 * extension runs in crash's process and leaves crash's allocator alone.
 */
#ifndef OC_HEAP_H
#define OC_HEAP_H

void oc_heap_setup(void);

#endif /* OC_HEAP_H */
