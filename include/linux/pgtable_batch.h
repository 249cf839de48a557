/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PGTABLE_BATCH_H
#define _LINUX_PGTABLE_BATCH_H

#include <linux/leafops.h>
#include <linux/mmdebug.h>
#include <linux/pgtable.h>

/**
 * DOC: Batched PTE helpers
 *
 * A batched PTE helper applies one operation to @nr consecutive PTEs of a
 * single page table.  It has the same effect on the page table, and returns
 * the same value, as the loop over the matching single-PTE operation that its
 * kernel-doc names, but it lets the architecture do the work once per batch
 * instead of once per PTE.  On arm64, for example, clearing a batch unfolds
 * a contiguous (contpte) block only where the batch covers it partially, at
 * the two ends of the range, where the per-PTE loop unfolds every folded
 * block it meets.
 *
 * The family and the single-PTE operation each helper is defined by:
 *
 * =============================  ============================  ==============
 * helper                         per-PTE reference             entries
 * =============================  ============================  ==============
 * set_ptes()                     set_pte_at(), pte_next_pfn()  none to
 *                                                              present
 * get_and_clear_full_ptes()      ptep_get_and_clear_full()     present to
 *                                                              none
 * get_and_clear_ptes()           ptep_get_and_clear()          present to
 *                                                              none
 * clear_full_ptes()              ptep_get_and_clear_full()     present to
 *                                                              none
 * clear_ptes()                   ptep_get_and_clear()          present to
 *                                                              none
 * clear_nonpresent_ptes()        pte_clear()                   non-present
 *                                                              to none
 * wrprotect_ptes()               ptep_set_wrprotect()          present
 * clear_young_dirty_ptes()       ptep_test_and_clear_young(),  present
 *                                or ptep_get_and_clear() and
 *                                set_pte_at()
 * test_and_clear_young_ptes()    ptep_test_and_clear_young()   present
 * clear_flush_young_ptes()       ptep_clear_flush_young()      present
 * set_softleaf_ptes()            set_pte_at(),                 none to
 *                                pte_next_softleaf_offset()    non-present
 * =============================  ============================  ==============
 *
 * Rules common to the family:
 *
 * - @nr is at least 1 and all @nr PTEs lie in one page table, that is, in
 *   the range covered by one PMD.  The caller holds the page table lock.
 * - The helpers that take present PTEs expect them to map consecutive pages
 *   of the same folio.  Bits other than the PFN may differ between the
 *   PTEs; for example some of them may be write-protected.
 * - The helpers that return a PTE (get_and_clear_full_ptes() and
 *   get_and_clear_ptes()) return the first PTE with the dirty and accessed
 *   bits of all @nr PTEs merged in, and nothing else: the soft-dirty bit is
 *   the first PTE's, although pte_mkdirty() would set it on x86.  A caller
 *   that writes the result back to all @nr PTEs (try_to_unmap_one() when it
 *   restores a batch) thus gives each the soft-dirty bit it had if the batch
 *   had one soft-dirty state.  test_and_clear_young_ptes() and
 *   clear_flush_young_ptes() return whether any of the PTEs was young.
 * - Apart from clear_flush_young_ptes(), the helpers leave the TLB
 *   invalidation of the entries they change to the caller.  (An arm64
 *   helper that unfolds a contpte block invalidates that block as part of
 *   the unfold.)
 *
 * The helpers are defined in <linux/pgtable.h>, except set_softleaf_ptes(),
 * which needs the softleaf (non-present entry) helpers of <linux/leafops.h>
 * and is therefore defined here; <linux/pgtable.h> cannot include those.
 * get_and_clear_ptes(), clear_ptes() and clear_nonpresent_ptes() cannot be
 * overridden: the first two are wrappers with @full == 0 and the last one is
 * a loop over pte_clear().  Every other helper is a plain loop unless the
 * architecture overrides it by defining a macro of the same name in
 * <asm/pgtable.h>, for example::
 *
 *	#define set_softleaf_ptes set_softleaf_ptes
 *
 * An override must leave the page table, as read back with ptep_get(), in the
 * state the per-PTE loop leaves it in, and return the same value.  arm64
 * deviates in two ways, both because a contpte block maps one folio and core
 * mm tracks the accessed and dirty bits per folio.  Its overrides may leave a
 * fully covered contpte block folded where the per-PTE loop unfolds it
 * (PTE_CONT is private to arm64, and ptep_get() reports the accessed and
 * dirty bits of the whole block).  And its clear_young_dirty_ptes(),
 * test_and_clear_young_ptes() and clear_flush_young_ptes() also clear the
 * bits of the PTEs outside the range in a partially covered block at either
 * end, as its single-PTE ptep_test_and_clear_young() does for a PTE of a
 * folded block.
 *
 * With CONFIG_ARM64_CONTPTE, arm64 overrides set_ptes(),
 * get_and_clear_full_ptes(), clear_full_ptes(), wrprotect_ptes(),
 * clear_young_dirty_ptes(), test_and_clear_young_ptes(),
 * clear_flush_young_ptes() and set_softleaf_ptes() with contpte-aware
 * versions; without it, the first five map to its raw helpers and the other
 * three use the generic loops.
 * x86 overrides none of them: it provides pte_advance_pfn() and the
 * single-PTE operations, and the generic loops are the per-PTE loops.
 */

