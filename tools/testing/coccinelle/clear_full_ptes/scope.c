// SPDX-License-Identifier: GPL-2.0
/*
 * Loops whose count, pointer or address outlives the function or is read
 * through an alias: a global, a static local, an address taken before the
 * batch.  The per-PTE loop leaves them at the last PTE; clear_full_ptes()
 * would leave them at the first.  None is converted; the last loop, with
 * a same-named local in a sibling block, is.
 */
unsigned long zap_addr;

static void global_address(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t ptent, int max_nr)
{
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, zap_addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		zap_addr += PAGE_SIZE;
	}
}

pte_t *zap_pte;
int zap_nr;

static void global_pointer(struct mm_struct *mm, struct folio *folio,
			   pte_t ptent, unsigned long addr, int max_nr)
{
	zap_nr = folio_pte_batch(folio, zap_pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, zap_pte, 1);
		if (--zap_nr == 0)
			break;
		zap_pte++;
		addr += PAGE_SIZE;
	}
}

static void shadowed_global(struct mm_struct *mm, struct folio *folio,
			    pte_t *pte, pte_t ptent, int max_nr, bool dbg)
{
	int nr;

	if (dbg) {
		unsigned long zap_addr = 0;

		trace_zap(zap_addr);
	}
	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, zap_addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		zap_addr += PAGE_SIZE;
	}
}

static void static_address(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t ptent, int max_nr)
{
	static unsigned long addr;
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
}

static pte_t *pointer_alias(struct mm_struct *mm, struct folio *folio,
			    pte_t *pte, pte_t ptent, unsigned long addr,
			    int max_nr)
{
	pte_t **pp = &pte;
	int nr;

	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	return *pp;
}

static void address_alias(struct mm_struct *mm, struct folio *folio,
			  pte_t *pte, pte_t ptent, unsigned long addr,
			  int max_nr, struct walk *w)
{
	int nr;

	w->cur = &addr;
	nr = folio_pte_batch(folio, pte, ptent, max_nr);
	for (;;) {
		ptep_get_and_clear_full(mm, addr, pte, 1);
		if (--nr == 0)
			break;
		pte++;
		addr += PAGE_SIZE;
	}
	walk_done(w);
}

static void narrow_address(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t ptent, unsigned int addr,
			   int max_nr)
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
}

static void sibling_locals(struct mm_struct *mm, struct folio *folio,
			   pte_t *pte, pte_t ptent, unsigned long start,
			   int max_nr, bool one)
{
	if (one) {
		unsigned long addr = start;

		ptep_get_and_clear_full(mm, addr, pte, 1);
	} else {
		unsigned long addr = start;
		int nr;

		nr = folio_pte_batch(folio, pte, ptent, max_nr);
		for (;;) {
			ptep_get_and_clear_full(mm, addr, pte, 1);
			if (--nr == 0)
				break;
			pte++;
			addr += PAGE_SIZE;
		}
	}
}
