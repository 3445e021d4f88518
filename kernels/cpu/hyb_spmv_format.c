/* SPDX-License-Identifier: BSD-3-Clause */
/* Sparse formats of the hybrid SpMV: row grouping, distribution function, diagonal
   statistics and the ELL/DIA + COO split of seed 001, all parallel and O(nnz). */
#include "kernels/cpu/hyb_spmv_format.h"

#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Rows per tile when a row-parallel loop writes column-major arrays: the tile's source
   entries and its slice of every column stay in cache while the columns are written. */
#define HYB_FMT_TILE 256

/* Rows per bucket when the source must be regrouped: 64 Ki rows of doubles is 512 KiB,
   about one core's L2, so a bucket's rows are built in cache. */
#define HYB_FMT_BLOCK 65536

/* Lengths below this are counted in per-thread histograms; longer rows (rare: at most
   nnz / 4096 of them) go straight to the shared one with an atomic add. */
#define HYB_FMT_DF_LOCAL 4096

static int hyb_fmt_threads( int nthreads )
{
	return nthreads > 0 ? nthreads : omp_get_max_threads();
}

/* First item of part t when n items are cut into nt nearly equal parts. */
static inline int64_t hyb_part_lo( int64_t n, int nt, int t )
{
	int64_t q = n / nt, r = n % nt;
	return q * t + ( t < r ? t : r );
}

static void* hyb_fmt_alloc( const hyb_spmv_alloc_t* al, size_t bytes )
{
	if ( bytes == 0 ) bytes = 64; /* never NULL for an empty array */
	if ( al && al->alloc ) return al->alloc( al->ctx, bytes );
	void* p = NULL;
	if ( posix_memalign( &p, 64, bytes ) != 0 ) return NULL;
	return p;
}

static void hyb_fmt_release( const hyb_spmv_alloc_t* al, void* p, size_t bytes )
{
	if ( !p ) return;
	if ( al && al->alloc )
	{
		if ( al->release ) al->release( al->ctx, p, bytes == 0 ? 64 : bytes );
		return;
	}
	free( p );
}

/* Exclusive prefix sum in place: a[0..n-1] are counts on entry, a[i] becomes the sum of
   the counts before i and a[n] the total. Parallel in two sweeps. */
void hyb_scan_excl( int64_t* a, int64_t n, int nth )
{
	if ( n < 65536 || nth == 1 )
	{
		int64_t run = 0;
		for ( int64_t i = 0; i < n; i++ )
		{
			int64_t c = a[i];
			a[i]      = run;
			run += c;
		}
		a[n] = run;
		return;
	}
	int64_t part[1025];
	if ( nth > 1024 ) nth = 1024;
#pragma omp parallel num_threads( nth )
	{
		int     nt = omp_get_num_threads(), t = omp_get_thread_num();
		int64_t lo = hyb_part_lo( n, nt, t ), hi = hyb_part_lo( n, nt, t + 1 ), s = 0;
		for ( int64_t i = lo; i < hi; i++ ) s += a[i];
		part[t + 1] = s;
#pragma omp barrier
#pragma omp          single
        {
            part[0] = 0;
            for ( int i = 1; i <= nt; i++ ) part[i] += part[i - 1];
            a[n] = part[nt];
        }
        int64_t run = part[t];
        for ( int64_t i = lo; i < hi; i++ )
        {
			         int64_t c = a[i];
			         a[i]      = run;
			         run += c;
        }
	}
}

int hyb_spmv_trans_flag( char transa )
{
	switch ( transa )
	{
	case 'N':
	case 'n':
		return 0;
	case 'T':
	case 't':
	case 'C':
	case 'c':
		return 1;
	default:
		return -1;
	}
}

static int hyb_fmt_prec_ok( hyb_prec_t prec )
{
	return prec == HYB_PREC_S || prec == HYB_PREC_D;
}

hyb_status_t hyb_spmv_src_coo( char transa, int64_t m, hyb_prec_t prec, const void* val,
                               const int* rowind, const int* colind, int64_t nnz, int base,
                               hyb_spmv_src_t* src )
{
	memset( src, 0, sizeof *src );
	int tr = hyb_spmv_trans_flag( transa );
	if ( tr < 0 || m < 0 || m > INT_MAX || nnz < 0 || ( base != 0 && base != 1 ) ||
	     !hyb_fmt_prec_ok( prec ) )
		return HYB_E_INVALID;
	if ( nnz > 0 && ( !val || !rowind || !colind ) ) return HYB_E_INVALID;
	src->layout = HYB_SPMV_COO;
	src->prec   = prec;
	src->trans  = tr;
	src->base   = base;
	src->m      = m;
	src->nnz    = m > 0 ? nnz : 0;
	src->val    = val;
	src->rowind = rowind;
	src->colind = colind;
	return HYB_OK;
}

