// SPDX-License-Identifier: GPL-2.0
/*
 * Loops that only look like the helper: a value read per PTE, a macro
 * that names an iterator where the script cannot see it, a loop run again
 * by an outer loop from where it stopped, a pointer or count of the wrong
 * type.  None is converted; the last three loops are.
 */
#include "guard_local.h"

#define GUARD_CUR(x)	guard_cur_##x

#define GUARD_LAST	/* the PTE the loop
			 * wrote last */ guard_pte

typedef volatile pte_marker guard_vmarker;

/* A volatile marker: read per PTE by the loop. */
static void volatile_marker(struct mm_struct *mm, pte_t *ptep,
			    unsigned long addr, unsigned int nr)
{
	volatile pte_marker marker = PTE_MARKER_GUARD;

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(marker));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* The pointer, read after the loop through a macro that pastes its name. */
static pte_t *pasted(struct mm_struct *mm, pte_t *pte, unsigned long addr,
		     unsigned int nr)
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
	return GUARD_CUR(pte);
}

/* The pointer, through a macro whose body follows a comment. */
static pte_t *commented(struct mm_struct *mm, pte_t *guard_pte,
			unsigned long addr, unsigned int nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(guard_pte)));
		set_pte_at(mm, addr, guard_pte,
			   make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		guard_pte++;
		addr += PAGE_SIZE;
	}
	return GUARD_LAST;
}

/* The address, through an upper-case macro of a local header. */
static unsigned long header_macro(struct mm_struct *mm, pte_t *ptep,
				  unsigned long guard_addr, unsigned int nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, guard_addr, ptep,
			   make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		guard_addr += PAGE_SIZE;
	}
	return GUARD_LAST_ADDR;
}

/* Each round goes on from where the last one stopped; the count is new. */
static void rounds(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
		   int rounds)
{
	while (rounds-- > 0) {
		unsigned int nr = 4;

		for (;;) {
			VM_WARN_ON(!pte_none(ptep_get(ptep)));
			set_pte_at(mm, addr, ptep,
				   make_pte_marker(PTE_MARKER_GUARD));
			if (--nr == 0)
				break;
			ptep++;
			addr += PAGE_SIZE;
		}
	}
}

/* A PTE pointer that steps one byte. */
static void byte_pointer(struct mm_struct *mm, void *ptep,
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
}

/* An 8-bit count: 0 runs the loop 256 times, the helper 2^32. */
static void narrow_count(struct mm_struct *mm, pte_t *ptep,
			 unsigned long addr, u8 nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* A marker of a volatile typedef. */
static void volatile_typedef(struct mm_struct *mm, pte_t *ptep,
			     unsigned long addr, unsigned int nr)
{
	guard_vmarker marker = PTE_MARKER_GUARD;

	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(marker));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* The pointer, pasted by a macro of a system header. */
static pte_t *pasted_system(struct mm_struct *mm, pte_t *pte,
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
	return __PASTE(guard_cur_, pte);
}

/* Rounds of a for loop, from where the last one stopped. */
static void for_rounds(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
		       int rounds)
{
	int r;

	for (r = 0; r < rounds; r++) {
		unsigned int nr = 4;

		for (;;) {
			VM_WARN_ON(!pte_none(ptep_get(ptep)));
			set_pte_at(mm, addr, ptep,
				   make_pte_marker(PTE_MARKER_GUARD));
			if (--nr == 0)
				break;
			ptep++;
			addr += PAGE_SIZE;
		}
	}
}

/* Rounds of a do-while loop. */
static void do_rounds(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
		      int rounds)
{
	do {
		unsigned int nr = 4;

		for (;;) {
			VM_WARN_ON(!pte_none(ptep_get(ptep)));
			set_pte_at(mm, addr, ptep,
				   make_pte_marker(PTE_MARKER_GUARD));
			if (--nr == 0)
				break;
			ptep++;
			addr += PAGE_SIZE;
		}
	} while (--rounds > 0);
}

/* Rounds of a goto back. */
static void goto_rounds(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
			int rounds)
{
again:
	{
		unsigned int nr = 4;

		for (;;) {
			VM_WARN_ON(!pte_none(ptep_get(ptep)));
			set_pte_at(mm, addr, ptep,
				   make_pte_marker(PTE_MARKER_GUARD));
			if (--nr == 0)
				break;
			ptep++;
			addr += PAGE_SIZE;
		}
	}
	if (--rounds > 0)
		goto again;
}

/* Converted: each round starts at its own pointer, address and count. */
static void own_rounds(struct mm_struct *mm, pte_t *pte, unsigned long start,
		       int rounds)
{
	while (rounds-- > 0) {
		pte_t *ptep = pte + 4 * rounds;
		unsigned long addr = start + 4 * rounds * PAGE_SIZE;
		unsigned int nr = 4;

		for (;;) {
			VM_WARN_ON(!pte_none(ptep_get(ptep)));
			set_pte_at(mm, addr, ptep,
				   make_pte_marker(PTE_MARKER_GUARD));
			if (--nr == 0)
				break;
			ptep++;
			addr += PAGE_SIZE;
		}
	}
}

/* Converted: a marker of a parameter. */
static void marker_param(struct mm_struct *mm, pte_t *ptep,
			 unsigned long addr, unsigned int nr, pte_marker marker)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(marker));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* Converted: the mm of a vma the function does not write. */
static void vma_mm(struct vm_area_struct *vma, pte_t *ptep,
		   unsigned long addr, unsigned long nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(vma->vm_mm, addr, ptep,
			   make_pte_marker(PTE_MARKER_UFFD_WP));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}
