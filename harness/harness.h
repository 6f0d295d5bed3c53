/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every rig program needs and none should write twice.  One header,
 * the files behind it (HARNESS_OBJS in the Makefile), one idea each:
 *
 *   harness.c  checks that stop with a location, CPU choice and pinning,
 *              shared memory mapped at two addresses;
 *   chan.c     notification channels (eventfds) whose waiter spins for
 *              as long as a wake-up costs, then sleeps;
 *   text.c     number parsing, JSON strings and the build line, libc only
 *              (text.h; the stand-alone tools link it too);
 *   cli.c      the command line: exit statuses, usage errors, SKIPs,
 *              progress on a terminal, Ctrl-C; and what a program prints
 *              about itself: --version (the build, which ring code is
 *              linked, from which trees) and --json;
 *   queue.c    a device struct, a split or packed queue made with the
 *              linked driver (the rig's or a kernel tree's), and what the
 *              linked ring code can do (SKIP unless it can);
 *   host.c     the host's view of guest memory (the "user" window and the
 *              guest-address translation of a vringh getrange callback),
 *              the ring as the host sees it there, and vringh on that ring;
 *   mockdev.c  a device played by hand, step by step (see mockdev.h).
 *
 * Programs include this after the kernel API headers; nothing here reaches
 * into a ring implementation's private state, so everything works the same
 * against a kernel tree's ring code (make KSRC=...).
 */
#ifndef RIG_HARNESS_H
#define RIG_HARNESS_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <linux/virtio.h>
#include <linux/virtio_ring.h>

#include "harness/text.h"

/* Stop the program with the failing condition and its location. */
#define CHECK(cond) RIG_CHECK_(false, cond, #cond)
/* As CHECK, with a formatted explanation. */
#define CHECKF(cond, ...) RIG_CHECKF_(false, cond, #cond, __VA_ARGS__)
/*
 * As CHECK and CHECKF, for the one check a case's known kernel gap is
 * about (see rig_expect_kernel_gap()): where that gap is expected, its
 * failure is the gap showing, a TODO; every other check still fails.
 */
#define CHECK_GAP(cond) RIG_CHECK_(true, cond, #cond)
#define CHECKF_GAP(cond, ...) RIG_CHECKF_(true, cond, #cond, __VA_ARGS__)

/* The four above; @text is the condition as written, before expansion. */
#define RIG_CHECK_(gap, cond, text) do {				\
	if (!(cond))							\
		rig_check_failed(__FILE__, __LINE__, gap, text);	\
} while (0)
#define RIG_CHECKF_(gap, cond, text, ...) do {				\
	if (!(cond))							\
		rig_check_failedf(__FILE__, __LINE__, gap, text,	\
				  __VA_ARGS__);				\
} while (0)

/* A failed check: @gap says it is the one a known gap is about. */
void rig_check_failed(const char *file, int line, bool gap, const char *cond)
	__attribute__((noreturn));
void rig_check_failedf(const char *file, int line, bool gap, const char *cond,
		       const char *fmt, ...)
	__attribute__((noreturn, format(printf, 5, 6)));

/* Fatal error with errno text, as err(3), naming the program. */
void rig_die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* Number of CPUs this process may run on. */
int rig_cpus_allowed(void);
/*
 * The two allowed CPUs farthest apart (lowest and highest).  Returns the
 * number of allowed CPUs; with only one, *a == *b.
 */
int rig_pick_two_cpus(int *a, int *b);
/* Pin the calling thread to @cpu; dies on failure. */
void rig_pin_thread(int cpu);
/* May this process run on @cpu? */
bool rig_cpu_allowed(long cpu);
/* The CPUs this process may run on, as a list like "0-1" or "0,2,5-7". */
const char *rig_cpus_allowed_list(void);

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

/*
 * ---- Notification channels (chan.c) ----
 *
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
	int pending;			/* a signal not yet taken */
	int asleep;			/* the waiter may be in read() or poll() */
	unsigned long long signal_ns;	/* when signal() last wrote (rig_now_ns()) */
	unsigned long long wake_ns;	/* the waiter's: what a wake-up took, running mean */
};

/* The most a waiter spins, whatever a wake-up costs: 1 ms. */
#define RIG_SPIN_MAX_NS		1000000ULL

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
/* How long @c's waiter spins: its wake-up cost so far, at most RIG_SPIN_MAX_NS. */
unsigned long long rig_chan_spin_ns(const struct rig_chan *c);

