// SPDX-License-Identifier: GPL-2.0
/*
 * pgtable_batch_stress: writers and checkers of patterned data in mTHP-backed
 * anonymous memory race, for a bounded time, with threads that swap the
 * same memory out (MADV_PAGEOUT), free it lazily (MADV_FREE) or at once
 * (MADV_DONTNEED), change its protection, move it away and back with
 * mremap(), fork children that check and write their own copy, and switch
 * the enabled mTHP size so that folios of mixed sizes come and go.
 *
 * The arena is cut into chunks, each with a lock.  Whoever changes the
 * contents of a chunk or what a read may return (writes, MADV_FREE,
 * MADV_DONTNEED, mprotect, mremap) holds its lock and records the result in
 * a per-page model: the generation last written and whether the page may
 * read as zero (after MADV_FREE, until rewritten) or must (after
 * MADV_DONTNEED).  Swap-out needs no lock: it must not change what any read
 * returns, and every read is compared with the model.
 *
 * Usage: pgtable_batch_stress [-d seconds] [-m arena_mib] [-c chunk_kib] [-w writers] [-f]
 *
 * -f runs without swap and without touching the mTHP knobs: the model and
 * the operations are exercised, nothing is swapped out.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "pgtable_batch_common.h"

enum page_state {
	PG_DATA,		/* holds (id, gen) */
	PG_MAYBE_ZERO,		/* (id, gen) or zero: MADV_FREE */
	PG_ZERO,		/* zero: fresh or MADV_DONTNEED */
};

struct counters {
	unsigned long long written, verified, mismatches;
	unsigned long pageouts, frees, dontneeds, mprotects, mremaps, forks;
	unsigned long size_switches, child_failures, freed_zero;
	unsigned long long swap_seen;
};

static struct {
	char *arena;
	size_t len, npages, chunk, chunk_pages, nchunks;
	uint32_t *gen;
	uint8_t *state;
	pthread_mutex_t *lock;
	int sizes[PB_MAX_SIZES + 1], nsizes;
	int stop;
	int secs;
} g;

/* Shared with fork children, which add what they verified. */
static struct counters *shared;

static __thread uint64_t rnd_state;

static bool stopping(void)
{
	return __atomic_load_n(&g.stop, __ATOMIC_ACQUIRE);
}

static uint64_t rnd(void)
{
	uint64_t x = rnd_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rnd_state = x;
}

static void seed(uint64_t s)
{
	rnd_state = (s + 1) * 0x9e3779b97f4a7c15ULL ^ pb_now_ns();
	if (!rnd_state)
		rnd_state = 1;
}

static char *page_addr(size_t i)
{
	return g.arena + i * pb_pagesize;
}

#define MISMATCH_MSG \
	"%s: page %zu (chunk %zu) at %p: expected id %zu gen %u state %d, holds %s, pagemap %#llx\n"

/* Check one page against the model; the chunk lock is held. */
static bool check_page(const char *who, const char *p, size_t i,
		       struct counters *c)
{
	char desc[64];
	bool ok;

	switch (g.state[i]) {
	case PG_DATA:
		ok = pb_page_ok(p, i, g.gen[i]);
		break;
	case PG_MAYBE_ZERO:
		ok = pb_page_ok(p, i, g.gen[i]);
		if (!ok && pb_page_zero(p)) {
			ok = true;
			c->freed_zero++;
		}
		break;
	default:
		ok = pb_page_zero(p);
		break;
	}
	c->verified += pb_pagesize;
	if (ok)
		return true;
	if (c->mismatches++ < 10) {
		int fd = pb_pagemap_open();
		uint64_t pm = 0;

		if (fd >= 0) {
			pb_pagemap(fd, p, 1, &pm);
			close(fd);
		}
		pb_page_describe(p, desc, sizeof(desc));
		ksft_print_msg(MISMATCH_MSG, who, i, i / g.chunk_pages, p, i,
			       g.gen[i], g.state[i], desc,
			       (unsigned long long)pm);
	}
	return false;
}

static void check_range(const char *who, const char *base, size_t first,
			size_t n, struct counters *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_page(who, base + i * pb_pagesize, first + i, c);
}

static void write_page(size_t i, struct counters *c)
{
	g.gen[i]++;
	g.state[i] = PG_DATA;
	pb_fill_page(page_addr(i), i, g.gen[i]);
	c->written += pb_pagesize;
}

/* --- writers and checkers ---------------------------------------------- */

