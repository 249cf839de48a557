/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <linux/mmdebug.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef LINUX_MM_DEBUG_H
#define LINUX_MM_DEBUG_H
#include "../pgtable_batch_internal.h"
#endif /* LINUX_MM_DEBUG_H */
