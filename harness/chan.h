/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Notification channels (chan.c): one-way notifications (eventfds) whose
 * waiter spins for as long as a wake-up costs, then sleeps.
 */
#ifndef RIG_HARNESS_CHAN_H
#define RIG_HARNESS_CHAN_H

#include <stdbool.h>

/*
 * A one-way notification (eventfd) whose waiter spins before it sleeps,
 * for as long as a wake-up costs here and no longer: spinning longer than
 * a wake-up takes costs more than sleeping, and sleeping when the signal
 * was about to come costs a wake-up's time (a cross-CPU wake-up round
 * trip is tens of microseconds on an idle VM, milliseconds on a loaded
 * one: bench/wakeup, bench/README).  The cost is measured as the program
 * runs: each wait that slept through a signal times it from the signal to
 * the waiter running again, and @wake_ns keeps their running mean, the
 * spin's budget (at most RIG_SPIN_MAX_NS).  A signal to a waiter that is
 * spinning is a store to shared memory, not a system call.  Who signals
 * when is the ring's business and does not change: a side that waits
 * longer than a wake-up (for a ring-full of buffers) still sleeps.
 */
struct rig_chan {
	int fd;
	unsigned long signalled;	/* times signal() was called */
	unsigned long woken;		/* times wait() returned */
	unsigned long slept;		/* wake-ups timed (waits that slept through a signal) */
	/*
	 * The other end is not a rig_chan (a kernel tree's vhost core reads
	 * and writes the eventfd itself): every signal writes, every wait
	 * reads, nobody spins.
	 */
	bool raw;
	/*
	 * The most the waiter spins: RIG_SPIN_MAX_NS, 0 when its signaller
	 * runs on the waiter's own CPU (while it spins the signaller cannot
	 * run: a wake-up there is a context switch, and spinning only
	 * delays it).
	 */
	unsigned long long spin_max_ns;
	/*
	 * The channel the signaller sleeps on, if known: while the signaller
	 * is asleep there it cannot signal before it is woken, so the waiter
	 * sleeps at once (the two sides never both spin, each waiting for
	 * the other).
	 */
	const struct rig_chan *peer;
	int pending;			/* a signal not yet taken */
	int asleep;			/* the waiter may be in read() or poll() */
	unsigned long long signal_ns;	/* when signal() last wrote (rig_now_ns()) */
	unsigned long long wake_ns;	/* the waiter's: what a wake-up took, running mean */
};

/*
 * The most a waiter spins, whatever a wake-up costs: 1 ms (a build may
 * set it: -DRIG_SPIN_MAX_NS=0 never spins).
 */
#ifndef RIG_SPIN_MAX_NS
#define RIG_SPIN_MAX_NS		1000000ULL
#endif

/* CLOCK_MONOTONIC in ns. */
unsigned long long rig_now_ns(void);
void rig_chan_init(struct rig_chan *c);
void rig_chan_destroy(struct rig_chan *c);
void rig_chan_signal(struct rig_chan *c);
/*
 * Wake the waiter without counting a signal: for a third thread (Ctrl-C),
 * which must not touch @signalled while the channel's own sender does.
 */
void rig_chan_wake(struct rig_chan *c);
/*
 * Wait until signalled: spin for as long as a wake-up costs, then sleep.
 * Takes every pending signal at once.
 */
void rig_chan_wait(struct rig_chan *c);
/*
 * As rig_chan_wait(), but sleep with poll() for at most @timeout_ms
 * (negative: for ever).  False if it timed out, or Ctrl-C came
 * (rig_interrupted), with nothing taken.
 */
bool rig_chan_wait_timeout(struct rig_chan *c, int timeout_ms);
/* How long @c's waiter spins: its wake-up cost so far, at most spin_max_ns. */
unsigned long long rig_chan_spin_ns(const struct rig_chan *c);

#endif /* RIG_HARNESS_CHAN_H */
