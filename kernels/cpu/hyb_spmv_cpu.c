/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP CPU SpMV kernels with MKL's legacy COO/CSR semantics, and the host kernels of the
   hybrid ELL/DIA + COO split. */
#include "kernels/cpu/hyb_spmv_cpu.h"

#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Work (entries + rows) below which one more thread is not worth its wake-up (a parallel
   region costs a few microseconds; 32 Ki entries take about that long per core). */
#define HYB_CPU_GRAIN 32768

/* Rows per tile of the ELL/DIA kernels and of the window reduction (16 KiB of doubles). */
#define HYB_CPU_TILE 2048

/* Windows of y per thread are used while their total length stays under 2m + this per
   thread; beyond that the entries are bucketed instead. */
#define HYB_CPU_WIN_SLACK 4096

static int hyb_cpu_threads( int nthreads, int64_t work )
{
	int     nth = nthreads > 0 ? nthreads : omp_get_max_threads();
	int64_t cap = work / HYB_CPU_GRAIN + 1;
	return cap < nth ? (int)cap : nth;
}

static inline int64_t hyb_cpu_part( int64_t n, int nt, int t )
{
	int64_t q = n / nt, r = n % nt;
	return q * t + ( t < r ? t : r );
}

static inline void hyb_cpu_put( void* y, int64_t i, double s, int isd, int add )
{
	if ( isd )
	{
		double* yd = y;
		yd[i]      = add ? yd[i] + s : s;
	}
	else
	{
		float* ys = y;
		ys[i]     = add ? (float)( (double)ys[i] + s ) : (float)s;
	}
}

static inline void hyb_cpu_zero( void* y, int64_t lo, int64_t hi, size_t vb )
{
	if ( hi > lo ) memset( (char*)y + (size_t)lo * vb, 0, (size_t)( hi - lo ) * vb );
}

/* Typed inner loops, one definition for both precisions (BLIS-style template). Every loop
   accumulates in double. Indices are trusted here: the entry point checks all of them in
   one pass before any loop runs, since a check inside the loops would find a bad index
   only after part of y was written. */
