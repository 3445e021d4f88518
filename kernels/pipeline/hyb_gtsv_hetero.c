/* SPDX-License-Identifier: BSD-3-Clause */
/* The heterogeneous tridiagonal solver (see hyb_gtsv_hetero.h). */
#define _GNU_SOURCE
#include "kernels/pipeline/hyb_gtsv_hetero.h"

#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_copy.h"
#include "hyb_log.h"
#include "hyb_thread.h"
#include "kernels/cpu/hyb_gtsv_cpu.h"
#include "kernels/gtsv/hyb_gtsv_kernels.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_gtsv_pin.h"

/* Host copies are cut into pieces of this size, spread over the worker's threads. */
#define HYB_GH_PIECE ( (size_t)1 << 20 )

/* ---------------------------------------------------------------------------------------
   Precision dispatch of the CPU pieces.
   --------------------------------------------------------------------------------------- */

static hyb_status_t hyb_gh_seam( const hyb_gtsv_hetero_t* p, int64_t s, void* rec )
{
	if ( p->prec == HYB_PREC_D )
		return hyb_dgtsv_seam( p->n, s, p->nrhs, p->dl, p->d, p->du, p->b, p->ldb, p->m, rec );
	return hyb_sgtsv_seam( p->n, s, p->nrhs, p->dl, p->d, p->du, p->b, p->ldb, p->m, rec );
}

static hyb_status_t hyb_gh_spike_range( const hyb_gtsv_hetero_t* p, int64_t r0, int64_t r1,
                                        const void* top, const void* bot, int threads )
{
	if ( p->prec == HYB_PREC_D )
		return hyb_dgtsv_cpu_spike_range( p->n, r0, r1, p->nrhs, p->dl, p->d, p->du, p->b, p->ldb,
		                                  top, bot, p->m, threads, p->flags );
	return hyb_sgtsv_cpu_spike_range( p->n, r0, r1, p->nrhs, p->dl, p->d, p->du, p->b, p->ldb, top,
	                                  bot, p->m, threads, p->flags );
}

static hyb_status_t hyb_gh_factors_range( const hyb_gtsv_hetero_t* p, int64_t r0, int64_t r1,
                                          const void* top, int threads )
{
	int64_t info = 0;
	if ( p->prec == HYB_PREC_D )
		return hyb_dgtsv_factors_range( p->n, r0, r1, p->dl, p->d, p->du, top, p->m, threads,
		                                &info );
	return hyb_sgtsv_factors_range( p->n, r0, r1, p->dl, p->d, p->du, top, p->m, threads, &info );
}

/* The last resort when the CPU SPIKE cannot get its (small) work arrays: LAPACK's no-swap
   elimination on rows [r0, r1), entering with the seam record `top` (d'[r0-1], x[r0-1],
   x[r0]) and leaving with `bot` (x[r1]), serially, using no memory but the outputs: D
   receives d' first (it does not depend on the right-hand side; dl is still intact), then
   each column runs forward (y into B) and back, then DL is zeroed as LAPACK does. Only
   with HYB_GTSV_FACTORS (D and DL are outputs then). */
#define HYB_GH_SERIAL( T, NAME )                                                                   \
	static void NAME( const hyb_gtsv_hetero_t* p, int64_t r0, int64_t r1, const T* top,            \
	                  const T* bot )                                                               \
	{                                                                                              \
		T*       dl = p->dl;                                                                       \
		T*       d  = p->d;                                                                        \
		const T* du = p->du;                                                                       \
		T*       b  = p->b;                                                                        \
		int64_t  n = p->n, nrhs = p->nrhs;                                                         \
		/* d' once: D[i] = d'[i] (row i's multiplier is dl[i-1] / d'[i-1]; dl is still intact). */ \
		T c = r0 > 0 ? top[0] : 0;                                                                 \
		for ( int64_t i = r0; i < r1; i++ )                                                        \
		{                                                                                          \
			c    = i > 0 ? d[i] - ( dl[i - 1] / c ) * du[i - 1] : d[0];                            \
			d[i] = c;                                                                              \
		}                                                                                          \
		for ( int64_t j = 0; j < nrhs; j++ )                                                       \
		{                                                                                          \
			T* bj = b + j * p->ldb;                                                                \
			T  y  = r0 > 0 ? top[0] * top[1 + j] + du[r0 - 1] * top[1 + nrhs + j] : 0;             \
			T  cp = r0 > 0 ? top[0] : 0;                                                           \
			for ( int64_t i = r0; i < r1; i++ )                                                    \
			{                                                                                      \
				T f   = i > 0 ? dl[i - 1] / cp : 0;                                                \
				y     = bj[i] - f * y;                                                             \
				bj[i] = y;                                                                         \
				cp    = d[i];                                                                      \
			}                                                                                      \
			T x = r1 < n ? bot[1 + nrhs + j] : 0;                                                  \
			for ( int64_t i = r1 - 1; i >= r0; i-- )                                               \
			{                                                                                      \
				T u   = i + 1 < n ? du[i] : 0;                                                     \
				x     = ( bj[i] - u * x ) / d[i];                                                  \
				bj[i] = x;                                                                         \
			}                                                                                      \
		}                                                                                          \
		for ( int64_t i = r0; i < r1; i++ )                                                        \
			if ( i >= 1 && i + 1 < n ) dl[i - 1] = 0;                                              \
	}

