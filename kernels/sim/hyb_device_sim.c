/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated device: host threads play the streams, host memory plays
   device memory, reference kernels play the library, and optional delays
   play the bandwidths and rates. It runs every pipeline in CI. */
#define _GNU_SOURCE
#include "kernels/sim/hyb_device_sim.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/sim/hyb_sim_kernels.h"

#define HYB_SIM_MAX_DEVICES 16

static hyb_device_env_t hyb_sim_env;
static _Atomic double   hyb_sim_used[HYB_SIM_MAX_DEVICES];

struct hyb_devent_s
{
	pthread_mutex_t mu;
	pthread_cond_t  cv;
	uint64_t        target; /* sequence of the latest record */
	uint64_t        done;   /* sequence reached */
	double          when;   /* host time when reached */
	hyb_status_t    status; /* error of the work before it, if any */
};

typedef enum
{
	HYB_SIM_OP_FN,     /* run a closure (copy, kernel) */
	HYB_SIM_OP_RECORD, /* mark an event reached */
	HYB_SIM_OP_WAIT    /* wait for an event */
} hyb_sim_op_kind_t;

typedef struct hyb_sim_op_s
{
	hyb_sim_op_kind_t kind;
	void ( *fn )( struct hyb_sim_op_s* op );
	double            cost; /* simulated seconds beyond the real work */
	hyb_devent_t*     ev;
	uint64_t          seq;
	/* closure data */
	hyb_prec_t        prec;
	char              o1, o2, o3, o4;
	int64_t           m, n, k, lda, ldb, ldc;
	double            alpha[2], beta[2];
	const void*       a;
	const void*       b;
	void*             c;
	size_t            dpitch, spitch, width, rows;
	struct hyb_sim_op_s* next;
} hyb_sim_op_t;

typedef struct
{
	pthread_t       thread;
	pthread_mutex_t mu;
	pthread_cond_t  cv;
	hyb_sim_op_t *  head, *tail;
	int             busy, quit;
	struct hyb_dctx_s* ctx;
} hyb_sim_stream_t;

struct hyb_dctx_s
{
	int              dev;
	hyb_sim_stream_t streams[HYB_STREAM_COUNT];
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
		case HYB_SIM_OP_RECORD: hyb_sim_event_reach( op->ev, op->seq, sticky ); break;
		case HYB_SIM_OP_WAIT:
			pthread_mutex_lock( &op->ev->mu );
			while ( op->ev->done < op->seq ) pthread_cond_wait( &op->ev->cv, &op->ev->mu );
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
	if ( stream < 0 || stream >= HYB_STREAM_COUNT )
	{
		free( op );
		return HYB_E_INVALID;
	}
	hyb_sim_stream_t* s = &ctx->streams[stream];
	op->next            = NULL;
	pthread_mutex_lock( &s->mu );
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
	if ( hyb_sim_env.sim_devices > HYB_SIM_MAX_DEVICES ) hyb_sim_env.sim_devices = HYB_SIM_MAX_DEVICES;
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
	for ( int i = 0; i < HYB_STREAM_COUNT; i++ )
	{
		hyb_sim_stream_t* s = &ctx->streams[i];
		s->ctx              = ctx;
		pthread_mutex_init( &s->mu, NULL );
		pthread_cond_init( &s->cv, NULL );
		if ( pthread_create( &s->thread, NULL, hyb_sim_stream_main, s ) != 0 )
		{
			for ( int j = 0; j < i; j++ )
			{
				pthread_mutex_lock( &ctx->streams[j].mu );
				ctx->streams[j].quit = 1;
				pthread_cond_broadcast( &ctx->streams[j].cv );
				pthread_mutex_unlock( &ctx->streams[j].mu );
				pthread_join( ctx->streams[j].thread, NULL );
			}
			free( ctx );
			return HYB_E_NO_MEMORY;
		}
	}
	*out = ctx;
	return HYB_OK;
}

