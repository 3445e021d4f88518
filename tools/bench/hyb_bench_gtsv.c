/* SPDX-License-Identifier: BSD-3-Clause */
/* The tridiagonal benchmark of issue 5: one solver (LAPACK's ?gtsv_ through the dynamic
   linker, so hyblas when preloaded; or one of hyblas's kernels called directly) over a
   sweep of systems, every result checked, one CSV row per case. */

/* Usage: hyb_bench_gtsv LABEL SPECFILE
     LABEL  lapack | hyblas-*   ?gtsv_ as the process resolves it (run with or without
                                LD_PRELOAD=libhyblas.so; the label is only a name)
            thomas              hyb_?gtsv_thomas (serial, LAPACK without pivoting)
            spike               hyb_?gtsv_check + hyb_?gtsv_cpu_spike with factor outputs
                                (what dgtsv_ costs on hyblas's CPU path)
            gpu-stream          the heterogeneous solver with every row on device 0,
                                without the check and the factor outputs: host-resident
                                GPU SPIKE with its transfers (needs HYBLAS_DEVICE)
     SPECFILE  lines "prec log2n nrhs kind dom reps" (prec s|d, kind c = column dominant
               (LAPACK never swaps: the SPIKE path), r = row dominant (LAPACK swaps:
               hyblas forwards); '#' comments)
   Output (stdout): CSV label,prec,n,nrhs,kind,dom,reps,seconds,mrows,berr,ok with seconds
   the median of the timed repetitions (each on a fresh copy of the system; a case stops
   repeating after 3 s), mrows = n / seconds / 1e6, berr = max_j ||A x - b|| / (||A|| ||x|| +
   ||b||) in inf norms (long double), ok = finite and INFO = 0 (the comparison with LAPACK's
   berr is made by gtsv_report.py). Exit 1 when a result is not finite or INFO != 0. */
#define _GNU_SOURCE
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/hyb_gtsv_cpu.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_gtsv_hetero.h"
#include "policies/hyb_policy_gtsv.h"

void dgtsv_( const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
             const int* ldb, int* info );
void sgtsv_( const int* n, const int* nrhs, float* dl, float* d, float* du, float* b,
             const int* ldb, int* info );

static double bg_hash01( uint64_t i, uint64_t seed )
{
	uint64_t z = i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull;
	z          = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)( z >> 11 ) * ( 1.0 / 9007199254740992.0 );
}

/* A system, stored in its precision; pristine copies for every repetition. */
typedef struct
{
	int     single;
	int64_t n, nrhs;
	size_t  es;
	void *  dl, *d, *du, *b;     /* pristine */
	void *  wdl, *wd, *wdu, *wb; /* working copies (LAPACK writes DU when it swaps rows) */
} bg_sys_t;

static void* bg_alloc( size_t bytes )
{
	void* p = malloc( bytes ? bytes : 1 );
	if ( p == NULL )
	{
		fprintf( stderr, "hyb_bench_gtsv: out of memory (%zu bytes)\n", bytes );
		exit( 2 );
	}
	return p;
}

static void bg_set( const bg_sys_t* s, void* a, int64_t i, double v )
{
	if ( s->single )
		( (float*)a )[i] = (float)v;
	else
		( (double*)a )[i] = v;
}

static double bg_get( const bg_sys_t* s, const void* a, int64_t i )
{
	return s->single ? (double)( (const float*)a )[i] : ( (const double*)a )[i];
}

/* Parallel copy (first touch of the destination in parallel too). */
static void bg_copy( void* dst, const void* src, size_t bytes )
{
	const size_t piece = (size_t)1 << 22;
	int64_t      np    = (int64_t)( ( bytes + piece - 1 ) / piece );
#pragma omp parallel for schedule( static )
	for ( int64_t q = 0; q < np; q++ )
	{
		size_t lo = (size_t)q * piece, len = bytes - lo < piece ? bytes - lo : piece;
		memcpy( (char*)dst + lo, (const char*)src + lo, len );
	}
}

