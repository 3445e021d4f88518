/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 device pipeline (see hyb_l3_pipeline.h). */
#define _GNU_SOURCE
#include "kernels/pipeline/hyb_l3_pipeline.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_copy.h"
#include "hyb_log.h"
#include "hyb_team.h"
#include "hyb_thread.h"
#include "kernels/hyb_device.h"
#include "kernels/l3/hyb_l3_kernels.h"

/* Staging buffers in flight each way: two would be double buffering; a third
   lets a host copy run while one DMA is queued and another executes. */
#define HYB_STAGE_IN  3
#define HYB_STAGE_OUT 3
/* Output tiles on the device: the issuer can run this many tiles ahead of
   the downloads, so that block loads for later tiles are not held back by
   the storer (at least 2: one computing, one draining). */
#define HYB_TILES     8
#define HYB_TILES_MIN 2
/* Copy teams spin through calls that copy at least this much (the gain was measured
   from n = 2048 up; small calls only risk losing a spinning worker's core). */
#define HYB_SPIN_MIN_BYTES ( 32.0 * 1048576 )
/* Storer queue: an entry waits for its download while it holds a tile
   buffer, then for its store while it holds an output staging buffer. */
#define HYB_QUEUE ( HYB_TILES + HYB_STAGE_OUT )

enum
{
	HYB_TASK_FREE = 0,
	HYB_TASK_TAKEN,
	HYB_TASK_DONE
};

/* Shared by every worker of one call. */
typedef struct
{
	const hyb_l3_work_t*      w;
	const hyb_l3_exec_opts_t* o;
	/* Band b's next task from the front (its home devices) and one past its next
	   from the back (devices that finished their own band): hyb_next_task. */
	_Atomic int           front[HYB_L3_MAX_BANDS];
	_Atomic int           back[HYB_L3_MAX_BANDS];
	_Atomic int*          state;      /* HYB_TASK_* per task */
	_Atomic int           error;      /* first device error */
	int                   reg[2];     /* operands a, b registered for direct DMA */
	hyb_dev_t*            regdev;     /* device 0's context that registered them, or NULL */
	double                load_share; /* of the host copy work: load1's (hyb_load_share) */
	double                copy_bytes; /* staged and stored, an update counted 1.5 times */
	pthread_mutex_t       stat_mu;
	hyb_l3_exec_report_t* r;
} hyb_run_t;

/* Kept with a device context across calls: the copy teams, the storer
   thread and the events, so that a call pays for none of their creation. */
typedef struct hyb_worker_s hyb_worker_t;

typedef struct
{
	int t, b; /* task and its device tile buffer */
	int o;    /* output staging buffer once its download is issued, else -1 */
} hyb_out_item_t;

typedef struct
{
	hyb_dev_t*  dev;
	hyb_team_t* in;  /* this call's load1 team */
	hyb_team_t* out; /* this call's store2 team */
	int         threads;
	/* The copy threads of a call, threads + threads / 2 in all, are divided
	   between load1 and store2 by the bytes each moves (hyb_split_threads):
	   teams[side] (the issuer or the storer and up to total - 1 workers) is
	   made on first use with total - 1 workers and kept; a call uses the part
	   of it its share needs (hyb_team_use), so a context never holds more
	   than 2 (total - 1) copy workers whatever the shares of its calls. */
	int         total;
	hyb_team_t* teams[2];

	/* The storer: issues each finished tile's download (store1) as soon as
	   an output staging buffer is free, and copies downloaded tiles into
	   place (store2), in task order. Items of one call at a time. */
	pthread_t       storer;
	int             storer_up;
	pthread_mutex_t mu;
	pthread_cond_t  cv;
	hyb_out_item_t  queue[HYB_QUEUE];
	int             qhead, qlen, busy, quit;
	hyb_worker_t*   owner;

	hyb_devent_t** evs;
	int            nevs;
} hyb_engine_t;

static void* hyb_storer_main( void* arg );

static void hyb_engine_free( void* p )
{
	hyb_engine_t* e = p;
	if ( e->storer_up )
	{
		pthread_mutex_lock( &e->mu );
		e->quit = 1;
		pthread_cond_broadcast( &e->cv );
		pthread_mutex_unlock( &e->mu );
		pthread_join( e->storer, NULL );
	}
	for ( int i = 0; i < e->nevs; i++ ) hyb_dev_event_destroy( e->dev, e->evs[i] );
	free( e->evs );
	for ( int side = 0; side < 2; side++ ) hyb_team_destroy( e->teams[side] );
	pthread_mutex_destroy( &e->mu );
	pthread_cond_destroy( &e->cv );
	free( e );
}

static hyb_engine_t* hyb_engine_get( hyb_dev_t* d, int threads )
{
	/* The slot may hold another pipeline's state: release it through its
	   own destructor. */
	if ( d->engine && d->engine_free != hyb_engine_free )
	{
		d->engine_free( d->engine );
		d->engine = NULL;
	}
	hyb_engine_t* e = d->engine;
	if ( e && e->threads == threads ) return e;
	if ( e ) hyb_engine_free( e );
	d->engine = e = calloc( 1, sizeof *e );
	if ( e == NULL ) return NULL;
	d->engine_free = hyb_engine_free;
	e->dev         = d;
	pthread_mutex_init( &e->mu, NULL );
	pthread_cond_init( &e->cv, NULL );
	e->threads   = threads;
	e->total     = threads + threads / 2 > 2 ? threads + threads / 2 : 2;
	e->storer_up = hyb_thread_create( &e->storer, NULL, hyb_storer_main, e ) == 0;
	if ( !e->storer_up )
	{
		hyb_engine_free( e );
		d->engine = NULL;
		return NULL;
	}
	return e;
}

/* The team for `side` (0 load1, 1 store2) set to run on `size` threads; NULL (the
   caller copies alone) for a size of 1 or when threads cannot be made. */
static hyb_team_t* hyb_engine_team( hyb_engine_t* e, int side, int size )
{
	if ( size < 2 ) return NULL;
	if ( e->teams[side] == NULL ) e->teams[side] = hyb_team_create( e->total - 1 );
	hyb_team_use( e->teams[side], size );
	return e->teams[side];
}

/* At least n events, kept across calls (an event is only ever waited on
   after this call recorded it). */
