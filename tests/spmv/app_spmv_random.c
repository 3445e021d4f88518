/* SPDX-License-Identifier: BSD-3-Clause */
/* An outside check of MKL's legacy sparse products on random matrices: a plain program
   (it knows nothing of hyblas) that finds the eight COO/CSR symbols at run time and checks
   every product against its own long-double reference, and checks that invalid indices
   leave y untouched and are never followed outside the arrays.
     app_spmv_random [--only CASE] [--max-rows M] [--no-invalid]
   Matrices: m from 100 to 200 000, uniform, banded, power-law and dense-row patterns, empty
   rows, duplicated entries, COO in row order, shuffled, in column order and in reverse row
   order; each in the four routines of both precisions, 0- and 1-based, 'N' and 'T' (and
   the lower-case and 'C' spellings). Error bound per product, with L the most entries
   that add into one element of y:
     |y - yref|_inf <= 2 L eps (|op(A)| |x|)_inf.
   Exit 0 when every product passes, 1 otherwise (each failure printed), 77 when the
   process has no MKL sparse symbols (run it with LD_PRELOAD=libhyblas.so). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mkl_sparse_fns.h"

/* The eight routines: [base] */
static dcoo_fn dcoo[2];
static scoo_fn scoo[2];
static dcsr_fn dcsr[2];
static scsr_fn scsr[2];

static uint64_t rs_state = 0x9e3779b97f4a7c15ull;

static uint64_t rs_next( void )
{
	rs_state ^= rs_state << 13;
	rs_state ^= rs_state >> 7;
	rs_state ^= rs_state << 17;
	return rs_state;
}

/* uniform in [0, n) */
static int64_t rs_below( int64_t n )
{
	return n > 0 ? (int64_t)( rs_next() % (uint64_t)n ) : 0;
}

/* uniform in [-1, 1) */
static double rs_unit( void )
{
	return (double)( rs_next() >> 11 ) * ( 2.0 / 9007199254740992.0 ) - 1.0;
}

enum
{
	PAT_UNIFORM = 0, /* columns uniform over [0, m) */
	PAT_BANDED  = 1, /* columns within +-20 of the row */
	PAT_POWER   = 2, /* row lengths heavy-tailed (a few rows hold many entries) */
	PAT_DENSE   = 3  /* one dense row and one dense column, the rest sparse */
};

enum
{
	ORD_ROWS    = 0, /* grouped by row, ascending (columns in random order inside a row) */
	ORD_SHUFFLE = 1, /* random order */
	ORD_COLS    = 2, /* grouped by column, ascending */
	ORD_REVERSE = 3  /* grouped by row, descending */
};

typedef struct
{
	int    m;
	double per_row; /* mean entries of a non-empty row */
	int    pattern;
	int    order;
	double empty; /* share of rows with no entry */
	double dup;   /* share of entries stored twice */
} spec_t;

static const spec_t specs[] = {
	{ 100, 5, PAT_UNIFORM, ORD_ROWS, 0.0, 0.0 },
	{ 100, 3, PAT_UNIFORM, ORD_SHUFFLE, 0.2, 0.1 },
	{ 257, 8, PAT_BANDED, ORD_ROWS, 0.1, 0.05 },
	{ 1000, 10, PAT_POWER, ORD_SHUFFLE, 0.1, 0.0 },
	{ 1000, 4, PAT_DENSE, ORD_ROWS, 0.0, 0.0 },
	{ 3000, 6, PAT_UNIFORM, ORD_COLS, 0.3, 0.1 },
	{ 5000, 12, PAT_BANDED, ORD_REVERSE, 0.0, 0.0 },
	{ 8192, 2, PAT_UNIFORM, ORD_ROWS, 0.5, 0.2 },
	{ 10000, 7, PAT_POWER, ORD_ROWS, 0.0, 0.02 },
	{ 20000, 9, PAT_BANDED, ORD_SHUFFLE, 0.05, 0.0 },
	{ 30000, 1, PAT_UNIFORM, ORD_ROWS, 0.0, 0.0 },
	{ 50000, 5, PAT_DENSE, ORD_SHUFFLE, 0.1, 0.05 },
	{ 65537, 3, PAT_UNIFORM, ORD_REVERSE, 0.2, 0.1 },
	{ 80000, 16, PAT_BANDED, ORD_ROWS, 0.0, 0.01 },
	{ 100000, 4, PAT_POWER, ORD_COLS, 0.3, 0.0 },
	{ 100000, 6, PAT_UNIFORM, ORD_ROWS, 0.0, 0.3 },
	{ 131072, 8, PAT_BANDED, ORD_COLS, 0.0, 0.0 },
	{ 150000, 2, PAT_DENSE, ORD_ROWS, 0.4, 0.0 },
	{ 200000, 5, PAT_UNIFORM, ORD_SHUFFLE, 0.1, 0.05 },
	{ 200000, 10, PAT_BANDED, ORD_ROWS, 0.0, 0.0 },
	{ 200000, 3, PAT_POWER, ORD_ROWS, 0.6, 0.1 },
	{ 200000, 7, PAT_UNIFORM, ORD_REVERSE, 0.0, 0.0 },
};
#define NSPECS ( (int)( sizeof specs / sizeof specs[0] ) )

