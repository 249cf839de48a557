// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ops.c
 *
 * The kernel side of struct pb_arch, written once against the kernel's PTE
 * API and included by each architecture's translation unit (arm64.c,
 * x86.c, riscv.c) after the kernel code under test.  That file defines
 * PB_ARCH, PB_ARCH_NAME, PB_CONT_PTES, PB_CONT_BIT, PB_TLB_CONT_PTES,
 * arch_hw_dirty(), arch_pte_valid(), arch_pte_normal(), arch_check_table()
 * and arch_tlb_decode().
 */

static struct mm_struct user_mm = { .mm_users = { 1 } };
static struct vm_area_struct user_vma = { .vm_mm = &user_mm };
static struct task_struct task = { .active_mm = &user_mm };
static struct task_struct *current __maybe_unused = &task;

static pte_t *ptep_of(unsigned int idx)
{
	return (pte_t *)&model_pt[idx];
}

static unsigned long addr_of(unsigned int idx)
{
	return MODEL_BASE_ADDR + (unsigned long)idx * PAGE_SIZE;
}

/* Entry constructors: the kernel's helpers, as core mm builds entries. */

static uint64_t k_mk_present(unsigned long pfn, unsigned int flags)
{
	pte_t pte = pfn_pte(pfn, (flags & PB_WRITE) ? PAGE_SHARED :
				 PAGE_READONLY);

	pte = (flags & PB_YOUNG) ? pte_mkyoung(pte) : pte_mkold(pte);
	if (flags & PB_DIRTY)
		pte = pte_mkdirty(pte);
	if ((flags & PB_HWDIRTY) && pte_write(pte))
		pte = arch_hw_dirty(pte);
	if (flags & PB_UFFD_WP)
		pte = pte_mkuffd(pte);
	if (flags & PB_SOFT_DIRTY)
		pte = pte_mksoft_dirty(pte);
	return pte_val(pte);
}

