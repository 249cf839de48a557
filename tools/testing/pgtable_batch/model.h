/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h
 *
 * The model page table: one PTE table (one PMD's worth of PTEs) in ordinary
 * memory, and counters for every access the kernel code under test makes to
 * it.  This header uses no kernel headers, so the test runner and the
 * translation units that compile kernel code can share it.
 */

#ifndef __PGTABLE_BATCH_MODEL_H
#define __PGTABLE_BATCH_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define MODEL_NR_PTES		512

/*
 * The PTE table; the kernel code under test sees it as pte_t[].  It is
 * followed by the table of the next PMD, so that a batch crossing a PMD
 * boundary, against the contract, stays in memory the tests own.
 */
extern uint64_t model_pt[2 * MODEL_NR_PTES];
#define MODEL_PT_BYTES		(MODEL_NR_PTES * sizeof(uint64_t))

/* Virtual address mapped by model_pt[0] (PMD aligned). */
#define MODEL_BASE_ADDR		0x40000000UL
/* Every configuration under test has 4K pages. */
#define MODEL_PAGE_SHIFT	12

/*
 * What a batch costs.  Every field is incremented by the instrumented
 * primitives the kernel code is compiled against; none of them is set by
 * the code under test itself.
 */
struct model_counts {
	unsigned long reads;		/* loads of a model PTE */
	unsigned long writes;		/* stores to a model PTE */
	unsigned long unfolds;		/* contpte blocks rewritten non-contiguous */
	unsigned long folds;		/* contpte blocks rewritten contiguous */
	unsigned long tlbi;		/* TLB invalidation calls */
	unsigned long tlbi_pages;	/* pages covered by those calls */
	unsigned long dsb;		/* dsb() barriers */
	unsigned long isb;		/* isb() barriers */
	unsigned long dmb;		/* dmb() barriers */
	unsigned long ptc_set;		/* PTEs passed to page_table_check_ptes_set() */
	unsigned long ptc_clear;	/* PTEs passed to page_table_check_pte_clear() */
	unsigned long warns;		/* WARN_ON()/VM_WARN_ON() that fired */
};

extern struct model_counts model_counts;

/* Table index of the first PTE of each block unfolded since the reset. */
#define MODEL_MAX_UNFOLDS	64
extern unsigned int model_unfolded[MODEL_MAX_UNFOLDS];

void model_reset_counts(void);

/* Hooks called by the instrumented primitives. */
bool model_owns(const volatile void *p);
void model_note_read(const volatile void *p);
void model_note_write(const volatile void *p);
void model_note_convert(const volatile void *p, bool to_cont);
void model_note_tlbi(unsigned long start, unsigned long end,
		     unsigned long stride);
void model_note_warn(const char *file, int line, const char *cond);

/*
 * The TLB model: which translations the hardware may hold for each PTE slot
 * of model_pt[], and break-before-make.  A valid entry may be walked and
 * cached at any time once it is visible: every store of one, and every
 * valid entry when the model is reset, makes its translation live.  A
 * contiguous entry makes one translation live for every slot of its block.
 * A live translation goes away only once a TLB invalidation covering it
 * (model_note_tlbi()) has been completed by a barrier
 * (model_note_tlb_sync()); a valid entry still in the table is then cached
 * again.  A store of a valid entry whose translation differs from a live one
 * of the same slot in its contiguity, output address or attributes that
 * need break-before-make is a violation: it is counted and the first one
 * described in model_tlb_report.
 */
struct model_xlat {
	bool valid;		/* the hardware may walk the entry */
	bool cont;		/* contiguous: translates its whole block */
	uint64_t pfn;		/* output address of the slot, in pages */
	uint64_t attrs;		/* attributes whose change needs BBM */
	bool writable;		/* the hardware may write through it */
};

/* Decodes a PTE value of the architecture under test. */
typedef void (*model_decode_t)(uint64_t pte, struct model_xlat *x);

struct model_tlb_state {
	unsigned long violations;	/* stores that broke BBM since the reset */
	unsigned long live;		/* translations made live */
	unsigned long dropped;		/* live translations invalidated */
};

extern struct model_tlb_state model_tlb;
extern char model_tlb_report[256];

/*
 * Start the model over: nothing cached but what the table maps now, as if
 * the hardware had walked every valid entry.  @cont_ptes is the size of a
 * contiguous block (1 without one).  Until the first reset, and after
 * model_tlb_off(), stores are not checked.
 */
void model_tlb_reset(unsigned int cont_ptes, model_decode_t decode);
void model_tlb_off(void);
/* A store to a model PTE has been made; check it and cache it. */
void model_tlb_store(const volatile void *p);
/* A completion barrier: finish every TLB invalidation issued so far. */
void model_note_tlb_sync(void);
/* Whether a translation of slot @idx is live, contiguous or not. */
bool model_tlb_live(unsigned int idx, bool cont);
/*
 * Whether a live translation of slot @idx may still allow a write: one
 * walked from a writable entry stays writable, whatever is stored over
 * it, until an invalidation of it completes.
 */
bool model_tlb_writable(unsigned int idx);

/* While paused, accesses are not counted (used around debug checks). */
void model_pause(void);
void model_resume(void);

#endif /* __PGTABLE_BATCH_MODEL_H */
