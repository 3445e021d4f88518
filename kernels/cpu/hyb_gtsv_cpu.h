/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU tridiagonal solvers for ?gtsv_: serial Thomas, parallel truncated SPIKE, and the O(n)
   checks and LAPACK factor outputs that decide and complete the SPIKE path. */
#ifndef HYB_GTSV_CPU_H
#define HYB_GTSV_CPU_H

#include <stdint.h>

#include "hyb_status.h"

/* ---------------------------------------------------------------------------------------
   Conventions shared by every function below (LAPACK's, 0-based here):
     row i of A:  dl[i-1]*x[i-1] + d[i]*x[i] + du[i]*x[i+1] = b[i]
     dl, du  length n-1 (may be NULL when n <= 1), d length n, B column-major n x nrhs
             with leading dimension ldb >= max(1, n).
   "LAPACK's factors" means what dgtsv_/sgtsv_ leave in DL, D, DU when its partial-pivoting
   test |D(i)| >= |DL(i)| (on the updated D) never swaps rows:
     D(i)   the diagonal of U: d'[0] = d[0], d'[i] = d[i] - (dl[i-1]/d'[i-1])*du[i-1]
     DL(i)  zero for 0 <= i <= n-3; DL(n-2) (LAPACK's DL(N-1)) keeps its input value
     DU     unchanged
   Thread-safety: every function is reentrant (no global state); the OpenMP ones open their
   own parallel region (nthreads <= 0: the OpenMP default; nested calls run serially).
   Sizes are 64-bit; the float versions compute in float like sgtsv_.
   --------------------------------------------------------------------------------------- */

/* Flag for the SPIKE solvers: also overwrite D and DL with LAPACK's factors (above). Without
   it dl and d are only read. */
#define HYB_GTSV_FACTORS 1u

/* Largest number of interleaved partitions one thread sweeps at once (independent
   recurrences hide the division latency; see hyb_gtsv_cpu.c). */
#define HYB_GTSV_LANES 8

/* ---------------------------------------------------------------------------------------
   hyb_?gtsv_thomas: LAPACK ?gtsv without row interchanges, serially: the same operations in
   the same order as dgtsv.f's no-swap branch, so where dgtsv_ never swaps the outputs (X in
   B, the factors in DL and D, INFO) are LAPACK's (bitwise unless the compilers contract
   differently into FMAs). Where LAPACK would swap, this routine does not (it is the Thomas
   algorithm) and the results differ from LAPACK's.
     n >= 0, nrhs >= 0, ldb >= max(1, n); dl, d, b overwritten as above.
   *info = 0 on success; i > 0 when U(i,i) (1-based) is exactly zero: the routine stops
   there leaving DL, D, B in LAPACK's partial state. Returns HYB_E_INVALID (nothing touched)
   for bad arguments or NULL pointers, else HYB_OK.
   --------------------------------------------------------------------------------------- */
hyb_status_t hyb_dgtsv_thomas( int64_t n, int64_t nrhs, double* dl, double* d, const double* du,
                               double* b, int64_t ldb, int64_t* info );
hyb_status_t hyb_sgtsv_thomas( int64_t n, int64_t nrhs, float* dl, float* d, const float* du,
                               float* b, int64_t ldb, int64_t* info );

/* ---------------------------------------------------------------------------------------
   hyb_?gtsv_check: the O(n) facts that decide whether truncated SPIKE may stand in for
   LAPACK on this matrix. One parallel pass over dl, d, du (24 bytes a row in double).
   hyb_?gtsv_check_rhs: the same, and in the same pass B's nrhs columns (ldb >= max(1, n))
   are read for Inf and NaN: LAPACK's elimination carries a non-finite b[i] into every x,
   which truncated SPIKE would confine to a window around row i, so such a B goes to
   LAPACK too (8 more bytes a row per right-hand side).
     dom_row   min over rows    |d[i]| / (|dl[i-1]| + |du[i]|)
     dom_col   min over columns |d[j]| / (|du[j-1]| + |dl[j]|)
               (+inf when every off-diagonal is zero; a zero diagonal counts 0, also
               with zero off-diagonals: an all-zero row or column is singular; both
               are 0 when an entry of the matrix is Inf or NaN)
     nonfinite 1 when an entry of dl, d, du (or of B, _rhs) is Inf or NaN
     pivot     0: LAPACK's pivoting test never swaps rows; k > 0: it swaps (or may, within a
               relative margin of 8 ulps on the test) first at its step k (1-based, the
               exchange of rows k and k+1); -1: not determined
     info      0: no exact zero pivot before the first swap; k > 0: LAPACK returns INFO = k
               (U(k,k) = 0 with no swap before it); -1: not determined
               (pivot and info are -1 when the matrix has a non-finite entry; a
               non-finite B leaves them as the matrix gives them)
   How pivot/info are found: a column-dominant matrix keeps |d'[i]| > |du[i-1]| >=
   |fl(dl[i-1]/d'[i-1]) du[i-1]| (induction: each step's |fact| <= 1 because the previous
   test passed), so the test always passes and no pivot is zero, also in floating point.
   The pass therefore runs LAPACK's recurrence d' only on cache blocks that contain a column
   which is not strictly dominant (if dom_col > 1: never; pivot = info = 0 by this proof).
   Where it runs, each partition (or block after skipped ones) restarts it `warm` rows
   early (truncated): for a strictly dominant matrix the restart error decays like
   dom^(-2k) after k rows (1/d'[i] is the last diagonal entry of the inverse of the leading
   block, and the restart changes it by a product of two inverse entries k rows off the
   diagonal, each ~dom^-k), so warm = the eq. 8 window gives LAPACK's d' to rounding
   (measured: bit-identical to dgtsv_'s D on 10^6-row tests at dom 1.05 .. 3). If the matrix
   is not strictly dominant (max(dom_row, dom_col) <= 1) only a recurrence that started at
   row 0 and was never restarted is trusted: an event found there is reported, otherwise -1.
   Cost: 24 bytes a row (double) read once; about 2.5 ns a row per core (2.45 GHz EPYC,
   in cache) without the recurrence, 4.2 ns with it.
   Returns HYB_E_INVALID for bad arguments (n < 0, warm < 0, NULL), else HYB_OK.
   --------------------------------------------------------------------------------------- */
