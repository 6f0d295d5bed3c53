/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ring code printed while a case ran: the case programs
 * (tests/hostile.c, tests/edges.c) capture stderr around one call, so
 * that a refusal without a message, or with the message of another bound,
 * fails the case.
 */
#ifndef TESTS_SAID_H
#define TESTS_SAID_H

#include <stdbool.h>
#include <stddef.h>

/* The start of what was said between the last capture_begin() and _end(). */
extern char said_text[4096];

/* Capture stderr from here. */
void capture_begin(void);
/* Stop capturing; echo what was said to stderr; return how many bytes. */
size_t capture_end(void);
/*
 * Did the ring code name the bound a value broke, @why (NULL: any
 * reason)?  Several checks refuse with the same errno: the message tells
 * which one did, so that a bound moved by one still fails its edge case
 * when a later check refuses the value for another reason.  A kernel
 * tree's code says other things: only the rig's message is read (@host:
 * vringh's, else virtio_ring's).
 */
bool said_why(bool host, const char *why);

struct virtqueue;
/* virtqueue_get_buf(@vq, @len), what the ring code said meanwhile in *@said (bytes). */
void *said_get_buf(struct virtqueue *vq, unsigned int *len, size_t *said);

#endif
