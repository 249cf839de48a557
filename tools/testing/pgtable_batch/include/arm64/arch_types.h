/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real arm64 PTE layout: pte_t, the PTE_* bits, CONT_PTES. */
#ifndef __PGTABLE_BATCH_ARCH_TYPES_H
#define __PGTABLE_BATCH_ARCH_TYPES_H

#include <linux/sizes.h>
#include <asm/page-def.h>
#include <asm/pgtable-prot.h>

#endif /* __PGTABLE_BATCH_ARCH_TYPES_H */
