/* SPDX-License-Identifier: BSD-3-Clause */
/* hyblas_knapsack_solve: validate -> prepare (sort) -> trivial cases ->
   plan -> probe -> run the method -> fall back to the CPU on a device
   failure -> recover the items -> write the outputs and statistics. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_ext_status.h"
#include "hyblas_ext.h"
#include "hyb_log.h"
#include "hyb_op.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "hyb_types.h"
#include "dispatch/knapsack/hyb_knapsack_solve.h"
#include "kernels/knapsack/hyb_knapsack_core.h"
#include "kernels/knapsack/hyb_knapsack_cpu.h"
#include "kernels/knapsack/hyb_knapsack_devrt.h"
#include "kernels/knapsack/hyb_knapsack_dpdev.h"
#include "kernels/knapsack/hyb_knapsack_items.h"
#include "kernels/knapsack/hyb_knapsack_search.h"
#include "core/config/hyb_config.h"
#include "policies/knapsack/hyb_knapsack_defaults.h"
#include "policies/knapsack/hyb_knapsack_plan.h"

#define HYB_KNAPSACK_EXPORT __attribute__( ( visibility( "default" ) ) )

/* Everything one call owns. */
typedef struct
{
	hyblas_knapsack_options_t o;
	hyblas_knapsack_stats_t   s;
	hyb_knapsack_prep_t       prep;
	int                       want_items;
	uint8_t*                  xs;      /* the selection in sorted order */
	int64_t                   z;       /* the optimum found */
	int                       have_z;  /* z proved */
	int                       z_is_dp; /* xs already filled by a DP backtrack */
	hyb_knapsack_dev_t        dev;
	int                       have_dev;
	int64_t                   host_nodes;
	int64_t                   threshold;
} hyb_knapsack_call_t;

const char* hyblas_knapsack_method_name( hyblas_knapsack_method_t m ) HYB_KNAPSACK_EXPORT;
const char* hyblas_knapsack_method_name( hyblas_knapsack_method_t m )
{
	return hyb_knapsack_method_str( m );
}

static int hyb_knapsack_is_gpu_method( hyblas_knapsack_method_t m )
{
	return m == HYBLAS_KNAPSACK_GPU_O3S || m == HYBLAS_KNAPSACK_GPU_BFS ||
	       m == HYBLAS_KNAPSACK_GPU_INCORE || m == HYBLAS_KNAPSACK_GPU_DP;
}

/* The caller's options with defaults for what is zero or missing; checks
   every field. */
static hyblas_status_t hyb_knapsack_read_options( const hyblas_knapsack_options_t* in,
                                                  hyblas_knapsack_options_t*       o )
{
	memset( o, 0, sizeof *o );
	if ( in )
	{
		if ( in->struct_size < sizeof *o ) return HYBLAS_E_STRUCT_SIZE;
		memcpy( o, in, sizeof *o );
	}
	o->struct_size = sizeof *o;
	if ( (int)o->path < 0 || o->path > HYBLAS_PATH_GPU || (int)o->method < 0 ||
	     o->method > HYBLAS_KNAPSACK_GPU_DP || ( o->prune_ties != 0 && o->prune_ties != 1 ) ||
	     ( o->bound_prefix != 0 && o->bound_prefix != 1 ) || !( o->time_limit_s >= 0 ) ||
	     o->time_limit_s > 1e12 || o->threads < 0 )
		return HYBLAS_E_INVALID;
	if ( o->method != HYBLAS_KNAPSACK_AUTO && o->path != HYBLAS_PATH_AUTO &&
	     hyb_knapsack_is_gpu_method( o->method ) != ( o->path == HYBLAS_PATH_GPU ) )
		return HYBLAS_E_INVALID;
	if ( !o->host_buffer_bytes ) o->host_buffer_bytes = HYB_KNAPSACK_HOST_BUFFER_BYTES;
	if ( !o->device_buffer_bytes ) o->device_buffer_bytes = HYB_KNAPSACK_DEVICE_BUFFER_BYTES;
	if ( !o->cpu_threshold ) o->cpu_threshold = HYB_KNAPSACK_CPU_THRESHOLD;
	if ( !o->dp_memory_bytes ) o->dp_memory_bytes = HYB_KNAPSACK_DP_MEMORY_BYTES;
	if ( o->host_buffer_bytes < sizeof( hyb_knapsack_node_t ) ) return HYBLAS_E_INVALID;
	/* a GPU buffer must hold a parent and its two children's arrays */
	const uint64_t least = 4 * (uint64_t)hyb_knapsack_search_slot_bytes( HYB_KNAPSACK_SEARCH_O3S );
	if ( o->device_buffer_bytes < least ) return HYBLAS_E_INVALID;
	return HYBLAS_OK;
}