HYB_GH_SERIAL( double, hyb_gh_serial_d )
HYB_GH_SERIAL( float, hyb_gh_serial_s )

/* Solve rows [r0, r1) on the CPU, whatever happens (the seam records make it exact). */
static void hyb_gh_cpu_rows( const hyb_gtsv_hetero_t* p, int64_t r0, int64_t r1, const void* top,
                             const void* bot, int threads )
{
	if ( r1 <= r0 ) return;
	if ( hyb_gh_spike_range( p, r0, r1, top, bot, threads ) == HYB_OK ) return;
	/* Only HYB_E_NO_MEMORY is possible here (arguments were checked), before anything of
	   the range was written. */
	if ( p->flags & HYB_GTSV_FACTORS )
	{
		if ( p->prec == HYB_PREC_D )
			hyb_gh_serial_d( p, r0, r1, top, bot );
		else
			hyb_gh_serial_s( p, r0, r1, top, bot );
	}
	else
		hyb_log_always( "error: gtsv: no memory for the CPU solve of rows %lld..%lld",
		                (long long)r0, (long long)r1 );
}

/* ---------------------------------------------------------------------------------------
   Segments: every device chunk and the CPU's rows, in row order; boundary records.
   --------------------------------------------------------------------------------------- */

typedef struct
{
	int64_t c0, c1;
	int     owner; /* device index, or -1 for the CPU */
} hyb_gh_seg_t;

typedef struct hyb_gh_run_s hyb_gh_run_t;

typedef struct
{
	hyb_gh_run_t* run;
	int           dev;
	int           s0, s1; /* its segments */
	int64_t       chunk;
	size_t        slot_bytes;
	/* results */
	int64_t      done;
	hyb_status_t error;
	double       seconds, t_stage, t_out, t_fac, t_wait, t_pin, h2d, d2h;
} hyb_gh_worker_t;

struct hyb_gh_run_s
{
	const hyb_gtsv_hetero_t* p;
	hyb_gh_seg_t*            seg;
	int                      nseg;
	char*                    recs; /* record of the boundary at seg[i].c0 for i >= 1 */
	size_t                   rec_bytes;
};

static const void* hyb_gh_rec( const hyb_gh_run_t* R, int i )
{
	return ( i >= 1 && i < R->nseg ) ? R->recs + (size_t)( i - 1 ) * R->rec_bytes : NULL;
}

/* ---------------------------------------------------------------------------------------
   Host copies of a worker.
   --------------------------------------------------------------------------------------- */

typedef struct
{
	char*       dst;
	const char* src; /* NULL: zero dst */
	size_t      bytes;
} hyb_gh_copy_t;

static void hyb_gh_copy1( char* dst, const char* src, size_t bytes )
{
	if ( src )
		hyb_copy_stream( dst, src, bytes );
	else
		memset( dst, 0, bytes );
}

/* Run the copies with `threads` threads in pieces, streaming stores, fenced. */
static void hyb_gh_copies( const hyb_gh_copy_t* c, int nc, int threads )
{
	size_t total = 0;
	for ( int i = 0; i < nc; i++ ) total += c[i].bytes;
	if ( total < HYB_COPY_TEAM_MIN || threads <= 1 )
	{
		for ( int i = 0; i < nc; i++ ) hyb_gh_copy1( c[i].dst, c[i].src, c[i].bytes );
		hyb_copy_fence();
		return;
	}
	int64_t npieces = (int64_t)( ( total + HYB_GH_PIECE - 1 ) / HYB_GH_PIECE );
#pragma omp parallel num_threads( threads )
	{
#pragma omp for schedule( static )
		for ( int64_t q = 0; q < npieces; q++ )
		{
			/* Piece q covers bytes [lo, hi) of the concatenated copies. */
			size_t lo = (size_t)q * HYB_GH_PIECE, hi = lo + HYB_GH_PIECE, at = 0;
			if ( hi > total ) hi = total;
			for ( int i = 0; i < nc && lo < hi; i++ )
			{
				size_t a = at, e = at + c[i].bytes;
				at = e;
				if ( e <= lo || a >= hi ) continue;
				size_t f = lo > a ? lo : a, t = hi < e ? hi : e;
				hyb_gh_copy1( c[i].dst + ( f - a ), c[i].src ? c[i].src + ( f - a ) : NULL, t - f );
			}
		}
		hyb_copy_fence(); /* each thread's streaming stores, before the DMA or the caller reads */
	}
}

/* ---------------------------------------------------------------------------------------
   One device: chunks streamed through HYB_GTSV_NBUF buffers.
   --------------------------------------------------------------------------------------- */

typedef struct
{
	hyb_gh_worker_t* w;
	hyb_dev_t*       dev;
	char*            host[HYB_GTSV_NBUF]; /* pinned buffer of each slot */
	char*            devm[HYB_GTSV_NBUF]; /* device buffer of each slot */
	int              seg[HYB_GTSV_NBUF];  /* segment held, -1 when free */
	hyb_devent_t*    ev_in[HYB_GTSV_NBUF];
	hyb_devent_t*    ev_k[HYB_GTSV_NBUF];
	hyb_devent_t*    ev_done[HYB_GTSV_NBUF];
	hyb_gh_copy_t*   cp;
} hyb_gh_dev_t;

