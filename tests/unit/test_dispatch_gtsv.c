/* SPDX-License-Identifier: BSD-3-Clause */
/* ?gtsv_ dispatch end to end on the simulated device: LAPACK's contract on every path
   (forwarding of invalid, trivial, small and ineligible calls; X, factors and INFO on the
   SPIKE paths in each mode), faults, and the persisted throughput profile. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_backend_real.h"
#include "dispatch/hyb_dispatch.h"
#include "dispatch/hyb_gtsv_rates.h"
#include "hyb_routines.h"
#include "kernels/hyb_device.h"
#include "policies/hyb_policy_gtsv.h"
#include "policies/hyb_policy_gtsv_side.h"
#include "test_gtsv_util.h"

/* ---------------------------------------------------------------------------------------
   A call record like the generated wrappers' (raw arguments + forward), whose forward
   counts and then calls the real LAPACK (or, for invalid arguments, only counts: LAPACK's
   xerbla would stop the test program).
   --------------------------------------------------------------------------------------- */
typedef struct
{
	int   n, nrhs, ldb;
	void *dl, *d, *du, *b;
	int*  info;
	int   single;
	int   call_lapack;
} dg_raw_t;

static int dg_forwarded;

static void dg_forward( const hyb_call_t* call )
{
	const dg_raw_t* r = call->raw;
	dg_forwarded++;
	if ( !r->call_lapack ) return;
	if ( r->single )
		sgtsv_( &r->n, &r->nrhs, r->dl, r->d, r->du, r->b, &r->ldb, r->info );
	else
		dgtsv_( &r->n, &r->nrhs, r->dl, r->d, r->du, r->b, &r->ldb, r->info );
}

/* The dispatcher on copies of s; returns the arrays and INFO (as LP64 or ILP64). */
static tgt_arr_t dg_dispatch( const tgt_sys_t* s, int single, int call_lapack, int64_t* info_out,
                              int info64 )
{
	tgt_arr_t       A       = tgt_arrays( s, single );
	int             info32  = 12345;
	int64_t         info64v = 12345;
	dg_raw_t        raw     = { (int)s->n, (int)s->nrhs, (int)s->ldb, A.dl,   A.d,
		                        A.du,      A.b,          &info32,     single, call_lapack };
	hyb_call_t      call    = { single ? HYB_R_sgtsv_ : HYB_R_dgtsv_, &raw, dg_forward };
	hyb_gtsv_args_t args    = {
		   single ? HYB_PREC_S : HYB_PREC_D,          s->n,  s->nrhs, A.dl, A.d, A.du, A.b, s->ldb,
        info64 ? (void*)&info64v : (void*)&info32, info64
	};
	hyb_dispatch_gtsv( &call, &args );
	/* A forwarded call reports through the raw (32-bit) INFO. */
	*info_out = info64 && info64v != 12345 ? info64v : info32;
	return A;
}

/* ---------------------------------------------------------------------------------------
   Configurations.
   --------------------------------------------------------------------------------------- */
static hyb_config_t dg_cfg;
static char         dg_dir[256];
static char         dg_profile[320];

/* mode and optional NAME=VALUE pairs (NULL-terminated). */
static void dg_config( const char* mode, ... )
{
	char err[256];
	hyb_config_defaults( &dg_cfg );
	hyb_config_set( &dg_cfg, "HYBLAS_DEVICE", "sim", HYB_SRC_TEST, err, sizeof err );
	hyb_config_set( &dg_cfg, "HYBLAS_MODE", mode, HYB_SRC_TEST, err, sizeof err );
	hyb_config_set( &dg_cfg, "HYBLAS_LOG_LEVEL", "0", HYB_SRC_TEST, err, sizeof err );
	hyb_config_set( &dg_cfg, "HYBLAS_PROFILE", dg_profile, HYB_SRC_TEST, err, sizeof err );
	va_list ap;
	va_start( ap, mode );
	for ( const char* name = va_arg( ap, const char* ); name; name = va_arg( ap, const char* ) )
	{
		const char* value = va_arg( ap, const char* );
		CU_ASSERT_EQUAL( hyb_config_set( &dg_cfg, name, value, HYB_SRC_TEST, err, sizeof err ),
		                 HYB_OK );
	}
	va_end( ap );
	hyb_config_finish( &dg_cfg );
	hyb_config_install_for_test( &dg_cfg );
	hyb_devices_reset_for_test();
	hyb_gtsv_rates_reset_for_test();
}

static void dg_config_end( void )
{
	hyb_device_faults_set( NULL );
	hyb_devices_reset_for_test();
	hyb_config_install_for_test( NULL );
	hyb_gtsv_rates_reset_for_test();
}

static char dg_rates_file[400];

static void dg_rates_clear( void )
{
	snprintf( dg_rates_file, sizeof dg_rates_file, "%s.learn", dg_profile );
	unlink( dg_rates_file );
}

/* ---------------------------------------------------------------------------------------
   Tests.
   --------------------------------------------------------------------------------------- */

