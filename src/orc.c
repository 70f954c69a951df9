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

#include "array.h"
#include "orc.h"
#include "orc_abi.h"

/* Direct index larger than this (in blocks) is not built: hostile ranges. */
static const uint64_t max_lookup_blocks = 1u << 24;

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
	free(tab->lookup);
	oc_orc_table_init(tab);
}

/* orc_ip(): "return (unsigned long)ip + *ip;", relocated */
static inline uint64_t table_ip(const struct oc_orc_table *tab, size_t i)
{
	if (tab->ips)
		return tab->ips[i];
	return tab->ip_addr + ORC_ABI_IP_SIZE * i +
	       (uint64_t)(int64_t)orc_abi_ip_rel(tab->ip_raw, i);
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

struct oc_error *oc_orc_table_build_lookup(struct oc_orc_table *tab)
{
	uint64_t start, stop, blocks;
	bool sorted = true;

	free(tab->lookup);
	tab->lookup = NULL;
	tab->lookup_blocks = 0;
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
	/* a few entries spread over gigabytes (a corrupt module table)
	 * would cost a second per table: the index only pays off when
	 * blocks and entries are of a size (the kernel's text: ~2 entries
	 * per block) */
	if (blocks > max_lookup_blocks || blocks > 64 * (uint64_t)tab->nr + 65536)
		return NULL;
	/* filled whole, in the ORC thread (src/kernel.c orc_parse()): the
	 * vmlinux's (a block per 256 bytes of 16 MB of text and more) in a
	 * huge page, a module's (rarely that big) as it comes */
	tab->lookup = oc_malloc_huge(blocks * sizeof(*tab->lookup),
				     OC_ORC_LOOKUP_HUGE_MIN);
	if (!tab->lookup)
		return &oc_enomem;
	for (size_t i = 1; i < tab->nr; i++) {
		if (table_ip(tab, i) < table_ip(tab, i - 1)) {
			sorted = false;
			break;
		}
	}
	/* sorted (always, but after a relocation that wrapped addresses):
	 * one walk along the ips gives each block's orc_find_range() */
	for (uint64_t i = 0, j = 0; sorted && i < blocks - 1; i++) {
		uint64_t at = start + OC_ORC_LOOKUP_BLOCK_SIZE * i;

		while (j + 1 < tab->nr && table_ip(tab, j + 1) <= at)
			j++;
		tab->lookup[i] = (uint32_t)j;
	}
	for (uint64_t i = 0; !sorted && i < blocks - 1; i++)
		tab->lookup[i] = (uint32_t)orc_find_range(
			tab, 0, tab->nr - 1,
			start + OC_ORC_LOOKUP_BLOCK_SIZE * i);
	tab->lookup[blocks - 1] =
		(uint32_t)orc_find_range(tab, 0, tab->nr - 1, stop);
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
	 * reorders the table) it is built again. */
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
		start = tab->lookup[idx];
		stop = (size_t)tab->lookup[idx + 1] + 1;
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
