// SPDX-License-Identifier: GPL-2.0
/* One PTE per page table, a PMD apart: not a run of consecutive PTEs. */
void pmd_stride(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		unsigned long end, pte_t val)
{
	pte_t *pte;

	for (; addr < end; addr += PMD_SIZE, pmd++) {
		pte = pte_offset_kernel(pmd, addr);
		set_pte_at(mm, addr, pte, val);
	}
}

void pmd_stride_map(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		    unsigned long end)
{
	pte_t *pte;

	do {
		pte = pte_offset_map(pmd, addr);
		pte_clear(mm, addr, pte);
		pte_unmap(pte);
		addr = addr + HPAGE_PMD_SIZE;
		pmd++;
	} while (addr != end);
}

void pmd_by_ptrs(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		 int nr)
{
	while (nr--) {
		pte_clear(mm, addr, pte);
		pte += PTRS_PER_PTE;
		addr += PMD_SIZE;
	}
}

/* One call each, or the batched helper over the whole run. */
void nr_one_once(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		 pte_t val)
{
	set_ptes(mm, addr, pte, val, 1);
}

void nr_in_loop(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		pte_t val, unsigned int nr)
{
	while (nr) {
		unsigned int n = min(nr, 16U);

		set_ptes(mm, addr, pte, val, n);
		pte += n;
		addr += n * PAGE_SIZE;
		nr -= n;
	}
}

/* A pmd_entry that looks at the first PTE only, and a pmd helper. */
static void mkold_one(pte_t *pte, struct vm_area_struct *vma,
		      unsigned long addr)
{
	ptep_test_and_clear_young(vma, addr, pte);
}

static int mkold_pmd_entry(pmd_t *pmd, unsigned long addr,
			   unsigned long next, struct mm_walk *walk)
{
	spinlock_t *ptl;
	pte_t *pte;

	pte = pte_offset_map_lock(walk->mm, pmd, addr, &ptl);
	if (!pte)
		return 0;
	mkold_one(pte, walk->vma, addr);
	pte_unmap_unlock(pte, ptl);
	return 0;
}

static const struct mm_walk_ops mkold_ops = {
	.pmd_entry = mkold_pmd_entry,
};

/* Strides spelled otherwise: still a PMD, or one contpte block, apart. */
void pmd_stride_expr(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		     unsigned long end, pte_t val)
{
	pte_t *pte;

	for (; addr < end; addr += HPAGE_PMD_NR * PAGE_SIZE, pmd++) {
		pte = pte_offset_kernel(pmd, addr);
		set_pte_at(mm, addr, pte, val);
	}
}

void pmd_stride_sz(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		   unsigned long end, pte_t val)
{
	pte_t *pte;

	for (; addr < end; addr += (SZ_2M), pmd++) {
		pte = pte_offset_kernel(pmd, addr);
		set_pte_at(mm, addr, pte, val);
	}
}

void cont_stride(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		 int nr)
{
	for (; nr > 0; nr -= CONT_PTES, ptep += CONT_PTES)
		ptep_set_wrprotect(mm, addr, ptep);
}