static void hyb_sim_ctx_destroy( hyb_dctx_t* ctx, int broken )
{
	(void)broken;
	for ( int i = 0; i < HYB_STREAM_COUNT; i++ )
	{
		hyb_sim_stream_t* s = &ctx->streams[i];
		pthread_mutex_lock( &s->mu );
		s->quit = 1;
		pthread_cond_broadcast( &s->cv );
		pthread_mutex_unlock( &s->mu );
		pthread_join( s->thread, NULL );
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
	p[0] = bytes;
	double expected = used;
	while ( !atomic_compare_exchange_weak( &hyb_sim_used[ctx->dev], &expected, expected + (double)bytes ) )
		;
	*dptr = (char*)p + 64;
	return HYB_OK;
}

static void hyb_sim_mem_free( hyb_dctx_t* ctx, void* dptr )
{
	if ( dptr == NULL ) return;
	size_t* p        = (size_t*)( (char*)dptr - 64 );
	double  expected = atomic_load( &hyb_sim_used[ctx->dev] );
	while ( !atomic_compare_exchange_weak( &hyb_sim_used[ctx->dev], &expected, expected - (double)p[0] ) )
		;
	free( p );
}

static hyb_status_t hyb_sim_host_alloc( hyb_dctx_t* ctx, size_t bytes, void** p )
{
	(void)ctx;
	*p = malloc( bytes ? bytes : 1 );
	return *p ? HYB_OK : HYB_E_NO_MEMORY;
}

static void hyb_sim_host_free( hyb_dctx_t* ctx, void* p )
{
	(void)ctx;
	free( p );
}

static hyb_status_t hyb_sim_host_register( hyb_dctx_t* ctx, void* p, size_t bytes )
{
	(void)ctx, (void)p, (void)bytes;
	return HYB_OK;
}

static hyb_status_t hyb_sim_host_unregister( hyb_dctx_t* ctx, void* p )
{
	(void)ctx, (void)p;
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

static void hyb_sim_event_destroy( hyb_dctx_t* ctx, hyb_devent_t* ev )
{
	(void)ctx;
	if ( ev == NULL ) return;
	pthread_mutex_destroy( &ev->mu );
	pthread_cond_destroy( &ev->cv );
	free( ev );
}

static hyb_status_t hyb_sim_event_record( hyb_dctx_t* ctx, int stream, hyb_devent_t* ev )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_RECORD );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	pthread_mutex_lock( &ev->mu );
	op->seq = ++ev->target;
	pthread_mutex_unlock( &ev->mu );
	op->ev = ev;
	return hyb_sim_enqueue( ctx, stream, op );
}

static hyb_status_t hyb_sim_stream_wait( hyb_dctx_t* ctx, int stream, hyb_devent_t* ev )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_WAIT );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	pthread_mutex_lock( &ev->mu );
	op->seq = ev->target;
	pthread_mutex_unlock( &ev->mu );
	op->ev = ev;
	return hyb_sim_enqueue( ctx, stream, op );
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
	hyb_sim_stream_t* s = &ctx->streams[stream];
	pthread_mutex_lock( &s->mu );
	while ( s->head != NULL || s->busy ) pthread_cond_wait( &s->cv, &s->mu );
	pthread_mutex_unlock( &s->mu );
	return (hyb_status_t)atomic_load( &ctx->sticky );
}

/* ------------------------------------------------------------ work */

static void hyb_sim_copy_fn( hyb_sim_op_t* op )
{
	for ( size_t r = 0; r < op->rows; r++ )
		memcpy( (char*)op->c + r * op->dpitch, (const char*)op->a + r * op->spitch, op->width );
}

static hyb_status_t hyb_sim_copy( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
                                  const void* src, size_t spitch, size_t width, size_t rows )
{
	if ( width > dpitch || width > spitch ) return HYB_E_INVALID;
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_FN );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->fn     = hyb_sim_copy_fn;
	op->c      = dst;
	op->a      = src;
	op->dpitch = dpitch;
	op->spitch = spitch;
	op->width  = width;
	op->rows   = rows;
	double bytes = (double)width * (double)rows;
	op->cost     = hyb_sim_env.sim_latency + ( hyb_sim_env.sim_bw > 0 ? bytes / hyb_sim_env.sim_bw : 0 );
	return hyb_sim_enqueue( ctx, stream, op );
}

static void hyb_sim_gemm_fn( hyb_sim_op_t* op )
{
	hyb_sim_gemm( op->prec, op->o1, op->o2, op->m, op->n, op->k, op->alpha, op->a, op->lda, op->b,
	              op->ldb, op->beta, op->c, op->ldc );
}

static double hyb_sim_flop_cost( double flops )
{
	return hyb_sim_env.sim_latency + ( hyb_sim_env.sim_flops > 0 ? flops / hyb_sim_env.sim_flops : 0 );
}

