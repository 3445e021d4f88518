/* SPDX-License-Identifier: BSD-3-Clause */
/* Residency: every kind of write invalidates a watch, for every mechanism
   that works here; the cache never serves stale data and keeps its bounds. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hyb_test_util.h"
#include "policies/hyb_residency.h"

/* ------------------------------------------------------------ helpers */

/* The generator of the test data, seeded per test. */
static hyb_t_rng_t hyb_t_res_rng;

static void hyb_t_seed( uint64_t seed )
{
	hyb_t_res_rng = hyb_t_rng( seed );
}

static size_t hyb_t_res_below( size_t n )
{
	return (size_t)hyb_t_below( &hyb_t_res_rng, (int64_t)n );
}

static void hyb_t_fill_bytes( void* p, size_t n )
{
	unsigned char* b = p;
	/* never 0 */
	for ( size_t i = 0; i < n; i++ ) b[i] = (unsigned char)( hyb_t_next( &hyb_t_res_rng ) | 1 );
}

/* A fresh private anonymous mapping filled with random non-zero bytes. */
static unsigned char* hyb_t_map( size_t n )
{
	void* p = mmap( NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	CU_ASSERT_FATAL( p != MAP_FAILED );
	hyb_t_fill_bytes( p, n );
	return p;
}

/* The configurations tested: hashing always; uffd-wp with both scans (the
   fast one the probe picks here, and the full walk it falls back to); the
   kernel ones only where their probe says they work. */
typedef struct
{
	hyb_residency_mech_t mech;
	int                  full; /* uffd-wp scan, -1 for the others */
} hyb_t_cfg_t;

static const hyb_t_cfg_t hyb_t_cfgs[]      = { { HYB_RESIDENCY_MECH_HASH, -1 },
	                                           { HYB_RESIDENCY_MECH_UFFD, 0 },
	                                           { HYB_RESIDENCY_MECH_UFFD, 1 },
	                                           { HYB_RESIDENCY_MECH_SOFTDIRTY, -1 } };
static int               hyb_t_probed_full = -1;

static int hyb_t_enter( const hyb_t_cfg_t* c )
{
	if ( !hyb_residency_mech_available( c->mech ) ) return 0;
	if ( c->mech == HYB_RESIDENCY_MECH_UFFD )
	{
		if ( hyb_t_probed_full < 0 ) hyb_t_probed_full = hyb_residency_uffd_full_scan( -1 );
		hyb_residency_uffd_full_scan( c->full );
	}
	return 1;
}

static const char* hyb_t_name( hyb_residency_mech_t m )
{
	if ( m == HYB_RESIDENCY_MECH_UFFD )
		return hyb_residency_uffd_full_scan( -1 ) ? "uffd-wp/full" : "uffd-wp/fast";
	return hyb_residency_mech_name( m );
}

#define HYB_T_FOR_EACH_MECH( m )                                                                   \
	for ( size_t hyb_t_i_ = 0; hyb_t_i_ < sizeof hyb_t_cfgs / sizeof hyb_t_cfgs[0]; hyb_t_i_++ )   \
		for ( hyb_residency_mech_t m = hyb_t_cfgs[hyb_t_i_].mech; m != HYB_RESIDENCY_MECH_AUTO;    \
		      m                      = HYB_RESIDENCY_MECH_AUTO )                                   \
            if ( hyb_t_enter( &hyb_t_cfgs[hyb_t_i_] ) )

/* Leave the process with the scan its probe chose. */
static int hyb_t_suite_cleanup( void )
{
	if ( hyb_t_probed_full >= 0 ) hyb_residency_uffd_full_scan( hyb_t_probed_full );
	return 0;
}

/* Assertion that names the configuration it failed for. */
#define HYB_T_ASSERT( m, cond )                                                                    \
	do {                                                                                           \
		char hyb_t_msg_[256];                                                                      \
		snprintf( hyb_t_msg_, sizeof hyb_t_msg_, "[%s] %s", hyb_t_name( m ), #cond );              \
		CU_assertImplementation( ( cond ) ? CU_TRUE : CU_FALSE, __LINE__, hyb_t_msg_, __FILE__,    \
		                         "", CU_FALSE );                                                   \
	} while ( 0 )

static hyb_residency_watch_t* hyb_t_watch( hyb_residency_mech_t m, const void* p, size_t n )
{
	hyb_residency_range_t  r = { p, n };
	hyb_residency_watch_t* w = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_residency_watch_create( m, &r, 1, &w ), HYB_OK );
	CU_ASSERT_PTR_NOT_NULL_FATAL( w );
	return w;
}

/* A watch over n >= HYB_RESIDENCY_TRACK_MIN_BYTES bytes of anonymous memory
   must really use the requested mechanism, else the test proves nothing
   about it. */
static hyb_residency_watch_t* hyb_t_watch_tracked( hyb_residency_mech_t m, const void* p, size_t n )
{
	hyb_residency_watch_t* w = hyb_t_watch( m, p, n );
	HYB_T_ASSERT( m, hyb_residency_watch_mech( w ) == m );
	return w;
}

#define HYB_T_MIB ( (size_t)1 << 20 )

/* ------------------------------------------------------------ mechanisms */

static void test_mechanisms( void )
{
	CU_ASSERT( hyb_residency_mech_available( HYB_RESIDENCY_MECH_HASH ) );
	CU_ASSERT_EQUAL( hyb_residency_mech_for_mode( HYB_RESIDENCY_OFF ), HYB_RESIDENCY_MECH_NONE );
	CU_ASSERT_EQUAL( hyb_residency_mech_for_mode( HYB_RESIDENCY_VERIFY ), HYB_RESIDENCY_MECH_HASH );
	hyb_residency_mech_t t = hyb_residency_mech_for_mode( HYB_RESIDENCY_TRACK );
	if ( hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) )
		CU_ASSERT_EQUAL( t, HYB_RESIDENCY_MECH_UFFD );
	CU_ASSERT( t == HYB_RESIDENCY_MECH_UFFD || t == HYB_RESIDENCY_MECH_SOFTDIRTY ||
	           t == HYB_RESIDENCY_MECH_HASH );
	for ( int m = 0; m < HYB_RESIDENCY_MECH_COUNT; m++ )
		CU_ASSERT( strcmp( hyb_residency_mech_name( (hyb_residency_mech_t)m ), "unknown" ) != 0 );
	/* Where the kernel accepts a user-mode-only userfaultfd with async
	   write-protect, the tracker must offer it: a probe that fails there
	   would silently skip every uffd test below. */
	int fd = (int)syscall( SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY );
	if ( fd >= 0 )
	{
		struct uffdio_api api = { .api = UFFD_API, .features = ( 1ULL << 15 ) | ( 1ULL << 13 ) };
		if ( ioctl( fd, UFFDIO_API, &api ) == 0 )
			CU_ASSERT( hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) );
		close( fd );
	}
	int full = hyb_residency_uffd_full_scan( -1 );
	printf( "\n    configurations tested here:" );
	HYB_T_FOR_EACH_MECH( m ) printf( " %s", hyb_t_name( m ) );
	hyb_residency_uffd_full_scan( full );
	printf( " (track mode uses %s%s) ", hyb_residency_mech_name( t ),
	        t == HYB_RESIDENCY_MECH_UFFD ? ( full ? ", full scan" : ", fast scan" ) : "" );
}

static void test_hash( void )
{
	hyb_t_seed( 11 );
	unsigned char buf[257];
	hyb_t_fill_bytes( buf, sizeof buf );
	uint64_t h0 = hyb_residency_hash_bytes( buf, sizeof buf );
	CU_ASSERT_EQUAL( h0, hyb_residency_hash_bytes( buf, sizeof buf ) );
	/* Any one-byte change at any position, of any length up to 257. */
	for ( size_t n = 1; n <= sizeof buf; n += 37 )
		for ( size_t i = 0; i < n; i++ )
		{
			uint64_t h = hyb_residency_hash_bytes( buf, n );
			buf[i] ^= 0x10;
			CU_ASSERT( hyb_residency_hash_bytes( buf, n ) != h );
			buf[i] ^= 0x10;
		}
	CU_ASSERT( hyb_residency_hash_bytes( buf, 8 ) != hyb_residency_hash_bytes( buf, 9 ) );

	/* Large: parallel blocks give the serial value; a change in the last
	   block and a swap of two blocks both show. */
	size_t         n  = 9 * HYB_T_MIB + 123;
	unsigned char* b  = hyb_t_map( n );
	int            nt = omp_get_max_threads();
	uint64_t       hp = hyb_residency_hash_bytes( b, n );
	omp_set_num_threads( 1 );
	uint64_t hs = hyb_residency_hash_bytes( b, n );
	omp_set_num_threads( nt );
	CU_ASSERT_EQUAL( hp, hs );
	b[n - 1] ^= 1;
	CU_ASSERT( hyb_residency_hash_bytes( b, n ) != hp );
	b[n - 1] ^= 1;
	unsigned char* tmp = malloc( HYB_T_MIB );
	CU_ASSERT_FATAL( tmp != NULL );
	memcpy( tmp, b, HYB_T_MIB );
	memcpy( b, b + HYB_T_MIB, HYB_T_MIB );
	memcpy( b + HYB_T_MIB, tmp, HYB_T_MIB );
	CU_ASSERT( hyb_residency_hash_bytes( b, n ) != hp );
	free( tmp );
	munmap( b, n );
}

