/* SPDX-License-Identifier: BSD-3-Clause */
/* The host stand-in of the knapsack device interface: "device" memory is
   host memory, copies are memcpy, launches call the simulated launchers at
   once, and a fault can be injected at any call. It lets CI run every
   driver exactly as the device would, with tiny buffers. */
#ifndef HYB_KNAPSACK_HOSTDEV_H
#define HYB_KNAPSACK_HOSTDEV_H

#include <stdint.h>

#include "kernels/knapsack/hyb_knapsack_dev.h"

typedef struct
{
	int64_t  fail_at;   /* the fail_at-th call (1-based, any operation) fails; 0: none */
	int64_t  calls;     /* operations so far */
	uint64_t dev_limit; /* device bytes allocatable at once; 0: no limit */
	uint64_t dev_bytes; /* device bytes allocated now */
	uint64_t dev_peak;
	uint64_t launches[HYB_KNAPSACK_K_COUNT];
} hyb_knapsack_hostdev_t;

/* The interface over `state` (zero it, then set fail_at / dev_limit). The
   state must outlive every use of the interface. */
hyb_knapsack_dev_t hyb_knapsack_hostdev( hyb_knapsack_hostdev_t* state );

#endif
