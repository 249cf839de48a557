// SPDX-License-Identifier: GPL-2.0-only
/*
 * Conformance tests for the batched PTE helpers of <linux/pgtable_batch.h>.
 *
 * Every case runs a batched helper over @nr PTEs of one region of a page
 * table and the per-PTE reference of that helper over the same PTEs of a
 * second region set up identically, then expects every PTE of both regions
 * (read back with ptep_get()) and the return values to be equal.  This is
 * done for every @nr from 1 to 2 * BLOCK + 1 and every start offset inside a
 * block, where BLOCK is CONT_PTES if the architecture has contiguous PTE
 * blocks, else 16.  With BLOCK-aligned regions, a batch starts and ends in
 * partially and fully covered contpte blocks in every combination.
 *
 * The regions live in a page-table-sized page that belongs to a test mm but
 * is not linked into its page tables: no CPU walks it, and the helpers under
 * test only read and write its entries.  Present PTEs map pages of one large
 * folio that is mapped into both regions.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/leafops.h>
#include <linux/mm.h>
#include <linux/pgtable_batch.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/swapops.h>

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#ifdef CONT_PTES
#define BLOCK		CONT_PTES
#else
#define BLOCK		16
#endif
#define MAX_NR		(2 * BLOCK + 1)
/* Every PTE a batch of up to MAX_NR starting inside the first block touches. */
#define SPAN		(3 * BLOCK)
/* The batched region starts at index 0, the reference region here. */
#define REF		(PTRS_PER_PTE / 2)

struct pb_ctx {
	struct mm_struct *mm;
	struct vm_area_struct *vma;
	pte_t *table;
	struct folio *folio;
	unsigned long addr;	/* user address of table[0] */
};

static pte_t *pb_ptep(struct pb_ctx *c, bool ref, unsigned int i)
{
	return c->table + (ref ? REF : 0) + i;
}

static unsigned long pb_addr(struct pb_ctx *c, bool ref, unsigned int i)
{
	return c->addr + ((ref ? REF : 0) + i) * PAGE_SIZE;
}

/*
 * Bits private to the architecture are ignored: arm64's PTE_CONT, and the
 * _PAGE_NEEDSYNC bit that UML's set_pte() sets in every entry it writes
 * (its own TLB bookkeeping, which its pte_same() ignores too).
 */
static pte_t pb_norm(pte_t pte)
{
#ifdef CONFIG_ARM64_CONTPTE
	if (pte_present(pte))
		pte = pte_mknoncont(pte);
#endif
#ifdef CONFIG_UML
	pte = __pte(pte_val(pte) & ~_PAGE_NEEDSYNC);
#endif
	return pte;
}

/* Clear both regions through the per-PTE helpers (unfolding as needed). */
static void pb_clear(struct pb_ctx *c)
{
	unsigned int i;
	int r;

	for (r = 0; r < 2; r++) {
		for (i = 0; i < SPAN; i++) {
			pte_t *ptep = pb_ptep(c, r, i);
			pte_t pte = ptep_get(ptep);

			if (pte_present(pte))
				ptep_get_and_clear(c->mm, pb_addr(c, r, i), ptep);
			else if (!pte_none(pte))
				pte_clear(c->mm, pb_addr(c, r, i), ptep);
		}
	}
}

/*
 * Expect both regions to be equal; report the first difference only, so
 * that a broken helper does not flood the log.
 */
static bool pb_expect_same(struct kunit *test, struct pb_ctx *c,
			   const char *what, unsigned int nr, unsigned int off)
{
	unsigned int i;

	for (i = 0; i < SPAN; i++) {
		pte_t a = pb_norm(ptep_get(pb_ptep(c, false, i)));
		pte_t b = pb_norm(ptep_get(pb_ptep(c, true, i)));

		if (pte_val(a) != pte_val(b)) {
			KUNIT_FAIL(test,
				   "%s nr=%u off=%u: PTE %u is %#llx, per-PTE reference %#llx",
				   what, nr, off, i, (u64)pte_val(a),
				   (u64)pte_val(b));
			return false;
		}
	}
	return true;
}

