/* SPDX-License-Identifier: BSD-3-Clause */
/* Tridiagonal (?gtsv_) policy: SPIKE eligibility and window (seed 002 eq. 8), device row
   shares and streaming chunk sizes, and the persisted per-device throughput profile. */
#ifndef HYB_POLICY_GTSV_H
#define HYB_POLICY_GTSV_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"
#include "policies/hyb_learn.h"
#include "kernels/pipeline/hyb_gtsv_hetero.h" /* the engine's limits: HYB_GTSV_WINDOW_MAX, HYB_GTSV_DEV_MAX */

/* Systems with fewer rows go to LAPACK without a check: below a few thousand rows what the
   check and the SPIKE gain over dgtsv_ is a few microseconds (docs/gtsv.md, "Built-in
   rates"), which the start of a parallel region on a 16-core host (5-10 us) can eat.
   tools/bench/run_gtsv_bench.sh measures the crossover on a GPU host. */
#define HYB_GTSV_SPIKE_MIN_N ( (int64_t)8192 )

/* The largest window the device kernels accept (hyb_gtsv_cuda_max_window()); a system that
   needs a wider one (dom below about 1.0094) is solved on the CPU alone. */
#define HYB_GTSV_DEV_WINDOW_MAX 4095

/* Rows per second of one core's CPU SPIKE sweep in cache, when memory is not the limit
   (one core's measured sweep, docs/gtsv.md, "Built-in rates"; the Xeon cores of the GPU
   hosts are assumed similar). Only the split model's default. */
#define HYB_GTSV_CORE_RATE 1.8e8

/* A configuration with devices must be predicted this much faster than the CPU alone:
   pinned buffers, threads and a device context cost more than the model counts. */
#define HYB_GTSV_DEV_MARGIN 1.1

/* ---------------------------------------------------------------------------------------
   Eq. 8 of the seed, |x_trunc - x| ~ dom^-m: the smallest m >= 1 with dom^-m <= u/4, u the
   unit roundoff of prec (2^-53 double, 2^-24 single; complex as its real type), so the
   truncation stays below LAPACK's own rounding error. dom is the dominance factor,
   max(dom_row, dom_col) from hyb_?gtsv_check. Returns 0 (not eligible) when dom is NaN or
   <= 1 or the window would exceed HYB_GTSV_WINDOW_MAX; 1 for dom = +inf. Pure, thread-safe.
   Examples (double): dom 10 -> 17, 2 -> 55, 1.05 -> 782.
   --------------------------------------------------------------------------------------- */
int64_t hyb_policy_gtsv_window( double dom, hyb_prec_t prec );

/* What dispatch does with a valid ?gtsv_ call, from the check's facts. */
typedef enum
{
	HYB_GTSV_PLAN_LAPACK = 0,  /* forward to the real library */
	HYB_GTSV_PLAN_SPIKE,       /* SPIKE for X, LAPACK's factors written into DL and D */
	HYB_GTSV_PLAN_SPIKE_X_ONLY /* SPIKE for X; LAPACK would swap rows, so its factors (and
	                              DL, D, DU) differ from what hyblas leaves: see below */
} hyb_gtsv_plan_t;

/* ---------------------------------------------------------------------------------------
   Decide from hyb_?gtsv_check's output (passed as scalars so that policies need no kernel
   header): non-finite entries, no strict dominance, a window over the maximum, an exact
   zero pivot (INFO > 0) or an undetermined pivot/info -> LAPACK. A row swap in LAPACK's
   elimination (pivot > 0, only possible when the matrix is row- but not column-dominant) ->
   LAPACK when strict_factors, else SPIKE_X_ONLY (X and INFO = 0 are LAPACK's to rounding;
   DL, D, DU keep hyblas's no-swap factors instead of LAPACK's pivoted ones). Otherwise
   SPIKE. *m receives the window for SPIKE plans, 0 for LAPACK. Pure, thread-safe.
   --------------------------------------------------------------------------------------- */
hyb_gtsv_plan_t hyb_policy_gtsv_choose( double dom_row, double dom_col, int64_t pivot, int64_t info,
                                        int nonfinite, hyb_prec_t prec, int strict_factors,
                                        int64_t* m );

/* ---------------------------------------------------------------------------------------
   Rows of an n-row system per device, proportional to each device's profiled throughput
   rate[k] (rows per second including its transfers, as the seed measures it):
     ndev      1 .. HYB_GTSV_DEV_MAX devices, in the order their row ranges follow each other
     rate      ndev rates; if any is unknown (<= 0, NaN or Inf) every device gets an equal
               share, as the seed does until each device has been profiled
     align     shares are multiples of align (>= 1) except the remainder, which goes to the
               fastest device
     min_rows  a device whose share would fall below this gets none (its rows go to the
               others; it is not worth its fixed costs); at least one device keeps rows
     rows      out: ndev counts summing to n
   Returns the predicted seconds, max over devices of rows[k] / rate[k] (0 when the rates
   are unknown), or -1 for invalid arguments (rows untouched). Pure, thread-safe.
   --------------------------------------------------------------------------------------- */
