/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated device: host threads play the streams (one per stream, started on the
   stream's first use), host memory plays device memory, the families' registered sim
   launchers play the kernels, and optional delays play the bandwidths and rates. It
   runs every pipeline in CI. */
#define _GNU_SOURCE
#include "kernels/sim/hyb_device_sim.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hyb_heap.h"
#include "hyb_thread.h"
#include "kernels/hyb_kernel_registry.h"

#define HYB_SIM_MAX_DEVICES 16

static hyb_device_env_t hyb_sim_env;
static _Atomic double   hyb_sim_used[HYB_SIM_MAX_DEVICES];

struct hyb_devent_s
{
	pthread_mutex_t mu;
	pthread_cond_t  cv;
	uint64_t        target;  /* sequence of the latest record */
	uint64_t        done;    /* sequence reached */
	double          when;    /* host time when reached */
	hyb_status_t    status;  /* error of the work before it, if any */
	int             pending; /* queued records and waits that name it */
};

typedef enum
{
	HYB_SIM_OP_FN,     /* run a closure (copy, memset, pause) */
	HYB_SIM_OP_KERNEL, /* run a registered kernel's sim launcher on the copied arguments */
	HYB_SIM_OP_RECORD, /* mark an event reached */
	HYB_SIM_OP_WAIT    /* wait for an event */
} hyb_sim_op_kind_t;

typedef struct hyb_sim_op_s
{
	hyb_sim_op_kind_t kind;
	void ( *fn )( struct hyb_sim_op_s* op );
	double                  cost; /* simulated seconds beyond the real work */
	hyb_devent_t*           ev;
	uint64_t                seq;
	const hyb_kernel_def_t* kernel;
	/* closure data of copies and memsets */
	void*                dst;
	const void*          src;
	size_t               dpitch, spitch, width, rows;
	int                  value;
	struct hyb_sim_op_s* next;
	max_align_t          args[]; /* the kernel's argument struct, copied at launch */
} hyb_sim_op_t;

typedef struct
{
	pthread_t          thread;
	int                started; /* the thread exists (made on the first enqueue) */
	pthread_mutex_t    mu;
	pthread_cond_t     cv;
	hyb_sim_op_t *     head, *tail;
	int                busy, quit;
	struct hyb_dctx_s* ctx;
} hyb_sim_stream_t;

struct hyb_dctx_s
{
	int              dev;
	hyb_sim_stream_t streams[HYB_DEV_STREAMS];
	_Atomic int      sticky; /* first error of this context (hyb_status_t) */
};

static double hyb_sim_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void hyb_sim_sleep( double s )
{
	if ( s <= 0 ) return;
	struct timespec ts = { (time_t)s, (long)( ( s - (double)(time_t)s ) * 1e9 ) };
	while ( nanosleep( &ts, &ts ) != 0 && errno == EINTR )
		;
}

static void hyb_sim_event_reach( hyb_devent_t* ev, uint64_t seq, hyb_status_t st )
{
	pthread_mutex_lock( &ev->mu );
	ev->pending--;
	if ( seq > ev->done ) ev->done = seq;
	ev->when = hyb_sim_now();
	if ( st != HYB_OK ) ev->status = st;
	pthread_cond_broadcast( &ev->cv );
	pthread_mutex_unlock( &ev->mu );
}

static void* hyb_sim_stream_main( void* arg )
{
	hyb_sim_stream_t* s = arg;
	for ( ;; )
	{
		pthread_mutex_lock( &s->mu );
		while ( s->head == NULL && !s->quit ) pthread_cond_wait( &s->cv, &s->mu );
		if ( s->head == NULL && s->quit )
		{
			pthread_mutex_unlock( &s->mu );
			return NULL;
		}
		hyb_sim_op_t* op = s->head;
		s->head          = op->next;
		if ( s->head == NULL ) s->tail = NULL;
		s->busy = 1;
		pthread_mutex_unlock( &s->mu );

		hyb_status_t sticky = (hyb_status_t)atomic_load( &s->ctx->sticky );
		switch ( op->kind )
		{
		case HYB_SIM_OP_FN:
			if ( sticky == HYB_OK )
			{
				double t0 = hyb_sim_now();
				op->fn( op );
				/* Throttle to the simulated rate: sleep what the real work did not take. */
				hyb_sim_sleep( op->cost - ( hyb_sim_now() - t0 ) );
			}
			break;
		case HYB_SIM_OP_KERNEL:
			if ( sticky == HYB_OK )
			{
				double           t0  = hyb_sim_now();
				hyb_kernel_env_t env = { .ordinal = s->ctx->dev };
				hyb_status_t     st  = op->kernel->sim( &env, op->args );
				/* A failed kernel fails the context, as a device error would. */
				int ok = HYB_OK;
				if ( st != HYB_OK ) atomic_compare_exchange_strong( &s->ctx->sticky, &ok, (int)st );
				hyb_sim_sleep( op->cost - ( hyb_sim_now() - t0 ) );
			}
			break;
		case HYB_SIM_OP_RECORD:
			hyb_sim_event_reach( op->ev, op->seq, sticky );
			break;
		case HYB_SIM_OP_WAIT:
			pthread_mutex_lock( &op->ev->mu );
			while ( op->ev->done < op->seq ) pthread_cond_wait( &op->ev->cv, &op->ev->mu );
			op->ev->pending--;
			pthread_cond_broadcast( &op->ev->cv );
			pthread_mutex_unlock( &op->ev->mu );
			break;
		}
		free( op );
		pthread_mutex_lock( &s->mu );
		s->busy = 0;
		pthread_cond_broadcast( &s->cv );
		pthread_mutex_unlock( &s->mu );
	}
}

static hyb_status_t hyb_sim_enqueue( hyb_dctx_t* ctx, int stream, hyb_sim_op_t* op )
{
	if ( stream < 0 || stream >= HYB_DEV_STREAMS )
	{
		free( op );
		return HYB_E_INVALID;
	}
	hyb_sim_stream_t* s = &ctx->streams[stream];
	op->next            = NULL;
	pthread_mutex_lock( &s->mu );
	if ( !s->started )
	{
		/* The stream's thread, on the stream's first use. */
		if ( hyb_thread_create( &s->thread, NULL, hyb_sim_stream_main, s ) != 0 )
		{
			pthread_mutex_unlock( &s->mu );
			free( op );
			return HYB_E_NO_MEMORY;
		}
		s->started = 1;
	}
	if ( s->tail )
		s->tail->next = op;
	else
		s->head = op;
	s->tail = op;
	pthread_cond_broadcast( &s->cv );
	pthread_mutex_unlock( &s->mu );
	return HYB_OK;
}

static hyb_sim_op_t* hyb_sim_op_new( hyb_sim_op_kind_t kind )
{
	hyb_sim_op_t* op = calloc( 1, sizeof *op );
	if ( op ) op->kind = kind;
	return op;
}

/* ------------------------------------------------------------ lifecycle */

static hyb_status_t hyb_sim_init( const hyb_device_env_t* env, int* ndevices )
{
	hyb_sim_env = *env;
	if ( hyb_sim_env.sim_devices < 1 ) hyb_sim_env.sim_devices = 1;
	if ( hyb_sim_env.sim_devices > HYB_SIM_MAX_DEVICES )
		hyb_sim_env.sim_devices = HYB_SIM_MAX_DEVICES;
	for ( int i = 0; i < HYB_SIM_MAX_DEVICES; i++ ) atomic_store( &hyb_sim_used[i], 0.0 );
	*ndevices = hyb_sim_env.sim_devices;
	return HYB_OK;
}

static hyb_status_t hyb_sim_info( int dev, hyb_device_info_t* out )
{
	memset( out, 0, sizeof *out );
	snprintf( out->name, sizeof out->name, "hyblas simulated device %d", dev );
	out->mem_total       = hyb_sim_env.sim_mem;
	out->mem_free        = hyb_sim_env.sim_mem - atomic_load( &hyb_sim_used[dev] );
	out->cc_major        = 0;
	out->multiprocessors = 1;
	out->copy_engines    = 2;
	return HYB_OK;
}

static hyb_status_t hyb_sim_ctx_create( int dev, hyb_dctx_t** out )
{
	hyb_dctx_t* ctx = calloc( 1, sizeof *ctx );
	if ( ctx == NULL ) return HYB_E_NO_MEMORY;
	ctx->dev = dev;
	for ( int i = 0; i < HYB_DEV_STREAMS; i++ )
	{
		hyb_sim_stream_t* s = &ctx->streams[i];
		s->ctx              = ctx;
		pthread_mutex_init( &s->mu, NULL );
		pthread_cond_init( &s->cv, NULL );
	}
	*out = ctx;
	return HYB_OK;
}

static void hyb_sim_ctx_destroy( hyb_dctx_t* ctx, int broken )
{
	(void)broken;
	for ( int i = 0; i < HYB_DEV_STREAMS; i++ )
	{
		hyb_sim_stream_t* s = &ctx->streams[i];
		pthread_mutex_lock( &s->mu );
		s->quit     = 1;
		int started = s->started;
		pthread_cond_broadcast( &s->cv );
		pthread_mutex_unlock( &s->mu );
		if ( started ) pthread_join( s->thread, NULL );
		pthread_mutex_destroy( &s->mu );
		pthread_cond_destroy( &s->cv );
	}
	free( ctx );
}

/* ------------------------------------------------------------ memory */

/* Device buffers carry their size in a header so that the used total is
   exact when they are freed. */
static hyb_status_t hyb_sim_mem_alloc( hyb_dctx_t* ctx, size_t bytes, void** dptr )
{
	double used = atomic_load( &hyb_sim_used[ctx->dev] );
	if ( used + (double)bytes > hyb_sim_env.sim_mem ) return HYB_E_NO_MEMORY;
	size_t* p = malloc( bytes + 64 );
	if ( p == NULL ) return HYB_E_NO_MEMORY;
	p[0]            = bytes;
	double expected = used;
	while ( !atomic_compare_exchange_weak( &hyb_sim_used[ctx->dev], &expected,
	                                       expected + (double)bytes ) )
		;
	*dptr = (char*)p + 64;
	return HYB_OK;
}

static void hyb_sim_mem_free( hyb_dctx_t* ctx, void* dptr )
{
	if ( dptr == NULL ) return;
	size_t* p        = (size_t*)( (char*)dptr - 64 );
	double  expected = atomic_load( &hyb_sim_used[ctx->dev] );
	while ( !atomic_compare_exchange_weak( &hyb_sim_used[ctx->dev], &expected,
	                                       expected - (double)p[0] ) )
		;
	free( p );
}

static hyb_status_t hyb_sim_host_alloc( hyb_dctx_t* ctx, size_t bytes, void** p )
{
	return hyb_heap_alloc( ctx, bytes, p );
}

static void hyb_sim_host_free( hyb_dctx_t* ctx, void* p )
{
	hyb_heap_free( ctx, p );
}

/* Registrations are counted, not kept: a range is page-locked or not only
   for its speed, which the simulated device does not have. */
static _Atomic int64_t hyb_sim_regs;

int64_t hyb_sim_registrations( void )
{
	return atomic_load( &hyb_sim_regs );
}

static hyb_status_t hyb_sim_host_register( hyb_dctx_t* ctx, void* p, size_t bytes )
{
	(void)ctx, (void)p, (void)bytes;
	atomic_fetch_add( &hyb_sim_regs, 1 );
	return HYB_OK;
}

static hyb_status_t hyb_sim_host_unregister( hyb_dctx_t* ctx, void* p )
{
	(void)ctx, (void)p;
	atomic_fetch_sub( &hyb_sim_regs, 1 );
	return HYB_OK;
}

/* ------------------------------------------------------------ events */

static hyb_status_t hyb_sim_event_create( hyb_dctx_t* ctx, hyb_devent_t** ev )
{
	(void)ctx;
	hyb_devent_t* e = calloc( 1, sizeof *e );
	if ( e == NULL ) return HYB_E_NO_MEMORY;
	pthread_mutex_init( &e->mu, NULL );
	pthread_cond_init( &e->cv, NULL );
	*ev = e;
	return HYB_OK;
}

/* As CUDA allows, an event may be destroyed while work that names it is
   still queued (a caller whose synchronization failed does so); it is freed
   once the streams are done with it. */
static void hyb_sim_event_destroy( hyb_dctx_t* ctx, hyb_devent_t* ev )
{
	(void)ctx;
	if ( ev == NULL ) return;
	pthread_mutex_lock( &ev->mu );
	while ( ev->pending > 0 ) pthread_cond_wait( &ev->cv, &ev->mu );
	pthread_mutex_unlock( &ev->mu );
	pthread_mutex_destroy( &ev->mu );
	pthread_cond_destroy( &ev->cv );
	free( ev );
}

static hyb_status_t hyb_sim_event_record( hyb_dctx_t* ctx, int stream, hyb_devent_t* ev )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_RECORD );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	pthread_mutex_lock( &ev->mu );
	const uint64_t seq = ++ev->target;
	ev->pending++;
	pthread_mutex_unlock( &ev->mu );
	op->seq         = seq;
	op->ev          = ev;
	hyb_status_t st = hyb_sim_enqueue( ctx, stream, op );
	/* Never queued: reached at once with the error, so that no wait for
	   it hangs. */
	if ( st != HYB_OK ) hyb_sim_event_reach( ev, seq, st );
	return st;
}

