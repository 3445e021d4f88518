/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's CPU benchmark: the seed's 24 cases (adv-sin and Burgers, P1 and P3,
   quadrilaterals and triangles, three sizes) and larger meshes, run through the public
   API with the serial reference loops and the OpenMP loops, each result checked (the two
   paths agree bit for bit, the error against the exact solution is small), with the
   planner's predictions and AUTO's choice beside the measured times. CSV on stdout.

   Usage: hyb_bench_faceloop [--quick] [--large] [--huge] [--seconds S]
     (default)  the 24 seed cases
     --quick    the 8 smallest seed cases, two steps each (a functional check)
     --large    also 10^5 and 10^6 faces (8 cases each; serial only up to 10^5)
     --huge     also 10^7 faces (OpenMP only)
     --seconds  time to spend per measurement (default 0.2)
   Exit status: 0, 1 when a check fails, 2 on bad usage. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/faceloop/hyb_faceloop_solver.h"
#include "hyblas_ext.h"
#include "policies/faceloop/hyb_faceloop_plan.h"
#include "tools/bench/hyb_faceloop_cases.h"

static int g_failed = 0;

static double measure( hyblas_faceloop_solver_t* s, int threads, int64_t steps,
                       hyblas_faceloop_stats_t* st, double* state, int64_t len )
{
	hyblas_faceloop_run_params_t rp;
	memset( &rp, 0, sizeof rp );
	rp.struct_size = sizeof rp;
	rp.path        = HYBLAS_PATH_CPU;
	rp.cpu_threads = threads;
	memset( st, 0, sizeof *st );
	st->struct_size = sizeof *st;
	if ( hyblas_faceloop_run( s, steps, &rp, st ) != HYBLAS_OK ) g_failed = 1;
	if ( state ) hyblas_faceloop_get_state( s, state, len );
	return st->total_s;
}

/* One case: serial and OpenMP runs of the same steps from the same start, checked; the
   model's per-step predictions; AUTO's choice on a device that is usable in the model. */
