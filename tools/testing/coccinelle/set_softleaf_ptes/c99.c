// SPDX-License-Identifier: GPL-2.0
/*
 * Counted loops that declare their index, for (int i = 0; ...), and step
 * an address they do not set: the helper starts at the address the loop
 * starts at.  Converted, but for an address used after the loop (in a
 * statement expression too), a count that is not a constant, and an
 * index that is the address.
 */
static void c99_guards(struct mm_struct *mm, pte_t *pte, unsigned long addr)
{
	for (int i = 0; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

static void c99_entries(struct mm_struct *mm, pte_t *pte, unsigned long addr,
			struct page *page, bool young)
{
	swp_entry_t swp_entry;
	pte_t entry;

	clear_full_ptes(mm, addr, pte, HPAGE_PMD_NR, 0);
	for (int i = 0; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		if (young)
			swp_entry = make_migration_entry_young(swp_entry);
		entry = swp_entry_to_pte(swp_entry);
		set_pte_at(mm, addr, &pte[i], entry);
	}
}

static unsigned long c99_end(struct mm_struct *mm, pte_t *pte,
			     unsigned long addr)
{
	for (int i = 0; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
	return addr;
}

static void c99_count(struct mm_struct *mm, pte_t *pte, unsigned long addr,
		      unsigned int nr)
{
	for (int i = 0; i < nr; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

static void c99_stmt_expr(struct mm_struct *mm, pte_t *pte, unsigned long addr)
{
	for (int i = 0; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
	trace_zap(({ addr; }));
}

static void c99_same(struct mm_struct *mm, pte_t *pte, unsigned long a)
{
	for (unsigned long a = 0; a < 512; a++, a += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + a)));
		set_pte_at(mm, a, pte + a, make_pte_marker(PTE_MARKER_GUARD));
	}
}
