/* SPDX-License-Identifier: BSD-3-Clause */
/* Invalid arguments in every position of several level-3 routines, in
   Fortran and CBLAS form, with the program's own xerbla_ (and cblas_xerbla)
   recording each report. The printed record must be identical with and
   without hyblas preloaded (xerbla_compare.sh runs both and compares).
   Usage: app_xerbla */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"

/* Reports received since the last case. */
static char hyb_reports[1024];
static int  hyb_nreports;

static void hyb_record( const char* who, const char* name, size_t len, int info )
{
	char n[64];
	if ( len >= sizeof n ) len = sizeof n - 1;
	memcpy( n, name, len );
	n[len] = '\0';
	while ( len > 0 && n[len - 1] == ' ' ) n[--len] = '\0';
	size_t used = strlen( hyb_reports );
	snprintf( hyb_reports + used, sizeof hyb_reports - used, " %s(%s,%d)", who, n, info );
	hyb_nreports++;
}

/* The application's error handler: overrides the library's (the program is
   linked with -rdynamic so that the library's calls reach it). It records
   and returns, as LAPACK's test programs' handlers do. */
__attribute__( ( visibility( "default" ) ) ) void xerbla_( const char* srname, const int* info,
                                                           hyb_bb_flen_t len );
__attribute__( ( visibility( "default" ) ) ) void xerbla_( const char* srname, const int* info,
                                                           hyb_bb_flen_t len )
{
	hyb_record( "xerbla", srname, strnlen( srname, len ), *info );
}

/* The CBLAS handler of reference CBLAS (OpenBLAS's CBLAS calls xerbla_). */
__attribute__( ( visibility( "default" ) ) ) void cblas_xerbla( int p, const char* rout,
                                                                const char* form, ... );
__attribute__( ( visibility( "default" ) ) ) void cblas_xerbla( int p, const char* rout,
                                                                const char* form, ... )
{
	(void)form;
	hyb_record( "cblas_xerbla", rout, strlen( rout ), p );
}

enum
{
	HYB_LD = 12,
	HYB_N  = 8
};
static double     hyb_a[HYB_LD * HYB_LD], hyb_b[HYB_LD * HYB_LD], hyb_c[HYB_LD * HYB_LD];
static float      hyb_sa[HYB_LD * HYB_LD], hyb_sc[HYB_LD * HYB_LD];
static hyb_bb_z_t hyb_za[HYB_LD * HYB_LD], hyb_zb[HYB_LD * HYB_LD], hyb_zc[HYB_LD * HYB_LD];
static double     hyb_c_before[HYB_LD * HYB_LD];
static int        hyb_cases, hyb_reported_cases;

static void hyb_begin( void )
{
	hyb_reports[0] = '\0';
	hyb_nreports   = 0;
	memcpy( hyb_c_before, hyb_c, sizeof hyb_c );
}

/* Print the case: what was reported, and whether the output operand changed
   (an invalid call must not compute). `invalid` cases must report. */
static void hyb_end( const char* label, int invalid, const void* out, const void* before,
                     size_t bytes )
{
	int changed = memcmp( out, before, bytes ) != 0;
	printf( "%-34s reports:%s%s output %s\n", label, hyb_nreports ? "" : " none", hyb_reports,
	        changed ? "changed" : "unchanged" );
	hyb_cases++;
	if ( invalid )
	{
		hyb_reported_cases += hyb_nreports > 0;
		hyb_bb_expect( hyb_nreports > 0, "%s: no error reported for an invalid call", label );
		hyb_bb_expect( !changed, "%s: an invalid call changed its output", label );
	}
}

/* dgemm_ with one argument replaced. */
static void hyb_dgemm_case( const char* label, int invalid, const char* ta, const char* tb, int m,
                            int n, int k, int lda, int ldb, int ldc )
{
	double alpha = 1.5, beta = 0.5;
	hyb_begin();
	dgemm_( ta, tb, &m, &n, &k, &alpha, hyb_a, &lda, hyb_b, &ldb, &beta, hyb_c, &ldc, 1, 1 );
	hyb_end( label, invalid, hyb_c, hyb_c_before, sizeof hyb_c );
}

