/* SPDX-License-Identifier: BSD-3-Clause */
/* Decomposition of level-3 calls into tiles, blocks and device operations
   (kernels/pipeline/hyb_l3_tasks): the tasks cover the output region once,
   their device operations (emulated on the host with the reference) and
   their CPU equivalents (hyb_l3_task_cpu) each reproduce the whole call,
   consecutive tiles share a tile row or column. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_l3_check.h"
#include "hyb_test_util.h"
#include "kernels/pipeline/hyb_l3_tasks.h"

/* One random case: a normalized problem, the device region and the tiles. */
typedef struct
{
	hyb_t_problem_t pr;
	int64_t         m_dev, n_dev, Tm, Tn, K;
	int64_t         rows, cols; /* output */
	int             beta_host;  /* hyb_l3_work_beta_on_host applied */
	int             nbands;     /* asked of hyb_l3_work_build_bands */
} hyb_case_t;

static void make_case( hyb_case_t* c, hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t p, int max_dim,
                       int max_tile )
{
	char s, u, ta, tb, dg;
	hyb_t_random_options( r, op, p, &s, &u, &ta, &tb, &dg );
	/* A quarter of the cases are row-major calls, normalized as dispatch does. */
	char layout = hyb_t_int( r, 0, 3 ) == 0 ? 'R' : 'C';
	hyb_t_problem_make( &c->pr, r, op, p, layout, s, u, ta, tb, dg, hyb_t_int( r, 1, max_dim ),
	                    hyb_t_int( r, 1, max_dim ), hyb_t_int( r, 1, max_dim ),
	                    hyb_t_int( r, 0, 3 ), (int)hyb_t_int( r, 0, 2 ) );
	hyb_l3_normalize( &c->pr.args );
	hyb_t_out_dims( &c->pr.args, &c->rows, &c->cols );
	c->Tm    = hyb_t_int( r, 1, max_tile );
	c->Tn    = hyb_op_is_rank_k( op ) ? c->Tm : hyb_t_int( r, 1, max_tile );
	c->K     = hyb_t_int( r, 1, max_tile );
	c->m_dev = c->rows, c->n_dev = c->cols;
	/* gemm: part of the output may be a CPU strip outside the work. */
	if ( op == HYB_OP_GEMM && hyb_t_int( r, 0, 2 ) == 0 )
	{
		if ( hyb_t_int( r, 0, 1 ) )
			c->n_dev = hyb_t_int( r, 1, c->cols );
		else
			c->m_dev = hyb_t_int( r, 1, c->rows );
	}
	c->beta_host = (int)hyb_t_int( r, 0, 1 );
	c->nbands    = (int)hyb_t_int( r, 1, 4 );
}

/* ------------------------------------------------------------------ emulation */

/* Block `b` materialized densely (leading dimension rows), as load1 must
   produce it: a rectangle of A or B, or of the full symmetric/Hermitian
   matrix built from A's stored triangle. */
static void* make_block( const hyb_l3_work_t* w, int b )
{
	const hyb_l3_args_t* a   = &w->args;
	const hyb_blk_t*     k   = &w->blks[b];
	const void*          src = k->mat == 0 ? a->a : a->b;
	int64_t              ld  = k->mat == 0 ? a->lda : a->ldb;
	void*                d = malloc( (size_t)( k->rows * k->cols + 1 ) * hyb_prec_size( a->prec ) );
	for ( int64_t j = 0; j < k->cols; j++ )
		for ( int64_t i = 0; i < k->rows; i++ )
		{
			int64_t        r = k->r0 + i, c = k->c0 + j;
			double complex v;
			if ( k->transform == HYB_BLK_PLAIN )
				v = hyb_t_get( a->prec, src, r + c * ld );
			else
			{
				int stored = a->uplo == 'U' ? r <= c : r >= c;
				v          = stored ? hyb_t_get( a->prec, src, r + c * ld )
				                    : hyb_t_get( a->prec, src, c + r * ld );
				if ( k->transform == HYB_BLK_HERM && !stored ) v = conj( v );
				if ( k->transform == HYB_BLK_HERM && r == c ) v = creal( v );
			}
			hyb_t_set( a->prec, d, i + j * k->rows, v );
		}
	return d;
}

/* Run task t's device operations on the host and store the tile as store2
   does (inside its mask, Hermitian diagonal made real). Returns 0 when an
   operation's shapes do not match its blocks and tile. */
