/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's CPU kernels and CPU path against the serial oracle
   (bit for bit, any thread count), properties independent of both (exact
   mirror symmetry of the acoustic pulse, Laplace's maximum principle, the
   Himeno residual falling), sub-buffer equivalence, the simulated-device
   launchers called directly, and argument checks that change nothing. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/stencil/hyb_stencil_cpu.h"
#include "kernels/stencil/hyb_stencil_cpurun.h"
#include "kernels/stencil/hyb_stencil_oracle.h"
#include "kernels/stencil/hyb_stencil_sim.h"
#include "stencil_test_util.h"

/* The shapes every suite runs: kind, sizes (kernel layout), radius. */
typedef struct
{
	int32_t kind;
	int64_t nx, ny, nz;
	int32_t r;
} sc_shape_t;

static const sc_shape_t sc_shapes[] = {
	{ HYB_STENCIL_ACOUSTIC, 20, 17, 23, 4 }, { HYB_STENCIL_HIMENO, 13, 11, 15, 1 },
	{ HYB_STENCIL_LAPLACE, 37, 1, 29, 1 },   { HYB_STENCIL_STAR, 16, 15, 17, 3 },
	{ HYB_STENCIL_STAR, 30, 1, 25, 2 },      { HYB_STENCIL_STAR, 12, 10, 11, 1 },
	{ HYB_STENCIL_WAVE, 31, 1, 27, 1 },
};
#define SC_NSHAPES ( (int)( sizeof sc_shapes / sizeof sc_shapes[0] ) )

static void test_cpu_path_matches_oracle( void )
{
	const int64_t steps[] = { 7, 8, 9 };
	for ( int s = 0; s < SC_NSHAPES; s++ )
		for ( int32_t elem = 0; elem < 2; elem++ )
			for ( int ti = 0; ti < 3; ti++ )
			{
				const sc_shape_t*  sh = &sc_shapes[s];
				hyb_stencil_prob_t ref, got;
				sx_make( &ref, sh->kind, elem, sh->nx, sh->ny, sh->nz, sh->r );
				sx_clone( &ref, &got );
				double g_ref = -1.0, g_got = -1.0;
				CU_ASSERT_EQUAL( hyb_stencil_oracle( &ref, steps[ti], &g_ref ), HYB_OK );
				CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &got, steps[ti], 1 + ti, &g_got ), HYB_OK );
				CU_ASSERT( sx_same_result( &ref, &got ) );
				if ( sh->kind == HYB_STENCIL_HIMENO )
				{
					CU_ASSERT( g_ref > 0.0 );
					CU_ASSERT( fabs( g_got - g_ref ) <= 1e-12 * g_ref );
				}
				else
					CU_ASSERT( g_got == 0.0 );
				/* Not a no-op: the result moved away from the data set. */
				hyb_stencil_prob_t init;
				sx_make( &init, sh->kind, elem, sh->nx, sh->ny, sh->nz, sh->r );
				CU_ASSERT( !sx_same( &init, &got,
				                     sh->kind == HYB_STENCIL_ACOUSTIC ? HYB_ACOUSTIC_CUR : 0 ) );
				sx_free( &init );
				sx_free( &ref );
				sx_free( &got );
			}
}

/* The pulse is centred and every sum of the stencil is symmetric, so the
   field stays exactly mirror-symmetric in every axis, and it spreads. */
static void test_acoustic_mirror_symmetry( void )
{
	for ( int32_t elem = 0; elem < 2; elem++ )
	{
		hyb_stencil_prob_t p;
		sx_make( &p, HYB_STENCIL_ACOUSTIC, elem, 25, 22, 19, 4 );
		const double c0 = sx_at( &p, HYB_ACOUSTIC_CUR, 9, 10, 12 );
		CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &p, 11, 0, NULL ), HYB_OK );
		int asym = 0;
		for ( int64_t z = 0; z < p.nz; z++ )
			for ( int64_t y = 0; y < p.ny; y++ )
				for ( int64_t x = 0; x < p.nx; x++ )
				{
					const double v = sx_at( &p, HYB_ACOUSTIC_CUR, z, y, x );
					asym += v != sx_at( &p, HYB_ACOUSTIC_CUR, p.nz - 1 - z, y, x );
					asym += v != sx_at( &p, HYB_ACOUSTIC_CUR, z, p.ny - 1 - y, x );
					asym += v != sx_at( &p, HYB_ACOUSTIC_CUR, z, y, p.nx - 1 - x );
				}
		CU_ASSERT_EQUAL( asym, 0 );
		/* The centre value fell as the pulse spread out, and stayed finite. */
		const double c1 = sx_at( &p, HYB_ACOUSTIC_CUR, 9, 10, 12 );
		CU_ASSERT( c1 < c0 && c1 > -c0 );
		CU_ASSERT( sx_maxabs( &p, HYB_ACOUSTIC_CUR ) <= 1.0 );
		sx_free( &p );
	}
}

