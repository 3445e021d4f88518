/* SPDX-License-Identifier: BSD-3-Clause */
/* Page registration ahead of a tridiagonal system's uploads (see hyb_gtsv_pin.h). */
#define _GNU_SOURCE
#include "kernels/pipeline/hyb_gtsv_pin.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyb_thread.h"
#include "hyb_types.h"

/* One registration: pages [p, p + bytes), needed by the uploads of rows [0, need). */
typedef struct
{
	uintptr_t p;
	size_t    bytes;
	int64_t   need;
	int       live;
} hyb_pin_rec_t;

struct hyb_gtsv_pin_s
{
	hyb_gtsv_pin_ops_t   ops;
	void*                reg_ctx;
	hyb_gtsv_pin_array_t arr[HYB_GTSV_PIN_ARRAYS_MAX];
	int                  narr;
	size_t               elem, page;
	int64_t              rows, piece;
	hyb_thread_t         w; /* the thread, and the lock and condition shared with it */
	/* under w.mu */
	int64_t        at;       /* rows [0, at) of every array are registered */
	int64_t        released; /* the uploads of rows [0, released) are complete */
	int            ended;    /* the thread registers nothing more */
	int            stop;
	int            failed;
	hyb_pin_rec_t* rec;
	int            nrec, cap;
	double         reg_s, unreg_s, reg_bytes;
};

/* Rows [0, lim) of array a: the rows with a byte in [s, e) need these pages. */
static int64_t hyb_pin_need( const hyb_gtsv_pin_t* P, uintptr_t s, uintptr_t e )
{
	int64_t need = 0;
	for ( int a = 0; a < P->narr; a++ )
	{
		uintptr_t b   = (uintptr_t)P->arr[a].base;
		int64_t   lim = P->arr[a].len < P->rows ? P->arr[a].len : P->rows;
		if ( lim <= 0 || e <= b ) continue;
		int64_t r0 = s > b ? (int64_t)( ( s - b ) / P->elem ) : 0;
		int64_t r1 = (int64_t)( ( e - 1 - b ) / P->elem );
		if ( r1 > lim - 1 ) r1 = lim - 1;
		if ( r0 <= r1 && r1 + 1 > need ) need = r1 + 1;
	}
	return need;
}

static int hyb_pin_rec_cmp( const void* x, const void* y )
{
	uintptr_t a = ( (const hyb_pin_rec_t*)x )->p, b = ( (const hyb_pin_rec_t*)y )->p;
	return a < b ? -1 : a > b;
}

/* Register the pages of [s, e) not registered yet; 0, or -1 when refused. */
static int hyb_pin_range( hyb_gtsv_pin_t* P, uintptr_t s, uintptr_t e )
{
	/* The live registrations overlapping [s, e), by address (few: neighbours at most). */
	hyb_pin_rec_t ov[2 * HYB_GTSV_PIN_ARRAYS_MAX + 2];
	int           nov = 0;
	pthread_mutex_lock( &P->w.mu );
	for ( int i = P->nrec - 1; i >= 0 && nov < (int)( sizeof ov / sizeof ov[0] ); i-- )
		if ( P->rec[i].live && P->rec[i].p < e && P->rec[i].p + P->rec[i].bytes > s )
			ov[nov++] = P->rec[i];
	pthread_mutex_unlock( &P->w.mu );
	qsort( ov, (size_t)nov, sizeof ov[0], hyb_pin_rec_cmp );

	uintptr_t at = s;
	for ( int i = 0; i <= nov && at < e; i++ )
	{
		uintptr_t gap_end = i < nov ? ( ov[i].p > e ? e : ov[i].p ) : e;
		if ( gap_end > at )
		{
			double       t0 = hyb_now();
			hyb_status_t st = P->ops.reg( P->reg_ctx, (void*)at, gap_end - at );
			double       dt = hyb_now() - t0;
			pthread_mutex_lock( &P->w.mu );
			P->reg_s += dt;
			if ( st == HYB_OK && P->nrec == P->cap )
			{
				int            cap = P->cap ? 2 * P->cap : 64;
				hyb_pin_rec_t* r   = realloc( P->rec, (size_t)cap * sizeof *r );
				if ( r )
				{
					P->rec = r;
					P->cap = cap;
				}
			}
			int kept = st == HYB_OK && P->nrec < P->cap;
			if ( kept )
			{
				P->rec[P->nrec++] =
				    ( hyb_pin_rec_t ){ at, gap_end - at, hyb_pin_need( P, at, gap_end ), 1 };
				P->reg_bytes += (double)( gap_end - at );
			}
			pthread_mutex_unlock( &P->w.mu );
			if ( !kept )
			{
				/* No room to remember it: undo it rather than leave it registered. */
				if ( st == HYB_OK ) P->ops.unreg( P->reg_ctx, (void*)at );
				return -1;
			}
		}
		if ( i < nov && ov[i].p + ov[i].bytes > at ) at = ov[i].p + ov[i].bytes;
	}
	return 0;
}

