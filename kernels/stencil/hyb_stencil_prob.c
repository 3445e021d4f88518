/* SPDX-License-Identifier: BSD-3-Clause */
/* Field roles of each stencil and the kernel arguments of one step. */
#include "kernels/stencil/hyb_stencil_prob.h"

#include <string.h>

#include "kernels/stencil/hyb_stencil_cpu.h"

/* The roles of each kind, by hyb_stencil_kind_t. */
static const hyb_stencil_roles_t hyb_stencil_kind_roles[] = {
	[HYB_STENCIL_ACOUSTIC] = { .levels = 3,
	                           .inputs = 2,
	                           .quants = 1,
	                           .nstate = 3,
	                           .ncoef  = 1,
	                           .state  = { HYB_ACOUSTIC_PREV, HYB_ACOUSTIC_CUR, HYB_ACOUSTIC_NEXT },
	                           .coef   = { HYB_ACOUSTIC_VEL } },
	[HYB_STENCIL_HIMENO]   = { .levels = 2,
	                           .inputs = 1,
	                           .quants = 1,
	                           .nstate = 2,
	                           .ncoef  = 12,
	                           .state  = { HYB_HIMENO_P, HYB_HIMENO_WRK2 },
	                           .coef   = { HYB_HIMENO_A0, HYB_HIMENO_A0 + 1, HYB_HIMENO_A0 + 2,
	                                       HYB_HIMENO_A0 + 3, HYB_HIMENO_B0, HYB_HIMENO_B0 + 1,
	                                       HYB_HIMENO_B0 + 2, HYB_HIMENO_C0, HYB_HIMENO_C0 + 1,
	                                       HYB_HIMENO_C0 + 2, HYB_HIMENO_BND, HYB_HIMENO_WRK1 } },
	[HYB_STENCIL_LAPLACE]  = { .levels = 2,
	                           .inputs = 1,
	                           .quants = 1,
	                           .nstate = 2,
	                           .state  = { HYB_GRID_U, HYB_GRID_WORK } },
	[HYB_STENCIL_STAR]     = { .levels = 2,
	                           .inputs = 1,
	                           .quants = 1,
	                           .nstate = 2,
	                           .state  = { HYB_GRID_U, HYB_GRID_WORK } },
	[HYB_STENCIL_WAVE]     = { .levels = 2,
	                           .inputs = 1,
	                           .quants = 2,
	                           .nstate = 2,
	                           .state  = { HYB_WAVE_P, HYB_WAVE_P_WORK, HYB_WAVE_Q, HYB_WAVE_Q_WORK } },
};

int hyb_stencil_roles( int32_t kind, hyb_stencil_roles_t* roles )
{
	if ( kind < HYB_STENCIL_ACOUSTIC || kind > HYB_STENCIL_WAVE ) return 0;
	*roles = hyb_stencil_kind_roles[kind];
	return 1;
}

int32_t hyb_stencil_nfields( int32_t kind )
{
	hyb_stencil_roles_t r;
	return hyb_stencil_roles( kind, &r ) ? r.quants * r.nstate + r.ncoef : 0;
}

int64_t hyb_stencil_elem_bytes( int32_t elem )
{
	return elem == HYB_STENCIL_F64 ? 8 : 4;
}

int64_t hyb_stencil_plane_bytes( const hyb_stencil_prob_t* p )
{
	return p->nx * p->ny * hyb_stencil_elem_bytes( p->elem );
}

hyb_stencil_box_t hyb_stencil_prob_box( const hyb_stencil_prob_t* p, int64_t base, int64_t planes,
                                        int64_t z0, int64_t z1 )
{
	hyb_stencil_box_t b;
	b.nx     = p->nx;
	b.ny     = p->ny;
	b.nz     = p->nz;
	b.base   = base;
	b.planes = planes;
	b.z0     = z0;
	b.z1     = z1;
	b.elem   = p->elem;
	b.dims   = p->dims;
	b.radius = p->radius;
	return b;
}

