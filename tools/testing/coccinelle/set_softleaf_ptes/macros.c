// SPDX-License-Identifier: GPL-2.0
/*
 * Macros can read an iterator or a built value after the loop, or take
 * its address before it, where the script sees no use: a macro of the
 * file that names one, or one passed to a macro-like call, keeps the
 * loop.  The last loop names none of them, and passes its range to an
 * assertion only: it is converted.
 */
#define REMAINING	(nr)
#define LAST_ENTRY	entry
#define TRACK(x)	track_progress(&(x))

unsigned int markers_left(struct mm_struct *mm, unsigned long addr,
			  pte_t *ptep, unsigned int nr)
{
	clear_nonpresent_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
	return REMAINING;
}

static pte_t last_entry(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
			struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, entry);
	}
	return LAST_ENTRY;
}

static void tracked(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long a;
	int k;

	TRACK(k);
	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (k = 0, a = start; k < PTRS_PER_PTE; k++, a += PAGE_SIZE)
		set_pte_at(mm, a, pte + k, make_pte_marker(PTE_MARKER_GUARD));
	report_progress();
}

static void asserted(struct vm_area_struct *vma, pte_t *pte,
		     unsigned long start)
{
	unsigned long a;
	int k;

	VM_BUG_ON_VMA(vma->vm_start > start, vma);
	clear_full_ptes(vma->vm_mm, start, pte, PTRS_PER_PTE, 0);
	for (k = 0, a = start; k < PTRS_PER_PTE; k++, a += PAGE_SIZE)
		set_pte_at(vma->vm_mm, a, pte + k,
			   make_pte_marker(PTE_MARKER_GUARD));
}