/*
 * ---- The command line (cli.c) ----
 *
 * Exit statuses, the same in every program (harness/README, "Every
 * program's command line"):
 */
#define RIG_EXIT_OK		0	/* did what was asked, every check held */
#define RIG_EXIT_FAIL		1	/* a check failed, or a run-time error */
#define RIG_EXIT_USAGE		2	/* bad command line: nothing was run */
#define RIG_EXIT_SKIP		77	/* the linked ring code lacks a feature */
#define RIG_EXIT_TODO		78	/* a known gap: a check failed as expected */
#define RIG_EXIT_INTERRUPTED	130	/* Ctrl-C (128 + SIGINT), figures so far */

/*
 * A usage error: "PROG: <what is wrong>" and "try 'PROG --help'" on stderr,
 * exit RIG_EXIT_USAGE.  rig_usage_hint() prints only the second line, for
 * when getopt has already said what was wrong.
 */
void rig_usage_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void rig_usage_hint(void) __attribute__((noreturn));
/*
 * Call before getopt: its own messages ("unrecognized option") then name
 * the program as every other message does ("PROG: ..."), not as it was
 * invoked ("./PROG: ...").  rig_getopt() does.
 */
void rig_getopt_name(char *argv[]);
/*
 * Feature options (--indirect, --no-event-idx, ...): the getopt_long value
 * RIG_OPT_FEATURE_ON + BIT sets feature bit BIT, RIG_OPT_FEATURE_OFF + BIT
 * clears it.  rig_feature_option() applies such a value @c to @features
 * and returns true; false for any other value.  A program's own option
 * values stay below RIG_OPT_FEATURE_ON.
 */
enum { RIG_OPT_FEATURE_ON = 0x1000, RIG_OPT_FEATURE_OFF = RIG_OPT_FEATURE_ON + 64 };
bool rig_feature_option(int c, u64 *features);
/*
 * Such options' rows of a struct option table (<getopt.h>): the _ON row's
 * --@name sets @bit, the _OFF row's clears it; RIG_FEATURE_OPTIONS() is
 * the pair --@name and --no-@name.
 */
#define RIG_FEATURE_ON_OPTION(name, bit)	{ name, no_argument, NULL, RIG_OPT_FEATURE_ON + (bit) }
#define RIG_FEATURE_OFF_OPTION(name, bit)	{ name, no_argument, NULL, RIG_OPT_FEATURE_OFF + (bit) }
#define RIG_FEATURE_OPTIONS(name, bit)	\
	RIG_FEATURE_ON_OPTION(name, bit), RIG_FEATURE_OFF_OPTION("no-" name, bit)
/*
 * The options every program's getopt loop treats alike, which rig_getopt()
 * acts on itself: -h, --help (@usage, exit 0), --version (the build as
 * @prog's, rig_print_version(), exit 0), the feature rows (into
 * *@features), --packed (*@packed = true) and --in-order[=N] (*@in_order =
 * true; N, 1 to @batch_max buffers per used entry, into *@batch, and
 * *@batch_given = true, when given) and --json (*@json = true).  A program
 * lists the rows it takes in its table (below) and sets the fields those
 * rows need; NULL for the others (@batch_given may be NULL).  With
 * @no_operands, an operand after the options is a usage error
 * ("unexpected argument 'X'").
 */
struct rig_getopt {
	const char *prog;
	void (*usage)(void);
	u64 *features;
	bool *packed;
	bool *in_order;
	unsigned long *batch;
	unsigned long batch_max;
	bool *batch_given;
	bool *json;
	bool no_operands;
};
enum {
	RIG_OPT_VERSION = RIG_OPT_FEATURE_OFF + 64, RIG_OPT_PACKED, RIG_OPT_IN_ORDER,
	RIG_OPT_JSON,
};
/* Their rows; --in-order's @has_arg: no_argument or optional_argument (=N). */
#define RIG_HELP_OPTION			{ "help", no_argument, NULL, 'h' }
#define RIG_VERSION_OPTION		{ "version", no_argument, NULL, RIG_OPT_VERSION }
#define RIG_PACKED_OPTION		{ "packed", no_argument, NULL, RIG_OPT_PACKED }
#define RIG_IN_ORDER_OPTION(has_arg)	{ "in-order", has_arg, NULL, RIG_OPT_IN_ORDER }
#define RIG_JSON_OPTION			{ "json", no_argument, NULL, RIG_OPT_JSON }
struct option;
/*
 * getopt_long(@argc, @argv, "h", @longopts) with @argv[0] named as
 * rig_getopt_name() does, the options above handled as @g says, and the
 * rows that set an int flag (getopt_long's struct option .flag) passed
 * over once getopt has set it.  Returns the next of the program's own
 * option values, '?' for what getopt refused (it has said what unless
 * opterr is 0), or -1 at the end (then optind is the first operand's
 * index, as getopt leaves it).
 */
