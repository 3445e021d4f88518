/* SPDX-License-Identifier: BSD-3-Clause */
/* Deciding a stencil run from the model, the configuration and the
   parameters. */
#include "dispatch/stencil/hyb_stencil_plan.h"

#include "dispatch/stencil/hyb_stencil_device.h"
#include "kernels/stencil/hyb_stencil_sched.h"
#include "kernels/stencil/hyb_stencil_zfp.h"

#include <stdio.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "policies/hyb_profile.h"
#include "policies/stencil/hyb_stencil_defaults.h"

_Static_assert( HYB_SM_SLOTS_MAX == HYB_SS_SLOTS_MAX,
                "the model plans the slots the schedule has" );

void hyb_stencil_machine( uint64_t device_mem, hyb_stencil_machine_t* m )
{
	const hyb_profile_t* pr = hyb_profile();
	memset( m, 0, sizeof *m );
	m->h2d                   = pr->h2d_pinned;
	m->d2h                   = pr->d2h_pinned;
	m->bidir                 = pr->bidir_pinned;
	m->h2d_pageable          = pr->h2d_pageable;
	m->d2h_pageable          = pr->d2h_pageable;
	m->register_s_per_byte   = pr->register_s_per_byte;
	m->host_copy             = pr->host_copy;
	m->launch                = pr->launch_latency;
	m->dev_bw                = HYB_STENCIL_DEF_DEV_BW;
	m->d2d                   = HYB_STENCIL_DEF_D2D;
	m->cpu_bw                = HYB_STENCIL_DEF_CPU_BW;
	m->codec                 = HYB_STENCIL_DEF_ZFP_BW;
	m->stage_copy            = HYB_STENCIL_DEF_STAGE_COPY;
	m->stage_lock_s_per_byte = HYB_STENCIL_DEF_STAGE_LOCK_S_PB;
	m->slots_max             = (int32_t)hyb_config()->stencil_slots;
	m->dev_mem               = device_mem > 0
	                               ? (double)device_mem
	                               : hyb_cfg_size_bytes( hyb_config()->gpu_mem, HYB_STENCIL_DEF_DEVICE_MEM );
}

void hyb_stencil_work( const hyb_stencil_prob_t* p, int64_t steps,
                       const hyblas_stencil_params_t* prm, hyb_stencil_work_t* w )
{
	hyb_stencil_roles_t roles;
	hyb_stencil_roles( p->kind, &roles );
	memset( w, 0, sizeof *w );
	w->n           = p->nz;
	w->plane_elems = p->nx * p->ny;
	w->elem_bytes  = (int32_t)hyb_stencil_elem_bytes( p->elem );
	w->h           = p->radius;
	w->levels      = roles.levels;
	w->inputs      = roles.inputs;
	w->ncoef       = roles.ncoef;
	w->quants      = roles.quants;
	w->nfields     = p->nfields;
	w->steps       = steps;
	w->residual    = p->kind == HYB_STENCIL_HIMENO;
	w->host_pinned = prm->host_pinned;
	w->no_register = prm->no_register;
	if ( hyb_stencil_compressed( p ) )
	{
		/* Bytes across PCIe per byte of values: rate / bits of a value for a
		   compressed array; stream buffers of pieces at the highest rate. */
		const double bits  = 8.0 * (double)w->elem_bytes;
		const double field = (double)w->n * (double)w->plane_elems * (double)w->elem_bytes;
		const int    fused = hyb_stencil_zfp_fused( p );
		double       in = 0.0, out = 0.0, most = 0.0, coded_in = 0.0, coded_out = 0.0;
		for ( int q = 0; q < roles.quants; q++ )
		{
			const double state = hyb_stencil_state_rate( p, q );
			const double ratio = state != 0.0 ? state / bits : 1.0;
			in += (double)roles.inputs * ratio;
			out += ratio;
			coded_in += state != 0.0 ? (double)roles.inputs : 0.0;
			coded_out += state != 0.0;
			if ( state > most ) most = state;
			if ( state != 0.0 && fused )
				w->zfp_ends_extra += (double)roles.inputs * field * ( 1.0 - ratio );
			else if ( state != 0.0 )
				w->zfp_store_arrays += roles.inputs;
			/* Its levels, and the acoustic's staging of the older one. */
			const int arrays = roles.nstate + ( q == 0 && roles.inputs == 2 );
			if ( state != 0.0 ) w->zfp_bytes += arrays * ratio * field;
		}
		w->zfp_fill_arrays = w->zfp_store_arrays;
		for ( int c = 0; c < roles.ncoef; c++ )
		{
			const double cr = p->rate[roles.coef[c]];
			in += cr != 0.0 ? cr / bits : 1.0;
			coded_in += cr != 0.0;
			if ( cr > most ) most = cr;
			w->zfp_fill_arrays += cr != 0.0;
			w->zfp_bytes += cr != 0.0 ? cr / bits * field : 0.0;
		}
		w->zfp             = 1;
		w->align           = HYB_STENCIL_ZFP_ALIGN;
		w->ratio_in        = in / (double)( roles.inputs * roles.quants + roles.ncoef );
		w->ratio_out       = out / (double)roles.quants;
		w->coded_in        = coded_in / (double)( roles.inputs * roles.quants + roles.ncoef );
		w->coded_out       = coded_out / (double)roles.quants;
		w->zfp_plane_bytes = (double)w->plane_elems * most / 8.0;
		w->zfp_piece_bytes = (double)HYB_STENCIL_ZFP_PIECE_BYTES;
		w->zfp_ring        = HYB_STENCIL_ZFP_RING;
	}
	switch ( p->kind )
	{
	case HYB_STENCIL_ACOUSTIC:
		w->dev_elems = HYB_STENCIL_DEV_ELEMS_ACOUSTIC;
		w->cpu_elems = HYB_STENCIL_CPU_ELEMS_ACOUSTIC;
		break;
	case HYB_STENCIL_HIMENO:
		w->dev_elems = HYB_STENCIL_DEV_ELEMS_HIMENO;
		w->cpu_elems = HYB_STENCIL_CPU_ELEMS_HIMENO;
		break;
	case HYB_STENCIL_WAVE:
		w->dev_elems = HYB_STENCIL_DEV_ELEMS_WAVE;
		w->cpu_elems = HYB_STENCIL_CPU_ELEMS_WAVE;
		break;
	default:
		w->dev_elems = HYB_STENCIL_DEV_ELEMS_GRID;
		w->cpu_elems = HYB_STENCIL_CPU_ELEMS_GRID;
		break;
	}
}

