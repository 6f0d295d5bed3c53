// SPDX-License-Identifier: GPL-2.0
/*
 * stats - fold the output of repeated benchmark runs.
 *
 * Every input line is cut into text parts and number parts.  Lines whose
 * text parts are byte-identical, with numbers in the same places, form a
 * group.  Each group is printed once, in order of first appearance, using
 * the text of its first line.  A number column whose values are all
 * numerically equal is printed exactly as the first line wrote it; a column
 * that varies is printed as MIN-MAX(MEAN+/-SD).
 *
 * Tokenising rules:
 *   - A number starts at a digit, or at '-' followed by a digit.  A '-'
 *     directly after a number (no gap) is text, so "1-2" is the number 1,
 *     the text "-" and the number 2.
 *   - A '.' followed by a digit makes the number a float ("100." is the
 *     number 100 followed by the text ".").  A number may also start with
 *     that '.' (or "-."), at the start of the line or after whitespace:
 *     ".5" is 0.5; "v.5" stays the text "v." and the number 5.
 *   - "0x" (or "0X") followed by hex digits is a hex integer: 0x4e20 is
 *     20000, never the float 4e20.
 *   - Whitespace directly before a number is part of that number's token;
 *     it never takes part in grouping.  "this300" and "this -100" therefore
 *     share the text part "this".
 *   - Trailing whitespace (including a CR) is dropped from every line.
 *
 * Improvements over the classic tool (deliberate):
 *   - A mantissa followed by an exponent (e/E, optional sign, digits) is a
 *     single float: "9.44739e+08", "1e-3", "2.5E+10".
 *   - Integer sums cannot overflow: integer columns are summed in a 128-bit
 *     integer, MIN/MAX are kept exactly as long long, and MEAN/SD are
 *     computed in long double (SD from values shifted by the first value,
 *     which keeps it exact for large, close integers).
 *   - An integer too large for long long is read as a float, which makes
 *     its column a float column.
 *   - A column holding a number the classic tool could not read (hex, a
 *     leading '.', an exponent, an integer too big for long long) prints
 *     MIN and MAX as the input wrote them (the text of the first line
 *     holding that value): "1e400-1e401", ".5-.7", "0x4e20-0x4e21".  The
 *     classic tool read 0x4e20 as 0, "x", 4, "e" and 20, and 1e400 as 1,
 *     "e" and 400.
 *
 * As the classic tool:
 *   - A varying column that holds a float, every number in it plain
 *     decimal (digits, at most one '.'), prints MIN and MAX with %Lf (six
 *     decimals), integers in it too: "100.000000-300.000000".  Integer
 *     columns print MIN and MAX as written.
 *
 * Decisions where the behaviour was not otherwise fixed:
 *   - Whitespace means space, tab, CR, LF, VT and FF (independent of locale).
 *   - MEAN %Lg; SD %.2Lg, population SD, both decimal (for hex columns too).
 *     A varying column is preceded by a single space when the first line's
 *     token had any leading whitespace, otherwise by nothing.
 *   - --trim-outliers removes one minimum and one maximum from MEAN and SD
 *     when a column has at least 3 values; MIN-MAX still covers all values.
 *   - --csv: per group, a header line with the group's text in double
 *     quotes (embedded '"' doubled), each varying column replaced by "[k]"
 *     (k counts from 1 over the whole run, across files), again preceded by
 *     one space when the first token had leading whitespace; invariant
 *     numbers appear verbatim.  Then one row per input line of the group:
 *     that line's own text of each varying number (without its leading
 *     whitespace), separated by ','.  A group with no varying column prints
 *     only its header.  With -c, "  (N)" follows the header's closing quote.
 *   - --csv with --trim-outliers is rejected.
 *   - Blank lines are a group like any other (they fold into one empty line).
 *   - FILE "-" means standard input.  Files are processed one after another
 *     and groups never merge across files.  A file that cannot be opened or
 *     read is reported (one line on stderr), produces no output,
 *     and processing continues with the next file; the exit status is 1.
 *   - Every usage error (unknown option, bad --skip value, --csv with
 *     --trim-outliers) prints one line naming it and "try 'stats --help'"
 *     on stderr and exits with status 2, as the rig's other programs do
 *     (the classic tool exited 1; nothing here relied on that, and 2 tells
 *     a usage error apart from a file that cannot be read).  -h/--help prints the usage on
 *     stdout and exits 0; --version prints who built it.
 *   - A write error on stdout is reported and gives exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/text.h"
#include "harness/xalloc.h"

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 wide_int;
__extension__ typedef unsigned __int128 wide_uint;
#else
typedef long double wide_int;
#endif

struct options {
	int count;
	int csv;
	int trim;
	int suppress;
	size_t skip;
};

static struct options opt;
static unsigned long csv_next_index = 1;

/* A slice of a line: text, or a number token with its leading whitespace. */
struct part {
	size_t off;
	size_t len;
	size_t ws;      /* numbers only: bytes of leading whitespace */
	int is_num;
	int is_float;   /* numbers only */
	int is_hex;     /* numbers only: 0x... */
	int is_classic; /* numbers only: digits with at most one '.' inside */
};

