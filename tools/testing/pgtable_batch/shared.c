// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared.c
 *
 * Building page table states and judging a batched helper against its
 * per-PTE loop.
 */

#include <stdarg.h>
#include <string.h>

#include "shared.h"

const struct pb_arch *arch;
struct pb_totals pb_totals;
char pb_context[256];
uint64_t pb_attr_salt;

static uint64_t pb_seed = 0x9e3779b97f4a7c15ULL;

void pb_srand(uint64_t seed)
{
	pb_seed = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

uint64_t pb_rand(void)
{
	pb_seed ^= pb_seed >> 12;
	pb_seed ^= pb_seed << 25;
	pb_seed ^= pb_seed >> 27;
	return pb_seed * 0x2545f4914f6cdd1dULL;
}

bool pb_next_case(unsigned int *v, const unsigned int *dim, unsigned int n)
{
	while (n--) {
		if (++v[n] < dim[n])
			return true;
		v[n] = 0;
	}
	return false;
}

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	x ^= x >> 16;
	return x;
}

/*
 * Attributes of the present PTE at table index @idx.  Write permission and
 * uffd-wp are per contpte block, since a folded block shares them; access
 * and dirty are per PTE, as hardware sets them.
 */
unsigned int pb_attr(enum pb_pattern pat, unsigned int idx)
{
	unsigned int blk = idx / PB_BLOCK;
	uint32_t h = hash32(idx * 2654435761u + pat + (uint32_t)pb_attr_salt);
	uint32_t hb = hash32(blk * 40503u + pat * 7u + 1 +
			     (uint32_t)(pb_attr_salt >> 32));
	unsigned int flags = 0;

	switch (pat) {
	case PB_PAT_CLEAN:
		return PB_WRITE;
	case PB_PAT_DIRTY:
		return PB_WRITE | PB_DIRTY | PB_YOUNG;
	case PB_PAT_MIXED:
		flags = PB_WRITE;
		if (idx % 3 == 0)
			flags |= PB_DIRTY;
		else if (idx % 5 == 1)
			flags |= PB_HWDIRTY;
		if (idx % 2)
			flags |= PB_YOUNG;
		return flags;
	case PB_PAT_MIXED_RO:
		if (blk % 2)
			flags |= PB_WRITE;
		if (idx % 4 == 3)
			flags |= PB_DIRTY;
		if (idx % 3 == 1)
			flags |= PB_YOUNG;
		return flags;
	case PB_PAT_RANDOM:
	default:
		if (hb & 1)
			flags |= PB_WRITE;
		if (hb & 2)
			flags |= PB_UFFD_WP;
		if (hb & 4)
			flags |= PB_SOFT_DIRTY;
		if (h & 1)
			flags |= PB_DIRTY;
		if (h & 2)
			flags |= PB_HWDIRTY;
		if (h & 4)
			flags |= PB_YOUNG;
		return flags;
	}
}

void pb_clear_table(void)
{
	memset(model_pt, 0, sizeof(model_pt));
}

/*
 * Map a folio of @n pages at table index @idx, page i at pfn pb_pfn(idx + i)
 * so that contpte blocks are physically aligned.  Blocks fully inside the
 * folio are folded as @fold says; a folded block is written as the kernel
 * leaves it (PTE_CONT in all its entries), with per-PTE access/dirty bits as
 * hardware updates them.
 */
void pb_map(unsigned int idx, unsigned int n, enum pb_fold fold,
	    enum pb_pattern pat)
{
	unsigned int cont = arch->cont_ptes;
	unsigned int i;

	arch->set_folio(pb_pfn(idx), n);
	for (i = idx; i < idx + n; i++) {
		unsigned int blk = i - i % cont;
		bool full = blk >= idx && blk + cont <= idx + n;
		bool folded = false;
		unsigned int flags = pb_attr(pat, i);

		if (cont > 1 && full) {
			switch (fold) {
			case PB_FOLD_NONE:
				break;
			case PB_FOLD_ALL:
				folded = true;
				break;
			case PB_FOLD_ALT:
				folded = !((blk / cont) % 2);
				break;
			default:
				folded = hash32(blk * 977u + pat) & 1;
				break;
			}
		}
		model_pt[i] = arch->mk_present(pb_pfn(i), flags);
		if (folded)
			model_pt[i] |= arch->cont_bit;
	}
}

