/* SPDX-License-Identifier: BSD-3-Clause */
/* Compressed fields in the stencil engine (issue 22) through the public
   API on the simulated device: rates refused with a clear status, the
   device pipeline equal bit for bit to the CPU path's round trips (2-D and
   3-D, float and double, several chunks so that region sharing crosses the
   compressed common regions), uncompressed fields untouched, faults giving
   the uncompressed CPU result, and the fidelity check. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/hyb_test_util.h"
#include "hyblas_ext.h"
#include "dispatch/stencil/hyb_stencil_device.h"
#include "dispatch/stencil/hyb_stencil_zfill.h"
#include "kernels/sim/hyb_device_sim.h"
#include "kernels/stencil/hyb_stencil_sched.h"
#include "kernels/hyb_device.h"
#include "kernels/stencil/hyb_stencil_zfp.h"
#include "kernels/zfp/hyb_zfp_host.h"
#include "stencil_test_util.h"

/* Rates of the state (the input roles and the work role) and of every
   read-only field. */
static void sz_rates( hyblas_stencil_desc_t* d, double state, double coef )
{
	const int nf = d->kind == HYBLAS_STENCIL_ACOUSTIC ? 4
	               : d->kind == HYBLAS_STENCIL_HIMENO ? 14
	                                                  : 2;
	for ( int f = 0; f < nf; f++ )
	{
		const int is_state = d->kind == HYBLAS_STENCIL_ACOUSTIC ? f <= 2
		                     : d->kind == HYBLAS_STENCIL_HIMENO ? ( f == 0 || f == 13 )
		                                                        : 1;
		d->fields[f].rate  = is_state ? state : coef;
	}
}

/* The damped wave's rates: p (P and its work array; the work array 0 when
   pw is 0) and q (Q and Q_WORK). */
static void sz_wave_rates( hyblas_stencil_desc_t* d, double p, double pw, double q )
{
	d->fields[HYBLAS_WAVE_P].rate      = p;
	d->fields[HYBLAS_WAVE_P_WORK].rate = pw;
	d->fields[HYBLAS_WAVE_Q].rate      = q;
	d->fields[HYBLAS_WAVE_Q_WORK].rate = q;
}

/* A float problem of the fault sweeps, the fields it compresses and its step count. */
typedef struct
{
	hyblas_stencil_kind_t kind;
	int64_t               nx, ny, nz;
	int64_t               steps;
	void ( *compress )( hyblas_stencil_desc_t* d );
} sz_problem_t;

static void sz_compress_acoustic( hyblas_stencil_desc_t* d )
{
	sz_rates( d, 16.0, 16.0 );
}

static void sz_compress_pressure( hyblas_stencil_desc_t* d )
{
	sz_wave_rates( d, 16.0, 16.0, 0.0 );
}

/* Each fault of the list strikes a compressed run of `pb` with region sharing (d 3, k 2):
   the run finishes on the CPU without compression, with the uncompressed CPU result
   (sx_fault_run compares it with an untouched copy's). */
static void sz_faults_fall_back( const sz_problem_t* pb, const char* const* faults, int n )
{
	for ( int i = 0; i < n; i++ )
	{
		hyblas_stencil_desc_t want =
		    sx_desc( pb->kind, HYBLAS_STENCIL_FLOAT, pb->nx, pb->ny, pb->nz, 0 );
		hyblas_stencil_desc_t got =
		    sx_desc( pb->kind, HYBLAS_STENCIL_FLOAT, pb->nx, pb->ny, pb->nz, 0 );
		pb->compress( &got );
		const hyblas_stencil_stats_t sg =
		    sx_fault_run( &want, &got, faults[i], HYBLAS_STENCIL_SCHEME_SHARED, 3, 2, pb->steps );
		CU_ASSERT_EQUAL( sg.compressed_fields, 0 );
		sx_desc_free( &want );
		sx_desc_free( &got );
	}
}

/* Values that no rate codes exactly: the documented Laplace data (0 and 1)
   and the acoustic's constant velocity would round trip losslessly. */
static void sz_vary( hyblas_stencil_desc_t* d )
{
	const int     f   = d->kind == HYBLAS_STENCIL_ACOUSTIC ? 3 : 0;
	const int64_t n   = d->nx * d->ny * d->nz;
	const int     dbl = d->type == HYBLAS_STENCIL_DOUBLE;
	if ( d->kind != HYBLAS_STENCIL_ACOUSTIC && d->kind != HYBLAS_STENCIL_LAPLACE2D ) return;
	for ( int64_t i = 0; i < n; i++ )
	{
		const double w = 1.0 + 0.01 * sin( 0.37 * (double)i );
		if ( dbl )
			( (double*)d->fields[f].data )[i] = f == 3 ? 1500.0 * w : w - 0.5;
		else
			( (float*)d->fields[f].data )[i] = (float)( f == 3 ? 1500.0 * w : w - 0.5 );
	}
}

