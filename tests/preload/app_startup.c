/* SPDX-License-Identifier: BSD-3-Clause */
/* Loading hyblas costs nothing for a program that never calls BLAS: no
   thread started, no CUDA plugin or CUDA library mapped, whatever the mode
   (checked at the end of main and again at exit).
   Usage: app_startup --shim yes|no */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hyb_shim = -1;
static int hyb_failed;

static int hyb_threads( void )
{
	DIR* d = opendir( "/proc/self/task" );
	if ( d == NULL ) return -1;
	int            n = 0;
	struct dirent* e;
	while ( ( e = readdir( d ) ) )
		if ( e->d_name[0] != '.' ) n++;
	closedir( d );
	return n;
}

/* Does any mapping's path contain `what`? */
static int hyb_mapped( const char* what )
{
	FILE* f = fopen( "/proc/self/maps", "r" );
	if ( f == NULL ) return -1;
	char line[4096];
	int  found = 0;
	while ( !found && fgets( line, sizeof line, f ) ) found = strstr( line, what ) != NULL;
	fclose( f );
	return found;
}

static void hyb_check( const char* when )
{
	static const char* const forbidden[] = { "libhyblas_cuda", "libcublas",   "libcudart",
		                                     "libcuda.so",     "libcusparse", "libnvidia" };
	int                      threads     = hyb_threads();
	printf( "%s: %d thread(s)\n", when, threads );
	if ( threads != 1 )
	{
		printf( "FAIL %s: %d threads, want 1\n", when, threads );
		hyb_failed = 1;
	}
	for ( size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++ )
		if ( hyb_mapped( forbidden[i] ) != 0 )
		{
			printf( "FAIL %s: %s is mapped\n", when, forbidden[i] );
			hyb_failed = 1;
		}
	if ( hyb_shim >= 0 && hyb_mapped( "libhyblas" ) != hyb_shim )
	{
		printf( "FAIL %s: libhyblas is %s\n", when, hyb_shim ? "not loaded" : "loaded" );
		hyb_failed = 1;
	}
	fflush( stdout );
}

static void hyb_at_exit( void )
{
	hyb_check( "at exit" );
	if ( hyb_failed ) _exit( 1 );
}

int main( int argc, char** argv )
{
	if ( argc == 3 && strcmp( argv[1], "--shim" ) == 0 )
		hyb_shim = strcmp( argv[2], "yes" ) == 0;
	else if ( argc != 1 )
	{
		fprintf( stderr, "usage: %s [--shim yes|no]\n", argv[0] );
		return 2;
	}
	atexit( hyb_at_exit );
	/* Some ordinary work that is not BLAS. */
	size_t  n = 1 << 16;
	double* x = malloc( n * sizeof *x );
	double  s = 0;
	for ( size_t i = 0; i < n; i++ ) x[i] = (double)i * 0.5, s += x[i];
	free( x );
	printf( "sum %.1f\n", s );
	hyb_check( "end of main" );
	printf( "app_startup: %s\n", hyb_failed ? "FAILED" : "PASSED" );
	return hyb_failed;
}
