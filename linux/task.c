// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks, kthreads, vhost tasks, wait queues and RCU for kernel code that
 * runs threads of its own (the vhost core): linux/sched.h, linux/kthread.h,
 * linux/sched/vhost_task.h, linux/wait.h, linux/rcupdate.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/vhost_task.h>
#include <linux/slab.h>
#include <linux/wait.h>

struct mm_struct rig_mm = {
	.mm_users = ATOMIC_INIT(1),
	.mm_count = ATOMIC_INIT(1),
};

static __thread struct task_struct *this_task;

static void task_init(struct task_struct *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	t->state = TASK_RUNNING;
	t->mm = &rig_mm;
}

/*
 * A thread this shim did not start (the program's own) gets its task when
 * it first asks; it lives as long as the process (one per such thread).
 */
struct task_struct *rig_current(void)
{
	static struct task_struct *adopted[64];
	static unsigned int nadopted;
	struct task_struct *t = this_task;
	unsigned int i;

	if (t)
		return t;
	t = malloc(sizeof(*t));
	if (!t) {
		fprintf(stderr, "rig_current: out of memory\n");
		abort();
	}
	task_init(t);
	t->thread = pthread_self();
	t->pid = gettid();
	snprintf(t->comm, sizeof(t->comm), "rig-%d", t->pid);
	this_task = t;
	/* Kept reachable, so leak checkers see it as owned. */
	i = __atomic_fetch_add(&nadopted, 1, __ATOMIC_RELAXED);
	if (i < ARRAY_SIZE(adopted))
		adopted[i] = t;
	return t;
}

void __set_task_state(struct task_struct *tsk, int state)
{
	pthread_mutex_lock(&tsk->lock);
	tsk->state = state;
	pthread_mutex_unlock(&tsk->lock);
}

void schedule(void)
{
	struct task_struct *t = current;

	pthread_mutex_lock(&t->lock);
	while (t->state != TASK_RUNNING)
		pthread_cond_wait(&t->wake, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

int wake_up_process(struct task_struct *tsk)
{
	int woke;

	pthread_mutex_lock(&tsk->lock);
	woke = tsk->state != TASK_RUNNING;
	tsk->state = TASK_RUNNING;
	pthread_cond_signal(&tsk->wake);
	pthread_mutex_unlock(&tsk->lock);
	return woke;
}

/* ---- where the shims' threads run ---- */

static int task_cpu = -1;	/* atomic */

void rig_task_cpu(int cpu)
{
	__atomic_store_n(&task_cpu, cpu, __ATOMIC_RELAXED);
}

int rig_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	int cpu = __atomic_load_n(&task_cpu, __ATOMIC_RELAXED);
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	if (cpu < 0)
		return pthread_create(thread, NULL, fn, arg);
	err = pthread_attr_init(&attr);
	if (err)
		return err;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

/* ---- kthreads ---- */

static void *kthread_main(void *arg)
{
	struct task_struct *t = arg;

	this_task = t;
	t->pid = gettid();
	schedule();		/* made asleep: the first wake_up_process() starts it */
	t->result = t->threadfn(t->data);
	return NULL;
}

struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char *namefmt, ...)
{
	struct task_struct *t = malloc(sizeof(*t));
	va_list ap;
	int err;

	if (!t)
		return ERR_PTR(-ENOMEM);
	task_init(t);
	t->made_here = true;
	t->threadfn = threadfn;
	t->data = data;
	t->state = TASK_UNINTERRUPTIBLE;
	va_start(ap, namefmt);
	vsnprintf(t->comm, sizeof(t->comm), namefmt, ap);
	va_end(ap);
	err = rig_thread_start(&t->thread, kthread_main, t);
	if (err) {
		free(t);
		return ERR_PTR(-err);
	}
	return t;
}

bool kthread_should_stop(void)
{
	struct task_struct *t = current;
	bool stop;

	pthread_mutex_lock(&t->lock);
	stop = t->should_stop;
	pthread_mutex_unlock(&t->lock);
	return stop;
}

int kthread_stop(struct task_struct *k)
{
	int result;

	pthread_mutex_lock(&k->lock);
	k->should_stop = true;
	pthread_mutex_unlock(&k->lock);
	wake_up_process(k);
	pthread_join(k->thread, NULL);
	result = k->result;
	pthread_cond_destroy(&k->wake);
	pthread_mutex_destroy(&k->lock);
	free(k);
	return result;
}

void kthread_use_mm(struct mm_struct *mm)
{
	current->mm = mm;
}

void kthread_unuse_mm(struct mm_struct *mm)
{
	(void)mm;
	current->mm = NULL;
}

/* ---- vhost tasks: a kthread running the kernel's vhost_task loop ---- */

struct vhost_task {
	bool (*fn)(void *data);
	void *data;
	struct task_struct *task;
	bool stop;		/* atomic */
};

static int vhost_task_fn(void *data)
{
	struct vhost_task *vtsk = data;

	for (;;) {
		/* Asleep-to-be before the checks: a wake-up after them counts. */
		set_current_state(TASK_INTERRUPTIBLE);
		if (__atomic_load_n(&vtsk->stop, __ATOMIC_ACQUIRE)) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		if (!vtsk->fn(vtsk->data))
			schedule();
	}
	return 0;
}

#ifdef RIG_VHOST_TASK_SHOULD_STOP_ARGS
#error "linux/task.c: this tree's vhost.c calls vhost_task_should_stop() (Linux 6.4's vhost_task, whose fn loops itself): not supported, only 6.5's form on and the kthread worker"
#endif

/* What a failed create returns: the form the tree's vhost.c tests for. */
static struct vhost_task *vhost_task_failed(long err)
{
#ifdef RIG_VHOST_TASK_CREATE_ERR_PTR
	return ERR_PTR(err);
#else
	(void)err;
	return NULL;
#endif
}

#if RIG_VHOST_TASK_CREATE_ARGS == 4
struct vhost_task *vhost_task_create(bool (*fn)(void *), void (*handle_kill)(void *),
				     void *arg, const char *name)
#else
struct vhost_task *vhost_task_create(bool (*fn)(void *), void *arg, const char *name)
#endif
{
	struct vhost_task *vtsk = kzalloc(sizeof(*vtsk), GFP_KERNEL);
	struct task_struct *t;

#if RIG_VHOST_TASK_CREATE_ARGS == 4
	(void)handle_kill;	/* nothing sends SIGKILL */
#endif
	if (!vtsk)
		return vhost_task_failed(-ENOMEM);
	vtsk->fn = fn;
	vtsk->data = arg;
	t = kthread_create(vhost_task_fn, vtsk, "%s", name);
	if (IS_ERR(t)) {
		kfree(vtsk);
		return vhost_task_failed(PTR_ERR(t));
	}
	vtsk->task = t;
	return vtsk;
}

void vhost_task_start(struct vhost_task *vtsk)
{
	wake_up_process(vtsk->task);
}

void vhost_task_wake(struct vhost_task *vtsk)
{
	wake_up_process(vtsk->task);
}

void vhost_task_stop(struct vhost_task *vtsk)
{
	__atomic_store_n(&vtsk->stop, true, __ATOMIC_RELEASE);
	kthread_stop(vtsk->task);
	kfree(vtsk);
}

/* ---- wait queues ---- */

void init_waitqueue_head(struct wait_queue_head *wq_head)
{
	pthread_mutex_init(&wq_head->lock, NULL);
	pthread_cond_init(&wq_head->waiters, NULL);
	INIT_LIST_HEAD(&wq_head->head);
}

void destroy_waitqueue_head(struct wait_queue_head *wq_head)
{
	pthread_cond_destroy(&wq_head->waiters);
	pthread_mutex_destroy(&wq_head->lock);
}

void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	pthread_mutex_lock(&wq_head->lock);
	list_add_tail(&wq_entry->entry, &wq_head->head);
	pthread_cond_broadcast(&wq_head->waiters);
	pthread_mutex_unlock(&wq_head->lock);
}

