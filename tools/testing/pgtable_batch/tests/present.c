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
	const unsigned int cont = PB_BLOCK;
	const unsigned int dim[] = {
		PB_NR_LAYOUT, PB_NR_FOLD, PB_NR_PAT, cont, 2 * cont + 1, nargs
	};
	unsigned int v[ARRAY_SIZE(dim)] = { 0 };

	do {
		enum pb_layout layout = v[0];
		enum pb_fold fold = v[1];
		enum pb_pattern pat = v[2];
		unsigned int start = batch_start(v[3]);
		unsigned int nr = v[4] + 1;
		uint64_t arg = args[v[5]];

		map_layout(layout, start, nr, fold, pat);
		if (none) {
			pb_make_none(start, nr);
			arg = arch->mk_present(pb_pfn(start),
					       pb_attr(pat, start));
		}
		set_context(layout, fold, pat);
		if (!pb_check(op, start, nr, arg))
			return false;
	} while (pb_next_case(v, dim, ARRAY_SIZE(dim)));

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