struct value {
	long double f;  /* valid when is_float */
	long long i;    /* valid when !is_float */
	int is_float;
};

struct column {
	struct value *v;
	char **txt;     /* --csv only: each line's number text */
	size_t n;
	size_t cap;
	int is_float;
	int odd;        /* holds a number the classic tool could not read */
	size_t imin, imax;      /* first smallest and first largest value */
	char *min_txt, *max_txt;        /* ... as the input wrote them */
};

struct group {
	struct group *hash_next;
	uint64_t hash;
	unsigned char *key;
	size_t keylen;
	char *line;             /* first line of the group */
	struct part *parts;     /* parts of the first line */
	size_t nparts;
	struct column *cols;
	size_t ncols;
	size_t nlines;
};

struct table {
	struct group **buckets;
	size_t nbuckets;
	struct group **order;   /* groups in order of first appearance */
	size_t ngroups;
	size_t cap;
};

static void *xmalloc(size_t n)
{
	return rig_xrealloc(NULL, n);
}

/* Grow *cap so that it holds at least want elements. */
static void *grow(void *p, size_t *cap, size_t want, size_t elem)
{
	size_t c = *cap;

	if (want <= c)
		return p;
	if (c == 0)
		c = 8;
	while (c < want) {
		if (c > SIZE_MAX / 2 / elem)
			rig_oom();
		c *= 2;
	}
	*cap = c;
	return rig_xrealloc(p, c * elem);
}

static void usage(FILE *out)
{
	fputs("Usage: stats [OPTION]... [FILE]...\n"
	      "Fold repeated benchmark output: lines that differ only in their\n"
	      "numbers are printed once, each varying number as MIN-MAX(MEAN+/-SD).\n"
	      "\n"
	      "  -c, --count               append \"  (N)\", the number of lines folded\n"
	      "      --skip=N              treat the first N numbers of a line as text\n"
	      "      --suppress-invariant  omit lines in which no number varies\n"
	      "      --trim-outliers       leave one minimum and one maximum out of\n"
	      "                            MEAN and SD (columns of 3 or more values)\n"
	      "      --csv                 per group, print a quoted header with [k]\n"
	      "                            for each varying number, then one CSV row\n"
	      "                            per input line\n"
	      "  -h, --help                print this help and exit\n"
	      "      --version             print who built this program and exit\n"
	      "\n"
	      "With no FILE, or when FILE is -, read standard input.  Each FILE is\n"
	      "processed separately.  Exit status: 0 on success, 1 when a file cannot\n"
	      "be read or the output written, 2 on a usage error.\n",
	      out);
}

/* A usage error exits 2, like the rig's other programs; 1 is a file error. */
#define EXIT_USAGE 2