/* x -= a * y in the call's precision. */
static void hyb_gh_axpy1( hyb_prec_t prec, void* x, const void* a, const void* y )
{
	if ( prec == HYB_PREC_D )
		*(double*)x -= *(const double*)a * *(const double*)y;
	else
		*(float*)x -= *(const float*)a * *(const float*)y;
}

/* The chunk of segment i as an independent system, column j: b[c0] -= dl[c0-1] x[c0-1]
   into *first and b[c1-1] -= du[c1-1] x[c1] into *last (the same value for one row), x from
   the seam records (DL(c0-1) is still the input: the chunk's own factors are written only
   when it is finished). */
static void hyb_gh_couple( const hyb_gh_run_t* R, int i, int64_t j, char* first, char* last )
{
	const hyb_gtsv_hetero_t* p   = R->p;
	const hyb_gh_seg_t*      g   = &R->seg[i];
	const size_t             es  = hyb_prec_size( p->prec );
	const char*              top = hyb_gh_rec( R, i );
	const char*              bot = hyb_gh_rec( R, i + 1 );
	if ( top )
		hyb_gh_axpy1( p->prec, first, (const char*)p->dl + (size_t)( g->c0 - 1 ) * es,
		              top + ( 1 + (size_t)j ) * es );
	if ( bot )
		hyb_gh_axpy1( p->prec, last, (const char*)p->du + (size_t)( g->c1 - 1 ) * es,
		              bot + ( 1 + (size_t)p->nrhs + (size_t)j ) * es );
}

/* Copy segment i into slot s (couplings to the outside moved to the right-hand side) and
   queue its upload, solve and download. */
static hyb_status_t hyb_gh_issue( hyb_gh_dev_t* D, int s, int i )
{
	hyb_gh_worker_t*         w  = D->w;
	const hyb_gtsv_hetero_t* p  = w->run->p;
	const hyb_gh_seg_t*      g  = &w->run->seg[i];
	const size_t             es = hyb_prec_size( p->prec );
	const int64_t            L = g->c1 - g->c0, nrhs = p->nrhs;
	const size_t             Lb = (size_t)L * es;
	char*                    h  = D->host[s];

	/* Layout of a slot, packed by this chunk's length: dl (L-1 used), d, du (L-1 used), B. */
	int nc = 0;
	if ( L > 1 )
	{
		D->cp[nc++] = ( hyb_gh_copy_t ){ h, (const char*)p->dl + (size_t)g->c0 * es, Lb - es };
		D->cp[nc++] =
		    ( hyb_gh_copy_t ){ h + 2 * Lb, (const char*)p->du + (size_t)g->c0 * es, Lb - es };
	}
	D->cp[nc++] = ( hyb_gh_copy_t ){ h + Lb, (const char*)p->d + (size_t)g->c0 * es, Lb };
	for ( int64_t j = 0; j < nrhs; j++ )
		D->cp[nc++] = ( hyb_gh_copy_t ){ h + ( 3 + (size_t)j ) * Lb,
			                             (const char*)p->b +
			                                 ( (size_t)g->c0 + (size_t)j * (size_t)p->ldb ) * es,
			                             Lb };
	double t0 = hyb_now();
	hyb_gh_copies( D->cp, nc, p->dev_threads );

	for ( int64_t j = 0; j < nrhs; j++ )
	{
		char* bj = h + ( 3 + (size_t)j ) * Lb;
		hyb_gh_couple( w->run, i, j, bj, bj + Lb - es );
	}
	w->t_stage += hyb_now() - t0;

	char*        dm = D->devm[s];
	size_t       up = ( 3 + (size_t)nrhs ) * Lb, down = (size_t)nrhs * Lb;
	hyb_dev_t*   d  = D->dev;
	hyb_status_t st = hyb_dev_h2d( d, HYB_STREAM_H2D, dm, up, h, up, up, 1 );
	if ( st == HYB_OK ) st = hyb_dev_record( d, HYB_STREAM_H2D, D->ev_in[s] );
	if ( st == HYB_OK ) st = hyb_dev_wait( d, HYB_STREAM_COMPUTE, D->ev_in[s] );
	if ( st == HYB_OK )
		st = hyb_dev_gtsv_spike( d, HYB_STREAM_COMPUTE, p->prec, L, nrhs, dm, dm + Lb, dm + 2 * Lb,
		                         dm + 3 * Lb, L, p->m );
	if ( st == HYB_OK ) st = hyb_dev_record( d, HYB_STREAM_COMPUTE, D->ev_k[s] );
	if ( st == HYB_OK ) st = hyb_dev_wait( d, HYB_STREAM_D2H, D->ev_k[s] );
	if ( st == HYB_OK )
		st = hyb_dev_d2h( d, HYB_STREAM_D2H, h + 3 * Lb, down, dm + 3 * Lb, down, down, 1 );
	if ( st == HYB_OK ) st = hyb_dev_record( d, HYB_STREAM_D2H, D->ev_done[s] );
	D->seg[s] = i;
	if ( st == HYB_OK )
	{
		w->h2d += (double)up;
		w->d2h += (double)down;
	}
	return st;
}

