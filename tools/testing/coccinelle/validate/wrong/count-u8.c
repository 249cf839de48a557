// SPDX-License-Identifier: GPL-2.0
/*
 * Wrong: an 8-bit count: a batch of 256 is 0 for clear_full_ptes() (cause
 * 5).
 */
static void small_count(struct mm_struct *mm, struct folio *folio,
			pte_t *pte, pte_t ptent, unsigned long addr, int max_nr)
{
	u8 nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 0);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}
