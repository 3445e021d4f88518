/* SPDX-License-Identifier: BSD-3-Clause */
/* Tiles, blocks and device operations of level-3 calls, and their CPU
   equivalents (see hyb_l3_tasks.h). */
#include "kernels/pipeline/hyb_l3_tasks.h"

#include <stdlib.h>
#include <string.h>

#include "hyb_heap.h"

/* A grid of blocks over one host operand: block (gi, gj) covers rows
   [gi*rstep, ...) and columns [gj*cstep, ...) of an R x C matrix. */
typedef struct
{
	int64_t R, C, rstep, cstep, nr, nc;
	int     transform;
	int*    idx; /* nr*nc block numbers, -1 until first use */
} hyb_grid_t;

typedef struct
{
	hyb_l3_work_t* w;
	hyb_grid_t     grid[2];
	int            cap_blks, cap_ops, cap_tasks;
} hyb_builder_t;

static int64_t hyb_cdiv( int64_t a, int64_t b )
{
	return ( a + b - 1 ) / b;
}

static int64_t hyb_min( int64_t a, int64_t b )
{
	return a < b ? a : b;
}

static hyb_status_t hyb_grid_init( hyb_grid_t* g, int64_t R, int64_t C, int64_t rstep,
                                   int64_t cstep, int transform )
{
	g->R = R, g->C = C, g->rstep = rstep, g->cstep = cstep, g->transform = transform;
	g->nr = hyb_cdiv( R, rstep ), g->nc = hyb_cdiv( C, cstep );
	size_t n = (size_t)( g->nr * g->nc );
	g->idx   = malloc( ( n ? n : 1 ) * sizeof *g->idx );
	if ( g->idx == NULL ) return HYB_E_NO_MEMORY;
	for ( size_t i = 0; i < n; i++ ) g->idx[i] = -1;
	return HYB_OK;
}

static int hyb_grow( void** p, int* cap, int need, size_t elem )
{
	if ( need <= *cap ) return 1;
	int ncap = *cap ? *cap * 2 : 64;
	while ( ncap < need ) ncap *= 2;
	void* q = realloc( *p, (size_t)ncap * elem );
	if ( q == NULL ) return 0;
	*p   = q;
	*cap = ncap;
	return 1;
}

/* Block (gi, gj) of operand `mat`, created on first use; -1 on no memory. */
static int hyb_blk( hyb_builder_t* b, int mat, int64_t gi, int64_t gj )
{
	hyb_grid_t* g    = &b->grid[mat];
	int*        slot = &g->idx[gi * g->nc + gj];
	if ( *slot >= 0 ) return *slot;
	hyb_l3_work_t* w = b->w;
	if ( !hyb_grow( (void**)&w->blks, &b->cap_blks, w->nblks + 1, sizeof *w->blks ) ) return -1;
	hyb_blk_t* k = &w->blks[w->nblks];
	k->mat       = mat;
	k->transform = g->transform;
	k->r0        = gi * g->rstep;
	k->c0        = gj * g->cstep;
	k->rows      = hyb_min( g->rstep, g->R - k->r0 );
	k->cols      = hyb_min( g->cstep, g->C - k->c0 );
	size_t bytes = (size_t)k->rows * (size_t)k->cols * hyb_prec_size( w->args.prec );
	if ( bytes > w->slot_bytes ) w->slot_bytes = bytes;
	return *slot = w->nblks++;
}

static hyb_task_t* hyb_task_new( hyb_builder_t* b, int64_t r0, int64_t c0, int64_t rows,
                                 int64_t cols )
{
	hyb_l3_work_t* w = b->w;
	if ( !hyb_grow( (void**)&w->tasks, &b->cap_tasks, w->ntasks + 1, sizeof *w->tasks ) )
		return NULL;
	hyb_task_t* t = &w->tasks[w->ntasks++];
	memset( t, 0, sizeof *t );
	t->r0 = r0, t->c0 = c0, t->rows = rows, t->cols = cols;
	t->first_op  = w->nops;
	size_t bytes = (size_t)rows * (size_t)cols * hyb_prec_size( w->args.prec );
	if ( bytes > w->tile_bytes ) w->tile_bytes = bytes;
	return t;
}

