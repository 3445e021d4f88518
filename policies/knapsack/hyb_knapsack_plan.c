/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack planner: the DP's cost model and the choice of method. */
#include "policies/knapsack/hyb_knapsack_plan.h"

#include <stdio.h>
#include <string.h>

#include "policies/knapsack/hyb_knapsack_defaults.h"

const char* hyb_knapsack_method_str( hyblas_knapsack_method_t m )
{
	static const char* const names[] = {
		[HYBLAS_KNAPSACK_AUTO] = "auto",       [HYBLAS_KNAPSACK_GPU_O3S] = "gpu_o3s",
		[HYBLAS_KNAPSACK_GPU_BFS] = "gpu_bfs", [HYBLAS_KNAPSACK_GPU_INCORE] = "gpu_incore",
		[HYBLAS_KNAPSACK_CPU_BB] = "cpu_bb",   [HYBLAS_KNAPSACK_CPU_DP] = "cpu_dp",
		[HYBLAS_KNAPSACK_GPU_DP] = "gpu_dp",
	};
	return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "unknown";
}

int hyb_knapsack_dp_threads( int64_t c, int threads )
{
	return c + 1 >= HYB_KNAPSACK_DP_PARALLEL_CELLS && threads > 1 ? threads : 1;
}

hyb_knapsack_rates_t hyb_knapsack_default_rates( void )
{
	hyb_knapsack_rates_t r = {
		.cpu_dp_cells_per_s = HYB_KNAPSACK_CPU_DP_CELLS_PER_S,
		.cpu_dp_thread_gain = HYB_KNAPSACK_CPU_DP_THREAD_GAIN,
		.gpu_dp_cells_per_s = HYB_KNAPSACK_GPU_DP_CELLS_PER_S,
		.gpu_launch_s       = HYB_KNAPSACK_GPU_LAUNCH_S,
		.gpu_setup_s        = HYB_KNAPSACK_GPU_SETUP_S,
		.d2h_bytes_per_s    = HYB_KNAPSACK_D2H_BYTES_PER_S,
		.gpu_walk_item_s    = HYB_KNAPSACK_GPU_WALK_ITEM_S,
		.cpu_bb_node_s      = HYB_KNAPSACK_CPU_BB_NODE_S,
		.cpu_bb_item_s      = HYB_KNAPSACK_CPU_BB_ITEM_S,
	};
	return r;
}

static uint64_t hyb_knapsack_bits_bytes( int64_t n, int64_t c )
{
	return (uint64_t)n * (uint64_t)( ( c + 32 ) / 32 ) * 4u;
}

uint64_t hyb_knapsack_dp_cpu_bytes( int64_t n, int64_t c, int items )
{
	return 2 * ( (uint64_t)c + 1 ) * 8u + ( items ? hyb_knapsack_bits_bytes( n, c ) : 0 );
}

double hyb_knapsack_dp_cpu_seconds( const hyb_knapsack_rates_t* r, int64_t n, int64_t c,
                                    int threads )
{
	const double cells = (double)n * ( (double)c + 1.0 );
	const double t     = hyb_knapsack_dp_threads( c, threads );
	return cells / ( r->cpu_dp_cells_per_s * ( 1.0 + r->cpu_dp_thread_gain * ( t - 1.0 ) ) );
}

double hyb_knapsack_dp_gpu_seconds( const hyb_knapsack_rates_t* r, int64_t n, int64_t c, int items )
{
	const double cells = (double)n * ( (double)c + 1.0 );
	double       t = r->gpu_setup_s + (double)n * r->gpu_launch_s + cells / r->gpu_dp_cells_per_s;
	/* the selection is read back on the device, one dependent read an item */
	if ( items )
		t += r->gpu_launch_s + (double)n * r->gpu_walk_item_s + (double)n / r->d2h_bytes_per_s;
	return t;
}

double hyb_knapsack_bb_node_seconds( const hyb_knapsack_rates_t* r, int64_t n )
{
	return r->cpu_bb_node_s + r->cpu_bb_item_s * (double)n;
}

static int hyb_knapsack_is_gpu( hyblas_knapsack_method_t m )
{
	return m == HYBLAS_KNAPSACK_GPU_O3S || m == HYBLAS_KNAPSACK_GPU_BFS ||
	       m == HYBLAS_KNAPSACK_GPU_INCORE || m == HYBLAS_KNAPSACK_GPU_DP;
}