static void try_help(void)
{
	fputs("try 'stats --help'\n", stderr);
}

static int is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	       c == '\v' || c == '\f';
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int is_xdigit(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* ".5" at s[i]: a number without its leading 0, where a token may start. */
static int leading_dot(const char *s, size_t len, size_t i)
{
	return s[i] == '.' && i + 1 < len && is_digit((unsigned char)s[i + 1]) &&
	       (i == 0 || is_ws((unsigned char)s[i - 1]));
}

/* Does a number start at s[i]?  right_after_number: s[i-1] ends a number. */
static int number_starts(const char *s, size_t len, size_t i,
			 int right_after_number)
{
	if (i >= len)
		return 0;
	if (is_digit((unsigned char)s[i]))
		return 1;
	if (right_after_number)
		return 0;
	if (leading_dot(s, len, i))
		return 1;
	if (s[i] != '-' || i + 1 >= len)
		return 0;
	return is_digit((unsigned char)s[i + 1]) ||
	       (s[i + 1] == '.' && i + 2 < len &&
		is_digit((unsigned char)s[i + 2]));
}

/* s[i] starts a number; return the index just past it. */
static size_t number_end(const char *s, size_t len, size_t i, int *is_float,
			 int *is_hex)
{
	*is_float = 0;
	*is_hex = 0;
	if (s[i] == '-')
		i++;
	if (i + 2 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
	    is_xdigit((unsigned char)s[i + 2])) {
		*is_hex = 1;
		i += 2;
		while (i < len && is_xdigit((unsigned char)s[i]))
			i++;
		return i;
	}
	while (i < len && is_digit((unsigned char)s[i]))
		i++;
	if (i + 1 < len && s[i] == '.' && is_digit((unsigned char)s[i + 1])) {
		*is_float = 1;
		i++;
		while (i < len && is_digit((unsigned char)s[i]))
			i++;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		if (j < len && is_digit((unsigned char)s[j])) {
			*is_float = 1;
			i = j;
			while (i < len && is_digit((unsigned char)s[i]))
				i++;
		}
	}
	return i;
}

/*
 * Would the classic tool have read s[0..n) as this one number?  Yes for
 * "-"? digits ("." digits)?; no for hex, a leading '.' and an exponent.
 */
static int classic_number(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i >= n || !is_digit((unsigned char)s[i]))
		return 0;
	while (i < n && is_digit((unsigned char)s[i]))
		i++;
	if (i < n && s[i] == '.')
		i++;
	while (i < n && is_digit((unsigned char)s[i]))
		i++;
	return i == n;
}

static void add_text(struct part **parts, size_t *n, size_t *cap,
		     size_t off, size_t len)
{
	struct part *p;

	if (*n > 0) {
		p = &(*parts)[*n - 1];
		if (!p->is_num && p->off + p->len == off) {
			p->len += len;
			return;
		}
	}
	*parts = grow(*parts, cap, *n + 1, sizeof(**parts));
	(*parts)[(*n)++] = (struct part){ .off = off, .len = len };
}

/* Cut s[0..len) into parts; the first opt.skip numbers become text. */
static size_t split_line(const char *s, size_t len, struct part **parts,
			 size_t *cap)
{
	size_t n = 0, i = 0, numbers = 0;
	int after_number = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && is_ws((unsigned char)s[j]))
			j++;
		if (number_starts(s, len, j, after_number && j == i)) {
			int fl, hex;
			size_t end = number_end(s, len, j, &fl, &hex);

			if (numbers++ < opt.skip) {
				add_text(parts, &n, cap, i, end - i);
			} else {
				struct part *p;

				*parts = grow(*parts, cap, n + 1, sizeof(**parts));
				p = &(*parts)[n++];
				p->off = i;
				p->len = end - i;
				p->ws = j - i;
				p->is_num = 1;
				p->is_float = fl;
				p->is_hex = hex;
				p->is_classic = classic_number(s + j, end - j);
			}
			after_number = 1;
			i = end;
		} else {
			/* Text: a whitespace run, or one other byte. */
			size_t end = j > i ? j : i + 1;

			add_text(parts, &n, cap, i, end - i);
			after_number = 0;
			i = end;
		}
	}
	return n;
}