static void *writer(void *arg)
{
	struct counters *c = arg;

	seed((uintptr_t)arg);
	while (!stopping()) {
		size_t ch = rnd() % g.nchunks, first = ch * g.chunk_pages, i;

		pthread_mutex_lock(&g.lock[ch]);
		if (rnd() & 1) {
			/* Rewrite a random run of pages, then check the chunk. */
			size_t start = rnd() % g.chunk_pages;
			size_t n = 1 + rnd() % (g.chunk_pages - start);

			for (i = 0; i < n; i++)
				write_page(first + start + i, c);
		}
		check_range("writer", page_addr(first), first, g.chunk_pages, c);
		pthread_mutex_unlock(&g.lock[ch]);
	}
	return NULL;
}

/* --- swap-out -------------------------------------------------------------- */

static void *pageouter(void *arg)
{
	struct counters *c = arg;
	int pm = pb_pagemap_open();

	if (pm < 0)
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	seed(100);
	while (!stopping()) {
		size_t ch = rnd() % g.nchunks, n;

		if (rnd() % 32 == 0) {
			ch = 0;
			n = g.nchunks;
		} else {
			n = 1 + rnd() % 8;
			if (ch + n > g.nchunks)
				n = g.nchunks - ch;
		}
		/* Holes left by chunks moved away give ENOMEM: ignore. */
		madvise(g.arena + ch * g.chunk, n * g.chunk, MADV_PAGEOUT);
		c->pageouts++;
		/* Proof of swap-out that needs no vmstat counters. */
		c->swap_seen += pb_pagemap_count(pm, g.arena + ch * g.chunk,
						 n * g.chunk_pages, PM_SWAP);
		/* Leave the mmap lock to mremap, mprotect and fork now and then. */
		usleep(1000 + rnd() % 4000);
	}
	close(pm);
	return NULL;
}

/* --- MADV_FREE, MADV_DONTNEED, mprotect, mremap, mTHP size ------------------ */

static void *scratch_reserve(void *hint, size_t len)
{
	void *p = mmap(hint, len, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       (hint ? MAP_FIXED_NOREPLACE : 0), -1, 0);

	if (p == MAP_FAILED || (hint && p != hint))
		return NULL;
	return p;
}

/*
 * Move [off, off + len) of chunk @ch to @scratch, check it there, maybe
 * swap it out there, and move it back.  The hole it leaves is reserved so
 * that nothing else can be mapped into it meanwhile.
 */
static void move_and_back(size_t ch, size_t off, size_t len, char **scratch,
			  struct counters *c)
{
	char *src = g.arena + ch * g.chunk + off, *dst = *scratch + off;
	size_t first = ch * g.chunk_pages + off / pb_pagesize;

	if (mremap(src, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst) != dst)
		ksft_exit_fail_msg("mremap away: %s\n", strerror(errno));
	if (!scratch_reserve(src, len))
		ksft_exit_fail_msg("cannot reserve the hole at %p: %s\n", src,
				   strerror(errno));
	if (rnd() & 1)
		madvise(dst, len, MADV_PAGEOUT);
	check_range("mremap", dst, first, len / pb_pagesize, c);
	if (mremap(dst, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, src) != src)
		ksft_exit_fail_msg("mremap back: %s\n", strerror(errno));
	if (!scratch_reserve(dst, len)) {
		/* Someone took the spot: start over with a new scratch area. */
		munmap(*scratch, g.chunk);
		*scratch = scratch_reserve(NULL, g.chunk);
		if (!*scratch)
			ksft_exit_fail_msg("scratch: %s\n", strerror(errno));
	}
	c->mremaps++;
}

static void set_size(int kb)
{
	pb_mthp_set(&kb, kb == 4 ? 0 : 1, false);
}

