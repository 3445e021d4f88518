/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's device driver on the simulated device, through the public API:
   every form and transfer scheme equals the CPU's serial reference bit for bit; injected
   faults by kernel name and by copy kind give the CPU's result and say they fell back; each
   run is counted as the operation hyblas_faceloop_run. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_op.h"
#include "hyb_stats.h"
#include "hyblas_ext.h"
#include "kernels/hyb_device.h"
#include "kernels/sim/hyb_device_sim.h"
#include "unit/faceloop/test_faceloop_util.h"
#include "unit/hyb_test_util.h"

enum
{
	FLD_STEPS = 3
};

/* One case: a mesh and an equation of the solver. */
typedef struct
{
	hyblas_faceloop_shape_t shape;
	int64_t                 n;
	int                     periodic;
	double                  perturb;
	int                     eq, p;
} fld_case_t;

static const fld_case_t fld_cases[] = {
	{ HYBLAS_FACELOOP_TRI, 6, 0, 0.2, HYBLAS_FACELOOP_ADVECTION, 1 },
	{ HYBLAS_FACELOOP_QUAD, 5, 0, 0.2, HYBLAS_FACELOOP_ADVECTION, 3 }, /* bilinear cells */
	{ HYBLAS_FACELOOP_TRI, 5, 1, 0.1, HYBLAS_FACELOOP_BURGERS, 2 },
	{ HYBLAS_FACELOOP_QUAD, 4, 0, 0.0, HYBLAS_FACELOOP_BURGERS, 3 },
};

static hyblas_faceloop_run_params_t fld_params( hyblas_path_t path, hyblas_faceloop_form_t form,
                                                hyblas_faceloop_xfer_t xfer, int threads )
{
	hyblas_faceloop_run_params_t p;
	memset( &p, 0, sizeof p );
	p.struct_size = sizeof p;
	p.path        = path;
	p.form        = form;
	p.xfer        = xfer;
	p.cpu_threads = threads;
	return p;
}

/* Run case c for FLD_STEPS steps with params rp; returns the state (malloc'd, *len values),
   the solver's time in *time and the statistics in *st. */
static double* fld_run( const fld_case_t* c, const hyblas_faceloop_run_params_t* rp, int64_t* len,
                        double* time, hyblas_faceloop_stats_t* st )
{
	hyblas_faceloop_mesh_t*   m = hyb_flt_grid( c->shape, c->n, 0, c->periodic, c->perturb, 7 );
	hyblas_faceloop_solver_t* s = hyb_flt_solver( m, c->eq, c->p, 0.0 );
	memset( st, 0, sizeof *st );
	st->struct_size = sizeof *st;
	CU_ASSERT_EQUAL( hyblas_faceloop_run( s, FLD_STEPS, rp, st ), HYBLAS_OK );
	hyblas_faceloop_solver_info_t in;
	memset( &in, 0, sizeof in );
	in.struct_size = sizeof in;
	CU_ASSERT_EQUAL( hyblas_faceloop_solver_info( s, &in ), HYBLAS_OK );
	CU_ASSERT_EQUAL( in.steps_done, FLD_STEPS );
	*len      = in.n_cells * in.modes_per_cell;
	*time     = in.time;
	double* u = malloc( (size_t)*len * sizeof *u );
	CU_ASSERT_FATAL( u != NULL );
	CU_ASSERT_EQUAL( hyblas_faceloop_get_state( s, u, *len ), HYBLAS_OK );
	hyblas_faceloop_solver_destroy( s );
	hyblas_faceloop_mesh_destroy( m );
	return u;
}

/* The CPU serial reference of case c. */
static double* fld_reference( const fld_case_t* c, int64_t* len, double* time )
{
	hyblas_faceloop_stats_t            st;
	const hyblas_faceloop_run_params_t rp =
	    fld_params( HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_VANILLA, HYBLAS_FACELOOP_XFER_AUTO, 1 );
	return fld_run( c, &rp, len, time, &st );
}

static int fld_same( const double* a, const double* b, int64_t n )
{
	return memcmp( a, b, (size_t)n * sizeof *a ) == 0;
}

/* Every form (vanilla, remapped, register-limited, AUTO) in every transfer scheme on the
   simulated device gives the serial CPU reference's bits, time and step count. */