static hyb_status_t hyb_engine_events( hyb_engine_t* e, int n )
{
	if ( n <= e->nevs ) return HYB_OK;
	hyb_devent_t** grown = realloc( e->evs, (size_t)n * sizeof *grown );
	if ( grown == NULL ) return HYB_E_NO_MEMORY;
	e->evs = grown;
	while ( e->nevs < n )
	{
		hyb_status_t st = hyb_dev_event_create( e->dev, &e->evs[e->nevs] );
		if ( st != HYB_OK ) return st;
		e->nevs++;
	}
	return HYB_OK;
}

static void hyb_team_copy( hyb_team_t* t, int64_t n, size_t bytes,
                           void ( *fn )( void*, int64_t, int64_t ), void* arg )
{
	if ( bytes < HYB_COPY_TEAM_MIN )
		fn( arg, 0, n );
	else
		hyb_team_run( t, n, fn, arg );
}

/* ------------------------------------------------------------ host copies */

typedef struct
{
	const hyb_l3_args_t* a;
	const hyb_blk_t*     blk;
	const void*          src; /* the operand */
	int64_t              ld;
	void*                dst; /* dense, leading dimension = rows */
	size_t               es;
	size_t               piece; /* contiguous copies: bytes per piece */
} hyb_load_t;

/* A rectangle of whole columns is one contiguous range: it is copied in
   pieces of about this size, whatever its column length, but small enough
   to give every thread of the team a few pieces (a 4 MiB group in 1 MiB
   pieces kept half of an 8-thread team idle). */
#define HYB_COPY_PIECE_MAX ( (size_t)1 << 20 )
#define HYB_COPY_PIECE_MIN ( (size_t)64 << 10 )

static size_t hyb_piece_for( size_t bytes, int threads )
{
	size_t piece = bytes / ( 2 * (size_t)threads );
	piece        = piece / 4096 * 4096;
	if ( piece > HYB_COPY_PIECE_MAX ) piece = HYB_COPY_PIECE_MAX;
	if ( piece < HYB_COPY_PIECE_MIN ) piece = HYB_COPY_PIECE_MIN;
	return piece;
}

static int hyb_contiguous( int64_t rows, int64_t ld )
{
	return rows == ld;
}

static void hyb_load_contiguous( void* p, int64_t b, int64_t e )
{
	hyb_load_t*      L = p;
	const hyb_blk_t* k = L->blk;
	hyb_copy_pieces( L->dst, (const char*)L->src + (size_t)k->c0 * (size_t)L->ld * L->es,
	                 (size_t)k->rows * (size_t)k->cols * L->es, L->piece, b, e );
}

/* load1 of a plain rectangle into dense staging, with the team when large. */
static void hyb_load_run( hyb_team_t* team, hyb_load_t* L );

/* Columns [b, e) of a plain rectangle (and, for HYB_BLK_C_HERM, the
   imaginary part of each diagonal element it holds set to 0). */
static void hyb_load_plain( void* p, int64_t b, int64_t e )
{
	hyb_load_t*      L   = p;
	const hyb_blk_t* k   = L->blk;
	size_t           col = (size_t)k->rows * L->es;
	for ( int64_t j = b; j < e; j++ )
	{
		char* d = (char*)L->dst + (size_t)j * col;
		hyb_copy_stream( d,
		                 (const char*)L->src +
		                     ( (size_t)k->r0 + (size_t)( k->c0 + j ) * (size_t)L->ld ) * L->es,
		                 col );
		int64_t diag = k->c0 + j - k->r0; /* the row of column j's diagonal element */
		if ( k->transform == HYB_BLK_C_HERM && diag >= 0 && diag < k->rows )
		{
			char* im = d + (size_t)diag * L->es + L->es / 2;
			memset( im, 0, L->es / 2 );
		}
	}
	hyb_copy_fence(); /* the DMA engine reads this next */
}

/* Columns [b, e) of a rectangle of the full symmetric (Hermitian) matrix
   whose `uplo` triangle is stored: element (r, c) outside the triangle is
   element (c, r), conjugated for Hermitian; a Hermitian diagonal is real. */
static void hyb_load_sym( void* p, int64_t b, int64_t e )
{
	hyb_load_t*      L    = p;
	const hyb_blk_t* k    = L->blk;
	int              up   = L->a->uplo == 'U';
	int              herm = k->transform == HYB_BLK_HERM;
	size_t           es   = L->es;
	for ( int64_t j = b; j < e; j++ )
	{
		int64_t c = k->c0 + j;
		char*   d = (char*)L->dst + (size_t)j * (size_t)k->rows * es;
		for ( int64_t i = 0; i < k->rows; i++ )
		{
			int64_t     r      = k->r0 + i;
			int         stored = up ? r <= c : r >= c;
			const char* s =
			    (const char*)L->src + ( stored ? (size_t)r + (size_t)c * (size_t)L->ld
			                                   : (size_t)c + (size_t)r * (size_t)L->ld ) *
			                              es;
			memcpy( d + (size_t)i * es, s, es );
			if ( herm && ( !stored || r == c ) )
			{
				/* Negate (or, on the diagonal, zero) the imaginary part. */
				if ( es == 8 )
				{
					float* im = (float*)( d + (size_t)i * es ) + 1;
					*im       = r == c ? 0.0f : -*im;
				}
				else
				{
					double* im = (double*)( d + (size_t)i * es ) + 1;
					*im        = r == c ? 0.0 : -*im;
				}
			}
		}
	}
}

static void hyb_load_run( hyb_team_t* team, hyb_load_t* L )
{
	const hyb_blk_t* k     = L->blk;
	size_t           bytes = (size_t)k->rows * (size_t)k->cols * L->es;
	if ( k->transform == HYB_BLK_SYM || k->transform == HYB_BLK_HERM )
		hyb_team_copy( team, k->cols, bytes, hyb_load_sym, L );
	else if ( k->transform == HYB_BLK_PLAIN && hyb_contiguous( k->rows, L->ld ) )
	{
		L->piece = hyb_piece_for( bytes, hyb_team_size( team ) );
		hyb_team_copy( team, (int64_t)( ( bytes + L->piece - 1 ) / L->piece ), bytes,
		               hyb_load_contiguous, L );
	}
	else
		hyb_team_copy( team, k->cols, bytes, hyb_load_plain, L );
}

typedef struct
{
	const hyb_task_t* t;
	const void*       src; /* staging, dense */
	void*             out; /* the application's output */
	int64_t           ld;
	size_t            es;
	size_t            piece; /* contiguous copies: bytes per piece */
	hyb_prec_t        prec;
	const double*     beta; /* the tile's beta_host: out = beta out + src; else NULL */
} hyb_store_t;

