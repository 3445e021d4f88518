/* SPDX-License-Identifier: BSD-3-Clause */
/* Logging (core/hyb_log: level gating, one whole line per write, once per
   key even across threads), statistics (core/hyb_stats: exact counts under
   concurrency, the report only when calls were made, the trace file),
   registered extension operations (core/hyb_op) and
   status strings. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyb_log.h"
#include "hyb_op.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "hyb_status.h"
#include "hyb_test_util.h"

static char hyb_buf[1 << 16];

/* ------------------------------------------------------------------ log */

static void test_levels( void )
{
	hyb_t_log_begin( HYB_LOG_WARN );
	CU_ASSERT_EQUAL( hyb_log_level(), HYB_LOG_WARN );
	hyb_log_emit( HYB_LOG_WARN, "warn %d", 1 );
	hyb_log_emit( HYB_LOG_INFO, "info %d", 2 );
	HYB_LOG( HYB_LOG_TRACE, "trace %s", "3" );
	HYB_LOG( HYB_LOG_SILENT, "silent-level %s", "4" );
	hyb_log_always( "always %d", 5 );
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	CU_ASSERT( strstr( hyb_buf, "warn 1\n" ) != NULL );
	CU_ASSERT( strstr( hyb_buf, "info 2" ) == NULL );
	CU_ASSERT( strstr( hyb_buf, "trace 3" ) == NULL );
	CU_ASSERT( strstr( hyb_buf, "silent-level 4\n" ) != NULL );
	CU_ASSERT( strstr( hyb_buf, "always 5\n" ) != NULL );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_buf, "\n" ), 3 );
	/* Each line carries the prefix with the process id. */
	char prefix[64];
	snprintf( prefix, sizeof prefix, "[hyblas %ld:", (long)getpid() );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_buf, prefix ), 3 );

	hyb_t_log_begin( HYB_LOG_SILENT );
	hyb_log_emit( HYB_LOG_WARN, "hidden" );
	hyb_log_always( "shown" );
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	CU_ASSERT( strstr( hyb_buf, "hidden" ) == NULL && strstr( hyb_buf, "shown" ) != NULL );

	hyb_t_log_begin( HYB_LOG_TRACE );
	HYB_LOG( HYB_LOG_TRACE, "deep %d", 7 );
	hyb_log_emit( HYB_LOG_INFO, "ends with newline\n" ); /* not doubled */
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	CU_ASSERT( strstr( hyb_buf, "deep 7\n" ) != NULL );
	CU_ASSERT( strstr( hyb_buf, "ends with newline\n" ) != NULL &&
	           strstr( hyb_buf, "newline\n\n" ) == NULL );
}

/* A line longer than the buffer is cut, still one line ending in a newline. */
static void test_long_line( void )
{
	static char big[5000];
	memset( big, 'x', sizeof big - 1 );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_log_emit( HYB_LOG_WARN, "%s", big );
	hyb_log_emit( HYB_LOG_WARN, "after" );
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_buf, "\n" ), 2 );
	const char* nl = strchr( hyb_buf, '\n' );
	CU_ASSERT( nl != NULL && nl - hyb_buf < 1024 && nl - hyb_buf > 900 );
	CU_ASSERT( strstr( hyb_buf, "after\n" ) != NULL );
}

static void test_once( void )
{
	uint64_t k1 = hyb_hash_str( "test_once:a", 1 ), k2 = hyb_hash_str( "test_once:b", 1 );
	CU_ASSERT_NOT_EQUAL( k1, k2 );
	CU_ASSERT_NOT_EQUAL( hyb_hash_str( "test_once:a", 1 ), hyb_hash_str( "test_once:a", 2 ) );
	CU_ASSERT_EQUAL( hyb_hash_str( "test_once:a", 1 ), k1 );

	/* Below the level: not shown and the key is not used up. */
	hyb_t_log_begin( HYB_LOG_WARN );
	CU_ASSERT_EQUAL( hyb_log_once( k1, HYB_LOG_INFO, "once-a %d", 0 ), 0 );
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	CU_ASSERT_STRING_EQUAL( hyb_buf, "" );

	hyb_t_log_begin( HYB_LOG_INFO );
	CU_ASSERT_EQUAL( hyb_log_once( k1, HYB_LOG_INFO, "once-a %d", 1 ), 1 );
	CU_ASSERT_EQUAL( hyb_log_once( k1, HYB_LOG_INFO, "once-a %d", 2 ), 0 );
	CU_ASSERT_EQUAL( hyb_log_once( k2, HYB_LOG_WARN, "once-b %d", 3 ), 1 );
	CU_ASSERT_EQUAL( hyb_log_once( k1, HYB_LOG_WARN, "once-a %d", 4 ), 0 );
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_buf, "once-a" ), 1 );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_buf, "once-b" ), 1 );
	CU_ASSERT( strstr( hyb_buf, "once-a 1" ) != NULL );
}

