/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * STUBBED for riscv: ISA extensions, errata alternatives (memory types),
 * ASIDs and the local TLB fences that the riscv PTE code references,
 * reduced to "feature absent", except Svrsw60t59b.
 */
#ifndef __PGTABLE_BATCH_ARCH_STUBS_H
#define __PGTABLE_BATCH_ARCH_STUBS_H

/*
 * ISA extensions (arch/riscv/include/asm/hwcap.h numbers, cpufeature.h
 * checks).  Svrsw60t59b is present, so that the soft-dirty and uffd-wp
 * bits (_PAGE_SOFT_DIRTY, _PAGE_UFFD, _PAGE_SWP_*) are real; Svnapot,
 * Svpbmt, Svvptc, Svinval and Svadu are absent.
 */
#define RISCV_ISA_EXT_SVINVAL		28
#define RISCV_ISA_EXT_SVPBMT		29
#define RISCV_ISA_EXT_SVNAPOT		33
#define RISCV_ISA_EXT_SVVPTC		86
#define RISCV_ISA_EXT_SVADU		93
#define RISCV_ISA_EXT_SVRSW60T59B	100

static inline bool riscv_has_extension_unlikely(const unsigned long ext)
{
	return ext == RISCV_ISA_EXT_SVRSW60T59B;
}

static inline bool riscv_has_extension_likely(const unsigned long ext)
{
	return ext == RISCV_ISA_EXT_SVRSW60T59B;
}

/*
 * arch/riscv/include/asm/errata_list.h: without Svpbmt and the T-Head MAE
 * erratum, the memory type bits are 0 and pfn_pte() adds none.
 */
#define ALT_SVPBMT(_val, prot)	((_val) = 0)
#define ALT_THEAD_PMA(_val)	((void)(_val))

/*
 * arch/riscv/include/asm/tlbflush.h: the local fences of
 * update_mmu_cache_range(), which no batched helper calls.  Not modelled:
 * they abort if reached.
 */
#define FLUSH_TLB_NO_ASID	((unsigned long)-1)

static inline unsigned long get_mm_asid(struct mm_struct *mm)
{
	return FLUSH_TLB_NO_ASID;
}

static inline void __riscv_not_modelled(const char *fn)
{
	fprintf(stderr, "%s: not modelled\n", fn);
	abort();
}

static inline void local_sfence_w_inval(void)
{
	__riscv_not_modelled(__func__);
}

static inline void local_sinval_vma(unsigned long vma, unsigned long asid)
{
	__riscv_not_modelled(__func__);
}

static inline void local_sfence_inval_ir(void)
{
	__riscv_not_modelled(__func__);
}

static inline void local_flush_tlb_page_asid(unsigned long addr,
					     unsigned long asid)
{
	__riscv_not_modelled(__func__);
}

#endif /* __PGTABLE_BATCH_ARCH_STUBS_H */