static hyb_status_t hyb_sim_gemm_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char ta, char tb,
                                    int64_t m, int64_t n, int64_t k, const double alpha[2],
                                    const void* a, int64_t lda, const void* b, int64_t ldb,
                                    const double beta[2], void* c, int64_t ldc )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_FN );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->fn   = hyb_sim_gemm_fn;
	op->prec = prec;
	op->o1 = ta, op->o2 = tb;
	op->m = m, op->n = n, op->k = k;
	memcpy( op->alpha, alpha, sizeof op->alpha );
	memcpy( op->beta, beta, sizeof op->beta );
	op->a = a, op->lda = lda, op->b = b, op->ldb = ldb, op->c = c, op->ldc = ldc;
	op->cost = hyb_sim_flop_cost( 2.0 * (double)m * (double)n * (double)k *
	                              ( hyb_prec_is_complex( prec ) ? 4 : 1 ) );
	return hyb_sim_enqueue( ctx, stream, op );
}

static void hyb_sim_trsm_fn( hyb_sim_op_t* op )
{
	hyb_sim_trsm( op->prec, op->o1, op->o2, op->o3, op->o4, op->m, op->n, op->alpha, op->a, op->lda,
	              op->c, op->ldc );
}

static hyb_status_t hyb_sim_trsm_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char side,
                                    char uplo, char trans, char diag, int64_t m, int64_t n,
                                    const double alpha[2], const void* a, int64_t lda, void* b,
                                    int64_t ldb )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_FN );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->fn   = hyb_sim_trsm_fn;
	op->prec = prec;
	op->o1 = side, op->o2 = uplo, op->o3 = trans, op->o4 = diag;
	op->m = m, op->n = n;
	memcpy( op->alpha, alpha, sizeof op->alpha );
	op->a = a, op->lda = lda, op->c = b, op->ldc = ldb;
	double dim = side == 'L' ? (double)m : (double)n;
	op->cost   = hyb_sim_flop_cost( dim * (double)m * (double)n );
	return hyb_sim_enqueue( ctx, stream, op );
}

static void hyb_sim_trmm_fn( hyb_sim_op_t* op )
{
	hyb_sim_trmm( op->prec, op->o1, op->o2, op->o3, op->o4, op->m, op->n, op->alpha, op->a, op->lda,
	              op->b, op->ldb, op->c, op->ldc );
}

static hyb_status_t hyb_sim_trmm_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char side,
                                    char uplo, char trans, char diag, int64_t m, int64_t n,
                                    const double alpha[2], const void* a, int64_t lda, const void* b,
                                    int64_t ldb, void* c, int64_t ldc )
{
	hyb_sim_op_t* op = hyb_sim_op_new( HYB_SIM_OP_FN );
	if ( op == NULL ) return HYB_E_NO_MEMORY;
	op->fn   = hyb_sim_trmm_fn;
	op->prec = prec;
	op->o1 = side, op->o2 = uplo, op->o3 = trans, op->o4 = diag;
	op->m = m, op->n = n;
	memcpy( op->alpha, alpha, sizeof op->alpha );
	op->a = a, op->lda = lda, op->b = b, op->ldb = ldb, op->c = c, op->ldc = ldc;
	double dim = side == 'L' ? (double)m : (double)n;
	op->cost   = hyb_sim_flop_cost( dim * (double)m * (double)n );
	return hyb_sim_enqueue( ctx, stream, op );
}

/* Sparse and tridiagonal kernels: the closure fields are reused with these
   meanings (m, n=K/ndiag/nrhs, lda=ldb/base, k=window, a..c pointers). */
typedef struct
{
	hyb_sim_op_t base;
	const void * p0, *p1, *p2;
	void*        out;
	int          flag;
} hyb_sim_kop_t;

static void hyb_sim_ell_fn( hyb_sim_op_t* op )
{
	hyb_sim_kop_t* k = (hyb_sim_kop_t*)op;
	hyb_sim_spmv_ell( op->prec, op->m, op->n, k->p0, k->p1, k->p2, k->out, k->flag );
}

static void hyb_sim_dia_fn( hyb_sim_op_t* op )
{
	hyb_sim_kop_t* k = (hyb_sim_kop_t*)op;
	hyb_sim_spmv_dia( op->prec, op->m, op->n, k->p0, k->p1, k->p2, k->out, k->flag );
}

