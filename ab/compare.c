// SPDX-License-Identifier: GPL-2.0
/*
 * compare: is B faster or slower than A, or is the difference noise?
 *
 * Runs two shell commands alternately in pairs (A B, B A, A B, ...: neither
 * always runs second), takes one figure from each run, and prints both
 * medians, the median of the pair ratios B/A with a 95% confidence interval
 * from a bootstrap of the pairs (fixed seed, so the same figures always give
 * the same answer) and a verdict: "slower" when the whole interval lies
 * above 1 + MARGIN (--margin, default 0.5%), "faster" when below 1 -
 * MARGIN, otherwise "no significant difference".
 * Figures are times: bigger is slower.  The two runs of a pair ran back to
 * back and share whatever else the machine was doing then; their ratio
 * cancels it, where a ratio of the two medians would not (--unpaired: the
 * ratio of medians, A's and B's runs resampled independently).  On
 * independent, identically distributed figures the interval misses 1 in 4
 * to 7% of A/A comparisons (simulated, 400 comparisons each: 20 and 101
 * pairs; normal, lognormal and bimodal noise).
 *
 * A run's figure is by default its CPU time (user + system, --metric=cpu),
 * which waiting for a busy CPU does not inflate as it does wall time.
 * --metric=auto takes, first found: its last
 * "<N>ns" line (vring_bench; N as stats reads it: 123, 9.4e+08), its last
 * "Wall time:<S>" line (/usr/bin/time -f 'Wall time:%e'), or else the wall
 * time the comparer measures from fork to exit.  --metric=own insists on one
 * of the first two, --metric=wall on the third; --metric=instructions runs
 * each command under valgrind's callgrind and takes the instructions
 * executed in main() outside printf(): deterministic, so one pair is enough.  Standard output
 * and standard error are both searched; every run of both commands must give
 * the same kind of figure, and a run that fails stops the comparison.
 *
 * Layouts: given more than one pair of commands (A1 B1 A2 B2 ...: the same
 * two programs each linked or started another way, so that their code and
 * stack lie elsewhere), the pairs go round the layouts, and the ratio is
 * the geometric mean of each layout's median pair ratio, its interval a t
 * interval over the layouts: how much the layout alone moves a ratio is
 * then part of the interval and of the verdict, which a bootstrap of the
 * pairs of one layout cannot see (Mytkowicz et al., ASPLOS 2009: link
 * order and environment size alone move timings by more than many
 * patches do).
 *
 * --max-slowdown[=PCT] is a gate: exit status 1 when B is slower than A by
 * more than PCT percent with 95% confidence (the whole interval above
 * 1 + PCT/100), or, for instructions, when the ratio itself is above it.
 * Exit status: 0 done (gate passed), 1 gate failed, 2 usage error, 3 a run
 * failed or gave no usable figure.
 *
 * Stands alone: no ring code, no harness but its libc-only text helpers
 * (harness/text.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/text.h"

/* Exit statuses. */
enum { EXIT_GATE = 1, EXIT_USAGE = 2, EXIT_RUN = 3 };

enum metric { METRIC_AUTO, METRIC_OWN, METRIC_WALL, METRIC_CPU, METRIC_INSTR,
	      METRIC_COUNT };
static const char *const metric_name[] = {
	[METRIC_AUTO] = "auto", [METRIC_OWN] = "own", [METRIC_WALL] = "wall",
	[METRIC_CPU] = "cpu", [METRIC_INSTR] = "instructions",
};

enum kind { KIND_NONE, KIND_NS, KIND_WALL, KIND_MEASURED, KIND_CPU,
	    KIND_INSTR };

/* Each figure kind: its short name (JSON), its unit, and what it is. */
static const struct {
	const char *key, *unit, *text;
} kinds[] = {
	[KIND_NONE]	= { "none", "", "no figure" },
	[KIND_NS]	= { "ns_line", "ns", "the \"<N>ns\" line of each run" },
	[KIND_WALL]	= { "wall_time_line", "s", "the \"Wall time:<S>\" line of each run" },
	[KIND_MEASURED]	= { "measured_wall", "ns",
			    "wall time measured by the comparer (fork to exit)" },
	[KIND_CPU]	= { "cpu_time", "ns",
			    "CPU time of the run (user + system, measured by the comparer)" },
	[KIND_INSTR]	= { "instructions", "instructions",
			    "instructions executed in main(), printf aside (valgrind callgrind)" },
};

