/* SPDX-License-Identifier: BSD-3-Clause */
/* The public stencil API (include/hyblas/stencil.h): handles, and each call
   as validate -> plan -> run -> statistics. */
#include <stdlib.h>
#include <string.h>

#include "dispatch/stencil/hyb_stencil_check.h"
#include "dispatch/stencil/hyb_stencil_plan.h"
#include "hyb_types.h"
#include "kernels/stencil/hyb_stencil_cpurun.h"
#include "kernels/stencil/hyb_stencil_data.h"

#define HYB_STENCIL_EXPORT __attribute__( ( visibility( "default" ) ) )

struct hyblas_stencil_s
{
	hyblas_stencil_desc_t desc; /* defaults resolved */
	hyb_stencil_prob_t    prob;
};

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_create( const hyblas_stencil_desc_t* desc, hyblas_stencil_t** out )
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
                                            const hyblas_stencil_stats_t* stats, hyblas_stencil_params_t* prm,
                                            hyb_stencil_decision_t* dc )
{
	if ( st == NULL || steps < 0 ) return HYBLAS_E_INVALID;
	hyblas_status_t rc = hyb_stencil_stats_ok( stats );
	if ( rc == HYBLAS_OK ) rc = hyb_stencil_params_check( params, st->prob.nz, prm );
	if ( rc == HYBLAS_OK ) rc = hyb_stencil_decide( &st->prob, steps, prm, dc );
	return rc;
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_plan( const hyblas_stencil_t* st, int64_t steps,
                                                         const hyblas_stencil_params_t* params,
                                                         hyblas_stencil_stats_t* plan )
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

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_run( hyblas_stencil_t* st, int64_t steps,
                                                        const hyblas_stencil_params_t* params,
                                                        hyblas_stencil_stats_t* stats )
{
	const double            t0 = hyb_now();
	hyblas_stencil_params_t prm;
	hyb_stencil_decision_t  dc;
	hyblas_status_t         rc = hyb_stencil_prepare( st, steps, params, stats, &prm, &dc );
	if ( rc != HYBLAS_OK ) return rc;
	double             residual = 0.0;
	const double       t1       = hyb_now();
	const hyb_status_t krc      = hyb_stencil_cpu_run( &st->prob, steps, prm.cpu_threads, &residual );
	if ( krc == HYB_E_NO_MEMORY ) return HYBLAS_E_NO_MEMORY;
	if ( krc != HYB_OK ) return HYBLAS_E_INTERNAL;
	hyblas_stencil_stats_t s;
	hyb_stencil_decision_stats( &dc, steps, &s );
	/* Nothing crossed PCIe; the device plan's predictions stay. */
	s.bytes_h2d = s.bytes_d2h = s.bytes_d2d = s.bytes_host_copy = 0;
	s.seconds_h2d = s.seconds_d2h = s.seconds_d2d = s.seconds_kernel = s.seconds_host_copy = 0.0;
	s.seconds_register                                                                    = 0.0;
	s.seconds_cpu = hyb_now() - t1;
	s.residual    = residual;
	s.seconds     = hyb_now() - t0;
	return hyb_stencil_stats_put( &s, stats );
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_solve( const hyblas_stencil_desc_t* desc, int64_t steps,
                                                          const hyblas_stencil_params_t* params,
                                                          hyblas_stencil_stats_t* stats )
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
