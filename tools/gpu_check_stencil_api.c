/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's device path end to end through the public API
   (libhyblas, hyblas_stencil_solve on path GPU): every stencil, both element
   types, every scheme against the CPU path within the bound of
   docs/stencil.md, the schemes against each other bit for bit, faults
   falling back, compressed fields (issue 22) against the CPU path's round
   trips, then an out-of-core run under a device-memory cap timed against
   the CPU. Exit 0 correct, 1 wrong, 77 when the run does not reach a device
   (none, or HYBLAS_DEVICE names none).
     gpu_check_stencil_api [--quick] [--n N] [--steps T] [--cap BYTES]
   The compression benchmark (tools/bench/run_stencil_zfp_bench.sh) instead
   runs one workload in several modes and prints one "bench," line each:
     gpu_check_stencil_api --bench laplace|acoustic|wave --nx N --ny N [--nz N]
        [--steps T] [--d D] [--k K] [--cap BYTES] [--rate R]
        [--modes cpu,raw,state,all,fidelity,fidelity_all] [--every E] [--points P] */
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
	const int nf  = kind == HYBLAS_STENCIL_ACOUSTIC || kind == HYBLAS_STENCIL_WAVE2D ? 4
	                : kind == HYBLAS_STENCIL_HIMENO                                  ? 14
	                                                                                 : 2;
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

/* The result fields: acoustic PREV and CUR, wave P and Q (roles 0 and 2),
   else the first. */
static int ck_result( const hyblas_stencil_desc_t* d, int i )
{
	if ( d->kind == HYBLAS_STENCIL_WAVE2D ) return i == 0 ? HYBLAS_WAVE_P : HYBLAS_WAVE_Q;
	return i;
}

static int ck_results( const hyblas_stencil_desc_t* d )
{
	return d->kind == HYBLAS_STENCIL_ACOUSTIC || d->kind == HYBLAS_STENCIL_WAVE2D ? 2 : 1;
}