/*
 * The verdict's default margin for noisy metrics: "slower" only when the
 * whole interval lies above 1 + MARGIN/100 ("faster": below 1 - it).  On a
 * shared machine, load comes in spells longer than a pair, which the
 * bootstrap of pairs does not see: A/A intervals there exclude 1 more
 * often than 1 in 20, but by less than this (ab/README).
 */
#define MARGIN_PCT_NOISY	0.5

/* The gate's default threshold: noisy metrics, and instruction counts. */
#define GATE_PCT_NOISY	1.0
#define GATE_PCT_INSTR	0.25

struct side {
	char name;		/* 'A' or 'B' */
	const char *cmd;
	double *fig;		/* one figure per measured run */
	size_t n;
	char *version;
	double med, lo, hi, cv;
};

static bool quiet;
static enum metric metric = METRIC_CPU;

/* "compare: MESSAGE" on stderr, then for a usage error the --help hint. */
static void __attribute__((noreturn, format(printf, 2, 3)))
fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(status == EXIT_USAGE ? "\ntry 'compare --help'\n" : "\n", stderr);
	exit(status);
}
#define die(...) fail(EXIT_RUN, __VA_ARGS__)
#define bad_usage(...) fail(EXIT_USAGE, __VA_ARGS__)

static void usage(FILE *f)
{
	fputs(
"Usage: compare [OPTIONS] COMMAND_A COMMAND_B [COMMAND_A2 COMMAND_B2 ...]\n"
"Run the two shell commands in pairs, A B, B A, A B ..., take one figure\n"
"from each run, and tell whether B is faster or slower than A: the median\n"
"of the pair ratios B/A with a 95% bootstrap confidence interval.\n"
"More pairs of commands are layouts of A and B (other link orders, code\n"
"or stack offsets): the pairs go round them, and B/A is the geometric mean\n"
"of each layout's median pair ratio, with a t interval over the layouts.\n"
"  -m, --metric M     the figure: cpu (default: CPU time, user + system,\n"
"                     of the run, measured here: unlike wall time, not\n"
"                     inflated while the run waits for a CPU), auto (the\n"
"                     run's \"<N>ns\" line, else its \"Wall time:<S>\"\n"
"                     line, else wall time), own (one of those two lines,\n"
"                     required), wall (wall time measured here),\n"
"                     instructions (callgrind: instructions executed in\n"
"                     main() outside printf(); default 1 pair)\n"
"  -n, --pairs N      measured runs of each command (default 101, min 3;\n"
"                     instructions: default 1, min 1)\n"
"  -w, --warmup N     unmeasured A B pairs first (default 1; instructions 0)\n"
"  -r, --resamples N  bootstrap resamples (default 10000, min 100)\n"
"  -s, --seed N       bootstrap seed (default 1)\n"
"      --max-slowdown[=PCT]  exit 1 when B is slower than A by more than\n"
"                     PCT% with 95% confidence (default PCT: 1; for\n"
"                     instructions 0.25, and the ratio itself decides)\n"
"      --margin PCT   say slower (faster) only when the whole interval lies\n"
"                     above 1 + PCT/100 (below 1 - PCT/100); default 0.5,\n"
"                     0 for instructions\n"
"      --json         print one JSON object instead of the text report\n"
"      --save FILE    write each pair's figures to FILE (\"A B\" per line)\n"
"  -q, --quiet        no progress dots on stderr\n"
"      --unpaired     the ratio of medians, A's and B's runs resampled\n"
"                     independently, not in pairs\n"
"      --raw          print every pair's figures as they come\n"
"      --no-version   do not print \"PROG --version\" for each command\n"
"      --check-usage  check the options and commands, then exit\n"
"  -h, --help         this text\n"
"      --version      print the version line and exit\n"
"A command whose first word is a path with a '/' is asked for its --version\n"
"line, printed so that mismatched builds are seen.  Exit status: 0 done,\n"
"1 the --max-slowdown gate failed, 2 usage error, 3 a run failed.\n", f);
}

