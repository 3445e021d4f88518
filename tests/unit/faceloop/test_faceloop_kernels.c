/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's kernels: the simulated device's launchers against the serial CPU loops
   (vanilla, remapped and register-limited forms, both output layouts, bit for bit), a full
   Runge-Kutta step in the device's launch order, the launchers' argument checks, and the
   discretisation's invariants (a constant state is steady, a linear state's residual is
   the exact derivative) and exact solutions. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/faceloop/hyb_faceloop_solver.h"
#include "kernels/faceloop/hyb_faceloop_cpu.h"
#include "kernels/faceloop/hyb_faceloop_elem.h"
#include "kernels/faceloop/hyb_faceloop_launch.h"
#include "unit/faceloop/test_faceloop_util.h"
#include "unit/hyb_test_util.h"

static hyblas_faceloop_solver_t* make_solver( hyblas_faceloop_shape_t shape, int64_t n,
                                              int periodic, int eq, int p )
{
	hyblas_faceloop_mesh_t*   m = hyb_flt_grid( shape, n, 0, periodic, 0.2, 99 );
	hyblas_faceloop_solver_t* s = hyb_flt_solver( m, eq, p, 0.0 );
	hyblas_faceloop_mesh_destroy( m ); /* the solver keeps its reference */
	return s;
}

/* Perturb the state so that the two traces at a face differ. */
static void roughen( hyblas_faceloop_solver_t* s, uint64_t seed )
{
	hyb_t_rng_t rng = hyb_t_rng( seed );
	for ( int64_t i = 0; i < s->mesh->n_cells * s->np; i++ ) s->u[i] += 0.05 * hyb_t_unit( &rng );
}

static const hyb_kernel_env_t sim_env = { NULL, NULL, NULL, 0 };

/* Every form on the simulated device, the OpenMP loop and the component-major layout give
   the serial loop's bits; a boundary face leaves its right side alone. */
static void test_face_forms( void )
{
	for ( int shape = 0; shape <= 1; shape++ )
		for ( int eq = 0; eq <= 1; eq++ )
			for ( int p = 1; p <= 3; p++ )
			{
				hyblas_faceloop_solver_t* s = make_solver( shape, 6, 0, eq, p );
				roughen( s, 5 );
				const int64_t nf = s->mesh->n_faces, np = s->np, len = 2 * np * nf;
				double*       ref = malloc( (size_t)len * sizeof *ref );
				double*       got = malloc( (size_t)len * sizeof *got );
				for ( int64_t i = 0; i < len; i++ ) ref[i] = -999.0;
				hyb_faceloop_face_args_t a;
				hyb_fl_face_args( s, s->u, 0.125, NULL, ref, 1, 2 * np, &a );
				hyb_faceloop_face_cpu( &a, 1 );
				for ( int64_t f = 0; f < nf; f++ )
					for ( int64_t i = 0; i < np; i++ )
					{
						const double r = ref[f * 2 * np + np + i];
						CU_ASSERT( ( s->mesh->face_cell[2 * f + 1] < 0 ) == ( r == -999.0 ) );
						CU_ASSERT( isfinite( ref[f * 2 * np + i] ) );
					}
				const int32_t* orders[2] = { NULL, s->mesh->remap };
				for ( int form = 0; form < 4; form++ )
				{
					for ( int64_t i = 0; i < len; i++ ) got[i] = -999.0;
					hyb_fl_face_args( s, s->u, 0.125, orders[form % 2], got, 1, 2 * np, &a );
					if ( form < 2 )
						CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &a ), HYB_OK );
					if ( form == 2 )
					{
						a.block = HYB_FL_LOWREG_BLOCK;
						CU_ASSERT_EQUAL( hyb_faceloop_face_lowreg_sim( &sim_env, &a ), HYB_OK );
					}
					if ( form == 3 ) hyb_faceloop_face_cpu( &a, 3 );
					CU_ASSERT( memcmp( got, ref, (size_t)len * sizeof *got ) == 0 );
				}
				/* The device's layout: component k of face f at k * nf + f. */
				for ( int64_t i = 0; i < len; i++ ) got[i] = -999.0;
				hyb_fl_face_args( s, s->u, 0.125, s->mesh->remap, got, nf, 1, &a );
				CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &a ), HYB_OK );
				int same = 1;
				for ( int64_t f = 0; f < nf; f++ )
					for ( int64_t k = 0; k < 2 * np; k++ )
						same &= got[k * nf + f] == ref[f * 2 * np + k];
				CU_ASSERT( same );
				free( ref );
				free( got );
				hyblas_faceloop_solver_destroy( s );
			}
}

