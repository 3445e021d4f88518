/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's planner at its boundaries: forced paths, the seed's sizes on the CPU, the
   minimum face count, the model's crossover, memory that fits one transfer scheme or none,
   the form rule, and the model's monotonicity. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "kernels/faceloop/hyb_faceloop_basis.h"
#include "policies/faceloop/hyb_faceloop_plan.h"

/* A structured n x n mesh's run of `steps` steps (quadrilaterals or triangles, with
   boundary), on a 16-thread CPU and a device with 80 GB. */
static hyb_fl_plan_in_t mesh_in( int nv, int p, int eq, int64_t n, int64_t steps )
{
	hyb_fl_plan_in_t in;
	memset( &in, 0, sizeof in );
	in.n_faces    = nv == 4 ? 2 * n * ( n + 1 ) : 3 * n * n + 2 * n;
	in.n_boundary = 4 * n;
	in.n_cells    = nv == 4 ? n * n : 2 * n * n;
	in.nv         = nv;
	in.np         = hyb_fl_modes( nv, p );
	in.nq         = hyb_fl_face_points( eq, p );
	in.nqv        = nv == 3 ? ( ( 2 * p + 2 ) / 2 ) * ( ( 2 * p + 3 ) / 2 ) : ( p + 1 ) * ( p + 1 );
	in.equation   = eq;
	in.steps      = steps;
	in.cpu_threads = 16;
	in.device_ok   = 1;
	in.device_mem  = 80e9;
	in.want_path   = HYBLAS_PATH_AUTO;
	return in;
}

static void test_forced_paths( void )
{
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	hyb_fl_plan_in_t in = mesh_in( 4, 1, 0, 1000, 100 );
	in.want_path        = HYBLAS_PATH_CPU;
	hyb_fl_plan_t p     = hyb_fl_plan_choose( &in, &r );
	CU_ASSERT_EQUAL( p.path, HYBLAS_PATH_CPU );
	CU_ASSERT_EQUAL( p.gpu_wanted, 0 );
	CU_ASSERT_PTR_NOT_NULL( strstr( p.why, "path cpu" ) );
	/* GPU asked on a seed-sized mesh: honoured (the seed's own baseline). */
	in           = mesh_in( 4, 1, 0, 10, 100 );
	in.want_path = HYBLAS_PATH_GPU;
	p            = hyb_fl_plan_choose( &in, &r );
	CU_ASSERT_EQUAL( p.path, HYBLAS_PATH_GPU );
	/* GPU asked without a usable device: the CPU, and the plan says the device was wanted. */
	in.device_ok = 0;
	p            = hyb_fl_plan_choose( &in, &r );
	CU_ASSERT_EQUAL( p.path, HYBLAS_PATH_CPU );
	CU_ASSERT_EQUAL( p.gpu_wanted, 1 );
	CU_ASSERT_PTR_NOT_NULL( strstr( p.why, "no usable device" ) );
}

/* All 24 of the seed's cases stay on the CPU in AUTO (at most 6224 faces), for any step
   count; 10^6 faces go to the device, resident, at P1 and P3, both shapes. */
static void test_seed_sizes_and_large( void )
{
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	const int64_t ns[3] = { 10, 20, 45 };
	for ( int nv = 3; nv <= 4; nv++ )
		for ( int eq = 0; eq <= 1; eq++ )
			for ( int p = 1; p <= 3; p += 2 )
			{
				for ( int k = 0; k < 3; k++ )
				{
					hyb_fl_plan_in_t in = mesh_in( nv, p, eq, ns[k], 1000 );
					CU_ASSERT( in.n_faces <= 6224 + 300 );
					const hyb_fl_plan_t pl = hyb_fl_plan_choose( &in, &r );
					CU_ASSERT_EQUAL( pl.path, HYBLAS_PATH_CPU );
					CU_ASSERT_PTR_NOT_NULL( strstr( pl.why, "faces <" ) );
				}
				hyb_fl_plan_in_t in = mesh_in( nv, p, eq, nv == 4 ? 707 : 577, 10 );
				CU_ASSERT( in.n_faces >= 998000 && in.n_faces <= 1002000 );
				const hyb_fl_plan_t pl = hyb_fl_plan_choose( &in, &r );
				CU_ASSERT_EQUAL( pl.path, HYBLAS_PATH_GPU );
				CU_ASSERT_EQUAL( pl.xfer, HYBLAS_FACELOOP_XFER_RESIDENT );
				CU_ASSERT( pl.t_gpu_resident > 0.0 && pl.t_gpu_resident < pl.t_gpu_per_step );
				CU_ASSERT( pl.t_gpu * ( 1.0 + r.margin ) < pl.t_cpu );
			}
}

