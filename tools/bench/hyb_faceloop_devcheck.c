/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's device path end to end through the public API: for each case, every
   face form (vanilla, remapped, register-limited) in both transfer schemes (per step as
   the seed, resident) on the device the process selects (HYBLAS_DEVICE: the CUDA plugin,
   or the simulated device), checked against the CPU's OpenMP run of the same steps, with
   the statistics' times beside the CPU's. CSV on stdout.

   Checks: each device run stays on the device (no fallback); its state is within
   HYB_FLD_TOL of the CPU's, relative to the CPU state's largest magnitude (the device's
   code is the CPU's per-element code; only the compilers' multiply-add contraction and
   the device's sine differ, ~1e-16 per face loop, grown over a few steps); remapped equals
   vanilla bit for bit in each scheme (one compiled kernel, per-face outputs, no atomics).

   Usage: hyb_faceloop_devcheck [--quick] [--large]
     (default)  the seed's 24 cases, 5 steps each
     --quick    its 8 smallest cases, 2 steps each
     --large    also the 10^5 and 10^6-face meshes
   Exit status: 0, 1 when a check fails, 2 on bad usage, 77 when no device is usable. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyblas_ext.h"
#include "tools/bench/hyb_faceloop_cases.h"

#define HYB_FLD_TOL 1e-10

static int g_failed = 0;

/* Run `steps` steps of a fresh solver of case c; the state into u (len values). */
static int run( hyblas_faceloop_mesh_t* m, const hyb_flb_case_t* c, hyblas_path_t path,
                hyblas_faceloop_form_t form, hyblas_faceloop_xfer_t xfer, int64_t steps, double* u,
                int64_t len, hyblas_faceloop_stats_t* st )
{
	hyblas_faceloop_solver_t* s = hyb_flb_solver( m, c );
	if ( s == NULL ) return -1;
	hyblas_faceloop_run_params_t rp;
	memset( &rp, 0, sizeof rp );
	rp.struct_size = sizeof rp;
	rp.path        = path;
	rp.form        = form;
	rp.xfer        = xfer;
	memset( st, 0, sizeof *st );
	st->struct_size = sizeof *st;
	int rc          = hyblas_faceloop_run( s, steps, &rp, st ) == HYBLAS_OK &&
                     hyblas_faceloop_get_state( s, u, len ) == HYBLAS_OK
	                      ? 0
	                      : -1;
	hyblas_faceloop_solver_destroy( s );
	return rc;
}

static double max_rel( const double* a, const double* ref, int64_t n )
{
	double d = 0.0, m = 0.0;
	for ( int64_t i = 0; i < n; i++ )
	{
		d = fmax( d, fabs( a[i] - ref[i] ) );
		m = fmax( m, fabs( ref[i] ) );
	}
	return m > 0.0 ? d / m : d;
}

/* One case: the CPU reference, then 3 forms x 2 schemes on the device. Returns 77 when the
   device is not usable (the first device run fell back for that reason). */
static int check_case( const hyb_flb_case_t* c, int64_t steps )
{
	hyblas_faceloop_mesh_t* m = hyb_flb_mesh( c );
	if ( m == NULL ) return g_failed = 1, 0;
	hyblas_faceloop_mesh_info_t mi;
	memset( &mi, 0, sizeof mi );
	mi.struct_size = sizeof mi;
	hyblas_faceloop_mesh_info( m, &mi );
	hyblas_faceloop_solver_t*     s0 = hyb_flb_solver( m, c );
	hyblas_faceloop_solver_info_t si;
	memset( &si, 0, sizeof si );
	si.struct_size = sizeof si;
	if ( s0 == NULL || hyblas_faceloop_solver_info( s0, &si ) != HYBLAS_OK )
	{
		hyblas_faceloop_solver_destroy( s0 );
		hyblas_faceloop_mesh_destroy( m );
		return g_failed = 1, 0;
	}
	hyblas_faceloop_solver_destroy( s0 );
	const int64_t           len = si.n_cells * si.modes_per_cell;
	double*                 ref = malloc( (size_t)len * sizeof *ref );
	double*                 u   = malloc( (size_t)len * sizeof *u );
	double*                 van = malloc( (size_t)len * sizeof *van );
	int                     rc  = 0;
	hyblas_faceloop_stats_t cs, st;
	if ( !ref || !u || !van ||
	     run( m, c, HYBLAS_PATH_CPU, HYBLAS_FACELOOP_FORM_VANILLA, HYBLAS_FACELOOP_XFER_AUTO, steps,
	          ref, len, &cs ) )
	{
		g_failed = 1;
		goto done;
	}
	static const hyblas_faceloop_form_t forms[] = { HYBLAS_FACELOOP_FORM_VANILLA,
		                                            HYBLAS_FACELOOP_FORM_REMAPPED,
		                                            HYBLAS_FACELOOP_FORM_LOWREG };
	static const hyblas_faceloop_xfer_t xfers[] = { HYBLAS_FACELOOP_XFER_PER_STEP,
		                                            HYBLAS_FACELOOP_XFER_RESIDENT };
	static const char* const            fname[] = { "auto", "vanilla", "remapped", "lowreg" };
	for ( int x = 0; x < 2; x++ )
		for ( int f = 0; f < 3; f++ )
		{
			if ( run( m, c, HYBLAS_PATH_GPU, forms[f], xfers[x], steps, u, len, &st ) )
			{
				g_failed = 1;
				continue;
			}
			if ( st.fell_back && strstr( st.why, "no usable device" ) )
			{
				rc = 77;
				goto done;
			}
			const double err  = max_rel( u, ref, len );
			const int    bits = f == 0 ? 1 : memcmp( u, van, (size_t)len * sizeof *u ) == 0;
			if ( f == 0 ) memcpy( van, u, (size_t)len * sizeof *u );
			const int ok = st.path == HYBLAS_PATH_GPU && !st.fell_back && err <= HYB_FLD_TOL &&
			               ( f != 1 || bits );
			if ( !ok )
			{
				fprintf( stderr,
				         "%s p%d %s %s: path %d fell_back %d err %.3g bitwise-vs-vanilla %d (%s)\n",
				         c->label, c->p, fname[forms[f]], x ? "resident" : "per-step", (int)st.path,
				         st.fell_back, err, bits, st.why );
				g_failed = 1;
			}
			printf( "%s,%s,%d,%lld,%s,%s,%lld,%.6e,%.6e,%.6e,%.6e,%.6e,%.2f,%.3e,%d,%lld,%lld,%s\n",
			        c->label, c->eq == HYBLAS_FACELOOP_BURGERS ? "burgers" : "adv-sin", c->p,
			        (long long)mi.n_faces, fname[forms[f]], x ? "resident" : "per-step",
			        (long long)steps, st.total_s, st.face_loop_s, st.face_end_to_end_s, cs.total_s,
			        cs.face_loop_s, st.total_s > 0 ? cs.total_s / st.total_s : 0.0, err, bits,
			        (long long)st.bytes_h2d, (long long)st.bytes_d2h, ok ? "ok" : "FAIL" );
			fflush( stdout );
		}
done:
	free( ref );
	free( u );
	free( van );
	hyblas_faceloop_mesh_destroy( m );
	return rc;
}

int main( int argc, char** argv )
{
	int quick = 0, large = 0;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--quick" ) == 0 )
			quick = 1;
		else if ( strcmp( argv[i], "--large" ) == 0 )
			large = 1;
		else
		{
			fprintf( stderr, "usage: %s [--quick] [--large]\n", argv[0] );
			return 2;
		}
	}
	const int64_t steps = quick ? 2 : 5;
	printf( "case,equation,degree,faces,form,xfer,steps,gpu_total_s,gpu_face_kernel_s,gpu_face_e2e_"
	        "s,cpu_total_s,"
	        "cpu_face_s,speedup_total,max_rel_err,remapped_bitwise,bytes_h2d,bytes_d2h,check\n" );
	hyb_flb_case_t cases[24];
	int            n = hyb_flb_seed_cases( cases, quick );
	for ( int k = 0; k < n; k++ )
		if ( check_case( cases + k, steps ) == 77 )
		{
			printf( "# no usable device for the face loop: skipped\n" );
			return 77;
		}
	for ( int b = 0; large && b < 2; b++ )
	{
		n = hyb_flb_large_cases( cases, b == 0 ? 100000 : 1000000 );
		for ( int k = 0; k < n; k++ ) check_case( cases + k, steps );
	}
	printf( "# %s (tolerance %.0e relative to the CPU's OpenMP state)\n",
	        g_failed ? "FAILED" : "PASSED", HYB_FLD_TOL );
	return g_failed;
}