hyb_status_t hyb_spmv_src_csr( char transa, int64_t m, hyb_prec_t prec, const void* a,
                               const int* ia, const int* ja, int base, hyb_spmv_src_t* src )
{
	memset( src, 0, sizeof *src );
	int tr = hyb_spmv_trans_flag( transa );
	if ( tr < 0 || m < 0 || m > INT_MAX || ( base != 0 && base != 1 ) || !hyb_fmt_prec_ok( prec ) )
		return HYB_E_INVALID;
	int64_t nnz = 0;
	if ( m > 0 )
	{
		if ( !ia ) return HYB_E_INVALID;
		if ( ia[0] < base || ia[m] < ia[0] ) return HYB_E_INVALID;
		nnz = (int64_t)ia[m] - ia[0];
		if ( nnz > 0 && ( !a || !ja ) ) return HYB_E_INVALID;
	}
	src->layout = HYB_SPMV_CSR;
	src->prec   = prec;
	src->trans  = tr;
	src->base   = base;
	src->m      = m;
	src->nnz    = nnz;
	src->val    = a;
	src->ia     = ia;
	src->ja     = ja;
	return HYB_OK;
}

/* Nonzero when an index a[k] - base, k in [lo, hi), lies outside [0, um). In unsigned
   arithmetic a value below the base wraps to a large one (and INT_MIN - 1 cannot
   overflow), so one compare per index serves both bounds; the OR-reduction vectorises. */
static inline unsigned hyb_fmt_outside( const int* a, int64_t lo, int64_t hi, unsigned base,
                                        unsigned um )
{
	unsigned bad = 0;
	for ( int64_t k = lo; k < hi; k++ ) bad |= (unsigned)a[k] - base >= um;
	return bad;
}

/* Nonzero when a decreases somewhere in [lo, hi] (some a[i + 1] < a[i], lo <= i < hi). */
static inline unsigned hyb_fmt_decreasing( const int* a, int64_t lo, int64_t hi )
{
	unsigned dec = 0;
	for ( int64_t i = lo; i < hi; i++ ) dec |= a[i + 1] < a[i];
	return dec;
}

hyb_status_t hyb_spmv_src_validate( const hyb_spmv_src_t* s, int nthreads, int* grouped )
{
	const int64_t m   = s->m;
	const int     coo = s->layout == HYB_SPMV_COO;
	if ( grouped ) *grouped = coo ? 1 : !s->trans;
	if ( m == 0 || ( coo && s->nnz == 0 ) ) return HYB_OK;
	const unsigned um = (unsigned)m, base = (unsigned)s->base;
	/* CSR: positions [ia[0] - base, ia[m] - base) exist (hyb_spmv_src_csr checked
	   base <= ia[0] <= ia[m]), so ja is read there whatever ia holds in between. */
	const int64_t k0  = coo ? 0 : (int64_t)s->ia[0] - s->base;
	const int64_t n   = coo ? s->nnz : (int64_t)s->ia[m] - s->ia[0];
	const int*    tgt = s->trans ? s->colind : s->rowind; /* COO: rows of op(A) */
	/* One reduction variable (bit 0: an index outside, bit 1: decreasing rows): with two,
	   GCC merges them under libgomp's process-wide lock, which a fork() child inherits held
	   if another thread of the parent was merging, and the child's next call would wait on
	   it forever. One variable is merged by an atomic instruction. */
	unsigned flags = 0;
#pragma omp parallel num_threads( hyb_fmt_threads( nthreads ) ) reduction( | : flags )
	{
		int     nt = omp_get_num_threads(), t = omp_get_thread_num();
		int64_t lo = k0 + hyb_part_lo( n, nt, t ), hi = k0 + hyb_part_lo( n, nt, t + 1 );
		if ( coo )
			flags |= ( hyb_fmt_outside( s->rowind, lo, hi, base, um ) |
			           hyb_fmt_outside( s->colind, lo, hi, base, um ) ) |
			         ( hyb_fmt_decreasing( tgt, lo, hi < n ? hi : n - 1 ) ? 2u : 0u );
		else
			flags |=
			    hyb_fmt_decreasing( s->ia, hyb_part_lo( m, nt, t ), hyb_part_lo( m, nt, t + 1 ) ) |
			    hyb_fmt_outside( s->ja, lo, hi, base, um );
	}
	if ( grouped && coo ) *grouped = !( flags & 2u );
	return flags & 1u ? HYB_E_INVALID : HYB_OK;
}

void hyb_spmv_row_cuts( const void* ptr, int wide, int64_t m, int nparts, int64_t* cut )
{
	const int64_t* p64 = (const int64_t*)ptr;
	const int*     p32 = (const int*)ptr;
#define HYB_PTR( i ) ( wide ? p64[i] : (int64_t)p32[i] )
	/* Cost of rows [0, r) = their entries + r, so empty rows count too (merge-path idea). */
	int64_t p0    = m > 0 ? HYB_PTR( 0 ) : 0;
	int64_t total = ( m > 0 ? HYB_PTR( m ) - p0 : 0 ) + m;
	cut[0]        = 0;
	for ( int t = 1; t < nparts; t++ )
	{
		int64_t target = hyb_part_lo( total, nparts, t );
		int64_t lo = 0, hi = m;
		while ( lo < hi )
		{
			int64_t mid = lo + ( hi - lo ) / 2;
			if ( HYB_PTR( mid ) - p0 + mid < target )
				lo = mid + 1;
			else
				hi = mid;
		}
		cut[t] = lo < cut[t - 1] ? cut[t - 1] : lo;
	}
	cut[nparts] = m;
#undef HYB_PTR
}

/* ------------------------------------------------------------------ bins */

static inline void hyb_bins_put( hyb_spmv_bins_t* b, int64_t* slot, int64_t r, int64_t c,
                                 const void* val, int64_t k, int isd )
{
	int64_t pos = ( *slot )++;
	b->row[pos] = (int)r;
	b->col[pos] = (int)c;
	if ( isd )
		( (double*)b->val )[pos] = ( (const double*)val )[k];
	else
		( (float*)b->val )[pos] = ( (const float*)val )[k];
}

