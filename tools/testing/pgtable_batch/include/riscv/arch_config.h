/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel configuration the riscv code under test is compiled for:
 * riscv64, 4K pages, Sv39/Sv48/Sv57 chosen at boot, Svrsw60t59b support
 * (soft-dirty and userfaultfd-wp), no Svnapot, no Svpbmt, no T-Head
 * errata, SMP.
 */
#ifndef __PGTABLE_BATCH_ARCH_CONFIG_H
#define __PGTABLE_BATCH_ARCH_CONFIG_H

#define CONFIG_64BIT				1
#define CONFIG_MMU				1
#define CONFIG_SMP				1
#define CONFIG_RISCV				1
#define CONFIG_PAGE_SHIFT			12
#define CONFIG_PGTABLE_LEVELS			5
#define CONFIG_RISCV_ISA_SVRSW60T59B		1
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
