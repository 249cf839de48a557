// SPDX-License-Identifier: GPL-2.0
/*
 * Loops whose count, pointer or argument changes, or is used, where the
 * script did not look: a count of another pointer's batch, a count or
 * pointer changed after the batch and before the loop, swap(), an alias
 * of a function-like macro, a name pasted from four parts, a use in an
 * #else branch inside an expression, a volatile full declared through
 * typeof.  None is converted; the last loop is.
 */
/* On one path, the count is the batch of another pointer. */
static void other_batch(struct mm_struct *mm, struct folio *folio,
			pte_t *pte, pte_t *other, pte_t ptent,
			unsigned long addr, int max_nr, int full)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	if (max_nr > 8)
		nr = folio_pte_batch(folio, other, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The count grows, then an unrelated batch hides the change. */
static int grown(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		 pte_t *other, pte_t ptent, unsigned long addr, int max_nr,
		 int full)
{
	int nr, nr_other;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	nr += 4;
	nr_other = folio_pte_batch(folio, other, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return nr_other;
}

/* The pointer moves back, then an unrelated batch hides the change. */
static int moved(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		 pte_t *other, pte_t ptent, unsigned long addr, int max_nr,
		 int full)
{
	int nr, nr_other;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	pte -= 1;
	nr_other = folio_pte_batch(folio, other, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return nr_other;
}

/* The count, swapped by a lower-case macro of a system header. */
static void swapped(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		    pte_t ptent, unsigned long addr, int max_nr, int full)
{
	int nr, other = 512;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	swap(nr, other);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

#define addr_of(x)	(&(x))
#define ref		addr_of

/* The count's address, through an object-like alias of a function-like macro. */
static int alias_addr(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		      pte_t ptent, unsigned long addr, int max_nr, int full)
{
	int nr;
	int *left = ref(nr);

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return *left;
}

/* The pointer, pasted from four parts by nested __PASTE(). */
static pte_t *nested_paste(struct mm_struct *mm, struct folio *folio,
			   pte_t *zap_cur_pte, pte_t ptent, unsigned long addr,
			   int max_nr, int full)
{
	int nr;

	nr = folio_pte_batch(folio, zap_cur_pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, zap_cur_pte, full);
		if (--nr == 0)
			break;
		zap_cur_pte++;
		addr += PAGE_SIZE;
	}
	return __PASTE(__PASTE(zap_, cur), __PASTE(_, pte));
}

/* The count, read after the loop in an #else branch of an expression. */
static int ifdef_else(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		      pte_t ptent, unsigned long addr, int max_nr, int full)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return
#ifdef CONFIG_ZAP_NONE
		0;
#else
		nr;
#endif
}

/* The count changed between the batch and the loop in an #else branch. */
static void ifdef_change(struct mm_struct *mm, struct folio *folio, pte_t *pte,
			 pte_t ptent, unsigned long addr, int max_nr, int full)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr) +
#ifdef CONFIG_ZAP_NONE
		0;
#else
		8;
#endif
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, full);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static volatile int zap_template;

/* A volatile full, through typeof(): read per PTE by the loop. */
static void typeof_full(struct mm_struct *mm, struct folio *folio, pte_t *pte,
			pte_t ptent, unsigned long addr, int max_nr, int fullmm)
{
	typeof(zap_template) full = fullmm;
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

/* Converted: one batch of the pointer, nothing changed before the loop. */
static void plain_batch(struct mm_struct *mm, struct folio *folio,
			pte_t *ptep, pte_t ptent, unsigned long addr,
			int max_nr, int full)
{
	int nr;

	nr = folio_pte_batch(folio, ptep, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, ptep, full);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}
