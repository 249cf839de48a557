/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <asm/compat.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef __ASM_COMPAT_H
#define __ASM_COMPAT_H
#include "../../pgtable_batch_internal.h"
#endif /* __ASM_COMPAT_H */