static int emulate_task( const hyb_l3_work_t* w, int t )
{
	const hyb_l3_args_t* a  = &w->args;
	const hyb_task_t*    tk = &w->tasks[t];
	int64_t              ldo;
	void*                out = hyb_l3_out( a, &ldo );
	size_t               es  = hyb_prec_size( a->prec );
	void*                T   = malloc( (size_t)( tk->rows * tk->cols + 1 ) * es );
	int                  ok  = 1;
	for ( int64_t j = 0; j < tk->cols; j++ )
		for ( int64_t i = 0; i < tk->rows; i++ )
			hyb_t_set( a->prec, T, i + j * tk->rows,
			           tk->load_c ? hyb_t_get( a->prec, out, tk->r0 + i + ( tk->c0 + j ) * ldo )
			                      : CMPLX( NAN, NAN ) );
	for ( int q = 0; q < tk->nops && ok; q++ )
	{
		const hyb_top_t* op = &w->ops[tk->first_op + q];
		if ( op->blk_a < 0 || op->blk_a >= w->nblks ) return 0;
		const hyb_blk_t* A  = &w->blks[op->blk_a];
		void*            Ad = make_block( w, op->blk_a );
		hyb_l3_args_t    s  = { .prec   = a->prec,
			                    .layout = 'C',
			                    .m      = op->m,
			                    .n      = op->n,
			                    .alpha  = { op->alpha[0], op->alpha[1] },
			                    .a      = Ad,
			                    .lda    = A->rows };
		if ( op->m != tk->rows || op->n != tk->cols ) ok = 0;
		if ( op->kind == HYB_TOP_GEMM )
		{
			if ( op->blk_b < 0 || op->blk_b >= w->nblks ) ok = 0;
			const hyb_blk_t* B = ok ? &w->blks[op->blk_b] : NULL;
			/* The inner dimension matches exactly; a block may hold more rows of
			   op(A) (columns of op(B)) than the tile needs (the last tile row of
			   a region that ends inside the block's grid cell): the product
			   reads the leading part. */
			if ( ok && ( ( op->ta == 'N' ? A->rows < op->m || A->cols != op->k
			                             : A->cols < op->m || A->rows != op->k ) ||
			             ( op->tb == 'N' ? B->rows != op->k || B->cols < op->n
			                             : B->cols != op->k || B->rows < op->n ) ) )
				ok = 0;
			if ( ok )
			{
				void* Bd = make_block( w, op->blk_b );
				s.op     = HYB_OP_GEMM;
				s.transa = op->ta, s.transb = op->tb, s.k = op->k;
				s.beta[0] = op->beta[0], s.beta[1] = op->beta[1];
				s.b = Bd, s.ldb = B->rows, s.c = T, s.ldc = tk->rows;
				hyb_t_ref_l3( &s );
				free( Bd );
			}
		}
		else
		{
			int64_t d = a->side == 'L' ? op->m : op->n;
			if ( A->rows != d || A->cols != d ) ok = 0;
			s.op   = op->kind == HYB_TOP_TRSM ? HYB_OP_TRSM : HYB_OP_TRMM;
			s.side = a->side, s.uplo = a->uplo, s.transa = a->transa, s.diag = a->diag;
			s.b = T, s.ldb = tk->rows;
			if ( ok ) hyb_t_ref_l3( &s );
		}
		free( Ad );
	}
	for ( int64_t j = 0; j < tk->cols && ok; j++ )
		for ( int64_t i = 0; i < tk->rows; i++ )
		{
			int64_t r = tk->r0 + i, c = tk->c0 + j;
			if ( tk->mask == HYB_MASK_UPPER && r > c ) continue;
			if ( tk->mask == HYB_MASK_LOWER && r < c ) continue;
			double complex v = hyb_t_get( a->prec, T, i + j * tk->rows );
			if ( tk->beta_host ) /* the store's update */
				v += ( hyb_prec_is_complex( a->prec ) ? CMPLX( a->beta[0], a->beta[1] )
				                                      : a->beta[0] ) *
				     hyb_t_get( a->prec, out, r + c * ldo );
			if ( tk->herm_diag && r == c ) v = creal( v );
			hyb_t_set( a->prec, out, r + c * ldo, v );
		}
	free( T );
	return ok;
}

/* ------------------------------------------------------------------ checks */

/* Every element of the device region (the stored triangle for rank-k) is
   covered by exactly one task and its mask; nothing else is. */