static void *disruptor(void *arg)
{
	struct counters *c = arg;
	char *scratch = scratch_reserve(NULL, g.chunk);
	unsigned long ops = 0;

	if (!scratch)
		ksft_exit_fail_msg("scratch: %s\n", strerror(errno));
	seed(200);
	while (!stopping()) {
		size_t ch = rnd() % g.nchunks, first = ch * g.chunk_pages;
		size_t start = rnd() % g.chunk_pages;
		size_t n = 1 + rnd() % (g.chunk_pages - start), i;
		char *a = page_addr(first + start);

		if (g.nsizes > 1 && ++ops % 16 == 0) {
			set_size(g.sizes[rnd() % g.nsizes]);
			c->size_switches++;
		}
		pthread_mutex_lock(&g.lock[ch]);
		switch (rnd() % 5) {
		case 0:
			for (i = 0; i < n; i++)
				if (g.state[first + start + i] == PG_DATA)
					g.state[first + start + i] = PG_MAYBE_ZERO;
			if (madvise(a, n * pb_pagesize, MADV_FREE))
				ksft_exit_fail_msg("MADV_FREE: %s\n", strerror(errno));
			c->frees++;
			break;
		case 1:
			if (rnd() % 4)
				break;
			if (madvise(a, n * pb_pagesize, MADV_DONTNEED))
				ksft_exit_fail_msg("MADV_DONTNEED: %s\n", strerror(errno));
			for (i = 0; i < n; i++)
				g.state[first + start + i] = PG_ZERO;
			c->dontneeds++;
			break;
		case 2:
			if (mprotect(a, n * pb_pagesize, PROT_READ))
				ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
			if (rnd() & 1)
				madvise(a, n * pb_pagesize, MADV_PAGEOUT);
			check_range("mprotect", a, first + start, n, c);
			if (mprotect(a, n * pb_pagesize, PROT_READ | PROT_WRITE))
				ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
			c->mprotects++;
			break;
		case 3:
			move_and_back(ch, 0, g.chunk, &scratch, c);
			break;
		default:
			move_and_back(ch, start * pb_pagesize, n * pb_pagesize,
				      &scratch, c);
			break;
		}
		pthread_mutex_unlock(&g.lock[ch]);
	}
	munmap(scratch, g.chunk);
	return NULL;
}

/* --- fork ------------------------------------------------------------------ */

/*
 * The child checks its copy of the whole arena, then swaps out a quarter of
 * it, writes part of that quarter (COW away from the parent), swaps it out
 * again and checks it.
 */
static int child(void)
{
	struct counters c = { 0 };
	size_t n = g.nchunks / 4 ? g.nchunks / 4 : 1;
	size_t first, i;

	seed(getpid());
	first = rnd() % (g.nchunks - n + 1) * g.chunk_pages;
	n *= g.chunk_pages;
	check_range("child", g.arena, 0, g.npages, &c);
	madvise(page_addr(first), n * pb_pagesize, MADV_PAGEOUT);
	for (i = first; i < first + n; i += 1 + rnd() % 16)
		write_page(i, &c);
	madvise(page_addr(first), n * pb_pagesize, MADV_PAGEOUT);
	check_range("child", page_addr(first), first, n, &c);
	__atomic_fetch_add(&shared->verified, c.verified, __ATOMIC_RELAXED);
	__atomic_fetch_add(&shared->written, c.written, __ATOMIC_RELAXED);
	__atomic_fetch_add(&shared->mismatches, c.mismatches, __ATOMIC_RELAXED);
	return c.mismatches ? 1 : 0;
}

