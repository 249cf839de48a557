/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch.h
 *
 * What a translation unit that compiles the kernel's PTE code exports to the
 * tests: constructors for PTE values made with the kernel's own helpers, the
 * batched helpers under test, and the per-PTE loop each of them must match.
 * PTEs are addressed by their index in model_pt[]; index i maps
 * MODEL_BASE_ADDR + i * page size.
 */

#ifndef __PGTABLE_BATCH_ARCH_H
#define __PGTABLE_BATCH_ARCH_H

#include <stdbool.h>
#include <stdint.h>

/* Attributes of a present PTE (mk_present). */
#define PB_WRITE	(1u << 0)	/* writable */
#define PB_DIRTY	(1u << 1)	/* pte_mkdirty() */
#define PB_HWDIRTY	(1u << 2)	/* dirtied by hardware (arm64 DBM) */
#define PB_YOUNG	(1u << 3)	/* pte_mkyoung(), else pte_mkold() */
#define PB_UFFD_WP	(1u << 4)	/* pte_mkuffd_wp() */
#define PB_SOFT_DIRTY	(1u << 5)	/* pte_mksoft_dirty() / pte_swp_mksoft_dirty() */
#define PB_EXCLUSIVE	(1u << 6)	/* pte_swp_mkexclusive() */
#define PB_SWP_UFFD_WP	(1u << 7)	/* pte_swp_mkuffd_wp() */

/* Kinds of non-present entries (mk_softleaf). */
enum pb_leaf {
	PB_LEAF_SWAP,
	PB_LEAF_MIGRATION_READ,
	PB_LEAF_MIGRATION_READ_EXCLUSIVE,
	PB_LEAF_MIGRATION_WRITE,
	PB_LEAF_DEVICE_PRIVATE_READ,
	PB_LEAF_DEVICE_PRIVATE_WRITE,
	PB_LEAF_DEVICE_EXCLUSIVE,
	PB_LEAF_HWPOISON,
	PB_LEAF_MARKER_UFFD_WP,
	PB_LEAF_MARKER_GUARD,
	PB_LEAF_MARKER_POISONED,
	PB_LEAF_MARKER_UFFD_WP_GUARD,
	PB_NR_LEAF,
};

/* Flags of clear_young_dirty_ptes(). */
#define PB_CYDP_YOUNG	(1u << 0)
#define PB_CYDP_DIRTY	(1u << 1)

struct pb_arch {
	const char *name;
	unsigned int cont_ptes;		/* PTEs per contpte block, 1 if none */
	uint64_t cont_bit;		/* the private contiguous bit, or 0 */
	bool has_soft_dirty;		/* soft-dirty is tracked */

	/* Entry constructors and accessors (the kernel's own helpers). */
	uint64_t (*mk_present)(unsigned long pfn, unsigned int flags);
	uint64_t (*mk_softleaf)(enum pb_leaf kind, unsigned int type,
				unsigned long offset, unsigned int flags);
	uint64_t (*ptep_get)(unsigned int idx);
	bool (*pte_valid)(uint64_t pte);
	unsigned long (*pte_pfn)(uint64_t pte);
	bool (*pte_dirty)(uint64_t pte);
	bool (*pte_young)(uint64_t pte);
	/* A present PTE without access, dirty and contiguous bits. */
	uint64_t (*pte_normal)(uint64_t pte);
	bool (*pte_present)(uint64_t pte);
	bool (*pte_write)(uint64_t pte);
	/* pte_same(), as folio_pte_batch_flags() compares PTEs. */
	bool (*pte_same)(uint64_t a, uint64_t b);
	/* pte_mkclean(pte_wrprotect()), as page_vma_mkclean_one() writes. */
	uint64_t (*mkclean)(uint64_t pte);
	void (*set_folio)(unsigned long pfn, unsigned long nr);
	/* Index of the first inconsistent contpte block, or -1. */
	int (*check_table)(void);

	/* The batched helpers, exactly as core mm calls them. */
	void (*set_ptes)(unsigned int idx, uint64_t pte, unsigned int nr);
	uint64_t (*get_and_clear_full_ptes)(unsigned int idx, unsigned int nr,
					    int full);
	void (*clear_full_ptes)(unsigned int idx, unsigned int nr, int full);
	void (*clear_nonpresent_ptes)(unsigned int idx, unsigned int nr);
	void (*wrprotect_ptes)(unsigned int idx, unsigned int nr);
	void (*clear_young_dirty_ptes)(unsigned int idx, unsigned int nr,
				       unsigned int cydp);
	bool (*test_and_clear_young_ptes)(unsigned int idx, unsigned int nr);
	bool (*clear_flush_young_ptes)(unsigned int idx, unsigned int nr);
	void (*set_softleaf_ptes)(unsigned int idx, uint64_t pte,
				  unsigned int nr);

	/* The per-PTE loops they are defined by. */
	void (*ref_set_ptes)(unsigned int idx, uint64_t pte, unsigned int nr);
	uint64_t (*ref_get_and_clear_full_ptes)(unsigned int idx,
						unsigned int nr, int full);
	void (*ref_clear_full_ptes)(unsigned int idx, unsigned int nr,
				    int full);
	void (*ref_clear_nonpresent_ptes)(unsigned int idx, unsigned int nr);
	void (*ref_wrprotect_ptes)(unsigned int idx, unsigned int nr);
	void (*ref_clear_young_dirty_ptes)(unsigned int idx, unsigned int nr,
					   unsigned int cydp);
	bool (*ref_test_and_clear_young_ptes)(unsigned int idx,
					      unsigned int nr);
	bool (*ref_clear_flush_young_ptes)(unsigned int idx, unsigned int nr);
	/* set_softleaf_ptes(): the tests loop over set_pte_at() themselves. */

	/* pte_move_softleaf_offset() of include/linux/pgtable_batch.h. */
	uint64_t (*move_softleaf_offset)(uint64_t pte, long delta);
	/* softleaf_pte_batch() of include/linux/pgtable_batch.h. */
	unsigned int (*softleaf_pte_batch)(unsigned int idx, uint64_t pte,
					   unsigned int max_nr);

	/* Single-PTE operations used to build test states. */
	void (*set_pte_at)(unsigned int idx, uint64_t pte);

	/*
	 * The TLB model (model.h) and the TLB maintenance core mm issues
	 * around the helpers, on the range of @nr PTEs from @idx.
	 */
	void (*tlb_reset)(void);		/* model_tlb_reset() */
	void (*flush_tlb_range)(unsigned int idx, unsigned int nr);
	/* Reclaim's deferred flush: arch_tlbbatch_add_pending()... */
	void (*tlbbatch_add_pending)(unsigned int idx, unsigned int nr);
	/* ... and arch_tlbbatch_flush(), which completes it. */
	void (*tlbbatch_flush)(void);
	/* pte_advance_pfn() */
	uint64_t (*pte_advance_pfn)(uint64_t pte, unsigned long nr);
	/* A plain WRITE_ONCE() of a PTE, as a buggy caller would store it. */
	void (*raw_store)(unsigned int idx, uint64_t pte);
};

extern const struct pb_arch arm64_arch;
extern const struct pb_arch arm64_nocontpte_arch;
extern const struct pb_arch x86_arch;
extern const struct pb_arch riscv64_arch;

#endif /* __PGTABLE_BATCH_ARCH_H */