#define HYB_CPU_DEFINE_TYPED( ch, T )                                                              \
	/* sum of v[k] * x[c[k] - base] over [k0, k1); four partial sums, so that a row whose          \
	   x is in cache is not bound by the latency of one chain of additions */                      \
	static inline double hyb_dot_##ch( const T* v, const int* c, int base, const T* x, int64_t k0, \
	                                   int64_t k1 )                                                \
	{                                                                                              \
		double  s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                                            \
		int64_t k = k0;                                                                            \
		for ( ; k + 4 <= k1; k += 4 )                                                              \
		{                                                                                          \
			s0 += (double)v[k] * (double)x[c[k] - base];                                           \
			s1 += (double)v[k + 1] * (double)x[c[k + 1] - base];                                   \
			s2 += (double)v[k + 2] * (double)x[c[k + 2] - base];                                   \
			s3 += (double)v[k + 3] * (double)x[c[k + 3] - base];                                   \
		}                                                                                          \
		for ( ; k < k1; k++ ) s0 += (double)v[k] * (double)x[c[k] - base];                         \
		return ( s0 + s1 ) + ( s2 + s3 );                                                          \
	}                                                                                              \
	/* w[T[k] - base - wlo] += v[k] * x[S[k] - base], COO positions [k0, k1), checked before */    \
	static void hyb_scat_coo_##ch( const int* Tg, const int* Sr, const T* v, int base, const T* x, \
	                               int64_t k0, int64_t k1, double* w, int64_t wlo )                \
	{                                                                                              \
		for ( int64_t k = k0; k < k1; k++ )                                                        \
			w[(int64_t)Tg[k] - base - wlo] += (double)v[k] * (double)x[Sr[k] - base];              \
	}                                                                                              \
	/* w[ja[k] - base - wlo] += a[k] * x[i] for CSR rows [r0, r1), checked before */               \
	static void hyb_scat_csrt_##ch( const int* ia, const int* ja, const T* a, int base,            \
	                                const T* x, int64_t r0, int64_t r1, double* w, int64_t wlo )   \
	{                                                                                              \
		for ( int64_t i = r0; i < r1; i++ )                                                        \
		{                                                                                          \
			double xi = (double)x[i];                                                              \
			for ( int64_t k = (int64_t)ia[i] - base; k < (int64_t)ia[i + 1] - base; k++ )          \
				w[(int64_t)ja[k] - base - wlo] += (double)a[k] * xi;                               \
		}                                                                                          \
	}                                                                                              \
	/* acc[row[e] - r0] += v[e] * x[col[e]] over bucket entries [e0, e1) */                        \
	static void hyb_bin_acc_##ch( const int* row, const int* col, const T* v, const T* x,          \
	                              int64_t e0, int64_t e1, double* acc, int64_t r0 )                \
	{                                                                                              \
		for ( int64_t e = e0; e < e1; e++ ) acc[row[e] - r0] += (double)v[e] * (double)x[col[e]];  \
	}                                                                                              \
	/* acc[i - i0] = sum over the w slots of rows [i0, i1) of the ELL (dia == 0) or DIA part:      \
	   ELL slot j's column is ix[j*m + i] (-1: padding), DIA slot j is the diagonal of offset      \
	   ix[j] (zero slots skipped) */                                                               \
	static void hyb_slots_tile_##ch( int dia, int64_t m, int64_t w, const int* ix, const T* data,  \
	                                 const T* x, int64_t i0, int64_t i1, double* acc )             \
	{                                                                                              \
		for ( int64_t i = i0; i < i1; i++ ) acc[i - i0] = 0.0;                                     \
		for ( int64_t j = 0; j < w; j++ )                                                          \
		{                                                                                          \
			const T* vj = data + j * m;                                                            \
			if ( dia )                                                                             \
			{                                                                                      \
				int64_t o  = ix[j];                                                                \
				int64_t lo = i0 > -o ? i0 : -o, hi = i1 < m - o ? i1 : m - o;                      \
				for ( int64_t i = lo; i < hi; i++ )                                                \
				{                                                                                  \
					double v = (double)vj[i];                                                      \
					acc[i - i0] += v != 0.0 ? v * (double)x[i + o] : 0.0;                          \
				}                                                                                  \
			}                                                                                      \
			else                                                                                   \
			{                                                                                      \
				const int* cj = ix + j * m;                                                        \
				for ( int64_t i = i0; i < i1; i++ )                                                \
					if ( cj[i] >= 0 ) acc[i - i0] += (double)vj[i] * (double)x[cj[i]];             \
			}                                                                                      \
		}                                                                                          \
	}

HYB_CPU_DEFINE_TYPED( d, double )
HYB_CPU_DEFINE_TYPED( s, float )
#undef HYB_CPU_DEFINE_TYPED

static inline double hyb_dot( const void* v, const int* c, int base, const void* x, int64_t k0,
                              int64_t k1, int isd )
{
	return isd ? hyb_dot_d( v, c, base, x, k0, k1 ) : hyb_dot_s( v, c, base, x, k0, k1 );
}

/* ------------------------------------------------------------------ sorted COO */

enum
{
	HYB_CPU_DONE     = 0,
	HYB_CPU_UNSORTED = 1 /* rows not sorted (or outside [0, m)): use the scatter path */
};

/* y := P*x (add == 0) or y += P*x for a COO whose target rows T are assumed non-decreasing.
   The entries are cut into equal parts moved forward to row boundaries; part t owns the
   rows from its first row up to the first row of part t+1. All threads first check that
   these ranges are in order (so they are disjoint), then each writes its rows once (empty
   ones as zero), checking as it goes that every row it meets lies ahead of the last one
   written and inside its range. A part that finds otherwise stops, so no thread ever writes
   a row another owns, sorted input or not; the caller then redoes the product another way. */