/*
 * Make PTEs none.  A folded block they break is first repainted without
 * the contiguous bit, as an unfold would leave it.
 */
void pb_make_none(unsigned int idx, unsigned int n)
{
	unsigned int cont = arch->cont_ptes;
	unsigned int i, j;

	for (i = idx - idx % cont; i < idx + n; i += cont)
		for (j = i; j < i + cont && j < MODEL_NR_PTES; j++)
			if (arch->pte_valid(model_pt[j]))
				model_pt[j] &= ~arch->cont_bit;
	for (i = idx; i < idx + n; i++)
		model_pt[i] = 0;
}

bool pb_leaf_has_offset(enum pb_leaf kind)
{
	return kind < PB_LEAF_MARKER_UFFD_WP;
}

/*
 * The entry the per-PTE path writes at position @i of a batch starting with
 * (@kind, @type, @offset, @flags): built independently of the code under
 * test, from the kernel's entry constructors.
 */
uint64_t pb_leaf_at(enum pb_leaf kind, unsigned int type,
		    unsigned long offset, unsigned int flags, unsigned int i)
{
	if (pb_leaf_has_offset(kind))
		offset += i;
	return arch->mk_softleaf(kind, type, offset, flags);
}

void pb_fill_leaves(unsigned int idx, unsigned int n, enum pb_leaf kind,
		    unsigned int type, unsigned long offset,
		    unsigned int flags)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		model_pt[idx + i] = pb_leaf_at(kind, type, offset, flags, i);
}

/* The operations, adapted to one signature. */

static uint64_t b_set_ptes(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->set_ptes(idx, arg, nr);
	return 0;
}

static uint64_t r_set_ptes(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->ref_set_ptes(idx, arg, nr);
	return 0;
}

const struct pb_op pb_op_set_ptes = {
	.name = "set_ptes", .batch = b_set_ptes, .ref = r_set_ptes,
	.flags = PB_OP_PTC,
};

static uint64_t b_gacfp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	return arch->get_and_clear_full_ptes(idx, nr, arg);
}

static uint64_t r_gacfp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	return arch->ref_get_and_clear_full_ptes(idx, nr, arg);
}

const struct pb_op pb_op_get_and_clear_full_ptes = {
	.name = "get_and_clear_full_ptes", .batch = b_gacfp, .ref = r_gacfp,
	.flags = PB_OP_RET_PTE | PB_OP_PTC,
};

static uint64_t b_cfp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->clear_full_ptes(idx, nr, arg);
	return 0;
}

static uint64_t r_cfp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->ref_clear_full_ptes(idx, nr, arg);
	return 0;
}

const struct pb_op pb_op_clear_full_ptes = {
	.name = "clear_full_ptes", .batch = b_cfp, .ref = r_cfp,
	.flags = PB_OP_PTC,
};

static uint64_t b_cnp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->clear_nonpresent_ptes(idx, nr);
	return 0;
}

static uint64_t r_cnp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->ref_clear_nonpresent_ptes(idx, nr);
	return 0;
}

const struct pb_op pb_op_clear_nonpresent_ptes = {
	.name = "clear_nonpresent_ptes", .batch = b_cnp, .ref = r_cnp,
	.flags = PB_OP_PTC,
};

static uint64_t b_wrp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->wrprotect_ptes(idx, nr);
	return 0;
}

static uint64_t r_wrp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->ref_wrprotect_ptes(idx, nr);
	return 0;
}

const struct pb_op pb_op_wrprotect_ptes = {
	.name = "wrprotect_ptes", .batch = b_wrp, .ref = r_wrp,
};

static uint64_t b_cyd(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->clear_young_dirty_ptes(idx, nr, arg);
	return 0;
}

static uint64_t r_cyd(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->ref_clear_young_dirty_ptes(idx, nr, arg);
	return 0;
}