/* Present PTE @i of a region, before any helper runs. */
enum pb_setup {
	/* One set_ptes() over the whole span: aligned blocks get folded. */
	PB_FOLDED,
	/*
	 * set_pte_at() per PTE with mixed young/dirty bits; some PTEs of the
	 * middle block are write-protected, so that block never folds.
	 */
	PB_MIXED,
	PB_NR_SETUPS,
};

static pte_t pb_present_pte(struct pb_ctx *c, enum pb_setup s, unsigned int i)
{
	pte_t pte = pfn_pte(folio_pfn(c->folio) + i,
			    vm_get_page_prot(VM_READ | VM_WRITE | VM_SHARED));

	pte = pte_mkold(pte_mkclean(pte));
	if (s == PB_FOLDED)
		return pte_mkyoung(pte_mkdirty(pte));
	if (i % 4 == 1 || i % 4 == 3)
		pte = pte_mkyoung(pte);
	if (i % 4 >= 2)
		pte = pte_mkdirty(pte);
	if (i / BLOCK == 1 && i % 3 == 0)
		pte = pte_wrprotect(pte);
	return pte;
}

static void pb_fill_present(struct pb_ctx *c, enum pb_setup s)
{
	unsigned int i;
	int r;

	for (r = 0; r < 2; r++) {
		if (s == PB_FOLDED) {
			set_ptes(c->mm, pb_addr(c, r, 0), pb_ptep(c, r, 0),
				 pb_present_pte(c, s, 0), SPAN);
			continue;
		}
		for (i = 0; i < SPAN; i++)
			set_pte_at(c->mm, pb_addr(c, r, i), pb_ptep(c, r, i),
				   pb_present_pte(c, s, i));
	}
}

static void pb_merge_young_dirty(pte_t *merged, pte_t pte)
{
	if (pte_dirty(pte))
		*merged = pte_merge_dirty(*merged);
	if (pte_young(pte))
		*merged = pte_mkyoung(*merged);
}

enum pb_op {
	PB_GET_AND_CLEAR_FULL,
	PB_GET_AND_CLEAR_FULL_MM,
	PB_GET_AND_CLEAR,
	PB_CLEAR_FULL,
	PB_WRPROTECT,
	PB_CLEAR_YOUNG,
	PB_CLEAR_DIRTY,
	PB_CLEAR_YOUNG_DIRTY,
	PB_TEST_AND_CLEAR_YOUNG,
};

static const char * const pb_op_name[] = {
	[PB_GET_AND_CLEAR_FULL]		= "get_and_clear_full_ptes(full=0)",
	[PB_GET_AND_CLEAR_FULL_MM]	= "get_and_clear_full_ptes(full=1)",
	[PB_GET_AND_CLEAR]		= "get_and_clear_ptes",
	[PB_CLEAR_FULL]			= "clear_full_ptes",
	[PB_WRPROTECT]			= "wrprotect_ptes",
	[PB_CLEAR_YOUNG]		= "clear_young_dirty_ptes(young)",
	[PB_CLEAR_DIRTY]		= "clear_young_dirty_ptes(dirty)",
	[PB_CLEAR_YOUNG_DIRTY]		= "clear_young_dirty_ptes(young|dirty)",
	[PB_TEST_AND_CLEAR_YOUNG]	= "test_and_clear_young_ptes",
};

