/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device is only a parent pointer and a name to print with messages (and,
 * the rig's own, DMA mapping hooks a test may set: linux/dma-mapping.h); a
 * driver only a name.
 */
#ifndef _LINUX_DEVICE_H
#define _LINUX_DEVICE_H

#include <linux/list.h>
#include <linux/printk.h>

struct module;

struct rig_dma_ops;

struct device {
	void *parent;
	const char *init_name;
	const struct rig_dma_ops *rig_dma;
};

/* What a bus matches devices against; only named here. */
struct device_driver {
	const char *name;
	struct module *owner;
};

#define dev_name(dev)	((dev)->init_name ? (dev)->init_name : "virtio")

#define dev_err(dev, fmt, ...)	fprintf(stderr, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)	fprintf(stderr, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_info(dev, fmt, ...)	fprintf(stderr, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_warn_once(dev, fmt, ...)	dev_warn(dev, fmt, ##__VA_ARGS__)
/* A warning with the device's name, once a call site; true if @cond. */
#define dev_WARN_ONCE(dev, cond, fmt, ...) ({				\
	static int __dev_warned;					\
	int __dev_ret = !!(cond);					\
	if (unlikely(__dev_ret) &&					\
	    !__atomic_exchange_n(&__dev_warned, 1, __ATOMIC_RELAXED))	\
		dev_warn(dev, fmt, ##__VA_ARGS__);			\
	unlikely(__dev_ret);						\
})
#define dev_dbg(dev, fmt, ...)	do { if (0) dev_info(dev, fmt, ##__VA_ARGS__); } while (0)

#endif /* _LINUX_DEVICE_H */
