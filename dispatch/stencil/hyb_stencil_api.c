/* SPDX-License-Identifier: BSD-3-Clause */
/* The public stencil API (include/hyblas/stencil.h): handles, and each call
   as validate -> plan -> run -> statistics. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/stencil/hyb_stencil_check.h"
#include "dispatch/stencil/hyb_stencil_device.h"
#include "dispatch/stencil/hyb_stencil_plan.h"
#include "hyb_op.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "hyb_types.h"
#include "kernels/stencil/hyb_stencil_cpurun.h"
#include "kernels/stencil/hyb_stencil_data.h"

#define HYB_STENCIL_EXPORT __attribute__( ( visibility( "default" ) ) )

struct hyblas_stencil_s
{
	hyblas_stencil_desc_t desc; /* defaults resolved */
	hyb_stencil_prob_t    prob;
};

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_create( const hyblas_stencil_desc_t* desc,
                                                          hyblas_stencil_t**           out )
{
	if ( out == NULL ) return HYBLAS_E_INVALID;
	hyblas_stencil_desc_t d;
	hyb_stencil_prob_t    p;
	const hyblas_status_t rc = hyb_stencil_desc_check( desc, &d, &p );
	if ( rc != HYBLAS_OK ) return rc;
	hyblas_stencil_t* st = malloc( sizeof *st );
	if ( st == NULL ) return HYBLAS_E_NO_MEMORY;
	st->desc = d;
	st->prob = p;
	*out     = st;
	return HYBLAS_OK;
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_destroy( hyblas_stencil_t* st )
{
	free( st );
	return HYBLAS_OK;
}

/* The checks every call shares; *prm and *dc on success. */
static hyblas_status_t hyb_stencil_prepare( const hyblas_stencil_t* st, int64_t steps,
                                            const hyblas_stencil_params_t* params,
                                            const hyblas_stencil_stats_t*  stats,
                                            hyblas_stencil_params_t*       prm,
                                            hyb_stencil_decision_t*        dc )
{
	if ( st == NULL || steps < 0 ) return HYBLAS_E_INVALID;
	hyblas_status_t rc = hyb_stencil_stats_ok( stats );
	if ( rc == HYBLAS_OK ) rc = hyb_stencil_params_check( params, st->prob.nz, prm );
	if ( rc == HYBLAS_OK ) rc = hyb_stencil_decide( &st->prob, steps, prm, dc );
	return rc;
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_plan( const hyblas_stencil_t* st, int64_t steps,
                                                        const hyblas_stencil_params_t* params,
                                                        hyblas_stencil_stats_t*        plan )
{
	hyblas_stencil_params_t prm;
	hyb_stencil_decision_t  dc;
	const hyblas_status_t   rc = hyb_stencil_prepare( st, steps, params, plan, &prm, &dc );
	if ( rc != HYBLAS_OK ) return rc;
	hyblas_stencil_stats_t s;
	hyb_stencil_decision_stats( &dc, steps, &s );
	/* A run on the CPU would take the CPU's time. */
	if ( dc.path == HYBLAS_PATH_CPU ) s.seconds = dc.cpu_seconds;
	return hyb_stencil_stats_put( &s, plan );
}

/* The operation every run is counted as (hyb_calls("hyblas_stencil_run")). */
static hyb_op_id_t hyb_stencil_op( void )
{
	static atomic_int op = HYB_OP_NONE;
	if ( atomic_load( &op ) == HYB_OP_NONE )
		atomic_store( &op, hyb_op_register( "hyblas_stencil_run", "stencil" ) );
	return atomic_load( &op );
}

/* The run's trace line. */
static void hyb_stencil_trace( const hyb_stencil_prob_t* p, hyb_path_t path,
                               const hyblas_stencil_stats_t* s )
{
	static const char* kinds[] = { "", "acoustic", "himeno", "laplace", "star" };
	char               shape[128], extra[192];
	snprintf( shape, sizeof shape, "nx=%lld ny=%lld nz=%lld r=%d steps=%lld", (long long)p->nx,
	          (long long)p->ny, (long long)p->nz, (int)p->radius, (long long)s->steps );
	snprintf( extra, sizeof extra, " scheme=%d d=%d k=%d h2d=%.0f d2h=%.0f d2d=%.0f",
	          (int)s->scheme, (int)s->chunks, (int)s->block_steps, (double)s->bytes_h2d,
	          (double)s->bytes_d2h, (double)s->bytes_d2d );
	hyb_trace_fields_t f = { .op       = hyb_stencil_op(),
		                     .kind     = p->kind >= 1 && p->kind <= 4 ? kinds[p->kind] : "",
		                     .shape    = shape,
		                     .path     = hyb_path_name( path ),
		                     .pred_cpu = s->predicted_cpu_seconds,
		                     .pred_gpu = s->predicted_seconds,
		                     .pred     = s->path == HYBLAS_PATH_GPU ? s->predicted_seconds
		                                                            : s->predicted_cpu_seconds,
		                     .seconds  = s->seconds,
		                     .extra    = extra,
		                     .why      = s->why };
	hyb_trace_line( &f );
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_run( hyblas_stencil_t* st, int64_t steps,
                                                       const hyblas_stencil_params_t* params,
                                                       hyblas_stencil_stats_t*        stats )
{
	const double            t0 = hyb_now();
	hyblas_stencil_params_t prm;
	hyb_stencil_decision_t  dc;
	hyblas_status_t         rc = hyb_stencil_prepare( st, steps, params, stats, &prm, &dc );
	if ( rc != HYBLAS_OK ) return rc;
	hyblas_stencil_stats_t s;
	hyb_stencil_decision_stats( &dc, steps, &s );
	double     residual = 0.0;
	hyb_path_t path     = HYB_PATH_CPU;
	if ( dc.path == HYBLAS_PATH_GPU )
	{
		hyb_stencil_dev_stats_t ds;
		const hyb_status_t      drc = hyb_stencil_device_run( &st->prob, steps, dc.pred.scheme,
		                                                      dc.pred.d, dc.pred.k, &residual, &ds );
		if ( drc == HYB_OK )
		{
			path              = HYB_PATH_GPU;
			s.bytes_h2d       = (uint64_t)ds.bytes_h2d;
			s.bytes_d2h       = (uint64_t)ds.bytes_d2h;
			s.bytes_d2d       = (uint64_t)ds.bytes_d2d;
			s.bytes_host_copy = (uint64_t)ds.bytes_host;
			s.seconds_h2d = s.seconds_d2h = s.seconds_d2d = s.seconds_kernel = s.seconds_host_copy =
			    0.0;
			s.seconds_register = ds.seconds_setup;
		}
		else
		{
			/* The fields are as the caller gave them: the CPU path starts over. */
			path        = HYB_PATH_FALLBACK;
			s.fell_back = 1;
			s.path      = HYBLAS_PATH_CPU;
			hyb_stats_fallback( hyb_stencil_op() );
		}
	}
	if ( path != HYB_PATH_GPU )
	{
		const double       t1 = hyb_now();
		const hyb_status_t krc =
		    hyb_stencil_cpu_run( &st->prob, steps, prm.cpu_threads, &residual );
		if ( krc == HYB_E_NO_MEMORY ) return HYBLAS_E_NO_MEMORY;
		if ( krc != HYB_OK ) return HYBLAS_E_INTERNAL;
		/* Nothing crossed PCIe; the device plan's predictions stay. */
		s.bytes_h2d = s.bytes_d2h = s.bytes_d2d = s.bytes_host_copy = 0;
		s.seconds_h2d = s.seconds_d2h = s.seconds_d2d = s.seconds_kernel = s.seconds_host_copy =
		    0.0;
		s.seconds_register = 0.0;
		s.seconds_cpu      = hyb_now() - t1;
	}
	s.residual = residual;
	s.seconds  = hyb_now() - t0;
	hyb_stats_record( hyb_stencil_op(), path, s.seconds, 0.0,
	                  (double)( s.bytes_h2d + s.bytes_d2h ) );
	hyb_stencil_trace( &st->prob, path, &s );
	return hyb_stencil_stats_put( &s, stats );
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_solve( const hyblas_stencil_desc_t*   desc,
                                                         int64_t                        steps,
                                                         const hyblas_stencil_params_t* params,
                                                         hyblas_stencil_stats_t*        stats )
{
	hyblas_stencil_t*     st = NULL;
	const hyblas_status_t rc = hyblas_stencil_create( desc, &st );
	if ( rc != HYBLAS_OK ) return rc;
	const hyblas_status_t rr = hyblas_stencil_run( st, steps, params, stats );
	hyblas_stencil_destroy( st );
	return rr;
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_fill( const hyblas_stencil_desc_t* desc )
{
	hyblas_stencil_desc_t d;
	hyb_stencil_prob_t    p;
	const hyblas_status_t rc = hyb_stencil_desc_check( desc, &d, &p );
	if ( rc != HYBLAS_OK ) return rc;
	hyb_stencil_fill( &p );
	return HYBLAS_OK;
}
