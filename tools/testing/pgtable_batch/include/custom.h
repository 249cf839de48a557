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
 * Set between contpte_convert() emptying a contpte block and repainting it
 * (see system_supports_bbml3() below); the next store to the model then
 * tells whether the block was folded or unfolded.
 */
extern bool arm64_convert_pending;

static inline void __model_after_store(const volatile void *p)
{
	if (!model_owns(p))
		return;
	if (arm64_convert_pending) {
		arm64_convert_pending = false;
		model_note_convert(p, *(const volatile u64 *)p & PTE_CONT);
	}
	model_note_write(p);
}

/* include/asm-generic/rwonce.h, counting accesses to the model. */
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

/* arch/arm64/include/asm/cmpxchg.h: single-CPU atomics, counted. */
static inline u64 __model_xchg(volatile u64 *p, u64 new)
{
	u64 old = *p;

	model_note_read(p);
	*p = new;
	__model_after_store(p);
	return old;
}

static inline u64 __model_cmpxchg(volatile u64 *p, u64 old, u64 new)
{
	u64 cur = *p;

	model_note_read(p);
	if (cur == old) {
		*p = new;
		__model_after_store(p);
	}
	return cur;
}

#define xchg_relaxed(p, n)		__model_xchg((p), (n))
#define cmpxchg_relaxed(p, o, n)	__model_cmpxchg((p), (o), (n))
#define try_cmpxchg(p, po, n)						\
({									\
	u64 __o = *(po);						\
	u64 __r = __model_cmpxchg((p), __o, (n));			\
	if (__r != __o)							\
		*(po) = __r;						\
	__r == __o;							\
})

/* arch/arm64/include/asm/barrier.h: counted, no instruction issued. */
#define dsb(opt)	((void)model_counts.dsb++)
#define dmb(opt)	((void)model_counts.dmb++)
#define isb()		((void)model_counts.isb++)
#define smp_rmb()	dmb(ishld)
#define smp_wmb()	dmb(ishst)
#define smp_mb()	dmb(ish)

/*
 * arch/arm64/include/asm/cpufeature.h.  contpte_convert() asks this exactly
 * once per conversion, after emptying the block and before repainting it:
 * the model uses that to count folds and unfolds.  BBML3 is reported absent
 * so every conversion pays its TLB invalidation, as on most hardware.
 */
static inline bool system_supports_bbml3(void)
{
	arm64_convert_pending = true;
	return false;
}

/*
 * arch/arm64/include/asm/tlbflush.h.  Each call is one invalidation of the
 * range; the barriers it issues are those of __do_flush_tlb_range(): a dsb
 * before the tlbi and one after unless TLBF_NOSYNC.
 */
typedef unsigned __bitwise tlbf_t;

#define TLBF_NONE		((__force tlbf_t)0)
#define TLBF_NOWALKCACHE	((__force tlbf_t)BIT(0))
#define TLBF_NOSYNC		((__force tlbf_t)BIT(1))
#define TLBF_NONOTIFY		((__force tlbf_t)BIT(2))
#define TLBF_NOBROADCAST	((__force tlbf_t)BIT(3))
#define TLBI_TTL_UNKNOWN	0

static inline void __flush_tlb_range(struct vm_area_struct *vma,
				     unsigned long start, unsigned long end,
				     unsigned long stride, int tlb_level,
				     tlbf_t flags)
{
	start = round_down(start, stride);
	end = round_up(end, stride);
	model_note_tlbi(start, end, stride);
	dsb(ishst);
	if (!(flags & TLBF_NOSYNC))
		dsb(ish);
}

static inline void flush_tlb_range(struct vm_area_struct *vma,
				   unsigned long start, unsigned long end)
{
	__flush_tlb_range(vma, start, end, PAGE_SIZE, TLBI_TTL_UNKNOWN,
			  TLBF_NONE);
}

static inline void __flush_tlb_page(struct vm_area_struct *vma,
				    unsigned long uaddr, tlbf_t flags)
{
	unsigned long start = round_down(uaddr, PAGE_SIZE);

	__flush_tlb_range(vma, start, start + PAGE_SIZE, PAGE_SIZE, 3,
			  TLBF_NOWALKCACHE | flags);
}

static inline void flush_tlb_page(struct vm_area_struct *vma,
				  unsigned long uaddr)
{
	__flush_tlb_page(vma, uaddr, TLBF_NONE);
}

static inline void flush_tlb_kernel_range(unsigned long start,
					  unsigned long end)
{
	model_note_tlbi(start, end, PAGE_SIZE);
	dsb(ishst);
	dsb(ish);
	isb();
}

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

static inline void page_table_check_pmds_set(struct mm_struct *mm,
					     unsigned long addr, pmd_t *pmdp,
					     pmd_t pmd, unsigned int nr) { }
static inline void page_table_check_pmd_clear(struct mm_struct *mm,
					      unsigned long addr, pmd_t pmd) { }
static inline void page_table_check_puds_set(struct mm_struct *mm,
					     unsigned long addr, pud_t *pudp,
					     pud_t pud, unsigned int nr) { }
static inline void page_table_check_pud_clear(struct mm_struct *mm,
					      unsigned long addr, pud_t pud) { }

/*
 * include/asm-generic/bug.h and include/linux/mmdebug.h: a warning is
 * counted and printed, and the tests fail on any warning they did not ask
 * for.  The condition is evaluated with the model paused, as the kernel
 * only evaluates it with CONFIG_DEBUG_VM, so that its PTE reads are not
 * charged to the batch.
 */
#define WARN_ON(cond)							\
({									\
	int __ret;							\
	model_pause();							\
	__ret = !!(cond);						\
	model_resume();							\
	if (unlikely(__ret))						\
		model_note_warn(__FILE__, __LINE__, #cond);		\
	unlikely(__ret);						\
})
#define WARN_ON_ONCE(cond)		WARN_ON(cond)
#define WARN(cond, fmt...)		WARN_ON(cond)
#define WARN_ONCE(cond, fmt...)		WARN_ON(cond)
#define VM_WARN_ON(cond)		((void)WARN_ON(cond))
#define VM_WARN_ON_ONCE(cond)		WARN_ON(cond)
#define VM_WARN_ONCE(cond, fmt...)	WARN_ON(cond)
#define VM_WARN(cond, fmt...)		WARN_ON(cond)
#define VM_BUG_ON(cond)			((void)WARN_ON(cond))
#define BUG_ON(cond)			((void)WARN_ON(cond))
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

extern struct page model_memmap[];

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
extern struct mm_struct init_mm;

struct task_struct {
	struct mm_struct *active_mm;
};

extern struct task_struct *current;

#endif /* __PGTABLE_BATCH_CUSTOM_H */
