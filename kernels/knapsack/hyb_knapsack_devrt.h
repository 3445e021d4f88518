/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack device interface bound to the device runtime: device and
   pinned host memory, copies, launches of the registered knapsack kernels
   and stream syncs of one pooled context (hyb_dev_*), on the simulated
   device or on CUDA alike. */
#ifndef HYB_KNAPSACK_DEVRT_H
#define HYB_KNAPSACK_DEVRT_H

#include <stddef.h>

#include "kernels/hyb_device.h"
#include "kernels/knapsack/hyb_knapsack_dev.h"

/* Device blocks one solve holds at once (items, two buffers, scratch, or
   the DP's rows and bits), with room to spare. */
#define HYB_KNAPSACK_DEVRT_BLOCKS 8

typedef struct
{
	hyb_dev_t* d;
	struct
	{
		void*  p;
		size_t bytes;
	} blocks[HYB_KNAPSACK_DEVRT_BLOCKS];
} hyb_knapsack_devrt_t;

/* Take a context of selected device 0 and fill *dev with the interface
   over it. HYB_OK; or the runtime's status when no device is usable, or
   HYB_E_NOT_SUPPORTED when the backend lacks a knapsack kernel (nothing
   held then). */
hyb_status_t hyb_knapsack_devrt_open( hyb_knapsack_devrt_t* rt, hyb_knapsack_dev_t* dev );

/* Sync both streams, free any block still held and give the context back
   (a context that failed is destroyed by the runtime). */
void hyb_knapsack_devrt_close( hyb_knapsack_devrt_t* rt );

#endif