hyblas_status_t hyb_stencil_decide( const hyb_stencil_prob_t* p, int64_t steps,
                                    const hyblas_stencil_params_t* prm, int registered,
                                    hyb_stencil_decision_t* out )
{
	hyb_stencil_decision_t dc;
	memset( &dc, 0, sizeof dc );
	hyb_stencil_machine( prm->device_mem, &dc.mach );
	hyb_stencil_work( p, steps, prm, &dc.work );
	dc.work.registered = registered != 0;
	char plan[160];
	dc.found       = hyb_stencil_choose( &dc.work, &dc.mach, (int32_t)prm->scheme, prm->chunks,
	                                     prm->block_steps, &dc.pred, plan, sizeof plan );
	dc.cpu_seconds = hyb_stencil_predict_cpu( &dc.work, &dc.mach );
	const int forced =
	    prm->scheme != HYBLAS_STENCIL_SCHEME_AUTO || prm->chunks > 0 || prm->block_steps > 0;
	if ( !dc.found && forced ) return HYBLAS_E_INVALID;

	/* Where it runs. */
	const int cpu_asked = prm->path == HYBLAS_PATH_CPU ||
	                      ( prm->path == HYBLAS_PATH_AUTO && hyb_config()->mode == HYB_MODE_CPU );
	const char* where;
	if ( cpu_asked )
		where = "CPU as asked";
	else if ( !dc.found )
		where = "CPU: no device plan fits";
	else if ( prm->path == HYBLAS_PATH_AUTO && dc.cpu_seconds <= dc.pred.seconds )
		where = "CPU: predicted faster";
	else if ( !hyb_stencil_device_usable( p->kind ) )
		where = "CPU: no usable device runs this stencil";
	else
		where = prm->path == HYBLAS_PATH_GPU ? "device as asked" : "device: predicted faster";
	dc.path = where[0] == 'd' ? HYBLAS_PATH_GPU : HYBLAS_PATH_CPU;
	/* Where first, then the plan (cut to fit), then the CPU's time. */
	if ( snprintf( dc.why, sizeof dc.why, "ran on the %s (CPU %.3g s); device plan %s", where,
	               dc.cpu_seconds, plan ) < 0 )
		dc.why[0] = '\0';
	*out = dc;
	return HYBLAS_OK;
}

void hyb_stencil_decision_stats( const hyb_stencil_decision_t* dc, int64_t steps,
                                 hyblas_stencil_stats_t* s )
{
	memset( s, 0, sizeof *s );
	s->struct_size           = sizeof *s;
	s->path                  = dc->path;
	s->steps                 = steps;
	s->predicted_cpu_seconds = dc->cpu_seconds;
	memcpy( s->why, dc->why, sizeof s->why );
	if ( !dc->found ) return;
	const hyb_stencil_pred_t* p = &dc->pred;
	s->scheme                   = (hyblas_stencil_scheme_t)p->scheme;
	s->chunks                   = p->d;
	s->block_steps              = p->k;
	s->slots                    = p->nslots;
	s->in_core                  = p->scheme == HYBLAS_STENCIL_SCHEME_IN_CORE;
	s->bytes_h2d                = (uint64_t)p->bytes_h2d;
	s->bytes_d2h                = (uint64_t)p->bytes_d2h;
	s->bytes_d2d                = (uint64_t)p->bytes_d2d;
	s->bytes_host_copy          = (uint64_t)p->bytes_host;
	s->device_bytes             = (uint64_t)p->device_bytes;
	s->seconds                  = p->seconds;
	s->seconds_h2d              = p->t_h2d;
	s->seconds_d2h              = p->t_d2h;
	s->seconds_d2d              = p->t_d2d;
	s->seconds_kernel           = p->t_kernel;
	s->seconds_host_copy        = p->t_host;
	s->seconds_register         = p->t_register;
	s->predicted_seconds        = p->seconds;
}
