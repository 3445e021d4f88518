/* SPDX-License-Identifier: BSD-3-Clause */
/* Benchmark of the out-of-core stencil engine (docs/stencil.md) through the public API: one
   data set, the OpenMP CPU path as the reference, then every device scheme under each
   device-memory budget, each run checked (against the CPU within the documented bound, the
   schemes bit for bit with each other, the bytes moved equal to the plan's) and timed
   against the plan's prediction and, given the measured PCIe rates, against the transfer
   bound. --sweep times a small grid of forced (d, k) around each scheme's plan to see how
   close the planner's choice is to the best measured one; --plans times the forced (d, k)
   given, each printed as a sweep row (for plans far from the planner's, such as the
   bus-bound ones of small k). --huge-pages gives the fields transparent huge pages, as a
   program may allocate them (whether the DMA from them is faster); --host-alloc takes them
   from hyblas_host_alloc, page-locked at the allocation (seed 003's direct mapping allocates
   its fields page-locked), so that the handle's first run locks none of them.

   Usage: hyb_bench_stencil_ooc --set acoustic|himeno|laplace|wave [--nx N --ny N --nz N]
            [--steps T] [--budgets B1,B2,...] [--schemes copy,direct,shared,incore,auto]
            [--sweep] [--plans D:K,...] [--no-cpu] [--h2d GBS --d2h GBS --bidir GBS]
            [--type float|double] [--huge-pages | --host-alloc]
   Budgets are device-memory caps in bytes, 0 for none. Output: "row," CSV lines (the CPU
   row has scheme cpu), "sweep," CSV lines, and "# " comment lines with the summary.
   Exit status: 0 every device run correct, 1 one was not (or it fell back), 2 bad usage,
   77 no device ran. */
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hyblas_ext.h"

/* ------------------------------------------------------------------ the data sets */

typedef struct
{
	const char*           name;
	hyblas_stencil_kind_t kind;
	int                   nfields;
	int                   points; /* m of the error bound 8 T m eps max|cpu| */
	/* The time levels: the inputs restored before every run, and the result compared and
	   hashed after it (the acoustic's CUR = p(T) and PREV = p(T-1)). */
	int     nlevels;
	int     levels[2];
	int64_t nx, ny, nz, steps; /* the seed's sizes */
} stencil_set_t;

static const stencil_set_t SETS[] = {
	{ "acoustic",
	  HYBLAS_STENCIL_ACOUSTIC,
	  HYBLAS_ACOUSTIC_FIELDS,
	  25,
	  2,
	  { HYBLAS_ACOUSTIC_CUR, HYBLAS_ACOUSTIC_PREV },
	  1160,
	  1160,
	  1160,
	  36 },
	/* Himeno's 613 x 613 x 1225 is imax x jmax x kmax with k fastest: 613 planes are cut. */
	{ "himeno",
	  HYBLAS_STENCIL_HIMENO,
	  HYBLAS_HIMENO_FIELDS,
	  19,
	  1,
	  { HYBLAS_HIMENO_P, 0 },
	  1225,
	  613,
	  613,
	  36 },
	{ "laplace",
	  HYBLAS_STENCIL_LAPLACE2D,
	  HYBLAS_GRID_FIELDS,
	  5,
	  1,
	  { HYBLAS_GRID_U, 0 },
	  45000,
	  45000,
	  1,
	  64 },
	/* The seed's ch. 4 workload: the damped wave's p and q (docs/stencil.md); the
	   Laplacian's five terms and q's and p's updates in the bound. */
	{ "wave",
	  HYBLAS_STENCIL_WAVE2D,
	  HYBLAS_WAVE_FIELDS,
	  9,
	  2,
	  { HYBLAS_WAVE_P, HYBLAS_WAVE_Q },
	  45000,
	  45000,
	  1,
	  64 },
};
#define NSETS ( (int)( sizeof SETS / sizeof SETS[0] ) )

typedef struct
{
	const char*             name;
	hyblas_stencil_scheme_t scheme;
} scheme_name_t;

static const scheme_name_t SCHEMES[] = {
	{ "copy", HYBLAS_STENCIL_SCHEME_COPY },     { "direct", HYBLAS_STENCIL_SCHEME_DIRECT },
	{ "shared", HYBLAS_STENCIL_SCHEME_SHARED }, { "incore", HYBLAS_STENCIL_SCHEME_IN_CORE },
	{ "auto", HYBLAS_STENCIL_SCHEME_AUTO },
};
#define NSCHEMES    ( (int)( sizeof SCHEMES / sizeof SCHEMES[0] ) )
#define MAX_BUDGETS 8
#define MAX_PLANS   16
/* Measured runs per scheme and budget in the sweep. */
#define SWEEP_RUNS 12

/* ------------------------------------------------------------------ options */

typedef struct
{
	const stencil_set_t*  set;
	hyblas_stencil_type_t type;
	int64_t               nx, ny, nz, steps; /* 0: the set's */
	uint64_t              budgets[MAX_BUDGETS];
	int                   nbudgets;
	int                   schemes[NSCHEMES]; /* indices into SCHEMES, in the order given */
	int                   nschemes;
	int                   sweep, cpu;
	int                   huge; /* --huge-pages: the fields in transparent huge pages */
	int                   host; /* --host-alloc: the fields from hyblas_host_alloc */
	int32_t               plans[MAX_PLANS][2]; /* --plans: forced (d, k) */
	int                   nplans;
	double                h2d, d2h, bidir; /* pinned PCIe GB/s; 0: not measured */
	/* The same from ordinary memory registered (what direct mapping moves); 0: not measured */
	double reg_h2d, reg_d2h, reg_bidir;
} bench_opts_t;

static void usage( void )
{
	fprintf(
	    stderr,
	    "usage: hyb_bench_stencil_ooc --set acoustic|himeno|laplace|wave [--nx N --ny N --nz "
	    "N]\n"
	    "         [--steps T] [--budgets B1,B2,...] [--schemes copy,direct,shared,incore,auto]\n"
	    "         [--sweep] [--plans D:K,...] [--no-cpu] [--h2d GBS --d2h GBS --bidir GBS] "
	    "[--type float|double] [--huge-pages | --host-alloc]\n"
	    "         [--reg-h2d GBS --reg-d2h GBS --reg-bidir GBS]\n" );
}

