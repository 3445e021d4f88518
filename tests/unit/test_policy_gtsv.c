/* SPDX-License-Identifier: BSD-3-Clause */
/* The gtsv policy's pure functions at their boundaries, and the persisted throughput
   profile (round trip, smoothing, missing and corrupt files). */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policies/hyb_policy_gtsv.h"
#include "policies/hyb_policy_gtsv_side.h"
#include "test_gtsv_util.h"

/* ---------------------------------------------------------------------------------------
   Eq. 8 window.
   --------------------------------------------------------------------------------------- */
static void test_window_values( void )
{
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 10.0, HYB_PREC_D ), 17 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 2.0, HYB_PREC_D ), 55 ); /* 2^-55 = u/4 exactly */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 2.0, HYB_PREC_S ), 26 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 1.05, HYB_PREC_D ), 782 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 2.0, HYB_PREC_Z ), 55 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 2.0, HYB_PREC_C ), 26 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( INFINITY, HYB_PREC_D ), 1 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 1.0, HYB_PREC_D ), 0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 0.5, HYB_PREC_D ), 0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( NAN, HYB_PREC_D ), 0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( -3.0, HYB_PREC_D ), 0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_window( 1.001, HYB_PREC_D ), 0 ); /* over the maximum */
	CU_ASSERT( hyb_policy_gtsv_window( 1.0095, HYB_PREC_D ) > 0 );
	CU_ASSERT( hyb_policy_gtsv_window( 1.0095, HYB_PREC_D ) <= HYB_GTSV_WINDOW_MAX );
}

static void test_window_property( void )
{
	/* m is the smallest window with dom^-m <= u/4, and it never grows with dom. */
	const double target_d = ldexp( 1.0, -55 ), target_s = ldexp( 1.0, -26 );
	int64_t      prev = HYB_GTSV_WINDOW_MAX + 1;
	for ( double dom = 1.01; dom < 50; dom *= 1.013 )
	{
		int64_t m = hyb_policy_gtsv_window( dom, HYB_PREC_D );
		CU_ASSERT( m >= 1 && m <= prev );
		prev = m;
		CU_ASSERT( (double)m * log( dom ) >= -log( target_d ) * ( 1 - 1e-12 ) );
		if ( m > 1 ) CU_ASSERT( (double)( m - 1 ) * log( dom ) < -log( target_d ) );
		int64_t ms = hyb_policy_gtsv_window( dom, HYB_PREC_S );
		CU_ASSERT( ms >= 1 && ms <= m );
		CU_ASSERT( (double)ms * log( dom ) >= -log( target_s ) * ( 1 - 1e-12 ) );
	}
}

static void test_choose( void )
{
	int64_t m = -1;
	/* Column dominant, no pivot: SPIKE with the window of the larger factor. */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 0.9, 2.0, 0, 0, 0, HYB_PREC_D, 1, &m ),
	                 HYB_GTSV_PLAN_SPIKE );
	CU_ASSERT_EQUAL( m, 55 );
	/* Row dominant with a swap: strict -> LAPACK, else X only. */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 2.0, 0.8, 17, -1, 0, HYB_PREC_D, 1, &m ),
	                 HYB_GTSV_PLAN_LAPACK );
	CU_ASSERT_EQUAL( m, 0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 2.0, 0.8, 17, -1, 0, HYB_PREC_D, 0, &m ),
	                 HYB_GTSV_PLAN_SPIKE_X_ONLY );
	CU_ASSERT_EQUAL( m, 55 );
	/* Everything else goes to LAPACK. */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 0.99, 0.99, 0, 0, 0, HYB_PREC_D, 0, &m ),
	                 HYB_GTSV_PLAN_LAPACK );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 3.0, 3.0, 0, 0, 1, HYB_PREC_D, 0, &m ),
	                 HYB_GTSV_PLAN_LAPACK );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 3.0, 3.0, 0, 5, 0, HYB_PREC_D, 0, &m ),
	                 HYB_GTSV_PLAN_LAPACK );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 3.0, 0.5, -1, -1, 0, HYB_PREC_D, 0, &m ),
	                 HYB_GTSV_PLAN_LAPACK );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( NAN, 3.0, 0, 0, 0, HYB_PREC_D, 0, &m ),
	                 HYB_GTSV_PLAN_LAPACK );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 1.001, 1.0, 0, 0, 0, HYB_PREC_D, 0, &m ),
	                 HYB_GTSV_PLAN_LAPACK );
	CU_ASSERT_EQUAL( m, 0 );
	/* A swap reported for a matrix that is not row dominant (exact first partition of a
	   non-dominant matrix) never runs SPIKE. */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( 0.9, 0.9, 3, -1, 0, HYB_PREC_D, 0, NULL ),
	                 HYB_GTSV_PLAN_LAPACK );
}

