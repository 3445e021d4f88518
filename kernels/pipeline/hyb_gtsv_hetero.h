/* SPDX-License-Identifier: BSD-3-Clause */
/* The heterogeneous tridiagonal solver (seed 002): one host-resident diagonally dominant
   system solved by the CPU SPIKE and by devices at once, each on its own rows, the
   devices' rows streamed in chunks through pinned buffers, every seam stitched by a
   truncated SPIKE record computed before anything is written. */
#ifndef HYB_GTSV_HETERO_H
#define HYB_GTSV_HETERO_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"
#include "kernels/pipeline/hyb_gtsv_pin.h"

/* Largest truncation window accepted: dom >= about 1.0094 in double, 1.0045 in float.
   Weaker dominance goes to LAPACK (the seams would cost more than the partitions). */
#define HYB_GTSV_WINDOW_MAX 4096

/* Devices one call can spread its rows over. */
#define HYB_GTSV_DEV_MAX 8

/* Rows per streamed chunk of a device's share: `rows` rows of `nrhs` right-hand sides of
   `elem`-byte elements, buffers of `buf_bytes`, window m, at least `min_chunks` chunks
   where the rows allow. The engine does not choose chunk sizes: the caller's policy does
   (policies/hyb_policy_gtsv.h, hyb_policy_gtsv_chunk_rows). */
typedef int64_t ( *hyb_gtsv_chunk_fn )( int64_t rows, int64_t nrhs, size_t elem, size_t buf_bytes,
                                        int64_t m, int min_chunks );

/* Buffers per device: a chunk is copied into one while the device works on the others
   (triple buffering: one being filled, one uploading or solving, one downloading). */
#define HYB_GTSV_NBUF 3

/* Default bytes of one buffer (pinned host and device alike): 64 MiB holds 2^21 rows of a
   double system with one right-hand side, about 1.2 ms of PCIe at 55 GB/s, long enough to
   hide a chunk's fixed costs (a few launches and events, ~50 us), short enough that the
   pipeline fills and drains quickly. */
#define HYB_GTSV_SLOT_BYTES ( (size_t)64 << 20 )

/* ---------------------------------------------------------------------------------------
   One call. Rows are owned in this order: device 0 has rows [0, dev_rows[0]), device 1
   the next dev_rows[1], ..., the CPU the rest (the last n - sum(dev_rows) rows).
     prec      HYB_PREC_D or HYB_PREC_S
     n, nrhs   n >= 1, nrhs >= 1; ldb >= n
     dl, d, du LAPACK's arrays (n-1, n, n-1); with HYB_GTSV_FACTORS in flags dl and d are
               overwritten with LAPACK's no-swap factors (hyb_gtsv_cpu.h), else only read
     b         n x nrhs, overwritten with X
     m         truncation window (hyb_policy_gtsv_window), 1 <= m <= HYB_GTSV_WINDOW_MAX
     ndev      devices taking part: selected devices 0 .. ndev-1 (hyb_devices_ensure must
               have succeeded when ndev > 0)
     cpu_threads  OpenMP threads of the CPU share, of the seam records and of any CPU
               completion after a device failure (0: the OpenMP default)
     dev_threads  host threads of each device's worker (host copies, factor outputs), >= 1
     chunk_rows   rows per streamed chunk (0: chunk_fn's choice, or as many rows as a buffer
               holds when chunk_fn is NULL)
     chunk_fn     the caller's chunk policy (hyb_gtsv_chunk_fn), used when chunk_rows is 0
     slot_bytes   bytes of one buffer (0: HYB_GTSV_SLOT_BYTES, capped by the device budget)
   Preconditions (the caller's check): max(dom_row, dom_col) > 1 and, with
   HYB_GTSV_FACTORS, LAPACK would not swap rows (hyb_?gtsv_check: pivot == 0, info == 0).
   --------------------------------------------------------------------------------------- */
typedef struct
{
	hyb_prec_t        prec;
	int64_t           n, nrhs, ldb;
	void*             dl;
	void*             d;
	const void*       du;
	void*             b;
	int64_t           m;
	unsigned          flags;
	int               ndev;
	int64_t           dev_rows[HYB_GTSV_DEV_MAX];
	int               cpu_threads;
	int               dev_threads;
	int64_t           chunk_rows;
	hyb_gtsv_chunk_fn chunk_fn;
	size_t            slot_bytes;
	/* Registered pages (one device only): the caller registers rows [0, dev_rows[0]) of
	   dl, d, du and B with hyb_gtsv_pin_start (it may start before the check; the engine
	   waits for each chunk's rows, uploads straight from the arrays, hands the uploaded rows
	   back for unregistering, and finishes nothing: the caller calls hyb_gtsv_pin_finish).
	   The device then also computes the chunk's pivots d' (D) and downloads them with X
	   into its pinned buffer; the worker copies both out and zeroes DL (no staging copy in,
	   no factor sweep on the host). NULL: staged through pinned buffers. */
	hyb_gtsv_pin_t* pin;
} hyb_gtsv_hetero_t;

