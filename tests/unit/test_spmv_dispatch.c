/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV device paths on the simulated device, through the dispatcher: every run (CPU,
   device only in CSR/ELL/DIA, the seed's hybrid with forced K, row split), first call and
   steady state, COO and CSR, base 0 and 1, 'N' and 'T', single and double, duplicates,
   unsorted entries, empty rows, several row blocks and x chunks; the mode and size rules;
   registered y with its proof; concurrent callers. Results against an independent serial
   reference with the normalized bound. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_spmv_bg.h"
#include "dispatch/hyb_spmv_rates.h"
#include "kernels/pipeline/hyb_spmv_build.h"
#include "kernels/pipeline/hyb_spmv_yreg.h"
#include "test_spmv_util.h"

typedef struct
{
	const char*       name;
	hyb_spmv_run_t    run;
	hyb_spmv_devfmt_t fmt;
	int64_t           K;
	double            share;
} tsd_case_t;

static const tsd_case_t tsd_cases[] = {
	{ "cpu", HYB_SPMV_RUN_CPU, HYB_SPMV_DEV_NONE, 0, 0 },
	{ "gpu-csr", HYB_SPMV_RUN_GPU, HYB_SPMV_DEV_CSR, 0, 0 },
	{ "gpu-ell", HYB_SPMV_RUN_GPU, HYB_SPMV_DEV_ELL, 0, 0 },
	{ "gpu-dia", HYB_SPMV_RUN_GPU, HYB_SPMV_DEV_DIA, 0, 0 },
	{ "hybrid-ell", HYB_SPMV_RUN_HYBRID, HYB_SPMV_DEV_ELL, 3, 0 },
	{ "hybrid-dia", HYB_SPMV_RUN_HYBRID, HYB_SPMV_DEV_DIA, 4, 0 },
	{ "rowsplit", HYB_SPMV_RUN_ROWSPLIT, HYB_SPMV_DEV_CSR, 0, 0.4 },
};
#define TSD_NCASES ( (int)( sizeof tsd_cases / sizeof tsd_cases[0] ) )

static hyb_path_t tsd_expect_path( hyb_spmv_run_t r )
{
	return r == HYB_SPMV_RUN_CPU   ? HYB_PATH_CPU
	       : r == HYB_SPMV_RUN_GPU ? HYB_PATH_GPU
	                               : HYB_PATH_SPLIT;
}

/* One case: first call (transient or filled), then a steady-state call with a new x when
   resident. Returns the number of failed checks (printed). */
static int tsd_run_case( const tsd_case_t* c, tsp_mat_t* A, int csr, int sorted, char trans,
                         int resident, const char* what )
{
	int              bad = 0;
	hyb_spmv_force_t f   = tsp_force();
	f.opts.force         = 1;
	f.opts.run           = c->run;
	f.opts.fmt           = c->fmt;
	f.opts.K             = c->K;
	f.opts.share         = c->share;
	f.resident           = resident;
	f.block_rows         = A->m / 5 + 1;                                    /* several blocks */
	f.x_chunk            = (size_t)A->m * hyb_prec_size( A->prec ) / 7 + 8; /* several x chunks */
	hyb_spmv_device_force( &f );
	/* Is the forced run possible for this source? (row split needs rows grouped; DIA
	   device-only needs every entry on a listed diagonal) */
	int grouped  = trans == 'N' && ( csr || sorted );
	int feasible = !( c->run == HYB_SPMV_RUN_ROWSPLIT && !grouped );
	for ( int call = 0; call < ( resident ? 2 : 1 ); call++ )
	{
		void*                    x  = tsp_vec( A, 100 + (uint64_t)call );
		void*                    y  = tsp_out( A );
		const hyb_spmv_report_t* r  = tsp_call( A, csr, trans, x, y );
		double                   e  = tsp_err( A, trans, x, y );
		int                      ok = e <= TSP_TOL;
		if ( feasible && r->path != HYB_PATH_FALLBACK && c->run != HYB_SPMV_RUN_CPU &&
		     r->run != c->run && !( c->fmt == HYB_SPMV_DEV_DIA && r->run == HYB_SPMV_RUN_CPU ) )
			ok = 0;
		if ( feasible && r->run == c->run && r->path != tsd_expect_path( c->run ) ) ok = 0;
		if ( resident && call == 1 && c->run != HYB_SPMV_RUN_CPU && r->run != HYB_SPMV_RUN_CPU &&
		     r->cache != HYB_RESIDENCY_HIT )
			ok = 0;
		if ( !ok )
		{
			printf(
			    "\n  %s %s %s base=%d %c %c resident=%d call=%d: err=%.3g path=%s run=%s fmt=%s "
			    "K=%lld cache=%d "
			    "why=%s",
			    what, c->name, csr ? "csr" : "coo", A->base, hyb_prec_char( A->prec ), trans,
			    resident, call, e, hyb_path_name( r->path ), hyb_spmv_run_name( r->run ),
			    hyb_spmv_fmt_name( r->fmt ), (long long)r->K, r->cache, r->why ? r->why : "" );
			bad++;
		}
		free( x );
		free( y );
	}
	hyb_spmv_device_force( NULL );
	return bad;
}

static void test_paths_all_combinations( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu;HYBLAS_RESIDENCY=track" ), 0 );
	int bad = 0, runs = 0;
	for ( int prec = 0; prec < 2; prec++ )
		for ( int base = 0; base < 2; base++ )
		{
			hyb_prec_t p = prec ? HYB_PREC_D : HYB_PREC_S;
			/* quasi-diagonal with some scattered entries and duplicates; unsorted random
			   with empty rows; power-law with long rows */
			tsp_mat_t M[3] = {
				tsp_make( TSP_BANDED, 1500, 7, base, p, TSP_SCATTER | TSP_DUP,
				          11 + (uint64_t)( prec * 2 + base ) ),
				tsp_make( TSP_RANDOM, 1300, 6, base, p, TSP_UNSORTED | TSP_EMPTY | TSP_DUP,
				          21 + (uint64_t)base ),
				tsp_make( TSP_POWER, 1100, 6, base, p, TSP_EMPTY, 31 + (uint64_t)prec ),
			};
			for ( int k = 0; k < 3; k++ )
				for ( int c = 0; c < TSD_NCASES; c++ )
					for ( int csr = 0; csr < 2; csr++ )
						for ( int t = 0; t < 2; t++ )
						{
							/* the banded matrix also as pure bands for device-only DIA */
							bad += tsd_run_case( &tsd_cases[c], &M[k], csr, k != 1, t ? 'T' : 'N',
							                     ( c + k + t ) % 2,
							                     k == 0   ? "banded"
							                     : k == 1 ? "random"
							                              : "power" );
							runs++;
						}
			for ( int k = 0; k < 3; k++ ) tsp_free( &M[k] );
		}
	printf( "\n  %d combinations, %d failures ", runs, bad );
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_sim_end();
}

/* Device-only DIA and the widened DIA blocks on a matrix whose entries all lie on seven
   diagonals; first call and steady state, both layouts and precisions. */
static void test_dia_device_only( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	int bad = 0;
	for ( int prec = 0; prec < 2; prec++ )
		for ( int base = 0; base < 2; base++ )
		{
			tsp_mat_t A =
			    tsp_make( TSP_BANDED, 2000, 7, base, prec ? HYB_PREC_D : HYB_PREC_S, 0, 41 );
			for ( int csr = 0; csr < 2; csr++ )
				for ( int t = 0; t < 2; t++ )
				{
					const tsd_case_t c = { "gpu-dia", HYB_SPMV_RUN_GPU, HYB_SPMV_DEV_DIA, 0, 0 };
					bad += tsd_run_case( &c, &A, csr, 1, t ? 'T' : 'N', 1, "bands" );
					const hyb_spmv_report_t* r = hyb_spmv_last_report();
					CU_ASSERT_EQUAL( r->fmt, HYB_SPMV_DEV_DIA );
					CU_ASSERT_EQUAL( r->K, 7 );
					CU_ASSERT( r->pipe.nblk >= 5 );
				}
			tsp_free( &A );
		}
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_sim_end();
}

/* DIA parts whose diagonals all lie on one side of the main one (the widened blocks must
   still include each block's own rows), single diagonals, blocks of a few rows. */
static void test_dia_one_sided( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	int bad = 0;
	for ( int scatter = 0; scatter < 2; scatter++ )
	{
		tsp_mat_t A = tsp_make( TSP_RANDOM, 900, 1, 0, HYB_PREC_D, 0, 1 );
		/* rebuild as entries on diagonals +3 and +7 (plus random ones) */
		int64_t n = 0;
		for ( int64_t i = 0; i < A.m && n + 3 <= A.nnz; i++ )
			for ( int d = 0; d < ( scatter ? 3 : 2 ); d++ )
			{
				int64_t c = d == 0 ? i + 3 : d == 1 ? i + 7 : ( i * 37 ) % A.m;
				if ( c >= A.m ) continue;
				A.row[n]                = (int)i;
				A.col[n]                = (int)c;
				( (double*)A.val )[n++] = 1.0 + (double)( ( i + d ) % 5 );
			}
		A.nnz = n;
		tsp_sync_csr( &A );
		const tsd_case_t cases[3] = {
			{ "gpu-dia", HYB_SPMV_RUN_GPU, HYB_SPMV_DEV_DIA, 0, 0 },
			{ "hybrid-dia-1", HYB_SPMV_RUN_HYBRID, HYB_SPMV_DEV_DIA, 1, 0 },
			{ "hybrid-dia-2", HYB_SPMV_RUN_HYBRID, HYB_SPMV_DEV_DIA, 2, 0 }
		};
		for ( int c = scatter ? 1 : 0; c < 3; c++ )
			for ( int csr = 0; csr < 2; csr++ )
				for ( int t = 0; t < 2; t++ )
					bad += tsd_run_case( &cases[c], &A, csr, 1, t ? 'T' : 'N', 1, "one-sided" );
		tsp_free( &A );
	}
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_sim_end();
}

/* The rules before any model: mode cpu, the minimum size, an empty or invalid call. */
static void test_mode_and_size_rules( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=cpu" ), 0 );
	tsp_mat_t                A = tsp_make( TSP_RANDOM, 3000, 8, 0, HYB_PREC_D, 0, 5 );
	void *                   x = tsp_vec( &A, 1 ), *y = tsp_out( &A );
	const hyb_spmv_report_t* r = tsp_call( &A, 0, 'N', x, y );
	CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
	CU_ASSERT_STRING_EQUAL( r->why, "mode cpu" );
	CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
	tsp_sim_end();

	/* auto: fewer entries than HYBLAS_SPMV_MIN_NNZ keep the CPU */
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=auto" ), 0 );
	r = tsp_call( &A, 1, 'T', x, y );
	CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
	CU_ASSERT_STRING_EQUAL( r->why, "below HYBLAS_SPMV_MIN_NNZ" );
	CU_ASSERT( tsp_err( &A, 'T', x, y ) <= TSP_TOL );
	tsp_sim_end();

	/* invalid transa: y untouched, nothing on the device */
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	double* yd = y;
	for ( int64_t i = 0; i < A.m; i++ ) yd[i] = 7.0;
	r = tsp_call( &A, 0, 'X', x, y );
	CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
	int untouched = 1;
	for ( int64_t i = 0; i < A.m; i++ ) untouched &= yd[i] == 7.0;
	CU_ASSERT( untouched );
	tsp_sim_end();
	free( x );
	free( y );
	tsp_free( &A );
}

/* Auto mode: a matrix above the minimum size. Its first sighting keeps the CPU (the model:
   conversion and upload cost more than the product); its second call makes it resident
   when the steady-state model prefers the device; later calls hit. */
static void test_auto_first_then_resident( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=auto;HYBLAS_SPMV_MIN_NNZ=1000" ), 0 );
	tsp_mat_t A = tsp_make( TSP_BANDED, 60000, 7, 1, HYB_PREC_D, 0, 77 );
	for ( int call = 0; call < 4; call++ )
	{
		void *                   x = tsp_vec( &A, (uint64_t)call ), *y = tsp_out( &A );
		const hyb_spmv_report_t* r = tsp_call( &A, 1, 'N', x, y );
		CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
		if ( call == 0 ) CU_ASSERT_EQUAL( r->cache, -1 ); /* first sighting: not tracked */
		if ( call == 1 ) CU_ASSERT( r->cache == HYB_RESIDENCY_FILL );
		if ( call >= 2 && r->run != HYB_SPMV_RUN_CPU )
		{
			CU_ASSERT_EQUAL( r->cache, HYB_RESIDENCY_HIT );
			CU_ASSERT_EQUAL( r->phase, HYB_SPMV_STEADY );
		}
		free( x );
		free( y );
	}
	tsp_free( &A );
	tsp_sim_end();
}

/* Auto mode measures: a resident matrix that the model sent to the device, on a device that
   is in fact slower than the CPU for it (the simulated device with 20 ms added to every
   operation, which the model does not know; with 5 ms, one run of the whole suite on a
   2-core machine kept the device after its three probes, most likely a CPU probe slowed
   past 5 ms by the tests running beside it), is timed against the CPU on a few
   calls and then stays on the CPU. Every result stays correct. x and y (640 KB) are above
   HYB_COPY_TEAM_MIN: their staging copies run on the copy team. */
static void test_auto_measured_choice( void )
{
	CU_ASSERT_EQUAL_FATAL(
	    tsp_sim_begin( "HYBLAS_MODE=auto;HYBLAS_SPMV_MIN_NNZ=1000;HYBLAS_SIM_LATENCY=2e-2" ), 0 );
	tsp_mat_t A      = tsp_make( TSP_BANDED, 80000, 7, 0, HYB_PREC_D, 0, 78 );
	int       probes = 0, hits = 0, settled = -1;
	for ( int call = 0; call < 24; call++ )
	{
		void *                   x = tsp_vec( &A, (uint64_t)call ), *y = tsp_out( &A );
		const hyb_spmv_report_t* r = tsp_call( &A, 1, 'N', x, y );
		CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
		const char* why = r->why ? r->why : "";
		if ( strncmp( why, "probe:", 6 ) == 0 )
		{
			CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
			probes++;
		}
		if ( r->cache == HYB_RESIDENCY_HIT && r->path != HYB_PATH_CPU ) hits++;
		if ( settled < 0 && strncmp( why, "measured:", 9 ) == 0 ) settled = call;
		/* the second sighting hands the build to the background builder: its completion
		   is not what this test measures, and on a loaded machine it could outlast the
		   calls */
		if ( call == 1 ) hyb_spmv_bg_wait();
		if ( settled >= 0 )
		{
			CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
			CU_ASSERT_STRING_EQUAL( why, "measured: the CPU product is faster for this matrix" );
		}
		free( x );
		free( y );
	}
	/* the premise: the model put the matrix on the device */
	CU_ASSERT( hits >= HYB_SPMV_PROBE_AFTER );
	CU_ASSERT_EQUAL( probes, HYB_SPMV_PROBES );
	CU_ASSERT( settled > 0 );
	tsp_free( &A );
	tsp_sim_end();
}

/* The proof by parts (as each block's download completes): a token belongs to the part
   holding its element, so parts that split a page judge it by its token's element alone;
   parts covering every row read every token, as the whole check does; a part whose rows
   missed their download fails, and only that part. */
static void test_y_proof_by_parts( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	hyb_dev_t* d = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	for ( int single = 0; single <= 1; single++ )
	{
		const size_t  es = single ? 4 : 8;
		const int64_t n  = 3 * 1024 * 1024 / (int64_t)es + 37; /* pages split unevenly */
		/* an element offset so that y starts inside a page */
		void* mem = NULL;
		CU_ASSERT_EQUAL_FATAL( posix_memalign( &mem, 4096, (size_t)n * es + 8192 ), 0 );
		char*            raw = mem;
		char*            y   = raw + 3 * es;
		hyb_spmv_yreg_t* e   = hyb_spmv_yreg_get( d, y, (size_t)n * es, es, HYB_SPMV_REG_EAGER );
		CU_ASSERT_PTR_NOT_NULL_FATAL( e );
		/* parts of uneven rows, boundaries inside pages */
		const int64_t cut[] = { 0, 1, 777, 1025, n / 3, n / 2 + 5, n - 3, n };
		const int     np    = (int)( sizeof cut / sizeof cut[0] ) - 1;
		for ( int missed = -1; missed < np; missed++ )
		{
			int64_t tokens = hyb_spmv_yreg_arm( e, (size_t)n * es, NULL );
			/* the "downloads": every part's rows written, but the one missed */
			for ( int q = 0; q < np; q++ )
			{
				if ( q == missed ) continue;
				for ( int64_t i = cut[q]; i < cut[q + 1]; i++ )
				{
					if ( single )
						( (float*)y )[i] = 1.0f;
					else
						( (double*)y )[i] = 1.0;
				}
			}
			int64_t seen = 0;
			int     all  = 1;
			for ( int q = 0; q < np; q++ )
			{
				int64_t before = seen;
				int     held   = hyb_spmv_yreg_check_rows( e, cut[q], cut[q + 1], &seen );
				/* a part fails only where its rows missed their download and hold a token
				   (a part inside one page's tail may hold none) */
				CU_ASSERT( held || q == missed );
				if ( q == missed ) CU_ASSERT_EQUAL( held, seen == before );
				if ( cut[q + 1] - cut[q] > (int64_t)( 4096 / es ) ) CU_ASSERT( seen > before );
				all &= held;
			}
			CU_ASSERT_EQUAL( seen, tokens );
			/* the parts together judge as the whole check does */
			CU_ASSERT_EQUAL( hyb_spmv_yreg_check( e, NULL ), all );
			if ( missed == 0 || missed == 3 ) CU_ASSERT_EQUAL( all, 0 );
		}
		/* rows beyond the armed span are not read */
		int64_t seen = 0;
		CU_ASSERT_EQUAL( hyb_spmv_yreg_check_rows( e, n, n + 100, &seen ), 1 );
		CU_ASSERT_EQUAL( seen, 0 );
		hyb_spmv_yreg_put( d, e, 1 );
		free( raw );
	}
	hyb_dev_release( d );
	tsp_sim_end();
}

/* y registered and proven: eagerly, from the second call, and a failed proof (as if the
   application had replaced y's pages) that stages y again and drops the registration. */
static void test_registered_y( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	tsp_mat_t        A = tsp_make( TSP_BANDED, 160000, 7, 0, HYB_PREC_D, TSP_SCATTER, 3 );
	void*            y = tsp_out( &A );
	hyb_spmv_force_t f = tsp_force();
	f.resident         = 1;
	f.yreg             = 1; /* from the second call with this y */
	f.xreg             = 0; /* the registrations counted below are y's */
	f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
	hyb_spmv_device_force( &f );
	for ( int call = 0; call < 5; call++ )
	{
		void* x = tsp_vec( &A, 9 + (uint64_t)call );
		if ( call == 3 ) hyb_spmv_yreg_fail_next_for_test( 1 );
		const hyb_spmv_report_t* r = tsp_call( &A, 0, 'N', x, y );
		CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
		if ( call == 0 ) CU_ASSERT_EQUAL( r->pipe.y_registered, 0 );
		if ( call == 1 || call == 2 || call == 4 ) CU_ASSERT_EQUAL( r->pipe.y_registered, 1 );
		if ( call == 3 )
		{
			CU_ASSERT_EQUAL( r->pipe.y_proof_failed, 1 );
			CU_ASSERT_EQUAL( r->pipe.y_registered, 0 );
		}
		free( x );
	}
	int      live;
	uint64_t proved, failed;
	hyb_spmv_yreg_stats( &live, &proved, &failed );
	CU_ASSERT_EQUAL( live, 1 );
	CU_ASSERT_EQUAL( failed, 1 );
	CU_ASSERT( proved >= 3 );
	/* a y too small to be worth registering stays staged */
	tsp_mat_t B  = tsp_make( TSP_RANDOM, 5000, 5, 0, HYB_PREC_D, 0, 4 );
	void *    xb = tsp_vec( &B, 1 ), *yb = tsp_out( &B );
	f.yreg = 2;
	hyb_spmv_device_force( &f );
	const hyb_spmv_report_t* r = tsp_call( &B, 0, 'N', xb, yb );
	CU_ASSERT_EQUAL( r->pipe.y_registered, 0 );
	CU_ASSERT( tsp_err( &B, 'N', xb, yb ) <= TSP_TOL );
	free( xb );
	free( yb );
	tsp_free( &B );
	free( y );
	tsp_free( &A );
	tsp_sim_end();
}

/* x registered and proven by its fingerprints, from its second call, x changed in place
   between calls as a solver does; a failed proof (as if the program had replaced x's pages)
   stages x and runs the blocks again in the same call, drops the registration and stages
   that range for a while; x too small stays staged. The device's fingerprints (spmv.xsum on the
   simulated device) must equal the host's for the proof to hold at all. */
static void test_registered_x( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	for ( int prec = 0; prec < 2; prec++ )
	{
		const hyb_prec_t p = prec ? HYB_PREC_S : HYB_PREC_D;
		tsp_mat_t        A = tsp_make( TSP_BANDED, 300001, 7, prec, p, TSP_SCATTER, 5 );
		void *           x = tsp_vec( &A, 1 ), *y = tsp_out( &A );
		hyb_spmv_force_t f = tsp_force();
		f.resident         = 1;
		f.xreg             = 1;
		f.yreg             = 0;
		f.x_chunk          = 200000; /* several chunks */
		f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
		hyb_spmv_device_force( &f );
		for ( int call = 0; call < 6; call++ )
		{
			void* xn = tsp_vec( &A, 2 + (uint64_t)call );
			memcpy( x, xn, (size_t)A.m * hyb_prec_size( p ) ); /* in place */
			free( xn );
			if ( call == 3 ) hyb_spmv_pipe_xstale_next_for_test( 1 );
			const hyb_spmv_report_t* r = tsp_call( &A, 0, 'N', x, y );
			CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
			CU_ASSERT_EQUAL( r->path, HYB_PATH_GPU );
			/* after a failed proof the range is staged for a while */
			CU_ASSERT_EQUAL( r->pipe.x_registered, call == 1 || call == 2 );
			CU_ASSERT_EQUAL( r->pipe.x_proof_failed, call == 3 );
			if ( call == 1 ) CU_ASSERT( r->pipe.xsum_s > 0 );
			if ( call == 1 ) CU_ASSERT_EQUAL( r->pipe.xcopy_s, 0 );
		}
		free( x );
		free( y );
		tsp_free( &A );
	}
	/* a stale x on a first call (the matrix built and uploaded by the same call), in every
	   device format: x staged and the blocks run again, the product right */
	{
		static const hyb_spmv_devfmt_t fmts[3] = { HYB_SPMV_DEV_CSR, HYB_SPMV_DEV_ELL,
			                                       HYB_SPMV_DEV_DIA };
		for ( int k = 0; k < 6; k++ )
		{
			hyb_spmv_device_reset_for_test();
			tsp_mat_t        A = tsp_make( TSP_BANDED, 300001, 5, k & 1, HYB_PREC_D, 0, 30 + k );
			void *           x = tsp_vec( &A, 1 ), *y = tsp_out( &A );
			hyb_spmv_force_t f = tsp_force();
			f.opts.force       = 1;
			f.opts.run         = HYB_SPMV_RUN_GPU;
			f.opts.fmt         = fmts[k / 2];
			f.resident         = k & 1; /* transient, or the call that fills the cache */
			f.xreg             = 2;
			f.yreg             = 2;
			f.block_rows       = 70000;
			f.x_chunk          = 300000;
			hyb_spmv_device_force( &f );
			hyb_spmv_pipe_xstale_next_for_test( 1 );
			const hyb_spmv_report_t* r = tsp_call( &A, 1, 'N', x, y );
			CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
			CU_ASSERT_EQUAL( r->path, HYB_PATH_GPU );
			CU_ASSERT_EQUAL( r->pipe.x_proof_failed, 1 );
			CU_ASSERT_EQUAL( r->pipe.x_registered, 0 );
			hyb_spmv_pipe_xstale_next_for_test( 0 );
			free( x );
			free( y );
			tsp_free( &A );
		}
	}
	/* a row split whose program swaps its two vectors between calls (y = A p, then
	   p = A y): each buffer is x in one call and y in the next, and both stay registered
	   (y's registration covers all of y, not only the device's rows) */
	{
		hyb_spmv_device_reset_for_test();
		tsp_mat_t        A = tsp_make( TSP_BANDED, 300001, 7, 0, HYB_PREC_D, 0, 8 );
		void *           p = tsp_vec( &A, 1 ), *q = tsp_vec( &A, 2 );
		hyb_spmv_force_t f = tsp_force();
		f.opts.force       = 1;
		f.opts.run         = HYB_SPMV_RUN_ROWSPLIT;
		f.opts.fmt         = HYB_SPMV_DEV_CSR;
		f.opts.share       = 0.5;
		f.resident         = 1;
		f.xreg             = 2;
		f.yreg             = 2;
		hyb_spmv_device_force( &f );
		uint64_t made = 0;
		for ( int call = 0; call < 8; call++ )
		{
			void* x = call & 1 ? q : p;
			void* y = call & 1 ? p : q;
			/* keep the values bounded: x scaled back to [-1, 1) before each call */
			double* xd = x;
			double  mx = 0;
			for ( int64_t i = 0; i < A.m; i++ ) mx = fabs( xd[i] ) > mx ? fabs( xd[i] ) : mx;
			for ( int64_t i = 0; i < A.m && mx > 0; i++ ) xd[i] /= mx;
			const hyb_spmv_report_t* r = tsp_call( &A, 1, 'N', x, y );
			CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
			CU_ASSERT_EQUAL( r->path, HYB_PATH_SPLIT );
			if ( call == 1 ) made = hyb_spmv_yreg_made();
			if ( call >= 2 )
			{
				CU_ASSERT_EQUAL( r->pipe.x_registered, 1 );
				CU_ASSERT_EQUAL( r->pipe.y_registered, 1 );
			}
		}
		CU_ASSERT_EQUAL( hyb_spmv_yreg_made(), made ); /* nothing registered after call 2 */
		free( p );
		free( q );
		tsp_free( &A );
	}
	/* a registration the driver refuses is not tried again: after one refused (injected)
	   registration the vector stays staged, and its products right */
	{
		hyb_spmv_device_reset_for_test(); /* no registration left from above */
		tsp_mat_t        A = tsp_make( TSP_BANDED, 300001, 7, 0, HYB_PREC_D, 0, 6 );
		void *           x = tsp_vec( &A, 1 ), *y = tsp_out( &A );
		hyb_spmv_force_t f = tsp_force();
		f.resident         = 1;
		f.xreg             = 2;
		f.yreg             = 0;
		f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
		hyb_spmv_device_force( &f );
		for ( int call = 0; call < 3; call++ )
		{
			hyb_device_faults_set( call == 0 ? "register:1" : NULL );
			const hyb_spmv_report_t* r = tsp_call( &A, 0, 'N', x, y );
			CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
			CU_ASSERT_EQUAL( r->pipe.x_registered, 0 );
		}
		hyb_device_faults_set( NULL );
		int live;
		hyb_spmv_yreg_stats( &live, NULL, NULL );
		CU_ASSERT_EQUAL( live, 0 );
		free( x );
		free( y );
		tsp_free( &A );
	}
	/* more x vectors than slots, in turn (a restarted Krylov method's basis): x takes free
	   slots only, so the first ones stay registered and the rest are staged, rather than
	   each call registering one and unregistering another */
	{
		hyb_spmv_device_reset_for_test();
		tsp_mat_t        A = tsp_make( TSP_BANDED, 300001, 7, 0, HYB_PREC_S, 0, 7 );
		void*            xs[HYB_SPMV_YREG_MAX + 3];
		void*            y = tsp_out( &A );
		hyb_spmv_force_t f = tsp_force();
		f.resident         = 1;
		f.xreg             = 2;
		f.yreg             = 0;
		f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
		hyb_spmv_device_force( &f );
		const int nx = HYB_SPMV_YREG_MAX + 3;
		for ( int i = 0; i < nx; i++ ) xs[i] = tsp_vec( &A, 20 + (uint64_t)i );
		for ( int round = 0; round < 2; round++ )
			for ( int i = 0; i < nx; i++ )
			{
				const hyb_spmv_report_t* r = tsp_call( &A, 0, 'N', xs[i], y );
				CU_ASSERT( tsp_err( &A, 'N', xs[i], y ) <= TSP_TOL );
				CU_ASSERT_EQUAL( r->pipe.x_registered, i < HYB_SPMV_YREG_MAX );
			}
		int live;
		hyb_spmv_yreg_stats( &live, NULL, NULL );
		CU_ASSERT_EQUAL( live, HYB_SPMV_YREG_MAX );
		for ( int i = 0; i < nx; i++ ) free( xs[i] );
		free( y );
		tsp_free( &A );
	}
	/* too small to be worth registering: staged */
	tsp_mat_t        B  = tsp_make( TSP_RANDOM, 5000, 5, 0, HYB_PREC_D, 0, 4 );
	void *           xb = tsp_vec( &B, 1 ), *yb = tsp_out( &B );
	hyb_spmv_force_t f = tsp_force();
	f.xreg             = 2;
	f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
	hyb_spmv_device_force( &f );
	const hyb_spmv_report_t* r = tsp_call( &B, 0, 'N', xb, yb );
	CU_ASSERT_EQUAL( r->pipe.x_registered, 0 );
	CU_ASSERT( tsp_err( &B, 'N', xb, yb ) <= TSP_TOL );
	free( xb );
	free( yb );
	tsp_free( &B );
	tsp_sim_end();
}

typedef struct
{
	tsp_mat_t* A;
	int        csr;
	int        bad;
	uint64_t   seed;
} tsd_thread_t;

static void* tsd_thread( void* p )
{
	tsd_thread_t* t = p;
	for ( int i = 0; i < 6; i++ )
	{
		void *x = tsp_vec( t->A, t->seed + (uint64_t)i ), *y = tsp_out( t->A );
		tsp_call( t->A, t->csr, i % 3 == 2 ? 'T' : 'N', x, y );
		if ( !( tsp_err( t->A, i % 3 == 2 ? 'T' : 'N', x, y ) <= TSP_TOL ) )
		{
			const hyb_spmv_report_t* r = hyb_spmv_last_report();
			printf( "\n  thread %llu call %d: fmt=%s K=%lld nblk=%d err=%g path=%s run=%s why=%s",
			        (unsigned long long)t->seed, i, hyb_spmv_fmt_name( r->fmt ), (long long)r->K,
			        r->pipe.nblk, tsp_err( t->A, i % 3 == 2 ? 'T' : 'N', x, y ),
			        hyb_path_name( r->path ), hyb_spmv_run_name( r->run ), r->why );
			t->bad++;
		}
		free( x );
		free( y );
	}
	return NULL;
}

/* Application threads at once: one shared matrix (concurrent hits, the worker and the copy
   team taken by one call at a time) and private ones. */
static void test_concurrent_callers( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	hyb_spmv_force_t f = tsp_force();
	f.opts.allow_runs  = ( 1u << HYB_SPMV_RUN_HYBRID ) | ( 1u << HYB_SPMV_RUN_ROWSPLIT );
	hyb_spmv_device_force( &f );
	tsp_mat_t    S = tsp_make( TSP_POWER, 3000, 8, 0, HYB_PREC_D, 0, 8 );
	tsp_mat_t    P[3];
	tsd_thread_t T[6];
	pthread_t    th[6];
	for ( int i = 0; i < 3; i++ )
		P[i] = tsp_make( TSP_RANDOM, 2000 + 100 * i, 6, i & 1, HYB_PREC_S, 0, 60 + (uint64_t)i );
	for ( int i = 0; i < 6; i++ )
	{
		T[i] = ( tsd_thread_t ){ i < 3 ? &S : &P[i - 3], i & 1, 0, 1000 * (uint64_t)i };
		pthread_create( &th[i], NULL, tsd_thread, &T[i] );
	}
	int bad = 0;
	for ( int i = 0; i < 6; i++ )
	{
		pthread_join( th[i], NULL );
		bad += T[i].bad;
	}
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_free( &S );
	for ( int i = 0; i < 3; i++ ) tsp_free( &P[i] );
	tsp_sim_end();
}

/* Threads calling with vectors large enough to be registered, x and y registered at once
   by each: the registry shared by all (slots taken and held, a held entry never handed to a
   second call), one shared resident matrix; every product right. */
typedef struct
{
	tsp_mat_t* A;
	int        bad;
	uint64_t   seed;
} tsd_reg_thread_t;

static void* tsd_reg_thread( void* p )
{
	tsd_reg_thread_t* t = p;
	void *            x = tsp_vec( t->A, t->seed ), *y = tsp_out( t->A );
	for ( int i = 0; i < 5; i++ )
	{
		tsp_call( t->A, 1, 'N', x, y );
		t->bad += !( tsp_err( t->A, 'N', x, y ) <= TSP_TOL );
	}
	free( x );
	free( y );
	return NULL;
}

static void test_registered_threads( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	tsp_mat_t        A = tsp_make( TSP_BANDED, 300001, 5, 0, HYB_PREC_D, 0, 9 );
	hyb_spmv_force_t f = tsp_force();
	f.resident         = 1;
	f.xreg             = 2;
	f.yreg             = 2;
	f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
	hyb_spmv_device_force( &f );
	tsd_reg_thread_t T[6];
	pthread_t        th[6];
	for ( int i = 0; i < 6; i++ )
	{
		T[i] = ( tsd_reg_thread_t ){ &A, 0, 500 + (uint64_t)i };
		pthread_create( &th[i], NULL, tsd_reg_thread, &T[i] );
	}
	int bad = 0;
	for ( int i = 0; i < 6; i++ )
	{
		pthread_join( th[i], NULL );
		bad += T[i].bad;
	}
	CU_ASSERT_EQUAL( bad, 0 );
	int live;
	hyb_spmv_yreg_stats( &live, NULL, NULL );
	CU_ASSERT( live > 0 && live <= HYB_SPMV_YREG_MAX );
	tsp_free( &A );
	tsp_sim_end();
}

/* The refits of the process's rates, each on its own term: a device span's kind gets its
   own scale (its twin borrows it until measured itself, the others the mean of the
   measured kinds), the host cost
   of a device call is taken as measured (0 is a value), then averaged; COO remainders
   shorter than the noise floor are not refitted. */
static void test_rates_refits( void )
{
	hyb_spmv_rates_t base, r0, r;
	hyb_policy_spmv_default_rates( &base );
	hyb_spmv_rates_set_base( &base );
	hyb_spmv_rates_get( NULL, &r0 );
	CU_ASSERT_DOUBLE_EQUAL( r0.gpu_call_s, base.gpu_call_s, 1e-15 );
	hyb_spmv_rates_refit_call( 0.0 );
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT_DOUBLE_EQUAL( r.gpu_call_s, 0.0, 1e-15 );
	hyb_spmv_rates_refit_call( 4e-4 ); /* weight 1/4 */
	hyb_spmv_rates_refit_call( -1.0 ); /* ignored */
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT_DOUBLE_EQUAL( r.gpu_call_s, 1e-4, 1e-15 );
	/* a CSR span alone on the device took twice its prediction */
	hyb_spmv_rates_refit_gpu( HYB_SPMV_SPAN_CSR, 1.0, 1e-4, 2e-4 );
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_CSR], 2.0, 1e-12 );
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_ROWSPLIT], 2.0, 1e-12 ); /* borrowed */
	for ( int k = 0; k < HYB_SPMV_SPANS; k++ )
		if ( k != HYB_SPMV_SPAN_CSR && k != HYB_SPMV_SPAN_ROWSPLIT )
			CU_ASSERT_DOUBLE_EQUAL( r.span_scale[k], 2.0, 1e-12 ); /* the mean of one */
	CU_ASSERT_DOUBLE_EQUAL( r.gpu_csr_bw, r0.gpu_csr_bw, 1e-6 * r0.gpu_csr_bw ); /* rates kept */
	CU_ASSERT_DOUBLE_EQUAL( r.gpu_call_s, 1e-4, 1e-15 );
	/* a resident plan keeps its prediction (made with scale 1) while the scale moves: the
	   refit divides out the scale the prediction used, so it settles at the measured ratio
	   instead of compounding it call after call */
	for ( int i = 0; i < 50; i++ )
		hyb_spmv_rates_refit_gpu( HYB_SPMV_SPAN_HYB_ELL, 1.0, 1e-4, 1.5e-4 );
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_HYB_ELL], 1.5, 1e-9 );
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_ELL], 1.5, 1e-9 ); /* borrowed */
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_ROWSPLIT], 2.0, 1e-12 );
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_DIA], 1.75, 1e-9 ); /* mean of 2, 1.5 */
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_HYB_DIA], 1.75, 1e-9 );
	/* its own measurement replaces what a kind borrowed; nonsense is ignored */
	hyb_spmv_rates_refit_gpu( HYB_SPMV_SPAN_ROWSPLIT, 2.0, 2e-4, 1e-4 );
	hyb_spmv_rates_refit_gpu( HYB_SPMV_SPAN_ROWSPLIT, 0.0, 2e-4, 1e-4 );
	hyb_spmv_rates_refit_gpu( HYB_SPMV_SPAN_ROWSPLIT, 1.0, 0.0, 1e-4 );
	hyb_spmv_rates_refit_gpu( HYB_SPMV_SPANS, 1.0, 1e-4, 1e-4 );
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_ROWSPLIT], 1.0, 1e-12 );
	CU_ASSERT_DOUBLE_EQUAL( r.span_scale[HYB_SPMV_SPAN_CSR], 2.0, 1e-12 );
	hyb_spmv_rates_refit_coo( 1e6, 1e-5 ); /* under 50 us: ignored */
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT_DOUBLE_EQUAL( r.cpu_coo_bw, r0.cpu_coo_bw, 1e-6 * r0.cpu_coo_bw );
	hyb_spmv_rates_refit_coo( 1e7, 1e-4 );
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT_DOUBLE_EQUAL( r.cpu_coo_bw, 1e11, 1e3 );
	hyb_spmv_rates_set_base( NULL ); /* back to the defaults, profile and file; refits dropped */
	hyb_spmv_rates_get( NULL, &r );
	CU_ASSERT( r.gpu_call_s >= 0 && r.cpu_coo_bw != 1e11 );
}

