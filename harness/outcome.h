/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a run ends, the same in every program (outcome.c): the exit
 * statuses; a check that fails, stopping the program with its location;
 * a fatal error; a SKIP; the known gaps of a kernel tree's code, which
 * turn the failure of the one check they are about into a TODO; the case
 * runner of the programs that run one named case of many; and Ctrl-C,
 * which ends a run early with the figures so far.
 */
#ifndef RIG_HARNESS_OUTCOME_H
#define RIG_HARNESS_OUTCOME_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

/* Exit statuses, the same in every program (harness/README). */
#define RIG_EXIT_OK		0	/* did what was asked, every check held */
#define RIG_EXIT_FAIL		1	/* a check failed, or a run-time error */
#define RIG_EXIT_USAGE		2	/* bad command line: nothing was run */
#define RIG_EXIT_SKIP		77	/* the linked ring code lacks a feature */
#define RIG_EXIT_TODO		78	/* a known gap: a check failed as expected */
#define RIG_EXIT_INTERRUPTED	130	/* Ctrl-C (128 + SIGINT), figures so far */

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

#endif /* RIG_HARNESS_OUTCOME_H */