static void hyb_zgemm_case( const char* label, const char* ta, int m, int lda, int ldc )
{
	hyb_bb_z_t alpha = 1, beta = 0;
	int        n = HYB_N, k = HYB_N, ldb = HYB_LD;
	hyb_bb_z_t before[HYB_LD * HYB_LD];
	memcpy( before, hyb_zc, sizeof before );
	hyb_begin();
	zgemm_( ta, "N", &m, &n, &k, &alpha, hyb_za, &lda, hyb_zb, &ldb, &beta, hyb_zc, &ldc, 1, 1 );
	hyb_end( label, 1, hyb_zc, before, sizeof before );
}

static void hyb_ssyrk_case( const char* label, int invalid, const char* uplo, const char* trans,
                            int n, int k, int lda, int ldc )
{
	float alpha = 1, beta = 1;
	float before[HYB_LD * HYB_LD];
	memcpy( before, hyb_sc, sizeof before );
	hyb_begin();
	ssyrk_( uplo, trans, &n, &k, &alpha, hyb_sa, &lda, &beta, hyb_sc, &ldc, 1, 1 );
	hyb_end( label, invalid, hyb_sc, before, sizeof before );
}

static void hyb_dsymm_case( const char* label, const char* side, const char* uplo, int m, int n,
                            int lda, int ldb, int ldc )
{
	double alpha = 1, beta = 1;
	hyb_begin();
	dsymm_( side, uplo, &m, &n, &alpha, hyb_a, &lda, hyb_b, &ldb, &beta, hyb_c, &ldc, 1, 1 );
	hyb_end( label, 1, hyb_c, hyb_c_before, sizeof hyb_c );
}

static void hyb_dtrsm_case( const char* label, int trmm, const char* side, const char* uplo,
                            const char* ta, const char* diag, int m, int n, int lda, int ldb )
{
	double alpha = 2;
	hyb_begin();
	if ( trmm )
		dtrmm_( side, uplo, ta, diag, &m, &n, &alpha, hyb_a, &lda, hyb_c, &ldb, 1, 1, 1, 1 );
	else
		dtrsm_( side, uplo, ta, diag, &m, &n, &alpha, hyb_a, &lda, hyb_c, &ldb, 1, 1, 1, 1 );
	hyb_end( label, 1, hyb_c, hyb_c_before, sizeof hyb_c );
}

