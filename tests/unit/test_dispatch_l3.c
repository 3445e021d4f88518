/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 dispatch (dispatch/hyb_dispatch_l3.c) with a fake "real" dgemm_
   behind the resolver and the simulated device: invalid and trivial calls
   and mode cpu are forwarded unchanged, mode gpu computes on the device
   without the real library, a device fault finishes on the CPU, and the
   statistics and the trace line record what happened. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/hyb_backend_real.h"
#include "dispatch/hyb_dispatch.h"
#include "dispatch/hyb_l3_memo.h"
#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "hyb_test_util.h"
#include "kernels/hyb_device.h"
#include "policies/hyb_policy_l3.h"
#include "policies/hyb_profile.h"
#include "policies/hyb_refit.h"

static atomic_int hyb_real_calls;

/* The "real" dgemm_: the reference, counting its calls (no argument
   checks: an invalid call only counts). */
static void fake_dgemm_( const char* ta, const char* tb, const int32_t* m, const int32_t* n,
                         const int32_t* k, const double* alpha, const double* a, const int32_t* lda,
                         const double* b, const int32_t* ldb, const double* beta, double* c,
                         const int32_t* ldc, hyb_charlen_t la, hyb_charlen_t lb )
{
	(void)la, (void)lb;
	atomic_fetch_add( &hyb_real_calls, 1 );
	if ( *lda < ( *ta == 'N' ? *m : *k ) || *ldb < ( *tb == 'N' ? *k : *n ) || *ldc < *m ||
	     *lda < 1 )
		return;
	hyb_l3_args_t s = { .op     = HYB_OP_GEMM,
		                .prec   = HYB_PREC_D,
		                .layout = 'C',
		                .transa = *ta,
		                .transb = *tb,
		                .m      = *m,
		                .n      = *n,
		                .k      = *k,
		                .alpha  = { *alpha, 0 },
		                .beta   = { *beta, 0 },
		                .a      = a,
		                .lda    = *lda,
		                .b      = b,
		                .ldb    = *ldb,
		                .c      = c,
		                .ldc    = *ldc };
	hyb_t_ref_l3( &s );
}

static void* fake_resolver( hyb_routine_id_t id )
{
	return id == HYB_R_dgemm_ ? (void*)fake_dgemm_ : NULL;
}

/* The wrapper's record of the original arguments. */
typedef struct
{
	char          ta, tb;
	int32_t       m, n, k, lda, ldb, ldc;
	double        alpha, beta;
	const double *a, *b;
	double*       c;
} hyb_raw_t;

static void forward( const hyb_call_t* call )
{
	const hyb_raw_t* r = call->raw;
	fake_dgemm_( &r->ta, &r->tb, &r->m, &r->n, &r->k, &r->alpha, r->a, &r->lda, r->b, &r->ldb,
	             &r->beta, r->c, &r->ldc, 1, 1 );
}

static const char* hyb_names[HYB_R_COUNT];
static int         hyb_trace_fd = -1;
static char        hyb_buf[1 << 16];

static int suite_init( void )
{
	for ( int i = 0; i < HYB_R_COUNT; i++ ) hyb_names[i] = hyb_routine_info[i].name;
	char path[]  = "/tmp/hyb_unit_dtraceXXXXXX";
	hyb_trace_fd = mkstemp( path );
	if ( hyb_trace_fd < 0 ) return 1;
	unlink( path );
	hyb_stats_init( HYB_R_COUNT, hyb_names, 1, hyb_trace_fd );
	hyb_real_set_resolver( fake_resolver );
	hyb_real_reset();
	return 0;
}

static int suite_cleanup( void )
{
	hyb_real_set_resolver( NULL );
	hyb_real_reset();
	hyb_stats_init( HYB_R_COUNT, hyb_names, 0, -1 );
	if ( hyb_trace_fd >= 0 ) close( hyb_trace_fd );
	return 0;
}

/* The trace written since `from` (bytes into the trace file). */
static const char* trace_since( off_t from )
{
	off_t end  = lseek( hyb_trace_fd, 0, SEEK_END );
	hyb_buf[0] = '\0';
	if ( end > from )
	{
		ssize_t n              = pread( hyb_trace_fd, hyb_buf,
                           (size_t)( end - from ) < sizeof hyb_buf - 1 ? (size_t)( end - from )
		                                                                            : sizeof hyb_buf - 1,
		                                from );
		hyb_buf[n > 0 ? n : 0] = '\0';
	}
	return hyb_buf;
}

