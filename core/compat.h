/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the only header core/ takes from its host: fixed-width types
 * and the few helpers that differ between Kbuild and userspace.
 */
#ifndef ANTIC_COMPAT_H
#define ANTIC_COMPAT_H

/*
 * ANTIC_NOINLINE keeps a function out of line (where its caller's stack
 * frame would grow for it); ANTIC_INLINE, beside static inline, puts one
 * inline where the compiler would make it a call.
 *
 * ANTIC_WARN_ON(cond): an invariant of core's, true when broken. In the
 * kernel it is WARN_ON_ONCE; in userspace the host defines antic_warn(),
 * which counts it, so that tests and fuzzers fail on it rather than read
 * on past corrupted state. Either way it evaluates to cond.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/bug.h>

#define ANTIC_WARN_ON(cond) WARN_ON_ONCE(cond)
#define ANTIC_NOINLINE noinline
#define ANTIC_INLINE __always_inline

static inline u64 antic_div64(u64 a, u64 b)
{
	return div64_u64(a, b);
}
#else
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

static inline u64 antic_div64(u64 a, u64 b)
{
	return a / b;
}

void antic_warn(const char *file, int line, const char *cond);

static inline bool antic_warn_on(bool broken, const char *file, int line,
				 const char *cond)
{
	if (broken)
		antic_warn(file, line, cond);
	return broken;
}

#define ANTIC_WARN_ON(cond) antic_warn_on(!!(cond), __FILE__, __LINE__, #cond)
#define ANTIC_NOINLINE __attribute__((noinline))
#define ANTIC_INLINE __attribute__((always_inline))
#endif

/* Decrement a count that must not be zero: warn and leave it, not wrap. */
#define ANTIC_DEC(count)				\
	do {						\
		if (!ANTIC_WARN_ON((count) == 0))	\
			(count)--;			\
	} while (0)

#define ANTIC_NSEC_PER_USEC 1000ULL
#define ANTIC_NSEC_PER_MSEC 1000000ULL
#define ANTIC_NSEC_PER_SEC 1000000000ULL

static inline u64 antic_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 antic_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

static inline u64 antic_absdiff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/* String equality, for the tables core looks names up in (no libc here). */
static inline bool antic_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/*
 * A 64-bit integer mixer: every input bit moves every output bit, so the
 * low bits of the result serve as a hash (the treap's priorities, the
 * simulator's pid and sector tables) and the same input always gives the
 * same tree or table.
 */
static inline u64 antic_mix64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Integer square root (floor), used by the seek curve. */
static inline u64 antic_isqrt64(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

#endif /* ANTIC_COMPAT_H */
