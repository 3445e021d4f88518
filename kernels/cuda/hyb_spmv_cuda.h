/* SPDX-License-Identifier: BSD-3-Clause */
/* CUDA SpMV kernels of the hybrid split (ELL, DIA), the device-only CSR product, the
   vector additions that merge partial results, the check of a CSR copy and its DIA form.
   C-callable; device pointers, one stream. */
#ifndef HYB_SPMV_CUDA_H
#define HYB_SPMV_CUDA_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C"
{
#endif

	/* Common contract of every function below:
	   - all array arguments are device pointers; x and y never overlap;
	   - the work is enqueued on `stream` and the function returns at once with the launch
	     status (cudaSuccess, or the error of the launch); errors of the kernel itself surface
	     at the next synchronisation, as usual in CUDA;
	   - nothing is allocated; sizes of 0 enqueue nothing and return cudaSuccess;
	   - accumulate == 0: y := result; accumulate != 0: y += result;
	   - sums are accumulated in double for both precisions;
	   - thread-safe: no global state (different host threads may use different streams). */

	/* ELL part of width K, column-major: slot j of row i at [j*m + i]; index -1 marks padding,
	   which always follows a row's entries (a row stops at its first padding slot, so Inf/NaN
	   in x never reach rows that do not reference them). Columns in [0, m). m*K < 2^63. */
	cudaError_t hyb_dellmv_cuda( int64_t m, int64_t K, const int* index, const double* data,
	                             const double* x, double* y, int accumulate, cudaStream_t stream );
	cudaError_t hyb_sellmv_cuda( int64_t m, int64_t K, const int* index, const float* data,
	                             const float* x, float* y, int accumulate, cudaStream_t stream );

	/* DIA part: ndiag <= 1024 diagonals, data[d*m + i] = A(i, i + offset[d]); slots outside the
	   matrix are ignored and zero slots are skipped (structural zeros; see the CPU kernel). */
	cudaError_t hyb_ddiamv_cuda( int64_t m, int64_t ndiag, const int* offset, const double* data,
	                             const double* x, double* y, int accumulate, cudaStream_t stream );
	cudaError_t hyb_sdiamv_cuda( int64_t m, int64_t ndiag, const int* offset, const float* data,
	                             const float* x, float* y, int accumulate, cudaStream_t stream );

	/* CSR rows of a slice (rows [r0, r0 + rows) of a larger matrix, or the whole matrix):
	   ptr holds the rows + 1 row pointers exactly as in the host ia (ia[r0 .. r0 + rows],
	   with the base), and col/val hold the slice's entries starting at entry ptr[0] - base of
	   the original, so the slice's k-th entry is at ptr[i] - ptr[0] + k. Columns carry the
	   base and index the whole x (length m of the full matrix); y has `rows` elements.
	   mean_len (entries per row, > 0) picks the threads per row (2..32, a vector kernel with
	   one sub-warp per row); pass nnz / rows. */
	cudaError_t hyb_dcsrmv_cuda( int64_t rows, const int* ptr, const int* col, const double* val,
	                             int base, double mean_len, const double* x, double* y,
	                             int accumulate, cudaStream_t stream );
	cudaError_t hyb_scsrmv_cuda( int64_t rows, const int* ptr, const int* col, const float* val,
	                             int base, double mean_len, const float* x, float* y,
	                             int accumulate, cudaStream_t stream );

	/* y[i] += z[i] for i < n (merging a partial result computed elsewhere). */
	cudaError_t hyb_dvadd_cuda( int64_t n, const double* z, double* y, cudaStream_t stream );
	cudaError_t hyb_svadd_cuda( int64_t n, const float* z, float* y, cudaStream_t stream );

	/* y[idx[k]] += val[k] for k < nz, idx distinct and in range (a sparse vector, e.g. the
	   remainder's per-row sums: what the seed does with cusparseAxpyi). */
	cudaError_t hyb_daxpyi_cuda( int64_t nz, const double* val, const int* idx, double* y,
	                             cudaStream_t stream );
	cudaError_t hyb_saxpyi_cuda( int64_t nz, const float* val, const int* idx, float* y,
	                             cudaStream_t stream );

	/* spmv.check (kernels/spmv/hyb_spmv_kargs.h, hyb_spmv_check_kargs_t): out[0] = 0 when the
	   rows + 1 pointers ptr (ptr[0] == first, ptr[rows] == first + nnz, never decreasing) and
	   the nnz columns col (in [base, cols + base)) are valid, else nonzero; out[1 + 2b],
	   out[2 + 2b]: the smallest and largest 0-based column of the rows of block b (blocks of
	   block_rows rows), cols and -1 for none. Initializes out itself (two kernels). */
	cudaError_t hyb_csrcheck_cuda( int64_t rows, int64_t cols, int64_t nnz, int64_t block_rows,
	                               const int* ptr, const int* col, int first, int base, int* out,
	                               cudaStream_t stream );

	/* spmv.cooptr (kernels/spmv/hyb_spmv_kargs.h, hyb_spmv_cooptr_kargs_t): the rows + 1
	   0-based pointers ptr of nnz COO entries grouped by rows (row, col with the base) and
	   out as hyb_csrcheck_cuda's, out[0] or'ing the two reasons below (the values of
	   HYB_SPMV_COOPTR_RANGE and HYB_SPMV_COOPTR_ORDER; the launcher checks that they agree). */
#define HYB_CUDA_COOPTR_RANGE 1
#define HYB_CUDA_COOPTR_ORDER 2
	cudaError_t hyb_cooptr_cuda( int64_t rows, int64_t nnz, int64_t block_rows, const int* row,
	                             const int* col, int base, int* ptr, int* out,
	                             cudaStream_t stream );

	/* spmv.diahist (kernels/spmv/hyb_spmv_kargs.h, hyb_spmv_diahist_kargs_t): hist (2 * window
	   + 1 ints) the entries of each diagonal in [-window, window] of a valid CSR copy (rows + 1
	   pointers ptr read from ptr[0] on, columns col with the base), out[0] the entries beyond,
	   out[1] the diagonals holding one. Initializes hist and out itself. 0 <= window < rows. */
	cudaError_t hyb_diahist_cuda( int64_t rows, int64_t window, const int* ptr, const int* col,
	                              int base, int* hist, int* out, cudaStream_t stream );

	/* spmv.diascatter (hyb_spmv_diascatter_kargs_t): one DIA block of rows [e0, e1) written
	   from rows [r0, r1) of a valid CSR copy (ptr, col, val as hyb_diahist_cuda's); ndiag <=
	   1024 ascending offsets; duplicates summed in the copy's order in the matrix's
	   precision; an entry on no listed diagonal adds one to *missed. */
	cudaError_t hyb_ddiascatter_cuda( int64_t r0, int64_t r1, int64_t e0, int64_t e1, int64_t ndiag,
	                                  const int* offsets, const int* ptr, const int* col,
	                                  const double* val, int base, double* data, int* missed,
	                                  cudaStream_t stream );
	cudaError_t hyb_sdiascatter_cuda( int64_t r0, int64_t r1, int64_t e0, int64_t e1, int64_t ndiag,
	                                  const int* offsets, const int* ptr, const int* col,
	                                  const float* val, int base, float* data, int* missed,
	                                  cudaStream_t stream );

	/* spmv.xsum (hyb_spmv_xsum_kargs_t; the definition in kernels/spmv/hyb_spmv_xsum.h, with
	   these constants): out[j] the fingerprint of piece j of the `bytes` bytes at x (aligned
	   to 8). */
#define HYB_CUDA_XSUM_PIECE 65536
#define HYB_CUDA_XSUM_LANES 32
	cudaError_t hyb_xsum_cuda( int64_t bytes, const void* x, uint64_t* out, cudaStream_t stream );

	/* The double ELL kernel's address, for the runtime's report of its registers and
	   occupancy (the spmv.ell kernel's attributes). */
	const void* hyb_spmv_cuda_ell_func( void );

#ifdef __cplusplus
}
#endif

#endif