static hyb_status_t hyb_sim_stream_wait( hyb_dctx_t* ctx, int stream, hyb_devent_t* ev )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_WAIT );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	pthread_mutex_lock( &ev->mu );
	op->seq = ev->target;
	ev->pending++;
	pthread_mutex_unlock( &ev->mu );
	op->ev          = ev;
	hyb_status_t st = hyb_sim_enqueue( ctx, stream, op );
	if ( st != HYB_OK )
	{
		pthread_mutex_lock( &ev->mu );
		ev->pending--;
		pthread_cond_broadcast( &ev->cv );
		pthread_mutex_unlock( &ev->mu );
	}
	return st;
}

static hyb_status_t hyb_sim_event_sync( hyb_dctx_t* ctx, hyb_devent_t* ev )
{
	pthread_mutex_lock( &ev->mu );
	while ( ev->done < ev->target ) pthread_cond_wait( &ev->cv, &ev->mu );
	hyb_status_t st = ev->status;
	pthread_mutex_unlock( &ev->mu );
	if ( st == HYB_OK ) st = (hyb_status_t)atomic_load( &ctx->sticky );
	return st;
}

static hyb_status_t hyb_sim_event_query( hyb_dctx_t* ctx, hyb_devent_t* ev )
{
	pthread_mutex_lock( &ev->mu );
	int          reached = ev->done >= ev->target;
	hyb_status_t st      = ev->status;
	pthread_mutex_unlock( &ev->mu );
	if ( !reached ) return HYB_E_AGAIN;
	return st != HYB_OK ? st : (hyb_status_t)atomic_load( &ctx->sticky );
}

