/* SPDX-License-Identifier: BSD-3-Clause */
/* Deterministic generator of the seed-like SpMV matrices (seed 001, Table 1) and of the
   3-D 27-point stencil. Every row is a pure function of (matrix, scale, seed, row), so the
   output does not depend on the number of threads. */
#include "tools/hyb_spmv_gen.h"
#include "kernels/cpu/hyb_spmv_format.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* How the lengths of the ordinary ("body") rows are drawn. */
typedef enum
{
	HYB_LEN_TRI,   /* triangular around the mean, half-width spread*mean */
	HYB_LEN_PARETO /* power law from lmin, exponent set by the mean (circuit matrices) */
} hyb_len_model_t;

/* Where the columns of a row lie. */
typedef enum
{
	HYB_COL_BAND,    /* fixed diagonal offsets in clusters: quasi-diagonal, DIA-friendly */
	HYB_COL_RAND,    /* random inside a band of half-width bw * row length */
	HYB_COL_MIXED,   /* per row: BAND with probability `mixed`, else RAND (scattered diagonals) */
	HYB_COL_SPINDLE, /* RAND with a band that widens towards the middle rows */
	HYB_COL_BLOCK,   /* random inside the row's diagonal block of `block` rows */
	HYB_COL_GLOBAL   /* spread over all columns (long rows of circuit / power-flow matrices) */
} hyb_col_model_t;

typedef struct
{
	hyb_len_model_t len;
	double          spread;   /* TRI half-width as a fraction of the mean */
	int64_t         lmin;     /* shortest body row */
	int64_t         body_max; /* longest body row */
	int             nlong;    /* long rows: lengths max * decay^k, the first exactly max */
	double          decay;
	int             long_global; /* long rows spread over all columns (else as the body) */
	hyb_col_model_t col;
	int             ncent; /* BAND clusters at 0 and +-centers[c] * sqrt(rows) */
	double          centers[3];
	double          bw;    /* RAND half-band, in row lengths */
	double          mixed; /* MIXED: share of BAND rows */
	int64_t         block; /* BLOCK: rows per block */
} hyb_gen_param_t;

static const hyb_gen_info_t hyb_gen_infos[HYB_GEN_COUNT] = {
	[HYB_GEN_BBMAT]      = { "bbmat", "Simon/bbmat", 38744, 1771722, 132, 1,
	                         "2-D CFD: quasi-diagonal band in three clusters (0, +-sqrt(n)), 30 longer "
	                              "rows" },
	[HYB_GEN_CHEBYSHEV4] = { "chebyshev4", "Muite/Chebyshev4", 68121, 5377761, 81, 1,
	                         "spectral: one contiguous band of ~81 nearly full diagonals, rows "
	                         "75-81" },
	[HYB_GEN_TWOTONE]    = { "twotone", "ATandT/twotone", 120750, 1224224, 188, 0,
	                         "circuit: power-law rows, half on scattered diagonals, half random near "
	                            "the "
	                            "diagonal, 25 long rows over all columns" },
	[HYB_GEN_SCIRCUIT]   = { "scircuit", "Hamm/scircuit", 170998, 958936, 353, 0,
	                         "circuit: power-law rows (2..40) near the diagonal, 30 long rows over "
	                           "all "
	                           "columns" },
	[HYB_GEN_PR02R]      = { "pr02r", "Fluorem/PR02R", 161070, 8185136, 88, 0,
	                         "CFD: rows 25-76, 40% on clustered diagonals, 60% random in a band of 8 "
	                              "row "
	                              "lengths (scattered diagonals)" },
	[HYB_GEN_PWTK]       = { "pwtk", "Boeing/pwtk", 217918, 5926171, 90, 1,
	                         "structural FEM: quasi-diagonal band in clusters (0, +-sqrt(n)/2), 20 rows "
	                               "up "
	                               "to 90" },
	[HYB_GEN_RAEFSKY3]   = { "raefsky3", "Simon/raefsky3", 21200, 1488768, 80, 1,
	                         "fluid-structure: one contiguous band, rows 62-80" },
	[HYB_GEN_RAEFSKY5]   = { "raefsky5", "Simon/raefsky5", 6316, 168658, 54, 0,
	                         "spindle: random columns in a band that widens to n/4 in the middle "
	                           "rows" },
	[HYB_GEN_RMA10]      = { "rma10", "Bova/rma10", 46835, 2374001, 145, 0,
	                         "3-D CFD: banded but sparse inside the band (random in 2 row lengths), 30 "
	                              "rows up to 145" },
	[HYB_GEN_TSOPF]      = { "tsopf", "TSOPF/TSOPF_RS_b300_c3", 42138, 4413449, 20702, 0,
	                         "power flow: dense-ish diagonal blocks of 600 rows, 8 very long rows "
	                              "(20702 "
	                              "down) over all columns" },
	[HYB_GEN_STENCIL27]  = { "stencil27", "3-D 27-point stencil, 200^3", 8000000, 213847192, 27, 1,
	                         "3-D 27-point stencil, Dirichlet boundary: 27 diagonals, rows 8..27" },
};

