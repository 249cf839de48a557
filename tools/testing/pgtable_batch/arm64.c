// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64.c
 *
 * Compiles the real arm64 PTE code of the tree under test against the model
 * page table: arch/arm64/include/asm/pgtable.h (PTE layout, raw helpers and
 * the contpte-aware public helpers), include/linux/pgtable.h and
 * include/linux/pgtable_batch.h (the generic layer), and
 * arch/arm64/mm/contpte.c (the out-of-line contpte batch logic), and
 * exports them to the tests through struct pb_arch.  Compiled twice: with
 * CONFIG_ARM64_CONTPTE (arm64.o) and, like a kernel without contpte.c,
 * without it (arm64-nocontpte.o).
 */

#include "include/pgtable_batch_internal.h"

#include <linux/pgtable_batch.h>

#include "arch.h"

#ifdef CONFIG_ARM64_CONTPTE

/* Directly import the contpte implementation, static helpers and all. */
#include <arch/arm64/mm/contpte.c>

/*
 * STUBBED: out-of-line arm64 functions that the code above references but
 * the batched helpers never reach (arch/arm64/mm/fault.c).
 */
int __ptep_set_access_flags_anysz(struct vm_area_struct *vma,
				  unsigned long address, pte_t *ptep,
				  pte_t entry, int dirty, unsigned long pgsize)
{
	fprintf(stderr, "%s: not modelled\n", __func__);
	abort();
}

#define PB_ARCH			arm64_arch
#define PB_ARCH_NAME		"arm64"
#define PB_CONT_PTES		CONT_PTES
#define PB_CONT_BIT		PTE_CONT

#else /* CONFIG_ARM64_CONTPTE */

/* Without contpte.c nothing may set PTE_CONT. */
static bool contpte_is_consistent(pte_t pte, unsigned long pfn,
				  pgprot_t orig_prot)
{
	return false;
}

#define PB_ARCH			arm64_nocontpte_arch
#define PB_ARCH_NAME		"arm64 without CONFIG_ARM64_CONTPTE"
#define PB_CONT_PTES		1
#define PB_CONT_BIT		0

#endif /* CONFIG_ARM64_CONTPTE */

#define arch_pte_valid(pte)	pte_valid(pte)
#define arch_pte_normal(pte)	pte_mknoncont(pte)

/* Hardware DBM: a write to a writable PTE clears PTE_RDONLY. */
static pte_t arch_hw_dirty(pte_t pte)
{
	return clear_pte_bit(pte, __pgprot(PTE_RDONLY));
}

/*
 * A valid contiguous PTE is only allowed in a block whose CONT_PTES entries
 * are all valid, contiguous, physically aligned and share their attributes
 * (bar access and dirty): the hardware may use any entry of the block to
 * translate any address of it.  The check is contpte.c's own
 * contpte_is_consistent().
 */
static int arch_check_table(void)
{
	unsigned int blk, i;

	for (blk = 0; blk < MODEL_NR_PTES; blk += CONT_PTES) {
		pte_t *ptep = (pte_t *)&model_pt[blk];
		pte_t first = ptep[0];
		bool any = false;
		unsigned long pfn;
		pgprot_t prot;

		for (i = 0; i < CONT_PTES; i++)
			any |= pte_valid_cont(ptep[i]);
		if (!any)
			continue;
		if (!pte_valid_cont(first) || (pte_pfn(first) & (CONT_PTES - 1)))
			return blk;
		pfn = pte_pfn(first);
		prot = pte_pgprot(pte_mkold(pte_mkclean(first)));
		for (i = 0; i < CONT_PTES; i++)
			if (!contpte_is_consistent(ptep[i], pfn + i, prot))
				return blk;
	}
	return -1;
}

/*
 * What the MMU makes of an entry, for the TLB model: a valid entry is
 * walked; with PTE_CONT (whether or not the kernel is built with contpte,
 * the hardware honours it) it translates its whole CONT_PTES block.
 * Changing the memory type, shareability or nG of a live translation needs
 * break-before-make as changing its output address does; permissions,
 * access and dirty do not.
 */
#define PB_TLB_CONT_PTES	CONT_PTES

static void arch_tlb_decode(uint64_t val, struct model_xlat *x)
{
	pte_t pte = __pte(val);

	x->valid = pte_valid(pte);
	x->cont = x->valid && pte_cont(pte);
	x->pfn = pte_pfn(pte);
	x->attrs = val & (PTE_ATTRINDX_MASK | PTE_SHARED | PTE_NG);
	/*
	 * Writable: PTE_RDONLY clear, or PTE_WRITE (DBM) set, with which the
	 * hardware clears PTE_RDONLY on the first write.
	 */
	x->writable = x->valid &&
		      (!(val & PTE_RDONLY) || (val & PTE_WRITE));
}

#include "ops.c"
