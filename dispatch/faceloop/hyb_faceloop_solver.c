/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's solver: per-cell data (maps, mass matrices), the L2 projection of
   the initial condition, the kernels' argument blocks, the CPU steps and the diagnostics. */
#include "dispatch/faceloop/hyb_faceloop_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/faceloop/hyb_faceloop_device.h"
#include "hyb_heap.h"
#include "hyb_types.h"
#include "kernels/faceloop/hyb_faceloop_cpu.h"
#include "kernels/faceloop/hyb_faceloop_elem.h"

/* Points of the rule for projections and errors (exact to degree 2p + 8 on the triangle,
   2p + 9 per variable on the square): enough that the sine data's quadrature error stays
   far below the discretisation's. */
#define HYB_FL_PROJ_CAP 128

const double hyb_fl_rk_a[3] = { 0.0, 0.75, 1.0 / 3.0 };
const double hyb_fl_rk_b[3] = { 1.0, 0.25, 2.0 / 3.0 };
const double hyb_fl_rk_c[3] = { 0.0, 1.0, 0.5 };

static int proj_rule( int nv, int p, double* xy, double* w )
{
	return nv == 3 ? hyb_fl_rule_tri( 2 * p + 8, HYB_FL_PROJ_CAP, xy, w )
	               : hyb_fl_rule_quad( p + 5, HYB_FL_PROJ_CAP, xy, w );
}

/* The map of a cell (vertices xy, counterclockwise) at reference point (r, s): the physical
   point and det(J). */
static void cell_map( const double* xy, int nv, double r, double s, double* x, double* y,
                      double* det )
{
	if ( nv == 3 )
	{
		const double xr = xy[2] - xy[0], xs = xy[4] - xy[0], yr = xy[3] - xy[1], ys = xy[5] - xy[1];
		*x   = xy[0] + xr * r + xs * s;
		*y   = xy[1] + yr * r + ys * s;
		*det = xr * ys - xs * yr;
		return;
	}
	const double n[4]  = { 0.25 * ( 1 - r ) * ( 1 - s ), 0.25 * ( 1 + r ) * ( 1 - s ),
		                   0.25 * ( 1 + r ) * ( 1 + s ), 0.25 * ( 1 - r ) * ( 1 + s ) };
	const double nr[4] = { -0.25 * ( 1 - s ), 0.25 * ( 1 - s ), 0.25 * ( 1 + s ),
		                   -0.25 * ( 1 + s ) };
	const double ns[4] = { -0.25 * ( 1 - r ), -0.25 * ( 1 + r ), 0.25 * ( 1 + r ),
		                   0.25 * ( 1 - r ) };
	double       xr = 0, xs = 0, yr = 0, ys = 0;
	*x = *y = 0.0;
	for ( int k = 0; k < 4; k++ )
	{
		*x += n[k] * xy[2 * k];
		*y += n[k] * xy[2 * k + 1];
		xr += nr[k] * xy[2 * k];
		xs += ns[k] * xy[2 * k];
		yr += nr[k] * xy[2 * k + 1];
		ys += ns[k] * xy[2 * k + 1];
	}
	*det = xr * ys - xs * yr;
}

/* Inverse of the symmetric positive definite n x n matrix a (row-major) by Cholesky;
   a is overwritten by its factor. */
static void spd_inverse( double* a, int n, double* inv )
{
	for ( int j = 0; j < n; j++ )
	{
		double d = a[j * n + j];
		for ( int k = 0; k < j; k++ ) d -= a[j * n + k] * a[j * n + k];
		a[j * n + j] = sqrt( d );
		for ( int i = j + 1; i < n; i++ )
		{
			double v = a[i * n + j];
			for ( int k = 0; k < j; k++ ) v -= a[i * n + k] * a[j * n + k];
			a[i * n + j] = v / a[j * n + j];
		}
	}
	for ( int c = 0; c < n; c++ )
	{
		double y[HYB_FL_NP_MAX];
		for ( int i = 0; i < n; i++ )
		{
			double v = i == c ? 1.0 : 0.0;
			for ( int k = 0; k < i; k++ ) v -= a[i * n + k] * y[k];
			y[i] = v / a[i * n + i];
		}
		for ( int i = n - 1; i >= 0; i-- )
		{
			double v = y[i];
			for ( int k = i + 1; k < n; k++ ) v -= a[k * n + i] * inv[k * n + c];
			inv[i * n + c] = v / a[i * n + i];
		}
	}
}

/* Copy each cell's vertices and number the cells whose map is bilinear (a quadrilateral
   that is not a parallelogram): they need a mass matrix of their own. Returns their count. */
