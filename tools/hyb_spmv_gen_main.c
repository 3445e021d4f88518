/* SPDX-License-Identifier: BSD-3-Clause */
/* hyb-spmv-gen: print the statistics of the generated SpMV test matrices next to the
   seed's Table 1, or write one as a Matrix Market file.
   Usage: hyb-spmv-gen [--matrix NAME|all] [--scale S] [--seed N] [--threads N]
                       [--out FILE.mtx] [--list] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_status.h"
#include "kernels/cpu/hyb_spmv_format.h"
#include "tools/hyb_spmv_gen.h"

static int hyb_gen_usage( const char* argv0 )
{
	fprintf( stderr,
	         "usage: %s [--matrix NAME|all] [--scale S (0,1]] [--seed N] [--threads N] "
	         "[--out FILE.mtx] [--list]\n",
	         argv0 );
	return 2;
}

static int hyb_gen_parse_double( const char* s, double* out )
{
	char* end;
	errno    = 0;
	double v = strtod( s, &end );
	if ( errno || end == s || *end ) return -1;
	*out = v;
	return 0;
}

static int hyb_gen_parse_u64( const char* s, unsigned long long* out )
{
	char* end;
	errno                = 0;
	unsigned long long v = strtoull( s, &end, 10 );
	if ( errno || end == s || *end ) return -1;
	*out = v;
	return 0;
}

/* Statistics of one generated matrix; with out != NULL also write it (Matrix Market). */
static int hyb_gen_one( hyb_gen_id_t id, double scale, uint64_t seed, int nth, const char* out )
{
	const hyb_gen_info_t* in = hyb_spmv_gen_info( id );
	int64_t               N, Z, M;
	if ( hyb_spmv_gen_size( id, scale, &N, &Z, &M ) != HYB_OK ) return 1;
	int*    ia  = malloc( (size_t)( N + 1 ) * sizeof( int ) );
	int*    ja  = malloc( (size_t)Z * sizeof( int ) );
	double* val = malloc( (size_t)Z * sizeof( double ) );
	if ( !ia || !ja || !val )
	{
		fprintf( stderr, "%s: out of memory\n", in->name );
		return 1;
	}
	hyb_status_t st = hyb_spmv_gen_csr( id, scale, seed, 0, HYB_PREC_D, ia, ja, val, nth );
	if ( st != HYB_OK )
	{
		fprintf( stderr, "%s: generation failed: %s\n", in->name, hyb_status_string( st ) );
		return 1;
	}
	/* check: sorted distinct columns in range, and the observed maximum */
	int64_t mx = 0, bad = 0;
	for ( int64_t i = 0; i < N; i++ )
	{
		int64_t L = ia[i + 1] - ia[i];
		mx        = L > mx ? L : mx;
		for ( int64_t k = ia[i]; k < ia[i + 1]; k++ )
			bad += ja[k] < 0 || ja[k] >= N || ( k > ia[i] && ja[k] <= ja[k - 1] );
	}
	hyb_spmv_src_t   src;
	hyb_spmv_view_t  view;
	hyb_spmv_diags_t dg;
	double           top = 0.0, fill = 0.0;
	int64_t          nd = 0;
	if ( hyb_spmv_src_csr( 'N', N, HYB_PREC_D, val, ia, ja, 0, &src ) == HYB_OK &&
	     hyb_spmv_view_build( &src, nth, &view ) == HYB_OK )
	{
		if ( hyb_spmv_diags_build( &view, 0, 0, nth, &dg ) == HYB_OK )
		{
			/* share of the entries on the M most populated diagonals, and their fill */
			int64_t k = dg.ndiag < M ? dg.ndiag : M, s = 0;
			for ( int64_t d = 0; d < k; d++ ) s += dg.occ[d];
			top  = Z > 0 ? (double)s / (double)Z : 0.0;
			fill = k > 0 ? (double)s / ( (double)k * (double)N ) : 0.0;
			nd   = dg.ndiag;
			hyb_spmv_diags_free( &dg );
		}
		hyb_spmv_view_free( &view );
	}
	printf(
	    "%-11s %9lld %11lld %8.3f %6lld | %9lld %11lld %8.3f %6lld | %5lld %6.1f%% %6.1f%% %s%s\n",
	    in->name, (long long)N, (long long)Z, (double)Z / (double)N, (long long)mx,
	    (long long)in->rows, (long long)in->nnz, (double)in->nnz / (double)in->rows,
	    (long long)in->max_len, (long long)nd, 100.0 * top, 100.0 * fill,
	    in->seed_dia ? "DIA" : "ELL", bad ? "  BAD STRUCTURE" : "" );
	int rc = bad ? 1 : 0;
	if ( out )
	{
		FILE* f = fopen( out, "w" );
		if ( !f )
		{
			fprintf( stderr, "cannot open %s: %s\n", out, strerror( errno ) );
			rc = 1;
		}
		else
		{
			fprintf( f,
			         "%%%%MatrixMarket matrix coordinate real general\n%% hyblas %s scale %g seed "
			         "%llu: %s\n",
			         in->name, scale, (unsigned long long)seed, in->character );
			fprintf( f, "%lld %lld %lld\n", (long long)N, (long long)N, (long long)Z );
			for ( int64_t i = 0; i < N; i++ )
				for ( int64_t k = ia[i]; k < ia[i + 1]; k++ )
					fprintf( f, "%lld %d %.17g\n", (long long)i + 1, ja[k] + 1, val[k] );
			if ( fclose( f ) != 0 ) rc = 1;
		}
	}
	free( ia );
	free( ja );
	free( val );
	return rc;
}