static void hyb_fortran_cases( void )
{
	const int L = HYB_LD, N = HYB_N;
	hyb_dgemm_case( "dgemm_ transa=X", 1, "X", "N", N, N, N, L, L, L );
	hyb_dgemm_case( "dgemm_ transb=X", 1, "N", "X", N, N, N, L, L, L );
	hyb_dgemm_case( "dgemm_ m=-1", 1, "N", "N", -1, N, N, L, L, L );
	hyb_dgemm_case( "dgemm_ n=-1", 1, "N", "N", N, -1, N, L, L, L );
	hyb_dgemm_case( "dgemm_ k=-1", 1, "N", "N", N, N, -1, L, L, L );
	hyb_dgemm_case( "dgemm_ lda<m", 1, "N", "N", N, N, N, N - 1, L, L );
	hyb_dgemm_case( "dgemm_ lda<k (A^T)", 1, "T", "N", N, N, N + 2, N + 1, L, L );
	hyb_dgemm_case( "dgemm_ ldb<k", 1, "N", "N", N, N, N, L, N - 1, L );
	hyb_dgemm_case( "dgemm_ ldc<m", 1, "N", "N", N, N, N, L, L, N - 1 );
	/* Reference BLAS reports this one (lda < max(1, m)); OpenBLAS does not.
	   Either way hyblas must do what the library does. */
	hyb_dgemm_case( "dgemm_ m=0 lda=0", 0, "N", "N", 0, N, N, 0, L, L );
	hyb_dgemm_case( "dgemm_ valid, lower-case n/t", 0, "n", "t", N, N, N, L, L, L );
	hyb_dgemm_case( "dgemm_ valid, transa=C", 0, "C", "N", N, N, N, L, L, L );

	hyb_zgemm_case( "zgemm_ transa=X", "X", N, L, L );
	hyb_zgemm_case( "zgemm_ m=-2", "N", -2, L, L );
	hyb_zgemm_case( "zgemm_ lda<k (A^H)", "C", N, N - 1, L );
	hyb_zgemm_case( "zgemm_ ldc<m", "N", N, L, N - 1 );

	hyb_ssyrk_case( "ssyrk_ uplo=X", 1, "X", "N", N, N, L, L );
	hyb_ssyrk_case( "ssyrk_ trans=C (valid for real)", 0, "U", "C", N, N, L, L );
	hyb_ssyrk_case( "ssyrk_ trans=X", 1, "U", "X", N, N, L, L );
	hyb_ssyrk_case( "ssyrk_ n=-1", 1, "U", "N", -1, N, L, L );
	hyb_ssyrk_case( "ssyrk_ k=-1", 1, "U", "N", N, -1, L, L );
	hyb_ssyrk_case( "ssyrk_ lda<n", 1, "L", "N", N, N, N - 1, L );
	hyb_ssyrk_case( "ssyrk_ ldc<n", 1, "L", "N", N, N, L, N - 1 );

	{
		double     alpha = 1, beta = 1;
		int        n = N, k = N, ld = L;
		hyb_bb_z_t before[HYB_LD * HYB_LD];
		memcpy( before, hyb_zc, sizeof before );
		hyb_begin();
		zherk_( "U", "T", &n, &k, &alpha, hyb_za, &ld, &beta, hyb_zc, &ld, 1, 1 );
		hyb_end( "zherk_ trans=T (invalid for herk)", 1, hyb_zc, before, sizeof before );

		int ldb = N - 1;
		hyb_begin();
		dsyr2k_( "U", "N", &n, &k, &alpha, hyb_a, &ld, hyb_b, &ldb, &beta, hyb_c, &ld, 1, 1 );
		hyb_end( "dsyr2k_ ldb<n", 1, hyb_c, hyb_c_before, sizeof hyb_c );
	}

	hyb_dsymm_case( "dsymm_ side=X", "X", "U", N, N, L, L, L );
	hyb_dsymm_case( "dsymm_ uplo=X", "L", "X", N, N, L, L, L );
	hyb_dsymm_case( "dsymm_ m=-1", "L", "U", -1, N, L, L, L );
	hyb_dsymm_case( "dsymm_ n=-1", "L", "U", N, -1, L, L, L );
	hyb_dsymm_case( "dsymm_ lda<n (side=R)", "R", "U", N, N + 2, N + 1, L, L );
	hyb_dsymm_case( "dsymm_ ldb<m", "L", "U", N, N, L, N - 1, L );
	hyb_dsymm_case( "dsymm_ ldc<m", "L", "U", N, N, L, L, N - 1 );

	hyb_dtrsm_case( "dtrsm_ side=X", 0, "X", "U", "N", "N", N, N, L, L );
	hyb_dtrsm_case( "dtrsm_ uplo=X", 0, "L", "X", "N", "N", N, N, L, L );
	hyb_dtrsm_case( "dtrsm_ transa=X", 0, "L", "U", "X", "N", N, N, L, L );
	hyb_dtrsm_case( "dtrsm_ diag=X", 0, "L", "U", "N", "X", N, N, L, L );
	hyb_dtrsm_case( "dtrsm_ m=-1", 0, "L", "U", "N", "N", -1, N, L, L );
	hyb_dtrsm_case( "dtrsm_ n=-1", 0, "L", "U", "N", "N", N, -1, L, L );
	hyb_dtrsm_case( "dtrsm_ lda<n (side=R)", 0, "R", "U", "N", "N", N, N + 2, N + 1, L );
	hyb_dtrsm_case( "dtrsm_ ldb<m", 0, "L", "U", "N", "N", N, N, L, N - 1 );
	hyb_dtrsm_case( "dtrmm_ diag=X", 1, "L", "U", "N", "X", N, N, L, L );
	hyb_dtrsm_case( "dtrmm_ ldb<m", 1, "L", "U", "N", "N", N, N, L, N - 1 );
}

static void hyb_cblas_dgemm_case( const char* label, int invalid, int layout, int ta, int m,
                                  int lda, int ldc )
{
	int n = HYB_N, k = HYB_N;
	hyb_begin();
	cblas_dgemm( layout, ta, HYB_BB_NO_TRANS, m, n, k, 1.5, hyb_a, lda, hyb_b, HYB_LD, 0.5, hyb_c,
	             ldc );
	hyb_end( label, invalid, hyb_c, hyb_c_before, sizeof hyb_c );
}

