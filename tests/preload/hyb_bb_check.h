/* SPDX-License-Identifier: BSD-3-Clause */
/* Independent references and normalized error checks for the black-box test
   programs: deterministic random data, straightforward triple-loop products,
   Frobenius norms and the pass/fail bookkeeping. Knows nothing of hyblas. */
#ifndef HYB_BB_CHECK_H
#define HYB_BB_CHECK_H

#include <complex.h>

/* C11's CMPLX, which glibc's <complex.h> defines only for compilers that call themselves
   GCC 4.7 or later (clang does not, though it has the builtin): the black-box programs
   share no header with the library, so core/hyb_cmplx.h is not used here. */
#ifndef CMPLX
#define CMPLX( re, im ) __builtin_complex( (double)( re ), (double)( im ) )
#endif

#include <stddef.h>
#include <stdint.h>

#include "hyb_bb_blas.h"

typedef double _Complex hyb_bb_z_t;

/* A failed check makes the verdict fail; a check ratio must stay below this
   multiple of the precision's epsilon (MAGMA's normalized error). */
#define HYB_BB_TOL 3.0

/* ------------------------------------------------------------ random data */

/* splitmix64: deterministic, the same sequence on every machine. */
typedef struct
{
	uint64_t s;
} hyb_bb_rng_t;

/* Seed a generator. Every test derives its seed from its own constants, so
   inputs are fresh per test and reproducible. */
void hyb_bb_rng_seed( hyb_bb_rng_t* r, uint64_t seed );

/* Uniform in [-1, 1). */
double hyb_bb_rng_uniform( hyb_bb_rng_t* r );

/* Fill n entries with uniform values in [-1, 1) (complex: both parts). */
void hyb_bb_fill_d( hyb_bb_rng_t* r, double* x, size_t n );
void hyb_bb_fill_s( hyb_bb_rng_t* r, float* x, size_t n );
void hyb_bb_fill_z( hyb_bb_rng_t* r, hyb_bb_z_t* x, size_t n );

/* Allocate rows x cols column-major with leading dimension ld >= rows,
   filled with random values (the padding too, so that a library reading
   outside its region shows up as a wrong answer). Abort on no memory. */
double*     hyb_bb_alloc_d( hyb_bb_rng_t* r, int ld, int cols );
float*      hyb_bb_alloc_s( hyb_bb_rng_t* r, int ld, int cols );
hyb_bb_z_t* hyb_bb_alloc_z( hyb_bb_rng_t* r, int ld, int cols );

/* ------------------------------------------------------------ references */

/* cref := alpha op(A) op(B) + beta c0 (column-major, trans 'N'/'T'/'C'),
   computed by the textbook triple loop in double (complex double for z).
   c0 and cref have leading dimension ldc; cref may alias c0. */
void hyb_bb_ref_dgemm( char ta, char tb, int m, int n, int k, double alpha, const double* a,
                       int lda, const double* b, int ldb, double beta, const double* c0,
                       double* cref, int ldc );
void hyb_bb_ref_zgemm( char ta, char tb, int m, int n, int k, hyb_bb_z_t alpha, const hyb_bb_z_t* a,
                       int lda, const hyb_bb_z_t* b, int ldb, hyb_bb_z_t beta, const hyb_bb_z_t* c0,
                       hyb_bb_z_t* cref, int ldc );

/* The uplo triangle of cref := alpha op(A) op(A)^T + beta c0 for single
   precision input, computed in double; the other triangle is copied from
   c0 (reference BLAS never touches it). */
void hyb_bb_ref_ssyrk( char uplo, char trans, int n, int k, double alpha, const float* a, int lda,
                       double beta, const float* c0, double* cref, int ldc );

/* out := op(T) X (side 'L') or X op(T) (side 'R'), T the uplo triangle of A
   with a unit diagonal when diag == 'U'; X and out are m x n with leading
   dimension ldx. Used to check a triangular solve by its residual. */
void hyb_bb_ref_dtrmul( char side, char uplo, char trans, char diag, int m, int n, const double* a,
                        int lda, const double* x, double* out, int ldx );

/* ------------------------------------------------------------ checked calls */