/* An averaging sweep: values stay within the boundary's [0, 1], and the
   heat of the first row spreads into the rows below it. */
static void test_laplace_maximum_principle( void )
{
	hyb_stencil_prob_t p;
	sx_make( &p, HYB_STENCIL_LAPLACE, HYB_STENCIL_F64, 33, 1, 21, 1 );
	CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &p, 40, 0, NULL ), HYB_OK );
	double lo = 1.0, hi = 0.0;
	for ( int64_t z = 0; z < p.nz; z++ )
		for ( int64_t x = 0; x < p.nx; x++ )
		{
			const double v = sx_at( &p, HYB_GRID_U, z, 0, x );
			lo             = v < lo ? v : lo;
			hi             = v > hi ? v : hi;
		}
	CU_ASSERT( lo >= 0.0 && hi <= 1.0 );
	CU_ASSERT( sx_at( &p, HYB_GRID_U, 1, 0, 16 ) > sx_at( &p, HYB_GRID_U, 2, 0, 16 ) );
	CU_ASSERT( sx_at( &p, HYB_GRID_U, 2, 0, 16 ) > 0.0 );
	sx_free( &p );
}

/* Jacobi iterations reduce the residual of the Himeno problem. */
static void test_himeno_residual_falls( void )
{
	double        g[3];
	const int64_t iters[3] = { 1, 5, 20 };
	for ( int i = 0; i < 3; i++ )
	{
		hyb_stencil_prob_t p;
		sx_make( &p, HYB_STENCIL_HIMENO, HYB_STENCIL_F32, 17, 17, 33, 1 );
		CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &p, iters[i], 0, &g[i] ), HYB_OK );
		sx_free( &p );
	}
	CU_ASSERT( g[0] > g[1] && g[1] > g[2] && g[2] > 0.0 );
}

/* The arguments of one step of p on box b: every quantity's input levels
   from p's fields `skip` bytes in, quantity j's new level into out[j]. */
static void sc_args( const hyb_stencil_prob_t* p, const hyb_stencil_box_t* b, int64_t skip,
                     void* const* out, hyb_stencil_args_t* a )
{
	hyb_stencil_roles_t roles;
	hyb_stencil_roles( p->kind, &roles );
	const void* coef[HYB_STENCIL_COEFS_MAX];
	const void* cur[HYB_STENCIL_QUANTS_MAX];
	const void* prev[HYB_STENCIL_QUANTS_MAX];
	for ( int c = 0; c < roles.ncoef; c++ ) coef[c] = (const char*)p->field[roles.coef[c]] + skip;
	for ( int j = 0; j < roles.quants; j++ )
	{
		cur[j] =
		    (const char*)p->field[hyb_stencil_state_role( &roles, j, roles.inputs - 1 )] + skip;
		prev[j] = (const char*)p->field[hyb_stencil_state_role( &roles, j, 0 )] + skip;
	}
	hyb_stencil_prob_args_q( p, b, cur, prev, out, coef, a );
}

/* One step of every stencil on a buffer holding planes [base, base + planes)
   equals the whole-domain step on the planes it updates, bit for bit, and
   leaves the other planes of the output untouched. */
