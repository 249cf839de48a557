// SPDX-License-Identifier: GPL-2.0
/*
 * pgtable_batch_mkclean: writeback of large file folios written through a
 * shared mapping.  Before its writeback, folio_mkclean() write-protects
 * and cleans every PTE that maps the folio (page_vma_mkclean_one()), in
 * runs of a large folio at once with the series; a write after that must
 * fault and dirty the folio again, and nothing written before it may be
 * lost.
 *
 * The file lives on the file system mounted at -d (ext4 or XFS, which give
 * regular files large folios).  The page cache of a file written with
 * pwrite() in chunks of a folio size holds folios of that size; each case
 * maps such a file MAP_SHARED and counts the folios it found mapped whole.
 * Cases, per folio size (-s, default 4, 64 and 1024; 4 is order-0, the
 * per-PTE code):
 *   integrity  write every page through the mapping, msync(MS_SYNC): no
 *              folio is dirty; write half the pages again: every folio
 *              written is dirty again (the writes faulted), msync; the
 *              file read back with O_DIRECT while still mapped, after
 *              dropping the page cache, and after a remount (-R), holds
 *              the last data of every page
 *   race       a thread on the other CPU keeps writing the pages while
 *              this one calls msync(MS_SYNC); after a last msync the file
 *              holds the last data written to every page
 *   softdirty  write every page, clear_refs 4 (the PTEs stay dirty), write
 *              the first half of every folio again, msync: exactly the
 *              pages written again are soft-dirty (SKIP where soft-dirty
 *              is not supported)
 *   fork       a child on the other CPU and the parent each write half
 *              the pages of a mapping they share, the child msyncs; the
 *              parent writes its half again and msyncs
 *   twovma     each folio mapped by two VMAs (MADV_RANDOM on the second
 *              half of every folio)
 *   partial    a mapping that starts in the middle of a folio and ends in
 *              another
 *   mixed      a file of folios of 4K to 4 times the size in turn, each
 *              at an offset aligned to it
 *   truncate   a thread truncates the file to half and back while another
 *              writes the pages and msync() runs; no page may then hold
 *              data of another page
 * Every case but truncate reads the file back with O_DIRECT after its last
 * msync() while the mapping still exists: munmap() would carry a dirty bit
 * left in a PTE into the folio and hide it.
 * With -b (the kernel batches), integrity also requires on x86_64 the TLB
 * flush counters (CONFIG_DEBUG_TLBFLUSH) to show one flush of the range per
 * folio rather than one per page for folios of more than 33 pages, which
 * x86 flushes whole: /proc/vmstat nr_tlb_local_flush_all grows by at least
 * one per folio and nr_tlb_local_flush_one by less than half the pages.
 * Folio sizes of a PMD or more are refused: such a folio is PMD-mapped.
 *
 * Usage: pgtable_batch_mkclean -d dir [-s size_kb]... [-m region_mib]
 *        [-t case]... [-r race_secs] [-b] [-R]
 * Needs root (drop_caches, pagemap PFNs, /proc/kpageflags, remount).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "pgtable_batch_common.h"
#include "vm_util.h"

#define PM_PFN_MASK		(BIT_ULL(55) - 1)

static const char *dir;
static char path[512];
static size_t region_mib = 4, race_secs = 3;
static bool expect_batched, remount;
static int pm_fd, kpf_fd;

struct mk_case {
	int kb;			/* folio size the file is written in */
	size_t fsz, ppf, len, npages;
	uint32_t *gens;		/* the last generation written per page */
	int fd;
};

static uint64_t kpageflags_of(uint64_t pfn)
{
	uint64_t f = 0;

	if (pread(kpf_fd, &f, sizeof(f), pfn * sizeof(f)) != sizeof(f))
		ksft_exit_fail_msg("read /proc/kpageflags: %s\n", strerror(errno));
	return f;
}

/*
 * Create the file with folios of @chunk bytes in its page cache (pwrite()
 * of whole chunks; @chunk 0: 4K to 4 times @c->fsz in turn), page i
 * holding (i, generation 0).
 */
