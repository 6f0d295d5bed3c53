// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP from a check program (harness/ktap.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "harness/ktap.h"

static unsigned int ktap_n;
static bool ktap_bad;

void ktap_print_header(void)
{
	printf("KTAP version 1\n");
	fflush(stdout);
}

static void ktap_result(bool ok, const char *directive, const char *reason,
			const char *fmt, va_list ap)
{
	printf("%sok %u - ", ok ? "" : "not ", ++ktap_n);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s %s", directive, reason);
	putchar('\n');
	fflush(stdout);
}

void ktap_test_pass(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_result(true, NULL, NULL, fmt, ap);
	va_end(ap);
}

void ktap_test_fail(const char *fmt, ...)
{
	va_list ap;

	ktap_bad = true;
	va_start(ap, fmt);
	ktap_result(false, NULL, NULL, fmt, ap);
	va_end(ap);
}

void ktap_test_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_result(true, "SKIP", reason, fmt, ap);
	va_end(ap);
}

void ktap_test_todo(const char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_result(false, "TODO", reason, fmt, ap);
	va_end(ap);
}

void ktap_print_msg(const char *fmt, ...)
{
	char buf[4096], *line, *next;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (next && !*next)
			next = NULL;
		printf("# %s\n", line);
	}
	fflush(stdout);
}

bool ktap_failed(void)
{
	return ktap_bad;
}

int ktap_finished(void)
{
	printf("1..%u\n", ktap_n);
	fflush(stdout);
	return ktap_bad ? 1 : 0;
}
