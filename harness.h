/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every rig program needs and none should write twice: checks that
 * stop with a location, number parsing, build information, CPU choice and
 * pinning, shared memory mapped at two addresses, notification channels and
 * the guest-address translation a vringh getrange callback performs.
 *
 * Programs include this and the kernel API headers; nothing here reaches
 * into a ring implementation's private state.
 */
#ifndef RIG_HARNESS_H
#define RIG_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Stop the program with the failing condition and its location. */
#define CHECK(cond) do {						\
	if (!(cond))							\
		rig_check_failed(__FILE__, __LINE__, #cond);		\
} while (0)

/* As CHECK, with a formatted explanation. */
#define CHECKF(cond, ...) do {						\
	if (!(cond))							\
		rig_check_failedf(__FILE__, __LINE__, #cond, __VA_ARGS__); \
} while (0)

void rig_check_failed(const char *file, int line, const char *cond)
	__attribute__((noreturn));
void rig_check_failedf(const char *file, int line, const char *cond,
		       const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

/* Fatal error with errno text, as err(3), naming the program. */
void rig_die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/*
 * Parse a whole decimal (or 0x hex) number in [min, max].  False (and
 * nothing stored) for anything else: empty, trailing junk, out of range.
 */
bool rig_parse_ulong(const char *s, unsigned long min, unsigned long max,
		     unsigned long *out);

/* "PROG: built by CC with CFLAGS=..., ring code: ...": for --version. */
void rig_print_version(const char *prog);

/* Which ring implementations this binary was linked with. */
const char *rig_guest_impl(void);
const char *rig_host_impl(void);

/* Number of CPUs this process may run on. */
int rig_cpus_allowed(void);
/*
 * The two allowed CPUs farthest apart (lowest and highest).  Returns the
 * number of allowed CPUs; with only one, *a == *b.
 */
int rig_pick_two_cpus(int *a, int *b);
/* Pin the calling thread to @cpu; dies on failure. */
void rig_pin_thread(int cpu);

/*
 * Anonymous shared memory (memfd: private to this run, nothing in the file
 * system) mapped twice, so the host sees the guest's memory at a different
 * address and address translation is really exercised.
 */
struct rig_shm {
	size_t size;
	void *guest;	/* the guest's view: addresses it puts in rings */
	void *host;	/* the host's view of the same bytes */
};

void rig_shm_create(struct rig_shm *shm, size_t size);
void rig_shm_destroy(struct rig_shm *shm);

/* A one-way notification (eventfd). */
struct rig_chan {
	int fd;
	unsigned long signalled;	/* times signal() was called */
	unsigned long woken;		/* times wait() returned */
};

void rig_chan_init(struct rig_chan *c);
void rig_chan_destroy(struct rig_chan *c);
void rig_chan_signal(struct rig_chan *c);
/* Block until signalled; swallows every pending signal at once. */
void rig_chan_wait(struct rig_chan *c);
/*
 * As rig_chan_wait(), but wait with poll() for at most @timeout_ms (negative:
 * for ever).  False if it timed out, with nothing swallowed.
 */
bool rig_chan_wait_timeout(struct rig_chan *c, int timeout_ms);

/*
 * Guest-address translation for the vringh _user accessors.  After
 * rig_user_map(), the "user" window is the host view [host, host + size),
 * and rig_getrange() maps guest addresses [guest, guest + size) onto it.
 * With @slow every range it hands out is a single byte, so vringh must split
 * each descriptor into one iovec per byte.
 */
struct vringh;
struct vringh_range;

void rig_user_map(const void *guest, void *host, size_t size, bool slow);
bool rig_getrange(struct vringh *vrh, uint64_t addr, struct vringh_range *r);

#endif /* RIG_HARNESS_H */
