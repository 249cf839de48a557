/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shared.h
 *
 * Test runner macros (as in tools/testing/vma) and the helpers that build
 * page table states, run a batched helper and its per-PTE loop on the same
 * state, and compare the outcomes.
 */

#ifndef __PGTABLE_BATCH_SHARED_H
#define __PGTABLE_BATCH_SHARED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch.h"
#include "model.h"

/* Simple test runner. Assumes local num_[fail, tests] counters. */
#define TEST(_name)							\
	do {								\
		(*num_tests)++;						\
		if (!test_##_name()) {					\
			(*num_fail)++;					\
			fprintf(stderr, "Test " #_name " FAILED (%s)\n",	\
				arch->name);				\
		}							\
	} while (0)

#define __ASSERT_TRUE(_expr, _fmt, ...)					\
	do {								\
		if (!(_expr)) {						\
			fprintf(stderr,					\
				"Assert FAILED at %s:%d:%s(): %s is FALSE" \
				_fmt ".\n", __FILE__, __LINE__, __func__, \
				#_expr, ##__VA_ARGS__);			\
			return false;					\
		}							\
	} while (0)

#define __TO_SCALAR(x)	((unsigned long long)(uintptr_t)(x))

#define ASSERT_TRUE(_expr) __ASSERT_TRUE(_expr, "")
#define ASSERT_FALSE(_expr) ASSERT_TRUE(!(_expr))
#define ASSERT_EQ(_val1, _val2) do {				 \
	__typeof__(_val1) __val1 = (_val1);			 \
	__typeof__(_val2) __val2 = (_val2);			 \
	__ASSERT_TRUE(__val1 == __val2, " (0x%llx != 0x%llx)",	 \
		      __TO_SCALAR(__val1), __TO_SCALAR(__val2)); \
	} while (0)

#define ASSERT_NE(_val1, _val2) do {				 \
	__typeof__(_val1) __val1 = (_val1);			 \
	__typeof__(_val2) __val2 = (_val2);			 \
	__ASSERT_TRUE(__val1 != __val2, " (0x%llx == 0x%llx)",	 \
		      __TO_SCALAR(__val1), __TO_SCALAR(__val2)); \
	} while (0)

#define ASSERT_LE(_val1, _val2) do {				 \
	__typeof__(_val1) __val1 = (_val1);			 \
	__typeof__(_val2) __val2 = (_val2);			 \
	__ASSERT_TRUE(__val1 <= __val2, " (0x%llx > 0x%llx)",	 \
		      __TO_SCALAR(__val1), __TO_SCALAR(__val2)); \
	} while (0)

#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#define min(a, b)	((a) < (b) ? (a) : (b))

/* The architecture under test. */
extern const struct pb_arch *arch;

/*
 * The geometry of the cases: batches of 1 to 2 * PB_BLOCK + 1 PTEs starting
 * at every offset of a PB_BLOCK-aligned block, the size of an arm64 contpte
 * block with 4K pages.  arch->cont_ptes is PB_BLOCK with contpte, else 1.
 */
#define PB_BLOCK	16

/* The tests map PTEs below this index only. */
#define PB_WINDOW	128

/* pfn mapped by table index i in the tests' folios. */
#define PB_PFN_BASE	0x1000UL
#define pb_pfn(idx)	(PB_PFN_BASE + (idx))

/* How the 16-aligned blocks fully inside a folio are mapped. */
enum pb_fold {
	PB_FOLD_NONE,		/* all PTEs non-contiguous */
	PB_FOLD_ALL,		/* every block folded */
	PB_FOLD_ALT,		/* every other block folded */
	PB_FOLD_RANDOM,		/* each block folded or not at random */
	PB_NR_FOLD,
};

/* Attributes given to present PTEs (see pb_attr()). */
enum pb_pattern {
	PB_PAT_CLEAN,		/* writable, clean, old */
	PB_PAT_DIRTY,		/* writable, dirty, young */
	PB_PAT_MIXED,		/* per PTE: dirty, hardware dirty, young */
	PB_PAT_MIXED_RO,	/* per block: read-only or writable */
	PB_PAT_RANDOM,		/* everything at random */
	PB_NR_PAT,
};

