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

/* TLB flush batching state of an mm. */
static inline bool mm_tlb_flush_pending(struct mm_struct *mm) { return false; }

#define pr_err(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)

#endif /* __PGTABLE_BATCH_STUBS_H */