static void hyb_knapsack_why( hyb_knapsack_call_t* c, const char* add )
{
	const size_t len = strlen( c->s.why );
	if ( len + 3 < sizeof c->s.why )
		snprintf( c->s.why + len, sizeof c->s.why - len, "%s%s", len ? "; " : "", add );
}

/* The device GPU methods use when the caller names none: the device
   runtime's first device (simulated or CUDA) unless the configuration
   keeps everything on the CPU or no device is usable. */
static int hyb_knapsack_pick_device( hyb_knapsack_devrt_t* rt, hyb_knapsack_dev_t* dev )
{
	memset( rt, 0, sizeof *rt );
	if ( hyb_config()->mode == HYB_MODE_CPU ) return 0;
	return hyb_knapsack_devrt_open( rt, dev ) == HYB_OK;
}

/* ------------------------------------------------------------------ methods */

static hyb_status_t hyb_knapsack_run_dp_cpu( hyb_knapsack_call_t* c, int threads )
{
	const hyb_knapsack_prep_t* pr    = &c->prep;
	uint32_t*                  bits  = NULL;
	const int64_t              words = hyb_knapsack_dp_words( pr->c );
	if ( c->want_items )
	{
		bits = malloc( (size_t)pr->n * (size_t)words * sizeof *bits + 1 );
		if ( !bits ) return HYB_E_NO_MEMORY;
	}
	const double t  = hyb_now();
	hyb_status_t st = hyb_knapsack_dp_cpu( pr->w, pr->p, pr->n, pr->c, threads, &c->z, bits );
	c->s.t_dp += hyb_now() - t;
	if ( st == HYB_OK && bits )
	{
		const double tb = hyb_now();
		hyb_knapsack_dp_backtrack( pr->w, pr->n, pr->c, bits, c->xs );
		c->s.t_items += hyb_now() - tb;
		c->z_is_dp = 1;
	}
	free( bits );
	c->s.method   = HYBLAS_KNAPSACK_CPU_DP;
	c->s.dp_cells = (uint64_t)pr->n * ( (uint64_t)pr->c + 1 );
	c->s.dp_bytes = hyb_knapsack_dp_cpu_bytes( pr->n, pr->c, c->want_items );
	c->have_z     = st == HYB_OK;
	return st;
}

static hyb_status_t hyb_knapsack_run_dp_gpu( hyb_knapsack_call_t* c, int threads )
{
	const hyb_knapsack_prep_t* pr = &c->prep;
	if ( !c->have_dev )
	{
		c->s.fallback = 1;
		hyb_knapsack_why( c, "no usable device: the CPU DP ran" );
		return hyb_knapsack_run_dp_cpu( c, threads );
	}
	/* With the items asked for, the device reads the selection back itself (into the
	   call's own array: a failure leaves nothing of it, the CPU DP then writes it all). */
	hyb_knapsack_dpdev_stats_t ds;
	hyb_status_t st = hyb_knapsack_dp_device( &c->dev, pr->w, pr->p, pr->n, pr->c, &c->z,
	                                          c->want_items ? c->xs : NULL, &ds );
	c->s.t_dp += ds.t_dp;
	c->s.h2d_bytes += ds.h2d_bytes;
	c->s.h2d_calls += ds.h2d_calls;
	c->s.d2h_bytes += ds.d2h_bytes;
	c->s.d2h_calls += ds.d2h_calls;
	if ( st == HYB_OK )
	{
		c->z_is_dp    = c->want_items;
		c->s.method   = HYBLAS_KNAPSACK_GPU_DP;
		c->s.dp_cells = (uint64_t)pr->n * ( (uint64_t)pr->c + 1 );
		c->s.dp_bytes = ds.dev_bytes;
		c->have_z     = 1;
	}
	if ( st == HYB_OK ) return st;
	hyb_log_once( hyb_hash_str( "knapsack_dp", (uint64_t)st ), HYB_LOG_WARN,
	              "knapsack: GPU DP failed (%s); finishing on the CPU", hyb_status_string( st ) );
	c->s.fallback = 1;
	hyb_knapsack_why( c, "device failed: the CPU DP ran" );
	return hyb_knapsack_run_dp_cpu( c, threads );
}

