// SPDX-License-Identifier: GPL-2.0
/*
 * How a run ends, the same in every program: a failed check, a fatal
 * error, a SKIP, a known gap's TODO, the case runner, Ctrl-C.  See
 * outcome.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli.h"
#include "harness/outcome.h"

void rig_check_failed(const char *file, int line, bool gap, const char *cond)
{
	fprintf(stderr, "%s: %s:%d: check failed: %s\n",
		program_invocation_short_name, file, line, cond);
	if (gap)
		rig_kernel_gap_check_failed();
	exit(1);
}

void rig_check_failedf(const char *file, int line, bool gap, const char *cond,
		       const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%d: check failed: %s: ",
		program_invocation_short_name, file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (gap)
		rig_kernel_gap_check_failed();
	exit(1);
}

void rig_die(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(saved));
	exit(1);
}

void rig_skip(const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(RIG_EXIT_SKIP);
}

unsigned int rig_case_pick(int argc, char *argv[],
			   const char *(*name_of)(unsigned int i),
			   const char *(*gap_of)(unsigned int i),
			   unsigned int count, const char *help)
{
	unsigned int i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < count; i++)
			printf("%s\n", name_of(i));
		exit(RIG_EXIT_OK);
	}
	if (argc == 2 && !strcmp(argv[1], "--gaps")) {
		for (i = 0; gap_of && i < count; i++)
			if (gap_of(i))
				printf("%s\t%s\n", name_of(i), gap_of(i));
		exit(RIG_EXIT_OK);
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(help, stdout);
		exit(RIG_EXIT_OK);
	}
	if (argc != 2)
		rig_usage_error("one case name, or --list");
	for (i = 0; i < count; i++)
		if (!strcmp(argv[1], name_of(i)))
			return i;
	rig_usage_error("no case '%s' (%s --list names them)", argv[1],
			program_invocation_short_name);
}

static const char *expected_gap;

void rig_expect_kernel_gap(bool host, const char *kernel_gap)
{
	const char *impl = host ? rig_host_impl() : rig_guest_impl();

	if (kernel_gap && !strcmp(impl, "kernel"))
		expected_gap = kernel_gap;
}

void rig_kernel_gap_check_failed(void)
{
	if (!expected_gap)
		return;
	fflush(stderr);
	printf("%s: known gap: %s\n", program_invocation_short_name,
	       expected_gap);
	exit(RIG_EXIT_TODO);
}

int rig_kernel_gap_end(int status)
{
	if (expected_gap && status == RIG_EXIT_OK)
		printf("%s: gap gone: the code under test did what the case checks (known gap was: %s)\n",
		       program_invocation_short_name, expected_gap);
	return status;
}

const char *rig_case_name;
static const struct rig_case *all_cases;

static const char *case_name_of(unsigned int i)
{
	return all_cases[i].name;
}

static const char *case_gap_of(unsigned int i)
{
	return all_cases[i].kernel_gap;
}

int rig_case_main(int argc, char *argv[], const struct rig_case *cases,
		  unsigned int count, const char *help)
{
	const struct rig_case *c;

	all_cases = cases;
	c = &cases[rig_case_pick(argc, argv, case_name_of, case_gap_of, count, help)];
	rig_case_name = c->name;
	rig_expect_kernel_gap(c->host, c->kernel_gap);
	return rig_kernel_gap_end(c->run ? c->run() : c->run_arg(c->arg));
}

volatile sig_atomic_t rig_interrupted;

static void on_interrupt(int sig __attribute__((unused)))
{
	rig_interrupted = 1;
}

void rig_catch_interrupt(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: a blocked call returns EINTR */
	if (sigaction(SIGINT, &sa, NULL))
		rig_die("sigaction");
}

void rig_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t block, old;
	int err;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	err = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		errno = err;
		rig_die("pthread_create");
	}
}
