/* SPDX-License-Identifier: BSD-3-Clause */
/* The schedule of a stencil run: the plan as data. A list of steps (stage,
   upload, share, compute, download, commit, host copy), each on a stream,
   with the dependencies between streams, for the in-core scheme and the
   out-of-core schemes (1.5-D chunks, temporal blocks, region sharing). The
   device pipeline, the simulated device and the host executor all run it. */
#ifndef HYB_STENCIL_SCHED_H
#define HYB_STENCIL_SCHED_H

#include <stdint.h>

#include "hyb_status.h"

/* Schemes (values as hyblas_stencil_scheme_t). */
typedef enum
{
	HYB_STENCIL_SCH_IN_CORE = 1,
	HYB_STENCIL_SCH_COPY    = 2,
	HYB_STENCIL_SCH_DIRECT  = 3,
	HYB_STENCIL_SCH_SHARED  = 4
} hyb_stencil_scheme_t;

/* Operations. "State" fields are the time-level arrays of the caller
   (hyb_stencil_roles_t.state, by index); "slots" are the device buffers;
   staging-in / staging-out are pinned host buffers, one of each per slot. */
typedef enum
{
	HYB_SS_STAGE    = 0, /* host copy: state levels + read-only fields -> staging-in */
	HYB_SS_UPLOAD   = 1, /* h2d: state levels + read-only fields (or staging-in) -> slot */
	HYB_SS_SHARE    = 2, /* d2d: the common region, slot -> the next chunk's slot */
	HYB_SS_COMPUTE  = 3, /* one time step over planes of a slot */
	HYB_SS_DOWNLOAD = 4, /* d2h: one level of a slot -> a state field or staging-out */
	HYB_SS_COMMIT   = 5, /* host copy: staging-out -> a state field */
	HYB_SS_HOSTCOPY = 6  /* host copy: a state field -> another (final placement) */
} hyb_stencil_op_t;

/* What a stream carries: a device copy engine or the device's compute
   queue (with the D2H of its results, seed 003 Algorithm 2), or a host
   copy team. */
typedef enum
{
	HYB_SQ_COPY    = 0,
	HYB_SQ_COMPUTE = 1,
	HYB_SQ_D2H     = 2,
	HYB_SQ_HOST    = 3
} hyb_stencil_queue_t;

/* Slot buffers out of core at most (the seed's pipeline has 3, the
   default; the planner takes a fourth where memory allows, see
   hyb_stencil_sched_in_t.slots), and the schedule's streams: a copy and a
   compute stream per slot and two host queues. */
#define HYB_SS_SLOTS_MAX   4
#define HYB_SS_MAX_STREAMS ( 2 * HYB_SS_SLOTS_MAX + 2 )
#define HYB_SS_RESIDUAL    1 /* COMPUTE: store the Himeno residual of own0..own1 */

/* One step. Plane numbers are global (0 .. n-1) unless said otherwise; a
   slot's buffer holds the planes [base, base + slot_planes) of the chunk
   it serves. */
typedef struct
{
	int8_t op;
	int8_t stream;
	int8_t slot;     /* the slot read or written (SHARE: the source) */
	int8_t dst_slot; /* SHARE: the slot written */
	int8_t field;  /* DOWNLOAD: state index written, -1 = staging-out; COMMIT, HOSTCOPY: state index
	                  written */
	int8_t src[2]; /* STAGE, UPLOAD: state indices holding level t and t-1 (-1: none);
	                  UPLOAD: src[0] = -1 means from staging-in; HOSTCOPY: src[0] the source */
	int8_t  part;  /* DOWNLOAD to staging-out, COMMIT: the staging-out part (0 or 1) */
	int8_t  flags; /* HYB_SS_RESIDUAL */
	int32_t chunk; /* chunk (out of core) or piece (in core) */
	int32_t block;
	int64_t z0, z1;     /* planes moved or computed */
	int64_t base;       /* the slot's first plane (SHARE: the source slot's) */
	int64_t dst_base;   /* SHARE: the written slot's first plane; DOWNLOAD to / COMMIT from
	                       staging-out: the staging buffer's first plane (staging-in uses base) */
	int64_t level;      /* STAGE, UPLOAD, SHARE: t (the inputs are t and, with 2 inputs, t-1);
	                       COMPUTE: the level written (reads level - 1 and level - 2);
	                       DOWNLOAD: the level read */
	int64_t own0, own1; /* COMPUTE with HYB_SS_RESIDUAL: the planes whose residual is kept */
	int64_t dep0;       /* this step's dependencies: deps[dep0 .. dep0 + ndep) */
	int32_t ndep;
} hyb_stencil_step_t;

