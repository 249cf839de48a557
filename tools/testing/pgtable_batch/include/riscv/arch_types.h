/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real riscv PTE layout: pte_t and the _PAGE_* bits. */
#ifndef __PGTABLE_BATCH_ARCH_TYPES_H
#define __PGTABLE_BATCH_ARCH_TYPES_H

#include <asm/page.h>
#include <asm/pgtable-bits.h>

#endif /* __PGTABLE_BATCH_ARCH_TYPES_H */
