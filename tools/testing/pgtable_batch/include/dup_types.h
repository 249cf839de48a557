/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DUPLICATED from the kernel: integer types and compiler macros
 * (include/linux/types.h, include/linux/compiler*.h, include/linux/bits.h,
 * include/linux/align.h), which everything else builds on.
 */
#ifndef __PGTABLE_BATCH_DUP_TYPES_H
#define __PGTABLE_BATCH_DUP_TYPES_H

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 phys_addr_t;
typedef unsigned long pgoff_t;
typedef struct { int counter; } atomic_t;

#define __bitwise
#define __force
#define __pure			__attribute__((__pure__))
/* __always_inline comes from glibc's <sys/cdefs.h>, with the same meaning. */
#define __must_check		__attribute__((__warn_unused_result__))
#define __maybe_unused		__attribute__((__unused__))
#define __read_mostly
#define __init
#define __meminitdata
#define noinline		__attribute__((__noinline__))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define BITS_PER_LONG		64
#define UL(x)			(_UL(x))
#define ULL(x)			(_ULL(x))
#define BIT(nr)			(UL(1) << (nr))
#define BIT_ULL(nr)		(ULL(1) << (nr))
#define GENMASK(h, l) \
	(((~UL(0)) - (UL(1) << (l)) + 1) & (~UL(0) >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	(((~ULL(0)) - (ULL(1) << (l)) + 1) & (~ULL(0) >> (64 - 1 - (h))))

#define __ALIGN_KERNEL_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define __ALIGN_KERNEL(x, a)	__ALIGN_KERNEL_MASK(x, (__typeof__(x))(a) - 1)
#define ALIGN(x, a)		__ALIGN_KERNEL((x), (a))
#define ALIGN_DOWN(x, a)	__ALIGN_KERNEL((x) - ((a) - 1), (a))
#define __PTR_ALIGN(p, a)	((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define PTR_ALIGN_DOWN(p, a)	((__typeof__(p))ALIGN_DOWN((unsigned long)(p), (a)))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#define __IS_ENABLED_ARG(_0, val, ...)	val
#define __IS_ENABLED_1(x)	__IS_ENABLED_ARG(x 1, 0, 0)
#define ___IS_ENABLED(x)	__IS_ENABLED_1(__IS_ENABLED_SEP_##x)
#define __IS_ENABLED_SEP_1	0,
#define IS_ENABLED(option)	___IS_ENABLED(option)

#endif /* __PGTABLE_BATCH_DUP_TYPES_H */
