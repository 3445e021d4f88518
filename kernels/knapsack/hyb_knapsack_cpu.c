/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack's CPU kernels: dynamic programs, backtrack, the B&B node
   expansion and the depth-first recovery of an optimal selection. */
#include "kernels/knapsack/hyb_knapsack_cpu.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_types.h"
#include "kernels/knapsack/hyb_knapsack_kargs.h"

hyb_status_t hyb_knapsack_dp_serial( int64_t n, const int64_t* profits, const int64_t* weights,
                                     int64_t c, int64_t* value )
{
	int64_t* f = calloc( (size_t)c + 1, sizeof *f );
	if ( !f ) return HYB_E_NO_MEMORY;
	for ( int64_t i = 0; i < n; i++ )
		for ( int64_t j = c; j >= weights[i]; j-- )
			if ( f[j - weights[i]] + profits[i] > f[j] ) f[j] = f[j - weights[i]] + profits[i];
	*value = f[c];
	free( f );
	return HYB_OK;
}

/* Capacities j0 .. j1 - 1 of one row (j0 a multiple of 32, j1 one too or
   c + 1), written so the compiler vectorizes it: a copy below the item's
   weight, a max above; then the decision bits, "taken" being "the row
   grew" (next[j] > prev[j] iff taking the item is strictly better). The
   device's and the simulated device's rows compute the same cells one by
   one (hyb_knapsack_dp_cell). */
static void hyb_knapsack_dp_row_cpu( const int64_t* restrict prev, int64_t* restrict next,
                                     uint32_t* take, int64_t w, int64_t p, int64_t j0, int64_t j1 )
{
	const int64_t split = w < j0 ? j0 : w > j1 ? j1 : w;
	if ( prev )
	{
		memcpy( next + j0, prev + j0, (size_t)( split - j0 ) * sizeof *next );
#pragma omp simd
		for ( int64_t j = split; j < j1; j++ )
		{
			const int64_t a = prev[j], b = prev[j - w] + p;
			next[j] = a > b ? a : b;
		}
	}
	else
		for ( int64_t j = j0; j < j1; j++ ) next[j] = j >= split && p > 0 ? p : 0;
	if ( !take ) return;
	for ( int64_t q = j0 / 32; 32 * q < j1; q++ )
	{
		uint32_t      bits = 0;
		const int64_t e    = 32 * q + 32 < j1 ? 32 * q + 32 : j1;
		for ( int64_t j = 32 * q; j < e; j++ )
			bits |= (uint32_t)( next[j] > ( prev ? prev[j] : 0 ) ) << ( j - 32 * q );
		take[q] = bits;
	}
}

hyb_status_t hyb_knapsack_dp_cpu( const int64_t* w, const int64_t* p, int32_t n, int64_t c,
                                  int threads, int64_t* value, uint32_t* bits )
{
	const size_t row  = (size_t)c + 1;
	int64_t*     rows = malloc( 2 * row * sizeof *rows );
	if ( !rows ) return HYB_E_NO_MEMORY;
	const int64_t words = hyb_knapsack_dp_words( c );
	int           nt    = threads > 0 ? threads : omp_get_max_threads();
	if ( nt < 1 ) nt = 1;
#pragma omp parallel num_threads( nt ) if ( nt > 1 )
	{
		/* each thread owns whole words of capacities */
		const int     t = omp_get_thread_num(), tn = omp_get_num_threads();
		const int64_t q0 = words * t / tn, q1 = words * ( t + 1 ) / tn;
		const int64_t j0 = 32 * q0, j1 = 32 * q1 < c + 1 ? 32 * q1 : c + 1;
		for ( int32_t i = 0; i < n; i++ )
		{
			const int64_t* prev = i ? rows + (size_t)( ( i - 1 ) & 1 ) * row : NULL;
			int64_t*       next = rows + (size_t)( i & 1 ) * row;
			hyb_knapsack_dp_row_cpu( prev, next, bits ? bits + (size_t)i * (size_t)words : NULL,
			                         w[i], p[i], j0, j1 );
#pragma omp barrier
		}
	}
	*value = n ? rows[(size_t)( ( n - 1 ) & 1 ) * row + (size_t)c] : 0;
	free( rows );
	return HYB_OK;
}

