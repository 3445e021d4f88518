/* SPDX-License-Identifier: BSD-3-Clause */
/* Tridiagonal dispatch (LAPACK ?gtsv, see hyb_dispatch.h): validate -> check -> plan ->
   CPU SPIKE, devices, or both (kernels/pipeline/hyb_gtsv_hetero.h) -> refit -> stats. */
#include "dispatch/hyb_dispatch.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_backend_real.h"
#include "dispatch/hyb_gtsv_rates.h"
#include "dispatch/hyb_real_substitute.h"
#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_state.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "kernels/cpu/hyb_gtsv_cpu.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_gtsv_hetero.h"
#include "policies/hyb_policy_gtsv.h"
#include "policies/hyb_profile.h"

/* LAPACK's factor outputs are always reproduced exactly: a system on which LAPACK would swap
   rows goes to LAPACK (hyb_policy_gtsv_choose's strict_factors). See docs/gtsv.md. */
#define HYB_GTSV_STRICT_FACTORS 1

/* What happened to one call, for the trace line. */
typedef struct
{
	const char*              plan; /* "lapack" or "spike" */
	const char*              why;
	hyb_gtsv_check_t         chk;
	int                      checked;
	int64_t                  m;
	double                   check_s;
	hyb_gtsv_split_t         split;
	int                      ran; /* the heterogeneous solver ran */
	hyb_gtsv_hetero_t        p;
	hyb_gtsv_hetero_report_t r;
	int                      reg;      /* the device reads registered pages */
	double                   reg_lead; /* seconds from the registration's start to the run's */
	hyb_gtsv_pin_report_t    pin;
} hyb_gtsv_call_t;

static int hyb_gtsv_valid( const hyb_gtsv_args_t* a )
{
	if ( a->n < 0 || a->nrhs < 0 || a->ldb < ( a->n > 1 ? a->n : 1 ) ) return 0;
	if ( a->info == NULL ) return 0;
	if ( a->n >= 1 && ( a->d == NULL || ( a->nrhs >= 1 && a->b == NULL ) ) ) return 0;
	if ( a->n >= 2 && ( a->dl == NULL || a->du == NULL ) ) return 0;
	return a->prec == HYB_PREC_D || a->prec == HYB_PREC_S;
}

static void hyb_gtsv_set_info( const hyb_gtsv_args_t* a, int64_t v )
{
	if ( a->info64 )
		*(int64_t*)a->info = v;
	else
		*(int32_t*)a->info = (int32_t)v;
}