static void test_invalid_args( void )
{
	hyb_residency_watch_t* w = NULL;
	hyb_residency_range_t  r = { NULL, 16 };
	CU_ASSERT_EQUAL( hyb_residency_watch_create( HYB_RESIDENCY_MECH_HASH, &r, 1, &w ),
	                 HYB_E_INVALID );
	CU_ASSERT_PTR_NULL( w );
	r.addr = &r;
	CU_ASSERT_EQUAL( hyb_residency_watch_create( HYB_RESIDENCY_MECH_NONE, &r, 1, &w ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_residency_watch_create( HYB_RESIDENCY_MECH_HASH, &r, -1, &w ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_residency_watch_create( HYB_RESIDENCY_MECH_HASH, NULL, 1, &w ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_residency_watch_create( HYB_RESIDENCY_MECH_HASH, &r, 1, NULL ),
	                 HYB_E_INVALID );
	r.addr  = (const void*)( UINTPTR_MAX - 4 );
	r.bytes = 16;
	CU_ASSERT_EQUAL( hyb_residency_watch_create( HYB_RESIDENCY_MECH_HASH, &r, 1, &w ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( NULL ), 1 );
	hyb_residency_watch_destroy( NULL );
	/* An empty watch never changes. */
	HYB_T_FOR_EACH_MECH( m )
	{
		CU_ASSERT_EQUAL( hyb_residency_watch_create( m, NULL, 0, &w ), HYB_OK );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		hyb_residency_watch_destroy( w );
	}
}

/* ------------------------------------------------------------ write kinds */

/* Three ranges of different kinds: a large unaligned range in a mapping
   (head, tracked body, tail), a medium heap array, a small heap array. */
typedef struct
{
	unsigned char*        map;
	size_t                map_len;
	unsigned char*        medium;
	unsigned char*        small;
	hyb_residency_range_t r[3];
} hyb_t_set_t;

static void hyb_t_set_make( hyb_t_set_t* s )
{
	s->map_len = HYB_T_MIB;
	s->map     = hyb_t_map( s->map_len );
	s->medium  = malloc( 96 * 1024 );
	s->small   = malloc( 800 );
	CU_ASSERT_FATAL( s->medium && s->small );
	hyb_t_fill_bytes( s->medium, 96 * 1024 );
	hyb_t_fill_bytes( s->small, 800 );
	s->r[0] = ( hyb_residency_range_t ){ s->map + 100, s->map_len - 300 };
	s->r[1] = ( hyb_residency_range_t ){ s->medium, 96 * 1024 };
	s->r[2] = ( hyb_residency_range_t ){ s->small, 800 };
}

static void hyb_t_set_free( hyb_t_set_t* s )
{
	munmap( s->map, s->map_len );
	free( s->medium );
	free( s->small );
}

static void test_unchanged_many_checks( void )
{
	hyb_t_seed( 21 );
	HYB_T_FOR_EACH_MECH( m )
	{
		hyb_t_set_t s;
		hyb_t_set_make( &s );
		hyb_residency_watch_t* w = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_residency_watch_create( m, s.r, 3, &w ), HYB_OK );
		HYB_T_ASSERT( m, hyb_residency_watch_mech( w ) == m );
		volatile unsigned sum = 0;
		int               bad = 0;
		for ( int k = 0; k < 100; k++ )
		{
			for ( size_t i = 0; i < s.map_len; i += 4096 )
				sum += s.map[i]; /* reads are no change */
			bad += hyb_residency_watch_changed( w );
		}
		HYB_T_ASSERT( m, bad == 0 );
		/* Rearm keeps it clean. */
		CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		hyb_residency_watch_destroy( w );
		hyb_t_set_free( &s );
	}
}

/* A store of one byte at positions in the head partial page, the body and
   the tail partial page of each range; sticky until rearm. */
static void test_single_store( void )
{
	hyb_t_seed( 31 );
	HYB_T_FOR_EACH_MECH( m )
	{
		hyb_t_set_t s;
		hyb_t_set_make( &s );
		hyb_residency_watch_t* w = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_residency_watch_create( m, s.r, 3, &w ), HYB_OK );
		for ( int ri = 0; ri < 3; ri++ )
		{
			unsigned char* base  = (unsigned char*)s.r[ri].addr;
			size_t         n     = s.r[ri].bytes;
			size_t         pos[] = { 0, 1, n / 2, ( n / 2 + 4095 ) % n, n - 2, n - 1 };
			for ( size_t k = 0; k < sizeof pos / sizeof pos[0]; k++ )
			{
				base[pos[k]] ^= 0x5A;
				HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
				HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 ); /* sticky */
				CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
				HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
			}
		}
		hyb_residency_watch_destroy( w );
		hyb_t_set_free( &s );
	}
}

/* A check walked by a team of threads in small pieces (hyb_residency_watch_changed_on)
   finds a store wherever it lands: at the ends of two unaligned ranges, on both sides of a
   piece's boundary, and a zapped range; unchanged, it finds nothing. */
static void test_check_on_team( void )
{
	hyb_t_seed( 37 );
	hyb_team_t* team = hyb_team_create( 2 );
	CU_ASSERT_PTR_NOT_NULL_FATAL( team );
	hyb_residency_scan_piece_for_test( 2 * HYB_T_MIB );
	const size_t n = 24 * HYB_T_MIB;
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         p    = hyb_t_map( n );
		hyb_residency_range_t  r[2] = { { p + 3 * 4096 + 17, 11 * HYB_T_MIB },
			                            { p + 12 * HYB_T_MIB + 5, 11 * HYB_T_MIB + 3000 } };
		hyb_residency_watch_t* w    = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_residency_watch_create( m, r, 2, &w ), HYB_OK );
		for ( int k = 0; k < 3; k++ )
			HYB_T_ASSERT( m, hyb_residency_watch_changed_on( w, team ) == 0 );
		const size_t at[] = { 3 * 4096 + 17, 2 * HYB_T_MIB - 1, 2 * HYB_T_MIB, 8 * HYB_T_MIB + 4096,
			                  3 * 4096 + 17 + 11 * HYB_T_MIB - 1, 12 * HYB_T_MIB + 5,
			                  18 * HYB_T_MIB, 12 * HYB_T_MIB + 5 + 11 * HYB_T_MIB + 2999,
			                  /* in the last whole page of each range: the last piece */
			                  3 * 4096 + 17 + 11 * HYB_T_MIB - 5000,
			                  12 * HYB_T_MIB + 5 + 11 * HYB_T_MIB + 3000 - 5000 };
		for ( size_t k = 0; k < sizeof at / sizeof at[0]; k++ )
		{
			p[at[k]] ^= 0x5A;
			HYB_T_ASSERT( m, hyb_residency_watch_changed_on( w, team ) == 1 );
			CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
			HYB_T_ASSERT( m, hyb_residency_watch_changed_on( w, team ) == 0 );
		}
		CU_ASSERT_EQUAL( madvise( p + 16 * HYB_T_MIB, 2 * HYB_T_MIB, MADV_DONTNEED ), 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed_on( w, team ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( p, n );
	}
	hyb_residency_scan_piece_for_test( 0 );
	hyb_team_destroy( team );
}

static void test_memcpy_middle( void )
{
	hyb_t_seed( 41 );
	HYB_T_FOR_EACH_MECH( m )
	{
		hyb_t_set_t s;
		hyb_t_set_make( &s );
		hyb_residency_watch_t* w = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_residency_watch_create( m, s.r, 3, &w ), HYB_OK );
		unsigned char src[10000];
		hyb_t_fill_bytes( src, sizeof src );
		memcpy( s.map + s.map_len / 2 - 5000, src, sizeof src );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
		memcpy( s.medium + 1000, src, 5000 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		hyb_t_set_free( &s );
	}
}

/* The kernel writes the array: read(2) and pread(2) from a file. */
static void test_read_syscall( void )
{
	hyb_t_seed( 51 );
	FILE* f = tmpfile();
	CU_ASSERT_FATAL( f != NULL );
	int           fd = fileno( f );
	unsigned char src[3 * 4096];
	hyb_t_fill_bytes( src, sizeof src );
	CU_ASSERT_FATAL( write( fd, src, sizeof src ) == (ssize_t)sizeof src );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a = hyb_t_map( HYB_T_MIB );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a + 8, HYB_T_MIB - 16 );
		/* Across a page boundary in the body: read(2) must succeed. */
		CU_ASSERT_EQUAL( lseek( fd, 0, SEEK_SET ), 0 );
		HYB_T_ASSERT( m, read( fd, a + 20 * 4096 - 100, 2 * 4096 ) == 2 * 4096 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
		/* Into the head partial page. */
		HYB_T_ASSERT( m, pread( fd, a + 8, 64, 4096 ) == 64 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
		/* Into an untouched page of the body (the read(2) faults it in). */
		unsigned char* b =
		    mmap( NULL, HYB_T_MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
		CU_ASSERT_FATAL( b != MAP_FAILED );
		memset( b, 7, HYB_T_MIB / 2 ); /* second half never touched */
		hyb_residency_watch_t* w2 = hyb_t_watch( m, b, HYB_T_MIB );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 0 );
		HYB_T_ASSERT( m, pread( fd, b + HYB_T_MIB - 8192, 4096, 0 ) == 4096 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 1 );
		hyb_residency_watch_destroy( w2 );
		munmap( b, HYB_T_MIB );
		hyb_residency_watch_destroy( w );
		munmap( a, HYB_T_MIB );
	}
	fclose( f );
}

/* A byte XOR always changes the data (adding 1.0 to a random double need
   not: NaN, or too large to change). */
static void* hyb_t_thread_store( void* arg )
{
	unsigned char* p = arg;
	*p ^= 0x21;
	return NULL;
}

static void test_thread_store( void )
{
	hyb_t_seed( 61 );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a = hyb_t_map( HYB_T_MIB );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a, HYB_T_MIB );
		pthread_t              t;
		CU_ASSERT_FATAL( pthread_create( &t, NULL, hyb_t_thread_store, a + 300 * 1024 ) == 0 );
		pthread_join( t, NULL );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( a, HYB_T_MIB );
	}
}

/* free() and malloc() again at the same address, new contents. */
static void test_free_realloc_heap( void )
{
	hyb_t_seed( 71 );
	const size_t sizes[] = { 800, 96 * 1024 }; /* tcache chunk; brk heap, tracked body */
	HYB_T_FOR_EACH_MECH( m )
	for ( size_t k = 0; k < 2; k++ )
	{
		size_t         n = sizes[k];
		unsigned char* p = malloc( n );
		CU_ASSERT_FATAL( p != NULL );
		hyb_t_fill_bytes( p, n );
		hyb_residency_watch_t* w = hyb_t_watch( m, p, n );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		free( p );
		unsigned char* q = malloc( n );
		CU_ASSERT_FATAL( q != NULL );
		if ( q == p )
		{
			hyb_t_fill_bytes( q, n );
			HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		}
		else /* e.g. under ASan's quarantine; the old range may not be read */
			printf( "\n    [%s] malloc(%zu) did not reuse the address: not tested ",
			        hyb_t_name( m ), n );
		hyb_residency_watch_destroy( w );
		free( q );
	}
}

/* munmap + mmap(MAP_FIXED) at the same address. With the same contents a
   kernel mechanism still reports a change (a new mapping) and hashing
   correctly does not; with other contents every mechanism does. */
