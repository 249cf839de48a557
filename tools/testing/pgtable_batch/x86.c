// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86.c
 *
 * Compiles the real x86_64 PTE code of the tree under test against the
 * model page table: arch/x86/include/asm/pgtable.h and pgtable_64.h (PTE
 * layout with soft-dirty and the inverted swap offset, single-PTE helpers),
 * include/linux/pgtable.h and include/linux/pgtable_batch.h.  x86_64
 * overrides set_softleaf_ptes() (the offset advanced in the encoding);
 * every other helper is the generic layer over the x86 single-PTE
 * operations, and each must be exactly the per-PTE loop.
 */

#include "include/pgtable_batch_internal.h"

#include <linux/pgtable_batch.h>

#include "arch.h"

struct x86_platform_ops x86_platform;

/* DUPLICATED from arch/x86/mm/init.c: every PTE bit is supported. */
pteval_t __supported_pte_mask __read_mostly = ~0;

/*
 * DUPLICATED from arch/x86/mm/pgtable.c: the out-of-line single-PTE
 * access-bit helpers, which that file defines among functions the model
 * has no use for.
 */
bool ptep_test_and_clear_young(struct vm_area_struct *vma,
		unsigned long addr, pte_t *ptep)
{
	bool ret = false;

	if (pte_young(*ptep))
		ret = test_and_clear_bit(_PAGE_BIT_ACCESSED,
					 (unsigned long *) &ptep->pte);

	return ret;
}

bool ptep_clear_flush_young(struct vm_area_struct *vma,
		unsigned long address, pte_t *ptep)
{
	return ptep_test_and_clear_young(vma, address, ptep);
}

/*
 * DUPLICATED from arch/x86/mm/pgtable.c: the out-of-line part of the
 * set_softleaf_ptes() override, which checks the range and picks between
 * advancing and keeping the entry; the loop and the offset arithmetic it
 * calls are the tree's <asm/pgtable.h>.
 */
void x86_set_softleaf_ptes(struct mm_struct *mm, unsigned long addr,
			   pte_t *ptep, pte_t pte, unsigned int nr)
{
	VM_WARN_ON(nr < 2);
	VM_WARN_ON(pmd_addr_end(addr, addr + nr * PAGE_SIZE) !=
		   addr + nr * PAGE_SIZE);

	__set_softleaf_ptes(mm, addr, ptep, pte, nr,
			    softleaf_pte_has_offset(pte));
}

#define PB_ARCH			x86_arch
#define PB_ARCH_NAME		"x86_64"
#define PB_CONT_PTES		1
#define PB_CONT_BIT		0

#define arch_pte_valid(pte)	pte_present(pte)
#define arch_pte_normal(pte)	(pte)

/* The hardware sets the dirty bit of a writable PTE on a write. */
static pte_t arch_hw_dirty(pte_t pte)
{
	return pte_set_flags(pte, _PAGE_DIRTY);
}

/* x86 has no contiguous PTE bit: every table is consistent. */
static int arch_check_table(void)
{
	return -1;
}

/*
 * What the MMU makes of an entry, for the TLB model: a present entry
 * (_PAGE_PRESENT; a PROT_NONE entry is not walked) is cached per page.
 * x86 has no contiguous bit and no break-before-make rule: what the model
 * checks is that no live translation has its output address changed
 * without a completed flush.
 */
#define PB_TLB_CONT_PTES	1

static void arch_tlb_decode(uint64_t val, struct model_xlat *x)
{
	pte_t pte = __pte(val);

	x->valid = pte_flags(pte) & _PAGE_PRESENT;
	x->cont = false;
	x->pfn = pte_pfn(pte);
	x->attrs = 0;
	x->writable = x->valid && (pte_flags(pte) & _PAGE_RW);
}

#include "ops.c"
