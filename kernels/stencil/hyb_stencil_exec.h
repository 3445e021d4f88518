/* SPDX-License-Identifier: BSD-3-Clause */
/* Running a stencil schedule step by step through a small set of
   operations (allocate, copy, compute): on host memory with the simulated
   device's kernels (the host executor of the tests and of the CPU
   recovery), or on a real device with the operations a caller supplies. */
#ifndef HYB_STENCIL_EXEC_H
#define HYB_STENCIL_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_prob.h"
#include "kernels/stencil/hyb_stencil_sched.h"

typedef enum
{
	HYB_SX_H2D = 0,
	HYB_SX_D2H = 1,
	HYB_SX_D2D = 2,
	HYB_SX_H2H = 3
} hyb_stencil_dir_t;

/* The operations. `stream` is the schedule's stream of the step; an
   implementation may run everything in issue order (the executor issues
   steps in an order that respects every dependency). */
typedef struct
{
	void* ctx;
	/* Device memory (host = 0) or host staging memory (host = 1), or NULL. */
	void* ( *alloc )( void* ctx, size_t bytes, int host );
	void ( *release )( void* ctx, void* p, int host );
	hyb_status_t ( *copy )( void* ctx, int stream, void* dst, const void* src, size_t bytes,
	                        int dir );
	hyb_status_t ( *compute )( void* ctx, int stream, int32_t kind, const hyb_stencil_args_t* a );
	/* Wait for everything issued. */
	hyb_status_t ( *finish )( void* ctx );
	/* Optional (NULL: none): called just before and just after step i of
	   s is issued, so that an implementation with streams can order the
	   step after its dependencies and mark its completion. */
	hyb_status_t ( *before )( void* ctx, const hyb_stencil_sched_t* s, int64_t i );
	hyb_status_t ( *after )( void* ctx, const hyb_stencil_sched_t* s, int64_t i );
} hyb_stencil_exec_ops_t;

/* The schedule input of problem `p` for `scheme` with d chunks (in core:
   pieces), k steps per block and T = steps (the rest zero: the whole run). */
hyb_stencil_sched_in_t hyb_stencil_sched_in( const hyb_stencil_prob_t* p, int32_t scheme, int32_t d,
                                             int32_t k, int64_t steps );

/* Host memory, memcpy and the simulated device's kernels. */
extern const hyb_stencil_exec_ops_t hyb_stencil_host_ops;

/* The buffers of one schedule's run: per slot the device levels and
   read-only fields, the staging buffers, and for Himeno the per-plane
   residuals (n doubles of device memory) and the kernels' scratch. */
typedef struct
{
	const hyb_stencil_exec_ops_t* ops;
	hyb_stencil_prob_t            prob;
	hyb_stencil_roles_t           roles;
	int32_t                       nslots, stage_in;
	int64_t                       slot_planes, stage_planes, plane_bytes;
	void*                         slot[HYB_SS_SLOTS_MAX];
	void*                         sin[HYB_SS_SLOTS_MAX];
	void*                         sout[HYB_SS_SLOTS_MAX];
	double*                       res;
	double*                       work[HYB_SS_SLOTS_MAX];
} hyb_stencil_exec_t;

/* Allocate the buffers `s` needs for problem `p` (whose fields are the
   host arrays). Returns HYB_OK, HYB_E_INVALID (unknown kind) or
   HYB_E_NO_MEMORY (nothing kept). */
hyb_status_t hyb_stencil_exec_init( hyb_stencil_exec_t* ex, const hyb_stencil_exec_ops_t* ops,
                                    const hyb_stencil_prob_t* p, const hyb_stencil_sched_t* s );

/* Issue the steps order[0 .. count) of `s` (order NULL: the list order;
   count < 0: every step) and wait for them. `s` must have the geometry the
   buffers were made for. Stops at the first failing operation and returns
   its status; *done (may be NULL) receives how many steps were issued
   without error. */
hyb_status_t hyb_stencil_exec_run( hyb_stencil_exec_t* ex, const hyb_stencil_sched_t* s,
                                   const int64_t* order, int64_t count, int64_t* done );

/* The Himeno residual: the per-plane sums of the run, added in plane order
   (0 for the other kinds). */
hyb_status_t hyb_stencil_exec_residual( hyb_stencil_exec_t* ex, double* gosa );

void hyb_stencil_exec_free( hyb_stencil_exec_t* ex );

#endif
