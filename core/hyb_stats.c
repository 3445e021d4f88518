/* SPDX-License-Identifier: BSD-3-Clause */
/* Lock-free per-operation counters (intercepted routines and registered extension
   operations alike), trace output and the exit report. */
#include "hyb_stats.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyb_file.h"
#include "hyb_log.h"
#include "hyb_op.h"

typedef struct
{
	_Atomic uint64_t calls[HYB_PATH_COUNT];
	_Atomic uint64_t nanos[HYB_PATH_COUNT];
	_Atomic uint64_t flops[HYB_PATH_COUNT]; /* 2^64 flops: five days at 50 TFLOP/s */
	_Atomic uint64_t bytes;
	_Atomic uint64_t fallbacks;
	_Atomic uint64_t pred_nanos, meas_nanos, pred_calls;
} hyb_routine_stats_t;

static hyb_routine_stats_t* hyb_stats_tab;
static int                  hyb_stats_n;
static hyb_routine_stats_t  hyb_stats_ext[HYB_OP_EXT_MAX]; /* by extension op id */
static atomic_int           hyb_stats_timing_v;
static atomic_int           hyb_trace_fd   = -1;            /* a descriptor given by a test */
static hyb_sink_t           hyb_trace_sink = HYB_SINK_INIT; /* HYBLAS_TRACE, opened lazily */
static char                 hyb_device_note[256];

void hyb_stats_init( int nroutines, const char* const* names, int report, int trace_fd )
{
	if ( hyb_stats_tab == NULL )
	{
		/* Allocated once and kept for the life of the process (the report
		   reads it at exit). */
		hyb_stats_tab = calloc( (size_t)nroutines, sizeof *hyb_stats_tab );
		if ( hyb_stats_tab == NULL ) return;
		hyb_stats_n = nroutines;
		hyb_op_set_routines( nroutines, names );
	}
	atomic_store( &hyb_trace_fd, trace_fd );
	hyb_sink_set( &hyb_trace_sink, NULL );
	atomic_store( &hyb_stats_timing_v, report || trace_fd >= 0 );
}

void hyb_stats_init_traced( int nroutines, const char* const* names, const char* trace, int report )
{
	hyb_stats_init( nroutines, names, report, -1 );
	/* Opened at the first traced call, not now: a descriptor opened before
	   main would be closed by a program that closes what it inherited. */
	hyb_sink_set( &hyb_trace_sink, trace );
	if ( hyb_sink_active( &hyb_trace_sink ) )
		atomic_store( &hyb_stats_timing_v, 1 );
	else if ( trace && trace[0] )
		HYB_LOG( HYB_LOG_WARN, "warning: HYBLAS_TRACE=%s cannot be used (%s); no trace", trace,
		         hyb_trace_sink.why );
}

int hyb_trace_active( void )
{
	return atomic_load_explicit( &hyb_trace_fd, memory_order_relaxed ) >= 0 ||
	       hyb_sink_active( &hyb_trace_sink );
}

int hyb_stats_timing( void )
{
	return atomic_load_explicit( &hyb_stats_timing_v, memory_order_relaxed );
}

/* The counters of operation `id` (core/hyb_op.h), or NULL. */
static hyb_routine_stats_t* hyb_stats_entry( int id )
{
	if ( id >= 0 && id < hyb_stats_n && hyb_stats_tab ) return &hyb_stats_tab[id];
	if ( id >= HYB_OP_EXT_BASE && id - HYB_OP_EXT_BASE < hyb_op_ext_count() )
		return &hyb_stats_ext[id - HYB_OP_EXT_BASE];
	return NULL;
}

static inline uint64_t hyb_to_nanos( double s )
{
	return s > 0 ? (uint64_t)( s * 1e9 + 0.5 ) : 0;
}

void hyb_stats_record( int id, hyb_path_t path, double seconds, double flops, double bytes )
{
	hyb_routine_stats_t* r = hyb_stats_entry( id );
	if ( r == NULL ) return;
	atomic_fetch_add_explicit( &r->calls[path], 1, memory_order_relaxed );
	if ( seconds >= 0 )
	{
		atomic_fetch_add_explicit( &r->nanos[path], hyb_to_nanos( seconds ), memory_order_relaxed );
		atomic_fetch_add_explicit( &r->flops[path], (uint64_t)flops, memory_order_relaxed );
	}
	if ( bytes > 0 ) atomic_fetch_add_explicit( &r->bytes, (uint64_t)bytes, memory_order_relaxed );
}

void hyb_stats_prediction( int id, double predicted, double measured )
{
	hyb_routine_stats_t* r = hyb_stats_entry( id );
	if ( r == NULL ) return;
	atomic_fetch_add_explicit( &r->pred_nanos, hyb_to_nanos( predicted ), memory_order_relaxed );
	atomic_fetch_add_explicit( &r->meas_nanos, hyb_to_nanos( measured ), memory_order_relaxed );
	atomic_fetch_add_explicit( &r->pred_calls, 1, memory_order_relaxed );
}

