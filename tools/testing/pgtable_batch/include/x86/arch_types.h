/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real x86 PTE layout: pte_t and the _PAGE_* bits. */
#ifndef __PGTABLE_BATCH_ARCH_TYPES_H
#define __PGTABLE_BATCH_ARCH_TYPES_H

#include <asm/pgtable_types.h>

#endif /* __PGTABLE_BATCH_ARCH_TYPES_H */