int rig_getopt(int argc, char *argv[], const struct option *longopts,
	       const struct rig_getopt *g);

/*
 * An option whose value is a whole number from @min to @max, stored in
 * the unsigned int or unsigned long at @to (an int or a long too, when
 * @max fits it).  RIG_NUMBER_OPT(VAL, VAR, MIN, MAX) is such a row for
 * getopt value VAL and variable VAR.
 */
struct rig_number_opt {
	int val;
	unsigned long min, max;
	void *to;
	size_t size;
};
#define RIG_NUMBER_OPT(v, var, lo, hi)	\
	{ .val = (v), .min = (lo), .max = (hi), .to = &(var), .size = sizeof(var) }
/*
 * When @c, what rig_getopt() returned, is the value of one of the @n
 * @opts: optarg stored where that row says, and true.  A value out of
 * range is a usage error, "bad --NAME 'ARG': not a number from MIN to
 * MAX" (NAME as @longopts spells it; a MAX of 2^32 or more that is a
 * power of two written as one).  False for any other @c.
 */
bool rig_number_option(int c, const struct rig_number_opt *opts, size_t n,
		       const struct option *longopts);

/*
 * A SKIP: "PROG: <why>" on stdout (the check runner shows it as the
 * reason), exit RIG_EXIT_SKIP.
 */
void rig_skip(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/*
 * A program that runs one named case of many (tests/allocfail; the
 * others through rig_case_main()): "--list" prints every name (@name_of(0..@count-1)),
 * "--gaps" each case with a kernel gap (@gap_of(i) non-NULL; @gap_of may
 * be NULL) as "NAME<TAB>GAP", -h or --help prints @help, else the one
 * argument must be a case's name.  Returns its index; anything else is a
 * usage error.
 */
unsigned int rig_case_pick(int argc, char *argv[],
			   const char *(*name_of)(unsigned int i),
			   const char *(*gap_of)(unsigned int i),
			   unsigned int count, const char *help);
/*
 * One case of a program run one case at a time (tests/hostile, tests/dma,
 * ...): see rig_case_main().
 */
struct rig_case {
	const char *name;
	int (*run)(void);	/* returns the exit status; or NULL and: */
	int (*run_arg)(unsigned long arg);	/* run with the row's @arg */
	unsigned long arg;
	bool host;		/* exercises vringh (else virtio_ring) */
	const char *kernel_gap;	/* see rig_expect_kernel_gap(); NULL: none */
};

/*
 * A row of a table of such cases: RIG_CASE() exercises virtio_ring,
 * RIG_HOST_CASE() vringh; the _GAP forms name the case's kernel gap, the
 * _ARG forms run one function of several rows, each with its own @arg.
 */
#define RIG_CASE(n, fn)		{ .name = n, .run = fn }
#define RIG_HOST_CASE(n, fn)	{ .name = n, .run = fn, .host = true }
#define RIG_CASE_GAP(n, fn, gap)	{ .name = n, .run = fn, .kernel_gap = gap }
#define RIG_HOST_CASE_GAP(n, fn, gap)				\
	{ .name = n, .run = fn, .host = true, .kernel_gap = gap }
#define RIG_CASE_ARG(n, fn, a)					\
	{ .name = n, .run_arg = fn, .arg = a }
#define RIG_CASE_ARG_GAP(n, fn, a, gap)				\
	{ .name = n, .run_arg = fn, .arg = a, .kernel_gap = gap }
#define RIG_HOST_CASE_ARG(n, fn, a)				\
	{ .name = n, .run_arg = fn, .arg = a, .host = true }

/* The name of the case rig_case_main() runs. */
extern const char *rig_case_name;

/*
 * The main() of such a program: pick the case (rig_case_pick(), with
 * @help), set rig_case_name, expect its kernel gap and run it; returns its
 * exit status (rig_kernel_gap_end()).
 */
int rig_case_main(int argc, char *argv[], const struct rig_case *cases,
		  unsigned int count, const char *help);
/* The whole main() of such a program: its table @cases, its @help. */
#define RIG_CASE_MAIN(cases, help)					\
int main(int argc, char *argv[])					\
{									\
	return rig_case_main(argc, argv, cases, ARRAY_SIZE(cases), help); \
}

/*
 * A known gap: the code a case exercises (@host: vringh, else virtio_ring)
 * is a kernel tree's, and @kernel_gap (non-NULL) says what that code is
 * known not to detect.  The case still runs.  From here a failing
 * CHECK_GAP or CHECKF_GAP (the check the gap is about) is the gap showing:
 * its message on stderr, then "PROG: known gap: GAP" on stdout and exit
 * RIG_EXIT_TODO.  Any other failing check is a failure as ever.  No-op for
 * the rig's code or a NULL gap.
 */
void rig_expect_kernel_gap(bool host, const char *kernel_gap);
/*
 * The end of a case that returned @status: a case that passed while a gap
 * was expected says "PROG: gap gone: the code under test did what the case
 * checks (known gap was: GAP)" on stdout.  Returns @status.
 */
int rig_kernel_gap_end(int status);
/* Called by a failing CHECK_GAP before it exits (see rig_expect_kernel_gap). */
void rig_kernel_gap_check_failed(void);

/*
 * Ctrl-C.  After rig_catch_interrupt(), SIGINT sets rig_interrupted instead
 * of killing the program, and interrupts (EINTR) what the thread it hits
 * was blocked in.  Threads made with rig_thread_create() block SIGINT, so
 * it always hits the thread that called rig_catch_interrupt().
 */
extern volatile sig_atomic_t rig_interrupted;
void rig_catch_interrupt(void);
/* pthread_create() with SIGINT blocked in the new thread; dies on failure. */
void rig_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);

