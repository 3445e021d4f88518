/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared helpers of the knapsack suites. */
#include "test_knapsack_util.h"

#include <CUnit/CUnit.h>
#include <string.h>

#include "kernels/knapsack/hyb_knapsack_cpu.h"

int64_t kt_brute( const kt_inst_t* in )
{
	/* every selection once, in Gray-code order: one item flips per step */
	int64_t best = 0, w = 0, p = 0;
	uint8_t in_set[64] = { 0 };
	for ( uint64_t g = 1; g < ( (uint64_t)1 << in->n ); g++ )
	{
		const int i = __builtin_ctzll( g );
		in_set[i] ^= 1;
		w += in_set[i] ? in->w[i] : -in->w[i];
		p += in_set[i] ? in->p[i] : -in->p[i];
		if ( w <= in->c && p > best ) best = p;
	}
	return best;
}

int64_t kt_dp( const kt_inst_t* in )
{
	int64_t z = -1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_dp_serial( in->n, in->p, in->w, in->c, &z ), HYB_OK );
	return z;
}

void kt_gen( kt_inst_t* in, hyb_knapsack_gen_class_t cls, int64_t n, int64_t range, uint64_t seed )
{
	hyb_knapsack_gen_t g = { cls, n, range, 0, 0, seed };
	in->n                = n;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_generate( &g, in->p, in->w, &in->c ), HYB_OK );
}

static uint64_t kt_next( uint64_t* s )
{
	uint64_t z = ( *s += 0x9e3779b97f4a7c15ull );
	z          = ( z ^ ( z >> 30 ) ) * 0xbf58476d1ce4e5b9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94d049bb133111ebull;
	return z ^ ( z >> 31 );
}

void kt_random( kt_inst_t* in, int64_t n, int64_t maxv, uint64_t seed )
{
	uint64_t s   = seed * 7919u + 17u;
	int64_t  sum = 0;
	in->n        = n;
	for ( int64_t i = 0; i < n; i++ )
	{
		const uint64_t kind = kt_next( &s ) % 10;
		in->w[i]            = kind == 0 ? 0 : 1 + (int64_t)( kt_next( &s ) % (uint64_t)maxv );
		in->p[i]            = kind == 1 ? 0 : 1 + (int64_t)( kt_next( &s ) % (uint64_t)maxv );
		sum += in->w[i];
	}
	/* between a tenth and nine tenths of the weights */
	in->c = sum ? (int64_t)( kt_next( &s ) % (uint64_t)( 8 * sum / 10 + 1 ) ) + sum / 10 : 0;
	if ( n > 0 && kt_next( &s ) % 4 == 0 ) in->w[0] = in->c + 1 + (int64_t)( kt_next( &s ) % 5 );
}

int kt_selection_ok( const kt_inst_t* in, const uint8_t* x, int64_t z )
{
	int64_t w = 0, p = 0;
	for ( int64_t i = 0; i < in->n; i++ )
	{
		if ( x[i] > 1 ) return 0;
		if ( x[i] )
		{
			w += in->w[i];
			p += in->p[i];
		}
	}
	return w <= in->c && p == z;
}

hyb_status_t kt_search( const kt_inst_t* in, hyb_knapsack_search_plan_t* plan,
                        hyb_knapsack_hostdev_t* hd, int prefix, hyb_knapsack_search_stats_t* st )
{
	hyb_knapsack_prep_t prep;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( in->n, in->p, in->w, in->c, &prep ), HYB_OK );
	const hyb_knapsack_items_t it  = hyb_knapsack_prep_items( &prep, prefix );
	hyb_knapsack_dev_t         dev = hyb_knapsack_hostdev( hd );
	hyb_status_t               rs  = hyb_knapsack_search( &dev, &it, plan, st );
	hyb_knapsack_prep_free( &prep );
	return rs;
}

hyb_knapsack_search_plan_t kt_plan( hyb_knapsack_search_t search, int64_t threshold,
                                    int64_t host_nodes, int64_t pool_nodes )
{
	hyb_knapsack_search_plan_t p;
	memset( &p, 0, sizeof p );
	p.search     = search;
	p.threshold  = threshold;
	p.host_nodes = host_nodes;
	p.pool_nodes = pool_nodes;
	return p;
}

hyblas_knapsack_options_t kt_small_opts( hyblas_knapsack_method_t m, uint64_t device_bytes )
{
	hyblas_knapsack_options_t o;
	memset( &o, 0, sizeof o );
	o.struct_size         = sizeof o;
	o.method              = m;
	o.host_buffer_bytes   = 1 << 20;
	o.device_buffer_bytes = device_bytes;
	o.cpu_threshold       = 16;
	return o;
}
