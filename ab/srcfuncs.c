// SPDX-License-Identifier: GPL-2.0
/*
 * srcfuncs: the functions of a preprocessed C file, where each one is and a
 * digest of its source, so that make regress and make series can tell a
 * row whose code a patch changed from one the compiler moved.
 *
 * Usage: ab/srcfuncs [-C DIR] [FILE]   (FILE: cc -E output; default stdin)
 *
 * Prints one line per function definition:
 *   f NAME FILE FIRST LAST OWN FULL
 * FILE is the source file the definition is in, by the line markers (a
 * relative name is taken from DIR, default the current folder; "." and
 * ".." parts resolved by name, as valgrind names files), FIRST and LAST its first and last lines there, OWN a digest
 * of its tokens (spacing, line breaks and comments do not count), FULL a
 * digest of those and of every top-level declaration it names, and theirs
 * in turn: a struct, union, enum, typedef, variable or prototype.  So a
 * patch that changes a structure changes the FULL of each function using
 * it, and one that only moves a function changes neither.  Then one line
 * per name that a top-level declaration declares:
 *   d KIND NAME DIGEST     (KIND: tag, enum, type, var or proto)
 * Digests are 64-bit FNV-1a, in hex.  Exit status: 0, 1 if FILE cannot be
 * read, 2 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/xalloc.h"

enum kind { IDENT = 'i', NUMBER = 'n', STRING = 's', PUNCT = 'p' };

struct tok {
	const char *s;
	int len;
	int file;
	int line;
	char kind;
};

/* A top-level item: a function definition or a declaration. */
struct item {
	int first, last;	/* token indices */
	int name;		/* a function's name token, else -1 */
	uint64_t digest;
	int *refs, nrefs;	/* declarations it names (indices in decls) */
};

/* A name a declaration declares, and the declarations declaring it. */
struct name {
	const char *s;
	int len;
	int *decls, ndecls;
};

static struct tok *toks;
static int ntoks;
static char **files;
static int nfiles;
static struct item *funcs, *decls;
static int nfuncs, ndecls;
static struct name *names;
static int nnames, names_cap;	/* an open-addressing table */

/* Append to a growable array whose length is a power of 2 or 0. */
#define PUSH(arr, n, v) do {						\
	if (((n) & ((n) - 1)) == 0)					\
		(arr) = rig_xrealloc((arr), sizeof(*(arr)) * ((n) ? 2 * (n) : 1)); \
	(arr)[(n)++] = (v);						\
} while (0)

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}
#define FNV_BASIS 0xcbf29ce484222325ULL

static bool tok_is(int i, const char *s)
{
	return i >= 0 && i < ntoks && toks[i].len == (int)strlen(s) &&
	       !memcmp(toks[i].s, s, toks[i].len);
}

/* The tokens first..last as text, one space between tokens. */
static uint64_t digest(int first, int last)
{
	uint64_t h = FNV_BASIS;
	int i;

	for (i = first; i <= last; i++) {
		h = fnv(h, toks[i].s, toks[i].len);
		h = fnv(h, " ", 1);
	}
	return h;
}

/* PATH made absolute (from DIR) and canonical by its words alone: no
 * "." or ".." parts, no repeated '/' (symbolic links are kept, as the
 * compiler and valgrind name the files).  */
static char *canonical(const char *s, size_t n, const char *dir)
{
	char *raw, *out, *p, *q;

	if (*s == '/' || !dir)
		raw = strndup(s, n);
	else if (asprintf(&raw, "%s/%.*s", dir, (int)n, s) < 0)
		raw = NULL;
	if (!raw || !(out = malloc(strlen(raw) + 2)))
		rig_oom();
	q = out;
	for (p = raw; *p;) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			break;
		if (len == 1 && *p == '.') {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (q > out && *--q != '/')
				;
		} else {
			*q++ = '/';
			memcpy(q, p, len);
			q += len;
		}
		p += len;
	}
	if (q == out)
		*q++ = '/';
	*q = '\0';
	if (*raw != '/' && !dir)
		memmove(out, out + 1, strlen(out));	/* stays relative */
	free(raw);
	return out;
}

static int file_index(const char *s, size_t n, const char *dir)
{
	char *canon = canonical(s, n, dir);
	int i;

	for (i = 0; i < nfiles; i++)
		if (!strcmp(files[i], canon)) {
			free(canon);
			return i;
		}
	PUSH(files, nfiles, canon);
	return nfiles - 1;
}

