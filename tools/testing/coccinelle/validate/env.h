/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.h
 *
 * What the fixture inputs of tools/testing/coccinelle/ call beyond the PTE
 * code that the userspace harness (tools/testing/pgtable_batch) compiles
 * from the kernel tree: the mm/internal.h batch search, the counters and
 * tracing they pass iterators to, and the types of their parameters.
 * Every helper that takes a value records it in cv_trace, so that a value
 * a conversion changes is seen even when it goes nowhere else.
 *
 * validate.py compiles each fixture before and after its semantic patch
 * against this file; a fixture that calls something missing here fails to
 * build, which the validation reports.
 */
#ifndef __COCCI_VALIDATE_ENV_H
#define __COCCI_VALIDATE_ENV_H

/* FNV-1a over every value the fixtures hand to a helper, in call order. */
static uint64_t cv_trace = 0xcbf29ce484222325ULL;

static void cv_record(const char *what, uint64_t v)
{
	const unsigned char *s = (const unsigned char *)what;

	while (*s) {
		cv_trace ^= *s++;
		cv_trace *= 0x100000001b3ULL;
	}
	cv_trace ^= v;
	cv_trace *= 0x100000001b3ULL;
}

/* include/asm-generic/tlb.h, reduced to what the fixtures read. */
struct mmu_gather {
	struct mm_struct *mm;
	unsigned int fullmm;
	unsigned int cleared;
};

/* A page table walk state of the fixtures. */
struct walk {
	unsigned long *cur;
	unsigned long addr;
	pte_t *pte;
	int nr;
};

#ifndef HPAGE_PMD_NR
#define HPAGE_PMD_NR	PTRS_PER_PTE
#endif

#define VM_BUG_ON_VMA(cond, vma)	VM_BUG_ON(cond)

/* include/linux/compiler_types.h */
#ifndef __PASTE
#define ___PASTE(a, b)	a##b
#define __PASTE(a, b)	___PASTE(a, b)
#endif

/* include/linux/mm.h: the model's pages of a folio are consecutive. */
#ifndef folio_page
#define folio_page(folio, n)	(&(folio)->page + (n))
#endif

/* include/linux/mm.h */
static inline pte_t mk_pte(struct page *page, pgprot_t prot)
{
	return pfn_pte(page_to_pfn(page), prot);
}

/*
 * mm/internal.h: the number of consecutive PTEs from @pte, at most
 * @max_nr, that map consecutive pages of @folio as @pte does; @pte must
 * map a page of @folio (a warning otherwise, which puts the case outside
 * the contract of the code under test).
 */
static int folio_pte_batch(struct folio *folio, pte_t *pte, pte_t ptent,
			   int max_nr)
{
	unsigned long pfn, head;
	int nr;

	if (WARN_ON(max_nr < 1 || !pte_present(ptent)))
		return 1;
	pfn = pte_pfn(ptent);
	head = page_to_pfn(&folio->page);
	if (WARN_ON(pfn < head || pfn >= head + folio_nr_pages(folio)))
		return 1;
	for (nr = 1; nr < max_nr; nr++) {
		pte_t next = ptep_get(pte + nr);

		if (!pte_present(next) || pte_pfn(next) != pfn + nr ||
		    pfn + nr >= head + folio_nr_pages(folio))
			break;
	}
	return nr;
}

#define FPB_RESPECT_DIRTY	(1u << 0)
#define FPB_RESPECT_SOFT_DIRTY	(1u << 1)

static int folio_pte_batch_flags(struct folio *folio,
				 struct vm_area_struct *vma, pte_t *pte,
				 pte_t *ptentp, int max_nr,
				 unsigned int flags)
{
	return folio_pte_batch(folio, pte, *ptentp, max_nr);
}

/* Counters and tracing: they only record what they are given. */
static void rss_sub(struct mm_struct *mm, long nr)
{
	cv_record("rss_sub", nr);
}

static void add_mm_counter(struct mm_struct *mm, int member, long value)
{
	cv_record("add_mm_counter", member * 1000003L + value);
}

static void trace_zap(unsigned long addr)
{
	cv_record("trace_zap", addr);
}

static void dump(unsigned long addr, pte_t *pte, unsigned int left)
{
	cv_record("dump", addr);
	cv_record("dump", (uintptr_t)pte - (uintptr_t)model_pt);
	cv_record("dump", left);
}

static void trace_guard(unsigned long addr, int i)
{
	cv_record("trace_guard", addr);
	cv_record("trace_guard", i);
}

/* include/linux/minmax.h */
#ifndef swap
#define swap(a, b) \
	do { typeof(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)
#endif

static unsigned long guard_end(struct mm_struct *mm, unsigned long addr)
{
	cv_record("guard_end", addr);
	return addr;
}

/* A progress counter kept by address, read back by report_progress(). */
static int *cv_progress;

static void track_progress(int *p)
{
	cv_progress = p;
}

static void report_progress(void)
{
	if (cv_progress)
		cv_record("report_progress", *cv_progress);
	cv_progress = NULL;
}

static void walk_done(struct walk *w)
{
	if (w->cur)
		cv_record("walk_done", *w->cur);
	w->cur = NULL;
}

#endif /* __COCCI_VALIDATE_ENV_H */