static int parse_count( const char* s, int64_t* out )
{
	char*           end;
	const long long v = strtoll( s, &end, 10 );
	if ( end == s || *end != '\0' || v <= 0 ) return 0;
	*out = v;
	return 1;
}

static int parse_rate( const char* s, double* out )
{
	char*        end;
	const double v = strtod( s, &end );
	if ( end == s || *end != '\0' || !( v >= 0.0 ) ) return 0;
	*out = v;
	return 1;
}

static int parse_budgets( const char* s, bench_opts_t* o )
{
	char list[512];
	snprintf( list, sizeof list, "%s", s );
	o->nbudgets = 0;
	for ( char* t = strtok( list, "," ); t; t = strtok( NULL, "," ) )
	{
		char*                    end;
		const unsigned long long v = strtoull( t, &end, 10 );
		if ( end == t || *end != '\0' || o->nbudgets == MAX_BUDGETS ) return 0;
		o->budgets[o->nbudgets++] = (uint64_t)v;
	}
	return o->nbudgets > 0;
}

/* "D:K,D:K,...": chunks and steps per block, each at least 1. */
static int parse_plans( const char* s, bench_opts_t* o )
{
	char list[512];
	snprintf( list, sizeof list, "%s", s );
	o->nplans = 0;
	for ( char* t = strtok( list, "," ); t; t = strtok( NULL, "," ) )
	{
		char*      end;
		const long d = strtol( t, &end, 10 );
		if ( end == t || *end != ':' || d < 1 || d > INT32_MAX ) return 0;
		const char* kt = end + 1;
		const long  k  = strtol( kt, &end, 10 );
		if ( end == kt || *end != '\0' || k < 1 || k > INT32_MAX || o->nplans == MAX_PLANS )
			return 0;
		o->plans[o->nplans][0]   = (int32_t)d;
		o->plans[o->nplans++][1] = (int32_t)k;
	}
	return o->nplans > 0;
}

static int scheme_index( const char* name )
{
	for ( int i = 0; i < NSCHEMES; i++ )
		if ( strcmp( name, SCHEMES[i].name ) == 0 ) return i;
	return -1;
}

static int parse_schemes( const char* s, bench_opts_t* o )
{
	char list[256];
	snprintf( list, sizeof list, "%s", s );
	o->nschemes = 0;
	for ( char* t = strtok( list, "," ); t; t = strtok( NULL, "," ) )
	{
		const int i = scheme_index( t );
		if ( i < 0 || o->nschemes == NSCHEMES ) return 0;
		o->schemes[o->nschemes++] = i;
	}
	return o->nschemes > 0;
}

static const stencil_set_t* set_named( const char* name )
{
	for ( int i = 0; i < NSETS; i++ )
		if ( strcmp( name, SETS[i].name ) == 0 ) return &SETS[i];
	return NULL;
}

/* One option and its value; 0 when either is bad. */
static int parse_option( const char* a, const char* v, bench_opts_t* o )
{
	if ( strcmp( a, "--set" ) == 0 ) return ( o->set = set_named( v ) ) != NULL;
	if ( strcmp( a, "--nx" ) == 0 ) return parse_count( v, &o->nx );
	if ( strcmp( a, "--ny" ) == 0 ) return parse_count( v, &o->ny );
	if ( strcmp( a, "--nz" ) == 0 ) return parse_count( v, &o->nz );
	if ( strcmp( a, "--steps" ) == 0 ) return parse_count( v, &o->steps );
	if ( strcmp( a, "--budgets" ) == 0 ) return parse_budgets( v, o );
	if ( strcmp( a, "--schemes" ) == 0 ) return parse_schemes( v, o );
	if ( strcmp( a, "--plans" ) == 0 ) return parse_plans( v, o );
	if ( strcmp( a, "--h2d" ) == 0 ) return parse_rate( v, &o->h2d );
	if ( strcmp( a, "--d2h" ) == 0 ) return parse_rate( v, &o->d2h );
	if ( strcmp( a, "--bidir" ) == 0 ) return parse_rate( v, &o->bidir );
	if ( strcmp( a, "--reg-h2d" ) == 0 ) return parse_rate( v, &o->reg_h2d );
	if ( strcmp( a, "--reg-d2h" ) == 0 ) return parse_rate( v, &o->reg_d2h );
	if ( strcmp( a, "--reg-bidir" ) == 0 ) return parse_rate( v, &o->reg_bidir );
	if ( strcmp( a, "--type" ) == 0 )
	{
		o->type = strcmp( v, "double" ) == 0  ? HYBLAS_STENCIL_DOUBLE
		          : strcmp( v, "float" ) == 0 ? HYBLAS_STENCIL_FLOAT
		                                      : (hyblas_stencil_type_t)0;
		return o->type != 0;
	}
	return 0;
}

/* The set's sizes and steps where none were given. */
static int apply_defaults( bench_opts_t* o )
{
	if ( o->set == NULL )
	{
		fprintf( stderr, "hyb_bench_stencil_ooc: --set is required\n" );
		return 0;
	}
	if ( o->nx == 0 ) o->nx = o->set->nx;
	if ( o->ny == 0 ) o->ny = o->set->ny;
	if ( o->nz == 0 ) o->nz = o->set->nz;
	if ( o->steps == 0 ) o->steps = o->set->steps;
	/* The 2-D sets have one plane; their rows are cut. */
	if ( ( o->set->kind == HYBLAS_STENCIL_LAPLACE2D || o->set->kind == HYBLAS_STENCIL_WAVE2D ) &&
	     o->nz != 1 )
	{
		fprintf( stderr, "hyb_bench_stencil_ooc: %s is 2-D: --nz must be 1\n", o->set->name );
		return 0;
	}
	return 1;
}

