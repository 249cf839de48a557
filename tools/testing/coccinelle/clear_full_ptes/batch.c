// SPDX-License-Identifier: GPL-2.0
/* Counted by folio_pte_batch(): converted. */
static void zap_batch(struct mmu_gather *tlb, struct folio *folio,
		      pte_t *pte, pte_t ptent, unsigned long addr, int max_nr)
{
	struct mm_struct *mm = tlb->mm;
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	rss_sub(mm, nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, tlb->fullmm);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void unmap_batch(struct mm_struct *mm, struct folio *folio,
			pte_t *pte, pte_t ptent, unsigned long addr, int max_nr)
{
	unsigned int nr;

	nr = folio_pte_batch_flags(folio, NULL, pte, &ptent, max_nr, 0);
	for (;;) {
		ptep_get_and_clear(mm, addr, pte);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}
