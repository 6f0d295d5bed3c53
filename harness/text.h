/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text in and out, libc only: the whole numbers and names a command line
 * gives, a JSON string, and who built the program.  Linked by every rig program
 * (harness.h includes this) and by the stand-alone tools (stats,
 * ab/compare), which take nothing else from the rig.
 */
#ifndef RIG_TEXT_H
#define RIG_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Parse a whole decimal (or 0x hex) number in [min, max].  False (and
 * nothing stored) for anything else: empty, signs, spaces, trailing junk,
 * out of range.  A leading 0 is decimal, never octal: "010" is ten.
 */
bool rig_parse_ulong(const char *s, unsigned long min, unsigned long max,
		     unsigned long *out);
/* The same, decimal digits only. */
bool rig_parse_decimal(const char *s, unsigned long min, unsigned long max,
		       unsigned long *out);

/*
 * Which of the @n @names @s is: its index, or -1 when it is none of them
 * (a NULL entry, a gap in a designated-initializer table, never matches).
 */
int rig_name_index(const char *s, const char *const names[], unsigned int n);

struct option;
/*
 * Why getopt_long() (optstring starting with ':', opterr 0) refused @arg,
 * the word it stopped at, with value @c (':' for a missing value; optopt
 * as it left it in @optopt): "ARG needs a value", "--NAME takes no value",
 * "unknown option '-C'" or "unknown option 'ARG'", written into @buf
 * (@size bytes, cut short if need be); returns @buf.
 */
const char *rig_option_refused(char *buf, size_t size, int c, const char *arg,
			       int optopt, const struct option *longopts);

/* @s as a JSON string on stdout: quotes, backslashes, control bytes escaped. */
void rig_json_quoted(const char *s);

/* The compiler and CFLAGS the program was built with (make sets them). */
extern const char rig_build_cc[];
extern const char rig_build_cflags[];

/* "PROG: built by CC with CFLAGS=..." on stdout, no newline. */
void rig_print_built_by(const char *prog);

#endif /* RIG_TEXT_H */
