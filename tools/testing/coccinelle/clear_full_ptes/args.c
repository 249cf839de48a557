// SPDX-License-Identifier: GPL-2.0
/*
 * The mm and full arguments are evaluated once per PTE by the loop and
 * once by clear_full_ptes(): a side effect, a read that depends on the
 * loop, or a macro of the file that reads an iterator after the loop
 * keeps the loop.  The last loop, whose full argument is a field, is
 * converted.
 */
#define NEXT_ADDR	(zap_next)

static void full_side_effect(struct mmu_gather *tlb, struct folio *folio,
			     pte_t *pte, pte_t ptent, unsigned long addr,
			     int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(tlb->mm, addr, pte, tlb->cleared++);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void mm_side_effect(struct mm_struct **mms, struct folio *folio,
			   pte_t *pte, pte_t ptent, unsigned long addr,
			   int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear(*mms++, addr, pte);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void full_of_count(struct mm_struct *mm, struct folio *folio,
			  pte_t *pte, pte_t ptent, unsigned long addr,
			  int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, nr == 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void full_of_call(struct mm_struct *mm, struct folio *folio,
			 pte_t *pte, pte_t ptent, unsigned long addr,
			 int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, pte_dirty(ptep_get(pte)));
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static unsigned long macro_after(struct mm_struct *mm, struct folio *folio,
				 pte_t *pte, pte_t ptent,
				 unsigned long zap_next, int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, zap_next, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		zap_next += PAGE_SIZE;
	}
	return NEXT_ADDR;
}

static void full_of_field(struct mmu_gather *tlb, struct folio *folio,
			  pte_t *pte, pte_t ptent, unsigned long addr,
			  int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(tlb->mm, addr, pte, tlb->fullmm);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}
