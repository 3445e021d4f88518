/* SPDX-License-Identifier: BSD-3-Clause */
/* Field roles of each stencil and the kernel arguments of one step. */
#include "kernels/stencil/hyb_stencil_prob.h"

#include <string.h>

#include "kernels/stencil/hyb_stencil_cpu.h"

int hyb_stencil_roles( int32_t kind, hyb_stencil_roles_t* roles )
{
	hyb_stencil_roles_t r;
	memset( &r, 0, sizeof r );
	switch ( kind )
	{
	case HYB_STENCIL_ACOUSTIC:
		r.levels   = 3;
		r.inputs   = 2;
		r.nstate   = 3;
		r.state[0] = HYB_ACOUSTIC_PREV;
		r.state[1] = HYB_ACOUSTIC_CUR;
		r.state[2] = HYB_ACOUSTIC_NEXT;
		r.ncoef    = 1;
		r.coef[0]  = HYB_ACOUSTIC_VEL;
		break;
	case HYB_STENCIL_HIMENO:
		r.levels   = 2;
		r.inputs   = 1;
		r.nstate   = 2;
		r.state[0] = HYB_HIMENO_P;
		r.state[1] = HYB_HIMENO_WRK2;
		r.ncoef    = 12;
		for ( int i = 0; i < 12; i++ )
			r.coef[i] = HYB_HIMENO_A0 + i; /* a0..a3 b0..b2 c0..c2 bnd wrk1 */
		break;
	case HYB_STENCIL_LAPLACE:
	case HYB_STENCIL_STAR:
		r.levels   = 2;
		r.inputs   = 1;
		r.nstate   = 2;
		r.state[0] = HYB_GRID_U;
		r.state[1] = HYB_GRID_WORK;
		break;
	default:
		return 0;
	}
	*roles = r;
	return 1;
}

int32_t hyb_stencil_nfields( int32_t kind )
{
	hyb_stencil_roles_t r;
	return hyb_stencil_roles( kind, &r ) ? r.nstate + r.ncoef : 0;
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
	default:
		return HYB_E_INVALID;
	}
}
