// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Non-present entries: set_softleaf_ptes() writing every kind of softleaf
 * entry (swap with all combinations of exclusive, soft-dirty and uffd-wp;
 * migration, device-private, device-exclusive, hwpoison; the markers),
 * clear_nonpresent_ptes() removing them, and the unmap sequence of
 * try_to_unmap_one(): get_and_clear_ptes() then set_softleaf_ptes() over
 * present, possibly folded, PTEs.
 */

static const char *const leaf_name[PB_NR_LEAF] = {
	"swap", "migration-read", "migration-read-exclusive",
	"migration-write", "device-private-read", "device-private-write",
	"device-exclusive", "hwpoison", "marker-uffd-wp", "marker-guard",
	"marker-poisoned", "marker-uffd-wp|guard",
};

/* What surrounds the batch in the table. */
enum pb_around {
	PB_AROUND_NONE,		/* nothing mapped */
	PB_AROUND_PRESENT,	/* a folio, folded where the batch is not */
	PB_AROUND_LEAVES,	/* swap entries of another range */
	PB_NR_AROUND,
};

static const char *const around_name[] = { "none", "present", "leaves" };

/* The flag combinations tried with each kind of entry. */
static unsigned int leaf_flag_sets(enum pb_leaf kind, unsigned int *sets)
{
	unsigned int n = 0, f;

	if (!pb_leaf_has_offset(kind)) {
		sets[n++] = 0;
		return n;
	}
	if (kind == PB_LEAF_SWAP) {
		for (f = 0; f < 8; f++)
			sets[n++] = ((f & 1) ? PB_EXCLUSIVE : 0) |
				    ((f & 2) ? PB_SOFT_DIRTY : 0) |
				    ((f & 4) ? PB_SWP_UFFD_WP : 0);
		return n;
	}
	sets[n++] = 0;
	sets[n++] = PB_EXCLUSIVE | PB_SOFT_DIRTY | PB_SWP_UFFD_WP;
	return n;
}

static void leaf_arg_init(struct pb_leaf_arg *a, enum pb_leaf kind,
			  unsigned int flags, unsigned int salt)
{
	a->kind = kind;
	a->type = kind == PB_LEAF_SWAP ? 1 + salt % 20 : 0;
	/* Swap offsets and pfns; the pfns stay inside the model memmap. */
	a->offset = kind == PB_LEAF_SWAP ? 0x12345UL + salt * 977UL :
		    0x2000UL + salt % 0x1000;
	a->flags = flags;
}

static void surround(enum pb_around around, unsigned int start,
		     unsigned int nr, enum pb_fold fold)
{
	unsigned int cont = PB_BLOCK;

	pb_clear_table();
	switch (around) {
	case PB_AROUND_NONE:
		break;
	case PB_AROUND_PRESENT:
		pb_map(cont, 5 * cont, fold, PB_PAT_MIXED);
		pb_make_none(start, nr);
		break;
	case PB_AROUND_LEAVES:
	default:
		pb_fill_leaves(cont, 5 * cont, PB_LEAF_SWAP, 2, 0x777000UL,
			       PB_EXCLUSIVE);
		pb_make_none(start, nr);
		break;
	}
}

/* The batch wrote exactly the entries the per-PTE path writes. */
static bool check_leaves(unsigned int start, unsigned int nr,
			 const struct pb_leaf_arg *a)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		uint64_t want = pb_leaf_at(a->kind, a->type, a->offset,
					   a->flags, i);

		if (model_pt[start + i] != want) {
			fprintf(stderr,
				"%s: set_softleaf_ptes(start=%u, nr=%u) %s: ",
				arch->name, start, nr, pb_context);
			fprintf(stderr, "PTE %u is %016llx, expected %016llx\n",
				start + i,
				(unsigned long long)model_pt[start + i],
				(unsigned long long)want);
			return false;
		}
	}
	return true;
}

