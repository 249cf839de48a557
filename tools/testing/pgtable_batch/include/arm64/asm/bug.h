/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <asm/bug.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef _ARCH_ARM64_ASM_BUG_H
#define _ARCH_ARM64_ASM_BUG_H
#include "../../pgtable_batch_internal.h"
#endif /* _ARCH_ARM64_ASM_BUG_H */