/* One matrix: COO arrays (0-based, in the spec's order), CSR arrays (0-based, rows
   ascending, columns in the COO's order of the row), values in both precisions. */
typedef struct
{
	int     m;
	int64_t nnz;
	int*    r;
	int*    c;
	double* v;
	float*  vf;
	int*    ia;
	int*    ja;
	double* av;
	float*  avf;
	int*    r1; /* 1-based copies */
	int*    c1;
	int*    ia1;
	int*    ja1;
} mat_t;

static int64_t row_length( const spec_t* s, int i )
{
	if ( rs_below( 1000 ) < (int64_t)( s->empty * 1000 ) ) return 0;
	if ( s->pattern == PAT_DENSE && i == s->m / 2 ) return s->m;
	int64_t mean = (int64_t)( 2 * s->per_row );
	if ( s->pattern == PAT_POWER )
	{
		/* Pareto-like: most rows short, one in a hundred 50x longer */
		int64_t len = 1 + rs_below( mean );
		if ( rs_below( 100 ) == 0 ) len *= 50;
		return len < s->m ? len : s->m;
	}
	int64_t len = 1 + rs_below( mean );
	return len < s->m ? len : s->m;
}

static int column_of( const spec_t* s, int i )
{
	int m = s->m;
	if ( s->pattern == PAT_BANDED )
	{
		int64_t c = i + rs_below( 41 ) - 20;
		return (int)( c < 0 ? 0 : c >= m ? m - 1 : c );
	}
	if ( s->pattern == PAT_DENSE && rs_below( 8 ) == 0 ) return m / 3; /* the dense column */
	return (int)rs_below( m );
}

static int cmp_rows_asc( const void* a, const void* b )
{
	const int64_t* x = a;
	const int64_t* y = b;
	if ( x[0] != y[0] ) return x[0] < y[0] ? -1 : 1;
	return ( x[2] > y[2] ) - ( x[2] < y[2] );
}

static void mat_free( mat_t* A )
{
	free( A->r );
	free( A->c );
	free( A->v );
	free( A->vf );
	free( A->ia );
	free( A->ja );
	free( A->av );
	free( A->avf );
	free( A->r1 );
	free( A->c1 );
	free( A->ia1 );
	free( A->ja1 );
	memset( A, 0, sizeof *A );
}