/* One SSP-RK3 step as the device driver will queue it (volume, face, gather, update per
   stage, the face output component-major) equals the CPU step bit for bit. */
static void test_step_in_device_order( void )
{
	for ( int shape = 0; shape <= 1; shape++ )
		for ( int eq = 0; eq <= 1; eq++ )
		{
			hyblas_faceloop_solver_t* s  = make_solver( shape, 5, 0, eq, 2 );
			const int64_t             nc = s->mesh->n_cells, np = s->np, nf = s->mesh->n_faces;
			double*                   u   = malloc( (size_t)( nc * np ) * sizeof *u );
			double*                   u1  = malloc( (size_t)( nc * np ) * sizeof *u );
			double*                   u2  = malloc( (size_t)( nc * np ) * sizeof *u );
			double*                   rhs = malloc( (size_t)( nc * np ) * sizeof *u );
			double*                   out = malloc( (size_t)( 2 * np * nf ) * sizeof *u );
			memcpy( u, s->u, (size_t)( nc * np ) * sizeof *u );
			double *const cur[3] = { u, u1, u2 }, *const next[3] = { u1, u2, u };
			for ( int k = 0; k < 3; k++ )
			{
				hyb_faceloop_volume_args_t va;
				hyb_faceloop_face_args_t   fa;
				hyb_faceloop_gather_args_t ga;
				hyb_faceloop_update_args_t ua;
				hyb_fl_volume_args( s, cur[k], rhs, &va );
				hyb_fl_face_args( s, cur[k], s->time + hyb_fl_rk_c[k] * s->dt, s->mesh->remap, out,
				                  nf, 1, &fa );
				hyb_fl_gather_args( s, out, nf, 1, rhs, &ga );
				hyb_fl_update_args( s, hyb_fl_rk_a[k], hyb_fl_rk_b[k], u, cur[k], next[k], &ua );
				ua.rhs = rhs;
				CU_ASSERT_EQUAL( hyb_faceloop_volume_sim( &sim_env, &va ), HYB_OK );
				CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &fa ), HYB_OK );
				CU_ASSERT_EQUAL( hyb_faceloop_gather_sim( &sim_env, &ga ), HYB_OK );
				CU_ASSERT_EQUAL( hyb_faceloop_update_sim( &sim_env, &ua ), HYB_OK );
			}
			hyb_fl_loop_times_t t = { 0, 0, 0, 0 };
			hyb_fl_solver_cpu_steps( s, 1, 1, NULL, &t );
			CU_ASSERT( memcmp( u, s->u, (size_t)( nc * np ) * sizeof *u ) == 0 );
			CU_ASSERT( t.face > 0.0 && t.volume > 0.0 );
			free( u );
			free( u1 );
			free( u2 );
			free( rhs );
			free( out );
			hyblas_faceloop_solver_destroy( s );
		}
}