static int hyb_coo_sorted( int64_t m, int64_t nnz, const int* Tg, const int* Sr, const void* val,
                           int base, const void* x, void* y, int add, int isd, int nth )
{
	const size_t vb  = isd ? sizeof( double ) : sizeof( float );
	int          uns = 0;
	int64_t      own[1025];
	if ( nth > 1024 ) nth = 1024;
#pragma omp parallel num_threads( nth )
	{
		int     nt = omp_get_num_threads(), t = omp_get_thread_num();
		int64_t lo = hyb_cpu_part( nnz, nt, t ), hi = hyb_cpu_part( nnz, nt, t + 1 );
		while ( lo > 0 && lo < nnz && Tg[lo] == Tg[lo - 1] ) lo++;
		while ( hi > 0 && hi < nnz && Tg[hi] == Tg[hi - 1] ) hi++;
		own[t] = t == 0 ? 0 : ( lo < nnz ? (int64_t)Tg[lo] - base : m );
		if ( t == nt - 1 ) own[nt] = m;
#pragma omp barrier
		/* every thread reaches the same verdict on the ranges: all write, or none */
		int myuns = 0;
		for ( int q = 0; q < nt; q++ ) myuns |= own[q] < 0 || own[q] > own[q + 1] || own[q + 1] > m;
		int64_t own_lo = own[t], own_hi = own[t + 1];
		int64_t next = own_lo;
		for ( int64_t k = lo; k < hi && !myuns; )
		{
			int64_t r = (int64_t)Tg[k] - base;
			if ( r < next || r >= own_hi )
			{
				myuns = 1;
				break;
			}
			int64_t e = k + 1;
			while ( e < hi && Tg[e] == Tg[k] ) e++;
			if ( !add ) hyb_cpu_zero( y, next, r, vb );
			hyb_cpu_put( y, r, hyb_dot( val, Sr, base, x, k, e, isd ), isd, add );
			next = r + 1;
			k    = e;
		}
		if ( !myuns && !add ) hyb_cpu_zero( y, next, own_hi, vb );
		if ( myuns )
		{
#pragma omp atomic write
			uns = 1;
		}
	}
	return uns ? HYB_CPU_UNSORTED : HYB_CPU_DONE;
}

/* ------------------------------------------------------------------ CSR with 'N' */

/* y := A*x row by row; every index checked before (hyb_spmv_src_validate). */
static void hyb_csr_rows( const hyb_spmv_src_t* s, const void* x, void* y, int nth )
{
	const int64_t m   = s->m;
	const int     isd = s->prec == HYB_PREC_D, base = s->base;
	int64_t       cut[1025];
	if ( nth > 1024 ) nth = 1024;
#pragma omp parallel num_threads( nth )
	{
		int t = omp_get_thread_num();
#pragma omp single
		hyb_spmv_row_cuts( s->ia, 0, m, omp_get_num_threads(), cut );
		for ( int64_t i = cut[t]; i < cut[t + 1]; i++ )
			hyb_cpu_put( y, i,
			             hyb_dot( s->val, s->ja, base, x, (int64_t)s->ia[i] - base,
			                      (int64_t)s->ia[i + 1] - base, isd ),
			             isd, 0 );
	}
}

/* ------------------------------------------------------------------ scatter products */

/* Chunks of the source for the scatter path: COO positions, or CSR rows balanced by entries. */
static void hyb_scatter_cuts( const hyb_spmv_src_t* s, int nt, int64_t* cut )
{
	if ( s->layout == HYB_SPMV_CSR )
		hyb_spmv_row_cuts( s->ia, 0, s->m, nt, cut );
	else
		for ( int i = 0; i <= nt; i++ ) cut[i] = hyb_cpu_part( s->nnz, nt, i );
}

/* Accumulate chunk [lo, hi) of the source into the double window w covering target rows
   [wlo, ...). */
