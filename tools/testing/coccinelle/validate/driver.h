/* SPDX-License-Identifier: GPL-2.0 */
/*
 * driver.h
 *
 * Runs the functions of one fixture, as compiled before or after its
 * semantic patch, on generated page tables and arguments, and prints what
 * each run leaves behind, one line per case, for validate.py to compare
 * between the two programs.  Included at the end of the translation unit
 * validate.py generates, before the fixture (whose macros must not reach
 * this file), with the callers it writes after the fixture.
 *
 * Both programs generate the same cases: everything comes from the case
 * number.  A case is a page table (model_pt[] of the harness, both
 * halves), a base PTE index with a count and the address that maps it, and
 * one value per parameter of the function, chosen from those by the
 * parameter's type and name (cv_ulong(), cv_int(), ...).  Each case runs
 * in a child process, so that a crash or a sanitizer report ends that
 * case only.  The line records the return value, whether the run wrote
 * past the region's page table (into the next one), whether it changed
 * the table at all, a hash of the page table, the warnings that fired,
 * the harness TLB model's break-before-make violations, the file's
 * globals, the objects the generated arguments point to (mm, vma,
 * mmu_gather, walk, an integer array; pages and folios: the memmap) and
 * the values the fixture handed to helpers (env.h's cv_trace).
 */
#ifndef __COCCI_VALIDATE_DRIVER_H
#define __COCCI_VALIDATE_DRIVER_H

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

struct cv_case {
	unsigned int no;	/* the case number: the seed of everything */
	uint64_t rng;
	unsigned int base;	/* first PTE of the region */
	unsigned int n;		/* PTEs in the region */
	const char *kind;	/* what the region holds */
};

struct cv_fn {
	const char *name;
	/* Calls the function; prints its return value into @ret. */
	void (*call)(struct cv_case *c, char *ret, size_t len);
};

/* Memory the arguments point to: compared after each run. */
static struct mm_struct cv_mm_obj[2];
static struct vm_area_struct cv_vma_obj[2];
static struct mm_struct *cv_mm_ptrs[2];
static struct vm_area_struct *cv_vma_ptrs[2];
static struct mmu_gather cv_tlb_obj;
static struct walk cv_walk_obj;
static long cv_scratch[8];

static uint64_t cv_rand(struct cv_case *c)
{
	/* xorshift64* */
	c->rng ^= c->rng >> 12;
	c->rng ^= c->rng << 25;
	c->rng ^= c->rng >> 27;
	return c->rng * 0x2545f4914f6cdd1dULL;
}

static unsigned int cv_below(struct cv_case *c, unsigned int n)
{
	return (unsigned int)(cv_rand(c) % n);
}

static pte_t *cv_ptep_of(unsigned int idx)
{
	return (pte_t *)&model_pt[idx];
}

static unsigned long cv_addr_of(unsigned int idx)
{
	return MODEL_BASE_ADDR + (unsigned long)idx * PAGE_SIZE;
}

/* Folios as the harness maps them, in this translation unit's memmap. */
static void cv_set_folio(unsigned long pfn, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		model_memmap[pfn + i].head_pfn = pfn;
		model_memmap[pfn + i].nr_pages = i ? 0 : nr;
	}
}

static void cv_map(unsigned int idx, unsigned int n, struct cv_case *c)
{
	pb_map(idx, n, (enum pb_fold)cv_below(c, PB_NR_FOLD),
	       (enum pb_pattern)cv_below(c, PB_NR_PAT));
	cv_set_folio(pb_pfn(idx), n);
}

static void cv_leaves(unsigned int idx, unsigned int n, struct cv_case *c)
{
	enum pb_leaf kind = (enum pb_leaf)cv_below(c, PB_NR_LEAF);

	pb_fill_leaves(idx, n, kind, cv_below(c, 4), 0x100 + cv_below(c, 0x1000),
		       cv_below(c, 0x100) & (PB_EXCLUSIVE | PB_SOFT_DIRTY |
					     PB_SWP_UFFD_WP));
}

