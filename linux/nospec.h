/* SPDX-License-Identifier: GPL-2.0 */
/* Speculation barriers: the index clamped to 0 when out of range, no barrier. */
#ifndef _LINUX_NOSPEC_H
#define _LINUX_NOSPEC_H

#define array_index_nospec(index, size)					\
	((typeof(index))((index) < (size) ? (index) : 0))

#endif /* _LINUX_NOSPEC_H */