static void key_put(unsigned char **key, size_t *len, size_t *cap,
		    const void *data, size_t n)
{
	*key = grow(*key, cap, *len + n, 1);
	memcpy(*key + *len, data, n);
	*len += n;
}

/* Encode the shape of a line: text parts with their bytes, numbers as 'N'. */
static size_t build_key(const char *s, const struct part *parts, size_t n,
			unsigned char **key, size_t *cap)
{
	size_t len = 0, k;

	for (k = 0; k < n; k++) {
		if (parts[k].is_num) {
			key_put(key, &len, cap, "N", 1);
		} else {
			key_put(key, &len, cap, "T", 1);
			key_put(key, &len, cap, &parts[k].len, sizeof(parts[k].len));
			key_put(key, &len, cap, s + parts[k].off, parts[k].len);
		}
	}
	return len;
}

static uint64_t hash_bytes(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--) {
		h ^= *p++;
		h *= 1099511628211ULL;
	}
	return h;
}

static void table_init(struct table *t)
{
	t->nbuckets = 64;
	t->buckets = rig_xcalloc(t->nbuckets, sizeof(*t->buckets));
	t->order = NULL;
	t->ngroups = 0;
	t->cap = 0;
}

static void table_rehash(struct table *t)
{
	size_t nb = t->nbuckets * 2, k;
	struct group **b = rig_xcalloc(nb, sizeof(*b));

	for (k = 0; k < t->ngroups; k++) {
		struct group *g = t->order[k];
		size_t idx = (size_t)(g->hash & (nb - 1));

		g->hash_next = b[idx];
		b[idx] = g;
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = nb;
}

static struct group *table_get(struct table *t, const char *line, size_t len,
			       const struct part *parts, size_t nparts,
			       const unsigned char *key, size_t keylen)
{
	uint64_t h = hash_bytes(key, keylen);
	struct group *g;
	size_t k, c;

	for (g = t->buckets[h & (t->nbuckets - 1)]; g; g = g->hash_next)
		if (g->hash == h && g->keylen == keylen &&
		    memcmp(g->key, key, keylen) == 0)
			return g;

	g = rig_xcalloc(1, sizeof(*g));
	g->hash = h;
	g->keylen = keylen;
	g->key = xmalloc(keylen);
	memcpy(g->key, key, keylen);
	g->line = xmalloc(len);
	memcpy(g->line, line, len);
	g->nparts = nparts;
	g->parts = xmalloc(nparts * sizeof(*parts));
	memcpy(g->parts, parts, nparts * sizeof(*parts));
	for (k = 0, c = 0; k < nparts; k++)
		if (parts[k].is_num)
			c++;
	g->ncols = c;
	g->cols = rig_xcalloc(c, sizeof(*g->cols));

	t->order = grow(t->order, &t->cap, t->ngroups + 1, sizeof(*t->order));
	t->order[t->ngroups++] = g;
	g->hash_next = t->buckets[h & (t->nbuckets - 1)];
	t->buckets[h & (t->nbuckets - 1)] = g;
	if (t->ngroups > t->nbuckets)
		table_rehash(t);
	return g;
}

static void group_free(struct group *g)
{
	size_t c, k;

	for (c = 0; c < g->ncols; c++) {
		if (g->cols[c].txt)
			for (k = 0; k < g->cols[c].n; k++)
				free(g->cols[c].txt[k]);
		free(g->cols[c].txt);
		free(g->cols[c].v);
		free(g->cols[c].min_txt);
		free(g->cols[c].max_txt);
	}
	free(g->cols);
	free(g->parts);
	free(g->line);
	free(g->key);
	free(g);
}

static void table_free(struct table *t)
{
	size_t k;

	for (k = 0; k < t->ngroups; k++)
		group_free(t->order[k]);
	free(t->order);
	free(t->buckets);
}

/* Parse the number text s[0..n) (no whitespace). */
static void parse_value(const char *s, size_t n, int is_float, int is_hex,
			struct value *v)
{
	static char *buf;
	static size_t cap;

	if (!s) {               /* release the scratch buffer */
		free(buf);
		buf = NULL;
		cap = 0;
		return;
	}
	buf = grow(buf, &cap, n + 1, 1);
	memcpy(buf, s, n);
	buf[n] = '\0';
	v->i = 0;
	v->f = 0;
	v->is_float = is_float;
	if (!is_float) {
		errno = 0;
		v->i = strtoll(buf, NULL, is_hex ? 16 : 10);
		if (errno == ERANGE)
			v->is_float = 1;    /* too big for long long */
	}
	if (v->is_float)
		v->f = strtold(buf, NULL);      /* reads 0x... as hex too */
}

static int value_lt(const struct value *a, const struct value *b);

static char *copy_text(char *old, const char *s, size_t n)
{
	char *t = rig_xrealloc(old, n + 1);

	memcpy(t, s, n);
	t[n] = '\0';
	return t;
}

static void column_add(struct column *c, const char *s, size_t n,
		       int is_float, int is_hex, int is_classic)
{
	struct value *v;

	if (c->n == c->cap) {
		/* v and txt always have the same capacity. */
		size_t cap = c->cap;

		c->v = grow(c->v, &cap, c->n + 1, sizeof(*c->v));
		if (opt.csv)
			c->txt = rig_xrealloc(c->txt, cap * sizeof(*c->txt));
		c->cap = cap;
	}
	v = &c->v[c->n];
	parse_value(s, n, is_float, is_hex, v);
	if (v->is_float)
		c->is_float = 1;
	if (!is_classic || (v->is_float && !is_float))
		c->odd = 1;     /* ... or an integer too big for long long */
	if (c->n == 0 || value_lt(v, &c->v[c->imin])) {
		c->imin = c->n;
		c->min_txt = copy_text(c->min_txt, s, n);
	}
	if (c->n == 0 || value_lt(&c->v[c->imax], v)) {
		c->imax = c->n;
		c->max_txt = copy_text(c->max_txt, s, n);
	}
	if (opt.csv) {
		c->txt[c->n] = xmalloc(n + 1);
		memcpy(c->txt[c->n], s, n);
		c->txt[c->n][n] = '\0';
	}
	c->n++;
}

static void group_add(struct group *g, const char *line,
		      const struct part *parts, size_t nparts)
{
	size_t k, c = 0;

	for (k = 0; k < nparts; k++) {
		const struct part *p = &parts[k];

		if (!p->is_num)
			continue;
		column_add(&g->cols[c++], line + p->off + p->ws, p->len - p->ws,
			   p->is_float, p->is_hex, p->is_classic);
	}
	g->nlines++;
}

/*
 * Convert a wide integer to long double through its magnitude's two 64-bit
 * halves.  This avoids the compiler's direct 128-bit conversion, which some
 * x87 emulators (valgrind) get wrong, and keeps small values exact even
 * where long double is only double precision.
 */
static long double wide_to_ld(wide_int w)
{
#ifdef __SIZEOF_INT128__
	wide_uint mag = w < 0 ? -(wide_uint)w : (wide_uint)w;
	long double r;

	r = (long double)(unsigned long long)(mag >> 64) * 18446744073709551616.0L
	    + (long double)(unsigned long long)mag;
	return w < 0 ? -r : r;
#else
	return w;
#endif
}

static long double as_ld(const struct value *v)
{
	return v->is_float ? v->f : (long double)v->i;
}

static int value_eq(const struct value *a, const struct value *b)
{
	if (!a->is_float && !b->is_float)
		return a->i == b->i;
	return as_ld(a) == as_ld(b);
}

static int value_lt(const struct value *a, const struct value *b)
{
	if (!a->is_float && !b->is_float)
		return a->i < b->i;
	return as_ld(a) < as_ld(b);
}

static int column_varies(const struct column *c)
{
	size_t k;

	for (k = 1; k < c->n; k++)
		if (!value_eq(&c->v[0], &c->v[k]))
			return 1;
	return 0;
}

static void print_range(const struct column *c)
{
	const struct value *v = c->v;
	size_t n = c->n, imin = c->imin, imax = c->imax, k, m = 0, first = n;
	int trim;
	long double mean, mean_d, var = 0, dsum = 0;

	if (c->is_float && !c->odd)
		printf("%Lf-%Lf", as_ld(&v[imin]), as_ld(&v[imax]));
	else
		printf("%s-%s", c->min_txt, c->max_txt);

	/* A varying column has imin != imax, so trimming drops two values. */
	trim = opt.trim && n >= 3;
#define INCLUDED(k) (!trim || ((k) != imin && (k) != imax))
	for (k = 0; k < n; k++)
		if (INCLUDED(k)) {
			if (first == n)
				first = k;
			m++;
		}

	if (!c->is_float) {
		wide_int sum = 0, x0 = v[first].i;

		for (k = 0; k < n; k++)
			if (INCLUDED(k)) {
				sum += v[k].i;
				dsum += wide_to_ld((wide_int)v[k].i - x0);
			}
		mean = wide_to_ld(sum) / (long double)m;
		mean_d = dsum / (long double)m;
		for (k = 0; k < n; k++)
			if (INCLUDED(k)) {
				long double d = wide_to_ld((wide_int)v[k].i - x0)
						- mean_d;
				var += d * d;
			}
	} else {
		long double sum = 0, x0 = as_ld(&v[first]);

		for (k = 0; k < n; k++)
			if (INCLUDED(k)) {
				sum += as_ld(&v[k]);
				dsum += as_ld(&v[k]) - x0;
			}
		mean = sum / (long double)m;
		mean_d = dsum / (long double)m;
		for (k = 0; k < n; k++)
			if (INCLUDED(k)) {
				long double d = (as_ld(&v[k]) - x0) - mean_d;
				var += d * d;
			}
	}
#undef INCLUDED
	printf("(%Lg+/-%.2Lg)", mean, sqrtl(var / (long double)m));
}

static void put_csv_text(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (s[k] == '"')
			putchar('"');
		putchar(s[k]);
	}
}