/* ---------------------------------------------------------------------------------------
   Shares and chunks.
   --------------------------------------------------------------------------------------- */
static int64_t sum( const int64_t* r, int k )
{
	int64_t s = 0;
	for ( int i = 0; i < k; i++ ) s += r[i];
	return s;
}

static void test_shares( void )
{
	int64_t rows[HYB_GTSV_DEV_MAX];
	/* Unknown rate: equal shares, predicted time 0. */
	double r0[2] = { 0, 5e8 };
	CU_ASSERT_EQUAL( hyb_policy_gtsv_shares( 1000000, 2, r0, 1, 0, rows ), 0.0 );
	CU_ASSERT( rows[0] == 500000 && rows[1] == 500000 );
	double rn[2] = { NAN, 5e8 };
	hyb_policy_gtsv_shares( 1000001, 2, rn, 1, 0, rows );
	CU_ASSERT( sum( rows, 2 ) == 1000001 && llabs( rows[0] - rows[1] ) <= 1 );

	/* Proportional to throughput, aligned, summing to n; equal finishing times. */
	double  r[3] = { 1e9, 3e9, 2e9 };
	int64_t n    = ( (int64_t)1 << 27 ) + 12345;
	double  t    = hyb_policy_gtsv_shares( n, 3, r, 4096, 0, rows );
	CU_ASSERT_EQUAL( sum( rows, 3 ), n );
	CU_ASSERT( rows[0] % 4096 == 0 && rows[2] % 4096 == 0 ); /* device 1 (fastest) takes the rest */
	for ( int k = 0; k < 3; k++ )
		CU_ASSERT( fabs( (double)rows[k] - (double)n * r[k] / 6e9 ) <= 2 * 4096 );
	CU_ASSERT( t > 0 && fabs( t - (double)n / 6e9 ) <= 1e-3 * t );

	/* A device whose share falls below min_rows is dropped. */
	double r2[2] = { 1e6, 1e10 };
	hyb_policy_gtsv_shares( 1000000, 2, r2, 1, 1000, rows );
	CU_ASSERT( rows[0] == 0 && rows[1] == 1000000 );
	hyb_policy_gtsv_shares( 100000000, 2, r2, 1, 1000, rows );
	CU_ASSERT( rows[0] > 1000 && sum( rows, 2 ) == 100000000 );

	/* Small n and n = 0. */
	hyb_policy_gtsv_shares( 3, 3, r, 4096, 0, rows );
	CU_ASSERT( rows[1] == 3 && rows[0] == 0 && rows[2] == 0 );
	hyb_policy_gtsv_shares( 0, 2, r, 1, 0, rows );
	CU_ASSERT( rows[0] == 0 && rows[1] == 0 );

	/* Invalid arguments. */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_shares( -1, 2, r, 1, 0, rows ), -1.0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_shares( 10, 0, r, 1, 0, rows ), -1.0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_shares( 10, HYB_GTSV_DEV_MAX + 1, r, 1, 0, rows ), -1.0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_shares( 10, 2, r, 0, 0, rows ), -1.0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_shares( 10, 2, NULL, 1, 0, rows ), -1.0 );
}