static hyb_status_t hyb_sim_event_elapsed( hyb_dctx_t* ctx, hyb_devent_t* from, hyb_devent_t* to,
                                           double* seconds )
{
	(void)ctx;
	*seconds = to->when - from->when;
	return HYB_OK;
}

static hyb_status_t hyb_sim_stream_sync( hyb_dctx_t* ctx, int stream )
{
	if ( stream < 0 || stream >= HYB_DEV_STREAMS ) return HYB_E_INVALID;
	hyb_sim_stream_t* s = &ctx->streams[stream];
	pthread_mutex_lock( &s->mu );
	while ( s->head != NULL || s->busy ) pthread_cond_wait( &s->cv, &s->mu );
	pthread_mutex_unlock( &s->mu );
	return (hyb_status_t)atomic_load( &ctx->sticky );
}

/* ------------------------------------------------------------ work */

/* Simulated seconds of an operation beyond its real work, at the simulated rates:
   compute-bound work by its flops, memory-bound work like a copy of the bytes it touches. */
static double hyb_sim_cost( double flops, double bytes )
{
	return hyb_sim_env.sim_latency +
	       ( hyb_sim_env.sim_flops > 0 ? flops / hyb_sim_env.sim_flops : 0 ) +
	       ( hyb_sim_env.sim_bw > 0 ? bytes / hyb_sim_env.sim_bw : 0 );
}

