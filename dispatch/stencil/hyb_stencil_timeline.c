/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil pipeline's timeline (hyb_stencil_timeline.h). Busy time is
   the sum of a kind's step durations (steps of one kind on several streams
   overlap, so it can exceed the span); active time is the union of their
   intervals, the time that kind's engine had work. A span much longer than
   every kind's active time means the pipeline waited on something else
   (the issuing thread, a dependency); an active time close to the span
   names the bound. */
#include "dispatch/stencil/hyb_stencil_timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "hyb_heap.h"
#include "hyb_stats.h"

enum
{
	HYB_TL_UPLOAD,
	HYB_TL_SHARE,
	HYB_TL_COMPUTE,
	HYB_TL_DOWNLOAD,
	HYB_TL_KINDS
};

static int hyb_tl_kind( int32_t op )
{
	switch ( op )
	{
	case HYB_SS_UPLOAD:
		return HYB_TL_UPLOAD;
	case HYB_SS_SHARE:
		return HYB_TL_SHARE;
	case HYB_SS_COMPUTE:
		return HYB_TL_COMPUTE;
	case HYB_SS_DOWNLOAD:
		return HYB_TL_DOWNLOAD;
	default:
		return -1;
	}
}

void hyb_sd_timeline_open( hyb_sd_timeline_t* t, hyb_dev_t* dev, int64_t n )
{
	memset( t, 0, sizeof *t );
	if ( !hyb_trace_active() || n <= 0 ) return;
	t->n      = n;
	t->beg    = calloc( (size_t)n, sizeof *t->beg );
	t->end    = calloc( (size_t)n, sizeof *t->end );
	t->issued = calloc( (size_t)n, sizeof *t->issued );
	t->t_open = hyb_now();
	if ( t->beg && t->end && t->issued && hyb_dev_event_create( dev, &t->origin ) == HYB_OK &&
	     hyb_dev_record( dev, HYB_STREAM_COMPUTE, t->origin ) == HYB_OK )
	{
		t->on = 1;
		return;
	}
	hyb_sd_timeline_close( t, dev, NULL, 0 );
}

void hyb_sd_timeline_mark( hyb_sd_timeline_t* t, hyb_dev_t* dev, int stream, int64_t i, int end )
{
	if ( !t->on || i < 0 || i >= t->n ) return;
	hyb_devent_t** e = end ? &t->end[i] : &t->beg[i];
	if ( !end ) t->issued[i] = hyb_now() - t->t_open;
	if ( *e == NULL && hyb_dev_event_create( dev, e ) != HYB_OK ) *e = NULL;
	if ( *e && hyb_dev_record( dev, stream, *e ) != HYB_OK )
	{
		hyb_dev_event_destroy( dev, *e );
		*e = NULL;
	}
}

typedef struct
{
	double b, e;
} hyb_tl_span_t;

static int hyb_tl_by_start( const void* x, const void* y )
{
	const double a = ( (const hyb_tl_span_t*)x )->b, b = ( (const hyb_tl_span_t*)y )->b;
	return ( a > b ) - ( a < b );
}

/* The length of the union of n intervals (sorted here). */
static double hyb_tl_union( hyb_tl_span_t* v, int64_t n )
{
	qsort( v, (size_t)n, sizeof *v, hyb_tl_by_start );
	double total = 0.0, lo = 0.0, hi = -1.0;
	for ( int64_t i = 0; i < n; i++ )
	{
		if ( v[i].b > hi )
		{
			if ( hi > lo ) total += hi - lo;
			lo = v[i].b;
			hi = v[i].e;
		}
		else if ( v[i].e > hi )
			hi = v[i].e;
	}
	return hi > lo ? total + hi - lo : total;
}

/* One device step's line (HYBLAS_TRACE_STEPS): for reading the overlap. */
static void hyb_tl_step( const hyb_stencil_step_t* st, int64_t i, double h, double b, double e )
{
	static const char* names[] = { "stage",    "upload", "share",   "compute",
		                           "download", "commit", "hostcopy" };
	char               line[160];
	const int          len = snprintf( line, sizeof line,
	                                   "hyblas_stencil_step i=%lld op=%s stream=%d block=%lld chunk=%lld "
	                                            "z0=%lld z1=%lld h=%.6f b=%.6f e=%.6f\n",
	                                   (long long)i, st->op >= 0 && st->op <= 6 ? names[st->op] : "?",
	                                   (int)st->stream, (long long)st->block, (long long)st->chunk,
	                                   (long long)st->z0, (long long)st->z1, h, b, e );
	if ( len > 0 && len < (int)sizeof line ) hyb_trace_write( line, len );
}