static void test_remap_fixed( void )
{
	hyb_t_seed( 81 );
	size_t         n    = 2 * HYB_T_MIB;
	unsigned char* copy = malloc( n );
	CU_ASSERT_FATAL( copy != NULL );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char* a = hyb_t_map( n );
		memcpy( copy, a, n );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a, n );
		CU_ASSERT_FATAL( munmap( a, n ) == 0 );
		void* b =
		    mmap( a, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0 );
		CU_ASSERT_FATAL( b == (void*)a );
		memcpy( a, copy, n );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == ( m != HYB_RESIDENCY_MECH_HASH ) );
		a[n / 3] ^= 1;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( a, n );
	}
	free( copy );
}

/* mremap: the tracked mapping moves away and back (same contents), and
   another mapping is moved onto the tracked address. */
static void test_mremap( void )
{
	hyb_t_seed( 91 );
	size_t n = HYB_T_MIB;
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char* a     = hyb_t_map( n );
		unsigned char* spare = mmap( NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
		CU_ASSERT_FATAL( spare != MAP_FAILED );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a, n );
		void*                  t = mremap( a, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, spare );
		CU_ASSERT_FATAL( t == (void*)spare );
		t = mremap( spare, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, a );
		CU_ASSERT_FATAL( t == (void*)a );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == ( m != HYB_RESIDENCY_MECH_HASH ) );
		CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );

		/* Another mapping, other contents, moved onto the tracked address. */
		unsigned char* o = hyb_t_map( n );
		t                = mremap( o, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, a );
		CU_ASSERT_FATAL( t == (void*)a );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );

		hyb_residency_watch_destroy( w );
		munmap( a, n );

		/* The program resizes its own mapping, of which only a part is
		   tracked. uffd-wp registers only the watched pages, which splits the
		   mapping while the watch lives: a resize of the whole mapping may then
		   fail with EFAULT (the price of leaving the neighbours free for the
		   program's own userfaultfd); destroyed, the watch leaves the mapping
		   whole again. Where the resize works, the moved data is a change. */
		a       = hyb_t_map( 2 * n );
		w       = hyb_t_watch_tracked( m, a + 5000, n );
		void* g = mremap( a, 2 * n, 4 * n, MREMAP_MAYMOVE );
		HYB_T_ASSERT( m, g != MAP_FAILED || ( m == HYB_RESIDENCY_MECH_UFFD && errno == EFAULT ) );
		if ( g != MAP_FAILED && g != (void*)a )
		{
			/* Moved: put a mapping with the same bytes back at the old place. */
			void* back = mmap( a, 2 * n, PROT_READ | PROT_WRITE,
			                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0 );
			CU_ASSERT_FATAL( back == (void*)a );
			memcpy( a, g, 2 * n );
			HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == ( m != HYB_RESIDENCY_MECH_HASH ) );
			munmap( a, 2 * n );
		}
		hyb_residency_watch_destroy( w );
		if ( g == MAP_FAILED )
		{
			g = mremap( a, 2 * n, 4 * n, MREMAP_MAYMOVE );
			HYB_T_ASSERT( m, g != MAP_FAILED );
		}
		munmap( g != MAP_FAILED ? g : a, g != MAP_FAILED ? 4 * n : 2 * n );

		/* glibc's realloc of a large block, part of which is tracked, works
		   whatever mremap says (it copies when mremap fails). */
		size_t         big = 8 * n;
		unsigned char* h   = malloc( big );
		CU_ASSERT_FATAL( h != NULL );
		hyb_t_fill_bytes( h, big );
		unsigned char* keep = malloc( big );
		CU_ASSERT_FATAL( keep != NULL );
		memcpy( keep, h, big );
		w                 = hyb_t_watch_tracked( m, h + 4096 + 100, 4 * n );
		unsigned char* h2 = realloc( h, 2 * big );
		HYB_T_ASSERT( m, h2 != NULL && memcmp( h2, keep, big ) == 0 );
		hyb_residency_watch_destroy( w );
		free( h2 );
		free( keep );
	}
}

/* MADV_DONTNEED zeroes anonymous pages without a write. */
static void test_madvise_dontneed( void )
{
	hyb_t_seed( 101 );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a = hyb_t_map( HYB_T_MIB );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a, HYB_T_MIB );
		CU_ASSERT_FATAL( madvise( a + 64 * 4096, 4096, MADV_DONTNEED ) == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( a, HYB_T_MIB );
	}
}

/* Part of the tracked pages unmapped and left unmapped (a kernel mechanism
   reads no tracked byte, so this is safe to check; hashing would fault). */
static void test_munmap_hole( void )
{
	hyb_t_seed( 105 );
	HYB_T_FOR_EACH_MECH( m )
	{
		if ( m == HYB_RESIDENCY_MECH_HASH ) continue;
		unsigned char*         a = hyb_t_map( HYB_T_MIB );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a, HYB_T_MIB );
		CU_ASSERT_FATAL( munmap( a + 100 * 4096, 3 * 4096 ) == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		/* At the end of the tracked pages. */
		hyb_residency_watch_t* w2 = hyb_t_watch_tracked( m, a, 64 * 4096 );
		CU_ASSERT_FATAL( munmap( a + 62 * 4096, 2 * 4096 ) == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 1 );
		hyb_residency_watch_destroy( w2 );
		munmap( a, HYB_T_MIB );
	}
}

/* The watch a thread other than the program's arms (create_safe): on mapped ranges it
   tracks as create does; on ranges unmapped before it, whole or in part, it arms nothing and
   says so instead of faulting on the bytes it would hash. */
static void test_create_safe( void )
{
	hyb_t_seed( 109 );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a = hyb_t_map( HYB_T_MIB );
		hyb_residency_range_t  r = { a + 100, HYB_T_MIB - 300 }; /* hashed edges */
		hyb_residency_watch_t* w = NULL;
		HYB_T_ASSERT( m, hyb_residency_watch_create_safe( m, &r, 1, &w ) == HYB_OK && w );
		HYB_T_ASSERT( m, hyb_residency_watch_mech( w ) == m );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		a[50 * 4096] ^= 1; /* the body */
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		CU_ASSERT_EQUAL( hyb_residency_watch_create_safe( m, &r, 1, &w ), HYB_OK );
		a[120] ^= 1; /* a hashed edge */
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		/* a hole in the middle, then nothing readable at all (mapped inaccessible rather than
		   unmapped: an allocation inside the call, a sanitizer's for one, could otherwise get
		   the freed addresses and make them readable again) */
		CU_ASSERT_FATAL( munmap( a + 64 * 4096, 4 * 4096 ) == 0 );
		w = (hyb_residency_watch_t*)1;
		HYB_T_ASSERT( m, hyb_residency_watch_create_safe( m, &r, 1, &w ) == HYB_E_INVALID );
		HYB_T_ASSERT( m, w == NULL );
		CU_ASSERT_FATAL(
		    mmap( a, HYB_T_MIB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0 ) == a );
		HYB_T_ASSERT( m, hyb_residency_watch_create_safe( m, &r, 1, &w ) == HYB_E_INVALID );
		munmap( a, HYB_T_MIB );
	}
	/* Hashed whole, lengths of one block and of several (1 MiB blocks, the last one short or
	   whole): the checks hash through the addresses, so a safe arm's hash that differed from
	   theirs would report a change at once. */
	const size_t   lens[] = { 0, 1, 4095, HYB_T_MIB, 3 * HYB_T_MIB, 3 * HYB_T_MIB + 777 };
	unsigned char* b      = hyb_t_map( 4 * HYB_T_MIB );
	for ( size_t i = 0; i < sizeof lens / sizeof lens[0]; i++ )
	{
		hyb_residency_range_t  r = { b + 8, lens[i] };
		hyb_residency_watch_t* w = NULL;
		CU_ASSERT_FATAL( hyb_residency_watch_create_safe( HYB_RESIDENCY_MECH_HASH, &r, 1, &w ) ==
		                 HYB_OK );
		CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
		if ( lens[i] > 0 )
		{
			b[8 + lens[i] - 1] ^= 1; /* the last byte */
			CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
		}
		hyb_residency_watch_destroy( w );
	}
	munmap( b, 4 * HYB_T_MIB );
}

/* matches_copy: copies of the ranges agree with the watch on its hashed bytes; a copy that
   differs there (a value read while it was changed, changed back since) does not; a copy
   that differs on kernel-tracked pages only is the kernel's to catch. */
static void test_matches_copy( void )
{
	hyb_t_seed( 113 );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a = hyb_t_map( HYB_T_MIB );
		hyb_residency_range_t  r = { a + 100, HYB_T_MIB - 300 };
		hyb_residency_watch_t* w = NULL;
		CU_ASSERT_FATAL( hyb_residency_watch_create( m, &r, 1, &w ) == HYB_OK );
		unsigned char* copy = malloc( r.bytes );
		CU_ASSERT_FATAL( copy != NULL );
		memcpy( copy, r.addr, r.bytes );
		const void* copies[1] = { copy };
		HYB_T_ASSERT( m, hyb_residency_watch_matches_copy( w, copies ) == 1 );
		copy[50 * 4096] ^= 1; /* a whole page inside: hashed only without kernel tracking */
		HYB_T_ASSERT( m, hyb_residency_watch_matches_copy( w, copies ) ==
		                     ( m != HYB_RESIDENCY_MECH_HASH ) );
		copy[50 * 4096] ^= 1;
		copy[20] ^= 1; /* the first, partial page: hashed by every mechanism */
		HYB_T_ASSERT( m, hyb_residency_watch_matches_copy( w, copies ) == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 ); /* the range itself did not */
		free( copy );
		hyb_residency_watch_destroy( w );
		munmap( a, HYB_T_MIB );
	}
}

/* A transparent huge page zapped whole by MADV_DONTNEED leaves a PMD with
   no page table, which some kernels' PAGEMAP_SCAN reports as "not written"
   (fixed upstream in 2026): the tracker must still see the zeroed range. */
