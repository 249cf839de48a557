// SPDX-License-Identifier: GPL-2.0
/*
 * pb_bench - time the unmapping of anonymous large folios.
 *
 * Each subcommand reproduces one of the microbenchmarks quoted in the
 * postings that introduced batched unmapping of large folios:
 *
 *   pageout  mmap, memset(0), time madvise(MADV_PAGEOUT) (256 MiB)
 *   lazyfree mmap, memset(1), madvise(MADV_FREE), time
 *            madvise(MADV_PAGEOUT) (128 MiB)
 *   madvfree mmap, memset(1), time madvise(MADV_FREE) (1 GiB)
 *   munmap   mmap, memset(1), time munmap() of PTE-mapped folios (1 GiB)
 *   mixed    mmap, memset(0), fork(), the child exits, the parent rewrites
 *            one page per folio so that every folio mixes AnonExclusive
 *            and shared-looking pages, time madvise(MADV_PAGEOUT) (256 MiB)
 *   migrate  mmap, memset(1), time move_pages() of every page to the other
 *            NUMA node, then time move_pages() back (256 MiB); the two
 *            legs are reported as "migrate" and "migrate_back"
 *   unmap1   mmap of order-0 pages, memset(1), time munmap() of every
 *            other page, one page per call (4 MiB): the known count of
 *            the TLB counting method (one single-page invalidation per
 *            call, no page table freed)
 *   mkclean  a file on the file system at -D (ext4, XFS) written with
 *            pwrite() in chunks of the folio size, so that its page cache
 *            holds folios of that size, mapped MAP_SHARED; each run
 *            dirties every page through the mapping, then writes it back
 *            (256 MiB): "mkclean" times sync_file_range(SYNC_FILE_RANGE_
 *            WRITE), the start of the writeback, which write-protects and
 *            cleans every PTE (folio_mkclean()) and submits the I/O, and
 *            "mkclean_wait" the msync(MS_SYNC) that then waits for it
 *            (the guest idles there, which -icount does not count in
 *            instructions; its counters span both, since the I/O ends
 *            in either)
 *
 * The seed programs fill the region with memset(); Linux 7.3 does not
 * write zero-filled folios to swap but records them as zero (the
 * swpout_zero event, no mTHP swpout), so with the seed's memset(0) the
 * MADV_PAGEOUT workloads time the unmap and the zero check, not the
 * compression.  -f picks another byte.
 *
 * The folio size is chosen by the caller through the sysfs mTHP controls
 * (-s only names the size to account for), except for mkclean, whose -s
 * is the size of the file's folios (order-0 below 2 pages); its samples
 * carry "folios_whole", the folios of that size the mapping was found to
 * map whole (pagemap and /proc/kpageflags).  For every timed run one line
 *
 *   PB-SAMPLE {"bench":...,"size_kb":...,"run":...,"warmup":...,"ns":...}
 *
 * is printed, carrying the deltas over the timed region of the per-size
 * mTHP statistics and of the /proc/vmstat events that show which path ran,
 * plus "setup_" deltas over the population of the region (folio
 * allocations, PMD splits).  Results are reported as KTAP.
 *
 * A migrate sample also carries "moved": how many pages move_pages() found
 * on the target node afterwards (asked in a second, untimed call: its
 * statuses of the move itself are per folio, not per page, for large
 * folios).
 *
 * With -t, one more untimed run traces the tlb:tlb_flush event (x86 with
 * tracing) over the unmap and prints
 *
 *   PB-TLB {"bench":...,"folios":...,"flushes":...,"flushed_pages":...,...}
 *
 * nr_tlb_local_flush_one counts invalidated pages, one flush of a 16-page
 * range as much as 16 flushes of one page; the event fires once per flush.
 * "flushes" counts the flushes of the unmapping CPU, "full_flushes" those
 * of them that flushed everything, "flushed_pages" the pages of the others.
 * The run also executes the tlbcount markers (pb_tlb_mark()) around the
 * unmap, so that a QEMU run with workspace/tlbcount.c counts its TLB
 * maintenance instructions; PB-TLB then says "marked":1 (and "traced":0
 * where the kernel has no tlb:tlb_flush event: arm64, riscv64).  -r 0
 * with -t runs the counted run alone.  -T is -t without the tracing: a
 * run profiled by the plugin then counts no tracer's instructions.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MADV_FREE
#define MADV_FREE 8
#endif
#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
#ifndef MPOL_PREFERRED
#define MPOL_PREFERRED 1
#endif
#ifndef MPOL_MF_MOVE
#define MPOL_MF_MOVE (1 << 1)
#endif

#ifndef MADV_NOHUGEPAGE
#define MADV_NOHUGEPAGE 15
#endif

#define THP_SYSFS	"/sys/kernel/mm/transparent_hugepage"
#define PATTERN_MAGIC	0x5042424e43480000ULL	/* "PBBNCH" */

enum bench_kind {
	BENCH_PAGEOUT,
	BENCH_LAZYFREE,
	BENCH_MADVFREE,
	BENCH_MUNMAP,
	BENCH_MIXED,
	BENCH_MIGRATE,
	BENCH_UNMAP1,
	BENCH_MKCLEAN,
};

struct bench_desc {
	const char *name;
	enum bench_kind kind;
	unsigned long default_mib;
	int fill;		/* memset() value of the seed program */
	bool pte_map_pmd;	/* PTE-map PMD-sized folios by default */
};

static const struct bench_desc benches[] = {
	{ "pageout",	BENCH_PAGEOUT,	256,  0, false },
	{ "lazyfree",	BENCH_LAZYFREE,	128,  1, false },
	{ "madvfree",	BENCH_MADVFREE,	1024, 1, false },
	{ "munmap",	BENCH_MUNMAP,	1024, 1, true },
	{ "mixed",	BENCH_MIXED,	256,  0, false },
	{ "migrate",	BENCH_MIGRATE,	256,  1, true },
	{ "unmap1",	BENCH_UNMAP1,	4,    1, false },
	{ "mkclean",	BENCH_MKCLEAN,	256,  1, false },
};