static void *forker(void *arg)
{
	struct counters *c = arg;
	size_t ch;

	while (!stopping()) {
		uint64_t t0;
		int status;
		pid_t pid;

		for (ch = 0; ch < g.nchunks; ch++)
			pthread_mutex_lock(&g.lock[ch]);
		pid = fork();
		if (pid == 0)
			_exit(child());
		for (ch = 0; ch < g.nchunks; ch++)
			pthread_mutex_unlock(&g.lock[ch]);
		if (pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		c->forks++;
		t0 = pb_now_ns();
		while (waitpid(pid, &status, WNOHANG) != pid) {
			if (pb_now_ns() - t0 > (uint64_t)(g.secs + 120) * 1000000000ULL) {
				ksft_print_msg("fork child %d hangs, killing it\n", pid);
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				break;
			}
			usleep(10000);
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			c->child_failures++;
		usleep(200000);
	}
	return NULL;
}

/* ------------------------------------------------------------------------- */

static void add(struct counters *t, const struct counters *c)
{
	t->written += c->written;
	t->verified += c->verified;
	t->mismatches += c->mismatches;
	t->pageouts += c->pageouts;
	t->frees += c->frees;
	t->dontneeds += c->dontneeds;
	t->mprotects += c->mprotects;
	t->mremaps += c->mremaps;
	t->forks += c->forks;
	t->size_switches += c->size_switches;
	t->child_failures += c->child_failures;
	t->freed_zero += c->freed_zero;
	t->swap_seen += c->swap_seen;
}

#define MAX_WRITERS 16

static const char * const size_stats[] = {
	"anon_fault_alloc", "swpout", "swpout_fallback", "swpin", "split",
};

#define NR_SIZE_STATS ARRAY_SIZE(size_stats)

static void size_stats_get(unsigned long v[][NR_SIZE_STATS])
{
	int s;
	size_t k;

	for (s = 0; s < g.nsizes; s++)
		for (k = 0; k < NR_SIZE_STATS; k++)
			v[s][k] = g.sizes[s] == 4 ? 0 :
				  pb_mthp_stat(g.sizes[s], size_stats[k]);
}

/* What folios of each size went through: the mix the run really had. */
static void size_stats_report(unsigned long v0[][NR_SIZE_STATS])
{
	unsigned long v[PB_MAX_SIZES + 1][NR_SIZE_STATS];
	char line[256];
	int s, n;
	size_t k;

	size_stats_get(v);
	for (s = 0; s < g.nsizes; s++) {
		if (g.sizes[s] == 4)
			continue;
		n = snprintf(line, sizeof(line), "%dkB:", g.sizes[s]);
		for (k = 0; k < NR_SIZE_STATS; k++)
			n += snprintf(line + n, sizeof(line) - n, " %s +%lu",
				      size_stats[k], v[s][k] - v0[s][k]);
		ksft_print_msg("%s\n", line);
	}
}

#define TOTALS_MSG \
	"%.1f s: written %llu MiB, verified %llu MiB, pageouts %lu, frees %lu (%lu pages read back zero), dontneeds %lu, mprotects %lu, mremaps %lu, forks %lu, size switches %lu\n"

int main(int argc, char **argv)
{
	struct counters wc[MAX_WRITERS] = { 0 }, pc = { 0 }, dc = { 0 };
	struct counters fc = { 0 }, mc = { 0 }, tot = { 0 };
	pthread_t wt[MAX_WRITERS], pt, dt, ft;
	size_t arena_mib = 16, chunk_kib = 256, i;
	long pswp0;
	unsigned long swp0, fb0, sz0[PB_MAX_SIZES + 1][NR_SIZE_STATS];
	int writers = 2, opt, all[PB_MAX_SIZES], nall, w;
	uint64_t t0;
	bool ok, force = false;

	pb_init();
	g.secs = 20;
	while ((opt = getopt(argc, argv, "d:m:c:w:f")) != -1) {
		switch (opt) {
		case 'f':
			force = true;
			break;
		case 'd':
			g.secs = atoi(optarg);
			break;
		case 'm':
			arena_mib = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			chunk_kib = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			writers = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: pgtable_batch_stress [-d seconds] [-m arena_mib] [-c chunk_kib] [-w writers] [-f]\n");
			return KSFT_FAIL;
		}
	}
	if (writers < 1 || writers > MAX_WRITERS)
		writers = 2;

	ksft_print_header();
	ksft_set_plan(2);
	if (pb_meminfo("SwapTotal") <= 0 && !force) {
		ksft_test_result_skip("stress: no swap\n");
		ksft_test_result_skip("stress fork children: no swap\n");
		ksft_finished();
	}

	g.chunk = chunk_kib * 1024;
	g.chunk -= g.chunk % pb_pagesize;
	if (g.chunk < 4 * pb_pagesize)
		g.chunk = 4 * pb_pagesize;
	g.chunk_pages = g.chunk / pb_pagesize;
	g.nchunks = (arena_mib << 20) / g.chunk;
	if (g.nchunks < 2)
		g.nchunks = 2;
	g.len = g.nchunks * g.chunk;
	g.npages = g.len / pb_pagesize;
	g.arena = pb_mmap_aligned(g.len, 1 << 20, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1);
	g.gen = calloc(g.npages, sizeof(*g.gen));
	g.state = calloc(g.npages, 1);
	g.lock = calloc(g.nchunks, sizeof(*g.lock));
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!g.arena || !g.gen || !g.state || !g.lock || shared == MAP_FAILED)
		ksft_exit_fail_msg("out of memory\n");
	memset(shared, 0, sizeof(*shared));
	for (i = 0; i < g.nchunks; i++)
		pthread_mutex_init(&g.lock[i], NULL);
	for (i = 0; i < g.npages; i++)
		g.state[i] = PG_ZERO;

	/* Order-0 and every mTHP size from 16K to 1M, switched at random. */
	nall = pb_mthp_sizes(all, PB_MAX_SIZES);
	g.sizes[g.nsizes++] = 4;
	for (w = 0; w < nall && !force; w++)
		if (all[w] >= 16 && all[w] <= 1024)
			g.sizes[g.nsizes++] = all[w];
	pb_mthp_save();
	pb_mthp_restore_at_exit();
	ksft_print_msg("arena %zu MiB in %zu chunks of %zu KiB, %d writers, %d s, %d folio sizes\n",
		       g.len >> 20, g.nchunks, g.chunk >> 10, writers, g.secs,
		       g.nsizes);

	size_stats_get(sz0);
	pswp0 = pb_vmstat("pswpout");
	swp0 = pb_mthp_stat_all("swpout");
	fb0 = pb_mthp_stat_all("swpout_fallback");

	/*
	 * Fill MiB by MiB (the largest size tested, and the arena's alignment),
	 * cycling through the folio sizes.
	 */
	for (i = 0; i < g.npages; i++) {
		size_t mib = i / ((1 << 20) / pb_pagesize);

		if (i % ((1 << 20) / pb_pagesize) == 0 && g.nsizes > 1)
			set_size(g.sizes[mib % g.nsizes]);
		write_page(i, &mc);
	}
	madvise(g.arena, g.len, MADV_PAGEOUT);
	mc.pageouts++;

	t0 = pb_now_ns();
	for (w = 0; w < writers; w++)
		if (pthread_create(&wt[w], NULL, writer, &wc[w]))
			ksft_exit_fail_msg("pthread_create\n");
	if (pthread_create(&pt, NULL, pageouter, &pc) ||
	    pthread_create(&dt, NULL, disruptor, &dc) ||
	    pthread_create(&ft, NULL, forker, &fc))
		ksft_exit_fail_msg("pthread_create\n");
	sleep(g.secs);
	__atomic_store_n(&g.stop, 1, __ATOMIC_RELEASE);
	for (w = 0; w < writers; w++)
		pthread_join(wt[w], NULL);
	pthread_join(pt, NULL);
	pthread_join(dt, NULL);
	pthread_join(ft, NULL);

	ksft_print_msg("threads stopped after %.1f s\n", (pb_now_ns() - t0) / 1e9);
	/* Everything, once more after a final swap-out. */
	check_range("final", g.arena, 0, g.npages, &mc);
	madvise(g.arena, g.len, MADV_PAGEOUT);
	mc.pageouts++;
	check_range("final", g.arena, 0, g.npages, &mc);

	for (w = 0; w < writers; w++)
		add(&tot, &wc[w]);
	add(&tot, &pc);
	add(&tot, &dc);
	add(&tot, &fc);
	add(&tot, &mc);
	tot.verified += shared->verified;
	tot.written += shared->written;
	tot.mismatches += shared->mismatches;

	ksft_print_msg(TOTALS_MSG, (pb_now_ns() - t0) / 1e9,
		       tot.written >> 20, tot.verified >> 20, tot.pageouts,
		       tot.frees, tot.freed_zero, tot.dontneeds,
		       tot.mprotects, tot.mremaps, tot.forks,
		       tot.size_switches);
	size_stats_report(sz0);
	/*
	 * swpouts: pages swapped out (pswpout), -1 without VM event counters;
	 * swap_ptes_seen: swap entries found through pagemap right after each
	 * MADV_PAGEOUT (the same entry may be counted more than once).
	 */
	fprintf(stdout,
		"# SUMMARY prog=pgtable_batch_stress secs=%d bytes_written=%llu bytes_verified=%llu swpouts=%ld swap_ptes_seen=%llu large_swpouts=%lu swpout_fallback=%lu mismatches=%llu forks=%lu child_failures=%lu\n",
		g.secs, tot.written, tot.verified,
		pswp0 < 0 ? -1 : pb_vmstat("pswpout") - pswp0, tot.swap_seen,
		pb_mthp_stat_all("swpout") - swp0,
		pb_mthp_stat_all("swpout_fallback") - fb0, tot.mismatches,
		tot.forks, tot.child_failures);

	ok = !tot.mismatches && (force || tot.swap_seen);
	if (!tot.swap_seen)
		ksft_print_msg("nothing was swapped out\n");
	ksft_test_result(ok, "stress\n");
	ksft_test_result(!tot.child_failures && tot.forks,
			 "stress fork children\n");
	ksft_finished();
}