static void test_chunks( void )
{
	const size_t mib = (size_t)1 << 20;
	/* 2^27 double rows, one RHS: 32 bytes a row; a 64 MiB buffer holds 2 Mi rows. */
	int64_t c = hyb_policy_gtsv_chunk_rows( (int64_t)1 << 27, 1, 8, 64 * mib, 55, 4 );
	CU_ASSERT_EQUAL( c, (int64_t)1 << 21 );
	CU_ASSERT( (double)c * 32 <= 64.0 * (double)mib );
	/* A large buffer: at least min_chunks chunks. */
	c = hyb_policy_gtsv_chunk_rows( (int64_t)1 << 24, 1, 8, 4096 * mib, 55, 8 );
	CU_ASSERT_EQUAL( c, (int64_t)1 << 21 );
	/* The floor (16 m or 64 Ki rows) wins over min_chunks, the buffer over the floor. */
	c = hyb_policy_gtsv_chunk_rows( 200000, 1, 8, 4096 * mib, 782, 8 );
	CU_ASSERT( c >= 16 * 782 && c >= HYB_GTSV_CHUNK_MIN_ROWS && c <= 200000 );
	c = hyb_policy_gtsv_chunk_rows( 1000000, 3, 8, 48 * 1024, 10, 2 );
	CU_ASSERT( c >= 1 && (double)c * 48 <= 48.0 * 1024 );
	/* Tiny shares and bad arguments. */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_chunk_rows( 1, 1, 8, 64 * mib, 55, 4 ), 1 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_chunk_rows( 5000, 1, 8, 64 * mib, 55, 4 ), 5000 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_chunk_rows( 0, 1, 8, 64 * mib, 55, 4 ), 0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_chunk_rows( 10, 1, 0, 64 * mib, 55, 4 ), 0 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_chunk_rows( 10, -1, 8, 64 * mib, 55, 4 ), 0 );
	/* A buffer smaller than one row still returns one row (the caller must refuse it). */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_chunk_rows( 10, 1, 8, 8, 55, 4 ), 1 );
}

/* ---------------------------------------------------------------------------------------
   Profile.
   --------------------------------------------------------------------------------------- */
static char pg_dir[64];

static int pg_init( void )
{
	snprintf( pg_dir, sizeof pg_dir, "/tmp/hyb_gtsv_profXXXXXX" );
	return mkdtemp( pg_dir ) ? 0 : 1;
}

static int pg_cleanup( void )
{
	char cmd[128];
	snprintf( cmd, sizeof cmd, "rm -rf '%s'", pg_dir );
	return system( cmd ) == 0 ? 0 : 1;
}

static void pg_path( char* buf, size_t len, const char* name )
{
	snprintf( buf, len, "%s/%s", pg_dir, name );
}

static void pg_write_text( const char* path, const char* text )
{
	FILE* f = fopen( path, "w" );
	CU_ASSERT_PTR_NOT_NULL_FATAL( f );
	fputs( text, f );
	fclose( f );
}

static void test_profile_roundtrip( void )
{
	char              path[128];
	hyb_learn_table_t p, q;
	pg_path( path, sizeof path, "rt.prof" );
	hyb_learn_table_init( &p );
	CU_ASSERT_EQUAL( tgt_learn_rate( &p, "cpu", 'd' ), 0.0 );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'd', 1.25e9, 0.3 ), HYB_OK );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "gpu0", 'd', 2.0e9, 0.3 ), HYB_OK );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "gpu0", 's', 3.0e9, 0.3 ), HYB_OK );
	/* EMA: 0.7 * 2e9 + 0.3 * 1e9 */
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "gpu0", 'd', 1.0e9, 0.3 ), HYB_OK );
	CU_ASSERT( fabs( tgt_learn_rate( &p, "gpu0", 'd' ) - 1.7e9 ) < 1 );
	CU_ASSERT_EQUAL( hyb_learn_table_write( path, &p ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &q ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &q ), 3 );
	CU_ASSERT_EQUAL( tgt_learn_rate( &q, "cpu", 'd' ), 1.25e9 );
	CU_ASSERT_EQUAL( tgt_learn_rate( &q, "gpu0", 'd' ),
	                 tgt_learn_rate( &p, "gpu0", 'd' ) ); /* %.17g: exact */
	CU_ASSERT_EQUAL( tgt_learn_rate( &q, "gpu0", 's' ), 3.0e9 );
	CU_ASSERT_EQUAL( tgt_learn_samples( &q, "gpu0", 'd' ), 2 );
	/* Rewriting keeps the file whole (no temporary left behind). */
	CU_ASSERT_EQUAL( hyb_learn_table_write( path, &q ), HYB_OK );
	char tmp[160];
	snprintf( tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid() );
	CU_ASSERT( access( tmp, F_OK ) != 0 );
}

