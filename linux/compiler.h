/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compiler attributes and single-copy accesses.
 *
 * READ_ONCE/WRITE_ONCE are relaxed atomics: they compile to the same plain
 * loads and stores as the kernel's volatile accesses, and the compiler may
 * neither tear, merge nor repeat them.
 */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#include <linux/kconfig.h>

#define __user
#define __iomem
#define __rcu
#define __must_check		__attribute__((warn_unused_result))
#define __always_unused		__attribute__((unused))
#define __maybe_unused		__attribute__((unused))
#ifndef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif
#define noinline		__attribute__((noinline))
#define __aligned(x)		__attribute__((aligned(x)))
#define __packed		__attribute__((packed))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __cold			__attribute__((cold))
/* Bounds annotations for the kernel's sanitizers: nothing here. */
#ifndef __counted_by
#define __counted_by(m)
#endif
#ifndef __counted_by_le
#define __counted_by_le(m)
#endif
#ifndef __counted_by_be
#define __counted_by_be(m)
#endif

#ifndef likely
#define likely(x)		__builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x)		__builtin_expect(!!(x), 0)
#endif

#define barrier()		__asm__ __volatile__("" : : : "memory")

#if defined(__SANITIZE_THREAD__)
#define __ONCE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __ONCE_TSAN 1
#endif
#endif

#ifdef __ONCE_TSAN
/*
 * ThreadSanitizer does not model stand-alone fences.  Ring code always
 * publishes with "write data; wmb; WRITE_ONCE(index)" and consumes with
 * "READ_ONCE(index); rmb; read data", so giving the single-copy accesses
 * release and acquire semantics shows TSan the same ordering the fences give.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELEASE)
#else
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
#endif

/* A deliberate, tolerated race: evaluate without instrumentation concerns. */
#define data_race(expr)		(expr)

#define __same_type(a, b)	__builtin_types_compatible_p(typeof(a), typeof(b))

#endif /* _LINUX_COMPILER_H */
