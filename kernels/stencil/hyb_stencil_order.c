/* SPDX-License-Identifier: BSD-3-Clause */
/* The issue order of a schedule (hyb_stencil_order.h). */
#include "kernels/stencil/hyb_stencil_order.h"

#include <stdlib.h>

#include "hyb_heap.h"

/* How far past the first step not yet issued a step may be issued: far enough for the next
   chunks' uploads and kernels, near enough to keep the scan short. */
#define HYB_SO_SCAN 256

static int hyb_so_host( const hyb_stencil_sched_t* s, int64_t i )
{
	return s->queue[s->steps[i].stream] == HYB_SQ_HOST;
}

/* Whether step i may be issued now: its stream's previous step (for host steps: the
   previous host step) and its dependencies are issued. Sets *held to the issue count
   before which it should wait (its latest host dependency's count + window; 0: none). */
static int hyb_so_ready( const hyb_stencil_sched_t* s, int64_t i, const int64_t* before,
                         const int64_t* at, int64_t window, int64_t* held )
{
	*held = 0;
	if ( before[i] >= 0 && at[before[i]] < 0 ) return 0;
	const hyb_stencil_step_t* st = &s->steps[i];
	for ( int64_t e = 0; e < st->ndep; e++ )
	{
		const int64_t j = s->deps[st->dep0 + e];
		if ( at[j] < 0 ) return 0;
		if ( !hyb_so_host( s, i ) && hyb_so_host( s, j ) && at[j] + window > *held )
			*held = at[j] + window;
	}
	return 1;
}

hyb_status_t hyb_stencil_issue_order( const hyb_stencil_sched_t* s, int64_t window, int64_t* order )
{
	const int64_t n      = s->nsteps;
	int64_t*      before = malloc( (size_t)( n + 1 ) * sizeof *before ); /* same stream */
	int64_t*      at     = malloc( (size_t)( n + 1 ) * sizeof *at );     /* issue count */
	if ( before == NULL || at == NULL )
	{
		HYB_FREE_ALL( before, at );
		return HYB_E_NO_MEMORY;
	}
	int64_t last[HYB_SS_MAX_STREAMS + 1];
	for ( int q = 0; q <= HYB_SS_MAX_STREAMS; q++ ) last[q] = -1;
	for ( int64_t i = 0; i < n; i++ )
	{
		/* The host steps as one stream: their queue runs in order. */
		const int q = hyb_so_host( s, i ) ? HYB_SS_MAX_STREAMS : s->steps[i].stream;
		before[i]   = last[q];
		last[q]     = i;
		at[i]       = -1;
	}
	int64_t front = 0;
	for ( int64_t count = 0; count < n; count++ )
	{
		while ( at[front] >= 0 ) front++;
		/* The first ready upload not held back, else the first ready step not held back,
		   else the first step not issued. */
		int64_t ready = -1, held;
		for ( int64_t i = front; i < n && i < front + HYB_SO_SCAN; i++ )
			if ( at[i] < 0 && ( ready < 0 || s->steps[i].op == HYB_SS_UPLOAD ) &&
			     hyb_so_ready( s, i, before, at, window, &held ) && held <= count )
			{
				ready = i;
				if ( s->steps[i].op == HYB_SS_UPLOAD ) break;
			}
		const int64_t pick = ready >= 0 ? ready : front;
		at[pick]           = count;
		order[count]       = pick;
	}
	HYB_FREE_ALL( before, at );
	return HYB_OK;
}