typedef struct
{
	int      real_calls;
	uint64_t calls[HYB_PATH_COUNT], fallbacks;
	double   err, tol;
	int64_t  outside;
	char     trace[2048];
} hyb_outcome_t;

/* One dgemm_ call through dispatch, checked against the reference. */
static hyb_outcome_t call_dgemm( char ta, char tb, int m, int n, int k, int lda_short, double alpha,
                                 double beta, uint64_t seed )
{
	hyb_outcome_t   o = { 0 };
	hyb_t_rng_t     r = hyb_t_rng( seed );
	hyb_t_problem_t pr;
	hyb_t_problem_make( &pr, &r, HYB_OP_GEMM, HYB_PREC_D, 'C', 'L', 'U', ta, tb, 'N', m, n, k, 2,
	                    beta == 0 ? 0 : 2 );
	hyb_l3_args_t* a = &pr.args;
	a->alpha[0] = alpha, a->alpha[1] = 0;
	if ( beta != 0 ) a->beta[0] = beta;
	if ( lda_short ) a->lda = ( ta == 'N' ? m : k ) - 1;
	hyb_raw_t  raw   = { ta,
		                 tb,
		                 (int32_t)m,
		                 (int32_t)n,
		                 (int32_t)k,
		                 (int32_t)a->lda,
		                 (int32_t)a->ldb,
		                 (int32_t)a->ldc,
		                 alpha,
		                 a->beta[0],
		                 pr.A,
		                 pr.B,
		                 pr.C };
	hyb_call_t call  = { .id = HYB_R_dgemm_, .raw = &raw, .forward = forward };
	size_t     bytes = hyb_t_out_bytes( a );
	void *     c0 = malloc( bytes ), *want = malloc( bytes );
	memcpy( c0, pr.C, bytes );
	memcpy( want, pr.C, bytes );
	hyb_l3_args_t ra = *a;
	ra.c             = want;
	if ( !lda_short ) hyb_t_ref_l3( &ra );
	uint64_t before[HYB_PATH_COUNT];
	for ( int p = 0; p < HYB_PATH_COUNT; p++ )
		before[p] = hyb_stats_calls( HYB_R_dgemm_, (hyb_path_t)p );
	uint64_t fb0   = hyb_stats_fallbacks( HYB_R_dgemm_ );
	off_t    mark  = lseek( hyb_trace_fd, 0, SEEK_END );
	int      real0 = atomic_load( &hyb_real_calls );

	hyb_dispatch_l3( &call, a );

	o.real_calls = atomic_load( &hyb_real_calls ) - real0;
	for ( int p = 0; p < HYB_PATH_COUNT; p++ )
		o.calls[p] = hyb_stats_calls( HYB_R_dgemm_, (hyb_path_t)p ) - before[p];
	o.fallbacks = hyb_stats_fallbacks( HYB_R_dgemm_ ) - fb0;
	o.err       = lda_short ? ( memcmp( pr.C, c0, bytes ) == 0 ? 0 : 1 )
	                        : hyb_t_l3_error( a, pr.C, want, c0 );
	o.tol       = hyb_t_l3_tol( a );
	o.outside   = hyb_t_outside_changed( a, pr.C, c0 );
	snprintf( o.trace, sizeof o.trace, "%s", trace_since( mark ) );
	free( c0 ), free( want );
	hyb_t_problem_free( &pr );
	return o;
}

/* Invalid, trivial, mode cpu, below the threshold: the real routine, once,
   with the original arguments; counted as CPU calls. */
