/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil device pipeline: executor operations on the device runtime
   (one workspace and one page-locked staging buffer carved per run; each
   step on its schedule stream, ordered after the steps of other streams it
   depends on by events), and the run with its rollback. */
#include "dispatch/stencil/hyb_stencil_device.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_types.h"
#include "kernels/hyb_device.h"
#include "kernels/stencil/hyb_stencil_exec.h"
#include "kernels/stencil/hyb_stencil_kernels.h"
#include "kernels/stencil/hyb_stencil_sched.h"

/* Every buffer carved from the workspace starts on this boundary. */
#define HYB_SD_ALIGN 256

/* The executor's context. With dev == NULL the operations only measure
   the memory the buffers need (the pointers they hand out are offsets). */
typedef struct
{
	hyb_dev_t*              dev;
	char*                   dbase; /* device workspace */
	char*                   hbase; /* page-locked staging */
	size_t                  dused, hused;
	int                     stream; /* the device stream of the step issued; -1: a host step */
	hyb_kernel_id_t         kernel;
	hyb_devent_t**          ev; /* per step: recorded after it when another stream waits for it */
	uint8_t*                marks; /* per step: 1 when some step on another stream depends on it */
	hyb_stencil_dev_stats_t st;
} hyb_sd_ctx_t;

static void* hyb_sd_alloc( void* ctx, size_t bytes, int host )
{
	hyb_sd_ctx_t* c    = ctx;
	size_t*       used = host ? &c->hused : &c->dused;
	char*         base = host ? c->hbase : c->dbase;
	const size_t  at   = *used;
	*used += ( bytes + HYB_SD_ALIGN - 1 ) / HYB_SD_ALIGN * HYB_SD_ALIGN;
	/* Measuring: any non-NULL pointer will do, nothing dereferences it. */
	return c->dev ? base + at : (void*)(uintptr_t)( at + HYB_SD_ALIGN );
}

static void hyb_sd_release( void* ctx, void* p, int host )
{
	/* The workspace and the staging stay cached in the context. */
	(void)ctx;
	(void)p;
	(void)host;
}

/* The one pair through which every field slab crosses PCIe: host planes
   to a device slot, and a device slot's planes back (a compressing stage
   plugs in here). */
static hyb_status_t hyb_sd_upload_slab( hyb_sd_ctx_t* c, void* dst, const void* src, size_t bytes )
{
	c->st.bytes_h2d += (double)bytes;
	return hyb_dev_h2d( c->dev, c->stream, dst, bytes, src, bytes, bytes, 1 );
}

static hyb_status_t hyb_sd_download_slab( hyb_sd_ctx_t* c, void* dst, const void* src,
                                          size_t bytes )
{
	c->st.bytes_d2h += (double)bytes;
	return hyb_dev_d2h( c->dev, c->stream, dst, bytes, src, bytes, bytes, 1 );
}

static hyb_status_t hyb_sd_copy( void* ctx, int stream, void* dst, const void* src, size_t bytes,
                                 int dir )
{
	hyb_sd_ctx_t* c = ctx;
	(void)stream;
	if ( c->dev == NULL || bytes == 0 ) return HYB_OK;
	switch ( dir )
	{
	case HYB_SX_H2D:
		return hyb_sd_upload_slab( c, dst, src, bytes );
	case HYB_SX_D2H:
		return hyb_sd_download_slab( c, dst, src, bytes );
	case HYB_SX_D2D:
		c->st.bytes_d2d += (double)bytes;
		return hyb_dev_d2d( c->dev, c->stream, dst, bytes, src, bytes, bytes, 1 );
	default:
		/* A host step: its dependencies on device steps were waited for
		   before it (hyb_sd_before). */
		c->st.bytes_host += (double)bytes;
		memmove( dst, src, bytes );
		return HYB_OK;
	}
}

/* Whether step i of s runs on the host (a copy team's queue). */
static int hyb_sd_host_step( const hyb_stencil_sched_t* s, int64_t i )
{
	return s->queue[s->steps[i].stream] == HYB_SQ_HOST;
}

/* Before step i: a device step waits on its stream for the events of the
   device steps of other streams it depends on; a host step waits for them
   on the host (earlier host steps are done: the host issues in order). */
