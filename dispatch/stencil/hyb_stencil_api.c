/* SPDX-License-Identifier: BSD-3-Clause */
/* The public stencil API (include/hyblas/stencil.h): handles, and each call
   as validate -> plan -> run -> statistics. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_host_mem.h"
#include "dispatch/stencil/hyb_stencil_check.h"
#include "dispatch/stencil/hyb_stencil_device.h"
#include "dispatch/stencil/hyb_stencil_plan.h"
#include "hyb_op.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "hyb_types.h"
#include "kernels/stencil/hyb_stencil_cpurun.h"
#include "kernels/stencil/hyb_stencil_data.h"
#include "kernels/stencil/hyb_stencil_zfp.h"

#define HYB_STENCIL_EXPORT __attribute__( ( visibility( "default" ) ) )

struct hyblas_stencil_s
{
	hyblas_stencil_desc_t desc; /* defaults resolved */
	hyb_stencil_prob_t    prob;
	/* The caller's arrays page-locked by a device run, kept so until
	   destroy (the arrays outlive the handle, unmoved: the API's contract). */
	int           registered;
	unsigned char locked[HYB_STENCIL_FIELDS_MAX];
	/* The device runs' rollback copy of the input levels and their
	   compressed arrays, held until destroy so that only the first run
	   pays for touching and page-locking them. */
	hyb_stencil_held_t held;
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
	memset( st, 0, sizeof *st );
	st->desc = d;
	st->prob = p;
	*out     = st;
	return HYBLAS_OK;
}

HYB_STENCIL_EXPORT hyblas_status_t hyblas_stencil_destroy( hyblas_stencil_t* st )
{
	if ( st && st->registered ) hyb_stencil_device_unregister( &st->prob, st->locked );
	if ( st ) hyb_stencil_held_free( &st->held );
	free( st );
	return HYBLAS_OK;
}

/* Which of the problem's arrays lie in page-locked blocks of hyblas_host_alloc (those need
   no page-locking of their own): skip[f] for each, and 1 when every array present does. */
