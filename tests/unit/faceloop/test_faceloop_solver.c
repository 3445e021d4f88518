/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop solver through the public API: convergence order on smooth advection and
   Burgers (degree p gives about p + 1), conservation, the serial reference equals the
   OpenMP path and every face order bit for bit, the device path's fallback, statistics,
   invalid calls that change nothing, and the exported names of libhyblas. */
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_unit_paths.h"
#include "hyblas_ext.h"
#include "unit/faceloop/test_faceloop_util.h"
#include "unit/hyb_test_util.h"

static hyblas_faceloop_mesh_t* grid( hyblas_faceloop_shape_t shape, int64_t n, int periodic,
                                     double perturb )
{
	return hyb_flt_grid( shape, n, 0, periodic, perturb, 2017 );
}

static hyblas_faceloop_solver_t* solver( hyblas_faceloop_mesh_t* m, int eq, int p, double dt )
{
	return hyb_flt_solver( m, eq, p, dt );
}

static hyblas_faceloop_run_params_t params( hyblas_path_t path, hyblas_faceloop_form_t form,
                                            int threads )
{
	hyblas_faceloop_run_params_t p;
	memset( &p, 0, sizeof p );
	p.struct_size = sizeof p;
	p.path        = path;
	p.form        = form;
	p.cpu_threads = threads;
	return p;
}

static hyblas_faceloop_solver_info_t info_of( const hyblas_faceloop_solver_t* s )
{
	hyblas_faceloop_solver_info_t i;
	memset( &i, 0, sizeof i );
	i.struct_size = sizeof i;
	CU_ASSERT_EQUAL( hyblas_faceloop_solver_info( s, &i ), HYBLAS_OK );
	return i;
}

/* L2 error at time T on the n x n grid: the solver's own dt (cfl 1) shortened so that a
   whole number of steps ends at T; serial loops. */
static double error_at( hyblas_faceloop_shape_t shape, int64_t n, int periodic, int eq, int p,
                        double T )
{
	hyblas_faceloop_mesh_t*   m     = grid( shape, n, periodic, 0.1 );
	hyblas_faceloop_solver_t* s0    = solver( m, eq, p, 0.0 );
	const int64_t             steps = (int64_t)ceil( T / info_of( s0 ).dt );
	hyblas_faceloop_solver_destroy( s0 );
	hyblas_faceloop_solver_t*          s  = solver( m, eq, p, T / (double)steps );
	const hyblas_faceloop_run_params_t rp = params( HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_AUTO, 1 );
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, steps, &rp, NULL ), HYBLAS_OK );
	CU_ASSERT( fabs( info_of( s ).time - T ) < 1e-12 );
	double e = -1.0;
	CU_ASSERT_EQUAL( hyblas_faceloop_l2_error( s, &e ), HYBLAS_OK );
	hyblas_faceloop_solver_destroy( s );
	hyblas_faceloop_mesh_destroy( m );
	return e;
}

/* The observed order over three meshes (least squares slope of log e against log h) must
   reach p + min_gain. Advection asserts p + 0.7 (the measured orders are 1.9 - 2.0 at P1,
   3.8 - 4.0 at P3); Burgers, nonlinear with its local Lax-Friedrichs flux, p + 0.5
   (measured 1.8 - 1.9 and 3.7). */
static void check_order( hyblas_faceloop_shape_t shape, int periodic, int eq, int p, int64_t n0,
                         double T, double min_gain )
{
	double lx[3], ly[3];
	for ( int k = 0; k < 3; k++ )
	{
		const int64_t n = n0 << k;
		const double  e = error_at( shape, n, periodic, eq, p, T );
		CU_ASSERT_FATAL( e > 0.0 && isfinite( e ) );
		lx[k] = log( 1.0 / (double)n );
		ly[k] = log( e );
	}
	const double mx = ( lx[0] + lx[1] + lx[2] ) / 3, my = ( ly[0] + ly[1] + ly[2] ) / 3;
	double       sxy = 0, sxx = 0;
	for ( int k = 0; k < 3; k++ )
		sxy += ( lx[k] - mx ) * ( ly[k] - my ), sxx += ( lx[k] - mx ) * ( lx[k] - mx );
	const double order = sxy / sxx;
	fprintf( stderr, "\n      %s %s %s P%d: order %.2f (need %.1f)", eq ? "burgers" : "adv-sin",
	         shape == HYBLAS_FACELOOP_TRI ? "tri" : "quad", periodic ? "periodic" : "inflow", p,
	         order, p + min_gain );
	CU_ASSERT( order >= p + min_gain );
}

