/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vhost_dev --torture=CASE: the device serves the driver correctly, then,
 * once it has used a chosen number of buffers, breaks one device-side rule
 * of the virtio specification (a used ring entry, the used index, the
 * notifications, or the config space).  The broken used-ring writes are
 * made here, through the device's mapping of the driver's memory; the
 * correct ones stay vringh's.  Without a torture case the device models
 * pay one test of a NULL pointer per used buffer.
 */
#ifndef RIG_VHOST_USER_DEV_TORTURE_H
#define RIG_VHOST_USER_DEV_TORTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/vringh.h>
#include "vhost-user/protocol/backend.h"

enum dev_torture_ring { DT_ANY, DT_SPLIT, DT_PACKED, DT_CONFIG };

struct dev_torture_case {
	const char *name;
	enum dev_torture_ring ring;	/* which rings (or config) it breaks */
	const char *what;		/* one line for --list */
};

struct dev_torture {
	const struct dev_torture_case *c;
	unsigned long after;		/* buffers used correctly first */
	unsigned long used;		/* buffers used so far */
	bool fired;			/* the rule was broken */
	u16 prev[VUB_MAX_QUEUES];	/* each queue's last buffer used */
	bool have_prev[VUB_MAX_QUEUES];
	FILE *log;			/* where "torture: ..." lines go */
};

/* The case called @name, or NULL. */
const struct dev_torture_case *dev_torture_find(const char *name);
/* --list: one line per case, "NAME  DESCRIPTION". */
void dev_torture_list(FILE *f);

/*
 * The device model has served buffer @head of @q and wrote @len bytes:
 * complete it, correctly (vringh) or, when the moment has come, not.
 * 0 or -errno, as vringh_complete_user().
 */
int dev_torture_complete(struct dev_torture *t, struct vub_queue *q,
			 u16 head, u32 len);

/* A config-space case lies in @cfg (virtio-blk layout); else no change. */
void dev_torture_blk_config(const struct dev_torture *t, uint8_t *cfg);

struct net_config;
/* A virtio-net config case lies in @cfg, once, before it is served. */
void dev_torture_net_config(const struct dev_torture *t, struct net_config *cfg);

/* Complete @head through @t if a torture case is set, else through vringh. */
static inline int dev_complete(struct dev_torture *t, struct vub_queue *q,
			       u16 head, u32 len)
{
	if (__builtin_expect(t != NULL, 0))
		return dev_torture_complete(t, q, head, len);
	return vringh_complete_user(&q->vrh, head, len);
}

#endif /* RIG_VHOST_USER_DEV_TORTURE_H */
