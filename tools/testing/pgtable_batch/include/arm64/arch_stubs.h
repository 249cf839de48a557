/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * STUBBED for arm64: CPU features, memory types, cache maintenance and
 * kernel page tables that the arm64 PTE code references, reduced to
 * "feature absent".
 */
#ifndef __PGTABLE_BATCH_ARCH_STUBS_H
#define __PGTABLE_BATCH_ARCH_STUBS_H

/* CPU features: none of MTE, POE, HAFT, BTI, realm, LPA2 support. */
static inline bool system_supports_mte(void) { return false; }
static inline bool system_supports_poe(void) { return false; }
static inline bool system_supports_haft(void) { return false; }
static inline bool system_supports_bti_kernel(void) { return false; }
static inline bool is_realm_world(void) { return false; }
static inline bool cpu_has_hw_af(void) { return true; }
#define read_sysreg_s(r)			0UL
#define SYS_POR_EL0				0
static inline bool por_elx_allows_read(u64 por, u8 pkey) { return true; }
static inline bool por_elx_allows_write(u64 por, u8 pkey) { return true; }
static inline bool por_elx_allows_exec(u64 por, u8 pkey) { return true; }
#define FIELD_GET(mask, reg)	\
	((__typeof__(mask))(((reg) & (mask)) >> __builtin_ctzll(mask)))

/* Memory attributes indices (arch/arm64/include/asm/memory.h). */
#define MT_NORMAL		0
#define MT_NORMAL_TAGGED	1
#define MT_NORMAL_NC		2
#define MT_DEVICE_nGnRnE	3
#define MT_DEVICE_nGnRE		4

/* Cache and tag maintenance done when mapping user pages: not modelled. */
static inline void __sync_icache_dcache(pte_t pteval) { }
static inline void mte_sync_tags(pte_t pte, unsigned int nr_pages) { }
static inline void mte_invalidate_tags(int type, pgoff_t offset) { }
static inline void mte_invalidate_tags_area(int type) { }
static inline bool pgattr_change_is_safe(pteval_t old, pteval_t new)
{
	return true;
}

/* Kernel page tables and the fixmap: the model only has a user table. */
extern pgd_t swapper_pg_dir[];
static inline void set_swapper_pgd(pgd_t *pgdp, pgd_t pgd) { }
#define __va(x)			((void *)(unsigned long)(x))
#define __pa(x)			((phys_addr_t)(unsigned long)(x))
#define __phys_to_kimg(x)	((unsigned long)(x))
#define VA_BITS			CONFIG_ARM64_VA_BITS
#define vabits_actual		((u64)VA_BITS)

/* The lazy MMU mode is never entered by the tests. */
#define TIF_LAZY_MMU_PENDING	0
static inline bool is_lazy_mmu_mode_active(void) { return false; }
static inline bool test_thread_flag(int flag) { return false; }
static inline void set_thread_flag(int flag) { }
static inline bool test_and_clear_thread_flag(int flag) { return false; }

/* arch/arm64/include/asm/page.h */
typedef struct page *pgtable_t;

#endif /* __PGTABLE_BATCH_ARCH_STUBS_H */
