// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The TLB model (model.h): first that it catches break-before-make
 * violations written by hand, then the page table sequences of the
 * series' callers replayed under it, each with the flush done at once
 * (flush_tlb_range(): invalidation and completion) and deferred as
 * reclaim does it (arch_tlbbatch_add_pending() now, arch_tlbbatch_flush()
 * later).  The callers' sequences are copies of mm/rmap.c and mm/migrate.c;
 * check_sequences.py checks on the tree that the flushes they rely on are
 * still where the copies put them.
 */

/* A valid entry mapping table index @idx, as pb_map() maps it. */
static uint64_t tlb_pte(unsigned int idx, bool cont)
{
	return arch->mk_present(pb_pfn(idx), PB_WRITE | PB_YOUNG) |
	       (cont ? arch->cont_bit : 0);
}

/* Print the first violation of a case that expects one, once per test. */
static void tlb_show_expected(bool *shown, const char *what)
{
	if (*shown)
		return;
	*shown = true;
	fprintf(stderr, "(expected) %s: %s%s%s\n", arch->name, what,
		*what ? ": " : "", model_tlb_report);
}

/*
 * The model sees what it must: every valid entry cached after a reset, a
 * folded block as one contiguous translation of all its slots.
 */
static bool test_tlb_model_reset(void)
{
	unsigned int cont = arch->cont_ptes;
	unsigned int i;

	pb_clear_table();
	pb_map(PB_BLOCK, 2 * PB_BLOCK, PB_FOLD_ALT, PB_PAT_CLEAN);
	arch->tlb_reset();
	for (i = 0; i < PB_BLOCK; i++) {
		ASSERT_FALSE(model_tlb_live(i, false));
		ASSERT_FALSE(model_tlb_live(i, true));
	}
	/* PB_FOLD_ALT folds the even blocks: the one at 2 * PB_BLOCK. */
	for (i = PB_BLOCK; i < 3 * PB_BLOCK; i++) {
		bool folded = cont > 1 && i >= 2 * PB_BLOCK;

		ASSERT_EQ(model_tlb_live(i, true), folded);
		ASSERT_EQ(model_tlb_live(i, false), !folded);
	}
	model_tlb_off();
	return true;
}

/*
 * Hand-written violations, each caught: the model cannot pass a sequence
 * because it fails to see one.
 */
static bool test_tlb_model_catches(void)
{
	const unsigned int b = 2 * PB_BLOCK;
	bool shown = false;
	unsigned int i;

	/* A new output address over a live translation, no flush at all. */
	pb_clear_table();
	pb_map(b, PB_BLOCK, PB_FOLD_NONE, PB_PAT_CLEAN);
	arch->tlb_reset();
	arch->raw_store(b + 3, tlb_pte(b + 40, false));
	ASSERT_EQ(model_tlb.violations, 1UL);
	tlb_show_expected(&shown, "");

	/* Cleared, but the invalidation not completed: still live. */
	pb_clear_table();
	pb_map(b, PB_BLOCK, PB_FOLD_NONE, PB_PAT_CLEAN);
	arch->tlb_reset();
	arch->raw_store(b + 3, 0);
	arch->tlbbatch_add_pending(b, PB_BLOCK);
	arch->raw_store(b + 3, tlb_pte(b + 40, false));
	ASSERT_EQ(model_tlb.violations, 1UL);
	tlb_show_expected(&shown, "");

	/* The same once the deferred flush has completed: allowed. */
	arch->raw_store(b + 3, 0);
	arch->tlbbatch_add_pending(b + 3, 1);
	arch->tlbbatch_flush();
	arch->raw_store(b + 3, tlb_pte(b + 41, false));
	ASSERT_EQ(model_tlb.violations, 1UL);

	/* Cleared and flushed at once: allowed. */
	pb_clear_table();
	pb_map(b, PB_BLOCK, PB_FOLD_NONE, PB_PAT_CLEAN);
	arch->tlb_reset();
	arch->raw_store(b + 3, 0);
	arch->flush_tlb_range(b + 3, 1);
	arch->raw_store(b + 3, tlb_pte(b + 40, false));
	ASSERT_EQ(model_tlb.violations, 0UL);
	/* But only that page was flushed. */
	arch->raw_store(b + 4, tlb_pte(b + 41, false));
	ASSERT_EQ(model_tlb.violations, 1UL);

	if (arch->cont_ptes == 1) {
		model_tlb_off();
		return true;
	}

	/* Non-contiguous entries written into a folded block, no TLBI. */
	pb_clear_table();
	pb_map(b, PB_BLOCK, PB_FOLD_ALL, PB_PAT_CLEAN);
	arch->tlb_reset();
	arch->raw_store(b + 5, tlb_pte(b + 5, false));
	ASSERT_EQ(model_tlb.violations, 1UL);
	tlb_show_expected(&shown, "");

	/* The same after clearing the block and a TLBI without its dsb. */
	pb_clear_table();
	pb_map(b, PB_BLOCK, PB_FOLD_ALL, PB_PAT_CLEAN);
	arch->tlb_reset();
	for (i = b; i < b + PB_BLOCK; i++)
		arch->raw_store(i, 0);
	arch->tlbbatch_add_pending(b, PB_BLOCK);
	arch->raw_store(b + 5, tlb_pte(b + 5, false));
	ASSERT_EQ(model_tlb.violations, 1UL);
	/* A TLBI of one page of the block removes its contiguous entry. */
	pb_clear_table();
	pb_map(b, PB_BLOCK, PB_FOLD_ALL, PB_PAT_CLEAN);
	arch->tlb_reset();
	for (i = b; i < b + PB_BLOCK; i++)
		arch->raw_store(i, 0);
	arch->flush_tlb_range(b + 9, 1);
	arch->raw_store(b + 5, tlb_pte(b + 5, false));
	ASSERT_EQ(model_tlb.violations, 0UL);

	/* A fold without break-before-make: contiguous over live entries. */
	pb_clear_table();
	pb_map(b, PB_BLOCK, PB_FOLD_NONE, PB_PAT_CLEAN);
	arch->tlb_reset();
	arch->raw_store(b, tlb_pte(b, true));
	ASSERT_EQ(model_tlb.violations, 1UL);
	tlb_show_expected(&shown, "");

	model_tlb_off();
	return true;
}

