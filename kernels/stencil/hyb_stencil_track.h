/* SPDX-License-Identifier: BSD-3-Clause */
/* The hazard tracker of the stencil schedule: for each plane of each
   resource the last step that wrote it and the steps that read it since,
   from which every new step's dependencies follow (read after write, write
   after read, write after write). */
#ifndef HYB_STENCIL_TRACK_H
#define HYB_STENCIL_TRACK_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_sched.h"

/* Readers of one plane remembered before they are folded into one. */
#define HYB_ST_READERS 6

typedef struct
{
	int64_t  planes;
	int64_t* last_write; /* per plane: step index, -1 = none */
	int8_t*  nread;      /* per plane */
	int64_t* readers;    /* per plane: HYB_ST_READERS step indices */
} hyb_st_res_t;

typedef struct
{
	hyb_st_res_t res[HYB_SR_COUNT];
} hyb_stencil_track_t;

/* Size the tracker: planes[r] planes of resource r (0: unused). Returns
   HYB_OK or HYB_E_NO_MEMORY (nothing allocated). */
hyb_status_t hyb_stencil_track_init( hyb_stencil_track_t* t, const int64_t planes[HYB_SR_COUNT] );
void         hyb_stencil_track_free( hyb_stencil_track_t* t );

/* Step `step` makes the accesses acc[0 .. nacc): calls dep(ctx, i) for
   every earlier step i it must follow (possibly more than once for one i),
   then records the accesses. A plane read by more than HYB_ST_READERS steps
   since its last write makes the newest reader follow the others, so that
   one of them stands for all. */
void hyb_stencil_track_step( hyb_stencil_track_t* t, int64_t step, const hyb_stencil_access_t* acc,
                             int nacc, void ( *dep )( void* ctx, int64_t i ), void* ctx );

#endif
