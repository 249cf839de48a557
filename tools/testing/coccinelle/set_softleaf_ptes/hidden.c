// SPDX-License-Identifier: GPL-2.0
/*
 * Loops whose iterators or values a compiler sees used where the script
 * did not look: an alias of a function-like macro, a name pasted from
 * four parts, a use in an #else branch inside an expression, a volatile
 * declared through typeof, a redefined assertion, a clear whose result
 * goes back into the range.  None is converted; the last loop is.
 */
#define addr_of(x)	(&(x))
#define ref		addr_of

/* The count's address, through an object-like alias of a function-like macro. */
static unsigned int alias_addr(struct mm_struct *mm, pte_t *ptep,
			       unsigned long addr, unsigned int nr)
{
	unsigned int *left = ref(nr);

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
	return *left;
}

/* The pointer, pasted from four parts by nested __PASTE(). */
static pte_t *nested_paste(struct mm_struct *mm, pte_t *pte,
			   unsigned long addr, unsigned int nr)
{
	pte_t *guard_cur_pte = pte;

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(guard_cur_pte)));
		set_pte_at(mm, addr, guard_cur_pte,
			   make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		guard_cur_pte++;
		addr += PAGE_SIZE;
	}
	return __PASTE(__PASTE(guard_, cur), __PASTE(_, pte));
}

/* Cleared on one path only. */
static void cleared_if(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
		       unsigned int nr, bool clear)
{
	if (clear)
		clear_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* Cleared, then the first PTE written back. */
static void cleared_back(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
			 unsigned int nr)
{
	*ptep = get_and_clear_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* Cleared on one path only, counted loop. */
static void cleared_if_idx(struct mm_struct *mm, pte_t *ptep,
			   unsigned long start, bool clear)
{
	unsigned long addr;
	int i;

	if (clear)
		clear_ptes(mm, start, ptep, 8);
	for (i = 0, addr = start; i < 8; i++, addr += PAGE_SIZE)
		set_pte_at(mm, addr, ptep + i, make_pte_marker(PTE_MARKER_GUARD));
}

/* Cleared on one path only, braces. */
static void cleared_if_idx2(struct mm_struct *mm, pte_t *ptep,
			   unsigned long start, bool clear)
{
	unsigned long addr;
	int i;

	if (clear) {
		clear_ptes(mm, start, ptep, 8);
	}
	for (i = 0, addr = start; i < 8; i++, addr += PAGE_SIZE) {
		set_pte_at(mm, addr, ptep + i, make_pte_marker(PTE_MARKER_GUARD));
	}
}

static volatile pte_marker guard_template;

/* A volatile marker, through typeof(): read per PTE by the loop. */
static void typeof_volatile(struct mm_struct *mm, pte_t *ptep,
			    unsigned long addr, unsigned int nr)
{
	typeof(guard_template) marker = PTE_MARKER_GUARD;

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(marker));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* A volatile mm, through __typeof__(). */
static void typeof_volatile_mm(struct mm_struct *volatile gmm, pte_t *ptep,
			       unsigned long addr, unsigned int nr)
{
	__typeof__(gmm) mm = gmm;

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* The count, read after the loop in an #else branch of an expression. */
static unsigned int ifdef_else(struct mm_struct *mm, pte_t *ptep,
			       unsigned long addr, unsigned int nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
	return
#ifdef CONFIG_GUARD_NONE
		0;
#else
		nr;
#endif
}

/* The address, read after the loop in an #else branch of a call. */
static unsigned long ifdef_else_call(struct mm_struct *mm, pte_t *ptep,
				     unsigned long addr, unsigned int nr)
{
	unsigned long end;

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
	end = guard_end(mm,
#ifdef CONFIG_GUARD_NONE
			0);
#else
			addr);
#endif
	return end;
}

static unsigned int *guard_seen;

/* An assertion macro of the file that keeps its argument's address. */
#undef VM_WARN_ON
#define VM_WARN_ON(x)	((void)(guard_seen = &(x)))

static unsigned int redefined_warn(struct mm_struct *mm, pte_t *ptep,
				   unsigned long addr, unsigned int nr)
{
	VM_WARN_ON(nr);
	clear_ptes(mm, addr, ptep, nr);
	for (;;) {
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
	return *guard_seen;
}

/* Converted: the PTEs cleared right before, nothing hidden. */
static void plain_guards(struct mm_struct *mm, pte_t *ptep,
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