/* How try_to_unmap_one() ends for a batch (mm/rmap.c). */
enum tlb_end {
	TLB_END_SWAP,		/* every page unmapped: swap entries */
	TLB_END_PARTIAL_OLD,	/* the first k unmapped, the rest restored */
	TLB_END_PARTIAL_FIXED,	/* the same, flushed with completion first */
	TLB_END_RESTORE_ALL,	/* nothing unmapped: every PTE restored */
	TLB_END_RESTORE_ALL_FIXED, /* the same, flushed with completion first */
	TLB_NR_END,
};

static const char *const end_name[] = {
	"swap entries", "partial restore without flush",
	"partial restore after a completed flush", "restore of the batch",
	"restore of the batch after a completed flush",
};

static const char *const flush_name[] = { "immediate", "deferred" };

/*
 * Replay what try_to_unmap_one() does to the page table for a batch of
 * @nr PTEs from @start of an anonymous folio: get_and_clear_ptes(), the
 * flush (deferred: set_tlb_ubc_flush_pending()), then swap entries for the
 * first @k pages (ttu_anon_swapbacked_folio()) and set_ptes() of the rest,
 * and finally try_to_unmap_flush() of a deferred flush.
 */
static void tlb_replay_unmap(unsigned int start, unsigned int nr,
			     bool deferred, enum tlb_end how, unsigned int k)
{
	uint64_t pteval, swp;
	unsigned int i;

	pteval = arch->get_and_clear_full_ptes(start, nr, 0);
	if (deferred)
		arch->tlbbatch_add_pending(start, nr);
	else
		arch->flush_tlb_range(start, nr);

	if (k) {
		swp = pb_leaf_at(PB_LEAF_SWAP, 1, 0x200, 0, 0);
		arch->set_softleaf_ptes(start, swp, k);
	}
	if (k < nr) {
		/*
		 * The fix (fix-0001, kept by mm-0005) flushes before any
		 * restore of more than one PTE; a partial restore always has
		 * more than one.
		 */
		if (how == TLB_END_PARTIAL_FIXED ||
		    (how == TLB_END_RESTORE_ALL_FIXED && nr > 1))
			arch->flush_tlb_range(start, nr);
		/* mm-0005 steps to the first page kept one PFN at a time. */
		for (i = 0; i < k; i++)
			pteval = arch->pte_advance_pfn(pteval, 1);
		arch->set_ptes(start + k, pteval, nr - k);
	}

	if (deferred)
		arch->tlbbatch_flush();
}

/*
 * Whether the replay must break break-before-make, worked out from the
 * architecture's rules rather than by the model.  A contpte block that
 * the batch covers whole is cleared without an unfold: its translation,
 * contiguous if the block was folded, stays live until the flush
 * completes.  set_ptes() then writes a block it covers partly with
 * non-contiguous entries, and one it covers whole as a folded block.
 * Only with a deferred flush and a restore without a completed flush
 * before it can the two meet.
 */
static bool tlb_expect_violation(unsigned int start, unsigned int nr,
				 bool deferred, enum tlb_end how,
				 unsigned int k, const bool *folded)
{
	unsigned int cont = arch->cont_ptes, r = start + k, blk;

	if (cont == 1 || !deferred || how == TLB_END_SWAP ||
	    how == TLB_END_PARTIAL_FIXED || how == TLB_END_RESTORE_ALL_FIXED)
		return false;
	for (blk = start - start % cont; blk < start + nr; blk += cont) {
		if (blk < start || blk + cont > start + nr)
			continue;
		if (folded[blk] && r > blk && r < blk + cont)
			return true;
		if (!folded[blk] && r <= blk)
			return true;
	}
	return false;
}

/*
 * After the replay: swap entries for the first @k pages, the others mapped
 * again to the same pages, and no inconsistent contpte block.
 */
static bool tlb_check_table(unsigned int start, unsigned int nr,
			    unsigned int k)
{
	unsigned int i;

	ASSERT_EQ(arch->check_table(), -1);
	for (i = start; i < start + nr; i++) {
		uint64_t pte = arch->ptep_get(i);

		if (i < start + k) {
			ASSERT_FALSE(arch->pte_present(pte));
			ASSERT_EQ(pte, pb_leaf_at(PB_LEAF_SWAP, 1, 0x200, 0,
						  i - start));
		} else {
			ASSERT_TRUE(arch->pte_valid(pte));
			ASSERT_EQ(arch->pte_pfn(pte), pb_pfn(i));
		}
	}
	return true;
}

/*
 * The cases both replays run through: the flush at once or deferred, how
 * the folio's blocks are folded, the folio exactly the batch or inside a
 * larger one, the batch's offset in a block, its length, and k (the pages
 * unmapped, or where the second run of migration entries starts).
 */
static const enum pb_fold tlb_folds[] = {
	PB_FOLD_ALL, PB_FOLD_NONE, PB_FOLD_ALT,
};
static const unsigned int tlb_dim[] = {
	2, ARRAY_SIZE(tlb_folds), 2, PB_BLOCK, 2 * PB_BLOCK + 1,
	2 * PB_BLOCK + 2,
};

struct tlb_case {
	bool deferred, exact;
	enum pb_fold fold;
	unsigned int start, nr, k;
};

static struct tlb_case tlb_case_of(const unsigned int *v)
{
	return (struct tlb_case){
		.deferred = v[0], .fold = tlb_folds[v[1]], .exact = v[2],
		.start = 2 * PB_BLOCK + v[3], .nr = v[4] + 1, .k = v[5],
	};
}

/* Map the folio of a case, nothing cached yet. */
static void tlb_case_map(const struct tlb_case *c)
{
	pb_clear_table();
	if (c->exact)
		pb_map(c->start, c->nr, c->fold, PB_PAT_MIXED);
	else
		pb_map(PB_BLOCK, 5 * PB_BLOCK, c->fold, PB_PAT_MIXED);
}