typedef struct
{
	uint64_t key;
	int      emitted;
} hyb_once_arg_t;

static void* once_thread( void* p )
{
	hyb_once_arg_t* a = p;
	for ( int i = 0; i < 2000; i++ )
		a->emitted +=
		    hyb_log_once( a->key + (uint64_t)( i % 50 ), HYB_LOG_WARN, "race %d", i % 50 );
	return NULL;
}

/* Many threads racing on the same 50 keys: each shown exactly once. */
static void test_once_threads( void )
{
	uint64_t base = hyb_hash_str( "test_once_threads", 99 );
	hyb_t_log_begin( HYB_LOG_WARN );
	pthread_t      th[6];
	hyb_once_arg_t args[6];
	for ( int i = 0; i < 6; i++ )
	{
		args[i] = ( hyb_once_arg_t ){ base, 0 };
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, once_thread, &args[i] ), 0 );
	}
	int total = 0;
	for ( int i = 0; i < 6; i++ )
	{
		pthread_join( th[i], NULL );
		total += args[i].emitted;
	}
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	CU_ASSERT_EQUAL( total, 50 );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_buf, "race " ), 50 );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_buf, "\n" ), 50 );
}

/* ------------------------------------------------------------------ stats */

/* The table is process-wide and sized once, by the first caller, with the
   names it gives: the library's routines, so that every suite of the
   process finds its routines under their names. These tests use four
   routines no call has reached yet when they first run (ids 0..3 in a
   process of their own), in the roles alpha, beta, gamma and delta. */
static const char* hyb_names[HYB_R_COUNT];
static int         hyb_id[4] = { -1, -1, -1, -1 };

static void stats_init( int fd )
{
	for ( int i = 0; i < HYB_R_COUNT; i++ ) hyb_names[i] = hyb_routine_info[i].name;
	hyb_stats_init( HYB_R_COUNT, hyb_names, 1, fd );
	for ( int id = 0, n = 0; hyb_id[3] < 0 && id < HYB_R_COUNT; id++ )
	{
		uint64_t calls = 0;
		for ( int p = 0; p < HYB_PATH_COUNT; p++ ) calls += hyb_stats_calls( id, (hyb_path_t)p );
		if ( calls == 0 ) hyb_id[n++] = id;
	}
}

/* The name of role r's routine. */
static const char* role( int r )
{
	return hyb_names[hyb_id[r]];
}

/* 1 when the report in buf lists routine `name` (a line "report: name ..."). */
static int listed( const char* buf, const char* name )
{
	char key[64];
	snprintf( key, sizeof key, "report: %s ", name );
	return strstr( buf, key ) != NULL;
}

static void test_report_needs_calls( void )
{
	stats_init( -1 );
	int any = 0;
	for ( int id = 0; id < HYB_R_COUNT; id++ )
		for ( int p = 0; p < HYB_PATH_COUNT; p++ ) any += hyb_stats_calls( id, (hyb_path_t)p ) != 0;
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_stats_report();
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	/* No call made: no report (a helper process prints nothing). */
	if ( !any ) CU_ASSERT_STRING_EQUAL( hyb_buf, "" );
	CU_ASSERT_TRUE( hyb_stats_timing() ); /* report=1 */
}