/* The batched helper; returns its result as a u64 (0 if it has none). */
static u64 pb_batch(struct pb_ctx *c, enum pb_op op, unsigned int off,
		    unsigned int nr)
{
	unsigned long addr = pb_addr(c, false, off);
	pte_t *ptep = pb_ptep(c, false, off);

	switch (op) {
	case PB_GET_AND_CLEAR_FULL:
		return pte_val(pb_norm(get_and_clear_full_ptes(c->mm, addr,
							       ptep, nr, 0)));
	case PB_GET_AND_CLEAR_FULL_MM:
		return pte_val(pb_norm(get_and_clear_full_ptes(c->mm, addr,
							       ptep, nr, 1)));
	case PB_GET_AND_CLEAR:
		return pte_val(pb_norm(get_and_clear_ptes(c->mm, addr, ptep,
							  nr)));
	case PB_CLEAR_FULL:
		clear_full_ptes(c->mm, addr, ptep, nr, 0);
		return 0;
	case PB_WRPROTECT:
		wrprotect_ptes(c->mm, addr, ptep, nr);
		return 0;
	case PB_CLEAR_YOUNG:
		clear_young_dirty_ptes(c->vma, addr, ptep, nr,
				       CYDP_CLEAR_YOUNG);
		return 0;
	case PB_CLEAR_DIRTY:
		clear_young_dirty_ptes(c->vma, addr, ptep, nr,
				       CYDP_CLEAR_DIRTY);
		return 0;
	case PB_CLEAR_YOUNG_DIRTY:
		clear_young_dirty_ptes(c->vma, addr, ptep, nr,
				       CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY);
		return 0;
	case PB_TEST_AND_CLEAR_YOUNG:
		return test_and_clear_young_ptes(c->vma, addr, ptep, nr);
	}
	return 0;
}

/* The per-PTE reference of pb_batch(). */
static u64 pb_reference(struct pb_ctx *c, enum pb_op op, unsigned int off,
			unsigned int nr)
{
	pte_t merged = __pte(0);
	bool young = false;
	unsigned int i;

	for (i = off; i < off + nr; i++) {
		unsigned long addr = pb_addr(c, true, i);
		pte_t *ptep = pb_ptep(c, true, i);
		pte_t pte;

		switch (op) {
		case PB_GET_AND_CLEAR_FULL:
		case PB_GET_AND_CLEAR:
		case PB_GET_AND_CLEAR_FULL_MM:
			pte = ptep_get_and_clear_full(c->mm, addr, ptep,
						      op == PB_GET_AND_CLEAR_FULL_MM);
			if (i == off)
				merged = pte;
			else
				pb_merge_young_dirty(&merged, pte);
			break;
		case PB_CLEAR_FULL:
			ptep_get_and_clear_full(c->mm, addr, ptep, 0);
			break;
		case PB_WRPROTECT:
			ptep_set_wrprotect(c->mm, addr, ptep);
			break;
		case PB_CLEAR_YOUNG:
			clear_young_dirty_ptes(c->vma, addr, ptep, 1,
					       CYDP_CLEAR_YOUNG);
			break;
		case PB_CLEAR_DIRTY:
			clear_young_dirty_ptes(c->vma, addr, ptep, 1,
					       CYDP_CLEAR_DIRTY);
			break;
		case PB_CLEAR_YOUNG_DIRTY:
			clear_young_dirty_ptes(c->vma, addr, ptep, 1,
					       CYDP_CLEAR_YOUNG |
					       CYDP_CLEAR_DIRTY);
			break;
		case PB_TEST_AND_CLEAR_YOUNG:
			young |= ptep_test_and_clear_young(c->vma, addr, ptep);
			break;
		}
	}

	switch (op) {
	case PB_GET_AND_CLEAR_FULL:
	case PB_GET_AND_CLEAR_FULL_MM:
	case PB_GET_AND_CLEAR:
		return pte_val(pb_norm(merged));
	case PB_TEST_AND_CLEAR_YOUNG:
		return young;
	default:
		return 0;
	}
}

static void pb_run_present(struct kunit *test, enum pb_op op)
{
	struct pb_ctx *c = test->priv;
	unsigned int nr, off;
	enum pb_setup s;

	for (s = 0; s < PB_NR_SETUPS; s++) {
		for (nr = 1; nr <= MAX_NR; nr++) {
			for (off = 0; off < BLOCK; off++) {
				u64 got, want;
				bool ok;

				pb_fill_present(c, s);
				got = pb_batch(c, op, off, nr);
				want = pb_reference(c, op, off, nr);
				ok = pb_expect_same(test, c, pb_op_name[op],
						    nr, off);
				pb_clear(c);
				if (!ok)
					return;
				if (got != want) {
					KUNIT_FAIL(test,
						   "%s nr=%u off=%u setup=%d: returned %#llx, per-PTE reference %#llx",
						   pb_op_name[op], nr, off, s,
						   got, want);
					return;
				}
			}
		}
	}
}