/**
 * pte_move_softleaf_offset - Move the offset of a non-present PTE.
 * @pte: A non-present PTE whose softleaf entry carries an offset: a swap,
 *	 migration, device-private, device-exclusive or hwpoison entry.
 * @delta: How far to move the offset; negative to move it backwards.
 *
 * Moves the offset (the swap offset or the PFN) while keeping the type and
 * the swp PTE bits (exclusive, soft-dirty, uffd-wp).  Not meant for PTE
 * markers, whose offset holds the marker bits.
 *
 * Return: the PTE with the moved offset.
 */
static inline pte_t pte_move_softleaf_offset(pte_t pte, long delta)
{
	const softleaf_t entry = softleaf_from_pte(pte);
	pte_t new = __swp_entry_to_pte(__swp_entry(swp_type(entry),
						   (swp_offset(entry) + delta)));

	if (pte_swp_soft_dirty(pte))
		new = pte_swp_mksoft_dirty(new);
	if (pte_swp_exclusive(pte))
		new = pte_swp_mkexclusive(new);
	if (pte_swp_uffd(pte))
		new = pte_swp_mkuffd(new);

	return new;
}

/**
 * pte_next_softleaf_offset - Increment the offset of a non-present PTE.
 * @pte: A non-present PTE whose softleaf entry carries an offset.
 *
 * Same as pte_move_softleaf_offset(@pte, 1).
 *
 * Return: the PTE for the next offset.
 */
static inline pte_t pte_next_softleaf_offset(pte_t pte)
{
	return pte_move_softleaf_offset(pte, 1);
}

/**
 * softleaf_pte_has_offset - Whether set_softleaf_ptes() advances an entry.
 * @pte: A non-present, non-none PTE.
 *
 * Every softleaf entry except a PTE marker carries an offset: the swap
 * offset of a swap entry, or the PFN of a migration, device-private,
 * device-exclusive or hwpoison entry.
 *
 * Return: true if @pte carries an offset, false if it is a PTE marker.
 */
static inline bool softleaf_pte_has_offset(pte_t pte)
{
	return !softleaf_is_marker(softleaf_from_pte(pte));
}

#ifndef set_softleaf_ptes
/**
 * set_softleaf_ptes - Write non-present entries into consecutive none PTEs.
 * @mm: Address space the entries are written into.
 * @addr: Address of the first PTE.
 * @ptep: Page table pointer for the first entry.
 * @pte: Non-present (softleaf) entry for the first PTE.
 * @nr: Number of PTEs to write.
 *
 * Writes @pte to the first PTE and, for each following PTE, the entry of the
 * previous one with its offset advanced by one: a swap entry advances its
 * swap offset; a migration, device-private, device-exclusive or hwpoison
 * entry advances its PFN.  The swp PTE bits (exclusive, soft-dirty, uffd-wp)
 * are the same in every PTE.  A PTE marker (uffd-wp, guard, poison) carries
 * no offset and is written unchanged into all @nr PTEs.  The result is what
 * @nr calls of set_pte_at() write, with pte_next_softleaf_offset() between
 * them for entries that carry an offset.
 *
 * May be overridden by the architecture; otherwise, implemented as a simple
 * loop over set_pte_at(), which keeps its page_table_check hooks.
 *
 * Context: The caller holds the page table lock.  @nr is at least 1, all
 * @nr PTEs are none and are in the same PMD.
 */
static inline void set_softleaf_ptes(struct mm_struct *mm, unsigned long addr,
				     pte_t *ptep, pte_t pte, unsigned int nr)
{
	const bool advance = softleaf_pte_has_offset(pte);

	VM_WARN_ON(nr == 0);
	VM_WARN_ON(pte_none(pte) || pte_present(pte));
	VM_WARN_ON(pmd_addr_end(addr, addr + nr * PAGE_SIZE) !=
		   addr + nr * PAGE_SIZE);

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, pte);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
		if (advance)
			pte = pte_next_softleaf_offset(pte);
	}
}
#endif

#endif /* _LINUX_PGTABLE_BATCH_H */