/* `bytes` of a tile from staging into the output: a copy, or the update
   that applies beta on the host. */
static void hyb_store_span( const hyb_store_t* S, char* dst, const char* src, size_t bytes )
{
	if ( S->beta )
		hyb_copy_update( dst, src, bytes / S->es, S->prec, S->beta );
	else
		hyb_copy_stream( dst, src, bytes );
}

static void hyb_store_contiguous( void* p, int64_t b, int64_t e )
{
	hyb_store_t*      S     = p;
	const hyb_task_t* t     = S->t;
	size_t            total = (size_t)t->rows * (size_t)t->cols * S->es;
	size_t            lo = (size_t)b * S->piece, hi = (size_t)e * S->piece;
	if ( hi > total ) hi = total;
	if ( hi > lo )
		hyb_store_span( S, (char*)S->out + (size_t)t->c0 * (size_t)S->ld * S->es + lo,
		                (const char*)S->src + lo, hi - lo );
	hyb_copy_fence();
}

/* Columns [b, e) of a tile back into the output, inside its mask. */
static void hyb_store_cols( void* p, int64_t b, int64_t e )
{
	hyb_store_t*      S  = p;
	const hyb_task_t* t  = S->t;
	size_t            es = S->es;
	for ( int64_t j = b; j < e; j++ )
	{
		int64_t c  = t->c0 + j;
		int64_t lo = 0, hi = t->rows; /* tile rows to write */
		if ( t->mask == HYB_MASK_UPPER )
			hi = c - t->r0 + 1 < hi ? c - t->r0 + 1 : hi;
		else if ( t->mask == HYB_MASK_LOWER )
			lo = c - t->r0 > 0 ? c - t->r0 : 0;
		if ( hi <= lo ) continue;
		char*       d = (char*)S->out + ( (size_t)( t->r0 + lo ) + (size_t)c * (size_t)S->ld ) * es;
		const char* s = (const char*)S->src + ( (size_t)j * (size_t)t->rows + (size_t)lo ) * es;
		hyb_store_span( S, d, s, (size_t)( hi - lo ) * es );
		if ( t->herm_diag && c >= t->r0 && c < t->r0 + t->rows )
		{
			char* diag = (char*)S->out + ( (size_t)c + (size_t)c * (size_t)S->ld ) * es;
			if ( es == 8 )
				( (float*)diag )[1] = 0.0f;
			else
				( (double*)diag )[1] = 0.0;
		}
	}
	hyb_copy_fence(); /* the caller returns the output to the application */
}

/* ------------------------------------------------------------ one device */

struct hyb_worker_s
{
	hyb_run_t*    run;
	hyb_dev_t*    d;
	hyb_engine_t* eng;
	int           index;
	int           borrowed; /* d is the run's regdev: released by the run, not the worker */

	/* device memory */
	char*    slots;
	int      nslots;
	size_t   slot_bytes;
	char*    tiles; /* HYB_TILES tiles (x2 for trmm: in and out) */
	size_t   tile_bytes;
	int*     blk_slot; /* per block: its slot or -1 */
	int*     slot_blk; /* per slot: its block or -1 */
	int64_t* slot_lru;
	int64_t* slot_pin; /* stamp of the product that needs it now */
	int *    slot_used, *slot_loaded;
	int64_t  clock;

	/* host staging */
	char*  stage_in[HYB_STAGE_IN];
	int    stage_in_busy[HYB_STAGE_IN];
	size_t stage_in_bytes;
	char*  stage_out[HYB_STAGE_OUT];
	int    next_in, next_tile, ntiles;
	int    tile_used[HYB_TILES];  /* issuer: the tile was used in this call */
	int    tile_ready[HYB_TILES]; /* engine lock: its last download is issued */

	hyb_devent_t **ev_loaded, **ev_used;
	hyb_devent_t*  ev_stage_in[HYB_STAGE_IN];
	hyb_devent_t*  ev_tile_in[HYB_TILES];
	hyb_devent_t*  ev_tile_done[HYB_TILES];
	hyb_devent_t*  ev_tile_free[HYB_TILES];
	hyb_devent_t*  ev_out[HYB_STAGE_OUT];

	int         out_free[HYB_STAGE_OUT]; /* storer only */
	_Atomic int failed;                  /* this device failed: store nothing more */
	double      t_load1, t_store2, t_wait, bytes_h2d, bytes_d2h;
	int         stored;
};

static hyb_status_t hyb_fail( hyb_worker_t* k, hyb_status_t st )
{
	int expected = HYB_OK;
	atomic_compare_exchange_strong( &k->run->error, &expected, (int)st );
	atomic_store( &k->failed, 1 );
	return st;
}

static const void* hyb_mat( const hyb_l3_args_t* a, int mat, int64_t* ld )
{
	*ld = mat == 0 ? a->lda : a->ldb;
	return mat == 0 ? a->a : a->b;
}

/* A free staging-in buffer: the DMA that last read it must be done. */
static hyb_status_t hyb_stage_in_take( hyb_worker_t* k, int* idx )
{
	int i      = k->next_in;
	k->next_in = ( i + 1 ) % HYB_STAGE_IN;
	if ( k->stage_in_busy[i] )
	{
		double       t0 = hyb_now();
		hyb_status_t st = hyb_dev_sync( k->d, k->ev_stage_in[i] );
		k->t_wait += hyb_now() - t0;
		if ( st != HYB_OK ) return st;
	}
	*idx = i;
	return HYB_OK;
}

/* Columns copied per DMA when a staged block is sent: load1 of the next
   group overlaps load2 of this one, so a block reaches the device about as
   soon as its last group is copied. */
#define HYB_SEND_GROUP ( (size_t)4 << 20 )

/* load1 + load2 of rectangle `r` of operand `src` (leading dimension ld)
   into dense device memory `dst` (leading dimension r->rows), through a
   staging buffer, in column groups. */
