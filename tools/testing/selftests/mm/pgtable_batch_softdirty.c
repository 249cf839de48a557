// SPDX-License-Identifier: GPL-2.0
/*
 * pgtable_batch_softdirty: the soft-dirty bit of every page after the kernel cleared a
 * batch of PTEs that map one large folio and wrote them back from the PTE
 * that get_and_clear_full_ptes() or modify_prot_start_ptes() returned for
 * the batch.  Those merge the dirty bits of the batch into the first PTE;
 * pte_mkdirty() sets the soft-dirty bit too on x86, so a merge done with it
 * marks every page of the batch soft-dirty as soon as one PTE is dirty.  The
 * PTE-at-a-time paths keep each page's own bit.
 *
 * Cases, for each folio size given (-s, default 4 and 64; 4 is order-0,
 * the PTE-at-a-time reference):
 *   mprotect  fill every page, clear_refs 4 (the PTEs stay dirty), then
 *             mprotect(PROT_READ): change_pte_range() rewrites each folio's
 *             PTEs as one batch.  No page may be soft-dirty.
 *   lazyfree  fill, MADV_FREE, rewrite page 1 of every folio, clear_refs 4,
 *             MADV_PAGEOUT: reclaim finds the lazyfree folio dirty again
 *             and try_to_unmap_one() restores the PTEs it cleared.  No page
 *             may be soft-dirty.
 * Both also check that the kernel took the path under test: every folio must
 * still be one large folio mapped whole (consecutive PFNs, KPF_THP), and for
 * lazyfree its swap-backed flag must have gone from clear (lazyfree) to set
 * (set by try_to_unmap_one() when it gives up and restores the PTEs).  A
 * case in which no folio got there fails: it tested nothing.
 *
 * Usage: pgtable_batch_softdirty [-s size_kb]... [-n folios]
 * Needs root (PFNs in pagemap, /proc/kpageflags) and, for lazyfree, swap
 * (reclaim of anonymous memory only runs with swap).  SKIPs where
 * soft-dirty is not supported (arm64).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "kselftest.h"
#include "pgtable_batch_common.h"
#include "vm_util.h"

#define PM_PFN_MASK	(BIT_ULL(55) - 1)
#define KPF_SWAPBACKED	BIT_ULL(14)

static int pm_fd, kpf_fd;
static size_t nfolios = 16;

static uint64_t kpageflags_of(uint64_t pfn)
{
	uint64_t f = 0;

	if (pread(kpf_fd, &f, sizeof(f), pfn * sizeof(f)) != sizeof(f))
		ksft_exit_fail_msg("read /proc/kpageflags: %s\n", strerror(errno));
	return f;
}

/*
 * Whether the @ppf pages at @pm[0..ppf-1] are present and map one folio of
 * @ppf pages whole: consecutive PFNs from an aligned first one, and KPF_THP
 * on every page when the folio is large.
 */
static bool mapped_whole(const uint64_t *pm, size_t ppf)
{
	uint64_t pfn = pm[0] & PM_PFN_MASK;
	size_t i;

	if (!pfn || pfn % ppf)
		return false;
	for (i = 0; i < ppf; i++) {
		if (!(pm[i] & PM_PRESENT) || (pm[i] & PM_PFN_MASK) != pfn + i)
			return false;
		if (ppf > 1 && !(kpageflags_of(pfn + i) & KPF_THP))
			return false;
	}
	return true;
}

static size_t count_soft_dirty(const char *what, const uint64_t *pm, size_t n)
{
	size_t i, sd = 0;

	for (i = 0; i < n; i++) {
		if ((pm[i] & PM_PRESENT) && (pm[i] & PM_SOFT_DIRTY) && sd++ < 4)
			ksft_print_msg("%s: page %zu is soft-dirty\n", what, i);
	}
	return sd;
}

static char *region(size_t usz)
{
	char *p = pb_mmap_aligned(nfolios * usz, usz, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1);

	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	return p;
}

static void fill(char *p, size_t npages, uint32_t gen)
{
	size_t i;

	for (i = 0; i < npages; i++)
		pb_fill_page(p + i * pb_pagesize, i, gen);
}

static void report(int kb, const char *name, const char *how, size_t reached,
		   size_t sd, size_t npages)
{
	ksft_print_msg("%s %dkB: %zu of %zu folios %s, %zu of %zu pages soft-dirty\n",
		       name, kb, reached, nfolios, how, sd, npages);
	if (!reached)
		ksft_test_result_fail("%s %dkB: no folio reached the path under test\n",
				      name, kb);
	else
		ksft_test_result(!sd, "%s %dkB\n", name, kb);
}

/*
 * A unit is one folio, or for order-0 a group of 16 pages, so that both
 * get the same writes.
 */
static size_t unit_pages(int kb)
{
	return kb > 4 ? kb * 1024UL / pb_pagesize : 16;
}

