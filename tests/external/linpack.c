/* SPDX-License-Identifier: BSD-3-Clause */
/* A LINPACK-style benchmark linked directly against libhyblas (hyblas first
   on the link line, then LAPACKE, LAPACK, BLAS): random A and b,
   LAPACKE_dgetrf + LAPACKE_dgetrs, and the scaled residual
   ||Ax - b||_oo / (||A||_oo ||x||_oo n eps) < 16 computed by plain loops.
   Usage: linpack [N] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double hyb_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Uniform in [-0.5, 0.5), as HPL's generator; deterministic. */
static double hyb_rand( uint64_t* s )
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (double)( *s >> 11 ) / 9007199254740992.0 - 0.5;
}

int main( int argc, char** argv )
{
	int n = argc > 1 ? atoi( argv[1] ) : 1000;
	if ( n <= 0 || n > 20000 )
	{
		fprintf( stderr, "usage: %s [N (1..20000)]\n", argv[0] );
		return 2;
	}
	size_t      nn  = (size_t)n * (size_t)n;
	double*     a   = malloc( nn * sizeof *a );
	double*     a0  = malloc( nn * sizeof *a0 );
	double*     x   = malloc( (size_t)n * sizeof *x );
	double*     b0  = malloc( (size_t)n * sizeof *b0 );
	lapack_int* piv = malloc( (size_t)n * sizeof *piv );
	if ( !a || !a0 || !x || !b0 || !piv )
	{
		fprintf( stderr, "linpack: out of memory\n" );
		return 1;
	}
	uint64_t s = 42;
	for ( size_t i = 0; i < nn; i++ )
		a[i] = a0[i] = hyb_rand( &s );
	for ( int i = 0; i < n; i++ )
		x[i] = b0[i] = hyb_rand( &s );

	Dl_info info;
	void*   getrf = dlsym( RTLD_DEFAULT, "dgetrf_" );
	if ( getrf && dladdr( getrf, &info ) ) printf( "dgetrf_ from %s\n", info.dli_fname );
	void* gemm = dlsym( RTLD_DEFAULT, "dgemm_" );
	if ( gemm && dladdr( gemm, &info ) ) printf( "dgemm_ from %s\n", info.dli_fname );

	double     t0    = hyb_now();
	lapack_int info1 = LAPACKE_dgetrf( LAPACK_COL_MAJOR, n, n, a, n, piv );
	lapack_int info2 =
	    info1 == 0 ? LAPACKE_dgetrs( LAPACK_COL_MAJOR, 'N', n, 1, a, n, piv, x, n ) : -1;
	double t = hyb_now() - t0;
	if ( info1 != 0 || info2 != 0 )
	{
		printf( "linpack: FAILED (dgetrf info %d, dgetrs info %d)\n", (int)info1, (int)info2 );
		return 1;
	}

	/* Residual with plain loops (no BLAS): r = A0 x - b0. */
	double rmax = 0, anorm = 0, xmax = 0;
	for ( int i = 0; i < n; i++ )
	{
		double r = -b0[i], row = 0;
		for ( int j = 0; j < n; j++ )
		{
			r += a0[i + (size_t)j * n] * x[j];
			row += fabs( a0[i + (size_t)j * n] );
		}
		rmax  = fmax( rmax, fabs( r ) );
		anorm = fmax( anorm, row );
		xmax  = fmax( xmax, fabs( x[i] ) );
	}
	double eps   = 2.220446049250313e-16;
	double resid = rmax / ( anorm * xmax * n * eps );
	double flops = 2.0 / 3.0 * (double)n * n * n + 2.0 * (double)n * n;
	int    ok    = isfinite( resid ) && resid < 16.0;
	printf( "linpack: n=%d time=%.3f s %.2f GFLOP/s residual=%.3g (limit 16): %s\n", n, t,
	        flops / t * 1e-9, resid, ok ? "PASSED" : "FAILED" );
	free( a ), free( a0 ), free( x ), free( b0 ), free( piv );
	return ok ? 0 : 1;
}