static void hyb_sim_csr_fn( hyb_sim_op_t* op )
{
	hyb_sim_kop_t* k = (hyb_sim_kop_t*)op;
	hyb_sim_spmv_csr( op->prec, op->m, k->p0, op->a, k->p1, (int)op->lda, k->p2, k->out, k->flag );
}

static void hyb_sim_vadd_fn( hyb_sim_op_t* op )
{
	hyb_sim_kop_t* k = (hyb_sim_kop_t*)op;
	hyb_sim_vadd( op->prec, op->m, k->p0, k->out );
}

static void hyb_sim_gtsv_fn( hyb_sim_op_t* op )
{
	hyb_sim_kop_t* k = (hyb_sim_kop_t*)op;
	hyb_sim_gtsv( op->prec, op->m, op->n, k->p0, k->p1, k->p2, k->out, op->ldb );
}

/* Pivots: op->m = n, op->k = warm, op->alpha[0] = first. */
static void hyb_sim_pivots_fn( hyb_sim_op_t* op )
{
	hyb_sim_kop_t* k = (hyb_sim_kop_t*)op;
	hyb_sim_gtsv_pivots( op->prec, op->m, k->p0, k->p1, k->p2, k->out, op->alpha[0], op->k );
}

static hyb_status_t hyb_sim_kernel( hyb_dctx_t* ctx, int stream, void ( *fn )( hyb_sim_op_t* ), hyb_prec_t prec,
                                    int64_t m, int64_t n, const void* p0, const void* p1, const void* p2, void* out,
                                    int flag, double bytes )
{
	hyb_sim_kop_t* k = calloc( 1, sizeof *k );
	if ( k == NULL ) return HYB_E_NO_MEMORY;
	k->base.kind = HYB_SIM_OP_FN;
	k->base.fn   = fn;
	k->base.prec = prec;
	k->base.m = m, k->base.n = n;
	k->p0 = p0, k->p1 = p1, k->p2 = p2, k->out = out, k->flag = flag;
	/* Memory-bound kernels: throttled like a copy of the bytes they touch. */
	k->base.cost = hyb_sim_env.sim_latency + ( hyb_sim_env.sim_bw > 0 ? bytes / hyb_sim_env.sim_bw : 0 );
	return hyb_sim_enqueue( ctx, stream, &k->base );
}

static hyb_status_t hyb_sim_ell_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t m, int64_t K,
                                   const int* index, const void* data, const void* x, void* y, int accumulate )
{
	return hyb_sim_kernel( ctx, stream, hyb_sim_ell_fn, prec, m, K, index, data, x, y, accumulate,
	                       (double)m * (double)K * 12 );
}

static hyb_status_t hyb_sim_dia_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t m, int64_t ndiag,
                                   const int* offset, const void* data, const void* x, void* y, int accumulate )
{
	return hyb_sim_kernel( ctx, stream, hyb_sim_dia_fn, prec, m, ndiag, offset, data, x, y, accumulate,
	                       (double)m * (double)ndiag * 8 );
}

static hyb_status_t hyb_sim_csr_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t rows, const int* ptr,
                                   const int* col, const void* val, int base, double mean_len, const void* x,
                                   void* y, int accumulate )
{
	hyb_sim_kop_t* k;
	hyb_status_t   st = HYB_OK;
	(void)mean_len;
	k = calloc( 1, sizeof *k );
	if ( k == NULL ) return HYB_E_NO_MEMORY;
	k->base.kind = HYB_SIM_OP_FN;
	k->base.fn   = hyb_sim_csr_fn;
	k->base.prec = prec;
	k->base.m    = rows;
	k->base.a    = col;
	k->base.lda  = base;
	k->p0 = ptr, k->p1 = val, k->p2 = x, k->out = y, k->flag = accumulate;
	k->base.cost = hyb_sim_env.sim_latency;
	st           = hyb_sim_enqueue( ctx, stream, &k->base );
	return st;
}

static hyb_status_t hyb_sim_vadd_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, const void* z,
                                    void* y )
{
	return hyb_sim_kernel( ctx, stream, hyb_sim_vadd_fn, prec, n, 0, z, NULL, NULL, y, 0, (double)n * 24 );
}