static int parse_args( int argc, char** argv, bench_opts_t* o )
{
	memset( o, 0, sizeof *o );
	o->type     = HYBLAS_STENCIL_FLOAT;
	o->cpu      = 1;
	o->nbudgets = 1; /* budgets[0] = 0: no cap */
	for ( int i = 0; i < NSCHEMES; i++ ) o->schemes[i] = i;
	o->nschemes = NSCHEMES;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--sweep" ) == 0 )
			o->sweep = 1;
		else if ( strcmp( argv[i], "--huge-pages" ) == 0 )
			o->huge = 1;
		else if ( strcmp( argv[i], "--host-alloc" ) == 0 )
			o->host = 1;
		else if ( strcmp( argv[i], "--no-cpu" ) == 0 )
			o->cpu = 0;
		else if ( i + 1 >= argc || !parse_option( argv[i], argv[i + 1], o ) )
		{
			fprintf( stderr, "hyb_bench_stencil_ooc: bad option %s%s%s\n", argv[i],
			         i + 1 < argc ? " " : "", i + 1 < argc ? argv[i + 1] : "" );
			return 0;
		}
		else
			i++;
	}
	if ( o->huge && o->host )
	{
		fprintf( stderr, "hyb_bench_stencil_ooc: --huge-pages or --host-alloc, not both\n" );
		return 0;
	}
	return apply_defaults( o );
}

/* ------------------------------------------------------------------ memory, copies, hashes */

static void out_of_memory( size_t bytes )
{
	fprintf( stderr, "hyb_bench_stencil_ooc: out of host memory (%.3g GB more)\n",
	         (double)bytes * 1e-9 );
	exit( 1 );
}

static void* xmalloc( size_t bytes )
{
	void* p = malloc( bytes );
	if ( p == NULL ) out_of_memory( bytes );
	return p;
}

/* Big copies and hashes go in pieces of this size, one thread each. */
#define PIECE_BYTES ( (size_t)1 << 22 )

static int64_t piece_count( size_t bytes )
{
	return (int64_t)( ( bytes + PIECE_BYTES - 1 ) / PIECE_BYTES );
}

static size_t piece_length( size_t bytes, int64_t piece )
{
	const size_t off = (size_t)piece * PIECE_BYTES;
	return bytes - off < PIECE_BYTES ? bytes - off : PIECE_BYTES;
}

/* memcpy of arrays of many GB: one thread alone would take seconds per run. */
static void parallel_copy( void* dst, const void* src, size_t bytes )
{
	const int64_t pieces = piece_count( bytes );
#pragma omp parallel for schedule( static )
	for ( int64_t i = 0; i < pieces; i++ )
	{
		const size_t off = (size_t)i * PIECE_BYTES;
		memcpy( (char*)dst + off, (const char*)src + off, piece_length( bytes, i ) );
	}
}

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME  1099511628211ull

/* FNV-1a over 64-bit words (eight times faster than over bytes; any single changed word
   still changes the hash, since each step is a bijection), bytes for a short tail. */
static uint64_t fnv1a_words( const unsigned char* p, size_t n, uint64_t h )
{
	size_t i = 0;
	for ( ; i + 8 <= n; i += 8 )
	{
		uint64_t w;
		memcpy( &w, p + i, sizeof w );
		h = ( h ^ w ) * FNV_PRIME;
	}
	for ( ; i < n; i++ ) h = ( h ^ p[i] ) * FNV_PRIME;
	return h;
}

/* Each piece hashed on its own in parallel, then the pieces' hashes in order: the same
   value for any thread count. */
static uint64_t hash_array( const void* data, size_t bytes, uint64_t h )
{
	const int64_t pieces = piece_count( bytes );
	uint64_t*     part   = xmalloc( (size_t)pieces * sizeof *part );
#pragma omp parallel for schedule( static )
	for ( int64_t i = 0; i < pieces; i++ )
		part[i] = fnv1a_words( (const unsigned char*)data + (size_t)i * PIECE_BYTES,
		                       piece_length( bytes, i ), FNV_OFFSET );
	for ( int64_t i = 0; i < pieces; i++ )
		h = fnv1a_words( (const unsigned char*)&part[i], sizeof part[i], h );
	free( part );
	return h;
}

static double element( const void* a, size_t i, int dbl )
{
	return dbl ? ( (const double*)a )[i] : (double)( (const float*)a )[i];
}

/* max |a - b| over n elements, a NaN counting as infinitely far. */
static double max_abs_diff( const void* a, const void* b, size_t n, int dbl )
{
	double worst = 0.0;
#pragma omp parallel for reduction( max : worst ) schedule( static )
	for ( int64_t i = 0; i < (int64_t)n; i++ )
	{
		const double e = fabs( element( a, (size_t)i, dbl ) - element( b, (size_t)i, dbl ) );
		worst          = e != e ? INFINITY : e > worst ? e : worst;
	}
	return worst;
}

static double max_abs( const void* a, size_t n, int dbl )
{
	double most = 0.0;
#pragma omp parallel for reduction( max : most ) schedule( static )
	for ( int64_t i = 0; i < (int64_t)n; i++ )
	{
		const double v = fabs( element( a, (size_t)i, dbl ) );
		most           = v > most ? v : most;
	}
	return most;
}

/* ------------------------------------------------------------------ the benchmark's state */

/* One budget's measurements for the summary: seconds per scheme (NAN where none ran
   correctly on the device) and the fastest run of any scheme, forced (d, k) included. */
typedef struct
{
	double  seconds[NSCHEMES];
	double  best_seconds;
	int     best_scheme;
	int32_t best_d, best_k;
} budget_result_t;

typedef struct
{
	bench_opts_t          o;
	hyblas_stencil_desc_t desc;
	hyblas_stencil_t*     handle;
	size_t                elems, esize;
	void*                 saved[2];     /* the input levels */
	void*                 reference[2]; /* the CPU path's result levels (NULL: --no-cpu) */
	double                cpu_seconds, cpu_gosa, cpu_mag;
	int                   sim; /* the simulated device runs the CPU kernels: bit for bit */
	uint64_t              first_hash;
	int                   have_first_hash;
	int                   failures, device_runs, no_device;
	budget_result_t       by_budget[MAX_BUDGETS];
} bench_t;