/* Invalid and trivial arguments reach the real routine unchanged, nothing else is touched. */
static void test_forward_invalid( void )
{
	dg_config( "gpu", NULL );
	hyb_t_rng_t rng = hyb_t_rng( 1 );
	tgt_sys_t   s   = tgt_make( &rng, TGT_COL, 20000, 1, 0, 2.0 );
	struct
	{
		int64_t n, nrhs, ldb;
		int     lapack;
	} cases[] = { { -1, 1, 20000, 0 },
		          { 20000, -1, 20000, 0 },
		          { 20000, 1, 19999, 0 },
		          { 20000, 0, 20000, 1 },
		          { 0, 1, 1, 1 } };
	for ( size_t c = 0; c < sizeof cases / sizeof cases[0]; c++ )
	{
		tgt_arr_t A    = tgt_arrays( &s, TGT_DOUBLE );
		int       info = 777;
		dg_raw_t  raw  = {
			  (int)cases[c].n, (int)cases[c].nrhs, (int)cases[c].ldb, A.dl, A.d, A.du, A.b, &info, 0,
			  cases[c].lapack
		};
		hyb_call_t      call = { HYB_R_dgtsv_, &raw, dg_forward };
		hyb_gtsv_args_t args = { HYB_PREC_D, cases[c].n, cases[c].nrhs, A.dl,  A.d,
			                     A.du,       A.b,        cases[c].ldb,  &info, 0 };
		dg_forwarded         = 0;
		hyb_dispatch_gtsv( &call, &args );
		TGT_EXPECT( dg_forwarded == 1, "case %zu not forwarded\n", c );
		if ( !cases[c].lapack )
		{
			int same = memcmp( A.d, s.d, (size_t)s.n * 8 ) == 0 &&
			           memcmp( A.b, s.b, (size_t)s.n * 8 ) == 0 &&
			           memcmp( A.dl, s.dl, (size_t)( s.n - 1 ) * 8 ) == 0 && info == 777;
			TGT_EXPECT( same, "case %zu: hyblas touched the arrays\n", c );
		}
		tgt_arr_free( &A );
	}
	tgt_free( &s );
	dg_config_end();
}

/* Systems SPIKE must not solve go to LAPACK, with LAPACK's outputs and INFO. */
static void test_forward_ineligible( void )
{
	dg_config( "gpu", NULL );
	struct
	{
		tgt_kind_t kind;
		int64_t    n;
		double     dom;
	} cases[] = { { TGT_COL, 3000, 2.0 },
		          { TGT_ROWSWAP, 30000, 1.5 },
		          { TGT_NONDOM, 30000, 0 },
		          { TGT_COL, 30000, 1.0001 } };
	for ( size_t c = 0; c < sizeof cases / sizeof cases[0]; c++ )
	{
		hyb_t_rng_t rng = hyb_t_rng( 10 + c );
		tgt_sys_t   s   = tgt_make( &rng, cases[c].kind, cases[c].n, 2, 1, cases[c].dom );
		if ( c == 2 )
			s.d[1234] = 0, s.dl[1233] = 0, s.dl[1234] = 0; /* a zero on the diagonal too */
		tgt_arr_t L = tgt_lapack( &s, TGT_DOUBLE );
		int64_t   info;
		dg_forwarded = 0;
		tgt_arr_t A  = dg_dispatch( &s, 0, 1, &info, 0 );
		TGT_EXPECT( dg_forwarded == 1, "ineligible case %zu was not forwarded\n", c );
		TGT_EXPECT( info == L.info, "case %zu: INFO %lld vs LAPACK %d\n", c, (long long)info,
		            L.info );
		TGT_EXPECT( memcmp( A.b, L.b, (size_t)( s.ldb * 2 ) * 8 ) == 0 &&
		                memcmp( A.d, L.d, (size_t)s.n * 8 ) == 0,
		            "case %zu: outputs differ from LAPACK's own\n", c );
		tgt_arr_free( &A );
		tgt_arr_free( &L );
		tgt_free( &s );
	}
	dg_config_end();
}

/* Dominant systems LAPACK cannot solve as SPIKE would: an exactly zero column or row
   (singular: LAPACK's INFO = k, whatever the dominance of the other rows), and an Inf or NaN
   in B (LAPACK carries it into all of X; SPIKE would confine it to a window). Each must
   reach LAPACK and come back with LAPACK's INFO and outputs, bit for bit, in every mode and
   both precisions. */
static void dg_lapack_case( const tgt_sys_t* s, int single, const char* what )
{
	tgt_arr_t L = tgt_lapack( s, single );
	int64_t   info;
	dg_forwarded = 0;
	tgt_arr_t A  = dg_dispatch( s, single, 1, &info, 0 );
	size_t    es = single ? 4 : 8;
	TGT_EXPECT( dg_forwarded == 1, "%s: not forwarded to LAPACK\n", what );
	TGT_EXPECT( info == L.info, "%s: INFO %lld, LAPACK's %d\n", what, (long long)info, L.info );
	TGT_EXPECT( memcmp( A.b, L.b, (size_t)( s->ldb * s->nrhs ) * es ) == 0 &&
	                memcmp( A.d, L.d, (size_t)s->n * es ) == 0 &&
	                memcmp( A.dl, L.dl, (size_t)( s->n - 1 ) * es ) == 0,
	            "%s: outputs differ from LAPACK's own\n", what );
	tgt_arr_free( &A );
	tgt_arr_free( &L );
}