/* A launcher refuses a bad block and writes nothing. */
static void test_launcher_checks( void )
{
	hyblas_faceloop_solver_t* s  = make_solver( HYBLAS_FACELOOP_TRI, 4, 0, 0, 1 );
	const int64_t             nf = s->mesh->n_faces, np = s->np;
	double*                   out = malloc( (size_t)( 2 * np * nf ) * sizeof *out );
	for ( int64_t i = 0; i < 2 * np * nf; i++ ) out[i] = 7.0;
	hyb_faceloop_face_args_t a, b;
	hyb_fl_face_args( s, s->u, 0.0, NULL, out, 1, 2 * np, &a );
	b    = a;
	b.np = 5; /* no triangle degree has 5 modes */
	CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &b ), HYB_E_INVALID );
	b    = a;
	b.nq = HYB_FL_NQ_MAX + 1;
	CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &b ), HYB_E_INVALID );
	b   = a;
	b.u = NULL;
	CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &b ), HYB_E_INVALID );
	b         = a;
	b.n_faces = nf + 1; /* more threads than faces, without an index */
	CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &b ), HYB_E_INVALID );
	b         = a;
	b.eq.kind = 7;
	CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, &b ), HYB_E_INVALID );
	b       = a;
	b.block = HYB_FL_LOWREG_BLOCK * 2;
	CU_ASSERT_EQUAL( hyb_faceloop_face_lowreg_sim( &sim_env, &b ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_faceloop_face_sim( &sim_env, NULL ), HYB_E_INVALID );
	int untouched = 1;
	for ( int64_t i = 0; i < 2 * np * nf; i++ ) untouched &= out[i] == 7.0;
	CU_ASSERT( untouched );
	hyb_faceloop_update_args_t ua;
	hyb_fl_update_args( s, 0.0, 1.0, s->u, s->u, s->u, &ua );
	CU_ASSERT_EQUAL( hyb_faceloop_update_sim( &sim_env, &ua ), HYB_E_INVALID ); /* next == cur */
	hyb_faceloop_volume_args_t va;
	hyb_fl_volume_args( s, s->u, s->rhs, &va );
	va.nqv = HYB_FL_NQV_MAX + 1;
	CU_ASSERT_EQUAL( hyb_faceloop_volume_sim( &sim_env, &va ), HYB_E_INVALID );
	hyb_faceloop_gather_args_t ga;
	hyb_fl_gather_args( s, out, 1, 2 * np, s->rhs, &ga );
	ga.cell_face = NULL;
	CU_ASSERT_EQUAL( hyb_faceloop_gather_sim( &sim_env, &ga ), HYB_E_INVALID );
	free( out );
	hyblas_faceloop_solver_destroy( s );
}

/* M^-1 (volume + faces) of the state: du[c * np + i]. */
static void residual( hyblas_faceloop_solver_t* s, double* du )
{
	const int64_t              nc = s->mesh->n_cells, np = s->np;
	hyb_faceloop_volume_args_t va;
	hyb_faceloop_face_args_t   fa;
	hyb_faceloop_gather_args_t ga;
	hyb_faceloop_update_args_t ua;
	double*                    zero = calloc( (size_t)( nc * np ), sizeof *zero );
	hyb_fl_volume_args( s, s->u, s->rhs, &va );
	hyb_fl_face_args( s, s->u, 0.0, NULL, s->out, 1, 2 * np, &fa );
	hyb_fl_gather_args( s, s->out, 1, 2 * np, s->rhs, &ga );
	/* next = 0 * u0 + 1 * (0 + 1 * M^-1 rhs) */
	hyb_fl_update_args( s, 0.0, 1.0, zero, zero, du, &ua );
	ua.dt = 1.0;
	hyb_faceloop_volume_cpu( &va, 1 );
	hyb_faceloop_face_cpu( &fa, 1 );
	hyb_faceloop_gather_cpu( &ga, 1 );
	hyb_faceloop_update_cpu( &ua, 1 );
	free( zero );
}

/* The L2 projection of u(x, y) = c0 + cx x + cy y into the solver's state (exact: the space
   holds linear functions on affine and bilinear cells); checked at each cell's centre. */