static unsigned long parse_count(const char *opt, const char *s,
				 unsigned long min, unsigned long max)
{
	unsigned long v;

	if (!rig_parse_decimal(s, 0, ~0UL, &v))
		bad_usage("%s: '%s' is not a whole number", opt, s);
	if (v < min || v > max)
		bad_usage("%s: %s is out of range %lu..%lu", opt, s, min, max);
	return v;
}

static double parse_pct(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v >= 0) || v > 1000 ||
	    (*s < '0' || *s > '9'))
		bad_usage("%s: '%s' is not a percentage in 0..1000", opt, s);
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* CPU time, user and system, of every child waited for so far, in ns. */
static double children_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		die("getrusage: %s", strerror(errno));
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

static double last_cpu;		/* the CPU time of the last run, in ns */

/*
 * Run argv (or "sh -c cmd" if argv is NULL) with stdin from /dev/null and
 * stdout (and stderr, if @with_stderr) captured into *out.  Returns the
 * wait status; *ns is the wall time from fork to exit, last_cpu the CPU
 * time of the run (the shell and what it ran).
 */
static int run(const char *cmd, char *const argv[], bool with_stderr,
	       char **out, double *ns)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fds[2], status;
	double t0, cpu0;
	ssize_t got;
	pid_t pid;

	if (!buf || pipe(fds))
		die("cannot set up a run: %s", strerror(errno));
	cpu0 = children_cpu();
	t0 = now();
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(with_stderr ? fds[1] : null, 2);
		close(fds[0]);
		close(fds[1]);
		if (argv)
			execvp(argv[0], argv);
		else
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((got = read(fds[0], buf + len, cap - len - 1)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			die("reading a command's output: %s", strerror(errno));
		}
		len += got;
		if (cap - len < 1024 && !(buf = realloc(buf, cap *= 2)))
			die("out of memory");
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	*ns = now() - t0;
	last_cpu = children_cpu() - cpu0;
	buf[len] = '\0';
	*out = buf;
	return status;
}

/*
 * A decimal number as stats reads it, from s up to e: digits, an optional
 * fraction (".5" too) and an optional exponent.  No sign, no hex, no inf.
 */
static bool decimal(const char *s, const char *e, double *v)
{
	const char *p = s;
	char *end;

	while (p < e && *p >= '0' && *p <= '9')
		p++;
	if (p < e && *p == '.') {
		p++;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	if (p == s || (p == s + 1 && *s == '.'))
		return false;
	if (p < e && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		if (p == e || *p < '0' || *p > '9')
			return false;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	if (p != e)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return end == e && !errno && isfinite(*v);
}

/* The figure a run's output gives, and of which kind. */
static enum kind figure(const char *out, double measured, double *fig)
{
	double ns = -1, wall = -1, instr = -1, v;
	const char *line, *p, *q;

	for (line = out; *line; line = p + (*p == '\n')) {
		p = line + strcspn(line, "\n");
		if (p - line > 2 && !strncmp(p - 2, "ns", 2) &&
		    decimal(line, p - 2, &v)) {
			ns = v;
		} else if (!strncmp(line, "Wall time:", 10)) {
			if (decimal(line + 10, p, &v))
				wall = v;
		} else if (line[0] == '=' && line[1] == '=' &&
			   (q = strstr(line, "== Collected : ")) && q < p) {
			/* callgrind's summary: the first event is Ir. */
			q += 15;
			if (decimal(q, q + strspn(q, "0123456789"), &v))
				instr = v;
		}
	}
	switch (metric) {
	case METRIC_INSTR:
		*fig = instr;
		return instr >= 0 ? KIND_INSTR : KIND_NONE;
	case METRIC_WALL:
		*fig = measured;
		return KIND_MEASURED;
	case METRIC_CPU:
		*fig = last_cpu;
		return KIND_CPU;
	default:
		break;
	}
	if (ns >= 0) {
		*fig = ns;
		return KIND_NS;
	}
	if (wall >= 0) {
		*fig = wall;
		return KIND_WALL;
	}
	if (metric == METRIC_OWN)
		return KIND_NONE;
	*fig = measured;
	return KIND_MEASURED;
}

/* The shell command a side runs: under callgrind for instructions. */
static char *side_command(const char *cmd)
{
	char *s;

	if (metric != METRIC_INSTR)
		return strdup(cmd);
	/*
	 * printf is left out: printing a time takes more instructions the
	 * more digits it has.
	 */
	if (asprintf(&s, "exec valgrind --tool=callgrind "
		     "--callgrind-out-file=/dev/null --toggle-collect=main "
		     "--toggle-collect=printf --toggle-collect=__printf_chk %s",
		     cmd) < 0)
		return NULL;
	return s;
}

/* Run one side once; the figure, checked against the kind seen so far. */
static double run_side(const struct side *s, enum kind *kind, unsigned int nr)
{
	char *cmd = side_command(s->cmd), *out;
	enum kind k;
	double ns, fig = 0;
	int status;

	if (!cmd)
		die("out of memory");
	status = run(cmd, NULL, true, &out, &ns);
	free(cmd);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "\ncompare: %c (run %u) %s %d: %s\n",
			s->name, nr, WIFEXITED(status) ? "exited with status" :
			"was killed by signal", WIFEXITED(status) ?
			WEXITSTATUS(status) : WTERMSIG(status), s->cmd);
		fputs(out, stderr);
		if (metric == METRIC_INSTR && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 127)
			fputs("compare: is valgrind installed? "
			      "(apt-get install valgrind)\n", stderr);
		exit(EXIT_RUN);
	}
	k = figure(out, ns, &fig);
	if (k == KIND_NONE) {
		fputs(out, stderr);
		free(out);
		die("%c (run %u) printed no figure for --metric=%s%s", s->name,
		    nr, metric_name[metric], metric == METRIC_OWN ?
		    " (a \"<N>ns\" or \"Wall time:<S>\" line)" :
		    " (callgrind's \"Collected\" line)");
	}
	free(out);
	if (*kind == KIND_NONE)
		*kind = k;
	if (k != *kind)
		die("%c (run %u) gave %s, but earlier runs gave %s",
		    s->name, nr, kinds[k].text, kinds[*kind].text);
	if (!(fig > 0))
		die("%c (run %u) gave a figure of 0: no ratio can be formed",
		    s->name, nr);
	return fig;
}