static void test_forwarded( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_MODE=gpu" ), HYB_OK );
	hyb_outcome_t o = call_dgemm( 'N', 'N', 5, 4, 3, 1, 1.0, 1.0, 1 ); /* lda too small */
	CU_ASSERT_EQUAL( o.real_calls, 1 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
	o = call_dgemm( 'N', 'T', 6, 5, 4, 0, 0.0, 0.5, 2 ); /* alpha = 0: the library scales C */
	CU_ASSERT_EQUAL( o.real_calls, 1 );
	CU_ASSERT( o.err <= o.tol );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
	CU_ASSERT( strstr( o.trace, "path=cpu" ) != NULL );
	hyb_t_sim_end();

	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_MODE=cpu" ), HYB_OK );
	o = call_dgemm( 'T', 'N', 60, 50, 40, 0, 1.5, 0.0, 3 );
	CU_ASSERT_EQUAL( o.real_calls, 1 );
	CU_ASSERT( o.err <= o.tol );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
	hyb_t_sim_end();

	/* Auto below HYBLAS_L3_MIN_FLOPS; and an exact-symbol mode beats HYBLAS_MODE. */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_L3_MIN_FLOPS=1e12" ), HYB_OK );
	o = call_dgemm( 'N', 'N', 30, 30, 30, 0, 1.0, 1.0, 4 );
	CU_ASSERT_EQUAL( o.real_calls, 1 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
	hyb_t_sim_end();
	CU_ASSERT_EQUAL_FATAL(
	    hyb_t_sim_begin( 1, "64M", "HYBLAS_MODE=gpu;HYBLAS_ROUTINE_MODE=dgemm_=cpu" ), HYB_OK );
	o = call_dgemm( 'N', 'N', 30, 30, 30, 0, 1.0, 1.0, 5 );
	CU_ASSERT_EQUAL( o.real_calls, 1 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
	hyb_t_sim_end();
}

/* Mode gpu on the simulated device: right result, no real call (no CPU
   share), a GPU call in the statistics, one trace line with the fields. */
static void test_device_path( void )
{
	CU_ASSERT_EQUAL_FATAL(
	    hyb_t_sim_begin( 1, "64M", "HYBLAS_MODE=gpu;HYBLAS_CPU_RATIO=0;HYBLAS_TILE=16" ), HYB_OK );
	hyb_outcome_t o = call_dgemm( 'T', 'N', 70, 50, 40, 0, 1.25, 0.0, 6 );
	CU_ASSERT( o.err <= o.tol );
	CU_ASSERT_EQUAL( o.outside, 0 );
	CU_ASSERT_EQUAL( o.real_calls, 0 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_GPU], 1 );
	CU_ASSERT_EQUAL( hyb_t_count( o.trace, "\n" ), 1 );
	static const char* fields[] = { "dgemm_ ", "op=dgemm", "m=70",      "n=50",
		                            "k=40",    "path=gpu", "pred_cpu=", "pred_gpu=",
		                            "pred=",   "seconds=", "why=\"" };
	for ( unsigned i = 0; i < sizeof fields / sizeof fields[0]; i++ )
	{
		if ( strstr( o.trace, fields[i] ) == NULL )
			fprintf( stderr, "\n    trace lacks %s: %s", fields[i], o.trace );
		CU_ASSERT( strstr( o.trace, fields[i] ) != NULL );
	}
	hyb_t_sim_end();

	/* A fixed CPU share: the strip goes to the real routine, the rest to the device. */
	CU_ASSERT_EQUAL_FATAL(
	    hyb_t_sim_begin( 1, "64M", "HYBLAS_MODE=gpu;HYBLAS_CPU_RATIO=0.5;HYBLAS_TILE=16" ),
	    HYB_OK );
	o = call_dgemm( 'N', 'N', 300, 300, 20, 0, 1.0, 0.5, 7 );
	CU_ASSERT( o.err <= o.tol );
	CU_ASSERT_EQUAL( o.outside, 0 );
	CU_ASSERT( o.real_calls >= 1 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_SPLIT], 1 );
	CU_ASSERT( strstr( o.trace, "path=split" ) != NULL );
	hyb_t_sim_end();
}

/* Sets the CPU rate so that the model predicts the CPU at 1.3x the device for
   the square shape n (inside HYB_L3_PROBE_BAND: the simulated device's
   profile alone puts the CPU far behind at every size) and forgets the
   records, so that the shape's next call is its first measured one. The one
   call it makes to read the device's prediction is returned. */
static hyb_outcome_t put_in_band( int n, uint64_t seed )
{
	hyb_outcome_t o  = call_dgemm( 'N', 'N', n, n, n, 0, 1.0, 0.0, seed );
	const char*   pg = strstr( o.trace, "pred_gpu=" );
	double        tg = pg ? atof( pg + 9 ) : 0;
	CU_ASSERT_FATAL( tg > 0 );
	hyb_refit_cpu( HYB_PREC_D, 2.0 * n * n * n + hyb_profile()->cpu_half_flops, 1.3 * tg );
	hyb_l3_memo_reset();
	return o;
}

/* The measured choice: in auto mode a shape whose two predictions are close
   is timed both ways, each side's three calls in a row, and then keeps
   one side; every result right, and the trace says which calls probed and
   which the measurement decided. A shape far from the boundary is never
   probed. */
static void test_measured_choice( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_L3_MIN_FLOPS=0" ), HYB_OK );
	const int n = 64;
	hyb_refit_reset();
	hyb_outcome_t o   = put_in_band( n, 20 );
	int           cpu = 0, dev = 0, probes = 0, measured = 0, last_dev = -1, flips = 0;
	for ( int i = 0; i < 2 * HYB_L3_PROBE_CALLS + 3; i++ )
	{
		o = call_dgemm( 'N', 'N', n, n, n, 0, 1.0, 0.0, 40 + (uint64_t)i );
		CU_ASSERT( o.err <= o.tol );
		CU_ASSERT_EQUAL( o.outside, 0 );
		int on_dev = o.calls[HYB_PATH_GPU] + o.calls[HYB_PATH_SPLIT] > 0;
		cpu += !on_dev;
		dev += on_dev;
		probes += strstr( o.trace, "probe: timing the" ) != NULL;
		if ( strstr( o.trace, "measured: " ) != NULL )
		{
			measured++;
			if ( last_dev >= 0 && on_dev != last_dev ) flips++;
			last_dev = on_dev;
		}
	}
	/* 3 + 3 timed, each side's in a row, every one named a probe; then settled */
	CU_ASSERT( cpu >= HYB_L3_PROBE_CALLS && dev >= HYB_L3_PROBE_CALLS );
	CU_ASSERT_EQUAL( probes, 2 * HYB_L3_PROBE_CALLS );
	CU_ASSERT( measured >= 3 );
	CU_ASSERT_EQUAL( flips, 0 );

	/* A settled side stays timed through the dispatch: the shape's record
	   settled on the CPU (probe medians 1 s against the device's 2 s), then
	   four CPU calls of 10 s; the next dispatched call, on the CPU, is the
	   fifth of the watch, and the shape is probed again (a dispatch that
	   stops timing settled calls leaves it settled). */
	hyb_l3_memo_reset();
	hyb_l3_args_t ka = {
		.op = HYB_OP_GEMM, .prec = HYB_PREC_D, .transa = 'N', .transb = 'N', .m = n, .n = n, .k = n
	};
	uint64_t key     = hyb_l3_memo_key( &ka );
	int      settled = 0;
	for ( int i = 0; i < 2 * HYB_L3_PROBE_CALLS; i++ )
	{
		int s = hyb_l3_memo_side( key, 0, &settled );
		hyb_l3_memo_note( key, s, s ? 2.0 : 1.0 );
	}
	CU_ASSERT_FATAL( hyb_l3_memo_side( key, 1, &settled ) == 0 && settled );
	for ( int i = 0; i < HYB_L3_WATCH_CALLS - 1; i++ ) hyb_l3_memo_note( key, 0, 10.0 );
	CU_ASSERT( hyb_l3_memo_side( key, 1, &settled ) == 0 && settled );
	o = call_dgemm( 'N', 'N', n, n, n, 0, 1.0, 0.0, 49 );
	CU_ASSERT( o.err <= o.tol );
	CU_ASSERT( strstr( o.trace, "measured: the CPU" ) != NULL ); /* the record above */
	hyb_l3_memo_side( key, 0, &settled );
	CU_ASSERT( !settled );
	hyb_t_sim_end();

	/* Below HYBLAS_L3_MIN_FLOPS (the default 2e8; n = 220 has 2.1e7 flops) a
	   shape is measured only once a larger call has started the device: a
	   program of small calls never starts it. */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_devices_reset_for_test(); /* configured, not started */
	hyb_refit_reset();
	for ( int i = 0; i < 3; i++ )
	{
		o = call_dgemm( 'N', 'N', 220, 220, 220, 0, 1.0, 0.0, 50 + (uint64_t)i );
		CU_ASSERT( o.err <= o.tol );
		CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
	}
	CU_ASSERT_EQUAL( hyb_devices_count(), 0 );
	CU_ASSERT_EQUAL_FATAL( hyb_devices_ensure(), HYB_OK ); /* as a larger call would */
	o = put_in_band( 220, 54 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 ); /* the model's side below the threshold */
	dev = 0;
	for ( int i = 0; i < 2 * HYB_L3_PROBE_CALLS; i++ )
	{
		o = call_dgemm( 'N', 'N', 220, 220, 220, 0, 1.0, 0.0, 55 + (uint64_t)i );
		CU_ASSERT( o.err <= o.tol );
		dev += o.calls[HYB_PATH_GPU] > 0;
	}
	CU_ASSERT_EQUAL( dev, HYB_L3_PROBE_CALLS ); /* probed in turn */
	hyb_t_sim_end();

	/* A device probe that fails: the CPU finishes the call (right result, a
	   fallback), and the failed call is not counted as a device time; the
	   shape settles only after three device calls that ran. */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_L3_MIN_FLOPS=0" ), HYB_OK );
	hyb_refit_reset();
	put_in_band( n, 70 );
	CU_ASSERT_EQUAL_FATAL( hyb_device_faults_set( "gemm:1" ), HYB_OK );
	hyb_t_log_begin( HYB_LOG_WARN );
	int fallbacks = 0, settled_after = -1;
	for ( int i = 0; i < 2 * HYB_L3_PROBE_CALLS + 2; i++ )
	{
		o = call_dgemm( 'N', 'N', n, n, n, 0, 1.0, 0.0, 71 + (uint64_t)i );
		CU_ASSERT( o.err <= o.tol );
		CU_ASSERT_EQUAL( o.outside, 0 );
		fallbacks += o.calls[HYB_PATH_FALLBACK];
		if ( settled_after < 0 && strstr( o.trace, "measured: " ) != NULL ) settled_after = i;
	}
	char log[4096];
	hyb_t_log_end( log, sizeof log );
	CU_ASSERT_EQUAL( fallbacks, 1 );
	CU_ASSERT_EQUAL( settled_after,
	                 2 * HYB_L3_PROBE_CALLS + 1 ); /* one call later than without the fault */
	hyb_t_sim_end();
	hyb_refit_reset();

	/* Far from the boundary (the device predicted many times slower): never probed. */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_L3_MIN_FLOPS=0" ), HYB_OK );
	hyb_refit_reset();
	for ( int i = 0; i < 2 * HYB_L3_PROBE_CALLS + 2; i++ )
	{
		o = call_dgemm( 'N', 'N', 2, 2, 2, 0, 1.0, 0.0, 60 + (uint64_t)i );
		CU_ASSERT( o.err <= o.tol );
		CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
		CU_ASSERT( strstr( o.trace, "probe:" ) == NULL );
	}
	hyb_t_sim_end();
	hyb_refit_reset();
}

/* A device fault: complete result, finished by the real routine on the
   tiles the device lost; counted as a fallback and warned about. */
static void test_fallback( void )
{
	CU_ASSERT_EQUAL_FATAL(
	    hyb_t_sim_begin(
	        1, "64M",
	        "HYBLAS_MODE=gpu;HYBLAS_CPU_RATIO=0;HYBLAS_TILE=16;HYBLAS_FAULT_INJECT=gemm:3" ),
	    HYB_OK );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_outcome_t o = call_dgemm( 'N', 'T', 64, 64, 32, 0, 1.0, 1.0, 8 );
	char          log[4096];
	hyb_t_log_end( log, sizeof log );
	CU_ASSERT( o.err <= o.tol );
	CU_ASSERT_EQUAL( o.outside, 0 );
	CU_ASSERT( o.real_calls >= 1 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_FALLBACK], 1 );
	CU_ASSERT_EQUAL( o.fallbacks, 1 );
	CU_ASSERT( strstr( o.trace, "path=fallback" ) != NULL );
	CU_ASSERT( strstr( log, "dgemm_" ) != NULL );
	hyb_t_sim_end();

	/* No device at all: the real routine. */
	CU_ASSERT_EQUAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_MODE=gpu;HYBLAS_DEVICE=none" ),
	                 HYB_E_NO_DEVICE );
	o = call_dgemm( 'N', 'N', 40, 40, 40, 0, 1.0, 1.0, 9 );
	CU_ASSERT( o.err <= o.tol );
	CU_ASSERT_EQUAL( o.real_calls, 1 );
	CU_ASSERT_EQUAL( o.calls[HYB_PATH_CPU], 1 );
	hyb_t_sim_end();
}

