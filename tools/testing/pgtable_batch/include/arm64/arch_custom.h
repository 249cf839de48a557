/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSTOMISED for arm64: atomics, barriers, the BBML3 feature check and TLB
 * invalidation, counted in the model and seen by its TLB (see
 * include/custom.h and model.h).
 */
#ifndef __PGTABLE_BATCH_ARCH_CUSTOM_H
#define __PGTABLE_BATCH_ARCH_CUSTOM_H

/*
 * Set between contpte_convert() emptying a contpte block and repainting it
 * (see system_supports_bbml3() below); the next store to the model then
 * tells whether the block was folded or unfolded.
 */
static bool arm64_convert_pending;

static inline void __model_after_store(const volatile void *p)
{
	if (!model_owns(p))
		return;
	if (arm64_convert_pending) {
		arm64_convert_pending = false;
		model_note_convert(p, *(const volatile u64 *)p & PTE_CONT);
	}
	model_note_write(p);
	model_tlb_store(p);
}

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

/*
 * arch/arm64/include/asm/barrier.h: counted, no instruction issued.  A dsb
 * of loads and stores (ish, nsh, osh, sy; not the ST or LD variants) is the
 * one that completes the TLB invalidations issued before it, as
 * __tlbi_sync_s1ish() relies on: the TLB model drops what they removed.
 */
static inline void __model_dsb(const char *opt)
{
	model_counts.dsb++;
	if (!strstr(opt, "st") && !strstr(opt, "ld"))
		model_note_tlb_sync();
}

#define dsb(opt)	__model_dsb(#opt)
#define dmb(opt)	((void)model_counts.dmb++)
#define isb()		((void)model_counts.isb++)
/* The SMP barriers are dmb()s on arm64: counted as such. */
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
 * range; the barriers it issues are those of __do_flush_tlb_range(): a
 * dsb(ishst) before the tlbi and, unless TLBF_NOSYNC, the dsb(ish) of
 * __tlbi_sync_s1ish() after it, which completes it.
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
	dsb(ishst);
	model_note_tlbi(start, end, stride);
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
	dsb(ishst);
	model_note_tlbi(start, end, PAGE_SIZE);
	dsb(ish);
	isb();
}

/*
 * The deferred flush of reclaim (mm/rmap.c set_tlb_ubc_flush_pending() and
 * try_to_unmap_flush()), as arm64 implements it: the TLBI is issued at once
 * without waiting for it, and arch_tlbbatch_flush() completes all of them
 * later with one dsb(ish) (__tlbi_sync_s1ish_batch()).
 */
struct arch_tlbflush_unmap_batch {};

static inline void
arch_tlbbatch_add_pending(struct arch_tlbflush_unmap_batch *batch,
			  struct mm_struct *mm, unsigned long start,
			  unsigned long end)
{
	struct vm_area_struct vma = { .vm_mm = mm, .vm_flags = 0 };

	__flush_tlb_range(&vma, start, end, PAGE_SIZE, 3,
			  TLBF_NOWALKCACHE | TLBF_NOSYNC);
}

static inline void arch_tlbbatch_flush(struct arch_tlbflush_unmap_batch *batch)
{
	dsb(ish);
}

#endif /* __PGTABLE_BATCH_ARCH_CUSTOM_H */
