/* SPDX-License-Identifier: BSD-3-Clause */
/* The "never slower" sparse benchmark of issue 25: one matrix (the 3-D 27-point stencil, or
   the generator's seed-like matrices with --matrix)
   called N times in a row, for N = 1, 2, 5, 10, 30, 100, 1000, by a new process's library
   state each time (no cached copy, no memo), x updated in place between calls as a solver
   does; totals of auto mode against the CPU alone and the device alone, and the resident
   device call against the x-up-plus-y-down bound of the bus measured in the same run with
   page-locked buffers. CSV on stdout. Products checked against a serial reference: the
   timed runs' last call, and a second, untimed run of the same calls its first and last
   (every call with --check-all), so that no check's time lets a background build finish
   between timed calls.
     hyb_bench_spmv_calls [--quick] [--prec d|s|ds] [--max-calls N] [--check-all]
                          [--matrix NAME,...|all]
   --quick: a 25^3 stencil and at most 100 calls (a functional run on the simulated device).
   --matrix: the generator's matrices by name (default stencil27; all: the ten seed-like
   ones and the stencil).
   Exit 0 when every product is right, 1 otherwise, 77 without a device. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_dispatch.h"
#include "dispatch/hyb_spmv_device.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "kernels/hyb_device.h"
#include "core/config/hyb_config.h"
#include "tools/hyb_spmv_gen.h"

#define HC_COUNTS 7
static const int hc_counts[HC_COUNTS] = { 1, 2, 5, 10, 30, 100, 1000 };

typedef struct
{
	hyb_prec_t prec;
	int64_t    m, nnz;
	int*       ia;
	int*       ja;
	void*      a;
	void*      x;
	void*      y;
} hc_mat_t;

static hyb_config_t hc_base;
static int          hc_bad = 0;

static double hc_get( const hc_mat_t* M, const void* v, int64_t i )
{
	return M->prec == HYB_PREC_D ? ( (const double*)v )[i] : (double)( (const float*)v )[i];
}

static void hc_put( const hc_mat_t* M, void* v, int64_t i, double d )
{
	if ( M->prec == HYB_PREC_D )
		( (double*)v )[i] = d;
	else
		( (float*)v )[i] = (float)d;
}

/* x of call k: a fixed pattern scaled by 1 + k/1000, written in place. */
static void hc_set_x( hc_mat_t* M, int k )
{
	double f = 1.0 + 1e-3 * k;
#pragma omp parallel for schedule( static )
	for ( int64_t i = 0; i < M->m; i++ )
		hc_put( M, M->x, i, f * (double)( ( i * 7919 ) % 2003 - 1001 ) / 1001.0 );
}

/* |y - A x|_inf / (L eps (|A||x|)_inf), serial double reference. */
static double hc_err( const hc_mat_t* M )
{
	double  eps  = M->prec == HYB_PREC_D ? 2.220446049250313e-16 : 1.1920929e-07;
	double  emax = 0, amax = 0;
	int64_t L = 1;
	for ( int64_t i = 0; i < M->m; i++ )
	{
		double s = 0, sa = 0;
		for ( int64_t k = M->ia[i]; k < M->ia[i + 1]; k++ )
		{
			double p = hc_get( M, M->a, k ) * hc_get( M, M->x, M->ja[k] );
			s += p;
			sa += fabs( p );
		}
		if ( M->ia[i + 1] - M->ia[i] > L ) L = M->ia[i + 1] - M->ia[i];
		double d = fabs( hc_get( M, M->y, i ) - s );
		if ( !( d <= emax ) ) emax = isnan( d ) ? INFINITY : d;
		if ( sa > amax ) amax = sa;
	}
	return amax > 0 ? emax / ( (double)L * eps * amax ) : emax;
}

static double hc_call( hc_mat_t* M )
{
	hyb_call_t      call = { .id = M->prec == HYB_PREC_D ? HYB_R_mkl_cspblas_dcsrgemv
		                                                 : HYB_R_mkl_cspblas_scsrgemv };
	hyb_spmv_args_t args = { .op     = HYB_OP_CSRMV,
		                     .prec   = M->prec,
		                     .transa = 'N',
		                     .base   = 0,
		                     .m      = M->m,
		                     .val    = M->a,
		                     .rowind = M->ia,
		                     .colind = M->ja,
		                     .x      = M->x,
		                     .y      = M->y };
	double          t0   = hyb_now();
	hyb_dispatch_spmv( &call, &args );
	return hyb_now() - t0;
}

static void hc_mode( const char* mode )
{
	static hyb_config_t c;
	char                err[128];
	c = hc_base;
	hyb_config_set( &c, "HYBLAS_MODE", mode, HYB_SRC_TEST, err, sizeof err );
	hyb_config_finish( &c );
	hyb_config_install_for_test( &c );
}

