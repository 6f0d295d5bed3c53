/* SPDX-License-Identifier: GPL-2.0 */
/*
 * INTERVAL_TREE_DEFINE(): the kernel's interval tree functions
 * (PREFIX_insert, _remove, _iter_first, _iter_next) over the same node
 * fields, kept as a list sorted by start, threaded through each node's
 * rb_node (rb_left: the previous node, rb_right: the next; the root's
 * rb_node: the first).  A search walks the list: linear, and plenty for
 * the few dozen ranges of a vhost memory table.  ITSUBTREE is not kept.
 */
#ifndef _LINUX_INTERVAL_TREE_GENERIC_H
#define _LINUX_INTERVAL_TREE_GENERIC_H

#include <linux/rbtree.h>
#include <linux/container_of.h>

#define INTERVAL_TREE_DEFINE(ITSTRUCT, ITRB, ITTYPE, ITSUBTREE,		\
			     ITSTART, ITLAST, ITSTATIC, ITPREFIX)	\
									\
static inline ITSTRUCT *ITPREFIX ## _of(struct rb_node *rb)		\
{									\
	return rb ? container_of(rb, ITSTRUCT, ITRB) : NULL;		\
}									\
									\
ITSTATIC void ITPREFIX ## _insert(ITSTRUCT *node,			\
				  struct rb_root_cached *root)		\
{									\
	struct rb_node *prev = NULL, *next = root->rb_root.rb_node;	\
									\
	while (next && ITSTART(ITPREFIX ## _of(next)) <= ITSTART(node)) { \
		prev = next;						\
		next = next->rb_right;					\
	}								\
	node->ITRB.rb_left = prev;					\
	node->ITRB.rb_right = next;					\
	node->ITRB.__rb_parent_color = 0;				\
	if (prev)							\
		prev->rb_right = &node->ITRB;				\
	else								\
		root->rb_root.rb_node = &node->ITRB;			\
	if (next)							\
		next->rb_left = &node->ITRB;				\
	root->rb_leftmost = root->rb_root.rb_node;			\
}									\
									\
ITSTATIC void ITPREFIX ## _remove(ITSTRUCT *node,			\
				  struct rb_root_cached *root)		\
{									\
	struct rb_node *prev = node->ITRB.rb_left;			\
	struct rb_node *next = node->ITRB.rb_right;			\
									\
	if (prev)							\
		prev->rb_right = next;					\
	else								\
		root->rb_root.rb_node = next;				\
	if (next)							\
		next->rb_left = prev;					\
	node->ITRB.rb_left = node->ITRB.rb_right = NULL;		\
	root->rb_leftmost = root->rb_root.rb_node;			\
}									\
									\
/* From @rb on, the first node that overlaps [start, last]. */		\
static inline ITSTRUCT *ITPREFIX ## _from(struct rb_node *rb,		\
					  ITTYPE start, ITTYPE last)	\
{									\
	for (; rb; rb = rb->rb_right) {					\
		ITSTRUCT *n = ITPREFIX ## _of(rb);			\
									\
		if (ITSTART(n) > last)					\
			return NULL;	/* sorted: none further */	\
		if (ITLAST(n) >= start)					\
			return n;					\
	}								\
	return NULL;							\
}									\
									\
ITSTATIC ITSTRUCT *ITPREFIX ## _iter_first(struct rb_root_cached *root, \
					   ITTYPE start, ITTYPE last)	\
{									\
	return ITPREFIX ## _from(root->rb_root.rb_node, start, last);	\
}									\
									\
ITSTATIC ITSTRUCT *ITPREFIX ## _iter_next(ITSTRUCT *node,		\
					  ITTYPE start, ITTYPE last)	\
{									\
	return ITPREFIX ## _from(node->ITRB.rb_right, start, last);	\
}

#endif /* _LINUX_INTERVAL_TREE_GENERIC_H */
