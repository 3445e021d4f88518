/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 dispatch (see hyb_dispatch.h). */
#include "dispatch/hyb_dispatch.h"

#include <stdio.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_backend_real.h"
#include "dispatch/hyb_l3_check.h"
#include "dispatch/hyb_l3_memo.h"
#include "dispatch/hyb_real_substitute.h"
#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_l3_pipeline.h"
#include "policies/hyb_policy_l3.h"
#include "policies/hyb_profile.h"
#include "policies/hyb_refit.h"

/* Device calls below this size are dominated by fixed costs; their timings
   say little about the steady-state rates the model refits. */
#define HYB_REFIT_MIN_FLOPS 5e10

/* The call when the process has no symbol of its own name (an ILP64 name
   without an ILP64 library, say): what that symbol would do, as far as
   another flavor of the same routine can. An invalid call goes to xerbla
   with the reference's INFO, as the missing symbol would have sent it; a
   valid call goes to another flavor on the normalized arguments, and one
   whose INTEGER arguments that flavor cannot hold (a 32-bit flavor, a
   dimension of 2^31 or more) goes to xerbla naming the first of them: it
   cannot be computed here, and must not leave C unchanged unannounced. */
static void hyb_l3_substitute( const hyb_call_t* call, const hyb_l3_args_t* in )
{
	int info = hyb_l3_info( in );
	if ( info != 0 )
	{
		hyb_real_xerbla( call->id, info );
		return;
	}
	hyb_l3_args_t a = *in;
	hyb_l3_normalize( &a );
	hyb_routine_id_t w    = hyb_real_worker( call->id, a.op, a.prec );
	hyb_status_t     st   = w < 0 ? HYB_E_NO_SYMBOL : hyb_invoke_l3( w, &a );
	int              wide = st == HYB_E_INVALID ? hyb_l3_wide_arg( &a ) : 0;
	hyb_real_substituted( call->id, w, st, wide, "BLAS" );
}

/* An unchanged call to the real symbol of the call's name, or, where the
   process has none, its substitute. */
static void hyb_l3_forward( const hyb_call_t* call, const hyb_l3_args_t* in )
{
	if ( hyb_real_get( call->id ) )
		call->forward( call );
	else
		hyb_l3_substitute( call, in );
}

/* The CPU path for a valid call. */
static void hyb_l3_cpu( const hyb_call_t* call, const hyb_l3_args_t* a )
{
	hyb_l3_forward( call, a );
	hyb_refit_cpu_called( hyb_l3_flops( a ) );
}

typedef struct
{
	hyb_routine_id_t like;
} hyb_l3_cpu_user_t;

/* A sub-problem on the CPU (strip, fallback tile): the real routine of the
   sub-problem's op, from the same library as the intercepted call. */
static hyb_status_t hyb_l3_cpu_sub( void* user, const hyb_l3_args_t* sub )
{
	hyb_l3_cpu_user_t* u = user;
	hyb_routine_id_t   w = hyb_real_worker( u->like, sub->op, sub->prec );
	if ( w < 0 ) return HYB_E_NO_SYMBOL;
	hyb_status_t st = hyb_invoke_l3( w, sub );
	hyb_refit_cpu_called( hyb_l3_flops( sub ) );
	return st;
}

static void hyb_l3_trace( const hyb_call_t* call, const hyb_l3_args_t* a, const char* path,
                          const hyb_l3_plan_t* plan, double seconds, const hyb_l3_exec_report_t* r )
{
	char kind[32], shape[96], extra[512] = "";
	snprintf( kind, sizeof kind, "%c%s", hyb_prec_char( a->prec ), hyb_op_name( a->op ) );
	snprintf( shape, sizeof shape, "m=%lld n=%lld k=%lld", (long long)a->m, (long long)a->n,
	          (long long)a->k );
	if ( r && plan )
		snprintf( extra, sizeof extra,
		          " devices=%d tile=%lldx%lld kchunk=%lld cpu_share=%.3f dev_s=%.3e cpu_s=%.3e "
		          "imbalance=%.3f "
		          "fallback_tiles=%d h2d=%.0f d2h=%.0f load1_s=%.3e store2_s=%.3e wait_s=%.3e",
		          plan->ndev, (long long)plan->Tm, (long long)plan->Tn, (long long)plan->K,
		          ( plan->cpu_cols ? (double)plan->cpu_cols / (double)a->n
		                           : (double)plan->cpu_rows / (double)( a->m ? a->m : 1 ) ),
		          r->dev_seconds, r->cpu_seconds,
		          r->cpu_seconds > 0
		              ? ( r->cpu_seconds - r->dev_seconds ) / ( r->dev_seconds + r->cpu_seconds )
		              : 0.0,
		          r->tasks_cpu, r->bytes_h2d, r->bytes_d2h, r->load1_seconds, r->store2_seconds,
		          r->wait_seconds );
	hyb_trace_fields_t f = { .op       = call->id,
		                     .kind     = kind,
		                     .shape    = shape,
		                     .path     = path,
		                     .pred_cpu = plan ? plan->t_cpu : 0.0,
		                     .pred_gpu = plan ? plan->t_gpu : 0.0,
		                     .pred     = plan ? plan->t_plan : 0.0,
		                     .seconds  = seconds,
		                     .extra    = extra,
		                     .why      = plan ? plan->why : NULL };
	hyb_trace_line( &f );
}

