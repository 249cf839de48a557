/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSTOMISED for testing: the primitives through which the code under test
 * touches the page table, the TLB and the memory map.  They behave as in the
 * kernel (on one CPU) and report every use to the model (model.h), which is
 * how the tests see what a batch costs.
 */
#ifndef __PGTABLE_BATCH_CUSTOM_H
#define __PGTABLE_BATCH_CUSTOM_H

/*
 * include/asm-generic/rwonce.h, counting accesses to the model.  Each
 * architecture's arch_custom.h defines __model_after_store(), called after
 * every store to a PTE.
 */
#define READ_ONCE(x)							\
({									\
	model_note_read(&(x));						\
	*(const volatile __typeof__(x) *)&(x);				\
})

#define WRITE_ONCE(x, val)						\
do {									\
	*(volatile __typeof__(x) *)&(x) = (val);			\
	__model_after_store(&(x));					\
} while (0)

/*
 * include/linux/page_table_check.h: the hooks are kept by every batch
 * helper; count how many PTEs they were told about.
 */
static inline void page_table_check_ptes_set(struct mm_struct *mm,
					     unsigned long addr, pte_t *ptep,
					     pte_t pte, unsigned int nr)
{
	model_counts.ptc_set += nr;
}

static inline void page_table_check_pte_clear(struct mm_struct *mm,
					      unsigned long addr, pte_t pte)
{
	model_counts.ptc_clear++;
}

/*
 * The PMD and PUD hooks, which no batched helper reaches: macros, because
 * riscv declares pmd_t and pud_t in the <asm/pgtable.h> that uses them.
 */
#define page_table_check_pmds_set(mm, addr, pmdp, pmd, nr)	do { } while (0)
#define page_table_check_pmd_clear(mm, addr, pmd)		do { } while (0)
#define page_table_check_pmd_set(mm, addr, pmdp, pmd)		do { } while (0)
#define page_table_check_pud_set(mm, addr, pudp, pud)		do { } while (0)
#define page_table_check_puds_set(mm, addr, pudp, pud, nr)	do { } while (0)
#define page_table_check_pud_clear(mm, addr, pud)		do { } while (0)

/*
 * include/asm-generic/bug.h and include/linux/mmdebug.h: a warning is
 * counted and printed, and the tests fail on any warning they did not ask
 * for.  The condition is evaluated with the model paused, as the kernel
 * only evaluates it with CONFIG_DEBUG_VM, so that its PTE reads are not
 * charged to the batch.
 */
#define __PB_WARN(cond, str)						\
({									\
	int __ret;							\
	model_pause();							\
	__ret = !!(cond);						\
	model_resume();							\
	if (unlikely(__ret))						\
		model_note_warn(__FILE__, __LINE__, str);		\
	unlikely(__ret);						\
})
#define WARN_ON(cond)			__PB_WARN(cond, #cond)
#define WARN_ON_ONCE(cond)		__PB_WARN(cond, #cond)
#define WARN(cond, fmt...)		__PB_WARN(cond, #cond)
#define WARN_ONCE(cond, fmt...)		__PB_WARN(cond, #cond)
#define VM_WARN_ON(cond)		((void)__PB_WARN(cond, #cond))
#define VM_WARN_ON_ONCE(cond)		__PB_WARN(cond, #cond)
#define VM_WARN_ONCE(cond, fmt...)	__PB_WARN(cond, #cond)
#define VM_WARN(cond, fmt...)		__PB_WARN(cond, #cond)
#define VM_BUG_ON(cond)			((void)__PB_WARN(cond, #cond))
#define BUG_ON(cond)			((void)__PB_WARN(cond, #cond))
#define BUG()				abort()
#define BUILD_BUG_ON(cond)		_Static_assert(!(cond), #cond)
#define BUILD_BUG()			abort()

/*
 * include/asm-generic/memory_model.h, include/linux/mm.h: the model's
 * memory map.  Present PTEs in the tests map pages of model folios; the
 * folio of a pfn is described by model_folio_of(), set up by the test.
 */
struct page {
	unsigned long head_pfn;		/* first pfn of the folio */
	unsigned long nr_pages;		/* folio size, valid in the head page */
};

/* A folio overlays its head page, so &folio->page is the head page. */
struct folio {
	struct page page;
};

/* One per translation unit: enough pfns for every folio the tests map. */
#define MODEL_NR_PFNS	(1UL << 16)
static struct page model_memmap[MODEL_NR_PFNS];

#define pfn_to_page(pfn)	(&model_memmap[(pfn)])
#define page_to_pfn(page)	((unsigned long)((page) - model_memmap))
#define page_folio(p)	((struct folio *)&model_memmap[(p)->head_pfn])
#define phys_to_page(phys)	pfn_to_page((phys) >> PAGE_SHIFT)

#define pfn_folio(pfn)		page_folio(pfn_to_page(pfn))

static inline unsigned long folio_nr_pages(const struct folio *folio)
{
	return folio->page.nr_pages;
}

/* The user mm of the tests and the kernel's init_mm. */
static struct mm_struct init_mm;

struct task_struct {
	struct mm_struct *active_mm;
};

static struct task_struct *current;

#endif /* __PGTABLE_BATCH_CUSTOM_H */
