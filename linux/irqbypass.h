/* SPDX-License-Identifier: GPL-2.0 */
/* IRQ bypass (a call eventfd wired straight to a guest interrupt): never here. */
#ifndef _LINUX_IRQBYPASS_H
#define _LINUX_IRQBYPASS_H

struct irq_bypass_producer {
	void *token;
	int irq;
};

#endif /* _LINUX_IRQBYPASS_H */