static void test_counts( void )
{
	stats_init( -1 );
	const int a = hyb_id[0], b = hyb_id[1], c = hyb_id[2];
	uint64_t  before[4][HYB_PATH_COUNT], fb[4];
	for ( int r = 0; r < 4; r++ )
	{
		fb[r] = hyb_stats_fallbacks( hyb_id[r] );
		for ( int p = 0; p < HYB_PATH_COUNT; p++ )
			before[r][p] = hyb_stats_calls( hyb_id[r], (hyb_path_t)p );
	}
	hyb_stats_record( b, HYB_PATH_GPU, 0.5, 1e9, 1e6 );
	hyb_stats_record( b, HYB_PATH_GPU, -1, 1e9, 0 ); /* untimed still counts */
	hyb_stats_record( b, HYB_PATH_CPU, 0.25, 1e8, 0 );
	hyb_stats_record( c, HYB_PATH_FALLBACK, 0.1, 0, 0 );
	hyb_stats_fallback( c );
	hyb_stats_prediction( b, 0.4, 0.5 );
	/* Out-of-range ids are ignored. */
	hyb_stats_record( -1, HYB_PATH_CPU, 1, 1, 1 );
	hyb_stats_record( 1 << 20, HYB_PATH_CPU, 1, 1, 1 );
	hyb_stats_fallback( -5 );
	CU_ASSERT_EQUAL( hyb_stats_calls( -1, HYB_PATH_CPU ), 0 );
	CU_ASSERT_EQUAL( hyb_stats_calls( b, HYB_PATH_GPU ) - before[1][HYB_PATH_GPU], 2 );
	CU_ASSERT_EQUAL( hyb_stats_calls( b, HYB_PATH_CPU ) - before[1][HYB_PATH_CPU], 1 );
	CU_ASSERT_EQUAL( hyb_stats_calls( c, HYB_PATH_FALLBACK ) - before[2][HYB_PATH_FALLBACK], 1 );
	CU_ASSERT_EQUAL( hyb_stats_fallbacks( c ) - fb[2], 1 );
	CU_ASSERT_EQUAL( hyb_stats_calls( a, HYB_PATH_CPU ) - before[0][HYB_PATH_CPU], 0 );

	hyb_stats_set_device_note( "sim: 1 x test device" );
	hyb_t_log_begin( HYB_LOG_SILENT );
	hyb_stats_report(); /* shown whatever the level */
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	/* Routines with calls are listed, the others not; totals and the device line. */
	CU_ASSERT( listed( hyb_buf, role( 1 ) ) );
	CU_ASSERT( listed( hyb_buf, role( 2 ) ) );
	CU_ASSERT( !listed( hyb_buf, role( 3 ) ) );
	CU_ASSERT( strstr( hyb_buf, "total" ) != NULL );
	CU_ASSERT( strstr( hyb_buf, "sim: 1 x test device" ) != NULL );
	char key[64];
	snprintf( key, sizeof key, "report: %s ", role( 1 ) );
	const char* line = strstr( hyb_buf, key );
	if ( line )
		CU_ASSERT( strstr( line, " 3 " ) != NULL || strstr( line, " 3\t" ) != NULL ); /* 3 calls */
}

typedef struct
{
	int id;
} hyb_rec_arg_t;

static void* record_thread( void* p )
{
	hyb_rec_arg_t* a = p;
	for ( int i = 0; i < 10000; i++ )
		hyb_stats_record( a->id, (hyb_path_t)( i % HYB_PATH_COUNT ), 1e-6, 10, 8 );
	return NULL;
}

/* Lock-free counters under concurrency: exact totals. */
static void test_counts_threads( void )
{
	stats_init( -1 );
	uint64_t before[HYB_PATH_COUNT];
	for ( int p = 0; p < HYB_PATH_COUNT; p++ )
		before[p] = hyb_stats_calls( hyb_id[3], (hyb_path_t)p );
	pthread_t     th[4];
	hyb_rec_arg_t a = { hyb_id[3] };
	for ( int i = 0; i < 4; i++ )
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, record_thread, &a ), 0 );
	for ( int i = 0; i < 4; i++ ) pthread_join( th[i], NULL );
	for ( int p = 0; p < HYB_PATH_COUNT; p++ )
		CU_ASSERT_EQUAL( hyb_stats_calls( hyb_id[3], (hyb_path_t)p ) - before[p],
		                 4 * 10000 / HYB_PATH_COUNT );
}

/* ------------------------------------------------------------------ operations */

typedef struct
{
	hyb_op_id_t ids[3];
} hyb_reg_arg_t;

static void* register_thread( void* p )
{
	hyb_reg_arg_t* a = p;
	a->ids[0]        = hyb_op_register( "tls.solve", "tls" );
	a->ids[1]        = hyb_op_register( "tls.step", "tls" );
	a->ids[2]        = hyb_op_register( "tls.solve", "other" );
	for ( int i = 0; i < 1000; i++ ) hyb_stats_record( a->ids[i % 2], HYB_PATH_GPU, 1e-6, 10, 8 );
	return NULL;
}

