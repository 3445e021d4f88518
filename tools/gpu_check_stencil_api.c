/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's device path end to end through the public API
   (libhyblas, hyblas_stencil_solve on path GPU): every stencil, both element
   types, every scheme against the CPU path within the bound of
   docs/stencil.md, the schemes against each other bit for bit, faults
   falling back, then an out-of-core run under a device-memory cap timed
   against the CPU. Exit 0 correct, 1 wrong, 77 when the run does not reach
   a device (none, or HYBLAS_DEVICE names none).
     gpu_check_stencil_api [--quick] [--n N] [--steps T] [--cap BYTES] */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyblas_ext.h"

static int fails;

static hyblas_stencil_desc_t ck_desc( hyblas_stencil_kind_t kind, hyblas_stencil_type_t type,
                                      int64_t nx, int64_t ny, int64_t nz, int32_t r )
{
	hyblas_stencil_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size = sizeof d;
	d.kind        = kind;
	d.type        = type;
	d.nx          = nx;
	d.ny          = ny;
	d.nz          = nz;
	d.radius      = r;
	const int nf  = kind == HYBLAS_STENCIL_ACOUSTIC ? 4 : kind == HYBLAS_STENCIL_HIMENO ? 14 : 2;
	for ( int f = 0; f < nf; f++ )
	{
		d.fields[f].data =
		    calloc( (size_t)nx * (size_t)ny * (size_t)nz, type == HYBLAS_STENCIL_DOUBLE ? 8 : 4 );
		if ( d.fields[f].data == NULL )
		{
			fprintf( stderr, "out of host memory\n" );
			exit( 1 );
		}
	}
	if ( kind == HYBLAS_STENCIL_STAR )
	{
		d.center = 0.2;
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * r; j++ )
				d.coef[a][j] =
				    0.8 / ( ( nz == 1 ? 2.0 : 3.0 ) * 2.0 * r ) * ( 1.0 + 0.1 * j - 0.05 * a );
	}
	if ( hyblas_stencil_fill( &d ) != HYBLAS_OK ) fails++;
	return d;
}

static void ck_free( hyblas_stencil_desc_t* d )
{
	for ( int f = 0; f < HYBLAS_STENCIL_MAX_FIELDS; f++ ) free( d->fields[f].data );
}

static hyblas_status_t ck_run( hyblas_stencil_desc_t* d, hyblas_path_t path, int scheme, int chunks,
                               int k, int64_t steps, uint64_t cap, hyblas_stencil_stats_t* st )
{
	hyblas_stencil_params_t p;
	memset( &p, 0, sizeof p );
	p.struct_size = sizeof p;
	p.path        = path;
	p.scheme      = (hyblas_stencil_scheme_t)scheme;
	p.chunks      = chunks;
	p.block_steps = k;
	p.device_mem  = cap;
	memset( st, 0, sizeof *st );
	st->struct_size = sizeof *st;
	return hyblas_stencil_solve( d, steps, &p, st );
}

static double ck_at( const hyblas_stencil_desc_t* d, int f, size_t i )
{
	return d->type == HYBLAS_STENCIL_DOUBLE ? ( (const double*)d->fields[f].data )[i]
	                                        : (double)( (const float*)d->fields[f].data )[i];
}

/* max |a - b| and max |b| over the result fields (acoustic: CUR, PREV). */
static void ck_diff( const hyblas_stencil_desc_t* a, const hyblas_stencil_desc_t* b, double* diff,
                     double* mag )
{
	const size_t n = (size_t)a->nx * (size_t)a->ny * (size_t)a->nz;
	*diff = *mag = 0.0;
	for ( int f = 0; f < ( a->kind == HYBLAS_STENCIL_ACOUSTIC ? 2 : 1 ); f++ )
		for ( size_t i = 0; i < n; i++ )
		{
			const double x = ck_at( a, f, i ), y = ck_at( b, f, i );
			if ( fabs( x - y ) > *diff || x != x ) *diff = x != x ? INFINITY : fabs( x - y );
			if ( fabs( y ) > *mag ) *mag = fabs( y );
		}
}

