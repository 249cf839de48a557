// SPDX-License-Identifier: GPL-2.0
/*
 * Wrong: the address, read after the loop through an upper-case macro of a
 * local header (cause 2).
 */
#include "zap_local.h"

static unsigned long local_header(struct mm_struct *mm, struct folio *folio,
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