/*
 * The markers of workspace/tlbcount.c (a QEMU TCG plugin): instructions
 * that do nothing, whose encoding the plugin recognises.  It counts the
 * TLB maintenance every vCPU executes between the start (@stop false) and
 * the stop marker.
 */
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
#define PB_TLB_MARKED	1
#else
#define PB_TLB_MARKED	0	/* no markers: nothing for the plugin to count */
#endif

static inline void pb_tlb_mark(bool stop)
{
#if defined(__x86_64__)
	if (stop)
		asm volatile("nopl 0x50425402(%%rax,%%rax,1)" ::: "memory");
	else
		asm volatile("nopl 0x50425401(%%rax,%%rax,1)" ::: "memory");
#elif defined(__aarch64__)
	if (stop)
		asm volatile(".inst 0xd28b605f" ::: "memory");	/* movz xzr, #0x5b02 */
	else
		asm volatile(".inst 0xd28b603f" ::: "memory");	/* movz xzr, #0x5b01 */
#elif defined(__riscv)
	if (stop)
		asm volatile(".insn i 0x13, 0, zero, zero, 0x5b2" ::: "memory");
	else
		asm volatile(".insn i 0x13, 0, zero, zero, 0x5b1" ::: "memory");
#endif
}

/* Events from /proc/vmstat; the nr_tlb_* ones exist with DEBUG_TLBFLUSH. */
static const char * const vmstat_keys[] = {
	"pswpout", "pswpin", "swpout_zero", "thp_swpout", "thp_swpout_fallback",
	"pglazyfree", "pglazyfreed", "thp_split_pmd", "thp_split_page",
	"thp_deferred_split_page",
	"nr_tlb_remote_flush", "nr_tlb_remote_flush_received",
	"nr_tlb_local_flush_all", "nr_tlb_local_flush_one",
	"pgmigrate_success", "pgmigrate_fail", "thp_migration_success",
	"thp_migration_fail", "thp_migration_split", "nr_written",
};

#define NR_VMSTAT ARRAY_SIZE(vmstat_keys)

/* Per-size statistics under hugepages-<size>kB/stats/. */
static const char * const mthp_keys[] = {
	"swpout", "swpout_fallback", "split_deferred", "split",
	"split_failed", "anon_fault_alloc", "anon_fault_fallback",
	"nr_anon", "nr_anon_partially_mapped",
};

#define NR_MTHP ARRAY_SIZE(mthp_keys)

/* The statistics also reported over the setup ("setup_" prefix). */
static const bool mthp_setup[NR_MTHP] = {
	[2] = true, [3] = true, [5] = true, [6] = true,
};

struct counters {
	long long vm[NR_VMSTAT];
	long long mthp[NR_MTHP];
};

static bool vm_present[NR_VMSTAT];
static bool mthp_present[NR_MTHP];
static char mthp_dir[128];
static size_t page_size;

enum run_kind {
	RUN_TIMED,
	RUN_WARMUP,
	RUN_TLB,	/* untimed, with the tlb:tlb_flush event traced */
};

struct options {
	const struct bench_desc *bench;
	unsigned long size_kb;
	unsigned long mib;
	int runs;
	int warmups;
	bool pte_map_pmd;
	int fill;
	bool madv_hugepage;
	bool verify;
	bool trace_tlb;
	bool no_trace;		/* -T: the counted run is not traced */
	const char *dir;	/* mkclean: the file system of the file */
};

static long long read_ll(const char *path, bool *ok)
{
	long long val = 0;
	FILE *f = fopen(path, "r");

	*ok = false;
	if (!f)
		return 0;
	if (fscanf(f, "%lld", &val) == 1)
		*ok = true;
	fclose(f);
	return val;
}

static void read_vmstat(long long *vals, bool *present)
{
	char key[64];
	long long val;
	FILE *f = fopen("/proc/vmstat", "r");
	size_t i;

	for (i = 0; i < NR_VMSTAT; i++) {
		vals[i] = 0;
		if (present)
			present[i] = false;
	}
	if (!f)
		return;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		for (i = 0; i < NR_VMSTAT; i++) {
			if (strcmp(key, vmstat_keys[i]))
				continue;
			vals[i] = val;
			if (present)
				present[i] = true;
		}
	}
	fclose(f);
}

static void snapshot(struct counters *c)
{
	char path[256];
	bool ok;
	size_t i;

	read_vmstat(c->vm, NULL);
	for (i = 0; i < NR_MTHP; i++) {
		c->mthp[i] = 0;
		if (!mthp_present[i])
			continue;
		snprintf(path, sizeof(path), "%s/stats/%s", mthp_dir,
			 mthp_keys[i]);
		c->mthp[i] = read_ll(path, &ok);
	}
}

static void probe_counters(unsigned long size_kb)
{
	long long vals[NR_VMSTAT];
	char path[256];
	bool ok;
	size_t i;

	read_vmstat(vals, vm_present);
	mthp_dir[0] = '\0';
	if (size_kb * 1024 == page_size)
		return;
	snprintf(mthp_dir, sizeof(mthp_dir), THP_SYSFS "/hugepages-%lukB",
		 size_kb);
	for (i = 0; i < NR_MTHP; i++) {
		snprintf(path, sizeof(path), "%s/stats/%s", mthp_dir,
			 mthp_keys[i]);
		read_ll(path, &ok);
		mthp_present[i] = ok;
	}
}

/* Return the bracketed word of a sysfs policy file, or "" if unreadable. */
static void read_policy(const char *path, char *buf, size_t len)
{
	char line[256], *open, *close;
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		open = strchr(line, '[');
		close = open ? strchr(open, ']') : NULL;
		if (open && close) {
			*close = '\0';
			snprintf(buf, len, "%s", open + 1);
		}
	}
	fclose(f);
}

#define CLOCKSOURCE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