/* The process's XERBLA handlers, recording what they were given. */
static struct
{
	int  calls, calls64, info, len;
	char name[8];
} hyb_xerbla;
static int hyb_have_xerbla_64;

static void fake_xerbla_( const char* srname, const int32_t* info, hyb_charlen_t len )
{
	hyb_xerbla.calls++;
	hyb_xerbla.info = *info;
	hyb_xerbla.len  = (int)len;
	memcpy( hyb_xerbla.name, srname, len < 7 ? len : 7 );
}

static void fake_xerbla_64_( const char* srname, const int64_t* info, hyb_charlen_t len )
{
	hyb_xerbla.calls64++;
	hyb_xerbla.info = (int)*info;
	hyb_xerbla.len  = (int)len;
	memcpy( hyb_xerbla.name, srname, len < 7 ? len : 7 );
}

static void* fake_name_resolver( const char* name )
{
	if ( strcmp( name, "xerbla_" ) == 0 ) return (void*)fake_xerbla_;
	if ( strcmp( name, "xerbla_64_" ) == 0 && hyb_have_xerbla_64 ) return (void*)fake_xerbla_64_;
	return NULL;
}

/* The generated forward of a name no library provides: it can only log. */
static int  hyb_missing_forwards;
static void forward_missing( const hyb_call_t* call )
{
	(void)call;
	hyb_missing_forwards++;
}