static const enum pb_op pb_ops[] = {
	PB_GET_AND_CLEAR_FULL,
	PB_GET_AND_CLEAR_FULL_MM,
	PB_GET_AND_CLEAR,
	PB_CLEAR_FULL,
	PB_WRPROTECT,
	PB_CLEAR_YOUNG,
	PB_CLEAR_DIRTY,
	PB_CLEAR_YOUNG_DIRTY,
	PB_TEST_AND_CLEAR_YOUNG,
};

static void pb_op_desc(const enum pb_op *op, char *desc)
{
	strscpy(desc, pb_op_name[*op], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pb_op, pb_ops, pb_op_desc);

/* One case per helper (and flag variant) that takes present PTEs. */
static void pb_present_ptes(struct kunit *test)
{
	const enum pb_op *op = test->param_value;

	pb_run_present(test, *op);
}

/* set_ptes() against set_pte_at() of independently built PTEs. */
static void pb_set_ptes(struct kunit *test)
{
	struct pb_ctx *c = test->priv;
	unsigned int nr, off, i;
	enum pb_setup s;

	for (s = 0; s < PB_NR_SETUPS; s++) {
		for (nr = 1; nr <= MAX_NR; nr++) {
			for (off = 0; off < BLOCK; off++) {
				pte_t first = pb_present_pte(c, s, off);
				bool ok;

				set_ptes(c->mm, pb_addr(c, false, off),
					 pb_ptep(c, false, off),
					 first, nr);
				/* set_ptes() repeats the first PTE's bits. */
				for (i = off; i < off + nr; i++)
					set_pte_at(c->mm, pb_addr(c, true, i),
						   pb_ptep(c, true, i),
						   pte_advance_pfn(first, i - off));
				ok = pb_expect_same(test, c, "set_ptes", nr,
						    off);
				pb_clear(c);
				if (!ok)
					return;
			}
		}
	}
}

/*
 * A non-present entry kind: pb_leaf(c, k, flags, i) is the entry that
 * set_softleaf_ptes() must write into PTE @i of a batch, built from scratch
 * (not by advancing entry i - 1).
 */
enum pb_leaf_kind {
	PB_LEAF_SWAP,
	PB_LEAF_MIGRATION_READ,
	PB_LEAF_MIGRATION_READ_EXCLUSIVE,
	PB_LEAF_MIGRATION_WRITE,
	PB_LEAF_MIGRATION_YOUNG_DIRTY,
	PB_LEAF_DEVICE_PRIVATE_READ,
	PB_LEAF_DEVICE_EXCLUSIVE,
	PB_LEAF_HWPOISON,
	PB_LEAF_MARKER_UFFD_WP,
	PB_LEAF_MARKER_GUARD,
	PB_LEAF_MARKER_POISONED,
};

static const char * const pb_leaf_name[] = {
	[PB_LEAF_SWAP]				= "swap",
	[PB_LEAF_MIGRATION_READ]		= "migration read",
	[PB_LEAF_MIGRATION_READ_EXCLUSIVE]	= "migration read exclusive",
	[PB_LEAF_MIGRATION_WRITE]		= "migration write",
	[PB_LEAF_MIGRATION_YOUNG_DIRTY]		= "migration young dirty",
	[PB_LEAF_DEVICE_PRIVATE_READ]		= "device private read",
	[PB_LEAF_DEVICE_EXCLUSIVE]		= "device exclusive",
	[PB_LEAF_HWPOISON]			= "hwpoison",
	[PB_LEAF_MARKER_UFFD_WP]		= "uffd-wp marker",
	[PB_LEAF_MARKER_GUARD]			= "guard marker",
	[PB_LEAF_MARKER_POISONED]		= "poison marker",
};

#define PB_SWP_EXCLUSIVE	BIT(0)
#define PB_SWP_SOFT_DIRTY	BIT(1)
#define PB_SWP_UFFD		BIT(2)
#define PB_SWP_ALL		(BIT(3) - 1)

/* Swap offset of the first entry of a swap batch. */
#define PB_SWAP_OFFSET		0x1234

static bool pb_leaf_supported(enum pb_leaf_kind k)
{
	switch (k) {
	case PB_LEAF_MIGRATION_READ:
	case PB_LEAF_MIGRATION_READ_EXCLUSIVE:
	case PB_LEAF_MIGRATION_WRITE:
	case PB_LEAF_MIGRATION_YOUNG_DIRTY:
		return IS_ENABLED(CONFIG_MIGRATION);
	case PB_LEAF_DEVICE_PRIVATE_READ:
	case PB_LEAF_DEVICE_EXCLUSIVE:
		return IS_ENABLED(CONFIG_DEVICE_PRIVATE);
	case PB_LEAF_HWPOISON:
		return IS_ENABLED(CONFIG_MEMORY_FAILURE);
	default:
		return true;
	}
}

static bool pb_leaf_is_marker(enum pb_leaf_kind k)
{
	return k >= PB_LEAF_MARKER_UFFD_WP;
}

static pte_t pb_leaf(struct pb_ctx *c, enum pb_leaf_kind k,
		     unsigned int flags, unsigned int i)
{
	unsigned long pfn = folio_pfn(c->folio) + i;
	softleaf_t entry;
	pte_t pte;

	switch (k) {
	case PB_LEAF_SWAP:
		entry = swp_entry(0, PB_SWAP_OFFSET + i);
		break;
	case PB_LEAF_MIGRATION_READ:
		entry = make_readable_migration_entry(pfn);
		break;
	case PB_LEAF_MIGRATION_READ_EXCLUSIVE:
		entry = make_readable_exclusive_migration_entry(pfn);
		break;
	case PB_LEAF_MIGRATION_WRITE:
		entry = make_writable_migration_entry(pfn);
		break;
	case PB_LEAF_MIGRATION_YOUNG_DIRTY:
		entry = make_readable_migration_entry(pfn);
		entry = swp_entry(swp_type(entry), swp_offset(entry) |
				  SWP_MIG_YOUNG | SWP_MIG_DIRTY);
		/* Keep the young/dirty bits only if the PTE can hold them. */
		if (swp_offset(softleaf_from_pte(softleaf_to_pte(entry))) !=
		    swp_offset(entry))
			entry = make_readable_migration_entry(pfn);
		break;
	case PB_LEAF_DEVICE_PRIVATE_READ:
		entry = make_readable_device_private_entry(pfn);
		break;
	case PB_LEAF_DEVICE_EXCLUSIVE:
		entry = make_device_exclusive_entry(pfn);
		break;
	case PB_LEAF_HWPOISON:
#ifdef CONFIG_MEMORY_FAILURE
		entry = swp_entry(SWP_HWPOISON, pfn);
#else
		entry = swp_entry(0, 0);
#endif
		break;
	case PB_LEAF_MARKER_UFFD_WP:
		entry = make_pte_marker_entry(PTE_MARKER_UFFD_WP);
		break;
	case PB_LEAF_MARKER_GUARD:
		entry = make_guard_swp_entry();
		break;
	case PB_LEAF_MARKER_POISONED:
	default:
		entry = make_poisoned_swp_entry();
		break;
	}

	pte = softleaf_to_pte(entry);
	if (flags & PB_SWP_EXCLUSIVE)
		pte = pte_swp_mkexclusive(pte);
	if (flags & PB_SWP_SOFT_DIRTY)
		pte = pte_swp_mksoft_dirty(pte);
	if (flags & PB_SWP_UFFD)
		pte = pte_swp_mkuffd(pte);
	return pte;
}

/* Flag combinations to test for an entry kind. */
static bool pb_leaf_flags_ok(enum pb_leaf_kind k, unsigned int flags)
{
	/* Markers carry no swp PTE bits. */
	if (pb_leaf_is_marker(k))
		return !flags;
	/* page_table_check rejects uffd-wp on an entry that caches write. */
	if (k == PB_LEAF_MIGRATION_WRITE && (flags & PB_SWP_UFFD))
		return false;
	return true;
}

/* One set_softleaf_ptes() batch against its per-PTE reference. */
static bool pb_softleaf_one(struct kunit *test, struct pb_ctx *c,
			    enum pb_leaf_kind k, unsigned int flags,
			    unsigned int nr, unsigned int off, bool neighbours)
{
	unsigned int i;
	bool ok;
	int r;

	/*
	 * With neighbours, the span is mapped (aligned blocks folded) and the
	 * batch's PTEs are cleared one by one, as an unmap leaves them.
	 */
	if (neighbours) {
		pb_fill_present(c, PB_FOLDED);
		for (r = 0; r < 2; r++)
			for (i = off; i < off + nr; i++)
				ptep_get_and_clear(c->mm, pb_addr(c, r, i),
						   pb_ptep(c, r, i));
	}

	set_softleaf_ptes(c->mm, pb_addr(c, false, off), pb_ptep(c, false, off),
			  pb_leaf(c, k, flags, off), nr);
	/* A marker's entry does not depend on i. */
	for (i = off; i < off + nr; i++)
		set_pte_at(c->mm, pb_addr(c, true, i), pb_ptep(c, true, i),
			   pb_leaf(c, k, flags, i));

	ok = pb_expect_same(test, c, pb_leaf_name[k], nr, off);
	/*
	 * Both regions could lose the same bits: set_pte_at() itself must
	 * write each entry as built, bit for bit.
	 */
	for (i = off; ok && i < off + nr; i++) {
		pte_t want = pb_leaf(c, k, flags, i);
		pte_t got = pb_norm(ptep_get(pb_ptep(c, true, i)));

		if (pte_val(got) != pte_val(want)) {
			KUNIT_FAIL(test,
				   "%s nr=%u off=%u: PTE %u reads back as %#llx after set_pte_at(%#llx)",
				   pb_leaf_name[k], nr, off, i,
				   (u64)pte_val(got), (u64)pte_val(want));
			ok = false;
		}
	}
	if (!ok)
		kunit_info(test, "swp bits %#x, %s", flags,
			   neighbours ? "present neighbours" : "empty span");
	pb_clear(c);
	return ok;
}

static void pb_run_softleaf(struct kunit *test, enum pb_leaf_kind k,
			    bool neighbours)
{
	struct pb_ctx *c = test->priv;
	unsigned int flags, nr, off;

	for (flags = 0; flags <= PB_SWP_ALL; flags++) {
		if (!pb_leaf_flags_ok(k, flags))
			continue;
		for (nr = 1; nr <= MAX_NR; nr++)
			for (off = 0; off < BLOCK; off++)
				if (!pb_softleaf_one(test, c, k, flags, nr,
						     off, neighbours))
					return;
	}
}

static const enum pb_leaf_kind pb_leaf_kinds[] = {
	PB_LEAF_SWAP,
	PB_LEAF_MIGRATION_READ,
	PB_LEAF_MIGRATION_READ_EXCLUSIVE,
	PB_LEAF_MIGRATION_WRITE,
	PB_LEAF_MIGRATION_YOUNG_DIRTY,
	PB_LEAF_DEVICE_PRIVATE_READ,
	PB_LEAF_DEVICE_EXCLUSIVE,
	PB_LEAF_HWPOISON,
	PB_LEAF_MARKER_UFFD_WP,
	PB_LEAF_MARKER_GUARD,
	PB_LEAF_MARKER_POISONED,
};

static void pb_leaf_desc(const enum pb_leaf_kind *k, char *desc)
{
	strscpy(desc, pb_leaf_name[*k], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pb_leaf, pb_leaf_kinds, pb_leaf_desc);

/* One case per kind of non-present entry. */
static void pb_set_softleaf_ptes(struct kunit *test)
{
	const enum pb_leaf_kind *k = test->param_value;

	if (!pb_leaf_supported(*k))
		kunit_skip(test, "%s entries not configured", pb_leaf_name[*k]);
	if (*k == PB_LEAF_MIGRATION_YOUNG_DIRTY) {
		softleaf_t entry = softleaf_from_pte(pb_leaf(test->priv, *k,
							     0, 0));

		/*
		 * The young and dirty bits sit above the PFN, at offset bits
		 * SWP_PFN_BITS and SWP_PFN_BITS + 1, which depend on the
		 * physical address size the kernel runs with.
		 */
		kunit_info(test, "SWP_PFN_BITS %d, first entry %#llx, young/dirty bits %s",
			   (int)SWP_PFN_BITS,
			   (u64)pte_val(softleaf_to_pte(entry)),
			   swp_offset(entry) & SWP_MIG_YOUNG ? "set" :
			   "do not fit: same as migration read");
	}
	pb_run_softleaf(test, *k, false);
	pb_run_softleaf(test, *k, true);
}

/* clear_nonpresent_ptes() against pte_clear(), on swap entries. */
static void pb_clear_nonpresent_ptes(struct kunit *test)
{
	struct pb_ctx *c = test->priv;
	unsigned int nr, off, i;
	int r;

	for (nr = 1; nr <= MAX_NR; nr++) {
		for (off = 0; off < BLOCK; off++) {
			bool ok;

			for (r = 0; r < 2; r++)
				for (i = 0; i < SPAN; i++)
					set_pte_at(c->mm, pb_addr(c, r, i),
						   pb_ptep(c, r, i),
						   pb_leaf(c, PB_LEAF_SWAP,
							   PB_SWP_EXCLUSIVE, i));
			clear_nonpresent_ptes(c->mm, pb_addr(c, false, off),
					      pb_ptep(c, false, off), nr);
			for (i = off; i < off + nr; i++)
				pte_clear(c->mm, pb_addr(c, true, i),
					  pb_ptep(c, true, i));
			ok = pb_expect_same(test, c, "clear_nonpresent_ptes",
					    nr, off);
			pb_clear(c);
			if (!ok)
				return;
		}
	}
}

/*
 * The per-PTE reference itself must see the entries move: a batch of swap
 * entries read back must show consecutive offsets with the swp bits kept.
 */
static void pb_softleaf_offsets(struct kunit *test)
{
	struct pb_ctx *c = test->priv;
	pte_t first = pb_leaf(c, PB_LEAF_SWAP, PB_SWP_ALL, 0);
	unsigned int i;

	set_softleaf_ptes(c->mm, pb_addr(c, false, 0), pb_ptep(c, false, 0),
			  first, MAX_NR);
	for (i = 0; i < MAX_NR; i++) {
		pte_t pte = ptep_get(pb_ptep(c, false, i));
		softleaf_t entry = softleaf_from_pte(pte);

		KUNIT_EXPECT_TRUE(test, softleaf_is_swap(entry));
		KUNIT_EXPECT_EQ(test, swp_offset(entry),
				(pgoff_t)PB_SWAP_OFFSET + i);
		KUNIT_EXPECT_EQ(test, pte_swp_exclusive(pte),
				pte_swp_exclusive(first));
		KUNIT_EXPECT_EQ(test, pte_swp_soft_dirty(pte),
				pte_swp_soft_dirty(first));
		KUNIT_EXPECT_EQ(test, pte_swp_uffd(pte), pte_swp_uffd(first));
	}
	pb_clear(c);
}

/*
 * On arm64 with the contpte overrides, set_ptes() over aligned blocks of
 * one folio folds them (PTE_CONT); the folded setups of the other cases
 * depend on it.  Without CONFIG_ARM64_CONTPTE (which needs
 * CONFIG_TRANSPARENT_HUGEPAGE) this case is skipped, and a run that
 * tests no contpte override says so.
 */
static void pb_contpte_fold(struct kunit *test)
{
#ifdef CONFIG_ARM64_CONTPTE
	struct pb_ctx *c = test->priv;
	unsigned int i;

	pb_fill_present(c, PB_FOLDED);
	for (i = 0; i < SPAN; i++) {
		if (!pte_cont(__ptep_get(pb_ptep(c, false, i)))) {
			KUNIT_FAIL(test, "set_ptes() of %u PTEs left PTE %u unfolded",
				   SPAN, i);
			break;
		}
	}
	pb_clear(c);
#else
	kunit_skip(test, IS_ENABLED(CONFIG_ARM64) ?
		   "CONFIG_ARM64_CONTPTE off (needs TRANSPARENT_HUGEPAGE): contpte untested" :
		   "no contpte overrides on this architecture");
#endif
}

/*
 * Which of the helpers the cases test the architecture overrides (a macro
 * of the helper's name, see <linux/pgtable_batch.h>) and which are the
 * generic loops, in the suite's log, so that a run says what it covered.
 */
struct pb_override {
	const char *name;
	bool arch;
};

static const struct pb_override pb_overrides[] = {
#ifdef set_ptes
	{ "set_ptes", true },
#else
	{ "set_ptes", false },
#endif
#ifdef get_and_clear_full_ptes
	{ "get_and_clear_full_ptes", true },
#else
	{ "get_and_clear_full_ptes", false },
#endif
#ifdef clear_full_ptes
	{ "clear_full_ptes", true },
#else
	{ "clear_full_ptes", false },
#endif
#ifdef wrprotect_ptes
	{ "wrprotect_ptes", true },
#else
	{ "wrprotect_ptes", false },
#endif
#ifdef clear_young_dirty_ptes
	{ "clear_young_dirty_ptes", true },
#else
	{ "clear_young_dirty_ptes", false },
#endif
#ifdef test_and_clear_young_ptes
	{ "test_and_clear_young_ptes", true },
#else
	{ "test_and_clear_young_ptes", false },
#endif
#ifdef set_softleaf_ptes
	{ "set_softleaf_ptes", true },
#else
	{ "set_softleaf_ptes", false },
#endif
};

static int pb_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pb_overrides); i++)
		kunit_log(KERN_INFO, suite, KUNIT_SUBTEST_INDENT "# %s: %s: %s\n",
			  suite->name, pb_overrides[i].name,
			  pb_overrides[i].arch ? "arch override" : "generic loop");
	return 0;
}

