// SPDX-License-Identifier: GPL-2.0
/* Constant markers into PTEs proven none: converted. */
bool install_markers(struct vm_area_struct *vma, unsigned long addr,
		     pte_t *ptep, unsigned long nr_ptes)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(vma->vm_mm, addr, ptep,
			   make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--nr_ptes == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}

	return true;
}

/* Cleared right before, over the same range. */
void replace_with_markers(struct mm_struct *mm, unsigned long addr,
			  pte_t *ptep, unsigned int nr, pte_marker marker)
{
	clear_nonpresent_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(marker));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

void install_guards(struct mm_struct *mm, unsigned long start, pte_t *pte)
{
	unsigned long addr;
	int i;

	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

/* Not converted: the iterators are used after the loop. */
pte_t *install_markers_return(struct mm_struct *mm, unsigned long addr,
			      pte_t *ptep, unsigned int nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
	return ptep;
}

/* Not converted: the body does more than write the marker. */
void install_markers_count(struct mm_struct *mm, unsigned long addr,
			   pte_t *ptep, unsigned int nr, int *count)
{
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_UFFD_WP));
		(*count)++;
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* Not converted: the count may be zero. */
void install_guards_maybe_none(struct mm_struct *mm, unsigned long start,
			       pte_t *pte, int nr)
{
	unsigned long addr;
	int i;

	for (i = 0, addr = start; i < nr; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

/* Not converted: the marker changes with the PTE. */
void install_varying(struct mm_struct *mm, unsigned long start, pte_t *pte)
{
	unsigned long addr;
	int i;

	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, make_pte_marker(i));
	}
}
