/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer harness: hyblas_knapsack_solve on instances made from the input bytes (up to
   14 items, small or extreme profits, weights and capacities, negative ones now and then,
   every method and option the CPU runs), checked against brute force. The contract
   checked: HYBLAS_OK gives the brute-force optimum and, when asked for, a selection within
   the capacity worth exactly that; HYBLAS_E_INVALID is returned exactly when an input is
   out of range (a negative value, sums beyond int64) and writes nothing;
   HYBLAS_E_CAPACITY (a node or memory limit) writes no selection. Any crash, sanitizer
   report or abort() is a finding. tools/fuzz/run.sh builds and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "hyblas_ext.h"

/* A value: mostly small, sometimes near the int64 limits or negative. */
static int64_t fz_value( fz_in_t* in )
{
	const unsigned k = fz_byte( in );
	const int64_t  b = (int64_t)fz_byte( in );
	if ( k < 200 ) return b;
	if ( k < 230 ) return b * 1000003 + (int64_t)fz_byte( in );
	if ( k < 250 ) return INT64_MAX / ( 1 + b % 16 ) - b;
	return -1 - b;
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	fz_in_t       in = { data, size, 0 };
	const int64_t n  = fz_byte( &in ) % 15;
	int64_t       p[14], w[14];
	for ( int64_t i = 0; i < n; i++ )
	{
		p[i] = fz_value( &in );
		w[i] = fz_value( &in );
	}
	const int64_t c = fz_value( &in );

	static const hyblas_knapsack_method_t methods[] = {
		HYBLAS_KNAPSACK_AUTO,    HYBLAS_KNAPSACK_CPU_BB,  HYBLAS_KNAPSACK_CPU_DP,
		HYBLAS_KNAPSACK_GPU_O3S, HYBLAS_KNAPSACK_GPU_BFS, HYBLAS_KNAPSACK_GPU_INCORE,
		HYBLAS_KNAPSACK_GPU_DP,
	};
	const unsigned            o = fz_byte( &in );
	hyblas_knapsack_options_t opt;
	memset( &opt, 0, sizeof opt );
	opt.struct_size  = sizeof opt;
	opt.method       = methods[o % 7];
	opt.prune_ties   = ( o >> 3 ) & 1;
	opt.bound_prefix = ( o >> 4 ) & 1;
	opt.node_limit   = ( o >> 5 ) & 1 ? 1 + fz_byte( &in ) : 0;
	/* The DP's rows and bits within 64 MiB (its default limit, 2 GiB, is a fuzzer's whole
	   memory): larger capacities go to the branch-and-bound, as they would past the limit. */
	opt.dp_memory_bytes = ( o >> 6 ) & 1 ? 1 + 64u * fz_byte( &in ) : (uint64_t)64 << 20;
	opt.cpu_threshold   = ( o >> 7 ) & 1 ? (int64_t)fz_byte( &in ) - 1 : 0;
	opt.threads         = 1;
	const int want_x    = fz_byte( &in ) & 1;

	/* What the call must say: invalid inputs, else the brute-force optimum. */
	int      invalid = c < 0;
	__int128 sp = 0, sw = 0;
	for ( int64_t i = 0; i < n; i++ )
	{
		invalid |= p[i] < 0 || w[i] < 0;
		sp += p[i];
		sw += w[i];
	}
	invalid |= sp > INT64_MAX || sw > INT64_MAX;
	__int128 best = 0;
	if ( !invalid )
		for ( uint32_t m = 0; m < ( 1u << n ); m++ )
		{
			__int128 pp = 0, ww = 0;
			for ( int64_t i = 0; i < n; i++ )
				if ( m >> i & 1u )
				{
					pp += p[i];
					ww += w[i];
				}
			if ( ww <= c && pp > best ) best = pp;
		}

	const int64_t           sentinel = -12345;
	int64_t                 optimum  = sentinel;
	uint8_t                 x[14];
	hyblas_knapsack_stats_t st;
	memset( x, 0xA5, sizeof x );
	memset( &st, 0, sizeof st );
	st.struct_size           = sizeof st;
	const hyblas_status_t rc = hyblas_knapsack_solve( n, n ? p : NULL, n ? w : NULL, c, &opt,
	                                                  &optimum, want_x ? x : NULL, &st );
	if ( invalid )
	{
		if ( rc != HYBLAS_E_INVALID || optimum != sentinel ) abort();
	}
	else if ( rc == HYBLAS_OK )
	{
		if ( optimum != (int64_t)best || st.optimum != optimum ) abort();
		if ( want_x )
		{
			__int128 pp = 0, ww = 0;
			for ( int64_t i = 0; i < n; i++ )
			{
				if ( x[i] > 1 ) abort();
				pp += x[i] ? p[i] : 0;
				ww += x[i] ? w[i] : 0;
			}
			if ( pp != best || ww > c ) abort();
		}
	}
	else if ( rc == HYBLAS_E_CAPACITY )
	{
		for ( int64_t i = 0; i < n; i++ )
			if ( want_x && x[i] != 0xA5 ) abort();
	}
	else
		abort();
	return 0;
}
