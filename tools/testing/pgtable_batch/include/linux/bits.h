/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <linux/bits.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef __LINUX_BITS_H
#define __LINUX_BITS_H
#include "../pgtable_batch_internal.h"
#endif /* __LINUX_BITS_H */
