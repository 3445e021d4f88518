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

/* One device step's line (HYBLAS_TRACE_STEPS): for reading the overlap.
   `ready`: when it could have begun (issued, its stream's previous step
   and the device steps it depends on ended). */
static void hyb_tl_step( const hyb_stencil_step_t* st, int64_t i, double h, double ready, double b,
                         double e )
{
	char      line[192];
	const int len = snprintf( line, sizeof line,
	                          "hyblas_stencil_step i=%lld op=%s stream=%d block=%lld chunk=%lld "
	                          "z0=%lld z1=%lld h=%.6f ready=%.6f b=%.6f e=%.6f\n",
	                          (long long)i, hyb_stencil_op_name( st->op ), (int)st->stream,
	                          (long long)st->block, (long long)st->chunk, (long long)st->z0,
	                          (long long)st->z1, h, ready, b, e );
	if ( len > 0 && len < (int)sizeof line ) hyb_trace_write( line, len );
}

/* Each device step's begin and end from the origin and the kind it counts
   as (-1: none, not timed). */
static void hyb_tl_spans( hyb_sd_timeline_t* t, hyb_dev_t* dev, const hyb_stencil_sched_t* s,
                          double* b, double* e, int8_t* of )
{
	for ( int64_t i = 0; i < t->n; i++ )
	{
		of[i] = -1;
		b[i] = e[i] = 0.0;
		if ( !t->beg[i] || !t->end[i] || hyb_tl_kind( s->steps[i].op ) < 0 ||
		     hyb_dev_elapsed( dev, t->origin, t->beg[i], &b[i] ) != HYB_OK ||
		     hyb_dev_elapsed( dev, t->origin, t->end[i], &e[i] ) != HYB_OK )
			continue;
		of[i] = (int8_t)hyb_tl_kind( s->steps[i].op );
	}
	/* A device whose streams run apart (the simulated one: a thread each)
	   may reach a step on another stream before the origin: times then
	   count from the first begin. */
	double first = 0.0;
	for ( int64_t i = 0; i < t->n; i++ )
		if ( of[i] >= 0 && b[i] < first ) first = b[i];
	for ( int64_t i = 0; i < t->n; i++ )
		if ( of[i] >= 0 )
		{
			b[i] -= first;
			e[i] -= first;
		}
}

/* When step i could have begun: its issue, the end of its stream's step
   before it (`prev`, -1: none) and of the device steps it depends on. */
static double hyb_tl_ready( const hyb_sd_timeline_t* t, const hyb_stencil_sched_t* s, int64_t i,
                            int64_t prev, const int8_t* of, const double* e )
{
	double r = t->issued[i];
	if ( prev >= 0 && of[prev] >= 0 && e[prev] > r ) r = e[prev];
	const hyb_stencil_step_t* st = &s->steps[i];
	for ( int64_t k = 0; k < st->ndep; k++ )
	{
		const int64_t j = s->deps[st->dep0 + k];
		if ( j >= 0 && j < t->n && of[j] >= 0 && e[j] > r ) r = e[j];
	}
	return r;
}

/* The line: per kind busy/active seconds, the span, the time no kind was
   active, the issuing thread's waits, and how long steps began after they
   were ready (all, and the kernels'): waits the schedule does not ask for. */
static void hyb_tl_report( hyb_sd_timeline_t* t, hyb_dev_t* dev, const hyb_stencil_sched_t* s )
{
	hyb_tl_span_t* all = malloc( (size_t)t->n * sizeof *all );
	hyb_tl_span_t* one = malloc( (size_t)t->n * sizeof *one );
	double*        b   = malloc( (size_t)t->n * sizeof *b );
	double*        e   = malloc( (size_t)t->n * sizeof *e );
	int8_t*        of  = malloc( (size_t)t->n );
	int64_t        last[HYB_SS_MAX_STREAMS];
	if ( all == NULL || one == NULL || b == NULL || e == NULL || of == NULL )
	{
		HYB_FREE_ALL( all, one, b, e, of );
		return;
	}
	hyb_tl_spans( t, dev, s, b, e, of );
	for ( int q = 0; q < HYB_SS_MAX_STREAMS; q++ ) last[q] = -1;
	int     kind[HYB_TL_KINDS] = { 0 };
	double  busy[HYB_TL_KINDS] = { 0 }, span = 0.0, late = 0.0, late_compute = 0.0;
	int64_t n = 0;
	for ( int64_t i = 0; i < t->n; i++ )
	{
		if ( of[i] < 0 ) continue;
		const int    q     = s->steps[i].stream;
		const int    ok    = q >= 0 && q < HYB_SS_MAX_STREAMS;
		const double ready = hyb_tl_ready( t, s, i, ok ? last[q] : -1, of, e );
		if ( ok ) last[q] = i;
		if ( b[i] > ready )
		{
			late += b[i] - ready;
			if ( of[i] == HYB_TL_COMPUTE ) late_compute += b[i] - ready;
		}
		if ( hyb_config()->trace_steps )
			hyb_tl_step( &s->steps[i], i, t->issued[i], ready, b[i], e[i] );
		all[n].b   = b[i];
		all[n++].e = e[i];
		busy[of[i]] += e[i] - b[i];
		kind[of[i]] = 1;
		if ( e[i] > span ) span = e[i];
	}
	double active[HYB_TL_KINDS] = { 0 };
	for ( int k = 0; k < HYB_TL_KINDS; k++ )
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
	          "compute=%.4f/%.4f download=%.4f/%.4f idle=%.4f issue_wait=%.4f late=%.4f/%.4f\n",
	       (long long)n, span, busy[HYB_TL_UPLOAD], active[HYB_TL_UPLOAD], busy[HYB_TL_SHARE],
	       active[HYB_TL_SHARE], busy[HYB_TL_COMPUTE], active[HYB_TL_COMPUTE], busy[HYB_TL_DOWNLOAD],
	       active[HYB_TL_DOWNLOAD], span - any, t->issue_wait, late, late_compute );
	if ( len > 0 && len < (int)sizeof line ) hyb_trace_write( line, len );
	HYB_FREE_ALL( all, one, b, e, of );
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
