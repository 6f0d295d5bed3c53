/* SPDX-License-Identifier: GPL-2.0 */
/* Comparing times that may wrap: is @a after @b? */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)

#endif /* _LINUX_JIFFIES_H */