static bool test_set_softleaf_ptes(void)
{
	const unsigned int cont = PB_BLOCK;
	unsigned int kind, sets[8];

	for (kind = 0; kind < PB_NR_LEAF; kind++) {
		const unsigned int dim[] = {
			leaf_flag_sets(kind, sets), PB_NR_AROUND, cont,
			2 * cont + 1
		};
		unsigned int v[ARRAY_SIZE(dim)] = { 0 };

		do {
			unsigned int start = 2 * cont + v[2];
			unsigned int nr = v[3] + 1;
			struct pb_leaf_arg a;

			leaf_arg_init(&a, kind, sets[v[0]], v[2] * 64 + nr);
			surround(v[1], start, nr,
				 (enum pb_fold)((v[2] + nr) % PB_NR_FOLD));
			snprintf(pb_context, sizeof(pb_context),
				 "[%s flags 0x%x, around %s]", leaf_name[kind],
				 sets[v[0]], around_name[v[1]]);
			if (!pb_check(&pb_op_set_softleaf_ptes, start, nr,
				      (uintptr_t)&a))
				return false;
			if (!check_leaves(start, nr, &a))
				return false;
		} while (pb_next_case(v, dim, ARRAY_SIZE(dim)));
	}
	return true;
}

/* With nr == 1, set_softleaf_ptes() costs no more than set_pte_at(). */
static bool test_set_softleaf_ptes_one(void)
{
	unsigned int kind;

	for (kind = 0; kind < PB_NR_LEAF; kind++) {
		struct model_counts one, loop;
		struct pb_leaf_arg a;
		uint64_t pte;

		leaf_arg_init(&a, kind, PB_EXCLUSIVE, kind);
		pte = pb_leaf_at(kind, a.type, a.offset, a.flags, 0);

		pb_clear_table();
		model_reset_counts();
		arch->set_softleaf_ptes(40, pte, 1);
		one = model_counts;
		ASSERT_EQ(model_pt[40], pte);

		pb_clear_table();
		model_reset_counts();
		arch->set_pte_at(40, pte);
		loop = model_counts;

		ASSERT_LE(one.reads, loop.reads);
		ASSERT_LE(one.writes, loop.writes);
		ASSERT_LE(one.dsb + one.isb + one.dmb,
			  loop.dsb + loop.isb + loop.dmb);
		ASSERT_LE(one.tlbi, loop.tlbi);
		ASSERT_EQ(one.ptc_set, loop.ptc_set);
		ASSERT_EQ(one.warns, 0UL);
	}
	return true;
}

static bool test_clear_nonpresent_ptes(void)
{
	const unsigned int cont = PB_BLOCK;
	unsigned int kind, sets[8];

	for (kind = 0; kind < PB_NR_LEAF; kind++) {
		const unsigned int dim[] = {
			leaf_flag_sets(kind, sets), PB_NR_AROUND, cont,
			2 * cont + 1
		};
		unsigned int v[ARRAY_SIZE(dim)] = { 0 };

		do {
			unsigned int start = 2 * cont + v[2];
			unsigned int nr = v[3] + 1;
			struct pb_leaf_arg a;

			leaf_arg_init(&a, kind, sets[v[0]], v[2] * 64 + nr);
			surround(v[1], start, nr,
				 (enum pb_fold)((v[2] + nr) % PB_NR_FOLD));
			pb_fill_leaves(start, nr, a.kind, a.type, a.offset,
				       a.flags);
			snprintf(pb_context, sizeof(pb_context),
				 "[%s flags 0x%x, around %s]", leaf_name[kind],
				 sets[v[0]], around_name[v[1]]);
			if (!pb_check(&pb_op_clear_nonpresent_ptes, start, nr,
				      0))
				return false;
		} while (pb_next_case(v, dim, ARRAY_SIZE(dim)));
	}
	return true;
}

/*
 * try_to_unmap_one() on a batch of a swap-backed folio: every nr and start
 * offset, folded or not, with the swap entry flags it writes.
 */
