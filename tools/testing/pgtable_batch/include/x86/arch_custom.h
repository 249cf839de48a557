/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSTOMISED for x86: the atomics the x86 PTE code uses and TLB flushes,
 * counted in the model and seen by its TLB (see include/custom.h and
 * model.h).  x86 PTE updates issue no barriers.
 */
#ifndef __PGTABLE_BATCH_ARCH_CUSTOM_H
#define __PGTABLE_BATCH_ARCH_CUSTOM_H

static inline void __model_after_store(const volatile void *p)
{
	model_note_write(p);
	model_tlb_store(p);
}

/* arch/x86/include/asm/cmpxchg.h: single-CPU atomics, counted. */
#define xchg(p, n)							\
({									\
	__typeof__(*(p)) __old = *(p);					\
	model_note_read(p);						\
	*(p) = (n);							\
	__model_after_store(p);						\
	__old;								\
})

#define try_cmpxchg(p, po, n)						\
({									\
	bool __ok = *(p) == *(po);					\
	model_note_read(p);						\
	if (__ok) {							\
		*(p) = (n);						\
		__model_after_store(p);					\
	} else {							\
		*(po) = *(p);						\
	}								\
	__ok;								\
})

/* arch/x86/include/asm/bitops.h: an atomic read-modify-write, counted. */
static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	unsigned long old = *addr;

	model_note_read(addr);
	if (old & (1UL << nr)) {
		*addr = old & ~(1UL << nr);
		__model_after_store(addr);
	}
	return old & (1UL << nr);
}

/* arch/x86/include/asm/barrier.h: compiler barriers only. */
#define smp_rmb()	do { } while (0)
#define smp_wmb()	do { } while (0)

/*
 * arch/x86/include/asm/tlbflush.h: counted invalidations.  They return once
 * every CPU has flushed (flush_tlb_mm_range() waits for its IPIs), so each
 * is complete when it returns.
 */
static inline void flush_tlb_range(struct vm_area_struct *vma,
				   unsigned long start, unsigned long end)
{
	model_note_tlbi(start, end, PAGE_SIZE);
	model_note_tlb_sync();
}

static inline void flush_tlb_page(struct vm_area_struct *vma,
				  unsigned long addr)
{
	model_note_tlbi(addr, addr + PAGE_SIZE, PAGE_SIZE);
	model_note_tlb_sync();
}

/*
 * The deferred flush of reclaim: arch_tlbbatch_add_pending() only notes the
 * CPUs to flush, and arch_tlbbatch_flush() (arch/x86/mm/tlb.c) flushes
 * their whole TLB and waits for it.
 */
struct arch_tlbflush_unmap_batch {
	bool unmapped_pages;
};

static inline void
arch_tlbbatch_add_pending(struct arch_tlbflush_unmap_batch *batch,
			  struct mm_struct *mm, unsigned long start,
			  unsigned long end)
{
	batch->unmapped_pages = true;
}

static inline void arch_tlbbatch_flush(struct arch_tlbflush_unmap_batch *batch)
{
	model_note_tlbi(MODEL_BASE_ADDR,
			MODEL_BASE_ADDR + (2UL * MODEL_NR_PTES << PAGE_SHIFT),
			PAGE_SIZE);
	model_note_tlb_sync();
	batch->unmapped_pages = false;
}

#endif /* __PGTABLE_BATCH_ARCH_CUSTOM_H */
