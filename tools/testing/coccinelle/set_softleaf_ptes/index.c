// SPDX-License-Identifier: GPL-2.0
/*
 * PTE i written as &pte[i]: converted as pte + i is; not when the index
 * is not the loop's own.
 */
static void index_guards(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long addr;
	int i;

	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(&pte[i])));
		set_pte_at(mm, addr, &pte[i], make_pte_marker(PTE_MARKER_GUARD));
	}
}

static void index_entries(struct mm_struct *mm, pte_t *pte,
			  unsigned long haddr, struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	clear_full_ptes(mm, haddr, pte, HPAGE_PMD_NR, 0);
	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_writable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		set_pte_at(mm, addr, &pte[i], entry);
	}
}

static void next_index(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long addr;
	int i;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE - 1, 0);
	for (i = 0, addr = start; i < PTRS_PER_PTE - 1; i++, addr += PAGE_SIZE)
		set_pte_at(mm, addr, &pte[i + 1],
			   make_pte_marker(PTE_MARKER_GUARD));
}
