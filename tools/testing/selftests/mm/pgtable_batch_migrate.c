// SPDX-License-Identifier: GPL-2.0
/*
 * pgtable_batch_migrate: anonymous memory migrated between two NUMA nodes with
 * move_pages(), for order-0 and every mTHP size from 16K to 1M the kernel
 * offers.  Every case fills a region with a per-page pattern, migrates it
 * to the other node and back, and checks where every page is, every byte,
 * the soft-dirty bit of every page, and that no large folio was split:
 * the mTHP "split" counter must not move and "nr_anon" must come back to
 * the number of folios of the region.
 *
 * Cases: plain (twice to node 1 and back: a folio that migration leaves
 * marked partially mapped is split by the next migration); a child that
 * still shares the pages while the parent migrates them (the parent's
 * writes afterwards must copy, the child keeps its data); mixed
 * exclusive and shared pages within each folio (fork, child gone, one
 * page per folio written again); half of every folio read-only (the write
 * bit differs within the folio); a hole in every folio; a longterm pin
 * on part of the region (migration of the pinned folios fails and every
 * PTE comes back as it was); failures injected after the unmap
 * (fail_migrate: the PTEs come back from the migration entries); the
 * same with the accessed bit differing within every folio (unmapped in
 * several batches: the restored folios must not stay marked partially
 * mapped); an mlock()ed region (the folios stay mlocked); one page of
 * a large folio poisoned (it raises SIGBUS after the migration); a
 * hugetlb page named by all its base pages (4K runs only); the
 * status move_pages() returns for every page of the region; the
 * statuses of pages queued without a lookup of their own; a
 * writer on another CPU while the region migrates back and forth;
 * munmap() of half of every folio (or 64K) on another CPU while the
 * region migrates; and shared anonymous memory
 * (shmem, with the size's shmem_enabled knob on), the file side of the
 * same code.
 *
 * Usage: pgtable_batch_migrate [-t test]... [-s size_kb]... [-m region_mib]
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/mempolicy.h>

#include "kselftest.h"
#include "pgtable_batch_common.h"
#include "vm_util.h"

#ifdef __x86_64__
#define IS_X86 1
#else
#define IS_X86 0
#endif

/* mm/gup_test.h: a FOLL_PIN | FOLL_LONGTERM pin held until STOP. */
struct pin_longterm_test {
	uint64_t addr;
	uint64_t size;
	uint32_t flags;
};

#define PIN_LONGTERM_TEST_START		_IOW('g', 7, struct pin_longterm_test)
#define PIN_LONGTERM_TEST_STOP		_IO('g', 8)
#define PIN_LONGTERM_TEST_FLAG_USE_WRITE	1

static unsigned long long bytes_verified, total_mismatches, pages_migrated;
static unsigned long long total_splits;
static size_t region_mib = 4;

static void fill(char *addr, size_t npages, uint32_t *gen, uint32_t g)
{
	size_t i;

	for (i = 0; i < npages; i++) {
		gen[i] = g;
		pb_fill_page(addr + i * pb_pagesize, i, g);
	}
}

/* Every page holds (i, gen[i]), or zeroes where gen[i] is 0. */
static size_t verify(const char *what, const char *addr, size_t npages,
		     const uint32_t *gen)
{
	size_t bad = 0, i;
	char desc[64];

	for (i = 0; i < npages; i++) {
		const char *p = addr + i * pb_pagesize;

		if (gen[i] ? pb_page_ok(p, i, gen[i]) : pb_page_zero(p))
			continue;
		if (bad++ < 8) {
			pb_page_describe(p, desc, sizeof(desc));
			ksft_print_msg("%s: page %zu: expected id %zu gen %u, holds %s\n",
				       what, i, i, gen[i], desc);
		}
	}
	bytes_verified += npages * pb_pagesize;
	total_mismatches += bad;
	if (bad)
		ksft_print_msg("%s: %zu of %zu pages wrong\n", what, bad, npages);
	return bad;
}

/*
 * move_pages() the pages of [addr, addr + npages) whose gen is not 0 (the
 * holes have no page) to @node, shared pages too; with @node < 0 only ask
 * where they are.  Stores each page's status (node or -errno) in @status.
 */
static void move_pages_of(char *addr, size_t npages, const uint32_t *gen,
			  int node, int *status)
{
	void **pages = calloc(npages, sizeof(*pages));
	int *nodes = calloc(npages, sizeof(*nodes));
	int *st = calloc(npages, sizeof(*st));
	size_t n = 0, i;

	if (!pages || !nodes || !st)
		ksft_exit_fail_msg("out of memory\n");
	for (i = 0; i < npages; i++) {
		if (gen && !gen[i]) {
			status[i] = -ENOENT;
			continue;
		}
		pages[n] = addr + i * pb_pagesize;
		nodes[n++] = node;
	}
	if (syscall(__NR_move_pages, 0, n, pages, node < 0 ? NULL : nodes, st,
		    node < 0 ? 0 : MPOL_MF_MOVE | MPOL_MF_MOVE_ALL) < 0)
		ksft_exit_fail_msg("move_pages: %s\n", strerror(errno));
	for (i = 0, n = 0; i < npages; i++)
		if (!gen || gen[i])
			status[i] = st[n++];
	free(pages);
	free(nodes);
	free(st);
}

/*
 * Move the pages to @node and return how many are there afterwards.  The
 * statuses of the move itself are not the answer: a kernel without the
 * move_pages() fix the status case checks reports -EBUSY for the second
 * page of every large folio, and every kernel reports the node of a page
 * it finds there already.  So ask again where each page is.
 */
static size_t move(char *addr, size_t npages, const uint32_t *gen, int node,
		   int *status)
{
	size_t on = 0, i;

	move_pages_of(addr, npages, gen, node, status);
	move_pages_of(addr, npages, gen, -1, status);
	for (i = 0; i < npages; i++)
		on += status[i] == node;
	pages_migrated += on;
	return on;
}

/* The node of the first page of the region (there must be one). */
static int node_of(char *p, const uint32_t *gen, size_t npages)
{
	int status[1];
	size_t i;

	for (i = 0; i < npages && gen && !gen[i]; i++)
		;
	move_pages_of(p + i * pb_pagesize, 1, NULL, -1, status);
	if (status[0] < 0)
		ksft_exit_fail_msg("page %zu: no node: %s\n", i, strerror(-status[0]));
	return status[0];
}

/*
 * Gather a freshly filled region on the node of its first page, for the
 * cases that check where each page stays: a page allocated on the other
 * node (node 0 full) would look moved.  Not counted as migrated.
 */
static int settle(struct pb_ctx *c, char *p)
{
	int *status = calloc(c->npages, sizeof(*status));
	int home = node_of(p, NULL, c->npages);
	size_t off = 0, i;

	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	move_pages_of(p, c->npages, NULL, -1, status);
	for (i = 0; i < c->npages; i++)
		off += status[i] != home;
	if (off) {
		ksft_print_msg("setup: %zu of %zu pages allocated off node %d, moved there\n",
			       off, c->npages, home);
		move_pages_of(p, c->npages, NULL, home, status);
	}
	free(status);
	return home;
}

struct stats {
	unsigned long split, deferred, nr_anon;
	long success;
};

static void stats_get(struct pb_ctx *c, struct stats *s)
{
	memset(s, 0, sizeof(*s));
	s->success = pb_vmstat("pgmigrate_success");
	if (c->kb == 4)
		return;
	s->split = pb_mthp_stat(c->kb, "split");
	s->deferred = pb_mthp_stat(c->kb, "split_deferred");
	s->nr_anon = pb_mthp_stat(c->kb, "nr_anon");
}