static void test_rates_refused( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	hyblas_stencil_desc_t d =
	    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 12, 10, 40, 0 );
	hyblas_stencil_t* h = NULL;
	const struct
	{
		int    field;
		double rate;
	} bad[] = { { 1, 33.0 }, { 1, -1.0 }, { 1, NAN }, { 1, INFINITY }, { 2, 16.0 }, { 0, 8.0 } };
	for ( int i = 0; i < (int)( sizeof bad / sizeof bad[0] ); i++ )
	{
		hyblas_stencil_desc_t e = d;
		sz_rates( &e, 0.0, 0.0 );
		/* PREV and CUR must agree; the work role alone carries no data. */
		if ( bad[i].field == 0 ) e.fields[1].rate = 16.0;
		e.fields[bad[i].field].rate = bad[i].rate;
		CU_ASSERT_EQUAL( hyblas_stencil_create( &e, &h ), HYBLAS_E_INVALID );
		CU_ASSERT( h == NULL );
	}
	/* Double takes up to 64 bits per value; a float field 32. */
	hyblas_stencil_desc_t g =
	    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_DOUBLE, 10, 40, 1, 0 );
	sz_rates( &g, 64.0, 0.0 );
	CU_ASSERT_EQUAL( hyblas_stencil_create( &g, &h ), HYBLAS_OK );
	hyblas_stencil_destroy( h );
	h = NULL;
	sz_rates( &g, 64.5, 0.0 );
	CU_ASSERT_EQUAL( hyblas_stencil_create( &g, &h ), HYBLAS_E_INVALID );
	/* 4 rows of 10 values at 0.5625 bits: 3 blocks of 9 bits, not whole bytes. */
	sz_rates( &g, 0.5625, 0.0 );
	CU_ASSERT_EQUAL( hyblas_stencil_create( &g, &h ), HYBLAS_E_INVALID );
	CU_ASSERT( h == NULL );

	/* Compressed fields cannot take the in-core or copying scheme; too
	   many checkpoints are refused; neither changes the arrays. */
	sz_rates( &d, 16.0, 0.0 );
	const int64_t bytes = sx_desc_bytes( &d );
	void*         snap  = malloc( (size_t)bytes );
	memcpy( snap, d.fields[1].data, (size_t)bytes );
	hyblas_stencil_stats_t  st;
	hyblas_stencil_params_t p = sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_COPY, 2, 2 );
	CU_ASSERT_EQUAL( sx_solve( &d, &p, 4, &st ), HYBLAS_E_UNSUPPORTED );
	p = sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_IN_CORE, 2, 0 );
	CU_ASSERT_EQUAL( sx_solve( &d, &p, 4, &st ), HYBLAS_E_UNSUPPORTED );
	p                = sx_params( HYBLAS_PATH_AUTO, 0, 0, 0 );
	p.fidelity_every = 1;
	CU_ASSERT_EQUAL( sx_solve( &d, &p, HYBLAS_STENCIL_FIDELITY_MAX + 1, &st ), HYBLAS_E_INVALID );
	p.fidelity_every = -1;
	CU_ASSERT_EQUAL( sx_solve( &d, &p, 4, &st ), HYBLAS_E_INVALID );
	CU_ASSERT( memcmp( snap, d.fields[1].data, (size_t)bytes ) == 0 );
	free( snap );
	sx_desc_free( &d );
	sx_desc_free( &g );
	hyb_t_sim_end();
}

static const struct
{
	hyblas_stencil_kind_t kind;
	hyblas_stencil_type_t type;
	int64_t               nx, ny, nz;
	int32_t               r;
	double                state, coef; /* rates */
} sz_cases[] = {
	{ HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 30, 64, 1, 0, 16.0, 0.0 },
	{ HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_DOUBLE, 17, 61, 1, 0, 24.0, 0.0 },
	{ HYBLAS_STENCIL_STAR, HYBLAS_STENCIL_FLOAT, 26, 70, 1, 2, 12.0, 0.0 },
	{ HYBLAS_STENCIL_STAR, HYBLAS_STENCIL_DOUBLE, 10, 9, 50, 1, 32.0, 0.0 },
	{ HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 12, 10, 70, 0, 16.0, 0.0 },
	{ HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 12, 10, 70, 0, 16.0, 8.0 },
	{ HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 9, 11, 66, 0, 0.0, 20.0 },
	{ HYBLAS_STENCIL_HIMENO, HYBLAS_STENCIL_FLOAT, 11, 9, 30, 0, 16.0, 16.0 },
};
#define SZ_NCASES ( (int)( sizeof sz_cases / sizeof sz_cases[0] ) )

/* The device pipeline (direct and shared, several chunks, k not dividing
   T) equals the CPU path's round trips bit for bit; it moved fewer bytes
   than raw; the read-only fields are untouched; and the result is not the
   uncompressed one (the test would pass vacuously otherwise). */