static void test_thp_zap( void )
{
	hyb_t_seed( 107 );
	size_t huge = 2 * HYB_T_MIB, n = 3 * huge;
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char* raw =
		    mmap( NULL, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
		CU_ASSERT_FATAL( raw != MAP_FAILED );
		unsigned char* a =
		    (unsigned char*)( ( (uintptr_t)raw + huge - 1 ) & ~( (uintptr_t)huge - 1 ) );
		if ( madvise( a, n, MADV_HUGEPAGE ) != 0 )
		{
			printf( "\n    THP not available: huge-page zap not tested " );
			munmap( raw, n + huge );
			return;
		}
		hyb_t_fill_bytes( a, n );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a + 100, n - 200 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		CU_ASSERT_FATAL( madvise( a + huge, huge, MADV_DONTNEED ) == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( raw, n + huge );
	}
}

/* A range that starts and ends inside pages: writes to the neighbours on
   those pages are not changes. Conservative invalidation would be
   acceptable, but the partial pages are hashed, so the answer is exact. */
static void test_partial_page_neighbour( void )
{
	hyb_t_seed( 111 );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a = hyb_t_map( HYB_T_MIB );
		hyb_residency_watch_t* w = hyb_t_watch_tracked( m, a + 100, HYB_T_MIB - 200 );
		a[50] ^= 1;
		a[HYB_T_MIB - 50] ^= 1;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		a[100] ^= 1;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
		a[HYB_T_MIB - 101] ^= 1;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( a, HYB_T_MIB );
	}
}

/* Every other page never touched: many regions per scan (more than one
   ioctl's worth), unpopulated pages protected by markers; reading an
   untouched page is no change, writing one is. */
static void test_sparse_pages( void )
{
	hyb_t_seed( 121 );
	size_t n = 2 * HYB_T_MIB;
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char* a =
		    mmap( NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
		CU_ASSERT_FATAL( a != MAP_FAILED );
		madvise( a, n, MADV_NOHUGEPAGE );
		for ( size_t i = 0; i < n; i += 2 * 4096 ) a[i] = 1;
		hyb_residency_watch_t* w = hyb_t_watch( m, a, n );
		if ( m == HYB_RESIDENCY_MECH_UFFD ) HYB_T_ASSERT( m, hyb_residency_watch_mech( w ) == m );
		for ( int k = 0; k < 5; k++ ) HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		volatile unsigned char c = a[3 * 4096 + 5];
		HYB_T_ASSERT( m, c == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		a[301 * 4096] = 9;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( a, n );
	}
}

/* Two and three watches sharing pages: a scan or an arm by one must never
   swallow a write another needs, and destroying one must not unprotect a
   page another still tracks. */
static void test_shared_pages( void )
{
	hyb_t_seed( 131 );
	size_t n = HYB_T_MIB, k400 = 400 * 1024, k600 = 600 * 1024;
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a  = hyb_t_map( n );
		hyb_residency_watch_t* w1 = hyb_t_watch_tracked( m, a, k600 );
		hyb_residency_watch_t* w2 = hyb_t_watch_tracked( m, a + k400, n - k400 );

		/* A check of w1 sees the write first. */
		a[500 * 1024] ^= 1;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w1 ) == 1 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 1 );

		/* A rearm of w1 re-protects the written page. */
		hyb_residency_watch_rearm( w1 );
		hyb_residency_watch_rearm( w2 );
		a[450 * 1024] ^= 1;
		hyb_residency_watch_rearm( w1 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w1 ) == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 1 );

		/* Arming a third watch over the overlap re-protects it too. */
		hyb_residency_watch_rearm( w1 );
		hyb_residency_watch_rearm( w2 );
		a[550 * 1024] ^= 1;
		hyb_residency_watch_t* w3 = hyb_t_watch_tracked( m, a + k400, k600 - k400 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w3 ) == 0 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w1 ) == 1 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 1 );

		/* The same range twice. */
		hyb_residency_watch_t* w4 = hyb_t_watch_tracked( m, a + k400, k600 - k400 );
		a[410 * 1024] ^= 1;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w4 ) == 1 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w3 ) == 1 );

		/* Destroying watches keeps the others' pages tracked. */
		hyb_residency_watch_destroy( w3 );
		hyb_residency_watch_destroy( w4 );
		hyb_residency_watch_rearm( w1 );
		hyb_residency_watch_rearm( w2 );
		hyb_residency_watch_destroy( w1 );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 0 ); /* w1's release left w2 alone */
		a[800 * 1024] ^= 1;                                        /* w2 only */
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 1 );
		hyb_residency_watch_rearm( w2 );
		a[100 * 1024] ^= 1; /* was w1 only: not w2's */
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 0 );
		a[450 * 1024] ^= 1; /* was shared */
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w2 ) == 1 );
		hyb_residency_watch_destroy( w2 );
		munmap( a, n );
	}
}

/* Memory the kernel mechanisms cannot follow (a shared file mapping that
   write(2) changes behind the mapping's back) is hashed instead. */
static void test_file_mapping_hashed( void )
{
	hyb_t_seed( 141 );
	FILE* f = tmpfile();
	CU_ASSERT_FATAL( f != NULL );
	int            fd  = fileno( f );
	unsigned char* src = malloc( HYB_T_MIB );
	CU_ASSERT_FATAL( src != NULL );
	hyb_t_fill_bytes( src, HYB_T_MIB );
	CU_ASSERT_FATAL( write( fd, src, HYB_T_MIB ) == (ssize_t)HYB_T_MIB );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char* a = mmap( NULL, HYB_T_MIB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0 );
		CU_ASSERT_FATAL( a != MAP_FAILED );
		hyb_residency_watch_t* w = hyb_t_watch( m, a, HYB_T_MIB );
		HYB_T_ASSERT( m, hyb_residency_watch_mech( w ) == HYB_RESIDENCY_MECH_HASH );
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		unsigned char x = (unsigned char)( src[4096 * 7] ^ 0xFF );
		HYB_T_ASSERT( m, pwrite( fd, &x, 1, 4096 * 7 ) == 1 ); /* not through the mapping */
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		HYB_T_ASSERT( m, pwrite( fd, src + 4096 * 7, 1, 4096 * 7 ) == 1 );
		hyb_residency_watch_destroy( w );
		munmap( a, HYB_T_MIB );
	}
	free( src );
	fclose( f );
}

/* A mapping the program registered with its own userfaultfd: the tracker
   must not take it over (registration fails with EBUSY) and hashes it,
   and the program's registration keeps working. */
static void test_foreign_uffd( void )
{
	if ( !hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) ) return;
	hyb_t_seed( 151 );
	int fd = (int)syscall( SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY );
	CU_ASSERT_FATAL( fd >= 0 );
	struct uffdio_api api = { .api = UFFD_API, .features = 0 };
	CU_ASSERT_FATAL( ioctl( fd, UFFDIO_API, &api ) == 0 );
	unsigned char*         a   = hyb_t_map( HYB_T_MIB );
	struct uffdio_register reg = { .range = { (uintptr_t)a, HYB_T_MIB },
		                           .mode  = UFFDIO_REGISTER_MODE_MISSING };
	CU_ASSERT_FATAL( ioctl( fd, UFFDIO_REGISTER, &reg ) == 0 );
	hyb_residency_watch_t* w = hyb_t_watch( HYB_RESIDENCY_MECH_UFFD, a, HYB_T_MIB );
	CU_ASSERT_EQUAL( hyb_residency_watch_mech( w ), HYB_RESIDENCY_MECH_HASH );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	a[12345] ^= 1;
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
	hyb_residency_watch_destroy( w );
	struct uffdio_range rg = { (uintptr_t)a, HYB_T_MIB };
	CU_ASSERT_EQUAL( ioctl( fd, UFFDIO_UNREGISTER, &rg ), 0 );
	munmap( a, HYB_T_MIB );
	close( fd );
}

/* A userfaultfd of the program's own, with the features the tracker's
   probe checks (async write-protect) when the kernel has them. */
static int hyb_t_program_uffd( void )
{
	int fd = (int)syscall( SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY );
	CU_ASSERT_FATAL( fd >= 0 );
	struct uffdio_api api = { .api = UFFD_API, .features = 0 };
	CU_ASSERT_FATAL( ioctl( fd, UFFDIO_API, &api ) == 0 );
	return fd;
}

static int hyb_t_register( int fd, const void* p, size_t n )
{
	struct uffdio_register reg = { .range = { (uintptr_t)p, n },
		                           .mode  = UFFDIO_REGISTER_MODE_MISSING };
	return ioctl( fd, UFFDIO_REGISTER, &reg ) == 0 ? 0 : -errno;
}

static int hyb_t_unregister( int fd, const void* p, size_t n )
{
	struct uffdio_range rg = { (uintptr_t)p, n };
	return ioctl( fd, UFFDIO_UNREGISTER, &rg ) == 0 ? 0 : -errno;
}

/* The tracker registers only a matrix's own pages: memory beside it in the
   same mapping stays free for the program's own userfaultfd, whenever the
   program creates it. */
static void test_uffd_neighbour_free( void )
{
	if ( !hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) ) return;
	hyb_t_seed( 161 );
	size_t         n = 4 * HYB_T_MIB;
	unsigned char* a = hyb_t_map( n ); /* one mapping: the matrix, then the program's buffer */
	hyb_residency_watch_t* w =
	    hyb_t_watch_tracked( HYB_RESIDENCY_MECH_UFFD, a + 5000, 2 * HYB_T_MIB );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	int fd = hyb_t_program_uffd();
	CU_ASSERT_EQUAL( hyb_t_register( fd, a + 3 * HYB_T_MIB, HYB_T_MIB ), 0 );
	/* The page shared by the matrix's end and the buffer, too. */
	uintptr_t edge = ( (uintptr_t)a + 5000 + 2 * HYB_T_MIB ) & ~(uintptr_t)4095;
	CU_ASSERT_EQUAL( hyb_t_register( fd, (void*)edge, 4096 ), 0 );
	/* Whatever the tracker does about the program's descriptor, a write to
	   the matrix is never missed. */
	a[5000 + 77777] ^= 1;
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
	hyb_residency_watch_destroy( w );
	CU_ASSERT_EQUAL( hyb_t_unregister( fd, a + 3 * HYB_T_MIB, HYB_T_MIB ), 0 );
	close( fd );
	munmap( a, n );
}

/* A program that starts tracking pages with its own userfaultfd after the
   tracker armed a watch: the next check (within 0.25 s) steps aside, the
   program can then register the matrix's pages themselves, watches hash
   meanwhile, and uffd-wp comes back once the program's descriptor is gone. */