/* One thread's share of the source: positions [lo, hi) of a COO, rows [lo, hi) of a CSR.
   Pass 0 validates and counts entries per block, pass 1 scatters them. Returns 1 on a bad
   index (pass 0 only). */
static int hyb_bins_chunk( const hyb_spmv_src_t* s, int64_t lo, int64_t hi, int scatter,
                           int64_t* cnt, hyb_spmv_bins_t* b )
{
	const int64_t  m = s->m, block = b->block;
	const int      base = s->base, isd = s->prec == HYB_PREC_D;
	const uint64_t um = (uint64_t)m;
	if ( s->layout == HYB_SPMV_COO )
	{
		const int* R = s->trans ? s->colind : s->rowind;
		const int* C = s->trans ? s->rowind : s->colind;
		for ( int64_t k = lo; k < hi; k++ )
		{
			int64_t r = (int64_t)R[k] - base, c = (int64_t)C[k] - base;
			if ( !scatter )
			{
				if ( (uint64_t)r >= um || (uint64_t)c >= um ) return 1;
				cnt[r / block]++;
			}
			else
				hyb_bins_put( b, &cnt[r / block], r, c, s->val, k, isd );
		}
		return 0;
	}
	for ( int64_t i = lo; i < hi; i++ )
	{
		int64_t k0 = (int64_t)s->ia[i] - base, k1 = (int64_t)s->ia[i + 1] - base;
		if ( !scatter && ( k0 < 0 || k1 < k0 ) ) return 1;
		for ( int64_t k = k0; k < k1; k++ )
		{
			int64_t j = (int64_t)s->ja[k] - base;
			int64_t r = s->trans ? j : i, c = s->trans ? i : j;
			if ( !scatter )
			{
				if ( (uint64_t)j >= um ) return 1;
				cnt[r / block]++;
			}
			else
				hyb_bins_put( b, &cnt[r / block], r, c, s->val, k, isd );
		}
	}
	return 0;
}

void hyb_spmv_bins_free( hyb_spmv_bins_t* b )
{
	free( b->bptr );
	free( b->row );
	free( b->col );
	free( b->val );
	memset( b, 0, sizeof *b );
}

hyb_status_t hyb_spmv_bins_build( const hyb_spmv_src_t* s, int64_t block, int nthreads,
                                  hyb_spmv_bins_t* b )
{
	memset( b, 0, sizeof *b );
	if ( block < 1 ) return HYB_E_INVALID;
	int     nth = hyb_fmt_threads( nthreads );
	int64_t m = s->m, nnz = s->nnz, nb = ( m + block - 1 ) / block;
	size_t  vb   = hyb_prec_size( s->prec );
	b->m         = m;
	b->nnz       = nnz;
	b->prec      = s->prec;
	b->block     = block;
	b->nblocks   = nb;
	b->bptr      = malloc( (size_t)( nb + 1 ) * sizeof( int64_t ) );
	b->row       = malloc( (size_t)( nnz > 0 ? nnz : 1 ) * sizeof( int ) );
	b->col       = malloc( (size_t)( nnz > 0 ? nnz : 1 ) * sizeof( int ) );
	b->val       = malloc( (size_t)( nnz > 0 ? nnz : 1 ) * vb );
	int64_t* cnt = calloc( (size_t)nth * (size_t)( nb > 0 ? nb : 1 ), sizeof( int64_t ) );
	int64_t* cut = malloc( (size_t)( nth + 1 ) * sizeof( int64_t ) );
	if ( !b->bptr || !b->row || !b->col || !b->val || !cnt || !cut )
	{
		free( cnt );
		free( cut );
		hyb_spmv_bins_free( b );
		return HYB_E_NO_MEMORY;
	}
	int bad = 0;
#pragma omp parallel num_threads( nth )
	{
		int nt = omp_get_num_threads(), t = omp_get_thread_num();
#pragma omp single
		{
			if ( s->layout == HYB_SPMV_CSR )
				hyb_spmv_row_cuts( s->ia, 0, m, nt, cut );
			else
				for ( int i = 0; i <= nt; i++ ) cut[i] = hyb_part_lo( nnz, nt, i );
		}
		int64_t* mine = cnt + (size_t)t * (size_t)nb;
		if ( hyb_bins_chunk( s, cut[t], cut[t + 1], 0, mine, b ) )
		{
#pragma omp atomic write
			bad = 1;
		}
#pragma omp barrier
#pragma omp single
		{
			int64_t run = 0;
			for ( int64_t p = 0; p < nb; p++ )
			{
				b->bptr[p] = run;
				for ( int tt = 0; tt < nt; tt++ )
				{
					int64_t c = cnt[(size_t)tt * (size_t)nb + (size_t)p];
					cnt[(size_t)tt * (size_t)nb + (size_t)p] = run;
					run += c;
				}
			}
			b->bptr[nb] = run;
		}
		if ( !bad ) hyb_bins_chunk( s, cut[t], cut[t + 1], 1, mine, b );
	}
	free( cnt );
	free( cut );
	if ( bad )
	{
		hyb_spmv_bins_free( b );
		return HYB_E_INVALID;
	}
	return HYB_OK;
}

