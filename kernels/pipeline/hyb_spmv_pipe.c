/* SPDX-License-Identifier: BSD-3-Clause */
/* One sparse product on a device (see hyb_spmv_pipe.h). */
#define _GNU_SOURCE
#include "kernels/pipeline/hyb_spmv_pipe.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_copy.h"
#include "hyb_countdown.h"
#include "hyb_log.h"
#include "hyb_state.h"
#include "hyb_team.h"
#include "kernels/spmv/hyb_spmv_kernels.h"
#include "kernels/spmv/hyb_spmv_xsum.h"
#include "hyb_thread.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_spmv_yreg.h"
#include "kernels/spmv/hyb_spmv_kernels.h"

/* x goes up in chunks of this many bytes (at least), at most HYB_PIPE_MAX_CHUNKS of them:
   a chunk's host copy overlaps the previous chunk's DMA, and a row block's kernel starts
   as soon as the chunks holding its columns are up. */
#define HYB_PIPE_CHUNK      HYB_SPMV_X_CHUNK
#define HYB_PIPE_MAX_CHUNKS 64
/* Host copies in pieces of this size when a team shares them (each thread takes a
   contiguous run of pieces; small pieces keep all threads of a team busy on copies just
   above HYB_COPY_TEAM_MIN); copies under that run on the calling thread. */
#define HYB_PIPE_PIECE ( (size_t)64 << 10 )

/* ------------------------------------------------------------ worker and team */

/* The CPU side of a split runs on one persistent worker thread (the seed dedicates one
   core to driving the device and gives the others the CPU share; here the caller drives
   the device and the worker's OpenMP team computes). One job at a time; a call that finds
   it busy runs its CPU side itself after issuing the device work. The worker's state is
   under HYB_LOCK_SPMV_PIPE (whose condition the worker and its caller wait on); the
   staging copy team belongs to the call that took `team_busy`, a token nobody waits for.
   A child of fork() has neither thread: its hook forgets both. */
static struct
{
	pthread_t th;
	int       up;
	int       busy; /* owned by a call */
	int       job;  /* a job is queued or running */
	void ( *fn )( void* );
	void*       arg;
	atomic_flag team_busy;
	hyb_team_t* team;
	int         team_threads;
} hyb_pipe = { .team_busy = ATOMIC_FLAG_INIT };

static void* hyb_worker_main( void* unused )
{
	(void)unused;
	hyb_lock( HYB_LOCK_SPMV_PIPE );
	for ( ;; )
	{
		while ( !hyb_pipe.job ) hyb_lock_wait( HYB_LOCK_SPMV_PIPE );
		void ( *fn )( void* ) = hyb_pipe.fn;
		void* arg             = hyb_pipe.arg;
		hyb_unlock( HYB_LOCK_SPMV_PIPE );
		fn( arg );
		hyb_lock( HYB_LOCK_SPMV_PIPE );
		hyb_pipe.job = 0;
		hyb_lock_broadcast( HYB_LOCK_SPMV_PIPE );
	}
	return NULL;
}

/* fork() child hook: neither the worker nor the team's threads exist here (both leaked
   on purpose); the child starts its own when it needs them. */
static void hyb_pipe_fork_child( void )
{
	hyb_pipe.up   = 0;
	hyb_pipe.busy = 0;
	hyb_pipe.job  = 0;
	hyb_pipe.team = NULL;
	atomic_flag_clear( &hyb_pipe.team_busy );
}

/* 1: fn(arg) runs on the worker (wait with hyb_worker_wait); 0: the caller must run it. */
static int hyb_worker_submit( void ( *fn )( void* ), void* arg )
{
	hyb_lock( HYB_LOCK_SPMV_PIPE );
	if ( hyb_pipe.busy )
	{
		hyb_unlock( HYB_LOCK_SPMV_PIPE );
		return 0;
	}
	if ( !hyb_pipe.up )
	{
		pthread_attr_t at;
		pthread_attr_init( &at );
		pthread_attr_setdetachstate( &at, PTHREAD_CREATE_DETACHED );
		hyb_pipe.up = hyb_thread_create( &hyb_pipe.th, &at, hyb_worker_main, NULL ) == 0;
		pthread_attr_destroy( &at );
		if ( !hyb_pipe.up )
		{
			hyb_unlock( HYB_LOCK_SPMV_PIPE );
			return 0;
		}
		hyb_state_on_fork_child( HYB_LOCK_SPMV_PIPE, hyb_pipe_fork_child );
	}
	hyb_pipe.busy = 1;
	hyb_pipe.fn   = fn;
	hyb_pipe.arg  = arg;
	hyb_pipe.job  = 1;
	hyb_lock_broadcast( HYB_LOCK_SPMV_PIPE );
	hyb_unlock( HYB_LOCK_SPMV_PIPE );
	return 1;
}

