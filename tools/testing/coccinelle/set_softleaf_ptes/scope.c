// SPDX-License-Identifier: GPL-2.0
/*
 * Loops whose iterators are not the function's own locals: globals that a
 * same-named local elsewhere in the function or an extern declaration
 * hides from a name-based check, a second definition of the function
 * under #else, and an index too narrow for its count.  The per-PTE loop
 * leaves a global iterator at its last value; set_softleaf_ptes() would
 * leave it at the first.  None is converted; the last loop, whose
 * iterators are locals (with a same-named local in a sibling block), is.
 */
unsigned long cur_addr;
pte_t *cur_pte;
unsigned int left;

void shadowed_markers(struct mm_struct *mm, bool dbg)
{
	if (dbg) {
		unsigned long cur_addr;
		pte_t *cur_pte;
		unsigned int left;

		cur_addr = 0;
		cur_pte = NULL;
		left = 0;
		dump(cur_addr, cur_pte, left);
	}
	clear_nonpresent_ptes(mm, cur_addr, cur_pte, left);
	for (;;) {
		set_pte_at(mm, cur_addr, cur_pte,
			   make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--left == 0)
			break;
		cur_pte++;
		cur_addr += PAGE_SIZE;
	}
}

unsigned long guard_addr;
int guard_i;

static void shadowed_index(struct mm_struct *mm, pte_t *pte,
			   unsigned long start, bool dbg)
{
	if (dbg) {
		unsigned long guard_addr;
		int guard_i;

		guard_addr = start;
		guard_i = 0;
		trace_guard(guard_addr, guard_i);
	}
	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (guard_i = 0, guard_addr = start; guard_i < PTRS_PER_PTE;
	     guard_i++, guard_addr += PAGE_SIZE) {
		set_pte_at(mm, guard_addr, pte + guard_i,
			   make_pte_marker(PTE_MARKER_GUARD));
	}
}

void extern_markers(struct mm_struct *mm)
{
	extern unsigned long ext_addr;
	extern pte_t *ext_pte;
	extern unsigned int ext_left;

	clear_nonpresent_ptes(mm, ext_addr, ext_pte, ext_left);
	for (;;) {
		set_pte_at(mm, ext_addr, ext_pte,
			   make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--ext_left == 0)
			break;
		ext_pte++;
		ext_addr += PAGE_SIZE;
	}
}

unsigned long g_addr;
#ifdef CONFIG_FOO
static void guards(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long g_addr;
	int i;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (i = 0, g_addr = start; i < PTRS_PER_PTE; i++, g_addr += PAGE_SIZE)
		set_pte_at(mm, g_addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	g_addr = 0;
}
#else
static void guards(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	int j;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (j = 0, g_addr = start; j < PTRS_PER_PTE; j++, g_addr += PAGE_SIZE)
		set_pte_at(mm, g_addr, pte + j, make_pte_marker(PTE_MARKER_GUARD));
}
#endif

static void narrow_index(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long addr;
	unsigned char i;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE)
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
}

static void narrow_address(struct mm_struct *mm, pte_t *pte, unsigned int start)
{
	unsigned int addr;
	int i;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE)
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
}

static void too_many(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long addr;
	int i;

	clear_full_ptes(mm, start, pte, 3000000000UL, 0);
	for (i = 0, addr = start; i < 3000000000UL; i++, addr += PAGE_SIZE)
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
}

static void sibling_locals(struct mm_struct *mm, pte_t *pte,
			   unsigned long start, struct page *page, bool mig)
{
	unsigned long addr;
	int i;

	if (mig) {
		swp_entry_t swp_entry;
		pte_t entry;

		for (i = 0, addr = start; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
			swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
			entry = swp_entry_to_pte(swp_entry);
			VM_WARN_ON(!pte_none(ptep_get(pte + i)));
			set_pte_at(mm, addr, pte + i, entry);
		}
	} else {
		pte_t entry;

		entry = pte_mkold(mk_pte(page, PAGE_NONE));
		set_pte_at(mm, start, pte, entry);
	}
}
