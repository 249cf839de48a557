// SPDX-License-Identifier: GPL-2.0
/*
 * Wrong: the pointer, read after the loop through a macro whose body
 * follows a multi-line comment (cause 2).
 */
#define LAST_MARKED	/* the PTE the loop
			 * wrote last */ mark_pte

static pte_t *comment_macro(struct mm_struct *mm, pte_t *mark_pte,
			    unsigned long addr, unsigned int nr)
{
	clear_nonpresent_ptes(mm, addr, mark_pte, nr);
	for (;;) {
		set_pte_at(mm, addr, mark_pte, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		mark_pte++;
		addr += PAGE_SIZE;
	}
	return LAST_MARKED;
}