/* The counts and times of a search that add up over the probe and the
   method, named alike in the search's statistics and the call's. */
#define HYB_KNAPSACK_SEARCH_SUMS( X )                                                              \
	X( nodes_branched )                                                                            \
	X( iterations )                                                                                \
	X( gpu_iterations )                                                                            \
	X( cpu_iterations )                                                                            \
	X( h2d_bytes )                                                                                 \
	X( d2h_bytes )                                                                                 \
	X( h2d_calls )                                                                                 \
	X( d2h_calls )                                                                                 \
	X( h2d_nodes )                                                                                 \
	X( d2h_nodes )                                                                                 \
	X( t_cpu_mode )                                                                                \
	X( t_branch )                                                                                  \
	X( t_bound )                                                                                   \
	X( t_reduce )                                                                                  \
	X( t_label )                                                                                   \
	X( t_compact )                                                                                 \
	X( t_transfer )

/* Copy a search's statistics into the call's (adding up over the probe and
   the method). */
static void hyb_knapsack_take_search_stats( hyb_knapsack_call_t*               c,
                                            const hyb_knapsack_search_stats_t* ss )
{
	hyblas_knapsack_stats_t* s = &c->s;
	s->stop                    = ss->stop;
#define HYB_KNAPSACK_ADD( field ) s->field += ss->field;
	HYB_KNAPSACK_SEARCH_SUMS( HYB_KNAPSACK_ADD )
#undef HYB_KNAPSACK_ADD
	if ( ss->peak_host > s->peak_nodes_host ) s->peak_nodes_host = ss->peak_host;
	if ( ss->peak_dev > s->peak_nodes_device ) s->peak_nodes_device = ss->peak_dev;
	if ( ss->peak_total > s->peak_nodes_total ) s->peak_nodes_total = ss->peak_total;
}

static hyb_knapsack_search_plan_t hyb_knapsack_search_plan( const hyb_knapsack_call_t* c,
                                                            hyb_knapsack_search_t      search )
{
	hyb_knapsack_search_plan_t p;
	memset( &p, 0, sizeof p );
	p.search       = search;
	p.threshold    = c->threshold;
	p.host_nodes   = c->host_nodes;
	p.ties         = c->o.prune_ties;
	p.prefix       = c->o.bound_prefix;
	p.node_limit   = c->o.node_limit;
	p.time_limit_s = c->o.time_limit_s;
	return p;
}

static hyb_status_t hyb_knapsack_run_search( hyb_knapsack_call_t* c, hyb_knapsack_search_plan_t* p,
                                             hyblas_knapsack_method_t method )
{
	const hyb_knapsack_items_t  it = hyb_knapsack_prep_items( &c->prep, c->o.bound_prefix );
	hyb_knapsack_search_stats_t ss;
	hyb_status_t                st =
	    hyb_knapsack_search( p->search == HYB_KNAPSACK_SEARCH_CPU ? NULL : &c->dev, &it, p, &ss );
	hyb_knapsack_take_search_stats( c, &ss );
	if ( st == HYB_OK )
	{
		c->s.method = method;
		c->have_z   = ss.stop == HYBLAS_KNAPSACK_STOP_NONE;
		c->z        = ss.lstar;
	}
	return st;
}

static hyb_status_t hyb_knapsack_run_bb( hyb_knapsack_call_t* c, hyblas_knapsack_method_t m )
{
	hyb_knapsack_search_t      search = m == HYBLAS_KNAPSACK_GPU_O3S      ? HYB_KNAPSACK_SEARCH_O3S
	                                    : m == HYBLAS_KNAPSACK_GPU_BFS    ? HYB_KNAPSACK_SEARCH_BFS
	                                    : m == HYBLAS_KNAPSACK_GPU_INCORE ? HYB_KNAPSACK_SEARCH_INCORE
	                                                                      : HYB_KNAPSACK_SEARCH_CPU;
	hyb_knapsack_search_plan_t p      = hyb_knapsack_search_plan( c, search );
	if ( search != HYB_KNAPSACK_SEARCH_CPU && c->have_dev )
	{
		const uint64_t bytes = search == HYB_KNAPSACK_SEARCH_INCORE ? 2 * c->o.device_buffer_bytes
		                                                            : c->o.device_buffer_bytes;
		hyb_status_t   st = hyb_knapsack_search_pool_nodes( &c->dev, search, bytes, &p.pool_nodes );
		if ( st == HYB_OK )
		{
			c->s.device_buffer_nodes = (uint64_t)p.pool_nodes;
			st                       = hyb_knapsack_run_search( c, &p, m );
		}
		/* Device memory beyond the budget is a device failure like any
		   other: the CPU finishes (host memory that runs out runs out
		   there too and is reported). */
		if ( st == HYB_OK || st == HYB_E_INVALID ) return st;
		hyb_log_once( hyb_hash_str( "knapsack_bb", (uint64_t)st ), HYB_LOG_WARN,
		              "knapsack: GPU branch-and-bound failed (%s); finishing on the CPU",
		              hyb_status_string( st ) );
		hyb_knapsack_why( c, "device failed: the CPU B&B ran" );
		c->s.fallback = 1;
	}
	else if ( search != HYB_KNAPSACK_SEARCH_CPU )
	{
		hyb_knapsack_why( c, "no usable device: the CPU B&B ran" );
		c->s.fallback = 1;
	}
	p = hyb_knapsack_search_plan( c, HYB_KNAPSACK_SEARCH_CPU );
	return hyb_knapsack_run_search( c, &p, HYBLAS_KNAPSACK_CPU_BB );
}