const struct pb_op pb_op_clear_young_dirty_ptes = {
	.name = "clear_young_dirty_ptes", .batch = b_cyd, .ref = r_cyd,
	.flags = PB_OP_AD_BLOCKWIDE | PB_OP_YOUNG,
};

static uint64_t b_tcy(unsigned int idx, unsigned int nr, uint64_t arg)
{
	return arch->test_and_clear_young_ptes(idx, nr);
}

static uint64_t r_tcy(unsigned int idx, unsigned int nr, uint64_t arg)
{
	return arch->ref_test_and_clear_young_ptes(idx, nr);
}

const struct pb_op pb_op_test_and_clear_young_ptes = {
	.name = "test_and_clear_young_ptes", .batch = b_tcy, .ref = r_tcy,
	.flags = PB_OP_YOUNG,
};

static uint64_t b_cfy(unsigned int idx, unsigned int nr, uint64_t arg)
{
	return arch->clear_flush_young_ptes(idx, nr);
}

static uint64_t r_cfy(unsigned int idx, unsigned int nr, uint64_t arg)
{
	return arch->ref_clear_flush_young_ptes(idx, nr);
}

const struct pb_op pb_op_clear_flush_young_ptes = {
	.name = "clear_flush_young_ptes", .batch = b_cfy, .ref = r_cfy,
	.flags = PB_OP_YOUNG,
};

static const struct pb_leaf_arg *leaf_arg(uint64_t arg)
{
	return (const struct pb_leaf_arg *)(uintptr_t)arg;
}

static uint64_t b_ssp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	const struct pb_leaf_arg *a = leaf_arg(arg);

	arch->set_softleaf_ptes(idx, pb_leaf_at(a->kind, a->type, a->offset,
						a->flags, 0), nr);
	return 0;
}

/* The per-PTE loop: set_pte_at() of each entry, built independently. */
static uint64_t r_ssp(unsigned int idx, unsigned int nr, uint64_t arg)
{
	const struct pb_leaf_arg *a = leaf_arg(arg);
	unsigned int i;

	for (i = 0; i < nr; i++)
		arch->set_pte_at(idx + i, pb_leaf_at(a->kind, a->type,
						     a->offset, a->flags, i));
	return 0;
}

const struct pb_op pb_op_set_softleaf_ptes = {
	.name = "set_softleaf_ptes", .batch = b_ssp, .ref = r_ssp,
	.flags = PB_OP_PTC | PB_OP_LEAF_ARG,
};

/*
 * What try_to_unmap_one() does to a batch of a swap-backed folio: clear the
 * present PTEs, then write the swap entries.
 */
static uint64_t b_unmap(unsigned int idx, unsigned int nr, uint64_t arg)
{
	uint64_t pte = arch->get_and_clear_full_ptes(idx, nr, 0);

	b_ssp(idx, nr, arg);
	return pte;
}

static uint64_t r_unmap(unsigned int idx, unsigned int nr, uint64_t arg)
{
	uint64_t pte = arch->ref_get_and_clear_full_ptes(idx, nr, 0);

	r_ssp(idx, nr, arg);
	return pte;
}

const struct pb_op pb_op_unmap_to_softleaf = {
	.name = "get_and_clear_ptes+set_softleaf_ptes", .batch = b_unmap,
	.ref = r_unmap, .flags = PB_OP_RET_PTE | PB_OP_PTC | PB_OP_LEAF_ARG,
};

/* Judging. */

struct pb_outcome {
	uint64_t ret;
	unsigned int unfolded[MODEL_MAX_UNFOLDS];
	uint64_t raw[2 * MODEL_NR_PTES];
	uint64_t view[PB_WINDOW];
	bool folded[PB_WINDOW];		/* by block: a valid PTE has PTE_CONT */
	struct model_counts counts;
	struct model_tlb_state tlb;
	char tlb_report[sizeof(model_tlb_report)];
};

/*
 * The tests only map PTEs below PB_WINDOW; ptep_get() is asked about those,
 * the rest of the table is compared raw.
 */
