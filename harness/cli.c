// SPDX-License-Identifier: GPL-2.0
/*
 * The command line, the same in every program: usage errors, SKIPs,
 * progress on a terminal and Ctrl-C.  See harness.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/harness.h"

void rig_usage_hint(void)
{
	fprintf(stderr, "try '%s --help'\n", program_invocation_short_name);
	exit(RIG_EXIT_USAGE);
}

void rig_getopt_name(char *argv[])
{
	argv[0] = program_invocation_short_name;
}

void rig_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	rig_usage_hint();
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
			   unsigned int count, const char *help)
{
	unsigned int i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < count; i++)
			printf("%s\n", name_of(i));
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

void rig_progress_init(struct rig_progress *p, const char *unit,
		       unsigned long total, bool hex)
{
	p->on = isatty(STDERR_FILENO);
	p->hex = hex;
	p->unit = unit;
	p->total = total;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &p->next);
	p->next.tv_sec++;
}

void rig_progress_show(struct rig_progress *p, unsigned long done)
{
	struct timespec now;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (now.tv_sec < p->next.tv_sec ||
	    (now.tv_sec == p->next.tv_sec && now.tv_nsec < p->next.tv_nsec))
		return;
	p->next = now;
	p->next.tv_sec++;
	fprintf(stderr, p->hex ? "\r%s: 0x%lx of 0x%lx %s (%.0f%%)\033[K" :
				 "\r%s: %lu of %lu %s (%.0f%%)\033[K",
		program_invocation_short_name, done, p->total, p->unit,
		p->total ? 100.0 * done / p->total : 0.0);
}

void rig_progress_end(struct rig_progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
	p->on = false;
}