/* AUTO's probe: the CPU B&B under the planner's node and time budgets. */
static hyb_status_t hyb_knapsack_probe( hyb_knapsack_call_t* c, uint64_t nodes, double seconds )
{
	const double               t = hyb_now();
	hyb_knapsack_search_plan_t p = hyb_knapsack_search_plan( c, HYB_KNAPSACK_SEARCH_CPU );
	if ( !p.node_limit || p.node_limit > nodes ) p.node_limit = nodes;
	if ( !( p.time_limit_s > 0 ) || p.time_limit_s > seconds ) p.time_limit_s = seconds;
	hyb_status_t st   = hyb_knapsack_run_search( c, &p, HYBLAS_KNAPSACK_CPU_BB );
	c->s.probed       = 1;
	c->s.probe_solved = c->have_z;
	c->s.t_probe      = hyb_now() - t;
	if ( !c->have_z )
		c->s.stop = HYBLAS_KNAPSACK_STOP_NONE; /* the probe's limit is not the call's */
	return st;
}

/* ------------------------------------------------------------------ entry */

static hyblas_status_t hyb_knapsack_run( hyb_knapsack_call_t* c )
{
	const hyb_knapsack_prep_t* pr = &c->prep;
	/* Trivial: nothing to choose, or everything fits. */
	if ( pr->n == 0 || pr->sum_w <= pr->c )
	{
		c->s.trivial = 1;
		c->z         = pr->sum_p;
		c->have_z    = 1;
		c->z_is_dp   = 1;
		memset( c->xs, 1, (size_t)pr->n );
		snprintf( c->s.why, sizeof c->s.why, "trivial: %s",
		          pr->n ? "every item fits" : "no items" );
		return HYBLAS_OK;
	}

	hyb_knapsack_plan_in_t in;
	memset( &in, 0, sizeof in );
	in.n               = pr->n;
	in.c               = pr->c;
	in.want_items      = c->want_items;
	in.path            = c->o.path;
	in.method          = c->o.method;
	in.gpu_ok          = c->have_dev && c->dev.auto_ok;
	in.threads         = c->o.threads > 0 ? c->o.threads : omp_get_max_threads();
	in.dp_host_bytes   = c->o.dp_memory_bytes;
	in.dp_device_bytes = c->o.dp_memory_bytes;
	in.probe_fraction  = HYB_KNAPSACK_PROBE_FRACTION;
	in.core_items      = hyb_knapsack_core_items( pr );
	in.probe_core_max  = HYB_KNAPSACK_PROBE_CORE_MAX;
	in.rates           = hyb_knapsack_default_rates();
	/* An explicit GPU request on the simulated device runs the GPU methods
	   there (the tests' way to drive them through the API). */
	if ( c->have_dev &&
	     ( c->o.path == HYBLAS_PATH_GPU || hyb_knapsack_is_gpu_method( c->o.method ) ) )
		in.gpu_ok = 1;
	hyb_knapsack_plan_t plan;
	hyb_status_t        st = hyb_knapsack_plan( &in, &plan );
	if ( st != HYB_OK ) return HYBLAS_E_INVALID;
	c->s.planned     = plan.method;
	c->s.method      = plan.method;
	c->s.predicted_s = plan.predicted_s > 0 ? plan.predicted_s : 0;
	snprintf( c->s.why, sizeof c->s.why, "%s", plan.why );
	if ( plan.dp_too_big )
	{
		c->s.stop     = HYBLAS_KNAPSACK_STOP_DP_MEMORY;
		c->s.dp_cells = plan.dp_cells;
		c->s.dp_bytes =
		    plan.method == HYBLAS_KNAPSACK_GPU_DP ? plan.dp_bytes_gpu : plan.dp_bytes_cpu;
		return HYBLAS_E_CAPACITY;
	}

	if ( plan.probe )
	{
		st = hyb_knapsack_probe( c, plan.probe_nodes, plan.probe_s );
		if ( st != HYB_OK ) return hyb_ext_status( st );
		if ( c->have_z ) return HYBLAS_OK;
	}
	switch ( plan.method )
	{
	case HYBLAS_KNAPSACK_CPU_DP:
		st = hyb_knapsack_run_dp_cpu( c, plan.dp_threads );
		break;
	case HYBLAS_KNAPSACK_GPU_DP:
		st = hyb_knapsack_run_dp_gpu( c, plan.dp_threads );
		break;
	default:
		st = hyb_knapsack_run_bb( c, plan.method );
		break;
	}
	if ( st != HYB_OK ) return hyb_ext_status( st );
	return c->have_z ? HYBLAS_OK : HYBLAS_E_CAPACITY;
}

