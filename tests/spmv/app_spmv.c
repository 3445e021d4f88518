/* SPDX-License-Identifier: BSD-3-Clause */
/* A plain program that calls MKL's legacy sparse products (it knows nothing of hyblas):
   it finds mkl_cspblas_dcoogemv and friends at run time, as a program linked with MKL
   would call them, and checks every product against its own serial loop. Run under
   LD_PRELOAD=libhyblas.so (hyblas provides the symbols); without them it skips (77).
     app_spmv [--calls N] [--rows M] [--trace FILE --expect-device K]
   With --trace, counts the lines of hyblas's trace file whose path is gpu or split and
   fails when fewer than K. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkl_sparse_fns.h"

static unsigned long long app_state = 12345;

static double app_unit( void )
{
	app_state = app_state * 6364136223846793005ull + 1442695040888963407ull;
	return (double)( app_state >> 11 ) * ( 2.0 / 9007199254740992.0 ) - 1.0;
}

/* max |y - ref| / (L eps (|A||x|)_inf) for a 27-point-like banded matrix in CSR (base b). */
static double app_check( int m, const int* ia, const int* ja, const double* a, int b, char t,
                         const double* x, const double* y, double eps, int single )
{
	double* ref = calloc( (size_t)m, sizeof( double ) );
	double* abs = calloc( (size_t)m, sizeof( double ) );
	int*    cnt = calloc( (size_t)m, sizeof( int ) );
	for ( int i = 0; i < m; i++ )
		for ( int k = ia[i] - b; k < ia[i + 1] - b; k++ )
		{
			int    r = t == 'N' ? i : ja[k] - b, c = t == 'N' ? ja[k] - b : i;
			double v  = single ? (double)(float)a[k] : a[k],
			       xv = single ? (double)(float)x[c] : x[c];
			ref[r] += v * xv;
			abs[r] += fabs( v * xv );
			cnt[r]++;
		}
	double err = 0, amax = 0;
	int    L = 1;
	for ( int i = 0; i < m; i++ )
	{
		if ( !isfinite( y[i] ) ) err = INFINITY;
		err  = fmax( err, fabs( y[i] - ref[i] ) );
		amax = fmax( amax, abs[i] );
		L    = cnt[i] > L ? cnt[i] : L;
	}
	free( ref );
	free( abs );
	free( cnt );
	return err / ( L * eps * fmax( amax, 1e-300 ) );
}