static hyb_status_t hyb_stage_send( hyb_worker_t* k, const hyb_blk_t* r, const void* src,
                                    int64_t ld, void* dst )
{
	size_t       es  = hyb_prec_size( k->run->w->args.prec );
	size_t       col = (size_t)r->rows * es;
	int64_t      g   = col >= HYB_SEND_GROUP ? 1 : (int64_t)( HYB_SEND_GROUP / col );
	int          i;
	hyb_status_t st = hyb_stage_in_take( k, &i );
	if ( st != HYB_OK ) return st;
	for ( int64_t c = 0; c < r->cols && st == HYB_OK; c += g )
	{
		hyb_blk_t sub = *r;
		sub.c0 += c;
		sub.cols      = r->cols - c < g ? r->cols - c : g;
		char*      at = k->stage_in[i] + (size_t)c * col;
		hyb_load_t L  = { &k->run->w->args, &sub, src, ld, at, es, 0 };
		double     t0 = hyb_now();
		hyb_load_run( k->eng->in, &L );
		k->t_load1 += hyb_now() - t0;
		st = hyb_dev_h2d( k->d, HYB_STREAM_H2D, (char*)dst + (size_t)c * col, col, at, col, col,
		                  (size_t)sub.cols );
	}
	if ( st == HYB_OK ) st = hyb_dev_record( k->d, HYB_STREAM_H2D, k->ev_stage_in[i] );
	k->stage_in_busy[i] = 1;
	k->bytes_h2d += (double)col * (double)r->cols;
	return st;
}

/* load1 + load2 of block `b` into slot `s`. */
static hyb_status_t hyb_load_block( hyb_worker_t* k, int b, int s )
{
	const hyb_l3_work_t* w   = k->run->w;
	const hyb_blk_t*     blk = &w->blks[b];
	size_t               es  = hyb_prec_size( w->args.prec );
	int64_t              ld;
	const void*          src   = hyb_mat( &w->args, blk->mat, &ld );
	void*                dslot = k->slots + (size_t)s * k->slot_bytes;
	size_t               width = (size_t)blk->rows * es;
	hyb_status_t         st;
	if ( blk->transform == HYB_BLK_PLAIN && k->run->reg[blk->mat] )
	{
		/* Registered pages: the DMA reads the application's memory. */
		const char* from =
		    (const char*)src + ( (size_t)blk->r0 + (size_t)blk->c0 * (size_t)ld ) * es;
		st = hyb_dev_h2d( k->d, HYB_STREAM_H2D, dslot, width, from, (size_t)ld * es, width,
		                  (size_t)blk->cols );
		k->bytes_h2d += (double)width * (double)blk->cols;
	}
	else
		st = hyb_stage_send( k, blk, src, ld, dslot );
	if ( st == HYB_OK ) st = hyb_dev_record( k->d, HYB_STREAM_H2D, k->ev_loaded[s] );
	k->slot_loaded[s] = 1;
	return st;
}

/* Make block `b` resident for the product stamped `pin`; returns its slot in
   *slot. The victim is a free slot, else the least recently used one not
   needed by the same product. */
static hyb_status_t hyb_ensure_block( hyb_worker_t* k, int64_t pin, int b, int* slot )
{
	int s = k->blk_slot[b];
	if ( s < 0 )
	{
		int     victim = -1;
		int64_t best   = INT64_MAX;
		for ( int i = 0; i < k->nslots; i++ )
		{
			if ( k->slot_blk[i] < 0 )
			{
				victim = i;
				break;
			}
			if ( k->slot_pin[i] != pin && k->slot_lru[i] < best ) best = k->slot_lru[i], victim = i;
		}
		if ( victim < 0 ) return HYB_E_NO_MEMORY; /* cannot happen: nslots >= 2 */
		s = victim;
		if ( k->slot_blk[s] >= 0 )
		{
			/* The products that read the old block must be done first. */
			double       t0 = hyb_now();
			hyb_status_t st =
			    hyb_dev_sync( k->d, k->slot_used[s] ? k->ev_used[s] : k->ev_loaded[s] );
			k->t_wait += hyb_now() - t0;
			if ( st != HYB_OK ) return st;
			k->blk_slot[k->slot_blk[s]] = -1;
			k->slot_used[s]             = 0;
		}
		k->slot_blk[s]  = b;
		k->blk_slot[b]  = s;
		hyb_status_t st = hyb_load_block( k, b, s );
		if ( st != HYB_OK ) return st;
	}
	k->slot_lru[s] = pin;
	k->slot_pin[s] = pin;
	*slot          = s;
	return HYB_OK;
}

static void* hyb_storer_main( void* arg );

/* Issue task t: optional tile upload, then for each product its blocks and
   the product itself, then the download. Blocks are made resident one
   product at a time, so two slots (four for rank-2k) always suffice. */
