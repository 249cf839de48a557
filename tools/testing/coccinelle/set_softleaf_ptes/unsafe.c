// SPDX-License-Identifier: GPL-2.0
/*
 * None of these loops may be converted: each would be, but for the one
 * thing its comment names.  The target PTEs are proven none: checked
 * right before the write or cleared right before the loop.
 */

/* The check is not the statement right before the write. */
static void check_first(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
			struct page *page, bool uffd_wp)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		if (uffd_wp)
			entry = pte_swp_mkuffd(entry);
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* A marker with a side effect: evaluated once per PTE. */
void marker_side_effect(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
			unsigned int nr, pte_marker m)
{
	clear_nonpresent_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(m++));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* A marker computed by a call: evaluated once per PTE. */
void marker_call(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		 unsigned int nr)
{
	clear_nonpresent_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(next_marker(mm)));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* An mm argument with a side effect. */
void mm_side_effect(struct vm_area_struct **vmas, unsigned long addr,
		    pte_t *ptep, unsigned int nr)
{
	clear_nonpresent_ptes(vmas[0]->vm_mm, addr, ptep, nr);
	for (;;) {
		set_pte_at((*vmas++)->vm_mm, addr, ptep,
			   make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* Global iterators: their final values are seen after the function. */
unsigned long cur_addr;
pte_t *cur_pte;
unsigned int left;

void global_iterators(struct mm_struct *mm)
{
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

int last_i;

static void global_index(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long addr;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (last_i = 0, addr = start; last_i < PTRS_PER_PTE;
	     last_i++, addr += PAGE_SIZE) {
		set_pte_at(mm, addr, pte + last_i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

/* A static iterator keeps its value for the next call. */
static void static_index(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	static unsigned long addr;
	int i;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

/* The iterator escapes through its address. */
static void escaped_index(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long addr;
	int i;

	record_progress(&i);
	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		set_pte_at(mm, addr, pte + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

/* A value built into a global is seen after the function. */
pte_t last_entry;

static void global_value(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
			 struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		last_entry = swp_entry_to_pte(swp_entry);
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, last_entry);
	}
}

/* Macros whose expansion reads the iterator. */
#define CUR_MARKER	marker_at(addr)
#define ODD_PAGE	(i & 1)

static void macro_marker(struct mm_struct *mm, pte_t *pte, unsigned long start)
{
	unsigned long addr;
	int i;

	clear_full_ptes(mm, start, pte, PTRS_PER_PTE, 0);
	for (i = 0, addr = start; i < PTRS_PER_PTE; i++, addr += PAGE_SIZE) {
		set_pte_at(mm, addr, pte + i, make_pte_marker(CUR_MARKER));
	}
}

static void macro_condition(struct mm_struct *mm, pte_t *pte,
			    unsigned long haddr, struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		if (ODD_PAGE)
			entry = pte_swp_mksoft_dirty(entry);
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, entry);
	}
}

/* Conditions that read the table being written. */
static void table_condition(struct mm_struct *mm, pte_t *pte,
			    unsigned long haddr, struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		if (pte->pte)
			entry = pte_swp_mksoft_dirty(entry);
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, entry);
	}
}

static void alias_condition(struct mm_struct *mm, pte_t *pte,
			    unsigned long haddr, struct page *page)
{
	unsigned long addr;
	swp_entry_t swp_entry;
	pte_t *last = pte + HPAGE_PMD_NR - 1;
	pte_t entry;
	int i;

	for (i = 0, addr = haddr; i < HPAGE_PMD_NR; i++, addr += PAGE_SIZE) {
		swp_entry = make_readable_migration_entry(page_to_pfn(page + i));
		entry = swp_entry_to_pte(swp_entry);
		if (*(unsigned long *)last)
			entry = pte_swp_mkuffd(entry);
		VM_WARN_ON(!pte_none(ptep_get(pte + i)));
		set_pte_at(mm, addr, pte + i, entry);
	}
}
