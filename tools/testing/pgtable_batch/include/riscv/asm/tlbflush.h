/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <asm/tlbflush.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef _ASM_RISCV_TLBFLUSH_H
#define _ASM_RISCV_TLBFLUSH_H
#include "../../pgtable_batch_internal.h"
#endif /* _ASM_RISCV_TLBFLUSH_H */