static void print_group(const struct group *g)
{
	size_t k, c, i;
	int any = 0;
	int *varies = rig_xcalloc(g->ncols, sizeof(*varies));

	for (c = 0; c < g->ncols; c++)
		any |= varies[c] = column_varies(&g->cols[c]);
	if (opt.suppress && !any) {
		free(varies);
		return;
	}

	if (opt.csv)
		putchar('"');
	for (k = 0, c = 0; k < g->nparts; k++) {
		const struct part *p = &g->parts[k];
		const char *s = g->line + p->off;

		if (p->is_num && varies[c]) {
			if (p->ws)
				putchar(' ');
			if (opt.csv)
				printf("[%lu]", csv_next_index++);
			else
				print_range(&g->cols[c]);
		} else if (opt.csv) {
			put_csv_text(s, p->len);
		} else {
			fwrite(s, 1, p->len, stdout);
		}
		if (p->is_num)
			c++;
	}
	if (opt.csv)
		putchar('"');
	if (opt.count)
		printf("  (%zu)", g->nlines);
	putchar('\n');

	if (opt.csv && any) {
		for (i = 0; i < g->nlines; i++) {
			int sep = 0;

			for (c = 0; c < g->ncols; c++) {
				if (!varies[c])
					continue;
				if (sep)
					putchar(',');
				fputs(g->cols[c].txt[i], stdout);
				sep = 1;
			}
			putchar('\n');
		}
	}
	free(varies);
}

