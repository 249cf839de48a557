// SPDX-License-Identifier: GPL-2.0
/*
 * Wrong: the pointer, read after the loop through a macro that pastes its
 * name (cause 2).
 */
#define ZAP_CUR(x)	zap_cur_##x

static pte_t *pasted(struct mm_struct *mm, struct folio *folio,
		     pte_t *pte, pte_t ptent, unsigned long addr, int max_nr)
{
	pte_t *zap_cur_pte = pte;
	int nr;

	nr = folio_pte_batch(folio, zap_cur_pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, zap_cur_pte, 0);
		if (--nr == 0)
			break;
		zap_cur_pte++;
		addr += PAGE_SIZE;
	}
	return ZAP_CUR(pte);
}
