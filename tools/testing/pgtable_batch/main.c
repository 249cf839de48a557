// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conformance tests of the batched PTE helpers (include/linux/pgtable_batch.h)
 * against the per-PTE loops they are defined by, on a model page table.
 */

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shared.h"

/* Tests are included directly, as in tools/testing/vma. */
#include "tests/model.c"
#include "tests/present.c"
#include "tests/softleaf.c"
#include "tests/random.c"
#include "tests/tlb.c"

/* The configurations of the kernel code under test. */
static const struct pb_arch *const arches[] = {
	&arm64_arch,			/* arm64.o */
	&arm64_nocontpte_arch,		/* arm64-nocontpte.o */
	&x86_arch,			/* x86.o */
	&riscv64_arch,			/* riscv.o */
};

static void print_counts(const char *what, const struct model_counts *c)
{
	printf("  %-14s reads %lu, writes %lu, unfolds %lu, folds %lu, ",
	       what, c->reads, c->writes, c->unfolds, c->folds);
	printf("TLB invalidations %lu (%lu pages), dsb %lu, isb %lu\n",
	       c->tlbi, c->tlbi_pages, c->dsb, c->isb);
}

/* Run every test on the current arch; returns the count of tests and failures. */
static void run_arch(int *num_tests, int *num_fail)
{
	memset(&pb_totals, 0, sizeof(pb_totals));

	run_model_tests(num_tests, num_fail);
	run_present_tests(num_tests, num_fail);
	run_softleaf_tests(num_tests, num_fail);
	run_random_tests(num_tests, num_fail);
	run_tlb_tests(num_tests, num_fail);

	printf("%s: %lu cases compared with the per-PTE loops:\n",
	       arch->name, pb_totals.cases);
	print_counts("batched:", &pb_totals.batch);
	print_counts("per-PTE loops:", &pb_totals.ref);
	printf("  TLB model:     %lu translations cached, ",
	       pb_totals.tlb_live);
	printf("%lu removed by completed invalidations, ",
	       pb_totals.tlb_dropped);
	printf("%lu break-before-make violations\n",
	       pb_totals.tlb_violations);
}

/*
 * One child process per arch configuration, PGTABLE_BATCH_JOBS of them at a
 * time (default: the online CPUs).  Each writes its output to a file of its
 * own and its counts to a pipe; the parent prints the outputs in the order
 * of arches[] once all are done, so the output does not depend on the
 * number of jobs.  A child that dies counts as one failed test.
 */
struct arch_run {
	pid_t pid;
	FILE *out;
	int fd;
	int counts[2];
	bool done;
};

static void arch_run_start(struct arch_run *r, unsigned int a)
{
	int fds[2];

	r->out = tmpfile();
	if (!r->out || pipe(fds))
		exit(EXIT_FAILURE);
	/* All streams: a child would write what is buffered again at exit(). */
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0)
		exit(EXIT_FAILURE);
	if (!r->pid) {
		int counts[2] = { 0, 0 };

		close(fds[0]);
		dup2(fileno(r->out), STDOUT_FILENO);
		dup2(fileno(r->out), STDERR_FILENO);
		arch = arches[a];
		run_arch(&counts[0], &counts[1]);
		fflush(stdout);
		fflush(stderr);
		if (write(fds[1], counts, sizeof(counts)) != sizeof(counts))
			exit(EXIT_FAILURE);
		/* exit(), not _exit(): LeakSanitizer checks at exit. */
		exit(EXIT_SUCCESS);
	}
	close(fds[1]);
	r->fd = fds[0];
}

static void arch_run_end(struct arch_run *r, int status)
{
	if (read(r->fd, r->counts, sizeof(r->counts)) != sizeof(r->counts) ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		r->counts[0]++;
		r->counts[1]++;
		fprintf(r->out, "FAIL: the tests of this arch died (status 0x%x)\n",
			status);
	}
	close(r->fd);
	r->done = true;
}

int main(int argc, char **argv)
{
	struct arch_run runs[ARRAY_SIZE(arches)] = {};
	int num_tests = 0, num_fail = 0, status;
	const char *seed = getenv("PGTABLE_BATCH_SEED");
	const char *jobs_env = getenv("PGTABLE_BATCH_JOBS");
	unsigned int a, started = 0, running = 0, jobs;
	char buf[4096];
	size_t n;
	pid_t pid;

	if (seed)
		random_seed = strtoull(seed, NULL, 0);
	jobs = jobs_env ? strtoul(jobs_env, NULL, 0) :
			  (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	if (jobs < 1)
		jobs = 1;

	while (started < ARRAY_SIZE(arches) || running) {
		if (started < ARRAY_SIZE(arches) && running < jobs) {
			arch_run_start(&runs[started], started);
			started++;
			running++;
			continue;
		}
		pid = wait(&status);
		if (pid < 0)
			exit(EXIT_FAILURE);
		for (a = 0; a < started; a++) {
			if (runs[a].pid == pid && !runs[a].done) {
				arch_run_end(&runs[a], status);
				running--;
			}
		}
	}

	for (a = 0; a < ARRAY_SIZE(arches); a++) {
		rewind(runs[a].out);
		while ((n = fread(buf, 1, sizeof(buf), runs[a].out)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(runs[a].out);
		num_tests += runs[a].counts[0];
		num_fail += runs[a].counts[1];
	}
	printf("%d tests run, %d passed, %d failed.\n",
	       num_tests, num_tests - num_fail, num_fail);

	return num_fail == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