static int hyb_stencil_host_locked( const hyb_stencil_prob_t* p,
                                    unsigned char             skip[HYB_STENCIL_FIELDS_MAX] )
{
	const size_t fbytes = (size_t)( hyb_stencil_plane_bytes( p ) * p->nz );
	int          all    = 1;
	memset( skip, 0, HYB_STENCIL_FIELDS_MAX );
	for ( int f = 0; f < p->nfields && f < HYB_STENCIL_FIELDS_MAX; f++ )
		if ( p->field[f] )
		{
			skip[f] = (unsigned char)hyb_host_mem_pinned( p->field[f], fbytes );
			all &= skip[f];
		}
	return all;
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
	if ( rc != HYBLAS_OK ) return rc;
	/* Arrays from hyblas_host_alloc are the caller's page-locked arrays, flag or not. */
	unsigned char skip[HYB_STENCIL_FIELDS_MAX];
	if ( hyb_stencil_host_locked( &st->prob, skip ) ) prm->host_pinned = 1;
	if ( hyb_stencil_compressed( &st->prob ) )
	{
		/* Compressed fields move only through the direct and shared schemes. */
		if ( prm->scheme == HYBLAS_STENCIL_SCHEME_IN_CORE ||
		     prm->scheme == HYBLAS_STENCIL_SCHEME_COPY )
			return HYBLAS_E_UNSUPPORTED;
		if ( prm->fidelity_every > 0 && ( steps + prm->fidelity_every - 1 ) / prm->fidelity_every >
		                                    HYBLAS_STENCIL_FIDELITY_MAX )
			return HYBLAS_E_INVALID;
	}
	return hyb_stencil_decide( &st->prob, steps, prm, st->registered, dc );
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
                               const hyblas_stencil_stats_t* s, double keep_wait, int64_t pauses )
{
	static const char* kinds[] = { "", "acoustic", "himeno", "laplace", "star", "wave" };
	char               shape[128], extra[256];
	snprintf( shape, sizeof shape, "nx=%lld ny=%lld nz=%lld r=%d steps=%lld", (long long)p->nx,
	          (long long)p->ny, (long long)p->nz, (int)p->radius, (long long)s->steps );
	snprintf( extra, sizeof extra,
	          " scheme=%d d=%d k=%d h2d=%.0f d2h=%.0f d2d=%.0f pipeline=%.3f keep_wait=%.3f "
	          "host=%.3f register=%.3f pauses=%lld",
	          (int)s->scheme, (int)s->chunks, (int)s->block_steps, (double)s->bytes_h2d,
	          (double)s->bytes_d2h, (double)s->bytes_d2d, s->seconds_kernel, keep_wait,
	          s->seconds_host_copy, s->seconds_register, (long long)pauses );
	hyb_trace_fields_t f = { .op       = hyb_stencil_op(),
		                     .kind     = p->kind >= 1 && p->kind <= 5 ? kinds[p->kind] : "",
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

/* The fidelity check: an uncompressed reference run's samples at each
   checkpoint, then the compressed run's errors against them. */
typedef struct
{
	const hyb_stencil_prob_t* p;
	int64_t                   points, nsamp;
	int32_t                   count; /* checkpoints sampled (reference) or compared */
	double*                   ref;   /* per checkpoint nsamp samples */
	double*                   got;   /* nsamp */
	hyblas_stencil_stats_t*   s;
} hyb_stencil_fid_t;

static void hyb_stencil_fid_collect( void* ctx, int64_t t, const void* newest )
{
	hyb_stencil_fid_t* f = ctx;
	(void)t;
	if ( f->count >= HYBLAS_STENCIL_FIDELITY_MAX ) return;
	hyb_stencil_sample( f->p, newest, f->points, f->ref + (size_t)f->count * (size_t)f->nsamp );
	f->count++;
}

static void hyb_stencil_fid_compare( void* ctx, int64_t t, const void* newest )
{
	hyb_stencil_fid_t*      f = ctx;
	hyblas_stencil_stats_t* s = f->s;
	const int32_t           i = s->fidelity_checks;
	if ( i >= f->count ) return;
	hyb_stencil_sample( f->p, newest, f->points, f->got );
	hyb_stencil_err_t e;
	hyb_stencil_sample_error( f->got, f->ref + (size_t)i * (size_t)f->nsamp, f->nsamp, &e );
	hyblas_stencil_fidelity_t* o = &s->fidelity[i];
	o->step                      = t;
	o->points                    = e.points;
	o->max_abs                   = e.max_abs;
	o->mean_abs                  = e.points ? e.sum_abs / (double)e.points : 0.0;
	o->max_rel                   = e.max_rel;
	o->mean_rel                  = e.rel_points ? e.sum_rel / (double)e.rel_points : 0.0;
	s->fidelity_checks           = i + 1;
}

/* The reference: the call's steps without compression on a copy of the
   time levels, on the device when the run goes there (the CPU if that
   fails), sampled every `every` steps. */
static hyb_status_t hyb_stencil_fid_reference( const hyb_stencil_prob_t*     p,
                                               const hyb_stencil_decision_t* dc, int64_t steps,
                                               int64_t every, int nthreads, hyb_stencil_fid_t* f )
{
	hyb_stencil_roles_t roles;
	hyb_stencil_roles( p->kind, &roles );
	const size_t       fbytes                    = (size_t)( hyb_stencil_plane_bytes( p ) * p->nz );
	hyb_stencil_prob_t ref                       = *p;
	ref.slots                                    = dc->pred.nslots;
	void*        lev[HYB_STENCIL_QUANTS_MAX * 3] = { NULL };
	hyb_status_t rc                              = HYB_OK;
	memset( ref.rate, 0, sizeof ref.rate );
	for ( int j = 0; j < roles.quants * roles.nstate && rc == HYB_OK; j++ )
	{
		lev[j] = malloc( fbytes );
		if ( lev[j] == NULL )
			rc = HYB_E_NO_MEMORY;
		else
		{
			memcpy( lev[j], p->field[roles.state[j]], fbytes );
			ref.field[roles.state[j]] = lev[j];
		}
	}
	const int64_t checks = ( steps + every - 1 ) / every;
	f->p                 = p;
	f->nsamp             = hyb_stencil_sample( p, NULL, f->points, NULL );
	f->ref = rc == HYB_OK ? malloc( (size_t)( checks * f->nsamp ) * sizeof( double ) ) : NULL;
	f->got = rc == HYB_OK ? malloc( (size_t)f->nsamp * sizeof( double ) ) : NULL;
	if ( rc == HYB_OK && ( f->ref == NULL || f->got == NULL ) ) rc = HYB_E_NO_MEMORY;
	hyb_status_t dr = HYB_E_DEVICE;
	if ( rc == HYB_OK && dc->path == HYBLAS_PATH_GPU )
	{
		double                  res;
		hyb_stencil_dev_stats_t ds;
		dr = hyb_stencil_device_run( &ref, steps, dc->pred.scheme, dc->pred.d, dc->pred.k, every,
		                             hyb_stencil_fid_collect, f, NULL, &res, &ds );
	}
	if ( rc == HYB_OK && dr != HYB_OK )
	{
		f->count = 0;
		rc       = hyb_stencil_cpu_run_lossy( &ref, steps, 1, every, nthreads, NULL,
		                                      hyb_stencil_fid_collect, f );
	}
	for ( int j = 0; j < HYB_STENCIL_QUANTS_MAX * 3; j++ ) free( lev[j] );
	return rc;
}

/* A copy of `p` without compression: what a fallback runs. */
static hyb_stencil_prob_t hyb_stencil_exact( const hyb_stencil_prob_t* p )
{
	hyb_stencil_prob_t q = *p;
	memset( q.rate, 0, sizeof q.rate );
	return q;
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
	double     residual  = 0.0;
	double     keep_wait = 0.0; /* of a device run, for the trace */
	int64_t    pauses    = 0;   /* likewise: of its paced downloads */
	hyb_path_t path      = HYB_PATH_CPU;
	/* Compression: the block depth of the round trips is the device plan's
	   on either path, so that both compute the same bits. */
	int32_t nzip = 0;
	for ( int32_t f = 0; f < st->prob.nfields; f++ ) nzip += st->prob.rate[f] != 0.0;
	const int64_t     every = nzip && steps > 0 ? prm.fidelity_every : 0;
	const int32_t     kzip  = dc.pred.k > 0 ? dc.pred.k : (int32_t)( steps > 0 ? steps : 1 );
	hyb_stencil_fid_t fid;
	memset( &fid, 0, sizeof fid );
	fid.points = prm.fidelity_points > 0 ? prm.fidelity_points : 20000000;
	fid.s      = &s;
	if ( every > 0 )
	{
		const hyb_status_t frc =
		    hyb_stencil_fid_reference( &st->prob, &dc, steps, every, prm.cpu_threads, &fid );
		if ( frc != HYB_OK )
		{
			free( fid.ref );
			free( fid.got );
			return frc == HYB_E_NO_MEMORY ? HYBLAS_E_NO_MEMORY : HYBLAS_E_INTERNAL;
		}
	}
	hyb_stencil_check_fn check = every > 0 ? hyb_stencil_fid_compare : NULL;
	/* Direct mapping and in core DMA from the caller's arrays: page-lock
	   them at the first such run (the model charged it), unless they are
	   page-locked already or may not be. */
	double    reg_s  = 0.0;
	const int scheme = dc.pred.scheme;
	if ( dc.path == HYBLAS_PATH_GPU && !st->registered && !prm.host_pinned && !prm.no_register &&
	     scheme != HYBLAS_STENCIL_SCHEME_COPY )
	{
		unsigned char skip[HYB_STENCIL_FIELDS_MAX];
		hyb_stencil_host_locked( &st->prob, skip );
		reg_s          = hyb_stencil_device_register( &st->prob, skip, st->locked );
		st->registered = 1;
	}
	st->prob.slots = dc.pred.nslots;
	if ( dc.path == HYBLAS_PATH_GPU )
	{
		hyb_stencil_dev_stats_t ds;
		const hyb_status_t      drc =
		    hyb_stencil_device_run( &st->prob, steps, dc.pred.scheme, dc.pred.d, dc.pred.k, every,
		                            check, &fid, &st->held, &residual, &ds );
		if ( drc == HYB_OK )
		{
			path              = HYB_PATH_GPU;
			keep_wait         = ds.seconds_keep_wait;
			pauses            = ds.pauses;
			s.bytes_h2d       = (uint64_t)ds.bytes_h2d;
			s.bytes_d2h       = (uint64_t)ds.bytes_d2h;
			s.bytes_d2d       = (uint64_t)ds.bytes_d2d;
			s.bytes_host_copy = (uint64_t)ds.bytes_host;
			s.bytes_h2d_raw   = (uint64_t)ds.bytes_h2d_raw;
			s.bytes_d2h_raw   = (uint64_t)ds.bytes_d2h_raw;
			/* The stages overlap inside the pipeline: its wall time stands
			   for them, beside the host work around it. */
			s.seconds_h2d = s.seconds_d2h = s.seconds_d2d = 0.0;
			s.seconds_kernel                              = ds.seconds_pipeline;
			s.seconds_host_copy                           = ds.seconds_setup + ds.seconds_final;
			s.seconds_register                            = reg_s + ds.seconds_pin;
			s.compressed_fields                           = nzip;
		}
		else
		{
			/* The fields are as the caller gave them: the CPU path starts over,
			   uncompressed, and there is no compressed run to check. */
			path              = HYB_PATH_FALLBACK;
			s.fell_back       = 1;
			s.path            = HYBLAS_PATH_CPU;
			s.fidelity_checks = 0;
			memset( s.fidelity, 0, sizeof s.fidelity );
			hyb_stats_fallback( hyb_stencil_op() );
		}
	}
	if ( path != HYB_PATH_GPU )
	{
		const double             t1    = hyb_now();
		const hyb_stencil_prob_t exact = hyb_stencil_exact( &st->prob );
		const int                lossy = path == HYB_PATH_CPU && nzip > 0;
		const hyb_status_t       krc =
            lossy ? hyb_stencil_cpu_run_lossy( &st->prob, steps, kzip, every, prm.cpu_threads,
		                                             &residual, check, &fid )
		                : hyb_stencil_cpu_run( &exact, steps, prm.cpu_threads, &residual );
		free( fid.ref );
		free( fid.got );
		if ( krc == HYB_E_NO_MEMORY ) return HYBLAS_E_NO_MEMORY;
		if ( krc != HYB_OK ) return HYBLAS_E_INTERNAL;
		/* Nothing crossed PCIe; the device plan's predictions stay. */
		s.bytes_h2d = s.bytes_d2h = s.bytes_d2d = s.bytes_host_copy = 0;
		s.bytes_h2d_raw = s.bytes_d2h_raw = 0;
		s.seconds_h2d = s.seconds_d2h = s.seconds_d2d = s.seconds_kernel = s.seconds_host_copy =
		    0.0;
		s.seconds_register  = 0.0;
		s.seconds_cpu       = hyb_now() - t1;
		s.compressed_fields = lossy ? nzip : 0;
	}
	else
	{
		free( fid.ref );
		free( fid.got );
	}
	s.residual = residual;
	s.seconds  = hyb_now() - t0;
	hyb_stats_record( hyb_stencil_op(), path, s.seconds, 0.0,
	                  (double)( s.bytes_h2d + s.bytes_d2h ) );
	hyb_stencil_trace( &st->prob, path, &s, keep_wait, pauses );
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
