// SPDX-License-Identifier: GPL-2.0
/* Every loop form is reported, with the helper that fits. */
void for_ever(struct mm_struct *mm, unsigned long addr, pte_t *ptep, int nr)
{
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

void do_while(struct mm_struct *mm, unsigned long addr, unsigned long end,
	      pte_t *ptep)
{
	do {
		pte_clear(mm, addr, ptep);
	} while (ptep++, addr += PAGE_SIZE, addr != end);
}

void for_index(struct mm_struct *mm, unsigned long addr, pte_t *pte,
	       struct page *page, int nr)
{
	swp_entry_t entry;
	pte_t swp_pte;
	int i;

	for (i = 0; i < nr; i++, addr += PAGE_SIZE) {
		entry = make_readable_migration_entry(page_to_pfn(page + i));
		swp_pte = swp_entry_to_pte(entry);
		set_pte_at(mm, addr, pte + i, swp_pte);
	}
}

void for_array(struct mm_struct *mm, unsigned long addr, pte_t *pte, int nr,
	       int full)
{
	int i;

	for (i = 0; i < nr; ++i)
		ptep_get_and_clear_full(mm, addr + i * PAGE_SIZE, &pte[i], full);
}

void while_loop(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		unsigned long pfn, pgprot_t prot, int nr)
{
	pte_t pte;

	while (nr--) {
		pte = pfn_pte(pfn++, prot);
		set_pte_at(mm, addr, ptep, pte);
		ptep += 1;
		addr += PAGE_SIZE;
	}
}

void walk(struct mm_struct *mm, unsigned long addr, unsigned long end,
	  pte_t *pte)
{
	pte_t ptent;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		ptent = ptep_get(pte);
		if (pte_none(ptent))
			continue;
		ptent = ptep_get_and_clear(mm, addr, pte);
	}
}

void lookup(pmd_t *pmd, unsigned long addr, unsigned long end, pte_t val)
{
	pte_t *pte = pte_offset_kernel(pmd, addr);

	while (addr + PAGE_SIZE <= end) {
		set_pte_at(&init_mm, addr, pte, val);
		addr += PAGE_SIZE;
		pte = pte_offset_kernel(pmd, addr);
	}
}

void raw(pte_t *ptep, unsigned long pfn, pgprot_t prot, int nr)
{
	do {
		__set_pte(ptep, pfn_pte(pfn, prot));
		pfn++;
	} while (ptep++, --nr);
}

void wrprotect(struct mm_struct *mm, unsigned long addr, pte_t *ptep, int nr)
{
	for (; nr; nr--, ptep++, addr += PAGE_SIZE)
		ptep_set_wrprotect(mm, addr, ptep);
}

int young(struct vm_area_struct *vma, unsigned long addr, unsigned long end,
	  pte_t *pte)
{
	int young = 0;

	for (; addr != end; pte++, addr += PAGE_SIZE)
		young |= ptep_test_and_clear_young(vma, addr, pte);
	return young;
}

void collapse(struct mm_struct *mm, unsigned long addr, pte_t *pte)
{
	pte_t *_pte;

	for (_pte = pte; _pte < pte + HPAGE_PMD_NR; _pte++, addr += PAGE_SIZE)
		ptep_clear(mm, addr, _pte);
}

void flush_young(struct vm_area_struct *vma, unsigned long addr, pte_t *pte,
		 int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		ptep_clear_flush_young(vma, addr + i * PAGE_SIZE, pte + i);
}

bool migrate_one(struct folio *folio, struct vm_area_struct *vma,
		 unsigned long address)
{
	DEFINE_FOLIO_VMA_WALK(pvmw, folio, vma, address, 0);
	pte_t pteval;

	while (page_vma_mapped_walk(&pvmw)) {
		pteval = ptep_clear_flush(vma, pvmw.address, pvmw.pte);
		set_pte_at(vma->vm_mm, pvmw.address, pvmw.pte,
			   make_migration_entry_pte(folio, pteval));
	}
	return true;
}
