// SPDX-License-Identifier: GPL-2.0
/*
 * An #include without a space before its name is read all the same: the
 * macro of the header names the address of the first loop, which is not
 * converted; the second loop is.
 */
#include"zap_local.h"

static unsigned long header_macro(struct mm_struct *mm, struct folio *folio,
				  pte_t *pte, pte_t ptent,
				  unsigned long zap_addr, int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, zap_addr, pte, 0);
		if (--nr == 0)
			break;
		pte++;
		zap_addr += PAGE_SIZE;
	}
	return ZAP_LAST_ADDR;
}

static void other_address(struct mm_struct *mm, struct folio *folio,
			  pte_t *pte, pte_t ptent, unsigned long addr,
			  int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 0);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}