static void test_sub_buffer_step( void )
{
	for ( int s = 0; s < SC_NSHAPES; s++ )
	{
		const sc_shape_t*   sh = &sc_shapes[s];
		hyb_stencil_prob_t  p;
		hyb_stencil_roles_t roles;
		sx_make( &p, sh->kind, HYB_STENCIL_F32, sh->nx, sh->ny, sh->nz, sh->r );
		hyb_stencil_roles( p.kind, &roles );
		const int64_t pb = hyb_stencil_plane_bytes( &p );
		const int64_t r  = p.radius;
		/* The buffer lacks plane 0; the range ends with fixed planes. */
		const int64_t base = 1, planes = p.nz - 1, z0 = base + r, z1 = p.nz;
		/* The whole-domain step into `full`, the buffer's into `part`, per
		   quantity. */
		char* full[HYB_STENCIL_QUANTS_MAX];
		char* part[HYB_STENCIL_QUANTS_MAX];
		void* fout[HYB_STENCIL_QUANTS_MAX];
		void* pout[HYB_STENCIL_QUANTS_MAX];
		for ( int j = 0; j < roles.quants; j++ )
		{
			full[j] = malloc( (size_t)( p.nz * pb ) );
			part[j] = malloc( (size_t)( p.nz * pb ) );
			memset( full[j], 0x5a, (size_t)( p.nz * pb ) );
			memset( part[j], 0x5a, (size_t)( p.nz * pb ) );
			fout[j] = full[j];
			pout[j] = part[j] + base * pb;
		}
		hyb_stencil_box_t  bw = hyb_stencil_prob_box( &p, 0, p.nz, 0, p.nz );
		hyb_stencil_box_t  bp = hyb_stencil_prob_box( &p, base, planes, z0, z1 );
		hyb_stencil_args_t aw, ap;
		sc_args( &p, &bw, 0, fout, &aw );
		sc_args( &p, &bp, base * pb, pout, &ap );
		CU_ASSERT_EQUAL( hyb_stencil_step_cpu( p.kind, &aw, 2 ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_stencil_step_cpu( p.kind, &ap, 3 ), HYB_OK );
		for ( int j = 0; j < roles.quants; j++ )
		{
			CU_ASSERT(
			    memcmp( full[j] + z0 * pb, part[j] + z0 * pb, (size_t)( ( z1 - z0 ) * pb ) ) == 0 );
			int untouched = 1;
			for ( int64_t i = 0; i < z0 * pb; i++ ) untouched &= part[j][i] == 0x5a;
			for ( int64_t i = z1 * pb; i < p.nz * pb; i++ ) untouched &= part[j][i] == 0x5a;
			CU_ASSERT( untouched );
			free( full[j] );
			free( part[j] );
		}
		sx_free( &p );
	}
}

/* Bad arguments: HYB_E_INVALID and not a byte written. */
static void test_kernels_reject_bad_args( void )
{
	hyb_stencil_prob_t p;
	sx_make( &p, HYB_STENCIL_ACOUSTIC, HYB_STENCIL_F64, 16, 14, 20, 4 );
	const int64_t pb  = hyb_stencil_plane_bytes( &p );
	char*         out = malloc( (size_t)( p.nz * pb ) );
	memset( out, 0x33, (size_t)( p.nz * pb ) );
	const void*        coef[1] = { p.field[HYB_ACOUSTIC_VEL] };
	hyb_stencil_args_t a;
	/* Reads below the buffer: planes [4, 20) held, interior plane 5 needs 1. */
	hyb_stencil_box_t b = hyb_stencil_prob_box( &p, 4, 16, 5, 10 );
	hyb_stencil_prob_args( &p, &b, p.field[1], p.field[0], out, coef, &a );
	CU_ASSERT_EQUAL( hyb_stencil_acoustic_cpu( &a.acoustic, 0 ), HYB_E_INVALID );
	/* Range past the buffer, past the domain, reversed; bad type, radius,
	   dimension; a NULL array. */
	const int64_t bad[][4] = {
		{ 0, 10, 0, 11 }, { 0, 21, 0, 5 }, { 0, 20, 6, 5 }, { -1, 20, 0, 5 }
	};
	for ( int i = 0; i < 4; i++ )
	{
		b = hyb_stencil_prob_box( &p, bad[i][0], bad[i][1], bad[i][2], bad[i][3] );
		hyb_stencil_prob_args( &p, &b, p.field[1], p.field[0], out, coef, &a );
		CU_ASSERT_EQUAL( hyb_stencil_acoustic_cpu( &a.acoustic, 0 ), HYB_E_INVALID );
	}
	b = hyb_stencil_prob_box( &p, 0, 20, 0, 20 );
	hyb_stencil_prob_args( &p, &b, p.field[1], p.field[0], out, coef, &a );
	a.box.elem = 7;
	CU_ASSERT_EQUAL( hyb_stencil_acoustic_cpu( &a.acoustic, 0 ), HYB_E_INVALID );
	a.box.elem   = HYB_STENCIL_F64;
	a.box.radius = 3;
	CU_ASSERT_EQUAL( hyb_stencil_acoustic_cpu( &a.acoustic, 0 ), HYB_E_INVALID );
	a.box.radius = 4;
	a.box.dims   = 2;
	CU_ASSERT_EQUAL( hyb_stencil_acoustic_cpu( &a.acoustic, 0 ), HYB_E_INVALID );
	a.box.dims     = 3;
	a.acoustic.vel = NULL;
	CU_ASSERT_EQUAL( hyb_stencil_acoustic_cpu( &a.acoustic, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_stencil_himeno_cpu( NULL, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_stencil_sim_step( 9, &a ), HYB_E_INVALID );
	int untouched = 1;
	for ( int64_t i = 0; i < p.nz * pb; i++ ) untouched &= out[i] == 0x33;
	CU_ASSERT( untouched );
	/* A residual range outside the updated planes. */
	hyb_stencil_prob_t hm;
	sx_make( &hm, HYB_STENCIL_HIMENO, HYB_STENCIL_F32, 9, 9, 9, 1 );
	hyb_stencil_roles_t roles;
	hyb_stencil_roles( HYB_STENCIL_HIMENO, &roles );
	const void* hc[HYB_STENCIL_COEFS_MAX];
	for ( int c = 0; c < roles.ncoef; c++ ) hc[c] = hm.field[roles.coef[c]];
	double ss[9];
	b = hyb_stencil_prob_box( &hm, 0, 9, 2, 6 );
	hyb_stencil_prob_args( &hm, &b, hm.field[0], NULL, hm.field[HYB_HIMENO_WRK2], hc, &a );
	a.himeno.plane_ss = ss;
	a.himeno.own0     = 1;
	a.himeno.own1     = 6;
	CU_ASSERT_EQUAL( hyb_stencil_himeno_cpu( &a.himeno, 0 ), HYB_E_INVALID );
	sx_free( &hm );
	/* The wave: a missing q level, a 3-D box, a radius of 2; nothing
	   written to either output. */
	hyb_stencil_prob_t wv;
	sx_make( &wv, HYB_STENCIL_WAVE, HYB_STENCIL_F32, 12, 1, 14, 1 );
	const int64_t wb = hyb_stencil_plane_bytes( &wv ) * wv.nz;
	char*         wo[2];
	for ( int j = 0; j < 2; j++ )
	{
		wo[j] = malloc( (size_t)wb );
		memset( wo[j], 0x44, (size_t)wb );
	}
	b = hyb_stencil_prob_box( &wv, 0, wv.nz, 0, wv.nz );
	sc_args( &wv, &b, 0, (void* const*)wo, &a );
	CU_ASSERT_EQUAL( hyb_stencil_wave_cpu( &a.wave, 0 ), HYB_OK );
	memset( wo[0], 0x44, (size_t)wb );
	memset( wo[1], 0x44, (size_t)wb );
	a.wave.q = NULL;
	CU_ASSERT_EQUAL( hyb_stencil_wave_cpu( &a.wave, 0 ), HYB_E_INVALID );
	a.wave.q        = wv.field[HYB_WAVE_Q];
	a.wave.box.dims = 3;
	CU_ASSERT_EQUAL( hyb_stencil_wave_cpu( &a.wave, 0 ), HYB_E_INVALID );
	a.wave.box.dims   = 2;
	a.wave.box.radius = 2;
	CU_ASSERT_EQUAL( hyb_stencil_sim_step( HYB_STENCIL_WAVE, &a ), HYB_E_INVALID );
	for ( int j = 0; j < 2; j++ )
	{
		for ( int64_t i = 0; i < wb; i++ ) untouched &= wo[j][i] == 0x44;
		free( wo[j] );
	}
	CU_ASSERT( untouched );
	sx_free( &wv );
	free( out );
	sx_free( &p );
}

/* The simulated device's launchers, called directly on host memory, are the
   CPU kernels: same output as one CPU-path step. */
static void test_sim_launchers( void )
{
	const hyb_kernel_fn launch[] = { NULL,
		                             hyb_stencil_acoustic_sim,
		                             hyb_stencil_himeno_sim,
		                             hyb_stencil_laplace_sim,
		                             hyb_stencil_star_sim,
		                             hyb_stencil_wave_sim };
	for ( int s = 0; s < SC_NSHAPES; s++ )
	{
		const sc_shape_t*   sh = &sc_shapes[s];
		hyb_stencil_prob_t  p, q;
		hyb_stencil_roles_t roles;
		sx_make( &p, sh->kind, HYB_STENCIL_F64, sh->nx, sh->ny, sh->nz, sh->r );
		sx_clone( &p, &q );
		hyb_stencil_roles( p.kind, &roles );
		void* next[HYB_STENCIL_QUANTS_MAX];
		for ( int j = 0; j < roles.quants; j++ )
			next[j] = p.field[hyb_stencil_state_role( &roles, j, roles.inputs )];
		hyb_stencil_box_t  b = hyb_stencil_prob_box( &p, 0, p.nz, 0, p.nz );
		hyb_stencil_args_t a;
		sc_args( &p, &b, 0, next, &a );
		CU_ASSERT_EQUAL( launch[p.kind]( NULL, &a ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &q, 1, 0, NULL ), HYB_OK );
		/* The CPU path put the new level into place; the launcher wrote it
		   to the work field. */
		for ( int j = 0; j < roles.quants; j++ )
			CU_ASSERT( memcmp( next[j],
			                   q.field[hyb_stencil_state_role( &roles, j, roles.inputs - 1 )],
			                   (size_t)sx_field_bytes( &p ) ) == 0 );
		a.box.z1 = p.nz + 1;
		CU_ASSERT_EQUAL( launch[p.kind]( NULL, &a ), HYB_E_INVALID );
		sx_free( &p );
		sx_free( &q );
	}
}

/* The star of radius 1 with the Laplace weights is the Laplace sweep up to
   rounding (the sums run in another order). */
static void test_star_is_laplace( void )
{
	hyb_stencil_prob_t lp, st;
	sx_make( &lp, HYB_STENCIL_LAPLACE, HYB_STENCIL_F64, 29, 1, 31, 1 );
	sx_make( &st, HYB_STENCIL_STAR, HYB_STENCIL_F64, 29, 1, 31, 1 );
	hyb_stencil_copy_planes( &st, st.field[HYB_GRID_U], lp.field[HYB_GRID_U], 0, st.nz, 0 );
	st.center = 0.0;
	for ( int a = 0; a < 3; a++ ) st.coef[a][0] = st.coef[a][1] = 0.25;
	CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &lp, 25, 0, NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &st, 25, 0, NULL ), HYB_OK );
	CU_ASSERT( sx_maxdiff( &lp, &st, HYB_GRID_U ) <= 25 * 4 * 0x1.0p-52 );
	sx_free( &lp );
	sx_free( &st );
}

static CU_TestInfo hyb_tests_stencil_cpu[] = {
	{ "cpu_path_matches_oracle", test_cpu_path_matches_oracle },
	{ "acoustic_mirror_symmetry", test_acoustic_mirror_symmetry },
	{ "laplace_maximum_principle", test_laplace_maximum_principle },
	{ "himeno_residual_falls", test_himeno_residual_falls },
	{ "sub_buffer_step", test_sub_buffer_step },
	{ "kernels_reject_bad_args", test_kernels_reject_bad_args },
	{ "sim_launchers", test_sim_launchers },
	{ "star_is_laplace", test_star_is_laplace },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_stencil_cpu = {
	"stencil_cpu", NULL, NULL, NULL, NULL, hyb_tests_stencil_cpu
};