static hyb_status_t hyb_sim_gtsv_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, int64_t nrhs,
                                    const void* dl, const void* d, const void* du, void* b, int64_t ldb, int64_t m )
{
	(void)m; /* the reference solve is exact */
	hyb_sim_kop_t* k = calloc( 1, sizeof *k );
	if ( k == NULL ) return HYB_E_NO_MEMORY;
	k->base.kind = HYB_SIM_OP_FN;
	k->base.fn   = hyb_sim_gtsv_fn;
	k->base.prec = prec;
	k->base.m = n, k->base.n = nrhs, k->base.ldb = ldb;
	k->p0 = dl, k->p1 = d, k->p2 = du, k->out = b;
	k->base.cost = hyb_sim_env.sim_latency +
	               ( hyb_sim_env.sim_bw > 0 ? (double)n * (double)( 4 + nrhs ) * 8 / hyb_sim_env.sim_bw : 0 );
	return hyb_sim_enqueue( ctx, stream, &k->base );
}

/* The simulated kernel uses the partition rule (hyb_sim_gtsv_pivots), not the serial
   recurrence, so that tests see the restarts a real device makes. */
static hyb_status_t hyb_sim_pivots_q( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, const void* dl,
                                      const void* d, const void* du, void* out, double first, int64_t warm )
{
	if ( prec != HYB_PREC_S && prec != HYB_PREC_D ) return HYB_E_NOT_SUPPORTED;
	if ( n < 0 || warm < 1 || ( n >= 1 && ( d == NULL || out == NULL ) ) ||
	     ( n >= 2 && ( dl == NULL || du == NULL ) ) )
		return HYB_E_INVALID;
	hyb_sim_kop_t* k = calloc( 1, sizeof *k );
	if ( k == NULL ) return HYB_E_NO_MEMORY;
	k->base.kind = HYB_SIM_OP_FN;
	k->base.fn   = hyb_sim_pivots_fn;
	k->base.prec = prec;
	k->base.m = n, k->base.k = warm, k->base.alpha[0] = first;
	k->p0 = dl, k->p1 = d, k->p2 = du, k->out = out;
	/* Memory-bound: dl, d, du read (again over each restart), out written. */
	double rows  = (double)n * ( 1 + (double)warm / (double)hyb_sim_gtsv_pivots_part( warm ) );
	k->base.cost = hyb_sim_env.sim_latency +
	               ( hyb_sim_env.sim_bw > 0 ? rows * 4 * (double)hyb_prec_size( prec ) / hyb_sim_env.sim_bw : 0 );
	return hyb_sim_enqueue( ctx, stream, &k->base );
}

static const hyb_device_ops_t hyb_sim_ops = {
	.name            = "sim",
	.abi             = HYB_DEVICE_ABI,
	.init            = hyb_sim_init,
	.info            = hyb_sim_info,
	.ctx_create      = hyb_sim_ctx_create,
	.ctx_destroy     = hyb_sim_ctx_destroy,
	.mem_alloc       = hyb_sim_mem_alloc,
	.mem_free        = hyb_sim_mem_free,
	.host_alloc      = hyb_sim_host_alloc,
	.host_free       = hyb_sim_host_free,
	.host_register   = hyb_sim_host_register,
	.host_unregister = hyb_sim_host_unregister,
	.event_create    = hyb_sim_event_create,
	.event_destroy   = hyb_sim_event_destroy,
	.event_record    = hyb_sim_event_record,
	.stream_wait     = hyb_sim_stream_wait,
	.event_sync      = hyb_sim_event_sync,
	.event_query     = hyb_sim_event_query,
	.event_elapsed   = hyb_sim_event_elapsed,
	.stream_sync     = hyb_sim_stream_sync,
	.copy_h2d        = hyb_sim_copy,
	.copy_d2h        = hyb_sim_copy,
	.gemm            = hyb_sim_gemm_q,
	.trsm            = hyb_sim_trsm_q,
	.trmm            = hyb_sim_trmm_q,
	.spmv_ell        = hyb_sim_ell_q,
	.spmv_dia        = hyb_sim_dia_q,
	.spmv_csr        = hyb_sim_csr_q,
	.vadd            = hyb_sim_vadd_q,
	.gtsv_spike      = hyb_sim_gtsv_q,
	.gtsv_pivots     = hyb_sim_pivots_q,
};

const hyb_device_ops_t* hyb_sim_device_ops( void )
{
	return &hyb_sim_ops;
}

