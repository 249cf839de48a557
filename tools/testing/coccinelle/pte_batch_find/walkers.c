// SPDX-License-Identifier: GPL-2.0
/* Per-PTE work the walk does through a helper, a callback or a pair. */
static void mkold_one(pte_t *pte, struct vm_area_struct *vma,
		      unsigned long addr)
{
	pte_t pteval = ptep_get(pte);

	if (pte_present(pteval))
		ptep_test_and_clear_young(vma, addr, pte);
}

static void mkold_pmd(pmd_t *pmd, struct vm_area_struct *vma,
		      unsigned long addr)
{
	pmdp_test_and_clear_young(vma, addr, pmd);
}

bool mkold_walk(struct folio *folio, struct vm_area_struct *vma,
		unsigned long addr)
{
	DEFINE_FOLIO_VMA_WALK(pvmw, folio, vma, addr, 0);

	while (page_vma_mapped_walk(&pvmw)) {
		addr = pvmw.address;
		if (pvmw.pte)
			mkold_one(pvmw.pte, vma, addr);
		else
			mkold_pmd(pvmw.pmd, vma, addr);
	}
	return true;
}

void mkold_range(struct vm_area_struct *vma, unsigned long addr,
		 unsigned long end, pte_t *pte)
{
	for (; addr < end; addr += PAGE_SIZE, pte++)
		mkold_one(pte, vma, addr);
}

static int wp_one(pte_t *pte, unsigned long addr, unsigned long end,
		  struct mm_walk *walk)
{
	pte_t ptent = ptep_get(pte);

	if (pte_write(ptent)) {
		pte_t old_pte = ptep_modify_prot_start(walk->vma, addr, pte);

		ptent = pte_wrprotect(old_pte);
		ptep_modify_prot_commit(walk->vma, addr, pte, old_pte, ptent);
	}
	return 0;
}

static int clean_one(pte_t *pte, unsigned long addr, unsigned long end,
		     struct mm_walk *walk)
{
	pte_t ptent = ptep_get(pte);

	if (pte_dirty(ptent)) {
		pte_t old_pte = ptep_modify_prot_start(walk->vma, addr, pte);

		ptent = pte_mkclean(old_pte);
		ptep_modify_prot_commit(walk->vma, addr, pte, old_pte, ptent);
	}
	return 0;
}

static int count_one(pte_t *pte, unsigned long addr, unsigned long end,
		     struct mm_walk *walk)
{
	(*(unsigned long *)walk->private)++;
	return 0;
}

static const struct mm_walk_ops wp_ops = {
	.pte_entry = wp_one,
	.walk_lock = PGWALK_WRLOCK,
};

static const struct mm_walk_ops clean_ops = {
	.pmd_entry = clean_pmd,
	.pte_entry = clean_one,
};

static const struct mm_walk_ops count_ops = {
	.pte_entry = count_one,
};

void protect_range(struct vm_area_struct *vma, unsigned long addr,
		   unsigned long end, pte_t *pte, pgprot_t newprot)
{
	pte_t oldpte, ptent;

	do {
		oldpte = ptep_modify_prot_start(vma, addr, pte);
		ptent = pte_modify(oldpte, newprot);
		ptep_modify_prot_commit(vma, addr, pte, oldpte, ptent);
	} while (pte++, addr += PAGE_SIZE, addr != end);
}

void free_range(struct mm_struct *mm, unsigned long addr, unsigned long end,
		pte_t *pte)
{
	pte_t ptent;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		ptent = ptep_get_and_clear_full(mm, addr, pte, 0);
		ptent = pte_mkold(ptent);
		ptent = pte_mkclean(ptent);
		set_pte_at(mm, addr, pte, ptent);
	}
}

void wrprotect_range(struct mm_struct *mm, unsigned long addr,
		     unsigned long end, pte_t *pte)
{
	pte_t ptent;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		ptent = ptep_get_and_clear(mm, addr, pte);
		set_pte_at(mm, addr, pte, pte_wrprotect(ptent));
	}
}

void set_one_by_one(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		    pte_t val, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		set_ptes(mm, addr, pte, val, 1);
		pte++;
		addr += PAGE_SIZE;
		val = pte_next_pfn(val);
	}
}

void clear_one_by_one(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		      int nr)
{
	int i;

	for (i = 0; i < nr; i++, addr += PAGE_SIZE)
		clear_full_ptes(mm, addr, pte + i, 1, 0);
}

void step_in_argument(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		      int nr)
{
	while (nr--) {
		pte_clear(mm, addr, pte++);
		addr += PAGE_SIZE;
	}
}

