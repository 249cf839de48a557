/* SPDX-License-Identifier: GPL-2.0 */
/* A local header whose macro names an iterator of causes.c and include.c. */
#define ZAP_LAST_ADDR	zap_addr
