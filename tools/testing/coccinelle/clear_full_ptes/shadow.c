// SPDX-License-Identifier: GPL-2.0
/*
 * A count or pointer shadowed by a declaration in an inner block: the
 * batch counts one variable, the loop another of the same name.  None
 * is converted.
 */
/* The loop counts the parameter nr; the batch is counted into an inner nr. */
static void shadow_param(struct mm_struct *mm, struct folio *folio, pte_t *pte,
			 pte_t ptent, unsigned long addr, int nr, int full)
{
	{
		int nr = folio_pte_batch(folio, pte, ptent, 512);

		trace_batch(nr);
	}
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void shadow_do(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		      pte_t ptent, unsigned long addr, int max_nr, int full)
{
	int nr;

	nr = max_nr * 2;
	do {
		int nr = folio_pte_batch(folio, pte, ptent, max_nr);

		trace_batch(nr);
	} while (0);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void shadow_both(struct mm_struct *mm, struct folio *folio, pte_t *pte,
			pte_t ptent, unsigned long addr, int max_nr, int full,
			bool x)
{
	int nr = max_nr;

	if (x) {
		int nr = folio_pte_batch(folio, pte, ptent, max_nr);

		trace_batch(nr);
	} else {
		int nr = folio_pte_batch(folio, pte, ptent, 4);

		trace_batch(nr);
	}
	for (;;) {
		ptep_get_and_clear(mm, addr, pte);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The batch of an inner pte, the loop over the outer one. */
static void shadow_ptr(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		       pte_t *other, pte_t ptent, unsigned long addr,
		       int max_nr, int full)
{
	int nr;

	{
		pte_t *pte = other;

		nr = folio_pte_batch(folio, pte, ptent, max_nr);
	}
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void shadow_ptr_decl(struct mm_struct *mm, struct folio *folio,
			    pte_t *pte, pte_t *other, pte_t ptent,
			    unsigned long addr, int max_nr, int full)
{
	int nr = folio_pte_batch(folio, pte, ptent, max_nr);

	{
		pte_t *pte = other;

		for (;;) {
			ptep_get_and_clear_full(mm, addr, pte, full);
			if (--nr == 0)
				break;
			pte++;
			addr += PAGE_SIZE;
		}
	}
}