static void test_forward_singular_nonfinite( void )
{
	static const char* modes[] = { "cpu", "gpu", "auto" };
	for ( size_t q = 0; q < sizeof modes / sizeof modes[0]; q++ )
	{
		dg_config( modes[q], "HYBLAS_GTSV_MIN_N", "8192", NULL );
		for ( int single = 0; single <= 1; single++ )
		{
			char what[120];
			/* an all-zero column j (d[j] = du[j-1] = dl[j] = 0) or row j (d[j] = dl[j-1] =
			   du[j] = 0) of a matrix dominant in both senses elsewhere, at the start, inside,
			   at the end */
			static const int64_t at[] = { 0, 5000, 29999 };
			for ( int row = 0; row <= 1; row++ )
				for ( size_t c = 0; c < sizeof at / sizeof at[0]; c++ )
				{
					hyb_t_rng_t rng = hyb_t_rng( 70 + c );
					tgt_sys_t   s   = tgt_make( &rng, TGT_BOTH, 30000, 2, 1, 2.0 );
					int64_t     j   = at[c];
					s.d[j]          = 0;
					if ( j > 0 ) ( row ? s.dl : s.du )[j - 1] = 0;
					if ( j + 1 < s.n ) ( row ? s.du : s.dl )[j] = 0;
					snprintf( what, sizeof what, "mode %s %c zero %s %lld", modes[q],
					          single ? 's' : 'd', row ? "row" : "column", (long long)j );
					dg_lapack_case( &s, single, what );
					tgt_free( &s );
				}
			/* Inf or NaN in B, in the second right-hand side only, at a few rows */
			static const double  bad[]  = { NAN, INFINITY, -INFINITY };
			static const int64_t rows[] = { 0, 12345, 29999 };
			for ( size_t v = 0; v < sizeof bad / sizeof bad[0]; v++ )
			{
				hyb_t_rng_t rng      = hyb_t_rng( 80 + v );
				tgt_sys_t   s        = tgt_make( &rng, TGT_COL, 30000, 2, 3, 2.0 );
				s.b[s.ldb + rows[v]] = bad[v];
				snprintf( what, sizeof what, "mode %s %c B(%lld, 2) = %g", modes[q],
				          single ? 's' : 'd', (long long)rows[v], bad[v] );
				dg_lapack_case( &s, single, what );
				tgt_free( &s );
			}
		}
		dg_config_end();
	}
}

/* The SPIKE paths in each mode and configuration, d and s, nrhs 1 and 3, ldb > n, INFO
   through the LP64 and ILP64 conventions. */
static void dg_spike_case( const char* what, int single, int64_t n, int64_t nrhs, int info64,
                           uint64_t seed )
{
	hyb_t_rng_t rng = hyb_t_rng( seed );
	tgt_sys_t   s   = tgt_make( &rng, TGT_COL, n, nrhs, 3, 1.4 );
	tgt_arr_t   L   = tgt_lapack( &s, single );
	int64_t     info;
	dg_forwarded = 0;
	tgt_arr_t A  = dg_dispatch( &s, single, 1, &info, info64 );
	TGT_EXPECT( dg_forwarded == 0, "%s: forwarded\n", what );
	TGT_EXPECT( info == 0 && L.info == 0, "%s: INFO %lld\n", what, (long long)info );
	tgt_compare( &s, &A, &L, what );
	tgt_arr_free( &A );
	tgt_arr_free( &L );
	tgt_free( &s );
}

/* A random column-dominant system of n rows (one right-hand side) that must be forwarded. */
static void dg_lapack_case_seeded( const char* what, int single, int64_t n, uint64_t seed )
{
	hyb_t_rng_t rng = hyb_t_rng( seed );
	tgt_sys_t   s   = tgt_make( &rng, TGT_COL, n, 1, 3, 1.4 );
	dg_lapack_case( &s, single, what );
	tgt_free( &s );
}

static void test_spike_modes( void )
{
	static const char* ratios[] = { "0", "0.5", "auto" };
	/* CPU SPIKE (mode cpu; auto below the device minimum). */
	dg_config( "cpu", NULL );
	for ( int single = 0; single <= 1; single++ )
		for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
			dg_spike_case( "mode cpu", single, 40000 + 7 * nrhs, nrhs, single,
			               20 + (uint64_t)nrhs );
	dg_config_end();
	/* Devices alone, split with a fixed ratio, split chosen by the model; memory small
	   enough for several chunks; one device staged and from registered pages, two. */
	static const char* staging[] = { "copy", "register", "auto" };
	for ( int v = 0; v < 3; v++ )
		for ( size_t q = 0; q < sizeof ratios / sizeof ratios[0]; q++ )
		{
			const char* ndev = v < 2 ? "1" : "2";
			dg_config( "gpu", "HYBLAS_CPU_RATIO", ratios[q], "HYBLAS_SIM_MEM", "4M",
			           "HYBLAS_SIM_DEVICES", ndev, "HYBLAS_STAGING", staging[v], NULL );
			for ( int single = 0; single <= 1; single++ )
				for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
				{
					char what[80];
					snprintf( what, sizeof what, "gpu ratio %s %s devices %s %c nrhs %lld",
					          ratios[q], ndev, staging[v], single ? 's' : 'd', (long long)nrhs );
					dg_spike_case( what, single, 90001, nrhs, !single, 40 + q + 10 * (uint64_t)v );
				}
			dg_config_end();
		}
}

