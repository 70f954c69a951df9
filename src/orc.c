// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Searching a normalised ORC table the way the kernel's orc_find() does
 * (arch/x86/kernel/unwind_orc.c): a direct index of LOOKUP_BLOCK_SIZE
 * blocks over the text range (orc_lookup[], filled by unwind_init()),
 * then a binary search for the rightmost entry at or below the ip inside
 * the block's small range.  Outside the indexed range (the kernel's
 * .init.text and module path) a binary search over the whole table.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "array.h"
#include "orc.h"
#include "orc_abi.h"

/* Direct index larger than this (in blocks) is not built: hostile ranges. */
static const uint64_t max_lookup_blocks = 1u << 24;

/*
 * The direct index is filled lazily: a block when a lookup first needs it
 * (oc_orc_table_lookup_at()), each the way unwind_init() fills every
 * orc_lookup[] slot, __orc_find() at the block's start.  A report needs
 * few blocks: 6.1 mod-blocked's --all-tasks 133 of the vmlinux's 141,923
 * (its first to last ip), the 10,000-task bench kdump's 158, in 21 of the
 * index's 139 4 KB pages.  Filled whole at the open (in the ORC thread)
 * it took a 2 MB huge page: fresh anonymous memory, which after a few
 * seconds idle costs the host's faults too (virtio-balloon free page
 * reporting gave it back; docs/benchmarks.md, "Fresh memory after a
 * peer").  Measured against that, medians of runs after 3 s idle and of
 * runs back to back: filled whole in 4 KB pages, or lazily, both took
 * ~5 ms off 6.1 mod-blocked's ~60 ms cold (the two within the noise);
 * warm, the whole fill cost 139 faults and a walk of every block, +1.2
 * ms against the huge page, the lazy one -1.3 ms (-6 ms of the 10,000-
 * task kdump's ~165).  So: lazily, in 4 KB pages of its own (mapped
 * here, never advised as huge pages: an untouched page costs nothing),
 * calloc() below a page (a module's).  Threads that unwind share a
 * table: a slot is written whole, with the one value any of them
 * computes (0 when not filled, else the entry + 1), relaxed atomics.
 */
static const size_t lookup_map_min = 4096;

static size_t lookup_bytes(size_t blocks)
{
	return blocks * sizeof(uint32_t);
}

static uint32_t *lookup_alloc(size_t blocks)
{
	size_t size = lookup_bytes(blocks);
	void *p;

	if (size < lookup_map_min)
		return calloc(blocks, sizeof(uint32_t));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, size, MADV_NOHUGEPAGE);
	return p;
}

static void lookup_free(struct oc_orc_table *tab)
{
	size_t size = lookup_bytes(tab->lookup_blocks);

	if (tab->lookup && size >= lookup_map_min)
		munmap(tab->lookup, size);
	else
		free(tab->lookup);
	tab->lookup = NULL;
	tab->lookup_blocks = 0;
}

void oc_orc_table_init(struct oc_orc_table *tab)
{
	memset(tab, 0, sizeof(*tab));
}

void oc_orc_table_deinit(struct oc_orc_table *tab)
{
	free(tab->ips);
	free(tab->ip_owned);
	free(tab->entries);
	free(tab->raw_owned);
	lookup_free(tab);
	oc_orc_table_init(tab);
}

/* orc_ip() (formats/orc_abi.h), or the ips sorted here */
static inline uint64_t table_ip(const struct oc_orc_table *tab, size_t i)
{
	if (tab->ips)
		return tab->ips[i];
	return orc_abi_ip(tab->ip_raw, tab->ip_addr, i);
}

uint64_t oc_orc_table_ip(const struct oc_orc_table *tab, size_t i)
{
	return table_ip(tab, i);
}

/*
 * __orc_find(): the rightmost entry in [first, last] whose ip <= @ip;
 * @first itself when none is (the kernel's "found = first").
 */
static size_t orc_find_range(const struct oc_orc_table *tab, size_t first,
			     size_t last, uint64_t ip)
{
	size_t found = first;

	while (first <= last) {
		size_t mid = first + (last - first) / 2;

		if (table_ip(tab, mid) <= ip) {
			found = mid;
			first = mid + 1;
		} else {
			if (!mid)
				break;
			last = mid - 1;
		}
	}
	return found;
}

/* the first entry of block @i's range: orc_find_range() at its start,
 * the last block's at the range's stop */
static uint32_t lookup_fill(const struct oc_orc_table *tab, size_t i)
{
	uint64_t at = i + 1 < tab->lookup_blocks ?
		tab->lookup_start + OC_ORC_LOOKUP_BLOCK_SIZE * (uint64_t)i :
		tab->lookup_stop;

	return (uint32_t)orc_find_range(tab, 0, tab->nr - 1, at);
}

uint32_t oc_orc_table_lookup_at(const struct oc_orc_table *tab, size_t i)
{
	uint32_t v = __atomic_load_n(&tab->lookup[i], __ATOMIC_RELAXED);

	if (!v) {
		v = lookup_fill(tab, i) + 1;
		__atomic_store_n(&tab->lookup[i], v, __ATOMIC_RELAXED);
	}
	return v - 1;
}

