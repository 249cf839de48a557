// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The instrumentation itself: the tests below rely on the model seeing
 * unfolds, folds, TLB invalidations and broken contpte blocks, so check
 * that it does, with the kernel's single-PTE operations.
 */

/* A per-PTE clear of one PTE of a folded block unfolds that block. */
static bool test_model_counts_unfold(void)
{
	unsigned int cont = arch->cont_ptes;

	pb_clear_table();
	pb_map(2 * cont, cont, PB_FOLD_ALL, PB_PAT_DIRTY);
	ASSERT_EQ(arch->check_table(), -1);
	ASSERT_TRUE(model_pt[2 * cont] & arch->cont_bit);

	model_reset_counts();
	arch->ref_get_and_clear_full_ptes(2 * cont + 5, 1, 0);
	ASSERT_EQ(model_counts.unfolds, 1UL);
	ASSERT_EQ(model_counts.folds, 0UL);
	ASSERT_EQ(model_unfolded[0], 2 * cont);
	ASSERT_EQ(model_counts.tlbi, 1UL);
	ASSERT_EQ(model_counts.tlbi_pages, (unsigned long)cont);
	ASSERT_LE(2UL, model_counts.dsb);
	ASSERT_EQ(model_counts.warns, 0UL);
	ASSERT_EQ(arch->check_table(), -1);
	ASSERT_FALSE(model_pt[2 * cont] & arch->cont_bit);
	ASSERT_EQ(model_pt[2 * cont + 5], 0);

	return true;
}

/* set_pte_at() of the last PTE of a fully mapped block folds it. */
static bool test_model_counts_fold(void)
{
	unsigned int cont = arch->cont_ptes;
	unsigned int i;

	if (cont == 1)
		return true;

	pb_clear_table();
	arch->set_folio(pb_pfn(cont), cont);
	model_reset_counts();
	for (i = cont; i < 2 * cont; i++)
		arch->set_pte_at(i, arch->mk_present(pb_pfn(i), PB_WRITE));
	ASSERT_EQ(model_counts.folds, 1UL);
	ASSERT_EQ(model_counts.unfolds, 0UL);
	ASSERT_EQ(model_counts.ptc_set, (unsigned long)(cont + cont));
	ASSERT_EQ(arch->check_table(), -1);
	for (i = cont; i < 2 * cont; i++)
		ASSERT_TRUE(model_pt[i] & arch->cont_bit);

	return true;
}

/* The consistency check catches a folded block with a hole or a stray bit. */
static bool test_model_check_table(void)
{
	unsigned int cont = arch->cont_ptes;

	pb_clear_table();
	pb_map(cont, 2 * cont, PB_FOLD_ALL, PB_PAT_CLEAN);
	ASSERT_EQ(arch->check_table(), -1);
	model_pt[2 * cont + 3] = 0;
	ASSERT_EQ(arch->check_table(), (int)(2 * cont));

	pb_clear_table();
	pb_map(cont, 2 * cont, PB_FOLD_ALL, PB_PAT_CLEAN);
	model_pt[cont + 7] = arch->mk_present(pb_pfn(cont + 7), 0) |
			     arch->cont_bit;
	ASSERT_EQ(arch->check_table(), (int)cont);

	pb_clear_table();
	pb_map(cont, 2 * cont, PB_FOLD_NONE, PB_PAT_CLEAN);
	model_pt[cont + 7] |= arch->cont_bit;
	ASSERT_EQ(arch->check_table(), (int)cont);

	return true;
}

/* pb_check() fails a batch that differs from the per-PTE loop. */
static uint64_t wrong_batch(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->ref_clear_full_ptes(idx, nr, 0);
	model_pt[idx + nr] = 0;
	return 0;
}

static uint64_t right_ref(unsigned int idx, unsigned int nr, uint64_t arg)
{
	arch->ref_clear_full_ptes(idx, nr, 0);
	return 0;
}

static bool test_model_check_fails(void)
{
	const struct pb_op wrong = {
		.name = "clears one PTE too many (expected to fail)",
		.batch = wrong_batch, .ref = right_ref,
	};

	pb_clear_table();
	pb_map(16, 64, PB_FOLD_NONE, PB_PAT_MIXED);
	snprintf(pb_context, sizeof(pb_context), "self-test");
	fprintf(stderr, "(the next message is expected)\n");
	ASSERT_FALSE(pb_check(&wrong, 20, 5, 0));
	pb_totals.cases--;

	return true;
}

static void run_model_tests(int *num_tests, int *num_fail)
{
	if (arch->cont_ptes > 1) {
		TEST(model_counts_unfold);
		TEST(model_counts_fold);
		TEST(model_check_table);
	}
	TEST(model_check_fails);
}