static void tlb_case_desc(const struct tlb_case *c, const char *end,
			  const char *k_is, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%s, %s flush, batch of %u PTEs from %u, %u %s, folio %s, folded %s",
		 end, flush_name[c->deferred], c->nr, c->start, c->k, k_is,
		 c->exact ? "exact" : "inside", fold_name[c->fold]);
}

/*
 * Every batch of 1 to 2 * PB_BLOCK + 1 PTEs at every offset of a block,
 * inside a larger folio or equal to the folio, folded or not, every k,
 * both flushes: the replay is reported as a violation exactly when
 * tlb_expect_violation() says so.  Returns false on the first mismatch;
 * counts the cases and the violations expected.
 */
static bool tlb_run_unmap(enum tlb_end how, unsigned long *cases,
			  unsigned long *expected)
{
	unsigned int v[ARRAY_SIZE(tlb_dim)] = { 0 };
	bool folded[PB_WINDOW], shown = false;
	char what[160];

	do {
		struct tlb_case c = tlb_case_of(v);
		unsigned int start = c.start, nr = c.nr, k = c.k, i;
		bool deferred = c.deferred, want;

		switch (how) {
		case TLB_END_SWAP:
			if (k != nr)
				continue;
			break;
		case TLB_END_RESTORE_ALL:
		case TLB_END_RESTORE_ALL_FIXED:
			if (k)
				continue;
			break;
		default:
			if (!k || k >= nr)
				continue;
			break;
		}

		tlb_case_map(&c);
		for (i = 0; i < PB_WINDOW; i++)
			folded[i] = arch->pte_valid(model_pt[i]) &&
				    (model_pt[i] & arch->cont_bit);
		want = tlb_expect_violation(start, nr, deferred, how, k,
					    folded);

		arch->tlb_reset();
		tlb_replay_unmap(start, nr, deferred, how, k);
		model_tlb_off();
		(*cases)++;
		*expected += want;

		tlb_case_desc(&c, end_name[how], "unmapped", what, sizeof(what));
		if (!!model_tlb.violations != want) {
			fprintf(stderr, "%s: %s: %s\n", arch->name, what,
				want ? "violation expected, none reported" :
				model_tlb_report);
			return false;
		}
		if (want)
			tlb_show_expected(&shown, what);
		if (!tlb_check_table(start, nr, k))
			return false;
	} while (pb_next_case(v, tlb_dim, ARRAY_SIZE(tlb_dim)));

	return true;
}

/* Every page unmapped: only invalid entries are written. */
static bool test_tlb_unmap_to_swap(void)
{
	unsigned long cases = 0, expected = 0;

	ASSERT_TRUE(tlb_run_unmap(TLB_END_SWAP, &cases, &expected));
	ASSERT_EQ(expected, 0UL);
	return true;
}

/*
 * A partial restore with the flush deferred writes non-contiguous entries
 * into a folded block whose contiguous translation may still be live:
 * the model must report it (only arm64 with contpte has such blocks).
 */
static bool test_tlb_partial_restore_old(void)
{
	unsigned long cases = 0, expected = 0;

	ASSERT_TRUE(tlb_run_unmap(TLB_END_PARTIAL_OLD, &cases, &expected));
	if (arch->cont_ptes > 1)
		ASSERT_NE(expected, 0UL);
	printf("%s, %s: %lu cases, %lu reported as violations as expected\n",
	       arch->name, end_name[TLB_END_PARTIAL_OLD], cases, expected);
	return true;
}

/* flush_tlb_range() before the partial restore: never a violation. */
static bool test_tlb_partial_restore_fixed(void)
{
	unsigned long cases = 0, expected = 0;

	ASSERT_TRUE(tlb_run_unmap(TLB_END_PARTIAL_FIXED, &cases, &expected));
	ASSERT_EQ(expected, 0UL);
	return true;
}

/*
 * Restoring the whole batch (nothing unmapped, and the lazyfree path)
 * rewrites folded blocks as they were.  But set_ptes() folds every block
 * the batch covers whole, so a block that was mapped unfolded is folded
 * while its non-contiguous translations may still be live when the flush
 * is deferred: that is reported too.
 */
static bool test_tlb_restore_all(void)
{
	unsigned long cases = 0, expected = 0;

	ASSERT_TRUE(tlb_run_unmap(TLB_END_RESTORE_ALL, &cases, &expected));
	printf("%s, %s: %lu cases, %lu reported as violations as expected\n",
	       arch->name, end_name[TLB_END_RESTORE_ALL], cases, expected);
	return true;
}

/* flush_tlb_range() before restoring the batch: never a violation. */
static bool test_tlb_restore_all_fixed(void)
{
	unsigned long cases = 0, expected = 0;

	ASSERT_TRUE(tlb_run_unmap(TLB_END_RESTORE_ALL_FIXED, &cases,
				  &expected));
	ASSERT_EQ(expected, 0UL);
	return true;
}

/* How a migration replay ends (mm/migrate.c, remove_migration_pte()). */
enum tlb_mig_end {
	TLB_MIG_MOVED,		/* mapped to the new folio after the flush */
	TLB_MIG_UNDO_OLD,	/* failed: restored before the flush completes */
	TLB_MIG_UNDO_FIXED,	/* the same after the flush completed */
	TLB_NR_MIG_END,
};

static const char *const mig_end_name[] = {
	"migrated", "migration undone without flush",
	"migration undone after a completed flush",
};

/* PFN distance of the new folio of a migration from the old one. */
#define TLB_NEW_FOLIO	0x1000

/*
 * try_to_migrate_one() on a batch of @nr PTEs from @start: it clears them
 * with get_and_clear_ptes(), flushes at once or defers the flush
 * (TTU_BATCH_FLUSH) and writes the migration entries with one
 * set_softleaf_ptes() per run: readable for the first @j pages,
 * readable-exclusive for the others.
 */