static void hyb_scatter_chunk( const hyb_spmv_src_t* s, const void* x, int64_t lo, int64_t hi,
                               double* w, int64_t wlo )
{
	int isd = s->prec == HYB_PREC_D;
	if ( s->layout == HYB_SPMV_COO )
	{
		const int* Tg = s->trans ? s->colind : s->rowind;
		const int* Sr = s->trans ? s->rowind : s->colind;
		if ( isd )
			hyb_scat_coo_d( Tg, Sr, s->val, s->base, x, lo, hi, w, wlo );
		else
			hyb_scat_coo_s( Tg, Sr, s->val, s->base, x, lo, hi, w, wlo );
	}
	else if ( isd )
		hyb_scat_csrt_d( s->ia, s->ja, s->val, s->base, x, lo, hi, w, wlo );
	else
		hyb_scat_csrt_s( s->ia, s->ja, s->val, s->base, x, lo, hi, w, wlo );
}

/* y[lo..hi) := sum of the windows that cover each row (0 where none does). */
static void hyb_window_reduce( int64_t lo, int64_t hi, int nw, const int64_t* wmin,
                               const int64_t* wmax, const int64_t* woff, const double* win, void* y,
                               int isd )
{
	double acc[HYB_CPU_TILE];
	for ( int64_t a = lo; a < hi; a += HYB_CPU_TILE )
	{
		int64_t b = a + HYB_CPU_TILE < hi ? a + HYB_CPU_TILE : hi;
		for ( int64_t i = a; i < b; i++ ) acc[i - a] = 0.0;
		for ( int c = 0; c < nw; c++ )
		{
			int64_t       p = wmin[c] > a ? wmin[c] : a, q = wmax[c] + 1 < b ? wmax[c] + 1 : b;
			const double* wc = win + woff[c] - wmin[c];
			for ( int64_t i = p; i < q; i++ ) acc[i - a] += wc[i];
		}
		for ( int64_t i = a; i < b; i++ ) hyb_cpu_put( y, i, acc[i - a], isd, 0 );
	}
}

/* Bucketed scatter: entries grouped by blocks of rows, one block per task. */
static hyb_status_t hyb_scatter_bins( const hyb_spmv_src_t* s, const void* x, void* y, int nth )
{
	hyb_spmv_bins_t b;
	int64_t         block = ( s->m + 4 * (int64_t)nth - 1 ) / ( 4 * (int64_t)nth );
	if ( block > 65536 ) block = 65536;
	if ( block < 1 ) block = 1;
	hyb_status_t st = hyb_spmv_bins_build( s, block, nth, &b );
	if ( st != HYB_OK ) return st;
	double* acc = malloc( (size_t)nth * (size_t)block * sizeof( double ) );
	if ( !acc )
	{
		hyb_spmv_bins_free( &b );
		return HYB_E_NO_MEMORY;
	}
	int isd = s->prec == HYB_PREC_D;
#pragma omp parallel num_threads( nth )
	{
		double* a = acc + (size_t)omp_get_thread_num() * (size_t)block;
#pragma omp for schedule( dynamic, 1 )
		for ( int64_t p = 0; p < b.nblocks; p++ )
		{
			int64_t r0 = p * block, r1 = r0 + block < s->m ? r0 + block : s->m;
			for ( int64_t i = 0; i < r1 - r0; i++ ) a[i] = 0.0;
			if ( isd )
				hyb_bin_acc_d( b.row, b.col, b.val, x, b.bptr[p], b.bptr[p + 1], a, r0 );
			else
				hyb_bin_acc_s( b.row, b.col, b.val, x, b.bptr[p], b.bptr[p + 1], a, r0 );
			for ( int64_t i = r0; i < r1; i++ ) hyb_cpu_put( y, i, a[i - r0], isd, 0 );
		}
	}
	free( acc );
	hyb_spmv_bins_free( &b );
	return HYB_OK;
}

/* y := P*x when the entries are not grouped by row of P (unsorted COO, COO or CSR with
   'T'). Pass 1 checks every index and finds each chunk's range of target rows. If these
   windows overlap little, each thread accumulates its chunk into a private window and the
   windows are summed into y; otherwise the entries are bucketed by row blocks. */
