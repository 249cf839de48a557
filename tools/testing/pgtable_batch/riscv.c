// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv.c
 *
 * Compiles the real riscv64 PTE code of the tree under test against the
 * model page table: arch/riscv/include/asm/pgtable.h, pgtable-64.h,
 * pgtable-bits.h and page.h (PTE layout with the Svrsw60t59b soft-dirty
 * and uffd-wp bits, swap entries, single-PTE helpers),
 * include/linux/pgtable.h and include/linux/pgtable_batch.h.  riscv
 * overrides set_ptes() with its own loop; every other helper is the
 * generic layer over the riscv single-PTE operations, and each must be
 * exactly the per-PTE loop.
 */

/*
 * The kernel code of every architecture is linked into one program: the
 * out-of-line function that x86.c also defines gets a name of its own.
 */
#define ptep_test_and_clear_young	riscv_ptep_test_and_clear_young

#include "include/pgtable_batch_internal.h"

#include <linux/pgtable_batch.h>

#include "arch.h"

/*
 * STUBBED: arch/riscv/mm/cacheflush.c.  Only an executable present PTE
 * needs the icache flushed, and the tests map none.
 */
void flush_icache_pte(struct mm_struct *mm, pte_t pte)
{
	fprintf(stderr, "%s: not modelled\n", __func__);
	abort();
}

/*
 * DUPLICATED from arch/riscv/mm/pgtable.c: the out-of-line single-PTE
 * access-bit helper, which that file defines among functions the model has
 * no use for.
 */
bool ptep_test_and_clear_young(struct vm_area_struct *vma,
		unsigned long address, pte_t *ptep)
{
	if (!pte_young(ptep_get(ptep)))
		return false;
	return test_and_clear_bit(_PAGE_ACCESSED_OFFSET, &pte_val(*ptep));
}

/* riscv has no PAGE_READONLY: a read-only private mapping is PAGE_READ. */
#define PAGE_READONLY		PAGE_READ

#define PB_ARCH			riscv64_arch
#define PB_ARCH_NAME		"riscv64"
#define PB_CONT_PTES		1
#define PB_CONT_BIT		0

#define arch_pte_valid(pte)	pte_present(pte)
#define arch_pte_normal(pte)	(pte)

/*
 * A write to a writable PTE sets _PAGE_DIRTY: the hardware with Svadu, the
 * page fault handler without it.  (_PAGE_ACCESSED too, which the tests
 * choose separately.)
 */
static pte_t arch_hw_dirty(pte_t pte)
{
	return __pte(pte_val(pte) | _PAGE_DIRTY);
}

/* Without Svnapot riscv has no contiguous PTEs: every table is consistent. */
static int arch_check_table(void)
{
	return -1;
}

/*
 * What the MMU makes of an entry, for the TLB model: an entry with the V
 * bit (_PAGE_PRESENT; a PROT_NONE entry, which pte_present() also counts,
 * has it clear and is not walked) is cached per page.  Without Svnapot
 * there is no contiguous translation, and without Svpbmt no memory type:
 * as on x86, what the model checks is that no live translation has its
 * output address changed without a completed flush.
 */
#define PB_TLB_CONT_PTES	1

static void arch_tlb_decode(uint64_t val, struct model_xlat *x)
{
	pte_t pte = __pte(val);

	x->valid = pte_val(pte) & _PAGE_PRESENT;
	x->cont = false;
	x->pfn = pte_pfn(pte);
	x->attrs = 0;
	x->writable = x->valid && (pte_val(pte) & _PAGE_WRITE);
}

#include "ops.c"