static bool test_unmap_to_swap(void)
{
	static const unsigned int sets[] = {
		0, PB_EXCLUSIVE, PB_SOFT_DIRTY | PB_SWP_UFFD_WP,
		PB_EXCLUSIVE | PB_SOFT_DIRTY | PB_SWP_UFFD_WP,
	};
	const unsigned int cont = PB_BLOCK;
	const unsigned int dim[] = {
		PB_NR_FOLD, PB_NR_PAT, ARRAY_SIZE(sets), cont, 2 * cont + 1
	};
	unsigned int v[ARRAY_SIZE(dim)] = { 0 };

	do {
		unsigned int start = 2 * cont + v[3];
		unsigned int nr = v[4] + 1;
		struct pb_leaf_arg a;

		leaf_arg_init(&a, PB_LEAF_SWAP, sets[v[2]], v[3] * 64 + nr);
		pb_clear_table();
		pb_map(cont, 5 * cont, v[0], v[1]);
		snprintf(pb_context, sizeof(pb_context),
			 "[folded %s, attrs %s, swap flags 0x%x]",
			 fold_name[v[0]], pat_name[v[1]], sets[v[2]]);
		if (!pb_check(&pb_op_unmap_to_softleaf, start, nr,
			      (uintptr_t)&a))
			return false;
		if (!check_leaves(start, nr, &a))
			return false;
	} while (pb_next_case(v, dim, ARRAY_SIZE(dim)));

	return true;
}

/*
 * pte_move_softleaf_offset() moves the offset of every kind of entry that
 * carries one, forwards and backwards, keeping the type and the swp bits:
 * the result is the entry built with the moved offset.
 */
static bool test_pte_move_softleaf_offset(void)
{
	static const long deltas[] = { 1, -1, 2, -2, 15, -15, 16, -16, 511 };
	unsigned int kind, sets[8];

	for (kind = 0; kind < PB_NR_LEAF; kind++) {
		unsigned int nsets = leaf_flag_sets(kind, sets), s, d;

		if (!pb_leaf_has_offset(kind))
			continue;
		for (s = 0; s < nsets; s++)
			for (d = 0; d < ARRAY_SIZE(deltas); d++) {
				struct pb_leaf_arg a;
				uint64_t from, to;

				leaf_arg_init(&a, kind, sets[s], 1000 + d);
				from = pb_leaf_at(kind, a.type, a.offset, a.flags,
						  512);
				to = pb_leaf_at(kind, a.type, a.offset, a.flags,
						512 + deltas[d]);
				ASSERT_EQ(arch->move_softleaf_offset(from,
								     deltas[d]),
					  to);
			}
	}
	return true;
}

/* Count the warnings of one call of set_softleaf_ptes(). */
static unsigned long softleaf_warns(unsigned int idx, uint64_t pte,
				    unsigned int nr)
{
	model_reset_counts();
	fprintf(stderr, "(a warning is expected)\n");
	arch->set_softleaf_ptes(idx, pte, nr);
	return model_counts.warns;
}

/*
 * set_softleaf_ptes() checks its contract with VM_WARN_ON(): non-present,
 * non-none entries only, into none PTEs, all in one PMD.
 */
static bool test_set_softleaf_ptes_contract(void)
{
	uint64_t swp = arch->mk_softleaf(PB_LEAF_SWAP, 1, 0x100, 0);
	uint64_t present = arch->mk_present(pb_pfn(40), PB_WRITE);
	unsigned int nr;

	for (nr = 1; nr <= 3; nr += 2) {
		pb_clear_table();
		model_pt[40 + nr - 1] = present;
		ASSERT_LE(1UL, softleaf_warns(40, swp, nr));

		pb_clear_table();
		ASSERT_LE(1UL, softleaf_warns(40, present, nr));
	}

	/* A batch that runs into the next PMD's table. */
	pb_clear_table();
	ASSERT_LE(1UL, softleaf_warns(MODEL_NR_PTES - 2, swp, 4));

	/* And no warning when the contract holds, up to the PMD's end. */
	pb_clear_table();
	model_reset_counts();
	arch->set_softleaf_ptes(MODEL_NR_PTES - 4, swp, 4);
	ASSERT_EQ(model_counts.warns, 0UL);

	pb_clear_table();
	return true;
}

static void run_softleaf_tests(int *num_tests, int *num_fail)
{
	TEST(set_softleaf_ptes);
	TEST(set_softleaf_ptes_one);
	TEST(set_softleaf_ptes_contract);
	TEST(pte_move_softleaf_offset);
	TEST(clear_nonpresent_ptes);
	TEST(unmap_to_swap);
}