static int64_t solver_cells( hyblas_faceloop_solver_t* s )
{
	const hyblas_faceloop_mesh_t* m    = s->mesh;
	const int                     nv   = m->nv;
	int32_t                       nbil = 0;
	for ( int64_t c = 0; c < m->n_cells; c++ )
	{
		for ( int k = 0; k < nv; k++ )
		{
			const int32_t v                    = m->cell_vertices[c * nv + k];
			s->cell_xy[c * 2 * nv + 2 * k]     = m->xy[2 * v];
			s->cell_xy[c * 2 * nv + 2 * k + 1] = m->xy[2 * v + 1];
		}
		const double* xy  = s->cell_xy + c * 2 * nv;
		double        per = 0.0;
		for ( int k = 0; k < nv; k++ )
			per += hypot( xy[2 * ( ( k + 1 ) % nv )] - xy[2 * k],
			              xy[2 * ( ( k + 1 ) % nv ) + 1] - xy[2 * k + 1] );
		const int bil   = nv == 4 && hypot( xy[0] + xy[4] - xy[2] - xy[6],
		                                    xy[1] + xy[5] - xy[3] - xy[7] ) > 1e-12 * per;
		s->cell_minv[c] = bil ? nbil++ : -1;
	}
	return nbil;
}

/* Each cell's mass matrix (det(J) I when the map is affine, else assembled and inverted)
   and the L2 projection of the initial condition. */
static void solver_project( hyblas_faceloop_solver_t* s, int threads )
{
	const hyblas_faceloop_mesh_t* m  = s->mesh;
	const int                     nv = m->nv, np = s->np;
	double                        qxy[2 * HYB_FL_PROJ_CAP], qw[HYB_FL_PROJ_CAP];
	const int                     nq = proj_rule( nv, s->p, qxy, qw );
#pragma omp parallel for schedule( static ) num_threads( threads )
	for ( int64_t c = 0; c < m->n_cells; c++ )
	{
		const double* xy               = s->cell_xy + c * 2 * nv;
		double        b[HYB_FL_NP_MAX] = { 0 }, mm[HYB_FL_NP_MAX * HYB_FL_NP_MAX] = { 0 };
		double        phi[HYB_FL_NP_MAX], x, y, det;
		for ( int q = 0; q < nq; q++ )
		{
			cell_map( xy, nv, qxy[2 * q], qxy[2 * q + 1], &x, &y, &det );
			hyb_fl_basis_eval( &s->basis, qxy[2 * q], qxy[2 * q + 1], phi, NULL );
			const double f = qw[q] * det * hyb_fl_initial( &s->eq, x, y );
			for ( int i = 0; i < np; i++ ) b[i] += f * phi[i];
			if ( s->cell_minv[c] >= 0 )
				for ( int i = 0; i < np; i++ )
					for ( int j = 0; j < np; j++ ) mm[i * np + j] += qw[q] * det * phi[i] * phi[j];
		}
		double* u = s->u + c * np;
		if ( s->cell_minv[c] < 0 )
		{
			cell_map( xy, nv, 0.0, 0.0, &x, &y, &det );
			s->cell_invdet[c] = 1.0 / det;
			for ( int i = 0; i < np; i++ ) u[i] = b[i] / det;
			continue;
		}
		double* mi        = s->minv + (int64_t)s->cell_minv[c] * np * np;
		s->cell_invdet[c] = 0.0;
		spd_inverse( mm, np, mi );
		for ( int i = 0; i < np; i++ ) u[i] = hyb_fl_dot( mi + i * np, b, np );
	}
}

/* The largest |u| of the state at the volume points: Burgers' wave speed bound. */
static double max_abs_state( const hyblas_faceloop_solver_t* s )
{
	double mx = 0.0;
	for ( int64_t c = 0; c < s->mesh->n_cells; c++ )
		for ( int q = 0; q < s->tab.nqv; q++ )
			mx = fmax( mx,
			           fabs( hyb_fl_dot( s->u + c * s->np, s->tab.vol_phi + q * s->np, s->np ) ) );
	return mx;
}

void hyb_fl_solver_free( hyblas_faceloop_solver_t* s )
{
	if ( s == NULL ) return;
	hyb_fl_device_unpin( s );
	HYB_FREE_ALL( s->cell_xy, s->cell_invdet, s->cell_minv, s->minv, s->u, s->u1, s->u2, s->rhs,
	              s->out, s->u_next );
	hyb_fl_mesh_release( s->mesh );
	free( s );
}

