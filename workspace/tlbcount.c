// SPDX-License-Identifier: GPL-2.0
/*
 * tlbcount: a QEMU TCG plugin that counts the TLB maintenance a guest
 * executes between two marker instructions.
 *
 * Built against the plugin API of the QEMU the host runs (Debian's
 * qemu 7.2, API version 1; workspace/qemu-plugin.sh fetches its header from
 * Debian's source package).  Loaded with
 *
 *   -plugin tlbcount.so,out=FILE[,fn=NAME:0xADDR]...
 *
 * A guest program marks a region by executing the start marker, the work,
 * then the stop marker (tools/testing/pgtable_batch/guest/pb_bench.c,
 * pb_tlb_mark()).  The markers are no-ops for the CPU:
 *
 *   x86_64   nopl 0x50425401(%rax,%rax,1)  start   ...02 stop
 *   arm64    movz xzr, #0x5b01             start   #0x5b02 stop
 *   riscv64  addi zero, zero, 0x5b1        start   0x5b2 stop (a HINT)
 *
 * While a region is open, every vCPU's instructions count, user and kernel
 * (and on riscv64 the SBI firmware's): the invalidations a CPU performs on
 * behalf of the marking task, including those in another CPU's IPI
 * handler, are in.  At the stop marker the plugin appends one line to FILE:
 *
 *   PB-TLBCOUNT {"region":N,"vcpus":V,"counts":{"tlbi_vale1is":16,...},
 *                "self":{...}}
 *
 * "counts" sums every vCPU, "self" is the vCPU that executed the start
 * marker alone (a known count is checked against it: other CPUs flush
 * for their own reasons).  The counters are atomic, exact with any number
 * of vCPUs.
 *
 * Counted, by encoding:
 *   arm64    TLBI by operation (tlbi_<op>, tlbi_<op>nxs), DSB by option
 *            (dsb_<opt>, dsb_nxs), ISB
 *   x86_64   INVLPG, INVPCID, INVLPGB, TLBSYNC, MOV to CR3 and to CR4
 *   riscv64  SFENCE.VMA and SINVAL.VMA by operands (all, addr, asid,
 *            addr_asid), SFENCE.W.INVAL, SFENCE.INVAL.IR
 * and, for each fn= argument, the executions of the instruction at ADDR
 * (a function's entry, from System.map: calls of it).
 *
 * With map=SYSTEM.MAP,prof=FILE it also profiles: every instruction
 * executed is counted against the kernel text symbol it lies in (outside
 * the kernel's text: "[other]", user space included), and at the stop
 * marker one line per region goes to FILE:
 *
 *   PB-PROFILE {"region":N,"total":T,"funcs":{"try_to_migrate_one":1157,...}}
 *
 * The profile's counters are inline adds, not atomic: exact with one vCPU
 * (the -icount guests of qemu-run.sh), approximate with more.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_COUNTERS	128
#define MAX_FNS		32
#define MAX_VCPUS	16	/* vCPUs counted apart; the rest share the last */

enum arch { ARCH_X86_64, ARCH_ARM64, ARCH_RISCV64 };

static enum arch arch;
static char names[MAX_COUNTERS][40];
static _Atomic uint64_t counts[MAX_VCPUS][MAX_COUNTERS];
static _Atomic unsigned int start_vcpu;
static int nr_counters;
static uint64_t fn_addr[MAX_FNS];
static int fn_counter[MAX_FNS];
static int nr_fns;
static atomic_bool counting;
static _Atomic unsigned int region;
static FILE *out;
static int vcpus;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

/* The profile: kernel text symbols, sorted, and a counter for each. */
struct sym {
	uint64_t addr;
	char *name;
};
static struct sym *syms;
static size_t nr_syms;
static uint64_t text_end;	/* _etext */
static uint64_t *prof_count;	/* nr_syms + 1: the last is "[other]" */
static uint64_t *prof_base;
static FILE *prof_out;

enum { MARK_START = 1, MARK_STOP = 2 };

/*
 * The counter named @name, created on first use.  Called at translation
 * time, which vCPU threads do in parallel.
 */
static int counter(const char *name)
{
	int i;

	pthread_mutex_lock(&names_lock);
	for (i = 0; i < nr_counters; i++)
		if (!strcmp(names[i], name))
			goto out;
	if (nr_counters == MAX_COUNTERS - 1) {
		i = MAX_COUNTERS - 1;	/* "other", see install */
		goto out;
	}
	snprintf(names[nr_counters], sizeof(names[0]), "%s", name);
	i = nr_counters++;
out:
	pthread_mutex_unlock(&names_lock);
	return i;
}