static int mat_make( const spec_t* s, mat_t* A )
{
	int      m   = s->m;
	int64_t  cap = 0, nnz = 0;
	int64_t* len = malloc( (size_t)m * sizeof( int64_t ) );
	if ( !len ) return -1;
	for ( int i = 0; i < m; i++ )
	{
		len[i] = row_length( s, i );
		cap += 2 * len[i];
	}
	/* entries as (row, column, position-key) triples, values alongside */
	int64_t* e = malloc( (size_t)( cap > 0 ? cap : 1 ) * 3 * sizeof( int64_t ) );
	double*  v = malloc( (size_t)( cap > 0 ? cap : 1 ) * sizeof( double ) );
	if ( !e || !v )
	{
		free( len );
		free( e );
		free( v );
		return -1;
	}
	for ( int i = 0; i < m; i++ )
		for ( int64_t k = 0; k < len[i]; k++ )
		{
			int c   = s->pattern == PAT_DENSE && i == m / 2 ? (int)k : column_of( s, i );
			int rep = rs_below( 1000 ) < (int64_t)( s->dup * 1000 ) ? 2 : 1;
			for ( int q = 0; q < rep; q++ )
			{
				e[3 * nnz]     = i;
				e[3 * nnz + 1] = c;
				e[3 * nnz + 2] = nnz;
				v[nnz]         = rs_unit();
				nnz++;
			}
		}
	free( len );
	/* entries in random order inside each row: shuffle the keys, then sort by (row, key) */
	for ( int64_t k = nnz - 1; k > 0; k-- )
	{
		int64_t j = rs_below( k + 1 ), t = e[3 * k + 2];
		e[3 * k + 2] = e[3 * j + 2];
		e[3 * j + 2] = t;
	}
	qsort( e, (size_t)nnz, 3 * sizeof( int64_t ), cmp_rows_asc );
	memset( A, 0, sizeof *A );
	A->m      = m;
	A->nnz    = nnz;
	size_t n1 = (size_t)( nnz > 0 ? nnz : 1 );
	A->r      = malloc( n1 * sizeof( int ) );
	A->c      = malloc( n1 * sizeof( int ) );
	A->v      = malloc( n1 * sizeof( double ) );
	A->vf     = malloc( n1 * sizeof( float ) );
	A->ia     = calloc( (size_t)m + 1, sizeof( int ) );
	A->ja     = malloc( n1 * sizeof( int ) );
	A->av     = malloc( n1 * sizeof( double ) );
	A->avf    = malloc( n1 * sizeof( float ) );
	A->r1     = malloc( n1 * sizeof( int ) );
	A->c1     = malloc( n1 * sizeof( int ) );
	A->ia1    = malloc( ( (size_t)m + 1 ) * sizeof( int ) );
	A->ja1    = malloc( n1 * sizeof( int ) );
	if ( !A->r || !A->c || !A->v || !A->vf || !A->ia || !A->ja || !A->av || !A->avf || !A->r1 ||
	     !A->c1 || !A->ia1 || !A->ja1 )
	{
		free( e );
		free( v );
		mat_free( A );
		return -1;
	}
	/* CSR: row order */
	for ( int64_t k = 0; k < nnz; k++ )
	{
		A->ia[e[3 * k] + 1]++;
		A->ja[k]  = (int)e[3 * k + 1];
		A->av[k]  = v[k];
		A->avf[k] = (float)v[k];
	}
	for ( int i = 0; i < m; i++ ) A->ia[i + 1] += A->ia[i];
	/* COO: the spec's order, a permutation of the CSR entries */
	int64_t* perm = malloc( n1 * sizeof( int64_t ) );
	if ( !perm )
	{
		free( e );
		free( v );
		mat_free( A );
		return -1;
	}
	for ( int64_t k = 0; k < nnz; k++ ) perm[k] = k;
	if ( s->order == ORD_SHUFFLE )
		for ( int64_t k = nnz - 1; k > 0; k-- )
		{
			int64_t j = rs_below( k + 1 ), t = perm[k];
			perm[k] = perm[j];
			perm[j] = t;
		}
	else if ( s->order == ORD_REVERSE )
	{
		/* rows descending, each row's entries kept together */
		int64_t p = 0;
		for ( int i = m - 1; i >= 0; i-- )
			for ( int64_t k = A->ia[i]; k < A->ia[i + 1]; k++ ) perm[p++] = k;
	}
	else if ( s->order == ORD_COLS )
	{
		/* counting sort of the CSR positions by column */
		int64_t* cnt = calloc( (size_t)m + 1, sizeof( int64_t ) );
		if ( !cnt )
		{
			free( perm );
			free( e );
			free( v );
			mat_free( A );
			return -1;
		}
		for ( int64_t k = 0; k < nnz; k++ ) cnt[A->ja[k] + 1]++;
		for ( int j = 0; j < m; j++ ) cnt[j + 1] += cnt[j];
		for ( int64_t k = 0; k < nnz; k++ ) perm[cnt[A->ja[k]]++] = k;
		free( cnt );
	}
	for ( int64_t p = 0; p < nnz; p++ )
	{
		int64_t k = perm[p];
		A->c[p]   = A->ja[k];
		A->v[p]   = A->av[k];
		A->vf[p]  = A->avf[k];
		A->r[p]   = (int)e[3 * k];
	}
	free( perm );
	free( e );
	free( v );
	for ( int64_t k = 0; k < nnz; k++ )
	{
		A->r1[k]  = A->r[k] + 1;
		A->c1[k]  = A->c[k] + 1;
		A->ja1[k] = A->ja[k] + 1;
	}
	for ( int i = 0; i <= m; i++ ) A->ia1[i] = A->ia[i] + 1;
	return 0;
}

