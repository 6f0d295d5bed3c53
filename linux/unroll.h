/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loop unrolling (Linux 7.x): hints before a loop, and UNROLL(N, MACRO,
 * args...), which expands to MACRO(0, args) MACRO(1, args) ...
 * MACRO(N - 1, args) for a literal or macro N of at most 16.
 */
#ifndef _LINUX_UNROLL_H
#define _LINUX_UNROLL_H

#define __unroll_pragma(text)	_Pragma(#text)
#ifdef __clang__
#define unrolled_count(n)	__unroll_pragma(clang loop unroll_count(n))
#define unrolled_full		__unroll_pragma(clang loop unroll(full))
#define unrolled_none		__unroll_pragma(clang loop unroll(disable))
#define unrolled		__unroll_pragma(clang loop unroll(enable))
#else
#define unrolled_count(n)	__unroll_pragma(GCC unroll n)
#define unrolled_full		__unroll_pragma(GCC unroll 65534)
#define unrolled_none		__unroll_pragma(GCC unroll 1)
#define unrolled		__unroll_pragma(GCC unroll 8)
#endif

#define __unroll_cat(a, b)	a##b
#define __unroll_n(n)		__unroll_cat(__unroll_, n)
#define UNROLL(n, macro, ...)	__unroll_n(n)(macro, __VA_ARGS__)

#define __unroll_0(m, ...)
#define __unroll_1(m, ...)	__unroll_0(m, __VA_ARGS__) m(0, __VA_ARGS__)
#define __unroll_2(m, ...)	__unroll_1(m, __VA_ARGS__) m(1, __VA_ARGS__)
#define __unroll_3(m, ...)	__unroll_2(m, __VA_ARGS__) m(2, __VA_ARGS__)
#define __unroll_4(m, ...)	__unroll_3(m, __VA_ARGS__) m(3, __VA_ARGS__)
#define __unroll_5(m, ...)	__unroll_4(m, __VA_ARGS__) m(4, __VA_ARGS__)
#define __unroll_6(m, ...)	__unroll_5(m, __VA_ARGS__) m(5, __VA_ARGS__)
#define __unroll_7(m, ...)	__unroll_6(m, __VA_ARGS__) m(6, __VA_ARGS__)
#define __unroll_8(m, ...)	__unroll_7(m, __VA_ARGS__) m(7, __VA_ARGS__)
#define __unroll_9(m, ...)	__unroll_8(m, __VA_ARGS__) m(8, __VA_ARGS__)
#define __unroll_10(m, ...)	__unroll_9(m, __VA_ARGS__) m(9, __VA_ARGS__)
#define __unroll_11(m, ...)	__unroll_10(m, __VA_ARGS__) m(10, __VA_ARGS__)
#define __unroll_12(m, ...)	__unroll_11(m, __VA_ARGS__) m(11, __VA_ARGS__)
#define __unroll_13(m, ...)	__unroll_12(m, __VA_ARGS__) m(12, __VA_ARGS__)
#define __unroll_14(m, ...)	__unroll_13(m, __VA_ARGS__) m(13, __VA_ARGS__)
#define __unroll_15(m, ...)	__unroll_14(m, __VA_ARGS__) m(14, __VA_ARGS__)
#define __unroll_16(m, ...)	__unroll_15(m, __VA_ARGS__) m(15, __VA_ARGS__)

#endif /* _LINUX_UNROLL_H */