hyblas_status_t hyb_fl_solver_new( hyblas_faceloop_mesh_t* mesh, hyb_fl_eq_t eq, int p, double dt,
                                   double cfl, int threads, hyblas_faceloop_solver_t** out )
{
	hyblas_faceloop_solver_t* s = calloc( 1, sizeof *s );
	if ( s == NULL ) return HYBLAS_E_NO_MEMORY;
	hyb_fl_mesh_retain( mesh );
	s->mesh = mesh;
	s->eq   = eq;
	s->p    = p;
	if ( hyb_fl_tables_build( mesh->nv, p, eq.kind, &s->tab ) != HYB_OK ||
	     hyb_fl_basis_init( mesh->nv, p, &s->basis ) != HYB_OK )
	{
		hyb_fl_solver_free( s );
		return HYBLAS_E_INTERNAL;
	}
	s->np           = s->tab.np;
	const size_t nc = (size_t)mesh->n_cells, npz = (size_t)s->np;
	s->cell_xy     = malloc( nc * 2 * (size_t)mesh->nv * sizeof( double ) );
	s->cell_invdet = malloc( nc * sizeof( double ) );
	s->cell_minv   = malloc( nc * sizeof( int32_t ) );
	s->u           = malloc( nc * npz * sizeof( double ) );
	s->u1          = malloc( nc * npz * sizeof( double ) );
	s->u2          = malloc( nc * npz * sizeof( double ) );
	s->rhs         = malloc( nc * npz * sizeof( double ) );
	s->out         = malloc( (size_t)mesh->n_faces * 2 * npz * sizeof( double ) );
	if ( s->cell_xy && s->cell_minv )
	{
		const size_t nbil = (size_t)solver_cells( s );
		s->minv           = malloc( ( nbil > 0 ? nbil : 1 ) * npz * npz * sizeof( double ) );
	}
	if ( !s->cell_xy || !s->cell_invdet || !s->cell_minv || !s->minv || !s->u || !s->u1 || !s->u2 ||
	     !s->rhs || !s->out )
	{
		hyb_fl_solver_free( s );
		return HYBLAS_E_NO_MEMORY;
	}
	solver_project( s, threads );
	if ( dt <= 0.0 )
	{
		const double lambda =
		    eq.kind == HYB_FL_EQ_BURGERS ? 2.0 * max_abs_state( s ) : fabs( eq.ax ) + fabs( eq.ay );
		dt = cfl * mesh->h_min / ( ( 2.0 * p + 1.0 ) * ( lambda > 0.0 ? lambda : 1.0 ) );
	}
	s->dt = dt;
	*out  = s;
	return HYBLAS_OK;
}

/* ------------------------------------------------------------------ argument blocks */

void hyb_fl_face_args( const hyblas_faceloop_solver_t* s, const double* u, double time,
                       const int32_t* idx, double* out, int64_t cstride, int64_t fstride,
                       hyb_faceloop_face_args_t* a )
{
	const hyblas_faceloop_mesh_t* m = s->mesh;
	memset( a, 0, sizeof *a );
	a->n_faces       = m->n_faces;
	a->n_faces_total = m->n_faces;
	a->nv            = m->nv;
	a->np            = s->np;
	a->nq            = s->tab.nq;
	a->eq            = s->eq;
	a->time          = time;
	a->face_cell     = m->face_cell;
	a->face_edge     = m->face_edge;
	a->face_geom     = m->face_geom;
	a->edge_t        = s->tab.edge_t;
	a->edge_w        = s->tab.edge_w;
	a->edge_phi      = s->tab.edge_phi;
	a->u             = u;
	a->out           = out;
	a->out_cstride   = cstride;
	a->out_fstride   = fstride;
	a->idx           = idx;
}

void hyb_fl_volume_args( const hyblas_faceloop_solver_t* s, const double* u, double* rhs,
                         hyb_faceloop_volume_args_t* a )
{
	memset( a, 0, sizeof *a );
	a->n_cells  = s->mesh->n_cells;
	a->nv       = s->mesh->nv;
	a->np       = s->np;
	a->nqv      = s->tab.nqv;
	a->eq       = s->eq;
	a->cell_xy  = s->cell_xy;
	a->vol_w    = s->tab.vol_w;
	a->vol_xi   = s->tab.vol_xi;
	a->vol_phi  = s->tab.vol_phi;
	a->vol_dphi = s->tab.vol_dphi;
	a->u        = u;
	a->rhs      = rhs;
}

void hyb_fl_gather_args( const hyblas_faceloop_solver_t* s, const double* out, int64_t cstride,
                         int64_t fstride, double* rhs, hyb_faceloop_gather_args_t* a )
{
	memset( a, 0, sizeof *a );
	a->n_cells     = s->mesh->n_cells;
	a->nv          = s->mesh->nv;
	a->np          = s->np;
	a->cell_face   = s->mesh->cell_face;
	a->out         = out;
	a->out_cstride = cstride;
	a->out_fstride = fstride;
	a->rhs         = rhs;
}

