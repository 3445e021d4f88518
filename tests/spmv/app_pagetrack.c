/* SPDX-License-Identifier: BSD-3-Clause */
/* A program that tracks pages of its own while it calls MKL's sparse product (found at run
   time, as app_spmv does): hyblas's change tracking of the matrix must never break it.
     app_pagetrack --uffd       the matrix and a buffer of the program share one mapping;
                                after some products the program opens its own userfaultfd,
                                registers its buffer (and, where the kernel has async
                                write-protect, tracks a write to it with PAGEMAP_SCAN), then
                                registers the matrix's own pages, changes the matrix, and
                                every product stays right
     app_pagetrack --softdirty  the program clears the soft-dirty bits, writes its buffer,
                                makes products on a matrix it changes between calls, and its
                                buffer's page must still read soft-dirty
   Exits 77 when the symbols are missing (no hyblas) or the kernel lacks what the mode uses. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
/* Linux 6.7 uapi (include/uapi/linux/userfaultfd.h, fs.h), absent from older headers. */
#define APP_UFFD_FEATURE_WP_UNPOPULATED ( 1ULL << 13 )
#define APP_UFFD_FEATURE_WP_ASYNC       ( 1ULL << 15 )
struct app_page_region
{
	uint64_t start, end, categories;
};
struct app_pm_scan_arg
{
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted,
	    category_mask, category_anyof_mask, return_mask;
};
#define APP_PAGEMAP_SCAN        _IOWR( 'f', 16, struct app_pm_scan_arg )
#define APP_PAGE_IS_WRITTEN     ( 1ULL << 1 )
#define APP_PM_SCAN_WP_MATCHING ( 1ULL << 0 )

typedef void ( *dcsr_fn )( const char*, const int*, const double*, const int*, const int*,
                           const double*, double* );

static int    app_fails;
static size_t app_page;

static void app_expect( int ok, const char* what )
{
	printf( "%s %s\n", ok ? "ok  " : "FAIL", what );
	if ( !ok ) app_fails++;
}

/* The program's memory: one mapping holding ia, ja, a and, last, its own buffer. */
typedef struct
{
	unsigned char* base;
	size_t         bytes;
	int            m, nnz;
	int *          ia, *ja;
	double *       a, *x, *y;
	unsigned char* buf; /* the program's own pages */
	size_t         buf_bytes;
} app_mem_t;

static size_t app_round( size_t n )
{
	return ( n + app_page - 1 ) / app_page * app_page;
}

