// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64.c
 *
 * Compiles the real arm64 PTE code of the tree under test against the model
 * page table: arch/arm64/include/asm/pgtable.h (PTE layout, raw helpers and
 * the contpte-aware public helpers), include/linux/pgtable.h and
 * include/linux/pgtable_batch.h (the generic layer), and
 * arch/arm64/mm/contpte.c (the out-of-line contpte batch logic), and
 * exports them to the tests through struct pb_arch.
 */

#include "include/pgtable_batch_internal.h"

#include <linux/pgtable_batch.h>

#include "arch.h"

/* The model's memory map: enough pfns for every folio the tests map. */
#define MODEL_NR_PFNS	(1UL << 16)

static struct mm_struct user_mm = { .mm_users = { 1 } };
static struct vm_area_struct user_vma = { .vm_mm = &user_mm };

#ifdef CONFIG_ARM64_CONTPTE

/* Directly import the contpte implementation, static helpers and all. */
#include <arch/arm64/mm/contpte.c>

/*
 * This object also defines what the kernel code of both configurations
 * shares; arm64-nocontpte.o is compiled from this file without
 * CONFIG_ARM64_CONTPTE, like a kernel without contpte.c.
 */
struct page model_memmap[MODEL_NR_PFNS];
struct mm_struct init_mm;
static struct task_struct task = { .active_mm = &user_mm };
struct task_struct *current = &task;
bool arm64_convert_pending;

/*
 * STUBBED: out-of-line arm64 functions that the code above references but
 * the batched helpers never reach (arch/arm64/mm/fault.c).
 */
int __ptep_set_access_flags_anysz(struct vm_area_struct *vma,
				  unsigned long address, pte_t *ptep,
				  pte_t entry, int dirty, unsigned long pgsize)
{
	fprintf(stderr, "%s: not modelled\n", __func__);
	abort();
}

#define ARM64_ARCH		arm64_arch
#define ARM64_ARCH_NAME		"arm64"

#else /* CONFIG_ARM64_CONTPTE */

/* Without contpte.c nothing may set PTE_CONT. */
static bool contpte_is_consistent(pte_t pte, unsigned long pfn,
				  pgprot_t orig_prot)
{
	return false;
}

#define ARM64_ARCH		arm64_nocontpte_arch
#define ARM64_ARCH_NAME		"arm64 without CONFIG_ARM64_CONTPTE"

#endif /* CONFIG_ARM64_CONTPTE */

static pte_t *ptep_of(unsigned int idx)
{
	return (pte_t *)&model_pt[idx];
}

static unsigned long addr_of(unsigned int idx)
{
	return MODEL_BASE_ADDR + (unsigned long)idx * PAGE_SIZE;
}

/* Entry constructors: the kernel's helpers, as core mm builds entries. */

static uint64_t arm64_mk_present(unsigned long pfn, unsigned int flags)
{
	pte_t pte = pfn_pte(pfn, (flags & PB_WRITE) ? PAGE_SHARED :
				 PAGE_READONLY);

	pte = (flags & PB_YOUNG) ? pte_mkyoung(pte) : pte_mkold(pte);
	if (flags & PB_DIRTY)
		pte = pte_mkdirty(pte);
	/* Hardware DBM: a write to a writable PTE clears PTE_RDONLY. */
	if ((flags & PB_HWDIRTY) && pte_write(pte))
		pte = clear_pte_bit(pte, __pgprot(PTE_RDONLY));
	if (flags & PB_UFFD_WP)
		pte = pte_mkuffd(pte);
	if (flags & PB_SOFT_DIRTY)
		pte = pte_mksoft_dirty(pte);
	return pte_val(pte);
}