/* Fill [idx, idx + n) with blocks of anything. */
static void cv_mixed(unsigned int idx, unsigned int n, struct cv_case *c)
{
	unsigned int i, len;

	for (i = idx; i < idx + n; i += len) {
		len = 1 + cv_below(c, 2 * PB_BLOCK);
		if (i + len > idx + n)
			len = idx + n - i;
		switch (cv_below(c, 3)) {
		case 0:
			pb_make_none(i, len);
			break;
		case 1:
			cv_map(i, len, c);
			break;
		default:
			cv_leaves(i, len, c);
			break;
		}
	}
}

/* 256 is 0 in an 8-bit count. */
static const unsigned int cv_counts[] = {
	1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 48, 64, 100, 128, 256,
};

/*
 * The case: the table, the region and its kind.  Half the regions are what
 * the converted loops expect (none for set_softleaf_ptes(), one folio for
 * clear_full_ptes()), the rest anything, so that both the contract and its
 * edges are run.
 */
static void cv_setup(struct cv_case *c, unsigned int no)
{
	unsigned int start, len, i;

	memset(c, 0, sizeof(*c));
	c->no = no;
	c->rng = 0x9e3779b97f4a7c15ULL * (no + 1);
	for (i = 0; i < 4; i++)
		cv_rand(c);

	pb_clear_table();
	/*
	 * The region lies in the first half, one page table: the second is
	 * the next table, which no loop over one PMD may reach.  A quarter of
	 * the cases start at its first PTE, for loops over a whole table.
	 */
	c->n = cv_counts[cv_below(c, ARRAY_SIZE(cv_counts))];
	c->base = cv_below(c, MODEL_NR_PTES - c->n + 1);
	if (!cv_below(c, 4))
		c->base = 0;
	else if (cv_below(c, 2))
		c->base -= c->base % PB_BLOCK;
	cv_mixed(0, 2 * MODEL_NR_PTES, c);

	switch (cv_below(c, 6)) {
	case 0:
	case 1:
		/* To the end of the page table, or a little past the count. */
		c->kind = "none";
		len = MODEL_NR_PTES - c->base;
		if (c->base && cv_below(c, 2))
			len = min(len, c->n + cv_below(c, PB_BLOCK));
		pb_make_none(c->base, len);
		break;
	case 2:
	case 3:
		/* One folio from at or before the base to at or past its end. */
		c->kind = "folio";
		start = c->base - (cv_below(c, 2) ? 0 : cv_below(c, c->base % PB_BLOCK + 1));
		len = c->base + c->n - start + (cv_below(c, 2) ? 0 : cv_below(c, PB_BLOCK));
		if (start + len > 2 * MODEL_NR_PTES)
			len = 2 * MODEL_NR_PTES - start;
		cv_map(start, len, c);
		break;
	case 4:
		c->kind = "leaves";
		cv_leaves(c->base, c->n, c);
		break;
	default:
		c->kind = "mixed";
		break;
	}
}

/* Arguments, by type and name. */

static pte_t *cv_ptep(struct cv_case *c, const char *name)
{
	return cv_ptep_of(c->base);
}

static pte_t cv_pte(struct cv_case *c, const char *name)
{
	return ptep_get(cv_ptep_of(c->base));
}

static bool cv_named(const char *name, const char *const *words)
{
	for (; *words; words++)
		if (strstr(name, *words))
			return true;
	return false;
}

static const char *const cv_addr_names[] = { "addr", "start", "address", NULL };
static const char *const cv_end_names[] = { "end", NULL };
static const char *const cv_count_names[] = { "nr", "count", "len", "max", NULL };

static unsigned long cv_ulong(struct cv_case *c, const char *name)
{
	if (cv_named(name, cv_end_names))
		return cv_addr_of(c->base + c->n);
	if (cv_named(name, cv_addr_names))
		return cv_addr_of(c->base);
	if (cv_named(name, cv_count_names))
		return c->n;
	return cv_below(c, 4);
}