static int hyb_op_add( hyb_builder_t* b, hyb_task_t* t, int kind, char ta, char tb, int64_t m,
                       int64_t n, int64_t k, const double alpha[2], const double beta[2], int ba,
                       int bb )
{
	hyb_l3_work_t* w = b->w;
	if ( ba < 0 || ( bb < 0 && kind == HYB_TOP_GEMM ) ) return 0;
	if ( !hyb_grow( (void**)&w->ops, &b->cap_ops, w->nops + 1, sizeof *w->ops ) ) return 0;
	hyb_top_t* op = &w->ops[w->nops++];
	op->kind = kind, op->ta = ta, op->tb = tb, op->m = m, op->n = n, op->k = k;
	memcpy( op->alpha, alpha, sizeof op->alpha );
	memcpy( op->beta, beta, sizeof op->beta );
	op->blk_a = ba, op->blk_b = bb;
	t->nops++;
	double f = kind == HYB_TOP_GEMM  ? 2.0 * (double)m * (double)n * (double)k
	           : w->args.side == 'L' ? (double)m * (double)m * (double)n
	                                 : (double)m * (double)n * (double)n;
	if ( hyb_prec_is_complex( w->args.prec ) ) f *= 4;
	t->flops += f;
	w->flops += f;
	return 1;
}

static int hyb_beta_zero( const hyb_l3_args_t* a )
{
	return a->beta[0] == 0.0 && a->beta[1] == 0.0;
}

/* Tile rows of strip j in snake order: down on even strips, up on odd. */
static int64_t hyb_snake( int64_t strip, int64_t s, int64_t first, int64_t count )
{
	return ( strip % 2 == 0 ) ? first + s : first + count - 1 - s;
}

/* The order of the tiles of an nti x ntj grid: a snake over growing squares.
   Shell s holds the tiles with max(i, j) = s; it is walked down column s
   and then back along row s (or the reverse on odd shells), so consecutive
   tiles share a block row or column (the seed's data reuse). Over shells,
   the blocks loaded grow linearly while the products they enable grow
   quadratically: the device computes early instead of waiting for a whole
   operand panel, which plain strip-by-strip snake order makes it do when
   every block stays cached (see docs/design-notes.md). Fills ti[], tj[]. */
static void hyb_shell_order( int64_t nti, int64_t ntj, int64_t* ti, int64_t* tj )
{
	int64_t n = 0, shells = nti > ntj ? nti : ntj;
	for ( int64_t s = 0; s < shells; s++ )
	{
		/* Column s down to the diagonal, then row s from the diagonal back. */
		int64_t col_len = s < ntj ? ( s + 1 < nti ? s + 1 : nti ) : 0;
		int64_t row_len = s < nti ? ( s < ntj ? s : ntj ) : 0;
		int64_t cells   = col_len + row_len;
		for ( int64_t q = 0; q < cells; q++ )
		{
			int64_t p = s % 2 == 0 ? q : cells - 1 - q;
			if ( p < col_len )
				ti[n] = p, tj[n] = s;
			else
				ti[n] = s, tj[n] = row_len - 1 - ( p - col_len );
			n++;
		}
	}
}

/* Band `band` of `nbands` over `count` tile columns (rows, panels): [*lo, *hi). */
static void hyb_band_range( int64_t count, int nbands, int band, int64_t* lo, int64_t* hi )
{
	*lo = count * band / nbands;
	*hi = count * ( band + 1 ) / nbands;
}

/* The bands of `count` tile columns (rows, panels): at most one per column. */
static int hyb_band_count( int64_t count, int nbands )
{
	if ( nbands > HYB_L3_MAX_BANDS ) nbands = HYB_L3_MAX_BANDS;
	if ( nbands > count ) nbands = (int)count;
	return nbands < 1 ? 1 : nbands;
}

/* gemm, symm/hemm: every tile of the region, k-chunks over `kdim`, in
   `nbands` bands of tile columns or rows (hyb_l3_bands_by_cols). */
