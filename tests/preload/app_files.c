/* SPDX-License-Identifier: BSD-3-Clause */
/* An ordinary program for the checks on the files around it (tests/preload/files_check.sh):
   a few dgemm_ calls checked against a triple loop and, on request, a dgtsv_ solve checked
   by its residual.
   Usage: app_files [--fd-reuse DATA] [--gtsv N] | --secure
     --fd-reuse DATA  first close every inherited descriptor from 3 on, as daemons and
                      careful programs do, open DATA (which gets descriptor 3), write a
                      known text, make the calls, and check DATA still holds exactly that
                      text and that descriptor 3 is still DATA
     --gtsv N         also solve one diagonally dominant tridiagonal system of order N
     --secure         print whether the kernel started the program in secure-execution
                      mode (AT_SECURE: setuid, setgid) and exit */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"

void dgtsv_( const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
             const int* ldb, int* info );

static const double hyb_eps_d       = 2.220446049250313e-16;
static const char   hyb_data_text[] = "the program's own data: 42\n";

static void hyb_gemms( void )
{
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 1919 );
	for ( int rep = 0; rep < 3; rep++ )
	{
		int     m = 30 + rep, n = 20, k = 25, ld = 40;
		double  alpha = 1.25, beta = 0.5;
		double* a    = hyb_bb_alloc_d( &r, ld, k );
		double* b    = hyb_bb_alloc_d( &r, ld, n );
		double* c    = hyb_bb_alloc_d( &r, ld, n );
		double* cref = malloc( sizeof *cref * (size_t)ld * (size_t)n );
		double  nc0  = hyb_bb_norm_d( m, n, c, ld );
		hyb_bb_ref_dgemm( 'N', 'N', m, n, k, alpha, a, ld, b, ld, beta, c, cref, ld );
		dgemm_( "N", "N", &m, &n, &k, &alpha, a, &ld, b, &ld, &beta, c, &ld, 1, 1 );
		hyb_bb_check( "dgemm_", hyb_bb_diff_d( m, n, c, cref, ld ),
		              hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( m, k, a, ld ),
		                                 hyb_bb_norm_d( k, n, b, ld ), beta, nc0 ),
		              hyb_eps_d );
		free( a );
		free( b );
		free( c );
		free( cref );
	}
}

/* A row-dominant system (4 on the diagonal, off-diagonals in [-1, 1)), checked by
   ||A x - b|| / (||A|| ||x|| n eps). */
static void hyb_gtsv( int n )
{
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 2019 );
	double* dl = malloc( sizeof( double ) * (size_t)n );
	double* d  = malloc( sizeof( double ) * (size_t)n );
	double* du = malloc( sizeof( double ) * (size_t)n );
	double* a0 = malloc( sizeof( double ) * 3 * (size_t)n );
	double* b  = malloc( sizeof( double ) * (size_t)n );
	double* b0 = malloc( sizeof( double ) * (size_t)n );
	for ( int i = 0; i < n; i++ )
	{
		dl[i] = hyb_bb_rng_uniform( &r );
		du[i] = hyb_bb_rng_uniform( &r );
		d[i]  = 4.0 + hyb_bb_rng_uniform( &r );
		b[i] = b0[i]      = hyb_bb_rng_uniform( &r );
		a0[3 * (size_t)i] = dl[i], a0[3 * (size_t)i + 1] = d[i], a0[3 * (size_t)i + 2] = du[i];
	}
	int info = -1, one = 1;
	dgtsv_( &n, &one, dl, d, du, b, &n, &info );
	double res = 0, nx = 0, na = 0;
	for ( int i = 0; i < n; i++ )
	{
		double ax = a0[3 * (size_t)i + 1] * b[i];
		if ( i > 0 ) ax += a0[3 * (size_t)( i - 1 )] * b[i - 1];
		if ( i + 1 < n ) ax += a0[3 * (size_t)i + 2] * b[i + 1];
		res += ( ax - b0[i] ) * ( ax - b0[i] );
		nx += b[i] * b[i];
		na += a0[3 * (size_t)i + 1] * a0[3 * (size_t)i + 1] + 2.0;
	}
	hyb_bb_expect( info == 0, "dgtsv_: INFO = %d", info );
	hyb_bb_check( "dgtsv_", sqrt( res ), sqrt( na ) * sqrt( nx ) * n, hyb_eps_d );
	free( dl );
	free( d );
	free( du );
	free( a0 );
	free( b );
	free( b0 );
}

int main( int argc, char** argv )
{
	const char* data = NULL;
	int         gtsv = 0;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--fd-reuse" ) == 0 && i + 1 < argc )
			data = argv[++i];
		else if ( strcmp( argv[i], "--gtsv" ) == 0 && i + 1 < argc )
			gtsv = atoi( argv[++i] );
		else if ( strcmp( argv[i], "--secure" ) == 0 )
		{
			printf( "AT_SECURE=%lu euid=%ld\n", getauxval( AT_SECURE ), (long)geteuid() );
			return 0;
		}
		else
		{
			fprintf( stderr, "usage: app_files [--fd-reuse DATA] [--gtsv N] | --secure\n" );
			return 2;
		}
	}
	struct stat before;
	if ( data )
	{
		for ( int fd = 3; fd < 1024; fd++ ) close( fd );
		int fd = open( data, O_RDWR | O_CREAT | O_TRUNC, 0644 );
		if ( !hyb_bb_expect( fd == 3, "the data file got descriptor %d, not 3", fd ) )
			return hyb_bb_finish( "app_files" );
		hyb_bb_expect( write( fd, hyb_data_text, strlen( hyb_data_text ) ) ==
		                   (ssize_t)strlen( hyb_data_text ),
		               "cannot write the data file" );
		fstat( fd, &before );
	}
	hyb_gemms();
	if ( gtsv > 0 ) hyb_gtsv( gtsv );
	if ( data )
	{
		struct stat now;
		hyb_bb_expect( fstat( 3, &now ) == 0 && now.st_ino == before.st_ino &&
		                   now.st_dev == before.st_dev,
		               "descriptor 3 is no longer the data file" );
		char    buf[4096];
		int     fd = open( data, O_RDONLY );
		ssize_t n  = fd >= 0 ? read( fd, buf, sizeof buf - 1 ) : -1;
		if ( fd >= 0 ) close( fd );
		buf[n > 0 ? n : 0] = '\0';
		hyb_bb_expect( strcmp( buf, hyb_data_text ) == 0,
		               "the data file was changed; it holds:\n%s", buf );
	}
	return hyb_bb_finish( "app_files" );
}