static void test_device_equals_cpu( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const int plans[][4] = { { HYBLAS_STENCIL_SCHEME_SHARED, 3, 2, 7 },
		                     { HYBLAS_STENCIL_SCHEME_DIRECT, 2, 3, 7 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 4, 1, 3 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 1, 4, 5 } };
	for ( int c = 0; c < SZ_NCASES; c++ )
		for ( int q = 0; q < (int)( sizeof plans / sizeof plans[0] ); q++ )
		{
			hyblas_stencil_desc_t d[3];
			for ( int i = 0; i < 3; i++ )
			{
				d[i] = sx_desc( sz_cases[c].kind, sz_cases[c].type, sz_cases[c].nx, sz_cases[c].ny,
				                sz_cases[c].nz, sz_cases[c].r );
				sz_vary( &d[i] );
				if ( i < 2 ) sz_rates( &d[i], sz_cases[c].state, sz_cases[c].coef );
			}
			const int64_t bytes = sx_desc_bytes( &d[0] );
			const int     ro    = sz_cases[c].kind == HYBLAS_STENCIL_ACOUSTIC ? 3
			                      : sz_cases[c].kind == HYBLAS_STENCIL_HIMENO ? 1
			                                                                  : -1;
			void*         keep  = ro >= 0 ? malloc( (size_t)bytes ) : NULL;
			if ( keep ) memcpy( keep, d[1].fields[ro].data, (size_t)bytes );
			hyblas_stencil_params_t pc =
			    sx_params( HYBLAS_PATH_CPU, plans[q][0], plans[q][1], plans[q][2] );
			hyblas_stencil_params_t pg =
			    sx_params( HYBLAS_PATH_GPU, plans[q][0], plans[q][1], plans[q][2] );
			hyblas_stencil_stats_t sc, sg, su;
			const hyblas_status_t  rc = sx_solve( &d[0], &pc, plans[q][3], &sc );
			if ( rc == HYBLAS_E_INVALID )
			{
				/* A halo deeper than the aligned chunks: refused on both paths. */
				CU_ASSERT_EQUAL( sx_solve( &d[1], &pg, plans[q][3], &sg ), HYBLAS_E_INVALID );
				for ( int i = 0; i < 3; i++ ) sx_desc_free( &d[i] );
				free( keep );
				continue;
			}
			CU_ASSERT_EQUAL( rc, HYBLAS_OK );
			CU_ASSERT_EQUAL( sx_solve( &d[1], &pg, plans[q][3], &sg ), HYBLAS_OK );
			CU_ASSERT_EQUAL( sx_solve( &d[2], &pg, plans[q][3], &su ), HYBLAS_OK );
			CU_ASSERT_EQUAL( sg.path, HYBLAS_PATH_GPU );
			CU_ASSERT_EQUAL( sg.fell_back, 0 );
			CU_ASSERT( sg.compressed_fields > 0 && sc.compressed_fields == sg.compressed_fields );
			CU_ASSERT( sg.bytes_h2d < sg.bytes_h2d_raw );
			CU_ASSERT( su.bytes_h2d == su.bytes_h2d_raw && su.compressed_fields == 0 );
			const int same = sx_desc_same( &d[0], &d[1] );
			CU_ASSERT( same );
			CU_ASSERT( !sx_desc_same( &d[1], &d[2] ) );
			if ( sx_desc_same( &d[1], &d[2] ) ) printf( "\n  exact: case %d plan %d\n", c, q );
			if ( sz_cases[c].kind == HYBLAS_STENCIL_HIMENO )
				CU_ASSERT( sg.residual == sc.residual );
			if ( keep ) CU_ASSERT( memcmp( keep, d[1].fields[ro].data, (size_t)bytes ) == 0 );
			if ( !same ) printf( "\n  case %d plan %d: %s\n", c, q, sg.why );
			for ( int i = 0; i < 3; i++ ) sx_desc_free( &d[i] );
			free( keep );
		}
	hyb_t_sim_end();
}

/* A fault anywhere in a compressed run (the codec's kernels by name, the
   copies, the stencil kernel, synchronous or reported later, at the
   streams' synchronization: a compressed run has no host step, so no event
   synchronization, which stencil_device's faults_fall_back covers): the
   run finishes on the CPU without compression, and the caller's arrays
   hold exactly the uncompressed CPU result. */
static void test_faults_give_exact_cpu( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const char*        faults[] = { "zfp.decode:1", "zfp.decode:7", "zfp.encode:2", "zfp.encode:3a",
		                            "h2d:2",        "d2h:3",        "d2d:1",        "stencil.acoustic:4",
		                            "d2h:6a" };
	const sz_problem_t acoustic = { HYBLAS_STENCIL_ACOUSTIC, 12, 10, 70, 6, sz_compress_acoustic };
	sz_faults_fall_back( &acoustic, faults, (int)( sizeof faults / sizeof faults[0] ) );
	hyb_t_sim_end();
}

/* The fidelity check: a constant field is coded exactly (zero error at
   every checkpoint); a varying one shows errors that are finite, small at
   rate 24 and ordered (mean <= max); checkpoints every 4 steps and at the
   end; the checked run's result equals the unchecked run's when the
   interval is a multiple of k. */
