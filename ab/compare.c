// SPDX-License-Identifier: GPL-2.0
/*
 * compare: is B faster or slower than A, or is the difference noise?
 *
 * Runs two shell commands alternately (A B A B ...), takes one figure from
 * each run, and prints both medians, the ratio of medians B/A with a 95%
 * confidence interval from a bootstrap (fixed seed, so the same figures
 * always give the same answer) and a verdict: "slower" when the whole
 * interval lies above 1, "faster" when below, otherwise "no significant
 * difference".  Figures are times: bigger is slower.  The bootstrap draws
 * whole pairs, since the two runs of a pair share whatever else the machine
 * was doing at the time (--unpaired draws A's and B's runs independently).
 * On independent, identically distributed figures the interval misses 1 in
 * about 4% of A/A comparisons (simulated: 20 pairs, normal and skewed noise).
 *
 * A run's figure is, first found: its last "<N>ns" line (vring_bench), its
 * last "Wall time:<S>" line (/usr/bin/time -f 'Wall time:%e'), or else the
 * wall time the comparer measures from fork to exit.  Standard output and
 * standard error are both searched; every run of both commands must give the
 * same kind of figure, and a run that fails stops the comparison.
 *
 * Stands alone: no ring code, no harness.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum kind { KIND_NONE, KIND_NS, KIND_WALL, KIND_MEASURED };

static const char *const kind_text[] = {
	[KIND_NS] = "the \"<N>ns\" line of each run",
	[KIND_WALL] = "the \"Wall time:<S>\" line of each run",
	[KIND_MEASURED] = "wall time measured by the comparer (fork to exit)",
};

struct side {
	char name;		/* 'A' or 'B' */
	const char *cmd;
	double *fig;		/* one figure per measured run */
	size_t n;
};

static bool quiet;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fputs("compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(FILE *f)
{
	fputs(
"Usage: compare [OPTIONS] COMMAND_A COMMAND_B\n"
"Run the two shell commands alternately, A B A B ..., take one figure from\n"
"each run (its \"<N>ns\" line, else its \"Wall time:<S>\" line, else the wall\n"
"time measured here), and tell whether B is faster or slower than A: the\n"
"ratio of medians B/A with a 95% bootstrap confidence interval.\n"
"  -n, --pairs N      measured runs of each command (default 20, min 3)\n"
"  -w, --warmup N     unmeasured A B pairs first (default 1)\n"
"  -r, --resamples N  bootstrap resamples (default 10000)\n"
"  -s, --seed N       bootstrap seed (default 1)\n"
"  -q, --quiet        no progress dots on stderr\n"
"      --unpaired     resample A's and B's runs independently, not in pairs\n"
"      --raw          print every pair's figures as they come\n"
"      --no-version   do not print \"PROG --version\" for each command\n"
"  -h, --help         this text\n"
"A command whose first word is a path with a '/' is asked for its --version\n"
"line, printed so that mismatched builds are seen.\n", f);
}

static void __attribute__((noreturn)) bad_usage(void)
{
	usage(stderr);
	exit(1);
}

static unsigned long parse_count(const char *s, unsigned long min,
				 unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		bad_usage();
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		bad_usage();
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * Run argv (or "sh -c cmd" if argv is NULL) with stdin from /dev/null and
 * stdout (and stderr, if @with_stderr) captured into *out.  Returns the
 * wait status; *ns is the wall time from fork to exit.
 */
static int run(const char *cmd, char *const argv[], bool with_stderr,
	       char **out, double *ns)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fds[2], status;
	double t0;
	ssize_t got;
	pid_t pid;

	if (!buf || pipe(fds))
		die("cannot set up a run: %s", strerror(errno));
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
	buf[len] = '\0';
	*out = buf;
	return status;
}

/* The figure a run's output gives, and of which kind. */
static enum kind figure(const char *out, double measured, double *fig)
{
	double ns = -1, wall = -1;
	const char *line, *p;
	char *end;

	for (line = out; *line; line = p + (*p == '\n')) {
		p = line + strcspn(line, "\n");
		if (*line >= '0' && *line <= '9') {
			double v = strtod(line, &end);

			if (end + 2 == p && !strncmp(end, "ns", 2) &&
			    strspn(line, "0123456789") == (size_t)(end - line))
				ns = v;
		} else if (!strncmp(line, "Wall time:", 10)) {
			double v = strtod(line + 10, &end);

			if (end != line + 10 && end == p)
				wall = v;
		}
	}
	if (ns >= 0) {
		*fig = ns;
		return KIND_NS;
	}
	if (wall >= 0) {
		*fig = wall;
		return KIND_WALL;
	}
	*fig = measured;
	return KIND_MEASURED;
}

/* Run one side once; the figure, checked against the kind seen so far. */
static double run_side(const struct side *s, enum kind *kind, unsigned int nr)
{
	enum kind k;
	double ns, fig;
	char *out;
	int status = run(s->cmd, NULL, true, &out, &ns);

	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "\ncompare: %c (run %u) %s %d: %s\n",
			s->name, nr, WIFEXITED(status) ? "exited with status" :
			"was killed by signal", WIFEXITED(status) ?
			WEXITSTATUS(status) : WTERMSIG(status), s->cmd);
		fputs(out, stderr);
		exit(1);
	}
	k = figure(out, ns, &fig);
	free(out);
	if (*kind == KIND_NONE)
		*kind = k;
	if (k != *kind)
		die("%c (run %u) gave %s, but earlier runs gave %s",
		    s->name, nr, kind_text[k], kind_text[*kind]);
	if (!(fig > 0))
		die("%c (run %u) gave a figure of 0: no ratio can be formed",
		    s->name, nr);
	return fig;
}