static void test_profile_missing_and_corrupt( void )
{
	char              path[128];
	hyb_learn_table_t p;
	pg_path( path, sizeof path, "does-not-exist.prof" );
	hyb_learn_table_init( &p );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'd', 1e9, 1 ), HYB_OK ); /* not empty */
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &p ), HYB_E_IO );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &p ), 0 );

	pg_path( path, sizeof path, "bad.prof" );
	char longline[600];
	memset( longline, 'x', sizeof longline - 2 );
	longline[sizeof longline - 2] = '\n';
	longline[sizeof longline - 1] = '\0';
	/* The store's format (policies/hyb_learn.h), each line named as the family names it. */
	char cpu[64], gpu0[64], gpu1[64], gpu2[64];
	tgt_learn_prefix( cpu, sizeof cpu, "cpu", 'd' );
	tgt_learn_prefix( gpu0, sizeof gpu0, "gpu0", 'd' );
	tgt_learn_prefix( gpu1, sizeof gpu1, "gpu1", 's' );
	tgt_learn_prefix( gpu2, sizeof gpu2, "gpu2", 'd' );
	char text[4096];
	snprintf( text, sizeof text,
	          "# hyblas learning store 1\n"
	          "# header\n"
	          "\n"
	          "%s 1.5e9 4\n"
	          "%s nan 3\n"
	          "%s -5 3\n"
	          "%s inf 3\n"
	          "learn gtsv 0x1000164 cpuq 1e9 3\n" /* no such slot */
	          "learn bad/name 0x164 gpu 1e9 3\n"
	          "%s 1e9 0\n"
	          "%s 1e9 3 extra\n"
	          "%s 1e9x 3\n"
	          "gemm gtsv 0x164 gpu 1e9 3\n"
	          "%s"
	          "   %s   2.5e9   7   \n"
	          "%s 1.75e9 5\n"
	          "\x01\x02\xff garbage\n"
	          "%s 4e9",
	          cpu, gpu0, gpu0, gpu0, gpu0, gpu0, gpu0, longline, gpu1, cpu, gpu2 );
	pg_write_text( path, text );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &p ), HYB_E_PARSE );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &p ), 2 );
	CU_ASSERT_EQUAL( tgt_learn_rate( &p, "cpu", 'd' ), 1.75e9 ); /* later wins */
	CU_ASSERT_EQUAL( tgt_learn_rate( &p, "gpu1", 's' ), 2.5e9 );
	CU_ASSERT_EQUAL( tgt_learn_rate( &p, "gpu0", 'd' ), 0.0 );
	CU_ASSERT_EQUAL( tgt_learn_rate( &p, "gpu2", 'd' ), 0.0 );

	/* An empty file is a valid empty profile. */
	pg_path( path, sizeof path, "empty.prof" );
	pg_write_text( path, "" );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &p ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &p ), 0 );

	/* Writing into a missing directory fails cleanly. */
	pg_path( path, sizeof path, "no/such/dir.prof" );
	CU_ASSERT_EQUAL( hyb_learn_table_write( path, &p ), HYB_E_IO );
}

static void test_profile_update_rules( void )
{
	hyb_learn_table_t p;
	hyb_learn_table_init( &p );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'd', NAN, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'd', -1, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'd', INFINITY, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'd', 1e9, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'd', 1e9, 1.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "", 'd', 1e9, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "a b", 'd', 1e9, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 'x', 1e9, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "gpu7", 'd', 1e9, 0.5 ), HYB_OK ); /* the last device */
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "gpu8", 'd', 1e9, 0.5 ), HYB_E_INVALID ); /* none */
	CU_ASSERT_EQUAL( hyb_learn_table_count( &p ), 1 );
	/* alpha = 1 replaces; repeated samples converge geometrically. */
	tgt_learn_fold( &p, "cpu", 'd', 1e9, 0.5 );
	tgt_learn_fold( &p, "cpu", 'd', 3e9, 1.0 );
	CU_ASSERT_EQUAL( tgt_learn_rate( &p, "cpu", 'd' ), 3e9 );
	for ( int i = 0; i < 60; i++ ) tgt_learn_fold( &p, "cpu", 'd', 1e9, 0.25 );
	CU_ASSERT( fabs( tgt_learn_rate( &p, "cpu", 'd' ) - 1e9 ) < 1e3 );
	/* The table is bounded. */
	hyb_learn_table_init( &p );
	char name[32];
	for ( int k = 0; k < HYB_LEARN_TABLE_MAX; k++ )
	{
		snprintf( name, sizeof name, "lapack.t%d.n20", k + 1 );
		tgt_learn_fold( &p, name, 's', 1e9, 0.5 );
	}
	CU_ASSERT_EQUAL( hyb_learn_table_count( &p ), HYB_LEARN_TABLE_MAX );
	CU_ASSERT_EQUAL( tgt_learn_fold( &p, "cpu", 's', 1e9, 0.5 ), HYB_E_NO_MEMORY );
}

/* ---------------------------------------------------------------------------------------
   The heterogeneous split.
   --------------------------------------------------------------------------------------- */