/*
 * Progress on stderr, only when stderr is a terminal: at most once a
 * second, one line rewritten in place, "PROG: DONE of TOTAL UNIT", erased
 * by rig_progress_end().  Cheap to call often: it reads a coarse clock.
 */
struct rig_progress {
	bool on;
	bool hex;		/* print the counts in hex */
	const char *unit;
	unsigned long total;
	struct timespec next;
};

void rig_progress_init(struct rig_progress *p, const char *unit,
		       unsigned long total, bool hex);
void rig_progress_show(struct rig_progress *p, unsigned long done);
void rig_progress_end(struct rig_progress *p);

/* What a program prints about its build and its results. */

/*
 * For --version: "PROG: built by CC with CFLAGS=...; guest ring code: rig,
 * host ring code: kernel; guest from TREE (VERSION, DESCRIBE, ring files
 * HASH), host from TREE (...)", one line: the tree each side's ring code
 * came from, a kernel tree's version (7.3.4, from its Makefile) and its
 * git describe when known, and a hash of the ring files compiled.
 */
void rig_print_version(const char *prog);

/*
 * --json: a run's results as one JSON object, on one line of stdout, in
 * place of the text lines.  rig_json_begin() opens it with "program" and
 * "build": {"cc", "cflags", "guest", "host", "guest_src", "host_src"}
 * (what --version says; each _src is {"tree", "version", "describe",
 * "files"});
 * rig_json_num() adds "KEY": VALUE, VALUE printed by the format (a number,
 * true or false); rig_json_str() adds a string; rig_json_end() closes it.
 */
