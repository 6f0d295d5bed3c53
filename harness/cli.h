/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line, the same in every program (cli.c): the options they
 * share, parsed once (rig_getopt()), whole-number options as a table of
 * rows, usage errors, progress on a terminal; and what a program prints
 * about itself: --version (the build, which ring code is linked, from
 * which trees) and --json.  Exit statuses: outcome.h.
 */
#ifndef RIG_HARNESS_CLI_H
#define RIG_HARNESS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <linux/types.h>

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
 * The rows the driver tests (virtio_test, vhost_net_test) share: the ring
 * feature pairs --[no-]indirect, --[no-]event-idx and --[no-]virtio-1,
 * and --[no-]delayed-interrupt setting the int *@delayed to 1 (0).
 */
#define RIG_DRIVER_OPTIONS(delayed)					\
	RIG_FEATURE_OPTIONS("indirect", VIRTIO_RING_F_INDIRECT_DESC),	\
	RIG_FEATURE_OPTIONS("event-idx", VIRTIO_RING_F_EVENT_IDX),	\
	RIG_FEATURE_OPTIONS("virtio-1", VIRTIO_F_VERSION_1),		\
	{ "delayed-interrupt", no_argument, delayed, true },		\
	{ "no-delayed-interrupt", no_argument, delayed, false }
/*
 * The options every program's getopt loop treats alike, which rig_getopt()
 * acts on itself: -h, --help (@usage, exit 0), --version (the build as
 * @prog's, rig_print_version(), exit 0), the feature rows (into
 * *@features), --packed (*@packed = true) and --in-order[=N] (*@in_order =
 * true; N, 1 to @batch_max buffers per used entry, into *@batch, and
 * *@batch_given = true, when given), --json (*@json = true) and the
 * @nnumbers whole-number rows @numbers (rig_number_option()).  A program
 * lists the rows it takes in its table (below) and sets the fields those
 * rows need; NULL for the others (@batch_given may be NULL).  With
 * @no_operands, an operand after the options is a usage error
 * ("unexpected argument 'X'").
 */
struct rig_number_opt;
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
	const struct rig_number_opt *numbers;
	size_t nnumbers;
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

#endif /* RIG_HARNESS_CLI_H */