/* The GPU machine's figures: 16 threads, ~96 GB/s of host traffic, 55 GB/s PCIe. */
static hyb_gtsv_split_in_t pg_split_in( int64_t n, int ndev )
{
	hyb_gtsv_split_in_t in;
	memset( &in, 0, sizeof in );
	in.n            = n;
	in.nrhs         = 1;
	in.elem         = 8;
	in.ndev         = ndev;
	in.threads      = 16;
	in.dev_threads  = 4;
	in.allow_cpu    = 1;
	in.cpu_ratio    = -1;
	in.min_dev_rows = 1 << 17;
	in.host_bw      = 96e9;
	in.core_rate    = 1.8e8;
	in.h2d          = 55e9;
	in.d2h          = 55e9;
	in.dev_latency  = 2e-4;
	in.margin       = 1.1;
	return in;
}

static int64_t pg_rows_sum( const hyb_gtsv_split_t* s )
{
	int64_t t = s->cpu_rows;
	for ( int k = 0; k < HYB_GTSV_DEV_MAX; k++ ) t += s->dev_rows[k];
	return t;
}

static void test_split_model( void )
{
	const int64_t n = (int64_t)1 << 27;

	/* No device: the CPU alone. */
	hyb_gtsv_split_in_t in = pg_split_in( n, 0 );
	hyb_gtsv_split_t    s  = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_CPU && s.cpu_rows == n && s.t_plan > 0 );

	/* Host memory saturated by the CPU SPIKE (96 GB/s / 56 B = 1.7 G rows/s, under 16 cores'
	   2.9 G rows/s): the model sees no gain in a split (the device path moves more host
	   bytes a row), so auto stays on the CPU, and the devices alone are slower still. */
	in = pg_split_in( n, 1 );
	s  = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_CPU && s.cpu_rows == n );
	CU_ASSERT( s.t_split >= s.t_cpu * 0.999 && s.t_dev > s.t_cpu );
	CU_ASSERT( fabs( s.t_cpu - (double)n * 56 / 96e9 ) < 1e-9 * s.t_cpu + 1e-12 );

	/* A CPU that is compute bound (slow cores) leaves host bandwidth to a device behind a
	   slow link (8 GB/s: 0.25 G rows/s alone): together they beat either alone. */
	in           = pg_split_in( n, 1 );
	in.core_rate = 2e7; /* 16 cores: 0.32 G rows/s */
	in.h2d = in.d2h = 8e9;
	s               = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_SPLIT );
	CU_ASSERT( s.cpu_rows > 0 && s.dev_rows[0] > 0 && pg_rows_sum( &s ) == n );
	CU_ASSERT( s.t_split < s.t_cpu && s.t_split <= s.t_dev );

	/* mode gpu: a device must take part even when the CPU alone would be faster. */
	in          = pg_split_in( n, 1 );
	in.need_dev = 1;
	s           = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf != HYB_GTSV_CONF_CPU && s.dev_rows[0] > 0 && pg_rows_sum( &s ) == n );

	/* A fixed CPU ratio: 0 is the devices alone, else exactly that share for the CPU. */
	in           = pg_split_in( 1000003, 2 );
	in.cpu_ratio = 0;
	s            = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_DEV && s.cpu_rows == 0 && pg_rows_sum( &s ) == 1000003 );
	CU_ASSERT( s.dev_rows[0] > 0 && s.dev_rows[1] > 0 );
	in.cpu_ratio = 0.25;
	s            = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_SPLIT && s.cpu_rows == 250000 &&
	           pg_rows_sum( &s ) == 1000003 );

	/* Profiled rates replace the model: split rates 1 : 3 give rows 1 : 3 (within the 1024-row
	   alignment), and the split wins by far over the CPU alone. */
	in              = pg_split_in( n, 1 );
	in.cpu_alone    = 1.0e9;
	in.split_cpu    = 1.0e9;
	in.split_dev[0] = 3.0e9;
	in.dev_alone[0] = 2.0e9;
	s               = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_SPLIT && pg_rows_sum( &s ) == n );
	CU_ASSERT( llabs( s.dev_rows[0] - 3 * s.cpu_rows ) <= 4 * 1024 );
	CU_ASSERT( fabs( s.t_split - ( (double)n / 4e9 + 2e-4 ) ) < 1e-3 * s.t_split );
	/* ... and they scale with the right-hand sides (rows/s for one RHS). */
	in.nrhs = 4;
	s       = hyb_policy_gtsv_split( &in );
	CU_ASSERT( fabs( s.t_cpu - (double)n / ( 1e9 / hyb_policy_gtsv_rhs_weight( 4 ) ) ) <
	           1e-9 * s.t_cpu );

	/* Measured devices only slightly faster than the CPU: the margin keeps the CPU. */
	in              = pg_split_in( n, 1 );
	in.cpu_alone    = 1.0e9;
	in.dev_alone[0] = 1.05e9;
	in.split_cpu    = 0.6e9;
	in.split_dev[0] = 0.45e9;
	s               = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_CPU && s.cpu_rows == n );
	in.margin = 1.0;
	s         = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf != HYB_GTSV_CONF_CPU );

	/* A device share under the minimum is dropped: a small call stays on the CPU. */
	in              = pg_split_in( 200000, 1 );
	in.cpu_alone    = 1.0e9;
	in.split_cpu    = 1.0e9;
	in.split_dev[0] = 0.2e9; /* its share would be ~33000 rows < 2^17 */
	in.dev_alone[0] = 0.2e9;
	s               = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_CPU && s.cpu_rows == 200000 && s.dev_rows[0] == 0 );

	/* Unknown (non-finite) profiled rates fall back to the model. */
	in           = pg_split_in( n, 1 );
	in.cpu_alone = NAN;
	s            = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.conf == HYB_GTSV_CONF_CPU && isfinite( s.t_cpu ) && s.t_cpu > 0 );
	CU_ASSERT( hyb_policy_gtsv_rhs_weight( 1 ) == 1.0 && hyb_policy_gtsv_rhs_weight( 0 ) == 1.0 );
	CU_ASSERT( hyb_policy_gtsv_split( NULL ).conf == HYB_GTSV_CONF_CPU );
}