static void snapshot_views(struct pb_outcome *o)
{
	unsigned int i;

	model_pause();
	memcpy(o->raw, model_pt, sizeof(model_pt));
	for (i = 0; i < PB_WINDOW; i++) {
		o->view[i] = arch->ptep_get(i);
		o->folded[i] = false;
	}
	if (arch->cont_ptes > 1)
		for (i = 0; i < PB_WINDOW; i++)
			if (arch->pte_valid(o->raw[i]) &&
			    (o->raw[i] & arch->cont_bit))
				o->folded[i - i % arch->cont_ptes] = true;
	model_resume();
}

static void add_counts(struct model_counts *t, const struct model_counts *c)
{
	t->reads += c->reads;
	t->writes += c->writes;
	t->unfolds += c->unfolds;
	t->folds += c->folds;
	t->tlbi += c->tlbi;
	t->tlbi_pages += c->tlbi_pages;
	t->dsb += c->dsb;
	t->isb += c->isb;
	t->dmb += c->dmb;
	t->ptc_set += c->ptc_set;
	t->ptc_clear += c->ptc_clear;
	t->warns += c->warns;
}

/* The argument of a case, as the failure message shows it. */
static const char *arg_str(const struct pb_op *op, uint64_t arg)
{
	static char buf[64];
	const struct pb_leaf_arg *a;

	if (!(op->flags & PB_OP_LEAF_ARG)) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)arg);
		return buf;
	}
	a = leaf_arg(arg);
	snprintf(buf, sizeof(buf), "pte=0x%016llx",
		 (unsigned long long)pb_leaf_at(a->kind, a->type, a->offset,
						a->flags, 0));
	return buf;
}