static void test_uffd_program_tracks_own( void )
{
	if ( !hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) ) return;
	hyb_t_seed( 171 );
	size_t                 n = 2 * HYB_T_MIB;
	unsigned char*         a = hyb_t_map( n );
	hyb_residency_watch_t* w = hyb_t_watch_tracked( HYB_RESIDENCY_MECH_UFFD, a, n );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	int fd = hyb_t_program_uffd();
	usleep( 300000 );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ),
	                 1 ); /* stepped aside: cannot vouch any more */
	CU_ASSERT_EQUAL( hyb_t_register( fd, a, n ), 0 );
	CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_residency_watch_mech( w ), HYB_RESIDENCY_MECH_HASH );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	a[n / 2] ^= 1;
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
	hyb_residency_watch_t* w2 = hyb_t_watch( HYB_RESIDENCY_MECH_UFFD, a + HYB_T_MIB, HYB_T_MIB );
	CU_ASSERT_EQUAL( hyb_residency_watch_mech( w2 ), HYB_RESIDENCY_MECH_HASH );
	hyb_residency_watch_destroy( w2 );
	CU_ASSERT_EQUAL( hyb_t_unregister( fd, a, n ), 0 );
	close( fd );
	CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_residency_watch_mech( w ), HYB_RESIDENCY_MECH_UFFD );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	a[n / 3] ^= 1;
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
	hyb_residency_watch_destroy( w );
	munmap( a, n );
}

/* Bit 55 of the pagemap entry of the page at p (-1 if unreadable). */
static int hyb_t_soft_dirty( const void* p )
{
	int fd = open( "/proc/self/pagemap", O_RDONLY | O_CLOEXEC );
	if ( fd < 0 ) return -1;
	uint64_t e = 0;
	ssize_t  r = pread( fd, &e, sizeof e, (off_t)( (uintptr_t)p / 4096 * sizeof e ) );
	close( fd );
	return r == (ssize_t)sizeof e ? (int)( ( e >> 55 ) & 1 ) : -1;
}

/* Track mode never clears the process's soft-dirty bits (which a program may
   track itself): with uffd-wp unavailable it hashes. Runs first, before
   anything probes soft-dirty. Where soft-dirty works, the program's own
   bit also survives. */
static void test_track_leaves_soft_dirty( void )
{
	hyb_t_seed( 181 );
	unsigned char* own = hyb_t_map( 4096 );
	int            sd  = 0;
	int            cfd = open( "/proc/self/clear_refs", O_WRONLY | O_CLOEXEC );
	if ( cfd >= 0 && write( cfd, "4", 1 ) == 1 )
	{
		own[0] ^= 1;
		sd = hyb_t_soft_dirty( own ) == 1; /* the kernel keeps soft-dirty bits */
	}
	if ( cfd >= 0 ) close( cfd );
	int before = hyb_residency_clear_refs_writes();
	hyb_residency_forbid_for_test( HYB_RESIDENCY_MECH_UFFD, 1 );
	CU_ASSERT_EQUAL( hyb_residency_mech_for_mode( HYB_RESIDENCY_TRACK ), HYB_RESIDENCY_MECH_HASH );
	unsigned char*         a = hyb_t_map( HYB_T_MIB );
	hyb_residency_watch_t* w = hyb_t_watch( HYB_RESIDENCY_MECH_AUTO, a, HYB_T_MIB );
	CU_ASSERT_EQUAL( hyb_residency_watch_mech( w ), HYB_RESIDENCY_MECH_HASH );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	a[99] ^= 1;
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
	CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
	hyb_residency_watch_destroy( w );
	hyb_residency_cache_t* c = NULL;
	CU_ASSERT_EQUAL( hyb_residency_cache_create( NULL, &c ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_residency_cache_mech( c ), HYB_RESIDENCY_MECH_HASH );
	hyb_residency_cache_destroy( c );
	CU_ASSERT_EQUAL( hyb_residency_clear_refs_writes(), before );
	if ( sd ) CU_ASSERT_EQUAL( hyb_t_soft_dirty( own ), 1 );
	/* Only when asked for. */
	hyb_residency_mech_t t = hyb_residency_mech_for_mode( HYB_RESIDENCY_TRACK_SOFTDIRTY );
	CU_ASSERT( t == HYB_RESIDENCY_MECH_SOFTDIRTY || t == HYB_RESIDENCY_MECH_HASH );
	CU_ASSERT( hyb_residency_clear_refs_writes() > before ); /* its probe clears */
	hyb_residency_forbid_for_test( HYB_RESIDENCY_MECH_UFFD, 0 );
	munmap( a, HYB_T_MIB );
	munmap( own, 4096 );
}

/* ------------------------------------------------------------ cache */

typedef struct
{
	unsigned char* snap; /* the ranges' bytes when the payload was built */
	size_t         len;
} hyb_t_payload_t;

static int hyb_t_freed;

/* ctx: a counter of destroyed payloads, or NULL (payloads shared by threads). */
static void hyb_t_payload_free( void* p, void* ctx )
{
	hyb_t_payload_t* pl = p;
	if ( ctx ) ( *(int*)ctx )++;
	free( pl->snap );
	free( pl );
}

static hyb_t_payload_t* hyb_t_payload( const hyb_residency_range_t* r, int n )
{
	hyb_t_payload_t* pl = calloc( 1, sizeof *pl );
	CU_ASSERT_FATAL( pl != NULL );
	for ( int i = 0; i < n; i++ ) pl->len += r[i].bytes;
	pl->snap = malloc( pl->len ? pl->len : 1 );
	CU_ASSERT_FATAL( pl->snap != NULL );
	size_t off = 0;
	for ( int i = 0; i < n; i++ )
	{
		memcpy( pl->snap + off, r[i].addr, r[i].bytes );
		off += r[i].bytes;
	}
	return pl;
}

/* Whether a payload still matches the ranges (the independent reference). */
static int hyb_t_payload_fresh( const hyb_t_payload_t* pl, const hyb_residency_range_t* r, int n )
{
	size_t off = 0;
	for ( int i = 0; i < n; i++ )
	{
		if ( memcmp( pl->snap + off, r[i].addr, r[i].bytes ) != 0 ) return 0;
		off += r[i].bytes;
	}
	return off == pl->len;
}

static hyb_residency_cache_t* hyb_t_cache( hyb_residency_mech_t m, size_t entries, uint64_t bytes )
{
	hyb_residency_cache_config_t cfg = { HYB_RESIDENCY_TRACK, m, entries, bytes };
	hyb_residency_cache_t*       c   = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_create( &cfg, &c ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_residency_cache_mech( c ), m );
	return c;
}

/* One acquire/fill/release round; returns the outcome. */
static hyb_residency_outcome_t hyb_t_use( hyb_residency_cache_t* c, const hyb_residency_range_t* r,
                                          int n, uint64_t key, uint64_t bytes, int* stale )
{
	hyb_residency_entry_t*  e = NULL;
	hyb_residency_outcome_t o = hyb_residency_cache_acquire( c, r, n, key, &e );
	if ( o == HYB_RESIDENCY_HIT )
	{
		if ( !hyb_t_payload_fresh( hyb_residency_entry_payload( e ), r, n ) ) ( *stale )++;
		hyb_residency_cache_release( c, e );
	}
	else if ( o == HYB_RESIDENCY_FILL )
	{
		CU_ASSERT_PTR_NULL( hyb_residency_entry_payload( e ) );
		hyb_t_payload_t* pl = hyb_t_payload( r, n );
		hyb_status_t     s =
		    hyb_residency_cache_fill( c, e, pl, bytes, hyb_t_payload_free, &hyb_t_freed );
		CU_ASSERT( s == HYB_OK || s == HYB_E_NO_MEMORY );
		CU_ASSERT_PTR_EQUAL( hyb_residency_entry_payload( e ), pl );
		hyb_residency_cache_release( c, e );
	}
	else
		CU_ASSERT_PTR_NULL( e );
	return o;
}

static void test_cache_hit_invalidate( void )
{
	hyb_t_seed( 201 );
	HYB_T_FOR_EACH_MECH( m )
	{
		hyb_t_set_t s;
		hyb_t_set_make( &s );
		hyb_residency_cache_t* c     = hyb_t_cache( m, 8, 0 );
		int                    stale = 0;
		hyb_t_freed                  = 0;
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_FILL );
		for ( int k = 0; k < 5; k++ )
			HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_HIT );
		/* Same ranges, another key; another subset of ranges, same key. */
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 2, 100, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 2, 1, 100, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 2, 100, &stale ) == HYB_RESIDENCY_HIT );
		s.small[5] ^= 1;
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, hyb_t_freed == 1 ); /* the stale payload */
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 2, 1, 100, &stale ) ==
		                     HYB_RESIDENCY_HIT ); /* small not in it */
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_HIT );
		HYB_T_ASSERT( m, stale == 0 );
		hyb_residency_stats_t st;
		hyb_residency_cache_stats( c, &st );
		HYB_T_ASSERT( m,
		              st.lookups == 12 && st.hits == 8 && st.fills == 4 && st.invalidations == 1 );
		HYB_T_ASSERT( m, st.misses == 4 && st.entries == 3 && st.bytes == 300 );
		HYB_T_ASSERT( m, st.check_seconds > 0 && st.arm_seconds > 0 );
		hyb_residency_cache_destroy( c );
		HYB_T_ASSERT( m, hyb_t_freed == 4 );
		hyb_t_set_free( &s );
	}
}

/* acquire_unchecked + confirm (the check beside the work): an existing entry comes back
   pinned before any check; confirm proves it current (a hit) or, after a write, reports the
   change, drops the entry from the cache and keeps its payload alive until release; the
   next lookup refills. Counted as the checking acquire counts. */