/* Take the chunk out of slot s and wait for its download (the wait counted). */
static hyb_status_t hyb_gh_await( hyb_gh_dev_t* D, int s, const hyb_gh_seg_t** g )
{
	*g              = &D->w->run->seg[D->seg[s]];
	D->seg[s]       = -1;
	double       t0 = hyb_now();
	hyb_status_t st = hyb_dev_sync( D->dev, D->ev_done[s] );
	D->w->t_wait += hyb_now() - t0;
	return st;
}

/* Wait for the chunk in slot s, write its factor outputs, copy X into B. */
static hyb_status_t hyb_gh_finish( hyb_gh_dev_t* D, int s )
{
	hyb_gh_worker_t*         w  = D->w;
	const hyb_gtsv_hetero_t* p  = w->run->p;
	int                      i  = D->seg[s];
	const hyb_gh_seg_t*      g  = NULL;
	hyb_status_t             st = hyb_gh_await( D, s, &g );
	if ( st != HYB_OK ) return st;
	const size_t  es = hyb_prec_size( p->prec );
	const int64_t L  = g->c1 - g->c0;
	const size_t  Lb = (size_t)L * es;
	double        t0;

	/* Factors first: the only step that can still fail (no memory), before B is touched. */
	if ( p->flags & HYB_GTSV_FACTORS )
	{
		t0 = hyb_now();
		st = hyb_gh_factors_range( p, g->c0, g->c1, hyb_gh_rec( w->run, i ), p->dev_threads );
		w->t_fac += hyb_now() - t0;
		if ( st != HYB_OK ) return st;
	}
	t0 = hyb_now();
	for ( int64_t j = 0; j < p->nrhs; j++ )
		D->cp[j] =
		    ( hyb_gh_copy_t ){ (char*)p->b + ( (size_t)g->c0 + (size_t)j * (size_t)p->ldb ) * es,
			                   D->host[s] + ( 3 + (size_t)j ) * Lb, Lb };
	hyb_gh_copies( D->cp, (int)p->nrhs, p->dev_threads );
	w->t_out += hyb_now() - t0;
	w->done += L;
	return HYB_OK;
}

/* Registered pages: the chunk's device buffer holds dl | du | d | d' | B (L rows each),
   its pinned buffer d' | X | the couplings (2 nrhs values). */
static double hyb_gh_elem( hyb_prec_t prec, const void* base, int64_t i )
{
	return prec == HYB_PREC_D ? ( (const double*)base )[i] : (double)( (const float*)base )[i];
}

/* Upload [src, src + bytes) of the application's registered pages: one DMA per
   registration it crosses (a copy spanning two was refused when tried); a plain copy if the
   range cannot be cut (CUDA then stages it itself, synchronously). */
static hyb_status_t hyb_gh_h2d_pinned( hyb_gh_dev_t* D, char* dst, const char* src, size_t bytes )
{
	hyb_gtsv_pin_span_t sp[64];
	int                 n = hyb_gtsv_pin_spans( D->w->run->p->pin, src, bytes, sp, 64 );
	if ( n < 0 ) return hyb_dev_h2d( D->dev, HYB_STREAM_H2D, dst, bytes, src, bytes, bytes, 1 );
	hyb_status_t st = HYB_OK;
	for ( int k = 0; k < n && st == HYB_OK; k++ )
		st = hyb_dev_h2d( D->dev, HYB_STREAM_H2D, dst + sp[k].off, sp[k].bytes, src + sp[k].off,
		                  sp[k].bytes, sp[k].bytes, 1 );
	return st;
}

/* Queue chunk i from the application's registered pages: its rows once registered, the
   two coupled rows of B corrected from the pinned scratch after them, the solve, the
   pivots d' (with factors) and the download of d' and X into the pinned buffer. */