/* --check-all: every call's product against the reference, not the first and last only. */
static int hc_check_all;
/* --per-call: every timed call on stderr (mode, number, seconds, path, cache, why). */
static int hc_per_call;

/* `n` calls in `mode` from a fresh library state; cum[k] is the total after call k + 1.
   The resident device calls after the first two are summed into *res, with their stages. */
typedef struct
{
	int    n;                               /* resident device calls summed */
	double call_s;                          /* whole calls, as the caller sees them */
	double pipe_s;                          /* the pipeline, whole */
	double xcopy_s, wait_s, ycopy_s, dev_s; /* the pipeline's stages (hyb_spmv_pipe_out_t) */
	double check_s;                         /* the change check beside the pipeline */
	double prep_s, arm_s, proof_s;          /* before the device span, y's tokens, their proof */
	int    y_registered;                    /* calls whose y came down registered */
	int    x_registered;                    /* calls whose x went up from registered pages */
	double xsum_s;                          /* x's fingerprints on the host */
	double issue_s, tail_s;                 /* issuing the device's work; after y's arrival */
	double issue_x_s, issue_max_s;          /* x's chunks alone; the longest issuing step */
} hc_res_t;

/* check: which calls' products are checked against the reference, after the call: 0 the
   last one only, 1 the first and the last, 2 every one. A check takes far longer than a call
   (a serial pass over the matrix), and a background build would finish during it for free:
   the timed runs check the last call only, and a second, untimed run of the same calls checks
   the others. */
static void hc_run( hc_mat_t* M, const char* mode, int n, double* cum, hc_res_t* res, int check )
{
	hyb_spmv_device_reset_for_test();
	hc_mode( mode );
	double total = 0;
	memset( res, 0, sizeof *res );
	for ( int k = 0; k < n; k++ )
	{
		hc_set_x( M, k );
		double t = hc_call( M );
		total += t;
		cum[k]                     = total;
		const hyb_spmv_report_t* r = hyb_spmv_last_report();
		if ( hc_per_call && check == 0 )
			fprintf( stderr,
			         "call %s %d %.3e s path %s cache %d (pipeline %.3e s, device span %.3e s, "
			         "x's fingerprints %.3e s, change check %.3e s): %s\n",
			         mode, k + 1, t, hyb_path_name( r->path ), r->cache, r->pipe.seconds,
			         r->pipe.dev_s, r->pipe.xsum_s, r->check_s, r->why ? r->why : "" );
		if ( r->cache == HYB_RESIDENCY_HIT && r->path != HYB_PATH_CPU && k >= 2 )
		{
			res->n++;
			res->call_s += t;
			res->pipe_s += r->pipe.seconds;
			res->prep_s += r->pipe.prep_s;
			res->arm_s += r->pipe.arm_s;
			res->proof_s += r->pipe.proof_s;
			res->check_s += r->check_s;
			res->xcopy_s += r->pipe.xcopy_s;
			res->wait_s += r->pipe.wait_s;
			res->ycopy_s += r->pipe.ycopy_s;
			res->dev_s += r->pipe.dev_s;
			res->y_registered += r->pipe.y_registered;
			res->x_registered += r->pipe.x_registered;
			res->xsum_s += r->pipe.xsum_s;
			res->issue_s += r->pipe.issue_s;
			res->issue_x_s += r->pipe.issue_x_s;
			res->issue_max_s += r->pipe.issue_max_s;
			res->tail_s += r->pipe.tail_s;
		}
		if ( k == n - 1 || ( check == 1 && k == 0 ) || check == 2 )
		{
			double e = hc_err( M );
			if ( !( e <= 4.0 ) )
			{
				fprintf( stderr,
				         "hyb_bench_spmv_calls: %s call %d of %d: error %g (path %s, cache %d, "
				         "format %d, K %d: %s)\n",
				         mode, k + 1, n, e, hyb_path_name( r->path ), r->cache, (int)r->fmt,
				         (int)r->K, r->why ? r->why : "" );
				hc_bad++;
			}
		}
	}
	hyb_spmv_device_reset_for_test(); /* a build still in flight ends before the next run */
}

/* The bus bound of one resident product: x up then y down between page-locked memory and
   the device (best of 5), seconds. */
