// SPDX-License-Identifier: GPL-2.0
/*
 * Completions (linux/completion.h): wait_for_completion() sleeps on a
 * futex on the count while it is 0; complete() wakes it.  The futex
 * operations are the Linux ABI's, process-private.  Linked into every
 * program (complete() is inline).
 */
#include <limits.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/completion.h>

#define RIG_FUTEX_WAIT	(0 | 128)
#define RIG_FUTEX_WAKE	(1 | 128)

void __complete_wake(struct completion *x)
{
	syscall(SYS_futex, &x->done, RIG_FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void wait_for_completion(struct completion *x)
{
	unsigned int done;

	while ((done = __atomic_load_n(&x->done, __ATOMIC_ACQUIRE)) == 0)
		syscall(SYS_futex, &x->done, RIG_FUTEX_WAIT, 0, NULL, NULL, 0);
	/* Each wait takes one complete(), as in the kernel. */
	while (!__atomic_compare_exchange_n(&x->done, &done, done - 1, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		while (done == 0) {
			syscall(SYS_futex, &x->done, RIG_FUTEX_WAIT, 0, NULL, NULL, 0);
			done = __atomic_load_n(&x->done, __ATOMIC_ACQUIRE);
		}
	}
}