/* "PROG --version" for a command whose first word is a path. */
static char *version_of(const char *cmd)
{
	size_t n = strcspn(cmd, " \t\n");
	char *prog = strndup(cmd, n), *out, *nl;
	char *argv[] = { prog, "--version", NULL };
	struct stat st;
	double ns;
	int status;

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
 * The bootstrap distribution of median(B) / median(A), sorted.  Paired, a
 * resample draws whole pairs: the two runs of a pair ran back to back, so a
 * slow spell of the machine that hit both stays together, as in the data.
 * Unpaired, A's and B's runs are drawn independently.
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
			ra[i] = a->fig[j];
			rb[i] = b->fig[paired ? j : rng_next() % n];
		}
		boot[r] = median(rb, n, tmp) / median(ra, n, tmp);
	}
	qsort(boot, resamples, sizeof(*boot), cmp_double);
	free(ra);
	free(rb);
	free(tmp);
}

/* One side's summary; returns its median. */
static double print_side(const struct side *s, enum kind kind)
{
	double *sorted = malloc(s->n * sizeof(*sorted));
	double sum = 0, sq = 0, mean, sd, med, lo, hi;
	const char *unit = kind == KIND_WALL ? "s" : "ns";
	size_t i;

	if (!sorted)
		die("out of memory");
	med = median(s->fig, s->n, sorted);
	lo = sorted[0];
	hi = sorted[s->n - 1];
	free(sorted);
	for (i = 0; i < s->n; i++)
		sum += s->fig[i];
	mean = sum / s->n;
	for (i = 0; i < s->n; i++)
		sq += (s->fig[i] - mean) * (s->fig[i] - mean);
	sd = sqrt(sq / (s->n - 1));
	printf("%c: median %.*f%s, min %.*f%s, max %.*f%s, CV %.2f%%\n",
	       s->name, kind == KIND_WALL ? 3 : 0, med, unit,
	       kind == KIND_WALL ? 3 : 0, lo, unit,
	       kind == KIND_WALL ? 3 : 0, hi, unit, 100 * sd / mean);
	return med;
}

