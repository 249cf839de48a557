// SPDX-License-Identifier: GPL-2.0
/* None of these loops may be converted. */

/* The count does not come from folio_pte_batch(). */
static void no_batch(struct mm_struct *mm, pte_t *pte, unsigned long addr,
		     int nr)
{
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The pointer moved after the batch was counted. */
static void moved(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		  pte_t ptent, unsigned long addr, int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	pte++;
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* Counted on one path only. */
static void one_path(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		     pte_t ptent, unsigned long addr, int nr, bool large)
{
	if (large)
		nr = folio_pte_batch(folio, pte, ptent, nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The pointer is used after the loop. */
static pte_t *used_after(struct mm_struct *mm, struct folio *folio,
			 pte_t *pte, pte_t ptent, unsigned long addr,
			 int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return pte;
}

/* The old values are kept. */
static pte_t keeps_values(struct mm_struct *mm, struct folio *folio,
			  pte_t *pte, pte_t ptent, unsigned long addr,
			  int max_nr)
{
	pte_t old, last;
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		old = ptep_get_and_clear_full(mm, addr, pte, 1);
		last = old;
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return last;
}

/* pte_clear() is not a get-and-clear. */
static void plain_clear(struct mm_struct *mm, struct folio *folio,
			pte_t *pte, pte_t ptent, unsigned long addr,
			int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		pte_clear(mm, addr, pte);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}