/* One call of `id` (a name the fake resolver does not provide) with column-
   or row-major arguments `a` (C is filled here); returns the error of C
   against the reference (computed only when `compute`), and whether C is
   unchanged. */
static double call_missing( hyb_routine_id_t id, hyb_l3_args_t* a, int compute, int* unchanged )
{
	memset( &hyb_xerbla, 0, sizeof hyb_xerbla );
	hyb_missing_forwards = 0;
	enum
	{
		CAP = 64
	};
	static double c[CAP], c0[CAP], want[CAP];
	for ( int i = 0; i < CAP; i++ ) c[i] = c0[i] = want[i] = 0.25 * i - 3;
	a->c               = c;
	hyb_call_t    call = { .id = id, .raw = NULL, .forward = forward_missing };
	hyb_l3_args_t ra   = *a;
	ra.c               = want;
	if ( compute ) hyb_t_ref_l3( &ra );
	hyb_dispatch_l3( &call, a );
	*unchanged = memcmp( c, c0, sizeof c ) == 0;
	double err = 0;
	for ( int i = 0; i < CAP; i++ ) err = fmax( err, fabs( c[i] - want[i] ) );
	return err;
}

/* An ILP64 name when the process has only the LP64 library: a valid call
   is computed by dgemm_ (on the fast path too), an invalid one reaches
   xerbla with the reference's INFO and name, and one whose INTEGER
   arguments dgemm_ cannot hold reaches xerbla naming the first of them;
   none reaches the forward that could only log. */
