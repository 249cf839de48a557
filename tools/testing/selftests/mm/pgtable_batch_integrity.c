// SPDX-License-Identifier: GPL-2.0
/*
 * pgtable_batch_integrity: data integrity of anonymous (and shmem) memory across
 * swap-out, for every mTHP size from 16K to 1M the kernel offers and for
 * order-0.  Every test fills a region with a per-page pattern, swaps it out
 * with MADV_PAGEOUT, checks through /proc/self/pagemap what happened to the
 * page table entries and compares every byte after reading it back.
 *
 * Cases: plain; after fork with the child gone and one page per folio
 * rewritten (AnonExclusive mixed within a folio); half of every folio
 * mremapped away; uffd-wp on anon and shmem (wp bits per page survive
 * swap-out, writes still reach the handler); soft-dirty per page survives
 * swap-out; swapoff with large folios swapped out; GUP references and
 * FOLL_PIN pins on part of a folio; and, with -t smallswap, swap far too
 * small for the region (nothing lost, swap accounting balanced).
 *
 * Usage: pgtable_batch_integrity [-t test]... [-s size_kb]... [-m region_mib]
 *                     [-r passes]
 *
 * -r: swap-out passes over the pages still present (default 3); more when
 * swap-out fails on purpose (fault injection) and must still get there.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/io_uring.h>
#include <linux/userfaultfd.h>

#include "kselftest.h"
#include "pgtable_batch_common.h"
#include "vm_util.h"

static unsigned long long bytes_verified, total_mismatches;
static long pswpout_start;
static unsigned long long pages_seen_swapped;
static size_t region_mib = 8;
static int pageout_passes = 3;

static void pageout(void *addr, size_t len)
{
	if (madvise(addr, len, MADV_PAGEOUT))
		ksft_print_msg("MADV_PAGEOUT: %s\n", strerror(errno));
}

/*
 * MADV_PAGEOUT can skip a folio that is briefly busy or that waits in
 * another CPU's LRU add batch (an order-0 folio put back after a failed
 * unmap); drain those and retry on the pages still present.  Returns the
 * number of pages swapped out.
 */
static size_t pageout_all(struct pb_ctx *c, char *addr, size_t npages)
{
	size_t swapped = 0, i;
	int pass;
	uint64_t *pm = calloc(npages, sizeof(*pm));

	if (!pm)
		ksft_exit_fail_msg("out of memory\n");
	pageout(addr, npages * pb_pagesize);
	for (pass = 0; pass < pageout_passes; pass++) {
		if (pb_pagemap(c->pm, addr, npages, pm))
			ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
		swapped = 0;
		for (i = 0; i < npages; i++)
			swapped += !!(pm[i] & PM_SWAP);
		if (swapped == npages)
			break;
		if (pass == pageout_passes - 1)
			break;
		pb_lru_drain_all();
		for (i = 0; i < npages; i++)
			if (pm[i] & PM_PRESENT)
				pageout(addr + i * pb_pagesize, pb_pagesize);
	}
	free(pm);
	pages_seen_swapped += swapped;
	return swapped;
}

/* Compare every page with its expected (id, gen); report the first few. */
static size_t verify(const char *what, const char *addr, size_t npages,
		     uint32_t id0, const uint32_t *gen)
{
	size_t bad = 0, i;
	char desc[64];

	for (i = 0; i < npages; i++) {
		const char *p = addr + i * pb_pagesize;

		if (pb_page_ok(p, id0 + i, gen[i]))
			continue;
		if (bad++ < 8) {
			pb_page_describe(p, desc, sizeof(desc));
			ksft_print_msg("%s: page %zu: expected id %zu gen %u, holds %s\n",
				       what, i, id0 + i, gen[i], desc);
		}
	}
	bytes_verified += npages * pb_pagesize;
	total_mismatches += bad;
	if (bad)
		ksft_print_msg("%s: %zu of %zu pages wrong\n", what, bad, npages);
	return bad;
}