static uint64_t arm64_mk_softleaf(enum pb_leaf kind, unsigned int type,
				  unsigned long offset, unsigned int flags)
{
	swp_entry_t entry;
	pte_t pte;

	switch (kind) {
	case PB_LEAF_SWAP:
		entry = swp_entry(type, offset);
		break;
	case PB_LEAF_MIGRATION_READ:
		entry = make_readable_migration_entry(offset);
		break;
	case PB_LEAF_MIGRATION_READ_EXCLUSIVE:
		entry = make_readable_exclusive_migration_entry(offset);
		break;
	case PB_LEAF_MIGRATION_WRITE:
		entry = make_writable_migration_entry(offset);
		break;
	case PB_LEAF_DEVICE_PRIVATE_READ:
		entry = make_readable_device_private_entry(offset);
		break;
	case PB_LEAF_DEVICE_PRIVATE_WRITE:
		entry = make_writable_device_private_entry(offset);
		break;
	case PB_LEAF_DEVICE_EXCLUSIVE:
		entry = make_device_exclusive_entry(offset);
		break;
	case PB_LEAF_HWPOISON:
		entry = make_hwpoison_entry(pfn_to_page(offset));
		break;
	case PB_LEAF_MARKER_UFFD_WP:
		return pte_val(make_pte_marker(PTE_MARKER_UFFD_WP));
	case PB_LEAF_MARKER_GUARD:
		return pte_val(make_pte_marker(PTE_MARKER_GUARD));
	case PB_LEAF_MARKER_POISONED:
		return pte_val(make_pte_marker(PTE_MARKER_POISONED));
	case PB_LEAF_MARKER_UFFD_WP_GUARD:
		return pte_val(make_pte_marker(PTE_MARKER_UFFD_WP |
					       PTE_MARKER_GUARD));
	default:
		abort();
	}

	pte = swp_entry_to_pte(entry);
	if (flags & PB_EXCLUSIVE)
		pte = pte_swp_mkexclusive(pte);
	if (flags & PB_SOFT_DIRTY)
		pte = pte_swp_mksoft_dirty(pte);
	if (flags & PB_SWP_UFFD_WP)
		pte = pte_swp_mkuffd(pte);
	return pte_val(pte);
}

static uint64_t arm64_ptep_get(unsigned int idx)
{
	return pte_val(ptep_get(ptep_of(idx)));
}

static bool arm64_pte_valid(uint64_t pte)
{
	return pte_valid(__pte(pte));
}

static unsigned long arm64_pte_pfn(uint64_t pte)
{
	return pte_pfn(__pte(pte));
}

static bool arm64_pte_dirty(uint64_t pte)
{
	return pte_dirty(__pte(pte));
}

static bool arm64_pte_young(uint64_t pte)
{
	return pte_young(__pte(pte));
}

static uint64_t arm64_pte_normal(uint64_t pte)
{
	return pte_val(pte_mknoncont(pte_mkold(pte_mkclean(__pte(pte)))));
}

static bool arm64_pte_present(uint64_t pte)
{
	return pte_present(__pte(pte));
}

static void arm64_set_folio(unsigned long pfn, unsigned long nr)
{
	unsigned long i;

	if (pfn + nr > MODEL_NR_PFNS)
		abort();
	for (i = 0; i < nr; i++) {
		model_memmap[pfn + i].head_pfn = pfn;
		model_memmap[pfn + i].nr_pages = i ? 0 : nr;
	}
}

/*
 * A valid contiguous PTE is only allowed in a block whose CONT_PTES entries
 * are all valid, contiguous, physically aligned and share their attributes
 * (bar access and dirty): the hardware may use any entry of the block to
 * translate any address of it.  The check is contpte.c's own
 * contpte_is_consistent().
 */
static int arm64_check_table(void)
{
	unsigned int blk, i;

	for (blk = 0; blk < MODEL_NR_PTES; blk += CONT_PTES) {
		pte_t *ptep = ptep_of(blk);
		pte_t first = ptep[0];
		bool any = false;
		unsigned long pfn;
		pgprot_t prot;

		for (i = 0; i < CONT_PTES; i++)
			any |= pte_valid_cont(ptep[i]);
		if (!any)
			continue;
		if (!pte_valid_cont(first) || (pte_pfn(first) & (CONT_PTES - 1)))
			return blk;
		pfn = pte_pfn(first);
		prot = pte_pgprot(pte_mkold(pte_mkclean(first)));
		for (i = 0; i < CONT_PTES; i++)
			if (!contpte_is_consistent(ptep[i], pfn + i, prot))
				return blk;
	}
	return -1;
}

/* The batched helpers under test. */

