/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pgtable_batch_internal.h
 *
 * Everything the real kernel code under test (arch/arm64/include/asm/
 * pgtable.h, arch/arm64/mm/contpte.c, include/linux/pgtable_batch.h) needs
 * from the rest of the kernel, in userspace.  Every kernel header those
 * files include is replaced by a file in include/ that carries the kernel
 * header's include guard and includes this one, so no other kernel header
 * is ever read.
 *
 * Declarations are split three ways so that drift from the kernel is easy
 * to review:
 *
 *   dup.h    - DUPLICATED from the kernel, unchanged in meaning.
 *   stubs.h  - STUBBED: features the batch code does not exercise (MTE,
 *              EFI, cache maintenance, ...), reduced to no-ops or false.
 *   custom.h - CUSTOMISED for testing: the primitives that touch the page
 *              table or the TLB (READ_ONCE(), WRITE_ONCE(), xchg, cmpxchg,
 *              barriers, TLB invalidation, page_table_check hooks,
 *              warnings) count every use in the model (see model.h), and
 *              struct page/folio describe the model's memory.
 *
 * with the architecture's part of each in include/<arch>/arch_*.h, next to
 * the stand-ins for its asm/ headers.
 */
#ifndef __PGTABLE_BATCH_INTERNAL_H
#define __PGTABLE_BATCH_INTERNAL_H

/* The architecture's directory, include/<arch>/, is searched first. */
#include <arch_config.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model.h"

/* Types and compiler macros, needed by the real asm/pgtable-*.h. */
#include "dup_types.h"

/* The real PTE layout of the architecture: pte_t and its bits. */
#include <arch_types.h>

#include "stubs.h"
#include <arch_stubs.h>
#include "dup.h"
#include "custom.h"
#include <arch_custom.h>

/* The real generic and architecture PTE helpers. */
#include <linux/pgtable.h>

#endif /* __PGTABLE_BATCH_INTERNAL_H */