/* A closure op (copy, memset) running fn, throttled as moving `bytes` bytes. */
static hyb_sim_op_t* hyb_sim_fn_op( void ( *fn )( hyb_sim_op_t* op ), double bytes )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_FN );
	if ( op == NULL ) return NULL;
	op->fn   = fn;
	op->cost = hyb_sim_cost( 0, bytes );
	return op;
}

static void hyb_sim_copy_fn( hyb_sim_op_t* op )
{
	for ( size_t r = 0; r < op->rows; r++ )
		memcpy( (char*)op->dst + r * op->dpitch, (const char*)op->src + r * op->spitch, op->width );
}

/* Every copy direction: host memory on both sides, throttled to the simulated bandwidth. */
static hyb_status_t hyb_sim_copy( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
                                  const void* src, size_t spitch, size_t width, size_t rows )
{
	if ( width > dpitch || width > spitch ) return HYB_E_INVALID;
	hyb_sim_op_t* op = hyb_sim_fn_op( hyb_sim_copy_fn, (double)width * (double)rows );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->dst    = dst;
	op->src    = src;
	op->dpitch = dpitch;
	op->spitch = spitch;
	op->width  = width;
	op->rows   = rows;
	return hyb_sim_enqueue( ctx, stream, op );
}

static void hyb_sim_memset_fn( hyb_sim_op_t* op )
{
	memset( op->dst, op->value, op->width );
}