/* Extension operations: registered by name from several threads at once to one id each,
   counted and reported by the statistics like a routine, found by name; routines keep
   their ids. */
static void test_op_registry( void )
{
	stats_init( -1 );
	CU_ASSERT_EQUAL( hyb_op_find( role( 1 ) ), hyb_id[1] ); /* a routine: its id */
	CU_ASSERT_EQUAL( hyb_op_register( role( 1 ), "x" ), hyb_id[1] );
	CU_ASSERT_STRING_EQUAL( hyb_op_family_of( hyb_id[1] ), "routine" );
	hyb_reg_arg_t a[6];
	pthread_t     th[6];
	for ( int i = 0; i < 6; i++ )
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, register_thread, &a[i] ), 0 );
	for ( int i = 0; i < 6; i++ ) pthread_join( th[i], NULL );
	hyb_op_id_t solve = hyb_op_find( "tls.solve" ), step = hyb_op_find( "tls.step" );
	CU_ASSERT( solve >= HYB_OP_EXT_BASE && step >= HYB_OP_EXT_BASE && solve != step );
	for ( int i = 0; i < 6; i++ )
		CU_ASSERT( a[i].ids[0] == solve && a[i].ids[1] == step && a[i].ids[2] == solve );
	CU_ASSERT_STRING_EQUAL( hyb_op_name_of( solve ), "tls.solve" );
	CU_ASSERT_STRING_EQUAL( hyb_op_family_of( solve ), "tls" ); /* the first registration's */
	CU_ASSERT_EQUAL( hyb_stats_calls( solve, HYB_PATH_GPU ), 6 * 500 );
	CU_ASSERT_EQUAL( hyb_stats_calls( step, HYB_PATH_GPU ), 6 * 500 );
	hyb_stats_record( solve, HYB_PATH_FALLBACK, 0.5, 0, 0 );
	hyb_stats_fallback( solve );
	CU_ASSERT_EQUAL( hyb_stats_fallbacks( solve ), 1 );
	/* Bad names and unknown ids. */
	static const char* bad[] = { "", "a b", "x/y",
		                         "0123456789012345678901234567890123456789012345678" };
	for ( unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++ )
		CU_ASSERT_EQUAL( hyb_op_register( bad[i], "f" ), HYB_OP_NONE );
	CU_ASSERT_EQUAL( hyb_op_register( NULL, "f" ), HYB_OP_NONE );
	CU_ASSERT_EQUAL( hyb_op_find( "tls.none" ), HYB_OP_NONE );
	CU_ASSERT_PTR_NULL( hyb_op_name_of( HYB_OP_EXT_BASE + hyb_op_ext_count() ) );
	CU_ASSERT_PTR_NULL( hyb_op_name_of( -1 ) );
	CU_ASSERT_EQUAL( hyb_stats_calls( HYB_OP_EXT_BASE + hyb_op_ext_count(), HYB_PATH_GPU ), 0 );
	/* The report lists them with the routines, by the same code. */
	hyb_t_log_begin( HYB_LOG_SILENT );
	hyb_stats_report();
	hyb_t_log_end( hyb_buf, sizeof hyb_buf );
	const char* line = strstr( hyb_buf, "tls.solve" );
	CU_ASSERT_PTR_NOT_NULL( line );
	if ( line ) CU_ASSERT( strstr( line, " 3001 " ) != NULL ); /* 3000 on the device, 1 fallback */
	CU_ASSERT_PTR_NOT_NULL( strstr( hyb_buf, "tls.step" ) );
}

/* The statistics with a trace going to an unlinked temporary file; its descriptor. */
static int trace_begin( void )
{
	char path[] = "/tmp/hyb_unit_traceXXXXXX";
	int  fd     = mkstemp( path );
	if ( fd < 0 ) return -1;
	unlink( path );
	stats_init( fd );
	return fd;
}

