/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP from a check program: the kernel's TAP dialect
 * (Documentation/dev-tools/ktap.rst), as make check's runner
 * (tests/lib/ktap.sh) collects it and tests/lib/result.sh prints it from a
 * script.  The version line first, then a numbered result line per test,
 * diagnostics ("# ...") anywhere, and the plan last (TAP allows it there:
 * the count is known only at the end).  Every line is flushed at once, so
 * that a child forked later does not print it again.
 */
#ifndef RIG_HARNESS_KTAP_H
#define RIG_HARNESS_KTAP_H

#include <stdbool.h>

#define KTAP_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* "KTAP version 1". */
void ktap_print_header(void);
/* "ok N - NAME", "not ok N - NAME". */
void ktap_test_pass(const char *fmt, ...) KTAP_PRINTF(1, 2);
void ktap_test_fail(const char *fmt, ...) KTAP_PRINTF(1, 2);
/* "ok N - NAME # SKIP REASON": what the test needs is missing. */
void ktap_test_skip(const char *reason, const char *fmt, ...) KTAP_PRINTF(2, 3);
/* "not ok N - NAME # TODO REASON": a known gap of the code under test. */
void ktap_test_todo(const char *reason, const char *fmt, ...) KTAP_PRINTF(2, 3);
/* Each line of the text a diagnostic: "# LINE". */
void ktap_print_msg(const char *fmt, ...) KTAP_PRINTF(1, 2);
/* Has a result failed (not ok, TODO aside)? */
bool ktap_failed(void);
/* The plan, "1..N"; returns the exit status: 1 if a result failed, else 0. */
int ktap_finished(void);

#endif
