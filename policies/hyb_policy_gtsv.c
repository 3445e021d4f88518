/* SPDX-License-Identifier: BSD-3-Clause */
/* Tridiagonal (?gtsv_) policy: SPIKE eligibility and window (seed 002 eq. 8), device row
   shares and streaming chunk sizes, and the persisted per-device throughput profile. */
#define _GNU_SOURCE
#include "policies/hyb_policy_gtsv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------------------
   Window and plan.
   --------------------------------------------------------------------------------------- */

int64_t hyb_policy_gtsv_window( double dom, hyb_prec_t prec )
{
	if ( !( dom > 1.0 ) ) return 0; /* also NaN */
	if ( isinf( dom ) ) return 1;
	/* target = u / 4: u = 2^-53 (double, complex double), 2^-24 (float, complex float). */
	int    bits   = ( prec == HYB_PREC_D || prec == HYB_PREC_Z ) ? 53 : 24;
	double lnbits = ( bits + 2 ) * log( 2.0 ); /* ln(4/u) */
	double mr     = ceil( lnbits / log( dom ) );
	if ( !( mr <= (double)HYB_GTSV_WINDOW_MAX + 1 ) ) return 0;
	int64_t m = (int64_t)mr;
	if ( m < 1 ) m = 1;
	/* ceil() of a rounded quotient may be one too high on exact powers: step down while
	   the smaller window still meets the target (compared in logs). */
	while ( m > 1 && (double)( m - 1 ) * log( dom ) >= lnbits * ( 1 - 1e-12 ) ) m--;
	return m <= HYB_GTSV_WINDOW_MAX ? m : 0;
}

hyb_gtsv_plan_t hyb_policy_gtsv_choose( double dom_row, double dom_col, int64_t pivot,
                                        int64_t info, int nonfinite, hyb_prec_t prec,
                                        int strict_factors, int64_t* m )
{
	int64_t w = 0;
	if ( m ) *m = 0;
	if ( nonfinite ) return HYB_GTSV_PLAN_LAPACK;
	double dom = dom_row > dom_col ? dom_row : dom_col; /* NaN-safe: NaN fails window */
	if ( isnan( dom_row ) || isnan( dom_col ) ) return HYB_GTSV_PLAN_LAPACK;
	w = hyb_policy_gtsv_window( dom, prec );
	if ( w == 0 ) return HYB_GTSV_PLAN_LAPACK;
	hyb_gtsv_plan_t plan;
	if ( pivot < 0 )
		return HYB_GTSV_PLAN_LAPACK;
	else if ( pivot > 0 )
	{
		/* A swap only happens for a row- but not column-dominant matrix; such a matrix is
		   nonsingular, so SPIKE's X is valid, only the factors differ. */
		if ( strict_factors || !( dom_row > 1.0 ) ) return HYB_GTSV_PLAN_LAPACK;
		plan = HYB_GTSV_PLAN_SPIKE_X_ONLY;
	}
	else
	{
		if ( info != 0 ) return HYB_GTSV_PLAN_LAPACK;
		plan = HYB_GTSV_PLAN_SPIKE;
	}
	if ( m ) *m = w;
	return plan;
}

/* ---------------------------------------------------------------------------------------
   Shares and chunks.
   --------------------------------------------------------------------------------------- */

double hyb_policy_gtsv_shares( int64_t n, int ndev, const double* rate, int64_t align,
                               int64_t min_rows, int64_t* rows )
{
	if ( n < 0 || ndev < 1 || ndev > HYB_GTSV_DEV_MAX || rate == NULL || rows == NULL ||
	     align < 1 || min_rows < 0 )
		return -1.0;

	double r[HYB_GTSV_DEV_MAX];
	int    known = 1;
	for ( int k = 0; k < ndev; k++ )
		if ( !( rate[k] > 0 ) || isinf( rate[k] ) ) known = 0;
	for ( int k = 0; k < ndev; k++ ) r[k] = known ? rate[k] : 1.0;

	int active[HYB_GTSV_DEV_MAX];
	for ( int k = 0; k < ndev; k++ ) active[k] = 1;

	for ( ;; )
	{
		double total   = 0;
		int    fastest = -1;
		for ( int k = 0; k < ndev; k++ )
		{
			if ( !active[k] ) continue;
			total += r[k];
			if ( fastest < 0 || r[k] > r[fastest] ) fastest = k;
		}
		int64_t given = 0;
		for ( int k = 0; k < ndev; k++ )
		{
			rows[k] = 0;
			if ( !active[k] || k == fastest ) continue;
			double  exact = (double)n * ( r[k] / total );
			int64_t s     = (int64_t)floor( exact / (double)align ) * align;
			if ( s < 0 ) s = 0;
			if ( s > n - given ) s = ( ( n - given ) / align ) * align;
			rows[k] = s;
			given += s;
		}
		rows[fastest] = n - given;

		/* Drop the slowest device whose share is below min_rows, then share again. */
		int drop = -1;
		for ( int k = 0; k < ndev; k++ )
		{
			if ( !active[k] || k == fastest || rows[k] >= min_rows ) continue;
			if ( drop < 0 || r[k] < r[drop] ) drop = k;
		}
		if ( drop < 0 ) break;
		active[drop] = 0;
	}

	if ( !known ) return 0.0;
	double t = 0;
	for ( int k = 0; k < ndev; k++ )
	{
		double tk = (double)rows[k] / r[k];
		if ( tk > t ) t = tk;
	}
	return t;
}

