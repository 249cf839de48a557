// SPDX-License-Identifier: GPL-2.0
/*
 * Wrong: an 8-bit count of 0: the loop writes 256 PTEs, the helper is
 * given 0 (cause 5).
 */
static void small_markers(struct mm_struct *mm, pte_t *ptep,
			  unsigned long addr, u8 nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}