static void hyb_gtsv_trace( const hyb_call_t* call, const hyb_gtsv_args_t* a, hyb_path_t path,
                            const hyb_gtsv_call_t* c, double seconds )
{
	char kind[16], shape[96], extra[1024];
	int  n = snprintf( extra, sizeof extra, " plan=%s", c->plan );
	snprintf( kind, sizeof kind, "%cgtsv", hyb_prec_char( a->prec ) );
	snprintf( shape, sizeof shape, "n=%lld nrhs=%lld ldb=%lld", (long long)a->n, (long long)a->nrhs,
	          (long long)a->ldb );
	if ( c->checked && n > 0 && n < (int)sizeof extra )
		n += snprintf( extra + n, sizeof extra - (size_t)n,
		               " dom_row=%.4g dom_col=%.4g pivot=%lld m=%lld check_s=%.3e", c->chk.dom_row,
		               c->chk.dom_col, (long long)c->chk.pivot, (long long)c->m, c->check_s );
	if ( c->ran && n > 0 && n < (int)sizeof extra )
	{
		int64_t dev_rows = 0, dev_done = 0, chunks = 0;
		double  dev_s = 0;
		for ( int k = 0; k < c->p.ndev; k++ )
		{
			dev_rows += c->p.dev_rows[k];
			dev_done += c->r.dev_done[k];
			chunks += c->r.dev_chunks[k];
			if ( c->r.dev_seconds[k] > dev_s ) dev_s = c->r.dev_seconds[k];
		}
		n += snprintf( extra + n, sizeof extra - (size_t)n,
		               " pred_split=%.3e cpu_rows=%lld dev_rows=%lld dev_done=%lld ndev=%d "
		               "chunks=%lld seam_s=%.3e "
		               "cpu_s=%.3e dev_s=%.3e stage_s=%.3e out_s=%.3e factor_s=%.3e wait_s=%.3e "
		               "fallback_rows=%lld h2d=%.0f d2h=%.0f",
		               c->split.t_split, (long long)c->r.cpu_rows, (long long)dev_rows,
		               (long long)dev_done, c->p.ndev, (long long)chunks, c->r.seam_seconds,
		               c->r.cpu_seconds, dev_s, c->r.stage_seconds, c->r.out_seconds,
		               c->r.factor_seconds, c->r.wait_seconds, (long long)c->r.fallback_rows,
		               c->r.bytes_h2d, c->r.bytes_d2h );
	}
	if ( c->ran && c->reg && n > 0 && n < (int)sizeof extra )
		snprintf(
		    extra + n, sizeof extra - (size_t)n,
		    " staging=register reg_lead=%.3e reg_s=%.3e unreg_s=%.3e pin_wait_s=%.3e reg_rows=%lld",
		    c->reg_lead, c->pin.reg_seconds, c->pin.unreg_seconds, c->r.pin_wait_seconds,
		    (long long)c->pin.rows );
	hyb_trace_fields_t f = { .op       = call->id,
		                     .kind     = kind,
		                     .shape    = shape,
		                     .path     = hyb_path_name( path ),
		                     .pred_cpu = c->split.t_cpu,
		                     .pred_gpu = c->split.conf == HYB_GTSV_CONF_SPLIT ? c->split.t_split
		                                                                      : c->split.t_dev,
		                     .pred     = c->split.t_plan,
		                     .seconds  = seconds,
		                     .extra    = extra,
		                     .why      = c->why };
	hyb_trace_line( &f );
}

/* A name no library in the process provides (an ILP64 name beside an LP64 LAPACK): the
   routine of another flavor computes it where its INTEGERs hold the arguments; where they
   do not, xerbla is told of the first that does not fit, as the reference reports an
   argument it cannot take, rather than returning with B and INFO untouched. */
static void hyb_gtsv_substitute( const hyb_call_t* call, const hyb_gtsv_args_t* a )
{
	hyb_routine_id_t w  = hyb_real_worker( call->id, HYB_OP_GTSV, a->prec );
	hyb_status_t     st = w < 0 ? HYB_E_NO_SYMBOL : hyb_invoke_gtsv( w, a );
	/* What it refused (HYB_E_INVALID): the first INTEGER it cannot hold, n, nrhs or else ldb. */
	const int64_t lo = INT32_MIN, hi = INT32_MAX;
	const int     arg = a->n < lo || a->n > hi ? 1 : a->nrhs < lo || a->nrhs > hi ? 2 : 7;
	hyb_real_substituted( call->id, w, st, arg, "LAPACK" );
}

/* The real routine with the original arguments (or its substitute where the process has
   none); the seconds since t0. */
static double hyb_gtsv_forward( const hyb_call_t* call, const hyb_gtsv_args_t* a,
                                hyb_gtsv_call_t* c, int timing, double t0, const char* why )
{
	if ( hyb_real_get( call->id ) )
		call->forward( call );
	else
		hyb_gtsv_substitute( call, a );
	double dt = hyb_now() - t0;
	hyb_stats_record( call->id, HYB_PATH_CPU, timing ? dt : -1,
	                  8.0 * (double)a->n * (double)a->nrhs, 0 );
	c->plan = "lapack";
	c->why  = why;
	if ( timing ) hyb_gtsv_trace( call, a, HYB_PATH_CPU, c, dt );
	return dt;
}

/* A measured side of the LAPACK-or-SPIKE choice into the profile: rows/s for one
   right-hand side over the whole call, hyblas's own costs included. */