static void tlb_migrate_unmap(unsigned int start, unsigned int nr,
			      bool deferred, unsigned int j)
{
	unsigned long base = pb_pfn(start);

	arch->get_and_clear_full_ptes(start, nr, 0);
	if (deferred)
		arch->tlbbatch_add_pending(start, nr);
	else
		arch->flush_tlb_range(start, nr);
	if (j)
		arch->set_softleaf_ptes(start,
					pb_leaf_at(PB_LEAF_MIGRATION_READ, 0,
						   base, 0, 0), j);
	if (j < nr)
		arch->set_softleaf_ptes(start + j,
					pb_leaf_at(PB_LEAF_MIGRATION_READ_EXCLUSIVE,
						   0, base, 0, j), nr - j);
}

/*
 * try_to_migrate_one() failing at the exclusive run at @k (0 < @k < @nr) of
 * its batch: the first @k PTEs keep their migration entries, the others
 * are restored by ttu_restore_ptes() after its flush of the cleared range.
 */
static void tlb_migrate_unmap_partial(unsigned int start, unsigned int nr,
				      bool deferred, unsigned int k)
{
	uint64_t pteval = arch->get_and_clear_full_ptes(start, nr, 0);
	unsigned int i;

	if (deferred)
		arch->tlbbatch_add_pending(start, nr);
	else
		arch->flush_tlb_range(start, nr);
	arch->set_softleaf_ptes(start,
				pb_leaf_at(PB_LEAF_MIGRATION_READ, 0,
					   pb_pfn(start), 0, 0), k);
	arch->flush_tlb_range(start, nr);
	for (i = 0; i < k; i++)
		pteval = arch->pte_advance_pfn(pteval, 1);
	arch->set_ptes(start + k, pteval, nr - k);
}

/*
 * remove_migration_pte() on the batch: one run of equal entries
 * (softleaf_pte_batch()) at a time with set_ptes(), to the pages of the new
 * folio if @moved, else to the same pages (migrate_folio_undo_src()).
 */
static void tlb_migrate_restore(unsigned int start, unsigned int nr,
				bool moved)
{
	unsigned long base = pb_pfn(start) + (moved ? TLB_NEW_FOLIO : 0);
	unsigned int i, n;

	for (i = start; i < start + nr; i += n) {
		n = arch->softleaf_pte_batch(i, arch->ptep_get(i),
					     start + nr - i);
		arch->set_ptes(i, arch->mk_present(base + i - start,
						   PB_WRITE | PB_YOUNG), n);
	}
}

/*
 * Replay the migration of a batch: unmapped, then restored to the new folio
 * once try_to_unmap_flush() completed a deferred flush, or, when the
 * migration failed, to the same pages from migrate_folio_undo_src(), which
 * runs before migrate_pages_batch() calls try_to_unmap_flush() (and now
 * calls it first itself: TLB_MIG_UNDO_FIXED).
 */
static void tlb_replay_migrate(unsigned int start, unsigned int nr,
			       bool deferred, enum tlb_mig_end how,
			       unsigned int j)
{
	tlb_migrate_unmap(start, nr, deferred, j);
	if (how != TLB_MIG_UNDO_OLD && deferred)
		arch->tlbbatch_flush();
	tlb_migrate_restore(start, nr, how == TLB_MIG_MOVED);
	if (how == TLB_MIG_UNDO_OLD && deferred)
		arch->tlbbatch_flush();
}

/*
 * Every batch of 1 to 2 * PB_BLOCK + 1 PTEs at every offset of a block,
 * inside a larger folio or equal to it, folded or not, with the boundary
 * between the two runs of migration entries anywhere, both flushes.  With
 * @retried, a first migration of the batch failed after the unmap and was
 * undone after its deferred flush completed, as migrate_pages() does when
 * the move of a folio fails in its asynchronous pass (fail_migrate): the
 * replay then unmaps the restored PTEs again.  Counts the cases and those
 * the model reports; false on a wrong table.
 */
static bool tlb_run_migrate(enum tlb_mig_end how, bool retried,
			    unsigned long *cases, unsigned long *reported)
{
	unsigned int v[ARRAY_SIZE(tlb_dim)] = { 0 };
	bool shown = false;
	char what[160];

	do {
		struct tlb_case c = tlb_case_of(v);
		unsigned int start = c.start, nr = c.nr, i;
		unsigned long base;

		if (c.k > nr)
			continue;
		tlb_case_map(&c);
		arch->tlb_reset();
		if (retried)
			tlb_replay_migrate(start, nr, true, TLB_MIG_UNDO_FIXED,
					   c.k);
		tlb_replay_migrate(start, nr, c.deferred, how, c.k);
		model_tlb_off();
		(*cases)++;
		if (model_tlb.violations) {
			(*reported)++;
			tlb_case_desc(&c, mig_end_name[how],
				      "readable before the exclusive ones",
				      what, sizeof(what));
			tlb_show_expected(&shown, what);
		}

		ASSERT_EQ(arch->check_table(), -1);
		base = pb_pfn(start) + (how == TLB_MIG_MOVED ? TLB_NEW_FOLIO : 0);
		for (i = start; i < start + nr; i++) {
			uint64_t pte = arch->ptep_get(i);

			ASSERT_TRUE(arch->pte_valid(pte));
			ASSERT_EQ(arch->pte_pfn(pte), base + i - start);
		}
	} while (pb_next_case(v, tlb_dim, ARRAY_SIZE(tlb_dim)));

	return true;
}

/*
 * try_to_migrate_one() when the sharing of an exclusive run fails: the
 * first @k pages of the batch got migration entries, ttu_restore_ptes()
 * flushes the cleared range with completion and maps the others again.
 * Never a violation, and the table holds exactly that.
 */
