/* SPDX-License-Identifier: GPL-2.0 */
/* DMA directions; the rig never uses a DMA API (physical == virtual). */
#ifndef _LINUX_DMA_MAPPING_H
#define _LINUX_DMA_MAPPING_H

#include <linux/types.h>

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#define DMA_MAPPING_ERROR	(~(dma_addr_t)0)

#endif /* _LINUX_DMA_MAPPING_H */