static int ck_same( const hyblas_stencil_desc_t* a, const hyblas_stencil_desc_t* b )
{
	const size_t n = (size_t)a->nx * (size_t)a->ny * (size_t)a->nz *
	                 ( a->type == HYBLAS_STENCIL_DOUBLE ? 8 : 4 );
	int s = 1;
	for ( int f = 0; f < ( a->kind == HYBLAS_STENCIL_ACOUSTIC ? 2 : 1 ); f++ )
		s &= memcmp( a->fields[f].data, b->fields[f].data, n ) == 0;
	return s;
}

static const char* ck_kind( hyblas_stencil_kind_t k )
{
	static const char* n[] = { "?", "acoustic", "himeno", "laplace2d", "star" };
	return k >= 1 && k <= 4 ? n[k] : n[0];
}

int main( int argc, char** argv )
{
	int64_t  big = 384, bigT = 24;
	uint64_t cap   = 0;
	int      quick = 0;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--quick" ) == 0 )
			quick = 1;
		else if ( strcmp( argv[i], "--n" ) == 0 && i + 1 < argc )
			big = atoll( argv[++i] );
		else if ( strcmp( argv[i], "--steps" ) == 0 && i + 1 < argc )
			bigT = atoll( argv[++i] );
		else if ( strcmp( argv[i], "--cap" ) == 0 && i + 1 < argc )
			cap = (uint64_t)atoll( argv[++i] );
	}
	const struct
	{
		hyblas_stencil_kind_t kind;
		int64_t               nx, ny, nz;
		int32_t               r, m; /* radius (star), stencil points */
	} cases[]                = { { HYBLAS_STENCIL_ACOUSTIC, 70, 60, 64, 0, 25 },
		                         { HYBLAS_STENCIL_HIMENO, 65, 33, 48, 0, 19 },
		                         { HYBLAS_STENCIL_LAPLACE2D, 300, 200, 1, 0, 5 },
		                         { HYBLAS_STENCIL_STAR, 50, 40, 60, 3, 19 } };
	const int     plans[][3] = { { HYBLAS_STENCIL_SCHEME_IN_CORE, 4, 0 },
		                         { HYBLAS_STENCIL_SCHEME_COPY, 3, 2 },
		                         { HYBLAS_STENCIL_SCHEME_DIRECT, 4, 3 },
		                         { HYBLAS_STENCIL_SCHEME_SHARED, 4, 3 },
		                         { HYBLAS_STENCIL_SCHEME_SHARED, 2, 5 } };
	const int64_t T          = 11;
	for ( int c = 0; c < 4; c++ )
		for ( int t = 1; t <= 2; t++ )
		{
			const hyblas_stencil_type_t type = (hyblas_stencil_type_t)t;
			hyblas_stencil_desc_t       want =
			    ck_desc( cases[c].kind, type, cases[c].nx, cases[c].ny, cases[c].nz, cases[c].r );
			hyblas_stencil_stats_t sc, sg;
			if ( ck_run( &want, HYBLAS_PATH_CPU, 0, 0, 0, T, 0, &sc ) != HYBLAS_OK ) fails++;
			hyblas_stencil_desc_t first;
			memset( &first, 0, sizeof first );
			for ( int q = 0; q < (int)( sizeof plans / sizeof plans[0] ); q++ )
			{
				hyblas_stencil_desc_t got = ck_desc( cases[c].kind, type, cases[c].nx, cases[c].ny,
				                                     cases[c].nz, cases[c].r );
				const hyblas_status_t rc  = ck_run( &got, HYBLAS_PATH_GPU, plans[q][0], plans[q][1],
				                                    plans[q][2], T, 0, &sg );
				if ( rc == HYBLAS_OK && sg.path != HYBLAS_PATH_GPU && !sg.fell_back )
				{
					printf( "no device: %s\n", sg.why );
					return 77;
				}
				double diff, mag;
				ck_diff( &got, &want, &diff, &mag );
				const double eps   = type == HYBLAS_STENCIL_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
				const double bound = 8.0 * (double)T * cases[c].m * eps * mag;
				int          ok =
				    rc == HYBLAS_OK && sg.path == HYBLAS_PATH_GPU && !sg.fell_back && diff <= bound;
				if ( cases[c].kind == HYBLAS_STENCIL_HIMENO )
				{
					const double npts =
					    (double)cases[c].nx * (double)cases[c].ny * (double)cases[c].nz;
					const double gb =
					    2.0 * ( 2.0 * ( diff + 19.0 * eps * mag ) * sqrt( npts * sc.residual ) +
					            npts * DBL_EPSILON * sc.residual );
					ok &= fabs( sg.residual - sc.residual ) <= gb;
				}
				/* Every scheme is the same kernel at every point: bit for bit. */
				if ( q == 0 )
					first = got;
				else
					ok &= ck_same( &got, &first );
				printf( "%s %-9s %s scheme %d d %d k %d: max|gpu-cpu| %.3e bound %.3e h2d %.3e B "
				        "d2h %.3e B d2d %.3e B %.4f s%s%s\n",
				        ok ? "ok  " : "FAIL", ck_kind( cases[c].kind ), t == 2 ? "d" : "s",
				        plans[q][0], plans[q][1], plans[q][2], diff, bound, (double)sg.bytes_h2d,
				        (double)sg.bytes_d2h, (double)sg.bytes_d2d, sg.seconds,
				        sg.fell_back ? " fell back: " : "", sg.fell_back ? sg.why : "" );
				fails += !ok;
				if ( q > 0 ) ck_free( &got );
			}
			ck_free( &first );
			ck_free( &want );
		}
	if ( !quick )
	{
		/* Out of core as the seed: the domain larger than the device memory allowed. */
		hyblas_stencil_desc_t g =
		    ck_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, big, big, big, 0 );
		hyblas_stencil_desc_t w =
		    ck_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, big, big, big, 0 );
		const uint64_t fb  = (uint64_t)big * (uint64_t)big * (uint64_t)big * 4u;
		const uint64_t mem = cap ? cap : 3 * fb; /* 4 arrays of fb: three quarters of the domain */
		hyblas_stencil_stats_t sg, sc;
		const hyblas_status_t  rg = ck_run( &g, HYBLAS_PATH_GPU, 0, 0, 0, bigT, mem, &sg );
		const hyblas_status_t  rc = ck_run( &w, HYBLAS_PATH_CPU, 0, 0, 0, bigT, 0, &sc );
		double                 diff, mag;
		ck_diff( &g, &w, &diff, &mag );
		const double bound = 8.0 * (double)bigT * 25.0 * FLT_EPSILON * mag;
		const int    ok    = rg == HYBLAS_OK && rc == HYBLAS_OK && sg.path == HYBLAS_PATH_GPU &&
		               !sg.fell_back && !sg.in_core && diff <= bound;
		printf( "%s acoustic %lld^3 s T %lld cap %.3e B: scheme %d d %d k %d, gpu %.3f s "
		        "(predicted %.3f), cpu %.3f s "
		        "(predicted %.3f), h2d %.3e B d2h %.3e B d2d %.3e B, max|gpu-cpu| %.3e bound "
		        "%.3e\n  why: %s\n",
		        ok ? "ok  " : "FAIL", (long long)big, (long long)bigT, (double)mem, (int)sg.scheme,
		        (int)sg.chunks, (int)sg.block_steps, sg.seconds, sg.predicted_seconds, sc.seconds,
		        sc.predicted_cpu_seconds, (double)sg.bytes_h2d, (double)sg.bytes_d2h,
		        (double)sg.bytes_d2d, diff, bound, sg.why );
		printf( "csv,acoustic,s,%lld,%lld,%.0f,%d,%d,%d,%.6f,%.6f,%.6f,%.6f\n", (long long)big,
		        (long long)bigT, (double)mem, (int)sg.scheme, (int)sg.chunks, (int)sg.block_steps,
		        sg.seconds, sg.predicted_seconds, sc.seconds, sc.predicted_cpu_seconds );
		fails += !ok;
		ck_free( &g );
		ck_free( &w );
	}
	printf( "%s\n", fails ? "FAILED" : "PASSED" );
	return fails ? 1 : 0;
}
