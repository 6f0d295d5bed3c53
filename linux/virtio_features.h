/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feature bits past 64 (Linux 7.x): a device's features as an array of
 * u64 words, the first of which is still reachable under the old name.
 * The helpers take a bit number and refuse (WARN, false) one past the
 * array, as the kernel's do at run time.
 */
#ifndef _LINUX_VIRTIO_FEATURES_H
#define _LINUX_VIRTIO_FEATURES_H

#include <string.h>
#include <linux/types.h>
#include <linux/bug.h>

#define VIRTIO_FEATURES_U64S	2
#define VIRTIO_FEATURES_BITS	(VIRTIO_FEATURES_U64S * 64)

/* The bit's mask within its word, and its word's index. */
#define VIRTIO_BIT(b)		(1ULL << ((b) & 63))
#define VIRTIO_U64(b)		((b) >> 6)

/* NAME is the first word; NAME##_array all of them. */
#define VIRTIO_DECLARE_FEATURES(name)				\
	union {							\
		u64 name;					\
		u64 name##_array[VIRTIO_FEATURES_U64S];		\
	}

static inline bool virtio_features_chk_bit(unsigned int bit)
{
	return !WARN_ON_ONCE(bit >= VIRTIO_FEATURES_BITS);
}

static inline bool virtio_features_test_bit(const u64 *features,
					    unsigned int bit)
{
	if (!virtio_features_chk_bit(bit))
		return false;
	return features[VIRTIO_U64(bit)] & VIRTIO_BIT(bit);
}

static inline void virtio_features_set_bit(u64 *features, unsigned int bit)
{
	if (virtio_features_chk_bit(bit))
		features[VIRTIO_U64(bit)] |= VIRTIO_BIT(bit);
}

static inline void virtio_features_clear_bit(u64 *features, unsigned int bit)
{
	if (virtio_features_chk_bit(bit))
		features[VIRTIO_U64(bit)] &= ~VIRTIO_BIT(bit);
}

static inline void virtio_features_zero(u64 *features)
{
	memset(features, 0, VIRTIO_FEATURES_U64S * sizeof(*features));
}

static inline void virtio_features_from_u64(u64 *features, u64 word0)
{
	virtio_features_zero(features);
	features[0] = word0;
}

static inline bool virtio_features_equal(const u64 *a, const u64 *b)
{
	return !memcmp(a, b, VIRTIO_FEATURES_U64S * sizeof(*a));
}

static inline void virtio_features_copy(u64 *to, const u64 *from)
{
	memcpy(to, from, VIRTIO_FEATURES_U64S * sizeof(*to));
}

/* to = a & ~b, word by word. */
static inline void virtio_features_andnot(u64 *to, const u64 *a, const u64 *b)
{
	unsigned int i;

	for (i = 0; i < VIRTIO_FEATURES_U64S; i++)
		to[i] = a[i] & ~b[i];
}

#endif /* _LINUX_VIRTIO_FEATURES_H */