/* Device faults through dispatch: the caller still gets LAPACK's results. */
static void test_faults( void )
{
	static const char* plans[] = { "alloc:1", "pinned:1", "h2d:2",      "d2h:3a",     "kernel:1a",
		                           "sync:2",  "any:7",    "register:1", "register:3", "kernel:4" };
	for ( size_t q = 0; q < sizeof plans / sizeof plans[0]; q++ )
		for ( int v = 0; v < 2; v++ )
		{
			if ( v == 0 && strncmp( plans[q], "register", 8 ) == 0 )
				continue; /* staged: no registering */
			dg_config( "gpu", "HYBLAS_CPU_RATIO", q % 2 ? "0.3" : "0", "HYBLAS_SIM_MEM", "4M",
			           "HYBLAS_FAULT_INJECT", plans[q], "HYBLAS_STAGING", v ? "register" : "copy",
			           NULL );
			char what[64];
			snprintf( what, sizeof what, "fault %s%s", plans[q], v ? " registered" : "" );
			dg_spike_case( what, (int)( q % 2 ), 120000, 2, 0, 60 + q );
			dg_config_end();
		}
}

/* Samples folded into the rate of (dev, prec) in P, 0 when it has none. */
static int64_t dg_samples( const hyb_learn_table_t* P, const char* dev, char prec )
{
	return tgt_learn_samples( P, dev, prec );
}

/* Add to P one sample each of LAPACK and the CPU SPIKE (double, rows per second) for
   systems of n rows at this process's thread count. */
static void dg_side_put( hyb_learn_table_t* P, int64_t n, double lapack, double spike )
{
	char key[32];
	int  cls = hyb_policy_gtsv_side_class( n );
	hyb_policy_gtsv_side_key( 0, omp_get_max_threads(), cls, key, sizeof key );
	if ( lapack > 0 ) CU_ASSERT_EQUAL( tgt_learn_fold( P, key, 'd', lapack, 1 ), HYB_OK );
	hyb_policy_gtsv_side_key( 1, omp_get_max_threads(), cls, key, sizeof key );
	if ( spike > 0 ) CU_ASSERT_EQUAL( tgt_learn_fold( P, key, 'd', spike, 1 ), HYB_OK );
}

/* Samples of side spike for n rows at this thread count in the rates file (double). */
static int64_t dg_side_samples( int64_t n, int spike )
{
	hyb_learn_table_t P;
	char              key[32];
	hyb_policy_gtsv_side_key( spike, omp_get_max_threads(), hyb_policy_gtsv_side_class( n ), key,
	                          sizeof key );
	if ( hyb_learn_table_read( dg_rates_file, &P ) != HYB_OK ) return -1;
	return dg_samples( &P, key, 'd' );
}

/* The process's side rates for n rows at this thread count (double), as the rule sees
   them. */
static hyb_gtsv_side_in_t dg_side_now( int64_t n )
{
	hyb_gtsv_side_in_t in;
	hyb_gtsv_rates_side( HYB_PREC_D, omp_get_max_threads(), n, &in );
	return in;
}

/* Write the rates file with one sample each of the CPU alone, device 0 alone and both
   sides of a split (double precision, rows per second), and rates of LAPACK and the CPU
   SPIKE for n rows that make the SPIKE faster. */
static void dg_rates_preset( int64_t n, double cpu, double gpu0, double split_cpu,
                             double split_gpu0 )
{
	hyb_learn_table_t P;
	hyb_learn_table_init( &P );
	dg_side_put( &P, n, 1e3, 1e12 ); /* on the CPU alone, the CPU SPIKE wins */
	tgt_learn_fold( &P, "cpu", 'd', cpu, 1 );
	tgt_learn_fold( &P, "gpu0", 'd', gpu0, 1 );
	tgt_learn_fold( &P, "split.cpu", 'd', split_cpu, 1 );
	tgt_learn_fold( &P, "split.gpu0", 'd', split_gpu0, 1 );
	CU_ASSERT_EQUAL( hyb_learn_table_write( dg_rates_file, &P ), HYB_OK );
}

/* The profile: written after measured calls, read back, refined; missing and corrupt
   files are tolerated (and the corrupt one is rewritten clean). */