/* What happened (times in seconds, wall clock). */
typedef struct
{
	hyb_status_t error;        /* first device failure, HYB_OK if none */
	double       seam_seconds; /* the seam records (before any solve) */
	double       cpu_seconds;  /* the CPU share */
	int64_t      cpu_rows;
	double       dev_seconds[HYB_GTSV_DEV_MAX]; /* each device's worker, start to last chunk done */
	int64_t      dev_done[HYB_GTSV_DEV_MAX]; /* rows each device finished (a prefix of its rows) */
	int          dev_chunks[HYB_GTSV_DEV_MAX]; /* chunks it was given */
	int64_t      fallback_rows;                /* device rows the CPU solved after a failure */
	double       fallback_seconds;
	double       bytes_h2d, bytes_d2h;
	double       stage_seconds;    /* host copies into pinned buffers (all devices) */
	double       out_seconds;      /* host copies of X out of pinned buffers */
	double       factor_seconds;   /* factor outputs of the device rows */
	double       wait_seconds;     /* device workers waiting for their device */
	double       pin_wait_seconds; /* the device worker waiting for registered rows */
	double       seconds;          /* the whole call */
} hyb_gtsv_hetero_report_t;

/* ---------------------------------------------------------------------------------------
   Solve. Order of events: (0) the seam record of every boundary (between devices, between
   a device's chunks, before the CPU's rows) from the unmodified arrays, in parallel;
   (1) one worker thread per device streams its chunks: copy chunk c = [c0, c1) into a free
   pinned buffer with its couplings to the outside moved to the right-hand side
   (b[c0] -= dl[c0-1] x[c0-1], b[c1-1] -= du[c1-1] x[c1], from the records), upload, solve
   (hyb_dev_gtsv_spike), download into the same buffer; when the buffer is needed again (or
   at the end), wait for it, write the chunk's factor outputs (hyb_?gtsv_factors_range,
   reading only the chunk's rows) and copy X into B. Nothing of a chunk reaches the
   application's arrays before its download is complete and checked. (2) The calling
   thread meanwhile solves the CPU's rows (hyb_?gtsv_cpu_spike_range). (3) After a device
   failure (any error, synchronous or reported later), its unfinished rows (a suffix of its
   rows whose arrays are untouched) are solved on the CPU from the records.
   Every element of B, D and DL is written exactly once.
   Returns HYB_OK when the system is solved (possibly with device failures, see
   report->error); HYB_E_INVALID or HYB_E_NO_MEMORY before anything is written (the caller
   may then use LAPACK). Thread-safe: concurrent calls on different arrays are independent
   (each worker holds its own device context).
   --------------------------------------------------------------------------------------- */
hyb_status_t hyb_gtsv_hetero_run( const hyb_gtsv_hetero_t* p, hyb_gtsv_hetero_report_t* r );

/* ---------------------------------------------------------------------------------------
   Registered pages for a run with one device (hyb_gtsv_hetero_t.pin): start registering
   rows [0, p->dev_rows[0]) of dl, d, du and every column of B on device 0 (a context of
   its own, held until the finish), before the check if the caller likes: registering only
   reads. Finish once hyb_gtsv_hetero_run has returned (or instead of running it):
   everything still registered is unregistered. HYB_OK, HYB_E_INVALID (not one device,
   more than HYB_GTSV_PIN_ARRAYS_MAX - 3 right-hand sides), or the device's error.
   --------------------------------------------------------------------------------------- */
typedef struct
{
	hyb_gtsv_pin_t*   pin;
	struct hyb_dev_s* dev;
} hyb_gtsv_hetero_reg_t;

hyb_status_t hyb_gtsv_hetero_reg_start( const hyb_gtsv_hetero_t* p, hyb_gtsv_hetero_reg_t* reg );
void         hyb_gtsv_hetero_reg_finish( hyb_gtsv_hetero_reg_t* reg, hyb_gtsv_pin_report_t* rep );

/* Rows per chunk and buffer bytes the run will use for `rows` rows on device `dev`
   (0 when the device's budget cannot hold HYB_GTSV_NBUF buffers of 1024 rows). */
int64_t hyb_gtsv_hetero_chunk( const hyb_gtsv_hetero_t* p, int dev, int64_t rows,
                               size_t* slot_bytes );

#endif
