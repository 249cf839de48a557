/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <asm/cpufeature.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef _ASM_CPUFEATURE_H
#define _ASM_CPUFEATURE_H
#include "../../pgtable_batch_internal.h"
#endif /* _ASM_CPUFEATURE_H */
