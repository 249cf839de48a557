// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the pgtable_batch guest tests.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/wait.h>

#include "pgtable_batch_common.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define PB_MAGIC 0x5042a7c3e1f00d11ULL
#define PB_MULT 0x9e3779b97f4a7c15ULL

size_t pb_pagesize;

static int nr_sizes = -1;
static int sizes[PB_MAX_SIZES];

struct knob {
	char path[96];
	char val[32];
};

static struct knob saved[2 * PB_MAX_SIZES + 1];
static int nr_saved;
static bool changed;

void pb_init(void)
{
	pb_pagesize = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

int pb_read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

int pb_write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int pb_mthp_sizes(int *kb, int max)
{
	int i;

	if (nr_sizes < 0) {
		DIR *d = opendir(THP_DIR);
		struct dirent *e;

		nr_sizes = 0;
		while (d && (e = readdir(d))) {
			int s;

			char path[128];

			/* Sizes without an "enabled" knob are file/shmem only. */
			if (sscanf(e->d_name, "hugepages-%dkB", &s) != 1 ||
			    nr_sizes >= PB_MAX_SIZES)
				continue;
			snprintf(path, sizeof(path), THP_DIR "/hugepages-%dkB/enabled", s);
			if (!access(path, F_OK))
				sizes[nr_sizes++] = s;
		}
		if (d)
			closedir(d);
		qsort(sizes, nr_sizes, sizeof(int), cmp_int);
	}
	for (i = 0; i < nr_sizes && i < max; i++)
		kb[i] = sizes[i];
	return i;
}

/* "always [inherit] madvise never" -> "inherit" */
static void selected(const char *s, char *out, size_t len)
{
	const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

	if (!a || !b || (size_t)(b - a) >= len) {
		out[0] = '\0';
		return;
	}
	memcpy(out, a + 1, b - a - 1);
	out[b - a - 1] = '\0';
}

static void save_knob(const char *path)
{
	char buf[256];

	if (nr_saved >= (int)(sizeof(saved) / sizeof(*saved)) ||
	    pb_read_str(path, buf, sizeof(buf)))
		return;
	snprintf(saved[nr_saved].path, sizeof(saved[0].path), "%s", path);
	selected(buf, saved[nr_saved].val, sizeof(saved[0].val));
	if (saved[nr_saved].val[0])
		nr_saved++;
}

void pb_mthp_save(void)
{
	int kb[PB_MAX_SIZES], n, i;
	char path[96];

	n = pb_mthp_sizes(kb, PB_MAX_SIZES);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%dkB/enabled", kb[i]);
		save_knob(path);
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%dkB/shmem_enabled", kb[i]);
		save_knob(path);
	}
}

void pb_mthp_restore(void)
{
	int i;

	if (!changed)
		return;
	for (i = 0; i < nr_saved; i++)
		pb_write_str(saved[i].path, saved[i].val);
}

int pb_mthp_set(const int *want, int nwant, bool shmem)
{
	int kb[PB_MAX_SIZES], n, i, j, ret = 0;
	char path[96];

	changed = true;
	n = pb_mthp_sizes(kb, PB_MAX_SIZES);
	for (i = 0; i < n; i++) {
		bool on = false;

		for (j = 0; j < nwant; j++)
			on |= want[j] == kb[i];
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%dkB/enabled", kb[i]);
		if (pb_write_str(path, on ? "always" : "never"))
			ret = -1;
		snprintf(path, sizeof(path), THP_DIR "/hugepages-%dkB/shmem_enabled", kb[i]);
		if (access(path, F_OK) == 0 &&
		    pb_write_str(path, on && shmem ? "always" : "never") && shmem)
			ret = -1;
	}
	return ret;
}

