/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BUILD_BUG_H
#define _LINUX_BUILD_BUG_H

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")
#define BUILD_BUG_ON_ZERO(e)	((int)(sizeof(struct { int:(-!!(e)); })))

#endif /* _LINUX_BUILD_BUG_H */