static hyb_status_t hyb_gh_issue_pinned( hyb_gh_dev_t* D, int s, int i )
{
	hyb_gh_worker_t*         w  = D->w;
	const hyb_gtsv_hetero_t* p  = w->run->p;
	const hyb_gh_seg_t*      g  = &w->run->seg[i];
	const size_t             es = hyb_prec_size( p->prec );
	const int64_t            L = g->c1 - g->c0, nrhs = p->nrhs, c0 = g->c0;
	const size_t             Lb = (size_t)L * es, bpitch = (size_t)p->ldb * es;
	const int                fac = ( p->flags & HYB_GTSV_FACTORS ) != 0;
	char *                   h = D->host[s], *sc = h + ( 1 + (size_t)nrhs ) * Lb;
	char*                    dm = D->devm[s];
	hyb_dev_t*               d  = D->dev;

	double  t0 = hyb_now();
	int64_t at = hyb_gtsv_pin_wait( p->pin, g->c1 );
	w->t_pin += hyb_now() - t0;
	if ( at < g->c1 ) return HYB_E_NOT_SUPPORTED; /* refused: the CPU solves the rest */

	/* The couplings to the outside into the scratch (B itself is not written). */
	const char* top = hyb_gh_rec( w->run, i );
	const char* bot = hyb_gh_rec( w->run, i + 1 );
	const char* b0  = (const char*)p->b + (size_t)c0 * es;
	for ( int64_t j = 0; j < nrhs; j++ )
	{
		char* vt = sc + (size_t)j * es;
		char* vb = L > 1 ? sc + (size_t)( nrhs + j ) * es : vt;
		memcpy( vt, b0 + (size_t)j * bpitch, es );
		if ( L > 1 ) memcpy( vb, b0 + (size_t)j * bpitch + Lb - es, es );
		hyb_gh_couple( w->run, i, j, vt, vb );
	}

	char *d_dl = dm, *d_du = dm + Lb, *d_d = dm + 2 * Lb, *d_dp = dm + 3 * Lb, *d_b = dm + 4 * Lb;
	hyb_status_t st = HYB_OK;
	if ( L > 1 )
	{
		st = hyb_gh_h2d_pinned( D, d_dl, (const char*)p->dl + (size_t)c0 * es, Lb - es );
		if ( st == HYB_OK )
			st = hyb_gh_h2d_pinned( D, d_du, (const char*)p->du + (size_t)c0 * es, Lb - es );
	}
	if ( st == HYB_OK ) st = hyb_gh_h2d_pinned( D, d_d, (const char*)p->d + (size_t)c0 * es, Lb );
	for ( int64_t j = 0; j < nrhs && st == HYB_OK; j++ )
		st = hyb_gh_h2d_pinned( D, d_b + (size_t)j * Lb, b0 + (size_t)j * bpitch, Lb );
	/* the corrected first and last rows over the uploaded ones (same stream: in order) */
	for ( int64_t j = 0; j < nrhs && st == HYB_OK; j++ )
	{
		char* col = d_b + (size_t)j * Lb;
		if ( top || ( bot && L == 1 ) )
			st = hyb_dev_h2d( d, HYB_STREAM_H2D, col, es, sc + (size_t)j * es, es, es, 1 );
		if ( st == HYB_OK && bot && L > 1 )
			st = hyb_dev_h2d( d, HYB_STREAM_H2D, col + Lb - es, es, sc + (size_t)( nrhs + j ) * es,
			                  es, es, 1 );
	}
	if ( st == HYB_OK ) st = hyb_dev_record( d, HYB_STREAM_H2D, D->ev_in[s] );
	if ( st == HYB_OK ) st = hyb_dev_wait( d, HYB_STREAM_COMPUTE, D->ev_in[s] );
	if ( st == HYB_OK )
		st = hyb_dev_gtsv_spike( d, HYB_STREAM_COMPUTE, p->prec, L, nrhs, d_dl, d_d, d_du, d_b, L,
		                         p->m );
	if ( st == HYB_OK && fac )
	{
		/* d'[c0] from the seam's d'[c0-1] (LAPACK's recurrence), the rest on the device */
		double first = hyb_gh_elem( p->prec, p->d, c0 );
		if ( top )
			first -= hyb_gh_elem( p->prec, p->dl, c0 - 1 ) / hyb_gh_elem( p->prec, top, 0 ) *
			         hyb_gh_elem( p->prec, p->du, c0 - 1 );
		st = hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, p->prec, L, d_dl, d_d, d_du, d_dp, first,
		                          p->m );
	}
	if ( st == HYB_OK ) st = hyb_dev_record( d, HYB_STREAM_COMPUTE, D->ev_k[s] );
	if ( st == HYB_OK ) st = hyb_dev_wait( d, HYB_STREAM_D2H, D->ev_k[s] );
	size_t down = ( ( fac ? 1 : 0 ) + (size_t)nrhs ) * Lb;
	if ( st == HYB_OK )
		st = hyb_dev_d2h( d, HYB_STREAM_D2H, fac ? h : h + Lb, down, fac ? d_dp : d_b, down, down,
		                  1 );
	if ( st == HYB_OK ) st = hyb_dev_record( d, HYB_STREAM_D2H, D->ev_done[s] );
	D->seg[s] = i;
	if ( st == HYB_OK )
	{
		w->h2d += (double)( ( 3 + (size_t)nrhs ) * Lb );
		w->d2h += (double)down;
	}
	return st;
}

/* Wait for the chunk in slot s (registered pages), hand its rows back for unregistering,
   and write its outputs: X into B, d' into D, DL zeroed as LAPACK does (hyb_gh_serial). */
static hyb_status_t hyb_gh_finish_pinned( hyb_gh_dev_t* D, int s )
{
	hyb_gh_worker_t*         w  = D->w;
	const hyb_gtsv_hetero_t* p  = w->run->p;
	const hyb_gh_seg_t*      g  = NULL;
	hyb_status_t             st = hyb_gh_await( D, s, &g );
	if ( st != HYB_OK ) return st;
	const size_t  es = hyb_prec_size( p->prec );
	const int64_t L = g->c1 - g->c0, c0 = g->c0, c1 = g->c1;
	const size_t  Lb = (size_t)L * es;
	hyb_gtsv_pin_release( p->pin, c1 );

	double t0 = hyb_now();
	int    nc = 0;
	for ( int64_t j = 0; j < p->nrhs; j++ )
		D->cp[nc++] =
		    ( hyb_gh_copy_t ){ (char*)p->b + ( (size_t)c0 + (size_t)j * (size_t)p->ldb ) * es,
			                   D->host[s] + ( 1 + (size_t)j ) * Lb, Lb };
	if ( p->flags & HYB_GTSV_FACTORS )
	{
		D->cp[nc++] = ( hyb_gh_copy_t ){ (char*)p->d + (size_t)c0 * es, D->host[s], Lb };
		int64_t z0 = ( c0 > 1 ? c0 : 1 ) - 1, z1 = ( c1 < p->n - 1 ? c1 : p->n - 1 ) - 1;
		if ( z1 > z0 )
			D->cp[nc++] =
			    ( hyb_gh_copy_t ){ (char*)p->dl + (size_t)z0 * es, NULL, (size_t)( z1 - z0 ) * es };
	}
	hyb_gh_copies( D->cp, nc, p->dev_threads );
	w->t_out += hyb_now() - t0;
	w->done += L;
	return HYB_OK;
}