/* Everything measured of one device run. */
typedef struct
{
	hyblas_stencil_stats_t plan, run;
	hyblas_status_t        rc;
	double                 max_diff, bound, gosa_diff;
	uint64_t               hash;
	int                    on_device, bytes_match, same;
	int                    diff_ok; /* -1: not checked (--no-cpu) */
} outcome_t;

static int is_double( const bench_t* b )
{
	return b->o.type == HYBLAS_STENCIL_DOUBLE;
}

static size_t level_bytes( const bench_t* b )
{
	return b->elems * b->esize;
}

static void* level_data( const bench_t* b, int j )
{
	return b->desc.fields[b->o.set->levels[j]].data;
}

/* A field's memory: calloc, with --huge-pages a mapping of its own asked for transparent huge
   pages, as a program may allocate it (to measure whether the DMA from such memory differs),
   with --host-alloc a block of hyblas_host_alloc (its contents unspecified until the fill). */
static void* field_alloc( const bench_t* b, size_t bytes )
{
	void* p = NULL;
	if ( b->o.host ) return hyblas_host_alloc( bytes, &p ) == HYBLAS_OK ? p : NULL;
	if ( !b->o.huge ) return calloc( 1, bytes );
	p = mmap( NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( p == MAP_FAILED ) return NULL;
	madvise( p, bytes, MADV_HUGEPAGE );
	return p;
}

static void field_free( const bench_t* b, void* p, size_t bytes )
{
	if ( p && b->o.host )
		hyblas_host_free( p );
	else if ( p && b->o.huge )
		munmap( p, bytes );
	else
		free( p );
}

static void alloc_fields( bench_t* b )
{
	hyblas_stencil_desc_t* d = &b->desc;
	memset( d, 0, sizeof *d );
	d->struct_size = sizeof *d;
	d->kind        = b->o.set->kind;
	d->type        = b->o.type;
	d->nx          = b->o.nx;
	d->ny          = b->o.ny;
	d->nz          = b->o.nz;
	b->esize       = is_double( b ) ? sizeof( double ) : sizeof( float );
	b->elems       = (size_t)d->nx * (size_t)d->ny * (size_t)d->nz;
	for ( int f = 0; f < b->o.set->nfields; f++ )
	{
		/* Untouched: the pages are touched first by the library's parallel fill. */
		d->fields[f].data = field_alloc( b, b->elems * b->esize );
		if ( d->fields[f].data == NULL ) out_of_memory( b->elems * b->esize );
	}
}

static void save_inputs( bench_t* b )
{
	for ( int j = 0; j < b->o.set->nlevels; j++ )
	{
		b->saved[j] = xmalloc( level_bytes( b ) );
		parallel_copy( b->saved[j], level_data( b, j ), level_bytes( b ) );
	}
}

/* Every run starts from the data set: the read-only fields are never written, the work
   level's contents are never read. */
static void restore_inputs( bench_t* b )
{
	for ( int j = 0; j < b->o.set->nlevels; j++ )
		parallel_copy( level_data( b, j ), b->saved[j], level_bytes( b ) );
}

static uint64_t hash_levels( const bench_t* b )
{
	uint64_t h = FNV_OFFSET;
	for ( int j = 0; j < b->o.set->nlevels; j++ )
		h = hash_array( level_data( b, j ), level_bytes( b ), h );
	return h;
}

static double diff_to_reference( const bench_t* b )
{
	double worst = 0.0;
	for ( int j = 0; j < b->o.set->nlevels; j++ )
		worst = fmax(
		    worst, max_abs_diff( level_data( b, j ), b->reference[j], b->elems, is_double( b ) ) );
	return worst;
}

static hyblas_stencil_params_t make_params( hyblas_path_t path, hyblas_stencil_scheme_t scheme,
                                            int32_t d, int32_t k, uint64_t budget )
{
	hyblas_stencil_params_t p;
	memset( &p, 0, sizeof p );
	p.struct_size = sizeof p;
	p.path        = path;
	p.scheme      = scheme;
	p.chunks      = d;
	p.block_steps = k;
	p.device_mem  = budget;
	return p;
}

static hyblas_stencil_stats_t empty_stats( void )
{
	hyblas_stencil_stats_t s;
	memset( &s, 0, sizeof s );
	s.struct_size = sizeof s;
	return s;
}

/* The library's "ran on the CPU: no usable device runs this stencil". */
static int says_no_device( const hyblas_stencil_stats_t* s )
{
	return s->path != HYBLAS_PATH_GPU && !s->fell_back && strstr( s->why, "no usable device" );
}

/* stats.why as one CSV field. */
static const char* csv_text( const char* why, char* out, size_t len )
{
	snprintf( out, len, "%s", why );
	for ( char* c = out; *c; c++ )
		if ( *c == ',' || *c == '\n' || *c == '\r' ) *c = ';';
	return out;
}

static const char* fmt_e( double v, char* out, size_t len )
{
	if ( isnan( v ) )
		snprintf( out, len, "na" );
	else
		snprintf( out, len, "%.3e", v );
	return out;
}

static const char* fmt_f( double v, char* out, size_t len )
{
	if ( isnan( v ) )
		snprintf( out, len, "na" );
	else
		snprintf( out, len, "%.6f", v );
	return out;
}

static const char* fmt_g( double v, char* out, size_t len )
{
	if ( isnan( v ) )
		snprintf( out, len, "na" );
	else
		snprintf( out, len, "%.6g", v );
	return out;
}

static const char* type_name( const bench_t* b )
{
	return is_double( b ) ? "double" : "float";
}

/* ------------------------------------------------------------------ set-up */

static void print_sizes( const bench_t* b )
{
	const double gb     = 1e-9 * (double)level_bytes( b );
	const int    copies = b->o.set->nlevels;
	printf( "# hyb_bench_stencil_ooc: %s %s %lld x %lld x %lld, %d arrays %.3f GB, inputs copy "
	        "%.3f GB, reference %.3f GB, T %lld, OpenMP threads %d%s\n",
	        b->o.set->name, type_name( b ), (long long)b->o.nx, (long long)b->o.ny,
	        (long long)b->o.nz, b->o.set->nfields, gb * b->o.set->nfields, gb * copies,
	        b->o.cpu ? gb * copies : 0.0, (long long)b->o.steps, omp_get_max_threads(),
	        b->sim ? ", simulated device (bound 0: bit for bit)" : "" );
}

static int setup( bench_t* b )
{
	const char* dev = getenv( "HYBLAS_DEVICE" );
	b->sim          = dev && strcmp( dev, "sim" ) == 0;
	/* What the program pays before its first run: the fields' memory (page-locked at once
	   with --host-alloc) and the data set written into it. */
	const double t0 = omp_get_wtime();
	alloc_fields( b );
	const double t1 = omp_get_wtime();
	print_sizes( b );
	hyblas_status_t rc = hyblas_stencil_fill( &b->desc );
	printf( "# set-up: fields allocated in %.3f s (%s), filled in %.3f s\n", t1 - t0,
	        b->o.host ? "hyblas_host_alloc" : b->o.huge ? "huge pages" : "calloc",
	        omp_get_wtime() - t1 );
	if ( rc == HYBLAS_OK ) rc = hyblas_stencil_create( &b->desc, &b->handle );
	if ( rc != HYBLAS_OK )
	{
		printf( "# set-up failed: %s\n", hyblas_status_string( rc ) );
		return 0;
	}
	save_inputs( b );
	for ( int i = 0; i < MAX_BUDGETS; i++ )
	{
		for ( int s = 0; s < NSCHEMES; s++ ) b->by_budget[i].seconds[s] = NAN;
		b->by_budget[i].best_seconds = NAN;
	}
	return 1;
}

static void teardown( bench_t* b )
{
	hyblas_stencil_destroy( b->handle );
	for ( int j = 0; j < 2; j++ )
	{
		free( b->saved[j] );
		free( b->reference[j] );
	}
	for ( int f = 0; f < HYBLAS_STENCIL_MAX_FIELDS; f++ )
		field_free( b, b->desc.fields[f].data, b->elems * b->esize );
}

/* Page-locking of the arrays (where the library does it) and the device's start-up happen at
   the first device run of the handle: one short run first keeps them out of the timed rows.
   0: no device. */
static int warm_up( bench_t* b )
{
	const hyblas_stencil_params_t p =
	    make_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_AUTO, 0, 0, b->o.budgets[0] );
	hyblas_stencil_stats_t s  = empty_stats();
	const hyblas_status_t  rc = hyblas_stencil_run( b->handle, 2, &p, &s );
	printf( "# warm-up (auto, 2 steps, budget %llu): %s, path %s, %.3f s, seconds_register %.3f; "
	        "%s\n",
	        (unsigned long long)b->o.budgets[0], hyblas_status_string( rc ),
	        s.path == HYBLAS_PATH_GPU ? "gpu" : "cpu", s.seconds, s.seconds_register, s.why );
	return !( rc == HYBLAS_OK && says_no_device( &s ) );
}