static int check_cover( const hyb_case_t* c, const hyb_l3_work_t* w )
{
	const hyb_l3_args_t* a   = &w->args;
	int*                 cnt = calloc( (size_t)( c->rows * c->cols ), sizeof *cnt );
	int                  bad = 0;
	for ( int t = 0; t < w->ntasks; t++ )
	{
		const hyb_task_t* tk = &w->tasks[t];
		if ( tk->rows <= 0 || tk->cols <= 0 || tk->r0 < 0 || tk->c0 < 0 ||
		     tk->r0 + tk->rows > c->rows || tk->c0 + tk->cols > c->cols )
		{
			bad++;
			continue;
		}
		if ( tk->mask != HYB_MASK_FULL && !hyb_op_is_rank_k( a->op ) ) bad++;
		for ( int64_t j = tk->c0; j < tk->c0 + tk->cols; j++ )
			for ( int64_t i = tk->r0; i < tk->r0 + tk->rows; i++ )
			{
				if ( tk->mask == HYB_MASK_UPPER && i > j ) continue;
				if ( tk->mask == HYB_MASK_LOWER && i < j ) continue;
				cnt[i + j * c->rows]++;
			}
	}
	for ( int64_t j = 0; j < c->cols; j++ )
		for ( int64_t i = 0; i < c->rows; i++ )
		{
			int want = i < c->m_dev && j < c->n_dev && hyb_t_in_output( a, i, j );
			if ( cnt[i + j * c->rows] != want ) bad++;
		}
	free( cnt );
	return bad;
}

/* The work's bookkeeping: sizes, flops, k-chunks, tile sizes. */
static int check_bookkeeping( const hyb_case_t* c, const hyb_l3_work_t* w )
{
	const hyb_l3_args_t* a     = &w->args;
	size_t               es    = hyb_prec_size( a->prec );
	int                  bad   = 0;
	double               flops = 0;
	for ( int b = 0; b < w->nblks; b++ )
	{
		const hyb_blk_t* k = &w->blks[b];
		if ( (size_t)( k->rows * k->cols ) * es > w->slot_bytes || k->rows <= 0 || k->cols <= 0 )
			bad++;
	}
	for ( int t = 0; t < w->ntasks; t++ )
	{
		const hyb_task_t* tk = &w->tasks[t];
		if ( (size_t)( tk->rows * tk->cols ) * es > w->tile_bytes ) bad++;
		if ( tk->rows > c->Tm && !( a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM ) ) bad++;
		if ( tk->cols > c->Tn && !( a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM ) ) bad++;
		if ( tk->first_op < 0 || tk->first_op + tk->nops > w->nops || tk->nops < 1 ) bad++;
		int64_t ksum     = 0;
		int     products = 1;
		for ( int q = 0; q < tk->nops && tk->first_op + q < w->nops; q++ )
		{
			const hyb_top_t* op = &w->ops[tk->first_op + q];
			if ( op->kind == HYB_TOP_GEMM )
			{
				ksum += op->k;
				if ( op->k > c->K || op->k < 1 ) bad++;
			}
			else
				products = 0;
		}
		/* beta = 0: the tile's old values are never read. Otherwise they are
		   uploaded, except where beta went to the host: exactly the tiles of
		   products only that are not a Hermitian diagonal. */
		int bz   = a->beta[0] == 0.0 && a->beta[1] == 0.0;
		int old  = !bz || a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM;
		int host = c->beta_host && old && products && !tk->herm_diag;
		if ( tk->beta_host != host || tk->load_c != ( old && !host ) ) bad++;
		int64_t kdim = a->op == HYB_OP_GEMM ? a->k
		               : a->op == HYB_OP_SYMM || a->op == HYB_OP_HEMM
		                   ? ( a->side == 'L' ? a->m : a->n )
		               : hyb_op_is_rank_k( a->op ) ? ( hyb_op_is_rank_2k( a->op ) ? 2 : 1 ) * a->k
		                                           : 0;
		if ( ksum != kdim ) bad++;
		flops += tk->flops;
	}
	if ( fabs( flops - w->flops ) > 1e-9 * flops ) bad++;
	/* gemm: the work's flops are the region's. */
	if ( a->op == HYB_OP_GEMM )
	{
		double f = 2.0 * (double)c->m_dev * (double)c->n_dev * (double)a->k *
		           ( hyb_prec_is_complex( a->prec ) ? 4 : 1 );
		if ( fabs( f - w->flops ) > 1e-9 * f ) bad++;
	}
	return bad;
}

