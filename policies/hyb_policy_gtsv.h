/* SPDX-License-Identifier: BSD-3-Clause */
/* Tridiagonal (?gtsv_) policy: SPIKE eligibility and window (seed 002 eq. 8), device row
   shares and streaming chunk sizes, and the persisted per-device throughput profile. */
#ifndef HYB_POLICY_GTSV_H
#define HYB_POLICY_GTSV_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"

/* Largest truncation window accepted: dom >= about 1.0094 in double, 1.0045 in float.
   Weaker dominance goes to LAPACK (the seams would cost more than the partitions). */
#define HYB_GTSV_WINDOW_MAX 4096

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
hyb_gtsv_plan_t hyb_policy_gtsv_choose( double dom_row, double dom_col, int64_t pivot,
                                        int64_t info, int nonfinite, hyb_prec_t prec,
                                        int strict_factors, int64_t* m );

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
#define HYB_GTSV_DEV_MAX 8

double hyb_policy_gtsv_shares( int64_t n, int ndev, const double* rate, int64_t align,
                               int64_t min_rows, int64_t* rows );

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
   The persisted throughput profile: one rate (rows/s) per (device name, precision),
   exponentially smoothed over runs, in a small text file whose path the caller passes:
     # comment
     gtsv <device> <s|d|c|z> <rows_per_second> <samples>
   device: 1..31 characters of [A-Za-z0-9_.:-] (e.g. "cpu", "gpu0", "gpu0-resident").
   Reading is tolerant: a missing file gives an empty profile, a bad line is skipped (the
   rest is kept), later duplicates win. Writing replaces the file atomically (temporary file
   in the same directory, then rename). None of these functions are thread-safe on the same
   profile object; the file functions do I/O and are not pure.
   --------------------------------------------------------------------------------------- */
#define HYB_GTSV_PROFILE_MAX 16

typedef struct
{
	char    dev[32];
	char    prec;    /* 's', 'd', 'c' or 'z' */
	double  rate;    /* rows per second, > 0 */
	int64_t samples; /* runs folded in, >= 1 */
} hyb_gtsv_rate_t;

typedef struct
{
	int             count;
	hyb_gtsv_rate_t e[HYB_GTSV_PROFILE_MAX];
} hyb_gtsv_profile_t;

/* Empty profile. */
void hyb_policy_gtsv_profile_init( hyb_gtsv_profile_t* p );

/* Read path into p (p is always left valid). HYB_OK; HYB_E_IO when the file is missing or
   unreadable (p empty); HYB_E_PARSE when some lines were rejected (p holds the good ones);
   HYB_E_INVALID for NULL arguments. */
hyb_status_t hyb_policy_gtsv_profile_read( const char* path, hyb_gtsv_profile_t* p );

/* Write p to path atomically. HYB_OK, HYB_E_IO (old file intact), HYB_E_INVALID. */
hyb_status_t hyb_policy_gtsv_profile_write( const char* path, const hyb_gtsv_profile_t* p );

/* Rate of (dev, prec), 0 when unknown. */
double hyb_policy_gtsv_profile_rate( const hyb_gtsv_profile_t* p, const char* dev, char prec );

/* Fold a measured rate into (dev, prec): the first sample is taken as is, later ones as
   rate = (1 - alpha) * rate + alpha * sample, 0 < alpha <= 1. HYB_E_INVALID for a bad name,
   precision, non-finite or non-positive sample or alpha; HYB_E_NO_MEMORY when the table is
   full; else HYB_OK. */
hyb_status_t hyb_policy_gtsv_profile_update( hyb_gtsv_profile_t* p, const char* dev, char prec,
                                             double sample, double alpha );

#endif