/* First line of @path without the newline, or "" if unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static long long meminfo_kb(const char *key)
{
	char name[64];
	long long val;
	FILE *f = fopen("/proc/meminfo", "r");
	long long ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld kB", name, &val) == 2) {
		if (!strncmp(name, key, strlen(key)) &&
		    name[strlen(key)] == ':') {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

static unsigned long pmd_size(void)
{
	bool ok;
	long long v = read_ll(THP_SYSFS "/hpage_pmd_size", &ok);

	return ok && v > 0 ? (unsigned long)v : 2UL << 20;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Map @len bytes aligned to @align so that every folio of the chosen size
 * lies entirely inside the VMA and no folio straddles a page table.
 */
static char *map_aligned(size_t len, size_t align)
{
	size_t total = len + align;
	uintptr_t raw, start;
	void *p;

	p = mmap(NULL, total, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	raw = (uintptr_t)p;
	start = (raw + align - 1) & ~(uintptr_t)(align - 1);
	if (start > raw)
		munmap(p, start - raw);
	if (raw + total > start + len)
		munmap((void *)(start + len), raw + total - (start + len));
	return (char *)start;
}

static void populate(char *p, size_t len, int fill, bool pattern)
{
	size_t off;

	memset(p, fill, len);
	if (!pattern)
		return;
	for (off = 0; off < len; off += page_size)
		*(uint64_t *)(p + off) = PATTERN_MAGIC ^ off;
}

/* The page of folio @i rewritten by the mixed workload. */
static size_t mixed_page(size_t i, size_t folio_bytes)
{
	size_t pages = folio_bytes / page_size;

	return i * folio_bytes + (i % pages) * page_size;
}

static int verify(const char *p, size_t len, size_t folio_bytes, bool mixed)
{
	size_t off, i, bad = 0;
	uint64_t want;

	for (off = 0; off < len; off += page_size) {
		want = PATTERN_MAGIC ^ off;
		if (*(const uint64_t *)(p + off) != want) {
			if (!bad)
				ksft_print_msg("page at +%zu: %#llx != %#llx\n", off,
					       (unsigned long long)*(const uint64_t *)(p + off),
					       (unsigned long long)want);
			bad++;
		}
	}
	if (mixed) {
		for (i = 0; i < len / folio_bytes; i++) {
			off = mixed_page(i, folio_bytes);
			if (*(const uint64_t *)(p + off + 8) != ~(uint64_t)off) {
				if (!bad)
					ksft_print_msg("rewritten page at +%zu lost its data\n",
						       off);
				bad++;
			}
		}
	}
	return bad ? -1 : 0;
}

/*
 * Turn the PMD mappings of PMD-sized folios into PTE mappings: changing the
 * protection of part of a PMD splits it.  The part is 64 KiB, one arm64
 * contpte block, and not one page: a block whose first PTE alone changes
 * is unfolded and never folded again, and folio_pte_batch() stops where
 * PTE_CONT changes, so munmap() would zap every folio in two batches and
 * queue it for deferred split.  Changing the whole block refolds it.
 */
static int pte_map(char *p, size_t len)
{
	size_t pmd = pmd_size(), off;
	size_t part = 64 * 1024;

	for (off = 0; off < len; off += pmd) {
		if (mprotect(p + off, part, PROT_READ))
			return -1;
		if (mprotect(p + off, part, PROT_READ | PROT_WRITE))
			return -1;
	}
	return 0;
}

static const char * const tracing_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

static char trace_dir[64];
static bool tlb_traced;		/* the counted run traces tlb:tlb_flush */
static char trace_buf_kb[32];	/* buffer_size_kb as found, to restore */

/* Read a tracefs file's first line, without its newline. */
static int trace_read(const char *file, char *buf, size_t size)
{
	char path[160];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", trace_dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int trace_write(const char *file, const char *val)
{
	char path[160];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", trace_dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -1;
	close(fd);
	return ret;
}

/* Find the tlb:tlb_flush event and prepare an empty, stopped buffer. */
static bool tlb_trace_setup(void)
{
	char path[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracing_dirs); i++) {
		snprintf(path, sizeof(path), "%s/events/tlb/tlb_flush/enable",
			 tracing_dirs[i]);
		if (!access(path, W_OK)) {
			snprintf(trace_dir, sizeof(trace_dir), "%s",
				 tracing_dirs[i]);
			break;
		}
	}
	if (!trace_dir[0])
		return false;
	if (trace_read("buffer_size_kb", trace_buf_kb, sizeof(trace_buf_kb)))
		return false;
	/* Room for one event per page of the region on every CPU. */
	return !trace_write("tracing_on", "0") &&
	       !trace_write("buffer_size_kb", "8192") &&
	       !trace_write("events/enable", "0") &&
	       !trace_write("trace", "") &&
	       !trace_write("events/tlb/tlb_flush/enable", "1");
}

/*
 * What the counted unmap1 run must give, by construction: @n munmap()s of
 * one page each, a page whose neighbours stay mapped, by a process that
 * runs on one CPU (pinned before its mm was made) and never ran elsewhere.
 * Each is one invalidation of one user page on that CPU, and frees no page
 * table: x86 INVLPG in one flush_tlb_func() run (less the INVLPGs of
 * kernel pages, flush_tlb_one_kernel(), which KFENCE or a vmalloc purge
 * may issue meanwhile), arm64 TLBI VALE1IS (by address, last level, inner
 * shareable; kernel pages are invalidated with VAALE1IS), riscv64
 * SFENCE.VMA with an address.  The "self:" counts are those of the CPU
 * that ran the region.  workspace/tlbcount.py checks them.
 *
 * No expectation where the count is not known by construction: with a
 * kernel page table isolation (user pages invalidated twice) or NUMA
 * balancing on (its scanner may change PTEs meanwhile).
 */
static void unmap1_expect(size_t n)
{
	char buf[128] = "";
	long long numa;
	bool ok;

	read_line("/sys/devices/system/cpu/vulnerabilities/meltdown", buf,
		  sizeof(buf));
	numa = read_ll("/proc/sys/kernel/numa_balancing", &ok);
	if (strstr(buf, "PTI") || numa > 0) {
		printf("\"expect_skipped\":\"%s\",", numa > 0 ?
		       "numa_balancing" : "page table isolation");
		return;
	}
#if defined(__x86_64__)
	printf("\"expect\":{\"self:invlpg-fn_flush_tlb_one_kernel\":%zu,", n);
	printf("\"self:fn_flush_tlb_func\":%zu},", n);
#elif defined(__aarch64__)
	printf("\"expect\":{\"self:tlbi_vale1is\":%zu},", n);
#elif defined(__riscv)
	printf("\"expect\":{\"self:sfence_vma_addr+sfence_vma_addr_asid\":%zu},", n);
#endif
}

/*
 * The counted region of a RUN_TLB run: the trace on (where traced) and the
 * start marker, then the stop marker and the trace off.  Other runs pass.
 */
static void tlb_region(enum run_kind how, bool end)
{
	if (how != RUN_TLB)
		return;
	if (!end && tlb_traced)
		trace_write("tracing_on", "1");
	pb_tlb_mark(end);
	if (end && tlb_traced)
		trace_write("tracing_on", "0");
}

/* Reasons of the tlb_flush event (enum tlb_flush_reason). */
enum {
	TLB_REASON_TASK_SWITCH,
	TLB_REASON_REMOTE_SHOOTDOWN,
	TLB_REASON_LOCAL_SHOOTDOWN,
	TLB_REASON_LOCAL_MM_SHOOTDOWN,
	TLB_REASON_REMOTE_SEND_IPI,
	TLB_REASON_REMOTE_WRONG_CPU,
	NR_TLB_REASONS,
};

/*
 * Count the traced flushes and print them with the folio and swap-out
 * counts of the run.  A flush the unmapping CPU does itself is a local
 * (mm) shootdown; a flush of other CPUs adds one "send IPI" event there
 * and one "remote shootdown" event on every CPU that takes the IPI.
 */
static void tlb_trace_report(const struct options *o,
			     const struct counters *t0,
			     const struct counters *t1)
{
	bool traced = tlb_traced;
	long long calls[NR_TLB_REASONS] = { 0 }, pages[NR_TLB_REASONS] = { 0 };
	long long full[NR_TLB_REASONS] = { 0 }, in_buf = -1, written = -1, n;
	size_t len = (size_t)o->mib << 20;
	char path[160], line[512], *q;
	int reason;
	size_t i;
	FILE *f;

	if (!traced)
		goto print;
	trace_write("events/tlb/tlb_flush/enable", "0");
	snprintf(path, sizeof(path), "%s/trace", trace_dir);
	f = fopen(path, "r");
	if (!f) {
		/* The region was counted all the same: report it. */
		ksft_print_msg("cannot read %s\n", path);
		traced = false;
		goto print;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			q = strstr(line, "entries-written:");
			if (q)
				sscanf(q, "entries-written: %lld/%lld", &in_buf,
				       &written);
			continue;
		}
		q = strstr(line, "tlb_flush: pages:");
		if (!q || sscanf(q, "tlb_flush: pages:%lld", &n) != 1)
			continue;
		q = strrchr(line, '(');
		if (!q || sscanf(q, "(%d)", &reason) != 1 || reason < 0 ||
		    reason >= NR_TLB_REASONS)
			continue;
		calls[reason]++;
		if (n < 0)
			full[reason]++;
		else
			pages[reason] += n;
	}
	fclose(f);
	trace_write("trace", "");
	trace_write("buffer_size_kb", trace_buf_kb);

print:
	printf("PB-TLB {\"bench\":\"%s\",\"size_kb\":%lu,\"mib\":%lu,",
	       o->bench->name, o->size_kb, o->mib);
	printf("\"folios\":%zu,\"pages\":%zu,\"marked\":%d,",
	       len / (o->size_kb * 1024), len / page_size, PB_TLB_MARKED);
	if (o->bench->kind == BENCH_UNMAP1)
		unmap1_expect(len / page_size / 2);
	if (!traced)
		goto counters;
	printf("\"flushes\":%lld,\"flushed_pages\":%lld,\"full_flushes\":%lld,",
	       calls[TLB_REASON_LOCAL_SHOOTDOWN] +
	       calls[TLB_REASON_LOCAL_MM_SHOOTDOWN],
	       pages[TLB_REASON_LOCAL_SHOOTDOWN] +
	       pages[TLB_REASON_LOCAL_MM_SHOOTDOWN],
	       full[TLB_REASON_LOCAL_SHOOTDOWN] +
	       full[TLB_REASON_LOCAL_MM_SHOOTDOWN]);
	printf("\"ipis_sent\":%lld,\"remote_flushes\":%lld,",
	       calls[TLB_REASON_REMOTE_SEND_IPI],
	       calls[TLB_REASON_REMOTE_SHOOTDOWN]);
	printf("\"task_switch\":%lld,\"events_written\":%lld,\"events_lost\":%lld,",
	       calls[TLB_REASON_TASK_SWITCH], written,
	       written >= 0 && in_buf >= 0 ? written - in_buf : -1);
counters:
	printf("\"traced\":%d", traced);
	for (i = 0; i < NR_VMSTAT; i++)
		if (vm_present[i])
			printf(",\"%s\":%lld", vmstat_keys[i],
			       t1->vm[i] - t0->vm[i]);
	for (i = 0; i < NR_MTHP; i++)
		if (mthp_present[i] && !strncmp(mthp_keys[i], "swpout", 6))
			printf(",\"%s\":%lld", mthp_keys[i],
			       t1->mthp[i] - t0->mthp[i]);
	printf("}\n");
	fflush(stdout);
}