static hyb_status_t hyb_build_product( hyb_builder_t* b, int64_t m_dev, int64_t n_dev, int nbands )
{
	hyb_l3_work_t*       w  = b->w;
	const hyb_l3_args_t* a  = &w->args;
	int64_t              Tm = w->Tm, Tn = w->Tn, K = w->K;
	int64_t              kdim;
	hyb_status_t         st;
	if ( a->op == HYB_OP_GEMM )
	{
		kdim = a->k;
		st   = a->transa == 'N' ? hyb_grid_init( &b->grid[0], a->m, kdim, Tm, K, HYB_BLK_PLAIN )
		                        : hyb_grid_init( &b->grid[0], kdim, a->m, K, Tm, HYB_BLK_PLAIN );
		if ( st == HYB_OK )
			st = a->transb == 'N' ? hyb_grid_init( &b->grid[1], kdim, a->n, K, Tn, HYB_BLK_PLAIN )
			                      : hyb_grid_init( &b->grid[1], a->n, kdim, Tn, K, HYB_BLK_PLAIN );
	}
	else
	{
		int tr = a->op == HYB_OP_HEMM ? HYB_BLK_HERM : HYB_BLK_SYM;
		kdim   = a->side == 'L' ? a->m : a->n;
		st     = a->side == 'L' ? hyb_grid_init( &b->grid[0], kdim, kdim, Tm, K, tr )
		                        : hyb_grid_init( &b->grid[0], kdim, kdim, K, Tn, tr );
		if ( st == HYB_OK )
			st = a->side == 'L' ? hyb_grid_init( &b->grid[1], kdim, a->n, K, Tn, HYB_BLK_PLAIN )
			                    : hyb_grid_init( &b->grid[1], a->m, kdim, Tm, K, HYB_BLK_PLAIN );
	}
	if ( st != HYB_OK ) return st;

	int          bz     = hyb_beta_zero( a );
	const double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
	int64_t      nti = hyb_cdiv( m_dev, Tm ), ntj = hyb_cdiv( n_dev, Tn ), nk = hyb_cdiv( kdim, K );
	int64_t*     ti = malloc( (size_t)( nti * ntj ) * sizeof *ti );
	int64_t*     tj = malloc( (size_t)( nti * ntj ) * sizeof *tj );
	if ( ti == NULL || tj == NULL )
	{
		free( ti ), free( tj );
		return HYB_E_NO_MEMORY;
	}
	int by_cols = hyb_l3_bands_by_cols( m_dev, n_dev );
	w->nbands   = hyb_band_count( by_cols ? ntj : nti, nbands );
	int64_t n   = 0; /* tiles ordered so far */
	for ( int band = 0; band < w->nbands; band++ )
	{
		/* The band's sub-grid in shell order, placed after the bands before it. */
		int64_t lo, hi;
		hyb_band_range( by_cols ? ntj : nti, w->nbands, band, &lo, &hi );
		int64_t bi = by_cols ? nti : hi - lo, bj = by_cols ? hi - lo : ntj;
		w->band_first[band] = (int)n; /* one task a tile, made in this order */
		hyb_shell_order( bi, bj, ti + n, tj + n );
		for ( int64_t q = n; q < n + bi * bj; q++ )
			if ( by_cols )
				tj[q] += lo;
			else
				ti[q] += lo;
		n += bi * bj;
	}
	st = HYB_OK;
	for ( int64_t q = 0; q < nti * ntj && st == HYB_OK; q++ )
	{
		int64_t     i = ti[q], j = tj[q];
		int64_t     r0 = i * Tm, c0 = j * Tn;
		hyb_task_t* t =
		    hyb_task_new( b, r0, c0, hyb_min( Tm, m_dev - r0 ), hyb_min( Tn, n_dev - c0 ) );
		if ( t == NULL )
		{
			st = HYB_E_NO_MEMORY;
			break;
		}
		t->load_c = !bz;
		for ( int64_t kk = 0; kk < nk; kk++ )
		{
			int64_t       kb   = hyb_min( K, kdim - kk * K );
			const double* beta = kk > 0 ? one : bz ? zero : a->beta;
			int           ba, bb;
			char          ta = 'N', tb = 'N';
			if ( a->op == HYB_OP_GEMM )
			{
				ta = a->transa, tb = a->transb;
				ba = ta == 'N' ? hyb_blk( b, 0, i, kk ) : hyb_blk( b, 0, kk, i );
				bb = tb == 'N' ? hyb_blk( b, 1, kk, j ) : hyb_blk( b, 1, j, kk );
			}
			else if ( a->side == 'L' )
				ba = hyb_blk( b, 0, i, kk ), bb = hyb_blk( b, 1, kk, j );
			else /* C = B A: the B block is the left operand */
				ba = hyb_blk( b, 1, i, kk ), bb = hyb_blk( b, 0, kk, j );
			if ( !hyb_op_add( b, t, HYB_TOP_GEMM, ta, tb, t->rows, t->cols, kb, a->alpha, beta, ba,
			                  bb ) )
			{
				st = HYB_E_NO_MEMORY;
				break;
			}
		}
	}
	free( ti );
	free( tj );
	return st;
}