static void test_order_advection( void )
{
	/* Inflow boundaries on bilinear quadrilaterals, periodic on triangles. */
	check_order( HYBLAS_FACELOOP_QUAD, 0, HYBLAS_FACELOOP_ADVECTION, 1, 8, 0.25, 0.7 );
	check_order( HYBLAS_FACELOOP_QUAD, 0, HYBLAS_FACELOOP_ADVECTION, 3, 4, 0.25, 0.7 );
	check_order( HYBLAS_FACELOOP_TRI, 1, HYBLAS_FACELOOP_ADVECTION, 1, 8, 0.25, 0.7 );
	check_order( HYBLAS_FACELOOP_TRI, 1, HYBLAS_FACELOOP_ADVECTION, 3, 4, 0.25, 0.7 );
}

static void test_order_burgers( void )
{
	check_order( HYBLAS_FACELOOP_TRI, 0, HYBLAS_FACELOOP_BURGERS, 1, 8, 0.1, 0.5 );
	check_order( HYBLAS_FACELOOP_QUAD, 0, HYBLAS_FACELOOP_BURGERS, 3, 4, 0.1, 0.5 );
}

/* On a periodic mesh the integral of the state is conserved to rounding (Burgers' mean is
   1/2; the faces' fluxes cancel in pairs). */
static void test_conservation( void )
{
	for ( int shape = 0; shape <= 1; shape++ )
	{
		hyblas_faceloop_mesh_t*   m  = grid( shape, 8, 1, 0.2 );
		hyblas_faceloop_solver_t* s  = solver( m, HYBLAS_FACELOOP_BURGERS, 3, 0.0 );
		const double              i0 = info_of( s ).integral;
		CU_ASSERT( fabs( i0 - 0.5 ) < 1e-13 );
		const hyblas_faceloop_run_params_t rp = params( HYBLAS_PATH_CPU, 0, 2 );
		CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 20, &rp, NULL ), HYBLAS_OK );
		CU_ASSERT( fabs( info_of( s ).integral - i0 ) < 1e-14 );
		hyblas_faceloop_solver_destroy( s );
		hyblas_faceloop_mesh_destroy( m );
	}
}

/* The serial reference, the OpenMP loops (2 and 3 threads) and every face order give the
   same state bit for bit; the device path without a device gives it too, and says it fell
   back. */
static void test_paths_bitwise( void )
{
	hyblas_faceloop_mesh_t* m   = grid( HYBLAS_FACELOOP_TRI, 9, 0, 0.2 );
	int64_t                 len = 0;
	double*                 ref = NULL;
	const struct
	{
		hyblas_path_t          path;
		hyblas_faceloop_form_t form;
		int                    threads;
	} runs[] = { { HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_AUTO, 1 },
		         { HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_AUTO, 2 },
		         { HYBLAS_PATH_AUTO, HYBLAS_FACELOOP_FORM_REMAPPED, 3 },
		         { HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_LOWREG, 2 },
		         { HYBLAS_PATH_GPU, HYBLAS_FACELOOP_FORM_VANILLA, 0 } };
	for ( size_t r = 0; r < sizeof runs / sizeof *runs; r++ )
	{
		hyblas_faceloop_solver_t*          s = solver( m, HYBLAS_FACELOOP_BURGERS, 2, 0.0 );
		const hyblas_faceloop_run_params_t rp =
		    params( runs[r].path, runs[r].form, runs[r].threads );
		hyblas_faceloop_stats_t st;
		memset( &st, 0, sizeof st );
		st.struct_size = sizeof st;
		CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 4, &rp, &st ), HYBLAS_OK );
		CU_ASSERT_EQUAL( st.struct_size, sizeof st );
		CU_ASSERT_EQUAL( st.steps, 4 );
		CU_ASSERT_EQUAL( st.path, HYBLAS_PATH_CPU );
		CU_ASSERT_EQUAL( st.fell_back, runs[r].path == HYBLAS_PATH_GPU );
		CU_ASSERT( st.face_loop_s > 0.0 && st.face_end_to_end_s >= st.face_loop_s );
		CU_ASSERT( st.volume_loop_s > 0.0 && st.update_loop_s > 0.0 );
		CU_ASSERT( st.total_s >= st.face_end_to_end_s + st.volume_loop_s + st.update_loop_s );
		CU_ASSERT( st.predicted_cpu_s > 0.0 && st.predicted_gpu_s > 0.0 );
		CU_ASSERT_EQUAL( st.regs_per_thread, -1 );
		CU_ASSERT( st.why[0] != '\0' && st.plan[0] != '\0' );
		if ( runs[r].threads == 1 ) CU_ASSERT_STRING_EQUAL( st.plan, "cpu serial" );
		if ( runs[r].form == HYBLAS_FACELOOP_FORM_REMAPPED ) CU_ASSERT( st.warps_mixed <= 1 );
		/* AUTO on 291 faces: the CPU by the size floor. */
		if ( runs[r].path == HYBLAS_PATH_AUTO )
			CU_ASSERT_PTR_NOT_NULL( strstr( st.why, "faces <" ) );
		if ( runs[r].path == HYBLAS_PATH_GPU )
			CU_ASSERT_PTR_NOT_NULL( strstr( st.why, "no usable device" ) );
		const hyblas_faceloop_solver_info_t in = info_of( s );
		CU_ASSERT_EQUAL( in.steps_done, 4 );
		if ( ref == NULL )
		{
			len = in.n_cells * in.modes_per_cell;
			ref = malloc( (size_t)len * sizeof *ref );
			CU_ASSERT_EQUAL( hyblas_faceloop_get_state( s, ref, len ), HYBLAS_OK );
		}
		else
		{
			double* got = malloc( (size_t)len * sizeof *got );
			CU_ASSERT_EQUAL( hyblas_faceloop_get_state( s, got, len ), HYBLAS_OK );
			CU_ASSERT( memcmp( got, ref, (size_t)len * sizeof *got ) == 0 );
			free( got );
		}
		hyblas_faceloop_solver_destroy( s );
	}
	free( ref );
	hyblas_faceloop_mesh_destroy( m );
}