#define STATS_MSG \
	"%s %dkB: %zu folios, pgmigrate_success +%ld split +%lu split_deferred +%lu nr_anon %lu\n"

/* Report the counters since @a; returns the mTHP splits. */
static unsigned long stats_report(struct pb_ctx *c, const char *what,
				  struct stats *a)
{
	struct stats b;

	stats_get(c, &b);
	if (c->kb == 4) {
		ksft_print_msg("%s 4kB: pgmigrate_success +%ld\n", what,
			       b.success - a->success);
		return 0;
	}
	ksft_print_msg(STATS_MSG, what, c->kb, c->len / c->fsz,
		       b.success - a->success, b.split - a->split,
		       b.deferred - a->deferred, b.nr_anon);
	total_splits += b.split - a->split;
	return b.split - a->split;
}

#define ROUND_MSG \
	"%s: round %d: %zu of %zu pages on node %d, moving again\n"

/*
 * Migrate the region to node 1 and back @rounds times; every page that
 * has one must arrive each time.  move_pages() is best effort: a folio
 * that is busy for a moment (a split of a partially mapped folio that
 * finds an extra reference) stays where it is, so the pages that did not
 * arrive get one more call, and only pages that do not arrive then
 * count.  Returns the number of failures.
 */
static size_t round_trips(struct pb_ctx *c, const char *what, char *p,
			  const uint32_t *gen, int rounds)
{
	int *status = calloc(c->npages, sizeof(*status));
	size_t want = 0, bad = 0, i, on;
	int r, k, node, home = node_of(p, gen, c->npages);

	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	for (i = 0; i < c->npages; i++)
		want += !gen || gen[i];
	/* To the other node and back: every move is a migration. */
	for (r = 0; r < rounds; r++) {
		for (k = 1; k >= 0; k--) {
			node = k ? !home : home;
			on = move(p, c->npages, gen, node, status);
			if (on != want) {
				ksft_print_msg(ROUND_MSG, what, r, on, want,
					       node);
				pages_migrated -= on;	/* move() counts them again */
				on = move(p, c->npages, gen, node, status);
			}
			if (on != want) {
				ksft_print_msg("%s: round %d: %zu of %zu pages on node %d\n",
					       what, r, on, want, node);
				bad++;
			}
		}
	}
	free(status);
	return bad;
}

/*
 * The large folios of the region must all still be there: no split since
 * @a, and nr_anon up by @folios (those allocated since @a).
 */
static size_t folios_intact(struct pb_ctx *c, const char *what, struct stats *a,
			    size_t folios)
{
	struct stats b;

	if (c->kb == 4)
		return 0;
	stats_get(c, &b);
	if (b.split == a->split && b.nr_anon >= a->nr_anon + folios)
		return 0;
	ksft_print_msg("%s: %lu folios split, nr_anon %lu, expected %lu + %zu\n",
		       what, b.split - a->split, b.nr_anon, a->nr_anon, folios);
	return 1;
}

/* Soft-dirty on every other folio only; x86 only (no soft-dirty on arm64). */
static bool sd_expected(struct pb_ctx *c, size_t i)
{
	return (i / c->ppf) % 2;
}

