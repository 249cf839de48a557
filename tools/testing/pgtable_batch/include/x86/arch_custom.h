/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CUSTOMISED for x86: the atomics the x86 PTE code uses and TLB flushes,
 * counted in the model and seen by its TLB (see include/custom.h,
 * include/custom_sync_tlb.h and model.h).  x86 PTE updates issue no
 * barriers.
 */
#ifndef __PGTABLE_BATCH_ARCH_CUSTOM_H
#define __PGTABLE_BATCH_ARCH_CUSTOM_H

#include "../custom_sync_tlb.h"

/* arch/x86/include/asm/cmpxchg.h: single-CPU atomics, counted. */
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

/* arch/x86/include/asm/barrier.h: compiler barriers only. */
#define smp_rmb()	do { } while (0)
#define smp_wmb()	do { } while (0)

#endif /* __PGTABLE_BATCH_ARCH_CUSTOM_H */