/* ------------------------------------------------------------------ view */

void hyb_spmv_view_free( hyb_spmv_view_t* v )
{
	free( v->ptr );
	free( v->own_col );
	free( v->own_val );
	memset( v, 0, sizeof *v );
}

/* Rows per bucket for regrouping m rows with nth threads: small enough for cache, and at
   least four buckets per thread so that dynamic scheduling balances them. */
static int64_t hyb_fmt_block( int64_t m, int nth )
{
	int64_t b = ( m + 4 * (int64_t)nth - 1 ) / ( 4 * (int64_t)nth );
	if ( b > HYB_FMT_BLOCK ) b = HYB_FMT_BLOCK;
	return b < 1 ? 1 : b;
}

/* Regroup through bins: per bucket, a counting sort by row (stable). */
static hyb_status_t hyb_view_from_bins( const hyb_spmv_src_t* s, int nth, hyb_spmv_view_t* v )
{
	hyb_spmv_bins_t b;
	hyb_status_t    st = hyb_spmv_bins_build( s, hyb_fmt_block( s->m, nth ), nth, &b );
	if ( st != HYB_OK ) return st;
	size_t  vb  = hyb_prec_size( s->prec );
	int64_t nnz = b.nnz;
	v->own_col  = malloc( (size_t)( nnz > 0 ? nnz : 1 ) * sizeof( int ) );
	v->own_val  = malloc( (size_t)( nnz > 0 ? nnz : 1 ) * vb );
	int64_t* lc = malloc( (size_t)nth * (size_t)( b.block + 1 ) * sizeof( int64_t ) );
	if ( !v->own_col || !v->own_val || !lc )
	{
		free( lc );
		hyb_spmv_bins_free( &b );
		return HYB_E_NO_MEMORY;
	}
	int      isd  = s->prec == HYB_PREC_D;
	int*     ocol = v->own_col;
	int64_t* ptr  = v->ptr;
#pragma omp parallel num_threads( nth )
	{
		int64_t* cnt = lc + (size_t)omp_get_thread_num() * (size_t)( b.block + 1 );
#pragma omp for schedule( dynamic, 1 )
		for ( int64_t p = 0; p < b.nblocks; p++ )
		{
			int64_t r0 = p * b.block, r1 = r0 + b.block < s->m ? r0 + b.block : s->m;
			int64_t nr = r1 - r0, e0 = b.bptr[p], e1 = b.bptr[p + 1];
			memset( cnt, 0, (size_t)( nr + 1 ) * sizeof( int64_t ) );
			for ( int64_t e = e0; e < e1; e++ ) cnt[b.row[e] - r0 + 1]++;
			for ( int64_t q = 0; q < nr; q++ ) cnt[q + 1] += cnt[q];
			for ( int64_t q = 0; q < nr; q++ ) ptr[r0 + q] = e0 + cnt[q];
			for ( int64_t e = e0; e < e1; e++ )
			{
				int64_t pos = e0 + cnt[b.row[e] - r0]++;
				ocol[pos]   = b.col[e];
				if ( isd )
					( (double*)v->own_val )[pos] = ( (const double*)b.val )[e];
				else
					( (float*)v->own_val )[pos] = ( (const float*)b.val )[e];
			}
		}
	}
	ptr[s->m] = nnz;
	free( lc );
	hyb_spmv_bins_free( &b );
	v->col   = v->own_col;
	v->val   = v->own_val;
	v->cbase = 0;
	return HYB_OK;
}

/* COO sorted by row of P: row pointers from the positions where the row changes. Returns
   HYB_E_AGAIN when the rows are not sorted, HYB_E_INVALID on a bad index. */
static hyb_status_t hyb_view_from_sorted_coo( const hyb_spmv_src_t* s, int nth, hyb_spmv_view_t* v )
{
	const int*     R = s->trans ? s->colind : s->rowind;
	const int*     C = s->trans ? s->rowind : s->colind;
	const int64_t  m = s->m, nnz = s->nnz;
	const int      base = s->base;
	const uint64_t um   = (uint64_t)m;
	int            bad = 0, unsorted = 0;
	int64_t*       ptr = v->ptr;
#pragma omp parallel num_threads( nth )
	{
		int     nt = omp_get_num_threads(), t = omp_get_thread_num();
		int64_t lo = hyb_part_lo( nnz, nt, t ), hi = hyb_part_lo( nnz, nt, t + 1 );
		int     mybad = 0, myuns = 0;
		for ( int64_t k = lo; k < hi; k++ )
		{
			int64_t r = (int64_t)R[k] - base, c = (int64_t)C[k] - base;
			mybad |= (uint64_t)r >= um || (uint64_t)c >= um;
			myuns |= k > 0 && R[k] < R[k - 1];
		}
		if ( mybad )
		{
#pragma omp atomic write
			bad = 1;
		}
		if ( myuns )
		{
#pragma omp atomic write
			unsorted = 1;
		}
#pragma omp barrier
		if ( !bad && !unsorted )
		{
			/* ptr[r] = first position whose row is >= r: each row change from a to b at k
			   sets ptr[a+1 .. b] = k; the thread owning k does it, so no row is set twice. */
			for ( int64_t k = lo > 0 ? lo : 1; k < hi; k++ )
				for ( int64_t r = (int64_t)R[k - 1] - base + 1; r <= (int64_t)R[k] - base; r++ )
					ptr[r] = k;
			if ( t == 0 )
			{
				int64_t first = nnz > 0 ? (int64_t)R[0] - base : m;
				for ( int64_t r = 0; r <= first && r <= m; r++ ) ptr[r] = 0;
			}
			if ( t == nt - 1 )
			{
				int64_t last = nnz > 0 ? (int64_t)R[nnz - 1] - base : -1;
				for ( int64_t r = last + 1; r <= m; r++ ) ptr[r] = nnz;
			}
		}
	}
	if ( bad ) return HYB_E_INVALID;
	if ( unsorted ) return HYB_E_AGAIN;
	v->col   = C;
	v->val   = s->val;
	v->cbase = base;
	return HYB_OK;
}