static double hc_bus_bound( size_t xbytes, size_t ybytes )
{
	hyb_dev_t* d = NULL;
	if ( hyb_dev_acquire( 0, &d ) != HYB_OK ) return 0;
	void * h = NULL, *dv = NULL;
	size_t b    = xbytes > ybytes ? xbytes : ybytes;
	double best = 0;
	if ( hyb_dev_staging( d, b, &h ) == HYB_OK && hyb_dev_workspace( d, b, &dv ) == HYB_OK && h &&
	     dv )
	{
		memset( h, 1, b );
		for ( int r = 0; r < 6; r++ )
		{
			double t0 = hyb_now();
			int    ok = hyb_dev_h2d( d, 0, dv, xbytes, h, xbytes, xbytes, 1 ) == HYB_OK &&
			         hyb_dev_d2h( d, 0, h, ybytes, dv, ybytes, ybytes, 1 ) == HYB_OK &&
			         hyb_dev_stream_sync( d, 0 ) == HYB_OK;
			double t = hyb_now() - t0;
			if ( ok && r > 0 && ( best == 0 || t < best ) ) best = t; /* the first warms up */
		}
	}
	hyb_dev_release( d );
	return best;
}

/* One matrix in one precision (p: 'd' or 's'): the three modes' runs, their CSV rows and the
   resident call's lines. Returns 1 when auto met 5 % at every count, 0 otherwise. */
static int hc_matrix( hyb_gen_id_t id, char p, double scale, int maxc )
{
	const char* name    = hyb_spmv_gen_info( id )->name;
	int         met_all = 1;
	hc_mat_t    M;
	memset( &M, 0, sizeof M );
	M.prec = p == 's' ? HYB_PREC_S : HYB_PREC_D;
	int64_t maxl;
	if ( hyb_spmv_gen_size( id, scale, &M.m, &M.nnz, &maxl ) != HYB_OK )
	{
		hc_bad++;
		return 0;
	}
	size_t vb = hyb_prec_size( M.prec );
	M.ia      = malloc( (size_t)( M.m + 1 ) * sizeof( int ) );
	M.ja      = malloc( (size_t)M.nnz * sizeof( int ) );
	M.a       = malloc( (size_t)M.nnz * vb );
	M.x       = malloc( (size_t)M.m * vb );
	M.y       = malloc( (size_t)M.m * vb );
	double* cum[3];
	for ( int v = 0; v < 3; v++ ) cum[v] = malloc( (size_t)maxc * sizeof( double ) );
	if ( !M.ia || !M.ja || !M.a || !M.x || !M.y || !cum[0] || !cum[1] || !cum[2] ||
	     hyb_spmv_gen_csr( id, scale, 1234, 0, M.prec, M.ia, M.ja, M.a, 0 ) != HYB_OK )
	{
		fprintf( stderr, "hyb_bench_spmv_calls: cannot make %s\n", name );
		hc_bad++;
		met_all = 0;
	}
	else
	{
		static const char* modes[3] = { "cpu", "gpu", "auto" };
		hc_res_t           res[3], unused;
		for ( int v = 0; v < 3; v++ ) hc_run( &M, modes[v], maxc, cum[v], &res[v], 0 );
		double* scratch = malloc( (size_t)maxc * sizeof *scratch );
		for ( int v = 0; v < 3 && scratch; v++ )
			hc_run( &M, modes[v], maxc, scratch, &unused, hc_check_all ? 2 : 1 );
		free( scratch );
		for ( int c = 0; c < HC_COUNTS && hc_counts[c] <= maxc; c++ )
		{
			int    k    = hc_counts[c] - 1;
			double best = fmin( cum[0][k], cum[1][k] );
			double q    = cum[2][k] / best;
			if ( q > 1.05 ) met_all = 0;
			printf( "%s,%c,%lld,%lld,%d,%.6e,%.6e,%.6e,%.6e,%.3f,%s\n", name, p, (long long)M.m,
			        (long long)M.nnz, hc_counts[c], cum[0][k], cum[1][k], cum[2][k], best, q,
			        q <= 1.05 ? "met" : "no" );
		}
		size_t          xy    = (size_t)M.m * vb;
		double          bound = hc_bus_bound( xy, xy );
		const hc_res_t* g     = &res[1];
		double          call  = g->n > 0 ? g->call_s / g->n : 0;
		printf( "# %s %c resident device call %.3e s (mean of %d), x+y bus bound %.3e s (%.2f GB/s "
		        "pinned, x and y %.1f MB each): %.2fx the bound (target 1.5x), staging %.2f GB/s\n",
		        name, p, call, g->n, bound, bound > 0 ? 2.0 * (double)xy / bound * 1e-9 : 0.0,
		        (double)xy * 1e-6, bound > 0 ? call / bound : 0.0,
		        call > 0 ? 2.0 * (double)xy / call * 1e-9 : 0.0 );
		if ( g->n > 0 )
			printf(
			    "# %s %c resident call's stages, means: pipeline %.3e s (x copy %.3e s, waiting "
			    "%.3e s, y copy %.3e s, the rest %.3e s), device span %.3e s, change check "
			    "%.3e s beside it, outside the pipeline %.3e s; y registered in %d of %d\n",
			    name, p, g->pipe_s / g->n, g->xcopy_s / g->n, g->wait_s / g->n, g->ycopy_s / g->n,
			    ( g->pipe_s - g->xcopy_s - g->wait_s - g->ycopy_s ) / g->n, g->dev_s / g->n,
			    g->check_s / g->n, ( g->call_s - g->pipe_s ) / g->n, g->y_registered, g->n );
		if ( g->n > 0 )
			printf( "# %s %c resident call's host steps, means: before the device span %.3e s (y's "
			        "tokens %.3e s), issuing %.3e s (x's chunks %.3e s, the longest step %.3e s), "
			        "x's fingerprints %.3e s, the proof %.3e s, after y's arrival %.3e s; x "
			        "registered in %d of %d\n",
			        name, p, g->prep_s / g->n, g->arm_s / g->n, g->issue_s / g->n,
			        g->issue_x_s / g->n, g->issue_max_s / g->n, g->xsum_s / g->n, g->proof_s / g->n,
			        g->tail_s / g->n, g->x_registered, g->n );
	}
	free( M.ia );
	free( M.ja );
	free( M.a );
	free( M.x );
	free( M.y );
	for ( int v = 0; v < 3; v++ ) free( cum[v] );
	return met_all;
}