double hyb_policy_gtsv_shares( int64_t n, int ndev, const double* rate, int64_t align,
                               int64_t min_rows, int64_t* rows );

/* ---------------------------------------------------------------------------------------
   The heterogeneous split (seed 002 on a host-resident system): which configuration solves
   a SPIKE-eligible call fastest, CPU alone, the devices alone, or both at once, and each
   participant's rows. The participants' rows follow each other: device 0, device 1, ...,
   then the CPU's rows last.

   Rates are rows per second *for one right-hand side*; for nrhs columns a rate is divided
   by hyb_policy_gtsv_rhs_weight(nrhs) (the ratio of the bytes a row moves, the same for the
   CPU SPIKE and the device path to within a few percent). Profiled rates (measured by
   dispatch after each call and persisted) replace the model's estimates where known:
     cpu_alone          CPU SPIKE (with factor outputs) using every host thread
     dev_alone[k]       device k on a host-resident system while only devices run (host
                        copies into pinned buffers, DMA both ways, kernel, LAPACK's factors
                        of its rows written by its host worker)
     split_cpu,         the CPU share and device k while both run: each measured under the
     split_dev[k]       other's memory traffic, so the shares they give balance the finish
                        times (the seed's refinement); unknown -> the model below
   Model (unknown rates): host memory traffic is the shared resource.
     CPU SPIKE:    (5 + 2 nrhs) elements a row (reads dl, d, du, B; writes X, D, DL)
     device path:  (14 + 6 nrhs) elements a row of host traffic (copy into pinned: read +
                   write, DMA read; DMA write, copy out: read + write; factors: read dl, d,
                   du, write D, DL), (3 + nrhs) elements over PCIe up and nrhs down
     rates:        CPU = min(host_bw / bytes, threads * core_rate); device k = min(h2d / up,
                   d2h / down) capped by the host traffic; a split maximises cpu + devices
                   subject to the CPU's and the devices' traffic summing to host_bw, the CPU
                   going first (fewer bytes a row)
   So when the CPU SPIKE alone already saturates host memory, no split beats it (see
   docs/design-notes-gtsv.md); the profiled rates then keep auto on the CPU.
   Registered pages (reg): a device row costs the host (3 + 2 nrhs) elements (X and d' out of
   the pinned buffer, DL zeroed), and the device is capped by its registering thread, which
   also unregisters behind the uploads: 1 / ((reg_spb + unreg_spb) (3 + nrhs) elem); it starts
   `head` seconds before the CPU (the check), so its rows are rate * (T + head).
   --------------------------------------------------------------------------------------- */
typedef struct
{
	int64_t n, nrhs;
	size_t  elem;         /* 4 or 8 */
	int     ndev;         /* usable devices, 0 .. HYB_GTSV_DEV_MAX */
	int     threads;      /* host threads in all, >= 1 */
	int     dev_threads;  /* host threads of each device's worker in a split, >= 1 */
	int     allow_cpu;    /* the CPU alone is allowed (mode auto or cpu) */
	int     need_dev;     /* a device must take part (mode gpu) */
	double  cpu_ratio;    /* fixed CPU share of the rows in [0, 1), or < 0: choose */
	int64_t min_dev_rows; /* a device gets no rows below this (its fixed costs) */
	double  host_bw;      /* bytes/s of host memory traffic, all cores together */
	double  core_rate;    /* rows/s of one core's SPIKE sweep when not bandwidth bound */
	double  h2d, d2h;     /* pinned DMA bytes/s of one device, each way */
	double  dev_latency;  /* fixed seconds of a device call (setup, first chunk) */
	double  margin;       /* a configuration with devices must beat the CPU by this factor */
	double  cpu_alone;
	double  dev_alone[HYB_GTSV_DEV_MAX];
	double  split_cpu;
	double  split_dev[HYB_GTSV_DEV_MAX];
	/* Registered pages (one device): the device reads the application's arrays, registered
	   by a thread of their own ahead of the uploads from before the check on, and writes X
	   and the pivots d' back through its pinned buffer. Its profiled rates (dev_alone[0],
	   split_*) are then those measured that way, from the start of the registration. */
	int    reg;
	double reg_spb, unreg_spb; /* seconds a byte to register and to unregister pages */
	double head;               /* seconds the registration runs before the CPU starts (the check) */
} hyb_gtsv_split_in_t;

typedef enum
{
	HYB_GTSV_CONF_CPU = 0, /* CPU alone */
	HYB_GTSV_CONF_DEV,     /* devices alone */
	HYB_GTSV_CONF_SPLIT    /* devices and CPU at once */
} hyb_gtsv_conf_t;