static bg_sys_t bg_make( int single, int64_t n, int64_t nrhs, int row_kind, double dom,
                         uint64_t seed )
{
	bg_sys_t s = {
		single, n, nrhs, single ? 4 : 8, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
	};
	s.dl  = bg_alloc( (size_t)n * s.es );
	s.du  = bg_alloc( (size_t)n * s.es );
	s.d   = bg_alloc( (size_t)n * s.es );
	s.b   = bg_alloc( (size_t)n * (size_t)nrhs * s.es );
	s.wdl = bg_alloc( (size_t)n * s.es );
	s.wd  = bg_alloc( (size_t)n * s.es );
	s.wdu = bg_alloc( (size_t)n * s.es );
	s.wb  = bg_alloc( (size_t)n * (size_t)nrhs * s.es );
#pragma omp parallel for schedule( static )
	for ( int64_t i = 0; i < n; i++ )
	{
		double l = 2 * bg_hash01( 2 * (uint64_t)i, seed ) - 1,
		       u = 2 * bg_hash01( 2 * (uint64_t)i + 1, seed ) - 1;
		if ( row_kind )
		{
			/* Row dominant with large subdiagonal entries: LAPACK swaps rows. */
			l = ( 0.2 + 0.8 * fabs( l ) ) * ( l < 0 ? -1 : 1 );
			u = 0.01 * u;
		}
		bg_set( &s, s.dl, i, i + 1 < n ? l : 0 );
		bg_set( &s, s.du, i, i + 1 < n ? u : 0 );
	}
#pragma omp parallel for schedule( static )
	for ( int64_t i = 0; i < n; i++ )
	{
		double off;
		if ( row_kind )
			off = ( i >= 1 ? fabs( bg_get( &s, s.dl, i - 1 ) ) : 0 ) +
			      ( i + 1 < n ? fabs( bg_get( &s, s.du, i ) ) : 0 );
		else
			off = ( i >= 1 ? fabs( bg_get( &s, s.du, i - 1 ) ) : 0 ) +
			      ( i + 1 < n ? fabs( bg_get( &s, s.dl, i ) ) : 0 );
		if ( off == 0 ) off = 1;
		double mag = dom * off * ( 1 + 0.25 * bg_hash01( (uint64_t)i, seed + 7 ) ) * ( 1 + 1e-6 );
		bg_set( &s, s.d, i, bg_hash01( (uint64_t)i, seed + 11 ) < 0.5 ? -mag : mag );
	}
#pragma omp parallel for schedule( static )
	for ( int64_t i = 0; i < n * nrhs; i++ )
		bg_set( &s, s.b, i, 2 * bg_hash01( (uint64_t)i, seed + 13 ) - 1 );
	return s;
}

static void bg_restore( bg_sys_t* s )
{
	bg_copy( s->wdl, s->dl, (size_t)s->n * s->es );
	bg_copy( s->wd, s->d, (size_t)s->n * s->es );
	bg_copy( s->wdu, s->du, (size_t)s->n * s->es );
	bg_copy( s->wb, s->b, (size_t)s->n * (size_t)s->nrhs * s->es );
}

static void bg_free( bg_sys_t* s )
{
	free( s->dl );
	free( s->du );
	free( s->d );
	free( s->b );
	free( s->wdl );
	free( s->wd );
	free( s->wdu );
	free( s->wb );
}

/* Normwise backward error of the working B against the pristine system. */
static double bg_berr( const bg_sys_t* s )
{
	const int64_t n     = s->n;
	long double   anorm = 0, worst = 0;
#pragma omp parallel for reduction( max : anorm )
	for ( int64_t i = 0; i < n; i++ )
	{
		long double r = fabsl( (long double)bg_get( s, s->d, i ) );
		if ( i >= 1 ) r += fabsl( (long double)bg_get( s, s->dl, i - 1 ) );
		if ( i + 1 < n ) r += fabsl( (long double)bg_get( s, s->du, i ) );
		if ( r > anorm ) anorm = r;
	}
	for ( int64_t j = 0; j < s->nrhs; j++ )
	{
		long double rn = 0, xn = 0, bn = 0;
		int         bad = 0;
#pragma omp parallel for reduction( max : rn, xn, bn ) reduction( | : bad )
		for ( int64_t i = 0; i < n; i++ )
		{
			int64_t     o  = j * n + i;
			long double x  = bg_get( s, s->wb, o );
			long double ax = (long double)bg_get( s, s->d, i ) * x;
			if ( i >= 1 ) ax += (long double)bg_get( s, s->dl, i - 1 ) * bg_get( s, s->wb, o - 1 );
			if ( i + 1 < n ) ax += (long double)bg_get( s, s->du, i ) * bg_get( s, s->wb, o + 1 );
			long double r = fabsl( ax - bg_get( s, s->b, o ) );
			bad |= !isfinite( (double)x );
			if ( r > rn ) rn = r;
			if ( fabsl( x ) > xn ) xn = fabsl( x );
			if ( fabsl( (long double)bg_get( s, s->b, o ) ) > bn )
				bn = fabsl( (long double)bg_get( s, s->b, o ) );
		}
		if ( bad ) return INFINITY;
		long double be = rn / ( anorm * xn + bn );
		if ( be > worst ) worst = be;
	}
	return (double)worst;
}

