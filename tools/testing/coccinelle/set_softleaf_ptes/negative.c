// SPDX-License-Identifier: GPL-2.0
/* None of these loops may be converted. */

/* The same swap entry in every PTE: the helper would advance it. */
static void same_entry(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
		       pte_t swp_pte)
{
	unsigned long addr;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE)
		set_pte_at(mm, addr, pte + i, swp_pte);
}

/* Built once outside the loop, still the same entry in every PTE. */
static void same_built_entry(struct mm_struct *mm, pte_t *pte,
			     unsigned long haddr, struct page *page)
{
	unsigned long addr;
	pte_t entry;
	int i;

	entry = swp_entry_to_pte(make_readable_migration_entry(page_to_pfn(page)));
	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* Every other page: the offset advances by two. */
static void stride_two(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
		       struct page *page)
{
	unsigned long addr;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		entry = swp_entry_to_pte(make_readable_migration_entry(
						page_to_pfn(page + 2 * i)));
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* The bits depend on the PTE. */
static void varying_bits(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
			 struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		if (i & 1)
			entry = pte_swp_mksoft_dirty(entry);
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* Only one branch builds the entry: the other reuses the previous one. */
static void stale_entry(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
			struct page *page, bool write)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		if (write)
			swp_entry = make_writable_migration_entry(
						page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* The body does more than the helper: it takes a reference per page. */
static void more_work(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
		      struct page *page)
{
	unsigned long addr;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		entry = swp_entry_to_pte(make_readable_migration_entry(
						page_to_pfn(page + i)));
		get_page(page + i);
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* The value built in the loop is used after it. */
static pte_t used_after(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
			struct page *page)
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
	return entry;
}

/* The iterator is used after the loop. */
static int iterator_after(struct mm_struct *mm, pte_t *pte,
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
	return i;
}

/* Present PTEs are for set_ptes(), not for this helper. */
static void present(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
		    struct page *page, pgprot_t prot)
{
	unsigned long addr;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		entry = mk_pte(page + i, prot);
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* An early exit. */
static void early_exit(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
		       struct page *page)
{
	unsigned long addr;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		if (PageHWPoison(page + i))
			break;
		entry = swp_entry_to_pte(make_readable_migration_entry(
						page_to_pfn(page + i)));
		set_pte_at(mm, addr, pte + i, entry);
	}
}
