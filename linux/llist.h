/* SPDX-License-Identifier: GPL-2.0 */
/* Lock-less singly linked lists: a compare-and-swap push, an exchange pop-all. */
#ifndef _LINUX_LLIST_H
#define _LINUX_LLIST_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/container_of.h>

struct llist_node {
	struct llist_node *next;
};

struct llist_head {
	struct llist_node *first;
};

static inline void init_llist_head(struct llist_head *list)
{
	WRITE_ONCE(list->first, NULL);
}

static inline bool llist_empty(const struct llist_head *head)
{
	return __atomic_load_n(&head->first, __ATOMIC_RELAXED) == NULL;
}

/* Push @new; true if the list was empty before. */
static inline bool llist_add(struct llist_node *new, struct llist_head *head)
{
	struct llist_node *first = __atomic_load_n(&head->first, __ATOMIC_RELAXED);

	do {
		new->next = first;
	} while (!__atomic_compare_exchange_n(&head->first, &first, new, true,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return first == NULL;
}

static inline struct llist_node *llist_del_all(struct llist_head *head)
{
	return __atomic_exchange_n(&head->first, NULL, __ATOMIC_SEQ_CST);
}

static inline struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *rev = NULL;

	while (head) {
		struct llist_node *next = head->next;

		head->next = rev;
		rev = head;
		head = next;
	}
	return rev;
}

#define llist_entry(ptr, type, member)	container_of(ptr, type, member)

#define llist_for_each_entry_safe(pos, n, node, member)			\
	for (pos = (node) ? llist_entry((node), typeof(*pos), member) : NULL; \
	     pos && (n = pos->member.next ?					\
		     llist_entry(pos->member.next, typeof(*pos), member) : NULL, 1); \
	     pos = n)

#endif /* _LINUX_LLIST_H */
