/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CONTAINER_OF_H
#define _LINUX_CONTAINER_OF_H

#include <stddef.h>

#define container_of(ptr, type, member) ({				\
	const typeof(((type *)0)->member) *__mptr = (ptr);		\
	(type *)((char *)__mptr - offsetof(type, member)); })

#define container_of_const(ptr, type, member)	container_of(ptr, type, member)

#endif /* _LINUX_CONTAINER_OF_H */