static void set_linear( hyblas_faceloop_solver_t* s, double c0, double cx, double cy )
{
	const int nv = s->mesh->nv, np = s->np;
	double    xy[2 * 128], w[128], phi[HYB_FL_NP_MAX];
	const int nq = nv == 3 ? hyb_fl_rule_tri( 8, 128, xy, w ) : hyb_fl_rule_quad( 5, 128, xy, w );
	for ( int64_t c = 0; c < s->mesh->n_cells; c++ )
	{
		const double* v                = s->cell_xy + c * 2 * nv;
		double        b[HYB_FL_NP_MAX] = { 0 };
		for ( int q = 0; q < nq; q++ )
		{
			const double r = xy[2 * q], t = xy[2 * q + 1];
			double       x, y, det;
			if ( nv == 3 )
			{
				x   = v[0] + ( v[2] - v[0] ) * r + ( v[4] - v[0] ) * t;
				y   = v[1] + ( v[3] - v[1] ) * r + ( v[5] - v[1] ) * t;
				det = ( v[2] - v[0] ) * ( v[5] - v[1] ) - ( v[4] - v[0] ) * ( v[3] - v[1] );
			}
			else
			{
				const double n0 = ( 1 - r ) * ( 1 - t ) / 4, n1 = ( 1 + r ) * ( 1 - t ) / 4;
				const double n2 = ( 1 + r ) * ( 1 + t ) / 4, n3 = ( 1 - r ) * ( 1 + t ) / 4;
				x               = n0 * v[0] + n1 * v[2] + n2 * v[4] + n3 * v[6];
				y               = n0 * v[1] + n1 * v[3] + n2 * v[5] + n3 * v[7];
				const double xr = ( ( 1 - t ) * ( v[2] - v[0] ) + ( 1 + t ) * ( v[4] - v[6] ) ) / 4;
				const double yr = ( ( 1 - t ) * ( v[3] - v[1] ) + ( 1 + t ) * ( v[5] - v[7] ) ) / 4;
				const double xs = ( ( 1 - r ) * ( v[6] - v[0] ) + ( 1 + r ) * ( v[4] - v[2] ) ) / 4;
				const double ys = ( ( 1 - r ) * ( v[7] - v[1] ) + ( 1 + r ) * ( v[5] - v[3] ) ) / 4;
				det             = xr * ys - xs * yr;
			}
			hyb_fl_basis_eval( &s->basis, r, t, phi, NULL );
			for ( int i = 0; i < np; i++ ) b[i] += w[q] * det * ( c0 + cx * x + cy * y ) * phi[i];
		}
		double* u = s->u + c * np;
		for ( int i = 0; i < np; i++ )
			u[i] = s->cell_minv[c] < 0
			           ? b[i] * s->cell_invdet[c]
			           : hyb_fl_dot( s->minv + (int64_t)s->cell_minv[c] * np * np + i * np, b, np );
		/* At the reference centre the map gives the mean of the vertices (quadrilateral) or
		   the centroid (triangle, at (1/3, 1/3)). */
		const double rc = nv == 3 ? 1.0 / 3.0 : 0.0;
		hyb_fl_basis_eval( &s->basis, rc, rc, phi, NULL );
		double xc = 0, yc = 0;
		for ( int k = 0; k < nv; k++ ) xc += v[2 * k] / nv, yc += v[2 * k + 1] / nv;
		CU_ASSERT( fabs( hyb_fl_dot( u, phi, np ) - ( c0 + cx * xc + cy * yc ) ) < 1e-12 );
	}
}

/* A constant state on a periodic mesh is steady (the faces' normals close each cell, the
   traces agree across every face): M^-1 rhs vanishes. */
static void check_constant( int shape, int eq, int p )
{
	hyblas_faceloop_solver_t* s  = make_solver( shape, 6, 1, eq, p );
	const int64_t             nc = s->mesh->n_cells, np = s->np;
	double*                   du = malloc( (size_t)( nc * np ) * sizeof *du );
	set_linear( s, 0.7, 0.0, 0.0 );
	residual( s, du );
	double mx = 0;
	for ( int64_t i = 0; i < nc * np; i++ ) mx = fmax( mx, fabs( du[i] ) );
	CU_ASSERT( mx < 1e-12 );
	free( du );
	hyblas_faceloop_solver_destroy( s );
}

