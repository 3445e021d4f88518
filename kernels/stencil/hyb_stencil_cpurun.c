/* SPDX-License-Identifier: BSD-3-Clause */
/* The whole-domain CPU path of the stencil family. */
#include "kernels/stencil/hyb_stencil_cpurun.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

void hyb_stencil_copy_planes( const hyb_stencil_prob_t* p, void* dst, const void* src, int64_t z0,
                              int64_t z1, int nthreads )
{
	const int64_t pb  = hyb_stencil_plane_bytes( p );
	const int     nth = nthreads > 0 ? nthreads : omp_get_max_threads();
#pragma omp parallel for num_threads( nth ) schedule( static )
	for ( int64_t z = z0; z < z1; z++ )
		memcpy( (char*)dst + z * pb, (const char*)src + z * pb, (size_t)pb );
}

/* One quantity's levels lev[0 .. m) into place, the newest in lev[i]: the
   newest into the first input's role, and with three levels PREV = p(T-1),
   CUR = p(T), in an order that reads each level before it is
   overwritten. */
static void hyb_stencil_cpu_place( const hyb_stencil_prob_t* p, void* const* lev, int m, int i,
                                   int nthreads )
{
	const int64_t nz     = p->nz;
	void* const   newest = lev[i];
	void* const   older  = lev[( i - 1 + m ) % m];
	if ( m == 2 && newest != lev[0] ) hyb_stencil_copy_planes( p, lev[0], newest, 0, nz, nthreads );
	if ( m != 3 ) return;
	if ( newest == lev[0] )
	{
		hyb_stencil_copy_planes( p, lev[1], newest, 0, nz, nthreads );
		hyb_stencil_copy_planes( p, lev[0], older, 0, nz, nthreads );
	}
	else
	{
		if ( older != lev[0] ) hyb_stencil_copy_planes( p, lev[0], older, 0, nz, nthreads );
		if ( newest != lev[1] ) hyb_stencil_copy_planes( p, lev[1], newest, 0, nz, nthreads );
	}
}

hyb_status_t hyb_stencil_cpu_run( const hyb_stencil_prob_t* p, int64_t steps, int nthreads,
                                  double* residual )
{
	hyb_stencil_roles_t roles;
	if ( p == NULL || steps < 0 || !hyb_stencil_roles( p->kind, &roles ) ) return HYB_E_INVALID;
	const int64_t nz       = p->nz;
	double*       plane_ss = NULL;
	if ( p->kind == HYB_STENCIL_HIMENO && steps > 0 )
	{
		plane_ss = calloc( (size_t)nz, sizeof *plane_ss );
		if ( plane_ss == NULL ) return HYB_E_NO_MEMORY;
	}
	/* Level t of every quantity lives in its state field
	   (t + inputs - 1) mod levels: the inputs come first in roles.state,
	   the work field last. */
	const int   m = roles.levels, off = roles.inputs - 1, nq = roles.quants;
	void*       lev[HYB_STENCIL_QUANTS_MAX][3];
	const void* coef[HYB_STENCIL_COEFS_MAX];
	for ( int q = 0; q < nq; q++ )
		for ( int i = 0; i < m; i++ ) lev[q][i] = p->field[hyb_stencil_state_role( &roles, q, i )];
	for ( int c = 0; c < roles.ncoef; c++ ) coef[c] = p->field[roles.coef[c]];
	const hyb_stencil_box_t box = hyb_stencil_prob_box( p, 0, nz, 0, nz );
	hyb_status_t            rc  = HYB_OK;
	for ( int64_t t = 0; t < steps && rc == HYB_OK; t++ )
	{
		hyb_stencil_args_t a;
		const void*        cur[HYB_STENCIL_QUANTS_MAX];
		const void*        prev[HYB_STENCIL_QUANTS_MAX];
		void*              next[HYB_STENCIL_QUANTS_MAX];
		for ( int q = 0; q < nq; q++ )
		{
			cur[q]  = lev[q][( t + off ) % m];
			prev[q] = lev[q][( t + off - 1 + m ) % m];
			next[q] = lev[q][( t + off + 1 ) % m];
		}
		hyb_stencil_prob_args_q( p, &box, cur, prev, next, coef, &a );
		if ( plane_ss && t == steps - 1 )
		{
			a.himeno.plane_ss = plane_ss;
			a.himeno.own0     = 0;
			a.himeno.own1     = nz;
		}
		rc = hyb_stencil_step_cpu( p->kind, &a, nthreads );
	}
	for ( int q = 0; q < nq && rc == HYB_OK; q++ )
		hyb_stencil_cpu_place( p, lev[q], m, (int)( ( steps + off ) % m ), nthreads );
	if ( residual )
	{
		*residual = 0.0;
		if ( plane_ss && rc == HYB_OK )
			for ( int64_t z = 0; z < nz; z++ ) *residual += plane_ss[z];
	}
	free( plane_ss );
	return rc;
}