static void mk_file(struct mk_case *c, size_t chunk)
{
	size_t off = 0, n = 0, i;
	char *buf;

	snprintf(path, sizeof(path), "%s/pgtable_batch_mkclean", dir);
	unlink(path);
	c->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (c->fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", path, strerror(errno));
	buf = malloc(4 * c->fsz);
	if (!buf)
		ksft_exit_fail_msg("malloc\n");
	while (off < c->len) {
		size_t len = chunk;

		if (!len) {
			len = (pb_pagesize << (n++ % 7)) % (4 * c->fsz) ?:
			      pb_pagesize;
			/* A folio of the page cache is aligned to its size. */
			while (off % len)
				len /= 2;
		}
		if (len > c->len - off)
			len = c->len - off;
		for (i = 0; i < len / pb_pagesize; i++)
			pb_fill_page(buf + i * pb_pagesize,
				     off / pb_pagesize + i, 0);
		if (pwrite(c->fd, buf, len, off) != (ssize_t)len)
			ksft_exit_fail_msg("pwrite: %s\n", strerror(errno));
		off += len;
	}
	free(buf);
	/* Clean page cache: the mapping's writes dirty it again. */
	if (fsync(c->fd))
		ksft_exit_fail_msg("fsync: %s\n", strerror(errno));
	memset(c->gens, 0, c->npages * sizeof(*c->gens));
}

/* A shared mapping of the whole file, aligned to the folio size. */
static char *mk_map(struct mk_case *c)
{
	char *p = pb_mmap_aligned(c->len, c->fsz, PROT_READ | PROT_WRITE,
				  MAP_SHARED, c->fd);

	if (!p)
		ksft_exit_fail_msg("mmap of %s: %s\n", path, strerror(errno));
	return p;
}

/*
 * The folios of @kb kB found mapped whole in [@p, @p + @len): a head page
 * at a PFN aligned to the folio, and every page of it mapped in order.
 */
static size_t folios_whole(const char *p, size_t len, size_t ppf)
{
	size_t n = len / pb_pagesize, i, j, whole = 0;
	uint64_t *pm = calloc(n, sizeof(*pm));

	if (!pm || pb_pagemap(pm_fd, p, n, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i + ppf <= n; i += ppf) {
		uint64_t pfn = pm[i] & PM_PFN_MASK;
		bool ok = (pm[i] & PM_PRESENT) && pfn && pfn % ppf == 0;

		if (ok && ppf > 1)
			ok = kpageflags_of(pfn) & KPF_COMPOUND_HEAD;
		else if (ok)
			ok = !(kpageflags_of(pfn) &
			       (KPF_COMPOUND_HEAD | KPF_COMPOUND_TAIL));
		for (j = 1; ok && j < ppf; j++)
			ok = (pm[i + j] & PM_PRESENT) &&
			     (pm[i + j] & PM_PFN_MASK) == pfn + j &&
			     (kpageflags_of(pfn + j) & KPF_COMPOUND_TAIL);
		/* The next folio must start a new one. */
		if (ok && i + ppf < n && ppf > 1 &&
		    (pm[i + ppf] & PM_PRESENT) &&
		    (kpageflags_of(pm[i + ppf] & PM_PFN_MASK) &
		     KPF_COMPOUND_TAIL))
			ok = false;
		whole += ok;
	}
	free(pm);
	return whole;
}

/* Write generation @gen of page @first + @step * k for every k. */
static void write_pages(struct mk_case *c, char *p, size_t first,
			size_t step, size_t npages, uint32_t gen,
			size_t file_page0)
{
	size_t i;

	for (i = first; i < npages; i += step) {
		pb_fill_page(p + i * pb_pagesize, file_page0 + i, gen);
		c->gens[file_page0 + i] = gen;
	}
}

#define KPF_DIRTY		BIT_ULL(4)

/* The folios of [@p, @p + @len) whose head page is dirty. */
static size_t folios_dirty(const char *p, size_t len, size_t ppf)
{
	size_t n = len / pb_pagesize, i, dirty = 0;
	uint64_t *pm = calloc(n, sizeof(*pm));

	if (!pm || pb_pagemap(pm_fd, p, n, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i < n; i += ppf)
		if ((pm[i] & PM_PRESENT) &&
		    (kpageflags_of(pm[i] & PM_PFN_MASK) & KPF_DIRTY))
			dirty++;
	free(pm);
	return dirty;
}

/*
 * The file read back with O_DIRECT (from the disk, after the kernel wrote
 * out whatever the page cache has marked dirty): every page of pages
 * [@first, @first + @n) holds its last data.
 */
static bool disk_ok(struct mk_case *c, size_t first, size_t n,
		    const char *when)
{
	int fd = open(path, O_RDONLY | O_DIRECT);
	size_t i, bad = 0;
	char what[64];
	void *buf;

	if (fd < 0 || posix_memalign(&buf, pb_pagesize, pb_pagesize))
		ksft_exit_fail_msg("O_DIRECT open of %s: %s\n", path,
				   strerror(errno));
	for (i = first; i < first + n; i++) {
		if (pread(fd, buf, pb_pagesize, i * pb_pagesize) !=
		    (ssize_t)pb_pagesize)
			ksft_exit_fail_msg("O_DIRECT pread: %s\n",
					   strerror(errno));
		if (pb_page_ok(buf, i, c->gens[i]))
			continue;
		if (!bad++) {
			pb_page_describe(buf, what, sizeof(what));
			ksft_print_msg("%dkB %s: on disk page %zu: %s, want gen %u\n",
				       c->kb, when, i, what, c->gens[i]);
		}
	}
	if (bad)
		ksft_print_msg("%dkB %s: %zu of %zu pages wrong on disk\n",
			       c->kb, when, bad, n);
	free(buf);
	close(fd);
	return !bad;
}

static void drop_page_cache(void)
{
	sync();
	if (pb_write_str("/proc/sys/vm/drop_caches", "3"))
		ksft_exit_fail_msg("dropping the page cache: %s\n",
				   strerror(errno));
}

/* The file read back with pread(): every page holds its last data. */
static bool file_ok(struct mk_case *c, const char *when)
{
	char *buf = malloc(pb_pagesize), what[64];
	size_t i, bad = 0;

	if (!buf)
		ksft_exit_fail_msg("malloc\n");
	for (i = 0; i < c->npages; i++) {
		if (pread(c->fd, buf, pb_pagesize, i * pb_pagesize) !=
		    (ssize_t)pb_pagesize)
			ksft_exit_fail_msg("pread: %s\n", strerror(errno));
		if (pb_page_ok(buf, i, c->gens[i]))
			continue;
		if (!bad++) {
			pb_page_describe(buf, what, sizeof(what));
			ksft_print_msg("%dkB %s: page %zu holds %s, expected id %zu gen %u\n",
				       c->kb, when, i, what, i, c->gens[i]);
		}
	}
	if (bad)
		ksft_print_msg("%dkB %s: %zu of %zu pages wrong\n", c->kb,
			       when, bad, c->npages);
	free(buf);
	return !bad;
}

/* Unmount the file system of dir and mount it again, as it was. */
static bool remount_dir(struct mk_case *c)
{
	char dev[256], mnt[256], type[64], line[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%255s %255s %63s", dev, mnt, type) == 3 &&
			!strcmp(mnt, dir);
	fclose(f);
	if (!found)
		return false;
	close(c->fd);
	c->fd = -1;
	if (umount(dir))
		return false;
	/* The later cases need the file system back. */
	if (mount(dev, dir, type, 0, NULL))
		ksft_exit_fail_msg("mount %s on %s: %s\n", dev, dir,
				   strerror(errno));
	c->fd = open(path, O_RDWR);
	return c->fd >= 0;
}

static void msync_or_exit(char *p, size_t len)
{
	if (msync(p, len, MS_SYNC))
		ksft_exit_fail_msg("msync: %s\n", strerror(errno));
}

/*
 * The end of a case: the last msync(), the file read back with O_DIRECT
 * while still mapped, then after munmap() and dropping the page cache.
 */
static enum pb_result mk_finish(struct mk_case *c, char *p, size_t len,
				const char *name)
{
	bool ok;

	msync_or_exit(p, len);
	ok = disk_ok(c, 0, c->npages, name);
	munmap(p, len);
	drop_page_cache();
	ok &= file_ok(c, name);
	close(c->fd);
	return ok ? PB_PASS : PB_FAIL;
}

static enum pb_result test_integrity(struct mk_case *c)
{
	long one0, all0, one, all;
	size_t whole;
	char *p;
	bool ok;

	mk_file(c, c->fsz);
	p = mk_map(c);
	write_pages(c, p, 0, 1, c->npages, 1, 0);
	whole = folios_whole(p, c->len, c->ppf);
	ksft_print_msg("integrity %dkB: %zu of %zu folios mapped whole\n",
		       c->kb, whole, c->len / c->fsz);
	one0 = pb_vmstat("nr_tlb_local_flush_one");
	all0 = pb_vmstat("nr_tlb_local_flush_all");
	msync_or_exit(p, c->len);
	one = pb_vmstat("nr_tlb_local_flush_one") - one0;
	all = pb_vmstat("nr_tlb_local_flush_all") - all0;
	if (one0 >= 0)
		ksft_print_msg("integrity %dkB: msync of %zu pages: %s +%ld, %s +%ld\n",
			       c->kb, c->npages, "nr_tlb_local_flush_one", one,
			       "nr_tlb_local_flush_all", all);
	ok = true;
#ifdef __x86_64__
	if (expect_batched && one0 < 0) {
		ksft_print_msg("integrity %dkB: no nr_tlb_* counters (CONFIG_DEBUG_TLBFLUSH)\n",
			       c->kb);
		ok = false;
	}
#endif
	if (expect_batched && one0 >= 0 && c->ppf > 33) {
		/* A flush of more than 33 pages flushes everything on x86. */
		if (all < (long)whole || one >= (long)c->npages / 2) {
			ksft_print_msg("integrity %dkB: not one flush per folio\n",
				       c->kb);
			ok = false;
		}
	}
	if (folios_dirty(p, c->len, c->ppf)) {
		ksft_print_msg("integrity %dkB: %zu folios dirty after msync\n",
			       c->kb, folios_dirty(p, c->len, c->ppf));
		ok = false;
	}
	if (c->kb > 4 && !whole) {
		ksft_print_msg("integrity %dkB: no folio of that size mapped\n",
			       c->kb);
		ok = false;
	}
	/*
	 * After writeback, a write must fault and dirty the folio again:
	 * every folio gets one (the last page of each), as a PTE left
	 * writable would let it through unseen.
	 */
	write_pages(c, p, c->ppf - 1, c->ppf, c->npages, 2, 0);
	if (folios_dirty(p, c->len, c->ppf) != c->len / c->fsz) {
		ksft_print_msg("integrity %dkB: %zu of %zu folios dirty after a write to each\n",
			       c->kb, folios_dirty(p, c->len, c->ppf),
			       c->len / c->fsz);
		ok = false;
	}
	write_pages(c, p, 1, 2, c->npages, 3, 0);
	msync_or_exit(p, c->len);
	ok &= disk_ok(c, 0, c->npages, "integrity");
	munmap(p, c->len);
	drop_page_cache();
	ok &= file_ok(c, "after drop_caches");
	if (remount) {
		if (!remount_dir(c)) {
			ksft_print_msg("integrity %dkB: remount failed\n", c->kb);
			ok = false;
		} else {
			ok &= file_ok(c, "after remount");
		}
	}
	close(c->fd);
	return ok ? PB_PASS : PB_FAIL;
}

struct racer {
	struct mk_case *c;
	char *p;
	bool stop;		/* read and written with __atomic builtins */
	unsigned long rounds;
};

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void pin_all(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *race_writer(void *arg)
{
	struct racer *r = arg;
	uint32_t gen = 2;

	pin_to(1);
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		write_pages(r->c, r->p, r->rounds % 3, 3, r->c->npages, gen++,
			    0);
		r->rounds++;
	}
	return NULL;
}

static enum pb_result test_race(struct mk_case *c)
{
	struct racer r = { .c = c };
	unsigned long syncs = 0;
	pthread_t t;
	uint64_t end;
	bool ok;

	mk_file(c, c->fsz);
	r.p = mk_map(c);
	write_pages(c, r.p, 0, 1, c->npages, 1, 0);
	pin_to(0);
	if (pthread_create(&t, NULL, race_writer, &r))
		ksft_exit_fail_msg("pthread_create\n");
	end = pb_now_ns() + race_secs * 1000000000ULL;
	while (pb_now_ns() < end) {
		msync_or_exit(r.p, c->len);
		syncs++;
	}
	__atomic_store_n(&r.stop, true, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	ksft_print_msg("race %dkB: %lu msync() against %lu rounds of writes\n",
		       c->kb, syncs, r.rounds);
	pin_all();
	ok = mk_finish(c, r.p, c->len, "race") == PB_PASS;
	return ok && r.rounds && syncs ? PB_PASS : PB_FAIL;
}

static enum pb_result test_softdirty(struct mk_case *c)
{
	uint64_t *pm = calloc(c->npages, sizeof(*pm));
	size_t i, bad = 0;
	char *p;

	if (!softdirty_supported()) {
		free(pm);
		return PB_SKIP;
	}
	mk_file(c, c->fsz);
	p = mk_map(c);
	/*
	 * Every PTE dirty and writable, then clean of soft-dirty and
	 * write-protected, still dirty; the first half of each folio (every
	 * other page of order-0 ones) faults again and gets soft-dirty.  The
	 * msync() then cleans runs of both kinds, each longer than one PTE.
	 */
	write_pages(c, p, 0, 1, c->npages, 1, 0);
	if (pb_write_str("/proc/self/clear_refs", "4"))
		ksft_exit_fail_msg("clear_refs: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++)
		if (c->ppf > 1 ? i % c->ppf < c->ppf / 2 : i % 2 == 0)
			write_pages(c, p, i, c->npages, c->npages, 2, 0);
	msync_or_exit(p, c->len);
	if (!pm || pb_pagemap(pm_fd, p, c->npages, pm))
		ksft_exit_fail_msg("pagemap: %s\n", strerror(errno));
	for (i = 0; i < c->npages; i++) {
		bool want = c->ppf > 1 ? i % c->ppf < c->ppf / 2 : i % 2 == 0;
		bool sd = pm[i] & PM_SOFT_DIRTY;

		if (want != sd && !bad++)
			ksft_print_msg("softdirty %dkB: page %zu %s soft-dirty\n",
				       c->kb, i, sd ? "is" : "is not");
	}
	if (bad)
		ksft_print_msg("softdirty %dkB: %zu of %zu pages wrong\n",
			       c->kb, bad, c->npages);
	if (mk_finish(c, p, c->len, "softdirty") != PB_PASS)
		bad++;
	free(pm);
	return bad ? PB_FAIL : PB_PASS;
}

static enum pb_result test_fork(struct mk_case *c)
{
	size_t i;
	int status;
	pid_t pid;
	char *p;

	mk_file(c, c->fsz);
	p = mk_map(c);
	write_pages(c, p, 0, 1, c->npages, 1, 0);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		pin_to(1);
		write_pages(c, p, 0, 2, c->npages, 3, 0);
		_exit(msync(p, c->len, MS_SYNC) ? 1 : 0);
	}
	pin_to(0);
	write_pages(c, p, 1, 2, c->npages, 4, 0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ksft_exit_fail_msg("child failed\n");
	pin_all();
	/* The child wrote the even pages; gens is the parent's copy. */
	for (i = 0; i < c->npages; i += 2)
		c->gens[i] = 3;
	/* The child's msync cleaned the parent's PTEs too: write again. */
	write_pages(c, p, 1, 2, c->npages, 5, 0);
	return mk_finish(c, p, c->len, "fork");
}

static enum pb_result test_twovma(struct mk_case *c)
{
	size_t f, half = c->fsz / 2;
	char *p;

	if (c->ppf < 2)
		return PB_SKIP;
	mk_file(c, c->fsz);
	p = mk_map(c);
	write_pages(c, p, 0, 1, c->npages, 1, 0);
	msync_or_exit(p, c->len);
	/* A VMA boundary in the middle of every folio. */
	for (f = 0; f < c->len; f += c->fsz)
		if (madvise(p + f + half, half, MADV_RANDOM))
			ksft_exit_fail_msg("madvise: %s\n", strerror(errno));
	write_pages(c, p, 0, 1, c->npages, 2, 0);
	msync_or_exit(p, c->len);
	write_pages(c, p, 0, 2, c->npages, 3, 0);
	return mk_finish(c, p, c->len, "twovma");
}

static enum pb_result test_partial(struct mk_case *c)
{
	size_t off, len, first;
	char *p;

	if (c->ppf < 2)
		return PB_SKIP;
	mk_file(c, c->fsz);
	/* From the middle of the first folio to the middle of the last. */
	off = c->fsz / 2;
	len = c->len - c->fsz;
	first = off / pb_pagesize;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, off);
	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	write_pages(c, p, 0, 1, len / pb_pagesize, 1, first);
	msync_or_exit(p, len);
	write_pages(c, p, 1, 2, len / pb_pagesize, 2, first);
	return mk_finish(c, p, len, "partial");
}

static enum pb_result test_mixed(struct mk_case *c)
{
	char *p;

	mk_file(c, 0);
	p = mk_map(c);
	write_pages(c, p, 0, 1, c->npages, 1, 0);
	msync_or_exit(p, c->len);
	write_pages(c, p, 0, 5, c->npages, 2, 0);
	return mk_finish(c, p, c->len, "mixed");
}

static sigjmp_buf bus_jmp;
static __thread bool bus_armed;

static void on_sigbus(int sig)
{
	if (bus_armed)
		siglongjmp(bus_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

struct truncer {
	struct mk_case *c;
	char *p;
	bool stop;		/* read and written with __atomic builtins */
	size_t next;		/* the page to write next, kept across SIGBUS */
	unsigned long rounds, faults;
};

static void *trunc_writer(void *arg)
{
	struct truncer *t = arg;

	pin_to(1);
	bus_armed = true;
	while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED)) {
		/* A page past the end of the file is skipped. */
		if (sigsetjmp(bus_jmp, 1)) {
			t->faults++;
			t->next++;
			continue;
		}
		while (t->next < t->c->npages &&
		       !__atomic_load_n(&t->stop, __ATOMIC_RELAXED)) {
			pb_fill_page(t->p + t->next * pb_pagesize, t->next, 5);
			t->next++;
		}
		t->next = 0;
		t->rounds++;
	}
	bus_armed = false;
	return NULL;
}

static enum pb_result test_truncate(struct mk_case *c)
{
	struct truncer t = { .c = c };
	unsigned long cuts = 0;
	char *buf, what[64];
	size_t i, bad = 0;
	pthread_t th;
	uint64_t end;

	mk_file(c, c->fsz);
	t.p = mk_map(c);
	signal(SIGBUS, on_sigbus);
	pin_to(0);
	if (pthread_create(&th, NULL, trunc_writer, &t))
		ksft_exit_fail_msg("pthread_create\n");
	end = pb_now_ns() + race_secs * 1000000000ULL;
	while (pb_now_ns() < end) {
		if (ftruncate(c->fd, c->len / 2) || ftruncate(c->fd, c->len))
			ksft_exit_fail_msg("ftruncate: %s\n", strerror(errno));
		msync(t.p, c->len, MS_SYNC);
		cuts++;
	}
	__atomic_store_n(&t.stop, true, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	signal(SIGBUS, SIG_DFL);
	pin_all();
	msync_or_exit(t.p, c->len);
	munmap(t.p, c->len);
	drop_page_cache();
	ksft_print_msg("truncate %dkB: %lu truncations against %lu rounds of writes, %lu SIGBUS\n",
		       c->kb, cuts, t.rounds, t.faults);
	/*
	 * Each word of a page: zero (cut and not written since), or the word
	 * of its own data, first or last generation: a page can be cut while
	 * the writer is in the middle of it.
	 */
	buf = malloc(3 * pb_pagesize);
	for (i = 0; buf && i < c->npages; i++) {
		const uint64_t *w = (const uint64_t *)buf;
		const uint64_t *g5 = w + pb_pagesize / 8;
		const uint64_t *g0 = w + 2 * pb_pagesize / 8;
		size_t k, wrong = 0;

		if (pread(c->fd, buf, pb_pagesize, i * pb_pagesize) !=
		    (ssize_t)pb_pagesize)
			ksft_exit_fail_msg("pread: %s\n", strerror(errno));
		pb_fill_page(buf + pb_pagesize, i, 5);
		pb_fill_page(buf + 2 * pb_pagesize, i, 0);
		for (k = 0; k < pb_pagesize / 8; k++)
			wrong += w[k] && w[k] != g5[k] && w[k] != g0[k];
		if (!wrong)
			continue;
		if (!bad++) {
			pb_page_describe(buf, what, sizeof(what));
			ksft_print_msg("truncate %dkB: page %zu holds %s\n",
				       c->kb, i, what);
		}
	}
	free(buf);
	close(c->fd);
	return bad || !cuts ? PB_FAIL : PB_PASS;
}

static const struct {
	const char *name;
	enum pb_result (*fn)(struct mk_case *c);
} cases[] = {
	{ "integrity", test_integrity },
	{ "race", test_race },
	{ "softdirty", test_softdirty },
	{ "fork", test_fork },
	{ "twovma", test_twovma },
	{ "partial", test_partial },
	{ "mixed", test_mixed },
	{ "truncate", test_truncate },
};

static bool wanted(const char *name, char **only, int nonly)
{
	int i;

	for (i = 0; i < nonly; i++)
		if (!strcmp(only[i], name))
			return true;
	return !nonly;
}

int main(int argc, char **argv)
{
	int sizes[PB_MAX_SIZES], nsizes = 0, nonly = 0, opt, i;
	size_t pmd = read_pmd_pagesize();
	char *only[16];
	unsigned int k;

	while ((opt = getopt(argc, argv, "d:s:m:t:r:bR")) != -1) {
		switch (opt) {
		case 'd':
			dir = optarg;
			break;
		case 't':
			if (nonly < 16)
				only[nonly++] = optarg;
			break;
		case 'r':
			race_secs = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			expect_batched = true;
			break;
		case 'R':
			remount = true;
			break;
		default:
			if (pb_size_opt(opt, optarg, sizes, &nsizes,
					&region_mib))
				break;
			fprintf(stderr, "usage: %s -d dir [-s size_kb]... %s\n",
				argv[0],
				"[-m region_mib] [-t case]... [-r secs] [-b] [-R]");
			return KSFT_FAIL;
		}
	}
	if (!nsizes) {
		sizes[nsizes++] = 4;
		sizes[nsizes++] = 64;
		sizes[nsizes++] = 1024;
	}

	pb_init();
	ksft_print_header();
	if (!dir)
		ksft_exit_skip("no file system given (-d dir)\n");
	if (geteuid())
		ksft_exit_skip("needs root (PFNs, kpageflags, drop_caches)\n");
	pm_fd = pb_pagemap_open();
	kpf_fd = open("/proc/kpageflags", O_RDONLY);
	if (pm_fd < 0 || kpf_fd < 0)
		ksft_exit_skip("pagemap or kpageflags: %s\n", strerror(errno));
	for (k = 0, i = 0; k < ARRAY_SIZE(cases); k++)
		i += wanted(cases[k].name, only, nonly);
	ksft_set_plan(i * nsizes);

	for (i = 0; i < nsizes; i++) {
		struct mk_case c = { .kb = sizes[i] };

		c.fsz = (size_t)sizes[i] * 1024;
		/* A page cache folio of the PMD size is mapped by a PMD. */
		if (pmd && c.fsz >= pmd) {
			for (k = 0; k < ARRAY_SIZE(cases); k++)
				if (wanted(cases[k].name, only, nonly))
					ksft_test_result_skip("%s %dkB: PMD-mapped\n",
							      cases[k].name,
							      sizes[i]);
			continue;
		}
		c.ppf = c.fsz / pb_pagesize;
		c.len = region_mib << 20;
		if (c.len < 8 * c.fsz)
			c.len = 8 * c.fsz;
		c.npages = c.len / pb_pagesize;
		c.gens = calloc(c.npages, sizeof(*c.gens));
		if (!c.gens || !c.ppf)
			ksft_exit_fail_msg("bad size %d\n", sizes[i]);
		for (k = 0; k < ARRAY_SIZE(cases); k++) {
			uint64_t t0 = pb_now_ns();

			if (!wanted(cases[k].name, only, nonly))
				continue;
			pb_case_report(cases[k].name, c.kb, cases[k].fn(&c), t0);
		}
		free(c.gens);
	}
	unlink(path);
	ksft_finished();
}
