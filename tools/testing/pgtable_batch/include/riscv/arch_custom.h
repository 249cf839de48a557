/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSTOMISED for riscv: the atomics and fences the riscv PTE code uses and
 * TLB flushes, counted in the model and seen by its TLB (see
 * include/custom.h and model.h).
 */
#ifndef __PGTABLE_BATCH_ARCH_CUSTOM_H
#define __PGTABLE_BATCH_ARCH_CUSTOM_H

static inline void __model_after_store(const volatile void *p)
{
	model_note_write(p);
	model_tlb_store(p);
}

/* arch/riscv/include/asm/cmpxchg.h: a single-CPU amoswap, counted. */
#define xchg(p, n)							\
({									\
	__typeof__(*(p)) __old = *(p);					\
	model_note_read(p);						\
	*(p) = (n);							\
	__model_after_store(p);						\
	__old;								\
})

/*
 * include/linux/atomic/atomic-long.h: ptep_set_wrprotect() stores with
 * atomic_long_set(), a plain store (WRITE_ONCE()).
 */
typedef struct { s64 counter; } atomic_long_t;

#define atomic_long_set(v, i)	WRITE_ONCE((v)->counter, (i))

/* arch/riscv/include/asm/bitops.h: an amoand, counted. */
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

/*
 * arch/riscv/include/asm/barrier.h: the SMP barriers are fences, counted
 * as arm64's dmb().
 */
#define smp_rmb()	((void)model_counts.dmb++)
#define smp_wmb()	((void)model_counts.dmb++)

/*
 * arch/riscv/mm/tlbflush.c: counted invalidations.  __flush_tlb_range()
 * returns once every CPU of the mm has run its sfence.vma (by IPI or SBI
 * remote fence), so each is complete when it returns.
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
 * The deferred flush of reclaim: arch_tlbbatch_add_pending() only records
 * the CPUs of the mm (arch/riscv/include/asm/tlbbatch.h holds a cpumask),
 * and arch_tlbbatch_flush() flushes their whole TLB (start 0, size
 * FLUSH_TLB_MAX_SIZE) and waits for it.
 */
struct arch_tlbflush_unmap_batch {
	bool pending;		/* the cpumask is not empty */
};

static inline void
arch_tlbbatch_add_pending(struct arch_tlbflush_unmap_batch *batch,
			  struct mm_struct *mm, unsigned long start,
			  unsigned long end)
{
	batch->pending = true;
}

static inline void arch_tlbbatch_flush(struct arch_tlbflush_unmap_batch *batch)
{
	model_note_tlbi(MODEL_BASE_ADDR,
			MODEL_BASE_ADDR + (2UL * MODEL_NR_PTES << PAGE_SHIFT),
			PAGE_SIZE);
	model_note_tlb_sync();
	batch->pending = false;
}

#endif /* __PGTABLE_BATCH_ARCH_CUSTOM_H */
