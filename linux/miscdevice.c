// SPDX-License-Identifier: GPL-2.0
/* The misc devices registered (linux/miscdevice.h): a list, by name. */
#include <string.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>

static LIST_HEAD(misc_list);
static DEFINE_MUTEX(misc_mtx);

int misc_register(struct miscdevice *misc)
{
	struct miscdevice *c;
	int err = 0;

	mutex_lock(&misc_mtx);
	list_for_each_entry(c, &misc_list, list) {
		if (!strcmp(c->name, misc->name)) {
			err = -EBUSY;
			goto out;
		}
	}
	list_add(&misc->list, &misc_list);
out:
	mutex_unlock(&misc_mtx);
	return err;
}

void misc_deregister(struct miscdevice *misc)
{
	mutex_lock(&misc_mtx);
	list_del(&misc->list);
	mutex_unlock(&misc_mtx);
}

struct miscdevice *rig_misc_find(const char *name)
{
	struct miscdevice *c, *found = NULL;

	mutex_lock(&misc_mtx);
	list_for_each_entry(c, &misc_list, list) {
		if (!strcmp(c->name, name)) {
			found = c;
			break;
		}
	}
	mutex_unlock(&misc_mtx);
	return found;
}