static void hyb_gtsv_side_learn( const hyb_gtsv_args_t* a, int threads, int spike, double seconds )
{
	if ( !spike ) hyb_gtsv_rates_lapack_spent( seconds );
	if ( seconds > 0 )
		hyb_gtsv_rates_side_update( a->prec, threads, a->n, spike,
		                            (double)a->n / seconds *
		                                hyb_policy_gtsv_rhs_weight( a->nrhs ) );
}

/* The check (and the window) on the unmodified arrays, B included (LAPACK spreads an Inf
   or NaN of B over all of X, SPIKE would not), on `threads` threads (0: all). */
static hyb_status_t hyb_gtsv_check( const hyb_gtsv_args_t* a, int threads, hyb_gtsv_check_t* chk )
{
	if ( a->prec == HYB_PREC_D )
		return hyb_dgtsv_check_rhs( a->n, a->dl, a->d, a->du, a->nrhs, a->b, a->ldb,
		                            HYB_GTSV_WINDOW_MAX, threads, chk );
	return hyb_sgtsv_check_rhs( a->n, a->dl, a->d, a->du, a->nrhs, a->b, a->ldb,
	                            HYB_GTSV_WINDOW_MAX, threads, chk );
}

static const char* hyb_gtsv_lapack_why( const hyb_gtsv_check_t* k, int64_t window )
{
	if ( k->nonfinite ) return "Inf or NaN entries";
	if ( !( k->dom_row > 1 || k->dom_col > 1 ) ) return "not diagonally dominant";
	if ( window == 0 ) return "dominance too weak for a window";
	if ( k->pivot > 0 ) return "LAPACK would swap rows (its factors differ)";
	if ( k->info > 0 ) return "exactly singular (LAPACK's INFO > 0)";
	return "pivoting not determined";
}

/* The plan's input: machine, settings, profiled rates. */
static void hyb_gtsv_split_input( const hyb_gtsv_args_t* a, hyb_mode_t mode, int ndev, int threads,
                                  int dev_threads, int reg, hyb_gtsv_split_in_t* in )
{
	const hyb_config_t*  cfg = hyb_config();
	const hyb_profile_t* pf  = hyb_profile();
	memset( in, 0, sizeof *in );
	in->n           = a->n;
	in->nrhs        = a->nrhs;
	in->elem        = hyb_prec_size( a->prec );
	in->ndev        = ndev;
	in->threads     = threads;
	in->dev_threads = dev_threads;
	in->allow_cpu   = mode != HYB_MODE_GPU;
	in->need_dev    = mode == HYB_MODE_GPU;
	in->cpu_ratio   = mode == HYB_MODE_GPU ? cfg->cpu_ratio_fixed : -1;
	in->min_dev_rows =
	    mode == HYB_MODE_GPU ? 1 : ( cfg->gtsv_min_n / 2 > 1024 ? cfg->gtsv_min_n / 2 : 1024 );
	/* A staging copy team moves host_copy bytes/s each way: twice that of traffic. */
	in->host_bw     = 2 * pf->host_copy;
	in->core_rate   = HYB_GTSV_CORE_RATE;
	in->h2d         = pf->h2d_pinned;
	in->d2h         = pf->d2h_pinned;
	in->dev_latency = pf->gpu_call_overhead;
	in->margin      = HYB_GTSV_DEV_MARGIN;
	/* Registered pages: the registering starts before the check, which reads dl, d and du
	   once (its time is the device's head start). */
	in->reg       = reg;
	in->reg_spb   = pf->register_s_per_byte;
	in->unreg_spb = pf->unregister_s_per_byte;
	in->head      = in->host_bw > 0 ? 3.0 * (double)in->elem * (double)a->n / in->host_bw : 0;
	hyb_gtsv_rates_fill( a->prec, in );
}

/* Take split s for the call: its rows and the threads of each side (the devices alone
   share the host threads among their workers; a split gives each worker split_threads and
   the CPU the rest; the CPU alone its OpenMP default). */