static hyb_status_t hyb_sd_before( void* ctx, const hyb_stencil_sched_t* s, int64_t i )
{
	hyb_sd_ctx_t*             c    = ctx;
	const hyb_stencil_step_t* st   = &s->steps[i];
	const int                 host = hyb_sd_host_step( s, i );
	c->stream                      = host ? -1 : st->stream;
	for ( int64_t e = 0; e < st->ndep; e++ )
	{
		const int64_t j = s->deps[st->dep0 + e];
		if ( hyb_sd_host_step( s, j ) || ( !host && s->steps[j].stream == st->stream ) ) continue;
		const hyb_status_t rc =
		    host ? hyb_dev_sync( c->dev, c->ev[j] ) : hyb_dev_wait( c->dev, c->stream, c->ev[j] );
		if ( rc != HYB_OK ) return rc;
	}
	return HYB_OK;
}

/* After device step i: its event, where another stream waits for it. */
static hyb_status_t hyb_sd_after( void* ctx, const hyb_stencil_sched_t* s, int64_t i )
{
	hyb_sd_ctx_t* c = ctx;
	if ( !c->marks[i] || hyb_sd_host_step( s, i ) ) return HYB_OK;
	hyb_status_t rc = hyb_dev_event_create( c->dev, &c->ev[i] );
	if ( rc == HYB_OK ) rc = hyb_dev_record( c->dev, c->stream, c->ev[i] );
	return rc;
}

static hyb_status_t hyb_sd_compute( void* ctx, int stream, int32_t kind,
                                    const hyb_stencil_args_t* a )
{
	hyb_sd_ctx_t* c = ctx;
	(void)stream;
	(void)kind;
	if ( c->dev == NULL ) return HYB_OK;
	return hyb_dev_launch( c->dev, c->stream, c->kernel, a );
}

static hyb_status_t hyb_sd_finish( void* ctx )
{
	hyb_sd_ctx_t* c  = ctx;
	hyb_status_t  rc = HYB_OK;
	for ( int q = 0; c->dev && q < HYB_DEV_STREAMS; q++ )
	{
		const hyb_status_t qs = hyb_dev_stream_sync( c->dev, q );
		if ( rc == HYB_OK ) rc = qs;
	}
	return rc;
}

int hyb_stencil_device_usable( int32_t kind )
{
	const hyb_kernel_id_t id = hyb_stencil_kernel_id( kind );
	return id != HYB_KERNEL_NONE && hyb_devices_ensure() == HYB_OK &&
	       hyb_devices_kernel_supported( id );
}

/* The run proper on context `dev`; the buffers of `ex` are carved from its
   cached workspace and staging. */
static hyb_status_t hyb_sd_execute( hyb_dev_t* dev, const hyb_stencil_prob_t* p,
                                    const hyb_stencil_sched_t* s, double* residual,
                                    hyb_sd_ctx_t* c )
{
	hyb_stencil_exec_ops_t ops = { c,
		                           hyb_sd_alloc,
		                           hyb_sd_release,
		                           hyb_sd_copy,
		                           hyb_sd_compute,
		                           hyb_sd_finish,
		                           hyb_sd_before,
		                           hyb_sd_after };
	hyb_stencil_exec_t     ex;
	/* Measure, then take memory of that size and carve it the same way. */
	hyb_status_t rc = hyb_stencil_exec_init( &ex, &ops, p, s );
	if ( rc != HYB_OK ) return rc;
	hyb_stencil_exec_free( &ex );
	void*        dmem  = NULL;
	void*        hmem  = NULL;
	const size_t dneed = c->dused, hneed = c->hused;
	if ( ( rc = hyb_dev_workspace( dev, dneed ? dneed : 1, &dmem ) ) != HYB_OK ) return rc;
	if ( hneed && ( rc = hyb_dev_staging( dev, hneed, &hmem ) ) != HYB_OK ) return rc;
	c->dev   = dev;
	c->dbase = dmem;
	c->hbase = hmem;
	c->dused = c->hused = 0;
	if ( ( rc = hyb_stencil_exec_init( &ex, &ops, p, s ) ) != HYB_OK ) return rc;
	rc        = hyb_stencil_exec_run( &ex, s, NULL, -1, NULL );
	c->stream = HYB_STREAM_COMPUTE;
	if ( rc == HYB_OK ) rc = hyb_stencil_exec_residual( &ex, residual );
	hyb_stencil_exec_free( &ex );
	return rc;
}