/* Varies the attributes of PB_PAT_RANDOM between tables. */
extern uint64_t pb_attr_salt;
unsigned int pb_attr(enum pb_pattern pat, unsigned int idx);
void pb_clear_table(void);
void pb_map(unsigned int idx, unsigned int n, enum pb_fold fold,
	    enum pb_pattern pat);
void pb_make_none(unsigned int idx, unsigned int n);
void pb_fill_leaves(unsigned int idx, unsigned int n, enum pb_leaf kind,
		    unsigned int type, unsigned long offset,
		    unsigned int flags);
uint64_t pb_leaf_at(enum pb_leaf kind, unsigned int type,
		    unsigned long offset, unsigned int flags, unsigned int i);
bool pb_leaf_has_offset(enum pb_leaf kind);

/*
 * Step @v through every combination of @n values, v[i] < dim[i], the last
 * one fastest.  Returns false after the last combination.
 */
bool pb_next_case(unsigned int *v, const unsigned int *dim, unsigned int n);

/* Deterministic pseudo-random numbers (xorshift64*). */
uint64_t pb_rand(void);
void pb_srand(uint64_t seed);

/* A batched helper, the per-PTE loop it must match, and how to judge. */
struct pb_op {
	const char *name;
	uint64_t (*batch)(unsigned int idx, unsigned int nr, uint64_t arg);
	uint64_t (*ref)(unsigned int idx, unsigned int nr, uint64_t arg);
	unsigned int flags;
};

/* The result is a PTE: compare it without the private contiguous bit. */
#define PB_OP_RET_PTE		(1u << 0)
/*
 * arm64 clears access/dirty of a whole contpte block that the range covers
 * only partly (contpte_clear_young_dirty_ptes()): outside the range, those
 * bits may be cleared; inside it, they must be.
 */
#define PB_OP_AD_BLOCKWIDE	(1u << 1)
/*
 * The helper sets or clears entries: its page_table_check hooks must see
 * the same PTEs as the loop's.  (Helpers that modify entries in place,
 * like wrprotect_ptes(), call no hook on arm64, while the generic loop of
 * clear_young_dirty_ptes() clears and sets.)
 */
#define PB_OP_PTC		(1u << 2)
/* An access/dirty helper: arm64 may read whole contpte blocks. */
#define PB_OP_YOUNG		(1u << 3)
/* The argument points to a struct pb_leaf_arg. */
#define PB_OP_LEAF_ARG		(1u << 4)

extern const struct pb_op pb_op_set_ptes;
extern const struct pb_op pb_op_get_and_clear_full_ptes;
extern const struct pb_op pb_op_clear_full_ptes;
extern const struct pb_op pb_op_clear_nonpresent_ptes;
extern const struct pb_op pb_op_wrprotect_ptes;
extern const struct pb_op pb_op_clear_young_dirty_ptes;
extern const struct pb_op pb_op_test_and_clear_young_ptes;
extern const struct pb_op pb_op_clear_flush_young_ptes;
extern const struct pb_op pb_op_set_softleaf_ptes;
extern const struct pb_op pb_op_unmap_to_softleaf;

/* Argument of set_softleaf_ptes and unmap: which entries to write. */
struct pb_leaf_arg {
	enum pb_leaf kind;
	unsigned int type;
	unsigned long offset;
	unsigned int flags;
};

/* Totals over every pb_check(), printed at the end. */
struct pb_totals {
	unsigned long cases;
	struct model_counts batch;
	struct model_counts ref;
	unsigned long tlb_live;		/* translations the TLB model cached */
	unsigned long tlb_dropped;	/* and removed by completed flushes */
	unsigned long tlb_violations;	/* break-before-make violations */
};
extern struct pb_totals pb_totals;

/*
 * Run @op's batched helper and its per-PTE loop on the current table state,
 * each under the TLB model, and check the outcome (see shared.c).  Leaves the table as the batched
 * helper left it.  Prints what differs and returns false on failure.
 */
bool pb_check(const struct pb_op *op, unsigned int idx, unsigned int nr,
	      uint64_t arg);

/* Which test case failed, for the failure message. */
extern char pb_context[256];

#endif /* __PGTABLE_BATCH_SHARED_H */