static void arm64_set_ptes(unsigned int idx, uint64_t pte, unsigned int nr)
{
	set_ptes(&user_mm, addr_of(idx), ptep_of(idx), __pte(pte), nr);
}

static uint64_t arm64_get_and_clear_full_ptes(unsigned int idx,
					      unsigned int nr, int full)
{
	return pte_val(get_and_clear_full_ptes(&user_mm, addr_of(idx),
					       ptep_of(idx), nr, full));
}

static void arm64_clear_full_ptes(unsigned int idx, unsigned int nr, int full)
{
	clear_full_ptes(&user_mm, addr_of(idx), ptep_of(idx), nr, full);
}

static void arm64_clear_nonpresent_ptes(unsigned int idx, unsigned int nr)
{
	clear_nonpresent_ptes(&user_mm, addr_of(idx), ptep_of(idx), nr);
}

static void arm64_wrprotect_ptes(unsigned int idx, unsigned int nr)
{
	wrprotect_ptes(&user_mm, addr_of(idx), ptep_of(idx), nr);
}

static cydp_t to_cydp(unsigned int flags)
{
	return ((flags & PB_CYDP_YOUNG) ? CYDP_CLEAR_YOUNG : 0) |
	       ((flags & PB_CYDP_DIRTY) ? CYDP_CLEAR_DIRTY : 0);
}

static void arm64_clear_young_dirty_ptes(unsigned int idx, unsigned int nr,
					 unsigned int flags)
{
	clear_young_dirty_ptes(&user_vma, addr_of(idx), ptep_of(idx), nr,
			       to_cydp(flags));
}

static bool arm64_test_and_clear_young_ptes(unsigned int idx, unsigned int nr)
{
	return test_and_clear_young_ptes(&user_vma, addr_of(idx), ptep_of(idx),
					 nr);
}

static bool arm64_clear_flush_young_ptes(unsigned int idx, unsigned int nr)
{
	return clear_flush_young_ptes(&user_vma, addr_of(idx), ptep_of(idx),
				      nr);
}

static void arm64_set_softleaf_ptes(unsigned int idx, uint64_t pte,
				    unsigned int nr)
{
	set_softleaf_ptes(&user_mm, addr_of(idx), ptep_of(idx), __pte(pte), nr);
}

/*
 * The per-PTE loops: the definitions the batched helpers are held to, as
 * include/linux/pgtable.h writes them for an architecture without
 * overrides, calling arm64's single-PTE operations.
 */

static void arm64_set_pte_at(unsigned int idx, uint64_t pte)
{
	set_pte_at(&user_mm, addr_of(idx), ptep_of(idx), __pte(pte));
}

static void ref_set_ptes(unsigned int idx, uint64_t val, unsigned int nr)
{
	pte_t pte = __pte(val);

	for (;;) {
		set_pte_at(&user_mm, addr_of(idx), ptep_of(idx), pte);
		if (--nr == 0)
			break;
		idx++;
		pte = pte_next_pfn(pte);
	}
}

static uint64_t ref_get_and_clear_full_ptes(unsigned int idx,
					    unsigned int nr, int full)
{
	pte_t pte, tmp_pte;

	pte = ptep_get_and_clear_full(&user_mm, addr_of(idx), ptep_of(idx),
				      full);
	while (--nr) {
		idx++;
		tmp_pte = ptep_get_and_clear_full(&user_mm, addr_of(idx),
						  ptep_of(idx), full);
		if (pte_dirty(tmp_pte))
			pte = pte_mkdirty(pte);
		if (pte_young(tmp_pte))
			pte = pte_mkyoung(pte);
	}
	return pte_val(pte);
}

static void ref_clear_full_ptes(unsigned int idx, unsigned int nr, int full)
{
	for (;;) {
		ptep_get_and_clear_full(&user_mm, addr_of(idx), ptep_of(idx),
					full);
		if (--nr == 0)
			break;
		idx++;
	}
}

static void ref_clear_nonpresent_ptes(unsigned int idx, unsigned int nr)
{
	for (;;) {
		pte_clear(&user_mm, addr_of(idx), ptep_of(idx));
		if (--nr == 0)
			break;
		idx++;
	}
}

