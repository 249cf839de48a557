// SPDX-License-Identifier: GPL-2.0
/*
 * An #include whose name a macro computes: the script cannot know which
 * macros it brings, so nothing in the file is converted.
 */
#define GUARD_HEADER	"guard_local.h"
#include GUARD_HEADER

static void guards(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
		   unsigned int nr)
{
	for (;;) {
		VM_WARN_ON(!pte_none(ptep_get(ptep)));
		set_pte_at(mm, addr, ptep, make_pte_marker(PTE_MARKER_GUARD));
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}