typedef struct
{
	hyb_gtsv_conf_t conf;
	int64_t         cpu_rows;
	int64_t         dev_rows[HYB_GTSV_DEV_MAX]; /* 0 for devices without rows */
	double          t_cpu, t_dev, t_split;      /* predicted seconds; 0 = not possible */
	double          t_plan;                     /* the chosen one's */
	const char*     why;                        /* static text */
} hyb_gtsv_split_t;

/* Bytes of one row relative to one right-hand side: (3 + 2 nrhs) / 5. */
double hyb_policy_gtsv_rhs_weight( int64_t nrhs );

/* Choose the configuration and the rows. Rules: need_dev excludes the CPU alone;
   cpu_ratio >= 0 fixes the CPU's rows (0: devices alone) and needs a device; otherwise
   the fastest prediction wins, a configuration with devices only when it beats the CPU
   alone by `margin` (allow_cpu). Device rows are multiples of 1024 but the last; a
   device whose share would fall under min_dev_rows gets none (a split without devices
   is the CPU alone). ndev == 0 or n == 0 gives the CPU alone. Pure, thread-safe. */
hyb_gtsv_split_t hyb_policy_gtsv_split( const hyb_gtsv_split_in_t* in );

/* ---------------------------------------------------------------------------------------
   Rows per chunk when a device's share of `rows` is streamed through pinned double buffers:
   one chunk's upload, (3 + nrhs) * elem bytes a row, must fit buf_bytes (one of the two
   pinned buffers, and the device buffer it lands in); there are at least min_chunks chunks
   (so that upload, solve and download of consecutive chunks overlap) unless that would cut
   chunks below the floor: max(16 m, HYB_GTSV_CHUNK_MIN_ROWS) rows (seams cost 2m rows each;
   a DMA has a fixed cost). Rounded down to a multiple of 1024 unless it is the whole share.
   Returns a value in [1, rows] for rows >= 1, 0 for rows <= 0 or invalid arguments. Pure.
   --------------------------------------------------------------------------------------- */
#define HYB_GTSV_CHUNK_MIN_ROWS ( (int64_t)1 << 16 )

int64_t hyb_policy_gtsv_chunk_rows( int64_t rows, int64_t nrhs, size_t elem, size_t buf_bytes,
                                    int64_t m, int min_chunks );

/* ---------------------------------------------------------------------------------------
   Where the throughput profile lives in the learning store (policies/hyb_learn.h): rates in
   rows per second for one right-hand side, folded by the store's rule, persisted in its
   file. The operation is "gtsv"; the shape class packs the precision character (bits
   0-7), the kind (bits 8-15) and then:
     HYB_GTSV_LEARN_ALONE, SPLIT: whether the device reads registered pages (bit 16) and the
       device k (bits 24-31); the CPU's rate (alone, or its share of a split) is the CPU
       slot of k = 0, device k's is the GPU slot of k;
     HYB_GTSV_LEARN_SIDE: the size class (bits 16-23) and the OpenMP threads (bits 24-55);
       LAPACK's rate is the CPU slot, the CPU SPIKE's (its check included) the OTHER slot.
   The CPU alone has one rate whatever the device would have read (registered pages are a
   device matter).
   --------------------------------------------------------------------------------------- */
typedef enum
{
	HYB_GTSV_LEARN_ALONE = 1, /* one side alone: the CPU, or the devices without it */
	HYB_GTSV_LEARN_SPLIT = 2, /* each side's rate while both run */
	HYB_GTSV_LEARN_SIDE  = 3, /* LAPACK against the CPU SPIKE, the CPU alone */
} hyb_gtsv_learn_kind_t;

/* The operation ("gtsv"), registered and declared persistent on first use. Thread-safe. */
hyb_op_id_t hyb_policy_gtsv_learn_op( void );

/* The key of kind ALONE or SPLIT for precision character prec, registered pages reg and
   device k (0 for the CPU's rate). Pure but for the operation's registration. */
hyb_learn_key_t hyb_policy_gtsv_learn_key( char prec, hyb_gtsv_learn_kind_t kind, int reg, int k );

/* The key of the side choice's rates (policies/hyb_policy_gtsv_side.h) at `threads` OpenMP
   threads and size class cls. */
hyb_learn_key_t hyb_policy_gtsv_learn_side_key( char prec, int threads, int cls );

/* The key and slot of a rate by its name, as logs and tests say it: "cpu" (CPU alone),
   "gpu<k>" (device k alone), "split.cpu" and "split.gpu<k>" (while both run), with the
   device reading registered pages "rgpu<k>", "rsplit.cpu" and "rsplit.gpu<k>"; the side
   choice's "lapack.t<threads>.n<class>" and "spike.t<threads>.n<class>"
   (hyb_policy_gtsv_side_key). 1 when name is one of these and prec one of s, d, c, z;
   else 0. */
int hyb_policy_gtsv_learn_name( const char* name, char prec, hyb_learn_key_t* key,
                                hyb_learn_slot_t* slot );

#endif
