/* SPDX-License-Identifier: GPL-2.0 */
/* Coverage collection from kernel threads: not here (gcov covers the rig). */
#ifndef _LINUX_KCOV_H
#define _LINUX_KCOV_H

#include <linux/types.h>

#define kcov_common_handle()		((u64)0)
#define kcov_remote_start_common(h)	do { (void)(h); } while (0)
#define kcov_remote_stop()		do { } while (0)

#endif /* _LINUX_KCOV_H */
