// SPDX-License-Identifier: GPL-2.0
/* What the ring code printed while a case ran (tests/said.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/virtio.h>

#include "harness/harness.h"
#include "tests/said.h"

char said_text[4096];
static int saved_stderr = -1, capture_fd = -1;

void capture_begin(void)
{
	fflush(stderr);
	capture_fd = memfd_create("stderr", 0);
	saved_stderr = dup(2);
	CHECK(capture_fd >= 0 && saved_stderr >= 0);
	dup2(capture_fd, 2);
}

size_t capture_end(void)
{
	char buf[4096];
	ssize_t n;
	off_t len;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	len = lseek(capture_fd, 0, SEEK_END);
	lseek(capture_fd, 0, SEEK_SET);
	said_text[0] = '\0';
	while ((n = read(capture_fd, buf, sizeof(buf))) > 0) {
		if (!said_text[0]) {
			memcpy(said_text, buf, min_t(size_t, n, sizeof(said_text) - 1));
			said_text[min_t(size_t, n, sizeof(said_text) - 1)] = '\0';
		}
		fwrite(buf, 1, n, stderr);
	}
	close(capture_fd);
	return len;
}

bool said_why(bool host, const char *why)
{
	const char *impl = host ? rig_host_impl() : rig_guest_impl();

	return !why || strcmp(impl, "kernel") == 0 || strstr(said_text, why);
}

void *said_get_buf(struct virtqueue *vq, unsigned int *len, size_t *said)
{
	void *buf;

	capture_begin();
	buf = virtqueue_get_buf(vq, len);
	*said = capture_end();
	return buf;
}
