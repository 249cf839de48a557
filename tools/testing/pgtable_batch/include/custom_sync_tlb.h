/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSTOMISED for the arches whose PTE updates need no break-before-make and
 * whose TLB flushes complete before they return (x86, riscv): single-CPU
 * atomics and TLB invalidations, counted in the model and seen by its TLB
 * (see include/custom.h and model.h).  Included by their arch_custom.h.
 */
#ifndef __PGTABLE_BATCH_CUSTOM_SYNC_TLB_H
#define __PGTABLE_BATCH_CUSTOM_SYNC_TLB_H

static inline void __model_after_store(const volatile void *p)
{
	model_note_write(p);
	model_tlb_store(p);
}

/* asm/cmpxchg.h: xchg() on one CPU (x86 xchg, riscv amoswap), counted. */
#define xchg(p, n)							\
({									\
	__typeof__(*(p)) __old = *(p);					\
	model_note_read(p);						\
	*(p) = (n);							\
	__model_after_store(p);						\
	__old;								\
})

/* asm/bitops.h: an atomic read-modify-write (lock btr, amoand), counted. */
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
 * Counted invalidations.  They return once every CPU of the mm has flushed
 * (x86's flush_tlb_mm_range() waits for its IPIs; riscv's
 * __flush_tlb_range() for the sfence.vma of each CPU, by IPI or SBI remote
 * fence), so each is complete when it returns.
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
 * CPUs to flush (x86: a cpumask of the mm; riscv: the same, in
 * asm/tlbbatch.h), and arch_tlbbatch_flush() (arch/x86/mm/tlb.c,
 * arch/riscv/mm/tlbflush.c) flushes their whole TLB and waits for it.
 */
struct arch_tlbflush_unmap_batch {
	bool pending;		/* a CPU is to be flushed */
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

#endif /* __PGTABLE_BATCH_CUSTOM_SYNC_TLB_H */
