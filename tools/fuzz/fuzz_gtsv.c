/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer harness: dgtsv_ through hyblas against the real LAPACK routine (the same
   library hyblas forwards to, opened here directly), on systems made from the input bytes:
   small ones (LAPACK's path) and ones of 8192 rows or more (the SPIKE's), dominant by rows
   or by columns or by neither, with zero pivots, rows that need a swap, Inf and NaN placed
   where the bytes say, several right-hand sides, and invalid sizes. Run with
   HYBLAS_MODE=gpu on the simulated device (tools/fuzz/gtsv.env), so that every system the
   SPIKE takes runs the device pipeline and the seams. The contract checked: the same INFO and the
   same xerbla reports; where INFO is not 0 or hyblas gave the call to LAPACK, every output
   bit for bit; where the SPIKE solved it, X within 1e-10 of LAPACK's (normwise: every
   system the SPIKE takes is strictly dominant), LAPACK's no-swap factors in DL and D and DU
   untouched. Any crash, sanitizer report or abort() is a finding. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

typedef void ( *fz_gtsv_fn )( const int* n, const int* nrhs, double* dl, double* d, double* du,
                              double* b, const int* ldb, int* info );

/* hyblas's dgtsv_ (this program links libhyblas). */
void dgtsv_( const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
             const int* ldb, int* info );

/* The real library, as hyblas is told to use it (HYBLAS_CPU_LIB in tools/fuzz/gtsv.env). */
#define FZ_LAPACK "liblapack.so.3"

static fz_gtsv_fn fz_lapack;

/* The program's xerbla_: LAPACK's calls reach it (the fuzzers are linked with
   --export-dynamic), it records the last report and returns. */
static char fz_xname[8];
static int  fz_xinfo, fz_xcalls;

__attribute__( ( visibility( "default" ) ) ) void xerbla_( const char* srname, const int* info,
                                                           size_t len );
__attribute__( ( visibility( "default" ) ) ) void xerbla_( const char* srname, const int* info,
                                                           size_t len )
{
	memset( fz_xname, 0, sizeof fz_xname );
	memcpy( fz_xname, srname, len < sizeof fz_xname - 1 ? len : sizeof fz_xname - 1 );
	fz_xinfo = *info;
	fz_xcalls++;
}

/* The reference, opened once. */
static fz_gtsv_fn fz_reference( void )
{
	if ( fz_lapack == NULL )
	{
		void* h   = dlopen( FZ_LAPACK, RTLD_NOW | RTLD_LOCAL );
		fz_lapack = h ? (fz_gtsv_fn)dlsym( h, "dgtsv_" ) : NULL;
		if ( fz_lapack == NULL ) abort();
	}
	return fz_lapack;
}

