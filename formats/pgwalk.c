// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86-64 page-table walk, as the MMU does it (Intel SDM vol. 3, 4.5):
 * PML5 (if LA57) -> PML4 -> PDPT -> PD -> PT, with PS set in a PDPT
 * entry meaning a 1G page and in a PD entry a 2M page.  Entries hold the
 * physical address in bits 12..51; bit 63 is NX, bits 52..62 are
 * software/protection-key bits and the low 12 bits are flags, so they
 * are all masked off.  In a large-page entry bit 12 is the PAT bit, so
 * the address mask starts at the page size there.
 */
#include <string.h>

#include "pgwalk.h"

static const uint64_t PTE_PRESENT = 1ULL << 0;
static const uint64_t PTE_PSE = 1ULL << 7;
static const uint64_t PTE_ADDR_MASK = 0x000ffffffffff000ULL;	/* bits 12..51 */
static const unsigned int PAGE_SHIFT = 12;

struct oc_error *oc_pgwalk_init(struct oc_pgwalk *walk,
				oc_pgwalk_read_fn *read_phys, void *arg,
				uint64_t top, unsigned int levels)
{
	if (levels != 4 && levels != 5)
		return oc_error_format(OC_ERR_INVALID,
				       "%u-level paging is not x86-64", levels);
	memset(walk, 0, sizeof(*walk));
	walk->read_phys = read_phys;
	walk->arg = arg;
	walk->top = top & PTE_ADDR_MASK;
	walk->levels = levels;
	oc_pgwalk_flush(walk);
	return NULL;
}

void oc_pgwalk_flush(struct oc_pgwalk *walk)
{
	for (size_t i = 0; i < OC_PGWALK_CACHE_SIZE; i++)
		walk->cache[i].vpage = UINT64_MAX;
}

static const char *const level_names[] = {
	[1] = "PTE", [2] = "PMD", [3] = "PUD", [4] = "P4D/PML4", [5] = "PML5",
};

static struct oc_error *walk_tables(struct oc_pgwalk *walk, uint64_t vaddr,
				    uint64_t *paddr_ret)
{
	uint64_t table = walk->top;

	for (unsigned int level = walk->levels; level >= 1; level--) {
		/* each level indexes 9 bits, starting at bit 12 + 9 * (level - 1) */
		unsigned int shift = PAGE_SHIFT + 9 * (level - 1);
		uint64_t index = (vaddr >> shift) & 0x1ff;
		uint64_t entry_addr = table + index * 8;
		uint64_t entry;
		struct oc_error *err;

		err = walk->read_phys(walk->arg, entry_addr, &entry,
				      sizeof(entry));
		if (err) {
			char msg[256];

			oc_error_take(err, msg, sizeof(msg));
			return oc_error_fault(vaddr,
					      "0x%llx: cannot read %s entry at physical 0x%llx (%s)",
					      (unsigned long long)vaddr,
					      level_names[level],
					      (unsigned long long)entry_addr,
					      msg);
		}
		/* dumps are little-endian x86-64, like the host we build for */
		if (!(entry & PTE_PRESENT))
			return oc_error_fault(vaddr,
					      "0x%llx: not mapped (%s entry 0x%llx not present)",
					      (unsigned long long)vaddr,
					      level_names[level],
					      (unsigned long long)entry);
		if (level == 1 || ((level == 2 || level == 3) &&
				   (entry & PTE_PSE))) {
			uint64_t page_mask = (1ULL << shift) - 1;

			*paddr_ret = (entry & PTE_ADDR_MASK & ~page_mask) |
				     (vaddr & page_mask);
			return NULL;
		}
		table = entry & PTE_ADDR_MASK;
	}
	/* not reached: level 1 always returns */
	return oc_error_fault(vaddr, "0x%llx: page walk fell through",
			      (unsigned long long)vaddr);
}

struct oc_error *oc_pgwalk_translate(struct oc_pgwalk *walk, uint64_t vaddr,
				     uint64_t *paddr_ret)
{
	/* canonical: bits 63..47 (63..56 with LA57) all equal */
	unsigned int va_bits = walk->levels == 5 ? 57 : 48;
	int64_t high = (int64_t)vaddr >> (va_bits - 1);
	uint64_t vpage = vaddr >> PAGE_SHIFT;
	struct oc_pgwalk_cache_entry *slot;
	uint64_t paddr;
	struct oc_error *err;

	if (high != 0 && high != -1)
		return oc_error_fault(vaddr, "0x%llx: non-canonical address",
				      (unsigned long long)vaddr);
	/* a direct-mapped cache: consecutive pages land in different slots */
	slot = &walk->cache[vpage % OC_PGWALK_CACHE_SIZE];
	if (slot->vpage == vpage) {
		walk->hits++;
		*paddr_ret = slot->ppage | (vaddr & 0xfff);
		return NULL;
	}
	walk->misses++;
	err = walk_tables(walk, vaddr, &paddr);
	if (err)
		return err;
	slot->vpage = vpage;
	slot->ppage = paddr & ~0xfffULL;
	*paddr_ret = paddr;
	return NULL;
}