/* Registered pages: the device's head start (its registering runs during the check) gives
   it rate * (T + head) rows and the CPU rate * T; the registering thread, which also
   unregisters, caps the device at 1 / ((reg + unreg) bytes a row). */
static void test_split_registered( void )
{
	const int64_t       n  = (int64_t)1 << 27;
	const double        rc = 1.2e9, rd = 4e8, head = 0.04;
	hyb_gtsv_split_in_t in = pg_split_in( n, 1 );
	in.reg                 = 1;
	in.head                = head;
	in.split_cpu           = rc;
	in.split_dev[0]        = rd;
	in.dev_alone[0]        = rd;
	in.cpu_alone           = 1.3e9;
	in.need_dev            = 1;
	hyb_gtsv_split_t s     = hyb_policy_gtsv_split( &in );
	CU_ASSERT_EQUAL_FATAL( s.conf, HYB_GTSV_CONF_SPLIT );
	CU_ASSERT_EQUAL( pg_rows_sum( &s ), n );
	double T = ( (double)n - rd * head ) / ( rc + rd );
	CU_ASSERT( fabs( (double)s.dev_rows[0] - rd * ( T + head ) ) <= 2048 );
	CU_ASSERT( fabs( (double)s.cpu_rows - rc * T ) <= 2048 );
	CU_ASSERT( fabs( s.t_split - ( T + in.dev_latency ) ) <= 1e-5 );
	/* no head start: the shares of the rates */
	in.head = 0;
	s       = hyb_policy_gtsv_split( &in );
	CU_ASSERT( fabs( (double)s.dev_rows[0] - (double)n * rd / ( rc + rd ) ) <= 2048 );
	/* a head start longer than the CPU's whole share: the devices alone */
	in.head = 1.0;
	s       = hyb_policy_gtsv_split( &in );
	CU_ASSERT( s.dev_rows[0] == n && s.cpu_rows == 0 && pg_rows_sum( &s ) == n );

	/* unknown rates: the registering thread bounds the device */
	hyb_gtsv_split_in_t m = pg_split_in( n, 1 );
	m.reg                 = 1;
	m.reg_spb             = 3e-11;
	m.unreg_spb           = 2e-11;
	m.cpu_ratio           = 0; /* the device alone */
	hyb_gtsv_split_t d    = hyb_policy_gtsv_split( &m );
	double           cap  = 1 / ( 5e-11 * 32 );
	CU_ASSERT_EQUAL( d.conf, HYB_GTSV_CONF_DEV );
	CU_ASSERT( d.t_plan >= (double)n / cap - 1e-9 );
	m.reg_spb = m.unreg_spb = 0; /* then the bus and the host traffic bound it */
	CU_ASSERT( hyb_policy_gtsv_split( &m ).t_plan < d.t_plan );
}