int main(int argc, char *argv[])
{
	enum { OPT_NO_VERSION = 256, OPT_UNPAIRED, OPT_RAW };
	static const struct option longopts[] = {
		{ "pairs",	required_argument, NULL, 'n' },
		{ "warmup",	required_argument, NULL, 'w' },
		{ "resamples",	required_argument, NULL, 'r' },
		{ "seed",	required_argument, NULL, 's' },
		{ "quiet",	no_argument,	   NULL, 'q' },
		{ "no-version",	no_argument,	   NULL, OPT_NO_VERSION },
		{ "unpaired",	no_argument,	   NULL, OPT_UNPAIRED },
		{ "raw",	no_argument,	   NULL, OPT_RAW },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long pairs = 20, warmup = 1, resamples = 10000, seed = 1, i;
	struct side a = { .name = 'A' }, b = { .name = 'B' };
	double med_a, med_b, ratio, lo, hi, *boot;
	bool versions = true, paired = true, raw = false;
	enum kind kind = KIND_NONE;
	char *ver_a, *ver_b;
	int opt;

	while ((opt = getopt_long(argc, argv, "n:w:r:s:qh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'n': pairs = parse_count(optarg, 3, 1000000); break;
		case 'w': warmup = parse_count(optarg, 0, 1000000); break;
		case 'r': resamples = parse_count(optarg, 100, 10000000); break;
		case 's': seed = parse_count(optarg, 0, ~0UL); break;
		case 'q': quiet = true; break;
		case OPT_NO_VERSION: versions = false; break;
		case OPT_UNPAIRED: paired = false; break;
		case OPT_RAW: raw = true; break;
		case 'h': usage(stdout); return 0;
		default: bad_usage();
		}
	}
	if (argc - optind != 2)
		bad_usage();
	a.cmd = argv[optind];
	b.cmd = argv[optind + 1];

	printf("A: %s\nB: %s\n", a.cmd, b.cmd);
	if (versions) {
		ver_a = version_of(a.cmd);
		ver_b = version_of(b.cmd);
		printf("A version: %s\nB version: %s\n",
		       ver_a ? ver_a : "(none)", ver_b ? ver_b : "(none)");
		if (ver_a && ver_b && strcmp(ver_a, ver_b))
			printf("note: A and B report different builds\n");
		free(ver_a);
		free(ver_b);
	}
	fflush(stdout);

	a.fig = malloc(pairs * sizeof(double));
	b.fig = malloc(pairs * sizeof(double));
	boot = malloc(resamples * sizeof(double));
	if (!a.fig || !b.fig || !boot)
		die("out of memory");

	for (i = 0; i < warmup + pairs; i++) {
		double fa = run_side(&a, &kind, i + 1);
		double fb = run_side(&b, &kind, i + 1);

		if (i >= warmup) {
			a.fig[a.n++] = fa;
			b.fig[b.n++] = fb;
		}
		if (raw)
			printf("%s %lu: A %.9g B %.9g\n", i < warmup ?
			       "warm-up" : "pair", i < warmup ? i + 1 :
			       i - warmup + 1, fa, fb);
		if (!quiet)
			fputc(i < warmup ? ',' : '.', stderr);
	}
	if (!quiet)
		fputc('\n', stderr);

	printf("figure: %s; %lu pairs after %lu warm-up\n", kind_text[kind],
	       pairs, warmup);
	med_a = print_side(&a, kind);
	med_b = print_side(&b, kind);
	ratio = med_b / med_a;
	rng_state = seed;
	bootstrap(&a, &b, paired, boot, resamples);
	lo = quantile(boot, resamples, 0.025);
	hi = quantile(boot, resamples, 0.975);
	printf("B/A: %.4f, 95%% CI %.4f..%.4f (%s bootstrap of the ratio of "
	       "medians, %lu resamples, seed %lu)\n", ratio, lo, hi,
	       paired ? "paired" : "unpaired", resamples, seed);
	printf("verdict: %s\n", lo > 1 ? "slower (B takes longer than A)" :
	       hi < 1 ? "faster (B takes less time than A)" :
	       "no significant difference");
	free(a.fig);
	free(b.fig);
	free(boot);
	return 0;
}
