/* SPDX-License-Identifier: GPL-2.0 */
/* Spinlocks: a real test-and-set lock, so shared state is really guarded. */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

#include <linux/types.h>
#include <linux/compiler.h>

typedef struct {
	int locked;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)	{ 0 }
#define DEFINE_SPINLOCK(name)		spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

static inline void spin_lock_init(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELAXED);
}

static inline void spin_lock(spinlock_t *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			barrier();
}

static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define spin_lock_irqsave(lock, flags)	do { (flags) = 0; spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) do { (void)(flags); spin_unlock(lock); } while (0)
#define spin_lock_irq(lock)		spin_lock(lock)
#define spin_unlock_irq(lock)		spin_unlock(lock)
#define spin_lock_bh(lock)		spin_lock(lock)
#define spin_unlock_bh(lock)		spin_unlock(lock)

#endif /* _LINUX_SPINLOCK_H */
