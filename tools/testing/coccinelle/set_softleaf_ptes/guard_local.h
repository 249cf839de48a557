/* SPDX-License-Identifier: GPL-2.0 */
/* A local header whose macro names an iterator of causes.c. */
#define GUARD_LAST_ADDR	guard_addr
