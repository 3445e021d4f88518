/* SPDX-License-Identifier: BSD-3-Clause */
/* Straightforward reference kernels of the simulated device: an
   implementation independent of any BLAS, so that pipeline tests compare
   two different codes. */
#ifndef HYB_SIM_KERNELS_H
#define HYB_SIM_KERNELS_H

#include <stdint.h>

#include "hyb_types.h"

/* C = alpha op(A) op(B) + beta C, column-major; beta = 0 does not read C. */
void hyb_sim_gemm( hyb_prec_t prec, char ta, char tb, int64_t m, int64_t n, int64_t k,
                   const double alpha[2], const void* a, int64_t lda, const void* b, int64_t ldb,
                   const double beta[2], void* c, int64_t ldc );

/* In-place triangular solve, reference semantics (no pivoting, no checks). */
void hyb_sim_trsm( hyb_prec_t prec, char side, char uplo, char trans, char diag, int64_t m,
                   int64_t n, const double alpha[2], const void* a, int64_t lda, void* b,
                   int64_t ldb );

/* Out-of-place triangular product C = alpha op(A) B or alpha B op(A). */
void hyb_sim_trmm( hyb_prec_t prec, char side, char uplo, char trans, char diag, int64_t m,
                   int64_t n, const double alpha[2], const void* a, int64_t lda, const void* b,
                   int64_t ldb, void* c, int64_t ldc );


/* Sparse reference products (see hyb_device_ops.h for the formats). */
void hyb_sim_spmv_ell( hyb_prec_t prec, int64_t m, int64_t K, const int* index, const void* data,
                       const void* x, void* y, int accumulate );
void hyb_sim_spmv_dia( hyb_prec_t prec, int64_t m, int64_t ndiag, const int* offset, const void* data,
                       const void* x, void* y, int accumulate );
void hyb_sim_spmv_csr( hyb_prec_t prec, int64_t rows, const int* ptr, const int* col, const void* val,
                       int base, const void* x, void* y, int accumulate );
void hyb_sim_vadd( hyb_prec_t prec, int64_t n, const void* z, void* y );

/* Tridiagonal reference solve: the Thomas algorithm (no pivoting), in
   place on b; the matrix is not modified. */
void hyb_sim_gtsv( hyb_prec_t prec, int64_t n, int64_t nrhs, const void* dl, const void* d, const void* du,
                   void* b, int64_t ldb );

/* Rows per partition of hyb_sim_gtsv_pivots for a restart distance `warm`: the CUDA
   kernel's rule (max(256, 2 warm)), so that the simulated device exercises the restarts. */
int64_t hyb_sim_gtsv_pivots_part( int64_t warm );

/* LAPACK's no-swap pivots d' (see gtsv_pivots in hyb_device_ops.h), prec S or D, computed
   in the array's precision with the partition rule: partitions of
   hyb_sim_gtsv_pivots_part(warm) rows, each after the first restarting `warm` rows early
   from d alone (from `first` where the restart would reach row 0). */
void hyb_sim_gtsv_pivots( hyb_prec_t prec, int64_t n, const void* dl, const void* d, const void* du,
                          void* out, double first, int64_t warm );

#endif