/* The device plan: build the work, run it, finish on the CPU if needed. */
static hyb_path_t hyb_l3_run_device( const hyb_call_t* call, const hyb_l3_args_t* a,
                                     const hyb_l3_plan_t* plan, hyb_l3_exec_report_t* r )
{
	const hyb_config_t* cfg = hyb_config();
	int64_t       m_out = ( a->op == HYB_OP_GEMM || a->op == HYB_OP_SYMM || a->op == HYB_OP_HEMM ||
                      a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM )
	                          ? a->m
	                          : a->n;
	hyb_l3_args_t strip;
	int           has_strip = plan->cpu_cols > 0 || plan->cpu_rows > 0;
	if ( plan->cpu_cols > 0 )
		strip = hyb_l3_gemm_sub( a, 0, a->n - plan->cpu_cols, a->m, plan->cpu_cols );
	if ( plan->cpu_rows > 0 )
		strip = hyb_l3_gemm_sub( a, a->m - plan->cpu_rows, 0, plan->cpu_rows, a->n );

	hyb_l3_work_t w;
	hyb_status_t st = hyb_l3_work_build_bands( &w, a, m_out - plan->cpu_rows, a->n - plan->cpu_cols,
	                                           plan->Tm, plan->Tn, plan->K, plan->ndev );
	if ( st != HYB_OK ) return HYB_PATH_COUNT; /* nothing started: the caller forwards */
	if ( plan->beta_host ) hyb_l3_work_beta_on_host( &w );

	hyb_l3_cpu_user_t  user = { call->id };
	hyb_l3_exec_opts_t o    = {
		   .ndev         = plan->ndev,
		   .register_ops = plan->register_ops,
		   .copy_threads = cfg->copy_threads > 0 ? (int)cfg->copy_threads : 8,
		   /* Not beside the CPU library's threads, which may still spin after a call. */
		   .team_spin =
            cfg->team_spin != 0 && !hyb_refit_cpu_threads_busy() ? HYB_SPIN_LARGE : HYB_SPIN_NEVER,
		   .cpu       = hyb_l3_cpu_sub,
		   .cpu_user  = &user,
		   .cpu_strip = has_strip ? &strip : NULL,
	};
	st = hyb_l3_pipeline_run( &w, &o, r );
	if ( st != HYB_OK )
		hyb_log_always( "error: %s: the CPU library could not complete the call (%s)",
		                hyb_routine_info[call->id].name, hyb_status_string( st ) );
	if ( r->error != HYB_OK )
	{
		hyb_stats_fallback( call->id );
		hyb_log_once( hyb_hash_str( hyb_routine_info[call->id].name, (uint64_t)r->error ),
		              HYB_LOG_WARN,
		              "warning: %s: device failed (%s); %d of %d tiles finished on the CPU",
		              hyb_routine_info[call->id].name, hyb_status_string( r->error ), r->tasks_cpu,
		              w.ntasks );
		if ( r->error == HYB_E_DEVICE ) hyb_devices_disable( hyb_status_string( r->error ) );
	}
	else if ( w.flops >= HYB_REFIT_MIN_FLOPS )
	{
		/* Refit: device time against the model for the device part. */
		double pred = hyb_cost_l3_gpu(
		    hyb_profile(), a, m_out - plan->cpu_rows, a->n - plan->cpu_cols, plan->Tm, plan->Tn,
		    plan->K, plan->ndev, hyb_dev_budget( 0 ), hyb_l3_plan_flags( plan ), NULL );
		hyb_refit_gpu( a->prec, pred * hyb_refit_gpu_scale( a->prec ), r->dev_seconds );
	}
	if ( has_strip && r->cpu_seconds > 0 )
		hyb_refit_cpu( a->prec, hyb_l3_flops( &strip ), r->cpu_seconds );
	int tasks = w.ntasks;
	hyb_l3_work_free( &w );
	if ( r->error != HYB_OK || r->tasks_cpu == tasks ) return HYB_PATH_FALLBACK;
	return has_strip ? HYB_PATH_SPLIT : HYB_PATH_GPU;
}

