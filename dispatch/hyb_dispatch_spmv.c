/* SPDX-License-Identifier: BSD-3-Clause */
/* Sparse matrix-vector dispatch (MKL symbols): the device paths of seed 001 when the mode and
   the model say so (device only, ELL/DIA + COO hybrid, row split; matrices kept on the device
   across calls), else the CPU path: MKL's own routine when the process brought MKL (unless
   hyblas's kernel measured faster), else hyblas's CPU kernel. Any device failure ends in the
   CPU path on the original inputs. */
#include "dispatch/hyb_dispatch.h"

#include <stdio.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_backend_real.h"
#include "dispatch/hyb_spmv_bg.h"
#include "dispatch/hyb_spmv_cpu_pick.h"
#include "dispatch/hyb_spmv_device.h"
#include "dispatch/hyb_spmv_rates.h"
#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_state.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "kernels/cpu/hyb_spmv_cpu.h"
#include "kernels/hyb_device.h"

/* The CPU product on hyblas's own kernel. MKL documents no error report for these legacy
   routines: invalid arguments leave y untouched and are reported once per routine. */
static hyb_status_t hyb_spmv_cpu( const hyb_call_t* call, const hyb_spmv_args_t* a )
{
	hyb_status_t st;
	int          csr = a->op == HYB_OP_CSRMV;
	const int    nth = hyb_spmv_bg_cpu_threads(); /* a core left to a background build */
	if ( a->prec == HYB_PREC_D )
		st = csr ? hyb_dcsrmv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->base, a->x,
		                               a->y, nth )
		         : hyb_dcoomv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->nnz,
		                               a->base, a->x, a->y, nth );
	else
		st = csr ? hyb_scsrmv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->base, a->x,
		                               a->y, nth )
		         : hyb_scoomv_cpu_omp( a->transa, a->m, a->val, a->rowind, a->colind, a->nnz,
		                               a->base, a->x, a->y, nth );
	if ( st != HYB_OK )
		hyb_log_once( hyb_hash_str( hyb_routine_info[call->id].name, 0x73706d76 ), HYB_LOG_WARN,
		              "warning: %s: %s (m=%lld, transa='%c'); y not computed",
		              hyb_routine_info[call->id].name, hyb_status_string( st ), (long long)a->m,
		              a->transa );
	return st;
}

/* Stored entries, or -1 when the arguments cannot say (the CPU kernel then judges them). */
static int64_t hyb_spmv_entries( const hyb_spmv_args_t* a )
{
	if ( a->m <= 0 ) return a->m == 0 ? 0 : -1;
	if ( a->op == HYB_OP_COOMV ) return a->nnz;
	if ( a->rowind == NULL ) return -1;
	return (int64_t)a->rowind[a->m] - a->rowind[0];
}

/* One trace line; cpu names the code of the CPU product where one ran ("mkl": MKL's own
   routine, "hyblas": hyblas's kernel). */
static void hyb_spmv_trace( const hyb_call_t* call, const hyb_spmv_args_t* a, int64_t nnz,
                            hyb_path_t path, const hyb_spmv_report_t* r, double seconds,
                            const char* cpu )
{
	char kind[32], shape[96], extra[1024];
	snprintf( kind, sizeof kind, "%c%s", hyb_prec_char( a->prec ), hyb_op_name( a->op ) );
	snprintf( shape, sizeof shape, "m=%lld nnz=%lld trans=%c", (long long)a->m, (long long)nnz,
	          a->transa );
	int n = snprintf(
	    extra, sizeof extra, " run=%s fmt=%s K=%lld K_alg3=%lld share=%.3f phase=%s cache=%s",
	    hyb_spmv_run_name( r->run ), hyb_spmv_fmt_name( r->fmt ), (long long)r->K,
	    (long long)r->K_alg3, r->share, r->phase == HYB_SPMV_STEADY ? "steady" : "first",
	    r->cache < 0    ? "none"
	    : r->cache == 0 ? "hit"
	    : r->cache == 1 ? "fill"
	                    : "bypass" );
	if ( cpu && n > 0 && n < (int)sizeof extra )
		n += snprintf( extra + n, sizeof extra - (size_t)n, " cpu=%s", cpu );
	if ( path != HYB_PATH_CPU && n > 0 && n < (int)sizeof extra )
		snprintf(
		    extra + n, sizeof extra - (size_t)n,
		    " blocks=%d stats_s=%.3e build_s=%.3e xcopy_s=%.3e xsum_s=%.3e cpu_s=%.3e wait_s=%.3e "
		    "ycopy_s=%.3e merge_s=%.3e dev_s=%.3e h2d=%.0f d2h=%.0f x=%s y=%s",
		    r->pipe.nblk, r->stats_s, r->pipe.build_s, r->pipe.xcopy_s, r->pipe.xsum_s,
		    r->pipe.cpu_s, r->pipe.wait_s, r->pipe.ycopy_s, r->pipe.merge_s, r->pipe.dev_s,
		    r->pipe.bytes_h2d, r->pipe.bytes_d2h,
		    r->pipe.x_registered     ? "registered"
		    : r->pipe.x_proof_failed ? "proof-failed"
		                             : "staged",
		    r->pipe.y_registered     ? "registered"
		    : r->pipe.y_proof_failed ? "proof-failed"
		                             : "staged" );
	hyb_trace_fields_t f = { .op       = call->id,
		                     .kind     = kind,
		                     .shape    = shape,
		                     .path     = hyb_path_name( path ),
		                     .pred_cpu = r->t_cpu,
		                     .pred_gpu = r->t_gpu,
		                     .pred     = r->t_pred,
		                     .seconds  = seconds,
		                     .extra    = extra,
		                     .why      = r->why };
	hyb_trace_line( &f );
}