static hyb_status_t hyb_gh_dev_setup( hyb_gh_dev_t* D )
{
	hyb_gh_worker_t* w    = D->w;
	size_t           slot = w->slot_bytes;
	void *           dmem = NULL, *hmem = NULL;
	hyb_status_t     st = hyb_dev_workspace( D->dev, HYB_GTSV_NBUF * slot, &dmem );
	if ( st == HYB_OK ) st = hyb_dev_staging( D->dev, HYB_GTSV_NBUF * slot, &hmem );
	if ( st != HYB_OK ) return st;
	/* An injected asynchronous allocation fault reports success without a buffer. */
	if ( dmem == NULL || hmem == NULL ) return HYB_E_NO_MEMORY;
	for ( int s = 0; s < HYB_GTSV_NBUF; s++ )
	{
		D->devm[s] = (char*)dmem + (size_t)s * slot;
		D->host[s] = (char*)hmem + (size_t)s * slot;
		D->seg[s]  = -1;
		if ( ( st = hyb_dev_event_create( D->dev, &D->ev_in[s] ) ) != HYB_OK ) return st;
		if ( ( st = hyb_dev_event_create( D->dev, &D->ev_k[s] ) ) != HYB_OK ) return st;
		if ( ( st = hyb_dev_event_create( D->dev, &D->ev_done[s] ) ) != HYB_OK ) return st;
	}
	return HYB_OK;
}

static void* hyb_gh_worker_main( void* arg )
{
	hyb_gh_worker_t*         w  = arg;
	const hyb_gtsv_hetero_t* p  = w->run->p;
	double                   t0 = hyb_now();
	hyb_gh_dev_t             D;
	memset( &D, 0, sizeof D );
	D.w  = w;
	D.cp = malloc( (size_t)( 4 + p->nrhs ) * sizeof *D.cp );

	hyb_status_t st = D.cp ? HYB_OK : HYB_E_NO_MEMORY;
	if ( w->chunk < 1 ) st = HYB_E_NO_MEMORY; /* the budget cannot hold the buffers */
	if ( st == HYB_OK ) st = hyb_dev_acquire( w->dev, &D.dev );
	if ( st != HYB_OK ) D.dev = NULL;
	if ( st == HYB_OK ) st = hyb_gh_dev_setup( &D );
	if ( st == HYB_OK )
	{
		/* Chunk i goes into slot (i - s0) % NBUF; the chunk there before it is finished
		   first, so chunks finish in order and the finished rows are a prefix. */
		for ( int i = w->s0; i < w->s1 && st == HYB_OK; i++ )
		{
			int s = ( i - w->s0 ) % HYB_GTSV_NBUF;
			if ( D.seg[s] >= 0 )
				st = p->pin ? hyb_gh_finish_pinned( &D, s ) : hyb_gh_finish( &D, s );
			if ( st == HYB_OK )
				st = p->pin ? hyb_gh_issue_pinned( &D, s, i ) : hyb_gh_issue( &D, s, i );
		}
		for ( int i = w->s1 - HYB_GTSV_NBUF; i < w->s1 && st == HYB_OK; i++ )
		{
			if ( i < w->s0 ) continue;
			int s = ( i - w->s0 ) % HYB_GTSV_NBUF;
			if ( D.seg[s] == i )
				st = p->pin ? hyb_gh_finish_pinned( &D, s ) : hyb_gh_finish( &D, s );
		}
	}
	w->seconds = hyb_now() - t0;
	w->error   = st;
	if ( D.dev )
	{
		/* Nothing may still be copying into the pinned buffers when the context goes back
		   (a failed context is destroyed by the release). */
		for ( int k = 0; k < HYB_STREAM_COUNT; k++ ) hyb_dev_stream_sync( D.dev, k );
		for ( int s = 0; s < HYB_GTSV_NBUF; s++ )
		{
			hyb_dev_event_destroy( D.dev, D.ev_in[s] );
			hyb_dev_event_destroy( D.dev, D.ev_k[s] );
			hyb_dev_event_destroy( D.dev, D.ev_done[s] );
		}
		hyb_dev_release( D.dev );
	}
	free( D.cp );
	return NULL;
}

/* ---------------------------------------------------------------------------------------
   The call.
   --------------------------------------------------------------------------------------- */

int64_t hyb_gtsv_hetero_chunk( const hyb_gtsv_hetero_t* p, int dev, int64_t rows,
                               size_t* slot_bytes )
{
	const size_t es     = hyb_prec_size( p->prec );
	size_t       slot   = p->slot_bytes ? p->slot_bytes : HYB_GTSV_SLOT_BYTES;
	double       budget = hyb_dev_budget( dev ) * 0.95 / HYB_GTSV_NBUF;
	if ( (double)slot > budget ) slot = (size_t)budget;
	slot &= ~(size_t)255;
	if ( slot_bytes ) *slot_bytes = slot;
	/* a row of the device buffer: dl, d, du, B; registered pages also d' */
	size_t row = ( ( p->pin ? 4 : 3 ) + (size_t)p->nrhs ) * es;
	if ( rows < 1 || slot / row < 1024 ) return 0;
	int64_t c = p->chunk_rows > 0 ? p->chunk_rows
	            : p->chunk_fn     ? p->chunk_fn( rows, p->nrhs, es, slot, p->m, 2 * HYB_GTSV_NBUF )
	                              : (int64_t)( slot / row );
	if ( c > (int64_t)( slot / row ) ) c = (int64_t)( slot / row );
	if ( c > rows ) c = rows;
	return c;
}