/* The mkclean file, its shared mapping and the folios found whole. */
static int mk_fd = -1;
static char *mk_map;
static long long mk_whole = -1;

/* @name: the workload, @moved: pages found on the target node or -1. */
static void print_sample(const struct options *o, const char *name, int run,
			 bool warmup, uint64_t ns, long long moved,
			 const struct counters *s0, const struct counters *s1,
			 const struct counters *t0, const struct counters *t1)
{
	size_t len = (size_t)o->mib << 20;
	size_t i;

	printf("PB-SAMPLE {\"bench\":\"%s\",\"size_kb\":%lu,\"mib\":%lu,",
	       name, o->size_kb, o->mib);
	printf("\"run\":%d,\"warmup\":%d,\"ns\":%llu,", run, warmup ? 1 : 0,
	       (unsigned long long)ns);
	printf("\"folios\":%zu,\"pages\":%zu,\"pte_map\":%d,\"zero_filled\":%d,",
	       len / (o->size_kb * 1024), len / page_size,
	       o->pte_map_pmd && o->size_kb * 1024 == pmd_size(),
	       !o->fill && !o->verify);
	printf("\"swap_kb\":%lld", meminfo_kb("SwapTotal"));
	if (moved >= 0)
		printf(",\"moved\":%lld", moved);
	if (o->bench->kind == BENCH_MKCLEAN)
		printf(",\"folios_whole\":%lld", mk_whole);
	for (i = 0; i < NR_MTHP; i++)
		if (mthp_present[i])
			printf(",\"%s\":%lld", mthp_keys[i],
			       t1->mthp[i] - t0->mthp[i]);
	for (i = 0; i < NR_VMSTAT; i++)
		if (vm_present[i])
			printf(",\"%s\":%lld", vmstat_keys[i],
			       t1->vm[i] - t0->vm[i]);
	for (i = 0; i < NR_MTHP; i++)
		if (mthp_present[i] && mthp_setup[i])
			printf(",\"setup_%s\":%lld", mthp_keys[i],
			       s1->mthp[i] - s0->mthp[i]);
	for (i = 0; i < NR_VMSTAT; i++)
		if (vm_present[i] && (!strcmp(vmstat_keys[i], "thp_split_pmd") ||
				      !strcmp(vmstat_keys[i], "nr_written")))
			printf(",\"setup_%s\":%lld", vmstat_keys[i],
			       s1->vm[i] - s0->vm[i]);
	printf("}\n");
	fflush(stdout);
}

