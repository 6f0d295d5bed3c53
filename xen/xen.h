/* SPDX-License-Identifier: GPL-2.0 */
/* Never a Xen domain. */
#ifndef _XEN_XEN_H
#define _XEN_XEN_H

#define xen_domain()		0
#define xen_pv_domain()		0
#define xen_hvm_domain()	0

#endif /* _XEN_XEN_H */
