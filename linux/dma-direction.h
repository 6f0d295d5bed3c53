/* SPDX-License-Identifier: GPL-2.0 */
/* enum dma_data_direction lives with the rest of the DMA API here. */
#ifndef _LINUX_DMA_DIRECTION_H
#define _LINUX_DMA_DIRECTION_H

#include <linux/dma-mapping.h>

#endif /* _LINUX_DMA_DIRECTION_H */