static unsigned long read_ul(const char *path)
{
	char buf[64];

	if (pb_read_str(path, buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 0);
}

int pb_test_sizes(int *sizes, const int *req, int nreq, int *offered)
{
	int all[PB_MAX_SIZES], nall, n = 0, i, r;

	nall = pb_mthp_sizes(all, PB_MAX_SIZES);
	if (offered)
		*offered = nall;
	sizes[n++] = 4;
	for (i = 0; i < nall; i++)
		if (all[i] >= 16 && all[i] <= 1024)
			sizes[n++] = all[i];
	if (nreq) {
		int m = 0;

		for (i = 0; i < n; i++)
			for (r = 0; r < nreq; r++)
				if (req[r] == sizes[i])
					sizes[m++] = sizes[i];
		n = m;
	}
	return n;
}

char *pb_region(const struct pb_ctx *c)
{
	char *p = pb_mmap_aligned(c->len, c->fsz, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1);

	if (!p) {
		perror("mmap");
		exit(1);
	}
	return p;
}

uint32_t *pb_gens(const struct pb_ctx *c)
{
	uint32_t *g = calloc(c->npages, sizeof(*g));

	if (!g) {
		perror("calloc");
		exit(1);
	}
	return g;
}

bool pb_size_opt(int opt, const char *arg, int *req, int *nreq,
		 size_t *region_mib)
{
	if (opt == 's') {
		if (*nreq < PB_MAX_SIZES)
			req[(*nreq)++] = atoi(arg);
		return true;
	}
	if (opt == 'm') {
		*region_mib = strtoul(arg, NULL, 0);
		return true;
	}
	return false;
}

void pb_ctx_init(struct pb_ctx *c, int kb, size_t region_mib)
{
	c->kb = kb;
	c->fsz = (size_t)kb * 1024;
	if (c->fsz < pb_pagesize)
		c->fsz = pb_pagesize;
	c->ppf = c->fsz / pb_pagesize;
	c->len = region_mib << 20;
	if (c->len < 8 * c->fsz)
		c->len = 8 * c->fsz;
	c->len -= c->len % c->fsz;
	c->npages = c->len / pb_pagesize;
	c->pm = pb_pagemap_open();
	if (c->pm < 0) {
		perror("pagemap");
		exit(1);
	}
}

unsigned long pb_mthp_stat(int kb, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), THP_DIR "/hugepages-%dkB/stats/%s", kb, name);
	return read_ul(path);
}

unsigned long pb_mthp_stat_all(const char *name)
{
	int kb[PB_MAX_SIZES], n, i;
	unsigned long sum = 0;

	n = pb_mthp_sizes(kb, PB_MAX_SIZES);
	for (i = 0; i < n; i++)
		sum += pb_mthp_stat(kb[i], name);
	return sum;
}

static long scan_file(const char *path, const char *name, const char *fmt)
{
	char line[256];
	size_t len = strlen(name);
	long val = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, name, len) &&
		    (line[len] == ' ' || line[len] == ':')) {
			if (sscanf(line + len + 1, fmt, &val) != 1)
				val = -1;
			break;
		}
	}
	fclose(f);
	return val;
}

long pb_vmstat(const char *name)
{
	return scan_file("/proc/vmstat", name, "%ld");
}

long pb_meminfo(const char *name)
{
	return scan_file("/proc/meminfo", name, " %ld");
}

const char *pb_swap_dev(void)
{
	static char dev[128];
	char line[256];
	FILE *f = fopen("/proc/swaps", "r");
	const char *ret = NULL;

	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f) &&
	    sscanf(line, "%127s", dev) == 1)
		ret = dev;
	fclose(f);
	return ret;
}