static hyb_status_t hyb_gh_reg( void* ctx, void* p, size_t bytes )
{
	return hyb_dev_register( ctx, p, bytes );
}

static void hyb_gh_unreg( void* ctx, void* p )
{
	hyb_dev_unregister( ctx, p );
}

hyb_status_t hyb_gtsv_hetero_reg_start( const hyb_gtsv_hetero_t* p, hyb_gtsv_hetero_reg_t* reg )
{
	static const hyb_gtsv_pin_ops_t ops = { hyb_gh_reg, hyb_gh_unreg };
	memset( reg, 0, sizeof *reg );
	if ( p == NULL || p->ndev != 1 || p->nrhs < 1 || p->nrhs > HYB_GTSV_PIN_ARRAYS_MAX - 3 ||
	     p->dev_rows[0] < 1 || p->dev_rows[0] > p->n )
		return HYB_E_INVALID;
	const size_t         es = hyb_prec_size( p->prec );
	hyb_gtsv_pin_array_t a[HYB_GTSV_PIN_ARRAYS_MAX];
	int                  na = 0;
	a[na++]                 = ( hyb_gtsv_pin_array_t ){ p->dl, p->n - 1 };
	a[na++]                 = ( hyb_gtsv_pin_array_t ){ p->d, p->n };
	a[na++]                 = ( hyb_gtsv_pin_array_t ){ p->du, p->n - 1 };
	for ( int64_t j = 0; j < p->nrhs; j++ )
		a[na++] =
		    ( hyb_gtsv_pin_array_t ){ (const char*)p->b + (size_t)j * (size_t)p->ldb * es, p->n };
	hyb_dev_t*   dev = NULL;
	hyb_status_t st  = hyb_dev_acquire( 0, &dev );
	if ( st != HYB_OK ) return st;
	st = hyb_gtsv_pin_start( &ops, dev, a, na, es, p->dev_rows[0], 0, &reg->pin );
	if ( st != HYB_OK )
	{
		hyb_dev_release( dev );
		return st;
	}
	reg->dev = dev;
	return HYB_OK;
}

void hyb_gtsv_hetero_reg_finish( hyb_gtsv_hetero_reg_t* reg, hyb_gtsv_pin_report_t* rep )
{
	if ( rep ) memset( rep, 0, sizeof *rep );
	if ( reg == NULL || reg->pin == NULL ) return;
	hyb_gtsv_pin_finish( reg->pin, reg->dev, rep );
	hyb_dev_release( reg->dev );
	memset( reg, 0, sizeof *reg );
}

static int hyb_gh_valid( const hyb_gtsv_hetero_t* p )
{
	if ( p == NULL || ( p->prec != HYB_PREC_D && p->prec != HYB_PREC_S ) ) return 0;
	if ( p->n < 1 || p->nrhs < 1 || p->ldb < p->n || p->m < 1 || p->m > HYB_GTSV_WINDOW_MAX )
		return 0;
	if ( p->d == NULL || p->b == NULL || ( p->n > 1 && ( p->dl == NULL || p->du == NULL ) ) )
		return 0;
	if ( p->ndev < 0 || p->ndev > HYB_GTSV_DEV_MAX || p->ndev > hyb_devices_count() ) return 0;
	if ( p->ndev > 0 && p->dev_threads < 1 ) return 0;
	if ( p->pin && p->ndev != 1 ) return 0; /* registered pages: one device */
	int64_t sum = 0;
	for ( int k = 0; k < p->ndev; k++ )
	{
		if ( p->dev_rows[k] < 0 ) return 0;
		sum += p->dev_rows[k];
	}
	return sum <= p->n;
}

