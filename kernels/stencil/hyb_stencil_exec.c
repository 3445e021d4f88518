/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil schedule executor: buffers, and each step as copies and a
   kernel through the operations it is given. */
#include "kernels/stencil/hyb_stencil_exec.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/stencil/hyb_stencil_sim.h"
#include "kernels/stencil/hyb_stencil_zfp.h"

/* ------------------------------------------------------------------ host operations */

static void* hyb_sx_host_alloc( void* ctx, size_t bytes, int host )
{
	(void)ctx;
	(void)host;
	return malloc( bytes ? bytes : 1 );
}

static void hyb_sx_host_release( void* ctx, void* p, int host )
{
	(void)ctx;
	(void)host;
	free( p );
}

static hyb_status_t hyb_sx_host_copy( void* ctx, int stream, void* dst, const void* src,
                                      size_t bytes, int dir )
{
	(void)ctx;
	(void)stream;
	(void)dir;
	memmove( dst, src, bytes );
	return HYB_OK;
}

static hyb_status_t hyb_sx_host_compute( void* ctx, int stream, int32_t kind,
                                         const hyb_stencil_args_t* a )
{
	(void)ctx;
	(void)stream;
	return hyb_stencil_sim_step( kind, a );
}

static hyb_status_t hyb_sx_host_finish( void* ctx )
{
	(void)ctx;
	return HYB_OK;
}

const hyb_stencil_exec_ops_t hyb_stencil_host_ops = { NULL,
	                                                  hyb_sx_host_alloc,
	                                                  hyb_sx_host_release,
	                                                  hyb_sx_host_copy,
	                                                  hyb_sx_host_compute,
	                                                  hyb_sx_host_finish,
	                                                  NULL,
	                                                  NULL };

hyb_stencil_sched_in_t hyb_stencil_sched_in( const hyb_stencil_prob_t* p, int32_t scheme, int32_t d,
                                             int32_t k, int64_t steps )
{
	hyb_stencil_roles_t roles;
	memset( &roles, 0, sizeof roles );
	hyb_stencil_roles( p->kind, &roles );
	hyb_stencil_sched_in_t in;
	memset( &in, 0, sizeof in );
	in.scheme   = scheme;
	in.n        = p->nz;
	in.h        = p->radius;
	in.levels   = roles.levels;
	in.inputs   = roles.inputs;
	in.ncoef    = roles.ncoef;
	in.quants   = roles.quants;
	in.d        = d;
	in.k        = k;
	in.steps    = steps;
	in.residual = p->kind == HYB_STENCIL_HIMENO;
	/* Compressed fields move in whole ZFP blocks along the cut axis. */
	in.align = hyb_stencil_compressed( p ) ? HYB_STENCIL_ZFP_ALIGN : 1;
	in.slots = p->slots;
	return in;
}

/* ------------------------------------------------------------------ buffers */

void hyb_stencil_exec_free( hyb_stencil_exec_t* ex )
{
	if ( ex == NULL || ex->ops == NULL ) return;
	const hyb_stencil_exec_ops_t* o = ex->ops;
	for ( int i = 0; i < HYB_SS_SLOTS_MAX; i++ )
	{
		if ( ex->slot[i] ) o->release( o->ctx, ex->slot[i], 0 );
		if ( ex->work[i] ) o->release( o->ctx, ex->work[i], 0 );
		if ( ex->sin[i] ) o->release( o->ctx, ex->sin[i], 1 );
		if ( ex->sout[i] ) o->release( o->ctx, ex->sout[i], 1 );
	}
	if ( ex->res ) o->release( o->ctx, ex->res, 0 );
	memset( ex, 0, sizeof *ex );
}

