/* SPDX-License-Identifier: GPL-2.0 */
/* No high memory: every page is mapped (linux/mm.h has kmap_local_page). */
#ifndef _LINUX_HIGHMEM_H
#define _LINUX_HIGHMEM_H

#include <linux/mm.h>

#endif /* _LINUX_HIGHMEM_H */