static void ref_wrprotect_ptes(unsigned int idx, unsigned int nr)
{
	for (;;) {
		ptep_set_wrprotect(&user_mm, addr_of(idx), ptep_of(idx));
		if (--nr == 0)
			break;
		idx++;
	}
}

static void ref_clear_young_dirty_ptes(unsigned int idx, unsigned int nr,
				       unsigned int pb_flags)
{
	cydp_t flags = to_cydp(pb_flags);
	pte_t pte;

	for (;;) {
		if (flags == CYDP_CLEAR_YOUNG) {
			ptep_test_and_clear_young(&user_vma, addr_of(idx),
						  ptep_of(idx));
		} else {
			pte = ptep_get_and_clear(&user_mm, addr_of(idx),
						 ptep_of(idx));
			if (flags & CYDP_CLEAR_YOUNG)
				pte = pte_mkold(pte);
			if (flags & CYDP_CLEAR_DIRTY)
				pte = pte_mkclean(pte);
			set_pte_at(&user_mm, addr_of(idx), ptep_of(idx), pte);
		}
		if (--nr == 0)
			break;
		idx++;
	}
}

static bool ref_test_and_clear_young_ptes(unsigned int idx, unsigned int nr)
{
	bool young = false;

	for (;;) {
		young |= ptep_test_and_clear_young(&user_vma, addr_of(idx),
						   ptep_of(idx));
		if (--nr == 0)
			break;
		idx++;
	}
	return young;
}

static bool ref_clear_flush_young_ptes(unsigned int idx, unsigned int nr)
{
	bool young = false;

	for (;;) {
		young |= ptep_clear_flush_young(&user_vma, addr_of(idx),
						ptep_of(idx));
		if (--nr == 0)
			break;
		idx++;
	}
	return young;
}

const struct pb_arch ARM64_ARCH = {
	.name = ARM64_ARCH_NAME,
	.cont_ptes = IS_ENABLED(CONFIG_ARM64_CONTPTE) ? CONT_PTES : 1,
	.cont_bit = IS_ENABLED(CONFIG_ARM64_CONTPTE) ? PTE_CONT : 0,
	.has_soft_dirty = IS_ENABLED(CONFIG_HAVE_ARCH_SOFT_DIRTY),

	.mk_present = arm64_mk_present,
	.mk_softleaf = arm64_mk_softleaf,
	.ptep_get = arm64_ptep_get,
	.pte_valid = arm64_pte_valid,
	.pte_pfn = arm64_pte_pfn,
	.pte_dirty = arm64_pte_dirty,
	.pte_young = arm64_pte_young,
	.pte_normal = arm64_pte_normal,
	.pte_present = arm64_pte_present,
	.set_folio = arm64_set_folio,
	.check_table = arm64_check_table,

	.set_ptes = arm64_set_ptes,
	.get_and_clear_full_ptes = arm64_get_and_clear_full_ptes,
	.clear_full_ptes = arm64_clear_full_ptes,
	.clear_nonpresent_ptes = arm64_clear_nonpresent_ptes,
	.wrprotect_ptes = arm64_wrprotect_ptes,
	.clear_young_dirty_ptes = arm64_clear_young_dirty_ptes,
	.test_and_clear_young_ptes = arm64_test_and_clear_young_ptes,
	.clear_flush_young_ptes = arm64_clear_flush_young_ptes,
	.set_softleaf_ptes = arm64_set_softleaf_ptes,

	.ref_set_ptes = ref_set_ptes,
	.ref_get_and_clear_full_ptes = ref_get_and_clear_full_ptes,
	.ref_clear_full_ptes = ref_clear_full_ptes,
	.ref_clear_nonpresent_ptes = ref_clear_nonpresent_ptes,
	.ref_wrprotect_ptes = ref_wrprotect_ptes,
	.ref_clear_young_dirty_ptes = ref_clear_young_dirty_ptes,
	.ref_test_and_clear_young_ptes = ref_test_and_clear_young_ptes,
	.ref_clear_flush_young_ptes = ref_clear_flush_young_ptes,

	.set_pte_at = arm64_set_pte_at,
};