static void hyb_gtsv_use_split( hyb_gtsv_call_t* c, const hyb_gtsv_split_t* s, int ndev,
                                int threads, int split_threads )
{
	hyb_gtsv_hetero_t* p = &c->p;
	c->split             = *s;
	c->why               = s->why;
	p->ndev              = s->conf == HYB_GTSV_CONF_CPU ? 0 : ndev;
	for ( int k = 0; k < HYB_GTSV_DEV_MAX; k++ ) p->dev_rows[k] = k < p->ndev ? s->dev_rows[k] : 0;
	p->dev_threads = 0;
	p->cpu_threads = 0;
	if ( s->conf == HYB_GTSV_CONF_DEV )
		p->dev_threads = threads / ndev > 1 ? threads / ndev : 1;
	else if ( s->conf == HYB_GTSV_CONF_SPLIT )
	{
		p->dev_threads = split_threads;
		p->cpu_threads = threads - ndev * split_threads > 1 ? threads - ndev * split_threads : 1;
	}
}

/* Measured rates of one call into the profile (rows/s for one right-hand side). */
static void hyb_gtsv_refit( const hyb_gtsv_args_t* a, const hyb_gtsv_call_t* c )
{
	const hyb_gtsv_hetero_report_t* r = &c->r;
	if ( r->error != HYB_OK ) return;
	double w                     = hyb_policy_gtsv_rhs_weight( a->nrhs );
	double cpu                   = ( r->cpu_rows >= HYB_GTSV_REFIT_MIN_ROWS && r->cpu_seconds > 0 )
	                                   ? (double)r->cpu_rows / r->cpu_seconds * w
	                                   : 0;
	double dev[HYB_GTSV_DEV_MAX] = { 0 };
	int    any                   = cpu > 0;
	for ( int k = 0; k < c->p.ndev; k++ )
		if ( c->p.dev_rows[k] >= HYB_GTSV_REFIT_MIN_ROWS && r->dev_seconds[k] > 0 )
		{
			/* registered pages: from the registration's start, as the model counts it */
			dev[k] =
			    (double)c->p.dev_rows[k] / ( r->dev_seconds[k] + ( c->reg ? c->reg_lead : 0 ) ) * w;
			any = 1;
		}
	if ( any ) hyb_gtsv_rates_update( a->prec, c->split.conf, c->reg, cpu, c->p.ndev, dev );
}