typedef enum
{
	BG_GTSV = 0, /* ?gtsv_ as resolved */
	BG_THOMAS,
	BG_SPIKE,
	BG_STREAM
} bg_kind_t;

/* The spike label's last check and solve times (seconds), apart: compared with the check_s
   and cpu_s that the CPU configuration through dgtsv_ writes into its trace. */
static double bg_spike_check_s, bg_spike_solve_s;

/* One solve on the working copies; returns INFO (0 when the solver has none). */
static int64_t bg_solve( bg_kind_t kind, bg_sys_t* s, int64_t m )
{
	int64_t info = 0;
	int     n = (int)s->n, nrhs = (int)s->nrhs, ldb = (int)s->n, i32 = 0;
	switch ( kind )
	{
	case BG_GTSV:
		if ( s->single )
			sgtsv_( &n, &nrhs, s->wdl, s->wd, s->wdu, s->wb, &ldb, &i32 );
		else
			dgtsv_( &n, &nrhs, s->wdl, s->wd, s->wdu, s->wb, &ldb, &i32 );
		return i32;
	case BG_THOMAS:
		if ( s->single )
			hyb_sgtsv_thomas( s->n, s->nrhs, s->wdl, s->wd, s->wdu, s->wb, s->n, &info );
		else
			hyb_dgtsv_thomas( s->n, s->nrhs, s->wdl, s->wd, s->wdu, s->wb, s->n, &info );
		return info;
	case BG_SPIKE:
	{
		/* The dgtsv_ path of hyblas's CPU configuration: check, then SPIKE with factors. */
		hyb_gtsv_check_t c;
		double           t0 = omp_get_wtime();
		if ( s->single )
			hyb_sgtsv_check( s->n, s->wdl, s->wd, s->wdu, HYB_GTSV_WINDOW_MAX, 0, &c );
		else
			hyb_dgtsv_check( s->n, s->wdl, s->wd, s->wdu, HYB_GTSV_WINDOW_MAX, 0, &c );
		bg_spike_check_s = omp_get_wtime() - t0;
		int64_t w        = 0;
		if ( hyb_policy_gtsv_choose( c.dom_row, c.dom_col, c.pivot, c.info, c.nonfinite,
		                             s->single ? HYB_PREC_S : HYB_PREC_D, 1,
		                             &w ) == HYB_GTSV_PLAN_LAPACK )
			return -1;
		hyb_status_t st  = s->single ? hyb_sgtsv_cpu_spike( s->n, s->nrhs, s->wdl, s->wd, s->wdu,
		                                                    s->wb, s->n, w, 0, HYB_GTSV_FACTORS )
		                             : hyb_dgtsv_cpu_spike( s->n, s->nrhs, s->wdl, s->wd, s->wdu,
		                                                    s->wb, s->n, w, 0, HYB_GTSV_FACTORS );
		bg_spike_solve_s = omp_get_wtime() - t0 - bg_spike_check_s;
		return st == HYB_OK ? 0 : -2;
	}
	case BG_STREAM:
	{
		hyb_gtsv_hetero_t p;
		memset( &p, 0, sizeof p );
		p.prec        = s->single ? HYB_PREC_S : HYB_PREC_D;
		p.n           = s->n;
		p.nrhs        = s->nrhs;
		p.ldb         = s->n;
		p.dl          = s->wdl;
		p.d           = s->wd;
		p.du          = s->wdu;
		p.b           = s->wb;
		p.m           = m;
		p.ndev        = 1;
		p.dev_rows[0] = s->n;
		p.dev_threads = omp_get_max_threads();
		p.chunk_fn    = hyb_policy_gtsv_chunk_rows;
		hyb_gtsv_hetero_report_t r;
		if ( hyb_gtsv_hetero_run( &p, &r ) != HYB_OK ) return -3;
		return r.error == HYB_OK ? 0 : -4;
	}
	}
	return -5;
}

