/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-element work of the discontinuous Galerkin solver (one face, one cell), written
   once in C that compiles as host C and as CUDA device code, so the serial CPU loop, the
   OpenMP loop, the simulated device and the GPU kernels run the same arithmetic. */
#ifndef HYB_FACELOOP_ELEM_H
#define HYB_FACELOOP_ELEM_H

#include <math.h>
#include <stdint.h>

#include "kernels/faceloop/hyb_faceloop_kargs.h"

#if defined( __CUDACC__ )
#define HYB_FL_FN       static __host__ __device__ __forceinline__
#define HYB_FL_RESTRICT __restrict__
#else
#define HYB_FL_FN       static inline
#define HYB_FL_RESTRICT restrict
#endif

#define HYB_FL_TWO_PI 6.283185307179586476925286766559

/* Newton iterations at most for Burgers' exact solution (quadratic convergence from u0
   needs 4 to 6 before the shock forms; the cap only bounds a thread near breaking time). */
#define HYB_FL_NEWTON_MAX 30

/* Initial condition of each equation (see hyb_fl_eq_t). */
HYB_FL_FN double hyb_fl_initial( const hyb_fl_eq_t* eq, double x, double y )
{
	if ( eq->kind == HYB_FL_EQ_BURGERS ) return 0.5 + 0.25 * sin( HYB_FL_TWO_PI * ( x + y ) );
	return sin( HYB_FL_TWO_PI * x ) * sin( HYB_FL_TWO_PI * y );
}

/* Exact solution at (x, y, t): advection translates the initial condition by (ax, ay) t;
   Burgers' solution is constant along the characteristics x + y = s + 2 u t, so u solves
   u = g(x + y - 2 u t) with g the initial profile (Newton from g(x + y); valid before the
   shock forms at t = 1 / pi). */
HYB_FL_FN double hyb_fl_exact( const hyb_fl_eq_t* eq, double x, double y, double t )
{
	if ( eq->kind != HYB_FL_EQ_BURGERS )
		return sin( HYB_FL_TWO_PI * ( x - eq->ax * t ) ) *
		       sin( HYB_FL_TWO_PI * ( y - eq->ay * t ) );
	const double s = x + y;
	double       u = 0.5 + 0.25 * sin( HYB_FL_TWO_PI * s );
	for ( int k = 0; k < HYB_FL_NEWTON_MAX; k++ )
	{
		const double arg = HYB_FL_TWO_PI * ( s - 2.0 * u * t );
		const double h   = u - 0.5 - 0.25 * sin( arg );
		const double dh  = 1.0 + 0.25 * HYB_FL_TWO_PI * 2.0 * t * cos( arg );
		const double du  = h / dh;
		u -= du;
		if ( fabs( du ) <= 1e-15 * ( 1.0 + fabs( u ) ) ) break;
	}
	return u;
}

/* Physical flux F(u). */
HYB_FL_FN void hyb_fl_flux( const hyb_fl_eq_t* eq, double u, double* fx, double* fy )
{
	if ( eq->kind == HYB_FL_EQ_BURGERS )
	{
		*fx = 0.5 * u * u;
		*fy = *fx;
	}
	else
	{
		*fx = eq->ax * u;
		*fy = eq->ay * u;
	}
}

/* Numerical flux through a face of unit normal n (out of the left cell), from the left
   trace ul and the right trace ur: upwind for advection, local Lax-Friedrichs for Burgers
   (F.n = (u^2/2)(nx + ny), wave speed |u (nx + ny)|). */
HYB_FL_FN double hyb_fl_num_flux( const hyb_fl_eq_t* eq, double ul, double ur, double nx,
                                  double ny )
{
	if ( eq->kind == HYB_FL_EQ_BURGERS )
	{
		const double sn    = nx + ny;
		const double alpha = fmax( fabs( ul ), fabs( ur ) ) * fabs( sn );
		return 0.25 * ( ul * ul + ur * ur ) * sn - 0.5 * alpha * ( ur - ul );
	}
	const double an = eq->ax * nx + eq->ay * ny;
	return an * ( an >= 0.0 ? ul : ur );
}

