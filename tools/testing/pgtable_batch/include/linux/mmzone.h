/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <linux/mmzone.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef _LINUX_MMZONE_H
#define _LINUX_MMZONE_H
#include "../pgtable_batch_internal.h"
#endif /* _LINUX_MMZONE_H */