/* The exact product op(A) x in long double, |op(A)| |x|, and the most entries adding into
   one element (L). */
static int64_t reference( const mat_t* A, int single, int trans, const double* x, long double* ref,
                          long double* mag )
{
	int      m   = A->m;
	int64_t* cnt = calloc( (size_t)m, sizeof( int64_t ) );
	for ( int i = 0; i < m; i++ ) ref[i] = mag[i] = 0.0L;
	for ( int64_t k = 0; k < A->nnz; k++ )
	{
		int         row = trans ? A->c[k] : A->r[k], col = trans ? A->r[k] : A->c[k];
		long double p = (long double)( single ? (double)A->vf[k] : A->v[k] ) * (long double)x[col];
		ref[row] += p;
		mag[row] += fabsl( p );
		cnt[row]++;
	}
	int64_t L = 1;
	for ( int i = 0; i < m; i++ ) L = cnt[i] > L ? cnt[i] : L;
	free( cnt );
	return L;
}

static const char* routine_name( int csr, int single, int base )
{
	static const char* names[2][2][2] = {
		{ { "mkl_cspblas_dcoogemv", "mkl_dcoogemv" }, { "mkl_cspblas_scoogemv", "mkl_scoogemv" } },
		{ { "mkl_cspblas_dcsrgemv", "mkl_dcsrgemv" }, { "mkl_cspblas_scsrgemv", "mkl_scsrgemv" } }
	};
	return names[csr][single][base];
}

/* The x86 ABI requires the x87 register stack to be empty (every tag "empty") when a
   function returns; a callee that used MMX registers without EMMS leaves it full, and the
   caller's next long double operation yields NaN. Returns 1 when a call left it so (and
   empties it, so that later checks stand on their own); 0 elsewhere. */
static int x87_dirty( void )
{
#if defined( __x86_64__ ) || defined( __i386__ )
	unsigned short env[14];
	__asm__ __volatile__( "fnstenv %0" : "=m"( env ) );
	__asm__ __volatile__( "fldenv %0" : : "m"( env ) ); /* fnstenv masks exceptions: restore */
	if ( env[4] == 0xffff ) return 0;
	__asm__ __volatile__( "emms" );
	return 1;
#else
	return 0;
#endif
}

static int x87_report( const char* routine, char t )
{
	if ( !x87_dirty() ) return 0;
	printf( "FAIL: %s transa '%c' returned with the x87 register stack in use (MMX registers"
	        " used without EMMS)\n",
	        routine, t );
	return 1;
}

/* One call of one routine on A; y is filled with NaN first (every element must be
   written). x in double (xd) and the same values in single (xf). Returns 1 when the call
   left the x87 unit unusable (reported), else 0. */
static int call_routine( const mat_t* A, int csr, int single, int base, char t, const double* xd,
                         const float* xf, double* yd, float* yf )
{
	int m = A->m, nnz = (int)A->nnz;
	for ( int i = 0; i < m; i++ )
	{
		yd[i] = NAN;
		yf[i] = NAN;
	}
	const int* r  = base ? A->r1 : A->r;
	const int* c  = base ? A->c1 : A->c;
	const int* ia = base ? A->ia1 : A->ia;
	const int* ja = base ? A->ja1 : A->ja;
	if ( !csr && !single ) dcoo[base]( &t, &m, A->v, r, c, &nnz, xd, yd );
	if ( !csr && single ) scoo[base]( &t, &m, A->vf, r, c, &nnz, xf, yf );
	if ( csr && !single ) dcsr[base]( &t, &m, A->av, ia, ja, xd, yd );
	if ( csr && single ) scsr[base]( &t, &m, A->avf, ia, ja, xf, yf );
	return x87_report( routine_name( csr, single, base ), t );
}