/* One call of dgemm (the program's dgemm_, or one found with dlsym) on
   random data from r: C := alpha op(A) op(B) + beta C, C m x n, every
   matrix with a padded leading dimension; checked against hyb_bb_ref_dgemm
   with the normalized error (hyb_bb_check, verdict line named `what`).
   Returns 1 when correct. */
int hyb_bb_dgemm_checked( hyb_bb_dgemm_fn dgemm, hyb_bb_rng_t* r, char ta, char tb, int m, int n,
                          int k, double alpha, double beta, const char* what );

/* One call of dgtsv (LAPACK's dgtsv_ or hyblas's) on a random diagonally dominant n x n system with
   nrhs right-hand sides (ldb = n + 2), checked by INFO = 0 and the residual
   ||A X - B||_inf / (||A||_inf ||X||_inf n eps). Returns 1 when correct. */
int hyb_bb_dgtsv_checked( hyb_bb_dgtsv_fn dgtsv, hyb_bb_rng_t* r, int n, int nrhs,
                          const char* what );

/* One COO product y = op(A) x through coomv (indices of base `base`, 0 or
   1) on a random m x m matrix of about m * per_row entries, duplicates and
   empty rows included, y filled with garbage first; checked row by row as
   |y - y_ref|_inf <= 3 L eps (|A| |x|)_inf, L the longest row or column.
   Returns 1 when correct. */
int hyb_bb_dcoomv_checked( hyb_bb_dcoomv_fn coomv, hyb_bb_rng_t* r, int m, int per_row, int base,
                           char trans, const char* what );

/* ------------------------------------------------------------ norms */

/* Frobenius norm of the rows x cols region (complex: modulus). */
double hyb_bb_norm_d( int rows, int cols, const double* x, int ld );
double hyb_bb_norm_s( int rows, int cols, const float* x, int ld );
double hyb_bb_norm_z( int rows, int cols, const hyb_bb_z_t* x, int ld );

/* Frobenius norm of x - y over the rows x cols region. */
double hyb_bb_diff_d( int rows, int cols, const double* x, const double* y, int ld );
double hyb_bb_diff_sd( int rows, int cols, const float* x, const double* y, int ld );
double hyb_bb_diff_z( int rows, int cols, const hyb_bb_z_t* x, const hyb_bb_z_t* y, int ld );

/* The denominator of the normalized error of C = alpha op(A) op(B) + beta C0
   (MAGMA's bound): (sqrt(k) + 2) |alpha| ||op(A)|| ||op(B)|| + 2 |beta| ||C0||,
   Frobenius norms; complex callers pass |alpha| and |beta|. */
double hyb_bb_gemm_denom( double k, double alpha, double norm_a, double norm_b, double beta,
                          double norm_c0 );

/* Check X = alpha op(T)^-1 B0 (side 'L') or alpha B0 op(T)^-1 (side 'R') by
   its residual ||op(T) X - alpha B0|| (or X op(T)), normalized by
   (dim + 2) ||T|| ||X|| + 2 ||alpha B0|| with T the triangle dtrsm used.
   X and B0 are m x n with leading dimension ldb. Returns hyb_bb_check's. */
int hyb_bb_check_dtrsm( const char* what, char side, char uplo, char trans, char diag, int m, int n,
                        double alpha, const double* a, int lda, const double* x, const double* b0,
                        int ldb );

/* ------------------------------------------------------------ verdicts */

/* Record one normalized check: passes when diff / (denom * eps) is finite
   and below HYB_BB_TOL. Prints one line "ok|FAIL what ratio". Returns 1 on
   pass. Not thread-safe in its printing order, but the failure count is
   atomic. */
int hyb_bb_check( const char* what, double diff, double denom, double eps );

/* With quiet on, passing checks print nothing (long-running programs); a
   failure always prints. */
void hyb_bb_quiet( int on );

/* Record a plain condition (prints the message on failure). */
int hyb_bb_expect( int cond, const char* fmt, ... ) __attribute__( ( format( printf, 2, 3 ) ) );

/* Number of failed checks so far. */
int hyb_bb_failures( void );

/* The program's exit status: 0 when nothing failed, 1 otherwise; prints a
   summary line naming the program. */
int hyb_bb_finish( const char* program );

#endif
