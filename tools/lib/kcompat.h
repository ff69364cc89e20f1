/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's types and helpers for kernel sources that
 * are also built into the userspace tools (kernel/core/manifest_check.c).
 * Names and semantics follow the kernel's; nothing here is Greybus-specific.
 */
#ifndef GB_KCOMPAT_H
#define GB_KCOMPAT_H

#ifdef __KERNEL__
#error "kcompat.h is for userspace builds only"
#endif

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define le16_to_cpu(x)	((u16)__builtin_bswap16((u16)(x)))
#define le32_to_cpu(x)	((u32)__builtin_bswap32((u32)(x)))
#define cpu_to_le16(x)	((__le16)__builtin_bswap16((u16)(x)))
#define cpu_to_le32(x)	((__le32)__builtin_bswap32((u32)(x)))
#else
#define le16_to_cpu(x)	((u16)(x))
#define le32_to_cpu(x)	((u32)(x))
#define cpu_to_le16(x)	((__le16)(u16)(x))
#define cpu_to_le32(x)	((__le32)(u32)(x))
#endif

#ifndef U8_MAX
#define U8_MAX		((u8)~0U)
#endif
#ifndef U16_MAX
#define U16_MAX		((u16)~0U)
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#ifndef ALIGN
#define ALIGN(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#endif
#ifndef IS_ALIGNED
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#endif

#ifndef BITS_PER_LONG
#define BITS_PER_LONG		(CHAR_BIT * sizeof(long))
#endif
#ifndef BITS_TO_LONGS
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#endif
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1UL;
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

/* Non-atomic, like the kernel's double-underscore variant */
static inline bool __test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__set_bit(nr, addr);
	return old;
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/* Nothing to export in userspace; a declaration, so its ';' is valid C */
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	_Static_assert(1, #sym)

#endif /* GB_KCOMPAT_H */