hyb_status_t hyb_stencil_exec_init( hyb_stencil_exec_t* ex, const hyb_stencil_exec_ops_t* ops,
                                    const hyb_stencil_prob_t* p, const hyb_stencil_sched_t* s )
{
	memset( ex, 0, sizeof *ex );
	hyb_stencil_roles_t roles;
	if ( !hyb_stencil_roles( p->kind, &roles ) ) return HYB_E_INVALID;
	ex->ops          = ops;
	ex->prob         = *p;
	ex->roles        = roles;
	ex->nslots       = s->nslots;
	ex->stage_in     = s->stage_in;
	ex->slot_planes  = s->slot_planes;
	ex->stage_planes = s->stage_planes;
	ex->plane_bytes  = hyb_stencil_plane_bytes( p );
	const size_t arr = (size_t)( s->slot_planes * ex->plane_bytes );
	const size_t nq  = (size_t)roles.quants;
	int          ok  = 1;
	for ( int i = 0; i < s->nslots && ok; i++ )
	{
		ex->slot[i] =
		    ops->alloc( ops->ctx, arr * ( (size_t)roles.levels * nq + (size_t)roles.ncoef ), 0 );
		ok = ex->slot[i] != NULL;
		if ( ok && s->stage_in )
		{
			ex->sin[i] = ops->alloc( ops->ctx,
			                         arr * ( (size_t)roles.inputs * nq + (size_t)roles.ncoef ), 1 );
			ok         = ex->sin[i] != NULL;
		}
		if ( ok && s->stage_planes > 0 )
		{
			ex->sout[i] =
			    ops->alloc( ops->ctx, (size_t)( 2 * s->stage_planes * ex->plane_bytes ) * nq, 1 );
			ok = ex->sout[i] != NULL;
		}
		if ( ok && p->kind == HYB_STENCIL_HIMENO )
		{
			const int64_t len = hyb_stencil_himeno_work_len( p->nx, p->ny, s->slot_planes );
			ex->work[i] =
			    ops->alloc( ops->ctx, (size_t)( len > 0 ? len : 1 ) * sizeof( double ), 0 );
			ok = ex->work[i] != NULL;
		}
	}
	if ( ok && p->kind == HYB_STENCIL_HIMENO )
	{
		/* Zero, so that a run without a last step (T = 0) sums to 0. */
		double* zero = calloc( (size_t)p->nz, sizeof( double ) );
		ex->res      = ops->alloc( ops->ctx, (size_t)p->nz * sizeof( double ), 0 );
		ok           = zero != NULL && ex->res != NULL &&
		     ops->copy( ops->ctx, 0, ex->res, zero, (size_t)p->nz * sizeof( double ),
		                HYB_SX_H2D ) == HYB_OK &&
		     ops->finish( ops->ctx ) == HYB_OK;
		free( zero );
	}
	if ( !ok )
	{
		hyb_stencil_exec_free( ex );
		return HYB_E_NO_MEMORY;
	}
	return HYB_OK;
}

/* ------------------------------------------------------------------ steps */

/* Array a (the levels of each quantity in turn, then the read-only
   fields) of slot i at local plane `plane`. */
static char* hyb_sx_slot( const hyb_stencil_exec_t* ex, int i, int a, int64_t plane )
{
	return (char*)ex->slot[i] + ( (int64_t)a * ex->slot_planes + plane ) * ex->plane_bytes;
}

/* The slot array of time level `level` of quantity qu. */
static int hyb_sx_level( const hyb_stencil_exec_t* ex, int qu, int64_t level )
{
	const int64_t m = ex->roles.levels;
	return qu * (int)m + (int)( ( level % m + m ) % m );
}

/* The slot array of read-only field c. */
static int hyb_sx_coef( const hyb_stencil_exec_t* ex, int c )
{
	return ex->roles.quants * ex->roles.levels + c;
}

/* Host field `role` at plane z. */
static char* hyb_sx_field( const hyb_stencil_exec_t* ex, int role, int64_t z )
{
	return (char*)ex->prob.field[role] + z * ex->plane_bytes;
}

/* Staging-in part q at local plane `plane` (parts: per quantity level t
   and, with two inputs, t-1; then the read-only fields). */
static char* hyb_sx_sin( const hyb_stencil_exec_t* ex, int i, int q, int64_t plane )
{
	return (char*)ex->sin[i] + ( (int64_t)q * ex->slot_planes + plane ) * ex->plane_bytes;
}

static char* hyb_sx_sout( const hyb_stencil_exec_t* ex, int i, int q, int64_t plane )
{
	return (char*)ex->sout[i] + ( (int64_t)q * ex->stage_planes + plane ) * ex->plane_bytes;
}

/* Part q of a stage, upload or share (the inputs of each quantity, then
   the read-only fields): its host field (for a share: any) and slot
   array. */
static void hyb_sx_part( const hyb_stencil_exec_t* ex, const hyb_stencil_step_t* st, int q,
                         int* role, int* arr )
{
	const int nin = ex->roles.inputs, nst = nin * ex->roles.quants;
	if ( q >= nst )
	{
		*role = ex->roles.coef[q - nst];
		*arr  = hyb_sx_coef( ex, q - nst );
		return;
	}
	const int qu = q / nin, j = q % nin;
	*role = hyb_stencil_state_role( &ex->roles, qu, st->src[j] >= 0 ? st->src[j] : 0 );
	*arr  = hyb_sx_level( ex, qu, st->level - j );
}

