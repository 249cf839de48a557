/* SPDX-License-Identifier: GPL-2.0 */
/* A local header's macro that names an iterator. */
#define ZAP_LAST_ADDR	zap_addr
