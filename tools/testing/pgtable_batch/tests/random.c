// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Randomized cases: random folios, folding and attributes, then chains of
 * random batched operations on whatever runs of PTEs suit them, each
 * compared with its per-PTE loop.  The seed can be set with
 * PGTABLE_BATCH_SEED; a failure prints it.
 */

#define RANDOM_TABLES	4000
#define RANDOM_CHAIN	6

static uint64_t random_seed = 20260101;

static unsigned int rnd(unsigned int n)
{
	return pb_rand() % n;
}

enum run_kind { RUN_PRESENT, RUN_NONE, RUN_LEAF };

static bool run_matches(enum run_kind kind, uint64_t pte)
{
	switch (kind) {
	case RUN_PRESENT:
		return arch->pte_present(pte);
	case RUN_NONE:
		return pte == 0;
	default:
		return pte && !arch->pte_present(pte);
	}
}

/*
 * Pick a random run of PTEs of @kind inside the window: [*start, *start +
 * *nr), no longer than 2 * cont + 1 and inside one PMD.  False if there is
 * none near the random starting point.
 */
static bool pick_run(enum run_kind kind, unsigned int *start,
		     unsigned int *nr)
{
	unsigned int i = rnd(PB_WINDOW), lo, hi, max;

	while (i < PB_WINDOW && !run_matches(kind, model_pt[i]))
		i++;
	if (i == PB_WINDOW)
		return false;
	lo = i;
	hi = i;
	while (hi + 1 < PB_WINDOW && run_matches(kind, model_pt[hi + 1]))
		hi++;
	*start = lo + rnd(hi - lo + 1);
	max = hi - *start + 1;
	if (max > 2 * PB_BLOCK + 1)
		max = 2 * PB_BLOCK + 1;
	*nr = 1 + rnd(max);
	return true;
}

static void random_table(void)
{
	unsigned int cont = PB_BLOCK;
	unsigned int nfolios = 1 + rnd(3), f;

	pb_clear_table();
	for (f = 0; f < nfolios; f++) {
		unsigned int start = rnd(PB_WINDOW - 1);
		unsigned int n = 1 + rnd(min(PB_WINDOW - start, 4 * cont));

		pb_attr_salt = pb_rand();
		pb_map(start, n, (enum pb_fold)rnd(PB_NR_FOLD),
		       (enum pb_pattern)rnd(PB_NR_PAT));
	}
	/*
	 * Folios mapped over each other can break a folded block: unfold
	 * those, as the kernel would have before changing them.
	 */
	for (;;) {
		int bad = arch->check_table();
		unsigned int i;

		if (bad < 0)
			break;
		for (i = bad; i < bad + cont; i++)
			if (arch->pte_valid(model_pt[i]))
				model_pt[i] &= ~arch->cont_bit;
	}

	/* Some swap entries and markers where nothing is mapped. */
	if (rnd(2)) {
		unsigned int start, nr;

		if (pick_run(RUN_NONE, &start, &nr))
			pb_fill_leaves(start, nr, (enum pb_leaf)rnd(PB_NR_LEAF),
				       3, 0x4000 + rnd(1000), rnd(8) << 5);
	}
}

static bool random_step(unsigned int step)
{
	static struct pb_leaf_arg a;
	const struct pb_op *op;
	unsigned int start, nr;
	uint64_t arg = 0;

	switch (rnd(11)) {
	case 0:
		if (!pick_run(RUN_NONE, &start, &nr))
			return true;
		arch->set_folio(pb_pfn(start), nr);
		arg = arch->mk_present(pb_pfn(start),
				       pb_attr(PB_PAT_RANDOM, start));
		op = &pb_op_set_ptes;
		break;
	case 1:
		if (!pick_run(RUN_NONE, &start, &nr))
			return true;
		a.kind = (enum pb_leaf)rnd(PB_NR_LEAF);
		a.type = rnd(20);
		a.offset = 0x3000 + rnd(0x1000);
		a.flags = (rnd(2) ? PB_EXCLUSIVE : 0) |
			  (rnd(2) ? PB_SOFT_DIRTY : 0) |
			  (rnd(2) ? PB_SWP_UFFD_WP : 0);
		arg = (uintptr_t)&a;
		op = &pb_op_set_softleaf_ptes;
		break;
	case 2:
		if (!pick_run(RUN_LEAF, &start, &nr))
			return true;
		op = &pb_op_clear_nonpresent_ptes;
		break;
	case 3:
	case 4:
		if (!pick_run(RUN_PRESENT, &start, &nr))
			return true;
		a.kind = PB_LEAF_SWAP;
		a.type = 1 + rnd(20);
		a.offset = 0x100000 + rnd(0x100000);
		a.flags = (rnd(2) ? PB_EXCLUSIVE : 0) |
			  (rnd(2) ? PB_SOFT_DIRTY : 0) |
			  (rnd(2) ? PB_SWP_UFFD_WP : 0);
		arg = (uintptr_t)&a;
		op = &pb_op_unmap_to_softleaf;
		break;
	default:
		if (!pick_run(RUN_PRESENT, &start, &nr))
			return true;
		switch (rnd(6)) {
		case 0:
			op = &pb_op_get_and_clear_full_ptes;
			arg = rnd(2);
			break;
		case 1:
			op = &pb_op_clear_full_ptes;
			arg = rnd(2);
			break;
		case 2:
			op = &pb_op_wrprotect_ptes;
			break;
		case 3:
			op = &pb_op_clear_young_dirty_ptes;
			arg = 1 + rnd(3);
			break;
		case 4:
			op = &pb_op_test_and_clear_young_ptes;
			break;
		default:
			op = &pb_op_clear_flush_young_ptes;
			break;
		}
		break;
	}
	snprintf(pb_context, sizeof(pb_context), "[random seed %llu, step %u]",
		 (unsigned long long)random_seed, step);
	return pb_check(op, start, nr, arg);
}

/*
 * Present PTEs in a random table need not all belong to one folio: make
 * the runs the present-PTE helpers see map consecutive pages of one folio,
 * as their callers guarantee, by mapping every table index to its own pfn
 * (pb_pfn()) and giving each run of present PTEs a folio.
 */
static void random_folios(void)
{
	unsigned int i = 0, j;

	while (i < PB_WINDOW) {
		if (!arch->pte_present(model_pt[i])) {
			i++;
			continue;
		}
		for (j = i; j < PB_WINDOW && arch->pte_present(model_pt[j]); j++)
			;
		arch->set_folio(pb_pfn(i), j - i);
		i = j;
	}
}

static bool test_random(void)
{
	unsigned int t, s;

	pb_srand(random_seed);
	for (t = 0; t < RANDOM_TABLES; t++) {
		random_table();
		for (s = 0; s < RANDOM_CHAIN; s++) {
			random_folios();
			if (!random_step(t * RANDOM_CHAIN + s))
				return false;
		}
	}
	return true;
}

static void run_random_tests(int *num_tests, int *num_fail)
{
	TEST(random);
}