typedef struct
{
	double  dom_row;
	double  dom_col;
	int64_t pivot;
	int64_t info;
	int     nonfinite;
} hyb_gtsv_check_t;

hyb_status_t hyb_dgtsv_check( int64_t n, const double* dl, const double* d, const double* du,
                              int64_t warm, int nthreads, hyb_gtsv_check_t* out );
hyb_status_t hyb_sgtsv_check( int64_t n, const float* dl, const float* d, const float* du,
                              int64_t warm, int nthreads, hyb_gtsv_check_t* out );
hyb_status_t hyb_dgtsv_check_rhs( int64_t n, const double* dl, const double* d, const double* du,
                                  int64_t nrhs, const double* b, int64_t ldb, int64_t warm,
                                  int nthreads, hyb_gtsv_check_t* out );
hyb_status_t hyb_sgtsv_check_rhs( int64_t n, const float* dl, const float* d, const float* du,
                                  int64_t nrhs, const float* b, int64_t ldb, int64_t warm,
                                  int nthreads, hyb_gtsv_check_t* out );

/* ---------------------------------------------------------------------------------------
   hyb_?gtsv_factors: write LAPACK's no-swap factors (D = d', DL zeroed but DL(n-2)) in
   parallel, without solving; the partitions' entering d' comes from a `warm`-row restart
   computed before anything is written (see hyb_?gtsv_check). 40 bytes a row in double.
   Precondition: hyb_?gtsv_check gave pivot == 0. *info as LAPACK's INFO: the first i
   (1-based) with d'[i-1] == 0, or 0; unlike LAPACK the routine does not stop there, so with
   info > 0 the outputs past that row are not LAPACK's. HYB_E_INVALID / HYB_E_NO_MEMORY
   before anything is written, else HYB_OK.
   --------------------------------------------------------------------------------------- */
hyb_status_t hyb_dgtsv_factors( int64_t n, double* dl, double* d, const double* du, int64_t warm,
                                int nthreads, int64_t* info );
hyb_status_t hyb_sgtsv_factors( int64_t n, float* dl, float* d, const float* du, int64_t warm,
                                int nthreads, int64_t* info );

/* The same on rows [r0, r1) only (for the rows another device solved): D[r0..r1-1] and
   DL[i-1] for the rows i of the range are written; top is the hyb_?gtsv_seam record of
   seam r0 (its d'[r0-1]; required when r0 > 0). Reads only rows [r0-1, r1) of dl, du and
   [r0, r1) of d, so disjoint ranges may run concurrently. 0 <= r0 <= r1 <= n. */
hyb_status_t hyb_dgtsv_factors_range( int64_t n, int64_t r0, int64_t r1, double* dl, double* d,
                                      const double* du, const double* top, int64_t warm,
                                      int nthreads, int64_t* info );
hyb_status_t hyb_sgtsv_factors_range( int64_t n, int64_t r0, int64_t r1, float* dl, float* d,
                                      const float* du, const float* top, int64_t warm, int nthreads,
                                      int64_t* info );