/* The move_pages() arrays of the migrate workload, one entry per page. */
static void **mig_pages;
static int *mig_nodes, *mig_status;

/* Fill the arrays for [p, p + len) and @node; returns the page count. */
static size_t move_prepare(char *p, size_t len, int node)
{
	size_t i, n = len / page_size;

	for (i = 0; i < n; i++) {
		mig_pages[i] = p + i * page_size;
		mig_nodes[i] = node;
	}
	return n;
}

/* move_pages() the @n prepared pages, or with @node < 0 ask where they are. */
static long move_call(size_t n, int node)
{
	return syscall(__NR_move_pages, 0, n, mig_pages,
		       node < 0 ? NULL : mig_nodes, mig_status,
		       node < 0 ? 0 : MPOL_MF_MOVE);
}

static long move_region(char *p, size_t len, int node)
{
	return move_call(move_prepare(p, len, node), node);
}

/* How many pages of [p, p + len) are on @node. */
static long long pages_on(char *p, size_t len, int node)
{
	long long on = 0;
	size_t i;

	if (move_region(p, len, -1) < 0)
		ksft_exit_fail_perror("move_pages (query)");
	for (i = 0; i < len / page_size; i++)
		on += mig_status[i] == node;
	return on;
}

/*
 * One leg of the migrate workload: move [p, p + len) to @node, timing the
 * move_pages() call alone (the arrays are filled before).  The TLB run
 * traces the leg instead of timing it.
 */
static uint64_t migrate_leg(const struct options *o, const char *name,
			    int run, enum run_kind how, char *p, size_t len,
			    int node, const struct counters *s0,
			    const struct counters *s1)
{
	struct counters t0, t1;
	uint64_t start, end;
	size_t n = move_prepare(p, len, node);
	long long moved;
	long ret;

	snapshot(&t0);
	tlb_region(how, false);
	start = now_ns();
	ret = move_call(n, node);
	end = now_ns();
	tlb_region(how, true);
	snapshot(&t1);
	if (ret < 0)
		ksft_exit_fail_perror("move_pages");
	moved = pages_on(p, len, node);
	if (how == RUN_TLB)
		tlb_trace_report(o, &t0, &t1);
	else
		print_sample(o, name, run, how == RUN_WARMUP, end - start,
			     moved, s0, s1, &t0, &t1);
	return end - start;
}

/*
 * The migrate workload after the setup: to the node the first page is not
 * on, and back (not in the TLB run).  Returns the time of the first leg.
 */
static uint64_t migrate_run(const struct options *o, int run,
			    enum run_kind how, char *p, size_t len,
			    const struct counters *s0, const struct counters *s1)
{
	int home, other;
	uint64_t ns;

	if (move_region(p, page_size, -1) < 0 || mig_status[0] < 0)
		ksft_exit_fail_msg("the region has no node: %s\n",
				   strerror(errno));
	home = mig_status[0];
	other = home ? 0 : 1;
	ns = migrate_leg(o, "migrate", run, how, p, len, other, s0, s1);
	if (how != RUN_TLB)
		migrate_leg(o, "migrate_back", run, how, p, len, home, s0, s1);
	return ns;
}

/* One run; returns the time of the timed region in ns. */

#define PM_PRESENT		(1ULL << 63)
#define PM_PFN_MASK		((1ULL << 55) - 1)
#define KPF_COMPOUND_HEAD	(1ULL << 15)
#define KPF_COMPOUND_TAIL	(1ULL << 16)

/*
 * The folios of @ppf pages that [@p, @p + @len) maps whole: an aligned
 * head page, then its tail pages in order, then no more of them.  -1
 * without pagemap PFNs or /proc/kpageflags (not root).
 */