int pb_swapoff_timed(const char *dev, int timeout_s)
{
	pid_t pid = fork();
	int status, i;

	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(swapoff(dev) ? (errno & 0x7f) : 0);
	for (i = 0; i < timeout_s * 10; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

int pb_swapon(const char *dev)
{
	return swapon(dev, 0) ? errno : 0;
}

void pb_lru_drain_all(void)
{
	/*
	 * Any write of 1 drains the LRU caches of every CPU.  Not 4, which
	 * would keep drop_caches quiet in the kernel log until the next boot.
	 */
	pb_write_str("/proc/sys/vm/drop_caches", "1");
}

long pb_smaps_swap_kb(const void *addr)
{
	unsigned long a = (unsigned long)addr, start, end;
	char line[256];
	bool in = false;
	long val = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = a >= start && a < end;
			continue;
		}
		if (in && !strncmp(line, "Swap:", 5)) {
			val = strtol(line + 5, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

int pb_clear_soft_dirty(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	int ret;

	if (fd < 0)
		return -1;
	ret = write(fd, "4", 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

int pb_pagemap_open(void)
{
	return open("/proc/self/pagemap", O_RDONLY);
}

int pb_pagemap(int fd, const void *addr, size_t n, uint64_t *out)
{
	off_t off = (uintptr_t)addr / pb_pagesize * sizeof(uint64_t);
	size_t len = n * sizeof(uint64_t);

	return pread(fd, out, len, off) == (ssize_t)len ? 0 : -1;
}

size_t pb_pagemap_count(int fd, const void *addr, size_t n, uint64_t bits)
{
	uint64_t buf[512];
	size_t done = 0, cnt = 0, i;

	while (done < n) {
		size_t chunk = n - done < 512 ? n - done : 512;

		if (pb_pagemap(fd, (const char *)addr + done * pb_pagesize,
			       chunk, buf))
			return 0;
		for (i = 0; i < chunk; i++)
			cnt += (buf[i] & bits) == bits;
		done += chunk;
	}
	return cnt;
}

void *pb_mmap_aligned(size_t len, size_t align, int prot, int flags, int fd)
{
	size_t slack = align > pb_pagesize ? align : 0;
	char *p, *a;

	if (fd >= 0) {
		/* Reserve, then map the object at an aligned address. */
		p = mmap(NULL, len + slack, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		a = (char *)(((uintptr_t)p + slack) & ~(uintptr_t)(align - 1));
		if (!slack)
			a = p;
		if (mmap(a, len, prot, flags | MAP_FIXED, fd, 0) == MAP_FAILED) {
			munmap(p, len + slack);
			return NULL;
		}
	} else {
		p = mmap(NULL, len + slack, prot, flags, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		a = slack ? (char *)(((uintptr_t)p + slack) & ~(uintptr_t)(align - 1)) : p;
	}
	if (a > p)
		munmap(p, a - p);
	if (p + len + slack > a + len)
		munmap(a + len, p + len + slack - (a + len));
	return a;
}

static inline uint64_t word0(uint32_t id, uint32_t gen)
{
	return PB_MAGIC ^ ((uint64_t)id << 32 | gen);
}

void pb_fill_page(void *page, uint32_t id, uint32_t gen)
{
	uint64_t *w = page, w0 = word0(id, gen);
	size_t i, n = pb_pagesize / sizeof(uint64_t);

	w[0] = w0;
	for (i = 1; i < n; i++)
		w[i] = (w0 + i) * PB_MULT;
}

bool pb_page_ok(const void *page, uint32_t id, uint32_t gen)
{
	const uint64_t *w = page;
	uint64_t w0 = word0(id, gen), diff = w[0] ^ w0;
	size_t i, n = pb_pagesize / sizeof(uint64_t);

	for (i = 1; i < n; i++)
		diff |= w[i] ^ ((w0 + i) * PB_MULT);
	return !diff;
}

bool pb_page_zero(const void *page)
{
	const uint64_t *w = page;
	size_t i, n = pb_pagesize / sizeof(uint64_t);
	uint64_t any = 0;

	for (i = 0; i < n; i++)
		any |= w[i];
	return !any;
}

void pb_page_describe(const void *page, char *buf, size_t len)
{
	const uint64_t *w = page;
	uint64_t v = w[0] ^ PB_MAGIC;

	if (pb_page_zero(page))
		snprintf(buf, len, "zero");
	else if (pb_page_ok(page, v >> 32, (uint32_t)v))
		snprintf(buf, len, "id %u gen %u", (unsigned int)(v >> 32),
			 (unsigned int)v);
	else
		snprintf(buf, len, "garbage (word0 %#llx)",
			 (unsigned long long)w[0]);
}

uint64_t pb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pb_mthp_restore_signal(int sig)
{
	pb_mthp_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

void pb_mthp_restore_at_exit(void)
{
	atexit(pb_mthp_restore);
	signal(SIGINT, pb_mthp_restore_signal);
	signal(SIGTERM, pb_mthp_restore_signal);
}
