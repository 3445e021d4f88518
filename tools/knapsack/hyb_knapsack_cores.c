/* SPDX-License-Identifier: BSD-3-Clause */
/* The table behind AUTO's probe rule (policies/knapsack/hyb_knapsack_defaults.h): for the
   seed's instances, each one's core (kernels/knapsack/hyb_knapsack_core.h) beside the
   nodes and seconds of a CPU B&B through the public API under a time limit; then the
   instances grouped by core size. CPU only.
   Usage: hyb_knapsack_cores [PER_SIZE [LIMIT_S]]   (default 10 instances a size, 0.3 s) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyblas_ext.h"
#include "kernels/knapsack/hyb_knapsack_core.h"
#include "kernels/knapsack/hyb_knapsack_items.h"
#include "tools/knapsack/hyb_knapsack_gen.h"

#define HKC_MAX_N 1000

int main( int argc, char** argv )
{
	const int    per   = argc > 1 ? atoi( argv[1] ) : 10;
	const double limit = argc > 2 ? atof( argv[2] ) : 0.3;
	if ( per < 1 || per > HYB_KNAPSACK_SEED_SET_PER_SIZE || !( limit > 0 ) )
	{
		fprintf( stderr, "usage: %s [PER_SIZE 1..%d [LIMIT_S > 0]]\n", argv[0],
		         HYB_KNAPSACK_SEED_SET_PER_SIZE );
		return 2;
	}
	static int64_t p[HKC_MAX_N], w[HKC_MAX_N];
	/* bands of core size: instances, proved, largest nodes per core item */
	static const int64_t top[3] = { 80, 100, HKC_MAX_N };
	int                  cnt[3] = { 0 }, proved[3] = { 0 };
	double               worst[3] = { 0 };
	printf( "instance,n,core,nodes,seconds,proved\n" );
	for ( int64_t n = 100; n <= HKC_MAX_N; n += 100 )
		for ( int k = 0; k < per; k++ )
		{
			const hyb_knapsack_gen_t g = hyb_knapsack_gen_seed_set( n, k );
			int64_t                  c = 0;
			hyb_knapsack_prep_t      pr;
			if ( hyb_knapsack_generate( &g, p, w, &c ) != HYB_OK ||
			     hyb_knapsack_prepare( n, p, w, c, &pr ) != HYB_OK )
				return 1;
			const int64_t core = hyb_knapsack_core_items( &pr );
			hyb_knapsack_prep_free( &pr );
			hyblas_knapsack_options_t o;
			memset( &o, 0, sizeof o );
			o.struct_size  = sizeof o;
			o.path         = HYBLAS_PATH_CPU;
			o.method       = HYBLAS_KNAPSACK_CPU_BB;
			o.time_limit_s = limit;
			hyblas_knapsack_stats_t st;
			memset( &st, 0, sizeof st );
			st.struct_size           = sizeof st;
			int64_t               z  = 0;
			const hyblas_status_t rs = hyblas_knapsack_solve( n, p, w, c, &o, &z, NULL, &st );
			const int             ok = rs == HYBLAS_OK;
			printf( "s%lld_%d,%lld,%lld,%llu,%.6f,%d\n", (long long)n, k, (long long)n,
			        (long long)core, (unsigned long long)st.nodes_branched, st.t_total, ok );
			int b = 0;
			while ( core > top[b] ) b++;
			cnt[b]++;
			proved[b] += ok;
			const double per_item = (double)st.nodes_branched / (double)( core > 0 ? core : 1 );
			if ( per_item > worst[b] ) worst[b] = per_item;
		}
	printf( "\ncore,instances,proved,most_nodes_per_core_item\n" );
	for ( int b = 0; b < 3; b++ )
		printf( "%lld-%lld,%d,%d,%.0f\n", (long long)( b ? top[b - 1] + 1 : 0 ), (long long)top[b],
		        cnt[b], proved[b], worst[b] );
	return 0;
}