static void hyb_worker_wait( void )
{
	hyb_lock( HYB_LOCK_SPMV_PIPE );
	while ( hyb_pipe.job ) hyb_lock_wait( HYB_LOCK_SPMV_PIPE );
	hyb_pipe.busy = 0;
	hyb_unlock( HYB_LOCK_SPMV_PIPE );
}

/* The copy team for this call, at least `threads` strong (the caller sets how many take part
   with hyb_team_use), or NULL (busy, or could not be made): copy alone then. */
static hyb_team_t* hyb_team_take( int threads )
{
	if ( threads < 2 || atomic_flag_test_and_set( &hyb_pipe.team_busy ) ) return NULL;
	if ( hyb_pipe.team && hyb_pipe.team_threads < threads )
	{
		hyb_team_destroy( hyb_pipe.team );
		hyb_pipe.team = NULL;
	}
	if ( !hyb_pipe.team )
	{
		hyb_pipe.team         = hyb_team_create( threads - 1 );
		hyb_pipe.team_threads = threads;
		hyb_state_on_fork_child( HYB_LOCK_SPMV_PIPE, hyb_pipe_fork_child );
	}
	if ( !hyb_pipe.team )
	{
		atomic_flag_clear( &hyb_pipe.team_busy );
		return NULL;
	}
	return hyb_pipe.team;
}

static void hyb_team_give( hyb_team_t* t )
{
	if ( t ) atomic_flag_clear( &hyb_pipe.team_busy );
}

void hyb_spmv_pipe_reset( void )
{
	/* Tests call this between calls; a call still using the team is waited for. */
	while ( atomic_flag_test_and_set( &hyb_pipe.team_busy ) ) sched_yield();
	hyb_team_destroy( hyb_pipe.team );
	hyb_pipe.team = NULL;
	atomic_flag_clear( &hyb_pipe.team_busy );
}

/* Whether a copy of this many bytes goes to the team (else the calling thread copies). */
static int hyb_pipe_copy_team( const hyb_team_t* t, size_t bytes )
{
	return t && bytes >= HYB_COPY_TEAM_MIN;
}

/* memcpy with streaming stores, shared by the team when large. */
static void hyb_pipe_copy( hyb_team_t* t, void* dst, const void* src, size_t bytes )
{
	hyb_copy_team( hyb_pipe_copy_team( t, bytes ) ? t : NULL, dst, src, bytes, HYB_PIPE_PIECE );
}

/* ------------------------------------------------------------ the CPU side */

typedef struct
{
	const hyb_spmv_pipe_in_t* in;
	void*                     z; /* remainder sums */
	int                       nthreads;
	double                    seconds;
	double                    end; /* hyb_now() when it finished */
} hyb_cpu_job_t;

static void hyb_cpu_job( void* p )
{
	hyb_cpu_job_t*         j  = p;
	const hyb_spmv_dmat_t* dm = j->in->dm;
	double                 t0 = hyb_now();
	if ( dm->nrun > 0 ) hyb_spmv_rem_sums( dm, j->in->x, j->z, j->nthreads );
	if ( dm->cpu_ptr )
		hyb_spmv_cpu_rows( dm, j->in->src_col, j->in->src_val, j->in->x, j->in->y, j->nthreads );
	j->end     = hyb_now();
	j->seconds = j->end - t0;
}

/* ------------------------------------------------------------ the device side */

static size_t hyb_al( size_t n )
{
	return ( n + HYB_SPMV_ALIGN - 1 ) & ~( HYB_SPMV_ALIGN - 1 );
}

typedef struct
{
	hyb_dev_t*     d;
	hyb_devent_t** ev;
	int            nev;
} hyb_evs_t;

static hyb_status_t hyb_evs_make( hyb_evs_t* e, hyb_dev_t* d, int n )
{
	e->d   = d;
	e->nev = 0;
	e->ev  = calloc( (size_t)n, sizeof *e->ev );
	if ( !e->ev ) return HYB_E_NO_MEMORY;
	for ( ; e->nev < n; e->nev++ )
	{
		hyb_status_t st = hyb_dev_event_create( d, &e->ev[e->nev] );
		if ( st != HYB_OK ) return st;
	}
	return HYB_OK;
}

static void hyb_evs_free( hyb_evs_t* e )
{
	for ( int i = 0; i < e->nev; i++ ) hyb_dev_event_destroy( e->d, e->ev[i] );
	free( e->ev );
	e->ev  = NULL;
	e->nev = 0;
}