static void test_fidelity( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	for ( int path = 0; path < 2; path++ )
	{
		hyblas_stencil_desc_t d =
		    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 32, 64, 1, 0 );
		float* u = d.fields[0].data;
		for ( int64_t i = 0; i < 32 * 64; i++ ) u[i] = 0.75f;
		sz_rates( &d, 16.0, 0.0 );
		hyblas_stencil_params_t p = sx_params( path ? HYBLAS_PATH_GPU : HYBLAS_PATH_CPU,
		                                       HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
		p.fidelity_every  = 4;
		p.fidelity_points = 500;
		hyblas_stencil_stats_t s;
		CU_ASSERT_EQUAL( sx_solve( &d, &p, 10, &s ), HYBLAS_OK );
		CU_ASSERT_EQUAL( s.fidelity_checks, 3 );
		CU_ASSERT_EQUAL( s.fidelity[0].step, 4 );
		CU_ASSERT_EQUAL( s.fidelity[2].step, 10 );
		for ( int i = 0; i < s.fidelity_checks; i++ )
		{
			CU_ASSERT( s.fidelity[i].points >= 500 / 64 * 64 );
			CU_ASSERT( s.fidelity[i].max_abs == 0.0 && s.fidelity[i].max_rel == 0.0 );
		}
		sx_desc_free( &d );

		hyblas_stencil_desc_t a =
		    sx_desc( HYBLAS_STENCIL_STAR, HYBLAS_STENCIL_FLOAT, 26, 70, 1, 2 );
		hyblas_stencil_desc_t b =
		    sx_desc( HYBLAS_STENCIL_STAR, HYBLAS_STENCIL_FLOAT, 26, 70, 1, 2 );
		sz_rates( &a, 24.0, 0.0 );
		sz_rates( &b, 24.0, 0.0 );
		CU_ASSERT_EQUAL( sx_solve( &a, &p, 10, &s ), HYBLAS_OK );
		CU_ASSERT_EQUAL( s.fidelity_checks, 3 );
		for ( int i = 0; i < s.fidelity_checks; i++ )
		{
			const hyblas_stencil_fidelity_t* f = &s.fidelity[i];
			CU_ASSERT( f->max_abs > 0.0 && f->max_abs < 1e-3 );
			CU_ASSERT( f->mean_abs <= f->max_abs && f->mean_rel <= f->max_rel );
			CU_ASSERT( isfinite( f->max_rel ) );
		}
		hyblas_stencil_params_t q = p;
		q.fidelity_every          = 0;
		CU_ASSERT_EQUAL( sx_solve( &b, &q, 10, &s ), HYBLAS_OK );
		CU_ASSERT_EQUAL( s.fidelity_checks, 0 );
		CU_ASSERT( sx_desc_same( &a, &b ) );
		sx_desc_free( &a );
		sx_desc_free( &b );
	}
	hyb_t_sim_end();
}

/* The layout the pipeline rests on: for fields of each kind of shape, type
   and rate the engine accepts, any range of whole bands encoded on its own
   is the same bytes as that slice of the whole field's stream, and decodes
   alone; and the CPU path's round trip (libzfp when it opens) is the host
   codec's, bit for bit. */
static void test_band_slices( void )
{
	/* Double precision and a 3-D star when the last is 1; sizes in the
	   kernels' layout (2-D: ny = 1, the rows as planes); the rate. */
	const double cs[][5] = { { 0, 30, 1, 41, 16.0 },
		                     { 0, 13, 1, 38, 1.5 },
		                     { 1, 17, 1, 29, 7.0 },
		                     { 0, 10, 9, 22, 3.0 },
		                     { 1, 9, 7, 19, 24.0 } };
	for ( int c = 0; c < (int)( sizeof cs / sizeof cs[0] ); c++ )
	{
		const int32_t      elem = cs[c][0] != 0.0 ? HYB_STENCIL_F64 : HYB_STENCIL_F32;
		const int64_t      nx = (int64_t)cs[c][1], ny = (int64_t)cs[c][2], nz = (int64_t)cs[c][3];
		const double       rate = cs[c][4];
		hyb_stencil_prob_t p;
		sx_make( &p, ny > 1 ? HYB_STENCIL_STAR : HYB_STENCIL_LAPLACE, elem, nx, ny, nz, 1 );
		p.rate[0] = rate;
		CU_ASSERT_EQUAL( hyb_stencil_zfp_check( &p ), HYB_OK );
		const size_t   vs = elem == HYB_STENCIL_F64 ? 8 : 4;
		const size_t   n  = (size_t)( nx * ny * nz );
		unsigned char* u  = p.field[0];
		for ( size_t i = 0; i < n * vs; i += vs ) u[i] ^= (unsigned char)( i * 7 ); /* not smooth */
		hyb_stencil_zarr_t z;
		CU_ASSERT_FATAL( hyb_stencil_zarr_init( &z, &p, rate, NULL ) == HYB_OK );
		CU_ASSERT_EQUAL( hyb_stencil_zarr_put( &z, u ), HYB_OK );
		const int64_t  planes = nz;
		const size_t   plane  = (size_t)( nx * ny ) * vs;
		unsigned char* whole  = malloc( n * vs );
		unsigned char* part   = calloc( n, vs );
		uint64_t*      stream = malloc( z.bytes + 8 );
		CU_ASSERT_EQUAL( hyb_stencil_zarr_get( &z, whole ), HYB_OK );
		for ( int64_t z0 = 0; z0 < planes; z0 += 4 )
			for ( int64_t z1 = z0 + 4; z1 <= planes + 3; z1 += 4 )
			{
				const int64_t         e   = z1 < planes ? z1 : planes;
				const hyb_zfp_field_t f   = hyb_stencil_zarr_slab( &z, z0, e );
				const size_t          off = hyb_stencil_zarr_offset( &z, z0 );
				const size_t          b   = hyb_stencil_zarr_bytes( &z, z0, e );
				CU_ASSERT_EQUAL(
				    hyb_zfp_host_encode( &f, rate, u + (size_t)z0 * plane, stream, b + 8 ),
				    HYB_OK );
				CU_ASSERT( off + b <= z.bytes && memcmp( stream, z.data + off, b ) == 0 );
				CU_ASSERT_EQUAL(
				    hyb_zfp_host_decode( &f, rate, stream, b, part + (size_t)z0 * plane ), HYB_OK );
				CU_ASSERT( memcmp( part + (size_t)z0 * plane, whole + (size_t)z0 * plane,
				                   (size_t)( e - z0 ) * plane ) == 0 );
			}
		/* The CPU path's round trip: the host codec's bits. */
		CU_ASSERT_EQUAL( hyb_stencil_zfp_round_trip( &p, rate, u ), HYB_OK );
		CU_ASSERT( memcmp( u, whole, n * vs ) == 0 );
		free( whole );
		free( part );
		free( stream );
		hyb_stencil_zarr_free( &z );
		sx_free( &p );
	}
}