void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	pthread_mutex_lock(&wq_head->lock);
	list_del_init(&wq_entry->entry);
	pthread_mutex_unlock(&wq_head->lock);
}

/* Call each entry's function (@nr is for exclusive waits: none here). */
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr, void *key)
{
	struct wait_queue_entry *e, *next;

	(void)nr;
	pthread_mutex_lock(&wq_head->lock);
	list_for_each_entry_safe(e, next, &wq_head->head, entry)
		e->func(e, mode, 0, key);
	pthread_mutex_unlock(&wq_head->lock);
}

/* Called with the queue's lock held: take the entry off and wake its task. */
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			     int sync, void *key)
{
	(void)mode;
	(void)sync;
	(void)key;
	list_del_init(&wq_entry->entry);
	return wake_up_process(wq_entry->private);
}

void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
		     int state)
{
	pthread_mutex_lock(&wq_head->lock);
	if (list_empty(&wq_entry->entry))
		list_add_tail(&wq_entry->entry, &wq_head->head);
	__set_task_state(current, state);
	pthread_mutex_unlock(&wq_head->lock);
}

void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	__set_task_state(current, TASK_RUNNING);
	pthread_mutex_lock(&wq_head->lock);
	if (!list_empty(&wq_entry->entry))
		list_del_init(&wq_entry->entry);
	pthread_mutex_unlock(&wq_head->lock);
}

/* ---- RCU ---- */

static pthread_rwlock_t rcu_lock = PTHREAD_RWLOCK_INITIALIZER;

void rcu_read_lock(void)
{
	pthread_rwlock_rdlock(&rcu_lock);
}

void rcu_read_unlock(void)
{
	pthread_rwlock_unlock(&rcu_lock);
}

void synchronize_rcu(void)
{
	pthread_rwlock_wrlock(&rcu_lock);
	pthread_rwlock_unlock(&rcu_lock);
}