/* What to schedule. */
typedef struct
{
	int32_t scheme; /* hyb_stencil_scheme_t */
	int64_t n;      /* planes along the cut axis */
	int32_t h;      /* stencil radius */
	int32_t levels; /* device time levels (3 acoustic, 2 else) */
	int32_t inputs; /* levels a step reads (2 acoustic, 1 else) */
	int32_t ncoef;  /* read-only fields */
	int32_t quants; /* quantities stepped together (0 or 1: one; 2 needs inputs 1): every
	                   state step moves each quantity's level */
	int32_t d;      /* chunks, or in core the pieces of the first upload and last download */
	int32_t k;      /* out of core: steps per temporal block */
	int64_t steps;  /* T */
	int32_t cone;   /* in core: steps computed piece by piece as the pieces arrive (0: min(T, d)) */
	int32_t residual; /* 1: the last step keeps the residual of every chunk's own planes */
	/* Out of core: chunk bounds and halo depths in multiples of `align`
	   planes (0 or 1: none). Compressed fields need 4 (ZFP's blocks), so
	   that every range a step moves is whole blocks. */
	int32_t align;
	/* Out of core: slot buffers, 3 .. HYB_SS_SLOTS_MAX, or d when d < 3
	   (0: the seed's 3; more than d count as d). A slot holds one chunk from its upload to
	   the end of its download (the older level's until the next chunk's
	   upload is issued), and chunks i and i + 1 need their own (the share
	   spans them), so with S slots at most S chunks are in flight: a
	   fourth lets an upload start while the chunk three back still
	   downloads. */
	int32_t slots;
	/* Part of a run: blocks [block_begin, block_end) (block_end 0: to the
	   end). The first block may start at chunk first_chunk (a recovery:
	   that chunk uploads its whole range), with the older levels of chunks
	   [pending_commit, first_chunk) still in their staging-out buffers;
	   only a restartable schedule may resume so. */
	int64_t block_begin, block_end;
	int32_t first_chunk, pending_commit;
	/* With two input levels, where a chunk's older output level goes. 0:
	   straight into the state field of level t-1 once no later step of the
	   block reads those planes (the next chunk's upload is issued), so a
	   failed run is recovered from a copy of its inputs kept aside. 1:
	   through a staging-out buffer, committed only after the next chunk's
	   downloads, so that the host state always holds the inputs of every
	   unfinished chunk and a failed block can resume at its first
	   unfinished chunk (first_chunk, pending_commit); this costs a host
	   copy of one level per block. Likewise after an odd number of blocks:
	   0, the last block downloads its newest level into its final place
	   (the field it reads level t from) once the next chunk's upload is
	   issued; 1 (or copying), into the work field, and a host copy puts
	   it in place at the end. */
	int32_t restartable;
} hyb_stencil_sched_in_t;

typedef struct
{
	hyb_stencil_sched_in_t in;
	int32_t                nslots;       /* device buffers */
	int64_t                blocks;       /* temporal blocks of the whole run */
	int64_t*               zb;           /* chunk (piece) bounds: d + 1 */
	int64_t                slot_planes;  /* planes of one slot buffer */
	int64_t                stage_planes; /* planes of one staging-out buffer (0: none) */
	int32_t                stage_in;     /* 1: staging-in buffers exist (copying scheme) */
	int32_t                nstreams;
	int8_t                 queue[HYB_SS_MAX_STREAMS]; /* hyb_stencil_queue_t of each stream */
	hyb_stencil_step_t*    steps;
	int64_t                nsteps;
	int64_t*               deps; /* step indices, each smaller than its step's */
	int64_t                ndeps;
	/* Data moved, in planes of one array (bytes = planes x plane bytes),
	   every quantity's arrays counted. */
	int64_t planes_h2d, planes_d2h, planes_d2d, planes_host;
	/* Planes computed (kernel work, redundant halo planes included). */
	int64_t planes_computed;
} hyb_stencil_sched_t;

/* The even split of n planes into d chunks: chunk i is [zb[i], zb[i+1]),
   the first n % d chunks one plane longer. zb has d + 1 entries. */
void hyb_stencil_split( int64_t n, int32_t d, int64_t* zb );

/* The split of n planes into d chunks of whole bands of `align` planes
   (the bands shared out as hyb_stencil_split shares planes; the last chunk
   ends at n and may be shorter by less than a band). align <= 1 is
   hyb_stencil_split. The caller keeps d <= ceil(n / align). */
void hyb_stencil_split_aligned( int64_t n, int32_t d, int32_t align, int64_t* zb );

/* The halo depth of a block of kb steps: h * kb rounded up to `align`. */
int64_t hyb_stencil_halo( int32_t h, int64_t kb, int32_t align );

/* Build the schedule of `in`. Out of core (COPY, DIRECT, SHARED): d >= 1
   chunks, each at least h * k planes when d > 1 (a halo may not reach past
   the neighbouring chunk), k >= 1; in core: 1 <= d <= n pieces. Returns
   HYB_OK, HYB_E_INVALID (bad or infeasible input, with nothing allocated)
   or HYB_E_NO_MEMORY. Pure (no I/O, no globals); free with
   hyb_stencil_sched_free. */
hyb_status_t hyb_stencil_sched_build( const hyb_stencil_sched_in_t* in, hyb_stencil_sched_t* out );

void hyb_stencil_sched_free( hyb_stencil_sched_t* s );

/* One access of a step to a resource: a state field (res < 3), a slot
   (HYB_SR_SLOT + s), a staging-in (HYB_SR_SIN + s) or a staging-out
   (HYB_SR_SOUT + s) buffer, planes [lo, hi) (global for state fields,
   local to the buffer otherwise). Read-only fields are never written, so
   they are not listed. */
#define HYB_SR_SLOT  3
#define HYB_SR_SIN   ( HYB_SR_SLOT + HYB_SS_SLOTS_MAX )
#define HYB_SR_SOUT  ( HYB_SR_SIN + HYB_SS_SLOTS_MAX )
#define HYB_SR_COUNT ( HYB_SR_SOUT + HYB_SS_SLOTS_MAX )
typedef struct
{
	int32_t res;
	int32_t write;
	int64_t lo, hi;
} hyb_stencil_access_t;

/* The accesses of step `st` of `s` (at most 4) into acc; returns their
   count. The dependencies of the schedule order every pair of steps whose
   accesses conflict (same resource, planes overlapping, one writes), with
   stream order counting as an order. */
int hyb_stencil_step_accesses( const hyb_stencil_sched_t* s, const hyb_stencil_step_t* st,
                               hyb_stencil_access_t acc[4] );

/* Short names of the operations, for traces and test messages. */
const char* hyb_stencil_op_name( int op );

#endif