int main( int argc, char** argv )
{
	int         calls = 6, m = 60000, expect = -1;
	const char* trace = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !strcmp( argv[i], "--calls" ) && i + 1 < argc )
			calls = atoi( argv[++i] );
		else if ( !strcmp( argv[i], "--rows" ) && i + 1 < argc )
			m = atoi( argv[++i] );
		else if ( !strcmp( argv[i], "--trace" ) && i + 1 < argc )
			trace = argv[++i];
		else if ( !strcmp( argv[i], "--expect-device" ) && i + 1 < argc )
			expect = atoi( argv[++i] );
		else
		{
			fprintf( stderr, "usage: %s [--calls N] [--rows M] [--trace FILE --expect-device K]\n",
			         argv[0] );
			return 2;
		}
	}
	dcoo_fn dcoo0 = (dcoo_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_dcoogemv" );
	dcoo_fn dcoo1 = (dcoo_fn)dlsym( RTLD_DEFAULT, "mkl_dcoogemv" );
	scoo_fn scoo0 = (scoo_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_scoogemv" );
	dcsr_fn dcsr0 = (dcsr_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_dcsrgemv" );
	dcsr_fn dcsr1 = (dcsr_fn)dlsym( RTLD_DEFAULT, "mkl_dcsrgemv" );
	scsr_fn scsr1 = (scsr_fn)dlsym( RTLD_DEFAULT, "mkl_scsrgemv" );
	if ( !dcoo0 || !dcoo1 || !scoo0 || !dcsr0 || !dcsr1 || !scsr1 )
	{
		printf(
		    "skip: no MKL sparse symbols in this process (run it with LD_PRELOAD=libhyblas.so)\n" );
		return 77;
	}
	/* a banded matrix (offsets 0, +-1, +-7, +-200) in CSR and COO, base 0 and 1 */
	static const int off[7] = { 0, -1, 1, -7, 7, -200, 200 };
	int*             ia[2];
	int*             ja[2];
	int*             ri[2];
	double*          a   = malloc( (size_t)m * 7 * sizeof( double ) );
	float*           af  = malloc( (size_t)m * 7 * sizeof( float ) );
	int              nnz = 0;
	for ( int b = 0; b < 2; b++ )
	{
		ia[b] = malloc( (size_t)( m + 1 ) * sizeof( int ) );
		ja[b] = malloc( (size_t)m * 7 * sizeof( int ) );
		ri[b] = malloc( (size_t)m * 7 * sizeof( int ) );
	}
	for ( int i = 0; i < m; i++ )
	{
		ia[0][i] = nnz;
		ia[1][i] = nnz + 1;
		for ( int d = 0; d < 7; d++ )
		{
			int c = i + off[d];
			if ( c < 0 || c >= m ) continue;
			ja[0][nnz] = c;
			ja[1][nnz] = c + 1;
			ri[0][nnz] = i;
			ri[1][nnz] = i + 1;
			a[nnz]     = app_unit();
			af[nnz]    = (float)a[nnz];
			nnz++;
		}
	}
	ia[0][m]      = nnz;
	ia[1][m]      = nnz + 1;
	double* x     = malloc( (size_t)m * sizeof( double ) );
	double* y     = malloc( (size_t)m * sizeof( double ) );
	float*  xf    = malloc( (size_t)m * sizeof( float ) );
	float*  yf    = malloc( (size_t)m * sizeof( float ) );
	double* yd    = malloc( (size_t)m * sizeof( double ) );
	double  worst = 0;
	for ( int call = 0; call < calls; call++ )
	{
		for ( int i = 0; i < m; i++ ) xf[i] = (float)( x[i] = app_unit() );
		char t = call % 3 == 2 ? 'T' : 'N';
		/* one routine per call, in turn */
		switch ( call % 6 )
		{
		case 0:
			dcsr0( &t, &m, a, ia[0], ja[0], x, y );
			break;
		case 1:
			dcoo1( &t, &m, a, ri[1], ja[1], &nnz, x, y );
			break;
		case 2:
			dcoo0( &t, &m, a, ri[0], ja[0], &nnz, x, y );
			break;
		case 3:
			dcsr1( &t, &m, a, ia[1], ja[1], x, y );
			break;
		case 4:
			scsr1( &t, &m, af, ia[1], ja[1], xf, yf );
			for ( int i = 0; i < m; i++ ) y[i] = yf[i];
			break;
		default:
			scoo0( &t, &m, af, ri[0], ja[0], &nnz, xf, yf );
			for ( int i = 0; i < m; i++ ) y[i] = yf[i];
			break;
		}
		int    single = call % 6 >= 4;
		double e =
		    app_check( m, ia[0], ja[0], a, 0, t, x, y, single ? FLT_EPSILON : DBL_EPSILON, single );
		worst = fmax( worst, e );
		if ( !( e <= 4.0 ) )
		{
			printf( "FAIL: call %d (routine %d, transa %c): normalized error %g\n", call, call % 6,
			        t, e );
			return 1;
		}
	}
	/* the same matrix again and again (resident after its first calls) */
	for ( int call = 0; call < calls; call++ )
	{
		for ( int i = 0; i < m; i++ ) x[i] = app_unit();
		char t = 'N';
		dcsr0( &t, &m, a, ia[0], ja[0], x, yd );
		double e = app_check( m, ia[0], ja[0], a, 0, t, x, yd, DBL_EPSILON, 0 );
		worst    = fmax( worst, e );
		if ( !( e <= 4.0 ) )
		{
			printf( "FAIL: repeated call %d: normalized error %g\n", call, e );
			return 1;
		}
	}
	int device = 0;
	if ( trace )
	{
		FILE* f = fopen( trace, "r" );
		char  line[2048];
		while ( f && fgets( line, sizeof line, f ) )
			device += strstr( line, "path=gpu" ) != NULL || strstr( line, "path=split" ) != NULL;
		if ( f ) fclose( f );
		if ( expect >= 0 && device < expect )
		{
			printf( "FAIL: %d device calls in %s, expected at least %d\n", device, trace, expect );
			return 1;
		}
	}
	printf( "ok: %d calls, worst normalized error %.3g, %d on a device\n", 2 * calls, worst,
	        device );
	return 0;
}