void rig_json_begin(const char *prog);
void rig_json_num(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rig_json_str(const char *key, const char *value);
void rig_json_end(void);
/*
 * The ring's negotiated @features as every program reports them: "ring"
 * ("split" or "packed"), then "indirect", "event_idx", "virtio_1" and
 * "in_order" (true or false).
 */
void rig_json_features(u64 features);

/* Which ring implementations this binary was linked with. */
const char *rig_guest_impl(void);
const char *rig_host_impl(void);

/*
 * ---- Devices and queues (queue.c) ----
 */
#define RIG_RING_ALIGN		4096	/* split rings: the used ring's alignment */
#define RIG_RING_MAX		32768	/* most entries a ring may have */

/* A virtio_device with nothing but @features, ready for queues. */
void rig_vdev_init(struct virtio_device *vdev, u64 features);

/* A queue's ring: its parts, as one side sees them. */
struct rig_ring {
	unsigned int num;
	bool packed;
	struct vring vring;			/* split */
	struct vring_packed vring_packed;	/* packed */
};

/* Bytes a ring of @num entries takes on memory given to rig_queue_create(). */
size_t rig_ring_bytes(unsigned int num, bool packed);

/* A driver's queue and where its ring is. */
struct rig_queue {
	struct virtqueue *vq;
	struct rig_ring ring;		/* the driver's view */
	void *owned;			/* ring memory the harness allocated */
};

/*
 * Make a queue of @num entries with the linked driver: split, or packed if
 * @vdev has VIRTIO_F_RING_PACKED.  The ring goes on @mem (zeroed first,
 * rig_ring_bytes() long, 4096-aligned), or with @mem NULL on memory the
 * harness allocates.  A kernel tree's driver cannot put a packed ring on
 * given memory: vring_create_virtqueue() allocates it, @mem is unused, and
 * the ring is wherever virtqueue_get_desc_addr() and friends say.
 * False (nothing to destroy) if the driver refused.
 */
bool rig_queue_create(struct rig_queue *q, struct virtio_device *vdev,
		      unsigned int num, void *mem, bool ctx,
		      bool (*notify)(struct virtqueue *),
		      void (*callback)(struct virtqueue *), const char *name);
/* As rig_queue_create(), dying if the driver refuses. */
void rig_queue_make(struct rig_queue *q, struct virtio_device *vdev,
		    unsigned int num, void *mem, bool ctx,
		    bool (*notify)(struct virtqueue *),
		    void (*callback)(struct virtqueue *), const char *name);
void rig_queue_destroy(struct rig_queue *q);
/*
 * The ring's shared state as one line into @buf (@len bytes), for a
 * report of where a run stopped: split, the avail and used indices and
 * flags and both event index fields; packed, both event suppression
 * structures.  @vdev gives the byte order of a split ring.  Returns @buf.
 */
const char *rig_ring_describe(const struct rig_ring *r,
			      const struct virtio_device *vdev,
			      char *buf, size_t len);

/* Which rings and features the linked host and guest code have. */
bool rig_host_has_packed(void);		/* vringh_init_packed_*() */
bool rig_host_has_in_order(void);	/* vringh_complete_batch_*() */
/* Does the driver keep VIRTIO_F_IN_ORDER (vring_transport_features())? */
bool rig_guest_keeps_in_order(void);

/*
 * SKIP (exit 77) unless the linked code has what @opt (an option name, for
 * the message) needs: a packed vringh; VIRTIO_F_IN_ORDER in the driver and,
 * if @host, in vringh.
 */
void rig_require_packed_host(const char *opt);
void rig_require_in_order(const char *opt, bool host);

/* ---- The host's side of a queue (host.c) ---- */

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

/*
 * @guest's ring as the host's _user accessors reach it: through @shm's
 * host mapping when the ring is in @shm, else (a kernel driver's packed
 * ring) at the same addresses, the "user" window widened to take them in.
 */
void rig_ring_host_view(struct rig_ring *host, const struct rig_ring *guest,
			const struct rig_shm *shm);

/*
 * vringh on @ring (a host view for _user, a view the host can dereference
 * for _kern): vringh_init_{user,kern}() or, packed,
 * vringh_init_packed_{user,kern}().  Returns what they return; -ENOSYS
 * for a packed ring without a packed vringh.  rig_vringh_cleanup() frees
 * what a packed vringh allocated (a split one allocates nothing).
 */
int rig_vringh_init_user(struct vringh *vrh, u64 features,
			 const struct rig_ring *ring);
int rig_vringh_init_kern(struct vringh *vrh, u64 features,
			 const struct rig_ring *ring);
void rig_vringh_cleanup(struct vringh *vrh, const struct rig_ring *ring);

/*
 * Put back the @num buffers the host took last, unused, so that it takes
 * them again: vringh_abandon_user() where the host has it.  Linux 7.x
 * removed it; there the split ring's cursor in struct vringh goes back, as
 * the kernel's own vDPA simulator sets it.
 */
void rig_vringh_abandon(struct vringh *vrh, unsigned int num);

/*
 * Copy up to @len bytes out of (pull) or into (push) what a _kern
 * getdesc returned, consuming them from @kiov as the kernel's
 * vringh_iov_{pull,push}_kern() did (Linux 7.x removed those): the
 * number of bytes copied, 0 once @kiov is used up.
 */
struct vringh_kiov;

size_t rig_kiov_pull(struct vringh_kiov *kiov, void *dst, size_t len);
size_t rig_kiov_push(struct vringh_kiov *kiov, const void *src, size_t len);

#endif /* RIG_HARNESS_H */