/* Sum of coefficients times basis values: the trace of a cell at one point. */
HYB_FL_FN double hyb_fl_dot( const double* HYB_FL_RESTRICT c, const double* HYB_FL_RESTRICT phi,
                             int np )
{
	double s = 0.0;
	for ( int j = 0; j < np; j++ ) s += c[j] * phi[j];
	return s;
}

/* One face f of the face loop (see hyb_faceloop_face_args_t). An interior face gathers the
   two cells' traces; a boundary face evaluates the boundary data instead: the two kinds
   run different code, which is the divergence the remapped order removes. np, nq, nv and
   eqk equal a->np, a->nq, a->nv and a->eq.kind (passed separately so that a GPU kernel
   can make them compile-time constants and drop the other equation's code). */
HYB_FL_FN void hyb_fl_face( const hyb_faceloop_face_args_t* a, int64_t f, int np, int nq, int nv,
                            int eqk )
{
	(void)nv;
	hyb_fl_eq_t eq     = a->eq;
	eq.kind            = eqk;
	const int64_t nf   = a->n_faces_total;
	const int32_t cl   = a->face_cell[2 * f];
	const int32_t cr   = a->face_cell[2 * f + 1];
	const double  nx   = a->face_geom[HYB_FL_GEOM_NX * nf + f];
	const double  ny   = a->face_geom[HYB_FL_GEOM_NY * nf + f];
	const double  len  = a->face_geom[HYB_FL_GEOM_LEN * nf + f];
	const double* ul   = a->u + (int64_t)cl * np;
	const double* phil = a->edge_phi + (int64_t)a->face_edge[2 * f] * nq * np;
	double        fq[HYB_FL_NQ_MAX];
	const double* phir = phil;
	if ( cr >= 0 )
	{
		const double* ur = a->u + (int64_t)cr * np;
		phir             = a->edge_phi + (int64_t)a->face_edge[2 * f + 1] * nq * np;
		for ( int q = 0; q < nq; q++ )
		{
			/* The right cell runs along the face the other way: its point nq-1-q is ours q. */
			const double sl = hyb_fl_dot( ul, phil + q * np, np );
			const double sr = hyb_fl_dot( ur, phir + ( nq - 1 - q ) * np, np );
			fq[q]           = a->edge_w[q] * len * hyb_fl_num_flux( &eq, sl, sr, nx, ny );
		}
	}
	else
	{
		const double xa = a->face_geom[HYB_FL_GEOM_XA * nf + f];
		const double ya = a->face_geom[HYB_FL_GEOM_YA * nf + f];
		const double xb = a->face_geom[HYB_FL_GEOM_XB * nf + f];
		const double yb = a->face_geom[HYB_FL_GEOM_YB * nf + f];
		for ( int q = 0; q < nq; q++ )
		{
			const double t  = a->edge_t[q];
			const double sl = hyb_fl_dot( ul, phil + q * np, np );
			const double sb =
			    hyb_fl_exact( &eq, xa + t * ( xb - xa ), ya + t * ( yb - ya ), a->time );
			fq[q] = a->edge_w[q] * len * hyb_fl_num_flux( &eq, sl, sb, nx, ny );
		}
	}
	double* o = a->out + f * a->out_fstride;
	for ( int i = 0; i < np; i++ )
	{
		double s = 0.0;
		for ( int q = 0; q < nq; q++ ) s += fq[q] * phil[q * np + i];
		o[i * a->out_cstride] = -s;
	}
	if ( cr < 0 ) return;
	for ( int i = 0; i < np; i++ )
	{
		double s = 0.0;
		for ( int q = 0; q < nq; q++ ) s += fq[q] * phir[( nq - 1 - q ) * np + i];
		o[( np + i ) * a->out_cstride] = s;
	}
}

/* One cell c of the volume loop: rhs_i = sum_q w_q grad_xi(phi_i) . adj(J) F(u(x_q)),
   adj(J) = det(J) J^-1, which is det(J) grad_x(phi_i) . F without a division. The map is
   affine on a triangle (J constant) and bilinear on a quadrilateral (J at each point).
   np, nqv, nv, eqk as in hyb_fl_face. */