static void print_header( void )
{
	printf( "row,set,type,nx,ny,nz,steps,budget,scheme,path,fell_back,d,k,seconds,predicted,h2d,"
	        "h2d_pred,d2h,d2h_pred,d2d,bytes_match,max_diff,bound,diff_ok,same_as_first_gpu,"
	        "pcie_bound_s,ratio_to_bound,reg_bound_s,ratio_to_reg_bound,gosa_diff,why\n" );
	printf(
	    "sweep,set,type,nx,ny,nz,steps,budget,scheme,d,k,path,fell_back,seconds,predicted,h2d,"
	    "d2h,d2d,same_as_first_gpu,pcie_bound_s,ratio_to_bound,reg_bound_s,ratio_to_reg_bound\n" );
}

/* The columns every row starts with, through the scheme. */
static void print_row_head( const bench_t* b, const char* tag, const char* budget,
                            const char* scheme )
{
	printf( "%s,%s,%s,%lld,%lld,%lld,%lld,%s,%s,", tag, b->o.set->name, type_name( b ),
	        (long long)b->o.nx, (long long)b->o.ny, (long long)b->o.nz, (long long)b->o.steps,
	        budget, scheme );
}

/* The CPU path over all T steps; its result levels are kept as the reference. */
static int cpu_reference( bench_t* b )
{
	restore_inputs( b );
	const hyblas_stencil_params_t p =
	    make_params( HYBLAS_PATH_CPU, HYBLAS_STENCIL_SCHEME_AUTO, 0, 0, 0 );
	hyblas_stencil_stats_t s  = empty_stats();
	const hyblas_status_t  rc = hyblas_stencil_run( b->handle, b->o.steps, &p, &s );
	char                   why[sizeof s.why];
	if ( rc != HYBLAS_OK )
	{
		printf( "# cpu reference failed: %s\n", hyblas_status_string( rc ) );
		return 0;
	}
	b->cpu_seconds = s.seconds;
	b->cpu_gosa    = s.residual;
	for ( int j = 0; j < b->o.set->nlevels; j++ )
	{
		b->reference[j] = xmalloc( level_bytes( b ) );
		parallel_copy( b->reference[j], level_data( b, j ), level_bytes( b ) );
		b->cpu_mag = fmax( b->cpu_mag, max_abs( b->reference[j], b->elems, is_double( b ) ) );
	}
	printf( "# cpu reference: %.3f s, max|cpu| %.6e", s.seconds, b->cpu_mag );
	if ( b->o.set->kind == HYBLAS_STENCIL_HIMENO ) printf( ", gosa %.17g", s.residual );
	printf( "\n" );
	print_row_head( b, "row", "-", "cpu" );
	printf( "cpu,0,0,0,%.6f,%.6f,0,0,0,0,0,na,0,na,na,na,na,na,na,na,na,%s\n", s.seconds,
	        s.predicted_cpu_seconds, csv_text( s.why, why, sizeof why ) );
	return 1;
}