/* The CPU side's host kernels on a team of five (the pipe gives them every core but the
   busy ones, one on the CI machine): a row split's CPU rows and the remainder's row sums,
   both taking their parts in turn, against a serial sum; every row once, none outside. */
static void test_host_kernels_team( void )
{
	for ( int prec = 0; prec < 2; prec++ )
	{
		tsp_mat_t A  = tsp_make( TSP_POWER, 30000, 12, 1, prec ? HYB_PREC_D : HYB_PREC_S, TSP_EMPTY,
		                         77 + (uint64_t)prec );
		size_t    es = hyb_prec_size( A.prec );
		int64_t   m = A.m, r0 = 7001;
		void *    x = tsp_vec( &A, 5 ), *y = tsp_out( &A ), *y0 = tsp_out( &A );
		/* the row split: rows [r0, m) read the CSR arrays through positions */
		hyb_spmv_dmat_t dm;
		memset( &dm, 0, sizeof dm );
		dm.prec    = A.prec;
		dm.m       = m;
		dm.rows    = r0;
		dm.cbase   = A.base;
		dm.cpu_ptr = malloc( (size_t)( m - r0 + 1 ) * sizeof( int64_t ) );
		/* the remainder: every non-empty row one run, columns 0-based */
		dm.run_row = malloc( (size_t)m * sizeof( int ) );
		dm.run_ptr = malloc( (size_t)( m + 1 ) * sizeof( int64_t ) );
		dm.rem_col = malloc( (size_t)A.nnz * sizeof( int ) );
		dm.rem_val = A.a;
		dm.rem_nnz = A.nnz;
		void* z    = calloc( (size_t)m, es );
		CU_ASSERT_FATAL( dm.cpu_ptr && dm.run_row && dm.run_ptr && dm.rem_col && z );
		for ( int64_t q = 0; q <= m - r0; q++ ) dm.cpu_ptr[q] = A.ia[r0 + q] - A.base;
		for ( int64_t e = 0; e < A.nnz; e++ ) dm.rem_col[e] = A.ja[e] - A.base;
		for ( int64_t i = 0; i < m; i++ )
			if ( A.ia[i + 1] > A.ia[i] )
			{
				dm.run_row[dm.nrun] = (int)i;
				dm.run_ptr[dm.nrun] = A.ia[i] - A.base;
				dm.nrun++;
			}
		dm.run_ptr[dm.nrun] = A.nnz;
		hyb_spmv_cpu_rows( &dm, A.ja, A.a, x, y, 5 );
		hyb_spmv_rem_sums( &dm, x, z, 5 );

		int     bad_rows = 0, bad_runs = 0;
		double  eps = prec ? 0x1p-52 : 0x1p-23;
		int64_t u   = 0; /* run of row i */
		for ( int64_t i = 0; i < m; i++ )
		{
			double s = 0.0, abs = 0.0;
			for ( int64_t e = A.ia[i] - A.base; e < A.ia[i + 1] - A.base; e++ )
			{
				double a  = prec ? ( (double*)A.a )[e] : ( (float*)A.a )[e];
				int    c  = A.ja[e] - A.base;
				double xc = prec ? ( (double*)x )[c] : ( (float*)x )[c];
				s += a * xc;
				abs += fabs( a * xc );
			}
			double bound = TSP_TOL * (double)( A.ia[i + 1] - A.ia[i] + 1 ) * eps * abs;
			double yi    = prec ? ( (double*)y )[i] : ( (float*)y )[i];
			if ( i < r0 ? memcmp( (char*)y + (size_t)i * es, (char*)y0 + (size_t)i * es, es ) != 0
			            : !( fabs( yi - s ) <= bound ) )
				bad_rows++;
			if ( A.ia[i + 1] == A.ia[i] ) continue;
			/* the runs are the non-empty rows in order */
			double zu = prec ? ( (double*)z )[u] : ( (float*)z )[u];
			if ( !( fabs( zu - s ) <= bound ) ) bad_runs++;
			u++;
		}
		CU_ASSERT_EQUAL( bad_rows, 0 );
		CU_ASSERT_EQUAL( bad_runs, 0 );
		free( dm.cpu_ptr );
		free( dm.run_row );
		free( dm.run_ptr );
		free( dm.rem_col );
		free( z );
		free( x );
		free( y );
		free( y0 );
		tsp_free( &A );
	}
}

static CU_TestInfo hyb_tests_spmv_dispatch[] = {
	{ "paths_all_combinations", test_paths_all_combinations },
	{ "dia_device_only", test_dia_device_only },
	{ "dia_one_sided", test_dia_one_sided },
	{ "mode_and_size_rules", test_mode_and_size_rules },
	{ "auto_first_then_resident", test_auto_first_then_resident },
	{ "auto_measured_choice", test_auto_measured_choice },
	{ "registered_y", test_registered_y },
	{ "y_proof_by_parts", test_y_proof_by_parts },
	{ "registered_x", test_registered_x },
	{ "concurrent_callers", test_concurrent_callers },
	{ "registered_threads", test_registered_threads },
	{ "rates_refits", test_rates_refits },
	{ "host_kernels_team", test_host_kernels_team },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_dispatch = { "spmv_dispatch",        NULL, NULL, NULL, NULL,
	                                     hyb_tests_spmv_dispatch };