/* A whole array through the device's codec (the run's fill and store):
   in pieces of one band and of several, on two streams, the stream the
   host codec writes and the values it decodes; a fault while filling is
   reported, one while storing still leaves the values complete (the host
   codec finishes them). */
static void test_device_fill( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	/* 2-D float, 3-D double; rows not a multiple of 4. */
	const double cs[][5]  = { { 0, 30, 1, 41, 16.0 }, { 1, 9, 7, 19, 12.0 } };
	const char*  faults[] = { "zfp.decode:2", "d2h:3", "h2d:1" };
	for ( int c = 0; c < 2; c++ )
		for ( int64_t limit = 1; limit <= 4096; limit *= 4096 )
		{
			const int32_t elem = cs[c][0] != 0.0 ? HYB_STENCIL_F64 : HYB_STENCIL_F32;
			const int64_t nx = (int64_t)cs[c][1], ny = (int64_t)cs[c][2], nz = (int64_t)cs[c][3];
			hyb_stencil_prob_t p;
			sx_make( &p, ny > 1 ? HYB_STENCIL_STAR : HYB_STENCIL_LAPLACE, elem, nx, ny, nz, 1 );
			const size_t   n = (size_t)( nx * ny * nz ) * ( elem == HYB_STENCIL_F64 ? 8 : 4 );
			unsigned char* u = p.field[0];
			for ( size_t i = 0; i < n; i++ ) u[i] ^= (unsigned char)( i * 7 ); /* not smooth */
			hyb_stencil_zarr_t host, dev;
			CU_ASSERT_FATAL( hyb_stencil_zarr_init( &host, &p, cs[c][4], NULL ) == HYB_OK );
			CU_ASSERT_FATAL( hyb_stencil_zarr_init( &dev, &p, cs[c][4], NULL ) == HYB_OK );
			CU_ASSERT_EQUAL( hyb_stencil_zarr_put( &host, u ), HYB_OK );
			unsigned char* want = malloc( n );
			unsigned char* got  = malloc( n );
			CU_ASSERT_EQUAL( hyb_stencil_zarr_get( &host, want ), HYB_OK );
			hyb_dev_t* d = NULL;
			CU_ASSERT_FATAL( hyb_dev_acquire( 0, &d ) == HYB_OK );
			hyb_stencil_zfill_bytes_t b = { 0 };
			CU_ASSERT_EQUAL( hyb_stencil_zfill_put( d, &dev, u, limit, &b ), HYB_OK );
			CU_ASSERT( memcmp( dev.data, host.data, host.bytes ) == 0 );
			CU_ASSERT( b.h2d == (double)n && b.d2h == (double)host.bytes &&
			           b.d2h_raw == (double)n );
			memset( got, 0, n );
			CU_ASSERT_EQUAL( hyb_stencil_zfill_get( d, &dev, got, limit, &b ), HYB_OK );
			CU_ASSERT( memcmp( got, want, n ) == 0 );
			hyb_dev_release( d );
			for ( int f = 0; f < 3; f++ )
			{
				CU_ASSERT_FATAL( hyb_dev_acquire( 0, &d ) == HYB_OK );
				memset( got, 0, n );
				CU_ASSERT_EQUAL( hyb_device_faults_set( faults[f] ), HYB_OK );
				CU_ASSERT_EQUAL( hyb_stencil_zfill_get( d, &dev, got, limit, &b ), HYB_OK );
				hyb_device_faults_set( NULL );
				CU_ASSERT( memcmp( got, want, n ) == 0 );
				hyb_dev_release( d );
			}
			CU_ASSERT_FATAL( hyb_dev_acquire( 0, &d ) == HYB_OK );
			CU_ASSERT_EQUAL( hyb_device_faults_set( "zfp.encode:2" ), HYB_OK );
			CU_ASSERT( hyb_stencil_zfill_put( d, &dev, u, 1, &b ) != HYB_OK );
			hyb_device_faults_set( NULL );
			hyb_dev_release( d );
			free( want );
			free( got );
			hyb_stencil_zarr_free( &host );
			hyb_stencil_zarr_free( &dev );
			sx_free( &p );
		}
	hyb_t_sim_end();
}

