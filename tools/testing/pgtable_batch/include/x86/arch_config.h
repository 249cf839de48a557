/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel configuration the x86 code under test is compiled for:
 * x86_64, 4K pages, five levels (four at run time), soft-dirty,
 * userfaultfd-wp, no paravirt.
 */
#ifndef __PGTABLE_BATCH_ARCH_CONFIG_H
#define __PGTABLE_BATCH_ARCH_CONFIG_H

#define CONFIG_64BIT				1
#define CONFIG_MMU				1
#define CONFIG_X86				1
#define CONFIG_X86_64				1
#define CONFIG_PAGE_SHIFT			12
#define CONFIG_PGTABLE_LEVELS			5
#define CONFIG_HAVE_ARCH_SOFT_DIRTY		1
#define CONFIG_MEM_SOFT_DIRTY			1
#define CONFIG_HAVE_ARCH_USERFAULTFD_WP		1
#define CONFIG_PTE_MARKER_UFFD_WP		1
#define CONFIG_USERFAULTFD			1
#define CONFIG_SWAP				1
#define CONFIG_MIGRATION			1
#define CONFIG_MEMORY_FAILURE			1
#define CONFIG_DEVICE_PRIVATE			1
#define CONFIG_ARCH_HAS_PTE_PROTNONE		1

#endif /* __PGTABLE_BATCH_ARCH_CONFIG_H */
