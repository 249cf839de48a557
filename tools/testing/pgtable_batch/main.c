// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conformance tests of the batched PTE helpers (include/linux/pgtable_batch.h)
 * against the per-PTE loops they are defined by, on a model page table.
 */

#include <string.h>

#include "shared.h"

/* Tests are included directly, as in tools/testing/vma. */
#include "tests/model.c"
#include "tests/present.c"
#include "tests/softleaf.c"
#include "tests/random.c"
#include "tests/tlb.c"

/* The configurations of the kernel code under test. */
static const struct pb_arch *const arches[] = {
	&arm64_arch,			/* arm64.o */
	&arm64_nocontpte_arch,		/* arm64-nocontpte.o */
	&x86_arch,			/* x86.o */
	&riscv64_arch,			/* riscv.o */
};

static void print_counts(const char *what, const struct model_counts *c)
{
	printf("  %-14s reads %lu, writes %lu, unfolds %lu, folds %lu, ",
	       what, c->reads, c->writes, c->unfolds, c->folds);
	printf("TLB invalidations %lu (%lu pages), dsb %lu, isb %lu\n",
	       c->tlbi, c->tlbi_pages, c->dsb, c->isb);
}

int main(int argc, char **argv)
{
	int num_tests = 0, num_fail = 0;
	const char *seed = getenv("PGTABLE_BATCH_SEED");

	unsigned int a;

	if (seed)
		random_seed = strtoull(seed, NULL, 0);

	for (a = 0; a < ARRAY_SIZE(arches); a++) {
		arch = arches[a];
		memset(&pb_totals, 0, sizeof(pb_totals));

		run_model_tests(&num_tests, &num_fail);
		run_present_tests(&num_tests, &num_fail);
		run_softleaf_tests(&num_tests, &num_fail);
		run_random_tests(&num_tests, &num_fail);
		run_tlb_tests(&num_tests, &num_fail);

		printf("%s: %lu cases compared with the per-PTE loops:\n",
		       arch->name, pb_totals.cases);
		print_counts("batched:", &pb_totals.batch);
		print_counts("per-PTE loops:", &pb_totals.ref);
		printf("  TLB model:     %lu translations cached, ",
		       pb_totals.tlb_live);
		printf("%lu removed by completed invalidations, ",
		       pb_totals.tlb_dropped);
		printf("%lu break-before-make violations\n",
		       pb_totals.tlb_violations);
	}
	printf("%d tests run, %d passed, %d failed.\n",
	       num_tests, num_tests - num_fail, num_fail);

	return num_fail == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
