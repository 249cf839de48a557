/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSTOMISED for riscv: the atomics, fences and TLB flushes the riscv PTE
 * code uses, counted in the model and seen by its TLB (see
 * include/custom.h, include/custom_sync_tlb.h and model.h).
 */
#ifndef __PGTABLE_BATCH_ARCH_CUSTOM_H
#define __PGTABLE_BATCH_ARCH_CUSTOM_H

#include "../custom_sync_tlb.h"

/*
 * include/linux/atomic/atomic-long.h: ptep_set_wrprotect() stores with
 * atomic_long_set(), a plain store (WRITE_ONCE()).
 */
typedef struct { s64 counter; } atomic_long_t;

#define atomic_long_set(v, i)	WRITE_ONCE((v)->counter, (i))

/*
 * arch/riscv/include/asm/barrier.h: the SMP barriers are fences, counted
 * as arm64's dmb().
 */
#define smp_rmb()	((void)model_counts.dmb++)
#define smp_wmb()	((void)model_counts.dmb++)

#endif /* __PGTABLE_BATCH_ARCH_CUSTOM_H */