static long cv_int(struct cv_case *c, const char *name)
{
	if (cv_named(name, cv_count_names))
		return c->n;
	return cv_below(c, 4);
}

static bool cv_bool(struct cv_case *c, const char *name)
{
	return cv_below(c, 2);
}

static struct mm_struct *cv_mm(struct cv_case *c, const char *name)
{
	return &cv_mm_obj[0];
}

static struct mm_struct **cv_mms(struct cv_case *c, const char *name)
{
	return cv_mm_ptrs;
}

static struct vm_area_struct *cv_vma(struct cv_case *c, const char *name)
{
	return &cv_vma_obj[0];
}

static struct vm_area_struct **cv_vmas(struct cv_case *c, const char *name)
{
	return cv_vma_ptrs;
}

/* The folio the base PTE maps, else one of the pages after the table's. */
static struct page *cv_page(struct cv_case *c, const char *name)
{
	pte_t pte = ptep_get(cv_ptep_of(c->base));

	if (pte_present(pte) && pte_pfn(pte) < MODEL_NR_PFNS)
		return pfn_to_page(pte_pfn(pte));
	return pfn_to_page(pb_pfn(2 * MODEL_NR_PTES) + cv_below(c, 0x1000));
}

static struct folio *cv_folio(struct cv_case *c, const char *name)
{
	struct page *page = cv_page(c, name);

	if (!page->head_pfn && !page->nr_pages)
		cv_set_folio(page_to_pfn(page), 1);
	return page_folio(page);
}

static pte_marker cv_marker(struct cv_case *c, const char *name)
{
	static const pte_marker markers[] = {
		PTE_MARKER_UFFD_WP, PTE_MARKER_POISONED, PTE_MARKER_GUARD,
		PTE_MARKER_UFFD_WP | PTE_MARKER_GUARD,
	};

	return markers[cv_below(c, ARRAY_SIZE(markers))];
}

static pgprot_t cv_prot(struct cv_case *c, const char *name)
{
	return cv_below(c, 2) ? PAGE_SHARED : PAGE_READONLY;
}

static struct mmu_gather *cv_tlb(struct cv_case *c, const char *name)
{
	cv_tlb_obj.mm = &cv_mm_obj[0];
	cv_tlb_obj.fullmm = cv_below(c, 2);
	cv_tlb_obj.cleared = cv_below(c, 2);
	return &cv_tlb_obj;
}

static struct walk *cv_walk(struct cv_case *c, const char *name)
{
	cv_walk_obj.addr = cv_addr_of(c->base);
	cv_walk_obj.pte = cv_ptep_of(c->base);
	cv_walk_obj.nr = c->n;
	return &cv_walk_obj;
}

static long *cv_longs(struct cv_case *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cv_scratch); i++)
		cv_scratch[i] = cv_int(c, name);
	return cv_scratch;
}

/* What a run leaves behind. */