/* syrk/herk/syr2k/her2k: the tiles touching the stored triangle. */
static hyb_status_t hyb_build_rank_k( hyb_builder_t* b, int64_t n_dev )
{
	hyb_l3_work_t*       w = b->w;
	const hyb_l3_args_t* a = &w->args;
	int64_t              T = w->Tm, K = w->K;
	int                  two   = hyb_op_is_rank_2k( a->op );
	int                  herm  = a->op == HYB_OP_HERK || a->op == HYB_OP_HER2K;
	char                 conjt = herm ? 'C' : 'T';
	int                  notr  = a->transa == 'N';
	for ( int mat = 0; mat < ( two ? 2 : 1 ); mat++ )
	{
		hyb_status_t st = notr ? hyb_grid_init( &b->grid[mat], a->n, a->k, T, K, HYB_BLK_PLAIN )
		                       : hyb_grid_init( &b->grid[mat], a->k, a->n, K, T, HYB_BLK_PLAIN );
		if ( st != HYB_OK ) return st;
	}
	int          bz     = hyb_beta_zero( a );
	const double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
	/* her2k's second product uses conj(alpha). */
	const double alpha2[2] = { a->alpha[0], a->op == HYB_OP_HER2K ? -a->alpha[1] : a->alpha[1] };
	int64_t      nt = hyb_cdiv( n_dev, T ), nk = hyb_cdiv( a->k, K );
	for ( int64_t j = 0; j < nt; j++ )
	{
		int64_t first = a->uplo == 'U' ? 0 : j;
		int64_t count = a->uplo == 'U' ? j + 1 : nt - j;
		for ( int64_t s = 0; s < count; s++ )
		{
			int64_t     i  = hyb_snake( j, s, first, count );
			int64_t     r0 = i * T, c0 = j * T;
			hyb_task_t* t =
			    hyb_task_new( b, r0, c0, hyb_min( T, n_dev - r0 ), hyb_min( T, n_dev - c0 ) );
			if ( t == NULL ) return HYB_E_NO_MEMORY;
			t->load_c = !bz;
			if ( i == j )
			{
				t->mask      = a->uplo == 'U' ? HYB_MASK_UPPER : HYB_MASK_LOWER;
				t->herm_diag = herm;
			}
			for ( int64_t kk = 0; kk < nk; kk++ )
			{
				int64_t       kb   = hyb_min( K, a->k - kk * K );
				const double* beta = kk > 0 ? one : bz ? zero : a->beta;
				int           ai   = notr ? hyb_blk( b, 0, i, kk ) : hyb_blk( b, 0, kk, i );
				int           aj   = notr ? hyb_blk( b, 0, j, kk ) : hyb_blk( b, 0, kk, j );
				char          ta = notr ? 'N' : conjt, tb = notr ? conjt : 'N';
				if ( !two )
				{
					if ( !hyb_op_add( b, t, HYB_TOP_GEMM, ta, tb, t->rows, t->cols, kb, a->alpha,
					                  beta, ai, aj ) )
						return HYB_E_NO_MEMORY;
					continue;
				}
				int bi = notr ? hyb_blk( b, 1, i, kk ) : hyb_blk( b, 1, kk, i );
				int bj = notr ? hyb_blk( b, 1, j, kk ) : hyb_blk( b, 1, kk, j );
				if ( !hyb_op_add( b, t, HYB_TOP_GEMM, ta, tb, t->rows, t->cols, kb, a->alpha, beta,
				                  ai, bj ) ||
				     !hyb_op_add( b, t, HYB_TOP_GEMM, ta, tb, t->rows, t->cols, kb, alpha2, one, bi,
				                  aj ) )
					return HYB_E_NO_MEMORY;
			}
		}
	}
	return HYB_OK;
}