static hyb_status_t hyb_scatter( const hyb_spmv_src_t* s, const void* x, void* y, int nth )
{
	const int64_t  m    = s->m;
	const int      base = s->base, isd = s->prec == HYB_PREC_D;
	const uint64_t um = (uint64_t)m;
	if ( nth > 1024 ) nth = 1024;
	int64_t cut[1025], wmin[1024], wmax[1024], woff[1025];
	int     bad = 0, nw = 1;
#pragma omp parallel num_threads( nth )
	{
		int nt = omp_get_num_threads(), t = omp_get_thread_num(), mybad = 0;
#pragma omp single
		{
			nw = nt;
			hyb_scatter_cuts( s, nt, cut );
		}
		/* min/max reductions (they vectorise); the ranges are checked afterwards */
		int64_t lo = cut[t], hi = cut[t + 1];
		int     tmn = INT_MAX, tmx = INT_MIN, smn = INT_MAX, smx = INT_MIN;
		if ( s->layout == HYB_SPMV_COO )
		{
			const int* Tg = s->trans ? s->colind : s->rowind;
			const int* Sr = s->trans ? s->rowind : s->colind;
#pragma omp simd   reduction( min : tmn, smn ) reduction( max : tmx, smx )
            for ( int64_t k = lo; k < hi; k++ )
            {
				  tmn = Tg[k] < tmn ? Tg[k] : tmn;
				  tmx = Tg[k] > tmx ? Tg[k] : tmx;
				  smn = Sr[k] < smn ? Sr[k] : smn;
				  smx = Sr[k] > smx ? Sr[k] : smx;
            }
		  }
		  else
		  {
			  for ( int64_t i = lo; i < hi; i++ ) mybad |= s->ia[i + 1] < s->ia[i];
            int64_t k0 = lo < hi ? (int64_t)s->ia[lo] - base : 0,
			          k1 = lo < hi ? (int64_t)s->ia[hi] - base : 0;
			  mybad |= k0 < 0;
			  if ( mybad ) k1 = k0; /* ia is broken: do not read ja through it */
            const int* ja = s->ja;
  #pragma omp simd reduction( min : tmn ) reduction( max : tmx )
            for ( int64_t k = k0; k < k1; k++ )
            {
				  tmn = ja[k] < tmn ? ja[k] : tmn;
				  tmx = ja[k] > tmx ? ja[k] : tmx;
            }
		  }
		  int64_t mn = (int64_t)tmn - base, mx = (int64_t)tmx - base;
		  if ( tmx != INT_MIN ) mybad |= (uint64_t)mn >= um || (uint64_t)mx >= um;
        if ( smx != INT_MIN )
            mybad |=
                (uint64_t)( (int64_t)smn - base ) >= um || (uint64_t)( (int64_t)smx - base ) >= um;
        wmin[t] = tmx != INT_MIN ? mn : 0;
		  wmax[t] = tmx != INT_MIN ? mx : -1; /* empty window: [0, -1] */
		  if ( mybad )
		  {
#pragma omp atomic write
			bad = 1;
		}
	}
	if ( bad ) return HYB_E_INVALID;

	woff[0] = 0;
	for ( int c = 0; c < nw; c++ ) woff[c + 1] = woff[c] + ( wmax[c] - wmin[c] + 1 );
	/* Windows cost about 16 bytes of traffic per window slot (zeroing and summing them),
	   buckets about 36 per entry (count, write, read): take the windows while they are
	   cheaper, and in any case while they overlap little. */
	double* win = NULL;
	if ( woff[nw] <= 2 * ( s->nnz + m ) || woff[nw] <= 2 * m + (int64_t)nw * HYB_CPU_WIN_SLACK )
		win = malloc( (size_t)( woff[nw] > 0 ? woff[nw] : 1 ) * sizeof( double ) );
	if ( win )
	{
#pragma omp parallel num_threads( nth )
		{
			int nt = omp_get_num_threads(), t = omp_get_thread_num();
			/* the team may be smaller than the one that cut the chunks: loop over them */
			for ( int c = t; c < nw; c += nt )
			{
				double* w = win + woff[c];
				for ( int64_t i = 0; i < woff[c + 1] - woff[c]; i++ ) w[i] = 0.0;
				hyb_scatter_chunk( s, x, cut[c], cut[c + 1], w, wmin[c] );
			}
#pragma omp barrier
			hyb_window_reduce( hyb_cpu_part( m, nt, t ), hyb_cpu_part( m, nt, t + 1 ), nw, wmin,
			                   wmax, woff, win, y, isd );
		}
		free( win );
		return HYB_OK;
	}
	hyb_status_t st = hyb_scatter_bins( s, x, y, nth );
	if ( st != HYB_E_NO_MEMORY ) return st;
	/* Last resort, serial: one window over all of y. */
	win = calloc( (size_t)( m > 0 ? m : 1 ), sizeof( double ) );
	if ( !win ) return HYB_E_NO_MEMORY;
	hyb_scatter_chunk( s, x, 0, s->layout == HYB_SPMV_CSR ? m : s->nnz, win, 0 );
	for ( int64_t i = 0; i < m; i++ ) hyb_cpu_put( y, i, win[i], isd, 0 );
	free( win );
	return HYB_OK;
}