static void run_case( const hyb_flb_case_t* c, double secs, int quick, int serial )
{
	const int               eq = c->eq, p = c->p, tri = c->tri;
	const char*             label = c->label;
	hyblas_faceloop_mesh_t* m     = hyb_flb_mesh( c );
	if ( m == NULL )
	{
		g_failed = 1;
		return;
	}
	hyblas_faceloop_mesh_info_t mi;
	memset( &mi, 0, sizeof mi );
	mi.struct_size = sizeof mi;
	hyblas_faceloop_mesh_info( m, &mi );
	hyblas_faceloop_solver_t* s[2] = { hyb_flb_solver( m, c ), hyb_flb_solver( m, c ) };
	if ( s[0] == NULL || s[1] == NULL )
	{
		g_failed = 1;
		hyblas_faceloop_solver_destroy( s[0] );
		hyblas_faceloop_solver_destroy( s[1] );
		hyblas_faceloop_mesh_destroy( m );
		return;
	}
	const int64_t           len = s[0]->mesh->n_cells * s[0]->np;
	double*                 a   = malloc( (size_t)len * sizeof *a );
	double*                 b   = malloc( (size_t)len * sizeof *b );
	hyblas_faceloop_stats_t ss, so;
	/* One step on the OpenMP path sizes the timed runs. */
	const double t1    = measure( s[1], 0, 1, &so, NULL, 0 );
	int64_t      steps = quick ? 2 : (int64_t)ceil( secs / ( t1 > 1e-6 ? t1 : 1e-6 ) );
	steps              = steps < 2 ? 2 : steps > 500 ? 500 : steps;
	/* Burgers' solution stays smooth (and comparable with the exact one) until t = 1/pi. */
	if ( eq == HYBLAS_FACELOOP_BURGERS )
	{
		const int64_t room = (int64_t)( ( 0.3 - s[1]->time ) / s[1]->dt );
		steps              = steps < room ? steps : room < 1 ? 1 : room;
	}
	hyblas_faceloop_set_state( s[0], s[1]->u, len, s[1]->time ); /* the same start for both */
	double t_ser = -1.0;
	if ( serial )
	{
		measure( s[0], 1, steps, &ss, a, len );
		t_ser = ss.face_loop_s;
	}
	measure( s[1], 0, steps, &so, b, len );
	if ( serial && memcmp( a, b, (size_t)len * sizeof *a ) != 0 )
	{
		fprintf( stderr, "%s: serial and OpenMP states differ\n", label );
		g_failed = 1;
	}
	double err = NAN;
	if ( hyblas_faceloop_l2_error( s[1], &err ) != HYBLAS_OK || !( err < 0.1 ) )
	{
		fprintf( stderr, "%s: error %.3g against the exact solution\n", label, err );
		g_failed = 1;
	}
	/* The model per stage (3 per step), for a device that is usable. */
	hyb_fl_rates_t r;
	hyb_fl_rates_default( &r );
	hyb_fl_plan_in_t in;
	memset( &in, 0, sizeof in );
	in.n_faces             = mi.n_faces;
	in.n_boundary          = mi.n_boundary_faces;
	in.n_cells             = mi.n_cells;
	in.n_bilinear          = mi.n_bilinear_cells;
	in.nv                  = mi.cell_nv;
	in.np                  = s[1]->np;
	in.nq                  = s[1]->tab.nq;
	in.nqv                 = s[1]->tab.nqv;
	in.equation            = s[1]->eq.kind;
	in.steps               = 1;
	in.cpu_threads         = so.cpu_threads;
	in.device_ok           = 1;
	in.device_mem          = 64e9;
	const hyb_fl_plan_t pl = hyb_fl_plan_choose( &in, &r );
	const double        flops =
	    ( (double)( mi.n_faces - mi.n_boundary_faces ) *
	          hyb_fl_face_flops( in.np, in.nq, in.equation, 0 ) +
	      (double)mi.n_boundary_faces * hyb_fl_face_flops( in.np, in.nq, in.equation, 1 ) );
	const double per = 3.0 * (double)steps;
	printf( "%s,%s,P%d,%s,%lld,%lld,%lld,%lld,%lld,%lld,%d,%lld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
	        "%.3f,%.3f,%.2f,%.3e,%s,\"%s\"\n",
	        label, eq ? "burgers" : "adv-sin", p, tri ? "tri" : "quad", (long long)c->n,
	        (long long)mi.n_faces, (long long)c->seed_faces, (long long)mi.n_boundary_faces,
	        (long long)mi.warps_mixed_vanilla, (long long)mi.warps_mixed_remapped, so.cpu_threads,
	        (long long)steps, serial ? 1e6 * t_ser / per : NAN, 1e6 * so.face_loop_s / per,
	        serial ? 1e6 * ( ss.total_s ) / (double)steps : NAN, 1e6 * so.total_s / (double)steps,
	        1e6 * hyb_fl_cpu_stage( &in, &r, 1 ).face,
	        1e6 * hyb_fl_cpu_stage( &in, &r, so.cpu_threads ).face, 1e6 * pl.t_cpu,
	        1e6 * pl.t_gpu_per_step, 1e6 * pl.t_gpu_resident,
	        serial ? 1e-9 * flops / ( t_ser / per ) : NAN, err,
	        pl.path == HYBLAS_PATH_GPU ? "gpu" : "cpu", pl.why );
	fflush( stdout );
	free( a );
	free( b );
	hyblas_faceloop_solver_destroy( s[0] );
	hyblas_faceloop_solver_destroy( s[1] );
	hyblas_faceloop_mesh_destroy( m );
}

int main( int argc, char** argv )
{
	int    quick = 0, large = 0, huge = 0;
	double secs = 0.2;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--quick" ) == 0 )
			quick = 1;
		else if ( strcmp( argv[i], "--large" ) == 0 )
			large = 1;
		else if ( strcmp( argv[i], "--huge" ) == 0 )
			large = huge = 1;
		else if ( strcmp( argv[i], "--seconds" ) == 0 && i + 1 < argc )
			secs = atof( argv[++i] );
		else
		{
			fprintf( stderr, "usage: %s [--quick] [--large] [--huge] [--seconds S]\n", argv[0] );
			return 2;
		}
	}
	printf(
	    "# hyb_bench_faceloop: OpenMP threads %d; times per face loop (one RK stage) and per step, "
	    "microseconds; model_* from policies/faceloop (per step, device assumed usable)\n",
	    omp_get_max_threads() );
	printf(
	    "case,equation,degree,shape,n,faces,seed_faces,boundary,warps_mixed_vanilla,warps_mixed_"
	    "remapped,"
	    "threads,steps,serial_face_us,omp_face_us,serial_step_us,omp_step_us,model_serial_face_us,"
	    "model_omp_face_us,model_cpu_step_us,model_gpu_per_step_us,model_gpu_resident_step_us,"
	    "serial_model_gflops,l2_error,auto_path,auto_why\n" );
	hyb_flb_case_t cases[24];
	const int      nseed = hyb_flb_seed_cases( cases, quick );
	for ( int k = 0; k < nseed; k++ ) run_case( cases + k, secs, quick, 1 );
	const int64_t big[3] = { 100000, 1000000, 10000000 };
	for ( int b = 0; large && b < ( huge ? 3 : 2 ); b++ )
	{
		const int nl = hyb_flb_large_cases( cases, big[b] );
		for ( int k = 0; k < nl; k++ ) run_case( cases + k, secs, 0, big[b] <= 100000 );
	}
	return g_failed;
}