static unsigned int vcpu_slot(unsigned int vcpu)
{
	return vcpu < MAX_VCPUS ? vcpu : MAX_VCPUS - 1;
}

static void count_cb(unsigned int vcpu, void *udata)
{
	if (atomic_load_explicit(&counting, memory_order_relaxed))
		atomic_fetch_add_explicit(&counts[vcpu_slot(vcpu)][(uintptr_t)udata],
					  1, memory_order_relaxed);
}

/* One JSON object of the counters of vCPU @only, or of all if negative. */
static void print_counts(int only)
{
	bool first = true;
	unsigned int v;
	int i;

	fputc('{', out);
	for (i = 0; i < MAX_COUNTERS; i++) {
		uint64_t c = 0;

		for (v = 0; v < MAX_VCPUS; v++)
			if (only < 0 || v == (unsigned int)only)
				c += atomic_load(&counts[v][i]);
		if (!c || !names[i][0])
			continue;
		fprintf(out, "%s\"%s\":%" PRIu64, first ? "" : ",", names[i], c);
		first = false;
	}
	fputc('}', out);
}

static void report(void)
{
	unsigned int n = atomic_fetch_add(&region, 1) + 1;

	if (!out)
		return;
	fprintf(out, "PB-TLBCOUNT {\"region\":%u,\"vcpus\":%d,\"counts\":",
		n, vcpus);
	print_counts(-1);
	fprintf(out, ",\"self\":");
	print_counts(atomic_load(&start_vcpu));
	fprintf(out, "}\n");
	fflush(out);
}

static void prof_report(unsigned int n)
{
	uint64_t total = 0, d;
	bool first = true;
	size_t i;

	for (i = 0; i <= nr_syms; i++)
		total += prof_count[i] - prof_base[i];
	fprintf(prof_out, "PB-PROFILE {\"region\":%u,\"total\":%" PRIu64
		",\"funcs\":{", n, total);
	for (i = 0; i <= nr_syms; i++) {
		d = prof_count[i] - prof_base[i];
		if (!d)
			continue;
		fprintf(prof_out, "%s\"%s\":%" PRIu64, first ? "" : ",",
			i < nr_syms ? syms[i].name : "[other]", d);
		first = false;
	}
	fprintf(prof_out, "}}\n");
	fflush(prof_out);
}

static void mark_cb(unsigned int vcpu, void *udata)
{
	int i, v;

	if ((uintptr_t)udata == MARK_START) {
		atomic_store(&counting, false);
		for (v = 0; v < MAX_VCPUS; v++)
			for (i = 0; i < MAX_COUNTERS; i++)
				atomic_store(&counts[v][i], 0);
		atomic_store(&start_vcpu, vcpu_slot(vcpu));
		if (prof_count)
			memcpy(prof_base, prof_count,
			       (nr_syms + 1) * sizeof(*prof_count));
		atomic_store(&counting, true);
	} else if (atomic_exchange(&counting, false)) {
		if (prof_count)
			prof_report(atomic_load(&region) + 1);
		report();
	}
}

/* The profile counter of the instruction at @va. */
static uint64_t *prof_slot(uint64_t va)
{
	size_t lo = 0, hi = nr_syms;

	if (!nr_syms || va < syms[0].addr || va >= text_end)
		return &prof_count[nr_syms];
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= va)
			lo = mid;
		else
			hi = mid;
	}
	return &prof_count[lo];
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Read the text symbols of a System.map; 0 or -1. */
static int load_map(const char *path)
{
	char line[512], type, name[256];
	size_t cap = 0;
	uint64_t addr;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_etext"))
			text_end = addr;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (nr_syms == cap) {
			cap = cap ? 2 * cap : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				return -1;
		}
		syms[nr_syms].addr = addr;
		syms[nr_syms++].name = strdup(name);
	}
	fclose(f);
	qsort(syms, nr_syms, sizeof(*syms), cmp_sym);
	if (!text_end && nr_syms)
		text_end = syms[nr_syms - 1].addr + 4096;
	prof_count = calloc(nr_syms + 1, sizeof(*prof_count));
	prof_base = calloc(nr_syms + 1, sizeof(*prof_base));
	return prof_count && prof_base ? 0 : -1;
}