/* ------------------------------------------------------------------ entry points */

hyb_status_t hyb_spmv_cpu_omp( const hyb_spmv_src_t* s, const void* x, void* y, int nthreads )
{
	if ( s->m == 0 ) return HYB_OK;
	if ( !x || !y ) return HYB_E_INVALID;
	int isd = s->prec == HYB_PREC_D;
	int nth = hyb_cpu_threads( nthreads, s->nnz + s->m );
	/* Bad input changes nothing: the row-partitioned kernels write y as they go and read x
	   through the column indices, so every index is checked before they start (one pass
	   over the index arrays, which also tells whether a COO is sorted by rows). The
	   scatter path checks the indices itself in its first pass, which writes nothing. */
	if ( s->layout == HYB_SPMV_COO || !s->trans )
	{
		int grouped = 0;
		if ( hyb_spmv_src_validate( s, nth, &grouped ) != HYB_OK ) return HYB_E_INVALID;
		if ( s->layout == HYB_SPMV_CSR )
		{
			hyb_csr_rows( s, x, y, nth );
			return HYB_OK;
		}
		const int* Tg = s->trans ? s->colind : s->rowind;
		const int* Sr = s->trans ? s->rowind : s->colind;
		if ( grouped && hyb_coo_sorted( s->m, s->nnz, Tg, Sr, s->val, s->base, x, y, 0, isd,
		                                nth ) == HYB_CPU_DONE )
			return HYB_OK;
	}
	return hyb_scatter( s, x, y, nth );
}

hyb_status_t hyb_dcoomv_cpu_omp( char transa, int64_t m, const double* val, const int* rowind,
                                 const int* colind, int64_t nnz, int base, const double* x,
                                 double* y, int nthreads )
{
	hyb_spmv_src_t s;
	hyb_status_t st = hyb_spmv_src_coo( transa, m, HYB_PREC_D, val, rowind, colind, nnz, base, &s );
	return st != HYB_OK ? st : hyb_spmv_cpu_omp( &s, x, y, nthreads );
}

hyb_status_t hyb_scoomv_cpu_omp( char transa, int64_t m, const float* val, const int* rowind,
                                 const int* colind, int64_t nnz, int base, const float* x, float* y,
                                 int nthreads )
{
	hyb_spmv_src_t s;
	hyb_status_t st = hyb_spmv_src_coo( transa, m, HYB_PREC_S, val, rowind, colind, nnz, base, &s );
	return st != HYB_OK ? st : hyb_spmv_cpu_omp( &s, x, y, nthreads );
}

hyb_status_t hyb_dcsrmv_cpu_omp( char transa, int64_t m, const double* a, const int* ia,
                                 const int* ja, int base, const double* x, double* y, int nthreads )
{
	hyb_spmv_src_t s;
	hyb_status_t   st = hyb_spmv_src_csr( transa, m, HYB_PREC_D, a, ia, ja, base, &s );
	return st != HYB_OK ? st : hyb_spmv_cpu_omp( &s, x, y, nthreads );
}