static hyb_status_t hyb_issue( hyb_worker_t* k, int t )
{
	const hyb_l3_work_t* w    = k->run->w;
	const hyb_l3_args_t* a    = &w->args;
	const hyb_task_t*    tk   = &w->tasks[t];
	int                  b    = k->next_tile;
	int                  trmm = a->op == HYB_OP_TRMM;
	hyb_engine_t*        e    = k->eng;
	k->next_tile              = ( b + 1 ) % k->ntiles;

	/* The tile buffer's previous download must at least be queued on the
	   device (the storer does that) before anything is ordered after it. */
	double tw = hyb_now();
	pthread_mutex_lock( &e->mu );
	while ( !k->tile_ready[b] ) pthread_cond_wait( &e->cv, &e->mu );
	k->tile_ready[b] = 0;
	pthread_mutex_unlock( &e->mu );
	k->t_wait += hyb_now() - tw;
	char*        tile = k->tiles + (size_t)b * k->tile_bytes * ( trmm ? 2 : 1 );
	char*        tout = trmm ? tile + k->tile_bytes : tile;
	int64_t      ldo;
	char*        out = hyb_l3_out( a, &ldo );
	hyb_status_t st  = HYB_OK;

	if ( tk->load_c )
	{
		if ( k->tile_used[b] &&
		     ( st = hyb_dev_wait( k->d, HYB_STREAM_H2D, k->ev_tile_free[b] ) ) != HYB_OK )
			return st;
		hyb_blk_t region = { 2,        tk->herm_diag ? HYB_BLK_C_HERM : HYB_BLK_PLAIN,
			                 tk->r0,   tk->c0,
			                 tk->rows, tk->cols };
		st               = hyb_stage_send( k, &region, out, ldo, tile );
		if ( st == HYB_OK ) st = hyb_dev_record( k->d, HYB_STREAM_H2D, k->ev_tile_in[b] );
		if ( st != HYB_OK ) return st;
		st = hyb_dev_wait( k->d, HYB_STREAM_COMPUTE, k->ev_tile_in[b] );
	}
	else if ( k->tile_used[b] )
		st = hyb_dev_wait( k->d, HYB_STREAM_COMPUTE, k->ev_tile_free[b] );
	if ( st != HYB_OK ) return st;

	/* load1 + load2 of each product's blocks, then mult1. */
	for ( int i = 0; i < tk->nops; i++ )
	{
		const hyb_top_t* op      = &w->ops[tk->first_op + i];
		int              blks[2] = { op->blk_a, op->blk_b };
		int              sl[2]   = { -1, -1 };
		int64_t          pin     = ++k->clock;
		for ( int q = 0; q < 2; q++ )
		{
			if ( blks[q] < 0 ) continue;
			if ( ( st = hyb_ensure_block( k, pin, blks[q], &sl[q] ) ) != HYB_OK ) return st;
			if ( ( st = hyb_dev_wait( k->d, HYB_STREAM_COMPUTE, k->ev_loaded[sl[q]] ) ) != HYB_OK )
				return st;
		}
		const char* A   = k->slots + (size_t)sl[0] * k->slot_bytes;
		int64_t     lda = w->blks[op->blk_a].rows;
		if ( op->kind == HYB_TOP_GEMM )
		{
			const char* B   = k->slots + (size_t)sl[1] * k->slot_bytes;
			int64_t     ldb = w->blks[op->blk_b].rows;
			st = hyb_dev_gemm( k->d, HYB_STREAM_COMPUTE, a->prec, op->ta, op->tb, op->m, op->n,
			                   op->k, op->alpha, A, lda, B, ldb, op->beta, tile, tk->rows );
		}
		else if ( op->kind == HYB_TOP_TRSM )
			st = hyb_dev_trsm( k->d, HYB_STREAM_COMPUTE, a->prec, a->side, a->uplo, a->transa,
			                   a->diag, op->m, op->n, op->alpha, A, lda, tile, tk->rows );
		else
			st = hyb_dev_trmm( k->d, HYB_STREAM_COMPUTE, a->prec, a->side, a->uplo, a->transa,
			                   a->diag, op->m, op->n, op->alpha, A, lda, tile, tk->rows, tout,
			                   tk->rows );
		if ( st != HYB_OK ) return st;
		for ( int q = 0; q < 2; q++ )
		{
			if ( sl[q] < 0 ) continue;
			if ( ( st = hyb_dev_record( k->d, HYB_STREAM_COMPUTE, k->ev_used[sl[q]] ) ) != HYB_OK )
				return st;
			k->slot_used[sl[q]] = 1;
		}
	}
	if ( ( st = hyb_dev_record( k->d, HYB_STREAM_COMPUTE, k->ev_tile_done[b] ) ) != HYB_OK )
		return st;

	k->tile_used[b] = 1;

	/* Hand the tile to the storer, which downloads and stores it. */
	pthread_mutex_lock( &e->mu );
	e->queue[( e->qhead + e->qlen ) % HYB_QUEUE] = ( hyb_out_item_t ){ t, b, -1 };
	e->qlen++;
	pthread_cond_broadcast( &e->cv );
	pthread_mutex_unlock( &e->mu );
	return HYB_OK;
}

/* Issue the download (store1) of queue entry `it` into output staging buffer
   o. Called by the storer with the engine lock released. */
static hyb_status_t hyb_store1( hyb_worker_t* k, const hyb_out_item_t* it, int o )
{
	const hyb_task_t* tk    = &k->run->w->tasks[it->t];
	size_t            es    = hyb_prec_size( k->run->w->args.prec );
	size_t            width = (size_t)tk->rows * es;
	int               trmm  = k->run->w->args.op == HYB_OP_TRMM;
	char*             tile =
	    k->tiles + (size_t)it->b * k->tile_bytes * ( trmm ? 2 : 1 ) + ( trmm ? k->tile_bytes : 0 );
	hyb_status_t st = hyb_dev_wait( k->d, HYB_STREAM_D2H, k->ev_tile_done[it->b] );
	if ( st == HYB_OK )
		st = hyb_dev_d2h( k->d, HYB_STREAM_D2H, k->stage_out[o], width, tile, width, width,
		                  (size_t)tk->cols );
	if ( st == HYB_OK ) st = hyb_dev_record( k->d, HYB_STREAM_D2H, k->ev_out[o] );
	if ( st == HYB_OK ) st = hyb_dev_record( k->d, HYB_STREAM_D2H, k->ev_tile_free[it->b] );
	k->bytes_d2h += (double)width * (double)tk->cols;
	return st;
}

/* The storer: runs for the life of the context and serves the call that
   owns the context now. It keeps up to HYB_STAGE_OUT downloads in flight
   (issued as soon as a staging buffer is free) and stores the oldest one
   when it has arrived, so downloads, host copies and products overlap. */
static void* hyb_storer_main( void* arg )
{
	hyb_engine_t* e = arg;
	pthread_mutex_lock( &e->mu );
	for ( ;; )
	{
		while ( e->qlen == 0 && !e->quit ) pthread_cond_wait( &e->cv, &e->mu );
		if ( e->qlen == 0 ) break;
		hyb_worker_t* k = e->owner;
		e->busy         = 1;

		/* store1 for every queued tile that can get a staging buffer. */
		for ( int q = 0; q < e->qlen; q++ )
		{
			hyb_out_item_t* it = &e->queue[( e->qhead + q ) % HYB_QUEUE];
			if ( it->o >= 0 ) continue;
			int o = -1;
			for ( int i = 0; i < HYB_STAGE_OUT && o < 0; i++ )
				if ( k->out_free[i] ) o = i;
			if ( o < 0 ) break;
			k->out_free[o]      = 0;
			it->o               = o;
			hyb_out_item_t copy = *it;
			pthread_mutex_unlock( &e->mu );
			hyb_status_t st = hyb_store1( k, &copy, o );
			if ( st != HYB_OK ) hyb_fail( k, st );
			pthread_mutex_lock( &e->mu );
			/* Whatever happened, the issuer may order work after this point. */
			k->tile_ready[copy.b] = 1;
			pthread_cond_broadcast( &e->cv );
		}

		/* store2 of the oldest tile. */
		hyb_out_item_t it = e->queue[e->qhead];
		pthread_mutex_unlock( &e->mu );
		const hyb_l3_work_t* w = k->run->w;
		int64_t              ldo;
		void*                out = hyb_l3_out( &w->args, &ldo );
		hyb_status_t         st  = hyb_dev_sync( k->d, k->ev_out[it.o] );
		if ( st == HYB_OK && !atomic_load( &k->failed ) )
		{
			const hyb_task_t* tk    = &w->tasks[it.t];
			hyb_store_t       S     = { tk,
				                        k->stage_out[it.o],
				                        out,
				                        ldo,
				                        hyb_prec_size( w->args.prec ),
				                        0,
				                        w->args.prec,
                              tk->beta_host ? w->args.beta : NULL };
			double            t0    = hyb_now();
			size_t            bytes = (size_t)tk->rows * (size_t)tk->cols * S.es;
			if ( tk->mask == HYB_MASK_FULL && !tk->herm_diag && hyb_contiguous( tk->rows, ldo ) )
			{
				S.piece = hyb_piece_for( bytes, hyb_team_size( e->out ) );
				hyb_team_copy( e->out, (int64_t)( ( bytes + S.piece - 1 ) / S.piece ), bytes,
				               hyb_store_contiguous, &S );
			}
			else
				hyb_team_copy( e->out, tk->cols, bytes, hyb_store_cols, &S );
			k->t_store2 += hyb_now() - t0;
			atomic_store( &k->run->state[it.t], HYB_TASK_DONE );
			k->stored++;
		}
		else if ( st != HYB_OK )
			hyb_fail( k, st );

		pthread_mutex_lock( &e->mu );
		k->out_free[it.o] = 1;
		e->qhead          = ( e->qhead + 1 ) % HYB_QUEUE;
		e->qlen--;
		e->busy = 0;
		pthread_cond_broadcast( &e->cv );
	}
	pthread_mutex_unlock( &e->mu );
	return NULL;
}