/* Unregister the live registrations with need <= done (all of them with done < 0). */
static void hyb_pin_drop( hyb_gtsv_pin_t* P, int64_t done, void* ctx )
{
	for ( ;; )
	{
		uintptr_t take[32];
		int       nt = 0;
		pthread_mutex_lock( &P->w.mu );
		for ( int i = 0; i < P->nrec && nt < 32; i++ )
			if ( P->rec[i].live && ( done < 0 || P->rec[i].need <= done ) )
			{
				P->rec[i].live = 0;
				take[nt++]     = P->rec[i].p;
			}
		pthread_mutex_unlock( &P->w.mu );
		if ( nt == 0 ) return;
		double t0 = hyb_now();
		for ( int i = 0; i < nt; i++ ) P->ops.unreg( ctx, (void*)take[i] );
		double dt = hyb_now() - t0;
		pthread_mutex_lock( &P->w.mu );
		P->unreg_s += dt;
		pthread_mutex_unlock( &P->w.mu );
	}
}

/* Whether a live registration is no longer needed (under w.mu). */
static int hyb_pin_droppable( const hyb_gtsv_pin_t* P )
{
	for ( int i = 0; i < P->nrec; i++ )
		if ( P->rec[i].live && P->rec[i].need <= P->released ) return 1;
	return 0;
}

/* The thread: registers piece after piece, unregistering between them what the uploads no
   longer need; then unregisters behind the uploads until told to stop. Both on this one
   thread: the device's worker only reports its progress (measured: unregistering 8 MiB pieces
   on the worker cost it 220 ms of 430 on a 4 GiB system). */
static void* hyb_pin_main( void* arg )
{
	hyb_gtsv_pin_t* P   = arg;
	const uintptr_t pgm = (uintptr_t)P->page - 1;
	int             bad = 0;
	for ( int64_t r0 = 0; r0 < P->rows && !bad; r0 += P->piece )
	{
		int64_t r1 = r0 + P->piece < P->rows ? r0 + P->piece : P->rows;
		pthread_mutex_lock( &P->w.mu );
		int     stop = P->stop;
		int64_t done = P->released;
		pthread_mutex_unlock( &P->w.mu );
		if ( stop ) break;
		if ( done > 0 ) hyb_pin_drop( P, done, P->reg_ctx );
		for ( int a = 0; a < P->narr && !bad; a++ )
		{
			int64_t lim = P->arr[a].len < r1 ? P->arr[a].len : r1;
			if ( r0 >= lim ) continue;
			uintptr_t b = (uintptr_t)P->arr[a].base;
			uintptr_t s = ( b + (uintptr_t)r0 * P->elem ) & ~pgm;
			uintptr_t e = ( b + (uintptr_t)lim * P->elem + pgm ) & ~pgm;
			bad         = hyb_pin_range( P, s, e ) != 0;
		}
		if ( bad ) break;
		pthread_mutex_lock( &P->w.mu );
		P->at = r1;
		pthread_cond_broadcast( &P->w.cv );
		pthread_mutex_unlock( &P->w.mu );
	}
	pthread_mutex_lock( &P->w.mu );
	P->failed = bad;
	P->ended  = 1;
	pthread_cond_broadcast( &P->w.cv );
	for ( ;; )
	{
		while ( !P->stop && !hyb_pin_droppable( P ) ) pthread_cond_wait( &P->w.cv, &P->w.mu );
		int64_t done = P->stop ? -1 : P->released;
		pthread_mutex_unlock( &P->w.mu );
		hyb_pin_drop( P, done, P->reg_ctx );
		pthread_mutex_lock( &P->w.mu );
		if ( done < 0 ) break;
	}
	pthread_mutex_unlock( &P->w.mu );
	return NULL;
}

