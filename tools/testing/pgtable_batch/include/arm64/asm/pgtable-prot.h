/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real kernel header, read from the tree under test (KSRC). */
#include <arch/arm64/include/asm/pgtable-prot.h>