static void test_ilp64_without_library( void )
{
	static const double A[64] = { 1, -2, 3, 0.5, -1, 2, 4, -3, 1.5, 2, -0.5, 1 };
	static const double B[64] = { 2, 1, -1, 3, 0.5, -2, 1, 1, -1, 2, 3, -2 };
	hyb_real_set_name_resolver( fake_name_resolver );
	/* Without timing, a small call takes the fast path; with it, the full one. */
	for ( int timed = 0; timed < 2; timed++ )
	{
		hyb_stats_init( HYB_R_COUNT, hyb_names, 0, timed ? hyb_trace_fd : -1 );
		CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_DEVICE=none" ), HYB_E_NO_DEVICE );
		hyb_l3_args_t g = { .op     = HYB_OP_GEMM,
			                .prec   = HYB_PREC_D,
			                .layout = 'C',
			                .transa = 'N',
			                .transb = 'T',
			                .m      = 3,
			                .n      = 4,
			                .k      = 2,
			                .alpha  = { 1.5, 0 },
			                .beta   = { 0.5, 0 },
			                .a      = A,
			                .lda    = 3,
			                .b      = B,
			                .ldb    = 4,
			                .ldc    = 5 };
		int           unchanged, real0 = atomic_load( &hyb_real_calls );
		hyb_l3_args_t a   = g;
		double        err = call_missing( HYB_R_dgemm_64_, &a, 1, &unchanged );
		CU_ASSERT( err < 1e-14 );
		CU_ASSERT_FALSE( unchanged );
		CU_ASSERT_EQUAL( atomic_load( &hyb_real_calls ), real0 + 1 );
		CU_ASSERT_EQUAL( hyb_xerbla.calls + hyb_xerbla.calls64, 0 );
		CU_ASSERT_EQUAL( hyb_missing_forwards, 0 );

		/* The same product asked row-major through the ILP64 CBLAS name. */
		a        = g;
		a.layout = 'R', a.lda = 2, a.ldb = 2, a.ldc = 4;
		err = call_missing( HYB_R_cblas_dgemm64_, &a, 1, &unchanged );
		CU_ASSERT( err < 1e-14 );
		CU_ASSERT_FALSE( unchanged );

		/* Invalid: lda < m is argument 8 of DGEMM. */
		a     = g;
		a.lda = 2;
		call_missing( HYB_R_dgemm_64_, &a, 0, &unchanged );
		CU_ASSERT( unchanged );
		CU_ASSERT_EQUAL( hyb_xerbla.calls, 1 );
		CU_ASSERT_EQUAL( hyb_xerbla.info, 8 );
		CU_ASSERT_EQUAL( hyb_xerbla.len, 6 );
		CU_ASSERT_NSTRING_EQUAL( hyb_xerbla.name, "DGEMM ", 6 );
		CU_ASSERT_EQUAL( hyb_missing_forwards, 0 );
		/* With an ILP64 handler in the process, that one, with a 64-bit INFO. */
		hyb_have_xerbla_64 = 1;
		a                  = g;
		a.k                = -1;
		call_missing( HYB_R_dgemm_64_, &a, 0, &unchanged );
		CU_ASSERT( unchanged );
		CU_ASSERT_EQUAL( hyb_xerbla.calls, 0 );
		CU_ASSERT_EQUAL( hyb_xerbla.calls64, 1 );
		CU_ASSERT_EQUAL( hyb_xerbla.info, 5 );
		hyb_have_xerbla_64 = 0;
		/* Row-major: numbered as the column-major call it becomes (its A is
		   the column-major call's B). */
		a        = g;
		a.layout = 'R', a.lda = 1, a.ldb = 2, a.ldc = 4;
		call_missing( HYB_R_cblas_dgemm64_, &a, 0, &unchanged );
		CU_ASSERT( unchanged );
		CU_ASSERT_EQUAL( hyb_xerbla.calls, 1 );
		CU_ASSERT_EQUAL( hyb_xerbla.info, 10 );

		/* Valid, but ldc does not fit dgemm_'s 32-bit INTEGER: argument 13. */
		a     = g;
		a.ldc = (int64_t)1 << 32;
		call_missing( HYB_R_dgemm_64_, &a, 0, &unchanged );
		CU_ASSERT( unchanged );
		CU_ASSERT_EQUAL( hyb_xerbla.calls, 1 );
		CU_ASSERT_EQUAL( hyb_xerbla.info, 13 );
		CU_ASSERT_EQUAL( hyb_missing_forwards, 0 );
		hyb_t_sim_end();
	}
	hyb_stats_init( HYB_R_COUNT, hyb_names, 1, hyb_trace_fd );
	hyb_real_set_name_resolver( NULL );
}

static CU_TestInfo hyb_tests_dispatch_l3[] = {
	{ "forwarded", test_forwarded },
	{ "device_path", test_device_path },
	{ "fallback", test_fallback },
	{ "measured_choice", test_measured_choice },
	{ "ilp64_without_library", test_ilp64_without_library },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_dispatch_l3 = { "dispatch_l3", suite_init, suite_cleanup,
	                                   NULL,          NULL,       hyb_tests_dispatch_l3 };
