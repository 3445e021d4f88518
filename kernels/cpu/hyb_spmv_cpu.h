/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP CPU SpMV kernels: the MKL-semantics COO/CSR products (the CPU-only path) and the
   host pieces of the hybrid split (COO remainder, ELL and DIA for the simulated device). */
#ifndef HYB_SPMV_CPU_H
#define HYB_SPMV_CPU_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/cpu/hyb_spmv_format.h"

/* ---------------------------------------------------------------------------------------
   y := op(A) * x with the semantics of MKL's mkl_cspblas_?coogemv (base 0), mkl_?coogemv
   (base 1), mkl_cspblas_?csrgemv (base 0) and mkl_?csrgemv (base 1):
     transa   'N'/'n': y := A*x; 'T'/'t'/'C'/'c': y := A^T*x (real data: C means T)
     m        order of the square matrix A, 0 <= m <= INT_MAX; m == 0 returns at once
     COO      val/rowind/colind of length nnz >= 0, any order, duplicates summed
     CSR      a/ja of length ia[m] - ia[0], ia of length m + 1, positions ia[i] - base
     x, y     length m, not overlapping; y is only written (every element, empty rows 0)
     nthreads OpenMP threads (0: the OpenMP default); small problems use fewer
   Returns HYB_OK; HYB_E_INVALID for a bad transa/m/nnz/base/NULL pointer, a row or
   column index outside [base, m + base) or a decreasing ia; HYB_E_NO_MEMORY when an
   unsorted or transposed product cannot get its O(m) or O(nnz) work space. On any error y
   is untouched: every index is checked before y is written (one pass over the index
   arrays, hyb_spmv_src_validate, or the scatter path's first pass), so x and y are never
   accessed outside [0, m).
   Accumulation is in double for both precisions. Thread-safe (no shared state); callable
   from several application threads at once.
   Strategy: a COO sorted by row of op(A) (and CSR with 'N') runs row-partitioned (each y
   element written once, partitions balanced by entries + rows); anything else scatters
   race-free into per-thread windows of y when they overlap little (banded matrices), else
   buckets the entries by row blocks first (O(nnz) memory).
   --------------------------------------------------------------------------------------- */
hyb_status_t hyb_dcoomv_cpu_omp( char transa, int64_t m, const double* val, const int* rowind,
                                 const int* colind, int64_t nnz, int base, const double* x,
                                 double* y, int nthreads );
hyb_status_t hyb_scoomv_cpu_omp( char transa, int64_t m, const float* val, const int* rowind,
                                 const int* colind, int64_t nnz, int base, const float* x, float* y,
                                 int nthreads );
hyb_status_t hyb_dcsrmv_cpu_omp( char transa, int64_t m, const double* a, const int* ia,
                                 const int* ja, int base, const double* x, double* y,
                                 int nthreads );
hyb_status_t hyb_scsrmv_cpu_omp( char transa, int64_t m, const float* a, const int* ia,
                                 const int* ja, int base, const float* x, float* y, int nthreads );

/* The same products for a described source (hyb_spmv_src_coo / hyb_spmv_src_csr), x and y
   of the source's precision. Same contract as above. */
hyb_status_t hyb_spmv_cpu_omp( const hyb_spmv_src_t* src, const void* x, void* y, int nthreads );

/* ---------------------------------------------------------------------------------------
   Host kernels of the hybrid split (their inputs come from hyb_spmv_split_*, 0-based).
   --------------------------------------------------------------------------------------- */

/* y += R*x for a COO remainder R of an m-by-m matrix: rows non-decreasing (as the split
   produces them), 0 <= row, col < m. Only rows present in R are touched, each once.
   Returns HYB_E_INVALID (y partly updated) if the rows are not sorted or out of range.
   Thread-safe. */
hyb_status_t hyb_dcooaddmv_cpu_omp( int64_t m, int64_t nnz, const int* row, const int* col,
                                    const double* val, const double* x, double* y, int nthreads );
hyb_status_t hyb_scooaddmv_cpu_omp( int64_t m, int64_t nnz, const int* row, const int* col,
                                    const float* val, const float* x, float* y, int nthreads );

/* y := E*x (accumulate == 0) or y += E*x for an ELL part of width K, column-major
   (index[j*m + i], -1 = padding, valid columns in [0, m)). Padding is skipped, so an Inf or
   NaN in x never reaches a row that does not reference it. Thread-safe. */
void hyb_dellmv_cpu_omp( int64_t m, int64_t K, const int* index, const double* data,
                         const double* x, double* y, int accumulate, int nthreads );
void hyb_sellmv_cpu_omp( int64_t m, int64_t K, const int* index, const float* data, const float* x,
                         float* y, int accumulate, int nthreads );

/* y := D*x or y += D*x for a DIA part: data[d*m + i] = D(i, i + offset[d]); slots outside
   the matrix are ignored, and zero slots are skipped (they are structural zeros, so that
   Inf/NaN in x does not propagate where A has no entry). Thread-safe. */
void hyb_ddiamv_cpu_omp( int64_t m, int64_t ndiag, const int* offset, const double* data,
                         const double* x, double* y, int accumulate, int nthreads );
void hyb_sdiamv_cpu_omp( int64_t m, int64_t ndiag, const int* offset, const float* data,
                         const float* x, float* y, int accumulate, int nthreads );

#endif