/* The punctuators of C longer than one character, longest first. */
static const char *const puncts[] = {
	"...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
	"!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
};

static bool ident_char(char c)
{
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void tokenize_line(const char *p, const char *end, int file, int line)
{
	while (p < end) {
		struct tok t = { .s = p, .file = file, .line = line };
		const char *q = p;
		size_t k;

		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' ||
		    *p == '\v') {
			p++;
			continue;
		}
		if (ident_char(*p) && !(*p >= '0' && *p <= '9')) {
			while (q < end && ident_char(*q))
				q++;
			t.kind = IDENT;
		} else if ((*p >= '0' && *p <= '9') ||
			   (*p == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
			q++;
			while (q < end && (ident_char(*q) || *q == '.' ||
			       ((*q == '+' || *q == '-') && strchr("eEpP", q[-1]))))
				q++;
			t.kind = NUMBER;
		} else if (*p == '"' || *p == '\'') {
			for (q++; q < end && *q != *p; q++)
				if (*q == '\\' && q + 1 < end)
					q++;
			q += q < end;
			t.kind = STRING;
		} else {
			t.kind = PUNCT;
			q++;
			for (k = 0; k < sizeof(puncts) / sizeof(puncts[0]); k++) {
				size_t n = strlen(puncts[k]);

				if ((size_t)(end - p) >= n && !memcmp(p, puncts[k], n)) {
					q = p + n;
					break;
				}
			}
		}
		t.len = q - p;
		PUSH(toks, ntoks, t);
		p = q;
	}
}

/* Tokens of the whole input, each with the file and line it came from. */
static void tokenize(const char *buf, size_t len, const char *dir)
{
	const char *p = buf, *end = buf + len, *eol, *q;
	int file = file_index("<stdin>", 7, NULL), line = 1;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		for (q = p; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (q < eol && *q == '#') {
			/* "# N "FILE" FLAGS" or "#line N "FILE"": the next line is N. */
			long n;
			char *after;

			q++;
			while (q < eol && *q == ' ')
				q++;
			if (eol - q > 4 && !memcmp(q, "line", 4))
				q += 4;
			n = strtol(q, &after, 10);
			if (after > q && n >= 0 && n < INT_MAX) {
				line = n;
				q = after;
				while (q < eol && *q == ' ')
					q++;
				if (q < eol && *q == '"') {
					const char *e = memchr(q + 1, '"', eol - q - 1);

					if (e)
						file = file_index(q + 1, e - q - 1, dir);
				}
				continue;
			}
			line++;		/* #pragma and the like */
			continue;
		}
		tokenize_line(p, eol, file, line);
		line++;
	}
}

static uint64_t name_hash(const char *s, int len)
{
	return fnv(FNV_BASIS, s, len);
}

static struct name *name_slot(const char *s, int len)
{
	size_t i;

	if (2 * (nnames + 1) > names_cap) {
		struct name *old = names;
		int oldcap = names_cap, j;

		names_cap = names_cap ? 2 * names_cap : 1024;
		names = rig_xcalloc(names_cap, sizeof(*names));
		for (j = 0; j < oldcap; j++) {
			if (!old[j].s)
				continue;
			i = name_hash(old[j].s, old[j].len) & (names_cap - 1);
			while (names[i].s)
				i = (i + 1) & (names_cap - 1);
			names[i] = old[j];
		}
		free(old);
	}
	i = name_hash(s, len) & (names_cap - 1);
	while (names[i].s && (names[i].len != len || memcmp(names[i].s, s, len)))
		i = (i + 1) & (names_cap - 1);
	if (!names[i].s) {
		names[i].s = s;
		names[i].len = len;
		nnames++;
	}
	return &names[i];
}

static struct name *name_find(const char *s, int len)
{
	size_t i;

	if (!names_cap)
		return NULL;
	i = name_hash(s, len) & (names_cap - 1);
	while (names[i].s && (names[i].len != len || memcmp(names[i].s, s, len)))
		i = (i + 1) & (names_cap - 1);
	return names[i].s ? &names[i] : NULL;
}

/* Words that look like a declared name in a declaration, but are not. */
static bool not_a_name(int i)
{
	static const char *const words[] = {
		"__attribute__", "__attribute", "asm", "__asm__", "__asm",
		"typeof", "__typeof__", "__typeof", "_Static_assert",
		"__extension__", "sizeof", "_Alignas", "_Alignof",
		"__alignof__", "struct", "union", "enum", "__builtin_offsetof",
	};
	size_t k;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (tok_is(i, words[k]))
			return true;
	return false;
}

/* Print and record what declaration d (tokens first..last) declares. */
static void declare(int d, const char *kind, int i)
{
	struct name *n = name_slot(toks[i].s, toks[i].len);

	PUSH(n->decls, n->ndecls, d);
	printf("d %s %.*s %016llx\n", kind, toks[i].len, toks[i].s,
	       (unsigned long long)decls[d].digest);
}

static void declaration_names(int d)
{
	int first = decls[d].first, last = decls[d].last, i;
	int brace = 0, paren = 0, enum_brace = -1;
	bool typedef_ = false, init = false;

	for (i = first; i <= last; i++)
		if (tok_is(i, "typedef"))
			typedef_ = true;
	for (i = first; i <= last; i++) {
		const struct tok *t = &toks[i];

		if (t->kind == PUNCT && t->len == 1) {
			switch (*t->s) {
			case '{': brace++; break;
			case '}': if (brace-- == enum_brace) enum_brace = -1; break;
			case '(': case '[': paren++; break;
			case ')': case ']': paren--; break;
			case '=': if (!brace && !paren) init = true; break;
			case ',': if (!brace && !paren) init = false; break;
			}
			continue;
		}
		if (t->kind != IDENT)
			continue;
		if ((tok_is(i, "struct") || tok_is(i, "union") ||
		     tok_is(i, "enum")) && toks[i + 1].kind == IDENT &&
		    i + 2 <= last && tok_is(i + 2, "{"))
			declare(d, "tag", i + 1);
		if (tok_is(i, "enum") && (tok_is(i + 1, "{") || tok_is(i + 2, "{")))
			enum_brace = brace + 1;
		if (brace && brace == enum_brace &&
		    (tok_is(i - 1, "{") || tok_is(i - 1, ",")))
			declare(d, "enum", i);
		if (brace || init || not_a_name(i) || i == last ||
		    tok_is(i - 1, "struct") || tok_is(i - 1, "union") ||
		    tok_is(i - 1, "enum"))
			continue;
		if (!paren && (tok_is(i + 1, ";") || tok_is(i + 1, ",") ||
			       tok_is(i + 1, "=") || tok_is(i + 1, "[")))
			declare(d, typedef_ ? "type" : "var", i);
		else if (!paren && tok_is(i + 1, "("))
			declare(d, typedef_ ? "type" : "proto", i);
		else if (paren == 1 && tok_is(i - 1, "*") && tok_is(i + 1, ")"))
			declare(d, typedef_ ? "type" : "var", i);
	}
}

/*
 * The name of a function whose body starts at token brace: the identifier
 * before the parameter list, attributes after it skipped.
 */
static int function_name(int first, int brace)
{
	int j = brace - 1, depth, k;

	while (j > first && tok_is(j, ")")) {
		for (k = j, depth = 0; k >= first; k--) {
			if (tok_is(k, ")"))
				depth++;
			else if (tok_is(k, "(") && --depth == 0)
				break;
		}
		if (k <= first)
			return -1;
		if (!not_a_name(k - 1))
			return toks[k - 1].kind == IDENT ? k - 1 : -1;
		j = k - 2;	/* __attribute__((...)) or asm(...) */
	}
	return -1;
}

/* Split the tokens into top-level function definitions and declarations. */
static void items(void)
{
	int i, brace = 0, paren = 0, start = 0, fname = -1;
	bool in_func = false;

	for (i = 0; i < ntoks; i++) {
		const struct tok *t = &toks[i];

		if (t->kind != PUNCT || t->len != 1)
			continue;
		switch (*t->s) {
		case '(': case '[': paren++; break;
		case ')': case ']': paren--; break;
		case '{':
			if (!brace && !paren && tok_is(i - 1, ")") && i - 1 > start &&
			    (fname = function_name(start, i)) >= 0)
				in_func = true;
			brace++;
			break;
		case '}':
			if (--brace || !in_func)
				break;
			PUSH(funcs, nfuncs, ((struct item){ .first = start,
				.last = i, .name = fname,
				.digest = digest(start, i) }));
			in_func = false;
			start = i + 1;
			break;
		case ';':
			if (brace || paren)
				break;
			PUSH(decls, ndecls, ((struct item){ .first = start,
				.last = i, .name = -1, .digest = digest(start, i) }));
			start = i + 1;
			break;
		}
	}
}

/* The declarations each item names, by the names declarations declare. */
static void references(struct item *it)
{
	int i, k;

	for (i = it->first; i <= it->last; i++) {
		struct name *n;

		if (toks[i].kind != IDENT || !(n = name_find(toks[i].s, toks[i].len)))
			continue;
		for (k = 0; k < n->ndecls; k++)
			PUSH(it->refs, it->nrefs, n->decls[k]);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* A function's digest with every declaration it reaches by name. */
static uint64_t full_digest(const struct item *f, int *seen, int stamp,
			    int *queue, uint64_t *found)
{
	int head = 0, tail = 0, n = 0, i, k;
	uint64_t h;

	for (k = 0; k < f->nrefs; k++)
		if (seen[f->refs[k]] != stamp) {
			seen[f->refs[k]] = stamp;
			queue[tail++] = f->refs[k];
		}
	while (head < tail) {
		const struct item *d = &decls[queue[head++]];

		found[n++] = d->digest;
		for (k = 0; k < d->nrefs; k++)
			if (seen[d->refs[k]] != stamp) {
				seen[d->refs[k]] = stamp;
				queue[tail++] = d->refs[k];
			}
	}
	qsort(found, n, sizeof(*found), cmp_u64);
	h = fnv(FNV_BASIS, &f->digest, sizeof(f->digest));
	for (i = 0; i < n; i++)
		if (!i || found[i] != found[i - 1])
			h = fnv(h, &found[i], sizeof(found[i]));
	return h;
}

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 20, n = 0, got;
	char *buf = rig_xrealloc(NULL, cap);

	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = rig_xrealloc(buf, cap *= 2);
	}
	if (ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

int main(int argc, char *argv[])
{
	const char *dir = NULL, *path = NULL;
	int *seen, *queue, i;
	uint64_t *found;
	char *buf, *cwd;
	size_t len;
	FILE *f = stdin;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-C") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts("Usage: srcfuncs [-C DIR] [FILE]\n"
			     "Each function of a preprocessed C file (cc -E): "
			     "\"f NAME FILE FIRST LAST OWN FULL\",\n"
			     "then each declared name: \"d KIND NAME DIGEST\" "
			     "(ab/srcfuncs.c).");
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "srcfuncs: unknown option %s\n"
				"try 'srcfuncs --help'\n", argv[i]);
			return 2;
		} else if (!path) {
			path = argv[i];
		} else {
			fputs("srcfuncs: one FILE at most\n"
			      "try 'srcfuncs --help'\n", stderr);
			return 2;
		}
	}
	if (path && strcmp(path, "-") && !(f = fopen(path, "r"))) {
		fprintf(stderr, "srcfuncs: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!(buf = read_all(f, &len))) {
		fprintf(stderr, "srcfuncs: reading %s: %s\n", path ? path : "stdin",
			strerror(errno));
		return 1;
	}
	cwd = dir ? NULL : getcwd(NULL, 0);
	tokenize(buf, len, dir ? dir : cwd);
	items();
	for (i = 0; i < ndecls; i++)
		declaration_names(i);
	for (i = 0; i < ndecls; i++)
		references(&decls[i]);
	seen = rig_xcalloc(ndecls + 1, sizeof(*seen));
	queue = rig_xrealloc(NULL, (ndecls + 1) * sizeof(*queue));
	found = rig_xrealloc(NULL, (ndecls + 1) * sizeof(*found));
	for (i = 0; i < nfuncs; i++) {
		struct item *fn = &funcs[i];
		const struct tok *a = &toks[fn->first], *z = &toks[fn->last];

		references(fn);
		printf("f %.*s %s %d %d %016llx %016llx\n", toks[fn->name].len,
		       toks[fn->name].s, files[a->file], a->line,
		       z->file == a->file ? z->line : a->line,
		       (unsigned long long)fn->digest,
		       (unsigned long long)full_digest(fn, seen, i + 1, queue, found));
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "srcfuncs: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
