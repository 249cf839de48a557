// SPDX-License-Identifier: GPL-2.0
/*
 * Wrong: a void * "PTE pointer" that steps one byte (cause 4).
 */
static void byte_pointer(struct mm_struct *mm, void *ptep,
			 unsigned long addr, unsigned int nr)
{
	clear_nonpresent_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}