/* CSR with 'N': ptr is ia minus the base; every index checked. */
static hyb_status_t hyb_view_from_csr( const hyb_spmv_src_t* s, int nth, hyb_spmv_view_t* v )
{
	const int64_t  m    = s->m;
	const int      base = s->base;
	const uint64_t um   = (uint64_t)m;
	int            bad  = 0;
	int64_t*       ptr  = v->ptr;
#pragma omp parallel num_threads( nth )
	{
		int mybad = 0;
#pragma omp for schedule( static )
		for ( int64_t i = 0; i <= m; i++ )
		{
			ptr[i] = (int64_t)s->ia[i] - base;
			if ( i < m ) mybad |= s->ia[i + 1] < s->ia[i];
		}
		int64_t k0 = ptr[0], k1 = ptr[m];
#pragma omp for schedule( static )
		for ( int64_t k = k0; k < k1; k++ ) mybad |= (uint64_t)( (int64_t)s->ja[k] - base ) >= um;
		if ( mybad )
		{
#pragma omp atomic write
			bad = 1;
		}
	}
	if ( bad ) return HYB_E_INVALID;
	v->col   = s->ja;
	v->val   = s->val;
	v->cbase = base;
	return HYB_OK;
}

hyb_status_t hyb_spmv_view_build( const hyb_spmv_src_t* s, int nthreads, hyb_spmv_view_t* v )
{
	memset( v, 0, sizeof *v );
	int nth = hyb_fmt_threads( nthreads );
	v->m    = s->m;
	v->nnz  = s->nnz;
	v->prec = s->prec;
	v->ptr  = malloc( (size_t)( s->m + 1 ) * sizeof( int64_t ) );
	if ( !v->ptr ) return HYB_E_NO_MEMORY;
	hyb_status_t st;
	if ( s->layout == HYB_SPMV_CSR && !s->trans )
		st = hyb_view_from_csr( s, nth, v );
	else if ( s->layout == HYB_SPMV_COO )
	{
		st = hyb_view_from_sorted_coo( s, nth, v );
		if ( st == HYB_E_AGAIN ) st = hyb_view_from_bins( s, nth, v );
	}
	else
		st = hyb_view_from_bins( s, nth, v );
	if ( st != HYB_OK )
	{
		hyb_spmv_view_free( v );
		return st;
	}
	int64_t        mx  = 0;
	const int64_t* ptr = v->ptr;
#pragma omp parallel for num_threads( nth ) schedule( static ) reduction( max : mx )
	for ( int64_t i = 0; i < s->m; i++ )
		if ( ptr[i + 1] - ptr[i] > mx ) mx = ptr[i + 1] - ptr[i];
	v->max_len = mx;
	return HYB_OK;
}

/* ------------------------------------------------------------------ statistics */

hyb_status_t hyb_spmv_df_build( const hyb_spmv_view_t* v, int nthreads, int64_t** dfp )
{
	int      nth   = hyb_fmt_threads( nthreads );
	int64_t  M     = v->max_len;
	int64_t  small = M + 1 < HYB_FMT_DF_LOCAL ? M + 1 : HYB_FMT_DF_LOCAL;
	int64_t* df    = calloc( (size_t)( M + 1 ), sizeof( int64_t ) );
	int64_t* loc   = calloc( (size_t)nth * (size_t)small, sizeof( int64_t ) );
	*dfp           = NULL;
	if ( !df || !loc )
	{
		free( df );
		free( loc );
		return HYB_E_NO_MEMORY;
	}
	const int64_t* ptr  = v->ptr;
	int            used = 1;
#pragma omp parallel num_threads( nth )
	{
		int64_t* h = loc + (size_t)omp_get_thread_num() * (size_t)small;
#pragma omp single
		used = omp_get_num_threads();
#pragma omp for schedule( static )
		for ( int64_t i = 0; i < v->m; i++ )
		{
			int64_t len = ptr[i + 1] - ptr[i];
			if ( len < small )
				h[len]++;
			else
			{
#pragma omp atomic
				df[len]++;
			}
		}
	}
	for ( int t = 0; t < used; t++ )
		for ( int64_t l = 0; l < small; l++ ) df[l] += loc[(size_t)t * (size_t)small + (size_t)l];
	free( loc );
	*dfp = df;
	return HYB_OK;
}

void hyb_spmv_diags_free( hyb_spmv_diags_t* d )
{
	free( d->offset );
	free( d->occ );
	memset( d, 0, sizeof *d );
}

typedef struct
{
	int64_t occ;
	int     off;
} hyb_diag_entry_t;