void step_by_index(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		   int nr)
{
	while (nr--) {
		ptep_set_wrprotect(mm, addr, pte);
		pte = &pte[1];
		addr += PAGE_SIZE;
	}
}

void replace_range(struct mm_struct *mm, unsigned long addr,
		   unsigned long end, pte_t *pte, swp_entry_t entry)
{
	pte_t ptent;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		ptent = ptep_get_and_clear(mm, addr, pte);
		ptent = swp_entry_to_pte(entry);
		set_pte_at(mm, addr, pte, ptent);
	}
}

void fixup_range(struct mm_struct *mm, unsigned long addr,
		 unsigned long end, pte_t *pte)
{
	pte_t ptent;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		ptent = ptep_get_and_clear(mm, addr, pte);
		ptent = pte_mkold(ptent);
		ptent = arch_fixup_pte(ptent);
		set_pte_at(mm, addr, pte, ptent);
	}
}

void clean_fixup(struct vm_area_struct *vma, unsigned long addr,
		 unsigned long end, pte_t *pte)
{
	pte_t oldpte, ptent;

	do {
		oldpte = ptep_modify_prot_start(vma, addr, pte);
		ptent = pte_mkclean(oldpte);
		ptent = arch_fixup_pte(ptent);
		ptep_modify_prot_commit(vma, addr, pte, oldpte, ptent);
	} while (pte++, addr += PAGE_SIZE, addr != end);
}

void set_markers(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		 int nr)
{
	for (; nr; nr--, pte++, addr += PAGE_SIZE)
		set_softleaf_ptes(mm, addr, pte,
				  make_pte_marker(PTE_MARKER_UFFD_WP), 1);
}

/* A restore of the value read on one path does not hide the write back. */
void restore_then_mkold(struct mm_struct *mm, unsigned long addr,
			unsigned long end, pte_t *pte)
{
	pte_t ptent;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		ptent = ptep_get_and_clear(mm, addr, pte);
		if (!pte_young(ptent)) {
			set_pte_at(mm, addr, pte, ptent);
			continue;
		}
		ptent = pte_mkold(ptent);
		set_pte_at(mm, addr, pte, ptent);
	}
}

/* Only a restore: no helper of the pair. */
void restore_only(struct mm_struct *mm, unsigned long addr,
		  unsigned long end, pte_t *pte)
{
	pte_t ptent;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		ptent = ptep_get_and_clear(mm, addr, pte);
		set_pte_at(mm, addr, pte, ptent);
	}
}

/* A change nested in another: clear_young_dirty_ptes() cannot dirty. */
void nested_change(struct vm_area_struct *vma, unsigned long addr,
		   unsigned long end, pte_t *pte)
{
	pte_t old, new;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		old = ptep_modify_prot_start(vma, addr, pte);
		new = pte_mkold(pte_mkdirty(old));
		ptep_modify_prot_commit(vma, addr, pte, old, new);
	}
}

/* A helper with a clear and flush, and one with several operations. */
static void flush_one(struct vm_area_struct *vma, unsigned long addr,
		      pte_t *pte)
{
	ptep_clear_flush(vma, addr, pte);
}

static void fix_one(struct mm_struct *mm, unsigned long addr, pte_t *pte)
{
	pte_t ptent = ptep_get(pte);

	if (pte_none(ptent))
		return;
	if (!pte_present(ptent)) {
		pte_clear(mm, addr, pte);
		return;
	}
	ptent = ptep_get_and_clear(mm, addr, pte);
	ptent = pte_mkclean(ptent);
	set_pte_at(mm, addr, pte, ptent);
}

void helpers_range(struct vm_area_struct *vma, unsigned long addr,
		   unsigned long end, pte_t *pte)
{
	for (; addr != end; pte++, addr += PAGE_SIZE) {
		flush_one(vma, addr, pte);
		fix_one(vma->vm_mm, addr, pte);
	}
}

/* A function with a loop of its own over its parameter is no helper. */
static void clear_run(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		      int nr)
{
	for (; nr; nr--, pte++, addr += PAGE_SIZE)
		pte_clear(mm, addr, pte);
}

void clear_runs(struct mm_struct *mm, unsigned long addr, pte_t *pte,
		int runs)
{
	for (; runs; runs--, pte += 16, addr += 16 * PAGE_SIZE)
		clear_run(mm, addr, pte, 16);
}

/* The uffd-wp bit set on the value read: the pair takes modify_prot. */
void uffd_mark(struct mm_struct *mm, unsigned long addr, unsigned long end,
	       pte_t *pte)
{
	pte_t old;

	for (; addr != end; pte++, addr += PAGE_SIZE) {
		old = ptep_get_and_clear(mm, addr, pte);
		set_pte_at(mm, addr, pte, pte_mkuffd(old));
	}
}