hyb_status_t hyb_gtsv_hetero_run( const hyb_gtsv_hetero_t* p, hyb_gtsv_hetero_report_t* r )
{
	double t_start = hyb_now();
	memset( r, 0, sizeof *r );
	if ( !hyb_gh_valid( p ) ) return HYB_E_INVALID;

	const int64_t n  = p->n;
	const size_t  es = hyb_prec_size( p->prec );

	/* Segments: each device's chunks, then the CPU's rows. */
	hyb_gh_worker_t w[HYB_GTSV_DEV_MAX];
	memset( w, 0, sizeof w );
	int64_t at = 0, nseg = 0;
	for ( int k = 0; k < p->ndev; k++ )
	{
		w[k].dev   = k;
		w[k].chunk = p->dev_rows[k] > 0
		                 ? hyb_gtsv_hetero_chunk( p, k, p->dev_rows[k], &w[k].slot_bytes )
		                 : 0;
		if ( p->dev_rows[k] > 0 )
			nseg += w[k].chunk > 0 ? ( p->dev_rows[k] + w[k].chunk - 1 ) / w[k].chunk : 1;
	}
	int64_t cpu0 = 0;
	for ( int k = 0; k < p->ndev; k++ ) cpu0 += p->dev_rows[k];
	if ( cpu0 < n ) nseg++;

	hyb_gh_run_t R = { .p = p, .nseg = (int)nseg };
	R.rec_bytes    = ( ( (size_t)hyb_gtsv_seam_len( p->nrhs ) * es + 63 ) / 64 ) * 64;
	R.seg          = malloc( (size_t)nseg * sizeof *R.seg );
	R.recs         = malloc( (size_t)( nseg > 1 ? nseg - 1 : 1 ) * R.rec_bytes );
	if ( R.seg == NULL || R.recs == NULL )
	{
		free( R.seg );
		free( R.recs );
		return HYB_E_NO_MEMORY;
	}
	int i = 0;
	for ( int k = 0; k < p->ndev; k++ )
	{
		int64_t rows = p->dev_rows[k];
		w[k].s0      = i;
		if ( rows > 0 )
		{
			/* A device whose buffers do not fit gets one segment: it fails at once and its
			   rows are solved on the CPU below. */
			int64_t c = w[k].chunk > 0 ? w[k].chunk : rows;
			for ( int64_t a = 0; a < rows; a += c )
				R.seg[i++] = ( hyb_gh_seg_t ){ at + a, at + ( a + c < rows ? a + c : rows ), k };
		}
		w[k].s1          = i;
		w[k].run         = &R;
		r->dev_chunks[k] = w[k].s1 - w[k].s0;
		at += rows;
	}
	if ( cpu0 < n ) R.seg[i++] = ( hyb_gh_seg_t ){ cpu0, n, -1 };
	r->cpu_rows = n - cpu0;

	/* (0) Every boundary's record from the unmodified arrays. */
	double t0  = hyb_now();
	int    bad = 0;
	int    nt  = p->cpu_threads > 0 ? p->cpu_threads : omp_get_max_threads();
	if ( R.nseg - 1 < 4 * nt ) nt = 1; /* a few seams of 2m rows each: not worth a team */
#pragma omp parallel for schedule( dynamic, 1 ) num_threads( nt ) reduction( | : bad ) if ( nt > 1 )
	for ( int q = 1; q < R.nseg; q++ )
		bad |= hyb_gh_seam( p, R.seg[q].c0, R.recs + (size_t)( q - 1 ) * R.rec_bytes ) != HYB_OK;
	r->seam_seconds = hyb_now() - t0;
	if ( bad )
	{
		free( R.seg );
		free( R.recs );
		return HYB_E_INVALID;
	}

	/* (1) The device workers. */
	pthread_t th[HYB_GTSV_DEV_MAX];
	int       started[HYB_GTSV_DEV_MAX] = { 0 };
	for ( int k = 0; k < p->ndev; k++ )
	{
		if ( w[k].s1 == w[k].s0 ) continue;
		started[k] = hyb_thread_create( &th[k], NULL, hyb_gh_worker_main, &w[k] ) == 0;
		if ( !started[k] ) w[k].error = HYB_E_NO_MEMORY;
	}

	/* (2) The CPU's rows, on this thread, meanwhile. */
	if ( cpu0 < n )
	{
		t0 = hyb_now();
		hyb_gh_cpu_rows( p, cpu0, n, hyb_gh_rec( &R, R.nseg - 1 ), NULL, p->cpu_threads );
		r->cpu_seconds = hyb_now() - t0;
	}

	/* (3) Join, then the rows a device did not finish (a suffix of its rows, untouched). */
	for ( int k = 0; k < p->ndev; k++ )
		if ( started[k] ) pthread_join( th[k], NULL );
	t0 = hyb_now();
	for ( int k = 0; k < p->ndev; k++ )
	{
		if ( w[k].s1 == w[k].s0 ) continue;
		r->dev_seconds[k] = w[k].seconds;
		r->dev_done[k]    = w[k].done;
		r->bytes_h2d += w[k].h2d;
		r->bytes_d2h += w[k].d2h;
		r->stage_seconds += w[k].t_stage;
		r->out_seconds += w[k].t_out;
		r->factor_seconds += w[k].t_fac;
		r->wait_seconds += w[k].t_wait;
		r->pin_wait_seconds += w[k].t_pin;
		if ( w[k].error != HYB_OK && r->error == HYB_OK ) r->error = w[k].error;
		if ( w[k].done >= p->dev_rows[k] ) continue;
		/* The first unfinished chunk starts a segment: its record exists. */
		int q = w[k].s0;
		while ( q < w[k].s1 && R.seg[q].c0 < R.seg[w[k].s0].c0 + w[k].done ) q++;
		int64_t a = R.seg[q].c0, e = R.seg[w[k].s1 - 1].c1;
		hyb_gh_cpu_rows( p, a, e, hyb_gh_rec( &R, q ), hyb_gh_rec( &R, w[k].s1 ), p->cpu_threads );
		r->fallback_rows += e - a;
		if ( w[k].error == HYB_OK )
			r->error = HYB_E_DEVICE; /* cannot happen: unfinished means failed */
	}
	if ( r->fallback_rows ) r->fallback_seconds = hyb_now() - t0;
	free( R.seg );
	free( R.recs );
	r->seconds = hyb_now() - t_start;
	return HYB_OK;
}