hyb_status_t hyb_knapsack_plan( const hyb_knapsack_plan_in_t* in, hyb_knapsack_plan_t* out )
{
	memset( out, 0, sizeof *out );
	if ( in->n < 0 || in->c < 0 || in->threads < 1 || (int)in->method < 0 ||
	     in->method > HYBLAS_KNAPSACK_GPU_DP || (int)in->path < 0 || in->path > HYBLAS_PATH_GPU ||
	     !( in->probe_fraction >= 0 && in->probe_fraction <= 1 ) )
		return HYB_E_INVALID;
	if ( in->method != HYBLAS_KNAPSACK_AUTO && in->path != HYBLAS_PATH_AUTO &&
	     hyb_knapsack_is_gpu( in->method ) != ( in->path == HYBLAS_PATH_GPU ) )
		return HYB_E_INVALID;

	const hyb_knapsack_rates_t* r = &in->rates;
	out->dp_cells                 = (uint64_t)in->n * ( (uint64_t)in->c + 1 );
	out->dp_bytes_cpu             = hyb_knapsack_dp_cpu_bytes( in->n, in->c, in->want_items );
	out->dp_bytes_gpu =
	    2 * ( (uint64_t)in->c + 1 ) * 8u +
	    ( in->want_items ? hyb_knapsack_bits_bytes( in->n, in->c ) + 9u * (uint64_t)in->n : 0 );
	/* A GPU method is a candidate with a device, or when the caller insists
	   on the GPU (it then runs its CPU counterpart, and says so). */
	const int gpu_able = in->gpu_ok || in->path == HYBLAS_PATH_GPU;
	const int cpu_fits = out->dp_bytes_cpu <= in->dp_host_bytes;
	/* the CPU DP it falls back to after a device failure needs the bits on the host */
	const int gpu_fits =
	    gpu_able && out->dp_bytes_gpu <= in->dp_device_bytes &&
	    ( !in->want_items || hyb_knapsack_bits_bytes( in->n, in->c ) <= in->dp_host_bytes );
	out->t_dp_cpu = cpu_fits ? hyb_knapsack_dp_cpu_seconds( r, in->n, in->c, in->threads ) : -1.0;
	out->t_dp_gpu =
	    gpu_fits ? hyb_knapsack_dp_gpu_seconds( r, in->n, in->c, in->want_items ) : -1.0;
	out->dp_threads = hyb_knapsack_dp_threads( in->c, in->threads );

	if ( in->method != HYBLAS_KNAPSACK_AUTO )
	{
		out->method = in->method;
		if ( in->method == HYBLAS_KNAPSACK_CPU_DP )
		{
			out->dp_too_big  = !cpu_fits;
			out->predicted_s = out->t_dp_cpu;
		}
		else if ( in->method == HYBLAS_KNAPSACK_GPU_DP )
		{
			/* its device table, and the CPU DP it falls back to, must fit */
			out->dp_too_big  = out->dp_bytes_gpu > in->dp_device_bytes || !cpu_fits;
			out->predicted_s = in->gpu_ok && !out->dp_too_big
			                       ? hyb_knapsack_dp_gpu_seconds( r, in->n, in->c, in->want_items )
			                       : out->t_dp_cpu;
		}
		snprintf( out->why, sizeof out->why, "%s requested%s",
		          hyb_knapsack_method_str( in->method ),
		          out->dp_too_big ? "; its DP table exceeds dp_memory_bytes" : "" );
		return HYB_OK;
	}

	const int allow_cpu = in->path != HYBLAS_PATH_GPU;
	const int allow_gpu = in->path != HYBLAS_PATH_CPU && gpu_able;
	const int use_cpu   = allow_cpu && cpu_fits;
	const int use_gpu   = allow_gpu && gpu_fits;
	if ( use_cpu || use_gpu )
	{
		const int gpu    = use_gpu && ( !use_cpu || out->t_dp_gpu < out->t_dp_cpu );
		out->method      = gpu ? HYBLAS_KNAPSACK_GPU_DP : HYBLAS_KNAPSACK_CPU_DP;
		out->predicted_s = gpu ? out->t_dp_gpu : out->t_dp_cpu;
		if ( allow_cpu && in->probe_fraction > 0 && in->core_items <= in->probe_core_max )
		{
			out->probe       = 1;
			out->probe_nodes = (uint64_t)HYB_KNAPSACK_PROBE_NODES_PER_CORE *
			                       (uint64_t)( in->core_items > 0 ? in->core_items : 0 ) +
			                   HYB_KNAPSACK_PROBE_NODES_MIN;
			out->probe_s = in->probe_fraction * out->predicted_s;
		}
		char probe[64];
		if ( out->probe )
			snprintf( probe, sizeof probe, "B&B probe of %llu nodes first (core %lld)",
			          (unsigned long long)out->probe_nodes, (long long)in->core_items );
		else
			snprintf( probe, sizeof probe, "no B&B probe (core %lld)", (long long)in->core_items );
		snprintf( out->why, sizeof out->why,
		          "DP fits (%.3g cells, %.3g MB): predicted CPU %.3g s, GPU %.3g s; %s",
		          (double)out->dp_cells,
		          (double)( gpu ? out->dp_bytes_gpu : out->dp_bytes_cpu ) / 1e6, out->t_dp_cpu,
		          out->t_dp_gpu, probe );
		return HYB_OK;
	}
	out->method = allow_gpu ? HYBLAS_KNAPSACK_GPU_O3S : HYBLAS_KNAPSACK_CPU_BB;
	snprintf( out->why, sizeof out->why,
	          "DP does not fit (%.3g cells, %.3g MB > limit): branch-and-bound",
	          (double)out->dp_cells, (double)out->dp_bytes_cpu / 1e6 );
	return HYB_OK;
}
