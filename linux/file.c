// SPDX-License-Identifier: GPL-2.0
/*
 * The descriptor table of the shims' own files (linux/file.h): which file
 * a descriptor number of this process names, for kernel code that looks
 * one up (fget(), sockfd_lookup()).  The program installs a file under a
 * descriptor it owns (so numbers never collide) and closes it again.
 */
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/kernel.h>
#include <linux/mutex.h>

#define FD_SLOTS	16

static struct {
	int fd;
	struct file *file;
} table[FD_SLOTS];
static DEFINE_MUTEX(table_mtx);

/* The slot of @fd, or -1; table_mtx held. */
static int slot(int fd)
{
	unsigned int i;

	for (i = 0; i < FD_SLOTS; i++)
		if (table[i].file && table[i].fd == fd)
			return i;
	return -1;
}

int rig_fd_install(int fd, struct file *file)
{
	unsigned int i;
	int err = -EMFILE;

	if (fd < 0)
		return -EBADF;
	mutex_lock(&table_mtx);
	if (slot(fd) >= 0) {
		err = -EBUSY;
		goto out;
	}
	for (i = 0; i < FD_SLOTS; i++) {
		if (!table[i].file) {
			table[i].fd = fd;
			table[i].file = file;
			err = 0;
			break;
		}
	}
out:
	mutex_unlock(&table_mtx);
	return err;
}

void rig_fd_close(int fd)
{
	struct file *file = NULL;
	int i;

	mutex_lock(&table_mtx);
	i = slot(fd);
	if (i >= 0) {
		file = table[i].file;
		table[i].file = NULL;
	}
	mutex_unlock(&table_mtx);
	if (file)
		fput(file);
}

struct file *fget(int fd)
{
	struct file *file = NULL;
	int i;

	mutex_lock(&table_mtx);
	i = slot(fd);
	if (i >= 0) {
		file = table[i].file;
		__atomic_add_fetch(&file->f_count, 1, __ATOMIC_RELAXED);
	}
	mutex_unlock(&table_mtx);
	return file;
}
