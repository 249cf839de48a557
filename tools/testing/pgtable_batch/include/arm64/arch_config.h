/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel configuration the arm64 code under test is compiled for:
 * 4K pages, 39-bit VA (three levels), contpte (unless PB_NO_CONTPTE),
 * userfaultfd-wp.
 */
#ifndef __PGTABLE_BATCH_ARCH_CONFIG_H
#define __PGTABLE_BATCH_ARCH_CONFIG_H

#define CONFIG_64BIT				1
#define CONFIG_MMU				1
#define CONFIG_ARM64				1
#define CONFIG_ARM64_4K_PAGES			1
#define CONFIG_PAGE_SHIFT			12
#define CONFIG_ARM64_VA_BITS			39
#define CONFIG_ARM64_PA_BITS			48
#define CONFIG_PGTABLE_LEVELS			3
#define CONFIG_ARM64_CONT_PTE_SHIFT		4
#define CONFIG_ARM64_CONT_PMD_SHIFT		4
#ifndef PB_NO_CONTPTE
#define CONFIG_ARM64_CONTPTE			1
#endif
#define CONFIG_HAVE_ARCH_USERFAULTFD_WP		1
#define CONFIG_PTE_MARKER_UFFD_WP		1
#define CONFIG_USERFAULTFD			1
#define CONFIG_SWAP				1
#define CONFIG_MIGRATION			1
#define CONFIG_MEMORY_FAILURE			1
#define CONFIG_DEVICE_PRIVATE			1
#define CONFIG_ARCH_HAS_PTE_PROTNONE		1

#endif /* __PGTABLE_BATCH_ARCH_CONFIG_H */