/* The pages whose soft-dirty bit is not as sd_expected() says. */
static size_t check_soft_dirty(struct pb_ctx *c, const char *what, char *p)
{
	uint64_t *pm = calloc(c->npages, sizeof(*pm));
	size_t bad = 0, i;

	if (!pm || pb_pagemap(c->pm, p, c->npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++) {
		bool sd = pm[i] & PM_SOFT_DIRTY;

		if (sd != sd_expected(c, i) && bad++ < 8)
			ksft_print_msg("%s: page %zu: soft-dirty %d, expected %d\n",
				       what, i, sd, !sd);
	}
	free(pm);
	return bad;
}

/* The pages of the region that are not mapped (pagemap: not present). */
static size_t check_mapped(struct pb_ctx *c, const char *what, char *p)
{
	uint64_t *pm = calloc(c->npages, sizeof(*pm));
	size_t bad = 0, i;

	if (!pm || pb_pagemap(c->pm, p, c->npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++)
		if (!(pm[i] & PM_PRESENT) && bad++ < 8)
			ksft_print_msg("%s: page %zu not mapped (%#llx)\n", what,
				       i, (unsigned long long)pm[i]);
	free(pm);
	return bad;
}

/*
 * Fill the region, then make the odd folios soft-dirty only (written again
 * after clearing the bits).  Returns whether the kernel tracks soft-dirty.
 */
static bool fill_soft_dirty(struct pb_ctx *c, char *p, uint32_t *gen)
{
	bool sd;
	size_t i;

	fill(p, c->npages, gen, 1);
	sd = !pb_clear_soft_dirty();
	for (i = 0; i < c->npages; i++)
		if (sd_expected(c, i))
			pb_fill_page(p + i * pb_pagesize, i, ++gen[i]);
	return sd && pb_pagemap_count(c->pm, p, c->npages, PM_SOFT_DIRTY);
}

/* Fill, migrate to node 1 and back twice, check data, bits and folios. */
static enum pb_result test_basic(struct pb_ctx *c)
{
	char *p = pb_region(c);
	uint32_t *gen = pb_gens(c);
	struct stats st;
	size_t bad = 0;
	bool sd;

	stats_get(c, &st);
	sd = fill_soft_dirty(c, p, gen);
	if (!sd)
		ksft_print_msg("basic: no soft-dirty tracking, bits not checked\n");
	bad += round_trips(c, "basic", p, NULL, 2);
	stats_report(c, "basic", &st);
	bad += folios_intact(c, "basic", &st, c->len / c->fsz);
	if (sd)
		bad += check_soft_dirty(c, "basic", p);
	bad += verify("basic", p, c->npages, gen);
	munmap(p, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/*
 * A child keeps sharing the pages while the parent migrates them: after
 * the migration, the parent's writes must still copy, and the child
 * still read its own data.
 */
static enum pb_result test_shared(struct pb_ctx *c)
{
	char *p = pb_region(c);
	uint32_t *gen = pb_gens(c);
	int go[2], wst;
	size_t bad = 0;
	char b = 0;
	pid_t pid;

	fill(p, c->npages, gen, 1);
	if (pipe(go))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		/* Wait for the parent's migration and writes, then check. */
		if (read(go[0], &b, 1) != 1)
			_exit(2);
		_exit(verify("shared: child", p, c->npages, gen) ? 1 : 0);
	}
	bad += round_trips(c, "shared", p, NULL, 1);
	fill(p, c->npages, gen, 2);
	if (write(go[1], &b, 1) != 1 || waitpid(pid, &wst, 0) != pid)
		ksft_exit_fail_msg("child: %s\n", strerror(errno));
	if (!WIFEXITED(wst) || WEXITSTATUS(wst)) {
		ksft_print_msg("shared: the child saw the parent's writes\n");
		bad++;
	}
	bad += verify("shared: parent", p, c->npages, gen);
	close(go[0]);
	close(go[1]);
	munmap(p, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/*
 * Exclusive and shared pages mixed within each folio: fork, the child
 * exits, one page per folio (at a different offset in each) is written
 * again, and the region is made read-only.  Migrate, then fork again and
 * write everything: the new child must keep the data from before.
 */
static enum pb_result test_mixed(struct pb_ctx *c)
{
	char *p = pb_region(c);
	uint32_t *gen = pb_gens(c);
	size_t nf = c->npages / c->ppf, bad = 0, f, i;
	struct stats st;
	int wst;
	pid_t pid;

	fill(p, c->npages, gen, 1);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		_exit(0);
	waitpid(pid, &wst, 0);
	for (f = 0; f < nf; f++) {
		i = f * c->ppf + f % c->ppf;
		pb_fill_page(p + i * pb_pagesize, i, ++gen[i]);
	}
	/*
	 * Read-only again: the write bit no longer splits a batch, so its
	 * runs of exclusive and shared pages meet within one batch.
	 */
	if (mprotect(p, c->len, PROT_READ))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	stats_get(c, &st);
	bad += round_trips(c, "mixed", p, NULL, 2);
	if (mprotect(p, c->len, PROT_READ | PROT_WRITE))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	stats_report(c, "mixed", &st);
	bad += folios_intact(c, "mixed", &st, 0);	/* counted in st */
	bad += verify("mixed", p, c->npages, gen);

	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		usleep(100000);
		_exit(verify("mixed: child", p, c->npages, gen) ? 1 : 0);
	}
	for (i = 0; i < c->npages; i++)
		pb_fill_page(p + i * pb_pagesize, i, gen[i] + 100);
	if (waitpid(pid, &wst, 0) != pid || !WIFEXITED(wst) || WEXITSTATUS(wst)) {
		ksft_print_msg("mixed: the child saw the parent's writes\n");
		bad++;
	}
	for (i = 0; i < c->npages; i++)
		gen[i] += 100;
	bad += verify("mixed: parent", p, c->npages, gen);
	munmap(p, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/* The second half of every folio read-only: two batches per folio. */
static enum pb_result test_readonly(struct pb_ctx *c)
{
	char *p = pb_region(c);
	uint32_t *gen = pb_gens(c);
	size_t nf = c->npages / c->ppf, bad = 0, f, i;
	size_t half = c->ppf / 2 ? c->ppf / 2 : 1;
	struct stats st;

	if (c->ppf < 2) {
		munmap(p, c->len);
		free(gen);
		return PB_SKIP;
	}
	fill(p, c->npages, gen, 1);
	stats_get(c, &st);
	for (f = 0; f < nf; f++)
		if (mprotect(p + (f * c->ppf + half) * pb_pagesize,
			     (c->ppf - half) * pb_pagesize, PROT_READ))
			ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	bad += round_trips(c, "readonly", p, NULL, 2);
	stats_report(c, "readonly", &st);
	bad += folios_intact(c, "readonly", &st, 0);	/* counted in st */
	bad += verify("readonly", p, c->npages, gen);
	if (mprotect(p, c->len, PROT_READ | PROT_WRITE))
		ksft_exit_fail_msg("mprotect: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++)
		pb_fill_page(p + i * pb_pagesize, i, ++gen[i]);
	bad += verify("readonly: rewritten", p, c->npages, gen);
	munmap(p, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/*
 * A hole in every folio (MADV_DONTNEED of one page): the folio is
 * partially mapped, which migration splits first; the data around the
 * hole and the hole itself must survive.
 */
static enum pb_result test_hole(struct pb_ctx *c)
{
	size_t nf = c->npages / c->ppf, bad = 0, f, i;
	uint32_t *gen;
	char *p;

	/* A hole in an order-0 folio is no folio: nothing to migrate. */
	if (c->ppf < 2)
		return PB_SKIP;
	p = pb_region(c);
	gen = pb_gens(c);
	fill(p, c->npages, gen, 1);
	for (f = 0; f < nf; f++) {
		i = f * c->ppf + (f + 1) % c->ppf;
		if (madvise(p + i * pb_pagesize, pb_pagesize, MADV_DONTNEED))
			ksft_exit_fail_msg("MADV_DONTNEED: %s\n", strerror(errno));
		gen[i] = 0;
	}
	bad += round_trips(c, "hole", p, gen, 1);
	bad += verify("hole", p, c->npages, gen);
	munmap(p, c->len);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

/*
 * Move the region to @node one folio per call, as move() does: move_pages()
 * gives up at the first folio it fails to migrate.  Returns the pages on
 * @node afterwards.
 */
static size_t move_each_folio(struct pb_ctx *c, char *p, int node, int *status)
{
	size_t nf = c->npages / c->ppf, on = 0, i;

	for (i = 0; i < nf; i++)
		on += move(p + i * c->fsz, c->ppf, NULL, node,
			   status + i * c->ppf);
	return on;
}

/*
 * A longterm pin (gup_test) on part of the second folio: its migration
 * fails, every page of the region stays mapped, the pinned folio on its
 * node, the others move; after unpinning it moves too.
 */
static enum pb_result test_pinned(struct pb_ctx *c)
{
	struct pin_longterm_test pin = { 0 };
	size_t nf = c->npages / c->ppf, bad = 0, i, on;
	int fd = open("/sys/kernel/debug/gup_test", O_RDWR);
	int *status, node;
	uint32_t *gen;
	char *p;

	if (fd < 0) {
		ksft_print_msg("pinned: no gup_test: %s\n", strerror(errno));
		return PB_SKIP;
	}
	if (nf < 2) {
		close(fd);
		return PB_SKIP;
	}
	p = pb_region(c);
	gen = pb_gens(c);
	status = calloc(c->npages, sizeof(*status));
	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	fill(p, c->npages, gen, 1);
	node = !settle(c, p);
	pin.addr = (uintptr_t)(p + c->fsz + (c->ppf / 2) * pb_pagesize);
	pin.size = pb_pagesize * (c->ppf > 1 ? c->ppf / 2 : 1);
	pin.flags = PIN_LONGTERM_TEST_FLAG_USE_WRITE;
	if (ioctl(fd, PIN_LONGTERM_TEST_START, &pin))
		ksft_exit_fail_msg("PIN_LONGTERM_TEST_START: %s\n", strerror(errno));

	on = move_each_folio(c, p, node, status);
	bad += check_mapped(c, "pinned", p);
	for (i = 0; i < c->npages; i++) {
		bool pinned = i / c->ppf == 1;

		if (pinned ? status[i] == node : status[i] != node) {
			if (bad++ < 8)
				ksft_print_msg("pinned: page %zu (%s folio): status %d\n",
					       i, pinned ? "pinned" : "unpinned",
					       status[i]);
		}
	}
	ksft_print_msg("pinned: %zu of %zu pages moved to node %d with folio 1 pinned\n",
		       on, c->npages, node);
	bad += verify("pinned", p, c->npages, gen);
	if (ioctl(fd, PIN_LONGTERM_TEST_STOP))
		ksft_exit_fail_msg("PIN_LONGTERM_TEST_STOP: %s\n", strerror(errno));
	close(fd);
	if (move(p, c->npages, NULL, node, status) != c->npages) {
		ksft_print_msg("pinned: not all pages moved after unpinning\n");
		bad++;
	}
	for (i = 0; i < c->npages; i++)
		pb_fill_page(p + i * pb_pagesize, i, ++gen[i]);
	bad += verify("pinned: rewritten", p, c->npages, gen);
	munmap(p, c->len);
	free(status);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

#define FAIL_MIGRATE "/sys/kernel/debug/fail_migrate"
/* fail_migrate's "times" counts down from here on every injected failure. */
#define FI_TIMES 1000000000L

/* Set fail_migrate's probability (percent); 0 turns it off. */
static void fail_migrate_set(int probability)
{
	char val[16];

	snprintf(val, sizeof(val), "%d", probability);
	if (pb_write_str(FAIL_MIGRATE "/probability", val))
		ksft_exit_fail_msg("fail_migrate: probability %s: %s\n", val,
				   strerror(errno));
}

/* The failures fail_migrate injected so far. */
static long fail_migrate_injected(void)
{
	char buf[32];

	if (pb_read_str(FAIL_MIGRATE "/times", buf, sizeof(buf)))
		ksft_exit_fail_msg("fail_migrate: times: %s\n", strerror(errno));
	return FI_TIMES - atol(buf);
}

/*
 * Arm fail_migrate for this task only, at probability 0.  Returns false
 * (the case skips) on a kernel without CONFIG_FAIL_MIGRATE.
 */
static bool fail_migrate_setup(const char *what)
{
	char val[16];

	if (access(FAIL_MIGRATE, F_OK)) {
		ksft_print_msg("%s: no %s (kernel without CONFIG_FAIL_MIGRATE)\n",
			       what, FAIL_MIGRATE);
		return false;
	}
	snprintf(val, sizeof(val), "%ld", FI_TIMES);
	if (pb_write_str(FAIL_MIGRATE "/probability", "0") ||
	    pb_write_str(FAIL_MIGRATE "/interval", "1") ||
	    pb_write_str(FAIL_MIGRATE "/space", "0") ||
	    pb_write_str(FAIL_MIGRATE "/verbose", "0") ||
	    pb_write_str(FAIL_MIGRATE "/times", val) ||
	    pb_write_str(FAIL_MIGRATE "/task-filter", "Y") ||
	    pb_write_str("/proc/self/make-it-fail", "1"))
		ksft_exit_fail_msg("fail_migrate: setup: %s\n", strerror(errno));
	return true;
}

static void fail_migrate_teardown(void)
{
	pb_write_str("/proc/self/make-it-fail", "0");
	pb_write_str(FAIL_MIGRATE "/times", "-1");
}

/*
 * Migration failing after the unmap (fail_migrate, CONFIG_FAIL_MIGRATE),
 * injected into this task only.  At 100 % the move of every folio fails
 * with -EAGAIN once its PTEs are migration entries, until migrate_pages()
 * gives up and maps the source again from them: every page must be back
 * on its node and mapped, with its data, its soft-dirty bit and its
 * folio.  At 30 % most folios move on a retry, and the region goes to
 * the other node and back as in basic.  One folio per call at 100 %:
 * move_pages() gives up at the first folio it fails to migrate.
 */
static enum pb_result test_inject(struct pb_ctx *c)
{
	size_t nf = c->npages / c->ppf, bad = 0, i, on;
	long injected, failed_all;
	struct stats st;
	uint32_t *gen;
	int *status, home;
	bool sd;
	char *p;

	if (!fail_migrate_setup("inject"))
		return PB_SKIP;
	p = pb_region(c);
	gen = pb_gens(c);
	status = calloc(c->npages, sizeof(*status));
	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	stats_get(c, &st);
	sd = fill_soft_dirty(c, p, gen);
	home = settle(c, p);

	fail_migrate_set(100);
	on = move_each_folio(c, p, !home, status);
	fail_migrate_set(0);
	failed_all = fail_migrate_injected();
	bad += check_mapped(c, "inject", p);
	for (i = 0; i < c->npages; i++)
		if (status[i] != home && bad++ < 8)
			ksft_print_msg("inject: page %zu: status %d, expected node %d\n",
				       i, status[i], home);
	ksft_print_msg("inject: 100%%: %ld failures injected, %zu of %zu pages moved\n",
		       failed_all, on, c->npages);
	if (failed_all < (long)nf) {
		ksft_print_msg("inject: fewer failures than folios\n");
		bad++;
	}
	if (sd)
		bad += check_soft_dirty(c, "inject: restored", p);
	bad += verify("inject: restored", p, c->npages, gen);

	fail_migrate_set(30);
	bad += round_trips(c, "inject", p, NULL, 1);
	fail_migrate_set(0);
	injected = fail_migrate_injected() - failed_all;
	fail_migrate_teardown();
	ksft_print_msg("inject: 30%%: %ld failures injected\n", injected);
	if (injected <= 0) {
		ksft_print_msg("inject: no failure injected at 30%%\n");
		bad++;
	}
	stats_report(c, "inject", &st);
	bad += folios_intact(c, "inject", &st, nf);
	if (sd)
		bad += check_soft_dirty(c, "inject", p);
	bad += verify("inject", p, c->npages, gen);
	munmap(p, c->len);
	free(status);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

#define AGED_MOVED_MSG \
	"aged: 100%%: %zu of %zu pages moved, nr_anon_partially_mapped %lu before, %lu after\n"

#define AGED_UNMARKED_MSG \
	"aged: fewer folios marked than folios: the accessed bits did not differ\n"

/*
 * A folio whose PTEs differ in the accessed bit, as after aging, is
 * unmapped by migration in several batches (the accessed bit is kept per
 * entry where the migration entry holds it); unmapping a folio in part
 * marks it partially mapped.  With every move failing (fail_migrate at
 * 100 %) the source is mapped again in full and must not stay marked:
 * nr_anon_partially_mapped comes back to where it was, and the next
 * migration moves the folios without splitting them.  On arm64 ptep_get()
 * reports a folded block's merged accessed bit, so there folios of 64K
 * and more (folded) are one batch each, and only the smaller ones reach
 * the undo path this case is about.
 *
 * The undo leaves each folio on the deferred split queue, unmarked: the
 * shrinker must drop it, not split it as underused (only PMD-sized THPs
 * are queued as underused).  The last page of every folio is zero-filled
 * and khugepaged's max_ptes_none is 0 while the shrinkers run
 * (drop_caches), so thp_underused() would call each folio underused.
 */
static enum pb_result test_aged(struct pb_ctx *c)
{
	static const char *max_none =
		"/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none";
	size_t nf = c->npages / c->ppf, bad = 0, i, on;
	char saved_none[16] = "";
	unsigned long pm0, pm1, split0;
	struct stats st, st1;
	uint32_t *gen;
	int *status, home;
	char *p;

	if (c->kb == 4)
		return PB_SKIP;
	if (!fail_migrate_setup("aged"))
		return PB_SKIP;
	p = pb_region(c);
	gen = pb_gens(c);
	status = calloc(c->npages, sizeof(*status));
	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	stats_get(c, &st);
	fill(p, c->npages, gen, 1);
	for (i = c->ppf - 1; i < c->npages; i += c->ppf) {
		memset(p + i * pb_pagesize, 0, pb_pagesize);
		gen[i] = 0;
	}
	home = settle(c, p);
	pm0 = pb_mthp_stat(c->kb, "nr_anon_partially_mapped");

	/*
	 * Clear every accessed bit, then read the second half of each folio.
	 * MADV_COLD flushes the TLB after clearing (clear_refs does not:
	 * a read through a cached translation would not set the bit again).
	 */
	if (madvise(p, c->len, MADV_COLD))
		ksft_exit_fail_msg("MADV_COLD: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++)
		if (i % c->ppf >= c->ppf / 2)
			FORCE_READ(p[i * pb_pagesize]);

	fail_migrate_set(100);
	on = move_each_folio(c, p, !home, status);
	fail_migrate_set(0);
	fail_migrate_teardown();
	pm1 = pb_mthp_stat(c->kb, "nr_anon_partially_mapped");
	ksft_print_msg(AGED_MOVED_MSG, on, c->npages, pm0, pm1);
	stats_get(c, &st1);
	ksft_print_msg("aged: 100%%: split_deferred +%lu for %zu folios\n",
		       st1.deferred - st.deferred, nf);
	/*
	 * The folios must have been unmapped in several batches, each marked
	 * partially mapped on the way: once per attempt (migrate_pages()
	 * tries asynchronously, then synchronously).  x86 keeps the accessed
	 * bit per migration entry and batches by it; on arm64 a folded block
	 * reports its merged bit and is one batch.
	 */
	if (IS_X86 && st1.deferred - st.deferred < nf) {
		ksft_print_msg(AGED_UNMARKED_MSG);
		bad++;
	}
	bad += check_mapped(c, "aged", p);
	if (on) {
		ksft_print_msg("aged: pages moved although every move failed\n");
		bad++;
	}
	if (pm1 != pm0) {
		ksft_print_msg("aged: %ld folios left marked partially mapped\n",
			       (long)(pm1 - pm0));
		bad++;
	}
	bad += verify("aged: restored", p, c->npages, gen);

	/* The shrinkers, with every folio of the region underused. */
	split0 = pb_mthp_stat(c->kb, "split");
	if (pb_read_str(max_none, saved_none, sizeof(saved_none)) < 0 ||
	    pb_write_str(max_none, "0") < 0) {
		ksft_print_msg("aged: cannot set %s\n", max_none);
		bad++;
	} else {
		pb_write_str("/proc/sys/vm/drop_caches", "2");
		pb_write_str(max_none, saved_none);
		ksft_print_msg("aged: shrinkers with max_ptes_none 0: split +%lu\n",
			       pb_mthp_stat(c->kb, "split") - split0);
	}

	bad += round_trips(c, "aged", p, NULL, 1);
	stats_report(c, "aged", &st);
	bad += folios_intact(c, "aged", &st, nf);
	bad += verify("aged", p, c->npages, gen);
	munmap(p, c->len);
	free(status);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

#define MLOCKED_MSG \
	"mlocked: to node %d: %zu of %zu pages moved, Mlocked %ld kB before, %ld kB after (region %ld kB)\n"

/*
 * An mlock()ed region: a large folio whose migration entries are restored
 * by one run covering the whole folio is mapped with one
 * folio_add_anon_rmap_ptes() of the folio, which mlocks it as a fault
 * mapping the whole folio would (a folio fully mapped in a VM_LOCKED
 * VMA).  The per-PTE restore maps one page at a time and never mlocks a
 * large destination: on 7.3 Mlocked falls by the region's size with the
 * move to the other node (the way back splits the folios, and the pages
 * are mlocked again one by one).  Here Mlocked must stay, within half the
 * region, after each way.
 */
static enum pb_result test_mlocked(struct pb_ctx *c)
{
	long before, after, region_kb = c->len / 1024;
	int *status, k, node, home;
	uint32_t *gen;
	size_t bad = 0, on;
	struct stats st;
	char *p;

	p = pb_region(c);
	gen = pb_gens(c);
	status = calloc(c->npages, sizeof(*status));
	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	stats_get(c, &st);
	fill(p, c->npages, gen, 1);
	home = settle(c, p);
	if (mlock(p, c->len)) {
		ksft_print_msg("mlocked: mlock: %s\n", strerror(errno));
		munmap(p, c->len);
		free(status);
		free(gen);
		return PB_SKIP;
	}
	pb_lru_drain_all();
	before = pb_meminfo("Mlocked");
	/* Each way on its own: the way back may split what the first left. */
	for (k = 1; k >= 0; k--) {
		node = k ? !home : home;
		on = move(p, c->npages, NULL, node, status);
		pb_lru_drain_all();
		after = pb_meminfo("Mlocked");
		ksft_print_msg(MLOCKED_MSG, node, on, c->npages, before, after,
			       region_kb);
		if (on != c->npages)
			bad++;
		if (after < before - region_kb / 2) {
			ksft_print_msg("mlocked: %ld kB no longer mlocked after the migration\n",
				       before - after);
			bad++;
		}
	}
	stats_report(c, "mlocked", &st);
	bad += folios_intact(c, "mlocked", &st, c->len / c->fsz);
	bad += verify("mlocked", p, c->npages, gen);
	munlock(p, c->len);
	munmap(p, c->len);
	free(status);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

static sigjmp_buf sigbus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(sigbus_jmp, 1);
}

/* Read a byte of @p; returns whether that raised SIGBUS. */
static bool read_sigbus(const char *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	bool bus = false;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(sigbus_jmp, 1))
		bus = true;
	else
		FORCE_READ(*p);
	sigaction(SIGBUS, &old, NULL);
	return bus;
}

#define HWPOISON_READS_MSG \
	"hwpoison: after migrating to node %d, the poisoned page reads\n"

/*
 * One page of a large folio poisoned (MADV_HWPOISON, CONFIG_MEMORY_FAILURE):
 * the region migrates to the other node and back, and afterwards the
 * poisoned page still raises SIGBUS while every other page holds its data
 * on the node it was moved to.  The steady state: memory_failure() splits
 * the folio and leaves a hwpoison entry before the migration starts, so
 * this checks that the entry and its neighbours survive the migration;
 * the window in which a batch could meet a page poisoned under it is not
 * reachable from here.  The poisoned page stays out of use for the rest
 * of the boot.
 */
static enum pb_result test_hwpoison(struct pb_ctx *c)
{
	size_t bad = 0, victim, wrong, i;
	int *status, home, node;
	uint32_t *gen;
	char *p;

	if (c->kb == 4 || c->npages / c->ppf < 2)
		return PB_SKIP;
	p = pb_region(c);
	gen = pb_gens(c);
	status = calloc(c->npages, sizeof(*status));
	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	fill(p, c->npages, gen, 1);
	home = settle(c, p);

	/* The middle page of the second folio. */
	victim = c->ppf + c->ppf / 2;
	if (madvise(p + victim * pb_pagesize, pb_pagesize, MADV_HWPOISON)) {
		ksft_print_msg("hwpoison: MADV_HWPOISON: %s\n", strerror(errno));
		munmap(p, c->len);
		free(status);
		free(gen);
		return errno == EINVAL ? PB_SKIP : PB_FAIL;
	}
	gen[victim] = 0;
	if (!read_sigbus(p + victim * pb_pagesize)) {
		ksft_print_msg("hwpoison: the poisoned page reads without SIGBUS\n");
		bad++;
	}

	for (node = !home; ; node = home) {
		move_pages_of(p, c->npages, gen, node, status);
		move_pages_of(p, c->npages, gen, -1, status);
		for (i = 0; i < c->npages; i++) {
			if (i == victim || status[i] == node)
				continue;
			if (bad++ < 8)
				ksft_print_msg("hwpoison: page %zu on node %d, expected %d\n",
					       i, status[i], node);
		}
		if (!read_sigbus(p + victim * pb_pagesize)) {
			ksft_print_msg(HWPOISON_READS_MSG, node);
			bad++;
		}
		if (node == home)
			break;
	}
	/* Every page but the victim (verify() would read it as zero). */
	for (i = 0, wrong = 0; i < c->npages; i++) {
		char desc[64];

		if (i == victim || pb_page_ok(p + i * pb_pagesize, i, gen[i]))
			continue;
		if (wrong++ < 8) {
			pb_page_describe(p + i * pb_pagesize, desc, sizeof(desc));
			ksft_print_msg("hwpoison: page %zu: expected id %zu gen %u, holds %s\n",
				       i, i, gen[i], desc);
		}
	}
	bytes_verified += (c->npages - 1) * pb_pagesize;
	total_mismatches += wrong;
	bad += wrong;
	munmap(p, c->len);
	free(status);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

#define HUGETLB_SYSFS "/sys/devices/system/node/node%d/hugepages/hugepages-%zukB/nr_hugepages"

#define HUGETLB_STATUS_MSG \
	"hugetlb: to node %d: address %zu of the huge page: status %d\n"

#define HUGETLB_WRONG_MSG \
	"hugetlb: to node %d: %zu of %zu addresses reported something else\n"

/*
 * move_pages() naming every base page of a hugetlb page (CONFIG_HUGETLBFS,
 * the default huge page size, two more reserved on each node and the pools
 * put back afterwards; the case skips if they cannot be had): every address
 * must report the node it moved to.  move_pages() queues the huge page for
 * its first address and, since "queue each large folio once", finds it
 * queued for the others: a kernel without that commit isolates it again
 * for the second address and reports -EBUSY there.
 */
static enum pb_result test_hugetlb(struct pb_ctx *c)
{
	size_t hsz = 0, npages, bad = 0, i, wrong;
	int *status, k, node, home, n, old[2] = { -1, -1 };
	char path[128], buf[32];
	bool short_pool = false;
	uint32_t *gen;
	FILE *f;
	char *p;

	if (c->kb != 4)
		return PB_SKIP;
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(path, sizeof(path), f))
		if (sscanf(path, "Hugepagesize: %zu kB", &hsz) == 1)
			break;
	if (f)
		fclose(f);
	if (!hsz) {
		ksft_print_msg("hugetlb: no Hugepagesize (kernel without CONFIG_HUGETLBFS)\n");
		return PB_SKIP;
	}
	/* Two huge pages on each node, on top of the pools as they were. */
	for (n = 0; n < 2; n++) {
		snprintf(path, sizeof(path), HUGETLB_SYSFS, n, hsz);
		if (pb_read_str(path, buf, sizeof(buf)))
			break;
		old[n] = atoi(buf);
		snprintf(buf, sizeof(buf), "%d", old[n] + 2);
		pb_write_str(path, buf);
		if (pb_read_str(path, buf, sizeof(buf)) || atoi(buf) < old[n] + 2) {
			ksft_print_msg("hugetlb: node %d: cannot reserve 2 huge pages of %zukB\n",
				       n, hsz);
			short_pool = true;
		}
	}
	if (n < 2 || short_pool) {
		bad = n < 2;
		if (bad)
			ksft_print_msg("hugetlb: no pool of %zukB pages on node %d\n",
				       hsz, n);
		goto out;
	}
	npages = hsz * 1024 / pb_pagesize;
	p = pb_mmap_aligned(hsz * 1024, hsz * 1024, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1);
	status = calloc(npages, sizeof(*status));
	gen = calloc(npages, sizeof(*gen));
	if (!status || !gen)
		ksft_exit_fail_msg("out of memory\n");
	if (!p) {
		ksft_print_msg("hugetlb: mmap MAP_HUGETLB: %s\n", strerror(errno));
		bad++;
		goto out_free;
	}
	fill(p, npages, gen, 1);
	home = node_of(p, NULL, npages);
	for (k = 1; k >= 0; k--) {
		node = k ? !home : home;
		move_pages_of(p, npages, NULL, node, status);
		for (i = 0, wrong = 0; i < npages; i++) {
			if (status[i] == node)
				continue;
			if (wrong++ < 4)
				ksft_print_msg(HUGETLB_STATUS_MSG, node, i,
					       status[i]);
		}
		if (wrong)
			ksft_print_msg(HUGETLB_WRONG_MSG, node, wrong,
				       npages);
		bad += !!wrong;
		if (node_of(p, NULL, npages) != node) {
			ksft_print_msg("hugetlb: the huge page is not on node %d\n", node);
			bad++;
		}
	}
	ksft_print_msg("hugetlb: one huge page of %zukB to node %d and back\n",
		       hsz, !home);
	bad += verify("hugetlb", p, npages, gen);
	munmap(p, hsz * 1024);
out_free:
	free(status);
	free(gen);
out:
	for (n = 0; n < 2; n++) {
		if (old[n] < 0)
			continue;
		snprintf(path, sizeof(path), HUGETLB_SYSFS, n, hsz);
		snprintf(buf, sizeof(buf), "%d", old[n]);
		pb_write_str(path, buf);
	}
	if (short_pool && !bad)
		return PB_SKIP;
	return bad ? PB_FAIL : PB_PASS;
}

#define STATUS_PAGE_MSG \
	"status: to node %d: page %zu (page %zu of its folio): status %d\n"

#define STATUS_WRONG_MSG \
	"status: to node %d: %zu of %zu pages reported something else\n"

/*
 * The statuses move_pages() itself returns: one call naming every page of
 * the region, to the other node and back.  Each page must report the node
 * it went to.  move_pages() queues a large folio for its first page; a
 * kernel that does not know the folio's other pages are queued fails to
 * isolate it again for the second page, reports -EBUSY for that page
 * although it moves with the folio, and migrates the folio alone.
 */
static enum pb_result test_status(struct pb_ctx *c)
{
	char *p = pb_region(c);
	uint32_t *gen = pb_gens(c);
	int *status = calloc(c->npages, sizeof(*status));
	size_t bad = 0, wrong, i;
	int k, node, home;

	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	fill(p, c->npages, gen, 1);
	home = settle(c, p);
	for (k = 1; k >= 0; k--) {
		node = k ? !home : home;
		move_pages_of(p, c->npages, NULL, node, status);
		for (i = 0, wrong = 0; i < c->npages; i++) {
			if (status[i] == node)
				continue;
			if (wrong++ < 4)
				ksft_print_msg(STATUS_PAGE_MSG, node, i,
					       i % c->ppf, status[i]);
		}
		if (wrong)
			ksft_print_msg(STATUS_WRONG_MSG, node, wrong,
				       c->npages);
		bad += wrong;
		move_pages_of(p, c->npages, NULL, -1, status);
		for (i = 0; i < c->npages; i++)
			pages_migrated += status[i] == node;
	}
	bad += verify("status", p, c->npages, gen);
	munmap(p, c->len);
	free(status);
	free(gen);
	return bad ? PB_FAIL : PB_PASS;
}

#define LOOKUP_ENTRY_MSG \
	"lookup: entry %zu (%p, folio %td): status %d, expected %d\n"

#define LOOKUP_PAST_MSG \
	"lookup: entry %zu, past the count of %zu: status %d written\n"

/*
 * The lookups move_pages() skips.  The lookup that queues a large folio also
 * finds how many of the next addresses map the next pages of that folio,
 * and the entries for those addresses are queued with it without a lookup
 * of their own.  One call, with a child sharing the region, names the
 * folios in four ways in turn (T is the other node):
 *   0: every page to T, the last one written by the parent since the fork
 *      (a page of another folio; the lookups must stop before it);
 *   1: the first half to T (the next entry names the next folio, not the
 *      rest of this one);
 *   2: the first half to T, the second half home (the node changes within
 *      the run);
 *   3: the first page to T, an unmapped address to T (its error flushes
 *      the list), then the other pages home.
 * The last folio is named the second way, and the arrays go on past the
 * count given with the rest of that folio: the kernel must not read them
 * nor write their statuses.  Every entry must get the status its own
 * lookup gives, and every page end up where its last entry sent its folio.
 */
static enum pb_result test_lookup(struct pb_ctx *c)
{
	size_t nf = c->npages / c->ppf, half = c->ppf / 2, bad = 0, n = 0;
	int *nodes, *st, *want, *where, *status, go[2], wst, home, far;
	char *p, b = 0;
	uint32_t *gen;
	size_t f, i;
	void **pages;
	long ret;
	pid_t pid;

	/* A run needs two pages after the first of a half folio. */
	if (c->ppf < 4)
		return PB_SKIP;
	pages = calloc(c->npages + nf, sizeof(*pages));
	nodes = calloc(c->npages + nf, sizeof(*nodes));
	st = calloc(c->npages + nf, sizeof(*st));
	want = calloc(c->npages + nf, sizeof(*want));
	where = calloc(c->npages, sizeof(*where));
	status = calloc(c->npages, sizeof(*status));
	if (!pages || !nodes || !st || !want || !where || !status)
		ksft_exit_fail_msg("out of memory\n");
	p = pb_region(c);
	gen = pb_gens(c);
	fill(p, c->npages, gen, 1);
	home = settle(c, p);
	far = !home;

	if (pipe(go))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		_exit(read(go[0], &b, 1) == 1 ? 0 : 2);

#define ENTRY(addr, to, expected) do {		\
		pages[n] = (addr);			\
		nodes[n] = (to);			\
		want[n++] = (expected);			\
	} while (0)
#define PAGE(i)	(p + (i) * pb_pagesize)
	for (f = 0; f < nf; f++) {
		size_t first = f * c->ppf, way = f == nf - 1 ? 1 : f % 4;

		switch (way) {
		case 0:
			i = first + c->ppf - 1;
			pb_fill_page(PAGE(i), i, ++gen[i]);
			for (i = 0; i < c->ppf; i++)
				ENTRY(PAGE(first + i), far, far);
			break;
		case 1:
			for (i = 0; i < half; i++)
				ENTRY(PAGE(first + i), far, far);
			break;
		case 2:
			for (i = 0; i < c->ppf; i++)
				ENTRY(PAGE(first + i), i < half ? far : home,
				      i < half ? far : home);
			break;
		case 3:
			ENTRY(PAGE(first), far, far);
			ENTRY(NULL, far, -EFAULT);
			for (i = 1; i < c->ppf; i++)
				ENTRY(PAGE(first + i), home, home);
			break;
		}
		for (i = 0; i < c->ppf; i++)
			where[first + i] = way < 2 ? far : home;
	}
	/* Past the count: the rest of the last folio, and statuses unset. */
	for (i = 0; i < c->npages + nf - n; i++) {
		pages[n + i] = i < c->ppf - half ?
			PAGE(c->npages - c->ppf + half + i) : NULL;
		nodes[n + i] = far;
		st[n + i] = 12345;
	}
#undef PAGE
#undef ENTRY

	ret = syscall(__NR_move_pages, 0, n, pages, nodes, st,
		      MPOL_MF_MOVE | MPOL_MF_MOVE_ALL);
	if (ret) {
		ksft_print_msg("lookup: move_pages returned %ld (%s)\n", ret,
			       ret < 0 ? strerror(errno) : "pages not moved");
		bad++;
	}
	for (i = 0; i < n; i++) {
		if (st[i] == want[i])
			continue;
		if (bad++ < 8)
			ksft_print_msg(LOOKUP_ENTRY_MSG, i, pages[i],
				       pages[i] ? ((char *)pages[i] - p) / (ptrdiff_t)c->fsz : -1,
				       st[i], want[i]);
	}
	for (i = n; i < c->npages + nf; i++) {
		if (st[i] == 12345)
			continue;
		if (bad++ < 8)
			ksft_print_msg(LOOKUP_PAST_MSG, i, n, st[i]);
	}
	move_pages_of(p, c->npages, NULL, -1, status);
	for (i = 0; i < c->npages; i++) {
		pages_migrated += status[i] != home;
		if (status[i] == where[i])
			continue;
		if (bad++ < 8)
			ksft_print_msg("lookup: page %zu (folio %zu): on node %d, expected %d\n",
				       i, i / c->ppf, status[i], where[i]);
	}
	if (write(go[1], &b, 1) != 1 || waitpid(pid, &wst, 0) != pid)
		ksft_exit_fail_msg("child: %s\n", strerror(errno));
	close(go[0]);
	close(go[1]);
	bad += verify("lookup", p, c->npages, gen);
	munmap(p, c->len);
	free(gen);
	free(pages);
	free(nodes);
	free(st);
	free(want);
	free(where);
	free(status);
	return bad ? PB_FAIL : PB_PASS;
}

struct writer {
	struct pb_ctx *c;
	char *p;
	uint32_t *gen;
	atomic_int stop;
};

/* Rewrite the pages in turn, each with the next generation. */
static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	size_t i = 0;

	while (!atomic_load(&w->stop)) {
		pb_fill_page(w->p + i * pb_pagesize, i, w->gen[i] + 1);
		w->gen[i]++;
		i = (i + 1) % w->c->npages;
	}
	return NULL;
}

/* A writer on the other CPU while the region migrates back and forth. */
static enum pb_result test_race(struct pb_ctx *c)
{
	struct writer w = { .c = c, .p = pb_region(c), .gen = pb_gens(c) };
	size_t bad = 0;
	pthread_t t;

	fill(w.p, c->npages, w.gen, 1);
	if (pthread_create(&t, NULL, writer_fn, &w))
		ksft_exit_fail_msg("pthread_create\n");
	/* Pages may be busy under the writer: count, do not require. */
	round_trips(c, "race", w.p, NULL, 3);
	atomic_store(&w.stop, 1);
	pthread_join(t, NULL);
	bad += verify("race", w.p, c->npages, w.gen);
	munmap(w.p, c->len);
	free(w.gen);
	return bad ? PB_FAIL : PB_PASS;
}

struct unmapper {
	struct pb_ctx *c;
	char *p;
	useconds_t gap;		/* between two munmap() calls */
	atomic_int go, done;
};

/*
 * The unit of the munmap() race: a folio, or 64K of smaller folios (a
 * VMA per page would make the case slow and test the VMA tree instead).
 */
static size_t unmap_unit(const struct pb_ctx *c)
{
	size_t min = 65536 / pb_pagesize;

	return c->ppf > min ? c->ppf : min;
}

/*
 * The upper half of every unit, one unit at a time, munmap()ed while the
 * region migrates: a large folio loses half of its PTEs, present or
 * migration entries, under the migration.
 */
static void *unmapper_fn(void *arg)
{
	struct unmapper *u = arg;
	struct pb_ctx *c = u->c;
	size_t step = unmap_unit(c), half = step / 2, i;

	while (!atomic_load(&u->go))
		;
	for (i = 0; i + step <= c->npages; i += step) {
		usleep(u->gap);
		if (munmap(u->p + (i + step - half) * pb_pagesize,
			   half * pb_pagesize))
			ksft_exit_fail_msg("munmap: %s\n", strerror(errno));
	}
	atomic_store(&u->done, 1);
	return NULL;
}

#define UNMAP_MSG \
	"unmap %dkB: %zu moves of the region while half of it was unmapped, %zu munmap() calls %u us apart\n"

/*
 * munmap() racing migration: the region moves back and forth while the
 * other CPU unmaps half of every folio (of every 64K with smaller folios).
 * Afterwards the pages left must move both ways and hold their data.
 * Splits are expected: a partially mapped folio is split before it
 * migrates.
 */
static enum pb_result test_unmap(struct pb_ctx *c)
{
	struct unmapper u = { .c = c, .p = pb_region(c) };
	size_t step = unmap_unit(c), bad = 0, moves = 0, i;
	uint32_t *gen = pb_gens(c);
	int *status = calloc(c->npages, sizeof(*status));
	int node, home;
	uint64_t t0;
	pthread_t t;

	if (!status)
		ksft_exit_fail_msg("out of memory\n");
	fill(u.p, c->npages, gen, 1);
	home = node_of(u.p, NULL, c->npages);
	/*
	 * One move there and back, timed: the munmap() calls are spread over
	 * about four moves, so that they fall into every phase of one.
	 */
	t0 = pb_now_ns();
	move_pages_of(u.p, c->npages, NULL, !home, status);
	move_pages_of(u.p, c->npages, NULL, home, status);
	u.gap = (pb_now_ns() - t0) * 2 / 1000 / (c->npages / step);
	if (pthread_create(&t, NULL, unmapper_fn, &u))
		ksft_exit_fail_msg("pthread_create\n");
	atomic_store(&u.go, 1);
	/* Pages vanish under these calls: their statuses say nothing. */
	for (node = !home; !atomic_load(&u.done); node = !node, moves++)
		move_pages_of(u.p, c->npages, NULL, node, status);
	pthread_join(t, NULL);
	ksft_print_msg(UNMAP_MSG, c->kb, moves, c->npages / step,
		       (unsigned int)u.gap);
	/*
	 * Map the unmapped halves again, empty: they become the holes that
	 * round_trips() and verify() know (gen 0, no page, reads as zero).
	 */
	for (i = 0; i + step <= c->npages; i += step) {
		if (mmap(u.p + (i + step / 2) * pb_pagesize,
			 step / 2 * pb_pagesize, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
		memset(gen + i + step / 2, 0, step / 2 * sizeof(*gen));
	}
	bad += round_trips(c, "unmap", u.p, gen, 1);
	bad += verify("unmap", u.p, c->npages, gen);
	munmap(u.p, c->len);
	free(status);
	free(gen);
	return bad || !moves ? PB_FAIL : PB_PASS;
}

/*
 * Shared anonymous memory: shmem folios go through the same migration
 * paths as file folios (no anon rmap, no AnonExclusive).  Migrated twice
 * to node 1 and back; every folio of the size must have been allocated
 * (shmem_alloc), none split, every byte intact.
 */
static enum pb_result test_shmem(struct pb_ctx *c)
{
	unsigned long alloc = 0, split = 0, folios = c->len / c->fsz;
	int kb = c->kb;
	size_t bad = 0;
	uint32_t *gen;
	char *p;

	if (kb != 4 && pb_mthp_set(&kb, 1, true))
		return PB_SKIP;
	if (kb != 4) {
		alloc = pb_mthp_stat(kb, "shmem_alloc");
		split = pb_mthp_stat(kb, "split");
	}
	p = pb_mmap_aligned(c->len, c->fsz, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1);
	if (!p)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	gen = pb_gens(c);
	fill(p, c->npages, gen, 1);
	if (kb != 4 && pb_mthp_stat(kb, "shmem_alloc") - alloc < folios) {
		ksft_print_msg("shmem: %lu of %lu folios of %dkB allocated\n",
			       pb_mthp_stat(kb, "shmem_alloc") - alloc, folios, kb);
		bad++;
	}
	bad += round_trips(c, "shmem", p, NULL, 2);
	if (kb != 4 && pb_mthp_stat(kb, "split") != split) {
		ksft_print_msg("shmem: %lu folios of %dkB split\n",
			       pb_mthp_stat(kb, "split") - split, kb);
		total_splits += pb_mthp_stat(kb, "split") - split;
		bad++;
	}
	bad += verify("shmem", p, c->npages, gen);
	munmap(p, c->len);
	free(gen);
	if (kb != 4)
		pb_mthp_set(&kb, 1, false);
	return bad ? PB_FAIL : PB_PASS;
}

struct test {
	const char *name;
	enum pb_result (*fn)(struct pb_ctx *c);
};

static const struct test tests[] = {
	{ "basic", test_basic },
	{ "shared", test_shared },
	{ "mixed", test_mixed },
	{ "readonly", test_readonly },
	{ "hole", test_hole },
	{ "pinned", test_pinned },
	{ "inject", test_inject },
	{ "aged", test_aged },
	{ "mlocked", test_mlocked },
	{ "hwpoison", test_hwpoison },
	{ "hugetlb", test_hugetlb },
	{ "status", test_status },
	{ "lookup", test_lookup },
	{ "race", test_race },
	{ "unmap", test_unmap },
	{ "shmem", test_shmem },
};

#define NR_TESTS ARRAY_SIZE(tests)

static void print_help(void)
{
	size_t t;

	fprintf(stderr,
		"usage: pgtable_batch_migrate [-t test]... [-s size_kb]... [-m region_mib]\n"
		"tests:");
	for (t = 0; t < NR_TESTS; t++)
		fprintf(stderr, " %s", tests[t].name);
	fprintf(stderr, "\n");
	exit(KSFT_FAIL);
}

int main(int argc, char **argv)
{
	bool want[NR_TESTS] = { 0 }, named = false;
	int sizes[PB_MAX_SIZES + 1], nsizes, req[PB_MAX_SIZES], nreq = 0;
	int nall, opt, i;
	int status = 0, home, far;
	size_t t;
	char *probe;

	pb_init();
	while ((opt = getopt(argc, argv, "t:s:m:")) != -1) {
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
		default:
			print_help();
		}
	}
	for (t = 0; !named && t < NR_TESTS; t++)
		want[t] = true;

	nsizes = pb_test_sizes(sizes, req, nreq, &nall);

	ksft_print_header();
	for (t = 0, i = 0; t < NR_TESTS; t++)
		i += want[t] * nsizes;
	ksft_set_plan(i);

	/*
	 * Allocate on node 0 while it has memory.  The CPUs of a guest may
	 * sit on different nodes (x86_64's NUMA emulation puts one on each):
	 * a task that the scheduler moves from one to the other while it
	 * fills a region would spread the region over both nodes, and a case
	 * that expects a page where it was put could not tell a page that
	 * moved from one that was allocated there.  settle() covers the rest.
	 */
	if (syscall(__NR_set_mempolicy, MPOL_PREFERRED, (unsigned long[]){ 1 },
		    sizeof(unsigned long) * 8))
		/* No NUMA, or no memory on node 0: nothing to migrate between. */
		ksft_exit_skip("set_mempolicy(node 0): %s\n", strerror(errno));

	/* Two nodes, and move_pages() can reach the second one. */
	probe = pb_mmap_aligned(pb_pagesize, pb_pagesize, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1);
	if (!probe)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	probe[0] = 1;
	home = node_of(probe, NULL, 1);
	far = !home;
	if (syscall(__NR_move_pages, 0, 1, (void **)&probe, &far, &status,
		    MPOL_MF_MOVE) || status != far)
		ksft_exit_skip("no second NUMA node to migrate to (status %d, %s)\n",
			       status, strerror(errno));
	munmap(probe, pb_pagesize);
	ksft_print_msg("page size %zu, mTHP sizes offered: %d\n", pb_pagesize, nall);

	pb_mthp_save();
	pb_mthp_restore_at_exit();

	for (i = 0; i < nsizes; i++) {
		struct pb_ctx c;
		int kb = sizes[i];
		bool set_ok = !pb_mthp_set(&kb, kb == 4 ? 0 : 1, false);

		pb_ctx_init(&c, kb, region_mib);

		for (t = 0; t < NR_TESTS; t++) {
			enum pb_result r;
			uint64_t t0;

			if (!want[t])
				continue;
			if (!set_ok) {
				ksft_test_result_skip("%s %dkB: cannot set the mTHP size\n",
						      tests[t].name, kb);
				continue;
			}
			t0 = pb_now_ns();
			r = tests[t].fn(&c);
			pb_case_report(tests[t].name, kb, r, t0);
		}
		close(c.pm);
	}
	fprintf(stdout,
		"# SUMMARY prog=pgtable_batch_migrate bytes_verified=%llu pages_migrated=%llu splits=%llu mismatches=%llu\n",
		bytes_verified, pages_migrated, total_splits, total_mismatches);
	ksft_finished();
}
