/* SPDX-License-Identifier: BSD-3-Clause */
/* The BLAS entry points the black-box programs call, declared as an ordinary
   application would see them (Fortran ABI with hidden character lengths,
   CBLAS with enum arguments). Nothing here knows about hyblas. */
#ifndef HYB_BB_BLAS_H
#define HYB_BB_BLAS_H

#include <stddef.h>
#include <stdint.h>

/* gfortran passes the length of each CHARACTER argument after the others. */
typedef size_t hyb_bb_flen_t;

/* CBLAS enumerations (values fixed by the CBLAS standard). */
enum
{
	HYB_BB_ROW_MAJOR = 101,
	HYB_BB_COL_MAJOR = 102,
	HYB_BB_NO_TRANS  = 111,
	HYB_BB_TRANS     = 112,
	HYB_BB_CONJ      = 113,
	HYB_BB_UPPER     = 121,
	HYB_BB_LOWER     = 122,
	HYB_BB_NON_UNIT  = 131,
	HYB_BB_UNIT      = 132,
	HYB_BB_LEFT      = 141,
	HYB_BB_RIGHT     = 142
};

void dgemm_( const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
             const double* beta, double* c, const int* ldc, hyb_bb_flen_t la, hyb_bb_flen_t lb );
void zgemm_( const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const void* alpha, const void* a, const int* lda, const void* b, const int* ldb,
             const void* beta, void* c, const int* ldc, hyb_bb_flen_t la, hyb_bb_flen_t lb );
void ssyrk_( const char* uplo, const char* trans, const int* n, const int* k, const float* alpha,
             const float* a, const int* lda, const float* beta, float* c, const int* ldc,
             hyb_bb_flen_t lu, hyb_bb_flen_t lt );
void dsyrk_( const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
             const double* a, const int* lda, const double* beta, double* c, const int* ldc,
             hyb_bb_flen_t lu, hyb_bb_flen_t lt );
void zherk_( const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
             const void* a, const int* lda, const double* beta, void* c, const int* ldc,
             hyb_bb_flen_t lu, hyb_bb_flen_t lt );
void dsymm_( const char* side, const char* uplo, const int* m, const int* n, const double* alpha,
             const double* a, const int* lda, const double* b, const int* ldb, const double* beta,
             double* c, const int* ldc, hyb_bb_flen_t ls, hyb_bb_flen_t lu );
void dsyr2k_( const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
              const double* a, const int* lda, const double* b, const int* ldb, const double* beta,
              double* c, const int* ldc, hyb_bb_flen_t lu, hyb_bb_flen_t lt );
void dtrsm_( const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
             const int* n, const double* alpha, const double* a, const int* lda, double* b,
             const int* ldb, hyb_bb_flen_t ls, hyb_bb_flen_t lu, hyb_bb_flen_t lt,
             hyb_bb_flen_t ld );
void dtrmm_( const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
             const int* n, const double* alpha, const double* a, const int* lda, double* b,
             const int* ldb, hyb_bb_flen_t ls, hyb_bb_flen_t lu, hyb_bb_flen_t lt,
             hyb_bb_flen_t ld );

void cblas_dgemm( int layout, int transa, int transb, int m, int n, int k, double alpha,
                  const double* a, int lda, const double* b, int ldb, double beta, double* c,
                  int ldc );
void cblas_zgemm( int layout, int transa, int transb, int m, int n, int k, const void* alpha,
                  const void* a, int lda, const void* b, int ldb, const void* beta, void* c,
                  int ldc );
void cblas_dsyrk( int layout, int uplo, int trans, int n, int k, double alpha, const double* a,
                  int lda, double beta, double* c, int ldc );
void cblas_dtrsm( int layout, int side, int uplo, int transa, int diag, int m, int n, double alpha,
                  const double* a, int lda, double* b, int ldb );

void dgtsv_( const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
             const int* ldb, int* info );
typedef void ( *hyb_bb_dgtsv_fn )( const int* n, const int* nrhs, double* dl, double* d, double* du,
                                   double* b, const int* ldb, int* info );

/* MKL's legacy COO product (mkl_cspblas_dcoogemv: 0-based indices, mkl_dcoogemv:
   1-based): y = op(A) x, A m x m. No system library has it; programs look it
   up at run time. */
typedef void ( *hyb_bb_dcoomv_fn )( const char* transa, const int* m, const double* val,
                                    const int* rowind, const int* colind, const int* nnz,
                                    const double* x, double* y );

/* The ILP64 flavor of dgemm_, looked up at run time (the system library
   does not have it; libhyblas exports it). */
typedef void ( *hyb_bb_dgemm64_fn )( const char* transa, const char* transb, const int64_t* m,
                                     const int64_t* n, const int64_t* k, const double* alpha,
                                     const double* a, const int64_t* lda, const double* b,
                                     const int64_t* ldb, const double* beta, double* c,
                                     const int64_t* ldc, hyb_bb_flen_t la, hyb_bb_flen_t lb );

/* dgemm_ itself, for programs that find it at run time. */
typedef void ( *hyb_bb_dgemm_fn )( const char* transa, const char* transb, const int* m,
                                   const int* n, const int* k, const double* alpha, const double* a,
                                   const int* lda, const double* b, const int* ldb,
                                   const double* beta, double* c, const int* ldc, hyb_bb_flen_t la,
                                   hyb_bb_flen_t lb );

#endif