void hyb_stencil_prob_args( const hyb_stencil_prob_t* p, const hyb_stencil_box_t* box,
                            const void* cur, const void* prev, void* next, const void* const* coef,
                            hyb_stencil_args_t* out )
{
	/* Room for every quantity a kind can have: a second one stays NULL here. */
	const void* curs[HYB_STENCIL_QUANTS_MAX]  = { cur };
	const void* prevs[HYB_STENCIL_QUANTS_MAX] = { prev };
	void*       nexts[HYB_STENCIL_QUANTS_MAX] = { next };
	hyb_stencil_prob_args_q( p, box, curs, prevs, nexts, coef, out );
}

void hyb_stencil_prob_args_q( const hyb_stencil_prob_t* p, const hyb_stencil_box_t* box,
                              const void* const* curs, const void* const* prevs, void* const* nexts,
                              const void* const* coef, hyb_stencil_args_t* out )
{
	const void* cur  = curs[0];
	const void* prev = prevs[0];
	void*       next = nexts[0];
	memset( out, 0, sizeof *out );
	switch ( p->kind )
	{
	case HYB_STENCIL_ACOUSTIC:
	{
		hyb_stencil_acoustic_args_t* a = &out->acoustic;
		a->box                         = *box;
		a->cur                         = cur;
		a->prev                        = prev;
		a->next                        = next;
		a->vel                         = coef[0];
		a->ix                          = 1.0 / ( p->dx * p->dx );
		a->iy                          = 1.0 / ( p->dy * p->dy );
		a->iz                          = 1.0 / ( p->dz * p->dz );
		a->center                      = ( a->ix + a->iy + a->iz ) * HYB_ACOUSTIC_C0;
		a->dt2                         = p->dt * p->dt;
		break;
	}
	case HYB_STENCIL_HIMENO:
	{
		hyb_stencil_himeno_args_t* a = &out->himeno;
		a->box                       = *box;
		a->p                         = cur;
		a->p_new                     = next;
		for ( int i = 0; i < 4; i++ ) a->a[i] = coef[i];
		for ( int i = 0; i < 3; i++ )
		{
			a->b[i] = coef[4 + i];
			a->c[i] = coef[7 + i];
		}
		a->bnd   = coef[10];
		a->wrk1  = coef[11];
		a->omega = p->omega;
		break;
	}
	case HYB_STENCIL_LAPLACE:
		out->laplace.box   = *box;
		out->laplace.u     = cur;
		out->laplace.u_new = next;
		break;
	case HYB_STENCIL_STAR:
		out->star.box    = *box;
		out->star.u      = cur;
		out->star.u_new  = next;
		out->star.center = p->center;
		memcpy( out->star.coef, p->coef, sizeof out->star.coef );
		break;
	case HYB_STENCIL_WAVE:
	{
		hyb_stencil_wave_args_t* a = &out->wave;
		a->box                     = *box;
		a->p                       = cur;
		a->p_new                   = next;
		a->q                       = curs[1];
		a->q_new                   = nexts[1];
		a->ix                      = 1.0 / ( p->dx * p->dx );
		a->iz                      = 1.0 / ( p->dy * p->dy );
		a->center                  = 2.0 * ( a->ix + a->iz );
		a->decay                   = 1.0 - p->damping * p->dt;
		a->c2dt                    = p->speed * p->speed * p->dt;
		a->dt                      = p->dt;
		break;
	}
	default:
		break;
	}
}

hyb_status_t hyb_stencil_step_cpu( int32_t kind, const hyb_stencil_args_t* a, int nthreads )
{
	switch ( kind )
	{
	case HYB_STENCIL_ACOUSTIC:
		return hyb_stencil_acoustic_cpu( &a->acoustic, nthreads );
	case HYB_STENCIL_HIMENO:
		return hyb_stencil_himeno_cpu( &a->himeno, nthreads );
	case HYB_STENCIL_LAPLACE:
		return hyb_stencil_laplace_cpu( &a->laplace, nthreads );
	case HYB_STENCIL_STAR:
		return hyb_stencil_star_cpu( &a->star, nthreads );
	case HYB_STENCIL_WAVE:
		return hyb_stencil_wave_cpu( &a->wave, nthreads );
	default:
		return HYB_E_INVALID;
	}
}