/* The parts of a stage, upload or share. */
static int hyb_sx_nparts( const hyb_stencil_exec_t* ex )
{
	return ex->roles.inputs * ex->roles.quants + ex->roles.ncoef;
}

/* The inputs of a stage or upload: for each part the host source, the
   staging part and the slot array. */
static hyb_status_t hyb_sx_inputs( hyb_stencil_exec_t* ex, const hyb_stencil_step_t* st )
{
	const hyb_stencil_exec_ops_t* o     = ex->ops;
	const int64_t                 local = st->z0 - st->base;
	const size_t                  bytes = (size_t)( ( st->z1 - st->z0 ) * ex->plane_bytes );
	for ( int q = 0; q < hyb_sx_nparts( ex ); q++ )
	{
		int role, arr;
		hyb_sx_part( ex, st, q, &role, &arr );
		hyb_status_t rc;
		if ( st->op == HYB_SS_STAGE )
			rc = o->copy( o->ctx, st->stream, hyb_sx_sin( ex, st->slot, q, local ),
			              hyb_sx_field( ex, role, st->z0 ), bytes, HYB_SX_H2H );
		else if ( st->src[0] < 0 )
			rc = o->copy( o->ctx, st->stream, hyb_sx_slot( ex, st->slot, arr, local ),
			              hyb_sx_sin( ex, st->slot, q, local ), bytes, HYB_SX_H2D );
		else
			rc = o->copy( o->ctx, st->stream, hyb_sx_slot( ex, st->slot, arr, local ),
			              hyb_sx_field( ex, role, st->z0 ), bytes, HYB_SX_H2D );
		if ( rc != HYB_OK ) return rc;
	}
	return HYB_OK;
}

static hyb_status_t hyb_sx_share( hyb_stencil_exec_t* ex, const hyb_stencil_step_t* st )
{
	const hyb_stencil_exec_ops_t* o     = ex->ops;
	const size_t                  bytes = (size_t)( ( st->z1 - st->z0 ) * ex->plane_bytes );
	for ( int q = 0; q < hyb_sx_nparts( ex ); q++ )
	{
		int role, arr;
		hyb_sx_part( ex, st, q, &role, &arr );
		hyb_status_t rc = o->copy(
		    o->ctx, st->stream, hyb_sx_slot( ex, st->dst_slot, arr, st->z0 - st->dst_base ),
		    hyb_sx_slot( ex, st->slot, arr, st->z0 - st->base ), bytes, HYB_SX_D2D );
		if ( rc != HYB_OK ) return rc;
	}
	return HYB_OK;
}

static hyb_status_t hyb_sx_compute( hyb_stencil_exec_t* ex, const hyb_stencil_step_t* st )
{
	const hyb_stencil_prob_t* p = &ex->prob;
	const void*               coef[HYB_STENCIL_COEFS_MAX];
	const void*               cur[HYB_STENCIL_QUANTS_MAX];
	const void*               prev[HYB_STENCIL_QUANTS_MAX];
	void*                     next[HYB_STENCIL_QUANTS_MAX];
	for ( int c = 0; c < ex->roles.ncoef; c++ )
		coef[c] = hyb_sx_slot( ex, st->slot, hyb_sx_coef( ex, c ), 0 );
	for ( int qu = 0; qu < ex->roles.quants; qu++ )
	{
		cur[qu]  = hyb_sx_slot( ex, st->slot, hyb_sx_level( ex, qu, st->level - 1 ), 0 );
		prev[qu] = hyb_sx_slot( ex, st->slot, hyb_sx_level( ex, qu, st->level - 2 ), 0 );
		next[qu] = hyb_sx_slot( ex, st->slot, hyb_sx_level( ex, qu, st->level ), 0 );
	}
	/* The buffer ends at the domain's end for the last chunks. */
	const int64_t held = p->nz - st->base < ex->slot_planes ? p->nz - st->base : ex->slot_planes;
	const hyb_stencil_box_t box = hyb_stencil_prob_box( p, st->base, held, st->z0, st->z1 );
	hyb_stencil_args_t      a;
	hyb_stencil_prob_args_q( p, &box, cur, prev, next, coef, &a );
	if ( ( st->flags & HYB_SS_RESIDUAL ) && p->kind == HYB_STENCIL_HIMENO )
	{
		a.himeno.plane_ss = ex->res + st->own0;
		a.himeno.own0     = st->own0;
		a.himeno.own1     = st->own1;
		a.himeno.work     = ex->work[st->slot];
	}
	return ex->ops->compute( ex->ops->ctx, st->stream, p->kind, &a );
}