static void hyb_spmv_dispatch( const hyb_call_t* call, const hyb_spmv_args_t* a )
{
	double             t0     = hyb_now();
	int                timing = hyb_stats_timing();
	hyb_spmv_report_t* rep    = hyb_spmv_last_report();
	int64_t            nnz    = hyb_spmv_entries( a );

	/* A program linked with MKL: its CPU path is MKL's own routine (unless hyblas's kernel
	   measured faster), with MKL's semantics and checks for arguments hyblas cannot judge. */
	int             mkl      = hyb_real_get( call->id ) != NULL;
	hyb_spmv_pick_t cpu_code = HYB_SPMV_PICK_OWN;
	int             cpu_ran  = 0;

	const hyb_config_t* cfg  = hyb_config();
	hyb_mode_t          mode = hyb_config_mode_for( cfg, a->op, a->prec );
	hyb_path_t          path = HYB_PATH_CPU;
	const char*         why  = NULL;
	if ( hyb_spmv_trans_flag( a->transa ) < 0 || nnz < 0 )
		why = "invalid arguments";
	else if ( mode == HYB_MODE_CPU )
		why = "mode cpu";
	else if ( nnz == 0 )
		why = "empty matrix";
	else if ( mode == HYB_MODE_AUTO && nnz < cfg->spmv_min_nnz )
		why = "below HYBLAS_SPMV_MIN_NNZ";
	else if ( hyb_devices_ensure() != HYB_OK )
		why = "no device";
	if ( why )
	{
		memset( rep, 0, sizeof *rep );
		rep->cache  = -1;
		rep->K_alg3 = -1;
		rep->why    = why;
	}
	else
		path = hyb_spmv_device_run( call, a, mode, rep );

	if ( path == HYB_PATH_CPU || path == HYB_PATH_FALLBACK )
	{
		double          tc   = hyb_now();
		hyb_spmv_pick_t code = HYB_SPMV_PICK_OWN;
		if ( mkl )
			code = nnz < 0 || hyb_spmv_trans_flag( a->transa ) < 0
			           ? HYB_SPMV_PICK_MKL
			           : hyb_spmv_cpu_pick( call->id, nnz >= cfg->spmv_min_nnz );
		hyb_status_t st = HYB_OK;
		if ( code == HYB_SPMV_PICK_MKL )
			call->forward( call );
		else
			st = hyb_spmv_cpu( call, a );
		cpu_code = code;
		cpu_ran  = 1;
		if ( mkl && st == HYB_OK ) hyb_spmv_cpu_pick_learn( call->id, code, nnz, hyb_now() - tc );
		/* Refit the CPU rate from row-partitioned CSR products on hyblas's kernel (the
		   kernel the model describes); other layouts take other paths. */
		if ( st == HYB_OK && code == HYB_SPMV_PICK_OWN && path == HYB_PATH_CPU &&
		     a->op == HYB_OP_CSRMV && a->transa == 'N' && nnz >= 100000 && hyb_spmv_bg_idle() )
		{
			double vb = (double)hyb_prec_size( a->prec );
			hyb_spmv_rates_refit_cpu(
			    (double)nnz * ( vb + 4.0 ) + (double)a->m * ( 4.0 + 2.0 * vb ), hyb_now() - tc );
		}
		if ( st == HYB_OK && rep->probe_h )
			hyb_spmv_device_probe_done( rep->probe_h, hyb_now() - tc );
		if ( rep->bg_job ) hyb_spmv_device_bg_after_cpu( rep, st );
		if ( path == HYB_PATH_FALLBACK ) hyb_stats_fallback( call->id );
	}
	rep->path = path;
	double dt = hyb_now() - t0;
	hyb_stats_record( call->id, path, timing ? dt : -1, 2.0 * (double)( nnz > 0 ? nnz : 0 ),
	                  path == HYB_PATH_CPU ? 0 : rep->pipe.bytes_h2d + rep->pipe.bytes_d2h );
	if ( path != HYB_PATH_CPU ) hyb_stats_prediction( call->id, rep->t_pred, dt );
	if ( timing )
		hyb_spmv_trace( call, a, nnz, path, rep, dt,
		                !cpu_ran                        ? NULL
		                : cpu_code == HYB_SPMV_PICK_MKL ? "mkl"
		                                                : "hyblas" );
}

void hyb_dispatch_spmv( const hyb_call_t* call, const hyb_spmv_args_t* a )
{
	/* The CPU kernels and the conversions run OpenMP regions (see hyb_state_omp_enter). */
	int omp = hyb_state_omp_enter();
	hyb_spmv_dispatch( call, a );
	hyb_state_omp_leave( omp );
}