/* A linear state u away from the boundary has M^-1 rhs = -div F(u) exactly:
   -(a . grad u) for advection, -u (u_x + u_y) = u for Burgers when u_x + u_y = -1. */
static void check_linear( int shape, int eq, int p )
{
	hyblas_faceloop_solver_t* s  = make_solver( shape, 6, 0, eq, p );
	const int64_t             nc = s->mesh->n_cells, np = s->np;
	const int                 nv = s->mesh->nv;
	double*                   du = malloc( (size_t)( nc * np ) * sizeof *du );
	set_linear( s, 1.0, 2.0, -3.0 );
	residual( s, du );
	double phi[HYB_FL_NP_MAX];
	int    checked = 0;
	for ( int64_t c = 0; c < nc; c++ )
	{
		int inner = 1;
		for ( int e = 0; e < nv; e++ )
			inner &= s->mesh->face_cell[2 * ( s->mesh->cell_face[c * nv + e] >> 1 ) + 1] >= 0;
		if ( !inner ) continue;
		checked++;
		const double rc = nv == 3 ? 0.25 : 0.3;
		hyb_fl_basis_eval( &s->basis, rc, rc, phi, NULL );
		const double got = hyb_fl_dot( du + c * np, phi, np );
		const double want =
		    eq == 0 ? -( 1.0 * 2.0 + 0.5 * -3.0 ) : hyb_fl_dot( s->u + c * np, phi, np );
		CU_ASSERT( fabs( got - want ) < 1e-10 );
	}
	CU_ASSERT( checked > 0 );
	free( du );
	hyblas_faceloop_solver_destroy( s );
}

/* Both invariants on both shapes, both equations, degrees 1 and 3. Burgers' linear check
   runs on triangles only: on a bilinear quadrilateral u^2 times the map's adjugate exceeds
   the volume rule's degree in one variable, so the identity holds only approximately. */
static void test_invariants( void )
{
	for ( int shape = 0; shape <= 1; shape++ )
		for ( int eq = 0; eq <= 1; eq++ )
			for ( int p = 1; p <= 3; p += 2 )
			{
				check_constant( shape, eq, p );
				if ( !( eq == HYB_FL_EQ_BURGERS && shape == HYBLAS_FACELOOP_QUAD ) )
					check_linear( shape, eq, p );
			}
}

/* The boundary data: advection's solution is the translate of u0; Burgers' satisfies
   u = g(x + y - 2 u t) and starts at u0. */
static void test_exact_solutions( void )
{
	hyb_fl_eq_t adv = { HYB_FL_EQ_ADVECTION, 1.0, 0.5 }, bur = { HYB_FL_EQ_BURGERS, 0, 0 };
	hyb_t_rng_t rng = hyb_t_rng( 8 );
	for ( int k = 0; k < 200; k++ )
	{
		const double x = hyb_t_frac( &rng ), y = hyb_t_frac( &rng ), t = 0.3 * hyb_t_frac( &rng );
		CU_ASSERT( fabs( hyb_fl_exact( &adv, x, y, t ) -
		                 hyb_fl_initial( &adv, x - t, y - 0.5 * t ) ) < 1e-14 );
		const double u = hyb_fl_exact( &bur, x, y, t );
		CU_ASSERT( fabs( u - hyb_fl_initial( &bur, x - u * t, y - u * t ) ) < 1e-14 );
		CU_ASSERT( hyb_fl_exact( &bur, x, y, 0.0 ) == hyb_fl_initial( &bur, x, y ) );
	}
}

static CU_TestInfo hyb_tests_faceloop_kernels[] = {
	{ "face_forms_layouts_bitwise", test_face_forms },
	{ "step_in_device_order", test_step_in_device_order },
	{ "launcher_checks", test_launcher_checks },
	{ "constant_steady_linear_exact", test_invariants },
	{ "exact_solutions", test_exact_solutions },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_faceloop_kernels = { "faceloop_kernels",        NULL, NULL, NULL, NULL,
	                                        hyb_tests_faceloop_kernels };