/* Fold one input stream; return 0, or -1 on a read error. */
static int process(FILE *f, const char *name)
{
	struct table t;
	char *line = NULL;
	size_t linecap = 0, partcap = 0, keycap = 0, k;
	struct part *parts = NULL;
	unsigned char *key = NULL;
	ssize_t got;
	int err;

	table_init(&t);
	while ((got = getline(&line, &linecap, f)) >= 0) {
		size_t len = (size_t)got, nparts, keylen;
		struct group *g;

		while (len > 0 && is_ws((unsigned char)line[len - 1]))
			len--;
		nparts = split_line(line, len, &parts, &partcap);
		keylen = build_key(line, parts, nparts, &key, &keycap);
		g = table_get(&t, line, len, parts, nparts, key, keylen);
		group_add(g, line, parts, nparts);
	}
	err = ferror(f);
	if (err) {
		fprintf(stderr, "stats: %s: read error: %s\n", name,
			strerror(errno));
	} else {
		for (k = 0; k < t.ngroups; k++)
			print_group(t.order[k]);
	}
	free(line);
	free(parts);
	free(key);
	table_free(&t);
	return err ? -1 : 0;
}

static int parse_skip(const char *s, size_t *out)
{
	unsigned long v;

	if (!rig_parse_decimal(s, 0, SIZE_MAX, &v))
		return -1;
	*out = v;
	return 0;
}

