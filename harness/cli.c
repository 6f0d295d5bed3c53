// SPDX-License-Identifier: GPL-2.0
/*
 * The command line, the same in every program: the shared options, usage
 * errors, progress on a terminal; and what a program prints about its
 * build and results (--version, --json).  See cli.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/cli.h"
#include "harness/outcome.h"
#include "harness/text.h"

#ifndef RIG_GUEST_IMPL
#define RIG_GUEST_IMPL "rig"
#endif
#ifndef RIG_HOST_IMPL
#define RIG_HOST_IMPL "rig"
#endif
#ifndef RIG_GUEST_SRC
#define RIG_GUEST_SRC { "unknown", "", "", "unknown" }
#endif
#ifndef RIG_HOST_SRC
#define RIG_HOST_SRC { "unknown", "", "", "unknown" }
#endif

/* Where a side's ring code came from (kernel/ring-id.sh writes these). */
struct rig_ring_src {
	const char *tree;	/* the tree's path */
	const char *version;	/* a kernel tree's (its Makefile), or "" */
	const char *describe;	/* its git describe, or "" */
	const char *files;	/* a hash of the ring files compiled */
};
static const struct rig_ring_src guest_src = RIG_GUEST_SRC;
static const struct rig_ring_src host_src = RIG_HOST_SRC;

void rig_usage_hint(void)
{
	fprintf(stderr, "try '%s --help'\n", program_invocation_short_name);
	exit(RIG_EXIT_USAGE);
}

void rig_getopt_name(char *argv[])
{
	argv[0] = program_invocation_short_name;
}

bool rig_feature_option(int c, u64 *features)
{
	if (c >= RIG_OPT_FEATURE_ON && c < RIG_OPT_FEATURE_OFF)
		*features |= 1ULL << (c - RIG_OPT_FEATURE_ON);
	else if (c >= RIG_OPT_FEATURE_OFF && c < RIG_OPT_FEATURE_OFF + 64)
		*features &= ~(1ULL << (c - RIG_OPT_FEATURE_OFF));
	else
		return false;
	return true;
}

int rig_getopt(int argc, char *argv[], const struct option *longopts,
	       const struct rig_getopt *g)
{
	int c;

	rig_getopt_name(argv);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 0:		/* a flag row: getopt has set the flag */
			break;
		case 'h':
			g->usage();
			exit(RIG_EXIT_OK);
		case RIG_OPT_VERSION:
			rig_print_version(g->prog);
			exit(RIG_EXIT_OK);
		case RIG_OPT_PACKED:
			*g->packed = true;
			break;
		case RIG_OPT_IN_ORDER:
			*g->in_order = true;
			if (!optarg)
				break;
			if (!rig_parse_ulong(optarg, 1, g->batch_max, g->batch))
				rig_usage_error("bad --in-order '%s': 1 to %lu buffers per used entry",
						optarg, g->batch_max);
			if (g->batch_given)
				*g->batch_given = true;
			break;
		case RIG_OPT_JSON:
			*g->json = true;
			break;
		default:
			if (g->features && rig_feature_option(c, g->features))
				break;
			if (g->nnumbers && rig_number_option(c, g->numbers, g->nnumbers, longopts))
				break;
			return c;
		}
	}
	if (g->no_operands && optind < argc)
		rig_usage_error("unexpected argument '%s'", argv[optind]);
	return -1;
}

/* The long name of @longopts' row for @val (rows that set a flag aside). */
static const char *long_name(const struct option *longopts, int val)
{
	for (; longopts->name; longopts++)
		if (!longopts->flag && longopts->val == val)
			return longopts->name;
	return "?";
}

