/* SPDX-License-Identifier: BSD-3-Clause */
/* Running one sparse product on a device: the device matrix built and uploaded block by
   block (first call) or already resident, x staged up in chunks, each row block's kernel as
   soon as its columns of x are up, y down block by block (into registered pages with a
   proof, or through staging), the CPU side of a split (the seed's COO remainder, the rows of
   a row split) on a worker thread at the same time, then the merge. */
#ifndef HYB_SPMV_PIPE_H
#define HYB_SPMV_PIPE_H

#include "hyb_status.h"
#include "kernels/cpu/hyb_spmv_format.h"
#include "kernels/pipeline/hyb_spmv_build.h"

typedef struct
{
	hyb_spmv_dmat_t* dm;            /* the device matrix (its blocks are built when upload) */
	void*            dmem;          /* device memory of dm->bytes holding it, or NULL: the
	                                   call's workspace holds it for this call only */
	int                    upload;  /* 1: build the blocks from `view` and upload them */
	const hyb_spmv_view_t* view;    /* the source grouped by rows (upload only) */
	const void*            x;       /* length dm->m */
	void*                  y;       /* length dm->m; rows [0, dm->rows) come from the device */
	const int*             src_col; /* row split: the source arrays dm->cpu_ptr points into */
	const void*            src_val;
	int                    yreg; /* y into registered pages: 0 never, 1 from its second
	                                call, 2 at once */
	int xreg;                    /* x from registered pages, proven by its fingerprints: 0
	                                never, 1 from its second call, 2 at once */
	int    copy_threads;         /* host threads of the staging copies (>= 1) */
	int    dev;                  /* selected device index */
	int    timing;               /* time the device span with events */
	size_t chunk_bytes;          /* x goes up in chunks of about this size (0: 2 MiB) */
	int    beside;               /* threads the caller runs beside the product (their cores
	                                are not the CPU side's) */
} hyb_spmv_pipe_in_t;

typedef struct
{
	hyb_status_t error;   /* first device error: y is then incomplete (recompute it) */
	double       seconds; /* the whole call */
	double       build_s; /* host: building block images (first call) */
	double       prep_s;  /* host: from the call's start to the device span's (buffers,
	                         events, the copy team, y's tokens) */
	double arm_s;         /* host: writing y's tokens (part of prep_s) */
	double proof_s;       /* host: reading y's tokens back after the downloads */
	double xcopy_s;       /* host: staging x */
	double xsum_s;        /* host: x's fingerprints, when x went up from registered pages */
	double issue_s;       /* host: issuing x's chunks and the blocks (from the span's start) */
	double issue_x_s;     /* host: issuing x's chunk copies alone (part of issue_s) */
	double issue_max_s;   /* host: the longest single issuing step (a chunk or a block): a
	                         call that blocks shows here */
	double tail_s;        /* host: from y's arrival (proven or copied) to the return */
	double cpu_s;         /* worker: the CPU side */
	double cpu_end_s;     /* when the CPU side finished, from the start of the device span
	                         (the span's event record; 0 without a CPU side) */
	double wait_s;        /* host: waiting for the device */
	double ycopy_s;       /* host: copying y out of staging, and the merge */
	double merge_s;       /* host: the remainder's sums merged into y (part of ycopy_s) */
	double dev_s;         /* device: first operation to last download (timing only) */
	double bytes_h2d, bytes_d2h;
	int    nblk;
	int    y_registered;   /* y came down into registered pages and the proof held */
	int    y_proof_failed; /* the proof failed: y was staged again, registration dropped */
	int    x_registered;   /* x went up from registered pages and its fingerprints matched */
	int    x_proof_failed; /* they did not: x went up again staged and the blocks ran again;
	                          x's registration was dropped and its range is staged for a
	                          while */
} hyb_spmv_pipe_out_t;

/* Run the product. On HYB_OK y holds op(A) x exactly as described by dm (device rows,
   remainder merged, CPU rows of a row split). On an error nothing is in flight any more
   (every stream of the context was drained), the worker is idle, and y must be recomputed
   by the caller; the error is also in out->error. Failure of any device operation,
   synchronous or reported later, ends here. Thread-safe: each call takes its own context;
   the worker thread and the copy team are shared and, when busy, replaced by the caller. */
hyb_status_t hyb_spmv_pipe_run( const hyb_spmv_pipe_in_t* in, hyb_spmv_pipe_out_t* out );

/* Tests: the next n calls with x registered upload x from zeroed memory instead of x's
   pages, as a stale registration would (the program replaced x's pages): their fingerprints
   then differ from the host's, and the call must stage x and run the blocks again. */
void hyb_spmv_pipe_xstale_next_for_test( int n );

/* Destroy the process-wide copy team (tests, between calls; a call still using it is
   waited for). A child after fork() forgets the worker and the team by itself. */
void hyb_spmv_pipe_reset( void );

#endif
