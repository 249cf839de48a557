/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * STUBBED for x86: CPU features, memory encryption, protection keys, PAT
 * and kernel page tables that the x86 PTE code references, reduced to
 * "feature absent".
 */
#ifndef __PGTABLE_BATCH_ARCH_STUBS_H
#define __PGTABLE_BATCH_ARCH_STUBS_H

struct list_head {
	struct list_head *next, *prev;
};
typedef struct { int locked; } spinlock_t;

/* CPU features and bugs: none (no LA57, no shadow stacks, no L1TF). */
#define X86_FEATURE_LA57	0
#define X86_FEATURE_SHSTK	1
#define X86_FEATURE_PSE		2
#define X86_FEATURE_PGE		3
#define X86_BUG_L1TF		0
#define cpu_feature_enabled(f)	false
#define boot_cpu_has(f)		false
#define static_cpu_has(f)	false
#define boot_cpu_has_bug(b)	false

/* Memory encryption and confidential computing: off. */
#define sme_me_mask		0ULL
static inline u64 cc_mkdec(u64 val) { return val; }
static inline u64 cc_mkenc(u64 val) { return val; }
static inline u64 cc_get_mask(void) { return 0; }

/* Protection keys: every key allows everything. */
static inline u32 read_pkru(void) { return 0; }
static inline bool __pkru_allows_read(u32 pkru, u16 pkey) { return true; }
static inline bool __pkru_allows_write(u32 pkru, u16 pkey) { return true; }

/* PAT: no untracked ranges. */
struct x86_platform_ops {
	bool (*is_untracked_pat_range)(u64 start, u64 end);
};
extern struct x86_platform_ops x86_platform;

/* Kernel page tables and the fixmap: the model only has a user table. */
#define FIXMAP_PMD_NUM		2
#define __va(x)			((void *)(unsigned long)(x))
#define __pa(x)			((phys_addr_t)(unsigned long)(x))

#endif /* __PGTABLE_BATCH_ARCH_STUBS_H */
