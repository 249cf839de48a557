// SPDX-License-Identifier: GPL-2.0
/*
 * Loops that only look like the helper: an argument read per PTE, a macro
 * that names an iterator where the script cannot see it, a pointer or a
 * count of the wrong type.  None is converted; the last two loops, a count
 * of full width and a full argument read through a struct pointer, are.
 */
#include "zap_local.h"

#define ZAP_CUR(x)	zap_cur_##x

#define ZAP_LAST_PTE	/* the PTE the loop
			 * cleared last */ zap_pte

/*
 * A macro that expands to a pasting one pastes too.  (It names pte: no
 * loop of this file over a pte may be converted.)
 */
#define ZAP_LAST_CUR	ZAP_CUR(pte)

struct mm_struct *zap_mm;

struct zap_shared {
	volatile int fullmm;
	pte_t *first;
};

typedef volatile int zap_vint;

/* The full argument reads PTE 0 of the batch, which the loop clears. */
static void full_in_batch(struct mm_struct *mm, struct folio *folio,
			  pte_t *ptep, pte_t ptent, unsigned long addr,
			  int max_nr)
{
	pte_t *first = ptep;
	int nr;

	nr = folio_pte_batch(folio, ptep, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, ptep, first->pte != 0);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* A global mm: read once by the helper, per PTE by the loop. */
static void global_mm(struct folio *folio, pte_t *pte, pte_t ptent,
		      unsigned long addr, int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(zap_mm, addr, pte, 0);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* A volatile full: read per PTE by the loop. */
static void volatile_full(struct mm_struct *mm, struct folio *folio,
			  pte_t *pte, pte_t ptent, unsigned long addr,
			  int max_nr, int fullmm)
{
	volatile int full = fullmm;
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The pointer, read after the loop through a macro that pastes its name. */
static pte_t *pasted(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		     pte_t ptent, unsigned long addr, int max_nr)
{
	pte_t *zap_cur_pte = pte;
	int nr;

	nr = folio_pte_batch(folio, zap_cur_pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, zap_cur_pte, 0);
		if (--nr == 0)
			break;
		zap_cur_pte++;
		addr += PAGE_SIZE;
	}
	return ZAP_CUR(pte);
}

/* The pointer, through a macro whose body follows a comment. */
static pte_t *commented(struct mm_struct *mm, struct folio *folio,
			pte_t *zap_pte, pte_t ptent, unsigned long addr,
			int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, zap_pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, zap_pte, 0);
		if (--nr == 0)
			break;
		zap_pte++;
		addr += PAGE_SIZE;
	}
	return ZAP_LAST_PTE;
}

/* The address, through an upper-case macro of a local header. */
static unsigned long header_macro(struct mm_struct *mm, struct folio *folio,
				  pte_t *pte, pte_t ptent,
				  unsigned long zap_addr, int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, zap_addr, pte, 0);
		if (--nr == 0)
			break;
		pte++;
		zap_addr += PAGE_SIZE;
	}
	return ZAP_LAST_ADDR;
}

/* An 8-bit count: a batch of 256 PTEs is 0 for the helper. */
static void narrow_count(struct mm_struct *mm, struct folio *folio,
			 pte_t *pte, pte_t ptent, unsigned long addr,
			 int max_nr)
{
	u8 nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 0);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* A PTE pointer that steps one byte. */
static void byte_pointer(struct mm_struct *mm, struct folio *folio,
			 void *pte, pte_t ptent, unsigned long addr,
			 int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 0);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The full argument reads PTE 0 of the batch through a field chain. */
static void full_in_chain(struct mm_struct *mm, struct folio *folio,
			  struct zap_shared *zs, pte_t ptent,
			  unsigned long addr, int max_nr)
{
	pte_t *ptep = zs->first;
	int nr;

	nr = folio_pte_batch(folio, ptep, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, ptep, zs->first->pte != 0);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* A volatile field: read per PTE by the loop. */
static void volatile_field(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t ptent, unsigned long addr,
			   int max_nr, struct zap_shared *zs)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, zs->fullmm);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* A full of a volatile typedef. */
static void volatile_typedef(struct mm_struct *mm, struct folio *folio,
			     pte_t *pte, pte_t ptent, unsigned long addr,
			     int max_nr, int fullmm)
{
	zap_vint full = fullmm;
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The pointer, through a macro that expands to a pasting one. */
static pte_t *pasted_again(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t ptent, unsigned long addr,
			   int max_nr)
{
	pte_t *zap_cur_pte = pte;
	int nr;

	nr = folio_pte_batch(folio, zap_cur_pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, zap_cur_pte, 0);
		if (--nr == 0)
			break;
		zap_cur_pte++;
		addr += PAGE_SIZE;
	}
	return ZAP_LAST_CUR;
}

/* The pointer, pasted by a macro of a system header. */
static pte_t *pasted_system(struct mm_struct *mm, struct folio *folio,
			    pte_t *pte, pte_t ptent, unsigned long addr,
			    int max_nr)
{
	pte_t *zap_cur_pte = pte;
	int nr;

	nr = folio_pte_batch(folio, zap_cur_pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, zap_cur_pte, 0);
		if (--nr == 0)
			break;
		zap_cur_pte++;
		addr += PAGE_SIZE;
	}
	return __PASTE(zap_cur_, pte);
}

/* Converted: a count of full width. */
static void wide_count(struct mm_struct *mm, struct folio *folio,
		       pte_t *ptep, pte_t ptent, unsigned long addr, int max_nr)
{
	unsigned int nr;

	nr = folio_pte_batch(folio, ptep, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, ptep, 0);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/* Converted: full read through a struct pointer the loop does not write. */
static void full_of_gather(struct mmu_gather *tlb, struct folio *folio,
			   pte_t *ptep, pte_t ptent, unsigned long addr,
			   int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, ptep, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(tlb->mm, addr, ptep, tlb->fullmm);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}
