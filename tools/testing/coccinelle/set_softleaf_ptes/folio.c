// SPDX-License-Identifier: GPL-2.0
/*
 * Entries for the pages of a folio, by folio_page(folio, i): converted;
 * not when the page is not page i of the folio.
 */
static void folio_entries(struct mm_struct *mm, pte_t *pte,
			  unsigned long haddr, struct folio *folio, bool young)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	clear_full_ptes(mm, haddr, pte, HPAGE_PMD_NR, 0);
	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(
					page_to_pfn(folio_page(folio, i)));
		if (young)
			swp_entry = make_migration_entry_young(swp_entry);
		entry = swp_entry_to_pte(swp_entry);
		set_pte_at(mm, addr, pte + i, entry);
	}
}

static void next_pages(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
		       struct folio *folio)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	clear_full_ptes(mm, haddr, pte, HPAGE_PMD_NR, 0);
	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(
					page_to_pfn(folio_page(folio, i + 1)));
		entry = swp_entry_to_pte(swp_entry);
		set_pte_at(mm, addr, pte + i, entry);
	}
}
