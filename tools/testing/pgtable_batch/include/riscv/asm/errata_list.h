/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <asm/errata_list.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef ASM_ERRATA_LIST_H
#define ASM_ERRATA_LIST_H
#include "../../pgtable_batch_internal.h"
#endif /* ASM_ERRATA_LIST_H */