/* Launch block b's kernel on the compute stream. */
static hyb_status_t hyb_block_kernel( hyb_dev_t* d, const hyb_spmv_dmat_t* dm, int b, char* mat,
                                      char* x_dev, char* y_dev )
{
	const hyb_spmv_blk_t* k   = &dm->blk[b];
	size_t                vb  = hyb_prec_size( dm->prec );
	char*                 a0  = mat + k->off;
	void*                 out = y_dev + (size_t)k->yoff * vb;
	switch ( dm->fmt )
	{
	case HYB_SPMV_DEV_CSR:
		return hyb_dev_spmv_csr( d, HYB_STREAM_COMPUTE, dm->prec, k->r1 - k->r0, (const int*)a0,
		                         (const int*)( a0 + k->a1 ), a0 + k->a2, dm->dev_base,
		                         k->mean_len > 0 ? k->mean_len : 1.0, x_dev, out, 0 );
	case HYB_SPMV_DEV_ELL:
		return hyb_dev_spmv_slots( d, HYB_STREAM_COMPUTE, 0, dm->prec, k->r1 - k->r0, k->width,
		                           (const int*)a0, a0 + k->a1, x_dev, out, 0 );
	case HYB_SPMV_DEV_DIA:
		/* the widened rows [e0, e1) see x from e0 on: no entry of rows [r0, r1) is clipped */
		return hyb_dev_spmv_slots( d, HYB_STREAM_COMPUTE, 1, dm->prec, k->e1 - k->e0, k->width,
		                           (const int*)( mat + dm->off_dia ), a0,
		                           x_dev + (size_t)k->e0 * vb, out, 0 );
	default:
		return HYB_E_INVALID;
	}
}

/* Block b issued: its kernel once x_ready (the x it reads is up), its download into ydst
   (y's rows from 0) once the kernel is done; k_done and d_done recorded. */
static hyb_status_t hyb_issue_block( hyb_dev_t* d, const hyb_spmv_dmat_t* dm, int b, char* mat,
                                     char* x_dev, char* y_dev, hyb_devent_t* x_ready,
                                     hyb_devent_t* k_done, hyb_devent_t* d_done, char* ydst,
                                     hyb_spmv_pipe_out_t* out )
{
	const hyb_spmv_blk_t* bk = &dm->blk[b];
	const size_t          vb = hyb_prec_size( dm->prec );
	const size_t          yw = (size_t)( bk->r1 - bk->r0 ) * vb;
	hyb_status_t          st;
	if ( ( st = hyb_dev_wait( d, HYB_STREAM_COMPUTE, x_ready ) ) != HYB_OK ||
	     ( st = hyb_block_kernel( d, dm, b, mat, x_dev, y_dev ) ) != HYB_OK ||
	     ( st = hyb_dev_record( d, HYB_STREAM_COMPUTE, k_done ) ) != HYB_OK ||
	     ( st = hyb_dev_wait( d, HYB_STREAM_D2H, k_done ) ) != HYB_OK ||
	     ( st = hyb_dev_d2h( d, HYB_STREAM_D2H, ydst + (size_t)bk->r0 * vb, yw,
	                         y_dev + (size_t)( bk->yoff + bk->r0 - bk->e0 ) * vb, yw, yw, 1 ) ) !=
	         HYB_OK ||
	     ( st = hyb_dev_record( d, HYB_STREAM_D2H, d_done ) ) != HYB_OK )
		return st;
	out->bytes_d2h += (double)yw;
	return HYB_OK;
}

/* x from registered pages: the host's fingerprints of x through the program's addresses,
   compared with the device's of what the DMA delivered (kernels/spmv/hyb_spmv_xsum.h). */
static atomic_int hyb_xstale_next;

void hyb_spmv_pipe_xstale_next_for_test( int n )
{
	atomic_store( &hyb_xstale_next, n );
}

/* Whether this call's registered x is to be read from stale pages (tests; counts down). */
static int hyb_xstale_take( void )
{
	return hyb_countdown_take( &hyb_xstale_next );
}

/* The team reads a piece of x only once the DMA has read it: cores reading the bytes the
   DMA is reading slow the DMA (measured on the H200 hosts with tools/gpu_probe_bus_time.cu,
   32 MiB each way: 4 threads reading the upload's own buffer took it from 0.64 to 0.85 ms,
   14 threads to 1.14 ms, while as many threads reading any other memory left it at 0.64). */
typedef struct
{
	const void*     x;
	size_t          bytes;
	uint64_t*       out;
	int64_t         pieces;
	_Atomic int64_t next; /* the next group of pieces to take */
	hyb_dev_t*      d;
	hyb_devent_t**  uploaded;    /* per chunk of x: reached once the DMA has read it */
	size_t          chunk_bytes; /* bytes of x per chunk (the last may be shorter) */
	int64_t         chunks;
	_Atomic int64_t known; /* chunks seen uploaded so far */
} hyb_xsum_job_t;

/* Wait until the DMA has read chunk c of x. A failed device ends the wait as well: the call
   then fails at its next synchronisation, and the fingerprint is not used. */