static void fill(char *addr, size_t npages, uint32_t id0, uint32_t *gen,
		 uint32_t g)
{
	size_t i;

	for (i = 0; i < npages; i++) {
		gen[i] = g;
		pb_fill_page(addr + i * pb_pagesize, id0 + i, g);
	}
}

struct stats {
	unsigned long alloc, swpout, fallback;
};

static void stats_get(struct pb_ctx *c, struct stats *s)
{
	if (c->kb == 4) {
		memset(s, 0, sizeof(*s));
		return;
	}
	s->alloc = pb_mthp_stat(c->kb, "anon_fault_alloc");
	s->swpout = pb_mthp_stat(c->kb, "swpout");
	s->fallback = pb_mthp_stat(c->kb, "swpout_fallback");
}

#define STATS_MSG \
	"%s %dkB: %zu folios, anon_fault_alloc +%lu swpout +%lu swpout_fallback +%lu\n"

static void stats_report(struct pb_ctx *c, const char *what, struct stats *a)
{
	struct stats b;

	if (c->kb == 4)
		return;
	stats_get(c, &b);
	ksft_print_msg(STATS_MSG, what, c->kb, c->len / c->fsz,
		       b.alloc - a->alloc, b.swpout - a->swpout,
		       b.fallback - a->fallback);
}

static bool swapped_all(const char *what, size_t swapped, size_t npages)
{
	if (swapped == npages)
		return true;
	ksft_print_msg("%s: only %zu of %zu pages swapped out\n", what,
		       swapped, npages);
	return false;
}

/* Fill, swap out, read back. */
static enum pb_result test_basic(struct pb_ctx *c)
{
	char *p = pb_region(c);
	uint32_t *gen = pb_gens(c);
	struct stats st;
	size_t swapped, bad;

	stats_get(c, &st);
	fill(p, c->npages, 0, gen, 1);
	swapped = pageout_all(c, p, c->npages);
	stats_report(c, "basic", &st);
	bad = verify("basic", p, c->npages, 0, gen);
	munmap(p, c->len);
	free(gen);
	return !bad && swapped_all("basic", swapped, c->npages) ? PB_PASS : PB_FAIL;
}

/*
 * fork() makes every page of the parent's folios shared; once the child is
 * gone, rewriting one page per folio leaves folios in which one page is
 * AnonExclusive (reused) or replaced (copied) and the others are not.
 */
static enum pb_result test_fork(struct pb_ctx *c)
{
	char *p = pb_region(c);
	uint32_t *gen = pb_gens(c);
	struct stats st;
	size_t swapped, bad, f;
	int status;
	pid_t pid;

	stats_get(c, &st);
	fill(p, c->npages, 0, gen, 1);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0)
		_exit(verify("fork child", p, c->npages, 0, gen) ? 1 : 0);
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	for (f = 0; f < c->npages / c->ppf; f++) {
		size_t i = f * c->ppf + f % c->ppf;

		gen[i] = 2;
		pb_fill_page(p + i * pb_pagesize, i, 2);
	}
	swapped = pageout_all(c, p, c->npages);
	stats_report(c, "fork", &st);
	bad = verify("fork", p, c->npages, 0, gen);
	munmap(p, c->len);
	free(gen);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ksft_print_msg("fork: child saw wrong data\n");
		return PB_FAIL;
	}
	return !bad && swapped_all("fork", swapped, c->npages) ? PB_PASS : PB_FAIL;
}

/*
 * Swap the region out, move the upper half of every folio (of the first
 * 64, to bound the number of VMAs and calls) elsewhere, read both halves
 * back (swap-in of a half-mapped folio's entries), then swap out and check
 * again with each folio split over two VMAs.
 */
static enum pb_result test_mremap(struct pb_ctx *c)
{
	size_t unit = c->ppf > 1 ? c->ppf : 2, half = unit / 2;
	size_t ubytes = unit * pb_pagesize, hbytes = half * pb_pagesize;
	size_t nunits = c->npages / unit, u, swapped = 0, bad = 0, rest;
	char *p = pb_region(c), *q;
	uint32_t *gen = pb_gens(c);
	struct stats st;