HYB_FL_FN void hyb_fl_volume( const hyb_faceloop_volume_args_t* a, int64_t c, int np, int nqv,
                              int nv, int eqk )
{
	hyb_fl_eq_t eq                   = a->eq;
	eq.kind                          = eqk;
	const double* HYB_FL_RESTRICT xy = a->cell_xy + c * 2 * nv;
	const double* HYB_FL_RESTRICT u  = a->u + c * np;
	double                        r[HYB_FL_NP_MAX];
	for ( int i = 0; i < np; i++ ) r[i] = 0.0;
	double xr = 0.0, xs = 0.0, yr = 0.0, ys = 0.0;
	if ( nv == 3 )
	{
		xr = xy[2] - xy[0];
		xs = xy[4] - xy[0];
		yr = xy[3] - xy[1];
		ys = xy[5] - xy[1];
	}
	for ( int q = 0; q < nqv; q++ )
	{
		if ( nv == 4 )
		{
			const double s0 = 1.0 - a->vol_xi[2 * q + 1], s1 = 1.0 + a->vol_xi[2 * q + 1];
			const double r0 = 1.0 - a->vol_xi[2 * q], r1 = 1.0 + a->vol_xi[2 * q];
			xr = 0.25 * ( s0 * ( xy[2] - xy[0] ) + s1 * ( xy[4] - xy[6] ) );
			yr = 0.25 * ( s0 * ( xy[3] - xy[1] ) + s1 * ( xy[5] - xy[7] ) );
			xs = 0.25 * ( r0 * ( xy[6] - xy[0] ) + r1 * ( xy[4] - xy[2] ) );
			ys = 0.25 * ( r0 * ( xy[7] - xy[1] ) + r1 * ( xy[5] - xy[3] ) );
		}
		const double uq = hyb_fl_dot( u, a->vol_phi + q * np, np );
		double       fx, fy;
		hyb_fl_flux( &eq, uq, &fx, &fy );
		const double  w  = a->vol_w[q];
		const double  gr = w * ( ys * fx - xs * fy );
		const double  gs = w * ( xr * fy - yr * fx );
		const double* dp = a->vol_dphi + (int64_t)q * np * 2;
		for ( int i = 0; i < np; i++ ) r[i] += dp[2 * i] * gr + dp[2 * i + 1] * gs;
	}
	for ( int i = 0; i < np; i++ ) a->rhs[c * np + i] = r[i];
}

/* One cell c of the gather: add the contributions of its faces, local edge by local edge. */
HYB_FL_FN void hyb_fl_gather( const hyb_faceloop_gather_args_t* a, int64_t c, int np, int nv )
{
	double r[HYB_FL_NP_MAX];
	for ( int i = 0; i < np; i++ ) r[i] = a->rhs[c * np + i];
	for ( int e = 0; e < nv; e++ )
	{
		const int32_t code = a->cell_face[c * nv + e];
		const double* o    = a->out + (int64_t)( code >> 1 ) * a->out_fstride +
		                  (int64_t)( code & 1 ) * np * a->out_cstride;
		for ( int i = 0; i < np; i++ ) r[i] += o[i * a->out_cstride];
	}
	for ( int i = 0; i < np; i++ ) a->rhs[c * np + i] = r[i];
}

/* One cell c of a Runge-Kutta stage (see hyb_faceloop_update_args_t). */
HYB_FL_FN void hyb_fl_update( const hyb_faceloop_update_args_t* a, int64_t c, int np )
{
	const double* r = a->rhs + c * np;
	double        du[HYB_FL_NP_MAX];
	const int32_t m = a->cell_minv[c];
	if ( m < 0 )
	{
		const double s = a->cell_invdet[c];
		for ( int i = 0; i < np; i++ ) du[i] = r[i] * s;
	}
	else
	{
		const double* mi = a->minv + (int64_t)m * np * np;
		for ( int i = 0; i < np; i++ ) du[i] = hyb_fl_dot( mi + i * np, r, np );
	}
	for ( int i = 0; i < np; i++ )
	{
		const int64_t k = c * np + i;
		a->next[k]      = a->a * a->u0[k] + a->b * ( a->cur[k] + a->dt * du[i] );
	}
}

#endif