static void hyb_cblas_cases( void )
{
	const int L = HYB_LD, N = HYB_N, ROW = HYB_BB_ROW_MAJOR, COL = HYB_BB_COL_MAJOR,
	          NT = HYB_BB_NO_TRANS;
	hyb_cblas_dgemm_case( "cblas_dgemm layout=99", 1, 99, NT, N, L, L );
	hyb_cblas_dgemm_case( "cblas_dgemm transa=99 (col)", 1, COL, 99, N, L, L );
	hyb_cblas_dgemm_case( "cblas_dgemm transa=99 (row)", 1, ROW, 99, N, L, L );
	hyb_cblas_dgemm_case( "cblas_dgemm m=-1 (col)", 1, COL, NT, -1, L, L );
	hyb_cblas_dgemm_case( "cblas_dgemm m=-1 (row)", 1, ROW, NT, -1, L, L );
	hyb_cblas_dgemm_case( "cblas_dgemm lda<m (col)", 1, COL, NT, N, N - 1, L );
	hyb_cblas_dgemm_case( "cblas_dgemm lda<k (row)", 1, ROW, NT, N, N - 1, L );
	hyb_cblas_dgemm_case( "cblas_dgemm ldc<n (row)", 1, ROW, NT, N, L, N - 1 );
	hyb_cblas_dgemm_case( "cblas_dgemm valid (row)", 0, ROW, NT, N, L, L );

	hyb_begin();
	cblas_dsyrk( COL, 77, NT, N, N, 1.0, hyb_a, L, 1.0, hyb_c, L );
	hyb_end( "cblas_dsyrk uplo=77", 1, hyb_c, hyb_c_before, sizeof hyb_c );
	hyb_begin();
	cblas_dsyrk( ROW, HYB_BB_UPPER, NT, N, N, 1.0, hyb_a, N - 1, 1.0, hyb_c, L );
	hyb_end( "cblas_dsyrk lda<k (row)", 1, hyb_c, hyb_c_before, sizeof hyb_c );
	hyb_begin();
	cblas_dtrsm( COL, 77, HYB_BB_UPPER, NT, HYB_BB_NON_UNIT, N, N, 1.0, hyb_a, L, hyb_c, L );
	hyb_end( "cblas_dtrsm side=77", 1, hyb_c, hyb_c_before, sizeof hyb_c );
	hyb_begin();
	cblas_dtrsm( ROW, HYB_BB_LEFT, HYB_BB_UPPER, NT, HYB_BB_NON_UNIT, N, N, 1.0, hyb_a, L, hyb_c,
	             N - 1 );
	hyb_end( "cblas_dtrsm ldb<n (row)", 1, hyb_c, hyb_c_before, sizeof hyb_c );
	{
		hyb_bb_z_t alpha = 1, beta = 1, before[HYB_LD * HYB_LD];
		memcpy( before, hyb_zc, sizeof before );
		hyb_begin();
		cblas_zgemm( COL, HYB_BB_CONJ, NT, N, N, N, &alpha, hyb_za, N - 1, hyb_zb, L, &beta, hyb_zc,
		             L );
		hyb_end( "cblas_zgemm lda<k (A^H, col)", 1, hyb_zc, before, sizeof before );
	}
}

/* NULL alpha or beta: the reference and OpenBLAS read the scalars only after
   the argument checks and the empty-output quick return, so an empty call
   returns and an invalid one reports, without touching the scalars. */
static void hyb_dgemm_null_case( const char* label, int invalid, const char* ta, int m, int n )
{
	int k = HYB_N, ld = HYB_LD;
	hyb_begin();
	dgemm_( ta, "N", &m, &n, &k, NULL, hyb_a, &ld, hyb_b, &ld, NULL, hyb_c, &ld, 1, 1 );
	hyb_end( label, invalid, hyb_c, hyb_c_before, sizeof hyb_c );
}