/* trsm/trmm: the triangular matrix is one resident block; the in-out matrix
   moves through in column panels (side L) or row panels (side R). */
static hyb_status_t hyb_build_triangular( hyb_builder_t* b, int nbands )
{
	hyb_l3_work_t*       w   = b->w;
	const hyb_l3_args_t* a   = &w->args;
	int64_t              dim = a->side == 'L' ? a->m : a->n;
	hyb_status_t         st  = hyb_grid_init( &b->grid[0], dim, dim, dim, dim, HYB_BLK_PLAIN );
	if ( st != HYB_OK ) return st;
	int          ba      = hyb_blk( b, 0, 0, 0 );
	int          kind    = a->op == HYB_OP_TRSM ? HYB_TOP_TRSM : HYB_TOP_TRMM;
	const double zero[2] = { 0, 0 };
	int64_t      other   = a->side == 'L' ? a->n : a->m;
	int64_t      T       = a->side == 'L' ? w->Tn : w->Tm;
	int64_t      panels  = hyb_cdiv( other, T );
	w->nbands            = hyb_band_count( panels, nbands );
	for ( int band = 1; band < w->nbands; band++ )
	{
		int64_t lo, hi;
		hyb_band_range( panels, w->nbands, band, &lo, &hi );
		w->band_first[band] = (int)lo; /* one task a panel */
	}
	for ( int64_t p = 0; p < panels; p++ )
	{
		int64_t     len = hyb_min( T, other - p * T );
		hyb_task_t* t   = a->side == 'L' ? hyb_task_new( b, 0, p * T, a->m, len )
		                                 : hyb_task_new( b, p * T, 0, len, a->n );
		if ( t == NULL ) return HYB_E_NO_MEMORY;
		t->load_c = 1;
		if ( !hyb_op_add( b, t, kind, a->transa, 'N', t->rows, t->cols, 0, a->alpha, zero, ba,
		                  -1 ) )
			return HYB_E_NO_MEMORY;
	}
	return HYB_OK;
}

hyb_status_t hyb_l3_work_build( hyb_l3_work_t* w, const hyb_l3_args_t* a, int64_t m_dev,
                                int64_t n_dev, int64_t Tm, int64_t Tn, int64_t K )
{
	return hyb_l3_work_build_bands( w, a, m_dev, n_dev, Tm, Tn, K, 1 );
}

hyb_status_t hyb_l3_work_build_bands( hyb_l3_work_t* w, const hyb_l3_args_t* a, int64_t m_dev,
                                      int64_t n_dev, int64_t Tm, int64_t Tn, int64_t K, int nbands )
{
	memset( w, 0, sizeof *w );
	w->nbands = 1;
	w->args   = *a;
	w->Tm     = Tm;
	w->Tn     = Tn;
	w->K      = K;
	if ( Tm <= 0 || Tn <= 0 || K <= 0 || a->layout != 'C' ) return HYB_E_INVALID;
	if ( hyb_op_is_rank_k( a->op ) && Tm != Tn ) return HYB_E_INVALID;
	hyb_builder_t b = { .w = w };
	hyb_status_t  st;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		st = hyb_build_product( &b, m_dev, n_dev, nbands );
		break;
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		st = hyb_build_rank_k( &b, n_dev );
		break;
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
		st = hyb_build_triangular( &b, nbands );
		break;
	default:
		st = HYB_E_INVALID;
		break;
	}
	free( b.grid[0].idx );
	free( b.grid[1].idx );
	w->band_first[w->nbands] = w->ntasks;
	if ( st != HYB_OK ) hyb_l3_work_free( w );
	return st;
}