hyb_status_t hyb_gtsv_pin_start( const hyb_gtsv_pin_ops_t* ops, void* reg_ctx,
                                 const hyb_gtsv_pin_array_t* arr, int narr, size_t elem,
                                 int64_t rows, int64_t piece_rows, hyb_gtsv_pin_t** out )
{
	if ( out ) *out = NULL;
	if ( ops == NULL || ops->reg == NULL || ops->unreg == NULL || arr == NULL || out == NULL ||
	     narr < 1 || narr > HYB_GTSV_PIN_ARRAYS_MAX || elem == 0 || rows < 0 || piece_rows < 0 )
		return HYB_E_INVALID;
	for ( int a = 0; a < narr; a++ )
		if ( arr[a].base == NULL && arr[a].len > 0 ) return HYB_E_INVALID;
	hyb_gtsv_pin_t* P = calloc( 1, sizeof *P );
	if ( P == NULL ) return HYB_E_NO_MEMORY;
	P->ops     = *ops;
	P->reg_ctx = reg_ctx;
	memcpy( P->arr, arr, (size_t)narr * sizeof *arr );
	P->narr  = narr;
	P->elem  = elem;
	long pg  = sysconf( _SC_PAGESIZE );
	P->page  = pg > 0 ? (size_t)pg : 4096;
	P->rows  = rows;
	P->piece = piece_rows > 0 ? piece_rows : HYB_GTSV_PIN_PIECE_ROWS;
	if ( hyb_thread_start( &P->w, hyb_pin_main, P ) != HYB_OK )
	{
		free( P );
		return HYB_E_NO_MEMORY;
	}
	*out = P;
	return HYB_OK;
}

int64_t hyb_gtsv_pin_wait( hyb_gtsv_pin_t* P, int64_t want )
{
	pthread_mutex_lock( &P->w.mu );
	while ( P->at < want && !P->ended ) pthread_cond_wait( &P->w.cv, &P->w.mu );
	int64_t at = P->at;
	pthread_mutex_unlock( &P->w.mu );
	return at;
}

int hyb_gtsv_pin_spans( hyb_gtsv_pin_t* P, const void* p, size_t bytes, hyb_gtsv_pin_span_t* out,
                        int max )
{
	uintptr_t s = (uintptr_t)p, e = s + bytes, at = s;
	int       n = 0;
	pthread_mutex_lock( &P->w.mu );
	while ( at < e )
	{
		int i = P->nrec - 1;
		while ( i >= 0 &&
		        !( P->rec[i].live && P->rec[i].p <= at && at < P->rec[i].p + P->rec[i].bytes ) )
			i--;
		if ( i < 0 || n == max )
		{
			n = -1;
			break;
		}
		uintptr_t end = P->rec[i].p + P->rec[i].bytes < e ? P->rec[i].p + P->rec[i].bytes : e;
		out[n++]      = ( hyb_gtsv_pin_span_t ){ at - s, end - at };
		at            = end;
	}
	pthread_mutex_unlock( &P->w.mu );
	return n;
}

void hyb_gtsv_pin_release( hyb_gtsv_pin_t* P, int64_t done )
{
	if ( P == NULL ) return;
	pthread_mutex_lock( &P->w.mu );
	if ( done > P->released )
	{
		P->released = done;
		pthread_cond_broadcast( &P->w.cv );
	}
	pthread_mutex_unlock( &P->w.mu );
}

void hyb_gtsv_pin_finish( hyb_gtsv_pin_t* P, void* ctx, hyb_gtsv_pin_report_t* rep )
{
	if ( rep ) memset( rep, 0, sizeof *rep );
	if ( P == NULL ) return;
	pthread_mutex_lock( &P->w.mu );
	P->stop = 1;
	pthread_cond_broadcast( &P->w.cv );
	pthread_mutex_unlock( &P->w.mu );
	hyb_thread_join( &P->w );
	hyb_pin_drop( P, -1,
	              ctx ); /* the thread dropped everything; nothing, unless it was refused mid-way */
	if ( rep )
	{
		rep->reg_seconds   = P->reg_s;
		rep->unreg_seconds = P->unreg_s;
		rep->reg_bytes     = P->reg_bytes;
		rep->rows          = P->at;
		rep->failed        = P->failed;
	}
	hyb_thread_end( &P->w );
	free( P->rec );
	free( P );
}