static void app_build( app_mem_t* s, int m )
{
	static const int off[5] = { 0, -1, 1, -9, 9 };
	size_t           cap    = (size_t)m * 5;
	s->m                    = m;
	s->buf_bytes            = 64 * app_page;
	s->bytes = app_round( (size_t)( m + 1 ) * sizeof( int ) ) + app_round( cap * sizeof( int ) ) +
	           app_round( cap * sizeof( double ) ) + s->buf_bytes;
	s->base = mmap( NULL, s->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( s->base == MAP_FAILED ) exit( 2 );
	s->ia  = (int*)s->base;
	s->ja  = (int*)( s->base + app_round( (size_t)( m + 1 ) * sizeof( int ) ) );
	s->a   = (double*)( (unsigned char*)s->ja + app_round( cap * sizeof( int ) ) );
	s->buf = (unsigned char*)s->a + app_round( cap * sizeof( double ) );
	memset( s->buf, 7, s->buf_bytes );
	int nnz = 0;
	for ( int i = 0; i < m; i++ )
	{
		s->ia[i] = nnz;
		for ( int d = 0; d < 5; d++ )
		{
			int c = i + off[d];
			if ( c < 0 || c >= m ) continue;
			s->ja[nnz]  = c;
			s->a[nnz++] = d == 0 ? 4.0 : 0.5 + 0.001 * ( i % 97 );
		}
	}
	s->ia[m] = nnz;
	s->nnz   = nnz;
	s->x     = malloc( sizeof( double ) * (size_t)m );
	s->y     = malloc( sizeof( double ) * (size_t)m );
	for ( int i = 0; i < m; i++ ) s->x[i] = 1.0 + 0.01 * ( i % 13 );
}

/* One product through the library, checked against the program's own loop. */
static void app_product( dcsr_fn f, app_mem_t* s, const char* what )
{
	char t = 'N';
	for ( int i = 0; i < s->m; i++ ) s->y[i] = NAN;
	f( &t, &s->m, s->a, s->ia, s->ja, s->x, s->y );
	double err = 0, scale = 0;
	for ( int i = 0; i < s->m; i++ )
	{
		double r = 0, ab = 0;
		for ( int k = s->ia[i]; k < s->ia[i + 1]; k++ )
		{
			r += s->a[k] * s->x[s->ja[k]];
			ab += fabs( s->a[k] * s->x[s->ja[k]] );
		}
		err   = isfinite( s->y[i] ) ? fmax( err, fabs( s->y[i] - r ) ) : INFINITY;
		scale = fmax( scale, ab );
	}
	app_expect( err <= 16 * 2.2e-16 * scale, what );
}

static int app_uffd( uint64_t features, int* async )
{
	int fd = (int)syscall( SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY );
	if ( fd < 0 ) return -1;
	struct uffdio_api api = { .api = UFFD_API, .features = features };
	if ( ioctl( fd, UFFDIO_API, &api ) == 0 )
	{
		*async = features != 0;
		return fd;
	}
	close( fd );
	if ( features == 0 ) return -1;
	return app_uffd( 0, async );
}

static int app_register( int fd, const void* p, size_t n, int wp )
{
	struct uffdio_register r = { .range = { (uintptr_t)p, n },
		                         .mode =
		                             wp ? UFFDIO_REGISTER_MODE_WP : UFFDIO_REGISTER_MODE_MISSING };
	return ioctl( fd, UFFDIO_REGISTER, &r ) == 0 ? 0 : errno;
}

static int app_run_uffd( dcsr_fn f, app_mem_t* s )
{
	for ( int c = 0; c < 3; c++ ) app_product( f, s, "product before the program's userfaultfd" );
	int async = 0;
	int fd    = app_uffd( APP_UFFD_FEATURE_WP_ASYNC | APP_UFFD_FEATURE_WP_UNPOPULATED, &async );
	if ( fd < 0 )
	{
		printf( "skip: no userfaultfd for this user here (%s)\n", strerror( errno ) );
		return 77;
	}
	/* Its own buffer, in the mapping that holds the matrix. */
	int rc = app_register( fd, s->buf, s->buf_bytes, async );
	app_expect( rc == 0, "the program registers its own buffer beside the matrix" );
	if ( rc == 0 && async )
	{
		/* Its own tracking: protect, write one page, ask which pages were written. */
		struct uffdio_writeprotect wp = { .range = { (uintptr_t)s->buf, s->buf_bytes },
			                              .mode  = UFFDIO_WRITEPROTECT_MODE_WP };
		app_expect( ioctl( fd, UFFDIO_WRITEPROTECT, &wp ) == 0,
		            "the program write-protects its buffer" );
		s->buf[5 * app_page + 3]  = 42;
		int                    pm = open( "/proc/self/pagemap", O_RDONLY | O_CLOEXEC );
		struct app_page_region reg[4];
		struct app_pm_scan_arg q;
		memset( &q, 0, sizeof q );
		q.size          = sizeof q;
		q.start         = (uintptr_t)s->buf;
		q.end           = (uintptr_t)s->buf + s->buf_bytes;
		q.vec           = (uintptr_t)reg;
		q.vec_len       = 4;
		q.category_mask = q.return_mask = APP_PAGE_IS_WRITTEN;
		long n                          = pm >= 0 ? ioctl( pm, APP_PAGEMAP_SCAN, &q ) : -1;
		if ( n >= 0 )
			app_expect( n == 1 && reg[0].start == (uintptr_t)s->buf + 5 * app_page &&
			                reg[0].end == reg[0].start + app_page,
			            "the program's own tracking sees exactly its write" );
		if ( pm >= 0 ) close( pm );
	}
	app_product( f, s, "product with the program's userfaultfd open" );
	usleep( 300000 );
	app_product( f, s, "product a while later" );
	/* The matrix's own pages (the values), registered by the program itself. */
	uintptr_t lo = ( (uintptr_t)s->a + app_page - 1 ) & ~( (uintptr_t)app_page - 1 );
	uintptr_t hi = ( (uintptr_t)( s->a + s->nnz ) ) & ~( (uintptr_t)app_page - 1 );
	rc           = app_register( fd, (void*)lo, hi - lo, 0 );
	app_expect( rc == 0, "the program registers the matrix's own pages" );
	for ( int k = 0; k < s->nnz; k += 3 ) s->a[k] *= 1.5;
	app_product( f, s, "product after the program changed the matrix" );
	app_product( f, s, "product again" );
	close( fd );
	for ( int k = 1; k < s->nnz; k += 5 ) s->a[k] = -s->a[k];
	app_product( f, s, "product after the program closed its userfaultfd and changed the matrix" );
	return 0;
}

/* Bit 55 of the pagemap entry of p, or -1. */
static int app_soft_dirty( const void* p )
{
	int      fd = open( "/proc/self/pagemap", O_RDONLY | O_CLOEXEC );
	uint64_t e  = 0;
	ssize_t  r =
        fd >= 0 ? pread( fd, &e, sizeof e, (off_t)( (uintptr_t)p / app_page * sizeof e ) ) : -1;
	if ( fd >= 0 ) close( fd );
	return r == (ssize_t)sizeof e ? (int)( ( e >> 55 ) & 1 ) : -1;
}

static int app_clear_refs( void )
{
	int fd = open( "/proc/self/clear_refs", O_WRONLY | O_CLOEXEC );
	int ok = fd >= 0 && write( fd, "4", 1 ) == 1;
	if ( fd >= 0 ) close( fd );
	return ok;
}

static int app_run_softdirty( dcsr_fn f, app_mem_t* s )
{
	s->buf[0] ^= 1;
	if ( !app_clear_refs() || app_soft_dirty( s->buf ) != 0 ||
	     ( s->buf[0] ^= 1, app_soft_dirty( s->buf ) ) != 1 )
	{
		printf( "skip: the kernel does not keep soft-dirty bits here\n" );
		return 77;
	}
	app_clear_refs();
	s->buf[app_page] = 9; /* the write the program tracks */
	for ( int c = 0; c < 6; c++ )
	{
		app_product( f, s, "product" );
		if ( c % 2 ) s->a[c * 1000] += 1.0;
	}
	app_expect( app_soft_dirty( s->buf + app_page ) == 1, "the program's soft-dirty bit survived" );
	return 0;
}

int main( int argc, char** argv )
{
	int uffd = argc == 2 && strcmp( argv[1], "--uffd" ) == 0;
	if ( !uffd && !( argc == 2 && strcmp( argv[1], "--softdirty" ) == 0 ) )
	{
		fprintf( stderr, "usage: app_pagetrack --uffd | --softdirty\n" );
		return 2;
	}
	dcsr_fn f = (dcsr_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_dcsrgemv" );
	if ( f == NULL )
	{
		printf(
		    "skip: no MKL sparse symbols in this process (run it with LD_PRELOAD=libhyblas.so)\n" );
		return 77;
	}
	app_page = (size_t)sysconf( _SC_PAGESIZE );
	app_mem_t s;
	app_build( &s, 60000 );
	int rc = uffd ? app_run_uffd( f, &s ) : app_run_softdirty( f, &s );
	if ( rc ) return rc;
	printf( "app_pagetrack: %s (%d failed checks)\n", app_fails ? "FAILED" : "PASSED", app_fails );
	return app_fails != 0;
}
