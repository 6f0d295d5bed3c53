/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error numbers.  glibc's <errno.h> includes <linux/errno.h> and finds this
 * file, so it must define the numbers itself, from the uapi header.
 */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#include <asm/errno.h>

/* The kernel's own codes, which never reach userspace there. */
#ifndef ERESTARTSYS
#define ERESTARTSYS	512
#endif
#ifndef ENOIOCTLCMD
#define ENOIOCTLCMD	515
#endif

#endif /* _LINUX_ERRNO_H */