/* Consecutive tiles share a tile row or a tile column (snake order: one
   operand block panel stays in use). Returns the number of transitions that
   share neither. */
static int count_snake_breaks( const hyb_l3_work_t* w )
{
	int breaks = 0, band = 0;
	for ( int t = 1; t < w->ntasks; t++ )
	{
		const hyb_task_t *p = &w->tasks[t - 1], *q = &w->tasks[t];
		if ( t == w->band_first[band + 1] )
		{
			band++; /* a band starts its own order */
			continue;
		}
		if ( p->r0 != q->r0 && p->c0 != q->c0 ) breaks++;
	}
	return breaks;
}

/* The bands: consecutive, none empty, no more than asked, one for rank-k
   updates; the tiles of a product's band in its own run of tile columns (rows
   when the region is taller than wide), disjoint from the other bands'. */
static int check_bands( const hyb_case_t* c, const hyb_l3_work_t* w )
{
	int bad = w->nbands < 1 || w->nbands > c->nbands || w->band_first[0] != 0 ||
	          w->band_first[w->nbands] != w->ntasks;
	if ( hyb_op_is_rank_k( w->args.op ) && w->nbands != 1 ) bad++;
	int     tri     = w->args.op == HYB_OP_TRSM || w->args.op == HYB_OP_TRMM;
	int     by_cols = tri ? w->args.side == 'L' : hyb_l3_bands_by_cols( c->m_dev, c->n_dev );
	int64_t prev_hi = 0;
	for ( int b = 0; b < w->nbands && !bad; b++ )
	{
		if ( w->band_first[b + 1] <= w->band_first[b] ) bad++;
		int64_t lo = INT64_MAX, hi = 0;
		for ( int t = w->band_first[b]; t < w->band_first[b + 1]; t++ )
		{
			const hyb_task_t* k = &w->tasks[t];
			int64_t           a = by_cols ? k->c0 : k->r0, z = a + ( by_cols ? k->cols : k->rows );
			lo = a < lo ? a : lo, hi = z > hi ? z : hi;
		}
		if ( !hyb_op_is_rank_k( w->args.op ) && lo != prev_hi ) bad++; /* in order, disjoint */
		prev_hi = hi;
	}
	if ( bad )
		fprintf( stderr, "\n    bands: %s asked %d, made %d, tasks %d", hyb_op_name( w->args.op ),
		         c->nbands, w->nbands, w->ntasks );
	return bad;
}

/* ------------------------------------------------------------------ tests */

/* Compute the whole call from the work: each task by `how` (0: emulated
   device operations, 1: hyb_l3_task_cpu with the reference), the rest (a
   CPU strip) by the reference on gemm sub-problems. */