/* min_faces is a hard floor: one face below it the CPU keeps the loop even where the model
   would take the device (a cheap device); at it, the model decides. */
static void test_min_faces_boundary( void )
{
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	r.launch_s = r.sync_s = 0.0;
	r.gpu_bw              = 1e18;
	r.gpu_flops           = 1e18;
	hyb_fl_plan_in_t in   = mesh_in( 4, 3, 0, 100, 1000 );
	r.min_faces           = in.n_faces + 1;
	CU_ASSERT_EQUAL( hyb_fl_plan_choose( &in, &r ).path, HYBLAS_PATH_CPU );
	r.min_faces = in.n_faces;
	CU_ASSERT_EQUAL( hyb_fl_plan_choose( &in, &r ).path, HYBLAS_PATH_GPU );
}

/* The margin: scale the device's rates until the predicted device time crosses
   t_cpu / (1 + margin); the decision flips exactly there, and once the device wins for n
   faces it wins for every larger n. */
static void test_crossover_and_monotone( void )
{
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	r.min_faces = 0;
	int gpu     = 0;
	for ( int64_t n = 4; n <= 2048; n = n * 5 / 4 + 1 )
	{
		hyb_fl_plan_in_t    in = mesh_in( 3, 1, 0, n, 50 );
		const hyb_fl_plan_t pl = hyb_fl_plan_choose( &in, &r );
		const int           g  = pl.path == HYBLAS_PATH_GPU;
		CU_ASSERT( g >= gpu );
		gpu = g;
		CU_ASSERT_EQUAL( g, pl.t_gpu * ( 1.0 + r.margin ) < pl.t_cpu );
		if ( !g ) CU_ASSERT_PTR_NOT_NULL( strstr( pl.why, "model" ) );
	}
	CU_ASSERT_EQUAL( gpu, 1 );
	/* Costs grow with faces, degree and steps. */
	hyb_fl_plan_in_t a = mesh_in( 4, 1, 1, 100, 10 ), b = mesh_in( 4, 1, 1, 200, 10 );
	hyb_fl_plan_in_t c = mesh_in( 4, 3, 1, 100, 10 ), d = mesh_in( 4, 1, 1, 100, 20 );
	CU_ASSERT( hyb_fl_time_cpu( &b, &r ) > hyb_fl_time_cpu( &a, &r ) );
	CU_ASSERT( hyb_fl_time_cpu( &c, &r ) > hyb_fl_time_cpu( &a, &r ) );
	CU_ASSERT( fabs( hyb_fl_time_cpu( &d, &r ) - 2.0 * hyb_fl_time_cpu( &a, &r ) ) < 1e-12 );
	CU_ASSERT( hyb_fl_time_gpu_resident( &b, &r ) > hyb_fl_time_gpu_resident( &a, &r ) );
	/* More threads, less CPU time; a boundary face costs more than an interior one. */
	const double t16 = hyb_fl_time_cpu( &a, &r );
	a.cpu_threads    = 1;
	CU_ASSERT( hyb_fl_time_cpu( &a, &r ) > 4.0 * t16 );
	CU_ASSERT( hyb_fl_face_flops( 10, 4, 0, 1 ) > hyb_fl_face_flops( 10, 4, 0, 0 ) );
}

/* Device memory: resident needs more than per step; a budget between the two gives per
   step, below both the CPU with the memory reason; a request for one scheme is kept. */
