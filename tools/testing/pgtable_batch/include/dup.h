/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DUPLICATED from the kernel: declarations the code under test uses, with
 * the kernel's definitions (types partially: only the members used).
 */
#ifndef __PGTABLE_BATCH_DUP_H
#define __PGTABLE_BATCH_DUP_H

/* include/linux/mm_types.h (PARTIALLY: members the PTE code reads). */
typedef unsigned long vm_flags_t;

struct mm_struct {
	pgd_t *pgd;
	atomic_t mm_users;
	atomic_t tlb_flush_pending;
};

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	vm_flags_t vm_flags;
};

typedef struct {
	unsigned long val;
} swp_entry_t;

typedef swp_entry_t softleaf_t;

/* Flags for clear_young_dirty_ptes(). */
typedef int __bitwise cydp_t;

/* Clear the access bit */
#define CYDP_CLEAR_YOUNG		((__force cydp_t)BIT(0))

/* Clear the dirty bit */
#define CYDP_CLEAR_DIRTY		((__force cydp_t)BIT(1))

/* include/linux/mm.h */
#define TLB_FLUSH_VMA(mm, flags) { .vm_mm = (mm), .vm_flags = (flags) }

/* include/linux/atomic.h */
#define atomic_read(v)		((v)->counter)

/* include/linux/log2.h */
#define ilog2(n)		(63 - __builtin_clzll(n))

/* include/linux/pfn.h */
#define PFN_PHYS(x)	((phys_addr_t)(x) << PAGE_SHIFT)
#define PHYS_PFN(x)	((unsigned long)((x) >> PAGE_SHIFT))

/* include/linux/math.h */
#define round_up(x, y)		((((x)-1) | ((__typeof__(x))((y)-1)))+1)
#define round_down(x, y)	((x) & ~((__typeof__(x))((y)-1)))

/* include/linux/xarray.h */
#define BITS_PER_XA_VALUE	(BITS_PER_LONG - 1)

/* include/linux/swap.h */
#define MAX_SWAPFILES_SHIFT	5

#define SWP_PTE_MARKER_NUM 1
#define SWP_PTE_MARKER     (MAX_SWAPFILES + SWP_HWPOISON_NUM + \
			    SWP_MIGRATION_NUM + SWP_DEVICE_NUM)

#define SWP_DEVICE_NUM 3
#define SWP_DEVICE_WRITE (MAX_SWAPFILES+SWP_HWPOISON_NUM+SWP_MIGRATION_NUM)
#define SWP_DEVICE_READ (MAX_SWAPFILES+SWP_HWPOISON_NUM+SWP_MIGRATION_NUM+1)
#define SWP_DEVICE_EXCLUSIVE (MAX_SWAPFILES+SWP_HWPOISON_NUM+SWP_MIGRATION_NUM+2)

#define SWP_MIGRATION_NUM 3
#define SWP_MIGRATION_READ (MAX_SWAPFILES + SWP_HWPOISON_NUM)
#define SWP_MIGRATION_READ_EXCLUSIVE (MAX_SWAPFILES + SWP_HWPOISON_NUM + 1)
#define SWP_MIGRATION_WRITE (MAX_SWAPFILES + SWP_HWPOISON_NUM + 2)

#define SWP_HWPOISON_NUM 1
#define SWP_HWPOISON		MAX_SWAPFILES

#define MAX_SWAPFILES \
	((1 << MAX_SWAPFILES_SHIFT) - SWP_DEVICE_NUM - \
	SWP_MIGRATION_NUM - SWP_HWPOISON_NUM - \
	SWP_PTE_MARKER_NUM)

#endif /* __PGTABLE_BATCH_DUP_H */