/* A handle keeps its compressed arrays page-locked from its first device
   run to destroy (locking gigabytes costs seconds a run), and its runs
   still give the CPU path's bits, run after run; a forked child may
   destroy it. */
static void test_handle_holds_arrays( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	hyblas_stencil_desc_t g = sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 30, 66, 1, 0 );
	hyblas_stencil_desc_t c = sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 30, 66, 1, 0 );
	sz_wave_rates( &g, 16.0, 16.0, 0.0 );
	sz_wave_rates( &c, 16.0, 16.0, 0.0 );
	const hyblas_stencil_params_t pg =
	    sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
	const hyblas_stencil_params_t pc =
	    sx_params( HYBLAS_PATH_CPU, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
	const int64_t     before = hyb_sim_registrations();
	hyblas_stencil_t *hg = NULL, *hc = NULL;
	CU_ASSERT_FATAL( hyblas_stencil_create( &g, &hg ) == HYBLAS_OK );
	CU_ASSERT_FATAL( hyblas_stencil_create( &c, &hc ) == HYBLAS_OK );
	for ( int run = 0; run < 3; run++ )
	{
		hyblas_stencil_stats_t sg, sc;
		memset( &sg, 0, sizeof sg );
		memset( &sc, 0, sizeof sc );
		sg.struct_size = sc.struct_size = sizeof sg;
		CU_ASSERT_EQUAL( hyblas_stencil_run( hg, 7, &pg, &sg ), HYBLAS_OK );
		CU_ASSERT_EQUAL( hyblas_stencil_run( hc, 7, &pc, &sc ), HYBLAS_OK );
		CU_ASSERT( sg.path == HYBLAS_PATH_GPU && !sg.fell_back && sg.compressed_fields == 2 );
		CU_ASSERT( sx_desc_same( &g, &c ) );
		/* The caller's four arrays and the one block of compressed arrays. */
		CU_ASSERT_EQUAL( hyb_sim_registrations(), before + 5 );
	}
	/* A child of fork() that destroys the handle neither hangs nor
	   touches the parent's registrations. */
	fflush( stdout );
	const pid_t pid = fork();
	CU_ASSERT_FATAL( pid >= 0 );
	if ( pid == 0 )
	{
		hyblas_stencil_destroy( hg );
		_exit( 0 );
	}
	int status = 0;
	CU_ASSERT_FATAL( waitpid( pid, &status, 0 ) == pid );
	CU_ASSERT( WIFEXITED( status ) && WEXITSTATUS( status ) == 0 );
	CU_ASSERT_EQUAL( hyb_sim_registrations(), before + 5 );
	hyblas_stencil_destroy( hg );
	hyblas_stencil_destroy( hc );
	CU_ASSERT_EQUAL( hyb_sim_registrations(), before );
	sx_desc_free( &g );
	sx_desc_free( &c );
	hyb_t_sim_end();
}

/* Ranges moved in pieces (here one band each, in the engine 32 MiB): the
   device pipeline, called directly, equals the CPU path's round trips. */
static void sz_ranges_in_pieces( const char* extra )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", extra ), HYB_OK );
	/* d, k and slots (0: the seed's 3) */
	const int plans[][4] = { { HYB_STENCIL_SCH_SHARED, 3, 2, 0 },
		                     { HYB_STENCIL_SCH_DIRECT, 2, 3, 0 },
		                     { HYB_STENCIL_SCH_SHARED, 6, 1, 4 },
		                     { HYB_STENCIL_SCH_DIRECT, 5, 1, 4 } };
	for ( int kind = 0; kind < 2; kind++ )
		for ( int q = 0; q < (int)( sizeof plans / sizeof plans[0] ); q++ )
		{
			hyb_stencil_prob_t want, got;
			if ( kind == 0 )
				sx_make( &want, HYB_STENCIL_LAPLACE, HYB_STENCIL_F32, 30, 1, 61, 1 );
			else
				sx_make( &want, HYB_STENCIL_ACOUSTIC, HYB_STENCIL_F64, 12, 10, 70, 4 );
			for ( int f = 0; f < want.nfields; f++ ) want.rate[f] = 16.0;
			/* The work role may carry the rate; Laplace's data vary. */
			if ( kind == 0 )
				for ( int64_t i = 0; i < 30 * 61; i++ )
					( (float*)want.field[0] )[i] = (float)( 0.5 + 0.01 * sin( 0.37 * (double)i ) );
			sx_clone( &want, &got );
			got.zfp_piece_bytes        = 1;
			got.slots                  = plans[q][3];
			double                  rw = 0.0, rg = 0.0;
			hyb_stencil_dev_stats_t ds;
			CU_ASSERT_EQUAL(
			    hyb_stencil_cpu_run_lossy( &want, 7, plans[q][2], 0, 2, &rw, NULL, NULL ), HYB_OK );
			CU_ASSERT_EQUAL( hyb_stencil_device_run( &got, 7, plans[q][0], plans[q][1], plans[q][2],
			                                         0, NULL, NULL, NULL, &rg, &ds ),
			                 HYB_OK );
			CU_ASSERT( sx_same_result( &want, &got ) );
			CU_ASSERT( ds.bytes_h2d < ds.bytes_h2d_raw && ds.bytes_d2h < ds.bytes_d2h_raw );
			sx_free( &want );
			sx_free( &got );
		}
	hyb_t_sim_end();
}

