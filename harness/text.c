// SPDX-License-Identifier: GPL-2.0
/* Text in and out, libc only: see text.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/text.h"

#ifndef RIG_BUILD_CC
#define RIG_BUILD_CC "unknown compiler"
#endif
#ifndef RIG_BUILD_CFLAGS
#define RIG_BUILD_CFLAGS "unknown"
#endif

const char rig_build_cc[] = RIG_BUILD_CC;
const char rig_build_cflags[] = RIG_BUILD_CFLAGS;

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool parse_ulong(const char *s, bool hex_ok, unsigned long min,
			unsigned long max, unsigned long *out)
{
	int base = 10;
	unsigned long v;
	char *end;

	/* strtoul would take leading white space and a sign. */
	if (!s || !is_digit(*s))
		return false;
	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		if (!is_xdigit(*s))
			return false;
		base = 16;
	}
	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool rig_parse_ulong(const char *s, unsigned long min, unsigned long max,
		     unsigned long *out)
{
	return parse_ulong(s, true, min, max, out);
}

bool rig_parse_decimal(const char *s, unsigned long min, unsigned long max,
		       unsigned long *out)
{
	return parse_ulong(s, false, min, max, out);
}

int rig_name_index(const char *s, const char *const names[], unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return -1;
}

const char *rig_option_refused(char *buf, size_t size, int c, const char *arg,
			       int optopt, const struct option *longopts)
{
	size_t n = strcspn(arg, "=");
	const struct option *o;

	if (c == ':') {
		snprintf(buf, size, "%s needs a value", arg);
		return buf;
	}
	if (arg[0] == '-' && arg[1] == '-' && arg[n] == '=')
		for (o = longopts; o->name; o++)
			if (strlen(o->name) == n - 2 && !strncmp(o->name, arg + 2, n - 2)) {
				snprintf(buf, size, "--%s takes no value", o->name);
				return buf;
			}
	if (arg[0] == '-' && arg[1] != '-' && optopt > 0 && optopt < 256)
		snprintf(buf, size, "unknown option '-%c'", optopt);
	else
		snprintf(buf, size, "unknown option '%s'", arg);
	return buf;
}

void rig_json_quoted(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

void rig_print_built_by(const char *prog)
{
	printf("%s: built by %s with CFLAGS=%s", prog, rig_build_cc,
	       rig_build_cflags);
}