/* Lay out device memory: as many block slots as the budget holds (every
   block, if they fit: then each is loaded once), at least 2 per product. */
static hyb_status_t hyb_worker_memory( hyb_worker_t* k )
{
	const hyb_l3_work_t* w   = k->run->w;
	int                  per = w->args.op == HYB_OP_TRMM ? 2 : 1;
	k->slot_bytes            = ( w->slot_bytes + 255 ) & ~(size_t)255;
	k->tile_bytes            = ( w->tile_bytes + 255 ) & ~(size_t)255;
	double budget            = hyb_dev_budget( k->index ) * 0.97;
	int    least             = 2 < w->nblks ? 2 : w->nblks;
	/* As many tile buffers as fit beside the minimum of block slots. */
	k->ntiles = HYB_TILES;
	while ( k->ntiles > HYB_TILES_MIN &&
	        (double)k->ntiles * per * (double)k->tile_bytes + least * (double)k->slot_bytes >
	            budget )
		k->ntiles--;
	size_t tiles = (size_t)k->ntiles * (size_t)per * k->tile_bytes;
	int    want  = w->nblks;
	int    most  = (int)( ( budget - (double)tiles ) / (double)k->slot_bytes );
	if ( want > most ) want = most;
	if ( want < least ) return HYB_E_NO_MEMORY;
	void*        ws = NULL;
	hyb_status_t st;
	for ( ;; )
	{
		st = hyb_dev_workspace( k->d, tiles + (size_t)want * k->slot_bytes, &ws );
		if ( st != HYB_E_NO_MEMORY || want == least ) break;
		want = want / 2 > least ? want / 2 : least;
	}
	if ( st != HYB_OK ) return st;
	k->tiles  = ws;
	k->slots  = (char*)ws + tiles;
	k->nslots = want;

	k->stage_in_bytes = k->slot_bytes > k->tile_bytes ? k->slot_bytes : k->tile_bytes;
	void* hs          = NULL;
	st = hyb_dev_staging( k->d, HYB_STAGE_IN * k->stage_in_bytes + HYB_STAGE_OUT * k->tile_bytes,
	                      &hs );
	if ( st != HYB_OK ) return st;
	for ( int i = 0; i < HYB_STAGE_IN; i++ )
		k->stage_in[i] = (char*)hs + (size_t)i * k->stage_in_bytes;
	for ( int i = 0; i < HYB_STAGE_OUT; i++ )
		k->stage_out[i] = (char*)hs + HYB_STAGE_IN * k->stage_in_bytes + (size_t)i * k->tile_bytes;
	return HYB_OK;
}

static hyb_status_t hyb_worker_setup( hyb_worker_t* k )
{
	const hyb_l3_work_t* w  = k->run->w;
	hyb_status_t         st = hyb_worker_memory( k );
	if ( st != HYB_OK ) return st;
	k->blk_slot    = malloc( (size_t)w->nblks * sizeof *k->blk_slot );
	k->slot_blk    = malloc( (size_t)k->nslots * sizeof *k->slot_blk );
	k->slot_lru    = calloc( (size_t)k->nslots, sizeof *k->slot_lru );
	k->slot_pin    = calloc( (size_t)k->nslots, sizeof *k->slot_pin );
	k->slot_used   = calloc( (size_t)k->nslots, sizeof *k->slot_used );
	k->slot_loaded = calloc( (size_t)k->nslots, sizeof *k->slot_loaded );
	if ( !k->blk_slot || !k->slot_blk || !k->slot_lru || !k->slot_pin || !k->slot_used ||
	     !k->slot_loaded )
		return HYB_E_NO_MEMORY;
	for ( int i = 0; i < w->nblks; i++ ) k->blk_slot[i] = -1;
	for ( int i = 0; i < k->nslots; i++ ) k->slot_blk[i] = -1;

	/* Events, from the context's cache, in this order. */
	int fixed = HYB_STAGE_IN + 3 * HYB_TILES + HYB_STAGE_OUT;
	if ( ( st = hyb_engine_events( k->eng, 2 * k->nslots + fixed ) ) != HYB_OK ) return st;
	hyb_devent_t** ev = k->eng->evs;
	for ( int i = 0; i < HYB_STAGE_IN; i++ ) k->ev_stage_in[i] = *ev++;
	for ( int i = 0; i < HYB_TILES; i++ ) k->ev_tile_in[i] = *ev++;
	for ( int i = 0; i < HYB_TILES; i++ ) k->ev_tile_done[i] = *ev++;
	for ( int i = 0; i < HYB_TILES; i++ ) k->ev_tile_free[i] = *ev++;
	for ( int i = 0; i < HYB_STAGE_OUT; i++ ) k->ev_out[i] = *ev++;
	k->ev_loaded = ev;
	k->ev_used   = ev + k->nslots;
	for ( int i = 0; i < HYB_STAGE_OUT; i++ ) k->out_free[i] = 1;
	for ( int i = 0; i < HYB_TILES; i++ ) k->tile_ready[i] = 1;
	return HYB_OK;
}

