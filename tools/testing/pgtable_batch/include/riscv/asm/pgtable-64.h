/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real kernel header, read from the tree under test (KSRC). */
#include <arch/riscv/include/asm/pgtable-64.h>
