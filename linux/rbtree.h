/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The red-black tree's types, for structures that embed them.  No tree is
 * built: linux/interval_tree_generic.h, the one user, keeps its nodes in
 * a sorted list threaded through them.
 */
#ifndef _LINUX_RBTREE_H
#define _LINUX_RBTREE_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/rcupdate.h>

struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
};

struct rb_root {
	struct rb_node *rb_node;
};

struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT			((struct rb_root) { NULL, })
#define RB_ROOT_CACHED		((struct rb_root_cached) { { NULL, }, NULL })
#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)

#endif /* _LINUX_RBTREE_H */
