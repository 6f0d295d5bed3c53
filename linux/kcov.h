/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coverage collection from kernel threads: not here (gcov covers the rig).
 * A handle is a u64 up to Linux 6.x and a struct from 7.x:
 * kernel/ksrc-shim-header.sh defines RIG_KCOV_COMMON_HANDLE_ID when the
 * tree's vhost.h holds the struct.
 */
#ifndef _LINUX_KCOV_H
#define _LINUX_KCOV_H

#include <linux/types.h>

#ifdef RIG_KCOV_COMMON_HANDLE_ID
struct kcov_common_handle_id {
	u64 id;
};
#define kcov_common_handle()	((struct kcov_common_handle_id){ 0 })
#else
#define kcov_common_handle()	((u64)0)
#endif
#define kcov_remote_start_common(h)	do { (void)(h); } while (0)
#define kcov_remote_stop()		do { } while (0)

#endif /* _LINUX_KCOV_H */
