// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Exhaustive small cases for the helpers that take present PTEs: every nr
 * from 1 to 2 * CONT_PTES + 1, every start offset inside a contpte block,
 * contpte blocks folded or not, and present PTEs with mixed write, dirty and
 * young bits.  Two layouts: the batch inside a larger folio (its end blocks
 * are shared with PTEs outside the batch), and a folio that is exactly the
 * batch (the rest of the table is none).
 */

enum pb_layout {
	PB_LAYOUT_INSIDE,	/* folio of 5 blocks from block 1 */
	PB_LAYOUT_EXACT,	/* folio == batch */
	PB_NR_LAYOUT,
};

static const char *const layout_name[] = { "inside", "exact" };
static const char *const fold_name[] = { "none", "all", "alt", "random" };
static const char *const pat_name[] = {
	"clean", "dirty", "mixed", "mixed-ro", "random"
};

/* Batches start in block 2, so block 1 and blocks 5.. lie outside them. */
static unsigned int batch_start(unsigned int off)
{
	return 2 * PB_BLOCK + off;
}

static void map_layout(enum pb_layout layout, unsigned int start,
		       unsigned int nr, enum pb_fold fold, enum pb_pattern pat)
{
	unsigned int cont = PB_BLOCK;

	pb_clear_table();
	if (layout == PB_LAYOUT_INSIDE)
		pb_map(cont, 5 * cont, fold, pat);
	else
		pb_map(start, nr, fold, pat);
}

static void set_context(enum pb_layout layout, enum pb_fold fold,
			enum pb_pattern pat)
{
	snprintf(pb_context, sizeof(pb_context),
		 "[layout %s, folded %s, attrs %s]", layout_name[layout],
		 fold_name[fold], pat_name[pat]);
}

/*
 * Run @op over every case, with each of its @nargs arguments.  With @none,
 * the batch's PTEs are made none first (for set_ptes()).
 */
static bool run_present(const struct pb_op *op, const uint64_t *args,
			unsigned int nargs, bool none)
{
	unsigned int cont = PB_BLOCK;
	unsigned int layout, fold, pat, off, nr, a;

	for (layout = 0; layout < PB_NR_LAYOUT; layout++)
	for (fold = 0; fold < PB_NR_FOLD; fold++)
	for (pat = 0; pat < PB_NR_PAT; pat++)
	for (off = 0; off < cont; off++)
	for (nr = 1; nr <= 2 * cont + 1; nr++)
	for (a = 0; a < nargs; a++) {
		unsigned int start = batch_start(off);
		uint64_t arg = args[a];

		map_layout(layout, start, nr, fold, pat);
		if (none) {
			pb_make_none(start, nr);
			arg = arch->mk_present(pb_pfn(start), pb_attr(pat, start));
		}
		set_context(layout, fold, pat);
		if (!pb_check(op, start, nr, arg))
			return false;
	}
	return true;
}

static const uint64_t no_arg[] = { 0 };
static const uint64_t full_args[] = { 0, 1 };
static const uint64_t cydp_args[] = {
	PB_CYDP_YOUNG, PB_CYDP_DIRTY, PB_CYDP_YOUNG | PB_CYDP_DIRTY
};

static bool test_set_ptes(void)
{
	return run_present(&pb_op_set_ptes, no_arg, 1, true);
}

static bool test_get_and_clear_full_ptes(void)
{
	return run_present(&pb_op_get_and_clear_full_ptes, full_args, 2, false);
}

static bool test_clear_full_ptes(void)
{
	return run_present(&pb_op_clear_full_ptes, full_args, 2, false);
}

static bool test_wrprotect_ptes(void)
{
	return run_present(&pb_op_wrprotect_ptes, no_arg, 1, false);
}

static bool test_clear_young_dirty_ptes(void)
{
	return run_present(&pb_op_clear_young_dirty_ptes, cydp_args, 3, false);
}

static bool test_test_and_clear_young_ptes(void)
{
	return run_present(&pb_op_test_and_clear_young_ptes, no_arg, 1, false);
}

static bool test_clear_flush_young_ptes(void)
{
	return run_present(&pb_op_clear_flush_young_ptes, no_arg, 1, false);
}

static void run_present_tests(int *num_tests, int *num_fail)
{
	TEST(set_ptes);
	TEST(get_and_clear_full_ptes);
	TEST(clear_full_ptes);
	TEST(wrprotect_ptes);
	TEST(clear_young_dirty_ptes);
	TEST(test_and_clear_young_ptes);
	TEST(clear_flush_young_ptes);
}