static void test_cache_unchecked_confirm( void )
{
	hyb_t_seed( 207 );
	HYB_T_FOR_EACH_MECH( m )
	{
		hyb_t_set_t s;
		hyb_t_set_make( &s );
		hyb_residency_cache_t* c     = hyb_t_cache( m, 8, 0 );
		int                    stale = 0;
		hyb_t_freed                  = 0;
		hyb_residency_entry_t* e     = NULL;
		/* nothing cached yet: FILL, as acquire */
		HYB_T_ASSERT( m, hyb_residency_cache_acquire_unchecked( c, s.r, 3, 1, &e ) ==
		                     HYB_RESIDENCY_FILL );
		hyb_residency_cache_release( c, e );
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_FILL );
		/* unchanged: unchecked, then confirmed */
		HYB_T_ASSERT( m, hyb_residency_cache_acquire_unchecked( c, s.r, 3, 1, &e ) ==
		                     HYB_RESIDENCY_UNCHECKED );
		HYB_T_ASSERT( m, e != NULL && hyb_residency_entry_payload( e ) != NULL );
		HYB_T_ASSERT( m, hyb_residency_cache_confirm( c, e ) == 1 );
		HYB_T_ASSERT( m, hyb_t_payload_fresh( hyb_residency_entry_payload( e ), s.r, 3 ) );
		hyb_residency_cache_release( c, e );
		/* written after the fill: confirm says changed; the payload lives until release */
		s.map[s.map_len / 2] ^= 1; /* inside the large range, in its tracked body */
		HYB_T_ASSERT( m, hyb_residency_cache_acquire_unchecked( c, s.r, 3, 1, &e ) ==
		                     HYB_RESIDENCY_UNCHECKED );
		HYB_T_ASSERT( m, hyb_residency_cache_confirm( c, e ) == 0 );
		HYB_T_ASSERT( m, hyb_t_freed == 0 );
		HYB_T_ASSERT( m, !hyb_t_payload_fresh( hyb_residency_entry_payload( e ), s.r, 3 ) );
		hyb_residency_cache_release( c, e );
		HYB_T_ASSERT( m, hyb_t_freed == 1 );
		/* the next lookup refills, then hits */
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_HIT );
		HYB_T_ASSERT( m, stale == 0 );
		hyb_residency_stats_t st;
		hyb_residency_cache_stats( c, &st );
		HYB_T_ASSERT( m,
		              st.hits == 2 && st.invalidations == 1 && st.fills == 2 && st.entries == 1 );
		hyb_residency_cache_destroy( c );
		HYB_T_ASSERT( m, hyb_t_freed == 2 );
		hyb_t_set_free( &s );
	}
}

/* acquire_unarmed: a new entry comes back unarmed; fill refuses it until armed (it could
   not tell a change since its data was read); a write before the arm is the data the fill
   reads, one after it invalidates. An entry that exists comes back unchecked, as from
   acquire_unchecked; an unarmed entry released is abandoned; arming a ready entry is
   refused. */
static void test_cache_unarmed( void )
{
	hyb_t_seed( 211 );
	HYB_T_FOR_EACH_MECH( m )
	{
		hyb_t_set_t s;
		hyb_t_set_make( &s );
		hyb_residency_cache_t* c     = hyb_t_cache( m, 8, 0 );
		int                    stale = 0;
		hyb_t_freed                  = 0;
		hyb_residency_entry_t* e     = NULL;
		HYB_T_ASSERT( m, hyb_residency_cache_acquire_unarmed( c, s.r, 3, 1, &e ) ==
		                     HYB_RESIDENCY_FILL );
		hyb_t_payload_t* pl = hyb_t_payload( s.r, 3 );
		HYB_T_ASSERT( m, hyb_residency_cache_fill( c, e, pl, 100, hyb_t_payload_free,
		                                           &hyb_t_freed ) == HYB_E_INVALID );
		s.map[s.map_len / 3] ^= 1; /* before the arm: part of what is read */
		HYB_T_ASSERT( m, hyb_residency_cache_arm( c, e, 0 ) == HYB_OK );
		HYB_T_ASSERT( m, hyb_residency_cache_arm( c, e, 1 ) == HYB_OK ); /* armed already */
		hyb_t_payload_free( pl, NULL );
		pl = hyb_t_payload( s.r, 3 );
		HYB_T_ASSERT( m, hyb_residency_cache_fill( c, e, pl, 100, hyb_t_payload_free,
		                                           &hyb_t_freed ) == HYB_OK );
		HYB_T_ASSERT( m, hyb_residency_cache_arm( c, e, 0 ) == HYB_E_INVALID ); /* ready */
		hyb_residency_cache_release( c, e );
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_HIT );
		/* an existing entry: unchecked */
		HYB_T_ASSERT( m, hyb_residency_cache_acquire_unarmed( c, s.r, 3, 1, &e ) ==
		                     HYB_RESIDENCY_UNCHECKED );
		HYB_T_ASSERT( m, hyb_residency_cache_confirm( c, e ) == 1 );
		hyb_residency_cache_release( c, e );
		/* after the arm: invalidates */
		s.map[s.map_len / 2] ^= 1;
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 1, 100, &stale ) == HYB_RESIDENCY_FILL );
		/* abandoned unarmed: the next lookup fills again */
		HYB_T_ASSERT( m, hyb_residency_cache_acquire_unarmed( c, s.r, 3, 2, &e ) ==
		                     HYB_RESIDENCY_FILL );
		hyb_residency_cache_release( c, e );
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 2, 100, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, hyb_t_use( c, s.r, 3, 2, 100, &stale ) == HYB_RESIDENCY_HIT );
		HYB_T_ASSERT( m, stale == 0 );
		hyb_residency_cache_destroy( c );
		HYB_T_ASSERT( m, hyb_t_freed == 3 );
		hyb_t_set_free( &s );
	}
}

static void test_cache_off_and_bad_input( void )
{
	hyb_residency_cache_config_t cfg = { HYB_RESIDENCY_OFF, HYB_RESIDENCY_MECH_AUTO, 0, 0 };
	hyb_residency_cache_t*       c   = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_create( &cfg, &c ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_residency_cache_mech( c ), HYB_RESIDENCY_MECH_NONE );
	double                 x[100] = { 0 };
	hyb_residency_range_t  r      = { x, sizeof x };
	hyb_residency_entry_t* e      = (hyb_residency_entry_t*)&r;
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &r, 1, 0, &e ), HYB_RESIDENCY_BYPASS );
	CU_ASSERT_PTR_NULL( e );
	hyb_residency_cache_destroy( c );

	cfg.mode = (hyb_residency_mode_t)7;
	CU_ASSERT_EQUAL( hyb_residency_cache_create( &cfg, &c ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_residency_cache_create( NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_create( NULL, &c ), HYB_OK ); /* track, defaults */
	hyb_residency_range_t bad = { NULL, 8 };
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &bad, 1, 0, &e ), HYB_RESIDENCY_BYPASS );
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &r, 0, 0, &e ), HYB_RESIDENCY_BYPASS );
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, NULL, 1, 0, &e ), HYB_RESIDENCY_BYPASS );
	CU_ASSERT_EQUAL( hyb_residency_cache_fill( c, NULL, x, 1, NULL, NULL ), HYB_E_INVALID );
	/* fill twice: the second is refused and its payload not taken. */
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_acquire( c, &r, 1, 0, &e ), HYB_RESIDENCY_FILL );
	CU_ASSERT_EQUAL( hyb_residency_cache_fill( c, e, x, 8, NULL, NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_residency_cache_fill( c, e, x, 8, NULL, NULL ), HYB_E_INVALID );
	hyb_residency_cache_release( c, e );
	hyb_residency_stats_t st;
	hyb_residency_cache_stats( c, &st );
	CU_ASSERT_EQUAL( st.entries, 1 );
	CU_ASSERT_EQUAL( st.bytes, 8 );
	hyb_residency_cache_clear( c );
	hyb_residency_cache_stats( c, &st );
	CU_ASSERT_EQUAL( st.entries, 0 );
	hyb_residency_cache_destroy( c );
	hyb_residency_cache_destroy( NULL );
}

/* The keeps-changing rule, counted in acquires. */
static void test_cache_keeps_changing( void )
{
	hyb_t_seed( 211 );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a     = hyb_t_map( HYB_T_MIB );
		hyb_residency_range_t  r     = { a, HYB_T_MIB };
		hyb_residency_cache_t* c     = hyb_t_cache( m, 4, 0 );
		int                    stale = 0;
		/* Rewritten before every use: the acquire that finds the third quick
		   invalidation bans the key, and is the first of the bypassed ones. */
		for ( int k = 0; k < 3; k++ )
		{
			HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_FILL );
			a[k * 4096 + 7] ^= 1;
		}
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_BYPASS );
		hyb_residency_stats_t st;
		hyb_residency_cache_stats( c, &st );
		HYB_T_ASSERT( m, st.bans == 1 && st.invalidations == 3 );
		for ( int k = 1; k < HYB_RESIDENCY_CHURN_BAN_USES; k++ )
			HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_BYPASS );
		/* The ban is per key: another key of the same arrays is cached. */
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 10, 1, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 10, 1, &stale ) == HYB_RESIDENCY_HIT );
		/* After the ban: cached again; one more quick invalidation bans it
		   for twice as long. */
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_FILL );
		a[99] ^= 1;
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_BYPASS );
		hyb_residency_cache_stats( c, &st );
		HYB_T_ASSERT( m, st.bans == 2 );
		for ( int k = 1; k < 2 * HYB_RESIDENCY_CHURN_BAN_USES; k++ )
			HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_BYPASS );
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_FILL );
		/* Well used between changes: never banned again. */
		for ( int k = 0; k < 10; k++ )
		{
			HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_HIT );
			HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_HIT );
			a[k * 4096 + 11] ^= 1;
			HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 9, 1, &stale ) == HYB_RESIDENCY_FILL );
		}
		hyb_residency_cache_stats( c, &st );
		HYB_T_ASSERT( m, st.bans == 2 && st.bypass_churn == 3 * HYB_RESIDENCY_CHURN_BAN_USES );
		HYB_T_ASSERT( m, stale == 0 );
		hyb_residency_cache_destroy( c );
		munmap( a, HYB_T_MIB );
	}
}