hyblas_status_t hyb_knapsack_solve_on( const hyb_knapsack_dev_t* dev, int64_t n,
                                       const int64_t* profits, const int64_t* weights,
                                       int64_t capacity, const hyblas_knapsack_options_t* options,
                                       int64_t* optimum, uint8_t* x,
                                       hyblas_knapsack_stats_t* stats )
{
	const double        t0 = hyb_now();
	hyb_knapsack_call_t c;
	memset( &c, 0, sizeof c );
	if ( !optimum ) return HYBLAS_E_INVALID;
	if ( stats && stats->struct_size < sizeof *stats ) return HYBLAS_E_STRUCT_SIZE;
	hyblas_status_t rs = hyb_knapsack_read_options( options, &c.o );
	if ( rs != HYBLAS_OK ) return rs;
	if ( hyb_knapsack_check( n, profits, weights, capacity, NULL, NULL ) != HYB_OK )
		return HYBLAS_E_INVALID;

	hyb_status_t st = hyb_knapsack_prepare( n, profits, weights, capacity, &c.prep );
	if ( st != HYB_OK ) return hyb_ext_status( st );
	c.xs = calloc( (size_t)n + 1, 1 );
	if ( !c.xs )
	{
		hyb_knapsack_prep_free( &c.prep );
		return HYBLAS_E_NO_MEMORY;
	}
	c.want_items          = x != NULL;
	c.host_nodes          = (int64_t)( c.o.host_buffer_bytes / sizeof( hyb_knapsack_node_t ) );
	c.threshold           = c.o.cpu_threshold < 0 ? 0 : c.o.cpu_threshold;
	c.s.struct_size       = sizeof c.s;
	c.s.host_buffer_nodes = (uint64_t)c.host_nodes;
	c.s.t_prepare         = hyb_now() - t0;
	c.have_dev            = dev != NULL;
	if ( dev ) c.dev = *dev;

	rs = hyb_knapsack_run( &c );
	if ( rs == HYBLAS_OK && c.want_items && !c.z_is_dp )
	{
		const hyb_knapsack_items_t it = hyb_knapsack_prep_items( &c.prep, 0 );
		const double               t  = hyb_now();
		uint64_t                   visited;
		/* The items' pass can be as long as the search: the call's time limit covers it. */
		const double deadline = c.o.time_limit_s > 0 ? t0 + c.o.time_limit_s : 0.0;
		st                    = hyb_knapsack_recover( &it, c.z, c.xs, &visited, deadline );
		c.s.t_items += hyb_now() - t;
		if ( st == HYB_E_TIMEOUT )
		{
			rs       = HYBLAS_E_CAPACITY;
			c.s.stop = HYBLAS_KNAPSACK_STOP_TIME_LIMIT;
			hyb_knapsack_why( &c, "the optimum was proved; the time limit passed while finding "
			                      "its items" );
		}
		else if ( st != HYB_OK )
			rs = st == HYB_E_NO_MEMORY ? HYBLAS_E_NO_MEMORY : HYBLAS_E_INTERNAL;
	}
	c.s.optimum = c.z;
	c.s.t_total = hyb_now() - t0;
	HYB_LOG( HYB_LOG_TRACE, "knapsack: n %lld c %lld -> %s (%s), status %d", (long long)n,
	         (long long)capacity, hyb_knapsack_method_str( c.s.method ), c.s.why, (int)rs );
	if ( rs == HYBLAS_OK )
	{
		*optimum = c.z;
		if ( x )
		{
			memset( x, 0, (size_t)n );
			for ( int64_t i = 0; i < n; i++ ) x[c.prep.perm[i]] = c.xs[i];
		}
	}
	if ( stats && ( rs == HYBLAS_OK || rs == HYBLAS_E_CAPACITY ) )
		memcpy( stats, &c.s, sizeof c.s );
	free( c.xs );
	hyb_knapsack_prep_free( &c.prep );
	return rs;
}

