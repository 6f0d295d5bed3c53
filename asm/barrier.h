/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory barriers.  The virt_* and smp_* families order accesses between
 * CPUs sharing cache-coherent memory; mb/rmb/wmb and dma_* also order against
 * devices, which in userspace means the strongest fence of the architecture.
 * Unknown architectures fall back to C11 fences, which are correct if slower.
 */
#ifndef _ASM_BARRIER_H
#define _ASM_BARRIER_H

#include <linux/compiler.h>

#if defined(__x86_64__) || defined(__i386__)
/*
 * x86 is TSO: only store->load needs a fence, and a locked instruction is
 * one, cheaper than mfence (which gcc emits for a C11 seq_cst fence), as
 * the kernel's x86 smp_mb() is.  Or-ing 0 into the word at the stack
 * pointer changes nothing there.
 */
#ifdef __x86_64__
#define virt_mb()	__asm__ __volatile__("lock; orl $0,(%%rsp)" ::: "memory", "cc")
#else
#define virt_mb()	__asm__ __volatile__("lock; orl $0,(%%esp)" ::: "memory", "cc")
#endif
#define virt_rmb()	barrier()
#define virt_wmb()	barrier()
#define mb()		__asm__ __volatile__("mfence" ::: "memory")
#define rmb()		__asm__ __volatile__("lfence" ::: "memory")
#define wmb()		__asm__ __volatile__("sfence" ::: "memory")
#define dma_rmb()	barrier()
#define dma_wmb()	barrier()
#elif defined(__aarch64__)
#define virt_mb()	__asm__ __volatile__("dmb ish" ::: "memory")
#define virt_rmb()	__asm__ __volatile__("dmb ishld" ::: "memory")
#define virt_wmb()	__asm__ __volatile__("dmb ishst" ::: "memory")
#define mb()		__asm__ __volatile__("dsb sy" ::: "memory")
#define rmb()		__asm__ __volatile__("dsb ld" ::: "memory")
#define wmb()		__asm__ __volatile__("dsb st" ::: "memory")
#define dma_rmb()	__asm__ __volatile__("dmb oshld" ::: "memory")
#define dma_wmb()	__asm__ __volatile__("dmb oshst" ::: "memory")
#else
#define virt_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define virt_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define virt_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define wmb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define dma_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define dma_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

#ifdef __ONCE_TSAN
/*
 * ThreadSanitizer sees neither inline assembly nor stand-alone fences (gcc
 * refuses __atomic_thread_fence under -fsanitize=thread: -Wtsan).  A full
 * barrier becomes a sequentially consistent read-modify-write of a dummy
 * word: a locked instruction on x86, which is a full fence there; on
 * arm64 the real dmb follows, as the RMW alone does not order a store
 * before it with a load after it.  The word is per thread, so barriers
 * never make threads synchronize in TSan's eyes: what orders the rings for
 * TSan is only what orders them for real, READ_ONCE/WRITE_ONCE with
 * acquire/release (linux/compiler.h), and a missing release is reported.
 * The read and write barriers stay what they are on x86.
 */
extern __thread int __rig_tsan_mb_word;
__thread int __rig_tsan_mb_word __attribute__((weak));

static inline void __rig_tsan_full_barrier(void)
{
	__atomic_fetch_add(&__rig_tsan_mb_word, 0, __ATOMIC_SEQ_CST);
#if defined(__aarch64__)
	__asm__ __volatile__("dmb ish" ::: "memory");
#endif
}

#undef virt_mb
#undef mb
#undef rmb
#undef wmb
#define virt_mb()	__rig_tsan_full_barrier()
#define mb()		__rig_tsan_full_barrier()
#define rmb()		__rig_tsan_full_barrier()
#define wmb()		__rig_tsan_full_barrier()
#if !defined(__x86_64__) && !defined(__i386__)
#undef virt_rmb
#undef virt_wmb
#undef dma_rmb
#undef dma_wmb
#define virt_rmb()	__rig_tsan_full_barrier()
#define virt_wmb()	__rig_tsan_full_barrier()
#define dma_rmb()	__rig_tsan_full_barrier()
#define dma_wmb()	__rig_tsan_full_barrier()
#endif
#endif

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__ONCE_TSAN)
/* A store and a full fence in one: xchg, as the kernel's x86 has it. */
#define virt_store_mb(var, value) \
	do { (void)__atomic_exchange_n(&(var), (value), __ATOMIC_SEQ_CST); } while (0)
#else
#define virt_store_mb(var, value) \
	do { WRITE_ONCE(var, value); virt_mb(); } while (0)
#endif

#define smp_mb()	virt_mb()
#define smp_rmb()	virt_rmb()
#define smp_wmb()	virt_wmb()
#define smp_store_mb(var, value)	virt_store_mb(var, value)
#define smp_load_acquire(p)		__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)		__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define __smp_mb()	smp_mb()

#endif /* _ASM_BARRIER_H */
