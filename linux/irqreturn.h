/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IRQRETURN_H
#define _LINUX_IRQRETURN_H

enum irqreturn {
	IRQ_NONE		= 0,
	IRQ_HANDLED		= 1,
	IRQ_WAKE_THREAD		= 2,
};

typedef enum irqreturn irqreturn_t;

#endif /* _LINUX_IRQRETURN_H */