#define FAIL(fmt, ...)							\
	do {								\
		fprintf(stderr, "%s: %s(start=%u, nr=%u, %s) %s: " fmt "\n", \
			arch->name, op->name, idx, nr, arg_str(op, arg), \
			pb_context, ##__VA_ARGS__);			\
		goto fail;						\
	} while (0)

static struct pb_outcome before, batch, ref;

bool pb_check(const struct pb_op *op, unsigned int idx, unsigned int nr,
	      uint64_t arg)
{
	const unsigned int cont = arch->cont_ptes;
	const uint64_t cb = arch->cont_bit;
	unsigned int allowed[2], nr_allowed = 0;
	unsigned int first_blk = idx - idx % cont;
	unsigned int end = idx + nr;
	unsigned int blk, i, k;
	long net_b, net_r;
	int bad;

	snapshot_views(&before);

	/*
	 * The batched helper, with a TLB that may hold every translation the
	 * table maps.
	 */
	model_reset_counts();
	arch->tlb_reset();
	batch.ret = op->batch(idx, nr, arg);
	batch.counts = model_counts;
	batch.tlb = model_tlb;
	memcpy(batch.tlb_report, model_tlb_report, sizeof(model_tlb_report));
	memcpy(batch.unfolded, model_unfolded, sizeof(model_unfolded));
	snapshot_views(&batch);

	/* The per-PTE loop, from the same state. */
	memcpy(model_pt, before.raw, sizeof(model_pt));
	model_reset_counts();
	arch->tlb_reset();
	ref.ret = op->ref(idx, nr, arg);
	ref.counts = model_counts;
	ref.tlb = model_tlb;
	memcpy(ref.tlb_report, model_tlb_report, sizeof(model_tlb_report));
	snapshot_views(&ref);
	model_tlb_off();

	/* Leave the table as the batched helper left it. */
	memcpy(model_pt, batch.raw, sizeof(model_pt));

	pb_totals.cases++;
	add_counts(&pb_totals.batch, &batch.counts);
	add_counts(&pb_totals.ref, &ref.counts);
	pb_totals.tlb_live += batch.tlb.live + ref.tlb.live;
	pb_totals.tlb_dropped += batch.tlb.dropped + ref.tlb.dropped;
	pb_totals.tlb_violations += batch.tlb.violations + ref.tlb.violations;

	/* Neither may break break-before-make (see model.h). */
	if (batch.tlb.violations)
		FAIL("%lu break-before-make violations, the first: %s",
		     batch.tlb.violations, batch.tlb_report);
	if (ref.tlb.violations)
		FAIL("per-PTE loop: %lu break-before-make violations, the first: %s",
		     ref.tlb.violations, ref.tlb_report);

	if (batch.counts.warns)
		FAIL("the batched helper warned %lu times",
		     batch.counts.warns);
	if (ref.counts.warns)
		FAIL("the per-PTE loop warned %lu times", ref.counts.warns);

	/* No half-folded or inconsistent contpte block is ever left. */
	memcpy(model_pt, ref.raw, sizeof(model_pt));
	bad = arch->check_table();
	memcpy(model_pt, batch.raw, sizeof(model_pt));
	if (bad >= 0)
		FAIL("per-PTE loop left an inconsistent contpte block at %d",
		     bad);
	bad = arch->check_table();
	if (bad >= 0)
		FAIL("left an inconsistent contpte block at %d: %016llx",
		     bad, (unsigned long long)model_pt[bad]);

	/* Same return value (the contiguous bit is private to arm64). */
	if ((op->flags & PB_OP_RET_PTE) ?
	    (batch.ret & ~cb) != (ref.ret & ~cb) : batch.ret != ref.ret)
		FAIL("returned %016llx, per-PTE loop %016llx",
		     (unsigned long long)batch.ret,
		     (unsigned long long)ref.ret);

	/*
	 * Same page table, as core mm reads it back with ptep_get().  In a
	 * block folded in either outcome, access and dirty are one state for
	 * the whole block (ptep_get() gathers them), so they are compared
	 * per block and the rest of each PTE per PTE.  Elsewhere PTEs must
	 * be identical, bit for bit.
	 */
	if (memcmp(batch.raw + PB_WINDOW, ref.raw + PB_WINDOW,
		   MODEL_PT_BYTES - PB_WINDOW * sizeof(model_pt[0])) ||
	    memcmp(batch.raw + MODEL_NR_PTES, ref.raw + MODEL_NR_PTES,
		   MODEL_PT_BYTES))
		FAIL("changed PTEs beyond index %u", PB_WINDOW);
	for (blk = 0; blk < PB_WINDOW; blk += cont) {
		bool folded = batch.folded[blk] || ref.folded[blk];
		bool lax = (op->flags & PB_OP_AD_BLOCKWIDE) &&
			   before.folded[blk] &&
			   blk + cont > idx && blk < end &&
			   !(blk >= idx && blk + cont <= end);
		bool dirty_b = false, dirty_r = false;
		bool young_b = false, young_r = false;

		for (i = blk; i < blk + cont; i++) {
			uint64_t vb = batch.view[i], vr = ref.view[i];
			bool pb = arch->pte_present(vb);
			bool pr = arch->pte_present(vr);

			if (!folded && !lax) {
				if (pb && pr ? (vb & ~cb) != (vr & ~cb) :
				    vb != vr)
					FAIL("PTE %u is %016llx, per-PTE loop %016llx, was %016llx",
					     i, (unsigned long long)vb,
					     (unsigned long long)vr,
					     (unsigned long long)before.view[i]);
				continue;
			}
			if (pb != pr || (pb ? arch->pte_normal(vb) !=
					 arch->pte_normal(vr) : vb != vr))
				FAIL("PTE %u is %016llx, per-PTE loop %016llx, was %016llx in a %s block",
				     i, (unsigned long long)vb,
				     (unsigned long long)vr,
				     (unsigned long long)before.view[i],
				     folded ? "folded" : "partly covered folded");
			if (pb) {
				dirty_b |= arch->pte_dirty(vb);
				young_b |= arch->pte_young(vb);
				dirty_r |= arch->pte_dirty(vr);
				young_r |= arch->pte_young(vr);
			}
		}
		if (folded && !lax &&
		    (dirty_b != dirty_r || young_b != young_r))
			FAIL("block %u dirty/young %d/%d, per-PTE loop %d/%d",
			     blk, dirty_b, young_b, dirty_r, young_r);
	}

	/* clear_young_dirty_ptes(): the range must end up old/clean. */
	if (op->flags & PB_OP_AD_BLOCKWIDE) {
		for (i = idx; i < end; i++) {
			uint64_t v = batch.view[i];

			if (((arg & PB_CYDP_YOUNG) && arch->pte_young(v)) ||
			    ((arg & PB_CYDP_DIRTY) && arch->pte_dirty(v)))
				FAIL("PTE %u still young/dirty: %016llx", i,
				     (unsigned long long)v);
		}
	}

	/*
	 * Unfolds: only a folded block that the range covers partly, that
	 * is, one of its two end blocks, may be unfolded, and at most once.
	 * A batch made of whole blocks unfolds nothing.
	 */
	if (cont > 1) {
		unsigned int last_blk = (end - 1) - (end - 1) % cont;

		if (before.folded[first_blk] &&
		    (first_blk < idx || first_blk + cont > end))
			allowed[nr_allowed++] = first_blk;
		if (last_blk != first_blk &&
		    before.folded[last_blk] && last_blk + cont > end)
			allowed[nr_allowed++] = last_blk;
	}
	if (batch.counts.unfolds > nr_allowed)
		FAIL("%lu contpte unfolds, at most %u allowed (per-PTE loop: %lu)",
		     batch.counts.unfolds, nr_allowed, ref.counts.unfolds);
	for (k = 0; k < batch.counts.unfolds; k++) {
		unsigned int u = batch.unfolded[k];

		if (!((nr_allowed > 0 && u == allowed[0]) ||
		      (nr_allowed > 1 && u == allowed[1])))
			FAIL("unfolded the block at %u, not a partly covered end block",
			     u);
		if (k && u == batch.unfolded[0])
			FAIL("unfolded the block at %u twice", u);
	}

	/* It must cost no more than the per-PTE loop. */
	if (batch.counts.tlbi > ref.counts.tlbi)
		FAIL("%lu TLB invalidations, per-PTE loop %lu",
		     batch.counts.tlbi, ref.counts.tlbi);
	if (batch.counts.dsb + batch.counts.isb >
	    ref.counts.dsb + ref.counts.isb)
		FAIL("%lu barriers, per-PTE loop %lu",
		     batch.counts.dsb + batch.counts.isb,
		     ref.counts.dsb + ref.counts.isb);
	if (batch.counts.writes > ref.counts.writes)
		FAIL("%lu PTE writes, per-PTE loop %lu",
		     batch.counts.writes, ref.counts.writes);
	/*
	 * A batch may read its first and last PTE once more than the loop
	 * does, to find out whether its end blocks are folded; a single PTE
	 * (an order-0 folio) must cost no more than today.  (Not for the
	 * access/dirty helpers: arm64 reads a whole contpte block there
	 * rather than unfold it.)
	 */
	if (!(op->flags & PB_OP_YOUNG) &&
	    batch.counts.reads > ref.counts.reads + (nr > 1 ? 2 : 0))
		FAIL("%lu PTE reads, per-PTE loop %lu",
		     batch.counts.reads, ref.counts.reads);

	if (!(op->flags & PB_OP_PTC))
		return true;

	/*
	 * The page_table_check hooks see every PTE the loop shows them: net
	 * of the blocks repainted by folds and unfolds, the same counts.
	 */
	net_b = batch.counts.ptc_set -
		(long)cont * (batch.counts.folds + batch.counts.unfolds);
	net_r = ref.counts.ptc_set -
		(long)cont * (ref.counts.folds + ref.counts.unfolds);
	if (net_b != net_r)
		FAIL("page_table_check saw %ld PTEs set, per-PTE loop %ld",
		     net_b, net_r);
	net_b = batch.counts.ptc_clear -
		(long)cont * (batch.counts.folds + batch.counts.unfolds);
	net_r = ref.counts.ptc_clear -
		(long)cont * (ref.counts.folds + ref.counts.unfolds);
	if (net_b != net_r)
		FAIL("page_table_check saw %ld PTEs cleared, per-PTE loop %ld",
		     net_b, net_r);

	return true;
fail:
	return false;
}