/* Normalized error of one product (infinite when an element is not finite). */
static double normalized_error( int m, int single, const double* yd, const float* yf,
                                const long double* ref, const long double* mag, int64_t L )
{
	long double err = 0.0L, amax = 0.0L;
	for ( int i = 0; i < m; i++ )
	{
		long double y = single ? (long double)yf[i] : (long double)yd[i];
		if ( !isfinite( (double)y ) ) return INFINITY;
		long double d = fabsl( y - ref[i] );
		err           = d > err ? d : err;
		amax          = mag[i] > amax ? mag[i] : amax;
	}
	double eps = single ? FLT_EPSILON : DBL_EPSILON;
	if ( amax == 0.0L ) return err == 0.0L ? 0.0 : INFINITY;
	return (double)( err / ( (long double)L * eps * amax ) );
}

/* All products of one matrix; returns the number of failures. */
static int check_spec( int id, const spec_t* s )
{
	mat_t A;
	if ( mat_make( s, &A ) != 0 )
	{
		printf( "FAIL: case %d: out of memory building the matrix\n", id );
		return 1;
	}
	int          m = A.m, fails = 0;
	double*      xd   = malloc( (size_t)m * sizeof( double ) );
	float*       xf   = malloc( (size_t)m * sizeof( float ) );
	double*      xs   = malloc( (size_t)m * sizeof( double ) ); /* the single x, widened */
	double*      yd   = malloc( (size_t)m * sizeof( double ) );
	float*       yf   = malloc( (size_t)m * sizeof( float ) );
	long double* ref  = malloc( (size_t)m * sizeof( long double ) );
	long double* mag  = malloc( (size_t)m * sizeof( long double ) );
	double       wrst = 0.0;
	int          runs = 0;
	if ( !xd || !xf || !xs || !yd || !yf || !ref || !mag )
	{
		printf( "FAIL: case %d: out of memory\n", id );
		fails = 1;
		goto out;
	}
	for ( int i = 0; i < m; i++ )
	{
		xd[i] = rs_unit();
		xf[i] = (float)xd[i];
		xs[i] = (double)xf[i];
	}
	static const char tchar[2][3] = { { 'N', 'n', 'N' }, { 'T', 't', 'C' } };
	for ( int single = 0; single < 2; single++ )
		for ( int trans = 0; trans < 2; trans++ )
		{
			int64_t L = reference( &A, single, trans, single ? xs : xd, ref, mag );
			for ( int csr = 0; csr < 2; csr++ )
				for ( int base = 0; base < 2; base++ )
				{
					char t = tchar[trans][( id + csr + 2 * base ) % 3];
					fails += call_routine( &A, csr, single, base, t, xd, xf, yd, yf );
					double e = normalized_error( m, single, yd, yf, ref, mag, L );
					runs++;
					wrst = e > wrst ? e : wrst;
					if ( !( e <= 2.0 ) )
					{
						printf( "FAIL: case %d (m=%d nnz=%lld pattern %d order %d): %s transa '%c':"
						        " normalized error %g\n",
						        id, m, (long long)A.nnz, s->pattern, s->order,
						        routine_name( csr, single, base ), t, e );
						fails++;
					}
				}
		}
	printf( "case %2d: m=%6d nnz=%8lld pattern %d order %d: %d products, worst %.3g%s\n", id, m,
	        (long long)A.nnz, s->pattern, s->order, runs, wrst, fails ? "  FAILED" : "" );
out:
	free( xd );
	free( xf );
	free( xs );
	free( yd );
	free( yf );
	free( ref );
	free( mag );
	mat_free( &A );
	return fails;
}

/* ------------------------------------------------------------------ invalid indices */

/* bytes rounded up to whole pages, between two inaccessible pages; the array ends exactly
   at the upper guard (one past the end faults) or starts at the lower one (one before the
   start faults). */
typedef struct
{
	char*  map;
	size_t len;
} guarded_t;