int main( int argc, char** argv )
{
	int         quick = 0, maxc = 1000;
	const char* precs = "ds";
	const char* names = "stencil27";
	/* a line at a time, so that a run cut short by its time limit keeps the rows it made */
	setvbuf( stdout, NULL, _IOLBF, 0 );
	for ( int i = 1; i < argc; i++ )
	{
		if ( !strcmp( argv[i], "--quick" ) )
			quick = 1;
		else if ( !strcmp( argv[i], "--prec" ) && i + 1 < argc )
			precs = argv[++i];
		else if ( !strcmp( argv[i], "--check-all" ) )
			hc_check_all = 1;
		else if ( !strcmp( argv[i], "--per-call" ) )
			hc_per_call = 1;
		else if ( !strcmp( argv[i], "--max-calls" ) && i + 1 < argc )
			maxc = atoi( argv[++i] );
		else if ( !strcmp( argv[i], "--matrix" ) && i + 1 < argc )
			names = argv[++i];
		else
		{
			fprintf( stderr,
			         "usage: %s [--quick] [--prec d|s|ds] [--max-calls N] [--check-all] "
			         "[--matrix NAME,...|all]\n",
			         argv[0] );
			return 2;
		}
	}
	/* the matrices: names of the generator (tools/hyb_spmv_gen.h), or all of them */
	hyb_gen_id_t ids[HYB_GEN_COUNT];
	int          nids = 0;
	if ( !strcmp( names, "all" ) )
		for ( int k = 0; k < HYB_GEN_COUNT; k++ ) ids[nids++] = (hyb_gen_id_t)k;
	else
		for ( const char* n = names; *n && nids < HYB_GEN_COUNT; )
		{
			char        one[32];
			const char* e   = strchr( n, ',' );
			size_t      len = e ? (size_t)( e - n ) : strlen( n );
			snprintf( one, sizeof one, "%.*s", (int)( len < sizeof one ? len : sizeof one - 1 ),
			          n );
			int id = hyb_spmv_gen_lookup( one );
			if ( id < 0 )
			{
				fprintf( stderr, "hyb_bench_spmv_calls: no matrix named %s\n", one );
				return 2;
			}
			ids[nids++] = (hyb_gen_id_t)id;
			n += len + ( e != NULL );
		}
	if ( maxc < 1 ) maxc = 1;
	if ( maxc > 1000 ) maxc = 1000;
	hc_base = *hyb_config();
	hyb_stats_init_routines( hc_base.trace, 0 );
	if ( hyb_devices_ensure() != HYB_OK )
	{
		fprintf( stderr, "hyb_bench_spmv_calls: no device\n" );
		return 77;
	}
	const hyb_device_info_t* di = hyb_devices_info( 0 );
	/* --quick: the stencil at 25^3 (its grid edge grows with the cube root of the scale), the
	   others at a scale of the same order */
	double scale = quick ? 0.001953125 : 1.0;
	if ( quick && maxc > 100 ) maxc = 100;
	printf( "# hyb_bench_spmv_calls: device %s (%s), %d threads\n", di ? di->name : "?",
	        hyb_devices_name(), omp_get_max_threads() );
	printf( "matrix,prec,rows,nnz,calls,cpu_s,gpu_s,auto_s,best_s,auto_over_best,ok\n" );
	int met_all = 1;
	for ( const char* p = precs; *p; p++ )
		for ( int k = 0; k < nids; k++ ) met_all &= hc_matrix( ids[k], *p, scale, maxc );
	printf( "# auto within 5 %% of the better single path at every call count: %s\n",
	        met_all ? "yes" : "no" );
	return hc_bad ? 1 : 0;
}