static void hyb_worker_teardown( hyb_worker_t* k )
{
	if ( k->d )
	{
		/* Nothing may still be copying into staging or device memory when the
		   context goes back to the pool. */
		for ( int s = 0; s < HYB_STREAM_COUNT; s++ ) hyb_dev_stream_sync( k->d, s );
		if ( !k->borrowed ) hyb_dev_release( k->d );
	}
	free( k->blk_slot );
	free( k->slot_blk );
	free( k->slot_lru );
	free( k->slot_pin );
	free( k->slot_used );
	free( k->slot_loaded );
}

/* load1's share of the call's host copying: the staged blocks (each once)
   and uploaded tiles against the stored tiles, an update that applies beta
   counted as 1.5 copies (it reads C as well: three bytes moved per byte
   where a copy moves two). Copies are bound by the threads that run them
   (gpu_probe_bus found that cores, not the memory bus, limit them), so the
   threads are divided in this proportion. */
static double hyb_load_share( const hyb_l3_work_t* w, const int reg[2], double* total )
{
	size_t es = hyb_prec_size( w->args.prec );
	double in = 0, out = 0;
	for ( int b = 0; b < w->nblks; b++ )
	{
		const hyb_blk_t* k = &w->blks[b];
		if ( !( k->transform == HYB_BLK_PLAIN && reg[k->mat] ) )
			in += (double)k->rows * (double)k->cols * (double)es;
	}
	for ( int t = 0; t < w->ntasks; t++ )
	{
		const hyb_task_t* tk    = &w->tasks[t];
		double            bytes = (double)tk->rows * (double)tk->cols * (double)es;
		if ( tk->load_c ) in += bytes;
		out += tk->beta_host ? 1.5 * bytes : bytes;
	}
	*total = in + out;
	return in + out > 0 ? in / ( in + out ) : 0.5;
}

/* Threads for load1 and store2 out of `total`, at least one each. */
static void hyb_split_threads( double load_share, int total, int* n_in, int* n_out )
{
	int in = (int)( load_share * total + 0.5 );
	if ( in > total - 1 ) in = total - 1;
	if ( in < 1 ) in = 1;
	*n_in  = in;
	*n_out = total - in;
}

/* Claim task t: 1 when this worker takes it, 0 when another one has. */
static int hyb_claim( hyb_run_t* R, int t )
{
	int free_task = HYB_TASK_FREE;
	return atomic_compare_exchange_strong( &R->state[t], &free_task, HYB_TASK_TAKEN );
}

/* The next task for a worker whose home band is `home`, or -1 when none is
   left: its own band from the front, in the band's order (the blocks of the
   band's tiles stay on its device), then the tasks left in the band with the
   most of them, from the back, so that a device that finishes first (or
   whose band-mate failed) takes over work without racing its owner for the
   same next task. Every task of a band is passed by the front cursor of its
   home workers unless they stop, and by the back cursor otherwise; the
   claim decides, so each runs once. */
static int hyb_next_task( hyb_run_t* R, int home )
{
	const hyb_l3_work_t* w = R->w;
	for ( ;; )
	{
		int t = atomic_fetch_add( &R->front[home], 1 );
		if ( t >= w->band_first[home + 1] ) break;
		if ( hyb_claim( R, t ) ) return t;
	}
	for ( ;; )
	{
		int best = -1, most = 0;
		for ( int b = 0; b < w->nbands; b++ )
		{
			int left = atomic_load( &R->back[b] ) - atomic_load( &R->front[b] );
			if ( left > most ) most = left, best = b;
		}
		if ( best < 0 ) return -1;
		int t = atomic_fetch_sub( &R->back[best], 1 ) - 1;
		if ( t >= w->band_first[best] && hyb_claim( R, t ) ) return t;
	}
}

static void* hyb_worker_main( void* arg )
{
	hyb_worker_t* k  = arg;
	hyb_run_t*    R  = k->run;
	double        t0 = hyb_now();
	/* Device 0's worker computes on the context that registered the operands, when it is
	   sound: an application thread then holds one context of a device, not two, and with
	   it one engine's threads (docs/architecture.md, "Threads"). */
	hyb_status_t st = HYB_OK;
	k->borrowed     = k->index == 0 && R->regdev && !atomic_load( &R->regdev->broken );
	if ( k->borrowed )
		k->d = R->regdev;
	else
		st = hyb_dev_acquire( k->index, &k->d );
	if ( st != HYB_OK )
	{
		k->d = NULL;
		hyb_fail( k, st );
		return NULL;
	}
	k->eng = hyb_engine_get( k->d, R->o->copy_threads );
	if ( k->eng == NULL ) st = HYB_E_NO_MEMORY;
	if ( st == HYB_OK ) st = hyb_worker_setup( k );
	if ( st == HYB_OK )
	{
		hyb_engine_t* e = k->eng;
		int           n_in, n_out;
		hyb_split_threads( R->load_share, e->total, &n_in, &n_out );
		pthread_mutex_lock( &e->mu );
		e->in    = hyb_engine_team( e, 0, n_in );
		e->out   = hyb_engine_team( e, 1, n_out );
		e->owner = k;
		pthread_mutex_unlock( &e->mu );
		/* Both copy teams spin through the call when no CPU share needs the cores: a team
		   woken from sleep for each block pays tens of microseconds a wake-up. Small calls
		   have few copies and gain nothing from it. */
		int hold_in = 0, hold_out = 0;
		if ( R->o->cpu_strip == NULL &&
		     ( R->o->team_spin == HYB_SPIN_ALWAYS ||
		       ( R->o->team_spin == HYB_SPIN_LARGE && R->copy_bytes >= HYB_SPIN_MIN_BYTES ) ) )
		{
			hold_in  = hyb_team_hold( e->in );
			hold_out = hyb_team_hold( e->out );
		}
		for ( ;; )
		{
			int t = hyb_next_task( R, k->index % R->w->nbands );
			if ( t < 0 ) break;
			st = hyb_issue( k, t );
			if ( st != HYB_OK ) break;
		}
		/* Wait until the storer has handled everything of this call. */
		pthread_mutex_lock( &e->mu );
		while ( e->qlen > 0 || e->busy ) pthread_cond_wait( &e->cv, &e->mu );
		e->owner = NULL;
		pthread_mutex_unlock( &e->mu );
		if ( hold_in ) hyb_team_release( e->in );
		if ( hold_out ) hyb_team_release( e->out );
	}
	if ( st != HYB_OK ) hyb_fail( k, st );
	hyb_worker_teardown( k );

	pthread_mutex_lock( &R->stat_mu );
	double dt = hyb_now() - t0;
	if ( dt > R->r->dev_seconds ) R->r->dev_seconds = dt;
	R->r->load1_seconds += k->t_load1;
	R->r->store2_seconds += k->t_store2;
	R->r->wait_seconds += k->t_wait;
	R->r->bytes_h2d += k->bytes_h2d;
	R->r->bytes_d2h += k->bytes_d2h;
	R->r->tasks_dev += k->stored;
	pthread_mutex_unlock( &R->stat_mu );
	return NULL;
}