	q = pb_mmap_aligned(c->len, c->fsz, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1);
	if (!q)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	stats_get(c, &st);
	fill(p, c->npages, 0, gen, 1);
	swapped = pageout_all(c, p, c->npages);
	if (!swapped_all("mremap: before move", swapped, c->npages))
		bad++;
	if (nunits > 64)
		nunits = 64;
	rest = nunits * unit;
	for (u = 0; u < nunits; u++) {
		char *src = p + u * ubytes + hbytes, *dst = q + u * ubytes + hbytes;

		if (mremap(src, hbytes, hbytes, MREMAP_MAYMOVE | MREMAP_FIXED,
			   dst) != dst)
			ksft_exit_fail_msg("mremap: %s\n", strerror(errno));
	}
	for (u = 0; u < nunits; u++) {
		bad += verify("mremap: low half", p + u * ubytes, half,
			      u * unit, gen + u * unit);
		bad += verify("mremap: high half", q + u * ubytes + hbytes,
			      half, u * unit + half, gen + u * unit + half);
	}
	for (u = 0; u < nunits; u++) {
		swapped = pageout_all(c, p + u * ubytes, half);
		swapped += pageout_all(c, q + u * ubytes + hbytes, half);
		if (swapped != unit && bad++ < 4)
			ksft_print_msg("mremap: unit %zu: %zu of %zu pages swapped\n",
				       u, swapped, unit);
	}
	stats_report(c, "mremap", &st);
	bad += verify("mremap: not moved", p + rest * pb_pagesize,
		      c->npages - rest, rest, gen + rest);
	for (u = 0; u < nunits; u++) {
		bad += verify("mremap: low half", p + u * ubytes, half,
			      u * unit, gen + u * unit);
		bad += verify("mremap: high half", q + u * ubytes + hbytes,
			      half, u * unit + half, gen + u * unit + half);
	}
	munmap(p, c->len);
	munmap(q, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/* --- userfaultfd write-protect ------------------------------------------- */

struct uffd_handler {
	int uffd;
	int stop;
	size_t faults;
	size_t bad;		/* faults that were not WP faults */
};

static void *uffd_thread(void *arg)
{
	struct uffd_handler *h = arg;
	struct pollfd pfd = { .fd = h->uffd, .events = POLLIN };

	while (!__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE)) {
		struct uffd_msg msg;
		struct uffdio_writeprotect wp;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if (read(h->uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT ||
		    !(msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP)) {
			h->bad++;
			continue;
		}
		h->faults++;
		wp.range.start = msg.arg.pagefault.address & ~(pb_pagesize - 1);
		wp.range.len = pb_pagesize;
		wp.mode = 0;
		if (ioctl(h->uffd, UFFDIO_WRITEPROTECT, &wp))
			ksft_exit_fail_msg("UFFDIO_WRITEPROTECT: %s\n",
					   strerror(errno));
	}
	return NULL;
}

static int uffd_open(uint64_t features)
{
	struct uffdio_api api = { .api = UFFD_API, .features = features };
	int fd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (ioctl(fd, UFFDIO_API, &api) || (api.features & features) != features) {
		close(fd);
		return -1;
	}
	return fd;
}

static int uffd_wp_range(int uffd, void *addr, size_t len, bool on)
{
	struct uffdio_writeprotect wp = {
		.range = { .start = (uintptr_t)addr, .len = len },
		.mode = on ? UFFDIO_WRITEPROTECT_MODE_WP : 0,
	};

	return ioctl(uffd, UFFDIO_WRITEPROTECT, &wp);
}

/*
 * Which pages stay write-protected: three folios in four entirely, the
 * fourth not at all, except every eighth folio, where all but one page
 * are.  MADV_PAGEOUT splits a folio whose PTEs differ in uffd-wp, so only
 * the uniform folios reach reclaim as large folios.
 */
static bool wp_expected(struct pb_ctx *c, size_t i)
{
	size_t f = i / c->ppf;

	if (c->ppf == 1)
		return i & 1;
	if (f % 8 == 7)
		return i % c->ppf != f % c->ppf;
	return f % 4 != 3;
}

static size_t check_bits(struct pb_ctx *c, const char *what, const char *p,
			 uint64_t bit, bool (*expect)(struct pb_ctx *, size_t))
{
	uint64_t *pm = calloc(c->npages, sizeof(*pm));
	size_t i, bad = 0;

	if (!pm || pb_pagemap(c->pm, p, c->npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++) {
		bool want = expect(c, i), have = !!(pm[i] & bit);

		if (want != have && bad++ < 8)
			ksft_print_msg("%s: page %zu: pagemap %#llx, bit %d expected %d\n",
				       what, i, (unsigned long long)pm[i],
				       __builtin_ctzll(bit), want);
	}
	if (bad)
		ksft_print_msg("%s: %zu pages with the wrong bit\n", what, bad);
	free(pm);
	return bad;
}

static enum pb_result uffd_wp(struct pb_ctx *c, bool shmem)
{
	const char *name = shmem ? "uffd-wp shmem" : "uffd-wp anon";
	uint64_t features = UFFD_FEATURE_PAGEFAULT_FLAG_WP |
		(shmem ? UFFD_FEATURE_WP_HUGETLBFS_SHMEM : 0);
	struct uffdio_register reg = { 0 };
	struct uffd_handler h = { 0 };
	size_t bad = 0, i, expect_faults = 0, swapped;
	uint32_t *gen = pb_gens(c);
	struct stats st;
	pthread_t thr;
	char *p;

	h.uffd = uffd_open(features);
	if (h.uffd < 0) {
		ksft_print_msg("%s: userfaultfd with wp: %s\n", name, strerror(errno));
		free(gen);
		return PB_SKIP;
	}
	p = pb_mmap_aligned(c->len, c->fsz, PROT_READ | PROT_WRITE,
			    (shmem ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1);
	if (!p)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	stats_get(c, &st);
	fill(p, c->npages, 0, gen, 1);

	reg.range.start = (uintptr_t)p;
	reg.range.len = c->len;
	reg.mode = UFFDIO_REGISTER_MODE_WP;
	if (ioctl(h.uffd, UFFDIO_REGISTER, &reg)) {
		ksft_print_msg("%s: UFFDIO_REGISTER: %s\n", name, strerror(errno));
		munmap(p, c->len);
		close(h.uffd);
		free(gen);
		return PB_SKIP;
	}
	if (uffd_wp_range(h.uffd, p, c->len, true))
		ksft_exit_fail_msg("UFFDIO_WRITEPROTECT: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++)
		if (!wp_expected(c, i) &&
		    uffd_wp_range(h.uffd, p + i * pb_pagesize, pb_pagesize, false))
			ksft_exit_fail_msg("UFFDIO_WRITEPROTECT: %s\n", strerror(errno));
	bad += check_bits(c, name, p, PM_UFFD_WP, wp_expected);

	if (shmem) {
		long kb;

		pageout(p, c->len);
		kb = pb_smaps_swap_kb(p);
		swapped = kb > 0 ? kb * 1024 / pb_pagesize : 0;
		ksft_print_msg("%s: %zu of %zu pages in swap, %zu still mapped\n",
			       name, swapped, c->npages,
			       pb_pagemap_count(c->pm, p, c->npages, PM_PRESENT));
	} else {
		swapped = pageout_all(c, p, c->npages);
		if (!swapped_all(name, swapped, c->npages))
			bad++;
	}
	stats_report(c, name, &st);
	/* wp bits after swap-out: swap PTE bits (anon), markers (shmem) */
	bad += check_bits(c, name, p, PM_UFFD_WP, wp_expected);

	if (pthread_create(&thr, NULL, uffd_thread, &h))
		ksft_exit_fail_msg("pthread_create\n");
	for (i = 0; i < c->npages; i += 5) {
		expect_faults += wp_expected(c, i);
		gen[i] = 2;
		pb_fill_page(p + i * pb_pagesize, i, 2);
	}
	__atomic_store_n(&h.stop, 1, __ATOMIC_RELEASE);
	pthread_join(thr, NULL);
	if (h.faults != expect_faults || h.bad) {
		ksft_print_msg("%s: %zu wp faults (expected %zu), %zu other\n",
			       name, h.faults, expect_faults, h.bad);
		bad++;
	}
	bad += verify(name, p, c->npages, 0, gen);
	munmap(p, c->len);
	close(h.uffd);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

static enum pb_result test_uffd_anon(struct pb_ctx *c)
{
	return uffd_wp(c, false);
}

static enum pb_result test_uffd_shmem(struct pb_ctx *c)
{
	int kb = c->kb;

	/* Large shmem folios need the shmem_enabled knob of the size. */
	if (kb != 4 && pb_mthp_set(&kb, 1, true))
		return PB_SKIP;
	return uffd_wp(c, true);
}

/* --- soft-dirty ------------------------------------------------------------ */

static bool sd_expected(struct pb_ctx *c, size_t i)
{
	return i % 3 == 0 || i % c->ppf == 1;
}

static enum pb_result test_soft_dirty(struct pb_ctx *c)
{
	uint32_t *gen;
	struct stats st;
	size_t bad = 0, i, swapped;
	uint64_t *pm;
	char *p;

	if (!softdirty_supported())
		return PB_SKIP;
	p = pb_region(c);
	gen = pb_gens(c);
	stats_get(c, &st);
	fill(p, c->npages, 0, gen, 1);
	if (pb_clear_soft_dirty())
		ksft_exit_fail_msg("clear_refs: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++) {
		if (sd_expected(c, i)) {
			gen[i] = 2;
			pb_fill_page(p + i * pb_pagesize, i, 2);
		}
	}
	bad += check_bits(c, "soft-dirty before swap-out", p, PM_SOFT_DIRTY,
			  sd_expected);
	swapped = pageout_all(c, p, c->npages);
	stats_report(c, "soft-dirty", &st);
	if (!swapped_all("soft-dirty", swapped, c->npages))
		bad++;
	bad += check_bits(c, "soft-dirty in swap", p, PM_SOFT_DIRTY, sd_expected);
	bad += verify("soft-dirty", p, c->npages, 0, gen);
	/* Swap-in may not lose soft-dirty. */
	pm = calloc(c->npages, sizeof(*pm));
	if (!pm || pb_pagemap(c->pm, p, c->npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++) {
		if (sd_expected(c, i) && !(pm[i] & PM_SOFT_DIRTY) && bad++ < 8)
			ksft_print_msg("soft-dirty: page %zu lost soft-dirty on swap-in\n", i);
	}
	free(pm);
	munmap(p, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/* --- swapoff ------------------------------------------------------------- */

static bool swap_balanced(const char *what)
{
	long total = pb_meminfo("SwapTotal"), free = pb_meminfo("SwapFree");

	if (total == free)
		return true;
	ksft_print_msg("%s: SwapFree %ld kB of SwapTotal %ld kB\n", what, free,
		       total);
	return false;
}

/* swapoff with the region swapped out, check, swapon again. */
static enum pb_result test_swapoff(struct pb_ctx *c)
{
	const char *dev = pb_swap_dev();
	char devpath[128];
	uint32_t *gen;
	size_t swapped, bad = 0;
	int err;
	char *p;

	if (!dev)
		return PB_SKIP;
	snprintf(devpath, sizeof(devpath), "%s", dev);
	p = pb_region(c);
	gen = pb_gens(c);
	fill(p, c->npages, 0, gen, 1);
	swapped = pageout_all(c, p, c->npages);
	if (!swapped_all("swapoff", swapped, c->npages))
		bad++;
	err = pb_swapoff_timed(devpath, 60);
	if (err) {
		ksft_print_msg("swapoff %s: %s\n", devpath,
			       err < 0 ? "did not finish in 60 s" : strerror(err));
		bad++;
	}
	if (pb_pagemap_count(c->pm, p, c->npages, PM_SWAP)) {
		ksft_print_msg("swapoff: swap entries left in the page table\n");
		bad++;
	}
	bad += verify("swapoff", p, c->npages, 0, gen);
	munmap(p, c->len);
	free(gen);
	if (!err) {
		err = pb_swapon(devpath);
		if (err)
			ksft_exit_fail_msg("swapon %s: %s\n", devpath, strerror(err));
		if (!swap_balanced("swapoff"))
			bad++;
	}
	return bad ? PB_FAIL : PB_PASS;
}

/* --- GUP references and pins --------------------------------------------- */

static int io_uring_pin(void *addr, size_t len)
{
	struct io_uring_params params = { 0 };
	struct iovec iov = { .iov_base = addr, .iov_len = len };
	int fd = syscall(__NR_io_uring_setup, 1, &params);

	if (fd < 0)
		return -1;
	if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_BUFFERS, &iov, 1)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Take references on part of the second folio with vmsplice() (kept in an
 * undrained pipe) and a FOLL_PIN|FOLL_LONGTERM pin on part of the fourth
 * (io_uring fixed buffer), swap the region out and check the data, the pipe
 * contents and that the pinned folio stayed mapped.
 */
static enum pb_result test_gup(struct pb_ctx *c)
{
	size_t npin = c->ppf > 4 ? c->ppf / 4 : 1, off = c->ppf / 2;
	size_t nf = c->npages / c->ppf, bad = 0, i, swapped;
	char *p, *spl, *pin, *buf;
	uint32_t *gen;
	struct iovec iov;
	uint64_t *pm;
	int pfd[2], ring = -1;
	struct stats st;

	if (nf < 4)
		return PB_SKIP;
	if (npin > 16)
		npin = 16;
	p = pb_region(c);
	gen = pb_gens(c);
	stats_get(c, &st);
	fill(p, c->npages, 0, gen, 1);
	spl = p + (1 * c->ppf + off) * pb_pagesize;
	pin = p + (3 * c->ppf + off) * pb_pagesize;

	if (pipe(pfd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	fcntl(pfd[1], F_SETPIPE_SZ, (int)(64 * pb_pagesize));
	iov.iov_base = spl;
	iov.iov_len = npin * pb_pagesize;
	if (vmsplice(pfd[1], &iov, 1, SPLICE_F_NONBLOCK) != (ssize_t)iov.iov_len)
		ksft_exit_fail_msg("vmsplice: %s\n", strerror(errno));
	ring = io_uring_pin(pin, npin * pb_pagesize);
	if (ring < 0)
		ksft_print_msg("gup: no io_uring fixed buffers (%s), vmsplice only\n",
			       strerror(errno));

	swapped = pageout_all(c, p, c->npages);
	stats_report(c, "gup", &st);
	ksft_print_msg("gup: %zu of %zu pages swapped out\n", swapped, c->npages);

	pm = calloc(c->npages, sizeof(*pm));
	if (!pm || pb_pagemap(c->pm, p, c->npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	if (ring >= 0) {
		/* The pinned folio must not be unmapped, not even in part. */
		for (i = 3 * c->ppf; i < 4 * c->ppf; i++) {
			if (!(pm[i] & PM_PRESENT) && bad++ < 8)
				ksft_print_msg("gup: pinned folio page %zu unmapped (%#llx)\n",
					       i, (unsigned long long)pm[i]);
		}
	}
	/* Folios with neither reference nor pin are swapped out as usual. */
	for (i = 0; i < c->npages; i++) {
		size_t f = i / c->ppf;

		if (f == 1 || f == 3)
			continue;
		if (!(pm[i] & PM_SWAP) && bad++ < 8)
			ksft_print_msg("gup: unpinned page %zu not swapped (%#llx)\n",
				       i, (unsigned long long)pm[i]);
	}
	free(pm);
	bad += verify("gup", p, c->npages, 0, gen);

	buf = malloc(npin * pb_pagesize);
	if (!buf || read(pfd[0], buf, npin * pb_pagesize) != (ssize_t)(npin * pb_pagesize))
		ksft_exit_fail_msg("pipe read: %s\n", strerror(errno));
	bad += verify("gup: pipe", buf, npin, 1 * c->ppf + off,
		      gen + 1 * c->ppf + off);
	free(buf);
	close(pfd[0]);
	close(pfd[1]);
	if (ring >= 0)
		close(ring);
	munmap(p, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/* --- swap too small ------------------------------------------------------- */

/*
 * With swap much smaller than the region, MADV_PAGEOUT fills the swap and
 * then fails to allocate: every page must still read back intact, and after
 * munmap() SwapFree returns to where it started and swapoff succeeds.
 */
static enum pb_result test_smallswap(struct pb_ctx *c)
{
	long total = pb_meminfo("SwapTotal"), start = pb_meminfo("SwapFree");
	const char *dev = pb_swap_dev();
	size_t len, npages, swapped, bad = 0;
	long now = -1;
	char devpath[128];
	uint32_t *gen;
	struct stats st;
	char *p;
	int i, err;

	if (!dev || total <= 0 || total > 64 * 1024)
		return PB_SKIP;
	snprintf(devpath, sizeof(devpath), "%s", dev);
	len = (size_t)total * 1024 * 3;
	len -= len % c->fsz;
	npages = len / pb_pagesize;
	p = pb_mmap_aligned(len, c->fsz, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1);
	gen = calloc(npages, sizeof(*gen));
	if (!p || !gen)
		ksft_exit_fail_msg("out of memory\n");
	stats_get(c, &st);
	fill(p, npages, 0, gen, 1);
	pageout(p, len);
	pageout(p, len);
	swapped = pb_pagemap_count(c->pm, p, npages, PM_SWAP);
	stats_report(c, "smallswap", &st);
	ksft_print_msg("smallswap: %zu of %zu pages swapped, SwapFree %ld of %ld kB\n",
		       swapped, npages, pb_meminfo("SwapFree"), total);
	if (!swapped) {
		ksft_print_msg("smallswap: nothing swapped out\n");
		bad++;
	}
	bad += verify("smallswap", p, npages, 0, gen);
	/* Swap again after the read-back and fill the swap to the brim. */
	pageout(p, len);
	bad += verify("smallswap", p, npages, 0, gen);
	munmap(p, len);
	free(gen);
	for (i = 0; i < 100; i++) {
		now = pb_meminfo("SwapFree");
		if (now == start)
			break;
		usleep(100000);
	}
	if (now != start) {
		ksft_print_msg("smallswap: SwapFree %ld kB, %ld kB at the start\n",
			       now, start);
		bad++;
	}
	err = pb_swapoff_timed(devpath, 60);
	if (err) {
		ksft_print_msg("smallswap: swapoff %s: %s\n", devpath,
			       err < 0 ? "did not finish in 60 s" : strerror(err));
		return PB_FAIL;
	}
	err = pb_swapon(devpath);
	if (err)
		ksft_exit_fail_msg("swapon %s: %s\n", devpath, strerror(err));
	if (!swap_balanced("smallswap"))
		bad++;
	return bad ? PB_FAIL : PB_PASS;
}

/* ------------------------------------------------------------------------- */

struct test {
	const char *name;
	enum pb_result (*fn)(struct pb_ctx *c);
	bool by_default;
};

static const struct test tests[] = {
	{ "basic", test_basic, true },
	{ "fork", test_fork, true },
	{ "mremap", test_mremap, true },
	{ "uffd-wp-anon", test_uffd_anon, true },
	{ "uffd-wp-shmem", test_uffd_shmem, true },
	{ "soft-dirty", test_soft_dirty, true },
	{ "gup", test_gup, true },
	{ "swapoff", test_swapoff, true },
	{ "smallswap", test_smallswap, false },
};

#define NR_TESTS ARRAY_SIZE(tests)

static void print_help(void)
{
	size_t i;

	fprintf(stderr,
		"usage: pgtable_batch_integrity [-t test]... [-s size_kb]... [-m region_mib]\n"
		"                    [-r passes]\n"
		"tests:");
	for (i = 0; i < NR_TESTS; i++)
		fprintf(stderr, " %s%s", tests[i].name, tests[i].by_default ? "" : "(*)");
	fprintf(stderr, "\n(*) only when named with -t\n");
	exit(KSFT_FAIL);
}

int main(int argc, char **argv)
{
	bool want[NR_TESTS] = { 0 }, named = false;
	int sizes[PB_MAX_SIZES + 1], nsizes, req[PB_MAX_SIZES], nreq = 0;
	int nall, opt, i;
	size_t t;
	bool have_swap, enough_swap;

	pb_init();
	while ((opt = getopt(argc, argv, "t:s:m:r:")) != -1) {
		if (pb_size_opt(opt, optarg, req, &nreq, &region_mib))
			continue;
		switch (opt) {
		case 't':
			for (t = 0; t < NR_TESTS; t++)
				if (!strcmp(optarg, tests[t].name))
					break;
			if (t == NR_TESTS)
				print_help();
			want[t] = true;
			named = true;
			break;
		case 'r':
			pageout_passes = atoi(optarg);
			if (pageout_passes < 1)
				pageout_passes = 1;
			break;
		default:
			print_help();
		}
	}
	for (t = 0; !named && t < NR_TESTS; t++)
		want[t] = tests[t].by_default;

	/* 4K (order-0), then every offered mTHP size from 16K to 1M. */
	nsizes = pb_test_sizes(sizes, req, nreq, &nall);

	ksft_print_header();
	for (t = 0, i = 0; t < NR_TESTS; t++)
		i += want[t] * nsizes;
	ksft_set_plan(i);
	have_swap = pb_meminfo("SwapTotal") > 0;
	/* Every case but smallswap expects the whole region to fit. */
	enough_swap = pb_meminfo("SwapFree") >= (long)region_mib * 1024;
	ksft_print_msg("page size %zu, mTHP sizes offered: %d, swap %ld kB\n",
		       pb_pagesize, nall, pb_meminfo("SwapTotal"));

	pb_mthp_save();
	pb_mthp_restore_at_exit();
	pswpout_start = pb_vmstat("pswpout");

	for (i = 0; i < nsizes; i++) {
		struct pb_ctx c;
		int kb = sizes[i];
		bool set_ok = have_swap && !pb_mthp_set(&kb, kb == 4 ? 0 : 1, false);

		pb_ctx_init(&c, kb, region_mib);

		for (t = 0; t < NR_TESTS; t++) {
			enum pb_result r;
			uint64_t t0;

			if (!want[t])
				continue;
			if (!have_swap) {
				ksft_test_result_skip("%s %dkB: no swap\n",
						      tests[t].name, kb);
				continue;
			}
			if (!enough_swap && tests[t].fn != test_smallswap) {
				ksft_test_result_skip("%s %dkB: free swap < region\n",
						      tests[t].name, kb);
				continue;
			}
			if (!set_ok) {
				ksft_test_result_skip("%s %dkB: cannot set the mTHP size\n",
						      tests[t].name, kb);
				continue;
			}
			/* test_uffd_shmem changes shmem_enabled; reset. */
			pb_mthp_set(&kb, kb == 4 ? 0 : 1, false);
			t0 = pb_now_ns();
			r = tests[t].fn(&c);
			pb_case_report(tests[t].name, kb, r, t0);
		}
		close(c.pm);
	}
	/*
	 * swpouts: pages swapped out (pswpout), -1 without VM event counters;
	 * swapped_pages: pages found swapped out through pagemap after
	 * MADV_PAGEOUT.
	 */
	fprintf(stdout,
		"# SUMMARY prog=pgtable_batch_integrity bytes_verified=%llu swpouts=%ld swapped_pages=%llu mismatches=%llu\n",
		bytes_verified,
		pswpout_start < 0 ? -1 : pb_vmstat("pswpout") - pswpout_start,
		pages_seen_swapped, total_mismatches);
	ksft_finished();
}
