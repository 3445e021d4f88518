/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU truncated SPIKE for diagonally dominant tridiagonal systems (?gtsv_), C-callable:
   one pass over device-resident data, many small partitions per thread block. */
#ifndef HYB_GTSV_CUDA_H
#define HYB_GTSV_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C"
{
#endif

	/* ---------------------------------------------------------------------------------------
	   hyb_?gtsv_cuda_spike: solve A X = B in place on the device, A tridiagonal and diagonally
	   dominant (checked by the caller with hyb_?gtsv_check; the window m from
	   hyb_policy_gtsv_window). Same conventions as LAPACK ?gtsv (0-based: row i is
	   dl[i-1] x[i-1] + d[i] x[i] + du[i] x[i+1] = b[i]):
	     n >= 0, nrhs >= 0, ldb >= max(1, n)
	     dl, du   device arrays of n-1 (may be NULL when n <= 1), d of n: read only (no factor
	              outputs: LAPACK's D and DL are written on the host, see hyb_?gtsv_factors)
	     b        device array, column-major n x nrhs, overwritten by X
	     m        truncation window in rows, 1 <= m <= hyb_gtsv_cuda_max_window()
	     stream   the stream everything is queued on; nothing is synchronised, nothing is
	              allocated (no workspace): the call only launches kernels
	   Algorithm (two kernels on `stream`): the rows are cut into tiles of T = 2048 rows (4096
	   when m > 256). (1) One thread per tile boundary s solves the seam's truncated SPIKE
	   reduced system from the window [s-m, s+m) (the seed's LU_FS / UL_FS and 2x2 RS, error
	   dom^-m as eq. 8) and writes x[s-1], x[s] into b. (2) One thread block per tile, 256 or
	   512 threads of 8 rows each: the tile's first and last rows are now known, so the solve
	   inside is exact: each thread eliminates the 7 interior rows of its partition (LU and UL
	   sweeps), the 8th rows form a tridiagonal Schur complement solved by parallel cyclic
	   reduction in shared memory, and each thread back-substitutes; loads and stores are
	   coalesced through shared memory, and a block touches only its own rows of b (no halo, no
	   race between blocks, no workspace). Device memory traffic per row: (3 + NB) elements
	   read and NB written by (2), plus (1)'s windows, 2m/T of the rows read once more;
	   right-hand sides go in groups of NB <= 4 (the matrix is re-read per group). Double, one
	   right-hand side: 40.5 bytes a row at m = 17 (dom 10), 41.7 at m = 55 (dom 2), 52.2 at
	   m = 782 (dom 1.05); four right-hand sides: 89 .. 91 (143 at m = 782, where the 4096-row
	   tiles fit only two columns in shared memory). Float: half.
	   Returns cudaSuccess, cudaErrorInvalidValue (bad arguments or m over the maximum; nothing
	   launched) or the launch error. Thread-safe (no global state besides the kernels'
	   shared-memory attribute, set idempotently).
	   --------------------------------------------------------------------------------------- */
	cudaError_t hyb_dgtsv_cuda_spike( int64_t n, int64_t nrhs, const double* dl, const double* d,
	                                  const double* du, double* b, int64_t ldb, int64_t m,
	                                  cudaStream_t stream );
	cudaError_t hyb_sgtsv_cuda_spike( int64_t n, int64_t nrhs, const float* dl, const float* d,
	                                  const float* du, float* b, int64_t ldb, int64_t m,
	                                  cudaStream_t stream );

	/* Largest window m the kernels accept (a tile must be longer than the window): 4095. */
	int64_t hyb_gtsv_cuda_max_window( void );

	/* Bytes both kernels move through device memory for one call (reads and writes): the
	   figure the GPU check program and the cost model use. elem = 4 or 8. Returns 0 for
	   invalid arguments. */
	double hyb_gtsv_cuda_bytes( int64_t n, int64_t nrhs, size_t elem, int64_t m );

	/* The same kernels' code run on the host, thread block by thread block and thread by
	   thread (each barrier-separated phase for all threads before the next), on host arrays:
	   for checking the algorithm without a device. Same arguments and results as above (to
	   rounding: the device may contract into FMAs); slow. */
	cudaError_t hyb_dgtsv_cuda_spike_emulate( int64_t n, int64_t nrhs, const double* dl,
	                                          const double* d, const double* du, double* b,
	                                          int64_t ldb, int64_t m );
	cudaError_t hyb_sgtsv_cuda_spike_emulate( int64_t n, int64_t nrhs, const float* dl,
	                                          const float* d, const float* du, float* b,
	                                          int64_t ldb, int64_t m );

	/* ---------------------------------------------------------------------------------------
	   hyb_?gtsv_cuda_pivots: LAPACK's no-swap pivots d' of rows [0, n) of a device-resident
	   chunk (the diagonal of U that ?gtsv leaves in D when it swaps no rows):
	     out[0] = first (the caller's exact d'[0], e.g. from the previous chunk),
	     out[i] = d[i] - (dl[i-1] / out[i-1]) du[i-1],
	   in the array's precision (the device may contract the last step into an FMA).
	     n >= 0; dl, du device arrays of n-1 (may be NULL when n <= 1), d and out of n (out may
	              be NULL when n = 0); out must not overlap dl, d or du
	     warm     restart distance in rows, warm >= 1 (the caller's truncation window m: on a
	              diagonally dominant chunk a pivot forgets its start after m rows, eq. 8)
	     stream   one kernel is queued on it; nothing synchronised, nothing allocated
	   Algorithm: one thread per partition of P = max(256, 2 warm) rows (one partition when
	   P >= n), 64 threads a block. Partition [lo, lo+P), lo > 0, restarts as
	   hyb_?gtsv_factors_range does: c = d[lo-warm], then the recurrence over rows
	   lo-warm+1 .. lo-1 (not written), then rows lo .. lo+P-1 written; a restart that would
	   reach row 0 (lo - warm <= 0) runs the exact recurrence from out[0] = first. So out is
	   the exact recurrence to rounding on a dominant chunk (the restart's error decays at
	   least like the seams' truncation error, dom^-warm: below rounding at the window), and
	   the recurrence itself in partition 0. P >= 2 warm bounds the redundant work to
	   warm/P <= 1/2 of the rows (14 % at dom 3 in double, warm = 35; 7 % at dom 10). Loads
	   are per-thread strided (stride P), served by L1/L2 (a 128-byte line serves 16
	   consecutive double rows), and unrolled by 4 so that their latency overlaps the division
	   chain.
	   Device memory traffic: 3 elements read and 1 written a row, plus each restart's warm
	   rows read again: 32 (1 + 0.75 warm/P) bytes a row in double (36 at dom 3), at most 44;
	   float: half. Expected time (estimated, not yet measured): large chunks run at memory
	   bandwidth (2^24 double rows at dom 3, 0.6 GB: ~0.2-0.3 ms on an H100/H200); small ones
	   are bound by one thread's chain of P + warm dependent divisions (~100 cycles each in
	   double; 2^21 rows at dom 3: 8192 threads of ~290 steps, a few tens of microseconds);
	   either way far below the PCIe time of the chunk (2^21 double rows: ~1.2 ms up).
	   Returns cudaSuccess, cudaErrorInvalidValue (bad arguments or overlapping out; nothing
	   launched) or the launch error. Thread-safe.
	   --------------------------------------------------------------------------------------- */
	cudaError_t hyb_dgtsv_cuda_pivots( int64_t n, const double* dl, const double* d,
	                                   const double* du, double* out, double first, int64_t warm,
	                                   cudaStream_t stream );
	cudaError_t hyb_sgtsv_cuda_pivots( int64_t n, const float* dl, const float* d, const float* du,
	                                   float* out, float first, int64_t warm, cudaStream_t stream );

	/* Rows per partition (per thread) of hyb_?gtsv_cuda_pivots for `warm`, before the cap
	   at n. 0 for warm < 1. */
	int64_t hyb_gtsv_cuda_pivots_part( int64_t warm );

	/* The same kernel's code on the host, partition by partition in a scrambled order, on
	   host arrays (no device used). Same arguments and results as above (to rounding: the
	   device may contract into FMAs). */
	cudaError_t hyb_dgtsv_cuda_pivots_emulate( int64_t n, const double* dl, const double* d,
	                                           const double* du, double* out, double first,
	                                           int64_t warm );
	cudaError_t hyb_sgtsv_cuda_pivots_emulate( int64_t n, const float* dl, const float* d,
	                                           const float* du, float* out, float first,
	                                           int64_t warm );

#ifdef __cplusplus
}
#endif

#endif
