/* SPDX-License-Identifier: GPL-2.0 */
/* Sleeping locks: a pthread mutex.  Lock classes and lockdep are not kept. */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H

#include <pthread.h>
#include <linux/types.h>

struct mutex {
	pthread_mutex_t m;
};

#define DEFINE_MUTEX(name)	struct mutex name = { PTHREAD_MUTEX_INITIALIZER }

static inline void mutex_init(struct mutex *lock)
{
	pthread_mutex_init(&lock->m, NULL);
}

static inline void mutex_destroy(struct mutex *lock)
{
	pthread_mutex_destroy(&lock->m);
}

static inline void mutex_lock(struct mutex *lock)
{
	pthread_mutex_lock(&lock->m);
}

#define mutex_lock_nested(lock, subclass)	mutex_lock(lock)

static inline void mutex_unlock(struct mutex *lock)
{
	pthread_mutex_unlock(&lock->m);
}

static inline bool mutex_trylock(struct mutex *lock)
{
	return pthread_mutex_trylock(&lock->m) == 0;
}

/* lockdep is not kept: every "is it held" assertion holds. */
#define lockdep_is_held(lock)		((void)(lock), 1)
#define lockdep_assert_held(lock)	do { (void)(lock); } while (0)

#endif /* _LINUX_MUTEX_H */