static void test_mprotect(int kb)
{
	size_t ppf = kb * 1024UL / pb_pagesize, upp = unit_pages(kb);
	size_t npages = nfolios * upp, len = npages * pb_pagesize;
	size_t reached = 0, sd, i;
	uint64_t *pm = calloc(npages, sizeof(*pm));
	char *p = region(upp * pb_pagesize);

	if (!pm)
		ksft_exit_fail_msg("out of memory\n");
	fill(p, npages, 1);
	if (pb_clear_soft_dirty())
		ksft_exit_fail_msg("clear_refs: %s\n", strerror(errno));
	if (mprotect(p, len, PROT_READ))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	if (pb_pagemap(pm_fd, p, npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i < npages; i += ppf)
		reached += mapped_whole(pm + i, ppf);
	if (ppf == 1)
		reached /= upp;
	sd = count_soft_dirty("mprotect", pm, npages);
	report(kb, "mprotect", "mapped whole", reached, sd, npages);
	munmap(p, len);
	free(pm);
}

static void test_lazyfree(int kb)
{
	size_t ppf = kb * 1024UL / pb_pagesize, upp = unit_pages(kb);
	size_t npages = nfolios * upp, len = npages * pb_pagesize;
	size_t reached = 0, sd, f;
	uint64_t *pm = calloc(npages, sizeof(*pm));
	bool *lazy = calloc(nfolios, sizeof(*lazy));
	unsigned long split0 = kb > 4 ? pb_mthp_stat(kb, "split") : 0;
	char *p = region(upp * pb_pagesize);

	if (!pm || !lazy)
		ksft_exit_fail_msg("out of memory\n");
	fill(p, npages, 1);
	if (madvise(p, len, MADV_FREE))
		ksft_exit_fail_msg("MADV_FREE: %s\n", strerror(errno));
	/* Redirty page 1 of every unit: reclaim must keep that folio. */
	for (f = 0; f < nfolios; f++)
		pb_fill_page(p + (f * upp + 1) * pb_pagesize, f * upp + 1, 2);
	if (pb_clear_soft_dirty())
		ksft_exit_fail_msg("clear_refs: %s\n", strerror(errno));
	pb_lru_drain_all();

	/*
	 * The folio of page 1 of every unit: whole, and lazyfree (not
	 * swap-backed) before the reclaim.
	 */
	if (pb_pagemap(pm_fd, p, npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (f = 0; f < nfolios; f++) {
		const uint64_t *fp = ppf > 1 ? pm + f * upp : pm + f * upp + 1;

		if (mapped_whole(fp, ppf))
			lazy[f] = !(kpageflags_of(fp[0] & PM_PFN_MASK) &
				    KPF_SWAPBACKED);
	}

	if (madvise(p, len, MADV_PAGEOUT))
		ksft_exit_fail_msg("MADV_PAGEOUT: %s\n", strerror(errno));

	if (pb_pagemap(pm_fd, p, npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (f = 0; f < nfolios; f++) {
		const uint64_t *fp = ppf > 1 ? pm + f * upp : pm + f * upp + 1;

		/* try_to_unmap_one() restored the PTEs: swap-backed again. */
		if (lazy[f] && mapped_whole(fp, ppf) &&
		    (kpageflags_of(fp[0] & PM_PFN_MASK) &
		     KPF_SWAPBACKED))
			reached++;
	}
	if (kb > 4 && pb_mthp_stat(kb, "split") != split0)
		ksft_print_msg("lazyfree %dkB: %lu folios split\n", kb,
			       pb_mthp_stat(kb, "split") - split0);
	sd = count_soft_dirty("lazyfree", pm, npages);
	report(kb, "lazyfree", "restored whole", reached, sd, npages);
	munmap(p, len);
	free(lazy);
	free(pm);
}

int main(int argc, char **argv)
{
	int sizes[PB_MAX_SIZES], all[PB_MAX_SIZES], nsizes = 0, nall, i, j, opt;
	bool offered;

	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		switch (opt) {
		case 's':
			if (nsizes < PB_MAX_SIZES)
				sizes[nsizes++] = atoi(optarg);
			break;
		case 'n':
			nfolios = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-s size_kb]... [-n folios]\n",
				argv[0]);
			return KSFT_FAIL;
		}
	}
	if (!nsizes) {
		sizes[nsizes++] = 4;
		sizes[nsizes++] = 64;
	}
	if (nfolios < 2)
		nfolios = 2;

	pb_init();
	ksft_print_header();
	ksft_set_plan(2 * nsizes);
	pm_fd = pb_pagemap_open();
	kpf_fd = open("/proc/kpageflags", O_RDONLY);
	if (pm_fd < 0 || kpf_fd < 0)
		ksft_exit_skip("pagemap or kpageflags: %s\n", strerror(errno));
	if (!softdirty_supported())
		ksft_exit_skip("soft-dirty is not supported\n");
	if (!pb_swap_dev())
		ksft_exit_skip("no swap: reclaim does not run on anonymous memory\n");

	nall = pb_mthp_sizes(all, PB_MAX_SIZES);
	pb_mthp_save();
	pb_mthp_restore_at_exit();
	for (i = 0; i < nsizes; i++) {
		offered = sizes[i] == 4;
		for (j = 0; j < nall; j++)
			offered |= all[j] == sizes[i];
		/* 4: no size matches, every mTHP size is turned off. */
		if (!offered || pb_mthp_set(&sizes[i], 1, false)) {
			ksft_test_result_skip("mprotect %dkB: size not offered\n", sizes[i]);
			ksft_test_result_skip("lazyfree %dkB: size not offered\n", sizes[i]);
			continue;
		}
		test_mprotect(sizes[i]);
		test_lazyfree(sizes[i]);
	}
	pb_mthp_restore();
	ksft_finished();
}