void hyb_knapsack_dp_backtrack( const int64_t* w, int32_t n, int64_t c, const uint32_t* bits,
                                uint8_t* x )
{
	hyb_knapsack_dp_walk( w, n, c, hyb_knapsack_dp_words( c ), bits, x );
}

int hyb_knapsack_cpu_expand( const hyb_knapsack_items_t* it, const hyb_knapsack_node_t* parent,
                             int64_t* lstar, int ties, hyb_knapsack_node_t out[2] )
{
	hyb_knapsack_node_t child[2];
	int64_t             u[2], l[2];
	hyb_knapsack_branch( it, parent, &child[0], &child[1] );
	for ( int c = 0; c < 2; c++ )
	{
		hyb_knapsack_bound( it, &child[c], &u[c], &l[c] );
		if ( l[c] > *lstar ) *lstar = l[c];
	}
	int kept = 0;
	for ( int c = 0; c < 2; c++ )
		if ( hyb_knapsack_label( &child[c], u[c], *lstar, ties, it->n ) != HYB_KNAPSACK_DROP )
			out[kept++] = child[c];
	return kept;
}

/* The selection a node's lower bound stands for: items k..S-1 taken, S not,
   then every later item that still fits (eq. 2.5). */
static void hyb_knapsack_greedy_fill( const hyb_knapsack_items_t* it, const hyb_knapsack_node_t* v,
                                      uint8_t* x )
{
	int64_t room = it->c - v->w;
	int32_t i    = v->k;
	while ( i < it->n && it->w[i] <= room )
	{
		room -= it->w[i];
		x[i++] = 1;
	}
	if ( i < it->n ) x[i++] = 0;
	for ( ; i < it->n; i++ )
	{
		x[i] = it->w[i] <= room;
		if ( x[i] ) room -= it->w[i];
	}
}

hyb_status_t hyb_knapsack_recover( const hyb_knapsack_items_t* it, int64_t z, uint8_t* x,
                                   uint64_t* visited, double deadline )
{
	/* path[d]: the node at depth d; step[d]: 0 not bounded, 1 take next,
	   2 skip next, 3 done. The decision for item d is "take" iff the child
	   path[d + 1] was pushed from step 1. */
	const size_t         len  = (size_t)it->n + 1;
	hyb_knapsack_node_t* path = malloc( len * sizeof *path );
	uint8_t*             step = malloc( len );
	uint8_t*             took = malloc( len );
	if ( !path || !step || !took )
	{
		free( path );
		free( step );
		free( took );
		return HYB_E_NO_MEMORY;
	}
	uint64_t     count = 0;
	hyb_status_t st    = HYB_E_INVALID;
	int64_t      d     = 0;
	path[0]            = ( hyb_knapsack_node_t ){ 0, 0, 0, 0 };
	step[0]            = 0;
	while ( d >= 0 )
	{
		hyb_knapsack_node_t* v = &path[d];
		if ( step[d] == 0 )
		{
			int64_t u, l;
			if ( deadline > 0 && ( count & 4095 ) == 0 && hyb_now() > deadline )
			{
				st = HYB_E_TIMEOUT;
				break;
			}
			count++;
			hyb_knapsack_bound( it, v, &u, &l );
			if ( u < z )
			{
				d--;
				continue;
			}
			if ( l >= z )
			{
				for ( int64_t t = 0; t < d; t++ ) x[t] = took[t];
				hyb_knapsack_greedy_fill( it, v, x );
				st = HYB_OK;
				break;
			}
			step[d] = 1;
		}
		if ( step[d] == 3 )
		{
			d--;
			continue;
		}
		hyb_knapsack_node_t take, skip;
		hyb_knapsack_branch( it, v, &take, &skip );
		const int t = step[d] == 1;
		step[d]++;
		if ( t && take.k == HYB_KNAPSACK_DEAD ) continue;
		took[d]     = (uint8_t)t;
		path[d + 1] = t ? take : skip;
		step[d + 1] = 0;
		d++;
	}
	free( path );
	free( step );
	free( took );
	if ( visited ) *visited = count;
	return st;
}