static void test_cache_lru_entries( void )
{
	hyb_t_seed( 221 );
	double x[4][512];
	hyb_t_fill_bytes( x, sizeof x );
	hyb_residency_range_t r[4];
	for ( int i = 0; i < 4; i++ ) r[i] = ( hyb_residency_range_t ){ x[i], sizeof x[i] };
	hyb_residency_cache_t* c     = hyb_t_cache( HYB_RESIDENCY_MECH_HASH, 3, 0 );
	int                    stale = 0;
	hyb_t_freed                  = 0;
	for ( int i = 0; i < 3; i++ )
		CU_ASSERT( hyb_t_use( c, &r[i], 1, 0, 10, &stale ) == HYB_RESIDENCY_FILL );
	CU_ASSERT( hyb_t_use( c, &r[0], 1, 0, 10, &stale ) == HYB_RESIDENCY_HIT ); /* LRU is now r[1] */
	CU_ASSERT( hyb_t_use( c, &r[3], 1, 0, 10, &stale ) == HYB_RESIDENCY_FILL );
	CU_ASSERT_EQUAL( hyb_t_freed, 1 );
	CU_ASSERT( hyb_t_use( c, &r[0], 1, 0, 10, &stale ) == HYB_RESIDENCY_HIT );
	CU_ASSERT( hyb_t_use( c, &r[2], 1, 0, 10, &stale ) == HYB_RESIDENCY_HIT );
	CU_ASSERT( hyb_t_use( c, &r[3], 1, 0, 10, &stale ) == HYB_RESIDENCY_HIT );
	CU_ASSERT( hyb_t_use( c, &r[1], 1, 0, 10, &stale ) == HYB_RESIDENCY_FILL ); /* was evicted */
	hyb_residency_stats_t st;
	hyb_residency_cache_stats( c, &st );
	CU_ASSERT_EQUAL( st.evictions, 2 );
	CU_ASSERT_EQUAL( st.entries, 3 );

	/* Pinned entries are never evicted; a full cache of pinned entries
	   bypasses. */
	hyb_residency_entry_t* p[3];
	for ( int i = 1; i < 4; i++ )
		CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &r[i], 1, 0, &p[i - 1] ),
		                 HYB_RESIDENCY_HIT );
	hyb_residency_entry_t* e = NULL;
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &r[0], 1, 0, &e ), HYB_RESIDENCY_BYPASS );
	hyb_residency_cache_release( c, p[0] );
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &r[0], 1, 0, &e ), HYB_RESIDENCY_FILL );
	/* While it is being filled, others get BYPASS for it. */
	hyb_residency_entry_t* e2 = NULL;
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &r[0], 1, 0, &e2 ), HYB_RESIDENCY_BYPASS );
	hyb_residency_cache_release( c, e ); /* abandoned */
	CU_ASSERT_EQUAL( hyb_residency_cache_acquire( c, &r[0], 1, 0, &e ), HYB_RESIDENCY_FILL );
	hyb_residency_cache_release( c, e );
	hyb_residency_cache_release( c, p[1] );
	hyb_residency_cache_release( c, p[2] );
	CU_ASSERT_EQUAL( stale, 0 );
	hyb_residency_cache_destroy( c );
}

static void test_cache_lru_bytes( void )
{
	hyb_t_seed( 231 );
	double x[4][64];
	hyb_t_fill_bytes( x, sizeof x );
	hyb_residency_range_t r[4];
	for ( int i = 0; i < 4; i++ ) r[i] = ( hyb_residency_range_t ){ x[i], sizeof x[i] };
	hyb_residency_cache_t* c     = hyb_t_cache( HYB_RESIDENCY_MECH_HASH, 16, 1000 );
	int                    stale = 0;
	hyb_t_freed                  = 0;
	CU_ASSERT( hyb_t_use( c, &r[0], 1, 0, 400, &stale ) == HYB_RESIDENCY_FILL );
	CU_ASSERT( hyb_t_use( c, &r[1], 1, 0, 400, &stale ) == HYB_RESIDENCY_FILL );
	CU_ASSERT( hyb_t_use( c, &r[2], 1, 0, 400, &stale ) == HYB_RESIDENCY_FILL ); /* evicts r[0] */
	CU_ASSERT_EQUAL( hyb_t_freed, 1 );
	hyb_residency_stats_t st;
	hyb_residency_cache_stats( c, &st );
	CU_ASSERT_EQUAL( st.bytes, 800 );
	CU_ASSERT( hyb_t_use( c, &r[1], 1, 0, 400, &stale ) == HYB_RESIDENCY_HIT );

	/* Too big alone: usable until release, then destroyed, nothing evicted. */
	hyb_residency_entry_t* e = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_acquire( c, &r[3], 1, 0, &e ), HYB_RESIDENCY_FILL );
	hyb_t_payload_t* pl = hyb_t_payload( &r[3], 1 );
	CU_ASSERT_EQUAL( hyb_residency_cache_fill( c, e, pl, 5000, hyb_t_payload_free, &hyb_t_freed ),
	                 HYB_E_NO_MEMORY );
	CU_ASSERT_PTR_EQUAL( hyb_residency_entry_payload( e ), pl );
	CU_ASSERT( hyb_t_payload_fresh( pl, &r[3], 1 ) );
	CU_ASSERT_EQUAL( hyb_t_freed, 1 );
	hyb_residency_cache_release( c, e );
	CU_ASSERT_EQUAL( hyb_t_freed, 2 );
	hyb_residency_cache_stats( c, &st );
	CU_ASSERT_EQUAL( st.dropped, 1 );
	CU_ASSERT_EQUAL( st.bytes, 800 );
	CU_ASSERT_EQUAL( st.entries, 2 );
	CU_ASSERT( hyb_t_use( c, &r[2], 1, 0, 400, &stale ) == HYB_RESIDENCY_HIT );

	/* An invalidated entry still pinned by another user stays valid for it
	   until its release. */
	hyb_residency_entry_t* held = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_acquire( c, &r[1], 1, 0, &held ),
	                       HYB_RESIDENCY_HIT );
	( (unsigned char*)x[1] )[24] ^= 1;
	CU_ASSERT( hyb_t_use( c, &r[1], 1, 0, 400, &stale ) == HYB_RESIDENCY_FILL );
	CU_ASSERT_PTR_NOT_NULL( hyb_residency_entry_payload( held ) );
	int before = hyb_t_freed;
	hyb_residency_cache_release( c, held );
	CU_ASSERT_EQUAL( hyb_t_freed, before + 1 );

	/* Two holders of one entry: only the last release destroys it. */
	hyb_residency_entry_t *h1 = NULL, *h2 = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_acquire( c, &r[1], 1, 0, &h1 ), HYB_RESIDENCY_HIT );
	CU_ASSERT_EQUAL_FATAL( hyb_residency_cache_acquire( c, &r[1], 1, 0, &h2 ), HYB_RESIDENCY_HIT );
	CU_ASSERT_PTR_EQUAL( h1, h2 );
	( (unsigned char*)x[1] )[40] ^= 1;
	CU_ASSERT( hyb_t_use( c, &r[1], 1, 0, 400, &stale ) == HYB_RESIDENCY_FILL );
	before = hyb_t_freed;
	hyb_residency_cache_release( c, h1 );
	CU_ASSERT_EQUAL( hyb_t_freed, before );
	CU_ASSERT_PTR_NOT_NULL( hyb_residency_entry_payload( h2 ) );
	hyb_residency_cache_release( c, h2 );
	CU_ASSERT_EQUAL( hyb_t_freed, before + 1 );
	CU_ASSERT_EQUAL( stale, 0 );
	hyb_residency_cache_destroy( c );
}

/* Random writes of every kind between uses: a hit must always serve a
   payload equal to the data (compared byte for byte with a copy). */
static void test_cache_never_stale( void )
{
	hyb_t_seed( 241 );
	FILE* f = tmpfile();
	CU_ASSERT_FATAL( f != NULL );
	unsigned char junk[8192];
	hyb_t_fill_bytes( junk, sizeof junk );
	CU_ASSERT_FATAL( write( fileno( f ), junk, sizeof junk ) == (ssize_t)sizeof junk );
	HYB_T_FOR_EACH_MECH( m )
	{
		hyb_t_seed( 242 ); /* the same sequence for every configuration */
		hyb_t_set_t s;
		hyb_t_set_make( &s );
		hyb_residency_cache_t* c     = hyb_t_cache( m, 8, 0 );
		int                    stale = 0;
		for ( int it = 0; it < 600; it++ )
		{
			int            ri   = (int)hyb_t_res_below( 3 );
			unsigned char* base = (unsigned char*)s.r[ri].addr;
			size_t         n    = s.r[ri].bytes;
			size_t         at   = hyb_t_res_below( n );
			switch ( hyb_t_res_below( 16 ) ) /* a write every fourth use, on average */
			{
			case 0:
				base[at] ^= (unsigned char)( 1 + hyb_t_res_below( 255 ) );
				break;
			case 1:
			{
				size_t len = 1 + hyb_t_res_below( n - at < 5000 ? n - at : 5000 );
				memcpy( base + at, junk + hyb_t_res_below( 3000 ), len < 5000 ? len : 5000 );
				break;
			}
			case 2:
			{
				size_t len = n - at < 4096 ? n - at : 4096;
				CU_ASSERT( pread( fileno( f ), base + at, len, (off_t)hyb_t_res_below( 4096 ) ) ==
				           (ssize_t)len );
				break;
			}
			case 3:
				( (volatile unsigned char*)base )[at] = base[at];
				break; /* same value */
			default:
				break; /* no write: the next use should hit */
			}
			int      nr  = 1 + (int)hyb_t_res_below( 3 );
			uint64_t key = hyb_t_res_below( 2 );
			hyb_t_use( c, s.r, nr, key, 1000, &stale );
		}
		hyb_residency_stats_t st;
		hyb_residency_cache_stats( c, &st );
		printf( "\n    [%s] hits %llu, invalidations %llu, bans %llu ", hyb_t_name( m ),
		        (unsigned long long)st.hits, (unsigned long long)st.invalidations,
		        (unsigned long long)st.bans );
		HYB_T_ASSERT( m, stale == 0 );
		HYB_T_ASSERT( m, st.hits > 60 && st.invalidations > 30 );
		hyb_residency_cache_destroy( c );
		hyb_t_set_free( &s );
	}
	fclose( f );
}

/* Threads sharing one cache and one tracker: each rewrites its own slice
   (slices share pages with their neighbours) and all read one common range
   (tracked pages shared by every thread's watch). */
typedef struct
{
	hyb_residency_cache_t* c;
	unsigned char*         slice;
	size_t                 len;
	const unsigned char*   common;
	size_t                 common_len;
	uint64_t               seed;
	int                    stale;
	int                    hits;
} hyb_t_worker_t;