static long long folios_whole(const char *p, size_t len, size_t ppf)
{
	size_t n = len / page_size, i, j;
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kpf = open("/proc/kpageflags", O_RDONLY);
	uint64_t *e = calloc(n, sizeof(*e)), *f = calloc(n, sizeof(*f));
	long long whole = -1;

	if (pm < 0 || kpf < 0 || !e || !f ||
	    pread(pm, e, n * sizeof(*e), (uintptr_t)p / page_size *
		  sizeof(*e)) != (ssize_t)(n * sizeof(*e)))
		goto out;
	for (i = 0; i < n; i++)
		if (!(e[i] & PM_PRESENT) || !(e[i] & PM_PFN_MASK) ||
		    pread(kpf, &f[i], sizeof(f[i]), (e[i] & PM_PFN_MASK) *
			  sizeof(f[i])) != sizeof(f[i]))
			goto out;
	whole = 0;
	for (i = 0; i + ppf <= n; i += ppf) {
		uint64_t pfn = e[i] & PM_PFN_MASK;
		bool ok = pfn % ppf == 0;

		if (ppf > 1)
			ok = ok && (f[i] & KPF_COMPOUND_HEAD) &&
			     (i + ppf == n || !(f[i + ppf] & KPF_COMPOUND_TAIL));
		for (j = 1; ok && j < ppf; j++)
			ok = (e[i + j] & PM_PFN_MASK) == pfn + j &&
			     (f[i + j] & KPF_COMPOUND_TAIL);
		whole += ok;
	}
out:
	if (pm >= 0)
		close(pm);
	if (kpf >= 0)
		close(kpf);
	free(e);
	free(f);
	return whole;
}

/*
 * The mkclean file, made once: written with pwrite() of whole folios
 * (the page cache allocates a folio of the size of the write where the
 * file system allows it), synced, unlinked while open, and mapped shared.
 */
static void mkclean_prepare(const struct options *o)
{
	size_t len = o->mib << 20, chunk = o->size_kb * 1024, off;
	size_t align = chunk > pmd_size() ? chunk : pmd_size();
	char path[512], *buf, *p;
	uintptr_t start;

	snprintf(path, sizeof(path), "%s/pb_bench_mkclean", o->dir);
	unlink(path);
	mk_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (mk_fd < 0)
		ksft_exit_fail_perror(path);
	unlink(path);
	buf = malloc(chunk);
	if (!buf)
		ksft_exit_fail_perror("malloc");
	memset(buf, o->fill, chunk);
	for (off = 0; off < len; off += chunk)
		if (pwrite(mk_fd, buf, chunk, off) != (ssize_t)chunk)
			ksft_exit_fail_perror("pwrite");
	free(buf);
	if (fsync(mk_fd))
		ksft_exit_fail_perror("fsync");
	/* Aligned as the anonymous regions are: no folio across a table. */
	p = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		ksft_exit_fail_perror("mmap");
	start = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	mk_map = mmap((void *)start, len, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_FIXED, mk_fd, 0);
	if (mk_map == MAP_FAILED)
		ksft_exit_fail_perror("mmap of the file");
}

/*
 * One mkclean run: dirty every page through the mapping (each first write
 * after a writeback faults), then time msync(MS_SYNC) of the whole file.
 */
static uint64_t mkclean_run(const struct options *o, int run,
			    enum run_kind how)
{
	size_t len = o->mib << 20, off;
	struct counters s0, s1, t0, t1, w1;
	uint64_t start, end, wait0, wait1, v;
	int ret;

	if (mk_fd < 0)
		mkclean_prepare(o);
	snapshot(&s0);
	for (off = 0; off < len; off += page_size)
		*(volatile uint64_t *)(mk_map + off) =
			PATTERN_MAGIC ^ off ^ ((uint64_t)run << 40);
	snapshot(&s1);
	if (mk_whole < 0)
		mk_whole = folios_whole(mk_map, len,
					o->size_kb * 1024 / page_size);

	snapshot(&t0);
	tlb_region(how, false);
	start = now_ns();
	ret = sync_file_range(mk_fd, 0, len, SYNC_FILE_RANGE_WRITE);
	end = now_ns();
	tlb_region(how, true);
	snapshot(&t1);
	if (ret)
		ksft_exit_fail_perror("sync_file_range");
	wait0 = now_ns();
	ret = msync(mk_map, len, MS_SYNC);
	wait1 = now_ns();
	snapshot(&w1);
	if (ret)
		ksft_exit_fail_perror("msync");

	if (how == RUN_TLB) {
		tlb_trace_report(o, &t0, &t1);
	} else {
		print_sample(o, o->bench->name, run, how == RUN_WARMUP,
			     end - start, -1, &s0, &s1, &t0, &t1);
		/* Its counters span the whole writeback: I/O ends in both. */
		print_sample(o, "mkclean_wait", run, how == RUN_WARMUP,
			     wait1 - wait0, -1, &s0, &s1, &t0, &w1);
	}
	/* The data of the run, read back from the page cache. */
	if (o->verify) {
		for (off = 0; off < len; off += page_size) {
			if (pread(mk_fd, &v, sizeof(v), off) != sizeof(v))
				ksft_exit_fail_perror("pread");
			if (v != (PATTERN_MAGIC ^ off ^ ((uint64_t)run << 40)))
				ksft_exit_fail_msg("mkclean: page at +%zu lost its data\n",
						   off);
		}
	}
	return end - start;
}

