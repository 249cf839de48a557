// SPDX-License-Identifier: GPL-2.0
/*
 * An index of a type the file defines anew: u32 here is 8 bits wide, the
 * loop never ends, the helper would write 256 PTEs.  Not converted.
 */
typedef unsigned char u32;

static void narrow_typedef(struct mm_struct *mm, pte_t *pte,
			   unsigned long addr)
{
	for (u32 i = 0; i < 256; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}