static void hyb_xsum_await( hyb_xsum_job_t* j, int64_t c )
{
	for ( unsigned spins = 1;; spins++ )
	{
		int64_t k = atomic_load( &j->known );
		if ( k > c ) return;
		if ( hyb_dev_query( j->d, j->uploaded[k] ) != HYB_E_AGAIN )
		{
			atomic_compare_exchange_strong( &j->known, &k, k + 1 );
			continue;
		}
		/* a yield now and then: a simulated device's stream thread may need this core */
		if ( spins % 64 )
			hyb_cpu_relax();
		else
			sched_yield();
	}
}

/* Pieces a thread takes at a time: small enough that a thread woken late, or sharing its
   core, leaves its share to the others; large enough that the counter is touched rarely. */
#define HYB_XSUM_GROUP 4

/* Threads of x's fingerprints (the caller's included): every core the process may use (its
   affinity mask, and no more than its OpenMP thread count, which an MPI rank sharing a node
   sets), up to HYB_XSUM_CORES_MAX, but the caller's neighbours (the threads it runs beside)
   and one left for the driver's threads, which must not wait for a time slice. Measured on
   the H200 hosts (gpu_probe_bus --xsum): a core fingerprints about 4.4 GB/s, 15 of them
   48 GB/s while the copy engines move both ways, 8 of them 30; the copy team's 8 left the
   fingerprints longer than the device's span. More is slower: on a 32-core host with two
   H200s the resident product of the 27-point matrix took 1.44-1.50x (double) and 1.66-1.69x
   (single) the x + y bound with all 32 cores' worth, 1.11-1.14x and 1.36-1.41x with 16,
   1.55-1.74x with 9 (docs/design-notes-spmv.md, "x straight from the program's pages"):
   beyond about 16 the fingerprints' reads of host memory slow the transfers beside them. */
#define HYB_XSUM_CORES_MAX 16

static int hyb_xsum_threads( const hyb_spmv_pipe_in_t* in )
{
	int cores = omp_get_num_procs(), allowed = omp_get_max_threads();
	if ( allowed < cores ) cores = allowed;
	if ( cores > HYB_XSUM_CORES_MAX ) cores = HYB_XSUM_CORES_MAX;
	int n = cores - in->beside - 1;
	return n > in->copy_threads ? n : in->copy_threads;
}

/* One thread of the team: groups of pieces taken in turn until none is left (a fixed split
   would wait for the slowest thread, and the team's threads wake and run unevenly beside the
   device's transfers). */
static void hyb_xsum_part( void* arg, int64_t b, int64_t e )
{
	hyb_xsum_job_t* j = arg;
	for ( int64_t t = b; t < e; t++ )
		for ( ;; )
		{
			int64_t p0 = atomic_fetch_add( &j->next, HYB_XSUM_GROUP );
			if ( p0 >= j->pieces ) break;
			int64_t p1  = p0 + HYB_XSUM_GROUP < j->pieces ? p0 + HYB_XSUM_GROUP : j->pieces;
			size_t  end = (size_t)p1 * HYB_SPMV_XSUM_PIECE;
			int64_t c   = (int64_t)( ( ( end < j->bytes ? end : j->bytes ) - 1 ) / j->chunk_bytes );
			hyb_xsum_await( j, c < j->chunks ? c : j->chunks - 1 );
			for ( int64_t p = p0; p < p1; p++ ) j->out[p] = hyb_spmv_xsum_of( j->x, j->bytes, p );
		}
}

#define HYB_TRY( expr )                                                                            \
	do {                                                                                           \
		if ( ( st = ( expr ) ) != HYB_OK ) goto fail;                                              \
	} while ( 0 )

