/* SPDX-License-Identifier: GPL-2.0 */
/* Pages: identity-mapped, a struct page pointer is the page's address. */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/types.h>
#include <linux/kernel.h>

struct page;

#define virt_to_page(p)		((struct page *)((unsigned long)(p) & PAGE_MASK))
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define page_address(page)	((void *)(page))
#define page_to_phys(page)	((phys_addr_t)(unsigned long)(page))
#define virt_to_phys(p)		((phys_addr_t)(unsigned long)(p))
#define phys_to_virt(a)		((void *)(unsigned long)(a))
#define pfn_to_page(pfn)	((struct page *)((unsigned long)(pfn) << PAGE_SHIFT))
/* Every page is mapped: a local or atomic mapping is its address. */
#define kmap_local_page(page)	page_address(page)
#define kunmap_local(addr)	((void)(addr))
#define kmap_atomic(page)	page_address(page)
#define kunmap_atomic(addr)	((void)(addr))

#endif /* _LINUX_MM_H */
