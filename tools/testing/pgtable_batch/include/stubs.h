/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * STUBBED: kernel features that the PTE batch code calls or references but
 * that play no part in what the tests check.  Each is reduced to "feature
 * absent" (false, 0, no-op).
 */
#ifndef __PGTABLE_BATCH_STUBS_H
#define __PGTABLE_BATCH_STUBS_H

struct mm_struct;
struct vm_area_struct;
struct vm_fault;
struct folio;
struct page;
struct file;

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

/* EFI runtime services have their own mm; there is none here. */
static inline bool mm_is_efi(struct mm_struct *mm) { return false; }

/* Migration entries without young/dirty bits (include/linux/swapfile.h). */
#define swap_migration_ad_supported	false

/*
 * Page and folio locks, RCU and the xarray value encoding: used by helpers
 * that look up the page behind an entry, which the batch code does not.
 */
static inline bool PageLocked(const struct page *page) { return true; }
static inline bool folio_test_locked(const struct folio *folio) { return true; }
static inline void rcu_read_lock(void) { }
static inline void rcu_read_unlock(void) { }
static inline void *xa_mk_value(unsigned long v) { return (void *)((v << 1) | 1); }
static inline unsigned long xa_to_value(const void *entry)
{
	return (unsigned long)entry >> 1;
}

/* Module exports. */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

/* The lazy MMU mode is never entered by the tests. */
#define TIF_LAZY_MMU_PENDING	0
static inline bool is_lazy_mmu_mode_active(void) { return false; }
static inline bool test_thread_flag(int flag) { return false; }
static inline void set_thread_flag(int flag) { }
static inline bool test_and_clear_thread_flag(int flag) { return false; }

/* TLB flush batching state of an mm. */
static inline bool mm_tlb_flush_pending(struct mm_struct *mm) { return false; }

#define pr_err(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)

#endif /* __PGTABLE_BATCH_STUBS_H */
