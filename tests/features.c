// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's filter of transport feature bits: vring_transport_features()
 * runs on the features device and driver share, before negotiation ends,
 * and clears each transport bit (VIRTIO_TRANSPORT_F_START to _END, 28 to
 * 41) the ring code does not implement.  It must leave every other bit as
 * it is: bits 0 to 27 and 42 up are the device type's, and from Linux 7.x
 * a device has 128 feature bits (VIRTIO_DECLARE_FEATURES: features_array),
 * where bits 64 and up must come through the filter untouched.
 *
 *   transport-features      all 64 bits set: the device's kept, the ring's
 *                           basics (INDIRECT_DESC, EVENT_IDX, VERSION_1,
 *                           ACCESS_PLATFORM, RING_PACKED) kept, bits 30 and
 *                           31 (the spec defines none) cleared; none set
 *                           from nothing
 *   transport-features-128  the same with all 128 bits, and with only the
 *                           upper 64: every bit from 64 on survives
 *
 * Which other transport bits a driver keeps (IN_ORDER, RING_RESET, ...) is
 * its own choice: the case prints them.  Usage: features --list | features
 * CASE.  Exit 0: the filter kept and cleared what it must; 1: not; 2:
 * usage error; 77: SKIP (no 128-bit features in the code under test).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include "harness/harness.h"

static const char help[] =
"Usage: features --list | features CASE\n"
"Run one case of the driver's transport feature filter,\n"
"vring_transport_features() (--list names them).  Exit 0: it kept and\n"
"cleared the bits it must; 1: not; 2: usage error; 77: SKIP, the code\n"
"under test has no feature bits past 63.\n";

/* The transport bits every driver under test implements. */
static const unsigned int basics[] = {
	VIRTIO_RING_F_INDIRECT_DESC, VIRTIO_RING_F_EVENT_IDX,
	VIRTIO_F_VERSION_1, VIRTIO_F_ACCESS_PLATFORM, VIRTIO_F_RING_PACKED,
};

/* Transport bits the spec gives no meaning: no driver can implement them. */
static const unsigned int undefined[] = { 30, 31 };

static bool transport_bit(unsigned int bit)
{
	return bit >= VIRTIO_TRANSPORT_F_START && bit < VIRTIO_TRANSPORT_F_END;
}

/*
 * After the filter ran on @nbits bits all set: every bit outside the
 * transport range, and the basics, still set; the undefined ones clear.
 * The transport bits kept besides the basics are printed.
 */
static void check_filtered(struct virtio_device *vdev, unsigned int nbits)
{
	unsigned int bit, i;

	for (bit = 0; bit < nbits; bit++)
		if (!transport_bit(bit))
			CHECKF(virtio_has_feature(vdev, bit),
			       "device feature bit %u cleared: not a transport bit",
			       bit);
	for (i = 0; i < ARRAY_SIZE(basics); i++)
		CHECKF(virtio_has_feature(vdev, basics[i]),
		       "transport bit %u cleared: every driver here implements it",
		       basics[i]);
	for (i = 0; i < ARRAY_SIZE(undefined); i++)
		CHECKF(!virtio_has_feature(vdev, undefined[i]),
		       "transport bit %u kept: the spec defines no such feature",
		       undefined[i]);
	printf("%s: the %s driver also keeps transport bits", rig_case_name,
	       rig_guest_impl());
	for (bit = 0; bit < nbits; bit++) {
		if (!transport_bit(bit) || !virtio_has_feature(vdev, bit))
			continue;
		for (i = 0; i < ARRAY_SIZE(basics) && basics[i] != bit; i++)
			;
		if (i == ARRAY_SIZE(basics))
			printf(" %u", bit);
	}
	printf("\n");
}

static int transport_features(void)
{
	struct virtio_device vdev;

	rig_vdev_init(&vdev, ~0ULL);
	vring_transport_features(&vdev);
	check_filtered(&vdev, 64);

	rig_vdev_init(&vdev, 0);
	vring_transport_features(&vdev);
	CHECKF(vdev.features == 0,
	       "the filter set bits the device does not have: 0x%llx",
	       (unsigned long long)vdev.features);
	return 0;
}

#ifdef RIG_VIRTIO_FEATURES_ARRAY
static int transport_features_128(void)
{
	struct virtio_device vdev;
	unsigned int i;

	rig_vdev_init(&vdev, 0);
	for (i = 0; i < VIRTIO_FEATURES_U64S; i++)
		vdev.features_array[i] = ~0ULL;
	vring_transport_features(&vdev);
	check_filtered(&vdev, VIRTIO_FEATURES_BITS);

	/* Only the upper bits: they stay, and none appears below. */
	rig_vdev_init(&vdev, 0);
	for (i = 1; i < VIRTIO_FEATURES_U64S; i++)
		vdev.features_array[i] = ~0ULL;
	vring_transport_features(&vdev);
	CHECKF(vdev.features_array[0] == 0,
	       "the filter set bits the device does not have: 0x%llx",
	       (unsigned long long)vdev.features_array[0]);
	for (i = 1; i < VIRTIO_FEATURES_U64S; i++)
		CHECKF(vdev.features_array[i] == ~0ULL,
		       "feature bits %u to %u: 0x%llx after the filter, all set before",
		       64 * i, 64 * i + 63,
		       (unsigned long long)vdev.features_array[i]);
	return 0;
}
#else
static int transport_features_128(void)
{
	rig_skip("%s: linux/virtio.h declares no feature array (VIRTIO_DECLARE_FEATURES): no bits past 63",
		 rig_case_name);
}
#endif

static const struct rig_case cases[] = {
	RIG_CASE("transport-features", transport_features),
	RIG_CASE("transport-features-128", transport_features_128),
};

RIG_CASE_MAIN(cases, help)