static void hyb_zgemm_null_case( const char* label, int invalid, int cblas, int m )
{
	int        n = HYB_N, k = HYB_N, ld = HYB_LD;
	hyb_bb_z_t before[HYB_LD * HYB_LD];
	memcpy( before, hyb_zc, sizeof before );
	hyb_begin();
	if ( cblas )
		cblas_zgemm( HYB_BB_COL_MAJOR, HYB_BB_NO_TRANS, HYB_BB_NO_TRANS, m, n, k, NULL, hyb_za, ld,
		             hyb_zb, ld, NULL, hyb_zc, ld );
	else
		zgemm_( "N", "N", &m, &n, &k, NULL, hyb_za, &ld, hyb_zb, &ld, NULL, hyb_zc, &ld, 1, 1 );
	hyb_end( label, invalid, hyb_zc, before, sizeof before );
}

static void hyb_null_scalar_cases( void )
{
	const int L = HYB_LD, N = HYB_N, Z = 0, NEG = -1;
	hyb_dgemm_null_case( "dgemm_ m=0 alpha=beta=NULL", 0, "N", 0, N );
	hyb_dgemm_null_case( "dgemm_ n=0 alpha=beta=NULL", 0, "N", N, 0 );
	hyb_dgemm_null_case( "dgemm_ m=-1 alpha=beta=NULL", 1, "N", -1, N );
	hyb_dgemm_null_case( "dgemm_ transa=X alpha=beta=NULL", 1, "X", N, N );
	hyb_zgemm_null_case( "zgemm_ m=0 alpha=beta=NULL", 0, 0, 0 );
	hyb_zgemm_null_case( "zgemm_ m=-1 alpha=beta=NULL", 1, 0, -1 );
	hyb_zgemm_null_case( "cblas_zgemm m=0 alpha=beta=NULL", 0, 1, 0 );
	hyb_zgemm_null_case( "cblas_zgemm m=-1 alpha=beta=NULL", 1, 1, -1 );
	hyb_begin();
	dsyrk_( "U", "N", &Z, &N, NULL, hyb_a, &L, NULL, hyb_c, &L, 1, 1 );
	hyb_end( "dsyrk_ n=0 alpha=beta=NULL", 0, hyb_c, hyb_c_before, sizeof hyb_c );
	hyb_begin();
	dsyrk_( "U", "N", &NEG, &N, NULL, hyb_a, &L, NULL, hyb_c, &L, 1, 1 );
	hyb_end( "dsyrk_ n=-1 alpha=beta=NULL", 1, hyb_c, hyb_c_before, sizeof hyb_c );
	hyb_begin();
	dtrsm_( "L", "U", "N", "N", &Z, &N, NULL, hyb_a, &L, hyb_c, &L, 1, 1, 1, 1 );
	hyb_end( "dtrsm_ m=0 alpha=NULL", 0, hyb_c, hyb_c_before, sizeof hyb_c );
	hyb_begin();
	dtrsm_( "L", "U", "N", "N", &NEG, &N, NULL, hyb_a, &L, hyb_c, &L, 1, 1, 1, 1 );
	hyb_end( "dtrsm_ m=-1 alpha=NULL", 1, hyb_c, hyb_c_before, sizeof hyb_c );
}

int main( void )
{
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 777 );
	hyb_bb_fill_d( &r, hyb_a, HYB_LD * HYB_LD );
	hyb_bb_fill_d( &r, hyb_b, HYB_LD * HYB_LD );
	hyb_bb_fill_d( &r, hyb_c, HYB_LD * HYB_LD );
	hyb_bb_fill_s( &r, hyb_sa, HYB_LD * HYB_LD );
	hyb_bb_fill_s( &r, hyb_sc, HYB_LD * HYB_LD );
	hyb_bb_fill_z( &r, hyb_za, HYB_LD * HYB_LD );
	hyb_bb_fill_z( &r, hyb_zb, HYB_LD * HYB_LD );
	hyb_bb_fill_z( &r, hyb_zc, HYB_LD * HYB_LD );
	for ( int i = 0; i < HYB_LD; i++ ) hyb_a[i + i * HYB_LD] += 4; /* triangular solves stay tame */

	hyb_fortran_cases();
	hyb_cblas_cases();
	hyb_null_scalar_cases();
	printf( "%d cases, %d invalid ones reported\n", hyb_cases, hyb_reported_cases );
	fflush( stdout );
	/* Status on stderr so that stdout is exactly the compared record. */
	int n = hyb_bb_failures();
	fprintf( stderr, "app_xerbla: %s (%d failed checks)\n", n ? "FAILED" : "PASSED", n );
	return n ? 1 : 0;
}