static hyb_status_t hyb_sim_memset( hyb_dctx_t* ctx, int stream, void* dptr, int value,
                                    size_t bytes )
{
	hyb_sim_op_t* op = hyb_sim_fn_op( hyb_sim_memset_fn, (double)bytes );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->dst   = dptr;
	op->value = value;
	op->width = bytes;
	return hyb_sim_enqueue( ctx, stream, op );
}

/* Pauses queued on the simulated devices so far (tests: whether a pipeline paced). */
static _Atomic int64_t hyb_sim_npauses;

int64_t hyb_sim_pauses( void )
{
	return atomic_load( &hyb_sim_npauses );
}

static void hyb_sim_pause_fn( hyb_sim_op_t* op )
{
	(void)op;
}

/* The stream's thread sleeps the pause (and the simulated latency) in stream order, as a
   device's stream would be held: whatever is queued after it waits. */
static hyb_status_t hyb_sim_stream_pause( hyb_dctx_t* ctx, int stream, uint64_t ns )
{
	hyb_sim_op_t* op = hyb_sim_fn_op( hyb_sim_pause_fn, 0 );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->cost += 1e-9 * (double)ns;
	const hyb_status_t st = hyb_sim_enqueue( ctx, stream, op );
	if ( st == HYB_OK ) atomic_fetch_add( &hyb_sim_npauses, 1 );
	return st;
}

/* ------------------------------------------------------------ kernels */

/* The simulated device implements a registered kernel through the sim launcher in its
   declaration: the handle is the declaration itself. */
static const void* hyb_sim_kernel_find( const hyb_kernel_def_t* def )
{
	return def && def->sim ? def : NULL;
}

static const char* hyb_sim_kernel_name( int i )
{
	for ( int k = 0, seen = 0; k < hyb_kernel_count(); k++ )
		if ( hyb_kernel_def( k )->sim && seen++ == i ) return hyb_kernel_def( k )->name;
	return NULL;
}

static hyb_status_t hyb_sim_launch( hyb_dctx_t* ctx, int stream, const void* impl, const void* args,
                                    size_t args_size )
{
	const hyb_kernel_def_t* def = impl;
	hyb_sim_op_t*           op  = calloc( 1, sizeof *op + args_size );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->kind   = HYB_SIM_OP_KERNEL;
	op->kernel = def;
	memcpy( op->args, args, args_size );
	double flops = 0, bytes = 0;
	if ( def->work ) def->work( args, &flops, &bytes );
	op->cost = hyb_sim_cost( flops, bytes );
	return hyb_sim_enqueue( ctx, stream, op );
}

/* A simulated device has no registers to report. */
static hyb_status_t hyb_sim_kernel_attr( int dev, const void* impl, int block, size_t smem,
                                         hyb_kernel_attr_t* out )
{
	(void)dev, (void)impl, (void)block, (void)smem;
	memset( out, 0, sizeof *out );
	return HYB_E_NOT_SUPPORTED;
}

static const hyb_device_ops_t hyb_sim_ops = {
	.name = "sim",
	HYB_DEVICE_OPS_ENTRIES( hyb_sim, hyb_sim_copy, hyb_sim_copy, hyb_sim_copy ),
};

const hyb_device_ops_t* hyb_sim_device_ops( void )
{
	return &hyb_sim_ops;
}