/* ------------------------------------------------------------ the call */

typedef struct
{
	const hyb_l3_exec_opts_t* o;
	double                    seconds;
	hyb_status_t              st;
} hyb_cpu_strip_t;

static void* hyb_cpu_strip_main( void* arg )
{
	hyb_cpu_strip_t* c  = arg;
	double           t0 = hyb_now();
	c->st               = c->o->cpu( c->o->cpu_user, c->o->cpu_strip );
	c->seconds          = hyb_now() - t0;
	return NULL;
}

/* Extent in bytes of operand `mat` as the blocks touch it. */
static size_t hyb_extent( const hyb_l3_work_t* w, int mat, int64_t ld )
{
	int64_t rmax = 0, cmax = 0;
	for ( int i = 0; i < w->nblks; i++ )
		if ( w->blks[i].mat == mat )
		{
			if ( w->blks[i].r0 + w->blks[i].rows > rmax ) rmax = w->blks[i].r0 + w->blks[i].rows;
			if ( w->blks[i].c0 + w->blks[i].cols > cmax ) cmax = w->blks[i].c0 + w->blks[i].cols;
		}
	if ( rmax == 0 ) return 0;
	return ( (size_t)( cmax - 1 ) * (size_t)ld + (size_t)rmax ) * hyb_prec_size( w->args.prec );
}

/* Register the operands' pages for direct DMA (inputs only: the output is
   always written by the host from staging, so that a failed download can
   never leave part of it overwritten). Overlapping operands stay staged. */
static void hyb_register_operands( hyb_run_t* R, hyb_dev_t* d )
{
	const hyb_l3_args_t* a  = &R->w->args;
	size_t               ea = hyb_extent( R->w, 0, a->lda ), eb = hyb_extent( R->w, 1, a->ldb );
	const char *         pa = a->a, *pb = a->b;
	int                  overlap = ea && eb && pa < pb + eb && pb < pa + ea;
	if ( ea && !overlap && hyb_dev_register( d, (void*)pa, ea ) == HYB_OK ) R->reg[0] = 1;
	if ( eb && !overlap && hyb_dev_register( d, (void*)pb, eb ) == HYB_OK ) R->reg[1] = 1;
}

hyb_status_t hyb_l3_pipeline_run( const hyb_l3_work_t* w, const hyb_l3_exec_opts_t* o,
                                  hyb_l3_exec_report_t* r )
{
	double t_start = hyb_now();
	memset( r, 0, sizeof *r );
	hyb_run_t R = { .w = w, .o = o, .r = r };
	pthread_mutex_init( &R.stat_mu, NULL );
	R.state = calloc( (size_t)( w->ntasks ? w->ntasks : 1 ), sizeof *R.state );
	if ( R.state == NULL ) return HYB_E_NO_MEMORY;
	for ( int b = 0; b < w->nbands; b++ )
	{
		atomic_init( &R.front[b], w->band_first[b] );
		atomic_init( &R.back[b], w->band_first[b + 1] );
	}

	hyb_cpu_strip_t cs = { o, 0, HYB_OK };
	pthread_t       cpu_thread;
	int             cpu_started =
	    o->cpu_strip && hyb_thread_create( &cpu_thread, NULL, hyb_cpu_strip_main, &cs ) == 0;
	if ( o->cpu_strip && !cpu_started ) hyb_cpu_strip_main( &cs );

	hyb_dev_t* regdev = NULL;
	if ( o->register_ops && hyb_dev_acquire( 0, &regdev ) == HYB_OK )
		hyb_register_operands( &R, regdev );
	R.regdev     = regdev;
	R.load_share = hyb_load_share( w, R.reg, &R.copy_bytes );

	int           ndev    = o->ndev > 0 ? o->ndev : 1;
	hyb_worker_t* ks      = calloc( (size_t)ndev, sizeof *ks );
	pthread_t*    th      = calloc( (size_t)ndev, sizeof *th );
	int*          started = calloc( (size_t)ndev, sizeof *started );
	if ( ks && th && started )
	{
		for ( int i = 0; i < ndev; i++ ) ks[i].run = &R, ks[i].index = i;
		for ( int i = 1; i < ndev; i++ )
			started[i] = hyb_thread_create( &th[i], NULL, hyb_worker_main, &ks[i] ) == 0;
		hyb_worker_main( &ks[0] );
		for ( int i = 1; i < ndev; i++ )
			if ( started[i] ) pthread_join( th[i], NULL );
	}
	else
		atomic_store( &R.error, HYB_E_NO_MEMORY );
	free( ks );
	free( th );
	free( started );

	if ( regdev )
	{
		const hyb_l3_args_t* a = &w->args;
		if ( R.reg[0] ) hyb_dev_unregister( regdev, (void*)a->a );
		if ( R.reg[1] ) hyb_dev_unregister( regdev, (void*)a->b );
		hyb_dev_release( regdev );
	}
	if ( cpu_started ) pthread_join( cpu_thread, NULL );
	r->cpu_seconds = cs.seconds;
	r->error       = (hyb_status_t)atomic_load( &R.error );

	/* Whatever no device finished (not taken, or lost with a failure) is
	   computed here from the original operands: those tiles were never
	   written, so nothing is written twice. */
	hyb_status_t st = cs.st;
	double       t0 = hyb_now();
	for ( int t = 0; t < w->ntasks; t++ )
	{
		if ( atomic_load( &R.state[t] ) == HYB_TASK_DONE ) continue;
		hyb_status_t s = hyb_l3_task_cpu( w, t, o->cpu, o->cpu_user );
		if ( s != HYB_OK ) st = s;
		r->tasks_cpu++;
	}
	r->fallback_seconds = hyb_now() - t0;
	free( R.state );
	pthread_mutex_destroy( &R.stat_mu );
	r->seconds = hyb_now() - t_start;
	return st;
}