/* ------------------------------------------------------------------ one device run */

/* The plan of a run with these parameters; 0 (and why) when there is none on the device. */
static int plan_on_device( bench_t* b, const hyblas_stencil_params_t* p,
                           hyblas_stencil_stats_t* plan, char* why, size_t len )
{
	*plan                    = empty_stats();
	const hyblas_status_t rc = hyblas_stencil_plan( b->handle, b->o.steps, p, plan );
	if ( rc != HYBLAS_OK )
	{
		/* A forced scheme, d or k that cannot be made under the budget is invalid. */
		snprintf( why, len, "plan: %s%s", hyblas_status_string( rc ),
		          rc == HYBLAS_E_INVALID ? " (no such plan fits this budget)" : "" );
		return 0;
	}
	if ( plan->path != HYBLAS_PATH_GPU )
	{
		if ( says_no_device( plan ) ) b->no_device = 1;
		snprintf( why, len, "plan on the CPU: %s", plan->why );
		return 0;
	}
	return 1;
}

/* Within the documented bound of the CPU (fields; Himeno's gosa is reported). */
static void check_against_cpu( const bench_t* b, outcome_t* r )
{
	r->max_diff = r->bound = r->gosa_diff = NAN;
	r->diff_ok                            = -1;
	if ( b->reference[0] == NULL ) return;
	const double eps = is_double( b ) ? DBL_EPSILON : FLT_EPSILON;
	r->max_diff      = diff_to_reference( b );
	r->bound   = b->sim ? 0.0 : 8.0 * (double)b->o.steps * b->o.set->points * eps * b->cpu_mag;
	r->diff_ok = r->max_diff <= r->bound;
	if ( b->o.set->kind == HYBLAS_STENCIL_HIMENO )
		r->gosa_diff = fabs( r->run.residual - b->cpu_gosa );
}

/* The first correct device run's hash is the one every other must equal. */
static void check_same_bits( bench_t* b, outcome_t* r )
{
	r->hash = hash_levels( b );
	if ( !b->have_first_hash )
	{
		b->first_hash      = r->hash;
		b->have_first_hash = 1;
	}
	r->same = r->hash == b->first_hash;
}

static void count_outcome( bench_t* b, const outcome_t* r )
{
	if ( says_no_device( &r->run ) ) b->no_device = 1;
	const int ok =
	    r->rc == HYBLAS_OK && r->on_device && r->bytes_match && r->diff_ok != 0 && r->same;
	b->failures += !ok;
}

/* The bytes uploaded are the plan's. Himeno's per-plane residual sums (8 bytes a plane) are
   zeroed on the device by one upload and read back by one download per run, which the
   model's closed forms leave out: a run may move exactly those bytes more. */
static int h2d_as_planned( const bench_t* b, const hyblas_stencil_stats_t* plan,
                           const hyblas_stencil_stats_t* run )
{
	const uint64_t residual =
	    b->o.set->kind == HYBLAS_STENCIL_HIMENO ? (uint64_t)b->o.nz * sizeof( double ) : 0;
	return run->bytes_h2d == plan->bytes_h2d || run->bytes_h2d == plan->bytes_h2d + residual;
}

/* Restore, run as planned, check. */
static void run_planned( bench_t* b, const hyblas_stencil_params_t* p, outcome_t* r )
{
	restore_inputs( b );
	r->run         = empty_stats();
	r->rc          = hyblas_stencil_run( b->handle, b->o.steps, p, &r->run );
	r->on_device   = r->rc == HYBLAS_OK && r->run.path == HYBLAS_PATH_GPU && !r->run.fell_back;
	r->bytes_match = r->on_device && h2d_as_planned( b, &r->plan, &r->run );
	r->diff_ok = r->same = 0;
	r->max_diff = r->bound = r->gosa_diff = NAN;
	if ( r->on_device )
	{
		b->device_runs++;
		check_against_cpu( b, r );
		check_same_bits( b, r );
	}
	count_outcome( b, r );
}

/* The run's bytes each way over the rates (GB/s) each way and both at once (NAN: none). */
static double bus_bound( double h2d, double d2h, double bidir, const hyblas_stencil_stats_t* s )
{
	const double up = (double)s->bytes_h2d, down = (double)s->bytes_d2h;
	double       t = 0.0;
	if ( h2d > 0.0 ) t = fmax( t, up / ( h2d * 1e9 ) );
	if ( d2h > 0.0 ) t = fmax( t, down / ( d2h * 1e9 ) );
	if ( bidir > 0.0 ) t = fmax( t, ( up + down ) / ( bidir * 1e9 ) );
	return t > 0.0 ? t : NAN;
}

/* ",bound,ratio" against the page-locked buffers' rates, then against registered memory's. */
static void print_bounds( const bench_opts_t* o, const hyblas_stencil_stats_t* s )
{
	char         e[4][32];
	const double pb = bus_bound( o->h2d, o->d2h, o->bidir, s );
	const double rb = bus_bound( o->reg_h2d, o->reg_d2h, o->reg_bidir, s );
	printf( ",%s,%s,%s,%s", fmt_g( pb, e[0], 32 ), fmt_g( s->seconds / pb, e[1], 32 ),
	        fmt_g( rb, e[2], 32 ), fmt_g( s->seconds / rb, e[3], 32 ) );
}

static const char* path_text( const outcome_t* r )
{
	return r->rc != HYBLAS_OK ? "error" : r->run.path == HYBLAS_PATH_GPU ? "gpu" : "cpu";
}