/* Bad calls return their status and change nothing: the state, the time, the outputs. */
static void test_invalid_calls( void )
{
	hyblas_faceloop_mesh_t*   m   = grid( HYBLAS_FACELOOP_QUAD, 4, 0, 0.0 );
	hyblas_faceloop_solver_t* s   = solver( m, HYBLAS_FACELOOP_ADVECTION, 1, 0.0 );
	const int64_t             len = 16 * 4;
	double                    before[64], now[64];
	CU_ASSERT_EQUAL( hyblas_faceloop_get_state( s, before, len ), HYBLAS_OK );

	hyblas_faceloop_run_params_t rp = params( HYBLAS_PATH_CPU, 0, 1 );
	hyblas_faceloop_stats_t      st;
	memset( &st, 0x5a, sizeof st );
	st.struct_size = sizeof st;
	CU_ASSERT_EQUAL( hyblas_faceloop_run( NULL, 1, &rp, &st ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, -1, &rp, &st ), HYBLAS_E_INVALID );
	rp.path = (hyblas_path_t)7;
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 1, &rp, &st ), HYBLAS_E_INVALID );
	rp = params( HYBLAS_PATH_CPU, (hyblas_faceloop_form_t)9, 1 );
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 1, &rp, &st ), HYBLAS_E_INVALID );
	rp            = params( HYBLAS_PATH_CPU, 0, 1 );
	rp.block_size = 48;
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 1, &rp, &st ), HYBLAS_E_INVALID );
	rp             = params( HYBLAS_PATH_CPU, 0, 1 );
	rp.struct_size = 4;
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 1, &rp, &st ), HYBLAS_E_STRUCT_SIZE );
	rp             = params( HYBLAS_PATH_CPU, 0, 1 );
	st.struct_size = 16;
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 1, &rp, &st ), HYBLAS_E_STRUCT_SIZE );
	CU_ASSERT_EQUAL( st.steps, (int64_t)0x5a5a5a5a5a5a5a5aLL );
	CU_ASSERT_EQUAL( info_of( s ).steps_done, 0 );
	CU_ASSERT_EQUAL( info_of( s ).time, 0.0 );

	double nan_state[64];
	memcpy( nan_state, before, sizeof nan_state );
	nan_state[5] = NAN;
	CU_ASSERT_EQUAL( hyblas_faceloop_set_state( s, nan_state, len, 1.0 ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_faceloop_set_state( s, before, len - 1, 1.0 ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_faceloop_get_state( s, now, len - 1 ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_faceloop_get_state( s, now, len ), HYBLAS_OK );
	CU_ASSERT( memcmp( now, before, sizeof now ) == 0 );
	CU_ASSERT_EQUAL( info_of( s ).time, 0.0 );

	/* Solver creation: bad degree, equation, velocity, dt, cfl; *solver untouched. */
	hyblas_faceloop_solver_t*     sentinel = (hyblas_faceloop_solver_t*)(uintptr_t)0x99;
	hyblas_faceloop_solver_t*     t        = sentinel;
	hyblas_faceloop_solver_desc_t d;
	const double                  bad[5][5] = { { 0, 4, 0, 0, 0 },
		                                        { 5, 1, 0, 0, 0 },
		                                        { 0, 1, NAN, 0, 0 },
		                                        { 0, 1, 0, -1.0, 0 },
		                                        { 0, 1, 0, 0, INFINITY } };
	for ( int k = 0; k < 5; k++ )
	{
		memset( &d, 0, sizeof d );
		d.struct_size = sizeof d;
		d.equation    = (hyblas_faceloop_equation_t)(int)bad[k][0];
		d.degree      = (int32_t)bad[k][1];
		d.ax          = bad[k][2];
		d.dt          = bad[k][3];
		d.cfl         = bad[k][4];
		CU_ASSERT_EQUAL( hyblas_faceloop_solver_create( m, &d, &t ), HYBLAS_E_INVALID );
	}
	d.struct_size = 3;
	CU_ASSERT_EQUAL( hyblas_faceloop_solver_create( m, &d, &t ), HYBLAS_E_STRUCT_SIZE );
	CU_ASSERT_EQUAL( hyblas_faceloop_solver_create( NULL, NULL, &t ), HYBLAS_E_INVALID );
	CU_ASSERT( t == sentinel );
	CU_ASSERT_EQUAL( hyblas_faceloop_solver_destroy( NULL ), HYBLAS_OK );

	/* No smooth Burgers solution from t = 1/pi on. */
	hyblas_faceloop_solver_t* b = solver( m, HYBLAS_FACELOOP_BURGERS, 1, 0.0 );
	double                    e = -1.0;
	CU_ASSERT_EQUAL( hyblas_faceloop_set_state( b, before, len, 0.4 ), HYBLAS_OK );
	CU_ASSERT_EQUAL( hyblas_faceloop_l2_error( b, &e ), HYBLAS_E_UNSUPPORTED );
	CU_ASSERT_EQUAL( e, -1.0 );
	hyblas_faceloop_solver_destroy( b );

	/* Steps of zero, NULL params and stats: defaults, nothing advanced. */
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 0, NULL, NULL ), HYBLAS_OK );
	CU_ASSERT_EQUAL( info_of( s ).steps_done, 0 );
	/* The mesh may go before its solver. */
	hyblas_faceloop_mesh_destroy( m );
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, 2, NULL, NULL ), HYBLAS_OK );
	CU_ASSERT_EQUAL( info_of( s ).steps_done, 2 );
	hyblas_faceloop_solver_destroy( s );
}