enum {
	OPT_SKIP = 256,
	OPT_SUPPRESS,
	OPT_TRIM,
	OPT_CSV,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{ "count", no_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "skip", required_argument, NULL, OPT_SKIP },
	{ "suppress-invariant", no_argument, NULL, OPT_SUPPRESS },
	{ "trim-outliers", no_argument, NULL, OPT_TRIM },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	int ch, status = 0;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":ch", long_options, NULL)) != -1) {
		switch (ch) {
		case 'c':
			opt.count = 1;
			break;
		case 'h':
			usage(stdout);
			return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
		case OPT_SKIP:
			if (parse_skip(optarg, &opt.skip) < 0) {
				fprintf(stderr, "stats: invalid --skip value '%s'"
					" (a whole number)\n", optarg);
				try_help();
				return EXIT_USAGE;
			}
			break;
		case OPT_SUPPRESS:
			opt.suppress = 1;
			break;
		case OPT_TRIM:
			opt.trim = 1;
			break;
		case OPT_CSV:
			opt.csv = 1;
			break;
		case OPT_VERSION:
			rig_print_built_by("stats");
			putchar('\n');
			return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
		default: {	/* what getopt_long refused, ':' too */
			char why[256];

			fprintf(stderr, "stats: %s\n",
				rig_option_refused(why, sizeof(why), ch, argv[optind - 1],
						   optopt, long_options));
			try_help();
			return EXIT_USAGE;
		}
		}
	}
	if (opt.csv && opt.trim) {
		fputs("stats: --csv cannot be combined with --trim-outliers\n",
		      stderr);
		try_help();
		return EXIT_USAGE;
	}

	if (optind == argc) {
		if (process(stdin, "(standard input)") < 0)
			status = 1;
	}
	for (; optind < argc; optind++) {
		const char *name = argv[optind];
		FILE *f;

		if (strcmp(name, "-") == 0) {
			if (process(stdin, "(standard input)") < 0)
				status = 1;
			clearerr(stdin);
			continue;
		}
		f = fopen(name, "r");
		if (!f) {
			fprintf(stderr, "stats: %s: %s\n", name, strerror(errno));
			status = 1;
			continue;
		}
		if (process(f, name) < 0)
			status = 1;
		fclose(f);
	}
	parse_value(NULL, 0, 0, 0, NULL);

	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "stats: write error: %s\n", strerror(errno));
		return 1;
	}
	return status;
}