bool rig_number_option(int c, const struct rig_number_opt *opts, size_t n,
		       const struct option *longopts)
{
	const struct rig_number_opt *o = opts;
	unsigned long v;
	char most[24];

	while (o < opts + n && o->val != c)
		o++;
	if (o == opts + n)
		return false;
	if (!rig_parse_ulong(optarg, o->min, o->max, &v)) {
		if (o->max >= 1UL << 32 && !(o->max & (o->max - 1)))
			snprintf(most, sizeof(most), "2^%d", __builtin_ctzl(o->max));
		else
			snprintf(most, sizeof(most), "%lu", o->max);
		rig_usage_error("bad --%s '%s': not a number from %lu to %s",
				long_name(longopts, c), optarg, o->min, most);
	}
	if (o->size == sizeof(unsigned int) && o->max <= UINT_MAX)
		*(unsigned int *)o->to = v;
	else if (o->size == sizeof(unsigned long))
		*(unsigned long *)o->to = v;
	else
		abort();	/* a row whose variable cannot hold its range */
	return true;
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
/* ---- What a program prints: its build (--version) and results (--json) ---- */

const char *rig_guest_impl(void)
{
	return RIG_GUEST_IMPL;
}

const char *rig_host_impl(void)
{
	return RIG_HOST_IMPL;
}

static void print_src(const char *side, const struct rig_ring_src *src)
{
	printf("%s from %s (%s%s%s%sring files %s)", side, src->tree,
	       src->version, *src->version ? ", " : "",
	       src->describe, *src->describe ? ", " : "", src->files);
}

void rig_print_version(const char *prog)
{
	rig_print_built_by(prog);
	printf("; guest ring code: %s, host ring code: %s; ", RIG_GUEST_IMPL,
	       RIG_HOST_IMPL);
	print_src("guest", &guest_src);
	printf(", ");
	print_src("host", &host_src);
	putchar('\n');
}

/*
 * , "KEY": {"tree", "version", "describe" (each null when not known),
 * "files"}
 */
static void json_src(const char *key, const struct rig_ring_src *src)
{
	printf(", ");
	rig_json_quoted(key);
	printf(": {\"tree\": ");
	rig_json_quoted(src->tree);
	printf(", \"version\": ");
	if (*src->version)
		rig_json_quoted(src->version);
	else
		printf("null");
	printf(", \"describe\": ");
	if (*src->describe)
		rig_json_quoted(src->describe);
	else
		printf("null");
	printf(", \"files\": ");
	rig_json_quoted(src->files);
	putchar('}');
}

void rig_json_begin(const char *prog)
{
	printf("{\"program\": ");
	rig_json_quoted(prog);
	printf(", \"build\": {\"cc\": ");
	rig_json_quoted(rig_build_cc);
	printf(", \"cflags\": ");
	rig_json_quoted(rig_build_cflags);
	printf(", \"guest\": ");
	rig_json_quoted(RIG_GUEST_IMPL);
	printf(", \"host\": ");
	rig_json_quoted(RIG_HOST_IMPL);
	json_src("guest_src", &guest_src);
	json_src("host_src", &host_src);
	putchar('}');
}

void rig_json_num(const char *key, const char *fmt, ...)
{
	va_list ap;

	printf(", ");
	rig_json_quoted(key);
	printf(": ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void rig_json_str(const char *key, const char *value)
{
	printf(", ");
	rig_json_quoted(key);
	printf(": ");
	rig_json_quoted(value);
}

static const char *json_bool(bool b)
{
	return b ? "true" : "false";
}

void rig_json_features(u64 f)
{
	rig_json_str("ring", f & (1ULL << VIRTIO_F_RING_PACKED) ? "packed" : "split");
	rig_json_num("indirect", "%s",
		     json_bool(f & (1ULL << VIRTIO_RING_F_INDIRECT_DESC)));
	rig_json_num("event_idx", "%s",
		     json_bool(f & (1ULL << VIRTIO_RING_F_EVENT_IDX)));
	rig_json_num("virtio_1", "%s", json_bool(f & (1ULL << VIRTIO_F_VERSION_1)));
	rig_json_num("in_order", "%s", json_bool(f & (1ULL << VIRTIO_F_IN_ORDER)));
}

void rig_json_end(void)
{
	printf("}\n");
	fflush(stdout);
}