static void print_outcome_row( const bench_t* b, const char* budget, const char* scheme,
                               const outcome_t* r )
{
	const hyblas_stencil_stats_t* s = &r->run;
	char                          e[6][32], why[sizeof s->why];
	print_row_head( b, "row", budget, scheme );
	printf( "%s,%d,%d,%d,%.6f,%.6f,%llu,%llu,%llu,%llu,%llu,%d,%s,%s,%s,%d", path_text( r ),
	        (int)s->fell_back, (int)s->chunks, (int)s->block_steps, s->seconds,
	        r->plan.predicted_seconds, (unsigned long long)s->bytes_h2d,
	        (unsigned long long)r->plan.bytes_h2d, (unsigned long long)s->bytes_d2h,
	        (unsigned long long)r->plan.bytes_d2h, (unsigned long long)s->bytes_d2d, r->bytes_match,
	        fmt_e( r->max_diff, e[0], 32 ), fmt_e( r->bound, e[1], 32 ),
	        r->diff_ok < 0 ? "na"
	        : r->diff_ok   ? "1"
	                       : "0",
	        r->same );
	print_bounds( &b->o, s );
	printf(
	    ",%s,%s\n", fmt_e( r->gosa_diff, e[4], 32 ),
	    csv_text( r->rc != HYBLAS_OK ? hyblas_status_string( r->rc ) : s->why, why, sizeof why ) );
}

static void print_skip_row( const bench_t* b, const char* budget, const char* scheme,
                            const char* reason )
{
	char why[512];
	print_row_head( b, "row", budget, scheme );
	printf( "skip,0,0,0,na,na,0,0,0,0,0,na,na,na,na,na,na,na,na,na,na,%s\n",
	        csv_text( reason, why, sizeof why ) );
}

/* The fastest device run of the budget so far. */
static void note_best( budget_result_t* br, int scheme, const outcome_t* r )
{
	if ( !r->on_device || !( isnan( br->best_seconds ) || r->run.seconds < br->best_seconds ) )
		return;
	br->best_seconds = r->run.seconds;
	br->best_scheme  = scheme;
	br->best_d       = r->run.chunks;
	br->best_k       = r->run.block_steps;
}

/* One row of the table: scheme `si` under budget `bi`, the planner's (d, k) for it. */
static void measure_scheme( bench_t* b, int bi, int si )
{
	char budget[32], why[512];
	snprintf( budget, sizeof budget, "%llu", (unsigned long long)b->o.budgets[bi] );
	const hyblas_stencil_params_t p =
	    make_params( HYBLAS_PATH_GPU, SCHEMES[si].scheme, 0, 0, b->o.budgets[bi] );
	outcome_t r;
	memset( &r, 0, sizeof r );
	if ( !plan_on_device( b, &p, &r.plan, why, sizeof why ) )
	{
		print_skip_row( b, budget, SCHEMES[si].name, why );
		return;
	}
	run_planned( b, &p, &r );
	print_outcome_row( b, budget, SCHEMES[si].name, &r );
	if ( r.on_device ) b->by_budget[bi].seconds[si] = r.run.seconds;
	note_best( &b->by_budget[bi], si, &r );
}

/* ------------------------------------------------------------------ the (d, k) sweep */

/* The grid's factors 1/2, 2/3, 1, 3/2, 2 of the plan's d and k, and the grid's points in
   order of distance from the plan's (index 2, 2). */
static const int GRID_NUM[5] = { 1, 2, 1, 3, 2 }, GRID_DEN[5] = { 2, 3, 1, 2, 1 };
static const int GRID_ORDER[][2] = { { 2, 2 }, { 1, 2 }, { 3, 2 }, { 2, 1 }, { 2, 3 },
	                                 { 0, 2 }, { 4, 2 }, { 2, 0 }, { 2, 4 }, { 1, 1 },
	                                 { 1, 3 }, { 3, 1 }, { 3, 3 } };
#define GRID_POINTS ( (int)( sizeof GRID_ORDER / sizeof GRID_ORDER[0] ) )

static int32_t grid_value( int32_t centre, int i )
{
	return (int32_t)( ( (int64_t)centre * GRID_NUM[i] + GRID_DEN[i] / 2 ) / GRID_DEN[i] );
}

static void print_sweep_row( const bench_t* b, const char* budget, int si, const outcome_t* r )
{
	const hyblas_stencil_stats_t* s = &r->run;
	print_row_head( b, "sweep", budget, SCHEMES[si].name );
	printf( "%d,%d,%s,%d,%.6f,%.6f,%llu,%llu,%llu,%d", (int)r->plan.chunks,
	        (int)r->plan.block_steps, path_text( r ), (int)s->fell_back, s->seconds,
	        r->plan.predicted_seconds, (unsigned long long)s->bytes_h2d,
	        (unsigned long long)s->bytes_d2h, (unsigned long long)s->bytes_d2d, r->same );
	print_bounds( &b->o, s );
	printf( "\n" );
}

/* One forced (d, k): 1 when it ran, 0 when the plan call rejects it. */
static int sweep_point( bench_t* b, int bi, int si, int32_t d, int32_t k )
{
	char budget[32], why[512];
	snprintf( budget, sizeof budget, "%llu", (unsigned long long)b->o.budgets[bi] );
	const hyblas_stencil_params_t p =
	    make_params( HYBLAS_PATH_GPU, SCHEMES[si].scheme, d, k, b->o.budgets[bi] );
	outcome_t r;
	memset( &r, 0, sizeof r );
	if ( !plan_on_device( b, &p, &r.plan, why, sizeof why ) ) return 0;
	run_planned( b, &p, &r );
	print_sweep_row( b, budget, si, &r );
	note_best( &b->by_budget[bi], si, &r );
	return 1;
}

static int tried_before( const int32_t tried[][2], int n, int32_t d, int32_t k )
{
	for ( int i = 0; i < n; i++ )
		if ( tried[i][0] == d && tried[i][1] == k ) return 1;
	return 0;
}