/* In a child process: libhyblas exports the family's names (the hyblas_* rule of the
   version script, and the core's API object linked in), and the partition behind one of
   them works. */
static int child_exports( void* arg )
{
	(void)arg;
	void* h = dlopen( HYB_UNIT_LIBHYBLAS, RTLD_NOW | RTLD_LOCAL );
	if ( h == NULL ) return 1;
	const char* names[] = { "hyblas_partition_by_predicate",  "hyblas_faceloop_mesh_create",
		                    "hyblas_faceloop_mesh_generate",  "hyblas_faceloop_mesh_info",
		                    "hyblas_faceloop_mesh_destroy",   "hyblas_faceloop_solver_create",
		                    "hyblas_faceloop_solver_destroy", "hyblas_faceloop_solver_info",
		                    "hyblas_faceloop_get_state",      "hyblas_faceloop_set_state",
		                    "hyblas_faceloop_l2_error",       "hyblas_faceloop_run" };
	for ( size_t k = 0; k < sizeof names / sizeof *names; k++ )
		if ( dlsym( h, names[k] ) == NULL )
		{
			fprintf( stderr, "libhyblas does not export %s\n", names[k] );
			return 2;
		}
	if ( dlsym( h, "hyb_fl_partition" ) != NULL ) return 3; /* internal names stay hidden */
	hyblas_status_t ( *part )( const uint8_t*, int64_t, int32_t*, int64_t* );
	*(void**)&part        = dlsym( h, "hyblas_partition_by_predicate" );
	const uint8_t pred[4] = { 0, 1, 0, 1 };
	int32_t       idx[4];
	int64_t       nt = 0;
	if ( part( pred, 4, idx, &nt ) != HYBLAS_OK || nt != 2 || idx[0] != 1 || idx[1] != 3 ||
	     idx[2] != 0 )
		return 4;
	return 0;
}

static void test_exports( void )
{
	CU_ASSERT_EQUAL( hyb_t_isolated( "libhyblas exports the face loop", child_exports, NULL, 60 ),
	                 0 );
}

static CU_TestInfo hyb_tests_faceloop_solver[] = {
	{ "order_advection_p1_p3", test_order_advection },
	{ "order_burgers_p1_p3", test_order_burgers },
	{ "conservation_periodic", test_conservation },
	{ "serial_omp_forms_fallback_bitwise", test_paths_bitwise },
	{ "invalid_calls_change_nothing", test_invalid_calls },
	{ "libhyblas_exports", test_exports },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_faceloop_solver = { "faceloop_solver",        NULL, NULL, NULL, NULL,
	                                       hyb_tests_faceloop_solver };
