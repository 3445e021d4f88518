/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated-device launchers called directly on host memory, each
   against an independent loop: branch, bound, max-reduce, label, the
   separated compaction's partition, Lalami's gather and a DP row. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/knapsack/hyb_knapsack_cpu.h"
#include "kernels/knapsack/hyb_knapsack_kargs.h"
#include "test_knapsack_util.h"

static kt_inst_t kt_s;

/* A batch of real subproblems: the CPU search's nodes after a few passes
   of a generated instance, including finished ones. */
static int64_t kt_nodes( hyb_knapsack_prep_t* pr, hyb_knapsack_node_t* out, int64_t max )
{
	kt_gen( &kt_s, HYB_KNAPSACK_GEN_WEAKLY, 12, 60, 3 );
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( kt_s.n, kt_s.p, kt_s.w, kt_s.c, pr ), HYB_OK );
	const hyb_knapsack_items_t it = hyb_knapsack_prep_items( pr, 0 );
	/* every node of the first levels, without pruning (L* = 0) */
	int64_t m = 1;
	out[0]    = ( hyb_knapsack_node_t ){ 0, 0, 0, 0 };
	for ( int64_t head = 0; head < m && m + 2 <= max; head++ )
	{
		hyb_knapsack_node_t kid[2];
		hyb_knapsack_branch( &it, &out[head], &kid[0], &kid[1] );
		for ( int k = 0; k < 2; k++ )
			if ( kid[k].k != HYB_KNAPSACK_DEAD && m < max ) out[m++] = kid[k];
	}
	/* and some finished ones */
	for ( int64_t i = 0; i < m; i += 7 ) out[i].k = pr->n;
	return m;
}

static void test_branch_bound( void )
{
	hyb_knapsack_prep_t        pr;
	static hyb_knapsack_node_t par[600], kids[1200], ref[1200];
	static int64_t             u[1200], l[1200];
	const int64_t              m  = kt_nodes( &pr, par, 600 );
	const hyb_knapsack_items_t it = hyb_knapsack_prep_items( &pr, 0 );
	hyb_knapsack_branch_args_t ba = { it, par, m, kids };
	CU_ASSERT_EQUAL( hyb_knapsack_branch_sim( NULL, &ba ), HYB_OK );
	int ok = 1, dead = 0, carried = 0;
	for ( int64_t i = 0; i < m; i++ )
	{
		const hyb_knapsack_node_t *t = &kids[2 * i], *s = &kids[2 * i + 1];
		if ( par[i].k >= pr.n )
		{
			/* finished: carried through as the second child, the first dead */
			ok &= t->k == HYB_KNAPSACK_DEAD && memcmp( s, &par[i], sizeof *s ) == 0;
			carried++;
			continue;
		}
		const int32_t j = par[i].k;
		ok &= s->k == j + 1 && s->w == par[i].w && s->p == par[i].p;
		ok &= t->w == par[i].w + pr.w[j] && t->p == par[i].p + pr.p[j];
		if ( par[i].w + pr.w[j] > pr.c )
		{
			ok &= t->k == HYB_KNAPSACK_DEAD;
			dead++;
		}
		else
			ok &= t->k == j + 1;
	}
	CU_ASSERT( ok );
	CU_ASSERT( dead > 0 && carried > 0 );

	/* bound = the per-node function on every child; dead ones -1 */
	memcpy( ref, kids, sizeof( hyb_knapsack_node_t ) * (size_t)( 2 * m ) );
	hyb_knapsack_bound_args_t bd = { it, kids, 2 * m, u, l };
	CU_ASSERT_EQUAL( hyb_knapsack_bound_sim( NULL, &bd ), HYB_OK );
	ok = 1;
	for ( int64_t i = 0; i < 2 * m; i++ )
	{
		int64_t ru, rl;
		hyb_knapsack_bound( &it, &ref[i], &ru, &rl );
		ok &= ru == u[i] && rl == l[i] && ref[i].s == kids[i].s;
		if ( kids[i].k == HYB_KNAPSACK_DEAD ) ok &= u[i] == -1 && l[i] == -1;
		if ( kids[i].k == pr.n ) ok &= u[i] == kids[i].p && l[i] == kids[i].p;
		ok &= kids[i].k == HYB_KNAPSACK_DEAD || ( l[i] <= u[i] && l[i] >= kids[i].p );
	}
	CU_ASSERT( ok );
	/* the prefix-sum variant writes the same */
	const hyb_knapsack_items_t itp = hyb_knapsack_prep_items( &pr, 1 );
	static int64_t             u2[1200], l2[1200];
	memcpy( kids, ref, sizeof( hyb_knapsack_node_t ) * (size_t)( 2 * m ) );
	hyb_knapsack_bound_args_t bp = { itp, kids, 2 * m, u2, l2 };
	CU_ASSERT_EQUAL( hyb_knapsack_bound_sim( NULL, &bp ), HYB_OK );
	CU_ASSERT( memcmp( u, u2, sizeof( int64_t ) * (size_t)( 2 * m ) ) == 0 );
	CU_ASSERT( memcmp( l, l2, sizeof( int64_t ) * (size_t)( 2 * m ) ) == 0 );
	hyb_knapsack_prep_free( &pr );
}

