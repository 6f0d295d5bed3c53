/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel log lines go to stderr, always: errors are never silenced. */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/compiler.h>

#ifndef pr_fmt
#define pr_fmt(fmt)	fmt
#endif

#define KERN_ERR	""
#define KERN_WARNING	""
#define KERN_NOTICE	""
#define KERN_INFO	""
#define KERN_DEBUG	""

/* A kernel printk call ends its log record: end the line if fmt did not. */
static inline __printf(1, 0) int vprintk(const char *fmt, va_list args)
{
	size_t n = strlen(fmt);
	int ret = vfprintf(stderr, fmt, args);

	if (n == 0 || fmt[n - 1] != '\n')
		ret += fputc('\n', stderr) != EOF;
	return ret;
}

#define printk(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_err_ratelimited(fmt, ...)	pr_err(fmt, ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)		pr_warn(fmt, ##__VA_ARGS__)

#ifdef DEBUG
#define pr_debug(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...)	do { if (0) fprintf(stderr, fmt, ##__VA_ARGS__); } while (0)
#endif

#endif /* _LINUX_PRINTK_H */