static bool test_tlb_migrate_partial(void)
{
	unsigned int v[ARRAY_SIZE(tlb_dim)] = { 0 };
	unsigned long cases = 0;

	do {
		struct tlb_case c = tlb_case_of(v);
		unsigned int i;

		if (!c.k || c.k >= c.nr)
			continue;
		tlb_case_map(&c);
		arch->tlb_reset();
		tlb_migrate_unmap_partial(c.start, c.nr, c.deferred, c.k);
		if (c.deferred)
			arch->tlbbatch_flush();
		model_tlb_off();
		cases++;
		ASSERT_EQ(model_tlb.violations, 0UL);
		ASSERT_EQ(arch->check_table(), -1);
		for (i = c.start; i < c.start + c.nr; i++) {
			uint64_t pte = arch->ptep_get(i);

			ASSERT_EQ(arch->pte_valid(pte), i >= c.start + c.k);
			if (i >= c.start + c.k)
				ASSERT_EQ(arch->pte_pfn(pte), pb_pfn(i));
		}
	} while (pb_next_case(v, tlb_dim, ARRAY_SIZE(tlb_dim)));
	ASSERT_NE(cases, 0UL);
	return true;
}

/* Mapped to the new folio after the flush: never a violation. */
static bool test_tlb_migrate(void)
{
	unsigned long cases = 0, reported = 0;

	ASSERT_TRUE(tlb_run_migrate(TLB_MIG_MOVED, false, &cases, &reported));
	ASSERT_EQ(reported, 0UL);
	return true;
}

/*
 * Restoring the source before the deferred flush completes changes live
 * translations between contiguous and non-contiguous wherever the runs do
 * not rebuild a block as it was: the model must report it on arm64.
 */
static bool test_tlb_migrate_undo_old(void)
{
	unsigned long cases = 0, reported = 0;

	ASSERT_TRUE(tlb_run_migrate(TLB_MIG_UNDO_OLD, false, &cases, &reported));
	if (arch->cont_ptes > 1)
		ASSERT_NE(reported, 0UL);
	else
		ASSERT_EQ(reported, 0UL);
	printf("%s, %s: %lu cases, %lu reported as violations as expected\n",
	       arch->name, mig_end_name[TLB_MIG_UNDO_OLD], cases, reported);
	return true;
}

/* The deferred flush completed before the restore: never a violation. */
static bool test_tlb_migrate_undo_fixed(void)
{
	unsigned long cases = 0, reported = 0;

	ASSERT_TRUE(tlb_run_migrate(TLB_MIG_UNDO_FIXED, false, &cases, &reported));
	ASSERT_EQ(reported, 0UL);
	return true;
}

/*
 * A move that failed after the unmap (-EAGAIN, as fail_migrate injects):
 * the asynchronous pass undoes the folio after its deferred flush, the
 * synchronous pass unmaps the restored PTEs again (refolded blocks
 * included) and either fails again and undoes it, or moves it.  Never a
 * violation.
 */
static bool test_tlb_migrate_retried(void)
{
	unsigned long cases = 0, reported = 0;

	ASSERT_TRUE(tlb_run_migrate(TLB_MIG_UNDO_FIXED, true, &cases,
				    &reported));
	ASSERT_TRUE(tlb_run_migrate(TLB_MIG_MOVED, true, &cases, &reported));
	ASSERT_NE(cases, 0UL);
	ASSERT_EQ(reported, 0UL);
	return true;
}

/*
 * Two adjacent folios in one migrate_pages_batch(), as move_pages() queues
 * them since mm-0010: the asynchronous pass unmaps both with the flush
 * deferred, try_to_unmap_flush() completes it once, then each folio is
 * moved, or undone when its move failed.  The first folio has 1 to
 * 2 * PB_BLOCK + 1 pages from every offset of a block, the second 1 to
 * 2 * PB_BLOCK + 1 pages right after it, folded or not, each with its new
 * folio.  With @early the first folio is moved before the flush, between
 * the two unmaps: its old translations are still live, which every arch
 * must report.  The second folio may also fail in its unmap (a pinned
 * exclusive run) and be undone while the first waits for the flush.
 * Counts the cases and those the model reports; false on a wrong table.
 */
static bool tlb_run_migrate_two(bool early, unsigned long *cases,
				unsigned long *reported)
{
	static const unsigned int dim[] = {
		ARRAY_SIZE(tlb_folds), PB_BLOCK, 2 * PB_BLOCK + 1,
		2 * PB_BLOCK + 1, 6,
	};
	unsigned int v[ARRAY_SIZE(dim)] = { 0 };
	bool shown = false;

	do {
		enum pb_fold fold = tlb_folds[v[0]];
		unsigned int a = 2 * PB_BLOCK + v[1], na = v[2] + 1;
		unsigned int b = a + na, nb = v[3] + 1, i;
		bool fail_b = v[4] >= 4;
		bool moved_a = early || (v[4] & 1);
		bool moved_b = !fail_b && (v[4] & 2);
		unsigned long base;

		if ((early && !(v[4] & 1)) || (fail_b && nb < 2))
			continue;
		pb_clear_table();
		pb_map(a, na, fold, PB_PAT_MIXED);
		pb_map(b, nb, fold, PB_PAT_MIXED);
		arch->set_folio(pb_pfn(a) + TLB_NEW_FOLIO, na);
		arch->set_folio(pb_pfn(b) + TLB_NEW_FOLIO, nb);
		arch->tlb_reset();
		tlb_migrate_unmap(a, na, true, na / 2);
		if (early)
			tlb_migrate_restore(a, na, true);
		if (fail_b) {
			/*
			 * The unmap of the second folio fails at its
			 * exclusive run, while the first waits for its
			 * flush: ttu_restore_ptes() flushes the range it
			 * restores, and migrate_folio_undo_src() completes
			 * the deferred flush before it restores the
			 * migration entries written.
			 */
			tlb_migrate_unmap_partial(b, nb, true, nb / 2);
			arch->tlbbatch_flush();
			tlb_migrate_restore(b, nb / 2, false);
		} else {
			tlb_migrate_unmap(b, nb, true, nb / 2);
		}
		arch->tlbbatch_flush();
		if (!early)
			tlb_migrate_restore(a, na, moved_a);
		if (!fail_b)
			tlb_migrate_restore(b, nb, moved_b);
		model_tlb_off();
		(*cases)++;
		if (model_tlb.violations) {
			(*reported)++;
			if (!shown && !early) {
				printf("%s: folios of %u and %u pages from %u, folded %s: %s\n",
				       arch->name, na, nb, a, fold_name[fold],
				       model_tlb_report);
				shown = true;
			}
		}

		ASSERT_EQ(arch->check_table(), -1);
		for (i = a; i < b + nb; i++) {
			uint64_t pte = arch->ptep_get(i);
			bool moved = i < b ? moved_a : moved_b;

			base = pb_pfn(i) + (moved ? TLB_NEW_FOLIO : 0);
			ASSERT_TRUE(arch->pte_valid(pte));
			ASSERT_EQ(arch->pte_pfn(pte), base);
		}
	} while (pb_next_case(v, dim, ARRAY_SIZE(dim)));

	return true;
}

