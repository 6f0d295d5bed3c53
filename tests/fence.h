/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kmalloc fence: while a case runs inside it, every kmalloc() ends
 * where a page ends, and the page after it is never mapped, so a read or
 * a write past a block faults at once, as under the kernel's KFENCE.  A
 * freed block's pages are unmapped too.
 *
 * Why: the driver keeps an array a ring long for the ids the device sends
 * (desc_state[]).  An id one past it reads whatever the allocator put
 * next, which in a plain build is most likely zeros: "no buffer in
 * flight", refused with the same words as the id out of range.  A range
 * check moved by one then passes every case; only a sanitizer saw the
 * read.  In the fence that read stops the case with a message naming the
 * block and how far past it the access was (exit 1).
 *
 * A block's start is aligned to 16 (the shim's kmalloc() gives no more),
 * so up to 15 bytes after a block whose size is not a multiple of 16 are
 * not fenced; a block larger than a page starts where its first page
 * starts (as alloc_pages_exact() memory does), and only the bytes after
 * its last page are.  Blocks are never reused; a case has at most
 * FENCE_BLOCKS of them.
 */
#ifndef TESTS_FENCE_H
#define TESTS_FENCE_H

/* kmalloc() in this thread from the fence, until fence_end(). */
void fence_begin(void);
/* Back to the shim's caches; every block kmalloc()ed meanwhile must be freed. */
void fence_end(void);

#endif