static uint64_t cv_hash(uint64_t h, const void *p, size_t len)
{
	const unsigned char *s = p;

	while (len--) {
		h ^= *s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The same for a large array of words: a word at a time. */
static uint64_t cv_hash_words(uint64_t h, const void *p, size_t len)
{
	const uint64_t *w = p;
	size_t i;

	for (i = 0; i < len / sizeof(*w); i++) {
		h ^= w[i];
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}

/* A pointer, as the same object in both programs names it. */
static uint64_t cv_ptr(const void *p)
{
	const char *q = p;

	if (!p)
		return 0;
	if (q >= (const char *)model_pt && q < (const char *)(model_pt + 2 * MODEL_NR_PTES))
		return 0x1000000 + (q - (const char *)model_pt);
	if (q >= (const char *)model_memmap && q < (const char *)(model_memmap + MODEL_NR_PFNS))
		return 0x2000000 + (q - (const char *)model_memmap);
	if (q >= (const char *)cv_scratch && q < (const char *)(cv_scratch + ARRAY_SIZE(cv_scratch)))
		return 0x3000000 + (q - (const char *)cv_scratch);
	if (q >= (const char *)cv_mm_obj && q < (const char *)(cv_mm_obj + 2))
		return 0x4000000 + (q - (const char *)cv_mm_obj);
	if (q >= (const char *)cv_vma_obj && q < (const char *)(cv_vma_obj + 2))
		return 0x5000000 + (q - (const char *)cv_vma_obj);
	if (q >= (const char *)&cv_tlb_obj && q < (const char *)(&cv_tlb_obj + 1))
		return 0x6000000 + (q - (const char *)&cv_tlb_obj);
	if (q >= (const char *)&cv_walk_obj && q < (const char *)(&cv_walk_obj + 1))
		return 0x7000000 + (q - (const char *)&cv_walk_obj);
	/* The stack or the heap: the same in both programs or not at all. */
	return 0xdead;
}

static uint64_t cv_hash_ptr(uint64_t h, const void *p)
{
	uint64_t v = cv_ptr(p);

	return cv_hash(h, &v, sizeof(v));
}

/* The callers of the fixture's functions (validate.py writes it). */
static const struct cv_fn *cv_functions(unsigned int *nr);
/* Hashes the file's globals (validate.py writes it). */
static uint64_t cv_globals(uint64_t h);
/* Sets the file's globals for case @c (validate.py writes it). */
static void cv_set_globals(struct cv_case *c);

static uint64_t cv_memory(void)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		h = cv_hash(h, &cv_mm_obj[i].mm_users, sizeof(cv_mm_obj[i].mm_users));
		h = cv_hash(h, &cv_mm_obj[i].tlb_flush_pending,
			    sizeof(cv_mm_obj[i].tlb_flush_pending));
		h = cv_hash_ptr(h, cv_mm_obj[i].pgd);
		h = cv_hash_ptr(h, cv_mm_ptrs[i]);
		h = cv_hash_ptr(h, cv_vma_ptrs[i]);
		h = cv_hash(h, &cv_vma_obj[i].vm_start, sizeof(cv_vma_obj[i].vm_start));
		h = cv_hash(h, &cv_vma_obj[i].vm_end, sizeof(cv_vma_obj[i].vm_end));
		h = cv_hash(h, &cv_vma_obj[i].vm_flags, sizeof(cv_vma_obj[i].vm_flags));
		h = cv_hash_ptr(h, cv_vma_obj[i].vm_mm);
	}
	/*
	 * The pages and folios (this translation unit's memmap): those of
	 * the table's folios (pb_pfn()) and those cv_page() hands out.
	 */
	h = cv_hash_words(h, &model_memmap[pb_pfn(0)],
			  sizeof(struct page) * (2 * MODEL_NR_PTES + 0x1000 + 2 * MODEL_NR_PTES));
	h = cv_hash_ptr(h, cv_tlb_obj.mm);
	h = cv_hash(h, &cv_tlb_obj.fullmm, sizeof(cv_tlb_obj.fullmm));
	h = cv_hash(h, &cv_tlb_obj.cleared, sizeof(cv_tlb_obj.cleared));
	h = cv_hash_ptr(h, cv_walk_obj.cur);
	h = cv_hash(h, &cv_walk_obj.addr, sizeof(cv_walk_obj.addr));
	h = cv_hash_ptr(h, cv_walk_obj.pte);
	h = cv_hash(h, &cv_walk_obj.nr, sizeof(cv_walk_obj.nr));
	h = cv_hash(h, cv_scratch, sizeof(cv_scratch));
	return cv_globals(h);
}

static void cv_reset_objects(void)
{
	unsigned int i;

	memset(cv_mm_obj, 0, sizeof(cv_mm_obj));
	memset(cv_vma_obj, 0, sizeof(cv_vma_obj));
	memset(&cv_tlb_obj, 0, sizeof(cv_tlb_obj));
	memset(&cv_walk_obj, 0, sizeof(cv_walk_obj));
	memset(cv_scratch, 0, sizeof(cv_scratch));
	for (i = 0; i < 2; i++) {
		cv_vma_obj[i].vm_start = cv_addr_of(0);
		cv_vma_obj[i].vm_end = cv_addr_of(2 * MODEL_NR_PTES);
		cv_vma_obj[i].vm_mm = &cv_mm_obj[i];
		cv_mm_ptrs[i] = &cv_mm_obj[i];
		cv_vma_ptrs[i] = &cv_vma_obj[i];
		cv_mm_obj[i].mm_users = (atomic_t){ 1 };
	}
}

/* Runs case @no of @fn in this process; prints its line. */
static void cv_run(const struct cv_fn *fn, unsigned int no, FILE *dump)
{
	static uint64_t next_table[MODEL_NR_PTES];
	uint64_t before, after;
	struct cv_case c;
	char ret[64] = "-";
	bool over;

	cv_reset_objects();
	cv_setup(&c, no);
	cv_set_globals(&c);
	arch->tlb_reset();
	model_reset_counts();
	memcpy(next_table, &model_pt[MODEL_NR_PTES], sizeof(next_table));
	before = cv_hash(0xcbf29ce484222325ULL, model_pt,
			 sizeof(uint64_t) * 2 * MODEL_NR_PTES);
	fn->call(&c, ret, sizeof(ret));
	/* A write past the page table of the region: outside any contract. */
	over = memcmp(next_table, &model_pt[MODEL_NR_PTES], sizeof(next_table));
	after = cv_hash(0xcbf29ce484222325ULL, model_pt,
			sizeof(uint64_t) * 2 * MODEL_NR_PTES);
	printf("%u %s base=%u n=%u: ret=%s over=%d wrote=%d pt=%016llx warns=%lu bbm=%lu mem=%016llx trace=%016llx\n",
	       no, c.kind, c.base, c.n, ret, over, after != before,
	       (unsigned long long)after,
	       model_counts.warns, model_tlb.violations,
	       (unsigned long long)cv_memory(), (unsigned long long)cv_trace);
	if (dump)
		fwrite(model_pt, sizeof(uint64_t), 2 * MODEL_NR_PTES, dump);
}

/*
 * Usage: prog arch function cases [case dumpfile]
 *   arch: arm64 or arm64-nocontpte (the one the program is linked with)
 */
int main(int argc, char **argv)
{
	unsigned int i, no, cases, nr;
	const struct cv_fn *fns, *fn = NULL;
	FILE *dump = NULL;
	int status;
	pid_t pid;

	if (argc < 4)
		return 2;
	arch = &PB_CV_ARCH;
	fns = cv_functions(&nr);
	for (i = 0; i < nr; i++)
		if (!strcmp(fns[i].name, argv[2]))
			fn = &fns[i];
	if (!fn) {
		fprintf(stderr, "no function %s\n", argv[2]);
		return 2;
	}
	cases = strtoul(argv[3], NULL, 0);
	if (argc >= 6) {
		dump = fopen(argv[5], "w");
		if (!dump)
			return 2;
		cv_run(fn, strtoul(argv[4], NULL, 0), dump);
		fclose(dump);
		return 0;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	for (no = 0; no < cases; no++) {
		pid = fork();
		if (pid < 0)
			return 2;
		if (!pid) {
			/* Warnings and sanitizer reports: the line says it. */
			if (!freopen("/dev/null", "w", stderr))
				_exit(2);
			/* A count the helper takes as 2^32: a case, not a hang. */
			alarm(10);
			cv_run(fn, no, NULL);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) < 0)
			return 2;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			printf("%u crashed: %s %d\n", no,
			       WIFSIGNALED(status) ? "signal" : "exit",
			       WIFSIGNALED(status) ? WTERMSIG(status) :
			       WEXITSTATUS(status));
	}
	return 0;
}

#endif /* __COCCI_VALIDATE_DRIVER_H */