static void test_memory_and_xfer( void )
{
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	hyb_fl_plan_in_t in  = mesh_in( 4, 3, 0, 1000, 10 );
	const double     res = hyb_fl_device_bytes( &in, 1 ), ps = hyb_fl_device_bytes( &in, 0 );
	CU_ASSERT( res > ps );
	in.device_mem   = 0.5 * ( res + ps );
	hyb_fl_plan_t p = hyb_fl_plan_choose( &in, &r );
	CU_ASSERT_EQUAL( p.path, HYBLAS_PATH_GPU );
	CU_ASSERT_EQUAL( p.xfer, HYBLAS_FACELOOP_XFER_PER_STEP );
	CU_ASSERT( p.t_gpu_resident < 0.0 );
	in.device_mem = 0.5 * ps;
	p             = hyb_fl_plan_choose( &in, &r );
	CU_ASSERT_EQUAL( p.path, HYBLAS_PATH_CPU );
	CU_ASSERT_PTR_NOT_NULL( strstr( p.why, "device memory" ) );
	in.device_mem = 1e12;
	in.want_xfer  = HYBLAS_FACELOOP_XFER_PER_STEP;
	p             = hyb_fl_plan_choose( &in, &r );
	CU_ASSERT_EQUAL( p.xfer, HYBLAS_FACELOOP_XFER_PER_STEP );
	CU_ASSERT_EQUAL( p.t_gpu, p.t_gpu_per_step );
	in.want_xfer = HYBLAS_FACELOOP_XFER_RESIDENT;
	p            = hyb_fl_plan_choose( &in, &r );
	CU_ASSERT_EQUAL( p.xfer, HYBLAS_FACELOOP_XFER_RESIDENT );
}

/* Form: as asked; AUTO remapped with boundary faces, vanilla without (periodic). */
static void test_form( void )
{
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	hyb_fl_plan_in_t in = mesh_in( 3, 1, 0, 50, 10 );
	CU_ASSERT_EQUAL( hyb_fl_plan_choose( &in, &r ).form, HYBLAS_FACELOOP_FORM_REMAPPED );
	in.n_boundary = 0;
	CU_ASSERT_EQUAL( hyb_fl_plan_choose( &in, &r ).form, HYBLAS_FACELOOP_FORM_VANILLA );
	in.want_form = HYBLAS_FACELOOP_FORM_LOWREG;
	CU_ASSERT_EQUAL( hyb_fl_plan_choose( &in, &r ).form, HYBLAS_FACELOOP_FORM_LOWREG );
}

/* The resident scheme's state trip: a solver's first resident run page-locks its state and a
   second array of its size (charged once at the registration rate); later runs move it with
   no host work; where locking failed the trip is staged by host copies both ways. */
static void test_resident_state_pin( void )
{
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	hyb_fl_plan_in_t in    = mesh_in( 3, 1, 0, 600, 5 );
	const double     state = 8.0 * (double)in.n_cells * in.np;
	in.state_pin           = HYB_FL_PIN_LOCKED;
	const double locked    = hyb_fl_time_gpu_resident( &in, &r );
	in.state_pin           = HYB_FL_PIN_UNTRIED;
	const double first     = hyb_fl_time_gpu_resident( &in, &r );
	in.state_pin           = HYB_FL_PIN_NEVER;
	const double staged    = hyb_fl_time_gpu_resident( &in, &r );
	CU_ASSERT( locked > 0.0 );
	CU_ASSERT_DOUBLE_EQUAL( first - locked, 2.0 * state * r.register_s, 1e-12 * first );
	CU_ASSERT_DOUBLE_EQUAL( staged - locked, 2.0 * state / r.host_copy_bw, 1e-12 * staged );
	/* The per-step scheme stages through pinned buffers whatever the state is. */
	in.state_pin    = HYB_FL_PIN_LOCKED;
	const double ps = hyb_fl_time_gpu_per_step( &in, &r );
	in.state_pin    = HYB_FL_PIN_UNTRIED;
	CU_ASSERT_DOUBLE_EQUAL( hyb_fl_time_gpu_per_step( &in, &r ), ps, 0.0 );
}

static CU_TestInfo hyb_tests_faceloop_plan[] = {
	{ "forced_paths", test_forced_paths },
	{ "seed_sizes_cpu_large_device", test_seed_sizes_and_large },
	{ "min_faces_boundary", test_min_faces_boundary },
	{ "crossover_and_monotone", test_crossover_and_monotone },
	{ "memory_and_transfer", test_memory_and_xfer },
	{ "form_rule", test_form },
	{ "resident_state_pin", test_resident_state_pin },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_faceloop_plan = { "faceloop_plan",        NULL, NULL, NULL, NULL,
	                                     hyb_tests_faceloop_plan };