/* How each matrix is shaped (rows, nonzeros and maximum row length are Table 1's; the
   character follows the seed's sec. 6.1 and the UF collection's descriptions):
   - bbmat (2-D airfoil CFD), Chebyshev4 (spectral), pwtk (wind-tunnel FEM) and raefsky3
     (fluid-structure): "obvious characteristics of quasi diagonal", run as DIA by the
     seed. Rows take diagonal offsets from a fixed pattern (clusters at 0 and +-sqrt(n)),
     nearest first, so the leading diagonals are nearly full.
   - twotone and PR02R: "some diagonals, but scattered": per row, either the clustered
     diagonal pattern or random columns in a band.
   - scircuit and twotone (circuits): power-law row lengths, a few very long rows spread
     over all columns.
   - raefsky5: "a spindle": the band widens towards the middle rows.
   - rma10: banded but "many non-zero elements missed on the diagonals": random columns
     inside a band twice the row length.
   - TSOPF_RS_b300_c3 (power flow): dense-ish diagonal blocks and a handful of rows with up
     to 20702 entries over all columns.
   Body row lengths are drawn (triangular or power law), long rows set to max * decay^k,
   and the body adjusted by +-1 steps until the total is exactly the nonzero count. */
static const hyb_gen_param_t hyb_gen_params[HYB_GEN_SEED_COUNT] = {
	[HYB_GEN_BBMAT] = { HYB_LEN_TRI, 0.45, 8, 100, 30, 0.97, 0, HYB_COL_BAND, 2, { 1.0 }, 0, 0, 0 },
	[HYB_GEN_CHEBYSHEV4] = { HYB_LEN_TRI,
	                         0.03,
	                         70,
	                         81,
	                         1,
	                         1.0,
	                         0,
	                         HYB_COL_BAND,
	                         1,
	                         { 0 },
	                         0,
	                         0,
	                         0 },
	[HYB_GEN_TWOTONE]    = { HYB_LEN_PARETO,
	                         0,
	                         4,
	                         60,
	                         25,
	                         0.95,
	                         1,
	                         HYB_COL_MIXED,
	                         2,
	                         { 1.0 },
	                         4.0,
	                         0.5,
	                         0 },
	[HYB_GEN_SCIRCUIT]   = { HYB_LEN_PARETO,
	                         0,
	                         2,
	                         40,
	                         30,
	                         0.93,
	                         1,
	                         HYB_COL_RAND,
	                         1,
	                         { 0 },
	                         20.0,
	                         0,
	                         0 },
	[HYB_GEN_PR02R]      = { HYB_LEN_TRI,
	                         0.5,
	                         10,
	                         88,
	                         1,
	                         1.0,
	                         0,
	                         HYB_COL_MIXED,
	                         2,
	                         { 1.0 },
	                         8.0,
	                         0.4,
	                         0 },
	[HYB_GEN_PWTK] = { HYB_LEN_TRI, 0.5, 6, 66, 20, 0.98, 0, HYB_COL_BAND, 2, { 0.5 }, 0, 0, 0 },
	[HYB_GEN_RAEFSKY3] = { HYB_LEN_TRI, 0.12, 50, 80, 1, 1.0, 0, HYB_COL_BAND, 1, { 0 }, 0, 0, 0 },
	[HYB_GEN_RAEFSKY5] = { HYB_LEN_TRI,
	                       0.4,
	                       8,
	                       54,
	                       1,
	                       1.0,
	                       0,
	                       HYB_COL_SPINDLE,
	                       1,
	                       { 0 },
	                       1.0,
	                       0,
	                       0 },
	[HYB_GEN_RMA10]    = { HYB_LEN_TRI,
	                       0.5,
	                       10,
	                       100,
	                       30,
	                       0.985,
	                       0,
	                       HYB_COL_RAND,
	                       1,
	                       { 0 },
	                       2.0,
	                       0,
	                       0 },
	[HYB_GEN_TSOPF] = { HYB_LEN_TRI, 0.3, 20, 180, 8, 0.8, 1, HYB_COL_BLOCK, 1, { 0 }, 0, 0, 600 },
};