struct oc_error *oc_orc_table_build_lookup(struct oc_orc_table *tab)
{
	uint64_t start, stop, blocks;

	lookup_free(tab);
	if (!tab->nr)
		return NULL;
	if (tab->lookup_range_set) {
		start = tab->lookup_start;
		stop = tab->lookup_stop;
	} else {
		start = table_ip(tab, 0) &
			~(uint64_t)(OC_ORC_LOOKUP_BLOCK_SIZE - 1);
		stop = table_ip(tab, tab->nr - 1) + 1;
		if (!stop)
			stop = table_ip(tab, tab->nr - 1);
	}
	tab->lookup_start = start;
	tab->lookup_stop = stop;
	if (stop <= start)
		return NULL;
	/* the kernel's orc_lookup has one block per LOOKUP_BLOCK_SIZE of
	 * text plus the ending block */
	blocks = (stop - start - 1) / OC_ORC_LOOKUP_BLOCK_SIZE + 2;
	/* a few entries spread over gigabytes (a corrupt module table):
	 * the index only pays off when blocks and entries are of a size
	 * (the kernel's text: ~2 entries per block) */
	if (blocks > max_lookup_blocks || blocks > 64 * (uint64_t)tab->nr + 65536)
		return NULL;
	/* zeroes: every block to be filled on first use */
	tab->lookup = lookup_alloc(blocks);
	if (!tab->lookup)
		return &oc_enomem;
	tab->lookup_blocks = blocks;
	return NULL;
}

struct oc_error *oc_orc_table_set_lookup_range(struct oc_orc_table *tab,
					       uint64_t start, uint64_t stop)
{
	tab->lookup_range_set = true;
	tab->lookup_start = start;
	tab->lookup_stop = stop;
	return oc_orc_table_build_lookup(tab);
}

void oc_orc_table_relocate(struct oc_orc_table *tab, uint64_t delta)
{
	struct oc_error *err;
	/* The index is made of entry numbers, which do not move when every
	 * ip and the range move together by whole blocks (KASLR moves the
	 * kernel by CONFIG_PHYSICAL_ALIGN, 2 MiB): the same index then,
	 * shifted.  Otherwise (an unaligned delta moves the default range,
	 * which is block-aligned from the first ip; an address that wraps
	 * reorders the table) it is made again, empty. */
	uint64_t last = tab->nr ? table_ip(tab, tab->nr - 1) : 0;
	bool keep = tab->nr && !(delta % OC_ORC_LOOKUP_BLOCK_SIZE) &&
		    last + delta >= last &&
		    tab->lookup_start + delta >= tab->lookup_start &&
		    tab->lookup_stop + delta >= tab->lookup_stop &&
		    (tab->lookup_range_set || last + 1 == tab->lookup_stop);

	/* the kernel's orc_ip() needs no relocation of its own: its
	 * section moves with the text; ours moves by ip_addr */
	if (tab->ips) {
		for (size_t i = 0; i < tab->nr; i++)
			tab->ips[i] += delta;
	} else {
		tab->ip_addr += delta;
	}
	if (tab->lookup_range_set || keep) {
		tab->lookup_start += delta;
		tab->lookup_stop += delta;
	}
	if (keep)
		return;
	/* On allocation failure lookups fall back to the binary search. */
	err = oc_orc_table_build_lookup(tab);
	if (err)
		oc_error_destroy(err);
}

void oc_orc_table_entry(const struct oc_orc_table *tab, size_t i,
			struct oc_orc_entry *ret)
{
	if (tab->entries)
		*ret = tab->entries[i];
	else
		oc_orc_entry_decode(tab->version, tab->raw + ORC_ABI_ENTRY_SIZE * i,
				    ret);
}

bool oc_orc_table_find(const struct oc_orc_table *tab, uint64_t ip,
		       struct oc_orc_entry *ret, uint64_t *entry_ip_ret)
{
	uint64_t at;
	size_t i;

	if (!tab->nr || ip < table_ip(tab, 0))
		return false;
	if (tab->lookup && ip >= tab->lookup_start && ip < tab->lookup_stop) {
		uint64_t idx = (ip - tab->lookup_start) /
			       OC_ORC_LOOKUP_BLOCK_SIZE;
		size_t start, stop;

		if (idx >= tab->lookup_blocks - 1)
			return false;
		start = oc_orc_table_lookup_at(tab, idx);
		stop = (size_t)oc_orc_table_lookup_at(tab, idx + 1) + 1;
		if (start >= tab->nr || stop > tab->nr || stop <= start)
			return false;
		i = orc_find_range(tab, start, stop - 1, ip);
	} else {
		i = orc_find_range(tab, 0, tab->nr - 1, ip);
	}
	at = table_ip(tab, i);
	if (at > ip)
		return false;
	if (ret)
		oc_orc_table_entry(tab, i, ret);
	if (entry_ip_ret)
		*entry_ip_ret = at;
	return true;
}