static void test_profile( void )
{
	hyb_learn_table_t P;
	const int64_t     n = 300000; /* above HYB_GTSV_REFIT_MIN_ROWS */

	/* Missing file: created by the first measured call, with the configuration's keys. */
	dg_rates_clear();
	dg_config( "gpu", "HYBLAS_CPU_RATIO", "0", "HYBLAS_STAGING", "copy", NULL );
	dg_spike_case( "profile gpu", 0, n, 1, 0, 70 );
	CU_ASSERT_EQUAL( hyb_learn_table_read( dg_rates_file, &P ), HYB_OK );
	TGT_EXPECT( tgt_learn_rate( &P, "gpu0", 'd' ) > 0, "no gpu0 rate after a device call\n" );
	dg_config_end();

	dg_config( "gpu", "HYBLAS_CPU_RATIO", "0.5", "HYBLAS_STAGING", "copy", NULL );
	dg_spike_case( "profile split", 0, 2 * n, 1, 0, 71 ); /* both shares measured */
	CU_ASSERT_EQUAL( hyb_learn_table_read( dg_rates_file, &P ), HYB_OK );
	TGT_EXPECT( tgt_learn_rate( &P, "split.cpu", 'd' ) > 0 &&
	                tgt_learn_rate( &P, "split.gpu0", 'd' ) > 0 &&
	                tgt_learn_rate( &P, "gpu0", 'd' ) > 0,
	            "split rates missing (or the earlier ones lost)\n" );
	dg_config_end();

	/* Registered pages keep rates of their own beside the staged ones. */
	dg_config( "gpu", "HYBLAS_CPU_RATIO", "0.5", "HYBLAS_STAGING", "register", NULL );
	dg_spike_case( "profile registered split", 0, 2 * n, 1, 0, 76 );
	dg_config_end();
	dg_config( "gpu", "HYBLAS_CPU_RATIO", "0", "HYBLAS_STAGING", "register", NULL );
	dg_spike_case( "profile registered", 0, n, 1, 0, 77 );
	CU_ASSERT_EQUAL( hyb_learn_table_read( dg_rates_file, &P ), HYB_OK );
	TGT_EXPECT( tgt_learn_rate( &P, "rsplit.cpu", 'd' ) > 0 &&
	                tgt_learn_rate( &P, "rsplit.gpu0", 'd' ) > 0 &&
	                tgt_learn_rate( &P, "rgpu0", 'd' ) > 0 &&
	                tgt_learn_rate( &P, "split.gpu0", 'd' ) > 0,
	            "registered rates missing (or the staged ones lost)\n" );
	dg_config_end();

	/* A call no device could take learns no device or split rate: mode cpu writes no
	   file; a system below HYBLAS_GTSV_MIN_N in auto mode learns only LAPACK's rate (the
	   side choice, test_side_choice). */
	char    saved[4096];
	int     fd = open( dg_rates_file, O_RDONLY );
	ssize_t nb = fd >= 0 ? read( fd, saved, sizeof saved ) : -1;
	if ( fd >= 0 ) close( fd );
	CU_ASSERT_FATAL( nb > 0 && nb < (ssize_t)sizeof saved );
	unlink( dg_rates_file );
	dg_config( "cpu", NULL );
	dg_spike_case( "profile cpu 1", 1, n, 1, 0, 72 );
	dg_spike_case( "profile cpu 2", 1, n, 1, 0, 73 );
	dg_config_end();
	TGT_EXPECT( access( dg_rates_file, F_OK ) != 0, "a call in mode cpu wrote %s\n",
	            dg_rates_file );
	dg_config( "auto", "HYBLAS_GTSV_MIN_N", "100000000", NULL );
	dg_lapack_case_seeded( "profile auto small", 1, n, 78 );
	hyb_learn_commit(); /* as the process's exit does */
	dg_config_end();
	CU_ASSERT_EQUAL( hyb_learn_table_read( dg_rates_file, &P ), HYB_OK );
	TGT_EXPECT( hyb_learn_table_count( &P ) == 1 && dg_samples( &P, "cpu", 's' ) == 0,
	            "a call on the CPU alone learned more than LAPACK's rate (%d entries)\n",
	            hyb_learn_table_count( &P ) );
	unlink( dg_rates_file );
	fd = open( dg_rates_file, O_WRONLY | O_CREAT | O_TRUNC, 0644 );
	CU_ASSERT_FATAL( fd >= 0 && write( fd, saved, (size_t)nb ) == nb );
	close( fd );

	/* Corrupt file: ignored line by line, the call still right, the file rewritten clean. */
	FILE* f = fopen( dg_rates_file, "w" );
	CU_ASSERT_PTR_NOT_NULL_FATAL( f );
	char gpu0[64], cpu[64];
	tgt_learn_prefix( gpu0, sizeof gpu0, "gpu0", 'd' );
	tgt_learn_prefix( cpu, sizeof cpu, "cpu", 'd' );
	fprintf( f, "# hyblas learning store 1\ngarbage\n%s -5 3\n%s 1e9 x\n\x01\x02\n%s 2e8 4\n", gpu0,
	         cpu, gpu0 );
	fclose( f );
	dg_config( "gpu", "HYBLAS_CPU_RATIO", "0", "HYBLAS_STAGING", "copy", NULL );
	dg_spike_case( "profile corrupt", 0, n, 1, 0, 74 );
	CU_ASSERT_EQUAL( hyb_learn_table_read( dg_rates_file, &P ), HYB_OK );
	TGT_EXPECT( dg_samples( &P, "gpu0", 'd' ) == 5,
	            "the good line of the corrupt file was not kept and refined\n" );
	dg_config_end();

	/* The profile steers auto: rates that make the CPU hopeless send the call to the
	   devices; rates that make the devices hopeless keep it on the CPU. */
	dg_rates_preset( n, 1e5, 1e10, 1e5, 1e6 );
	dg_config( "auto", "HYBLAS_GTSV_MIN_N", "1000", "HYBLAS_STAGING", "copy", NULL );
	dg_spike_case( "auto to devices", 0, n, 1, 0, 75 );
	CU_ASSERT_EQUAL( hyb_learn_table_read( dg_rates_file, &P ), HYB_OK );
	int64_t gpu_samples = dg_samples( &P, "gpu0", 'd' ), cpu_samples = dg_samples( &P, "cpu", 'd' );
	TGT_EXPECT( gpu_samples == 2 && cpu_samples == 1,
	            "auto did not run on the devices: %lld %lld\n", (long long)gpu_samples,
	            (long long)cpu_samples );
	dg_config_end();

	/* Where a device could take the call, a call kept on the CPU refines the CPU rate. */
	dg_rates_preset( n, 1e12, 1e3, 1e3, 1e3 );
	dg_config( "auto", "HYBLAS_GTSV_MIN_N", "1000", "HYBLAS_STAGING", "copy", NULL );
	dg_spike_case( "auto kept on the CPU", 0, n, 1, 0, 79 );
	CU_ASSERT_EQUAL( hyb_learn_table_read( dg_rates_file, &P ), HYB_OK );
	gpu_samples = dg_samples( &P, "gpu0", 'd' );
	cpu_samples = dg_samples( &P, "cpu", 'd' );
	TGT_EXPECT( gpu_samples == 1 && cpu_samples == 2,
	            "auto on the CPU did not refine its rate: %lld %lld\n", (long long)gpu_samples,
	            (long long)cpu_samples );
	dg_config_end();
	unlink( dg_rates_file );
}

