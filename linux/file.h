/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files: a struct file is what a character device's file operations are
 * called with (kernel/vhost_core.c makes one per open), or an eventfd's
 * (eventfd_fget()).  Each holds a reference count; the last fput()
 * releases it.  Descriptor numbers are this process's own.  As the
 * kernel's linux/fs.h (which declares struct file there), it brings in
 * the lists, locks, wait queues, RCU and XArrays that code using files
 * expects to have.
 */
#ifndef _LINUX_FILE_H
#define _LINUX_FILE_H

#include <fcntl.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/wait.h>
#include <linux/xarray.h>

struct inode {
	int i_unused;
};

struct kiocb;
struct iov_iter;
struct module;

struct file_operations {
	struct module *owner;
	long long (*llseek)(struct file *, long long, int);
	ssize_t (*read_iter)(struct kiocb *, struct iov_iter *);
	ssize_t (*write_iter)(struct kiocb *, struct iov_iter *);
	__poll_t (*poll)(struct file *, struct poll_table_struct *);
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
	int (*open)(struct inode *, struct file *);
	int (*release)(struct inode *, struct file *);
};

struct eventfd_ctx;

struct file {
	int f_count;			/* atomic */
	unsigned int f_flags;
	const struct file_operations *f_op;
	struct inode *f_inode;
	void *private_data;
	struct eventfd_ctx *eventfd;	/* an eventfd's file */
};

/* A read or write of a file (its ->read_iter, ->write_iter). */
struct kiocb {
	struct file *ki_filp;
};

void fput(struct file *file);
/*
 * The file descriptor @fd names, with a reference, or NULL.  The shims'
 * own files only: a program puts one in the table with rig_fd_install()
 * (the table then holds the file's reference; rig_fd_close() drops it).
 * linux/file.c.
 */
struct file *fget(int fd);
int rig_fd_install(int fd, struct file *file);
void rig_fd_close(int fd);
long long noop_llseek(struct file *file, long long offset, int whence);

#endif /* _LINUX_FILE_H */