static const char *arm64_tlbi(unsigned int op1, unsigned int crm,
			      unsigned int op2)
{
	static const char * const el1[16][8] = {
		[1] = { "vmalle1os", "vae1os", "aside1os", "vaae1os",
			NULL, "vale1os", NULL, "vaale1os" },
		[2] = { NULL, "rvae1is", NULL, "rvaae1is",
			NULL, "rvale1is", NULL, "rvaale1is" },
		[3] = { "vmalle1is", "vae1is", "aside1is", "vaae1is",
			NULL, "vale1is", NULL, "vaale1is" },
		[5] = { NULL, "rvae1os", NULL, "rvaae1os",
			NULL, "rvale1os", NULL, "rvaale1os" },
		[6] = { NULL, "rvae1", NULL, "rvaae1",
			NULL, "rvale1", NULL, "rvaale1" },
		[7] = { "vmalle1", "vae1", "aside1", "vaae1",
			NULL, "vale1", NULL, "vaale1" },
	};

	if (op1 == 0 && el1[crm][op2])
		return el1[crm][op2];
	return NULL;
}

static const char *arm64_dsb(unsigned int crm)
{
	static const char * const opt[16] = {
		[1] = "oshld", [2] = "oshst", [3] = "osh",
		[5] = "nshld", [6] = "nshst", [7] = "nsh",
		[9] = "ishld", [10] = "ishst", [11] = "ish",
		[13] = "ld", [14] = "st", [15] = "sy",
	};

	return opt[crm];
}

/* The counter of an arm64 instruction, -1 if none; *mark for markers. */
static int classify_arm64(const uint8_t *b, size_t len, int *mark)
{
	char name[40];
	uint32_t insn;
	const char *s;

	if (len != 4)
		return -1;
	insn = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	if (insn == (0xd2800000u | 0x5b01 << 5 | 31))
		*mark = MARK_START;
	else if (insn == (0xd2800000u | 0x5b02 << 5 | 31))
		*mark = MARK_STOP;
	/* SYS #op1, C8 (C9: the nXS forms), Cm, #op2: TLBI */
	if ((insn & 0xfff8e000u) == 0xd5088000u) {
		const char *nxs = insn & 0x1000 ? "nxs" : "";

		s = arm64_tlbi(insn >> 16 & 7, insn >> 8 & 15, insn >> 5 & 7);
		if (s)
			snprintf(name, sizeof(name), "tlbi_%s%s", s, nxs);
		else
			snprintf(name, sizeof(name), "tlbi_op1_%u_c%u_%u%s",
				 insn >> 16 & 7, insn >> 8 & 15, insn >> 5 & 7,
				 nxs);
		return counter(name);
	}
	/* DSB <option>nXS */
	if ((insn & 0xfffff3ffu) == 0xd503323fu)
		return counter("dsb_nxs");
	if ((insn & 0xfffff0ffu) == 0xd503309fu) {
		s = arm64_dsb(insn >> 8 & 15);
		if (!s)
			return -1;	/* SSBB, PSSBB: not a DSB */
		snprintf(name, sizeof(name), "dsb_%s", s);
		return counter(name);
	}
	if ((insn & 0xfffff0ffu) == 0xd50330dfu)
		return counter("isb");
	return -1;
}

/* Skip legacy and REX prefixes. */
static size_t x86_prefixes(const uint8_t *b, size_t len, bool *op66)
{
	size_t i = 0;

	*op66 = false;
	while (i < len) {
		switch (b[i]) {
		case 0x66:
			*op66 = true;
			/* fall through */
		case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64:
		case 0x65: case 0x67: case 0xf0: case 0xf2: case 0xf3:
			i++;
			continue;
		}
		break;
	}
	if (i < len && (b[i] & 0xf0) == 0x40)
		i++;
	return i;
}

static int classify_x86(const uint8_t *b, size_t len, int *mark)
{
	static const uint8_t nopl[] = { 0x0f, 0x1f, 0x84, 0x00 };
	size_t i;
	bool op66;

	if (len == 8 && !memcmp(b, nopl, 4) && b[5] == 0x54 &&
	    b[6] == 0x42 && b[7] == 0x50 && (b[4] == 1 || b[4] == 2))
		*mark = b[4];
	i = x86_prefixes(b, len, &op66);
	if (i + 2 >= len || b[i] != 0x0f)
		return -1;
	/* 0F 01 /7, memory operand: INVLPG; 0F 01 FE/FF: INVLPGB, TLBSYNC */
	if (b[i + 1] == 0x01 && (b[i + 2] & 0x38) == 0x38 &&
	    (b[i + 2] & 0xc0) != 0xc0)
		return counter("invlpg");
	if (b[i + 1] == 0x01 && b[i + 2] == 0xfe)
		return counter("invlpgb");
	if (b[i + 1] == 0x01 && b[i + 2] == 0xff)
		return counter("tlbsync");
	/* 0F 22 /r: MOV to CRn */
	if (b[i + 1] == 0x22) {
		switch (b[i + 2] >> 3 & 7) {
		case 3:
			return counter("mov_cr3");
		case 4:
			return counter("mov_cr4");
		}
		return -1;
	}
	/* 66 0F 38 82 /r: INVPCID */
	if (op66 && i + 3 < len && b[i + 1] == 0x38 && b[i + 2] == 0x82)
		return counter("invpcid");
	return -1;
}