hyb_status_t hyb_scsrmv_cpu_omp( char transa, int64_t m, const float* a, const int* ia,
                                 const int* ja, int base, const float* x, float* y, int nthreads )
{
	hyb_spmv_src_t s;
	hyb_status_t   st = hyb_spmv_src_csr( transa, m, HYB_PREC_S, a, ia, ja, base, &s );
	return st != HYB_OK ? st : hyb_spmv_cpu_omp( &s, x, y, nthreads );
}

/* ------------------------------------------------------------------ hybrid pieces */

static hyb_status_t hyb_cooadd( int64_t m, int64_t nnz, const int* row, const int* col,
                                const void* val, const void* x, void* y, int isd, int nthreads )
{
	if ( m < 0 || nnz < 0 ) return HYB_E_INVALID;
	if ( nnz == 0 || m == 0 ) return HYB_OK;
	int nth = hyb_cpu_threads( nthreads, nnz );
	int r   = hyb_coo_sorted( m, nnz, row, col, val, 0, x, y, 1, isd, nth );
	return r == HYB_CPU_DONE ? HYB_OK : HYB_E_INVALID;
}

hyb_status_t hyb_dcooaddmv_cpu_omp( int64_t m, int64_t nnz, const int* row, const int* col,
                                    const double* val, const double* x, double* y, int nthreads )
{
	return hyb_cooadd( m, nnz, row, col, val, x, y, 1, nthreads );
}

hyb_status_t hyb_scooaddmv_cpu_omp( int64_t m, int64_t nnz, const int* row, const int* col,
                                    const float* val, const float* x, float* y, int nthreads )
{
	return hyb_cooadd( m, nnz, row, col, val, x, y, 0, nthreads );
}

/* Tiles of rows, each computed into a stack buffer and stored once. fmt: 0 ELL, 1 DIA. */
static void hyb_tiled( int fmt, int64_t m, int64_t w, const int* ix, const void* data,
                       const void* x, void* y, int accumulate, int isd, int nthreads )
{
	if ( m <= 0 ) return;
	int     nth   = hyb_cpu_threads( nthreads, m * ( w > 0 ? w : 1 ) );
	int64_t ntile = ( m + HYB_CPU_TILE - 1 ) / HYB_CPU_TILE;
#pragma omp parallel num_threads( nth )
	{
		double acc[HYB_CPU_TILE];
#pragma omp for schedule( static )
		for ( int64_t tile = 0; tile < ntile; tile++ )
		{
			int64_t i0 = tile * HYB_CPU_TILE, i1 = i0 + HYB_CPU_TILE < m ? i0 + HYB_CPU_TILE : m;
			if ( isd )
				hyb_slots_tile_d( fmt, m, w, ix, data, x, i0, i1, acc );
			else
				hyb_slots_tile_s( fmt, m, w, ix, data, x, i0, i1, acc );
			for ( int64_t i = i0; i < i1; i++ ) hyb_cpu_put( y, i, acc[i - i0], isd, accumulate );
		}
	}
}

void hyb_dellmv_cpu_omp( int64_t m, int64_t K, const int* index, const double* data,
                         const double* x, double* y, int accumulate, int nthreads )
{
	hyb_tiled( 0, m, K, index, data, x, y, accumulate, 1, nthreads );
}

void hyb_sellmv_cpu_omp( int64_t m, int64_t K, const int* index, const float* data, const float* x,
                         float* y, int accumulate, int nthreads )
{
	hyb_tiled( 0, m, K, index, data, x, y, accumulate, 0, nthreads );
}

void hyb_ddiamv_cpu_omp( int64_t m, int64_t ndiag, const int* offset, const double* data,
                         const double* x, double* y, int accumulate, int nthreads )
{
	hyb_tiled( 1, m, ndiag, offset, data, x, y, accumulate, 1, nthreads );
}

void hyb_sdiamv_cpu_omp( int64_t m, int64_t ndiag, const int* offset, const float* data,
                         const float* x, float* y, int accumulate, int nthreads )
{
	hyb_tiled( 1, m, ndiag, offset, data, x, y, accumulate, 0, nthreads );
}