static int run_case( hyb_case_t* c, int how, int* snake_breaks, int check_snake )
{
	hyb_l3_args_t* a = &c->pr.args;
	hyb_l3_work_t  w;
	int            bad = 0;
	hyb_status_t   st =
	    hyb_l3_work_build_bands( &w, a, c->m_dev, c->n_dev, c->Tm, c->Tn, c->K, c->nbands );
	if ( st != HYB_OK ) return 1000;
	bad += check_bands( c, &w );
	if ( c->beta_host ) hyb_l3_work_beta_on_host( &w );
	int64_t ld;
	void*   out   = hyb_l3_out( a, &ld );
	size_t  bytes = hyb_t_out_bytes( a );
	void *  c0 = malloc( bytes ), *want = malloc( bytes );
	memcpy( c0, out, bytes );
	memcpy( want, out, bytes );
	hyb_l3_args_t ra = *a;
	if ( a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM )
		ra.b = want;
	else
		ra.c = want;
	hyb_t_ref_l3( &ra );

	bad += check_cover( c, &w );
	bad += check_bookkeeping( c, &w );
	if ( check_snake ) *snake_breaks += count_snake_breaks( &w );

	hyb_t_cpu_counter_t cnt = { 0 };
	for ( int t = 0; t < w.ntasks; t++ )
	{
		if ( how == 0 )
			bad += !emulate_task( &w, t );
		else if ( hyb_l3_task_cpu( &w, t, hyb_t_ref_cpu, &cnt ) != HYB_OK )
			bad++;
	}
	/* The tasks alone leave everything outside the device region as it was. */
	for ( int64_t j = 0; j < c->cols; j++ )
		for ( int64_t i = 0; i < c->rows; i++ )
			if ( !( i < c->m_dev && j < c->n_dev ) && hyb_t_in_output( a, i, j ) &&
			     memcmp( (char*)out + (size_t)( i + j * ld ) * hyb_prec_size( a->prec ),
			             (char*)c0 + (size_t)( i + j * ld ) * hyb_prec_size( a->prec ),
			             hyb_prec_size( a->prec ) ) )
				bad++;
	/* The CPU strip, as dispatch cuts it. */
	if ( c->n_dev < c->cols )
	{
		hyb_l3_args_t s = hyb_l3_gemm_sub( a, 0, c->n_dev, c->rows, c->cols - c->n_dev );
		hyb_t_ref_l3( &s );
	}
	if ( c->m_dev < c->rows )
	{
		hyb_l3_args_t s = hyb_l3_gemm_sub( a, c->m_dev, 0, c->rows - c->m_dev, c->cols );
		hyb_t_ref_l3( &s );
	}
	double err = hyb_t_l3_error( a, out, want, c0 );
	if ( !( err <= hyb_t_l3_tol( a ) ) )
	{
		fprintf( stderr,
		         "\n    %s %c%s side=%c uplo=%c ta=%c tb=%c diag=%c m=%lld n=%lld k=%lld "
		         "T=%lldx%lld K=%lld dev=%lldx%lld: error %g",
		         how ? "cpu" : "emulated", hyb_prec_char( a->prec ), hyb_op_name( a->op ), a->side,
		         a->uplo, a->transa, a->transb, a->diag, (long long)a->m, (long long)a->n,
		         (long long)a->k, (long long)c->Tm, (long long)c->Tn, (long long)c->K,
		         (long long)c->m_dev, (long long)c->n_dev, err );
		bad++;
	}
	if ( hyb_t_outside_changed( a, out, c0 ) ) bad++;
	free( c0 );
	free( want );
	hyb_l3_work_free( &w );
	CU_ASSERT_PTR_NULL( w.tasks );
	return bad;
}

static void run_all( int how )
{
	hyb_t_rng_t r     = hyb_t_rng( 200 + (uint64_t)how );
	int         cases = 0, breaks_product = 0, breaks_rank_k = 0;
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
		{
			if ( !hyb_t_op_has_prec( hyb_t_l3_ops[o], p ) ) continue;
			for ( int it = 0; it < 80; it++ )
			{
				hyb_case_t c;
				make_case( &c, &r, hyb_t_l3_ops[o], (hyb_prec_t)p, it < 60 ? 12 : 23, 7 );
				int* breaks =
				    hyb_op_is_rank_k( hyb_t_l3_ops[o] ) ? &breaks_rank_k : &breaks_product;
				int bad =
				    run_case( &c, how, breaks,
				              hyb_t_l3_ops[o] != HYB_OP_TRSM && hyb_t_l3_ops[o] != HYB_OP_TRMM );
				CU_ASSERT_EQUAL( bad, 0 );
				hyb_t_problem_free( &c.pr );
				cases++;
			}
		}
	CU_ASSERT( cases > 2000 );
	/* gemm, symm, hemm: every transition keeps a tile row or column. */
	CU_ASSERT_EQUAL( breaks_product, 0 );
	if ( how == 0 && breaks_rank_k )
		fprintf( stderr,
		         "\n    note: rank-k tile order breaks the snake %d times (diagonal to diagonal)",
		         breaks_rank_k );
}

static void test_device_ops_reproduce( void )
{
	run_all( 0 );
}

static void test_cpu_tasks_reproduce( void )
{
	run_all( 1 );
}

/* Larger grids for the order: a snake over growing squares keeps one tile
   row or column between any two consecutive tiles, for any grid shape. */