/* Write the rates file with LAPACK's and the CPU SPIKE's rates for n rows (double, at
   this thread count), folded in samples times each. */
static void dg_side_preset( int64_t n, double lapack, int lapack_samples, double spike,
                            int spike_samples )
{
	hyb_learn_table_t P;
	hyb_learn_table_init( &P );
	for ( int k = 0; k < lapack_samples || k < spike_samples; k++ )
		dg_side_put( &P, n, k < lapack_samples ? lapack : 0, k < spike_samples ? spike : 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_write( dg_rates_file, &P ), HYB_OK );
}

/* Auto mode where the CPU alone solves the call (below HYBLAS_GTSV_MIN_N): LAPACK without
   rates, the CPU SPIKE measured once, then whichever side the rates say is faster by the
   margin, the other side measured again as the probe rule says; mode cpu always SPIKE. */
/* LAPACK calls of n rows (double, auto mode) for as long as the rule keeps LAPACK, each
   checked forwarded, at most limit; the number made. */
static int dg_side_lapack_while( int64_t n, int limit, const char* what, uint64_t seed )
{
	int made = 0;
	while ( made < limit )
	{
		hyb_gtsv_side_in_t in = dg_side_now( n );
		if ( hyb_policy_gtsv_side( &in ).spike ) break;
		dg_lapack_case_seeded( what, 0, n, seed + (uint64_t)made );
		made++;
	}
	return made;
}

