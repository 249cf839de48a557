/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the pgtable_batch guest tests: mTHP size control and
 * statistics, pagemap, swap accounting and the per-page data pattern.
 */
#ifndef PB_GUEST_COMMON_H
#define PB_GUEST_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif

#define PM_SOFT_DIRTY	BIT_ULL(55)
#define PM_UFFD_WP	BIT_ULL(57)
#define PM_SWAP		BIT_ULL(62)
#define PM_PRESENT	BIT_ULL(63)

#define PB_MAX_SIZES	16

extern size_t pb_pagesize;

void pb_init(void);

/*
 * Anonymous mTHP sizes in kB offered by the kernel, ascending; returns the
 * count.
 */
int pb_mthp_sizes(int *kb, int max);
/* Remember every mTHP knob so pb_mthp_restore() can put it back. */
void pb_mthp_save(void);
void pb_mthp_restore(void);
/* Call pb_mthp_restore() at exit and on SIGINT/SIGTERM. */
void pb_mthp_restore_at_exit(void);
/*
 * Enable exactly the anon (and, with @shmem, anonymous-shmem) mTHP sizes in
 * @kb[0..n-1] ("always") and disable all others, the PMD size included.
 * Returns 0 or -1 if a knob could not be written.
 */
int pb_mthp_set(const int *kb, int n, bool shmem);
/* stats/<name> of one mTHP size; 0 if absent. */
unsigned long pb_mthp_stat(int kb, const char *name);
/* Sum of stats/<name> over every size. */
unsigned long pb_mthp_stat_all(const char *name);
/* Read a sysfs/procfs file into @buf (NUL-terminated); 0 or -1. */
int pb_read_str(const char *path, char *buf, size_t len);
/* Write @val to a sysfs/procfs file; 0 or -1 (also on a short write). */
int pb_write_str(const char *path, const char *val);
/* A /proc/vmstat counter, -1 if absent (no CONFIG_VM_EVENT_COUNTERS). */
long pb_vmstat(const char *name);
/* A /proc/meminfo field in kB, -1 if absent. */
long pb_meminfo(const char *name);
/* Path of the first active swap device, NULL if none. */
const char *pb_swap_dev(void);
/*
 * swapoff() in a child so that a swapoff that cannot finish (leaked swap
 * counts) is interrupted after @timeout_s seconds instead of hanging.
 * Returns 0, a positive errno, or -1 on timeout.
 */
int pb_swapoff_timed(const char *dev, int timeout_s);
int pb_swapon(const char *dev);
/*
 * Drain the per-CPU LRU add batches of every CPU (drop_caches does that
 * first).  An order-0 folio that failed to be reclaimed is put back
 * through the batch of the CPU that reclaimed it; until that batch is
 * drained, MADV_PAGEOUT from another CPU cannot isolate it.
 */
void pb_lru_drain_all(void);

/* Swap "Swap:" of the smaps entry that contains @addr, in kB; -1 if none. */
long pb_smaps_swap_kb(const void *addr);

/* Clear the soft-dirty bits of this process (clear_refs 4); 0 or -1. */
int pb_clear_soft_dirty(void);

int pb_pagemap_open(void);
/* Read @n pagemap entries from @addr; returns 0 or -1. */
int pb_pagemap(int fd, const void *addr, size_t n, uint64_t *out);
/* Count of pages in [addr, addr + n pages) whose entry has all @bits set. */
size_t pb_pagemap_count(int fd, const void *addr, size_t n, uint64_t bits);

/*
 * The folio sizes in kB a test program runs through: 4 (order-0), then
 * every anonymous mTHP size from 16K to 1M the kernel offers, or only
 * those among @req[0..@nreq-1] if @nreq.  Returns the count (at most
 * PB_MAX_SIZES + 1); *@offered gets the number of sizes offered.
 */
int pb_test_sizes(int *sizes, const int *req, int nreq, int *offered);

/* The region a test case works on, for one folio size. */
struct pb_ctx {
	int kb;			/* folio size in kB, 4 for order-0 */
	size_t fsz;		/* folio size in bytes */
	size_t ppf;		/* pages per folio */
	size_t len;		/* region length */
	size_t npages;
	int pm;			/* pagemap fd */
};

/*
 * @region_mib MiB, at least 8 folios of @kb kB, whole folios; opens the
 * pagemap (exits on failure).
 */
void pb_ctx_init(struct pb_ctx *c, int kb, size_t region_mib);

/* The outcome of one case of a program that runs its cases per size. */
enum pb_result { PB_PASS, PB_FAIL, PB_SKIP };

/*
 * The options every such program takes: -s size_kb (repeatable, into
 * @req[*@nreq]) and -m region_mib.  Returns false for any other option.
 */
bool pb_size_opt(int opt, const char *arg, int *req, int *nreq,
		 size_t *region_mib);

/*
 * A private anonymous read-write mapping of the case's region, aligned to
 * its folio size, and one zeroed generation counter per page of it (both
 * exit on failure).
 */
char *pb_region(const struct pb_ctx *c);
uint32_t *pb_gens(const struct pb_ctx *c);

/* mmap @len bytes aligned to @align. */
void *pb_mmap_aligned(size_t len, size_t align, int prot, int flags, int fd);

/*
 * The data pattern: every 8-byte word of a page depends on a page id, a
 * generation and the word's position, and no page content is all zero.
 */
void pb_fill_page(void *page, uint32_t id, uint32_t gen);
bool pb_page_ok(const void *page, uint32_t id, uint32_t gen);
bool pb_page_zero(const void *page);
/* Describe what a page holds instead ("zero", "id 12 gen 3", "garbage"). */
void pb_page_describe(const void *page, char *buf, size_t len);

/* Nanoseconds from CLOCK_MONOTONIC. */
uint64_t pb_now_ns(void);

#ifdef KSFT_PASS
/*
 * Print the case's time since @t0_ns and its KTAP result line.  Inline:
 * kselftest.h keeps its counters per program file, so this must run in
 * the one that calls ksft_finished().
 */
static inline void pb_case_report(const char *name, int kb, enum pb_result r,
				  uint64_t t0_ns)
{
	ksft_print_msg("%s %dkB: %.2f s\n", name, kb, (pb_now_ns() - t0_ns) / 1e9);
	if (r == PB_PASS)
		ksft_test_result_pass("%s %dkB\n", name, kb);
	else if (r == PB_FAIL)
		ksft_test_result_fail("%s %dkB\n", name, kb);
	else
		ksft_test_result_skip("%s %dkB\n", name, kb);
}
#endif

#endif /* PB_GUEST_COMMON_H */