/* Two folios, one flush, then moved or undone: never a violation. */
static bool test_tlb_migrate_two(void)
{
	unsigned long cases = 0, reported = 0;

	ASSERT_TRUE(tlb_run_migrate_two(false, &cases, &reported));
	ASSERT_NE(cases, 0UL);
	ASSERT_EQ(reported, 0UL);
	return true;
}

/* The first folio moved before the flush: always reported. */
static bool test_tlb_migrate_two_early(void)
{
	unsigned long cases = 0, reported = 0;

	ASSERT_TRUE(tlb_run_migrate_two(true, &cases, &reported));
	ASSERT_NE(cases, 0UL);
	ASSERT_EQ(reported, cases);
	printf("%s, first folio moved before the flush: %lu cases, %lu reported as violations as expected\n",
	       arch->name, cases, reported);
	return true;
}

/*
 * Unfold and refold with the kernel's single-PTE operations: clear one PTE
 * of a folded block (contpte_convert() unfolds it), flush it at once or
 * deferred, map it again with set_pte_at() (which refolds the block), and
 * the same with wrprotect_ptes() on part of a folded block.
 */
static bool test_tlb_unfold_refold(void)
{
	unsigned int b = 2 * PB_BLOCK, off, deferred;

	if (arch->cont_ptes == 1)
		return true;

	for (deferred = 0; deferred < 2; deferred++) {
		for (off = 0; off < PB_BLOCK; off++) {
			uint64_t pte;

			pb_clear_table();
			pb_map(b, 2 * PB_BLOCK, PB_FOLD_ALL, PB_PAT_DIRTY);
			arch->tlb_reset();
			model_reset_counts();
			pte = arch->ref_get_and_clear_full_ptes(b + off, 1, 0);
			if (deferred)
				arch->tlbbatch_add_pending(b + off, 1);
			else
				arch->flush_tlb_range(b + off, 1);
			arch->set_pte_at(b + off, pte);
			if (deferred)
				arch->tlbbatch_flush();
			ASSERT_EQ(model_counts.unfolds, 1UL);
			ASSERT_EQ(model_counts.folds, off == PB_BLOCK - 1 ?
				  1UL : 0UL);
			ASSERT_EQ(model_tlb.violations, 0UL);
			ASSERT_EQ(arch->check_table(), -1);

			/* Partly covered folded blocks are unfolded first. */
			arch->wrprotect_ptes(b + off, PB_BLOCK);
			ASSERT_EQ(model_tlb.violations, 0UL);
			ASSERT_EQ(arch->check_table(), -1);
		}
	}
	model_tlb_off();
	return true;
}

/*
 * page_vma_mkclean_one() (mm/rmap.c) over the PTEs [@first, @first + @n)
 * of a folio, as folio_mkclean() walks them: each present PTE that is
 * dirty or writable is cleared, flushed and written back clean and
 * write-protected.  With @batched, as the series does it: a run that
 * folio_rmap_pte_batch() counts (PTEs equal but for the PFN, by
 * pte_same(), within the walk) takes get_and_clear_ptes(), one
 * flush_tlb_range() and set_ptes(), a run of one the per-PTE code.
 * Without, the per-PTE code of 7.3: ptep_clear_flush() (ptep_get_and_clear()
 * and a flush of the page) and set_pte_at().  @how other than MK_FLUSH
 * breaks the flushes as a broken version would: left out, or issued
 * without the barrier that completes them.  Returns the count
 * folio_mkclean() adds.
 */
enum mk_flush { MK_FLUSH, MK_NOFLUSH, MK_NOSYNC };

static void mk_flush(unsigned int idx, unsigned int nr, enum mk_flush how)
{
	if (how == MK_FLUSH)
		arch->flush_tlb_range(idx, nr);
	else if (how == MK_NOSYNC)
		arch->tlbbatch_add_pending(idx, nr);
}

static unsigned int tlb_replay_mkclean(unsigned int first, unsigned int n,
				       bool batched, enum mk_flush how)
{
	unsigned int i = first, end = first + n, cleaned = 0;

	while (i < end) {
		uint64_t pte = arch->ptep_get(i), expected = pte;
		unsigned int nr = 1;

		if (!arch->pte_present(pte)) {
			i++;
			continue;
		}
		while (batched && i + nr < end) {
			expected = arch->pte_advance_pfn(expected, 1);
			if (!arch->pte_same(arch->ptep_get(i + nr), expected))
				break;
			nr++;
		}
		if (!arch->pte_dirty(pte) && !arch->pte_write(pte)) {
			i += nr;
			continue;
		}
		if (nr == 1) {
			pte = arch->ref_get_and_clear_full_ptes(i, 1, 0);
			mk_flush(i, 1, how);
			arch->set_pte_at(i, arch->mkclean(pte));
		} else {
			pte = arch->get_and_clear_full_ptes(i, nr, 0);
			mk_flush(i, nr, how);
			arch->set_ptes(i, arch->mkclean(pte), nr);
		}
		cleaned += nr;
		i += nr;
	}
	return cleaned;
}

struct tlb_mkclean_outcome {
	unsigned int cleaned;
	uint64_t view[PB_WINDOW];
	bool folded[PB_WINDOW];		/* by slot: PTE_CONT in the table */
	struct model_counts counts;
	unsigned long violations;
	int writable;			/* first slot still writable, or -1 */
};

static void tlb_mkclean_run(unsigned int first, unsigned int n, bool batched,
			    enum mk_flush how, struct tlb_mkclean_outcome *o)
{
	unsigned int i;