void hyb_l3_work_free( hyb_l3_work_t* w )
{
	HYB_FREE_ALL( w->blks, w->ops, w->tasks );
	w->blks  = NULL;
	w->ops   = NULL;
	w->tasks = NULL;
	w->nblks = w->nops = w->ntasks = 0;
	w->nbands                      = 1;
	memset( w->band_first, 0, sizeof w->band_first );
}

void hyb_l3_work_beta_on_host( hyb_l3_work_t* w )
{
	for ( int t = 0; t < w->ntasks; t++ )
	{
		hyb_task_t* tk       = &w->tasks[t];
		int         products = tk->nops > 0;
		for ( int i = 0; i < tk->nops; i++ )
			if ( w->ops[tk->first_op + i].kind != HYB_TOP_GEMM ) products = 0;
		if ( !tk->load_c || tk->herm_diag || !products ) continue;
		/* The builder puts the call's beta on the first product only. */
		hyb_top_t* first = &w->ops[tk->first_op];
		first->beta[0] = first->beta[1] = 0;
		tk->load_c                      = 0;
		tk->beta_host                   = 1;
	}
}

/* ------------------------------------------------------------------------
   CPU equivalents. */

static const void* hyb_at( const void* p, int64_t ld, int64_t r, int64_t c, size_t es )
{
	return (const char*)p + ( (size_t)r + (size_t)c * (size_t)ld ) * es;
}

hyb_l3_args_t hyb_l3_gemm_sub( const hyb_l3_args_t* a, int64_t r0, int64_t c0, int64_t rows,
                               int64_t cols )
{
	size_t        es = hyb_prec_size( a->prec );
	hyb_l3_args_t s  = *a;
	s.m              = rows;
	s.n              = cols;
	s.a = a->transa == 'N' ? hyb_at( a->a, a->lda, r0, 0, es ) : hyb_at( a->a, a->lda, 0, r0, es );
	s.b = a->transb == 'N' ? hyb_at( a->b, a->ldb, 0, c0, es ) : hyb_at( a->b, a->ldb, c0, 0, es );
	s.c = (void*)hyb_at( a->c, a->ldc, r0, c0, es );
	return s;
}

/* A product into tile t of the output: C(t) = alpha op(A) op(B) + beta C(t), C(t) being the
   tile's block of the call's C (t->rows x t->cols at t->r0, t->c0; column-major). */
static hyb_l3_args_t hyb_tile_gemm( const hyb_l3_args_t* a, const hyb_task_t* t, char ta, char tb,
                                    int64_t k, const double alpha[2], const void* A, int64_t lda,
                                    const void* B, int64_t ldb, const double beta[2] )
{
	void*         C = (void*)hyb_at( a->c, a->ldc, t->r0, t->c0, hyb_prec_size( a->prec ) );
	hyb_l3_args_t s = { .op     = HYB_OP_GEMM,
		                .prec   = a->prec,
		                .layout = 'C',
		                .transa = ta,
		                .transb = tb,
		                .m      = t->rows,
		                .n      = t->cols,
		                .k      = k,
		                .a      = A,
		                .lda    = lda,
		                .b      = B,
		                .ldb    = ldb,
		                .c      = C,
		                .ldc    = a->ldc };
	memcpy( s.alpha, alpha, sizeof s.alpha );
	memcpy( s.beta, beta, sizeof s.beta );
	return s;
}

/* Run fn on s unless it has nothing to compute (a side piece of width 0). */
static hyb_status_t hyb_cpu_piece( hyb_l3_cpu_fn fn, void* user, const hyb_l3_args_t* s )
{
	if ( s->m == 0 || s->n == 0 || s->k == 0 ) return HYB_OK;
	return fn( user, s );
}