static void test_ranges_in_pieces( void )
{
	sz_ranges_in_pieces( NULL );
}

/* The same with slow copies and a latency on every operation: an upload's
   raw copies go on while its decodes run on the codec stream, and a step
   that did not wait for them at its end would read stale planes. */
static void test_ranges_in_pieces_slow_copies( void )
{
	sz_ranges_in_pieces( "HYBLAS_SIM_BW=3e8;HYBLAS_SIM_LATENCY=2e-5" );
}

/* Zero steps change nothing, compressed or not, on either path. */
static void test_zero_steps( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	for ( int path = 1; path <= 2; path++ )
	{
		hyblas_stencil_desc_t d =
		    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 12, 10, 70, 0 );
		hyblas_stencil_desc_t e =
		    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 12, 10, 70, 0 );
		sz_vary( &d );
		sz_vary( &e );
		sz_rates( &d, 8.0, 8.0 );
		hyblas_stencil_params_t p =
		    sx_params( (hyblas_path_t)path, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
		hyblas_stencil_stats_t s;
		CU_ASSERT_EQUAL( sx_solve( &d, &p, 0, &s ), HYBLAS_OK );
		CU_ASSERT( sx_desc_same( &d, &e ) );
		sx_desc_free( &d );
		sx_desc_free( &e );
	}
	hyb_t_sim_end();
}

/* Callers built against the first version of the structs: parameters
   without the fidelity fields run without the check; statistics end
   before the compression fields, and nothing past them is written; a
   second version's statistics get the compression fields, not the
   third's slots. */
static void test_first_version_structs( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	hyblas_stencil_desc_t d =
	    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 30, 64, 1, 0 );
	sz_vary( &d );
	sz_rates( &d, 16.0, 0.0 );
	hyblas_stencil_params_t p = sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
	p.fidelity_every          = 3; /* beyond the old struct: never read */
	p.struct_size             = offsetof( hyblas_stencil_params_t, fidelity_every );
	hyblas_stencil_stats_t s;
	memset( &s, 0x5c, sizeof s );
	s.struct_size = offsetof( hyblas_stencil_stats_t, compressed_fields );
	CU_ASSERT_EQUAL( hyblas_stencil_solve( &d, 6, &p, &s ), HYBLAS_OK );
	CU_ASSERT_EQUAL( s.path, HYBLAS_PATH_GPU );
	const unsigned char* tail = (const unsigned char*)&s + s.struct_size;
	int                  kept = 1;
	for ( size_t i = 0; i < sizeof s - s.struct_size; i++ ) kept &= tail[i] == 0x5c;
	CU_ASSERT( kept );
	/* second-version statistics: the compression fields, not the slots */
	memset( &s, 0x5c, sizeof s );
	s.struct_size = offsetof( hyblas_stencil_stats_t, slots );
	CU_ASSERT_EQUAL( hyblas_stencil_solve( &d, 6, &p, &s ), HYBLAS_OK );
	CU_ASSERT( s.compressed_fields > 0 );
	CU_ASSERT( memcmp( &s.slots, "\x5c\x5c\x5c\x5c", sizeof s.slots ) == 0 );
	memset( &s, 0, sizeof s );
	s.struct_size = sizeof s;
	CU_ASSERT_EQUAL( hyblas_stencil_solve( &d, 6, &p, &s ), HYBLAS_OK );
	CU_ASSERT_EQUAL( s.slots, 3 );
	sx_desc_free( &d );
	hyb_t_sim_end();
}

/* The damped wave compressed per quantity: the pressure alone (its work
   array at the rate or raw), the rate q alone, every field. On the
   simulated device each equals the CPU path's round trips bit for bit,
   moves fewer bytes than raw (saves more with every field), and differs
   from the uncompressed run; the fidelity check reports finite, ordered
   errors of p; a fault mid-pipeline in a run whose p is compressed and q
   raw (q written to the caller's arrays as it goes) gives the exact CPU
   result in both. */