static void test_side_choice( void )
{
	const int64_t n = 40000;
	dg_rates_clear();
	dg_config( "auto", NULL );
	dg_lapack_case_seeded( "side: first call", 0, n, 80 );
	hyb_gtsv_side_in_t in = dg_side_now( n );
	TGT_EXPECT( in.lapack_samples == 1 && in.spike_samples == 0,
	            "side: the first call did not learn LAPACK's rate alone: %lld %lld\n",
	            (long long)in.lapack_samples, (long long)in.spike_samples );
	/* the file is not written on the calls: 0.1-0.4 ms would be more than a call */
	TGT_EXPECT( dg_side_samples( n, 0 ) == -1, "side: the first call wrote the file\n" );
	/* LAPACK until its calls pay for the SPIKE's first measurement, then the SPIKE */
	int waited = dg_side_lapack_while( n, 100000, "side: the first probe not paid for", 100 );
	in         = dg_side_now( n );
	TGT_EXPECT( (double)in.lapack_samples * n / in.lapack * HYB_GTSV_SIDE_PROBE_SHARE >=
	                    HYB_GTSV_SIDE_FIRST_PROBE_S &&
	                in.lapack_samples == 1 + waited,
	            "side: the first probe came after %d LAPACK calls\n", waited );
	dg_spike_case( "side: the first probe", 0, n, 1, 0, 81 );
	TGT_EXPECT( dg_side_now( n ).spike_samples == 1,
	            "side: the probe did not measure the SPIKE\n" );
	/* another size class has rates of its own: LAPACK first */
	dg_lapack_case_seeded( "side: another size", 0, 4 * n, 82 );
	dg_config_end();

	/* A process's first call of each side is not learned: LAPACK twice; the SPIKE not
	   before LAPACK's calls pay for its thread team's start and its first measurement;
	   then twice before its rate is known. */
	dg_rates_clear();
	dg_config( "auto", NULL );
	hyb_gtsv_rates_side_cold_for_test();
	dg_lapack_case_seeded( "side: cold, first call", 0, n, 83 );
	TGT_EXPECT( dg_side_now( n ).lapack_samples == 0,
	            "side: a process's first LAPACK call was learned\n" );
	dg_lapack_case_seeded( "side: cold, second call", 0, n, 84 );
	in = dg_side_now( n );
	TGT_EXPECT( in.lapack_samples == 1, "side: the second LAPACK call was not learned\n" );
	TGT_EXPECT( in.team_start == ( omp_get_max_threads() - 1 ) * HYB_GTSV_SIDE_TEAM_START_S &&
	                in.lapack_spent > 0,
	            "side: team start %g s, LAPACK spent %g s\n", in.team_start, in.lapack_spent );
	waited = dg_side_lapack_while( n, 100000, "side: cold, not paid for", 200 );
	in     = dg_side_now( n );
	TGT_EXPECT( in.lapack_spent * HYB_GTSV_SIDE_PROBE_SHARE >= in.team_start,
	            "side: the SPIKE ran before the team's start was paid for (%d calls)\n", waited );
	dg_spike_case( "side: cold, first SPIKE", 0, n, 1, 0, 85 );
	dg_spike_case( "side: cold, second SPIKE", 0, n, 1, 0, 86 );
	in = dg_side_now( n );
	TGT_EXPECT( in.spike_samples == 1 && in.team_start == 0,
	            "side: the SPIKE's first call was learned or its second not (%lld), or the "
	            "team counts as not started\n",
	            (long long)in.spike_samples );
	dg_config_end();

	/* What a process learned is in the file after it exits. */
	dg_rates_clear();
	pid_t child = fork();
	if ( child == 0 )
	{
		hyb_gtsv_rates_reset_for_test();
		dg_config( "auto", NULL );
		dg_lapack_case_seeded( "side: child", 0, n, 88 );
		exit( access( dg_rates_file, F_OK ) == 0 ); /* written on the call: fail */
	}
	int status = 0;
	CU_ASSERT( child > 0 && waitpid( child, &status, 0 ) == child && WIFEXITED( status ) &&
	           WEXITSTATUS( status ) == 0 );
	/* (a fork child's calls run on one thread: its rate is under that thread count's key) */
	hyb_learn_table_t P;
	TGT_EXPECT( hyb_learn_table_read( dg_rates_file, &P ) == HYB_OK &&
	                hyb_learn_table_count( &P ) == 1,
	            "side: the exit did not write LAPACK's rate\n" );

	struct
	{
		double      lapack;
		int         lk;
		double      spike;
		int         sk;
		int         want_spike;
		const char* what;
	} cases[] = {
		{ 1e9, 1, 1.04e9, 1, 0, "side: SPIKE faster by less than the margin" },
		{ 1e9, 1, 1.06e9, 1, 1, "side: SPIKE faster by the margin" },
		{ 1e9, 2, 1e8, 1, 0, "side: LAPACK faster" },
		{ 1e9, 3, 1e9 / 1.04, 1, 1, "side: LAPACK faster by little, the SPIKE due for a probe" },
		{ 1e9, 3, 1e8, 1, 0, "side: LAPACK 10x faster, a probe not yet paid for" },
		{ 1e9, 450, 1e8, 1, 1, "side: LAPACK 10x faster, the SPIKE due for a probe" },
		{ 1e9, 14, 1e8, 2, 0, "side: LAPACK faster, the next probe not due" },
		{ 1e9 / 1.05, 1, 1e9, 3, 0, "side: SPIKE faster, LAPACK due for a probe" },
		{ 1e8, 2, 1e9, 3, 1, "side: SPIKE faster, the probe not due" },
	};
	for ( size_t q = 0; q < sizeof cases / sizeof cases[0]; q++ )
	{
		dg_side_preset( n, cases[q].lapack, cases[q].lk, cases[q].spike, cases[q].sk );
		dg_config( "auto", NULL );
		if ( cases[q].want_spike )
			dg_spike_case( cases[q].what, 0, n, 1, 0, 90 + q );
		else
			dg_lapack_case_seeded( cases[q].what, 0, n, 90 + q );
		/* the file follows at most once a second: the memory at once */
		in = dg_side_now( n );
		TGT_EXPECT( ( cases[q].want_spike ? in.spike_samples : in.lapack_samples ) ==
		                ( cases[q].want_spike ? cases[q].sk : cases[q].lk ) + 1,
		            "%s: the side that ran was not measured\n", cases[q].what );
		dg_config_end();
		/* mode cpu: the SPIKE whatever the rates */
		dg_config( "cpu", NULL );
		dg_spike_case( "side: mode cpu", 0, n, 1, 0, 99 );
		dg_config_end();
	}
	dg_rates_clear();
}

/* The process's real routines as the shim resolves them: LAPACK's LP64 names only (the
   ILP64 names are missing, as in a process with only an LP64 LAPACK). */
static void* dg_resolver( hyb_routine_id_t id )
{
	if ( id == HYB_R_dgtsv_ ) return (void*)dgtsv_;
	if ( id == HYB_R_sgtsv_ ) return (void*)sgtsv_;
	return NULL;
}

/* XERBLA as the process's handler would receive it. */
static struct
{
	int  calls, info;
	char name[8];
} dg_xerbla;

static void dg_fake_xerbla( const char* srname, const int32_t* info, hyb_charlen_t len )
{
	dg_xerbla.calls++;
	dg_xerbla.info = *info;
	memcpy( dg_xerbla.name, srname, len < 7 ? len : 7 );
}

static void* dg_name_resolver( const char* name )
{
	return strcmp( name, "xerbla_" ) == 0 ? (void*)dg_fake_xerbla : NULL;
}