static void* hyb_t_worker( void* arg )
{
	hyb_t_worker_t*       wk   = arg;
	uint64_t              rng  = wk->seed;
	hyb_residency_range_t r[2] = { { wk->slice, wk->len }, { wk->common, wk->common_len } };
	for ( int it = 0; it < 150; it++ )
	{
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		if ( ( rng >> 60 ) < 5 ) wk->slice[( rng >> 20 ) % wk->len] ^= 0x3C;
		hyb_residency_entry_t*  e = NULL;
		hyb_residency_outcome_t o = hyb_residency_cache_acquire( wk->c, r, 2, 0, &e );
		if ( o == HYB_RESIDENCY_HIT )
		{
			wk->hits++;
			if ( !hyb_t_payload_fresh( hyb_residency_entry_payload( e ), r, 2 ) ) wk->stale++;
			hyb_residency_cache_release( wk->c, e );
		}
		else if ( o == HYB_RESIDENCY_FILL )
		{
			hyb_t_payload_t* pl = hyb_t_payload( r, 2 );
			hyb_residency_cache_fill( wk->c, e, pl, 1, hyb_t_payload_free, NULL );
			hyb_residency_cache_release( wk->c, e );
		}
	}
	return NULL;
}

static void test_cache_threads( void )
{
	hyb_t_seed( 251 );
	HYB_T_FOR_EACH_MECH( m )
	{
		enum
		{
			NT = 4
		};
		size_t                 slice = 300 * 1024 + 1000, common = 512 * 1024;
		unsigned char*         a = hyb_t_map( NT * slice + common + 8192 );
		hyb_residency_cache_t* c = hyb_t_cache( m, 2 * NT, 0 );
		hyb_t_worker_t         wk[NT];
		pthread_t              t[NT];
		for ( int i = 0; i < NT; i++ )
		{
			wk[i] = ( hyb_t_worker_t ){ c,      a + i * slice,       slice, a + NT * slice + 100,
				                        common, 1000u + (uint64_t)i, 0,     0 };
			CU_ASSERT_FATAL( pthread_create( &t[i], NULL, hyb_t_worker, &wk[i] ) == 0 );
		}
		int stale = 0, hits = 0;
		for ( int i = 0; i < NT; i++ )
		{
			pthread_join( t[i], NULL );
			stale += wk[i].stale;
			hits += wk[i].hits;
		}
		HYB_T_ASSERT( m, stale == 0 );
		HYB_T_ASSERT( m, hits > 0 );
		hyb_residency_cache_destroy( c );
		munmap( a, NT * slice + common + 8192 );
	}
}

/* ------------------------------------------------------------ fork */

/* The child inherits the parent's userfaultfd and /proc/self/pagemap
   descriptors, which still point at the parent: using them would
   re-protect the parent's pages and erase its tracking. The child must
   treat kernel-tracked watches as changed, bypass the cache, hash its own
   new watches, and leave the parent's state intact. */
static void test_fork_child( void )
{
	hyb_t_seed( 301 );
	HYB_T_FOR_EACH_MECH( m )
	{
		unsigned char*         a     = hyb_t_map( HYB_T_MIB );
		hyb_residency_range_t  r     = { a, HYB_T_MIB };
		hyb_residency_watch_t* w     = hyb_t_watch_tracked( m, a, HYB_T_MIB );
		hyb_residency_cache_t* c     = hyb_t_cache( m, 4, 0 );
		int                    stale = 0;
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 0, 1, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 0, 1, &stale ) == HYB_RESIDENCY_HIT );
		fflush( stdout );
		pid_t pid = fork();
		CU_ASSERT_FATAL( pid >= 0 );
		if ( pid == 0 )
		{
			int fail = 0;
			/* Inherited kernel watch: changed; hashed watch: still exact. */
			if ( hyb_residency_watch_changed( w ) != ( m != HYB_RESIDENCY_MECH_HASH ) ) fail |= 1;
			hyb_residency_entry_t* e = NULL;
			if ( hyb_residency_cache_acquire( c, &r, 1, 0, &e ) != HYB_RESIDENCY_BYPASS || e )
				fail |= 2;
			if ( hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) ) fail |= 4;
			hyb_residency_watch_t* cw = NULL;
			if ( hyb_residency_watch_create( m, &r, 1, &cw ) != HYB_OK ) fail |= 8;
			if ( cw && hyb_residency_watch_mech( cw ) != HYB_RESIDENCY_MECH_HASH ) fail |= 16;
			if ( cw && hyb_residency_watch_changed( cw ) != 0 ) fail |= 32;
			a[777] ^= 1; /* the child's copy */
			if ( cw && hyb_residency_watch_changed( cw ) != 1 ) fail |= 64;
			if ( hyb_residency_watch_rearm( w ) != HYB_OK || hyb_residency_watch_changed( w ) != 0 )
				fail |= 128;
			hyb_residency_watch_destroy( cw );
			hyb_residency_watch_destroy( w );
			hyb_residency_cache_destroy( c ); /* must not run the parent's destructors */
			_exit( fail );
		}
		int status = 0;
		CU_ASSERT_FATAL( waitpid( pid, &status, 0 ) == pid );
		HYB_T_ASSERT( m, WIFEXITED( status ) && WEXITSTATUS( status ) == 0 );
		if ( WIFEXITED( status ) && WEXITSTATUS( status ) != 0 )
			printf( "\n    [%s] child failures: 0x%x ", hyb_t_name( m ), WEXITSTATUS( status ) );
		/* The parent's tracking is intact: unchanged, then a write shows. */
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 0 );
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 0, 1, &stale ) == HYB_RESIDENCY_HIT );
		a[4096 * 100] ^= 1;
		HYB_T_ASSERT( m, hyb_residency_watch_changed( w ) == 1 );
		HYB_T_ASSERT( m, hyb_t_use( c, &r, 1, 0, 1, &stale ) == HYB_RESIDENCY_FILL );
		HYB_T_ASSERT( m, stale == 0 );
		hyb_residency_watch_destroy( w );
		hyb_residency_cache_destroy( c );
		munmap( a, HYB_T_MIB );
	}
}

/* ------------------------------------------------------------ fallback */

/* The program closes the tracker's userfaultfd and reuses the number (as a
   daemon closing every descriptor would): tracking must notice, report its
   watches changed and fall back to hashing, never scan someone else's
   file. Runs last: uffd tracking stays off in this process afterwards. */
static void test_uffd_descriptor_lost( void )
{
	if ( !hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ) ) return;
	hyb_t_seed( 401 );
	unsigned char*         a = hyb_t_map( HYB_T_MIB );
	hyb_residency_watch_t* w = hyb_t_watch_tracked( HYB_RESIDENCY_MECH_UFFD, a, HYB_T_MIB );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	/* Find our userfaultfd among the descriptors. */
	int uffd = -1;
	for ( int fd = 3; fd < 1024 && uffd < 0; fd++ )
	{
		char link[64], target[128];
		snprintf( link, sizeof link, "/proc/self/fd/%d", fd );
		ssize_t n = readlink( link, target, sizeof target - 1 );
		if ( n > 0 )
		{
			target[n] = 0;
			if ( strstr( target, "userfaultfd" ) ) uffd = fd;
		}
	}
	CU_ASSERT_FATAL( uffd >= 0 );
	FILE* f = tmpfile();
	CU_ASSERT_FATAL( f != NULL );
	CU_ASSERT_FATAL( dup2( fileno( f ), uffd ) == uffd );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
	CU_ASSERT_EQUAL( hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD ), 0 );
	/* The watch armed with uffd-wp, re-armed now: every byte is hashed,
	   the pages the kernel tracked before included. */
	CU_ASSERT_EQUAL( hyb_residency_watch_rearm( w ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_residency_watch_mech( w ), HYB_RESIDENCY_MECH_HASH );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 0 );
	a[HYB_T_MIB / 2] ^= 1;
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w ), 1 );
	a[HYB_T_MIB / 2] ^= 1;
	hyb_residency_watch_t* w2 = hyb_t_watch( HYB_RESIDENCY_MECH_UFFD, a, HYB_T_MIB );
	CU_ASSERT_EQUAL( hyb_residency_watch_mech( w2 ), HYB_RESIDENCY_MECH_HASH );
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w2 ), 0 );
	a[5] ^= 1;
	CU_ASSERT_EQUAL( hyb_residency_watch_changed( w2 ), 1 );
	hyb_residency_watch_destroy( w2 );
	hyb_residency_watch_destroy( w );
	close( uffd );
	fclose( f );
	munmap( a, HYB_T_MIB );
}

static CU_TestInfo hyb_tests_residency[] = {
	{ "track_leaves_soft_dirty",
	  test_track_leaves_soft_dirty }, /* first: before any soft-dirty probe */
	{ "mechanisms", test_mechanisms },
	{ "hash", test_hash },
	{ "invalid_args", test_invalid_args },
	{ "unchanged_many_checks", test_unchanged_many_checks },
	{ "single_store", test_single_store },
	{ "memcpy_middle", test_memcpy_middle },
	{ "check_on_team", test_check_on_team },
	{ "read_syscall", test_read_syscall },
	{ "thread_store", test_thread_store },
	{ "free_realloc_heap", test_free_realloc_heap },
	{ "remap_fixed", test_remap_fixed },
	{ "mremap", test_mremap },
	{ "madvise_dontneed", test_madvise_dontneed },
	{ "munmap_hole", test_munmap_hole },
	{ "create_safe", test_create_safe },
	{ "matches_copy", test_matches_copy },
	{ "thp_zap", test_thp_zap },
	{ "partial_page_neighbour", test_partial_page_neighbour },
	{ "sparse_pages", test_sparse_pages },
	{ "shared_pages", test_shared_pages },
	{ "file_mapping_hashed", test_file_mapping_hashed },
	{ "foreign_uffd", test_foreign_uffd },
	{ "uffd_neighbour_free", test_uffd_neighbour_free },
	{ "uffd_program_tracks_own", test_uffd_program_tracks_own },
	{ "cache_hit_invalidate", test_cache_hit_invalidate },
	{ "cache_unchecked_confirm", test_cache_unchecked_confirm },
	{ "cache_unarmed", test_cache_unarmed },
	{ "cache_off_and_bad_input", test_cache_off_and_bad_input },
	{ "cache_keeps_changing", test_cache_keeps_changing },
	{ "cache_lru_entries", test_cache_lru_entries },
	{ "cache_lru_bytes", test_cache_lru_bytes },
	{ "cache_never_stale", test_cache_never_stale },
	{ "cache_threads", test_cache_threads },
	{ "fork_child", test_fork_child },
	{ "uffd_descriptor_lost", test_uffd_descriptor_lost }, /* last: disables uffd */
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_residency = { "residency", NULL, hyb_t_suite_cleanup,
	                                 NULL,        NULL, hyb_tests_residency };
