/* SPDX-License-Identifier: GPL-2.0 */
/* Pages: identity-mapped, a struct page pointer is the page's address. */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

struct page;

#define virt_to_page(p)		((struct page *)((unsigned long)(p) & PAGE_MASK))
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define page_address(page)	((void *)(page))
#define page_to_phys(page)	((phys_addr_t)(unsigned long)(page))
#define virt_to_phys(p)		((phys_addr_t)(unsigned long)(p))
#define phys_to_virt(a)		((void *)(unsigned long)(a))
#define pfn_to_page(pfn)	((struct page *)((unsigned long)(pfn) << PAGE_SHIFT))
#define virt_to_head_page(p)	virt_to_page(p)
/*
 * Pages are not reference counted: a reference changes nothing, and
 * nothing allocates a page that put_page() would free.
 */
#define put_page(page)		((void)(page))
#define page_ref_add(page, nr)	((void)(page), (void)(nr))
/* Every page is mapped: a local or atomic mapping is its address. */
#define kmap_local_page(page)	page_address(page)
#define kunmap_local(addr)	((void)(addr))
#define kmap_atomic(page)	page_address(page)
#define kunmap_atomic(addr)	((void)(addr))

/* Memory from vmalloc(): none here, vmalloc() is kmalloc(). */
static inline bool is_vmalloc_addr(const void *p __always_unused)
{
	return false;
}

/*
 * Pinning user pages: a user page is there if the "user" window holds it
 * (linux/uaccess.h); nothing moves, so pinning is only that check.
 */
#define FOLL_WRITE		0x01

static inline int pin_user_pages_fast(unsigned long start, int nr_pages,
				      unsigned int gup_flags, struct page **pages)
{
	int i;

	(void)gup_flags;
	start &= PAGE_MASK;
	if (nr_pages <= 0 || !__user_range_ok((void __user *)start,
					      (unsigned long)nr_pages * PAGE_SIZE))
		return -EFAULT;
	for (i = 0; i < nr_pages; i++)
		pages[i] = virt_to_page(start + i * PAGE_SIZE);
	return nr_pages;
}

static inline void unpin_user_pages_dirty_lock(struct page **pages,
					       unsigned long npages, bool dirty)
{
	(void)pages;
	(void)npages;
	(void)dirty;
}

#endif /* _LINUX_MM_H */