/*
 * "PROG --version" for a command whose first word is a path (after any
 * NAME=VALUE words and "exec").
 */
static char *version_of(const char *cmd)
{
	size_t n;
	char *prog, *out, *nl;
	char *argv[] = { NULL, "--version", NULL };
	struct stat st;
	double ns;
	int status;

	for (;;) {
		cmd += strspn(cmd, " \t\n");
		n = strcspn(cmd, " \t\n");
		if (!(memchr(cmd, '=', n) && !memchr(cmd, '/', strcspn(cmd, "="))) &&
		    !(n == 4 && !strncmp(cmd, "exec", 4)))
			break;
		cmd += n;
	}
	prog = strndup(cmd, n);
	argv[0] = prog;
	if (!prog || !memchr(prog, '/', n) || stat(prog, &st) ||
	    !S_ISREG(st.st_mode) || access(prog, X_OK)) {
		free(prog);
		return NULL;
	}
	status = run(NULL, argv, false, &out, &ns);
	free(prog);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !*out) {
		free(out);
		return NULL;
	}
	if ((nl = strchr(out, '\n')))
		*nl = '\0';
	return out;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n-1]; tmp receives v sorted. */
static double median(const double *v, size_t n, double *tmp)
{
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* The p-quantile of sorted v, interpolating between order statistics. */
static double quantile(const double *v, size_t n, double p)
{
	double pos = p * (n - 1);
	size_t i = (size_t)pos;

	return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* The 0.975 quantile of Student's t with df degrees of freedom. */
static double t975(unsigned long df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571,
		2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
		2.131, 2.120, 2.110, 2.101, 2.093, 2.086 };

	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	return df <= 30 ? 2.042 : df <= 60 ? 2.000 : 1.960;
}

/* splitmix64: small, good enough, and the same on every machine. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The bootstrap distribution of the ratio, sorted.  Paired, the ratio is
 * the median of the pair ratios B/A, and a resample draws whole pairs: the
 * two runs of a pair ran back to back and shared whatever else the machine
 * was doing, which their ratio cancels.  Unpaired, the ratio is median(B) /
 * median(A), and A's and B's runs are drawn independently.
 */
static void bootstrap(const struct side *a, const struct side *b,
		      bool paired, double *boot, unsigned long resamples)
{
	size_t n = a->n, i, j;
	double *ra = malloc(n * sizeof(*ra)), *rb = malloc(n * sizeof(*rb));
	double *tmp = malloc(n * sizeof(*tmp));
	unsigned long r;

	if (!ra || !rb || !tmp)
		die("out of memory");
	for (r = 0; r < resamples; r++) {
		for (i = 0; i < n; i++) {
			j = rng_next() % n;
			if (paired) {
				ra[i] = b->fig[j] / a->fig[j];
				continue;
			}
			ra[i] = a->fig[j];
			rb[i] = b->fig[rng_next() % n];
		}
		boot[r] = paired ? median(ra, n, tmp) :
			  median(rb, n, tmp) / median(ra, n, tmp);
	}
	qsort(boot, resamples, sizeof(*boot), cmp_double);
	free(ra);
	free(rb);
	free(tmp);
}

/* The median of the pair ratios B/A. */
static double pair_ratio(const struct side *a, const struct side *b)
{
	double *r = malloc(a->n * sizeof(*r)), *tmp = malloc(a->n * sizeof(*tmp));
	double m;
	size_t i;

	if (!r || !tmp)
		die("out of memory");
	for (i = 0; i < a->n; i++)
		r[i] = b->fig[i] / a->fig[i];
	m = median(r, a->n, tmp);
	free(r);
	free(tmp);
	return m;
}

/* One side's median, minimum, maximum and coefficient of variation. */
static void summarise(struct side *s)
{
	double *sorted = malloc(s->n * sizeof(*sorted));
	double sum = 0, sq = 0, mean;
	size_t i;

	if (!sorted)
		die("out of memory");
	s->med = median(s->fig, s->n, sorted);
	s->lo = sorted[0];
	s->hi = sorted[s->n - 1];
	free(sorted);
	for (i = 0; i < s->n; i++)
		sum += s->fig[i];
	mean = sum / s->n;
	for (i = 0; i < s->n; i++)
		sq += (s->fig[i] - mean) * (s->fig[i] - mean);
	s->cv = s->n > 1 ? 100 * sqrt(sq / (s->n - 1)) / mean : 0;
}

static void print_side(const struct side *s, enum kind kind)
{
	int prec = kind == KIND_WALL ? 3 : 0;
	const char *unit = kind == KIND_INSTR ? " instructions" :
			   kinds[kind].unit;

	printf("%c: median %.*f%s, min %.*f%s, max %.*f%s, CV %.2f%%\n",
	       s->name, prec, s->med, unit, prec, s->lo, unit, prec, s->hi,
	       unit, s->cv);
}

static void json_side(const char *key, const struct side *s)
{
	size_t i;

	printf("  \"%s\": {\"command\": ", key);
	rig_json_quoted(s->cmd);
	printf(", \"version\": ");
	if (s->version)
		rig_json_quoted(s->version);
	else
		printf("null");
	printf(", \"median\": %.17g, \"min\": %.17g, \"max\": %.17g, "
	       "\"cv_pct\": %.4f, \"figures\": [", s->med, s->lo, s->hi, s->cv);
	for (i = 0; i < s->n; i++)
		printf("%s%.17g", i ? ", " : "", s->fig[i]);
	printf("]},\n");
}

int main(int argc, char *argv[])
{
	enum { OPT_NO_VERSION = 256, OPT_UNPAIRED, OPT_RAW, OPT_VERSION,
	       OPT_GATE, OPT_JSON, OPT_SAVE, OPT_CHECK, OPT_MARGIN };
	static const struct option longopts[] = {
		{ "metric",	required_argument, NULL, 'm' },
		{ "pairs",	required_argument, NULL, 'n' },
		{ "warmup",	required_argument, NULL, 'w' },
		{ "resamples",	required_argument, NULL, 'r' },
		{ "seed",	required_argument, NULL, 's' },
		{ "quiet",	no_argument,	   NULL, 'q' },
		{ "max-slowdown", optional_argument, NULL, OPT_GATE },
		{ "margin",	required_argument, NULL, OPT_MARGIN },
		{ "json",	no_argument,	   NULL, OPT_JSON },
		{ "save",	required_argument, NULL, OPT_SAVE },
		{ "no-version",	no_argument,	   NULL, OPT_NO_VERSION },
		{ "unpaired",	no_argument,	   NULL, OPT_UNPAIRED },
		{ "raw",	no_argument,	   NULL, OPT_RAW },
		{ "check-usage", no_argument,	   NULL, OPT_CHECK },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long pairs = 0, warmup = ~0UL, resamples = 10000, seed = 1, i;
	unsigned long nlay, runs, l;
	struct side a = { .name = 'A' }, b = { .name = 'B' }, *la, *lb;
	double ratio, lo, hi, *boot = NULL, gate_pct = -1, limit, margin = -1;
	bool versions = true, paired = true, raw = false, json = false;
	bool gate = false, gate_failed = false, check_only = false;
	bool slower, faster;
	const char *save = NULL, *verdict;
	enum kind kind = KIND_NONE;
	FILE *save_f = NULL;
	int opt, m;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":m:n:w:r:s:qh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'm':
			m = rig_name_index(optarg, metric_name, METRIC_COUNT);
			if (m < 0)
				bad_usage("--metric: '%s' is not one of auto, "
					  "own, wall, cpu, instructions", optarg);
			metric = m;
			break;
		case 'n': pairs = parse_count("--pairs", optarg, 1, 1000000); break;
		case 'w': warmup = parse_count("--warmup", optarg, 0, 1000000); break;
		case 'r': resamples = parse_count("--resamples", optarg, 100, 10000000); break;
		case 's': seed = parse_count("--seed", optarg, 0, ~0UL); break;
		case 'q': quiet = true; break;
		case OPT_GATE:
			gate = true;
			if (optarg)
				gate_pct = parse_pct("--max-slowdown", optarg);
			break;
		case OPT_MARGIN: margin = parse_pct("--margin", optarg); break;
		case OPT_JSON: json = true; break;
		case OPT_SAVE: save = optarg; break;
		case OPT_NO_VERSION: versions = false; break;
		case OPT_UNPAIRED: paired = false; break;
		case OPT_RAW: raw = true; break;
		case OPT_CHECK: check_only = true; break;
		case 'h': usage(stdout); return 0;
		case OPT_VERSION:
			rig_print_built_by("compare");
			putchar('\n');
			return 0;
		default: {	/* what getopt_long refused, ':' too */
			char why[256];

			bad_usage("%s", rig_option_refused(why, sizeof(why), opt,
							   argv[optind - 1], optopt, longopts));
		}
		}
	}
	if (pairs == 0)
		pairs = metric == METRIC_INSTR ? 1 : 101;
	else if (pairs < 3 && metric != METRIC_INSTR)
		bad_usage("--pairs: %lu is too few for a confidence interval "
			  "(at least 3; 1 is enough only for "
			  "--metric=instructions)", pairs);
	if (warmup == ~0UL)
		warmup = metric == METRIC_INSTR ? 0 : 1;
	if (margin < 0)
		margin = metric == METRIC_INSTR ? 0 : MARGIN_PCT_NOISY;
	if (gate_pct < 0)
		gate_pct = metric == METRIC_INSTR ? GATE_PCT_INSTR :
			   GATE_PCT_NOISY;
	if (argc - optind < 2 || (argc - optind) % 2)
		bad_usage("commands come in pairs, A and B (more pairs: "
			  "layouts); %d given", argc - optind);
	nlay = (argc - optind) / 2;
	if (nlay > 1 && metric == METRIC_INSTR)
		bad_usage("layouts time code: not for --metric=instructions");
	if (nlay > 1 && !paired)
		bad_usage("layouts are compared in pairs: not with --unpaired");
	if (nlay > 1 && pairs < nlay)
		bad_usage("--pairs: %lu pairs for %lu layouts (one a layout at "
			  "least)", pairs, nlay);
	for (l = 0; l < 2 * nlay; l++)
		if (!*argv[optind + l])
			bad_usage("an empty command");
	if (check_only)
		return 0;
	la = calloc(nlay, sizeof(*la));
	lb = calloc(nlay, sizeof(*lb));
	if (!la || !lb)
		die("out of memory");
	for (l = 0; l < nlay; l++) {
		la[l].name = 'A';
		lb[l].name = 'B';
		la[l].cmd = argv[optind + 2 * l];
		lb[l].cmd = argv[optind + 2 * l + 1];
		la[l].fig = malloc(pairs * sizeof(double));
		lb[l].fig = malloc(pairs * sizeof(double));
		if (!la[l].fig || !lb[l].fig)
			die("out of memory");
	}
	a.cmd = la[0].cmd;
	b.cmd = lb[0].cmd;
	if (save && !(save_f = fopen(save, "w")))
		die("%s: %s", save, strerror(errno));

	if (!json && nlay > 1)
		for (l = 0; l < nlay; l++)
			printf("layout %lu: A: %s\nlayout %lu: B: %s\n", l + 1,
			       la[l].cmd, l + 1, lb[l].cmd);
	else if (!json)
		printf("A: %s\nB: %s\n", a.cmd, b.cmd);
	if (versions) {
		a.version = version_of(a.cmd);
		b.version = version_of(b.cmd);
		if (!json) {
			printf("A version: %s\nB version: %s\n",
			       a.version ? a.version : "(none)",
			       b.version ? b.version : "(none)");
			if (a.version && b.version &&
			    strcmp(a.version, b.version))
				printf("note: A and B report different builds\n");
		}
	}
	fflush(stdout);

	a.fig = malloc(pairs * sizeof(double));
	b.fig = malloc(pairs * sizeof(double));
	boot = malloc(resamples * sizeof(double));
	if (!a.fig || !b.fig || !boot)
		die("out of memory");

	/*
	 * Round the layouts: pair i is layout i % nlay's, each layout's own
	 * warm-up pairs first.  In each layout, A B, then B A: neither always
	 * runs second.
	 */
	runs = warmup * nlay + pairs;
	for (i = 0; i < runs; i++) {
		bool warm = i < warmup * nlay;
		double fa, fb;

		l = i % nlay;
		if ((i / nlay) % 2) {
			fb = run_side(&lb[l], &kind, i + 1);
			fa = run_side(&la[l], &kind, i + 1);
		} else {
			fa = run_side(&la[l], &kind, i + 1);
			fb = run_side(&lb[l], &kind, i + 1);
		}

		if (!warm) {
			a.fig[a.n++] = fa;
			b.fig[b.n++] = fb;
			la[l].fig[la[l].n++] = fa;
			lb[l].fig[lb[l].n++] = fb;
			if (save_f)
				fprintf(save_f, "%.17g %.17g\n", fa, fb);
		}
		if (raw && !json)
			printf("%s %lu: A %.9g B %.9g\n", warm ? "warm-up" :
			       "pair", warm ? i + 1 : i - warmup * nlay + 1,
			       fa, fb);
		if (!quiet)
			fputc(warm ? ',' : '.', stderr);
	}
	if (!quiet)
		fputc('\n', stderr);
	if (save_f && fclose(save_f))
		die("%s: %s", save, strerror(errno));

	summarise(&a);
	summarise(&b);
	ratio = paired && kind != KIND_INSTR ? pair_ratio(&a, &b) :
		b.med / a.med;
	rng_state = seed;
	bootstrap(&a, &b, paired, boot, resamples);
	lo = quantile(boot, resamples, 0.025);
	hi = quantile(boot, resamples, 0.975);
	if (kind == KIND_INSTR) {
		/* Deterministic: the figures are the figures. */
		lo = b.lo / a.hi;
		hi = b.hi / a.lo;
	}
	if (nlay > 1) {
		/*
		 * Each layout's median pair ratio; their geometric mean and a
		 * t interval over them: the layouts' spread is in it.
		 */
		double sum = 0, sq = 0, mean, sd;

		for (l = 0; l < nlay; l++) {
			la[l].med = pair_ratio(&la[l], &lb[l]);
			sum += log(la[l].med);
		}
		mean = sum / nlay;
		for (l = 0; l < nlay; l++)
			sq += (log(la[l].med) - mean) * (log(la[l].med) - mean);
		sd = sqrt(sq / (nlay - 1));
		ratio = exp(mean);
		lo = exp(mean - t975(nlay - 1) * sd / sqrt(nlay));
		hi = exp(mean + t975(nlay - 1) * sd / sqrt(nlay));
	}
	slower = lo > 1 + margin / 100;
	faster = hi < 1 - margin / 100;
	verdict = slower ? "slower" : faster ? "faster" : "same";
	limit = 1 + gate_pct / 100;
	gate_failed = gate && (kind == KIND_INSTR ? ratio > limit : lo > limit);

	if (json) {
		printf("{\n  \"metric\": \"%s\",\n  \"figure\": \"%s\",\n"
		       "  \"unit\": \"%s\",\n  \"pairs\": %lu,\n"
		       "  \"warmup\": %lu,\n", metric_name[metric],
		       kinds[kind].key, kinds[kind].unit, pairs, warmup);
		json_side("a", &a);
		json_side("b", &b);
		printf("  \"ratio\": %.6f,\n  \"ci_low\": %.6f,\n"
		       "  \"ci_high\": %.6f,\n  \"confidence\": 0.95,\n"
		       "  \"bootstrap\": \"%s\",\n  \"resamples\": %lu,\n"
		       "  \"seed\": %lu,\n  \"statistic\": \"%s\",\n"
		       "  \"margin_pct\": %g,\n  \"verdict\": \"%s\",\n",
		       ratio, lo, hi, kind == KIND_INSTR || nlay > 1 ? "none" :
		       paired ? "paired" : "unpaired", resamples, seed,
		       nlay > 1 ? "layout_mean_ratio" :
		       paired && kind != KIND_INSTR ? "median_pair_ratio" :
		       "ratio_of_medians", margin, verdict);
		if (nlay > 1) {
			printf("  \"layouts\": [");
			for (l = 0; l < nlay; l++) {
				printf("%s\n    {\"a\": ", l ? "," : "");
				rig_json_quoted(la[l].cmd);
				printf(", \"b\": ");
				rig_json_quoted(lb[l].cmd);
				printf(", \"pairs\": %zu, \"ratio\": %.6f}",
				       la[l].n, la[l].med);
			}
			printf("\n  ],\n");
		}
		if (gate)
			printf("  \"gate\": {\"max_slowdown_pct\": %g, "
			       "\"failed\": %s}\n}\n", gate_pct,
			       gate_failed ? "true" : "false");
		else
			printf("  \"gate\": null\n}\n");
	} else {
		printf("figure: %s; %lu pairs after %lu warm-up%s\n",
		       kinds[kind].text, pairs, warmup,
		       nlay > 1 ? " a layout" : "");
		print_side(&a, kind);
		print_side(&b, kind);
		if (kind == KIND_INSTR)
			printf("B/A: %.6f (deterministic: no interval)\n",
			       ratio);
		else if (nlay > 1) {
			for (l = 0; l < nlay; l++)
				printf("layout %lu: B/A %.4f (median of %zu pair "
				       "ratios)\n", l + 1, la[l].med, la[l].n);
			printf("B/A: %.4f, 95%% CI %.4f..%.4f (geometric mean of "
			       "the %lu layouts' ratios, t interval)\n", ratio,
			       lo, hi, nlay);
		} else
			printf("B/A: %.4f, 95%% CI %.4f..%.4f (%s, bootstrap "
			       "of %lu resamples, seed %lu)\n", ratio, lo, hi,
			       paired ? "median of the pair ratios" :
			       "ratio of medians, unpaired", resamples, seed);
		printf("verdict: %s", slower ? (kind == KIND_INSTR ?
		       "slower (B executes more instructions than A)" :
		       "slower (B takes longer than A)") :
		       faster ? (kind == KIND_INSTR ?
		       "faster (B executes fewer instructions than A)" :
		       "faster (B takes less time than A)") :
		       "no significant difference");
		if (!slower && !faster && (lo > 1 || hi < 1))
			printf(" (the interval excludes 1, but not by the %g%% margin)",
			       margin);
		putchar('\n');
		if (gate)
			printf("gate: %s (--max-slowdown=%g: %s)\n",
			       gate_failed ? "FAIL" : "pass", gate_pct,
			       kind == KIND_INSTR ?
			       "fails when B/A is above 1 + PCT/100" :
			       "fails when the whole interval is above 1 + PCT/100");
	}
	for (l = 0; l < nlay; l++) {
		free(la[l].fig);
		free(lb[l].fig);
	}
	free(la);
	free(lb);
	free(a.fig);
	free(b.fig);
	free(a.version);
	free(b.version);
	free(boot);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "compare: write error: %s\n", strerror(errno));
		return EXIT_RUN;
	}
	return gate_failed ? EXIT_GATE : 0;
}