static void test_sim_equals_cpu( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const hyblas_faceloop_form_t forms[] = { HYBLAS_FACELOOP_FORM_AUTO,
		                                     HYBLAS_FACELOOP_FORM_VANILLA,
		                                     HYBLAS_FACELOOP_FORM_REMAPPED,
		                                     HYBLAS_FACELOOP_FORM_LOWREG };
	const hyblas_faceloop_xfer_t xfers[] = { HYBLAS_FACELOOP_XFER_AUTO,
		                                     HYBLAS_FACELOOP_XFER_PER_STEP,
		                                     HYBLAS_FACELOOP_XFER_RESIDENT };
	for ( size_t c = 0; c < sizeof fld_cases / sizeof *fld_cases; c++ )
	{
		int64_t n = 0;
		double  t_ref;
		double* ref = fld_reference( &fld_cases[c], &n, &t_ref );
		for ( size_t f = 0; f < sizeof forms / sizeof *forms; f++ )
			for ( size_t x = 0; x < sizeof xfers / sizeof *xfers; x++ )
			{
				hyblas_faceloop_stats_t            st;
				int64_t                            len;
				double                             t;
				const hyblas_faceloop_run_params_t rp =
				    fld_params( HYBLAS_PATH_GPU, forms[f], xfers[x], 2 );
				double* u = fld_run( &fld_cases[c], &rp, &len, &t, &st );
				char    what[96];
				snprintf( what, sizeof what, "case %zu form %d xfer %d: %s", c, (int)forms[f],
				          (int)xfers[x], st.plan );
				const int ok = len == n && fld_same( u, ref, n ) && t == t_ref &&
				               st.path == HYBLAS_PATH_GPU && st.fell_back == 0 &&
				               strncmp( st.plan, "gpu ", 4 ) == 0 && st.bytes_h2d > 0 &&
				               st.bytes_d2h > 0 && st.steps == FLD_STEPS;
				if ( !ok ) fprintf( stderr, "FAIL %s (why: %s)\n", what, st.why );
				CU_ASSERT( ok );
				/* The resident scheme moves the state once each way; per step moves it and
				   the face output every stage. */
				if ( xfers[x] == HYBLAS_FACELOOP_XFER_RESIDENT )
					CU_ASSERT_EQUAL( st.bytes_d2h, n * (int64_t)sizeof( double ) );
				if ( xfers[x] == HYBLAS_FACELOOP_XFER_PER_STEP )
					CU_ASSERT( st.bytes_d2h > 3 * FLD_STEPS * n * (int64_t)sizeof( double ) );
				CU_ASSERT( st.face_end_to_end_s > 0.0 && st.total_s > 0.0 );
				free( u );
			}
		free( ref );
	}
	hyb_t_sim_end();
}

/* One fault plan: where it strikes and whether the run it strikes falls back. */
typedef struct
{
	const char*            plan;
	hyblas_faceloop_xfer_t xfer;
	int                    falls_back;
} fld_fault_t;

/* Faults by kernel name, by copy kind, at once and at the next synchronisation, on the
   allocation of the workspace and of the pinned staging: the run gives the CPU's bits, says
   it fell back, and the next run is on the device again. Kernels a scheme does not launch
   (the per-step scheme runs volume, gather and update on the host) leave it on the device. */
static void test_faults_fall_back( void )
{
	static const fld_fault_t faults[] = {
		{ "faceloop.face:1", HYBLAS_FACELOOP_XFER_PER_STEP, 1 },
		{ "faceloop.face:4a", HYBLAS_FACELOOP_XFER_PER_STEP, 1 },
		{ "faceloop.face:5", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "faceloop.volume:2", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "faceloop.gather:3a", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "faceloop.update:9", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "faceloop.update:1", HYBLAS_FACELOOP_XFER_PER_STEP, 0 },
		{ "h2d:2", HYBLAS_FACELOOP_XFER_PER_STEP, 1 },
		{ "h2d:6", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "d2h:3", HYBLAS_FACELOOP_XFER_PER_STEP, 1 },
		{ "d2h:1a", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "alloc:1", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "host_alloc:1", HYBLAS_FACELOOP_XFER_PER_STEP, 1 },
		{ "sync:1", HYBLAS_FACELOOP_XFER_PER_STEP, 1 },
		{ "sync:2", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
		{ "kernel:7", HYBLAS_FACELOOP_XFER_RESIDENT, 1 },
	};
	const fld_case_t* c = &fld_cases[1];
	int64_t           n = 0;
	double            t_ref;
	double*           ref = fld_reference( c, &n, &t_ref );
	for ( size_t k = 0; k < sizeof faults / sizeof *faults; k++ )
	{
		/* A fresh device layer each time: no workspace cached from the run before, so the
		   allocation faults strike. */
		CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_device_faults_set( faults[k].plan ), HYB_OK );
		hyblas_faceloop_stats_t            st;
		int64_t                            len;
		double                             t;
		const hyblas_faceloop_run_params_t rp =
		    fld_params( HYBLAS_PATH_GPU, HYBLAS_FACELOOP_FORM_REMAPPED, faults[k].xfer, 2 );
		double*   u  = fld_run( c, &rp, &len, &t, &st );
		const int ok = len == n && fld_same( u, ref, n ) && t == t_ref &&
		               st.fell_back == faults[k].falls_back &&
		               st.path == ( faults[k].falls_back ? HYBLAS_PATH_CPU : HYBLAS_PATH_GPU ) &&
		               ( !faults[k].falls_back || strstr( st.why, "device failed" ) != NULL );
		if ( !ok )
			fprintf( stderr, "FAIL fault %s: path %d fell_back %d why %s\n", faults[k].plan,
			         (int)st.path, st.fell_back, st.why );
		CU_ASSERT( ok );
		free( u );
		/* The plan's one fault is spent: the next run is on the device. */
		u = fld_run( c, &rp, &len, &t, &st );
		CU_ASSERT( st.path == HYBLAS_PATH_GPU && st.fell_back == 0 && fld_same( u, ref, n ) );
		free( u );
		hyb_t_sim_end();
	}
	free( ref );
}

