// SPDX-License-Identifier: GPL-2.0
/*
 * The count as the value of its declaration: converted, unless it
 * changes after it, counts another pointer's batch or is used after the
 * loop.
 */
static void declared(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		     pte_t ptent, unsigned long addr, int max_nr, int full)
{
	int nr = folio_pte_batch(folio, pte, ptent, max_nr);

	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void declared_then_changed(struct mm_struct *mm, struct folio *folio,
				  pte_t *pte, pte_t ptent, unsigned long addr,
				  int max_nr, int full)
{
	int nr = folio_pte_batch(folio, pte, ptent, max_nr);

	nr += 2;
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void declared_other(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t *other, pte_t ptent,
			   unsigned long addr, int max_nr, int full)
{
	unsigned int nr = folio_pte_batch(folio, other, ptent, max_nr);

	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static int declared_used(struct mm_struct *mm, struct folio *folio, pte_t *pte,
			 pte_t ptent, unsigned long addr, int max_nr, int full)
{
	int nr = folio_pte_batch(folio, pte, ptent, max_nr);

	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return nr;
}
