/* SPDX-License-Identifier: BSD-3-Clause */
/* A program linked to libhyblas alone that calls the exported knapsack
   API: every method on random instances against its own brute force, the
   caller's arrays untouched, bad input refused. Exit 0 on success. */
#include <stdio.h>
#include <string.h>

#include "hyblas_ext.h"

static unsigned long long app_state = 12345;

static long long app_rand( long long hi )
{
	app_state = app_state * 6364136223846793005ull + 1442695040888963407ull;
	return (long long)( ( app_state >> 33 ) % (unsigned long long)hi );
}

int main( void )
{
	int fails = 0;
	for ( int t = 0; t < 40; t++ )
	{
		int64_t n = 1 + app_rand( 18 ), p[18], w[18], pc[18], wc[18], sum = 0;
		for ( int64_t i = 0; i < n; i++ )
		{
			w[i] = 1 + app_rand( 50 );
			p[i] = app_rand( 60 );
			sum += w[i];
		}
		const int64_t c = app_rand( sum + 1 );
		int64_t       best = 0;
		for ( long long mask = 0; mask < ( 1ll << n ); mask++ )
		{
			int64_t ww = 0, pp = 0;
			for ( int64_t i = 0; i < n; i++ )
				if ( mask >> i & 1 )
				{
					ww += w[i];
					pp += p[i];
				}
			if ( ww <= c && pp > best ) best = pp;
		}
		memcpy( pc, p, sizeof p );
		memcpy( wc, w, sizeof w );
		for ( int m = HYBLAS_KNAPSACK_AUTO; m <= HYBLAS_KNAPSACK_GPU_DP; m++ )
		{
			hyblas_knapsack_options_t o;
			memset( &o, 0, sizeof o );
			o.struct_size         = sizeof o;
			o.method              = (hyblas_knapsack_method_t)m;
			o.host_buffer_bytes   = 1 << 16;
			o.device_buffer_bytes = 1 << 16;
			o.cpu_threshold       = 4;
			hyblas_knapsack_stats_t s;
			memset( &s, 0, sizeof s );
			s.struct_size = sizeof s;
			int64_t         z  = -1;
			uint8_t         x[18];
			hyblas_status_t rs = hyblas_knapsack_solve( n, p, w, c, &o, &z, x, &s );
			int64_t         xw = 0, xp = 0;
			for ( int64_t i = 0; i < n; i++ )
				if ( x[i] )
				{
					xw += w[i];
					xp += p[i];
				}
			if ( rs != HYBLAS_OK || z != best || xw > c || xp != best || memcmp( p, pc, sizeof p ) ||
			     memcmp( w, wc, sizeof w ) )
			{
				printf( "FAIL instance %d method %s: status %s, %lld (want %lld), selection %lld/%lld\n", t,
				        hyblas_knapsack_method_name( o.method ), hyblas_status_string( rs ), (long long)z,
				        (long long)best, (long long)xp, (long long)xw );
				fails++;
			}
		}
	}
	int64_t       z  = -5;
	const int64_t bw = -1, bp = 1;
	if ( hyblas_knapsack_solve( 1, &bp, &bw, 3, NULL, &z, NULL, NULL ) != HYBLAS_E_INVALID || z != -5 )
	{
		printf( "FAIL a negative weight was not refused\n" );
		fails++;
	}
	printf( "%s\n", fails ? "FAILED" : "PASSED" );
	return fails != 0;
}