/* A download, commit or host copy of quantity qu's level (staging-out
   parts are per quantity: part + 2 qu). */
static hyb_status_t hyb_sx_level_copy( hyb_stencil_exec_t* ex, const hyb_stencil_step_t* st,
                                       int qu )
{
	const hyb_stencil_exec_ops_t* o     = ex->ops;
	const size_t                  bytes = (size_t)( ( st->z1 - st->z0 ) * ex->plane_bytes );
	const int                     part  = st->part + 2 * qu;
	/* Written: quantity qu's state field `field`, or its staging-out part. */
	char* to =
	    st->field < 0
	        ? hyb_sx_sout( ex, st->slot, part, st->z0 - st->dst_base )
	        : hyb_sx_field( ex, hyb_stencil_state_role( &ex->roles, qu, st->field ), st->z0 );
	switch ( st->op )
	{
	case HYB_SS_DOWNLOAD:
		return o->copy(
		    o->ctx, st->stream, to,
		    hyb_sx_slot( ex, st->slot, hyb_sx_level( ex, qu, st->level ), st->z0 - st->base ),
		    bytes, HYB_SX_D2H );
	case HYB_SS_COMMIT:
		return o->copy( o->ctx, st->stream, to,
		                hyb_sx_sout( ex, st->slot, part, st->z0 - st->dst_base ), bytes,
		                HYB_SX_H2H );
	default:
		return o->copy(
		    o->ctx, st->stream, to,
		    hyb_sx_field( ex, hyb_stencil_state_role( &ex->roles, qu, st->src[0] ), st->z0 ), bytes,
		    HYB_SX_H2H );
	}
}

static hyb_status_t hyb_sx_step( hyb_stencil_exec_t* ex, const hyb_stencil_step_t* st )
{
	switch ( st->op )
	{
	case HYB_SS_STAGE:
	case HYB_SS_UPLOAD:
		return hyb_sx_inputs( ex, st );
	case HYB_SS_SHARE:
		return hyb_sx_share( ex, st );
	case HYB_SS_COMPUTE:
		return hyb_sx_compute( ex, st );
	case HYB_SS_DOWNLOAD:
	case HYB_SS_COMMIT:
	case HYB_SS_HOSTCOPY:
	{
		hyb_status_t rc = HYB_OK;
		for ( int qu = 0; qu < ex->roles.quants && rc == HYB_OK; qu++ )
			rc = hyb_sx_level_copy( ex, st, qu );
		return rc;
	}
	default:
		return HYB_E_INVALID;
	}
}

hyb_status_t hyb_stencil_exec_run( hyb_stencil_exec_t* ex, const hyb_stencil_sched_t* s,
                                   const int64_t* order, int64_t count, int64_t* done )
{
	if ( count < 0 || count > s->nsteps ) count = s->nsteps;
	if ( s->nslots != ex->nslots || s->slot_planes > ex->slot_planes ||
	     s->stage_planes > ex->stage_planes || s->stage_in > ex->stage_in )
		return HYB_E_INVALID;
	hyb_status_t rc = HYB_OK;
	int64_t      i  = 0;
	for ( ; i < count && rc == HYB_OK; i++ )
	{
		const int64_t                 j = order ? order[i] : i;
		const hyb_stencil_exec_ops_t* o = ex->ops;
		rc                              = o->before ? o->before( o->ctx, s, j ) : HYB_OK;
		if ( rc == HYB_OK ) rc = hyb_sx_step( ex, &s->steps[j] );
		if ( rc == HYB_OK && o->after ) rc = o->after( o->ctx, s, j );
		if ( rc != HYB_OK ) break;
	}
	if ( done ) *done = i;
	const hyb_status_t fin = ex->ops->finish( ex->ops->ctx );
	return rc != HYB_OK ? rc : fin;
}

hyb_status_t hyb_stencil_exec_residual( hyb_stencil_exec_t* ex, double* gosa )
{
	*gosa = 0.0;
	if ( ex->res == NULL ) return HYB_OK;
	const int64_t n   = ex->prob.nz;
	double*       tmp = malloc( (size_t)n * sizeof *tmp );
	if ( tmp == NULL ) return HYB_E_NO_MEMORY;
	hyb_status_t rc =
	    ex->ops->copy( ex->ops->ctx, 0, tmp, ex->res, (size_t)n * sizeof *tmp, HYB_SX_D2H );
	if ( rc == HYB_OK ) rc = ex->ops->finish( ex->ops->ctx );
	if ( rc == HYB_OK )
		for ( int64_t z = 0; z < n; z++ ) *gosa += tmp[z];
	free( tmp );
	return rc;
}