hyb_status_t hyb_spmv_pipe_run( const hyb_spmv_pipe_in_t* in, hyb_spmv_pipe_out_t* out )
{
	double t0 = hyb_now();
	memset( out, 0, sizeof *out );
	hyb_spmv_dmat_t* dm   = in->dm;
	const size_t     vb   = hyb_prec_size( dm->prec );
	const int64_t    m    = dm->m;
	const int        nblk = dm->nblk;
	out->nblk             = nblk;

	hyb_dev_t*       d        = NULL;
	hyb_team_t*      team     = NULL;
	hyb_spmv_yreg_t* reg      = NULL;
	int64_t          tokens   = 0;    /* y's tokens, written by the arm */
	hyb_spmv_yreg_t* xr       = NULL; /* x's registration */
	uint64_t*        xsum     = NULL; /* x's fingerprints on the host */
	int              x_stale  = 0;
	void*            stale    = NULL; /* tests: the pages a stale registration would read */
	hyb_evs_t        E        = { 0 };
	void*            z        = NULL;
	hyb_cpu_job_t    job      = { in, NULL, 1, 0, 0 };
	int              job_mode = 0; /* 0 none, 1 on the worker, 2 run by the caller */
	hyb_status_t     st;

	HYB_TRY( hyb_dev_acquire( in->dev, &d ) );

	/* x: straight from registered pages when allowed and the device can prove them, else
	   through staging. */
	size_t        xbytes = (size_t)m * vb;
	const int64_t pieces = hyb_spmv_xsum_pieces( xbytes );
	if ( in->xreg && hyb_devices_spmv_xsum_supported() )
		xr = hyb_spmv_yreg_get( d, (void*)in->x, xbytes, vb,
		                        ( in->xreg == 2 ? HYB_SPMV_REG_EAGER : 0u ) |
		                            HYB_SPMV_REG_EVICT_IDLE );
	if ( xr && hyb_xstale_take() ) stale = calloc( 1, xbytes );
	if ( xr && !( xsum = malloc( (size_t)pieces * sizeof *xsum ) ) )
	{
		st = HYB_E_NO_MEMORY;
		goto fail;
	}

	/* Device workspace: x, y (widened rows included), the matrix when transient, and x's
	   fingerprints when registered. */
	size_t xb = hyb_al( xbytes ), yb = hyb_al( (size_t)dm->y_len * vb );
	size_t mb = in->dmem ? 0 : hyb_al( dm->bytes );
	size_t hb = xr ? hyb_al( (size_t)pieces * sizeof *xsum ) : 0;
	void*  ws = NULL;
	HYB_TRY( hyb_dev_workspace( d, xb + yb + mb + hb, &ws ) );
	/* An injected asynchronous allocation fault returns HYB_OK without a buffer (it is
	   reported at the next synchronisation): never use a NULL one. */
	if ( ws == NULL ) HYB_TRY( HYB_E_NO_MEMORY );
	char* x_dev  = ws;
	char* y_dev  = x_dev + xb;
	char* mat    = in->dmem ? in->dmem : y_dev + yb;
	char* xs_dev = y_dev + yb + mb;

	/* y: straight into registered pages when allowed and proven, else through staging. The
	   registration covers all of y (as x's covers all of x, so a program that swaps the two
	   vectors finds each registered in its other role); the device's rows are the first
	   ybytes, which the proof's tokens cover. */
	size_t ybytes = (size_t)dm->rows * vb;
	if ( in->yreg )
		reg = hyb_spmv_yreg_get( d, in->y, xbytes, vb, in->yreg == 2 ? HYB_SPMV_REG_EAGER : 0u );

	/* Page-locked staging: x, then y (unless registered); the two build slots of a first
	   call share y's place: every download comes after every upload (a kernel waits for x,
	   which goes up after the matrix on the same stream), so the slots are free by then. */
	size_t maxblk = 0;
	for ( int b = 0; b < nblk; b++ ) maxblk = dm->blk[b].bytes > maxblk ? dm->blk[b].bytes : maxblk;
	size_t ub = in->upload ? 2 * hyb_al( maxblk ) +
	                             hyb_al( (size_t)( dm->K > 0 ? dm->K : 1 ) * sizeof( int ) )
	                       : 0;
	size_t ys = reg ? 0 : hyb_al( ybytes );
	void*  hs = NULL;
	HYB_TRY( hyb_dev_staging( d, xb + ( ys > ub ? ys : ub ), &hs ) );
	if ( hs == NULL ) HYB_TRY( HYB_E_NO_MEMORY );
	char* x_st  = hs;
	char* y_st  = x_st + xb;
	char* up_st = y_st;

	/* at most 16 chunks by default: each wakes the copy team once (about 10-20 us) */
	size_t  chunk = in->chunk_bytes > 0
	                    ? in->chunk_bytes
	                    : ( xbytes / 16 > HYB_PIPE_CHUNK ? xbytes / 16 : HYB_PIPE_CHUNK );
	int64_t nch   = (int64_t)( ( xbytes + chunk - 1 ) / chunk );
	if ( nch > HYB_PIPE_MAX_CHUNKS ) nch = HYB_PIPE_MAX_CHUNKS;
	if ( nch < 1 ) nch = 1;
	int64_t cx = ( m + nch - 1 ) / nch; /* elements per chunk */
	nch        = ( m + cx - 1 ) / cx;

	/* events: x chunks, kernels, downloads, two build slots, start, x's fingerprints */
	int EVX = 0, EVK = (int)nch, EVD = EVK + nblk, EVU = EVD + nblk, EV0 = EVU + 2, EVS = EV0 + 1;
	HYB_TRY( hyb_evs_make( &E, d, EVS + 1 ) );

	/* One team for both: its workers beyond the copies' take part in x's fingerprints only. */
	const int xsum_threads = xr ? hyb_xsum_threads( in ) : 0;
	team = hyb_team_take( in->copy_threads > xsum_threads ? in->copy_threads : xsum_threads );
	if ( team ) hyb_team_use( team, in->copy_threads );
	if ( reg )
	{
		double ta  = hyb_now();
		tokens     = hyb_spmv_yreg_arm( reg, ybytes, team );
		out->arm_s = hyb_now() - ta;
	}
	if ( in->timing ) HYB_TRY( hyb_dev_record( d, HYB_STREAM_H2D, E.ev[EV0] ) );
	double t_span = hyb_now(); /* the device span starts about here */
	out->prep_s   = t_span - t0;

	/* First call: build each block into a staging slot and upload it; a slot is refilled
	   once its previous upload has finished. */
	if ( in->upload )
	{
		char* slot[2] = { up_st, up_st + hyb_al( maxblk ) };
		if ( dm->fmt == HYB_SPMV_DEV_DIA && dm->K > 0 )
		{
			char* os = up_st + 2 * hyb_al( maxblk );
			memcpy( os, hyb_spmv_dmat_offsets( dm ), (size_t)dm->K * sizeof( int ) );
			size_t ob = (size_t)dm->K * sizeof( int );
			HYB_TRY( hyb_dev_h2d( d, HYB_STREAM_H2D, mat + dm->off_dia, ob, os, ob, ob, 1 ) );
			out->bytes_h2d += (double)dm->K * sizeof( int );
		}
		for ( int b = 0; b < nblk; b++ )
		{
			int s = b & 1;
			if ( b >= 2 )
			{
				double tw = hyb_now();
				HYB_TRY( hyb_dev_sync( d, E.ev[EVU + s] ) );
				out->wait_s += hyb_now() - tw;
			}
			double tb = hyb_now();
			hyb_spmv_dmat_build_block( in->view, dm, b, slot[s], 0 );
			out->build_s += hyb_now() - tb;
			if ( dm->blk[b].bytes > 0 )
				HYB_TRY( hyb_dev_h2d( d, HYB_STREAM_H2D, mat + dm->blk[b].off, dm->blk[b].bytes,
				                      slot[s], dm->blk[b].bytes, dm->blk[b].bytes, 1 ) );
			HYB_TRY( hyb_dev_record( d, HYB_STREAM_H2D, E.ev[EVU + s] ) );
			out->bytes_h2d += (double)dm->blk[b].bytes;
		}
		double tb = hyb_now();
		HYB_TRY( hyb_spmv_dmat_finish( dm, 0 ) );
		out->build_s += hyb_now() - tb;
	}

	/* The CPU side (it needs the remainder, complete after the build) takes every core but
	   this thread's and those of the threads the caller runs beside (the change check). When
	   the copy team moves x, it starts once x is copied: the two at once share the cores
	   (measured: the CPU part of a row split on the cores the team left took 2.7x its
	   prediction). */
	int cpu_side = dm->nrun > 0 || dm->cpu_ptr;
	/* the team is busy with x: its fingerprints, or its copy (the first chunk is the largest) */
	int team_x = ( xr && team ) || hyb_pipe_copy_team( team, (size_t)cx * vb );
	if ( cpu_side )
	{
		if ( dm->nrun > 0 )
		{
			z = malloc( (size_t)dm->nrun * vb );
			if ( !z )
			{
				st = HYB_E_NO_MEMORY;
				goto fail;
			}
		}
		job.z          = z;
		int free_cores = omp_get_num_procs() - 1 - in->beside;
		job.nthreads   = free_cores > 1 ? free_cores : 1;
		if ( !team_x ) job_mode = hyb_worker_submit( hyb_cpu_job, &job ) ? 1 : 2;
	}

	/* x up by chunks; each row block issued as soon as the chunks holding its columns are. */
	int next = 0;
	for ( int64_t k = 0; k < nch; k++ )
	{
		int64_t     a = k * cx, e = a + cx < m ? a + cx : m;
		const char* src = (const char*)( stale ? stale : in->x ) + (size_t)a * vb;
		if ( !xr )
		{
			double tc = hyb_now();
			hyb_pipe_copy( team, x_st + (size_t)a * vb, src, (size_t)( e - a ) * vb );
			out->xcopy_s += hyb_now() - tc;
			src = x_st + (size_t)a * vb;
		}
		size_t xw = (size_t)( e - a ) * vb;
		double ti = hyb_now();
		HYB_TRY( hyb_dev_h2d( d, HYB_STREAM_H2D, x_dev + (size_t)a * vb, xw, src, xw, xw, 1 ) );
		HYB_TRY( hyb_dev_record( d, HYB_STREAM_H2D, E.ev[EVX + k] ) );
		ti = hyb_now() - ti;
		out->issue_x_s += ti;
		out->issue_max_s = ti > out->issue_max_s ? ti : out->issue_max_s;
		out->bytes_h2d += (double)( e - a ) * (double)vb;
		while ( next < nblk && ( dm->blk[next].c1 <= e || k == nch - 1 ) )
		{
			ti = hyb_now();
			HYB_TRY( hyb_issue_block( d, dm, next, mat, x_dev, y_dev, E.ev[EVX + k],
			                          E.ev[EVK + next], E.ev[EVD + next], reg ? (char*)in->y : y_st,
			                          out ) );
			ti               = hyb_now() - ti;
			out->issue_max_s = ti > out->issue_max_s ? ti : out->issue_max_s;
			next++;
		}
	}

	out->issue_s = hyb_now() - t_span;

	/* x's fingerprints: the device's of what arrived (after the last chunk on its stream, into
	   x's staging, which registered x leaves unused), the host's through x's addresses by the
	   team meanwhile, each piece after the DMA has read it (hyb_xsum_job_t). */
	if ( xr )
	{
		const hyb_spmv_xsum_kargs_t ka = { dm->prec, (int64_t)xbytes, x_dev, (uint64_t*)xs_dev };
		const size_t                hw = (size_t)pieces * sizeof *xsum;
		HYB_TRY( hyb_dev_spmv_xsum( d, HYB_STREAM_H2D, &ka ) );
		HYB_TRY( hyb_dev_d2h( d, HYB_STREAM_H2D, x_st, hw, xs_dev, hw, hw, 1 ) );
		HYB_TRY( hyb_dev_record( d, HYB_STREAM_H2D, E.ev[EVS] ) );
		double         th = hyb_now();
		hyb_xsum_job_t xj = { .x           = in->x,
			                  .bytes       = xbytes,
			                  .out         = xsum,
			                  .pieces      = pieces,
			                  .d           = d,
			                  .uploaded    = E.ev + EVX,
			                  .chunk_bytes = (size_t)cx * vb,
			                  .chunks      = nch };
		atomic_init( &xj.next, 0 );
		atomic_init( &xj.known, 0 );
		if ( team ) hyb_team_use( team, xsum_threads );
		hyb_team_run( team, hyb_team_size( team ), hyb_xsum_part, &xj );
		if ( team ) hyb_team_use( team, in->copy_threads );
		out->xsum_s = hyb_now() - th;
	}

	/* The CPU side, here if the worker was busy; then wait for it. */
	if ( cpu_side && team_x ) job_mode = hyb_worker_submit( hyb_cpu_job, &job ) ? 1 : 2;
	if ( job_mode == 2 ) hyb_cpu_job( &job );
	if ( job_mode == 1 )
	{
		double tw = hyb_now();
		hyb_worker_wait();
		out->wait_s += hyb_now() - tw;
	}
	out->cpu_s     = job.seconds;
	out->cpu_end_s = job.end > 0 ? job.end - t_span : 0.0;
	job_mode       = 0;
	if ( xr )
	{
		double tw = hyb_now();
		HYB_TRY( hyb_dev_sync( d, E.ev[EVS] ) );
		out->wait_s += hyb_now() - tw;
		x_stale = memcmp( xsum, x_st, (size_t)pieces * sizeof *xsum ) != 0;
	}
	if ( x_stale )
	{
		/* The registered pages no longer hold what x's addresses show, so the device's rows
		   of y came from stale values. Once all that was queued has finished, x goes up
		   again through staging and every block runs again (the matrix is on the device
		   either way); the CPU side read x through its addresses and stands. */
		HYB_LOG( HYB_LOG_INFO, "SpMV: x's registered pages no longer hold what its addresses "
		                       "show; x staged, its registration dropped" );
		out->x_proof_failed = 1;
		for ( int s = 0; s < HYB_STREAM_COUNT; s++ ) HYB_TRY( hyb_dev_stream_sync( d, s ) );
		double tc = hyb_now();
		hyb_pipe_copy( team, x_st, in->x, xbytes );
		out->xcopy_s += hyb_now() - tc;
		HYB_TRY( hyb_dev_h2d( d, HYB_STREAM_H2D, x_dev, xbytes, x_st, xbytes, xbytes, 1 ) );
		HYB_TRY( hyb_dev_record( d, HYB_STREAM_H2D, E.ev[EVX + nch - 1] ) );
		out->bytes_h2d += (double)xbytes;
		for ( int b = 0; b < nblk; b++ )
			HYB_TRY( hyb_issue_block( d, dm, b, mat, x_dev, y_dev, E.ev[EVX + nch - 1],
			                          E.ev[EVK + b], E.ev[EVD + b], reg ? (char*)in->y : y_st,
			                          out ) );
	}

	/* y: the proof once every download is done, or the copies out of staging block by
	   block as each download completes. (After an error the caller recomputes all of y,
	   so rows copied before it do no harm.) */
	if ( reg )
	{
		/* Block by block, as each download completes, while the later ones are in flight
		   (a block's tokens are those of its rows); the whole check where the blocks did not
		   read every token (rows no block covers). */
		int     held = 1;
		int64_t seen = 0;
		for ( int b = 0; b < nblk; b++ )
		{
			double tw = hyb_now();
			HYB_TRY( hyb_dev_sync( d, E.ev[EVD + b] ) );
			double tp = hyb_now();
			out->wait_s += tp - tw;
			held &= hyb_spmv_yreg_check_rows( reg, dm->blk[b].r0, dm->blk[b].r1, &seen );
			out->proof_s += hyb_now() - tp;
		}
		double tp = hyb_now();
		int    proved =
            seen == tokens ? hyb_spmv_yreg_verdict( held ) : hyb_spmv_yreg_check( reg, team );
		out->proof_s += hyb_now() - tp;
		if ( proved )
			out->y_registered = 1;
		else
		{
			/* Some page of y is no longer the registered one: download again through
			   staging, and drop the registration. */
			out->y_proof_failed = 1;
			hyb_spmv_yreg_put( d, reg, 1 );
			reg = NULL;
			hs  = NULL;
			HYB_TRY( hyb_dev_staging( d, hyb_al( ybytes ), &hs ) );
			if ( hs == NULL ) HYB_TRY( HYB_E_NO_MEMORY );
			y_st = hs;
			for ( int b = 0; b < nblk; b++ )
			{
				const hyb_spmv_blk_t* bk = &dm->blk[b];
				size_t                w  = (size_t)( bk->r1 - bk->r0 ) * vb;
				HYB_TRY( hyb_dev_d2h( d, HYB_STREAM_D2H, y_st + (size_t)bk->r0 * vb, w,
				                      y_dev + (size_t)( bk->yoff + bk->r0 - bk->e0 ) * vb, w, w,
				                      1 ) );
				out->bytes_d2h += (double)w;
			}
			HYB_TRY( hyb_dev_record( d, HYB_STREAM_D2H, E.ev[EVD + nblk - 1] ) );
			double tw = hyb_now();
			HYB_TRY( hyb_dev_sync( d, E.ev[EVD + nblk - 1] ) );
			out->wait_s += hyb_now() - tw;
			double tc = hyb_now();
			hyb_pipe_copy( team, in->y, y_st, ybytes );
			out->ycopy_s += hyb_now() - tc;
		}
	}
	else
		for ( int b = 0; b < nblk; b++ )
		{
			const hyb_spmv_blk_t* bk = &dm->blk[b];
			double                tw = hyb_now();
			HYB_TRY( hyb_dev_sync( d, E.ev[EVD + b] ) );
			double tc = hyb_now();
			out->wait_s += tc - tw;
			hyb_pipe_copy( team, (char*)in->y + (size_t)bk->r0 * vb, y_st + (size_t)bk->r0 * vb,
			               (size_t)( bk->r1 - bk->r0 ) * vb );
			out->ycopy_s += hyb_now() - tc;
		}
	const double t_tail = hyb_now();
	if ( in->timing ) hyb_dev_elapsed( d, E.ev[EV0], E.ev[EVD + nblk - 1], &out->dev_s );
	if ( z )
	{
		double tm = hyb_now();
		hyb_spmv_rem_merge( dm, z, in->y, 0 );
		out->merge_s = hyb_now() - tm;
		out->ycopy_s += out->merge_s;
	}
	hyb_team_give( team );
	if ( reg ) hyb_spmv_yreg_put( d, reg, 0 );
	if ( xr ) hyb_spmv_yreg_put( d, xr, x_stale ? HYB_SPMV_REG_REFUSE : 0 );
	hyb_evs_free( &E );
	hyb_dev_release( d );
	free( z );
	free( xsum );
	free( stale );
	out->x_registered = xr != NULL && !x_stale;
	out->tail_s       = hyb_now() - t_tail;
	out->seconds      = hyb_now() - t0;
	return HYB_OK;

fail:
	if ( job_mode == 1 ) hyb_worker_wait();
	if ( d )
	{
		/* Nothing may still write into y or read x once we return. */
		for ( int s = 0; s < HYB_STREAM_COUNT; s++ ) hyb_dev_stream_sync( d, s );
		if ( reg ) hyb_spmv_yreg_put( d, reg, 1 );
		if ( xr ) hyb_spmv_yreg_put( d, xr, 1 );
		hyb_evs_free( &E );
		hyb_dev_release( d );
	}
	hyb_team_give( team );
	free( z );
	free( xsum );
	free( stale );
	out->error   = st;
	out->seconds = hyb_now() - t0;
	return st;
}