/* A deterministic stream of doubles in [-1, 1) from a seed the input gives. */
static double fz_rand( uint64_t* s )
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (double)( *s >> 11 ) / 4503599627370496.0 - 1.0;
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	fz_in_t        in    = { data, size, 0 };
	const unsigned shape = fz_byte( &in );
	int            n     = ( shape & 1 ) ? 8192 + (int)( fz_byte( &in ) * 97u + fz_byte( &in ) )
	                                     : (int)( fz_byte( &in ) % 40 );
	int            nrhs  = 1 + (int)( ( shape >> 1 ) & 3 );
	int            ldb   = n + (int)( ( shape >> 3 ) & 1 );
	const unsigned bad   = fz_byte( &in );
	if ( bad == 1 ) n = -1 - (int)( shape >> 4 );
	if ( bad == 2 ) nrhs = -1;
	if ( bad == 3 ) ldb = n - 1;
	if ( bad == 4 ) nrhs = 0;
	/* Dominance of the diagonal over its row (rows) or column (columns), or of neither. */
	const unsigned kind = fz_byte( &in ) % 3;
	const double   dom  = 0.5 + (double)fz_byte( &in ) / 64.0;
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ ( (uint64_t)fz_byte( &in ) << 8 | fz_byte( &in ) );

	const int    rows = n > 0 ? n : 1;
	const size_t ld   = (size_t)( ldb > rows ? ldb : rows );
	const size_t nb   = ld * (size_t)( nrhs > 0 ? nrhs : 1 );
	double *     dl[2], *d[2], *du[2], *b[2];
	for ( int c = 0; c < 2; c++ )
	{
		dl[c] = malloc( (size_t)rows * sizeof( double ) );
		d[c]  = malloc( (size_t)rows * sizeof( double ) );
		du[c] = malloc( (size_t)rows * sizeof( double ) );
		b[c]  = malloc( nb * sizeof( double ) );
		if ( !dl[c] || !d[c] || !du[c] || !b[c] ) abort();
	}
	for ( int i = 0; i < rows; i++ )
	{
		dl[0][i] = fz_rand( &seed );
		du[0][i] = fz_rand( &seed );
	}
	for ( int i = 0; i < rows; i++ )
	{
		const double lo  = i > 0 ? fabs( dl[0][i - 1] ) : 0.0,
		             up  = i + 1 < rows ? fabs( du[0][i] ) : 0.0;
		const double lc  = i + 1 < rows ? fabs( dl[0][i] ) : 0.0,
		             uc  = i > 0 ? fabs( du[0][i - 1] ) : 0.0;
		const double off = kind == 0 ? lo + up : kind == 1 ? lc + uc : 0.25;
		d[0][i]          = ( fz_rand( &seed ) < 0 ? -1.0 : 1.0 ) * ( dom * off + 1e-300 );
	}
	for ( size_t k = 0; k < nb; k++ ) b[0][k] = fz_rand( &seed );
	/* Special entries where the bytes say: a zero pivot, Inf, NaN, a row that needs a swap. */
	for ( unsigned s = fz_byte( &in ) % 4; s > 0; s-- )
	{
		const int      at   = (int)( ( fz_byte( &in ) << 8 | fz_byte( &in ) ) % (unsigned)rows );
		const unsigned what = fz_byte( &in ) % 5;
		if ( what == 0 ) d[0][at] = 0.0;
		if ( what == 1 ) d[0][at] = INFINITY;
		if ( what == 2 ) dl[0][at] = NAN;
		if ( what == 3 ) b[0][at] = NAN;
		if ( what == 4 ) dl[0][at] = 4.0 * ( fabs( d[0][at] ) + 1.0 );
	}
	memcpy( dl[1], dl[0], (size_t)rows * sizeof( double ) );
	memcpy( d[1], d[0], (size_t)rows * sizeof( double ) );
	memcpy( du[1], du[0], (size_t)rows * sizeof( double ) );
	memcpy( b[1], b[0], nb * sizeof( double ) );

	int info_h = 12345, info_l = 54321;
	fz_xcalls = 0;
	dgtsv_( &n, &nrhs, dl[0], d[0], du[0], b[0], &ldb, &info_h );
	const int xcalls_h = fz_xcalls, xinfo_h = fz_xinfo;
	char      xname_h[8];
	memcpy( xname_h, fz_xname, sizeof xname_h );
	fz_xcalls = 0;
	fz_reference()( &n, &nrhs, dl[1], d[1], du[1], b[1], &ldb, &info_l );
	if ( info_h != info_l || xcalls_h != fz_xcalls ||
	     ( xcalls_h && ( xinfo_h != fz_xinfo || memcmp( xname_h, fz_xname, sizeof xname_h ) ) ) )
		abort();

	const size_t m  = (size_t)( n > 0 ? n : 0 );
	const int    eq = memcmp( dl[0], dl[1], m * sizeof( double ) ) == 0 &&
	               memcmp( d[0], d[1], m * sizeof( double ) ) == 0 &&
	               memcmp( du[0], du[1], m * sizeof( double ) ) == 0 &&
	               ( nrhs <= 0 || memcmp( b[0], b[1], nb * sizeof( double ) ) == 0 );
	if ( !eq )
	{
		/* Only a SPIKE solution may differ from LAPACK's bits: INFO 0, a large system,
		   everything finite, X close, the no-swap factors (DL zero, D LAPACK's), DU kept. */
		if ( info_h != 0 || n < 8192 || nrhs <= 0 ) abort();
		double xmax = 0.0, dmax = 0.0;
		for ( size_t k = 0; k < nb; k++ )
			if ( ( k % ld ) < m ) xmax = fmax( xmax, fabs( b[1][k] ) );
		for ( size_t k = 0; k < nb; k++ )
			if ( ( k % ld ) < m && !( fabs( b[0][k] - b[1][k] ) <= 1e-10 * xmax ) ) abort();
		for ( size_t i = 0; i < m; i++ ) dmax = fmax( dmax, fabs( d[1][i] ) );
		for ( size_t i = 0; i < m; i++ )
			if ( !( fabs( d[0][i] - d[1][i] ) <= 1e-12 * dmax ) || dl[0][i] != dl[1][i] ||
			     du[0][i] != du[1][i] )
				abort();
	}
	for ( int c = 0; c < 2; c++ )
	{
		free( dl[c] );
		free( d[c] );
		free( du[c] );
		free( b[c] );
	}
	return 0;
}