static int pb_test_init(struct kunit *test)
{
	unsigned int order = get_order(SPAN * PAGE_SIZE);
	struct pb_ctx *c;

	BUILD_BUG_ON(REF < SPAN);

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;

	c->mm = mm_alloc();
	if (!c->mm)
		return -ENOMEM;

	c->vma = kunit_kzalloc(test, sizeof(*c->vma), GFP_KERNEL);
	c->table = (pte_t *)get_zeroed_page(GFP_KERNEL);
	c->folio = folio_alloc(GFP_KERNEL, order);
	if (!c->vma || !c->table || !c->folio) {
		if (c->folio)
			folio_put(c->folio);
		free_page((unsigned long)c->table);
		mmput(c->mm);
		return -ENOMEM;
	}

	/* A PMD-aligned user address, so that both regions share one PMD. */
	c->addr = PMD_SIZE * 16;
	c->vma->vm_mm = c->mm;
	c->vma->vm_start = c->addr;
	c->vma->vm_end = c->addr + PMD_SIZE;
	test->priv = c;
	return 0;
}

static void pb_test_exit(struct kunit *test)
{
	struct pb_ctx *c = test->priv;

	pb_clear(c);
	folio_put(c->folio);
	free_page((unsigned long)c->table);
	mmput(c->mm);
}

/* The exhaustive cases (every length and offset of every kind) are slow. */
static struct kunit_case pgtable_batch_test_cases[] = {
	KUNIT_CASE(pb_contpte_fold),
	KUNIT_CASE(pb_softleaf_offsets),
	KUNIT_CASE_PARAM_ATTR(pb_set_softleaf_ptes, pb_leaf_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(pb_set_ptes),
	KUNIT_CASE_PARAM_ATTR(pb_present_ptes, pb_op_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(pb_clear_nonpresent_ptes),
	{}
};

static struct kunit_suite pgtable_batch_test_suite = {
	.name = "pgtable_batch",
	.suite_init = pb_suite_init,
	.init = pb_test_init,
	.exit = pb_test_exit,
	.test_cases = pgtable_batch_test_cases,
};

kunit_test_suite(pgtable_batch_test_suite);

MODULE_DESCRIPTION("Conformance tests for the batched PTE helpers");
MODULE_LICENSE("GPL");
