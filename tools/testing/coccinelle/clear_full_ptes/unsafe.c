// SPDX-License-Identifier: GPL-2.0
/*
 * None of these loops may be converted: each is counted by
 * folio_pte_batch() from the pointer it clears, but for the one thing its
 * comment names.
 */

/* The pointer is used after the loop on one path only. */
static pte_t *used_on_one_path(struct mm_struct *mm, struct folio *folio,
			       pte_t *pte, pte_t ptent, unsigned long addr,
			       int max_nr, bool cond)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	if (cond)
		return pte;
	return NULL;
}

/* The count is used after the loop on one path only. */
static int count_on_one_path(struct mm_struct *mm, struct folio *folio,
			     pte_t *pte, pte_t ptent, unsigned long addr,
			     int max_nr, bool cond)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	if (cond)
		return nr;
	return 0;
}

/* The address is used after the loop on one path only. */
static unsigned long addr_on_one_path(struct mm_struct *mm,
				      struct folio *folio, pte_t *pte,
				      pte_t ptent, unsigned long addr,
				      int max_nr, bool cond)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear(mm, addr, pte);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	if (cond)
		return addr;
	return 0;
}

/* The count grew after it was counted. */
static void count_grown(struct mm_struct *mm, struct folio *folio, pte_t *pte,
			pte_t ptent, unsigned long addr, int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	nr += 1;
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The count shrank after it was counted. */
static void count_shrunk(struct mm_struct *mm, struct folio *folio,
			 pte_t *pte, pte_t ptent, unsigned long addr,
			 int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	nr--;
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The pointer moved back after the batch was counted. */
static void pointer_back(struct mm_struct *mm, struct folio *folio,
			 pte_t *pte, pte_t ptent, unsigned long addr,
			 int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	pte--;
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static void pointer_back_n(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t ptent, unsigned long addr,
			   int max_nr, int n)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	pte -= n;
	for (;;) {
		ptep_get_and_clear(mm, addr, pte);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* The count may change through its address. */
static void count_escapes(struct mm_struct *mm, struct folio *folio,
			  pte_t *pte, pte_t ptent, unsigned long addr,
			  int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	adjust(&nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

/* An outer loop runs the loop again with the used-up count. */
static void rerun(struct mm_struct *mm, struct folio *folio, pte_t *pte,
		  pte_t ptent, unsigned long addr, int max_nr, int times)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	while (times--) {
		for (;;) {
			ptep_get_and_clear_full(mm, addr, pte, 1);
			if (--nr == 0)
				break;
			pte++;
			addr += PAGE_SIZE;
		}
	}
}
