/* SPDX-License-Identifier: GPL-2.0 */
/* Module parameters: each keeps the default its module's source gives it. */
#ifndef _LINUX_MODULEPARAM_H
#define _LINUX_MODULEPARAM_H

#define module_param(name, type, perm) extern int __module_param_##name##_unused
#define MODULE_PARM_DESC(name, x) extern int __module_parm_desc_##name##_unused

#endif /* _LINUX_MODULEPARAM_H */