static void hyb_gtsv_dispatch( const hyb_call_t* call, const hyb_gtsv_args_t* a )
{
	int             timing = hyb_stats_timing();
	double          t0     = hyb_now();
	hyb_gtsv_call_t c;
	memset( &c, 0, sizeof c );

	/* Invalid arguments, NRHS = 0 (LAPACK still factors and touches B(:,1)), N = 0 and
	   complex types: LAPACK, so that xerbla, INFO and every output are its own. */
	if ( !hyb_gtsv_valid( a ) || a->n == 0 || a->nrhs == 0 )
	{
		hyb_gtsv_forward( call, a, &c, timing, t0, "invalid or trivial arguments" );
		return;
	}
	const hyb_config_t* cfg = hyb_config();
	hyb_mode_t          mode =
	    hyb_config_mode_for_call( cfg, hyb_routine_info[call->id].name, HYB_OP_GTSV, a->prec );
	if ( a->n < HYB_GTSV_SPIKE_MIN_N )
	{
		hyb_gtsv_forward( call, a, &c, timing, t0, "small system" );
		return;
	}

	/* Devices may take part unless the mode or the size rule them out (or, after the
	   check, the window). */
	int ndev = 0;
	if ( mode != HYB_MODE_CPU && ( mode == HYB_MODE_GPU || a->n >= cfg->gtsv_min_n ) &&
	     hyb_devices_ensure() == HYB_OK )
	{
		ndev = hyb_devices_count();
		if ( ndev > HYB_GTSV_DEV_MAX ) ndev = HYB_GTSV_DEV_MAX;
	}
	int threads = omp_get_max_threads();
	if ( threads < 1 ) threads = 1;
	int split_threads = cfg->copy_threads > 0 ? (int)cfg->copy_threads : threads / 4;
	if ( split_threads < 2 ) split_threads = 2;
	if ( split_threads > 8 ) split_threads = 8;

	/* The plan, staged through pinned buffers and, with one device, from registered pages:
	   HYBLAS_STAGING picks, auto the faster prediction. */
	hyb_gtsv_split_in_t in;
	hyb_gtsv_split_input( a, mode, ndev, threads, split_threads, 0, &in );
	const hyb_gtsv_split_t staged = hyb_policy_gtsv_split( &in );
	c.split                       = staged;
	if ( ndev == 1 && cfg->staging != HYB_STAGING_COPY && a->nrhs <= HYB_GTSV_PIN_ARRAYS_MAX - 3 )
	{
		hyb_gtsv_split_in_t rin;
		hyb_gtsv_split_input( a, mode, ndev, threads, split_threads, 1, &rin );
		hyb_gtsv_split_t rs = hyb_policy_gtsv_split( &rin );
		/* Only when asked for (HYBLAS_STAGING=register): on the GPU machines no
		   registered split beat the CPU alone (0.94-1.01x at one right-hand side), and a
		   split the learned rates predicted 14 % faster with four measured 52 % slower
		   (registering and unregistering slow the CPU side, which the rates do not carry
		   from one width to another). docs/design-notes-gtsv.md. */
		if ( rs.conf != HYB_GTSV_CONF_CPU && cfg->staging == HYB_STAGING_REGISTER )
		{
			c.split = rs;
			c.reg   = 1;
		}
	}

	/* Where the CPU alone would solve the call, auto mode runs the CPU SPIKE only where
	   measured rates at this thread count and size say it beats LAPACK (mode cpu always
	   runs it: that is what the mode asks for). */
	int side_learn =
	    mode == HYB_MODE_AUTO && c.split.conf == HYB_GTSV_CONF_CPU && !omp_in_parallel();
	if ( side_learn )
	{
		hyb_gtsv_side_in_t sin;
		hyb_gtsv_rates_side( a->prec, threads, a->n, &sin );
		hyb_gtsv_side_t side = hyb_policy_gtsv_side( &sin );
		if ( !side.spike )
		{
			hyb_gtsv_side_learn( a, threads, 0,
			                     hyb_gtsv_forward( call, a, &c, timing, t0, side.why ) );
			return;
		}
	}

	hyb_gtsv_hetero_t* p = &c.p;
	p->prec              = a->prec;
	p->n                 = a->n;
	p->nrhs              = a->nrhs;
	p->ldb               = a->ldb;
	p->dl                = a->dl;
	p->d                 = a->d;
	p->du                = a->du;
	p->b                 = a->b;
	p->flags             = HYB_GTSV_FACTORS;
	p->chunk_fn          = hyb_policy_gtsv_chunk_rows;
	hyb_gtsv_use_split( &c, &c.split, ndev, threads, split_threads );

	/* Registering only reads the arrays: it runs beside the check, so that the device's
	   first rows are ready when the check has passed. */
	hyb_gtsv_hetero_reg_t reg    = { 0 };
	double                t_reg0 = hyb_now();
	if ( c.reg && hyb_gtsv_hetero_reg_start( p, &reg ) != HYB_OK )
	{
		c.reg = 0; /* not possible after all: staged, with the staged plan */
		hyb_gtsv_use_split( &c, &staged, ndev, threads, split_threads );
	}

	/* The check on the unmodified arrays decides whether SPIKE may stand in for LAPACK. */
	double tc = hyb_now();
	if ( hyb_gtsv_check( a, reg.pin && threads > 1 ? threads - 1 : 0, &c.chk ) != HYB_OK )
	{
		hyb_gtsv_hetero_reg_finish( &reg, NULL );
		hyb_gtsv_forward( call, a, &c, timing, t0, "no memory for the check" );
		return;
	}
	c.check_s = hyb_now() - tc;
	c.checked = 1;
	hyb_gtsv_plan_t plan =
	    hyb_policy_gtsv_choose( c.chk.dom_row, c.chk.dom_col, c.chk.pivot, c.chk.info,
	                            c.chk.nonfinite, a->prec, HYB_GTSV_STRICT_FACTORS, &c.m );
	if ( plan == HYB_GTSV_PLAN_LAPACK )
	{
		hyb_gtsv_hetero_reg_finish( &reg, NULL );
		hyb_gtsv_forward(
		    call, a, &c, timing, t0,
		    hyb_gtsv_lapack_why(
		        &c.chk, hyb_policy_gtsv_window( fmax( c.chk.dom_row, c.chk.dom_col ), a->prec ) ) );
		return;
	}
	p->m = c.m;
	if ( p->ndev > 0 && c.m > HYB_GTSV_DEV_WINDOW_MAX )
	{
		/* the window is too wide for the device kernels: the CPU alone */
		hyb_gtsv_hetero_reg_finish( &reg, NULL );
		c.reg = 0;
		hyb_gtsv_split_input( a, mode, 0, threads, split_threads, 0, &in );
		hyb_gtsv_split_t cpu = hyb_policy_gtsv_split( &in );
		hyb_gtsv_use_split( &c, &cpu, 0, threads, split_threads );
		c.why = "window too wide for the devices";
	}
	p->pin          = reg.pin;
	c.reg_lead      = hyb_now() - t_reg0;
	hyb_status_t st = hyb_gtsv_hetero_run( p, &c.r );
	hyb_gtsv_hetero_reg_finish( &reg, &c.pin );
	if ( st != HYB_OK )
	{
		/* Nothing was written. */
		hyb_gtsv_forward( call, a, &c, timing, t0, "no memory for the seam records" );
		return;
	}
	c.ran  = 1;
	c.plan = "spike";
	if ( side_learn && c.r.error == HYB_OK ) hyb_gtsv_side_learn( a, threads, 1, hyb_now() - t0 );
	hyb_gtsv_set_info( a, 0 ); /* the check proved LAPACK's INFO = 0 (no zero pivot) */

	hyb_path_t path = c.split.conf == HYB_GTSV_CONF_CPU   ? HYB_PATH_CPU
	                  : c.split.conf == HYB_GTSV_CONF_DEV ? HYB_PATH_GPU
	                                                      : HYB_PATH_SPLIT;
	if ( c.r.error != HYB_OK )
	{
		path = HYB_PATH_FALLBACK;
		hyb_stats_fallback( call->id );
		hyb_log_once( hyb_hash_str( hyb_routine_info[call->id].name, (uint64_t)c.r.error ),
		              HYB_LOG_WARN,
		              "warning: %s: device failed (%s); %lld rows solved on the CPU instead",
		              hyb_routine_info[call->id].name, hyb_status_string( c.r.error ),
		              (long long)c.r.fallback_rows );
		if ( c.r.error == HYB_E_DEVICE ) hyb_devices_disable( hyb_status_string( c.r.error ) );
	}
	else if ( ndev > 0 && !omp_in_parallel() )
		/* Rates are learned only where they choose between the CPU and a device:
		   a call no device could take (mode cpu, a small system, no device)
		   writes no file. */
		hyb_gtsv_refit( a, &c );

	double dt = hyb_now() - t0;
	hyb_stats_record( call->id, path, timing ? dt : -1, 8.0 * (double)a->n * (double)a->nrhs,
	                  c.r.bytes_h2d + c.r.bytes_d2h );
	if ( path != HYB_PATH_CPU ) hyb_stats_prediction( call->id, c.split.t_plan + c.check_s, dt );
	if ( timing ) hyb_gtsv_trace( call, a, path, &c, dt );
}

void hyb_dispatch_gtsv( const hyb_call_t* call, const hyb_gtsv_args_t* a )
{
	/* The SPIKE kernels run OpenMP regions (see hyb_state_omp_enter). */
	int omp = hyb_state_omp_enter();
	hyb_gtsv_dispatch( call, a );
	hyb_state_omp_leave( omp );
}