static void test_wave_per_quantity( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const double modes[][3] = {
		{ 16.0, 16.0, 0.0 }, { 16.0, 0.0, 0.0 }, { 0.0, 0.0, 12.0 }, { 16.0, 16.0, 16.0 }
	};
	const int plans[][4] = { { HYBLAS_STENCIL_SCHEME_SHARED, 3, 2, 7 },
		                     { HYBLAS_STENCIL_SCHEME_DIRECT, 2, 3, 7 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 4, 1, 3 } };
	for ( int t = 0; t < 2; t++ )
		for ( int q = 0; q < 3; q++ )
		{
			const hyblas_stencil_type_t type = t ? HYBLAS_STENCIL_DOUBLE : HYBLAS_STENCIL_FLOAT;
			uint64_t                    h2d[4];
			for ( int m = 0; m < 4; m++ )
			{
				hyblas_stencil_desc_t d[3];
				for ( int i = 0; i < 3; i++ )
				{
					d[i] = sx_desc( HYBLAS_STENCIL_WAVE2D, type, 30, 66, 1, 0 );
					if ( i < 2 ) sz_wave_rates( &d[i], modes[m][0], modes[m][1], modes[m][2] );
				}
				hyblas_stencil_params_t pc =
				    sx_params( HYBLAS_PATH_CPU, plans[q][0], plans[q][1], plans[q][2] );
				hyblas_stencil_params_t pg =
				    sx_params( HYBLAS_PATH_GPU, plans[q][0], plans[q][1], plans[q][2] );
				hyblas_stencil_stats_t sc, sg, su;
				CU_ASSERT_EQUAL( sx_solve( &d[0], &pc, plans[q][3], &sc ), HYBLAS_OK );
				CU_ASSERT_EQUAL( sx_solve( &d[1], &pg, plans[q][3], &sg ), HYBLAS_OK );
				CU_ASSERT_EQUAL( sx_solve( &d[2], &pg, plans[q][3], &su ), HYBLAS_OK );
				CU_ASSERT_EQUAL( sg.path, HYBLAS_PATH_GPU );
				CU_ASSERT_EQUAL( sg.fell_back, 0 );
				CU_ASSERT( sg.compressed_fields > 0 &&
				           sc.compressed_fields == sg.compressed_fields );
				CU_ASSERT( sg.bytes_h2d < sg.bytes_h2d_raw && sg.bytes_d2h < sg.bytes_d2h_raw );
				CU_ASSERT( su.bytes_h2d == su.bytes_h2d_raw && su.compressed_fields == 0 );
				const int same = sx_desc_same( &d[0], &d[1] );
				CU_ASSERT( same );
				CU_ASSERT( !sx_desc_same( &d[1], &d[2] ) );
				if ( !same ) printf( "\n  wave type %d plan %d mode %d: %s\n", t, q, m, sg.why );
				h2d[m] = sg.bytes_h2d_raw - sg.bytes_h2d;
				for ( int i = 0; i < 3; i++ ) sx_desc_free( &d[i] );
			}
			/* Every field at 16 saves more than the pressure alone at 16
			   (each compressed quantity also crosses once each way as
			   values, to and from the device's codec: whether it moves
			   fewer bytes in all depends on the number of blocks). */
			CU_ASSERT( h2d[3] > h2d[0] );
		}

	/* The fidelity check on p, the pressure alone compressed. */
	hyblas_stencil_desc_t f = sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 30, 66, 1, 0 );
	sz_wave_rates( &f, 20.0, 20.0, 0.0 );
	hyblas_stencil_params_t p = sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
	p.fidelity_every          = 4;
	p.fidelity_points         = 600;
	hyblas_stencil_stats_t s;
	CU_ASSERT_EQUAL( sx_solve( &f, &p, 10, &s ), HYBLAS_OK );
	CU_ASSERT_EQUAL( s.fidelity_checks, 3 );
	for ( int i = 0; i < s.fidelity_checks; i++ )
	{
		const hyblas_stencil_fidelity_t* e = &s.fidelity[i];
		CU_ASSERT( e->max_abs > 0.0 && e->max_abs < 1e-2 && isfinite( e->max_rel ) );
		CU_ASSERT( e->mean_abs <= e->max_abs && e->mean_rel <= e->max_rel );
	}
	sx_desc_free( &f );

	const char*        faults[] = { "zfp.decode:3", "zfp.encode:2a", "h2d:3",
		                            "d2h:4",        "d2h:5a",        "stencil.wave:4" };
	const sz_problem_t wave     = { HYBLAS_STENCIL_WAVE2D, 30, 66, 1, 7, sz_compress_pressure };
	sz_faults_fall_back( &wave, faults, (int)( sizeof faults / sizeof faults[0] ) );
	hyb_t_sim_end();
}

static CU_TestInfo hyb_tests_stencil_zfp[] = {
	{ "first_version_structs", test_first_version_structs },
	{ "band_slices", test_band_slices },
	{ "ranges_in_pieces", test_ranges_in_pieces },
	{ "ranges_in_pieces_slow_copies", test_ranges_in_pieces_slow_copies },
	{ "device_fill", test_device_fill },
	{ "handle_holds_arrays", test_handle_holds_arrays },
	{ "zero_steps", test_zero_steps },
	{ "rates_refused", test_rates_refused },
	{ "device_equals_cpu", test_device_equals_cpu },
	{ "faults_give_exact_cpu", test_faults_give_exact_cpu },
	{ "fidelity", test_fidelity },
	{ "wave_per_quantity", test_wave_per_quantity },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_stencil_zfp = {
	"stencil_zfp", NULL, NULL, NULL, NULL, hyb_tests_stencil_zfp
};