/* The grid around the planner's (d, k) for scheme `si`, nearest points first. */
static void sweep_scheme( bench_t* b, int bi, int si )
{
	char                          why[512];
	hyblas_stencil_stats_t        centre;
	const hyblas_stencil_params_t p =
	    make_params( HYBLAS_PATH_GPU, SCHEMES[si].scheme, 0, 0, b->o.budgets[bi] );
	if ( !plan_on_device( b, &p, &centre, why, sizeof why ) )
	{
		printf( "# sweep %s budget %llu: skip (%s)\n", SCHEMES[si].name,
		        (unsigned long long)b->o.budgets[bi], why );
		return;
	}
	int32_t tried[GRID_POINTS][2];
	int     ntried = 0, runs = 0;
	for ( int g = 0; g < GRID_POINTS && runs < SWEEP_RUNS; g++ )
	{
		const int32_t d = grid_value( centre.chunks, GRID_ORDER[g][0] );
		const int32_t k = grid_value( centre.block_steps, GRID_ORDER[g][1] );
		if ( d < 2 || k < 1 || k > b->o.steps || tried_before( tried, ntried, d, k ) ) continue;
		tried[ntried][0] = d;
		tried[ntried][1] = k;
		ntried++;
		runs += sweep_point( b, bi, si, d, k );
	}
}

/* The plans of --plans for scheme `si`, each run as a sweep point or reported refused. */
static void forced_plans( bench_t* b, int bi, int si )
{
	for ( int j = 0; j < b->o.nplans; j++ )
	{
		const int32_t d = b->o.plans[j][0], k = b->o.plans[j][1];
		if ( !sweep_point( b, bi, si, d, k ) )
			printf( "# plan %s d %d k %d budget %llu: refused\n", SCHEMES[si].name, (int)d, (int)k,
			        (unsigned long long)b->o.budgets[bi] );
	}
}

static int is_out_of_core( int si )
{
	const hyblas_stencil_scheme_t s = SCHEMES[si].scheme;
	return s == HYBLAS_STENCIL_SCHEME_COPY || s == HYBLAS_STENCIL_SCHEME_DIRECT ||
	       s == HYBLAS_STENCIL_SCHEME_SHARED;
}

/* ------------------------------------------------------------------ summary */

static double ratio( double num, double den )
{
	return num / den; /* NAN when either is missing */
}

static void print_speedups( const bench_t* b, int bi )
{
	const budget_result_t* br = &b->by_budget[bi];
	char                   v[32];
	printf( "# summary %s budget %llu: gpu over cpu (cpu s / gpu s):", b->o.set->name,
	        (unsigned long long)b->o.budgets[bi] );
	for ( int i = 0; i < b->o.nschemes; i++ )
	{
		const int si = b->o.schemes[i];
		printf( " %s %s", SCHEMES[si].name,
		        fmt_f( b->reference[0] ? ratio( b->cpu_seconds, br->seconds[si] ) : NAN, v,
		               sizeof v ) );
	}
	printf( "\n" );
}

static void print_pairs( const bench_t* b, int bi )
{
	const double* s = b->by_budget[bi].seconds;
	char          v[2][32];
	const int     copy = scheme_index( "copy" ), direct = scheme_index( "direct" );
	const int     shared = scheme_index( "shared" );
	printf( "# summary %s budget %llu: shared over direct (direct s / shared s) %s, direct over "
	        "copy (copy s / direct s) %s\n",
	        b->o.set->name, (unsigned long long)b->o.budgets[bi],
	        fmt_f( ratio( s[direct], s[shared] ), v[0], 32 ),
	        fmt_f( ratio( s[copy], s[direct] ), v[1], 32 ) );
}

static void print_auto_vs_best( const bench_t* b, int bi )
{
	const budget_result_t* br = &b->by_budget[bi];
	const double           a  = br->seconds[scheme_index( "auto" )];
	char                   v[3][32];
	printf( "# summary %s budget %llu: auto %s s, best measured %s s (%s d %d k %d), auto over "
	        "best %s (target <= 1.10)%s\n",
	        b->o.set->name, (unsigned long long)b->o.budgets[bi], fmt_f( a, v[0], 32 ),
	        fmt_f( br->best_seconds, v[1], 32 ),
	        isnan( br->best_seconds ) ? "none" : SCHEMES[br->best_scheme].name, (int)br->best_d,
	        (int)br->best_k, fmt_f( ratio( a, br->best_seconds ), v[2], 32 ),
	        b->o.sweep ? "" : ", without --sweep" );
}

static void print_summary( const bench_t* b )
{
	for ( int bi = 0; bi < b->o.nbudgets; bi++ )
	{
		print_speedups( b, bi );
		print_pairs( b, bi );
		print_auto_vs_best( b, bi );
	}
	printf( "# %d device runs, %d failed%s; result hash %016llx\n", b->device_runs, b->failures,
	        b->no_device ? "; no usable device for some" : "", (unsigned long long)b->first_hash );
}

/* ------------------------------------------------------------------ main */

static void measure_all( bench_t* b )
{
	for ( int bi = 0; bi < b->o.nbudgets; bi++ )
		for ( int i = 0; i < b->o.nschemes; i++ ) measure_scheme( b, bi, b->o.schemes[i] );
	for ( int bi = 0; bi < b->o.nbudgets; bi++ )
		for ( int i = 0; i < b->o.nschemes; i++ )
		{
			const int si = b->o.schemes[i];
			if ( !is_out_of_core( si ) ) continue;
			if ( b->o.sweep ) sweep_scheme( b, bi, si );
			forced_plans( b, bi, si );
		}
}

int main( int argc, char** argv )
{
	setvbuf( stdout, NULL, _IOLBF, 0 );
	static bench_t b;
	if ( !parse_args( argc, argv, &b.o ) )
	{
		usage();
		return 2;
	}
	if ( !setup( &b ) )
	{
		teardown( &b );
		return 1;
	}
	if ( !warm_up( &b ) )
	{
		printf( "# no device: the runs would go to the CPU\n" );
		teardown( &b );
		return 77;
	}
	print_header();
	if ( b.o.cpu && !cpu_reference( &b ) ) b.failures++;
	measure_all( &b );
	print_summary( &b );
	teardown( &b );
	if ( b.device_runs == 0 && b.no_device ) return 77;
	return b.failures ? 1 : 0;
}