static int hyb_diag_cmp( const void* a, const void* b )
{
	const hyb_diag_entry_t* x = a;
	const hyb_diag_entry_t* y = b;
	if ( x->occ != y->occ ) return x->occ > y->occ ? -1 : 1;
	int ax = x->off < 0 ? -x->off : x->off, ay = y->off < 0 ? -y->off : y->off;
	if ( ax != ay ) return ax < ay ? -1 : 1;
	return ( x->off > y->off ) - ( x->off < y->off );
}

hyb_status_t hyb_spmv_diags_from_counts( const int64_t* tot, int64_t W, int64_t far,
                                         int64_t max_diags, hyb_spmv_diags_t* d )
{
	memset( d, 0, sizeof *d );
	if ( max_diags <= 0 ) max_diags = HYB_SPMV_DIA_MAX;
	const int64_t L  = 2 * W + 1;
	int64_t       nz = 0;
	for ( int64_t q = 0; q < L; q++ ) nz += tot[q] > 0;
	hyb_diag_entry_t* list = malloc( (size_t)( nz > 0 ? nz : 1 ) * sizeof *list );
	if ( !list ) return HYB_E_NO_MEMORY;
	int64_t n = 0;
	for ( int64_t q = 0; q < L; q++ )
		if ( tot[q] > 0 )
		{
			list[n].occ = tot[q];
			list[n].off = (int)( q - W );
			n++;
		}
	qsort( list, (size_t)n, sizeof *list, hyb_diag_cmp );
	int64_t keep = n < max_diags ? n : max_diags;
	d->offset    = malloc( (size_t)( keep > 0 ? keep : 1 ) * sizeof( int ) );
	d->occ       = malloc( (size_t)( keep > 0 ? keep : 1 ) * sizeof( int64_t ) );
	if ( !d->offset || !d->occ )
	{
		free( list );
		hyb_spmv_diags_free( d );
		return HYB_E_NO_MEMORY;
	}
	d->rest_nnz = far;
	for ( int64_t q = 0; q < n; q++ )
	{
		if ( q < keep )
		{
			d->offset[q] = list[q].off;
			d->occ[q]    = list[q].occ;
		}
		else
			d->rest_nnz += list[q].occ;
	}
	d->ndiag = keep;
	free( list );
	return HYB_OK;
}

hyb_status_t hyb_spmv_diags_build( const hyb_spmv_view_t* v, int64_t span, int64_t max_diags,
                                   int nthreads, hyb_spmv_diags_t* d )
{
	memset( d, 0, sizeof *d );
	int     nth = hyb_fmt_threads( nthreads );
	int64_t W   = span > 0 ? span : HYB_SPMV_DIA_SPAN;
	if ( max_diags <= 0 ) max_diags = HYB_SPMV_DIA_MAX;
	if ( v->m == 0 ) return HYB_OK;
	if ( W > v->m - 1 ) W = v->m - 1;
	int64_t   L    = 2 * W + 1;
	uint32_t* hist = calloc( (size_t)nth * (size_t)L, sizeof( uint32_t ) );
	int64_t*  tot  = malloc( (size_t)L * sizeof( int64_t ) );
	if ( !hist || !tot )
	{
		free( hist );
		free( tot );
		return HYB_E_NO_MEMORY;
	}
	const int64_t* ptr  = v->ptr;
	const int*     col  = v->col;
	const int      cb   = v->cbase;
	int64_t        far  = 0;
	int            used = 1;
#pragma omp parallel num_threads( nth ) reduction( + : far )
	{
		uint32_t* h = hist + (size_t)omp_get_thread_num() * (size_t)L;
#pragma omp single
		used = omp_get_num_threads();
#pragma omp for schedule( static )
		for ( int64_t i = 0; i < v->m; i++ )
			for ( int64_t e = ptr[i]; e < ptr[i + 1]; e++ )
			{
				int64_t off = (int64_t)col[e] - cb - i;
				if ( off >= -W && off <= W )
					h[off + W]++;
				else
					far++;
			}
	}
#pragma omp parallel for num_threads( nth ) schedule( static )
	for ( int64_t q = 0; q < L; q++ )
	{
		int64_t s = 0;
		for ( int t = 0; t < used; t++ ) s += hist[(size_t)t * (size_t)L + (size_t)q];
		tot[q] = s;
	}
	free( hist );
	hyb_status_t st = hyb_spmv_diags_from_counts( tot, W, far, max_diags, d );
	free( tot );
	return st;
}

int64_t hyb_spmv_dia_detect( const hyb_spmv_diags_t* d, int64_t m, int64_t nnz, double min_fill,
                             double min_share )
{
	if ( min_fill <= 0.0 ) min_fill = 0.5;
	if ( min_share <= 0.0 ) min_share = 0.8;
	if ( m <= 0 || nnz <= 0 ) return 0;
	int64_t k = 0, held = 0;
	while ( k < d->ndiag )
	{
		int64_t o = d->offset[k] < 0 ? -(int64_t)d->offset[k] : d->offset[k];
		if ( o >= m || (double)d->occ[k] < min_fill * (double)( m - o ) ) break;
		held += d->occ[k];
		k++;
	}
	return (double)held >= min_share * (double)nnz ? k : 0;
}

/* ------------------------------------------------------------------ split */