static uint64_t run_once(const struct options *o, int run, enum run_kind how)
{
	enum bench_kind kind = o->bench->kind;
	size_t len = (size_t)o->mib << 20;
	size_t folio_bytes = o->size_kb * 1024;
	size_t align = folio_bytes > pmd_size() ? folio_bytes : pmd_size();
	struct counters s0, s1, t0, t1;
	bool mixed = kind == BENCH_MIXED;
	uint64_t start, end;
	size_t i;
	char *p;
	int ret;

	if (kind == BENCH_MKCLEAN)
		return mkclean_run(o, run, how);

	p = map_aligned(len, align);
	if (!p)
		ksft_exit_fail_perror("mmap");
	if (o->madv_hugepage && madvise(p, len, MADV_HUGEPAGE))
		ksft_exit_fail_perror("madvise(MADV_HUGEPAGE)");
	if (kind == BENCH_UNMAP1 && madvise(p, len, MADV_NOHUGEPAGE))
		ksft_exit_fail_perror("madvise(MADV_NOHUGEPAGE)");

	snapshot(&s0);
	populate(p, len, o->fill, o->verify);
	if (o->pte_map_pmd && folio_bytes == pmd_size() && pte_map(p, len))
		ksft_exit_fail_perror("mprotect");
	if (mixed) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			ksft_exit_fail_perror("fork");
		if (!pid)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			ksft_exit_fail_msg("child did not exit cleanly\n");
		for (i = 0; i < len / folio_bytes; i++) {
			size_t off = mixed_page(i, folio_bytes);

			*(uint64_t *)(p + off + 8) = ~(uint64_t)off;
		}
	}
	if (kind == BENCH_LAZYFREE && madvise(p, len, MADV_FREE))
		ksft_exit_fail_perror("madvise(MADV_FREE)");
	snapshot(&s1);

	if (kind == BENCH_MIGRATE) {
		uint64_t ns = migrate_run(o, run, how, p, len, &s0, &s1);

		if (o->verify && verify(p, len, folio_bytes, false))
			ksft_exit_fail_msg("migrate: data lost\n");
		munmap(p, len);
		return ns;
	}

	snapshot(&t0);
	tlb_region(how, false);
	start = now_ns();
	switch (kind) {
	case BENCH_PAGEOUT:
	case BENCH_LAZYFREE:
	case BENCH_MIXED:
		ret = madvise(p, len, MADV_PAGEOUT);
		break;
	case BENCH_MADVFREE:
		ret = madvise(p, len, MADV_FREE);
		break;
	case BENCH_MUNMAP:
		ret = munmap(p, len);
		break;
	case BENCH_UNMAP1:
		for (ret = 0, i = 0; i < len / page_size && !ret; i += 2)
			ret = munmap(p + i * page_size, page_size);
		break;
	default:
		ret = -1;
		errno = EINVAL;
	}
	end = now_ns();
	tlb_region(how, true);
	snapshot(&t1);
	if (ret)
		ksft_exit_fail_perror(o->bench->name);

	if (how == RUN_TLB)
		tlb_trace_report(o, &t0, &t1);
	else
		print_sample(o, o->bench->name, run, how == RUN_WARMUP,
			     end - start, -1, &s0, &s1, &t0, &t1);

	if (kind == BENCH_UNMAP1) {
		for (i = 1; i < len / page_size; i += 2)
			munmap(p + i * page_size, page_size);
	} else if (kind != BENCH_MUNMAP) {
		if (o->verify && kind != BENCH_LAZYFREE &&
		    kind != BENCH_MADVFREE && verify(p, len, folio_bytes, mixed))
			ksft_exit_fail_msg("%s: data lost after the timed region\n",
					   o->bench->name);
		munmap(p, len);
	}
	return end - start;
}

/*
 * The unmap1 count holds for a process whose mm only ever ran on one CPU
 * (no flush IPI, no lazily kept mm on another CPU): pin to CPU 0, then do
 * the work in a child, whose mm is made there.  The parent exits with the
 * child's status.
 */