void hyb_fl_update_args( const hyblas_faceloop_solver_t* s, double a_, double b_, const double* u0,
                         const double* cur, double* next, hyb_faceloop_update_args_t* a )
{
	memset( a, 0, sizeof *a );
	a->n_cells     = s->mesh->n_cells;
	a->np          = s->np;
	a->a           = a_;
	a->b           = b_;
	a->dt          = s->dt;
	a->cell_invdet = s->cell_invdet;
	a->cell_minv   = s->cell_minv;
	a->minv        = s->minv;
	a->rhs         = s->rhs;
	a->u0          = u0;
	a->cur         = cur;
	a->next        = next;
}

void hyb_fl_stage_args( const hyblas_faceloop_solver_t* s, int k, double t, double* const state[3],
                        double* rhs, const int32_t* idx, double* out, int64_t cstride,
                        int64_t fstride, hyb_fl_stage_args_t* g )
{
	double* const cur  = state[k];
	double* const next = state[( k + 1 ) % 3];
	hyb_fl_volume_args( s, cur, rhs, &g->volume );
	hyb_fl_face_args( s, cur, t + hyb_fl_rk_c[k] * s->dt, idx, out, cstride, fstride, &g->face );
	hyb_fl_gather_args( s, out, cstride, fstride, rhs, &g->gather );
	hyb_fl_update_args( s, hyb_fl_rk_a[k], hyb_fl_rk_b[k], state[0], cur, next, &g->update );
	g->update.rhs = rhs;
}

/* ------------------------------------------------------------------ CPU steps */

void hyb_fl_solver_cpu_steps( hyblas_faceloop_solver_t* s, int64_t steps, int threads,
                              const int32_t* order, hyb_fl_loop_times_t* t )
{
	double* const state[3] = { s->u, s->u1, s->u2 };
	const int64_t fs       = 2 * (int64_t)s->np;
	for ( int64_t n = 0; n < steps; n++ )
	{
		for ( int k = 0; k < 3; k++ )
		{
			hyb_fl_stage_args_t g;
			hyb_fl_stage_args( s, k, s->time, state, s->rhs, order, s->out, 1, fs, &g );
			double t0 = hyb_now();
			hyb_faceloop_volume_cpu( &g.volume, threads );
			double t1 = hyb_now();
			hyb_faceloop_face_cpu( &g.face, threads );
			double t2 = hyb_now();
			hyb_faceloop_gather_cpu( &g.gather, threads );
			double t3 = hyb_now();
			hyb_faceloop_update_cpu( &g.update, threads );
			double t4 = hyb_now();
			t->volume += t1 - t0;
			t->face += t2 - t1;
			t->gather += t3 - t2;
			t->update += t4 - t3;
		}
		s->steps_done++;
		s->time = s->time + s->dt;
	}
}

/* ------------------------------------------------------------------ diagnostics */

/* Sum over cells of the integral of f(u_h, exact) computed per cell on the projection rule,
   summed in cell order after a parallel per-cell pass. */
static hyblas_status_t cell_sum( const hyblas_faceloop_solver_t* s, int threads, int error,
                                 double* v )
{
	const hyblas_faceloop_mesh_t* m   = s->mesh;
	double*                       acc = malloc( (size_t)m->n_cells * sizeof *acc );
	if ( acc == NULL ) return HYBLAS_E_NO_MEMORY;
	double    qxy[2 * HYB_FL_PROJ_CAP], qw[HYB_FL_PROJ_CAP];
	const int nq = proj_rule( m->nv, s->p, qxy, qw ), nv = m->nv, np = s->np;
#pragma omp parallel for schedule( static ) num_threads( threads )
	for ( int64_t c = 0; c < m->n_cells; c++ )
	{
		double phi[HYB_FL_NP_MAX], x, y, det, sum = 0.0;
		for ( int q = 0; q < nq; q++ )
		{
			cell_map( s->cell_xy + c * 2 * nv, nv, qxy[2 * q], qxy[2 * q + 1], &x, &y, &det );
			hyb_fl_basis_eval( &s->basis, qxy[2 * q], qxy[2 * q + 1], phi, NULL );
			const double uh = hyb_fl_dot( s->u + c * np, phi, np );
			const double d  = error ? uh - hyb_fl_exact( &s->eq, x, y, s->time ) : uh;
			sum += qw[q] * det * ( error ? d * d : d );
		}
		acc[c] = sum;
	}
	double total = 0.0;
	for ( int64_t c = 0; c < m->n_cells; c++ ) total += acc[c];
	free( acc );
	*v = error ? sqrt( total ) : total;
	return HYBLAS_OK;
}

hyblas_status_t hyb_fl_solver_integral( const hyblas_faceloop_solver_t* s, int threads, double* v )
{
	return cell_sum( s, threads, 0, v );
}

hyblas_status_t hyb_fl_solver_l2_error( const hyblas_faceloop_solver_t* s, int threads, double* v )
{
	return cell_sum( s, threads, 1, v );
}
