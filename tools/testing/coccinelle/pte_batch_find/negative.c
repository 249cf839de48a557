// SPDX-License-Identifier: GPL-2.0
/* Nothing here writes consecutive PTEs in a loop. */
void twice(struct mm_struct *mm, unsigned long addr, pte_t *pte, pte_t val)
{
	set_pte_at(mm, addr, pte, val);
	set_pte_at(mm, addr + PAGE_SIZE, pte + 1, val);
}

void same_pte(struct mm_struct *mm, unsigned long addr, pte_t *pte,
	      pte_t val, int nr)
{
	while (nr--)
		set_pte_at(mm, addr, pte, val);
}

void batched(struct mm_struct *mm, unsigned long addr, pte_t *pte,
	     pte_t val, int nr)
{
	set_ptes(mm, addr, pte, val, nr);
	clear_full_ptes(mm, addr, pte, nr, 1);
}

void one(struct mm_struct *mm, unsigned long addr, pte_t *pte)
{
	pte_clear(mm, addr, pte);
}

/* The batched helpers' own loops are their reference implementation. */
static inline void wrprotect_ptes(struct mm_struct *mm, unsigned long addr,
				  pte_t *ptep, unsigned int nr)
{
	for (;;) {
		ptep_set_wrprotect(mm, addr, ptep);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

static inline void __set_ptes_anysz(struct mm_struct *mm, unsigned long addr,
				    pte_t *ptep, pte_t pte, unsigned int nr,
				    unsigned long pgsize)
{
	for (;;) {
		__set_pte(ptep, pte);
		if (--nr == 0)
			break;
		ptep++;
		pte = pte_advance_pfn(pte, pgsize >> PAGE_SHIFT);
	}
}

int contpte_test_and_clear_young_ptes(struct vm_area_struct *vma,
				      unsigned long addr, pte_t *ptep,
				      unsigned int nr)
{
	int young = 0;

	for (; nr; nr--, ptep++, addr += PAGE_SIZE)
		young |= __ptep_test_and_clear_young(vma, addr, ptep);
	return young;
}

/* One step of a walk is not a loop. */
bool walk_once(struct folio *folio, struct vm_area_struct *vma,
	       unsigned long address, pte_t pte)
{
	DEFINE_FOLIO_VMA_WALK(pvmw, folio, vma, address, 0);

	if (!page_vma_mapped_walk(&pvmw))
		return false;
	set_pte_at(vma->vm_mm, pvmw.address, pvmw.pte, pte);
	page_vma_mapped_walk_done(&pvmw);
	return true;
}
