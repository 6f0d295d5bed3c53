/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCU, as a reader-writer lock: readers hold it shared, synchronize_rcu()
 * takes it exclusive once, so it returns only after every reader that was
 * inside a read section when it was called has left.  Readers must not
 * sleep (as in the kernel); glibc's default lock prefers readers, so a
 * nested read section never waits for a writer.
 */
#ifndef _LINUX_RCUPDATE_H
#define _LINUX_RCUPDATE_H

#include <linux/compiler.h>

void rcu_read_lock(void);
void rcu_read_unlock(void);
void synchronize_rcu(void);
#define rcu_read_lock_bh()		rcu_read_lock()
#define rcu_read_unlock_bh()		rcu_read_unlock()

/* Freed after a grace period: here, once every reader present has left. */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};
#define kfree_rcu(ptr, field) do {					\
	synchronize_rcu();						\
	kfree(ptr);							\
} while (0)

#define rcu_dereference(p)		__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_dereference_check(p, c)	rcu_dereference(p)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_access_pointer(p)		READ_ONCE(p)
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)

#endif /* _LINUX_RCUPDATE_H */