int64_t hyb_policy_gtsv_chunk_rows( int64_t rows, int64_t nrhs, size_t elem, size_t buf_bytes,
                                    int64_t m, int min_chunks )
{
	if ( rows <= 0 || nrhs < 0 || elem == 0 || m < 0 ) return 0;
	double  row_bytes = (double)( 3 + nrhs ) * (double)elem;
	double  fit       = (double)buf_bytes / row_bytes;
	int64_t cap       = fit >= (double)rows ? rows : (int64_t)fit;
	int64_t floor_r   = 16 * m > HYB_GTSV_CHUNK_MIN_ROWS ? 16 * m : HYB_GTSV_CHUNK_MIN_ROWS;
	int64_t want      = rows;
	if ( min_chunks > 1 ) want = ( rows + min_chunks - 1 ) / min_chunks;
	if ( want < floor_r ) want = floor_r;
	if ( want > cap ) want = cap; /* the buffer is a hard limit */
	if ( want > rows ) want = rows;
	if ( want > 1024 && want < rows ) want -= want % 1024; /* one chunk: keep it whole */
	return want >= 1 ? want : 1;
}

/* ---------------------------------------------------------------------------------------
   Profile file.
   --------------------------------------------------------------------------------------- */

static int hyb_gtsv_dev_name_ok( const char* s )
{
	size_t len = 0;
	if ( s == NULL ) return 0;
	for ( ; s[len]; len++ )
	{
		char c = s[len];
		int  ok = ( c >= 'a' && c <= 'z' ) || ( c >= 'A' && c <= 'Z' ) || ( c >= '0' && c <= '9' ) ||
		         c == '_' || c == '.' || c == ':' || c == '-';
		if ( !ok || len >= 31 ) return 0;
	}
	return len >= 1;
}

static int hyb_gtsv_prec_ok( char c )
{
	return c == 's' || c == 'd' || c == 'c' || c == 'z';
}

static int hyb_gtsv_rate_ok( double r )
{
	return r > 0 && r < 1e18; /* rejects NaN and Inf too */
}

void hyb_policy_gtsv_profile_init( hyb_gtsv_profile_t* p )
{
	if ( p ) memset( p, 0, sizeof *p );
}

static hyb_gtsv_rate_t* hyb_gtsv_profile_find( hyb_gtsv_profile_t* p, const char* dev, char prec )
{
	for ( int k = 0; k < p->count; k++ )
		if ( p->e[k].prec == prec && strcmp( p->e[k].dev, dev ) == 0 ) return &p->e[k];
	return NULL;
}

/* Store (dev, prec, rate, samples), replacing an existing entry. 0 when full. */
static int hyb_gtsv_profile_put( hyb_gtsv_profile_t* p, const char* dev, char prec, double rate,
                                 int64_t samples )
{
	hyb_gtsv_rate_t* e = hyb_gtsv_profile_find( p, dev, prec );
	if ( e == NULL )
	{
		if ( p->count >= HYB_GTSV_PROFILE_MAX ) return 0;
		e = &p->e[p->count++];
		memset( e, 0, sizeof *e );
		memcpy( e->dev, dev, strlen( dev ) + 1 );
		e->prec = prec;
	}
	e->rate    = rate;
	e->samples = samples;
	return 1;
}

/* One line "gtsv dev prec rate samples" with strict token checks. */
static int hyb_gtsv_parse_line( char* line, hyb_gtsv_profile_t* p )
{
	char* save = NULL;
	char* tok[6];
	int   nt = 0;
	for ( char* t = strtok_r( line, " \t\r\n", &save ); t; t = strtok_r( NULL, " \t\r\n", &save ) )
	{
		if ( nt == 6 ) return 0;
		tok[nt++] = t;
	}
	if ( nt != 5 || strcmp( tok[0], "gtsv" ) != 0 ) return 0;
	if ( !hyb_gtsv_dev_name_ok( tok[1] ) ) return 0;
	if ( strlen( tok[2] ) != 1 || !hyb_gtsv_prec_ok( tok[2][0] ) ) return 0;
	char* end = NULL;
	errno     = 0;
	double rate = strtod( tok[3], &end );
	if ( errno != 0 || end == tok[3] || *end != '\0' || !hyb_gtsv_rate_ok( rate ) ) return 0;
	errno             = 0;
	long long samples = strtoll( tok[4], &end, 10 );
	if ( errno != 0 || end == tok[4] || *end != '\0' || samples < 1 ) return 0;
	return hyb_gtsv_profile_put( p, tok[1], tok[2][0], rate, (int64_t)samples );
}