static void* guarded( guarded_t* g, size_t bytes, int at_end )
{
	size_t pg   = (size_t)sysconf( _SC_PAGESIZE );
	size_t body = ( bytes + pg - 1 ) / pg * pg;
	g->len      = body + 2 * pg;
	g->map      = mmap( NULL, g->len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( g->map == MAP_FAILED ) return NULL;
	if ( mprotect( g->map + pg, body, PROT_READ | PROT_WRITE ) != 0 ) return NULL;
	return at_end ? g->map + pg + body - bytes : g->map + pg;
}

static void unguard( guarded_t* g )
{
	if ( g->map && g->map != MAP_FAILED ) munmap( g->map, g->len );
	g->map = NULL;
}

/* A banded matrix, sorted by rows (so the same arrays serve as COO and CSR), in guarded
   x and y; m is a multiple of 1024 so that both precisions fill whole pages. */
enum
{
	INV_M   = 4096,
	INV_PER = 5,
	INV_NNZ = INV_M * INV_PER
};

typedef struct
{
	int     r[INV_NNZ], c[INV_NNZ], ia[INV_M + 1];
	double  v[INV_NNZ];
	float   vf[INV_NNZ];
	double* xd;
	float*  xf;
	double* yd;
	float*  yf;
} inv_t;

static void inv_fill( inv_t* p, int base )
{
	int k = 0;
	for ( int i = 0; i < INV_M; i++ )
	{
		p->ia[i] = k + base;
		for ( int d = 0; d < INV_PER; d++, k++ )
		{
			int cc   = i + d - INV_PER / 2;
			p->r[k]  = i + base;
			p->c[k]  = ( cc < 0 ? 0 : cc >= INV_M ? INV_M - 1 : cc ) + base;
			p->v[k]  = rs_unit();
			p->vf[k] = (float)p->v[k];
		}
	}
	p->ia[INV_M] = k + base;
}

/* Every precision and operation of one routine kind on the spoiled arrays: y must stay
   exactly as it was. Returns the number of failures. */
static int inv_run( inv_t* p, int csr, int base, const char* what )
{
	int fails = 0;
	for ( int single = 0; single < 2; single++ )
		for ( int trans = 0; trans < 2; trans++ )
		{
			char t = trans ? 'T' : 'N';
			int  m = INV_M, nnz = INV_NNZ, changed = 0;
			for ( int i = 0; i < m; i++ )
			{
				p->yd[i] = 1000.0 + i;
				p->yf[i] = 1000.0f + (float)i;
			}
			if ( !csr && !single ) dcoo[base]( &t, &m, p->v, p->r, p->c, &nnz, p->xd, p->yd );
			if ( !csr && single ) scoo[base]( &t, &m, p->vf, p->r, p->c, &nnz, p->xf, p->yf );
			if ( csr && !single ) dcsr[base]( &t, &m, p->v, p->ia, p->c, p->xd, p->yd );
			if ( csr && single ) scsr[base]( &t, &m, p->vf, p->ia, p->c, p->xf, p->yf );
			fails += x87_report( routine_name( csr, single, base ), t );
			for ( int i = 0; i < m; i++ )
				changed += single ? p->yf[i] != 1000.0f + (float)i : p->yd[i] != 1000.0 + i;
			if ( changed )
			{
				printf( "FAIL: %s transa '%c', %s: %d elements of y changed (must be none)\n",
				        routine_name( csr, single, base ), t, what, changed );
				fails++;
			}
		}
	return fails;
}

/* Invalid indices: a row (COO) or column index out of range at the first, middle or last
   entry, or a decreasing ia (CSR). Every routine must leave y exactly as it was and must not
   read x or write y outside them (x and y sit against inaccessible pages, below and above
   in turn, so a stray access faults). Returns the number of failures. */
static int check_invalid( void )
{
	static inv_t p; /* large: not on the stack */
	const int    where[3] = { 0, INV_NNZ / 2, INV_NNZ - 1 };
	const int    badv[3]  = { INV_M, -1, 1 << 30 }; /* before the base is added */
	int          fails = 0, calls = 0;
	for ( int at_end = 0; at_end < 2; at_end++ )
	{
		guarded_t g[4];
		memset( g, 0, sizeof g );
		p.xd = guarded( &g[0], INV_M * sizeof( double ), at_end );
		p.xf = guarded( &g[1], INV_M * sizeof( float ), at_end );
		p.yd = guarded( &g[2], INV_M * sizeof( double ), at_end );
		p.yf = guarded( &g[3], INV_M * sizeof( float ), at_end );
		if ( !p.xd || !p.xf || !p.yd || !p.yf )
		{
			printf( "FAIL: invalid-index cases: cannot map guarded arrays\n" );
			fails++;
		}
		for ( int i = 0; fails == 0 && i < INV_M; i++ )
		{
			p.xd[i] = rs_unit();
			p.xf[i] = (float)p.xd[i];
		}
		for ( int base = 0; fails == 0 && base < 2; base++ )
		{
			char what[96];
			for ( int w = 0; w < 3; w++ )
				for ( int b = 0; b < 3; b++ )
					for ( int col = 0; col < 2; col++ )
						for ( int csr = 0; csr <= col; csr++ ) /* CSR has no rows */
						{
							inv_fill( &p, base );
							( col ? p.c : p.r )[where[w]] = badv[b] + base;
							snprintf( what, sizeof what, "%s index %d at entry %d",
							          col ? "column" : "row", badv[b] + base, where[w] );
							fails += inv_run( &p, csr, base, what );
							calls += 4;
						}
			/* CSR: ia decreasing in the middle (every position it names still exists) */
			inv_fill( &p, base );
			p.ia[INV_M / 2] = p.ia[INV_M / 2 + 1] + 1;
			fails += inv_run( &p, 1, base, "ia decreasing at row m/2" );
			calls += 4;
		}
		for ( int q = 0; q < 4; q++ ) unguard( &g[q] );
	}
	printf( "invalid indices: %d products, %d failures\n", calls, fails );
	return fails;
}

int main( int argc, char** argv )
{
	int only = -1, max_rows = 1 << 30, invalid = 1;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !strcmp( argv[i], "--only" ) && i + 1 < argc )
			only = (int)strtol( argv[++i], NULL, 10 );
		else if ( !strcmp( argv[i], "--max-rows" ) && i + 1 < argc )
			max_rows = (int)strtol( argv[++i], NULL, 10 );
		else if ( !strcmp( argv[i], "--no-invalid" ) )
			invalid = 0;
		else
		{
			fprintf( stderr, "usage: %s [--only CASE] [--max-rows M] [--no-invalid]\n", argv[0] );
			return 2;
		}
	}
	dcoo[0] = (dcoo_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_dcoogemv" );
	dcoo[1] = (dcoo_fn)dlsym( RTLD_DEFAULT, "mkl_dcoogemv" );
	scoo[0] = (scoo_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_scoogemv" );
	scoo[1] = (scoo_fn)dlsym( RTLD_DEFAULT, "mkl_scoogemv" );
	dcsr[0] = (dcsr_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_dcsrgemv" );
	dcsr[1] = (dcsr_fn)dlsym( RTLD_DEFAULT, "mkl_dcsrgemv" );
	scsr[0] = (scsr_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_scsrgemv" );
	scsr[1] = (scsr_fn)dlsym( RTLD_DEFAULT, "mkl_scsrgemv" );
	for ( int b = 0; b < 2; b++ )
		if ( !dcoo[b] || !scoo[b] || !dcsr[b] || !scsr[b] )
		{
			printf( "skip: no MKL sparse symbols in this process (run it with "
			        "LD_PRELOAD=libhyblas.so)\n" );
			return 77;
		}
	int failed_cases = 0, cases = 0;
	for ( int id = 0; id < NSPECS; id++ )
	{
		if ( ( only >= 0 && id != only ) || specs[id].m > max_rows ) continue;
		rs_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)( id + 1 ) * 0xbf58476d1ce4e5b9ull;
		cases++;
		failed_cases += check_spec( id, &specs[id] ) > 0;
	}
	int bad_invalid = invalid && only < 0 ? check_invalid() : 0;
	printf( "%s: %d of %d cases failed%s\n", failed_cases || bad_invalid ? "FAIL" : "ok",
	        failed_cases, cases, bad_invalid ? ", invalid indices changed y" : "" );
	return failed_cases || bad_invalid ? 1 : 0;
}
