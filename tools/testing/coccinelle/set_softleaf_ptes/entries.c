// SPDX-License-Identifier: GPL-2.0
/* Offset-advancing entries for page + i: converted. */
static void split_migration(struct mm_struct *mm, pte_t *pte,
			    unsigned long haddr, struct page *page,
			    bool write, bool young, bool uffd_wp)
{
	unsigned long addr;
	int i;

	if (write || young) {
		pte_t entry;
		swp_entry_t swp_entry;

		for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
			if (write)
				swp_entry = make_writable_migration_entry(
							page_to_pfn(page + i));
			else
				swp_entry = make_readable_migration_entry(
							page_to_pfn(page + i));
			if (young)
				swp_entry = make_migration_entry_young(swp_entry);
			entry = swp_entry_to_pte(swp_entry);
			if (uffd_wp)
				entry = pte_swp_mkuffd(entry);
			VM_WARN_ON(!pte_none(ptep_get(pte + i)));
			set_pte_at(mm, addr, pte + i, entry);
		}
	}
	pte_unmap(pte);
}

/* Not converted: declarations inside the loop body. */
static void split_device(struct mm_struct *mm, pte_t *pte,
			 unsigned long haddr, struct page *page, bool write)
{
	unsigned long addr;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry_t swp_entry;
		pte_t entry;

		swp_entry = make_readable_device_private_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		set_pte_at(mm, addr, pte + i, entry);
	}
}
