/* SPDX-License-Identifier: BSD-3-Clause */
/* Knapsack instance generators: Pisinger's classes, the seed's set, large
   capacities; splitmix64 streams. */
#include "tools/knapsack/hyb_knapsack_gen.h"

#include <math.h>
#include <stddef.h>

/* splitmix64 (Steele, Lea, Flood 2014): a full-period stream per seed. */
static uint64_t hyb_knapsack_rng( uint64_t* s )
{
	uint64_t z = ( *s += 0x9e3779b97f4a7c15ull );
	z          = ( z ^ ( z >> 30 ) ) * 0xbf58476d1ce4e5b9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94d049bb133111ebull;
	return z ^ ( z >> 31 );
}

/* Uniform in [lo, hi] (lo <= hi), by the high half of a 128-bit product. */
static int64_t hyb_knapsack_uniform( uint64_t* s, int64_t lo, int64_t hi )
{
	const uint64_t span = (uint64_t)( hi - lo ) + 1;
	if ( span == 0 ) return (int64_t)hyb_knapsack_rng( s );
	return lo + (int64_t)( ( (unsigned __int128)hyb_knapsack_rng( s ) * span ) >> 64 );
}

const char* hyb_knapsack_gen_name( hyb_knapsack_gen_class_t cls )
{
	switch ( cls )
	{
	case HYB_KNAPSACK_GEN_UNCORRELATED:
		return "uncorrelated";
	case HYB_KNAPSACK_GEN_WEAKLY:
		return "weakly";
	case HYB_KNAPSACK_GEN_STRONGLY:
		return "strongly";
	case HYB_KNAPSACK_GEN_INVERSE_STRONGLY:
		return "inverse_strongly";
	case HYB_KNAPSACK_GEN_ALMOST_STRONGLY:
		return "almost_strongly";
	case HYB_KNAPSACK_GEN_SUBSET_SUM:
		return "subset_sum";
	case HYB_KNAPSACK_GEN_SIMILAR_WEIGHTS:
		return "similar_weights";
	case HYB_KNAPSACK_GEN_PROFIT_CEILING:
		return "profit_ceiling";
	case HYB_KNAPSACK_GEN_CIRCLE:
		return "circle";
	case HYB_KNAPSACK_GEN_SEED:
		return "seed003";
	case HYB_KNAPSACK_GEN_COUNT:
		break;
	}
	return "unknown";
}

hyb_status_t hyb_knapsack_generate( const hyb_knapsack_gen_t* g, int64_t* p, int64_t* w,
                                    int64_t* c )
{
	int64_t R = g->range ? g->range : 1000;
	int64_t h = g->h, H = g->H;
	if ( !h && !H )
	{
		h = 50;
		H = 100;
	}
	if ( g->cls == HYB_KNAPSACK_GEN_SEED )
	{
		R = 10000;
		h = 100;
		H = 1000;
	}
	/* R <= 2^40 keeps p and w below 2^41 and, with n < 2^20, every sum and
	   the capacity's h sum(w) product within int64. */
	if ( (int)g->cls < 0 || g->cls >= HYB_KNAPSACK_GEN_COUNT || g->n < 0 || g->n >= ( 1 << 20 ) ||
	     R < 10 || R > ( (int64_t)1 << 40 ) || h < 1 || H < h || H > ( 1 << 20 ) ||
	     ( g->n && ( !p || !w ) ) || !c )
		return HYB_E_INVALID;
	uint64_t s   = g->seed ^ ( (uint64_t)g->cls << 56 );
	int64_t  sum = 0;
	for ( int64_t j = 0; j < g->n; j++ )
	{
		int64_t wj = 0, pj = 0;
		switch ( g->cls )
		{
		case HYB_KNAPSACK_GEN_UNCORRELATED:
			wj = hyb_knapsack_uniform( &s, 1, R );
			pj = hyb_knapsack_uniform( &s, 1, R );
			break;
		case HYB_KNAPSACK_GEN_WEAKLY:
			wj = hyb_knapsack_uniform( &s, 1, R );
			pj = hyb_knapsack_uniform( &s, wj - R / 10 > 1 ? wj - R / 10 : 1, wj + R / 10 );
			break;
		case HYB_KNAPSACK_GEN_STRONGLY:
			wj = hyb_knapsack_uniform( &s, 1, R );
			pj = wj + R / 10;
			break;
		case HYB_KNAPSACK_GEN_INVERSE_STRONGLY:
			pj = hyb_knapsack_uniform( &s, 1, R );
			wj = pj + R / 10;
			break;
		case HYB_KNAPSACK_GEN_ALMOST_STRONGLY:
			wj = hyb_knapsack_uniform( &s, 1, R );
			pj = hyb_knapsack_uniform( &s, wj + R / 10 - R / 500, wj + R / 10 + R / 500 );
			break;
		case HYB_KNAPSACK_GEN_SUBSET_SUM:
			wj = hyb_knapsack_uniform( &s, 1, R );
			pj = wj;
			break;
		case HYB_KNAPSACK_GEN_SIMILAR_WEIGHTS:
			wj = hyb_knapsack_uniform( &s, 100000, 100100 );
			pj = hyb_knapsack_uniform( &s, 1, 1000 );
			break;
		case HYB_KNAPSACK_GEN_PROFIT_CEILING:
			wj = hyb_knapsack_uniform( &s, 1, R );
			pj = 3 * ( ( wj + 2 ) / 3 );
			break;
		case HYB_KNAPSACK_GEN_CIRCLE:
		{
			wj               = hyb_knapsack_uniform( &s, 1, R );
			const double dx  = (double)wj - 2.0 * (double)R;
			const double val = 4.0 * (double)R * (double)R - dx * dx;
			pj               = (int64_t)floor( 2.0 / 3.0 * sqrt( val > 0 ? val : 0 ) );
			break;
		}
		case HYB_KNAPSACK_GEN_SEED:
			wj = hyb_knapsack_uniform( &s, 1, 10000 );
			pj = wj + 1000 + hyb_knapsack_uniform( &s, -20, 20 );
			break;
		case HYB_KNAPSACK_GEN_COUNT:
			return HYB_E_INVALID;
		}
		w[j] = wj;
		p[j] = pj;
		sum += wj;
	}
	*c = (int64_t)( (unsigned __int128)sum * (unsigned __int128)h / (unsigned __int128)( H + 1 ) );
	return HYB_OK;
}

hyb_knapsack_gen_t hyb_knapsack_gen_seed_set( int64_t n, int instance )
{
	hyb_knapsack_gen_t g = { HYB_KNAPSACK_GEN_SEED, n, 0, 0, 0, 0 };
	g.seed               = 3000000u + (uint64_t)n * 100u + (uint64_t)instance;
	return g;
}

hyb_knapsack_gen_t hyb_knapsack_gen_large( int64_t n, uint64_t seed )
{
	hyb_knapsack_gen_t g = {
		HYB_KNAPSACK_GEN_UNCORRELATED, n, (int64_t)1000000000000, 50, 100, seed
	};
	return g;
}