static void unmap1_isolate(void)
{
	cpu_set_t set;
	int status;
	pid_t pid;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_exit_fail_perror("sched_setaffinity");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_perror("fork");
	if (!pid)
		return;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		exit(KSFT_FAIL);
	exit(WEXITSTATUS(status));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void usage_exit(const char *prog)
{
	size_t i;

	fprintf(stderr,
		"usage: %s <bench> [-s size_kb] [-m MiB] [-r runs] [-w warmups]\n"
		"          [-f byte] [-p|-P] [-H] [-V] [-t] [-D dir]\n"
		"  -s KB  folio size the caller enabled in sysfs (default 64;\n"
		"         the base page size means order-0 folios)\n"
		"  -m MiB region size (default: the seed's size)\n"
		"  -r N   timed runs (default 10; 0 with -t), -w N warm-up runs\n"
		"         (default 1)\n"
		"  -f B   memset() byte (default: the seed's; zero-filled folios\n"
		"         are not written to swap, only recorded as zero)\n"
		"  -p/-P  PTE-map (-p) or keep PMD-mapped (-P) PMD-sized folios\n"
		"  -H     madvise(MADV_HUGEPAGE) the region\n"
		"  -V     fill every page with a pattern and check it afterwards\n"
		"  -t     after the timed runs, one more run between the tlbcount\n"
		"         markers, its TLB flushes traced where the kernel has the\n"
		"         tlb:tlb_flush event (PB-TLB line)\n"
		"  -T     as -t, but never traced (for the plugin's profile)\n"
		"  -D dir mkclean (only): the file system of its file\n"
		"benches:", prog);
	for (i = 0; i < ARRAY_SIZE(benches); i++)
		fprintf(stderr, " %s", benches[i].name);
	fprintf(stderr, "\n");
	exit(KSFT_FAIL);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	bool mib_set = false, map_set = false, fill_set = false;
	size_t i;
	int c;

	if (argc < 2)
		usage_exit(argv[0]);
	memset(o, 0, sizeof(*o));
	for (i = 0; i < ARRAY_SIZE(benches); i++)
		if (!strcmp(argv[1], benches[i].name))
			o->bench = &benches[i];
	if (!o->bench)
		usage_exit(argv[0]);
	o->size_kb = 64;
	o->runs = 10;
	o->warmups = 1;

	optind = 2;
	while ((c = getopt(argc, argv, "s:m:r:w:f:pPHVtTD:")) != -1) {
		switch (c) {
		case 's':
			o->size_kb = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			o->mib = strtoul(optarg, NULL, 0);
			mib_set = true;
			break;
		case 'r':
			o->runs = atoi(optarg);
			break;
		case 'w':
			o->warmups = atoi(optarg);
			break;
		case 'f':
			o->fill = strtol(optarg, NULL, 0) & 0xff;
			fill_set = true;
			break;
		case 'p':
		case 'P':
			o->pte_map_pmd = c == 'p';
			map_set = true;
			break;
		case 'H':
			o->madv_hugepage = true;
			break;
		case 'V':
			o->verify = true;
			break;
		case 't':
		case 'T':
			o->trace_tlb = true;
			o->no_trace = c == 'T';
			break;
		case 'D':
			o->dir = optarg;
			break;
		default:
			usage_exit(argv[0]);
		}
	}
	if (!mib_set)
		o->mib = o->bench->default_mib;
	if (!map_set)
		o->pte_map_pmd = o->bench->pte_map_pmd;
	if (!fill_set)
		o->fill = o->bench->fill;
	if (o->runs < !o->trace_tlb || o->warmups < 0 || !o->mib || !o->size_kb ||
	    (o->size_kb & (o->size_kb - 1)) || o->size_kb * 1024 < page_size ||
	    ((o->mib << 20) % (o->size_kb * 1024)) ||
	    (o->bench->kind == BENCH_MKCLEAN) != !!o->dir)
		usage_exit(argv[0]);
}

int main(int argc, char **argv)
{
	char policy[32] = "", path[256], thp[32], clocksource[64];
	struct timespec res;
	struct options o;
	struct utsname u;
	uint64_t *ns, sum = 0;
	long long avail;
	int i;

	page_size = sysconf(_SC_PAGESIZE);
	parse_args(argc, argv, &o);
	if (o.bench->kind == BENCH_UNMAP1)
		unmap1_isolate();

	ksft_print_header();
	ksft_set_plan(1);

	if (o.size_kb * 1024 != page_size && o.bench->kind != BENCH_MKCLEAN) {
		snprintf(path, sizeof(path), THP_SYSFS "/hugepages-%lukB/enabled",
			 o.size_kb);
		if (access(path, R_OK))
			ksft_exit_skip("no %lukB mTHP size on this kernel\n",
				       o.size_kb);
		read_policy(path, policy, sizeof(policy));
	}
	read_policy(THP_SYSFS "/enabled", thp, sizeof(thp));
	read_line(CLOCKSOURCE, clocksource, sizeof(clocksource));
	/* The mTHP statistics are of anonymous folios: none for mkclean. */
	probe_counters(o.bench->kind == BENCH_MKCLEAN ? page_size / 1024 :
		       o.size_kb);

	avail = meminfo_kb("MemAvailable");
	if (avail >= 0 && (unsigned long long)avail < (o.mib << 10) + (64 << 10))
		ksft_exit_skip("%lu MiB wanted, %lld kB available\n", o.mib, avail);

	uname(&u);
	printf("PB-INFO {\"prog\":\"pb_bench\",\"bench\":\"%s\",\"size_kb\":%lu,",
	       o.bench->name, o.size_kb);
	printf("\"mib\":%lu,\"runs\":%d,\"warmups\":%d,", o.mib, o.runs,
	       o.warmups);
	printf("\"release\":\"%s\",\"machine\":\"%s\",\"page_size\":%zu,",
	       u.release, u.machine, page_size);
	printf("\"mthp_enabled\":\"%s\",\"thp_enabled\":\"%s\",", policy, thp);
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("\"clocksource\":\"%s\",\"clock_res_ns\":%lld,", clocksource,
	       (long long)res.tv_sec * 1000000000LL + res.tv_nsec);
	printf("\"pte_map_pmd\":%d,\"fill\":%d,\"swap_kb\":%lld}\n",
	       o.pte_map_pmd ? 1 : 0, o.fill, meminfo_kb("SwapTotal"));
	if (!strncmp(clocksource, "jiffies", 7) || strstr(clocksource, "-jiffies"))
		ksft_print_msg("clocksource %s: times are in whole ticks\n",
			       clocksource);
	if (!strcmp(policy, "never"))
		ksft_print_msg("hugepages-%lukB is disabled: folios will be smaller\n",
			       o.size_kb);

	if (o.bench->kind == BENCH_MIGRATE) {
		size_t n = (o.mib << 20) / page_size;

		if (access("/sys/devices/system/node/node1", F_OK))
			ksft_exit_skip("migrate: no second NUMA node\n");
		/*
		 * The region on node 0 whichever CPU fills it (x86_64's NUMA
		 * emulation puts one CPU on each node): every leg moves all.
		 */
		if (syscall(__NR_set_mempolicy, MPOL_PREFERRED,
			    (unsigned long[]){ 1 }, sizeof(unsigned long) * 8))
			ksft_exit_fail_perror("set_mempolicy");
		mig_pages = calloc(n, sizeof(*mig_pages));
		mig_nodes = calloc(n, sizeof(*mig_nodes));
		mig_status = calloc(n, sizeof(*mig_status));
		if (!mig_pages || !mig_nodes || !mig_status)
			ksft_exit_fail_perror("calloc");
	}
	ns = calloc(o.runs + 1, sizeof(*ns));
	if (!ns)
		ksft_exit_fail_perror("calloc");
	for (i = 0; i < o.warmups; i++)
		run_once(&o, i, RUN_WARMUP);
	for (i = 0; i < o.runs; i++) {
		ns[i] = run_once(&o, i, RUN_TIMED);
		sum += ns[i];
	}
	if (o.trace_tlb) {
		tlb_traced = !o.no_trace && tlb_trace_setup();
		if (!tlb_traced && !o.no_trace)
			ksft_print_msg("no tlb:tlb_flush trace event: TLB flushes not traced\n");
		run_once(&o, o.runs, RUN_TLB);
	}
	qsort(ns, o.runs, sizeof(*ns), cmp_u64);
	if (o.runs)
		ksft_print_msg("%s %lukB %luMiB: n=%d mean %.3f median %.3f min %.3f max %.3f ms\n",
			       o.bench->name, o.size_kb, o.mib, o.runs,
			       sum / 1e6 / o.runs, ns[o.runs / 2] / 1e6,
			       ns[0] / 1e6, ns[o.runs - 1] / 1e6);
	ksft_test_result_pass("%s %lukB %luMiB\n", o.bench->name, o.size_kb,
			      o.mib);
	free(ns);
	ksft_finished();
}