void hyb_spmv_split_free( hyb_spmv_split_t* sp, const hyb_spmv_alloc_t* al )
{
	hyb_fmt_release( al, sp->fmt == HYB_SPMV_FMT_DIA ? (void*)sp->offset : (void*)sp->index,
	                 sp->bytes[0] );
	hyb_fmt_release( al, sp->data, sp->bytes[1] );
	hyb_fmt_release( al, sp->coo_row, sp->bytes[2] );
	hyb_fmt_release( al, sp->coo_col, sp->bytes[3] );
	hyb_fmt_release( al, sp->coo_val, sp->bytes[4] );
	memset( sp, 0, sizeof *sp );
}

/* Allocate the five arrays of a split (first one: ELL index or DIA offsets). */
static hyb_status_t hyb_split_alloc( hyb_spmv_split_t* sp, size_t first, size_t data, int64_t R,
                                     const hyb_spmv_alloc_t* al )
{
	size_t vb    = hyb_prec_size( sp->prec );
	sp->bytes[0] = first;
	sp->bytes[1] = data;
	sp->bytes[2] = (size_t)R * sizeof( int );
	sp->bytes[3] = (size_t)R * sizeof( int );
	sp->bytes[4] = (size_t)R * vb;
	void* p0     = hyb_fmt_alloc( al, sp->bytes[0] );
	if ( sp->fmt == HYB_SPMV_FMT_DIA )
		sp->offset = p0;
	else
		sp->index = p0;
	sp->data    = hyb_fmt_alloc( al, sp->bytes[1] );
	sp->coo_row = hyb_fmt_alloc( al, sp->bytes[2] );
	sp->coo_col = hyb_fmt_alloc( al, sp->bytes[3] );
	sp->coo_val = hyb_fmt_alloc( al, sp->bytes[4] );
	if ( !p0 || !sp->data || !sp->coo_row || !sp->coo_col || !sp->coo_val )
	{
		hyb_spmv_split_free( sp, al );
		return HYB_E_NO_MEMORY;
	}
	return HYB_OK;
}

static inline void hyb_copy_val( void* dst, int64_t di, const void* src, int64_t si, int isd )
{
	if ( isd )
		( (double*)dst )[di] = ( (const double*)src )[si];
	else
		( (float*)dst )[di] = ( (const float*)src )[si];
}

hyb_status_t hyb_spmv_split_ell( const hyb_spmv_view_t* v, int64_t K, const hyb_spmv_alloc_t* al,
                                 int nthreads, hyb_spmv_split_t* sp )
{
	memset( sp, 0, sizeof *sp );
	const int64_t m  = v->m;
	size_t        vb = hyb_prec_size( v->prec );
	if ( K < 0 || ( m > 0 && K > (int64_t)( SIZE_MAX / 16 ) / m ) ) return HYB_E_INVALID;
	int      nth  = hyb_fmt_threads( nthreads );
	int64_t* roff = malloc( (size_t)( m + 1 ) * sizeof( int64_t ) );
	if ( !roff ) return HYB_E_NO_MEMORY;
	const int64_t* ptr = v->ptr;
#pragma omp parallel for num_threads( nth ) schedule( static )
	for ( int64_t i = 0; i < m; i++ )
	{
		int64_t len = ptr[i + 1] - ptr[i];
		roff[i]     = len > K ? len - K : 0;
	}
	hyb_scan_excl( roff, m, nth );
	int64_t R = roff[m];
	sp->fmt   = HYB_SPMV_FMT_ELL;
	sp->prec  = v->prec;
	sp->m     = m;
	sp->width = K;
	hyb_status_t st =
	    hyb_split_alloc( sp, (size_t)( m * K ) * sizeof( int ), (size_t)( m * K ) * vb, R, al );
	if ( st != HYB_OK )
	{
		free( roff );
		return st;
	}
	const int  cb    = v->cbase;
	const int  isd   = v->prec == HYB_PREC_D;
	const int* col   = v->col;
	int64_t    ntile = ( m + HYB_FMT_TILE - 1 ) / HYB_FMT_TILE;
#pragma omp parallel for num_threads( nth ) schedule( static )
	for ( int64_t tile = 0; tile < ntile; tile++ )
	{
		int64_t i0 = tile * HYB_FMT_TILE, i1 = i0 + HYB_FMT_TILE < m ? i0 + HYB_FMT_TILE : m;
		for ( int64_t j = 0; j < K; j++ )
			for ( int64_t i = i0; i < i1; i++ )
			{
				int64_t slot = j * m + i;
				if ( j < ptr[i + 1] - ptr[i] )
				{
					sp->index[slot] = col[ptr[i] + j] - cb;
					hyb_copy_val( sp->data, slot, v->val, ptr[i] + j, isd );
				}
				else
				{
					sp->index[slot] = -1;
					if ( isd )
						( (double*)sp->data )[slot] = 0.0;
					else
						( (float*)sp->data )[slot] = 0.0f;
				}
			}
		for ( int64_t i = i0; i < i1; i++ )
			for ( int64_t e = ptr[i] + K, q = roff[i]; e < ptr[i + 1]; e++, q++ )
			{
				sp->coo_row[q] = (int)i;
				sp->coo_col[q] = col[e] - cb;
				hyb_copy_val( sp->coo_val, q, v->val, e, isd );
			}
	}
	free( roff );
	sp->coo_nnz = R;
	sp->dev_nnz = v->nnz - R;
	return HYB_OK;
}

static int hyb_int_cmp( const void* a, const void* b )
{
	int x = *(const int*)a, y = *(const int*)b;
	return ( x > y ) - ( x < y );
}

