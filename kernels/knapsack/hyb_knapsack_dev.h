/* SPDX-License-Identifier: BSD-3-Clause */
/* The little device interface the knapsack drivers are written against:
   device and pinned host memory, copies and kernel launches queued on one
   of two streams, stream synchronization, the compaction scratch size.
   Two implementations: the host stand-in (hyb_knapsack_hostdev.c, plain
   memory and the simulated launchers, with a fault at any call, for the
   drivers' tests), and the binding to the device runtime
   (hyb_knapsack_devrt.c: hyb_dev_* and hyb_dev_launch, simulated or CUDA). */
#ifndef HYB_KNAPSACK_DEV_H
#define HYB_KNAPSACK_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "kernels/knapsack/hyb_knapsack_kargs.h"

/* The two streams of the seed's explicitly managed pipeline: B&B kernels
   (and their small result copies) on one, subproblem transfers on the
   other, so a transfer of one GPU buffer overlaps the B&B of the other.
   Transfers into or out of the circular host buffer are only ever queued
   on the copy stream (two streams moving them at once would corrupt it). */
enum
{
	HYB_KNAPSACK_STREAM_COMPUTE = 0,
	HYB_KNAPSACK_STREAM_COPY    = 1
};

/* Every call returns HYB_OK or an error status (HYB_E_NO_MEMORY for an
   allocation, HYB_E_DEVICE otherwise); queued work reports its errors at
   the next sync of its stream. Copies and launches return before the work
   is done; memory they touch must stay untouched until the stream's sync. */
typedef struct
{
	void* ctx;
	hyb_status_t ( *dev_alloc )( void* ctx, size_t bytes, void** out );
	void ( *dev_free )( void* ctx, void* p );
	hyb_status_t ( *host_alloc )( void* ctx, size_t bytes, void** out ); /* pinned */
	void ( *host_free )( void* ctx, void* p );
	hyb_status_t ( *h2d )( void* ctx, int stream, void* dst, const void* src, size_t bytes );
	hyb_status_t ( *d2h )( void* ctx, int stream, void* dst, const void* src, size_t bytes );
	hyb_status_t ( *launch )( void* ctx, int stream, hyb_knapsack_kernel_t k, const void* args );
	hyb_status_t ( *sync )( void* ctx, int stream );
	hyb_status_t ( *temp_bytes )( void* ctx, int64_t capacity, size_t* bytes );
	/* 1: the planner's GPU rates describe this device, so AUTO may choose
	   it; 0 (a simulated device, the stand-in): only explicit requests. */
	int auto_ok;
} hyb_knapsack_dev_t;

#endif