const hyb_gen_info_t* hyb_spmv_gen_info( hyb_gen_id_t id )
{
	return ( id >= 0 && id < HYB_GEN_COUNT ) ? &hyb_gen_infos[id] : NULL;
}

int hyb_spmv_gen_lookup( const char* name )
{
	for ( int i = 0; i < HYB_GEN_COUNT; i++ )
		if ( name && strcmp( name, hyb_gen_infos[i].name ) == 0 ) return i;
	return -1;
}

/* ------------------------------------------------------------------ randomness */

static inline uint64_t hyb_gen_mix( uint64_t z )
{
	z += 0x9E3779B97F4A7C15ull;
	z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

/* Independent stream per (seed, tag, a, b). */
static inline uint64_t hyb_gen_hash( uint64_t seed, uint64_t tag, uint64_t a, uint64_t b )
{
	return hyb_gen_mix( seed ^ hyb_gen_mix( tag ^ hyb_gen_mix( a ^ hyb_gen_mix( b ) ) ) );
}

static inline double hyb_gen_u01( uint64_t h )
{
	return (double)( h >> 11 ) * 0x1.0p-53;
}

enum
{
	HYB_TAG_LEN1 = 1,
	HYB_TAG_LEN2,
	HYB_TAG_MODEL,
	HYB_TAG_COL,
	HYB_TAG_VAL
};

/* ------------------------------------------------------------------ sizes */

static int64_t hyb_gen_edge( double scale )
{
	int64_t n = (int64_t)llround( 200.0 * cbrt( scale ) );
	return n < 2 ? 2 : n;
}

hyb_status_t hyb_spmv_gen_size( hyb_gen_id_t id, double scale, int64_t* rows, int64_t* nnz,
                                int64_t* max_len )
{
	if ( id < 0 || id >= HYB_GEN_COUNT || !( scale > 0.0 && scale <= 1.0 ) ) return HYB_E_INVALID;
	const hyb_gen_info_t* in = &hyb_gen_infos[id];
	int64_t               N, Z, M;
	if ( id == HYB_GEN_STENCIL27 )
	{
		int64_t n = hyb_gen_edge( scale );
		N         = n * n * n;
		Z         = ( 3 * n - 2 ) * ( 3 * n - 2 ) * ( 3 * n - 2 );
		M         = 27;
	}
	else if ( scale == 1.0 )
	{
		N = in->rows;
		Z = in->nnz;
		M = in->max_len;
	}
	else
	{
		N = (int64_t)llround( (double)in->rows * scale );
		if ( N < 64 ) N = 64;
		M = in->max_len < N ? in->max_len : N;
		/* the mean row length is kept, unless the matrix gets too small to hold it */
		double mean = fmin( (double)in->nnz / (double)in->rows, 0.5 * (double)N );
		Z           = (int64_t)llround( mean * (double)N );
	}
	if ( rows ) *rows = N;
	if ( nnz ) *nnz = Z;
	if ( max_len ) *max_len = M;
	return HYB_OK;
}

/* ------------------------------------------------------------------ structure */

typedef struct
{
	const hyb_gen_param_t* p;
	uint64_t               seed;
	int64_t                N, nnz, max_len;
	int64_t                body_max, lmin;
	int                    nlong;
	int64_t*               pat; /* BAND offsets in priority order */
	int64_t                npat;
	int64_t*               pat_srt; /* the same, ascending */
} hyb_gen_ctx_t;

/* 0, -1, 1, -2, 2, ... */
static inline int64_t hyb_gen_alt( int64_t r )
{
	return ( r & 1 ) ? -( ( r + 1 ) / 2 ) : r / 2;
}

static int hyb_gen_i64_cmp( const void* a, const void* b )
{
	int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return ( x > y ) - ( x < y );
}

static int hyb_gen_int_cmp( const void* a, const void* b )
{
	int x = *(const int*)a, y = *(const int*)b;
	return ( x > y ) - ( x < y );
}

/* The BAND pattern: offsets taken round-robin from the clusters, nearest first. */
static hyb_status_t hyb_gen_pattern( hyb_gen_ctx_t* c )
{
	const hyb_gen_param_t* p    = c->p;
	int64_t                need = c->max_len + c->max_len / 2 + 8;
	if ( need > 2 * c->N - 1 ) need = 2 * c->N - 1;
	int64_t w = (int64_t)llround( sqrt( (double)c->N ) );
	int64_t cent[5];
	int     nc = 0;
	cent[nc++] = 0;
	for ( int k = 1; k < p->ncent; k++ )
	{
		int64_t o  = (int64_t)llround( p->centers[k - 1] * (double)w );
		cent[nc++] = o;
		cent[nc++] = -o;
	}
	c->pat     = malloc( (size_t)need * sizeof( int64_t ) );
	c->pat_srt = malloc( (size_t)need * sizeof( int64_t ) );
	if ( !c->pat || !c->pat_srt ) return HYB_E_NO_MEMORY;
	int64_t n = 0;
	for ( int64_t r = 0; n < need && r < 2 * c->N; r++ )
		for ( int k = 0; k < nc && n < need; k++ )
		{
			int64_t o = cent[k] + hyb_gen_alt( r );
			if ( o <= -c->N || o >= c->N ) continue;
			int dup = 0;
			for ( int64_t q = 0; q < n && !dup; q++ ) dup = c->pat[q] == o;
			if ( !dup ) c->pat[n++] = o;
		}
	c->npat = n;
	memcpy( c->pat_srt, c->pat, (size_t)n * sizeof( int64_t ) );
	qsort( c->pat_srt, (size_t)n, sizeof( int64_t ), hyb_gen_i64_cmp );
	return HYB_OK;
}

/* First index of sorted a[0..n) with a[k] >= v. */
static int64_t hyb_gen_lower( const int64_t* a, int64_t n, int64_t v )
{
	int64_t lo = 0, hi = n;
	while ( lo < hi )
	{
		int64_t mid = ( lo + hi ) / 2;
		if ( a[mid] < v )
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int hyb_gen_is_band_row( const hyb_gen_ctx_t* c, int64_t i )
{
	if ( c->p->col == HYB_COL_BAND ) return 1;
	if ( c->p->col != HYB_COL_MIXED ) return 0;
	return hyb_gen_u01( hyb_gen_hash( c->seed, HYB_TAG_MODEL, (uint64_t)i, 0 ) ) < c->p->mixed;
}

/* Row of long row k: spread evenly over the middle half of the matrix, where a banded
   row has its whole pattern inside the matrix. */
static int64_t hyb_gen_long_row( const hyb_gen_ctx_t* c, int k )
{
	return c->N / 4 + ( (int64_t)k + 1 ) * ( c->N / 2 ) / ( c->nlong + 1 );
}

/* k if row i is long row k, else -1. */
static int hyb_gen_long_index( const hyb_gen_ctx_t* c, int64_t i )
{
	int64_t half = c->N / 2;
	if ( half <= 0 || i < c->N / 4 ) return -1;
	int64_t k = ( ( i - c->N / 4 ) * ( c->nlong + 1 ) ) / half - 1; /* invert, then check */
	for ( int64_t q = k - 2; q <= k + 2; q++ )
		if ( q >= 0 && q < c->nlong && hyb_gen_long_row( c, (int)q ) == i ) return (int)q;
	return -1;
}

/* Most columns row i can take under its model. */
static int64_t hyb_gen_cap( const hyb_gen_ctx_t* c, int64_t i, int is_long )
{
	if ( is_long && c->p->long_global ) return c->N;
	if ( hyb_gen_is_band_row( c, i ) )
	{
		int64_t lo = hyb_gen_lower( c->pat_srt, c->npat, -i );
		int64_t hi = hyb_gen_lower( c->pat_srt, c->npat, c->N - i );
		return hi - lo;
	}
	return c->N; /* RAND, SPINDLE, BLOCK widen their range to fit the row */
}

/* Length of row i before the exact adjustment. */
static int64_t hyb_gen_raw_len( const hyb_gen_ctx_t* c, int64_t i, double mu, int64_t hi )
{
	double u1 = hyb_gen_u01( hyb_gen_hash( c->seed, HYB_TAG_LEN1, (uint64_t)i, 0 ) );
	double u2 = hyb_gen_u01( hyb_gen_hash( c->seed, HYB_TAG_LEN2, (uint64_t)i, 0 ) );
	double L;
	if ( c->p->len == HYB_LEN_TRI )
		L = mu + c->p->spread * mu * ( u1 + u2 - 1.0 );
	else
	{
		double lm    = (double)c->lmin;
		double alpha = mu > lm + 0.05 ? mu / ( mu - lm ) : 50.0;
		L            = lm / pow( 1.0 - u1, 1.0 / alpha );
	}
	int64_t l = (int64_t)llround( L );
	if ( l < c->lmin ) l = c->lmin;
	if ( l > hi ) l = hi;
	return l;
}

static int64_t hyb_gen_gcd( int64_t a, int64_t b )
{
	while ( b )
	{
		int64_t t = a % b;
		a         = b;
		b         = t;
	}
	return a;
}

/* Row lengths into len[0..N): long rows fixed, body rows drawn then adjusted by +-1 steps
   (rows visited in a fixed scattered order) until the total is exactly nnz. */
static hyb_status_t hyb_gen_lengths( hyb_gen_ctx_t* c, int64_t* len, int nth )
{
	const int64_t N        = c->N;
	int64_t       long_sum = 0;
	for ( int k = 0; k < c->nlong; k++ )
	{
		int64_t L = (int64_t)llround( (double)c->max_len * pow( c->p->decay, k ) );
		if ( k == 0 ) L = c->max_len;
		if ( L < c->body_max ) L = c->body_max;
		int64_t cap = hyb_gen_cap( c, hyb_gen_long_row( c, k ), 1 );
		if ( L > cap ) return HYB_E_INVALID;
		long_sum += L;
	}
	int64_t body_rows = N - c->nlong;
	int64_t target    = c->nnz - long_sum;
	if ( body_rows <= 0 || target < body_rows ) return HYB_E_INVALID;
	if ( c->lmin > target / body_rows ) c->lmin = target / body_rows; /* tiny scales only */
	double  mu  = (double)target / (double)body_rows;
	int64_t sum = 0, room = 0;
#pragma omp parallel for num_threads( nth ) schedule( static ) reduction( + : sum, room )
	for ( int64_t i = 0; i < N; i++ )
	{
		int k = hyb_gen_long_index( c, i );
		if ( k >= 0 )
		{
			int64_t L = (int64_t)llround( (double)c->max_len * pow( c->p->decay, k ) );
			len[i]    = k == 0 ? c->max_len : ( L < c->body_max ? c->body_max : L );
			continue;
		}
		int64_t cap = hyb_gen_cap( c, i, 0 );
		int64_t hi  = cap < c->body_max ? cap : c->body_max;
		len[i]      = hyb_gen_raw_len( c, i, mu, hi );
		sum += len[i];
		room += hi;
	}
	if ( room < target ) return HYB_E_INVALID;
	int64_t D = target - sum;
	/* scattered visiting order: a stride coprime with N */
	static const int64_t primes[] = { 1000003, 999983, 15485863, 32452843, 7919 };
	int64_t              step     = 1;
	for ( size_t q = 0; q < sizeof primes / sizeof primes[0]; q++ )
		if ( N > 1 && hyb_gen_gcd( primes[q] % N, N ) == 1 )
		{
			step = primes[q] % N;
			break;
		}
	while ( D != 0 )
	{
		int64_t moved = 0;
		for ( int64_t j = 0, i = 0; j < N && D != 0; j++, i = ( i + step ) % N )
		{
			if ( hyb_gen_long_index( c, i ) >= 0 ) continue;
			int64_t cap = hyb_gen_cap( c, i, 0 );
			int64_t hi  = cap < c->body_max ? cap : c->body_max;
			if ( D > 0 && len[i] < hi )
			{
				len[i]++;
				D--;
				moved++;
			}
			else if ( D < 0 && len[i] > c->lmin )
			{
				len[i]--;
				D++;
				moved++;
			}
		}
		if ( moved == 0 ) return HYB_E_INVALID;
	}
	return HYB_OK;
}

/* L distinct sorted columns, one drawn in each of L equal strata of [lo, hi) (hi - lo >= L);
   the stratum holding the diagonal i, if any, takes i. */
static void hyb_gen_stratified( const hyb_gen_ctx_t* c, int64_t i, int64_t L, int64_t lo,
                                int64_t hi, int* out )
{
	int64_t R = hi - lo;
	for ( int64_t s = 0; s < L; s++ )
	{
		int64_t a = lo + s * R / L, b = lo + ( s + 1 ) * R / L;
		int64_t col;
		if ( i >= a && i < b )
			col = i;
		else
			col = a + (int64_t)( hyb_gen_hash( c->seed, HYB_TAG_COL, (uint64_t)i, (uint64_t)s ) %
			                     (uint64_t)( b - a ) );
		out[s] = (int)col;
	}
}

/* Fit [lo, hi) inside [0, N) and make it at least L wide. */
static void hyb_gen_fit( int64_t N, int64_t L, int64_t* lo, int64_t* hi )
{
	if ( *lo < 0 ) *lo = 0;
	if ( *hi > N ) *hi = N;
	if ( *hi - *lo < L )
	{
		*hi = *lo + L < N ? *lo + L : N;
		*lo = *hi - L;
	}
}

/* Columns of row i (length L), sorted ascending, 0-based. */
static void hyb_gen_row( const hyb_gen_ctx_t* c, int64_t i, int64_t L, int* out )
{
	const hyb_gen_param_t* p  = c->p;
	const int64_t          N  = c->N;
	int                    lg = hyb_gen_long_index( c, i ) >= 0;
	if ( lg && p->long_global )
	{
		hyb_gen_stratified( c, i, L, 0, N, out );
		return;
	}
	if ( hyb_gen_is_band_row( c, i ) )
	{
		int64_t n = 0;
		for ( int64_t q = 0; q < c->npat && n < L; q++ )
		{
			int64_t j = i + c->pat[q];
			if ( j >= 0 && j < N ) out[n++] = (int)j;
		}
		qsort( out, (size_t)n, sizeof( int ), hyb_gen_int_cmp );
		return;
	}
	int64_t lo, hi;
	if ( p->col == HYB_COL_BLOCK )
	{
		lo = ( i / p->block ) * p->block;
		hi = lo + p->block;
	}
	else
	{
		int64_t bw = (int64_t)llround( p->bw * (double)L );
		if ( p->col == HYB_COL_SPINDLE )
		{
			double mid = 1.0 - fabs( 2.0 * ( (double)i + 0.5 ) / (double)N - 1.0 );
			bw += (int64_t)llround( (double)N / 4.0 * mid );
		}
		if ( bw < L ) bw = L;
		lo = i - bw;
		hi = i + bw + 1;
	}
	hyb_gen_fit( N, L, &lo, &hi );
	hyb_gen_stratified( c, i, L, lo, hi, out );
}

static inline void hyb_gen_value( uint64_t seed, int64_t i, int64_t j, hyb_prec_t prec, void* val,
                                  int64_t k )
{
	double v =
	    2.0 * hyb_gen_u01( hyb_gen_hash( seed, HYB_TAG_VAL, (uint64_t)i, (uint64_t)j ) ) - 1.0;
	if ( prec == HYB_PREC_D )
		( (double*)val )[k] = v;
	else
		( (float*)val )[k] = (float)v;
}

/* Stencil row i of an n^3 grid: neighbours in (dz, dy, dx) order, i.e. ascending columns. */
static int64_t hyb_gen_stencil_row( int64_t n, int64_t i, int* out )
{
	int64_t x = i % n, y = ( i / n ) % n, z = i / ( n * n ), L = 0;
	for ( int64_t dz = -1; dz <= 1; dz++ )
		for ( int64_t dy = -1; dy <= 1; dy++ )
			for ( int64_t dx = -1; dx <= 1; dx++ )
			{
				int64_t X = x + dx, Y = y + dy, Z = z + dz;
				if ( X < 0 || Y < 0 || Z < 0 || X >= n || Y >= n || Z >= n ) continue;
				if ( out ) out[L] = (int)( ( Z * n + Y ) * n + X );
				L++;
			}
	return L;
}

/* Common driver: CSR (ia != NULL) or COO (rowind != NULL). */
static hyb_status_t hyb_gen_run( hyb_gen_id_t id, double scale, uint64_t seed, int base,
                                 hyb_prec_t prec, int* ia, int* rowind, int* colind, void* val,
                                 int nthreads )
{
	int64_t      N, Z, M;
	hyb_status_t st = hyb_spmv_gen_size( id, scale, &N, &Z, &M );
	if ( st != HYB_OK ) return st;
	if ( ( base != 0 && base != 1 ) || ( prec != HYB_PREC_S && prec != HYB_PREC_D ) || !colind ||
	     !val || Z + base > INT_MAX || N > INT_MAX )
		return HYB_E_INVALID;
	int           nth = nthreads > 0 ? nthreads : omp_get_max_threads();
	hyb_gen_ctx_t c;
	memset( &c, 0, sizeof c );
	c.seed       = hyb_gen_mix( seed ^ ( (uint64_t)id << 32 ) );
	c.N          = N;
	c.nnz        = Z;
	c.max_len    = M;
	int64_t* ptr = malloc( (size_t)( N + 1 ) * sizeof( int64_t ) );
	if ( !ptr ) return HYB_E_NO_MEMORY;
	int64_t edge = id == HYB_GEN_STENCIL27 ? hyb_gen_edge( scale ) : 0;
	if ( id == HYB_GEN_STENCIL27 )
	{
#pragma omp          parallel for num_threads( nth ) schedule( static )
        for ( int64_t i = 0; i < N; i++ ) ptr[i] = hyb_gen_stencil_row( edge, i, NULL );
    }
    else
	         {
		         c.p        = &hyb_gen_params[id];
		         c.body_max = c.p->body_max < M ? c.p->body_max : M;
		         c.lmin     = c.p->lmin < c.body_max ? c.p->lmin : c.body_max;
		         if ( c.lmin > Z / N ) c.lmin = Z / N;
        /* as many long rows per row as in the full matrix, at least one (it has the maximum) */
		         int64_t nl =
		             (int64_t)llround( (double)c.p->nlong * (double)N / (double)hyb_gen_infos[id].rows );
		         if ( nl > N / 4 ) nl = N / 4;
        c.nlong = (int)( nl < 1 ? 1 : nl );
		         st      = hyb_gen_pattern( &c );
		         if ( st == HYB_OK ) st = hyb_gen_lengths( &c, ptr, nth );
    }
	         if ( st == HYB_OK )
	         {
		         hyb_scan_excl( ptr, N, nth );
		         if ( ptr[N] != Z ) st = HYB_E_INVALID;
    }
	         int* scratch =
        st == HYB_OK ? malloc( (size_t)nth * (size_t)( M > 27 ? M : 27 ) * sizeof( int ) ) : NULL;
	         if ( st == HYB_OK && !scratch ) st = HYB_E_NO_MEMORY;
    if ( st == HYB_OK )
	         {
#pragma omp parallel num_threads( nth )
		{
			int* cols = scratch + (size_t)omp_get_thread_num() * (size_t)( M > 27 ? M : 27 );
#pragma omp for schedule( dynamic, 1024 )
			for ( int64_t i = 0; i < N; i++ )
			{
				int64_t k0 = ptr[i], L = ptr[i + 1] - ptr[i];
				if ( id == HYB_GEN_STENCIL27 )
					hyb_gen_stencil_row( edge, i, cols );
				else
					hyb_gen_row( &c, i, L, cols );
				for ( int64_t q = 0; q < L; q++ )
				{
					colind[k0 + q] = cols[q] + base;
					if ( rowind ) rowind[k0 + q] = (int)i + base;
					hyb_gen_value( c.seed, i, cols[q], prec, val, k0 + q );
				}
			}
		}
		if ( ia )
			for ( int64_t i = 0; i <= N; i++ ) ia[i] = (int)ptr[i] + base;
	}
	free( scratch );
	free( ptr );
	free( c.pat );
	free( c.pat_srt );
	return st;
}

hyb_status_t hyb_spmv_gen_csr( hyb_gen_id_t id, double scale, uint64_t seed, int base,
                               hyb_prec_t prec, int* ia, int* ja, void* val, int nthreads )
{
	if ( !ia ) return HYB_E_INVALID;
	return hyb_gen_run( id, scale, seed, base, prec, ia, NULL, ja, val, nthreads );
}

hyb_status_t hyb_spmv_gen_coo( hyb_gen_id_t id, double scale, uint64_t seed, int base,
                               hyb_prec_t prec, int* rowind, int* colind, void* val, int nthreads )
{
	if ( !rowind ) return HYB_E_INVALID;
	return hyb_gen_run( id, scale, seed, base, prec, NULL, rowind, colind, val, nthreads );
}
