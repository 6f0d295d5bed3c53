/* SPDX-License-Identifier: GPL-2.0 */
/* atomic_t and the bit operations, on the compiler's __atomic builtins. */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

#include <linux/types.h>
#include <linux/compiler.h>

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i)		{ (i) }
#define atomic_read(v)		__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_inc(v)		((void)__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic_dec(v)		((void)__atomic_sub_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic_dec_and_test(v)	(__atomic_sub_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST) == 0)
#define atomic_inc_return(v)	__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_sub_return(i, v)	__atomic_sub_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST)

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_or_fetch(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_SEQ_CST);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_and_fetch(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_SEQ_CST);
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return __atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) & BIT_MASK(nr);
}

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}

static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}

#endif /* _LINUX_ATOMIC_H */
