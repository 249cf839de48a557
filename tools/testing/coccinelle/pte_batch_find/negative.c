// SPDX-License-Identifier: GPL-2.0
/* Nothing here writes consecutive PTEs in a loop. */
void twice(struct mm_struct *mm, unsigned long addr, pte_t *pte, pte_t val)
{
	set_pte_at(mm, addr, pte, val);
	set_pte_at(mm, addr + PAGE_SIZE, pte + 1, val);
}

void same_pte(struct mm_struct *mm, unsigned long addr, pte_t *pte,
	      pte_t val, int nr)
{
	while (nr--)
		set_pte_at(mm, addr, pte, val);
}

void batched(struct mm_struct *mm, unsigned long addr, pte_t *pte,
	     pte_t val, int nr)
{
	set_ptes(mm, addr, pte, val, nr);
	clear_full_ptes(mm, addr, pte, nr, 1);
}

void one(struct mm_struct *mm, unsigned long addr, pte_t *pte)
{
	pte_clear(mm, addr, pte);
}
