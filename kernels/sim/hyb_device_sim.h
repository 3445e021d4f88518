/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated device's operations table. */
#ifndef HYB_DEVICE_SIM_H
#define HYB_DEVICE_SIM_H

#include "kernels/hyb_device_ops.h"

/* The simulated device (always built into the core). */
const hyb_device_ops_t* hyb_sim_device_ops( void );

/* Host ranges registered with the simulated devices now (tests: every
   registration a family makes is undone). */
int64_t hyb_sim_registrations( void );

/* Stream pauses queued on the simulated devices since the process started (tests: whether
   a pipeline paced its copies). */
int64_t hyb_sim_pauses( void );

#endif