void hyb_stats_fallback( int id )
{
	hyb_routine_stats_t* r = hyb_stats_entry( id );
	if ( r ) atomic_fetch_add_explicit( &r->fallbacks, 1, memory_order_relaxed );
}

uint64_t hyb_stats_calls( int id, hyb_path_t path )
{
	hyb_routine_stats_t* r = hyb_stats_entry( id );
	return r ? atomic_load( &r->calls[path] ) : 0;
}

uint64_t hyb_stats_fallbacks( int id )
{
	hyb_routine_stats_t* r = hyb_stats_entry( id );
	return r ? atomic_load( &r->fallbacks ) : 0;
}

void hyb_trace_write( const char* line, int len )
{
	if ( len <= 0 ) return;
	int fd = atomic_load_explicit( &hyb_trace_fd, memory_order_relaxed );
	if ( fd >= 0 )
	{
		ssize_t w = write( fd, line, (size_t)len );
		(void)w;
		return;
	}
	int refused = 0;
	if ( hyb_sink_write( &hyb_trace_sink, line, (size_t)len, &refused ) != HYB_OK && refused )
		HYB_LOG( HYB_LOG_WARN, "warning: HYBLAS_TRACE=%s cannot be used (%s); no trace",
		         hyb_trace_sink.path, hyb_trace_sink.why );
}

void hyb_stats_set_device_note( const char* note )
{
	snprintf( hyb_device_note, sizeof hyb_device_note, "%s", note );
}

void hyb_stats_report( void )
{
	/* The routines (ids 0 .. n - 1), then the extension operations in registration order. */
	int nops = hyb_stats_n + hyb_op_ext_count();
	/* A process that made no call (a helper an MPI library forked, say) has
	   nothing to report. */
	uint64_t any = 0;
	for ( int i = 0; i < nops && any == 0; i++ )
	{
		hyb_routine_stats_t* r =
		    hyb_stats_entry( i < hyb_stats_n ? i : HYB_OP_EXT_BASE + i - hyb_stats_n );
		for ( int p = 0; r && p < HYB_PATH_COUNT; p++ ) any += atomic_load( &r->calls[p] );
	}
	if ( any == 0 ) return;
	hyb_log_always( "report: %-22s %9s %6s %6s %6s %6s %10s %10s %9s", "routine", "calls", "cpu%",
	                "gpu%", "split%", "fallbk", "seconds", "GFLOP/s", "pred/meas" );
	double   tot_s = 0, tot_f = 0;
	uint64_t tot_calls = 0;
	for ( int i = 0; i < nops; i++ )
	{
		int                  id = i < hyb_stats_n ? i : HYB_OP_EXT_BASE + i - hyb_stats_n;
		hyb_routine_stats_t* r  = hyb_stats_entry( id );
		if ( r == NULL ) continue;
		uint64_t calls = 0, nanos = 0, fl = 0;
		for ( int p = 0; p < HYB_PATH_COUNT; p++ )
		{
			calls += atomic_load( &r->calls[p] );
			nanos += atomic_load( &r->nanos[p] );
			fl += atomic_load( &r->flops[p] );
		}
		if ( calls == 0 ) continue;
		double pct[HYB_PATH_COUNT];
		for ( int p = 0; p < HYB_PATH_COUNT; p++ )
			pct[p] = 100.0 * (double)atomic_load( &r->calls[p] ) / (double)calls;
		double   secs   = (double)nanos * 1e-9;
		double   gfs    = secs > 0 ? (double)fl / secs * 1e-9 : 0;
		char     pm[32] = "-";
		uint64_t pc     = atomic_load( &r->pred_calls );
		if ( pc )
			snprintf( pm, sizeof pm, "%.2f",
			          (double)atomic_load( &r->pred_nanos ) /
			              (double)( atomic_load( &r->meas_nanos ) + 1 ) );
		hyb_log_always( "report: %-22s %9llu %6.1f %6.1f %6.1f %6llu %10.4f %10.2f %9s",
		                hyb_op_name_of( id ), (unsigned long long)calls, pct[HYB_PATH_CPU],
		                pct[HYB_PATH_GPU], pct[HYB_PATH_SPLIT],
		                (unsigned long long)atomic_load( &r->fallbacks ), secs, gfs, pm );
		tot_s += secs;
		tot_f += (double)fl;
		tot_calls += calls;
	}
	hyb_log_always( "report: %-22s %9llu %6s %6s %6s %6s %10.4f %10.2f", "total",
	                (unsigned long long)tot_calls, "", "", "", "", tot_s,
	                tot_s > 0 ? tot_f / tot_s * 1e-9 : 0.0 );
	if ( hyb_device_note[0] ) hyb_log_always( "report: device: %s", hyb_device_note );
	if ( !hyb_stats_timing() ) hyb_log_always( "report: (calls were not timed)" );
}