static int  dg_missing_forwards;
static void dg_forward_missing( const hyb_call_t* call )
{
	(void)call;
	dg_missing_forwards++;
}

/* An ILP64 name when the process has only the LP64 LAPACK: a valid call is solved by
   dgtsv_ with the same X and INFO as LAPACK's (a singular one too), an invalid one reaches
   xerbla through dgtsv_, and one whose INTEGERs dgtsv_ cannot hold
   reaches xerbla naming the first of them with B untouched; none reaches the forward that
   could only log. */
static void test_ilp64_without_library( void )
{
	hyb_real_set_name_resolver( dg_name_resolver );
	dg_config( "auto", NULL );
	hyb_t_rng_t rng = hyb_t_rng( 64 );
	for ( int single = 0; single < 2; single++ )
		for ( int singular = 0; singular < 2; singular++ )
		{
			tgt_sys_t s = tgt_make( &rng, TGT_COL, 300, 2, 1, 2.0 );
			if ( singular ) s.d[120] = 0, s.dl[119] = 0, s.du[120] = 0; /* column 121 zero */
			tgt_arr_t       want = tgt_lapack( &s, single );
			tgt_arr_t       A    = tgt_arrays( &s, single );
			int64_t         info = 12345;
			hyb_call_t      call = { single ? HYB_R_sgtsv_64_ : HYB_R_dgtsv_64_, NULL,
				                dg_forward_missing };
			hyb_gtsv_args_t args = {
				single ? HYB_PREC_S : HYB_PREC_D, s.n, s.nrhs, A.dl, A.d, A.du, A.b, s.ldb, &info, 1
			};
			dg_missing_forwards = 0;
			hyb_dispatch_gtsv( &call, &args );
			CU_ASSERT_EQUAL( dg_missing_forwards, 0 );
			CU_ASSERT_EQUAL( info, want.info );
			CU_ASSERT_EQUAL( info != 0, singular );
			const size_t bytes =
			    (size_t)( s.ldb * s.nrhs ) * ( single ? sizeof( float ) : sizeof( double ) );
			CU_ASSERT( memcmp( A.b, want.b, bytes ) == 0 ); /* LAPACK itself computed it */
			tgt_arr_free( &A );
			tgt_arr_free( &want );
			tgt_free( &s );
		}
	tgt_sys_t       s    = tgt_make( &rng, TGT_COL, 50, 1, 0, 2.0 );
	tgt_arr_t       A    = tgt_arrays( &s, 0 );
	tgt_arr_t       B    = tgt_arrays( &s, 0 );
	int64_t         info = 12345;
	hyb_call_t      call = { HYB_R_dgtsv_64_, NULL, dg_forward_missing };
	hyb_gtsv_args_t args = { HYB_PREC_D, s.n, s.nrhs, A.dl, A.d, A.du, A.b, s.ldb, &info, 1 };
	/* nrhs beyond dgtsv_'s INTEGER: argument 2 to xerbla, nothing written (an invalid call
	   that fits goes to dgtsv_, whose own XERBLA would stop this program) */
	memset( &dg_xerbla, 0, sizeof dg_xerbla );
	args.nrhs           = (int64_t)1 << 33;
	dg_missing_forwards = 0;
	hyb_dispatch_gtsv( &call, &args );
	CU_ASSERT_EQUAL( dg_missing_forwards, 0 );
	CU_ASSERT_EQUAL( dg_xerbla.calls, 1 );
	CU_ASSERT_EQUAL( dg_xerbla.info, 2 );
	CU_ASSERT_NSTRING_EQUAL( dg_xerbla.name, "DGTSV ", 6 );
	CU_ASSERT_EQUAL( info, 12345 );
	CU_ASSERT( memcmp( A.b, B.b, (size_t)s.ldb * sizeof( double ) ) == 0 );
	tgt_arr_free( &A );
	tgt_arr_free( &B );
	tgt_free( &s );
	dg_config_end();
	hyb_real_set_name_resolver( NULL );
}

static int dg_init( void )
{
	hyb_real_set_resolver( dg_resolver );
	hyb_real_reset();
	tgt_fails = 0;
	snprintf( dg_dir, sizeof dg_dir, "/tmp/hyb_test_gtsv_XXXXXX" );
	if ( mkdtemp( dg_dir ) == NULL ) return 1;
	snprintf( dg_profile, sizeof dg_profile, "%s/profile", dg_dir );
	return 0;
}

static int dg_cleanup( void )
{
	hyb_real_set_resolver( NULL );
	hyb_real_reset();
	dg_rates_clear();
	rmdir( dg_dir );
	return 0;
}

static CU_TestInfo hyb_tests_dispatch_gtsv[] = {
	{ "forward_invalid", test_forward_invalid },
	{ "forward_ineligible", test_forward_ineligible },
	{ "forward_singular_nonfinite", test_forward_singular_nonfinite },
	{ "spike_modes", test_spike_modes },
	{ "faults", test_faults },
	{ "profile", test_profile },
	{ "side_choice", test_side_choice },
	{ "ilp64_without_library", test_ilp64_without_library },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_dispatch_gtsv = { "dispatch_gtsv",        dg_init, dg_cleanup, NULL, NULL,
	                                     hyb_tests_dispatch_gtsv };