/* ---------------------------------------------------------------------------------------
   hyb_?gtsv_seam: the truncated SPIKE reduced system at the seam between rows s-1 and s
   (1 <= s <= n-1), from the window [max(0, s-m), min(n, s+m)) only: an LU forward sweep
   down to row s-1 and a UL forward sweep up to row s (each starts fresh, the truncation,
   unless it starts at row 0 or n-1 where it is exact), then the 2x2 system
     d'[s-1]*x[s-1] + du[s-1]*x[s] = y[s-1]
     dl[s-1]*x[s-1] + e[s]*x[s]     = z[s]
   Output rec, length hyb_gtsv_seam_len(nrhs) of the same type:
     rec[0]               d'[s-1], LAPACK's D(s-1) to rounding (restart error ~ dom^-2m)
     rec[1 + j]           x[s-1] of right-hand side j
     rec[1 + nrhs + j]    x[s]   of right-hand side j
   Truncation error ~ dom^-m relative to max|x| (the seed's eq. 8). Reads only; call it for
   every seam before any solver writes into the arrays. m >= 1. HYB_E_INVALID or HYB_OK.
   --------------------------------------------------------------------------------------- */
static inline int64_t hyb_gtsv_seam_len( int64_t nrhs )
{
	return 1 + 2 * nrhs;
}

hyb_status_t hyb_dgtsv_seam( int64_t n, int64_t s, int64_t nrhs, const double* dl, const double* d,
                             const double* du, const double* b, int64_t ldb, int64_t m,
                             double* rec );
hyb_status_t hyb_sgtsv_seam( int64_t n, int64_t s, int64_t nrhs, const float* dl, const float* d,
                             const float* du, const float* b, int64_t ldb, int64_t m, float* rec );

/* ---------------------------------------------------------------------------------------
   hyb_?gtsv_cpu_spike: parallel truncated SPIKE for a diagonally dominant system.
     m        truncation window (hyb_policy_gtsv_window: the smallest m with dom^-m below
              the rounding level); m >= 1
     flags    HYB_GTSV_FACTORS: also write LAPACK's factors into DL and D
   The rows are cut into P <= nthreads * HYB_GTSV_LANES partitions of at least max(4m, 64)
   rows; phase 1 solves every seam's 2x2 reduced system from its 2m-row window
   (hyb_?gtsv_seam), phase 2 gives each thread up to HYB_GTSV_LANES partitions, swept
   interleaved, each solved as one exact LU (Thomas) sweep entering with the seam values,
   cache-blocked: a block is swept forward, its bottom x comes from a UL sweep over the next
   m rows, and it is swept back while still in cache.
   Memory traffic (double, NRHS = 1): reads dl, d, du, b once and writes x; with
   HYB_GTSV_FACTORS also D and DL: 40 bytes a row solve-only, 56 with factors (plus the
   seams' 2m rows per partition, read twice). D comes out bit-identical to dgtsv_'s in the
   tests (same operations; the entering d' of a partition is LAPACK's to rounding, and the
   recurrence's contraction merges the two sequences within a few rows); X is LAPACK's to
   a few ulps.
   Precondition: hyb_?gtsv_check found max(dom_row, dom_col) > 1 (and pivot == 0, info == 0
   when HYB_GTSV_FACTORS is asked for); otherwise the results are undefined (no crash).
   Returns HYB_E_INVALID (nothing touched), HYB_E_NO_MEMORY (nothing touched), HYB_OK.
   --------------------------------------------------------------------------------------- */
hyb_status_t hyb_dgtsv_cpu_spike( int64_t n, int64_t nrhs, double* dl, double* d, const double* du,
                                  double* b, int64_t ldb, int64_t m, int nthreads, unsigned flags );
hyb_status_t hyb_sgtsv_cpu_spike( int64_t n, int64_t nrhs, float* dl, float* d, const float* du,
                                  float* b, int64_t ldb, int64_t m, int nthreads, unsigned flags );

/* ---------------------------------------------------------------------------------------
   hyb_?gtsv_cpu_spike_range: the same on rows [r0, r1) of the n-row system only, for the
   heterogeneous solver: the rest of the rows belong to other devices. The seams at r0 and
   r1 come from hyb_?gtsv_seam records computed before anyone wrote into the arrays:
     top   record of seam r0 (required when r0 > 0, else ignored)
     bot   record of seam r1 (required when r1 < n, else ignored)
   Reads rows [r0-1, r1] only (plus the records); writes B rows [r0, r1) and, with
   HYB_GTSV_FACTORS, D[r0..r1-1] and DL[i-1] for the rows i of the range, so disjoint ranges
   may be solved concurrently by different callers. 0 <= r0 <= r1 <= n.
   --------------------------------------------------------------------------------------- */
hyb_status_t hyb_dgtsv_cpu_spike_range( int64_t n, int64_t r0, int64_t r1, int64_t nrhs, double* dl,
                                        double* d, const double* du, double* b, int64_t ldb,
                                        const double* top, const double* bot, int64_t m,
                                        int nthreads, unsigned flags );
hyb_status_t hyb_sgtsv_cpu_spike_range( int64_t n, int64_t r0, int64_t r1, int64_t nrhs, float* dl,
                                        float* d, const float* du, float* b, int64_t ldb,
                                        const float* top, const float* bot, int64_t m, int nthreads,
                                        unsigned flags );

#endif