/* symm/hemm tile: the stored triangle covers part of the needed rows (or
   columns) of the full matrix directly and the rest transposed; the
   diagonal block goes to symm itself (which applies beta first). */
static hyb_status_t hyb_task_cpu_symm( const hyb_l3_args_t* a, const hyb_task_t* t,
                                       hyb_l3_cpu_fn fn, void* user )
{
	size_t        es     = hyb_prec_size( a->prec );
	char          tt     = a->op == HYB_OP_HEMM ? 'C' : 'T';
	const double  one[2] = { 1, 0 };
	void*         C      = (void*)hyb_at( a->c, a->ldc, t->r0, t->c0, es );
	hyb_l3_args_t d      = *a; /* the diagonal block */
	hyb_status_t  st;
	if ( a->side == 'L' )
	{
		int64_t r0 = t->r0, r1 = t->r0 + t->rows, m = a->m;
		d.m = t->rows, d.n = t->cols;
		d.a = hyb_at( a->a, a->lda, r0, r0, es );
		d.b = hyb_at( a->b, a->ldb, r0, t->c0, es );
		d.c = C;
		if ( ( st = fn( user, &d ) ) != HYB_OK ) return st;
		/* Columns [0, r0) and [r1, m) of the full rows r0..r1. */
		hyb_l3_args_t left =
		    a->uplo == 'L'
		        ? hyb_tile_gemm( a, t, 'N', 'N', r0, a->alpha, hyb_at( a->a, a->lda, r0, 0, es ),
		                         a->lda, hyb_at( a->b, a->ldb, 0, t->c0, es ), a->ldb, one )
		        : hyb_tile_gemm( a, t, tt, 'N', r0, a->alpha, hyb_at( a->a, a->lda, 0, r0, es ),
		                         a->lda, hyb_at( a->b, a->ldb, 0, t->c0, es ), a->ldb, one );
		hyb_l3_args_t right =
		    a->uplo == 'L' ? hyb_tile_gemm( a, t, tt, 'N', m - r1, a->alpha,
		                                    hyb_at( a->a, a->lda, r1, r0, es ), a->lda,
		                                    hyb_at( a->b, a->ldb, r1, t->c0, es ), a->ldb, one )
		                   : hyb_tile_gemm( a, t, 'N', 'N', m - r1, a->alpha,
		                                    hyb_at( a->a, a->lda, r0, r1, es ), a->lda,
		                                    hyb_at( a->b, a->ldb, r1, t->c0, es ), a->ldb, one );
		if ( ( st = hyb_cpu_piece( fn, user, &left ) ) != HYB_OK ) return st;
		return hyb_cpu_piece( fn, user, &right );
	}
	int64_t c0 = t->c0, c1 = t->c0 + t->cols, n = a->n;
	d.m = t->rows, d.n = t->cols;
	d.a = hyb_at( a->a, a->lda, c0, c0, es );
	d.b = hyb_at( a->b, a->ldb, t->r0, c0, es );
	d.c = C;
	if ( ( st = fn( user, &d ) ) != HYB_OK ) return st;
	/* Rows [0, c0) and [c1, n) of the full columns c0..c1. */
	hyb_l3_args_t top =
	    a->uplo == 'L'
	        ? hyb_tile_gemm( a, t, 'N', tt, c0, a->alpha, hyb_at( a->b, a->ldb, t->r0, 0, es ),
	                         a->ldb, hyb_at( a->a, a->lda, c0, 0, es ), a->lda, one )
	        : hyb_tile_gemm( a, t, 'N', 'N', c0, a->alpha, hyb_at( a->b, a->ldb, t->r0, 0, es ),
	                         a->ldb, hyb_at( a->a, a->lda, 0, c0, es ), a->lda, one );
	hyb_l3_args_t bottom =
	    a->uplo == 'L'
	        ? hyb_tile_gemm( a, t, 'N', 'N', n - c1, a->alpha,
	                         hyb_at( a->b, a->ldb, t->r0, c1, es ), a->ldb,
	                         hyb_at( a->a, a->lda, c1, c0, es ), a->lda, one )
	        : hyb_tile_gemm( a, t, 'N', tt, n - c1, a->alpha, hyb_at( a->b, a->ldb, t->r0, c1, es ),
	                         a->ldb, hyb_at( a->a, a->lda, c0, c1, es ), a->lda, one );
	if ( ( st = hyb_cpu_piece( fn, user, &top ) ) != HYB_OK ) return st;
	return hyb_cpu_piece( fn, user, &bottom );
}