/* Offsets spans at most this wide get a direct lookup table; wider ones a binary search. */
#define HYB_FMT_DIA_TABLE ( (int64_t)1 << 22 )

/* Slot of diagonal `off` among the sorted offsets, or -1. */
static inline int hyb_dia_slot( int64_t off, const int* offs, int64_t nd, const int* table,
                                int64_t omin, int64_t span )
{
	int64_t q = off - omin;
	if ( q < 0 || q >= span ) return -1;
	if ( table ) return table[q];
	return (int)hyb_spmv_dia_find( offs, nd, off );
}

hyb_status_t hyb_spmv_split_dia( const hyb_spmv_view_t* v, int64_t nd, const int* offsets,
                                 const hyb_spmv_alloc_t* al, int nthreads, hyb_spmv_split_t* sp )
{
	memset( sp, 0, sizeof *sp );
	const int64_t m = v->m;
	if ( nd < 0 || nd > HYB_SPMV_DIA_MAX || ( nd > 0 && !offsets ) ) return HYB_E_INVALID;
	/* Scratch, freed at the one exit; a failed allocation leaves st as it starts. */
	int*         offs  = malloc( (size_t)( nd > 0 ? nd : 1 ) * sizeof( int ) );
	int*         table = NULL;
	int64_t*     roff  = NULL;
	hyb_status_t st    = HYB_E_NO_MEMORY;
	if ( !offs ) goto out;
	if ( nd > 0 ) memcpy( offs, offsets, (size_t)nd * sizeof( int ) );
	qsort( offs, (size_t)nd, sizeof( int ), hyb_int_cmp );
	for ( int64_t d = 0; d < nd; d++ )
		if ( offs[d] <= -m || offs[d] >= m || ( d > 0 && offs[d] == offs[d - 1] ) )
		{
			st = HYB_E_INVALID;
			goto out;
		}
	int64_t omin = nd > 0 ? offs[0] : 0, span = nd > 0 ? (int64_t)offs[nd - 1] - omin + 1 : 0;
	if ( span > 0 && span <= HYB_FMT_DIA_TABLE )
	{
		table = malloc( (size_t)span * sizeof( int ) );
		if ( !table ) goto out;
		for ( int64_t q = 0; q < span; q++ ) table[q] = -1;
		for ( int64_t d = 0; d < nd; d++ ) table[offs[d] - omin] = (int)d;
	}
	int nth = hyb_fmt_threads( nthreads );
	roff    = malloc( (size_t)( m + 1 ) * sizeof( int64_t ) );
	if ( !roff ) goto out;
	const int64_t* ptr = v->ptr;
	const int*     col = v->col;
	const int      cb  = v->cbase;
#pragma omp parallel for num_threads( nth ) schedule( static )
	for ( int64_t i = 0; i < m; i++ )
	{
		int64_t r = 0;
		for ( int64_t e = ptr[i]; e < ptr[i + 1]; e++ )
			r += hyb_dia_slot( (int64_t)col[e] - cb - i, offs, nd, table, omin, span ) < 0;
		roff[i] = r;
	}
	hyb_scan_excl( roff, m, nth );
	int64_t R  = roff[m];
	size_t  vb = hyb_prec_size( v->prec );
	sp->fmt    = HYB_SPMV_FMT_DIA;
	sp->prec   = v->prec;
	sp->m      = m;
	sp->width  = nd;
	st = hyb_split_alloc( sp, (size_t)( nd > 0 ? nd : 1 ) * sizeof( int ), (size_t)( m * nd ) * vb,
	                      R, al );
	if ( st != HYB_OK ) goto out;
	if ( nd > 0 ) memcpy( sp->offset, offs, (size_t)nd * sizeof( int ) );
	const int isd   = v->prec == HYB_PREC_D;
	int64_t   ntile = ( m + HYB_FMT_TILE - 1 ) / HYB_FMT_TILE;
	char*     data  = sp->data;
#pragma omp parallel for num_threads( nth ) schedule( static )
	for ( int64_t tile = 0; tile < ntile; tile++ )
	{
		int64_t i0 = tile * HYB_FMT_TILE, i1 = i0 + HYB_FMT_TILE < m ? i0 + HYB_FMT_TILE : m;
		for ( int64_t d = 0; d < nd; d++ )
			memset( data + (size_t)( d * m + i0 ) * vb, 0, (size_t)( i1 - i0 ) * vb );
		for ( int64_t i = i0; i < i1; i++ )
		{
			int64_t q = roff[i];
			for ( int64_t e = ptr[i]; e < ptr[i + 1]; e++ )
			{
				int64_t c = (int64_t)col[e] - cb;
				int     s = hyb_dia_slot( c - i, offs, nd, table, omin, span );
				if ( s >= 0 )
				{
					int64_t slot = (int64_t)s * m + i;
					if ( isd )
						( (double*)sp->data )[slot] += ( (const double*)v->val )[e];
					else
						( (float*)sp->data )[slot] += ( (const float*)v->val )[e];
				}
				else
				{
					sp->coo_row[q] = (int)i;
					sp->coo_col[q] = (int)c;
					hyb_copy_val( sp->coo_val, q, v->val, e, isd );
					q++;
				}
			}
		}
	}
	sp->coo_nnz = R;
	sp->dev_nnz = v->nnz - R;
out:
	free( offs );
	free( table );
	free( roff );
	return st;
}