static int bg_cmp( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

/* The median of x[0..n) (the upper middle one for even n); sorts x. */
static double bg_median( double* x, int n )
{
	qsort( x, (size_t)n, sizeof x[0], bg_cmp );
	return x[n / 2];
}

int main( int argc, char** argv )
{
	if ( argc != 3 )
	{
		fprintf( stderr, "usage: %s LABEL SPECFILE\n", argv[0] );
		return 2;
	}
	const char* label = argv[1];
	bg_kind_t   kind  = strcmp( label, "thomas" ) == 0       ? BG_THOMAS
	                    : strcmp( label, "spike" ) == 0      ? BG_SPIKE
	                    : strcmp( label, "gpu-stream" ) == 0 ? BG_STREAM
	                                                         : BG_GTSV;
	if ( kind == BG_STREAM && hyb_devices_ensure() != HYB_OK )
	{
		fprintf( stderr, "hyb_bench_gtsv: no device for gpu-stream\n" );
		return 77;
	}
	FILE* f = fopen( argv[2], "r" );
	if ( f == NULL )
	{
		perror( argv[2] );
		return 2;
	}
	/* Warm-up: the first call of a process pays for the device context, pinned buffers and
	   thread pools; these are not what the sweep measures. */
	{
		bg_sys_t w = bg_make( 0, (int64_t)1 << 22, 1, 0, 3.0, 1 );
		bg_restore( &w );
		bg_solve( kind, &w, 27 );
		bg_free( &w );
	}
	int  failures = 0;
	char line[256];
	while ( fgets( line, sizeof line, f ) )
	{
		char   p, k;
		int    lg, reps;
		long   nrhs;
		double dom;
		if ( line[0] == '#' ||
		     sscanf( line, " %c %d %ld %c %lf %d", &p, &lg, &nrhs, &k, &dom, &reps ) != 6 )
			continue;
		int      single = p == 's';
		int64_t  n      = (int64_t)1 << lg;
		uint64_t seed   = (uint64_t)lg * 1000 + (uint64_t)nrhs * 10 + (uint64_t)single +
		                ( k == 'r' ) * 7 + (uint64_t)( dom * 100 );
		bg_sys_t s = bg_make( single, n, nrhs, k == 'r', dom, seed );
		/* The window the dispatcher would use (for gpu-stream), untimed. */
		int64_t          m = 0;
		hyb_gtsv_check_t c;
		if ( single )
			hyb_sgtsv_check( n, s.dl, s.d, s.du, HYB_GTSV_WINDOW_MAX, 0, &c );
		else
			hyb_dgtsv_check( n, s.dl, s.d, s.du, HYB_GTSV_WINDOW_MAX, 0, &c );
		m = hyb_policy_gtsv_window( fmax( c.dom_row, c.dom_col ),
		                            single ? HYB_PREC_S : HYB_PREC_D );
		if ( m > HYB_GTSV_DEV_WINDOW_MAX || m < 1 ) m = HYB_GTSV_DEV_WINDOW_MAX;

		double  t[64], tc[64], ts[64];
		int     done  = 0;
		int64_t info  = 0;
		double  spent = 0;
		for ( int r = 0; r < reps && r < 64 && ( r == 0 || spent < 3.0 ); r++ )
		{
			bg_restore( &s );
			double t0 = omp_get_wtime();
			info      = bg_solve( kind, &s, m );
			tc[done]  = bg_spike_check_s;
			ts[done]  = bg_spike_solve_s;
			t[done++] = omp_get_wtime() - t0;
			spent += t[done - 1];
			if ( info != 0 ) break;
		}
		double sec = bg_median( t, done );
		if ( kind == BG_SPIKE && info == 0 )
			printf( "# spike %c 2^%d nrhs %ld dom %g: check %.2f ms, solve with factors %.2f ms "
			        "(medians)\n",
			        p, lg, nrhs, dom, bg_median( tc, done ) * 1e3, bg_median( ts, done ) * 1e3 );
		/* The kernel-level SPIKE label on a system LAPACK would pivot: not applicable (the
		   dispatcher sends it to LAPACK); only the check ran. */
		int    na = kind == BG_SPIKE && info == -1;
		double be = na ? 0 : bg_berr( &s );
		int    ok = na || ( info == 0 && isfinite( be ) );
		failures += !ok;
		printf( "%s,%c,%lld,%ld,%c,%g,%d,%.6e,%.1f,%.3e,%s\n", label, p, (long long)n, nrhs, k, dom,
		        done, sec, (double)n / sec / 1e6, be,
		        na   ? "n/a"
		        : ok ? "ok"
		             : "WRONG" );
		fflush( stdout );
		bg_free( &s );
	}
	fclose( f );
	return failures ? 1 : 0;
}