static void test_trace( void )
{
	int fd = trace_begin();
	CU_ASSERT_FATAL( fd >= 0 );
	CU_ASSERT_TRUE( hyb_stats_timing() );
	const char* l1 = "dgemm_ op=dgemm m=1 path=cpu\n";
	hyb_trace_write( l1, (int)strlen( l1 ) );
	hyb_trace_write( "ignored", 0 );
	lseek( fd, 0, SEEK_SET );
	ssize_t n              = read( fd, hyb_buf, sizeof hyb_buf - 1 );
	hyb_buf[n > 0 ? n : 0] = '\0';
	CU_ASSERT_STRING_EQUAL( hyb_buf, l1 );
	/* No trace file: writes go nowhere; timing only if the report is on. */
	hyb_stats_init( HYB_R_COUNT, hyb_names, 0, -1 );
	CU_ASSERT_FALSE( hyb_stats_timing() );
	hyb_trace_write( l1, (int)strlen( l1 ) );
	lseek( fd, 0, SEEK_SET );
	n = read( fd, hyb_buf, sizeof hyb_buf - 1 );
	CU_ASSERT_EQUAL( (size_t)n, strlen( l1 ) );
	close( fd );
	hyb_stats_init( HYB_R_COUNT, hyb_names, 1, -1 );
}

/* The one trace-line builder: the common keys in their order, the family's shape and
   extras, the quoted why; a why too long for the line is left out, never cut. */
static void test_trace_line( void )
{
	int fd = trace_begin();
	CU_ASSERT_FATAL( fd >= 0 );
	hyb_op_id_t        op = hyb_op_register( "tls.trace", "tls" );
	hyb_trace_fields_t f  = { .op       = hyb_id[1],
		                      .kind     = "dgemm",
		                      .shape    = "m=1 n=2 k=3",
		                      .path     = "gpu",
		                      .pred_cpu = 1.5,
		                      .pred_gpu = 0.25,
		                      .pred     = 0.25,
		                      .seconds  = 2e-3,
		                      .extra    = " tile=8x8",
		                      .why      = "fast" };
	hyb_trace_line( &f );
	static char long_why[3000];
	memset( long_why, 'w', sizeof long_why - 1 );
	hyb_trace_fields_t g = { .op = op, .kind = "run", .path = "cpu", .why = long_why };
	hyb_trace_line( &g );
	lseek( fd, 0, SEEK_SET );
	ssize_t n              = read( fd, hyb_buf, sizeof hyb_buf - 1 );
	hyb_buf[n > 0 ? n : 0] = '\0';
	char want[512];
	snprintf( want, sizeof want,
	          "%s op=dgemm m=1 n=2 k=3 path=gpu pred_cpu=1.500e+00 pred_gpu=2.500e-01 "
	          "pred=2.500e-01 seconds=2.000e-03 tile=8x8 why=\"fast\"\n"
	          "tls.trace op=run path=cpu pred_cpu=0.000e+00 pred_gpu=0.000e+00 pred=0.000e+00 "
	          "seconds=0.000e+00\n",
	          role( 1 ) );
	CU_ASSERT_STRING_EQUAL( hyb_buf, want );
	close( fd );
	hyb_stats_init( HYB_R_COUNT, hyb_names, 1, -1 );
}

/* ------------------------------------------------------------------ status */

static void test_status_names( void )
{
	int n = 0;
#define HYB_STATUS_CHECK( name, value, msg )                                                       \
	CU_ASSERT_STRING_EQUAL( hyb_status_name( name ), #name );                                      \
	CU_ASSERT_STRING_EQUAL( hyb_status_string( name ), msg );                                      \
	CU_ASSERT( ( name == HYB_OK ) == ( value == 0 ) && value <= 0 );                               \
	n++;
	HYB_STATUS_LIST( HYB_STATUS_CHECK )
#undef HYB_STATUS_CHECK
	CU_ASSERT_EQUAL( n, HYB_STATUS_COUNT );
	/* Messages are distinct (a message identifies its code). */
	for ( int a = 0; a > -HYB_STATUS_COUNT; a-- )
		for ( int b = a - 1; b > -HYB_STATUS_COUNT; b-- )
			CU_ASSERT( strcmp( hyb_status_string( (hyb_status_t)a ),
			                   hyb_status_string( (hyb_status_t)b ) ) != 0 );
}

static CU_TestInfo hyb_tests_log_stats[] = {
	{ "levels", test_levels },
	{ "long_line", test_long_line },
	{ "once", test_once },
	{ "once_threads", test_once_threads },
	{ "report_needs_calls", test_report_needs_calls },
	{ "counts", test_counts },
	{ "counts_threads", test_counts_threads },
	{ "op_registry", test_op_registry },
	{ "trace", test_trace },
	{ "trace_line", test_trace_line },
	{ "status_names", test_status_names },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_log_stats = { "log_stats", NULL, NULL, NULL, NULL, hyb_tests_log_stats };