static hyb_status_t hyb_task_cpu_rank_k( const hyb_l3_args_t* a, const hyb_task_t* t,
                                         hyb_l3_cpu_fn fn, void* user )
{
	size_t es   = hyb_prec_size( a->prec );
	int    notr = a->transa == 'N';
	int    herm = a->op == HYB_OP_HERK || a->op == HYB_OP_HER2K;
	int    two  = hyb_op_is_rank_2k( a->op );
	void*  C    = (void*)hyb_at( a->c, a->ldc, t->r0, t->c0, es );
	if ( t->r0 == t->c0 )
	{
		/* A diagonal tile: the routine itself on the sub-block. */
		hyb_l3_args_t d = *a;
		d.n             = t->rows;
		d.a = notr ? hyb_at( a->a, a->lda, t->r0, 0, es ) : hyb_at( a->a, a->lda, 0, t->r0, es );
		if ( two )
			d.b =
			    notr ? hyb_at( a->b, a->ldb, t->r0, 0, es ) : hyb_at( a->b, a->ldb, 0, t->r0, es );
		d.c = C;
		return fn( user, &d );
	}
	char        ct = herm ? 'C' : 'T';
	char        ta = notr ? 'N' : ct, tb = notr ? ct : 'N';
	const void* Ai =
	    notr ? hyb_at( a->a, a->lda, t->r0, 0, es ) : hyb_at( a->a, a->lda, 0, t->r0, es );
	const void* Aj =
	    notr ? hyb_at( a->a, a->lda, t->c0, 0, es ) : hyb_at( a->a, a->lda, 0, t->c0, es );
	hyb_l3_args_t g = hyb_tile_gemm(
	    a, t, ta, tb, a->k, a->alpha, Ai, a->lda,
	    two ? ( notr ? hyb_at( a->b, a->ldb, t->c0, 0, es ) : hyb_at( a->b, a->ldb, 0, t->c0, es ) )
	        : Aj,
	    two ? a->ldb : a->lda, a->beta );
	hyb_status_t st = fn( user, &g );
	if ( st != HYB_OK || !two ) return st;
	const double one[2]    = { 1, 0 };
	const double alpha2[2] = { a->alpha[0], a->op == HYB_OP_HER2K ? -a->alpha[1] : a->alpha[1] };
	const void*  Bi =
        notr ? hyb_at( a->b, a->ldb, t->r0, 0, es ) : hyb_at( a->b, a->ldb, 0, t->r0, es );
	hyb_l3_args_t g2 = hyb_tile_gemm( a, t, ta, tb, a->k, alpha2, Bi, a->ldb, Aj, a->lda, one );
	return fn( user, &g2 );
}

hyb_status_t hyb_l3_task_cpu( const hyb_l3_work_t* w, int ti, hyb_l3_cpu_fn fn, void* user )
{
	const hyb_l3_args_t* a  = &w->args;
	const hyb_task_t*    t  = &w->tasks[ti];
	size_t               es = hyb_prec_size( a->prec );
	switch ( a->op )
	{
	case HYB_OP_GEMM:
	{
		hyb_l3_args_t s = hyb_l3_gemm_sub( a, t->r0, t->c0, t->rows, t->cols );
		return fn( user, &s );
	}
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		return hyb_task_cpu_symm( a, t, fn, user );
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		return hyb_task_cpu_rank_k( a, t, fn, user );
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
	{
		hyb_l3_args_t s = *a;
		s.m             = t->rows;
		s.n             = t->cols;
		s.b             = hyb_at( a->b, a->ldb, t->r0, t->c0, es );
		return fn( user, &s );
	}
	default:
		return HYB_E_INVALID;
	}
}