hyb_status_t hyb_stencil_device_run( const hyb_stencil_prob_t* p, int64_t steps, int32_t scheme,
                                     int32_t d, int32_t k, double* residual,
                                     hyb_stencil_dev_stats_t* ds )
{
	const double t0 = hyb_now();
	memset( ds, 0, sizeof *ds );
	*residual = 0.0;
	hyb_stencil_roles_t roles;
	if ( !hyb_stencil_roles( p->kind, &roles ) || steps < 0 ) return HYB_E_INVALID;
	const hyb_stencil_sched_in_t in = hyb_stencil_sched_in( p, scheme, d, k, steps );
	hyb_stencil_sched_t          s;
	hyb_status_t                 rc = hyb_stencil_sched_build( &in, &s );
	if ( rc != HYB_OK ) return rc;

	/* The state fields as they were: a failure anywhere puts them back, so
	   that the CPU path restarts from the caller's inputs. */
	const size_t fbytes  = (size_t)( hyb_stencil_plane_bytes( p ) * p->nz );
	void*        keep[3] = { NULL, NULL, NULL };
	for ( int f = 0; f < roles.nstate && rc == HYB_OK; f++ )
	{
		keep[f] = malloc( fbytes );
		if ( keep[f] == NULL )
			rc = HYB_E_NO_MEMORY;
		else
			memcpy( keep[f], p->field[roles.state[f]], fbytes );
	}
	hyb_dev_t*   dev = NULL;
	hyb_sd_ctx_t c;
	memset( &c, 0, sizeof c );
	c.stream = HYB_STREAM_COMPUTE;
	c.kernel = hyb_stencil_kernel_id( p->kind );
	c.ev     = rc == HYB_OK ? calloc( (size_t)s.nsteps + 1, sizeof *c.ev ) : NULL;
	c.marks  = rc == HYB_OK ? calloc( (size_t)s.nsteps + 1, 1 ) : NULL;
	if ( rc == HYB_OK && ( c.ev == NULL || c.marks == NULL ) ) rc = HYB_E_NO_MEMORY;
	/* The steps another stream (or the host) waits for. */
	for ( int64_t i = 0; rc == HYB_OK && i < s.nsteps; i++ )
		for ( int64_t e = 0; e < s.steps[i].ndep; e++ )
		{
			const int64_t j = s.deps[s.steps[i].dep0 + e];
			c.marks[j] |= s.steps[j].stream != s.steps[i].stream;
		}
	if ( rc == HYB_OK ) rc = hyb_dev_acquire( 0, &dev );
	const int    ran = rc == HYB_OK;
	const double t1  = hyb_now();
	if ( ran )
	{
		rc = hyb_sd_execute( dev, p, &s, residual, &c );
		/* Nothing may still be writing the caller's arrays when the CPU takes over. */
		for ( int q = 0; q < HYB_DEV_STREAMS; q++ )
		{
			const hyb_status_t qs = hyb_dev_stream_sync( dev, q );
			if ( rc == HYB_OK && qs != HYB_OK ) rc = qs;
		}
		for ( int64_t i = 0; i < s.nsteps; i++ )
			if ( c.ev[i] ) hyb_dev_event_destroy( dev, c.ev[i] );
		hyb_dev_release( dev );
		if ( rc != HYB_OK )
		{
			for ( int f = 0; f < roles.nstate; f++ )
				memcpy( p->field[roles.state[f]], keep[f], fbytes );
			*residual = 0.0;
		}
	}
	for ( int f = 0; f < 3; f++ ) free( keep[f] );
	free( c.ev );
	free( c.marks );
	hyb_stencil_sched_free( &s );
	*ds               = c.st;
	ds->seconds_setup = t1 - t0;
	ds->seconds_run   = hyb_now() - t1;
	return rc;
}