/* The LAPACK-or-SPIKE rule with injected rates: safe without rates, one SPIKE probe,
   the margin, probes of the side not in use after 4^k - 1 calls of the other and only
   as the probes' cost allows; keys and size classes. */
static hyb_gtsv_side_t side_of( double lapack, int64_t lk, double spike, int64_t sk )
{
	/* rows enough for LAPACK's calls to pay for any first probe */
	hyb_gtsv_side_in_t in = { lapack, lk, spike, sk, 0, 0, 1e12 };
	return hyb_policy_gtsv_side( &in );
}

static void test_side_rule( void )
{
	hyb_gtsv_side_t r = hyb_policy_gtsv_side( NULL );
	CU_ASSERT( !r.spike && !r.probe && r.why != NULL );
	r = side_of( 0, 0, 0, 0 ); /* nothing measured: LAPACK */
	CU_ASSERT( !r.spike && !r.probe );
	r = side_of( 0, 0, 1e12, 5 ); /* a SPIKE rate alone does not prove LAPACK slower */
	CU_ASSERT( !r.spike );
	r = side_of( 1e9, 1, 0, 0 ); /* LAPACK known: the SPIKE measured once */
	CU_ASSERT( r.spike && r.probe );
	/* the margin: a tie or a small gain stays with LAPACK */
	CU_ASSERT( !side_of( 1e9, 1, 1e9, 1 ).spike );
	CU_ASSERT( !side_of( 1e9, 1, 1e9 * ( HYB_GTSV_SIDE_MARGIN - 0.01 ), 1 ).spike );
	r = side_of( 1e9, 1, 1e9 * HYB_GTSV_SIDE_MARGIN, 1 );
	CU_ASSERT( r.spike && !r.probe );
	CU_ASSERT( HYB_GTSV_SIDE_MARGIN > 1.0 && HYB_GTSV_SIDE_MARGIN <= 1.05 );
	/* probes of the SPIKE while LAPACK wins by little (1.04x): after 3, 15, 63 LAPACK
	   samples; by much (10x: each probe costs 9 calls), not before the probes' extra time
	   is at most HYB_GTSV_SIDE_PROBE_SHARE of the calls made */
	const double slower[2] = { 1e9 / 1.04, 1e8 };
	for ( int c = 0; c < 2; c++ )
	{
		int64_t probes = 0, sk = 1;
		double  extra = 0.0;
		for ( int64_t lk = 1; lk <= 4096; lk++ )
		{
			r = side_of( 1e9, lk, slower[c], sk );
			CU_ASSERT( r.spike == r.probe );
			if ( !r.spike ) continue;
			if ( c == 0 )
				CU_ASSERT( lk == 3 || lk == 15 || lk == 63 || lk == 255 || lk == 1023 ||
				           lk == 4095 );
			extra += 1e9 / slower[c] - 1.0;
			CU_ASSERT( extra <= HYB_GTSV_SIDE_PROBE_SHARE * (double)lk + 1e-9 );
			probes++;
			sk++;
		}
		CU_ASSERT( probes >= 5 && probes <= 6 );
	}
	/* and of LAPACK while the SPIKE wins: by little after 3 and 15 SPIKE samples, by 10x
	   not before 450 */
	CU_ASSERT( !side_of( 1e9 / 1.05, 1, 1e9, 2 ).probe );
	r = side_of( 1e9 / 1.05, 1, 1e9, 3 );
	CU_ASSERT( !r.spike && r.probe );
	CU_ASSERT( side_of( 1e9 / 1.05, 2, 1e9, 14 ).spike );
	r = side_of( 1e9 / 1.05, 2, 1e9, 15 );
	CU_ASSERT( !r.spike && r.probe );
	CU_ASSERT( !side_of( 1e8, 1, 1e9, 3 ).probe );
	CU_ASSERT( !side_of( 1e8, 1, 1e9, 449 ).probe );
	r = side_of( 1e8, 1, 1e9, 450 );
	CU_ASSERT( !r.spike && r.probe );
	/* the SPIKE's thread start: LAPACK until the process's LAPACK calls pay for it, whatever
	   the rates; no start (a warm team, one thread): the rule above */
	hyb_gtsv_side_in_t cold = { 1e9, 1, 0, 0, 1e-3, 0, 1e12 };
	r                       = hyb_policy_gtsv_side( &cold );
	CU_ASSERT( !r.spike && !r.probe );
	cold.lapack_spent = 0.99e-3 / HYB_GTSV_SIDE_PROBE_SHARE;
	CU_ASSERT( !hyb_policy_gtsv_side( &cold ).spike );
	cold.lapack_spent = 1e-3 / HYB_GTSV_SIDE_PROBE_SHARE;
	r                 = hyb_policy_gtsv_side( &cold );
	CU_ASSERT( r.spike && r.probe );
	cold.spike         = 1e10; /* measured 10x faster in an earlier process */
	cold.spike_samples = 5;
	cold.lapack_spent  = 0;
	CU_ASSERT( !hyb_policy_gtsv_side( &cold ).spike );
	cold.team_start = 0;
	r               = hyb_policy_gtsv_side( &cold );
	CU_ASSERT( r.spike && !r.probe );
	cold.lapack       = 0; /* and without LAPACK's rate, LAPACK */
	cold.team_start   = 1e-3;
	cold.lapack_spent = 1;
	CU_ASSERT( !hyb_policy_gtsv_side( &cold ).spike );
	/* the SPIKE's first measurement: once LAPACK's calls at the size pay for it */
	const double       call  = HYB_GTSV_SIDE_FIRST_PROBE_S / HYB_GTSV_SIDE_PROBE_SHARE / 10;
	hyb_gtsv_side_in_t first = { 1e9, 9, 0, 0, 0, 0, call * 1e9 };
	r                        = hyb_policy_gtsv_side( &first );
	CU_ASSERT( !r.spike && !r.probe );
	first.lapack_samples = 10;
	r                    = hyb_policy_gtsv_side( &first );
	CU_ASSERT( r.spike && r.probe );
	first.lapack_samples = 1; /* a call of 5 ms or more: at once */
	first.rows           = 5e-3 * 1e9;
	CU_ASSERT( hyb_policy_gtsv_side( &first ).spike );
	first.rows = 0; /* no size: never */
	CU_ASSERT( !hyb_policy_gtsv_side( &first ).spike );
	/* a side measured 30 or more times is never probed again (no overflow) */
	CU_ASSERT( !side_of( 1e9, INT64_MAX, 1e8, 30 ).spike );
	CU_ASSERT( side_of( 1e8, 30, 1e9, INT64_MAX ).spike );

	/* classes and keys */
	CU_ASSERT_EQUAL( hyb_policy_gtsv_side_class( 8192 ), 13 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_side_class( 16383 ), 13 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_side_class( (int64_t)1 << 27 ), 27 );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_side_class( 1 ), 0 );
	char key[32];
	hyb_policy_gtsv_side_key( 0, 2, 20, key, sizeof key );
	CU_ASSERT_STRING_EQUAL( key, "lapack.t2.n20" );
	hyb_policy_gtsv_side_key( 1, 128, 27, key, sizeof key );
	CU_ASSERT_STRING_EQUAL( key, "spike.t128.n27" );
	/* the keys are valid profile names, with room for every one a process can use */
	hyb_learn_table_t p;
	hyb_learn_table_init( &p );
	for ( int t = 1; t <= 4; t++ )
		for ( int c = 13; c <= 27; c++ )
			for ( int side = 0; side <= 1; side++ )
			{
				hyb_policy_gtsv_side_key( side, t, c, key, sizeof key );
				CU_ASSERT_EQUAL( tgt_learn_fold( &p, key, 'd', 1e9, 0.5 ), HYB_OK );
			}
	CU_ASSERT_EQUAL( tgt_learn_samples( &p, "spike.t4.n27", 'd' ), 1 );
	CU_ASSERT_EQUAL( tgt_learn_samples( &p, "spike.t4.n27", 's' ), 0 );
}

static CU_TestInfo hyb_tests_policy_gtsv[] = {
	{ "side_rule", test_side_rule },
	{ "window_values", test_window_values },
	{ "window_property", test_window_property },
	{ "choose", test_choose },
	{ "shares", test_shares },
	{ "chunks", test_chunks },
	{ "profile_roundtrip", test_profile_roundtrip },
	{ "profile_missing_and_corrupt", test_profile_missing_and_corrupt },
	{ "profile_update_rules", test_profile_update_rules },
	{ "split_model", test_split_model },
	{ "split_registered", test_split_registered },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_policy_gtsv = { "policy_gtsv", pg_init, pg_cleanup,
	                                   NULL,          NULL,    hyb_tests_policy_gtsv };