/* The path the statistics count a finished call under. */
static hyb_path_t hyb_knapsack_path( const hyblas_knapsack_stats_t* s )
{
	if ( s->fallback ) return HYB_PATH_FALLBACK;
	return hyb_knapsack_is_gpu_method( s->method ) ? HYB_PATH_GPU : HYB_PATH_CPU;
}

/* One HYBLAS_TRACE line for a finished call. */
static void hyb_knapsack_trace( hyb_op_id_t op, int64_t n, int64_t capacity, hyblas_status_t rs,
                                const hyblas_knapsack_stats_t* s )
{
	char shape[64], extra[400];
	snprintf( shape, sizeof shape, "n=%lld c=%lld", (long long)n, (long long)capacity );
	snprintf(
	    extra, sizeof extra,
	    " status=%d method=%s planned=%s stop=%d nodes=%llu iterations=%llu gpu_iterations=%llu "
	    "h2d=%llu d2h=%llu dp_cells=%llu optimum=%lld",
	    (int)rs, hyb_knapsack_method_str( s->method ), hyb_knapsack_method_str( s->planned ),
	    (int)s->stop, (unsigned long long)s->nodes_branched, (unsigned long long)s->iterations,
	    (unsigned long long)s->gpu_iterations, (unsigned long long)s->h2d_bytes,
	    (unsigned long long)s->d2h_bytes, (unsigned long long)s->dp_cells, (long long)s->optimum );
	hyb_trace_fields_t f = { .op      = op,
		                     .kind    = "knapsack",
		                     .shape   = shape,
		                     .path    = hyb_path_name( hyb_knapsack_path( s ) ),
		                     .pred    = s->predicted_s,
		                     .seconds = s->t_total,
		                     .extra   = extra,
		                     .why     = s->why };
	hyb_trace_line( &f );
}

HYB_KNAPSACK_EXPORT hyblas_status_t hyblas_knapsack_solve( int64_t n, const int64_t* profits,
                                                           const int64_t* weights, int64_t capacity,
                                                           const hyblas_knapsack_options_t* options,
                                                           int64_t* optimum, uint8_t* x,
                                                           hyblas_knapsack_stats_t* stats )
{
	static atomic_int op = HYB_OP_NONE;
	if ( atomic_load( &op ) == HYB_OP_NONE )
		atomic_store( &op, hyb_op_register( "hyblas_knapsack_solve", "knapsack" ) );
	if ( stats && stats->struct_size < sizeof *stats ) return HYBLAS_E_STRUCT_SIZE;
	hyblas_knapsack_stats_t s;
	memset( &s, 0, sizeof s );
	s.struct_size = sizeof s;
	hyb_knapsack_devrt_t rt;
	hyb_knapsack_dev_t   dev;
	const int            have = hyb_knapsack_pick_device( &rt, &dev );
	hyblas_status_t rs = hyb_knapsack_solve_on( have ? &dev : NULL, n, profits, weights, capacity,
	                                            options, optimum, x, &s );
	hyb_knapsack_devrt_close( &rt );
	if ( rs != HYBLAS_OK && rs != HYBLAS_E_CAPACITY ) return rs; /* nothing ran */
	const hyb_path_t path = hyb_knapsack_path( &s );
	if ( path == HYB_PATH_FALLBACK ) hyb_stats_fallback( atomic_load( &op ) );
	hyb_stats_record( atomic_load( &op ), path, s.t_total,
	                  (double)s.nodes_branched + (double)s.dp_cells, 0 );
	hyb_knapsack_trace( atomic_load( &op ), n, capacity, rs, &s );
	if ( stats ) memcpy( stats, &s, sizeof s );
	return rs;
}