/* The line: per kind busy/active seconds, the span, the time no kind was
   active, and the issuing thread's waits. */
static void hyb_tl_report( hyb_sd_timeline_t* t, hyb_dev_t* dev, const hyb_stencil_sched_t* s )
{
	hyb_tl_span_t* all = malloc( (size_t)t->n * sizeof *all );
	hyb_tl_span_t* one = malloc( (size_t)t->n * sizeof *one );
	if ( all == NULL || one == NULL )
	{
		HYB_FREE_ALL( all, one );
		return;
	}
	int     kind[HYB_TL_KINDS] = { 0 };
	double  busy[HYB_TL_KINDS] = { 0 }, span = 0.0;
	int64_t n  = 0;
	int8_t* of = malloc( (size_t)t->n );
	for ( int64_t i = 0; of && i < t->n; i++ )
	{
		double b, e;
		of[i] = -1;
		if ( !t->beg[i] || !t->end[i] || hyb_tl_kind( s->steps[i].op ) < 0 ||
		     hyb_dev_elapsed( dev, t->origin, t->beg[i], &b ) != HYB_OK ||
		     hyb_dev_elapsed( dev, t->origin, t->end[i], &e ) != HYB_OK )
			continue;
		of[i] = (int8_t)hyb_tl_kind( s->steps[i].op );
		if ( hyb_config()->trace_steps ) hyb_tl_step( &s->steps[i], i, t->issued[i], b, e );
		all[n].b   = b;
		all[n++].e = e;
		busy[of[i]] += e - b;
		kind[of[i]] = 1;
		if ( e > span ) span = e;
	}
	double active[HYB_TL_KINDS] = { 0 };
	for ( int k = 0; of && k < HYB_TL_KINDS; k++ )
	{
		int64_t m = 0, j = 0;
		for ( int64_t i = 0; i < t->n; i++ )
		{
			if ( of[i] < 0 ) continue;
			if ( of[i] == k ) one[m++] = all[j];
			j++;
		}
		active[k] = kind[k] ? hyb_tl_union( one, m ) : 0.0;
	}
	const double any = hyb_tl_union( all, n );
	char         line[384];
	const int    len = snprintf(
	       line, sizeof line,
	       "hyblas_stencil_timeline steps=%lld span=%.4f upload=%.4f/%.4f share=%.4f/%.4f "
	          "compute=%.4f/%.4f download=%.4f/%.4f idle=%.4f issue_wait=%.4f\n",
	       (long long)n, span, busy[HYB_TL_UPLOAD], active[HYB_TL_UPLOAD], busy[HYB_TL_SHARE],
	       active[HYB_TL_SHARE], busy[HYB_TL_COMPUTE], active[HYB_TL_COMPUTE], busy[HYB_TL_DOWNLOAD],
	       active[HYB_TL_DOWNLOAD], span - any, t->issue_wait );
	if ( of && len > 0 && len < (int)sizeof line ) hyb_trace_write( line, len );
	HYB_FREE_ALL( all, one, of );
}

void hyb_sd_timeline_close( hyb_sd_timeline_t* t, hyb_dev_t* dev, const hyb_stencil_sched_t* s,
                            int ok )
{
	if ( t->on && ok && s ) hyb_tl_report( t, dev, s );
	for ( int64_t i = 0; i < t->n; i++ )
	{
		if ( t->beg && t->beg[i] ) hyb_dev_event_destroy( dev, t->beg[i] );
		if ( t->end && t->end[i] ) hyb_dev_event_destroy( dev, t->end[i] );
	}
	if ( t->origin ) hyb_dev_event_destroy( dev, t->origin );
	HYB_FREE_ALL( t->beg, t->end, t->issued );
	memset( t, 0, sizeof *t );
}