static void test_reduce_label_compact( void )
{
	enum
	{
		M = 500
	};
	static hyb_knapsack_node_t in[M], out[M];
	static int64_t             u[M], l[M], key[M], pos[M];
	static int32_t             lab[M];
	const int32_t              n    = 9;
	uint64_t                   s    = 11;
	int64_t                    lmax = -1;
	for ( int64_t i = 0; i < M; i++ )
	{
		s     = s * 6364136223846793005ull + 1442695040888963407ull;
		in[i] = ( hyb_knapsack_node_t ){ (int64_t)i, (int64_t)( s >> 50 ),
			                             (int32_t)( ( s >> 20 ) % 11 ) - 1, 0 };
		if ( in[i].k > n ) in[i].k = n;
		u[i] = in[i].k == HYB_KNAPSACK_DEAD ? -1 : (int64_t)( ( s >> 30 ) % 1000 );
		l[i] = in[i].k == HYB_KNAPSACK_DEAD ? -1 : u[i] - (int64_t)( ( s >> 40 ) % 50 );
		if ( l[i] > lmax ) lmax = l[i];
	}
	/* the scratch the backend asks for; without it the reduce and the
	   compaction refuse, as CUB's would compute nothing */
	size_t scratch_bytes = 0;
	CU_ASSERT_EQUAL( hyb_knapsack_sim_temp_bytes( M, &scratch_bytes ), HYB_OK );
	CU_ASSERT( scratch_bytes > 0 );
	void*                      scratch = malloc( scratch_bytes );
	int64_t                    best    = -5;
	hyb_knapsack_reduce_args_t rd      = { l, M, &best, NULL, 0 };
	CU_ASSERT_EQUAL( hyb_knapsack_reduce_max_sim( NULL, &rd ), HYB_E_INVALID );
	rd.temp = scratch, rd.temp_bytes = scratch_bytes - 1;
	CU_ASSERT_EQUAL( hyb_knapsack_reduce_max_sim( NULL, &rd ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( best, -5 );
	rd.temp_bytes = scratch_bytes;
	CU_ASSERT_EQUAL( hyb_knapsack_reduce_max_sim( NULL, &rd ), HYB_OK );
	CU_ASSERT_EQUAL( best, lmax );
	rd.m = 0;
	CU_ASSERT_EQUAL( hyb_knapsack_reduce_max_sim( NULL, &rd ), HYB_E_INVALID );

	for ( int ties = 0; ties < 2; ties++ )
	{
		/* L* = max(host value, the reduce's); the host value here is lower */
		hyb_knapsack_label_args_t la = { in, u, M, n, lmax - 300, &best, ties, key, lab };
		CU_ASSERT_EQUAL( hyb_knapsack_label_sim( NULL, &la ), HYB_OK );
		int64_t want_unf = 0, want_fin = 0;
		int     ok = 1;
		for ( int64_t i = 0; i < M; i++ )
		{
			const int keep = in[i].k != HYB_KNAPSACK_DEAD && ( ties ? u[i] > lmax : u[i] >= lmax );
			const int want = !keep          ? HYB_KNAPSACK_DROP
			                 : in[i].k == n ? HYB_KNAPSACK_KEEP_DONE
			                                : HYB_KNAPSACK_KEEP;
			ok &= lab[i] == want;
			ok &= key[i] == ( want == HYB_KNAPSACK_KEEP        ? 1
			                  : want == HYB_KNAPSACK_KEEP_DONE ? HYB_KNAPSACK_KEY_DONE
			                                                   : 0 );
			want_unf += want == HYB_KNAPSACK_KEEP;
			want_fin += want == HYB_KNAPSACK_KEEP_DONE;
		}
		CU_ASSERT( ok );
		CU_ASSERT( want_unf > 0 && want_fin > 0 );

		/* the compaction: unfinished kept in order, then finished kept in order */
		hyb_knapsack_scalars_t      sc = { 0, -1, -1 };
		hyb_knapsack_compact_args_t cp = { in, key, pos, M, out, &sc, NULL, 0, NULL };
		memset( out, 0xff, sizeof out );
		CU_ASSERT_EQUAL( hyb_knapsack_compact_sim( NULL, &cp ), HYB_E_INVALID );
		CU_ASSERT_EQUAL( sc.n_unfinished, -1 );
		cp.temp = scratch, cp.temp_bytes = scratch_bytes;
		CU_ASSERT_EQUAL( hyb_knapsack_compact_sim( NULL, &cp ), HYB_OK );
		CU_ASSERT_EQUAL( sc.n_unfinished, want_unf );
		CU_ASSERT_EQUAL( sc.n_finished, want_fin );
		int64_t a = 0, b = want_unf;
		ok = 1;
		for ( int64_t i = 0; i < M; i++ )
		{
			if ( lab[i] == HYB_KNAPSACK_KEEP ) ok &= memcmp( &out[a++], &in[i], sizeof in[i] ) == 0;
			if ( lab[i] == HYB_KNAPSACK_KEEP_DONE )
				ok &= memcmp( &out[b++], &in[i], sizeof in[i] ) == 0;
		}
		CU_ASSERT( ok );
		/* Lalami's step: the host's in-order pattern, gathered */
		static int32_t             dest[M];
		static hyb_knapsack_node_t out2[M];
		int64_t                    kept = 0;
		for ( int64_t i = 0; i < M; i++ )
			dest[i] = lab[i] == HYB_KNAPSACK_DROP ? -1 : (int32_t)kept++;
		hyb_knapsack_gather_args_t g = { in, dest, M, out2 };
		CU_ASSERT_EQUAL( hyb_knapsack_gather_sim( NULL, &g ), HYB_OK );
		ok = 1;
		for ( int64_t i = 0, k = 0; i < M; i++ )
			if ( dest[i] >= 0 ) ok &= memcmp( &out2[k++], &in[i], sizeof in[i] ) == 0;
		CU_ASSERT( ok );
		CU_ASSERT_EQUAL( kept, want_unf + want_fin );
	}
	hyb_knapsack_compact_args_t empty = { in, key, pos, 0, out, NULL, NULL, 0, NULL };
	CU_ASSERT_EQUAL( hyb_knapsack_compact_sim( NULL, &empty ), HYB_E_INVALID );
	free( scratch );
}

static void test_dp_row( void )
{
	kt_gen( &kt_s, HYB_KNAPSACK_GEN_UNCORRELATED, 40, 200, 17 );
	const int64_t c = kt_s.c, words = hyb_knapsack_dp_words( c );
	int64_t*      rows  = malloc( 2 * (size_t)( c + 1 ) * sizeof *rows );
	uint32_t*     bits  = malloc( (size_t)( 40 * words ) * sizeof *bits );
	uint32_t*     bits2 = malloc( (size_t)( 40 * words ) * sizeof *bits2 );
	for ( int32_t i = 0; i < 40; i++ )
	{
		hyb_knapsack_dp_row_args_t a = { i ? rows + ( ( i - 1 ) & 1 ) * ( c + 1 ) : NULL,
			                             rows + ( i & 1 ) * ( c + 1 ),
			                             bits + i * words,
			                             c,
			                             kt_s.w[i],
			                             kt_s.p[i] };
		CU_ASSERT_EQUAL( hyb_knapsack_dp_row_sim( NULL, &a ), HYB_OK );
	}
	int64_t v = -1;
	CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu( kt_s.w, kt_s.p, 40, c, 1, &v, bits2 ), HYB_OK );
	CU_ASSERT_EQUAL( rows[( 39 & 1 ) * ( c + 1 ) + c], v );
	CU_ASSERT_EQUAL( v, kt_dp( &kt_s ) );
	CU_ASSERT( memcmp( bits, bits2, (size_t)( 40 * words ) * sizeof *bits ) == 0 );
	hyb_knapsack_dp_row_args_t bad = { NULL, rows, NULL, -1, 1, 1 };
	CU_ASSERT_EQUAL( hyb_knapsack_dp_row_sim( NULL, &bad ), HYB_E_INVALID );
	size_t tb = 7;
	CU_ASSERT_EQUAL( hyb_knapsack_sim_temp_bytes( 1000, &tb ), HYB_OK );
	CU_ASSERT( tb > 0 );
	CU_ASSERT_EQUAL( hyb_knapsack_sim_temp_bytes( 0, &tb ), HYB_OK );
	CU_ASSERT_EQUAL( tb, 0 );
	CU_ASSERT_EQUAL( hyb_knapsack_sim_temp_bytes( -1, &tb ), HYB_E_INVALID );
	free( rows );
	free( bits );
	free( bits2 );
}

static CU_TestInfo kt_tests_sim[] = {
	{ "branch_bound", test_branch_bound },
	{ "reduce_label_compact", test_reduce_label_compact },
	{ "dp_row", test_dp_row },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_knapsack_sim = { "knapsack_sim", NULL, NULL, NULL, NULL, kt_tests_sim };