static void test_snake_order( void )
{
	hyb_t_rng_t r = hyb_t_rng( 210 );
	for ( int it = 0; it < 300; it++ )
	{
		hyb_l3_args_t a = { .op     = it % 3 == 0 ? HYB_OP_SYMM : HYB_OP_GEMM,
			                .prec   = HYB_PREC_D,
			                .layout = 'C',
			                .side   = 'L',
			                .uplo   = 'U',
			                .transa = 'N',
			                .transb = it % 2 ? 'T' : 'N' };
		a.m = hyb_t_int( &r, 1, 200 ), a.n = hyb_t_int( &r, 1, 200 ),
		a.k   = a.op == HYB_OP_GEMM ? hyb_t_int( &r, 1, 50 ) : 0;
		a.lda = a.ldb = a.ldc = 1000;
		int64_t Tm = hyb_t_int( &r, 1, 40 ), Tn = hyb_t_int( &r, 1, 40 ),
		        K = hyb_t_int( &r, 1, 64 );
		hyb_l3_work_t w;
		CU_ASSERT_EQUAL_FATAL( hyb_l3_work_build( &w, &a, a.m, a.n, Tm, Tn, K ), HYB_OK );
		CU_ASSERT_EQUAL( w.ntasks, ( ( a.m + Tm - 1 ) / Tm ) * ( ( a.n + Tn - 1 ) / Tn ) );
		CU_ASSERT_EQUAL( count_snake_breaks( &w ), 0 );
		/* Each block is created once and reused by consecutive tiles: the number
		   of distinct blocks is the grid's, not the tiles'. */
		int64_t kdim = a.op == HYB_OP_GEMM ? a.k : a.m, nk = ( kdim + K - 1 ) / K;
		int64_t want = nk * ( ( a.m + Tm - 1 ) / Tm + ( a.n + Tn - 1 ) / Tn );
		CU_ASSERT( w.nblks <= want );
		hyb_l3_work_free( &w );
	}
}

static void test_build_invalid( void )
{
	hyb_l3_args_t a = { .op     = HYB_OP_GEMM,
		                .prec   = HYB_PREC_D,
		                .layout = 'C',
		                .transa = 'N',
		                .transb = 'N',
		                .m      = 8,
		                .n      = 8,
		                .k      = 8,
		                .lda    = 8,
		                .ldb    = 8,
		                .ldc    = 8,
		                .alpha  = { 1, 0 } };
	hyb_l3_work_t w;
	CU_ASSERT_EQUAL( hyb_l3_work_build( &w, &a, 8, 8, 0, 4, 4 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_l3_work_build( &w, &a, 8, 8, 4, 0, 4 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_l3_work_build( &w, &a, 8, 8, 4, 4, 0 ), HYB_E_INVALID );
	a.layout = 'R';
	CU_ASSERT_EQUAL( hyb_l3_work_build( &w, &a, 8, 8, 4, 4, 4 ), HYB_E_INVALID );
	a.layout = 'C';
	a.op = HYB_OP_SYRK, a.uplo = 'U';
	CU_ASSERT_EQUAL( hyb_l3_work_build( &w, &a, 8, 8, 4, 2, 4 ),
	                 HYB_E_INVALID ); /* rank-k tiles are square */
	a.op = HYB_OP_GTSV;
	CU_ASSERT_EQUAL( hyb_l3_work_build( &w, &a, 8, 8, 4, 4, 4 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( w.ntasks, 0 );
	hyb_l3_work_free( &w ); /* harmless after a failure */
}

/* The CPU completion passes the library's failure on, and a tile split
   into several pieces stops at the first failing piece. */
static void test_task_cpu_failure( void )
{
	hyb_t_rng_t     r = hyb_t_rng( 220 );
	hyb_t_problem_t pr;
	hyb_t_problem_make( &pr, &r, HYB_OP_SYMM, HYB_PREC_D, 'C', 'L', 'U', 'N', 'N', 'N', 9, 5, 0, 1,
	                    2 );
	hyb_l3_work_t w;
	CU_ASSERT_EQUAL_FATAL( hyb_l3_work_build( &w, &pr.args, 9, 5, 3, 5, 3 ), HYB_OK );
	hyb_t_cpu_counter_t cnt = { 0 };
	atomic_store( &cnt.fail_after, 1 );
	CU_ASSERT_EQUAL( hyb_l3_task_cpu( &w, 1, hyb_t_ref_cpu, &cnt ), HYB_E_NO_SYMBOL );
	CU_ASSERT_EQUAL( atomic_load( &cnt.calls ), 1 );
	hyb_l3_work_free( &w );
	hyb_t_problem_free( &pr );
}

static CU_TestInfo hyb_tests_l3_tasks[] = {
	{ "device_ops_reproduce", test_device_ops_reproduce },
	{ "cpu_tasks_reproduce", test_cpu_tasks_reproduce },
	{ "snake_order", test_snake_order },
	{ "build_invalid", test_build_invalid },
	{ "task_cpu_failure", test_task_cpu_failure },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_l3_tasks = { "l3_tasks", NULL, NULL, NULL, NULL, hyb_tests_l3_tasks };
