// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing proves that the target PTEs are none: set_softleaf_ptes() may
 * not write over present PTEs (the arm64 override does not unfold a
 * contpte block), so none of these loops may be converted.
 */

/* Only the first PTE is checked. */
bool first_checked(struct vm_area_struct *vma, unsigned long addr,
		   pte_t *ptep, unsigned long nr_ptes)
{
	WARN_ON_ONCE(!pte_none(ptep_get(ptep)));
	for (;;) {
		set_pte_at(vma->vm_mm, addr, ptep,
			   make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--nr_ptes == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}

	return true;
}

/* Cleared over a shorter range. */
void cleared_fewer(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		   unsigned int nr)
{
	clear_nonpresent_ptes(mm, addr, ptep, nr - 1);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* Cleared in another table. */
void cleared_elsewhere(struct mm_struct *mm, unsigned long addr,
		       pte_t *src, pte_t *dst)
{
	unsigned long a;
	int i;

	clear_full_ptes(mm, addr, src, PTRS_PER_PTE, 0);
	for (i = 0, a = addr; i < PTRS_PER_PTE; i++, a += PAGE_SIZE) {
		set_pte_at(mm, a, dst + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

/* Entries for page + i, but nothing checks the targets. */
static void unchecked_entries(struct mm_struct *mm, pte_t *pte,
			      unsigned long haddr, struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		set_pte_at(mm, addr, pte + i, entry);
	}
}