int main( int argc, char** argv )
{
	const char*        which = "all";
	const char*        out   = NULL;
	double             scale = 1.0;
	unsigned long long seed = 1, threads = 0;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--list" ) == 0 )
		{
			for ( int id = 0; id < HYB_GEN_COUNT; id++ )
			{
				const hyb_gen_info_t* in = hyb_spmv_gen_info( (hyb_gen_id_t)id );
				printf( "%-11s %-26s %s\n", in->name, in->uf_name, in->character );
			}
			return 0;
		}
		if ( i + 1 >= argc ) return hyb_gen_usage( argv[0] );
		if ( strcmp( argv[i], "--matrix" ) == 0 )
			which = argv[++i];
		else if ( strcmp( argv[i], "--out" ) == 0 )
			out = argv[++i];
		else if ( strcmp( argv[i], "--scale" ) == 0 )
		{
			if ( hyb_gen_parse_double( argv[++i], &scale ) || !( scale > 0 && scale <= 1 ) )
				return hyb_gen_usage( argv[0] );
		}
		else if ( strcmp( argv[i], "--seed" ) == 0 )
		{
			if ( hyb_gen_parse_u64( argv[++i], &seed ) ) return hyb_gen_usage( argv[0] );
		}
		else if ( strcmp( argv[i], "--threads" ) == 0 )
		{
			if ( hyb_gen_parse_u64( argv[++i], &threads ) || threads > 4096 )
				return hyb_gen_usage( argv[0] );
		}
		else
			return hyb_gen_usage( argv[0] );
	}
	int all = strcmp( which, "all" ) == 0;
	int one = all ? -1 : hyb_spmv_gen_lookup( which );
	if ( !all && one < 0 )
	{
		fprintf( stderr, "unknown matrix %s (--list shows them)\n", which );
		return 2;
	}
	if ( all && out )
	{
		fprintf( stderr, "--out needs one --matrix\n" );
		return 2;
	}
	printf(
	    "# generated (scale %g, seed %llu)                 | seed Table 1                       "
	    "    | "
	    "diagonals (top max_len: share of nnz, fill)\n",
	    scale, seed );
	printf( "%-11s %9s %11s %8s %6s | %9s %11s %8s %6s | %5s %7s %7s %s\n", "matrix", "rows", "nnz",
	        "mean", "max", "rows", "nnz", "mean", "max", "ndiag", "top", "fill", "seed-fmt" );
	int rc = 0;
	for ( int id = 0; id < HYB_GEN_COUNT; id++ )
		if ( all || id == one )
			rc |= hyb_gen_one( (hyb_gen_id_t)id, scale, seed, (int)threads, out );
	return rc;
}