/* Every run counts once as hyblas_faceloop_run: on the device, on the CPU, and as a
   fallback (also counted as one). */
static void test_counting( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const fld_case_t*       c = &fld_cases[0];
	hyblas_faceloop_stats_t st;
	int64_t                 len;
	double                  t;
	/* The first run registers the operation. */
	hyblas_faceloop_run_params_t rp =
	    fld_params( HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_AUTO, HYBLAS_FACELOOP_XFER_AUTO, 1 );
	free( fld_run( c, &rp, &len, &t, &st ) );
	const hyb_op_id_t op = hyb_op_find( "hyblas_faceloop_run" );
	CU_ASSERT_FATAL( op != HYB_OP_NONE );
	CU_ASSERT_STRING_EQUAL( hyb_op_family_of( op ), "faceloop" );
	const uint64_t cpu0 = hyb_stats_calls( op, HYB_PATH_CPU ),
	               gpu0 = hyb_stats_calls( op, HYB_PATH_GPU );
	const uint64_t fb0 = hyb_stats_calls( op, HYB_PATH_FALLBACK ), nfb0 = hyb_stats_fallbacks( op );
	free( fld_run( c, &rp, &len, &t, &st ) );
	rp = fld_params( HYBLAS_PATH_GPU, HYBLAS_FACELOOP_FORM_AUTO, HYBLAS_FACELOOP_XFER_AUTO, 1 );
	free( fld_run( c, &rp, &len, &t, &st ) );
	free( fld_run( c, &rp, &len, &t, &st ) );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "faceloop.face:1" ), HYB_OK );
	free( fld_run( c, &rp, &len, &t, &st ) );
	CU_ASSERT_EQUAL( st.fell_back, 1 );
	CU_ASSERT_EQUAL( hyb_stats_calls( op, HYB_PATH_CPU ) - cpu0, 1 );
	CU_ASSERT_EQUAL( hyb_stats_calls( op, HYB_PATH_GPU ) - gpu0, 2 );
	CU_ASSERT_EQUAL( hyb_stats_calls( op, HYB_PATH_FALLBACK ) - fb0, 1 );
	CU_ASSERT_EQUAL( hyb_stats_fallbacks( op ) - nfb0, 1 );
	hyb_t_sim_end();
}

/* AUTO keeps the seed's sizes on the CPU even with a device (the size floor). */
static void test_auto_small_stays_cpu( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	hyblas_faceloop_stats_t            st;
	int64_t                            len;
	double                             t;
	const hyblas_faceloop_run_params_t rp =
	    fld_params( HYBLAS_PATH_AUTO, HYBLAS_FACELOOP_FORM_AUTO, HYBLAS_FACELOOP_XFER_AUTO, 1 );
	free( fld_run( &fld_cases[0], &rp, &len, &t, &st ) );
	CU_ASSERT_EQUAL( st.path, HYBLAS_PATH_CPU );
	CU_ASSERT_EQUAL( st.fell_back, 0 );
	CU_ASSERT_PTR_NOT_NULL( strstr( st.why, "faces <" ) );
	hyb_t_sim_end();
}