hyb_status_t hyb_policy_gtsv_profile_read( const char* path, hyb_gtsv_profile_t* p )
{
	if ( p == NULL ) return HYB_E_INVALID;
	hyb_policy_gtsv_profile_init( p );
	if ( path == NULL ) return HYB_E_INVALID;
	FILE* f = fopen( path, "r" );
	if ( f == NULL ) return HYB_E_IO;

	char line[256];
	int  rejected = 0;
	while ( fgets( line, sizeof line, f ) )
	{
		size_t len = strlen( line );
		if ( len == sizeof line - 1 && line[len - 1] != '\n' )
		{
			/* Overlong line: drop it whole. */
			int c;
			while ( ( c = fgetc( f ) ) != EOF && c != '\n' )
				;
			rejected = 1;
			continue;
		}
		char* s = line;
		while ( *s == ' ' || *s == '\t' ) s++;
		if ( *s == '#' || *s == '\n' || *s == '\r' || *s == '\0' ) continue;
		if ( !hyb_gtsv_parse_line( s, p ) ) rejected = 1;
	}
	int err = ferror( f );
	fclose( f );
	if ( err ) return HYB_E_IO;
	return rejected ? HYB_E_PARSE : HYB_OK;
}

hyb_status_t hyb_policy_gtsv_profile_write( const char* path, const hyb_gtsv_profile_t* p )
{
	if ( path == NULL || p == NULL || p->count < 0 || p->count > HYB_GTSV_PROFILE_MAX )
		return HYB_E_INVALID;
	size_t plen = strlen( path );
	char*  tmp  = malloc( plen + 32 );
	if ( tmp == NULL ) return HYB_E_NO_MEMORY;
	snprintf( tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid() );

	FILE* f = fopen( tmp, "w" );
	if ( f == NULL )
	{
		free( tmp );
		return HYB_E_IO;
	}
	int ok = fprintf( f, "# hyblas gtsv throughput profile: gtsv <device> <prec> "
	                     "<rows_per_second> <samples>\n" ) > 0;
	for ( int k = 0; k < p->count && ok; k++ )
	{
		const hyb_gtsv_rate_t* e = &p->e[k];
		if ( !hyb_gtsv_dev_name_ok( e->dev ) || !hyb_gtsv_prec_ok( e->prec ) ||
		     !hyb_gtsv_rate_ok( e->rate ) || e->samples < 1 )
			continue; /* never persist garbage */
		ok = fprintf( f, "gtsv %s %c %.17g %lld\n", e->dev, e->prec, e->rate,
		              (long long)e->samples ) > 0;
	}
	ok = ( fflush( f ) == 0 ) && ok;
	ok = ( fclose( f ) == 0 ) && ok;
	if ( ok ) ok = rename( tmp, path ) == 0;
	if ( !ok ) unlink( tmp );
	free( tmp );
	return ok ? HYB_OK : HYB_E_IO;
}

double hyb_policy_gtsv_profile_rate( const hyb_gtsv_profile_t* p, const char* dev, char prec )
{
	if ( p == NULL || dev == NULL ) return 0;
	for ( int k = 0; k < p->count; k++ )
		if ( p->e[k].prec == prec && strcmp( p->e[k].dev, dev ) == 0 ) return p->e[k].rate;
	return 0;
}

hyb_status_t hyb_policy_gtsv_profile_update( hyb_gtsv_profile_t* p, const char* dev, char prec,
                                             double sample, double alpha )
{
	if ( p == NULL || !hyb_gtsv_dev_name_ok( dev ) || !hyb_gtsv_prec_ok( prec ) ||
	     !hyb_gtsv_rate_ok( sample ) || !( alpha > 0 && alpha <= 1 ) )
		return HYB_E_INVALID;
	hyb_gtsv_rate_t* e = hyb_gtsv_profile_find( p, dev, prec );
	if ( e == NULL ) return hyb_gtsv_profile_put( p, dev, prec, sample, 1 ) ? HYB_OK : HYB_E_NO_MEMORY;
	e->rate = ( 1 - alpha ) * e->rate + alpha * sample;
	if ( e->samples < INT64_MAX ) e->samples++;
	return HYB_OK;
}