static int classify_riscv(const uint8_t *b, size_t len, int *mark)
{
	uint32_t insn;

	if (len != 4)
		return -1;
	insn = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	if (insn == (0x5b1u << 20 | 0x13))
		*mark = MARK_START;
	else if (insn == (0x5b2u << 20 | 0x13))
		*mark = MARK_STOP;
	if (insn == 0x18000073u)
		return counter("sfence_w_inval");
	if (insn == 0x18100073u)
		return counter("sfence_inval_ir");
	/* SFENCE.VMA rs1, rs2 and SINVAL.VMA rs1, rs2 (Svinval) */
	if ((insn & 0xfe007fffu) == 0x12000073u ||
	    (insn & 0xfe007fffu) == 0x16000073u) {
		const char *op = (insn >> 25) == 0x09 ? "sfence_vma" : "sinval_vma";
		bool addr = insn >> 15 & 31, asid = insn >> 20 & 31;
		char name[40];

		snprintf(name, sizeof(name), "%s_%s", op,
			 addr && asid ? "addr_asid" : addr ? "addr" :
			 asid ? "asid" : "all");
		return counter(name);
	}
	return -1;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	int j;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		int c = -1, mark = 0;

		switch (arch) {
		case ARCH_X86_64:
			c = classify_x86(b, len, &mark);
			break;
		case ARCH_ARM64:
			c = classify_arm64(b, len, &mark);
			break;
		case ARCH_RISCV64:
			c = classify_riscv(b, len, &mark);
			break;
		}
		if (mark)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_cb,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)mark);
		if (c >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, count_cb,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)c);
		if (prof_count)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, prof_slot(va), 1);
		for (j = 0; j < nr_fns; j++)
			if (va == fn_addr[j])
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					count_cb, QEMU_PLUGIN_CB_NO_REGS,
					(void *)(uintptr_t)fn_counter[j]);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	if (out)
		fclose(out);
	out = NULL;
	if (prof_out)
		fclose(prof_out);
	prof_out = NULL;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	if (!strcmp(info->target_name, "x86_64"))
		arch = ARCH_X86_64;
	else if (!strcmp(info->target_name, "aarch64"))
		arch = ARCH_ARM64;
	else if (!strcmp(info->target_name, "riscv64"))
		arch = ARCH_RISCV64;
	else {
		fprintf(stderr, "tlbcount: target %s not supported\n",
			info->target_name);
		return -1;
	}
	vcpus = info->system_emulation ? info->system.smp_vcpus : 1;
	snprintf(names[MAX_COUNTERS - 1], sizeof(names[0]), "other");
	for (i = 0; i < argc; i++) {
		char *v = strchr(argv[i], '=');

		if (!v) {
			fprintf(stderr, "tlbcount: bad argument %s\n", argv[i]);
			return -1;
		}
		*v++ = '\0';
		if (!strcmp(argv[i], "out")) {
			out = fopen(v, "w");
			if (!out) {
				perror(v);
				return -1;
			}
		} else if (!strcmp(argv[i], "map")) {
			if (load_map(v))
				return -1;
		} else if (!strcmp(argv[i], "prof")) {
			prof_out = fopen(v, "w");
			if (!prof_out) {
				perror(v);
				return -1;
			}
		} else if (!strcmp(argv[i], "fn") && nr_fns < MAX_FNS) {
			char *colon = strrchr(v, ':'), name[40];

			if (!colon) {
				fprintf(stderr, "tlbcount: fn=NAME:ADDR\n");
				return -1;
			}
			*colon = '\0';
			fn_addr[nr_fns] = strtoull(colon + 1, NULL, 16);
			snprintf(name, sizeof(name), "fn_%s", v);
			fn_counter[nr_fns++] = counter(name);
		} else {
			fprintf(stderr, "tlbcount: unknown argument %s\n",
				argv[i]);
			return -1;
		}
	}
	if (!prof_out != !prof_count) {
		fprintf(stderr, "tlbcount: map= and prof= go together\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
