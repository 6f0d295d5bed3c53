/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both fuzz targets share: reading the input, memory with guard pages
 * around it, counting what the ring code prints, and stopping with a
 * reason when an invariant breaks (libFuzzer then saves the input).
 */
#ifndef RIG_FUZZ_H
#define RIG_FUZZ_H

#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#define fuzz_poison(p, n)	__asan_poison_memory_region((p), (n))
#define fuzz_unpoison(p, n)	__asan_unpoison_memory_region((p), (n))
#else
#define fuzz_poison(p, n)	((void)(p), (void)(n))
#define fuzz_unpoison(p, n)	((void)(p), (void)(n))
#endif

/* An invariant broke: say which, and crash so the input is kept. */
#define FUZZ_CHECK(cond, ...) do {					\
	if (!(cond))							\
		fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);	\
} while (0)

static inline void __attribute__((noreturn, format(printf, 4, 5)))
fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dprintf(2, "%s:%d: invariant broken: %s: %s\n", file, line, cond, msg);
	abort();
}

/* The input, read front to back; past its end every read gives zeros. */
struct fin {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fin_u8(struct fin *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint16_t fin_u16(struct fin *in)
{
	uint16_t v = fin_u8(in);

	return v | (uint16_t)fin_u8(in) << 8;
}

static inline uint32_t fin_u32(struct fin *in)
{
	uint32_t v = fin_u16(in);

	return v | (uint32_t)fin_u16(in) << 16;
}

static inline uint64_t fin_u64(struct fin *in)
{
	uint64_t v = fin_u32(in);

	return v | (uint64_t)fin_u32(in) << 32;
}

/* Copy up to @n input bytes to @dst; returns how many there were. */
static inline size_t fin_bytes(struct fin *in, void *dst, size_t n)
{
	if (n > in->n)
		n = in->n;
	memcpy(dst, in->p, n);
	in->p += n;
	in->n -= n;
	return n;
}

/*
 * @pages usable pages with an inaccessible page before and after, so any
 * access past either end faults at once.
 */
static inline void *fuzz_guarded_pages(size_t pages)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (pages + 2) * pg, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED) {
		perror("mmap");
		abort();
	}
	if (mprotect(map + pg, pages * pg, PROT_READ | PROT_WRITE)) {
		perror("mprotect");
		abort();
	}
	return map + pg;
}

/*
 * The ring code's messages (pr_err, dev_err) go to stderr.  Count them
 * instead of printing them (FUZZ_VERBOSE=1 prints them too): every refusal
 * must say something, and printing thousands a second slows fuzzing.
 * Sanitizer and libFuzzer reports write to file descriptor 2 directly and
 * are not affected.
 */
static size_t fuzz_said;
static bool fuzz_verbose;

static ssize_t fuzz_count_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	fuzz_said += n;
	if (fuzz_verbose && write(2, buf, n) < 0)
		return -1;
	return n;
}

static inline void fuzz_quiet_stderr(void)
{
	static const cookie_io_functions_t io = { .write = fuzz_count_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		abort();
	setvbuf(f, NULL, _IONBF, 0);
	fuzz_verbose = getenv("FUZZ_VERBOSE") != NULL;
	stderr = f;
}

/* One operation of a target's: reads its own arguments, if any, from @in. */
typedef void fuzz_op_fn(struct fin *in);

/* Most operations one input runs. */
#define FUZZ_MAX_OPS	512

/*
 * An input's operations, in order: each a byte, taken modulo @n, choosing
 * which of @ops runs (FUZZ_VERBOSE=1 names it), until the input or
 * FUZZ_MAX_OPS runs out.  @after, when not NULL, runs after each one, with
 * fuzz_said as it stood before it (so it can tell whether the op said
 * anything).
 */
static inline void fuzz_run_ops(struct fin *in, fuzz_op_fn *const ops[], unsigned int n,
				void (*after)(size_t said_before))
{
	for (unsigned int i = 0; in->n && i < FUZZ_MAX_OPS; i++) {
		size_t said = fuzz_said;
		unsigned int op = fin_u8(in) % n;

		if (fuzz_verbose)
			dprintf(2, "op %u (%zu bytes left)\n", op, in->n);
		ops[op](in);
		if (after)
			after(said);
	}
}

#endif /* RIG_FUZZ_H */