/* max |a - b| and max |b| over the result fields. */
static void ck_diff( const hyblas_stencil_desc_t* a, const hyblas_stencil_desc_t* b, double* diff,
                     double* mag )
{
	const size_t n = (size_t)a->nx * (size_t)a->ny * (size_t)a->nz;
	*diff = *mag = 0.0;
	for ( int j = 0; j < ck_results( a ); j++ )
		for ( size_t i = 0; i < n; i++ )
		{
			const int    f = ck_result( a, j );
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
	for ( int j = 0; j < ck_results( a ); j++ )
		s &= memcmp( a->fields[ck_result( a, j )].data, b->fields[ck_result( a, j )].data, n ) == 0;
	return s;
}

/* The time levels (acoustic PREV, CUR, NEXT; the wave's pressure P and
   P_WORK; else U, WORK) at `state` bits per value, the other fields
   (acoustic VEL, the wave's Q and Q_WORK) at `coef`. */
static void ck_rates( hyblas_stencil_desc_t* d, double state, double coef )
{
	const int nf = d->kind == HYBLAS_STENCIL_ACOUSTIC || d->kind == HYBLAS_STENCIL_WAVE2D ? 4
	               : d->kind == HYBLAS_STENCIL_HIMENO                                     ? 14
	                                                                                      : 2;
	for ( int f = 0; f < nf; f++ )
	{
		const int lev     = d->kind == HYBLAS_STENCIL_ACOUSTIC ? f <= 2
		                    : d->kind == HYBLAS_STENCIL_WAVE2D ? f <= HYBLAS_WAVE_P_WORK
		                    : d->kind == HYBLAS_STENCIL_HIMENO ? ( f == 0 || f == 13 )
		                                                       : 1;
		d->fields[f].rate = lev ? state : coef;
	}
}

/* A smooth field with nothing a fixed rate codes exactly: the grids' U
   (whose documented data is 0 and 1). */
static void ck_smooth( hyblas_stencil_desc_t* d )
{
	if ( d->kind != HYBLAS_STENCIL_LAPLACE2D && d->kind != HYBLAS_STENCIL_STAR ) return;
	const double pi = 3.14159265358979323846;
	for ( int64_t z = 0; z < d->nz; z++ )
		for ( int64_t y = 0; y < d->ny; y++ )
			for ( int64_t x = 0; x < d->nx; x++ )
			{
				const size_t i =
				    ( (size_t)z * (size_t)d->ny + (size_t)y ) * (size_t)d->nx + (size_t)x;
				/* Zero on the edges exactly (sin(pi) is not), so that relative
				   errors are not measured against rounding noise. */
				const int    edge = x == 0 || y == 0 || x == d->nx - 1 || y == d->ny - 1;
				const double v =
				    edge ? 0.0
				         : sin( pi * (double)x / (double)( d->nx - 1 ) ) *
				               sin( pi * (double)y / (double)( d->ny - 1 ) ) *
				               ( 1.0 + 0.1 * cos( 7.0 * (double)( x + z ) / (double)d->nx ) );
				if ( d->type == HYBLAS_STENCIL_DOUBLE )
					( (double*)d->fields[0].data )[i] = v;
				else
					( (float*)d->fields[0].data )[i] = (float)v;
			}
}

static const char* ck_kind( hyblas_stencil_kind_t k )
{
	static const char* n[] = { "?", "acoustic", "himeno", "laplace2d", "star", "wave2d" };
	return k >= 1 && k <= 5 ? n[k] : n[0];
}

/* Compressed fields: the device against the CPU path's round trips (on
   the simulated device bit for bit; on a GPU, whose kernels fuse
   multiply-adds, within twice the compression's own error plus the
   kernels' bound), and the fidelity check reported. */
static void ck_compressed( void )
{
	const char* dev = getenv( "HYBLAS_DEVICE" );
	const int   sim = dev && strcmp( dev, "sim" ) == 0;
	const struct
	{
		hyblas_stencil_kind_t kind;
		hyblas_stencil_type_t type;
		int64_t               nx, ny, nz;
		int32_t               r, m;
		double                state, coef;
		int                   scheme, d, k;
	} cases[] = {
		{ HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 300, 200, 1, 0, 5, 16.0, 0.0,
		  HYBLAS_STENCIL_SCHEME_SHARED, 4, 4 },
		{ HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 70, 60, 64, 0, 25, 16.0, 16.0,
		  HYBLAS_STENCIL_SCHEME_SHARED, 3, 3 },
		{ HYBLAS_STENCIL_STAR, HYBLAS_STENCIL_DOUBLE, 50, 40, 60, 2, 13, 32.0, 0.0,
		  HYBLAS_STENCIL_SCHEME_DIRECT, 2, 3 },
		/* The wave's pressure alone (Q and Q_WORK raw). */
		{ HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 300, 200, 1, 0, 5, 16.0, 0.0,
		  HYBLAS_STENCIL_SCHEME_SHARED, 4, 4 },
	};
	const int64_t T = 11;
	for ( int c = 0; c < (int)( sizeof cases / sizeof cases[0] ); c++ )
	{
		hyblas_stencil_desc_t dd[3];
		for ( int i = 0; i < 3; i++ )
		{
			dd[i] = ck_desc( cases[c].kind, cases[c].type, cases[c].nx, cases[c].ny, cases[c].nz,
			                 cases[c].r );
			ck_smooth( &dd[i] );
			if ( i < 2 ) ck_rates( &dd[i], cases[c].state, cases[c].coef );
		}
		hyblas_stencil_params_t p;
		memset( &p, 0, sizeof p );
		p.struct_size     = sizeof p;
		p.scheme          = (hyblas_stencil_scheme_t)cases[c].scheme;
		p.chunks          = cases[c].d;
		p.block_steps     = cases[c].k;
		p.fidelity_every  = 4;
		p.fidelity_points = 100000;
		hyblas_stencil_stats_t sg, sc, se;
		memset( &sg, 0, sizeof sg );
		sg.struct_size = sc.struct_size = se.struct_size = sizeof sg;
		p.path                                           = HYBLAS_PATH_GPU;
		const hyblas_status_t rg = hyblas_stencil_solve( &dd[0], T, &p, &sg );
		p.path                   = HYBLAS_PATH_CPU;
		const hyblas_status_t rc = hyblas_stencil_solve( &dd[1], T, &p, &sc );
		const hyblas_status_t re = hyblas_stencil_solve( &dd[2], T, &p, &se );
		double                diff, mag, loss, mag2;
		ck_diff( &dd[0], &dd[1], &diff, &mag );
		ck_diff( &dd[1], &dd[2], &loss, &mag2 );
		const double eps   = cases[c].type == HYBLAS_STENCIL_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
		const double bound = sim ? 0.0 : 2.0 * loss + 8.0 * (double)T * cases[c].m * eps * mag;
		const int    ok    = rg == HYBLAS_OK && rc == HYBLAS_OK && re == HYBLAS_OK &&
		               sg.path == HYBLAS_PATH_GPU && !sg.fell_back && sg.compressed_fields > 0 &&
		               sg.bytes_h2d < sg.bytes_h2d_raw && diff <= bound &&
		               sg.fidelity_checks == 3 && loss > 0.0;
		printf( "%s zfp %-9s %s rate %g/%g scheme %d d %d k %d: max|gpu-cpu| %.3e bound %.3e, "
		        "compression error %.3e, h2d %.3e of %.3e B, d2h %.3e of %.3e B, %.4f s%s%s\n",
		        ok ? "ok  " : "FAIL", ck_kind( cases[c].kind ),
		        cases[c].type == HYBLAS_STENCIL_DOUBLE ? "d" : "s", cases[c].state, cases[c].coef,
		        cases[c].scheme, cases[c].d, cases[c].k, diff, bound, loss, (double)sg.bytes_h2d,
		        (double)sg.bytes_h2d_raw, (double)sg.bytes_d2h, (double)sg.bytes_d2h_raw,
		        sg.seconds, sg.fell_back ? " fell back: " : "", sg.fell_back ? sg.why : "" );
		for ( int i = 0; i < sg.fidelity_checks; i++ )
			printf(
			    "     fidelity step %lld: %lld points, abs max %.3e mean %.3e, rel max %.3e mean "
			    "%.3e\n",
			    (long long)sg.fidelity[i].step, (long long)sg.fidelity[i].points,
			    sg.fidelity[i].max_abs, sg.fidelity[i].mean_abs, sg.fidelity[i].max_rel,
			    sg.fidelity[i].mean_rel );
		fails += !ok;
		for ( int i = 0; i < 3; i++ ) ck_free( &dd[i] );
	}
}

/* One benchmark line per mode: cpu (OpenMP, no compression), raw (device,
   uncompressed), state (the time levels at `rate`: for the wave the
   pressure alone, P and P_WORK), all (every field at `rate`), fidelity
   (state, with the check every `every` steps), fidelity_all (all, with the
   check). The wave is the seed's
   coupled two-field workload (four arrays, 2-D); laplace its 2-D 5-point
   stencil with two arrays; acoustic four arrays in 3-D. */
static int ck_bench( int argc, char** argv )
{
	const char* kind = "laplace";
	int64_t     nx = 2048, ny = 2048, nz = 1, T = 64, every = 64, points = 20000000;
	int         d = 8, k = 16;
	uint64_t    cap   = 0;
	double      rate  = 16.0;
	const char* modes = "cpu,raw,state,all";
	int         runs  = 1;
	for ( int i = 1; i + 1 < argc; i++ )
	{
		const char* a = argv[i];
		if ( strcmp( a, "--bench" ) == 0 )
			kind = argv[++i];
		else if ( strcmp( a, "--nx" ) == 0 )
			nx = atoll( argv[++i] );
		else if ( strcmp( a, "--ny" ) == 0 )
			ny = atoll( argv[++i] );
		else if ( strcmp( a, "--nz" ) == 0 )
			nz = atoll( argv[++i] );
		else if ( strcmp( a, "--steps" ) == 0 )
			T = atoll( argv[++i] );
		else if ( strcmp( a, "--d" ) == 0 )
			d = atoi( argv[++i] );
		else if ( strcmp( a, "--k" ) == 0 )
			k = atoi( argv[++i] );
		else if ( strcmp( a, "--cap" ) == 0 )
			cap = (uint64_t)atoll( argv[++i] );
		else if ( strcmp( a, "--rate" ) == 0 )
			rate = atof( argv[++i] );
		else if ( strcmp( a, "--modes" ) == 0 )
			modes = argv[++i];
		else if ( strcmp( a, "--runs" ) == 0 )
			runs = atoi( argv[++i] );
		else if ( strcmp( a, "--every" ) == 0 )
			every = atoll( argv[++i] );
		else if ( strcmp( a, "--points" ) == 0 )
			points = atoll( argv[++i] );
	}
	const int                   ac   = strcmp( kind, "acoustic" ) == 0;
	const int                   wv   = strcmp( kind, "wave" ) == 0;
	const hyblas_stencil_kind_t kd   = ac   ? HYBLAS_STENCIL_ACOUSTIC
	                                   : wv ? HYBLAS_STENCIL_WAVE2D
	                                        : HYBLAS_STENCIL_LAPLACE2D;
	hyblas_stencil_desc_t       desc = ck_desc( kd, HYBLAS_STENCIL_FLOAT, nx, ny, ac ? nz : 1, 0 );
	const double                arrays = ac || wv ? 4.0 : 2.0;
	const double bytes = arrays * (double)nx * (double)ny * (double)( ac ? nz : 1 ) * 4.0;
	/* Out of core: by default nine tenths of the arrays fit (the forced
	   shared scheme with d chunks keeps three chunk buffers resident). */
	const uint64_t mem = cap ? cap : (uint64_t)( bytes * 0.9 );
	printf( "# bench %s %lld x %lld x %lld float, %g arrays (%.3g GB), T %lld, d %d k %d, "
	        "device memory %.3g GB, rate %g\n",
	        kind, (long long)nx, (long long)ny, (long long)( ac ? nz : 1 ), arrays, bytes * 1e-9,
	        (long long)T, d, k, (double)mem * 1e-9, rate );
	printf( "bench,kind,mode,nx,ny,nz,steps,d,k,rate,path,fell_back,seconds,predicted,h2d,h2d_raw,"
	        "d2h,d2h_raw,checks,max_abs,mean_abs,max_rel,mean_rel\n" );
	char list[256];
	snprintf( list, sizeof list, "%s", modes );
	for ( char* m = strtok( list, "," ); m; m = strtok( NULL, "," ) )
	{
		/* fidelity_all: every field at `rate`, the check on the first quantity. */
		const int fall = strcmp( m, "fidelity_all" ) == 0;
		const int cpu = strcmp( m, "cpu" ) == 0, all = fall || strcmp( m, "all" ) == 0;
		const int fid = fall || strcmp( m, "fidelity" ) == 0;
		const int zip = all || fid || strcmp( m, "state" ) == 0;
		if ( hyblas_stencil_fill( &desc ) != HYBLAS_OK ) return 1;
		ck_smooth( &desc );
		ck_rates( &desc, zip ? rate : 0.0, all ? rate : 0.0 );
		hyblas_stencil_params_t p;
		memset( &p, 0, sizeof p );
		p.struct_size     = sizeof p;
		p.path            = cpu ? HYBLAS_PATH_CPU : HYBLAS_PATH_GPU;
		p.scheme          = HYBLAS_STENCIL_SCHEME_SHARED;
		p.chunks          = d;
		p.block_steps     = k;
		p.device_mem      = mem;
		p.fidelity_every  = fid ? every : 0;
		p.fidelity_points = points;
		/* One handle, `runs` runs of T steps in turn: the first pays what a
		   handle's first device run pays (page-locking the caller's arrays,
		   touching the rollback copy's memory), the later ones are a
		   time-stepping program's steady state (rows "MODE#2", ...). The
		   CPU path holds nothing across runs: it runs once. */
		hyblas_stencil_t* h = NULL;
		hyblas_status_t   r = hyblas_stencil_create( &desc, &h );
		for ( int run = 1; run <= ( cpu ? 1 : runs ) && r == HYBLAS_OK; run++ )
		{
			char name[64];
			snprintf( name, sizeof name, run > 1 ? "%s#%d" : "%s", m, run );
			hyblas_stencil_stats_t s;
			memset( &s, 0, sizeof s );
			s.struct_size = sizeof s;
			r             = hyblas_stencil_run( h, T, &p, &s );
			if ( r != HYBLAS_OK ) break;
			const hyblas_stencil_fidelity_t* f =
			    s.fidelity_checks ? &s.fidelity[s.fidelity_checks - 1] : NULL;
			printf( "bench,%s,%s,%lld,%lld,%lld,%lld,%d,%d,%g,%s,%d,%.6f,%.6f,"
			        "%llu,%llu,%llu,%llu,%d,%.3e,%.3e,%.3e,%.3e\n",
			        kind, name, (long long)nx, (long long)ny, (long long)( ac ? nz : 1 ),
			        (long long)T, (int)s.chunks, (int)s.block_steps, zip ? rate : 0.0,
			        s.path == HYBLAS_PATH_GPU ? "gpu" : "cpu", (int)s.fell_back, s.seconds,
			        cpu ? s.predicted_cpu_seconds : s.predicted_seconds,
			        (unsigned long long)s.bytes_h2d, (unsigned long long)s.bytes_h2d_raw,
			        (unsigned long long)s.bytes_d2h, (unsigned long long)s.bytes_d2h_raw,
			        (int)s.fidelity_checks, f ? f->max_abs : 0.0, f ? f->mean_abs : 0.0,
			        f ? f->max_rel : 0.0, f ? f->mean_rel : 0.0 );
			for ( int i = 0; fid && i < s.fidelity_checks; i++ )
				printf( "%s,%s,%lld,%lld,%.3e,%.3e,%.3e,%.3e\n", m, kind,
				        (long long)s.fidelity[i].step, (long long)s.fidelity[i].points,
				        s.fidelity[i].max_abs, s.fidelity[i].mean_abs, s.fidelity[i].max_rel,
				        s.fidelity[i].mean_rel );
			if ( !cpu && s.path != HYBLAS_PATH_GPU && !s.fell_back )
			{
				printf( "# no device: %s\n", s.why );
				hyblas_stencil_destroy( h );
				ck_free( &desc );
				return 77;
			}
			fails += s.fell_back;
		}
		hyblas_stencil_destroy( h );
		if ( r != HYBLAS_OK )
		{
			printf( "# %s: %s\n", m, hyblas_status_string( r ) );
			fails++;
		}
	}
	ck_free( &desc );
	return fails ? 1 : 0;
}

int main( int argc, char** argv )
{
	for ( int i = 1; i < argc; i++ )
		if ( strcmp( argv[i], "--bench" ) == 0 ) return ck_bench( argc, argv );
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
		                         { HYBLAS_STENCIL_STAR, 50, 40, 60, 3, 19 },
		                         { HYBLAS_STENCIL_WAVE2D, 300, 200, 1, 0, 9 } };
	const int     plans[][3] = { { HYBLAS_STENCIL_SCHEME_IN_CORE, 4, 0 },
		                         { HYBLAS_STENCIL_SCHEME_COPY, 3, 2 },
		                         { HYBLAS_STENCIL_SCHEME_DIRECT, 4, 3 },
		                         { HYBLAS_STENCIL_SCHEME_SHARED, 4, 3 },
		                         { HYBLAS_STENCIL_SCHEME_SHARED, 2, 5 } };
	const int64_t T          = 11;
	for ( int c = 0; c < (int)( sizeof cases / sizeof cases[0] ); c++ )
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
	ck_compressed();
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