void hyb_dispatch_l3( const hyb_call_t* call, const hyb_l3_args_t* in )
{
	const hyb_config_t* cfg    = hyb_config();
	int                 timing = hyb_stats_timing();

	/* Fast path: in auto mode with no per-routine settings, a call below the
	   device threshold goes to the real library as it came. Nothing needs
	   checking first: an invalid call is forwarded unchanged anyway, and the
	   flop count is the same before and after row-major normalization (and
	   not positive for a call with a negative dimension). */
	if ( !timing && cfg->mode == HYB_MODE_AUTO && cfg->n_routine_modes == 0 )
	{
		double f = hyb_l3_flops( in );
		if ( f < cfg->l3_min_flops && f < HYB_L3_PROBE_MIN_FLOPS )
		{
			hyb_l3_forward( call, in );
			hyb_refit_cpu_called( f );
			hyb_stats_record( call->id, HYB_PATH_CPU, -1, f, 0 );
			return;
		}
	}

	double        t0 = hyb_now();
	hyb_l3_args_t a  = *in;

	/* Invalid: the real library reports it exactly as it would have. */
	if ( !hyb_l3_valid( &a ) )
	{
		hyb_l3_forward( call, &a );
		hyb_stats_record( call->id, HYB_PATH_CPU, timing ? hyb_now() - t0 : -1, 0, 0 );
		return;
	}
	/* alpha and beta are read from here on, as the libraries read them: a call
	   with a NULL one goes to the library as it came. An empty call needs them
	   not (the CPU path below keeps its quick return). */
	if ( !hyb_l3_empty( &a ) && !hyb_l3_scalars_load( &a ) )
	{
		call->forward( call );
		hyb_stats_record( call->id, HYB_PATH_CPU, timing ? hyb_now() - t0 : -1, 0, 0 );
		return;
	}
	hyb_l3_normalize( &a );
	hyb_mode_t mode =
	    hyb_config_mode_for_call( cfg, hyb_routine_info[call->id].name, a.op, a.prec );
	double flops = hyb_l3_flops( &a );

	/* Below HYBLAS_L3_MIN_FLOPS the model's plan is only kept for the
	   measured choice of a repeated shape, and only on a device that a larger
	   call has started: a program of small calls never pays the device's
	   start (hundreds of milliseconds). */
	int below    = mode == HYB_MODE_AUTO && flops < cfg->l3_min_flops;
	int consider = mode != HYB_MODE_CPU && !hyb_l3_trivial( &a ) &&
	               ( !below || ( flops >= HYB_L3_PROBE_MIN_FLOPS && hyb_devices_count() > 0 ) );
	if ( consider && hyb_devices_ensure() != HYB_OK ) consider = 0;
	if ( !consider )
	{
		hyb_l3_cpu( call, &a );
		double dt = timing ? hyb_now() - t0 : -1;
		hyb_stats_record( call->id, HYB_PATH_CPU, dt, flops, 0 );
		if ( timing ) hyb_l3_trace( call, &a, "cpu", NULL, dt, NULL );
		return;
	}

	hyb_l3_policy_in_t pin = {
		.mode      = mode,
		.ndev      = hyb_devices_count(),
		.budget    = hyb_dev_budget( 0 ),
		.tile      = cfg->tile,
		.cpu_ratio = cfg->cpu_ratio_fixed,
		.staging   = cfg->staging,
		.beta_host = cfg->host_beta != 0,
		.min_flops = cfg->l3_min_flops,
		.gpu_scale = hyb_refit_gpu_scale( a.prec ),
		.cpu_rate  = hyb_refit_cpu_rate( a.prec ),
	};
	hyb_l3_plan_t plan = hyb_policy_l3_choose( &a, hyb_profile(), &pin );
	/* Near the boundary, a shape that comes back is timed both ways and
	   keeps the faster (hyb_policy_l3.h, "measured choice"). */
	uint64_t key  = 0;
	int      side = -1; /* the side this call times, -1: none */
	if ( mode == HYB_MODE_AUTO && pin.cpu_ratio < 0 && hyb_policy_l3_worth_measuring( &plan ) )
	{
		int settled    = 0;
		int model_side = plan.path != HYB_PATH_CPU;
		key            = hyb_l3_memo_key( &a );
		side           = hyb_l3_memo_side( key, model_side, &settled );
		plan           = hyb_policy_l3_measured_plan( &plan, side, settled );
	}
	hyb_path_t           path = HYB_PATH_CPU;
	hyb_l3_exec_report_t r    = { 0 };
	if ( plan.path != HYB_PATH_CPU ) path = hyb_l3_run_device( call, &a, &plan, &r );
	if ( path == HYB_PATH_CPU || path == HYB_PATH_COUNT )
	{
		hyb_l3_cpu( call, &a );
		path = HYB_PATH_CPU;
	}
	double dt = timing || side >= 0 || path != HYB_PATH_CPU ? hyb_now() - t0 : -1;
	if ( side >= 0 && path != HYB_PATH_FALLBACK && ( path == HYB_PATH_CPU ) == ( side == 0 ) )
		hyb_l3_memo_note( key, side, dt );
	double in_b, out_b;
	hyb_l3_bytes( &a, &in_b, &out_b );
	hyb_stats_record( call->id, path, timing ? dt : -1, flops,
	                  path == HYB_PATH_CPU ? 0 : r.bytes_h2d + r.bytes_d2h );
	if ( path != HYB_PATH_CPU ) hyb_stats_prediction( call->id, plan.t_plan, dt );
	if ( timing )
		hyb_l3_trace( call, &a, hyb_path_name( path ), &plan, dt,
		              path == HYB_PATH_CPU ? NULL : &r );
}
