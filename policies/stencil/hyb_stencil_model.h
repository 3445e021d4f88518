/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's planner and cost model: bytes and time of every
   scheme for any (d, k), from the problem, the device memory budget and
   the machine's rates, and the choice of the fastest feasible plan. Pure:
   no I/O, no globals, no CUDA. docs/stencil.md writes the model out. */
#ifndef HYB_STENCIL_MODEL_H
#define HYB_STENCIL_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* Slot buffers of an out-of-core plan at most (the schedule's
   HYB_SS_SLOTS_MAX). */
#define HYB_SM_SLOTS_MAX 4

/* The machine. Rates in bytes per second. */
typedef struct
{
	double h2d, d2h, bidir;            /* page-locked DMA: each way alone, both at once (total) */
	double h2d_pageable, d2h_pageable; /* DMA from pageable memory */
	double register_s_per_byte;        /* page-locking the caller's arrays */
	double host_copy;                  /* bytes a host copy team copies per second */
	double dev_bw;                     /* device memory a stencil kernel streams */
	double d2d;                        /* bytes a device-to-device copy copies */
	double cpu_bw;                     /* host memory the OpenMP kernels stream */
	double launch;                     /* seconds per device operation */
	double dev_mem;                    /* the device memory budget, bytes */
	double codec; /* bytes of values the ZFP codec codes per second (0: free) */
	/* The copying scheme: bytes its host steps copy through the page-locked
	   staging per second while the DMA engines use it (0: host_copy), and
	   seconds per byte of page-locking the staging at a handle's first
	   device run. */
	double stage_copy, stage_lock_s_per_byte;
	/* Slot buffers an out-of-core plan may take (0: 3, the seed's; fewer
	   than 3 count as 3): the planner takes as many as the budget holds,
	   down to 3 (or d). */
	int32_t slots_max;
} hyb_stencil_machine_t;

/* The work. */
typedef struct
{
	int64_t n;           /* planes along the cut axis */
	int64_t plane_elems; /* points of a plane */
	int32_t elem_bytes;
	int32_t h;           /* radius */
	int32_t levels;      /* device time levels (3 acoustic, 2 else) */
	int32_t inputs;      /* levels a step reads (2 acoustic, 1 else) */
	int32_t ncoef;       /* read-only fields */
	int32_t quants;      /* quantities stepped together, each with its levels (0 or 1: one) */
	int32_t nfields;     /* every field the caller gave */
	int64_t steps;       /* T */
	double  dev_elems;   /* device memory traffic of a point update, in elements */
	double  cpu_elems;   /* the same on the CPU */
	int32_t residual;    /* Himeno: per-plane residual buffers on the device */
	int32_t host_pinned; /* the caller's arrays are page-locked */
	int32_t no_register; /* the caller's arrays may not be page-locked by us */
	int32_t registered;  /* they already are (by an earlier run) */
	/* Compression (issue 22; all zero without): chunk bounds and halos in
	   multiples of `align` planes; only the direct and region-sharing
	   schemes; the bytes crossing PCIe scaled by ratio_in (uploads, over the
	   arrays uploaded) and ratio_out (downloads); per slot zfp_ring + 1
	   device stream buffers of a piece (0: 2), and zfp_ring more: at most
	   zfp_piece_bytes, at least 4 planes, and no more than a slot's planes,
	   of zfp_plane_bytes each (one plane compressed at the highest rate);
	   every plane moved also coded on the device at the machine's codec
	   rate. */
	int32_t align;
	int32_t zfp;
	double  ratio_in, ratio_out;
	double  zfp_plane_bytes, zfp_piece_bytes;
	int32_t zfp_ring;
	/* Shares of the arrays moved up and of those moved down that are
	   compressed (the codec decodes and encodes those only). */
	double coded_in, coded_out;
	/* Arrays the run fills (compressed input levels and read-only fields:
	   each crosses up as values and down compressed) and stores (the
	   compressed input levels: up compressed, down as values) through the
	   device's codec at its two ends. */
	int32_t zfp_fill_arrays, zfp_store_arrays;
	/* With fused ends (the first block reads values, the last writes
	   them): the bytes those blocks move beyond their compressed share,
	   each way. */
	double zfp_ends_extra;
	double zfp_bytes; /* of every compressed array of the run, page-locked by a handle's first */
} hyb_stencil_work_t;

/* One plan and what the model predicts of it. Bytes are totals of the
   run; seconds are each stage's busy time and the predicted wall time. */
typedef struct
{
	int32_t scheme; /* hyb_stencil_scheme_t values (1..4) */
	int32_t d, k;   /* chunks and block steps; in core: pieces, T */
	int32_t nslots;
	int32_t pinned;   /* DMA from page-locked memory */
	int32_t feasible; /* geometry and memory allow it */
	int64_t blocks;
	int64_t slot_planes;
	double  bytes_h2d, bytes_d2h, bytes_d2d, bytes_host;
	double  planes_computed; /* plane updates of the kernels, redundant halo planes included */
	double  device_bytes;
	double  t_h2d, t_d2h, t_d2d, t_kernel, t_host, t_register;
	double  seconds;
} hyb_stencil_pred_t;

/* Predict `scheme` with d chunks (in core: pieces) and k steps per block
   (ignored in core). feasible = 0 when the geometry is impossible (d < 1,
   d > n, a chunk shallower than h * min(k, T) with d > 1) or the device
   memory exceeds m->dev_mem; the numbers are still filled where the
   geometry allows. Returns out->feasible. */
int hyb_stencil_predict( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m,
                         int32_t scheme, int32_t d, int32_t k, hyb_stencil_pred_t* out );

/* Seconds of the CPU path (every step over the whole domain, then the
   copies that put the levels in place). */
double hyb_stencil_predict_cpu( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m );

/* The fastest feasible plan: over the given scheme (0: every scheme; only
   the out-of-core ones when d or k is given, in core taking d as its
   pieces only when asked for by name), the given d (0: searched) and k
   (0: searched). The search covers every d and
   k up to 64 and a geometric grid (8 % steps) beyond, then every value
   near the best. Writes the plan to *best and one line of why (the plan,
   its time, the runner-up of each other scheme or why it was out) to
   why[0 .. whylen). Returns 1, or 0 when nothing is feasible (*best then
   holds the closest infeasible prediction, why says what failed). */
int hyb_stencil_choose( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m, int32_t scheme,
                        int32_t d, int32_t k, hyb_stencil_pred_t* best, char* why, size_t whylen );

/* Short scheme names ("in-core", "copy", "direct", "shared"). */
const char* hyb_stencil_scheme_name( int32_t scheme );

#endif