	arch->tlb_reset();
	model_reset_counts();
	o->cleaned = tlb_replay_mkclean(first, n, batched, how);
	o->counts = model_counts;
	o->violations = model_tlb.violations;
	o->writable = -1;
	for (i = first; i < first + n; i++)
		if (model_tlb_writable(i)) {
			o->writable = i;
			break;
		}
	model_tlb_off();
	for (i = 0; i < PB_WINDOW; i++) {
		o->view[i] = arch->ptep_get(i) & ~arch->cont_bit;
		o->folded[i] = arch->pte_valid(model_pt[i]) &&
			       (model_pt[i] & arch->cont_bit);
	}
}

/*
 * The page tables of the two replays, as core mm reads them back with
 * ptep_get(): PTE_CONT aside, identical, except that in a block folded in
 * either (the per-PTE code may fold a block again when it writes its last
 * PTE) access and dirty are one state of the block.
 */
static bool tlb_mkclean_same(const struct tlb_mkclean_outcome *b,
			     const struct tlb_mkclean_outcome *r,
			     const char *what)
{
	unsigned int cont = arch->cont_ptes, blk, i;

	for (blk = 0; blk < PB_WINDOW; blk += cont) {
		bool folded = false, yb = false, yr = false, db = false,
		     dr = false;

		for (i = blk; i < blk + cont; i++)
			folded |= b->folded[i] || r->folded[i];
		for (i = blk; i < blk + cont; i++) {
			uint64_t vb = b->view[i], vr = r->view[i];

			if (folded && arch->pte_present(vb) &&
			    arch->pte_present(vr)) {
				yb |= arch->pte_young(vb);
				yr |= arch->pte_young(vr);
				db |= arch->pte_dirty(vb);
				dr |= arch->pte_dirty(vr);
				vb = arch->pte_normal(vb);
				vr = arch->pte_normal(vr);
			}
			if (vb == vr)
				continue;
			fprintf(stderr, "%s: %s: PTE %u: batched 0x%llx, per-PTE 0x%llx\n",
				arch->name, what, i,
				(unsigned long long)b->view[i],
				(unsigned long long)r->view[i]);
			return false;
		}
		if (yb != yr || db != dr) {
			fprintf(stderr, "%s: %s: block %u young/dirty %d/%d, per-PTE %d/%d\n",
				arch->name, what, blk, yb, db, yr, dr);
			return false;
		}
	}
	return true;
}

static const enum pb_pattern mkclean_pats[] = {
	PB_PAT_CLEAN, PB_PAT_DIRTY, PB_PAT_MIXED, PB_PAT_MIXED_RO,
	PB_PAT_RANDOM,
};
static const char *const mkclean_pat_name[] = {
	"clean", "dirty", "mixed", "mixed-ro", "random",
};
static const enum pb_fold mkclean_folds[] = {
	PB_FOLD_NONE, PB_FOLD_ALL, PB_FOLD_ALT, PB_FOLD_RANDOM,
};

/*
 * Every walk of 1 to 2 * PB_BLOCK + 2 PTEs at every offset of a block,
 * over a folio that is exactly the walk or inside a larger one (a VMA
 * that maps part of it), each fold and attribute pattern.  The batched
 * replay must leave every PTE as the per-PTE one does (PTE_CONT aside),
 * count the same, break no break-before-make rule, leave no translation
 * of the walk writable, unfold only the folded blocks the walk covers
 * partially and keep every block it covers whole folded, and issue no
 * more TLB invalidations.  A broken @how (no flush, or a flush not
 * completed) instead requires the model to report a translation left
 * writable whenever a PTE was writable, and, where the batched replay's
 * set_ptes() folds a block that was not folded (arm64), a break-before-make
 * violation: PTE_CONT entries written over translations no completed
 * invalidation removed (counted in *@bbm).
 */