/* Two runs of `steps` each on one solver with params rp (faults set before the first when
   `fault` is given); the registrations the simulated device holds after the first run, after
   the second and after the solver's end; returns the state (malloc'd, n values). */
static double* fld_two_runs( const fld_case_t* c, const hyblas_faceloop_run_params_t* rp,
                             const char* fault, int64_t n, int64_t held[3],
                             hyblas_faceloop_stats_t st[2] )
{
	const int64_t             base = hyb_sim_registrations();
	hyblas_faceloop_mesh_t*   m    = hyb_flt_grid( c->shape, c->n, 0, c->periodic, c->perturb, 7 );
	hyblas_faceloop_solver_t* s    = hyb_flt_solver( m, c->eq, c->p, 0.0 );
	if ( fault ) CU_ASSERT_EQUAL( hyb_device_faults_set( fault ), HYB_OK );
	for ( int k = 0; k < 2; k++ )
	{
		memset( &st[k], 0, sizeof st[k] );
		st[k].struct_size = sizeof st[k];
		CU_ASSERT_EQUAL( hyblas_faceloop_run( s, FLD_STEPS, rp, &st[k] ), HYBLAS_OK );
		held[k] = hyb_sim_registrations() - base;
	}
	double* u = malloc( (size_t)n * sizeof *u );
	CU_ASSERT_FATAL( u != NULL );
	CU_ASSERT_EQUAL( hyblas_faceloop_get_state( s, u, n ), HYBLAS_OK );
	hyblas_faceloop_solver_destroy( s );
	hyblas_faceloop_mesh_destroy( m );
	held[2] = hyb_sim_registrations() - base;
	return u;
}

/* The resident scheme's state crosses PCIe from the solver's own arrays: the first resident
   run page-locks the state and a second array of its size (two registrations), later runs
   reuse them, and the solver's end releases both; the result is the CPU's over both runs. A
   registration that fails (the first or the second) leaves nothing locked, the runs go
   through the staging on the device with the same bits, and the solver does not try
   again. */
static void test_resident_state_pinned( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const fld_case_t* c = &fld_cases[1];
	/* The CPU reference of two runs on one solver. */
	const hyblas_faceloop_run_params_t cpu =
	    fld_params( HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_VANILLA, HYBLAS_FACELOOP_XFER_AUTO, 1 );
	const hyblas_faceloop_run_params_t gpu = fld_params(
	    HYBLAS_PATH_GPU, HYBLAS_FACELOOP_FORM_REMAPPED, HYBLAS_FACELOOP_XFER_RESIDENT, 2 );
	int64_t                 n = 0;
	double                  t;
	hyblas_faceloop_stats_t st[2];
	free( fld_run( c, &cpu, &n, &t, &st[0] ) );
	int64_t held[3];
	double* ref = fld_two_runs( c, &cpu, NULL, n, held, st );
	CU_ASSERT( held[0] == 0 && held[1] == 0 && held[2] == 0 );

	static const struct
	{
		const char* fault;
		int64_t     held;
	} cases[] = { { NULL, 2 }, { "register:1", 0 }, { "register:2", 0 } };
	for ( size_t i = 0; i < sizeof cases / sizeof *cases; i++ )
	{
		double*   u  = fld_two_runs( c, &gpu, cases[i].fault, n, held, st );
		const int ok = fld_same( u, ref, n ) && held[0] == cases[i].held &&
		               held[1] == cases[i].held && held[2] == 0 && st[0].path == HYBLAS_PATH_GPU &&
		               st[1].path == HYBLAS_PATH_GPU && st[0].fell_back == 0 &&
		               st[1].fell_back == 0;
		if ( !ok )
			fprintf( stderr, "FAIL pinned state, fault %s: held %lld %lld %lld, paths %d %d\n",
			         cases[i].fault ? cases[i].fault : "none", (long long)held[0],
			         (long long)held[1], (long long)held[2], (int)st[0].path, (int)st[1].path );
		CU_ASSERT( ok );
		free( u );
	}
	free( ref );
	hyb_t_sim_end();
}

static CU_TestInfo hyb_tests_faceloop_device[] = {
	{ "sim_equals_cpu_every_form_and_xfer", test_sim_equals_cpu },
	{ "faults_fall_back_to_cpu_bits", test_faults_fall_back },
	{ "counted_as_an_operation", test_counting },
	{ "auto_small_stays_cpu", test_auto_small_stays_cpu },
	{ "resident_state_pinned", test_resident_state_pinned },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_faceloop_device = { "faceloop_device",        NULL, NULL, NULL, NULL,
	                                       hyb_tests_faceloop_device };
