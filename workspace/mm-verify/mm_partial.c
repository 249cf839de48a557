// SPDX-License-Identifier: GPL-2.0
/*
 * Local verification for the batched anon unmap: mixed AnonExclusive
 * batches, injected failures (through the verify-only debugfs knob
 * /sys/kernel/debug/ttu_dbg/inject), data integrity and pagemap state.
 * usage: mm_partial KB SCENARIO INJECT    SCENARIO: plain|mixed|shared
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PM_PRESENT (1ULL << 63)
#define PM_SWAP (1ULL << 62)

static size_t ps;
static int pmfd;

static uint64_t pagemap(void *p)
{
	uint64_t e = 0;

	if (pread(pmfd, &e, 8, ((uintptr_t)p / ps) * 8) != 8)
		exit(2);
	return e;
}

static void wr(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, v, strlen(v)) < 0) {
		perror(path);
		exit(2);
	}
	close(fd);
}

static unsigned char pat(size_t i, int gen)
{
	return (unsigned char)(i * 13 + gen * 101 + 1);
}

int main(int argc, char **argv)
{
	int kb = atoi(argv[1]), inject = atoi(argv[3]);
	const char *sc = argv[2];
	size_t ppf, nfolios = 64, npages, i, f, bad = 0, swapped = 0, present = 0;
	size_t exp_swapped = 0;
	char *raw, *p;
	int *gen;

	ps = getpagesize();
	ppf = kb * 1024 / ps;
	npages = ppf * nfolios;
	pmfd = open("/proc/self/pagemap", O_RDONLY);
	raw = mmap(NULL, (npages + ppf) * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED || pmfd < 0)
		return 2;
	p = (char *)(((uintptr_t)raw + ppf * ps - 1) & ~(ppf * ps - 1));
	gen = calloc(npages, sizeof(*gen));
	for (i = 0; i < npages; i++)
		memset(p + i * ps, pat(i, 0), ps);

	if (strcmp(sc, "plain")) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
		if (!strcmp(sc, "mixed")) {
			/* reuse: page ppf/2 becomes exclusive again */
			for (f = 0; f < nfolios; f++) {
				i = f * ppf + ppf / 2;
				gen[i] = 1;
				memset(p + i * ps, pat(i, 1), ps);
			}
			/* same write bit everywhere: one batch, mixed runs */
			mprotect(p, npages * ps, PROT_READ);
			/*
			 * On arm64 the write fault unfolded the contpte block
			 * of the rewritten page and mprotect() changes each
			 * folded and unfolded block in a batch of its own, so
			 * a folio of two or more blocks ends up partly folded.
			 * MADV_PAGEOUT's batch stops where PTE_CONT changes
			 * and the folio is split.  Rewriting every PTE once
			 * more (all read-only now) refolds the blocks.
			 */
			mprotect(p, npages * ps, PROT_NONE);
			mprotect(p, npages * ps, PROT_READ);
		}
	}

	if (inject) {
		char b[8];

		snprintf(b, sizeof(b), "%d", inject);
		wr("/sys/kernel/debug/ttu_dbg/inject", b);
	}
	if (madvise(p, npages * ps, MADV_PAGEOUT))
		perror("madvise");
	wr("/sys/kernel/debug/ttu_dbg/inject", "0");

	for (i = 0; i < npages; i++) {
		uint64_t e = pagemap(p + i * ps);
		size_t idx = i % ppf;
		int want_swapped;

		if (e & PM_SWAP)
			swapped++;
		else if (e & PM_PRESENT)
			present++;
		/* expectation for folios that could be swapped out */
		if (inject == 1)
			want_swapped = 0;
		else if (!strcmp(sc, "mixed") && inject)
			want_swapped = idx < ppf / 2;
		else if (!strcmp(sc, "plain") && inject == 3)
			want_swapped = 0;
		else
			want_swapped = 1;
		exp_swapped += want_swapped;
		if (!!(e & PM_SWAP) != want_swapped && bad++ < 8)
			printf("# page %zu (idx %zu): pagemap %#llx, want %s\n", i, idx,
			       (unsigned long long)e, want_swapped ? "swap" : "present");
	}
	for (i = 0; i < npages; i++) {
		unsigned char c = pat(i, gen[i]);
		size_t j;

		for (j = 0; j < ps; j++)
			if ((unsigned char)p[i * ps + j] != c) {
				if (bad++ < 16)
					printf("# data: page %zu byte %zu: %#x want %#x\n",
					       i, j, p[i * ps + j], c);
				break;
			}
	}
	/* the pages must still be writable after swap-in / restore */
	mprotect(p, npages * ps, PROT_READ | PROT_WRITE);
	for (i = 0; i < npages; i++)
		p[i * ps] = 0;
	printf("%s - mm_partial %dkB %s inject=%d: swapped %zu (want %zu) present %zu bad %zu\n",
	       bad ? "not ok" : "ok", kb, sc, inject, swapped, exp_swapped, present, bad);
	munmap(raw, (npages + ppf) * ps);
	return bad ? 1 : 0;
}