static uint64_t k_mk_softleaf(enum pb_leaf kind, unsigned int type,
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

static uint64_t k_ptep_get(unsigned int idx)
{
	return pte_val(ptep_get(ptep_of(idx)));
}

static bool k_pte_valid(uint64_t pte)
{
	return arch_pte_valid(__pte(pte));
}

static unsigned long k_pte_pfn(uint64_t pte)
{
	return pte_pfn(__pte(pte));
}

static bool k_pte_dirty(uint64_t pte)
{
	return pte_dirty(__pte(pte));
}

static bool k_pte_young(uint64_t pte)
{
	return pte_young(__pte(pte));
}

static uint64_t k_pte_normal(uint64_t pte)
{
	return pte_val(arch_pte_normal(pte_mkold(pte_mkclean(__pte(pte)))));
}

static bool k_pte_present(uint64_t pte)
{
	return pte_present(__pte(pte));
}

static bool k_pte_write(uint64_t pte)
{
	return pte_write(__pte(pte));
}

static bool k_pte_same(uint64_t a, uint64_t b)
{
	return pte_same(__pte(a), __pte(b));
}

static uint64_t k_mkclean(uint64_t pte)
{
	return pte_val(pte_mkclean(pte_wrprotect(__pte(pte))));
}

static void k_set_folio(unsigned long pfn, unsigned long nr)
{
	unsigned long i;

	if (pfn + nr > MODEL_NR_PFNS)
		abort();
	for (i = 0; i < nr; i++) {
		model_memmap[pfn + i].head_pfn = pfn;
		model_memmap[pfn + i].nr_pages = i ? 0 : nr;
	}
}

/* The batched helpers under test. */

static void k_set_ptes(unsigned int idx, uint64_t pte, unsigned int nr)
{
	set_ptes(&user_mm, addr_of(idx), ptep_of(idx), __pte(pte), nr);
}

static uint64_t k_get_and_clear_full_ptes(unsigned int idx,
					  unsigned int nr, int full)
{
	return pte_val(get_and_clear_full_ptes(&user_mm, addr_of(idx),
					       ptep_of(idx), nr, full));
}

static void k_clear_full_ptes(unsigned int idx, unsigned int nr, int full)
{
	clear_full_ptes(&user_mm, addr_of(idx), ptep_of(idx), nr, full);
}

static void k_clear_nonpresent_ptes(unsigned int idx, unsigned int nr)
{
	clear_nonpresent_ptes(&user_mm, addr_of(idx), ptep_of(idx), nr);
}

static void k_wrprotect_ptes(unsigned int idx, unsigned int nr)
{
	wrprotect_ptes(&user_mm, addr_of(idx), ptep_of(idx), nr);
}

static cydp_t to_cydp(unsigned int flags)
{
	return ((flags & PB_CYDP_YOUNG) ? CYDP_CLEAR_YOUNG : 0) |
	       ((flags & PB_CYDP_DIRTY) ? CYDP_CLEAR_DIRTY : 0);
}

static void k_clear_young_dirty_ptes(unsigned int idx, unsigned int nr,
				     unsigned int flags)
{
	clear_young_dirty_ptes(&user_vma, addr_of(idx), ptep_of(idx), nr,
			       to_cydp(flags));
}

static bool k_test_and_clear_young_ptes(unsigned int idx, unsigned int nr)
{
	return test_and_clear_young_ptes(&user_vma, addr_of(idx), ptep_of(idx),
					 nr);
}

static bool k_clear_flush_young_ptes(unsigned int idx, unsigned int nr)
{
	return clear_flush_young_ptes(&user_vma, addr_of(idx), ptep_of(idx),
				      nr);
}

static void k_set_softleaf_ptes(unsigned int idx, uint64_t pte,
				unsigned int nr)
{
	set_softleaf_ptes(&user_mm, addr_of(idx), ptep_of(idx), __pte(pte), nr);
}

static uint64_t k_move_softleaf_offset(uint64_t pte, long delta)
{
	return pte_val(pte_move_softleaf_offset(__pte(pte), delta));
}

static unsigned int k_softleaf_pte_batch(unsigned int idx, uint64_t pte,
					 unsigned int max_nr)
{
	return softleaf_pte_batch(ptep_of(idx), __pte(pte), max_nr);
}

/*
 * The per-PTE loops: the definitions the batched helpers are held to, as
 * include/linux/pgtable.h writes them for an architecture without
 * overrides, calling arm64's single-PTE operations.
 */

static void k_set_pte_at(unsigned int idx, uint64_t pte)
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
			pte = pte_merge_dirty(pte);
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

/* The TLB model and the flushes core mm issues. */

static void k_tlb_reset(void)
{
	model_tlb_reset(PB_TLB_CONT_PTES, arch_tlb_decode);
}

static void k_flush_tlb_range(unsigned int idx, unsigned int nr)
{
	flush_tlb_range(&user_vma, addr_of(idx), addr_of(idx + nr));
}

static struct arch_tlbflush_unmap_batch tlb_batch;

static void k_tlbbatch_add_pending(unsigned int idx, unsigned int nr)
{
	arch_tlbbatch_add_pending(&tlb_batch, &user_mm, addr_of(idx),
				  addr_of(idx + nr));
}

static void k_tlbbatch_flush(void)
{
	arch_tlbbatch_flush(&tlb_batch);
}

static uint64_t k_pte_advance_pfn(uint64_t pte, unsigned long nr)
{
	return pte_val(pte_advance_pfn(__pte(pte), nr));
}

static void k_raw_store(unsigned int idx, uint64_t pte)
{
	WRITE_ONCE(model_pt[idx], pte);
}

const struct pb_arch PB_ARCH = {
	.name = PB_ARCH_NAME,
	.cont_ptes = PB_CONT_PTES,
	.cont_bit = PB_CONT_BIT,
	.has_soft_dirty = IS_ENABLED(CONFIG_HAVE_ARCH_SOFT_DIRTY),

	.mk_present = k_mk_present,
	.mk_softleaf = k_mk_softleaf,
	.ptep_get = k_ptep_get,
	.pte_valid = k_pte_valid,
	.pte_pfn = k_pte_pfn,
	.pte_dirty = k_pte_dirty,
	.pte_young = k_pte_young,
	.pte_normal = k_pte_normal,
	.pte_present = k_pte_present,
	.pte_write = k_pte_write,
	.pte_same = k_pte_same,
	.mkclean = k_mkclean,
	.set_folio = k_set_folio,
	.check_table = arch_check_table,

	.set_ptes = k_set_ptes,
	.get_and_clear_full_ptes = k_get_and_clear_full_ptes,
	.clear_full_ptes = k_clear_full_ptes,
	.clear_nonpresent_ptes = k_clear_nonpresent_ptes,
	.wrprotect_ptes = k_wrprotect_ptes,
	.clear_young_dirty_ptes = k_clear_young_dirty_ptes,
	.test_and_clear_young_ptes = k_test_and_clear_young_ptes,
	.clear_flush_young_ptes = k_clear_flush_young_ptes,
	.set_softleaf_ptes = k_set_softleaf_ptes,

	.ref_set_ptes = ref_set_ptes,
	.ref_get_and_clear_full_ptes = ref_get_and_clear_full_ptes,
	.ref_clear_full_ptes = ref_clear_full_ptes,
	.ref_clear_nonpresent_ptes = ref_clear_nonpresent_ptes,
	.ref_wrprotect_ptes = ref_wrprotect_ptes,
	.ref_clear_young_dirty_ptes = ref_clear_young_dirty_ptes,
	.ref_test_and_clear_young_ptes = ref_test_and_clear_young_ptes,
	.ref_clear_flush_young_ptes = ref_clear_flush_young_ptes,

	.move_softleaf_offset = k_move_softleaf_offset,
	.softleaf_pte_batch = k_softleaf_pte_batch,
	.set_pte_at = k_set_pte_at,

	.tlb_reset = k_tlb_reset,
	.flush_tlb_range = k_flush_tlb_range,
	.tlbbatch_add_pending = k_tlbbatch_add_pending,
	.tlbbatch_flush = k_tlbbatch_flush,
	.pte_advance_pfn = k_pte_advance_pfn,
	.raw_store = k_raw_store,
};
