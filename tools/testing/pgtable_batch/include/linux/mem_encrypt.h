/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stands in for <linux/mem_encrypt.h>: same include guard as the kernel header, so the
 * kernel one is never read.  What the code under test needs from it is
 * declared in pgtable_batch_internal.h.
 */
#ifndef __MEM_ENCRYPT_H__
#define __MEM_ENCRYPT_H__
#include "../pgtable_batch_internal.h"
#endif /* __MEM_ENCRYPT_H__ */