static bool tlb_run_mkclean(enum mk_flush how, unsigned long *cases,
			    unsigned long *caught, unsigned long *bbm)
{
	const unsigned int dim[] = {
		2, ARRAY_SIZE(mkclean_folds), ARRAY_SIZE(mkclean_pats),
		PB_BLOCK, 2 * PB_BLOCK + 2,
	};
	unsigned int v[ARRAY_SIZE(dim)] = { 0 };
	static struct tlb_mkclean_outcome b, r;
	bool shown = false;
	char what[160];

	do {
		bool exact = v[0];
		enum pb_fold fold = mkclean_folds[v[1]];
		enum pb_pattern pat = mkclean_pats[v[2]];
		unsigned int first = 2 * PB_BLOCK + v[3], n = v[4] + 1, i;
		unsigned int cont = arch->cont_ptes, blk, partial = 0;
		bool any_write = false;
		uint64_t saved[PB_WINDOW];

		pb_clear_table();
		if (exact)
			pb_map(first, n, fold, pat);
		else
			pb_map(PB_BLOCK, 5 * PB_BLOCK, fold, pat);
		for (i = first; i < first + n; i++)
			any_write |= arch->pte_write(arch->ptep_get(i));
		for (blk = first - first % cont; cont > 1 && blk < first + n;
		     blk += cont)
			if ((blk < first || blk + cont > first + n) &&
			    (model_pt[blk] & arch->cont_bit))
				partial++;
		memcpy(saved, model_pt, sizeof(saved));
		snprintf(what, sizeof(what),
			 "mkclean%s: walk of %u PTEs from %u, folio %s, folded %s, attrs %s",
			 how == MK_NOFLUSH ? " without flush" :
			 how == MK_NOSYNC ? " without completing the flush" : "",
			 n, first,
			 exact ? "exact" : "inside", fold_name[fold],
			 mkclean_pat_name[v[2]]);
		(*cases)++;

		if (how != MK_FLUSH) {
			tlb_mkclean_run(first, n, true, how, &b);
			/*
			 * Only a block folded again on the way (which
			 * break-before-make flushes) may lose the stale
			 * write permission.
			 */
			if ((b.writable >= 0) != any_write &&
			    (cont == 1 || b.writable >= 0 || !b.counts.folds)) {
				fprintf(stderr, "%s: %s: %s\n", arch->name, what,
					any_write ? "no translation left writable" :
					"a translation of a read-only PTE left writable");
				return false;
			}
			*caught += b.writable >= 0;
			/*
			 * A block set_ptes() wrote folded; one folded again
			 * by contpte_try_fold() went through its own
			 * break-before-make.
			 */
			for (blk = first - first % cont; cont > 1 &&
			     !b.counts.folds && blk < first + n; blk += cont) {
				if (!b.folded[blk] || (saved[blk] & arch->cont_bit))
					continue;
				if (!b.violations) {
					fprintf(stderr, "%s: %s: block %u folded without a flush, no violation reported\n",
						arch->name, what, blk);
					return false;
				}
				(*bbm)++;
				break;
			}
			if (b.writable >= 0 && !shown) {
				shown = true;
				fprintf(stderr, "(expected) %s: %s: translation of PTE %d still writable after the walk\n",
					arch->name, what, b.writable);
			}
			continue;
		}

		tlb_mkclean_run(first, n, true, MK_FLUSH, &b);
		memcpy(model_pt, saved, sizeof(saved));
		tlb_mkclean_run(first, n, false, MK_FLUSH, &r);

		if (b.violations || r.violations) {
			fprintf(stderr, "%s: %s: %s replay: %s\n", arch->name,
				what, b.violations ? "batched" : "per-PTE",
				model_tlb_report);
			return false;
		}
		if (b.writable >= 0 || r.writable >= 0) {
			fprintf(stderr, "%s: %s: %s replay leaves PTE %d writable in the TLB\n",
				arch->name, what,
				b.writable >= 0 ? "batched" : "per-PTE",
				b.writable >= 0 ? b.writable : r.writable);
			return false;
		}
		ASSERT_EQ(b.cleaned, r.cleaned);
		if (!tlb_mkclean_same(&b, &r, what))
			return false;
		ASSERT_EQ(arch->check_table(), -1);
		ASSERT_TRUE(b.counts.unfolds <= partial);
		ASSERT_TRUE(b.counts.tlbi <= r.counts.tlbi);
		ASSERT_EQ(b.counts.warns, 0UL);
		/* A folded block the walk covers whole stays folded. */
		memcpy(model_pt, saved, sizeof(saved));
		for (blk = first - first % cont; cont > 1 && blk < first + n;
		     blk += cont) {
			if (blk < first || blk + cont > first + n ||
			    !(saved[blk] & arch->cont_bit))
				continue;
			for (i = blk; i < blk + cont; i++)
				ASSERT_TRUE(b.folded[i]);
		}
	} while (pb_next_case(v, dim, ARRAY_SIZE(dim)));

	return true;
}

static bool test_tlb_mkclean(void)
{
	unsigned long cases = 0, caught = 0, bbm = 0;
	struct tlb_mkclean_outcome b, r;
	unsigned int first = 2 * PB_BLOCK;

	ASSERT_TRUE(tlb_run_mkclean(MK_FLUSH, &cases, &caught, &bbm));

	/* The headline case: a dirty folio of two blocks, mapped folded. */
	pb_clear_table();
	pb_map(first, 2 * PB_BLOCK, PB_FOLD_ALL, PB_PAT_DIRTY);
	tlb_mkclean_run(first, 2 * PB_BLOCK, true, MK_FLUSH, &b);
	pb_clear_table();
	pb_map(first, 2 * PB_BLOCK, PB_FOLD_ALL, PB_PAT_DIRTY);
	tlb_mkclean_run(first, 2 * PB_BLOCK, false, MK_FLUSH, &r);
	ASSERT_EQ(b.counts.tlbi, 1UL);
	printf("%s, mkclean: %lu cases; a dirty folio of %u PTEs, folded: per-PTE %lu TLBI calls, %lu unfolds; batched %lu, %lu\n",
	       arch->name, cases, 2 * PB_BLOCK, r.counts.tlbi,
	       r.counts.unfolds, b.counts.tlbi, b.counts.unfolds);
	return true;
}

/*
 * Without the flush, or with its invalidation issued but not completed
 * (no dsb(ish) after the TLBI on arm64), a write permission outlives the
 * walk in the TLB, and on arm64 a block folded by set_ptes() breaks
 * break-before-make.
 */
static bool tlb_mkclean_broken(enum mk_flush how, const char *what)
{
	unsigned long cases = 0, caught = 0, bbm = 0;

	ASSERT_TRUE(tlb_run_mkclean(how, &cases, &caught, &bbm));
	ASSERT_NE(caught, 0UL);
	if (arch->cont_ptes > 1)
		ASSERT_NE(bbm, 0UL);
	printf("%s, mkclean %s: %lu cases, %lu with a translation left writable, %lu with a block folded over stale translations, as expected\n",
	       arch->name, what, cases, caught, bbm);
	return true;
}

static bool test_tlb_mkclean_noflush(void)
{
	return tlb_mkclean_broken(MK_NOFLUSH, "without flush");
}

static bool test_tlb_mkclean_nosync(void)
{
	return tlb_mkclean_broken(MK_NOSYNC, "without completing the flush");
}

static void run_tlb_tests(int *num_tests, int *num_fail)
{
	TEST(tlb_model_reset);
	TEST(tlb_model_catches);
	TEST(tlb_unmap_to_swap);
	TEST(tlb_partial_restore_old);
	TEST(tlb_partial_restore_fixed);
	TEST(tlb_restore_all);
	TEST(tlb_restore_all_fixed);
	TEST(tlb_unfold_refold);
	TEST(tlb_migrate);
	TEST(tlb_migrate_undo_old);
	TEST(tlb_migrate_undo_fixed);
	TEST(tlb_migrate_retried);
	TEST(tlb_migrate_two);
	TEST(tlb_migrate_two_early);
	TEST(tlb_migrate_partial);
	TEST(tlb_mkclean);
	TEST(tlb_mkclean_noflush);
	TEST(tlb_mkclean_nosync);
}
