/* SPDX-License-Identifier: BSD-3-Clause */
/* The configuration table (core/config/hyb_config.{h,c}): strict parsing of
   every type, precedence of sources, typo warnings, the derived settings
   (routine modes, CPU ratio, device list), nvblas.conf mapping, printing. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "hyb_log.h"
#include "hyb_test_util.h"

/* The table, seen independently through the same X-macro file. */
typedef enum
{
	T_INT,
	T_DOUBLE,
	T_BOOL,
	T_SIZE,
	T_ENUM,
	T_STRING,
	T_PATH
} hyb_tt_t;

typedef struct
{
	const char* name;
	hyb_tt_t    type;
	size_t      off;
	const char* def;
	double      min, max;
	const char* help;
	int         idx;
} hyb_tvar_t;

static const hyb_tvar_t hyb_tvars[] = {
#define HYB_VAR( NAME, TYPE, field, def, min, max, help )                                          \
	{ #NAME, T_##TYPE, offsetof( hyb_config_t, field ), def, min, max, help, HYB_CFG_IDX_##field },
#include "core/config/hyb_config_vars.def"
#undef HYB_VAR
};
#define HYB_NTVARS ( (int)( sizeof hyb_tvars / sizeof hyb_tvars[0] ) )

static char hyb_log_buf[65536];

static int64_t field_int( const hyb_config_t* c, const hyb_tvar_t* v )
{
	return *(const int64_t*)( (const char*)c + v->off );
}
static double field_double( const hyb_config_t* c, const hyb_tvar_t* v )
{
	return *(const double*)( (const char*)c + v->off );
}
static int field_i( const hyb_config_t* c, const hyb_tvar_t* v )
{
	return *(const int*)( (const char*)c + v->off );
}
static hyb_cfg_size_t field_size( const hyb_config_t* c, const hyb_tvar_t* v )
{
	return *(const hyb_cfg_size_t*)( (const char*)c + v->off );
}
static const char* field_str( const hyb_config_t* c, const hyb_tvar_t* v )
{
	return (const char*)c + v->off;
}

static hyb_status_t set( hyb_config_t* c, const char* name, const char* value,
                         hyb_cfg_source_t src )
{
	char err[512];
	err[0]          = '\0';
	hyb_status_t st = hyb_config_set( c, name, value, src, err, sizeof err );
	if ( st != HYB_OK )
	{
		/* Every rejection explains itself and names the setting. */
		CU_ASSERT( strstr( err, name ) != NULL );
	}
	return st;
}

/* A rejected value leaves the whole configuration as it was. */
static void expect_rejected( const char* name, const char* value, hyb_status_t want )
{
	hyb_config_t before, c;
	hyb_config_defaults( &c );
	CU_ASSERT_EQUAL_FATAL( set( &c, "HYBLAS_LOG_LEVEL", "2", HYB_SRC_FILE ), HYB_OK );
	before          = c;
	hyb_status_t st = set( &c, name, value, HYB_SRC_ENV );
	if ( st != want )
		fprintf( stderr, "\n    %s=\"%.40s\": got %d, want %d\n", name, value, (int)st, (int)want );
	CU_ASSERT_EQUAL( st, want );
	CU_ASSERT( memcmp( &before, &c, sizeof c ) == 0 );
}

static void expect_any_rejected( const char* name, const char* value )
{
	hyb_config_t before, c;
	hyb_config_defaults( &c );
	before          = c;
	hyb_status_t st = set( &c, name, value, HYB_SRC_ENV );
	if ( st == HYB_OK ) fprintf( stderr, "\n    %s=\"%.40s\" was accepted\n", name, value );
	CU_ASSERT( st == HYB_E_PARSE || st == HYB_E_INVALID );
	CU_ASSERT( memcmp( &before, &c, sizeof c ) == 0 );
}

/* ------------------------------------------------------------------ table */

static void test_table( void )
{
	CU_ASSERT_EQUAL( HYB_NTVARS, HYB_CFG_COUNT );
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		CU_ASSERT_EQUAL( v->idx, i );
		CU_ASSERT_STRING_EQUAL( hyb_config_var_name( i ), v->name );
		CU_ASSERT( strncmp( v->name, "HYBLAS_", 7 ) == 0 );
		CU_ASSERT( hyb_config_var_help( i ) != NULL && strlen( hyb_config_var_help( i ) ) > 10 );
		for ( int j = 0; j < i; j++ ) CU_ASSERT( strcmp( v->name, hyb_tvars[j].name ) != 0 );
	}
	CU_ASSERT_PTR_NULL( hyb_config_var_name( -1 ) );
	CU_ASSERT_PTR_NULL( hyb_config_var_name( HYB_CFG_COUNT ) );
	CU_ASSERT_PTR_NULL( hyb_config_var_help( HYB_CFG_COUNT ) );
	for ( int s = HYB_SRC_DEFAULT; s <= HYB_SRC_TEST; s++ )
	{
		CU_ASSERT( strlen( hyb_config_source_name( (hyb_cfg_source_t)s ) ) > 0 );
		for ( int t = HYB_SRC_DEFAULT; t < s; t++ )
			CU_ASSERT( strcmp( hyb_config_source_name( (hyb_cfg_source_t)s ),
			                   hyb_config_source_name( (hyb_cfg_source_t)t ) ) != 0 );
	}
}

/* Every default parses under its own type and range, with no warning. */
static void test_defaults( void )
{
	hyb_config_t c;
	hyb_t_log_begin( HYB_LOG_TRACE );
	hyb_config_defaults( &c );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		CU_ASSERT_EQUAL( c.source[i], HYB_SRC_DEFAULT );
		/* Setting the default text again gives the same value. memcpy, not
		   assignment: an assignment need not copy the padding that memcmp
		   compares (it does not under ASan). */
		hyb_config_t again;
		memcpy( &again, &c, sizeof c );
		CU_ASSERT_EQUAL( set( &again, v->name, v->def, HYB_SRC_FILE ), HYB_OK );
		again.source[i] = HYB_SRC_DEFAULT;
		CU_ASSERT( memcmp( &again, &c, sizeof c ) == 0 );
		if ( v->type == T_INT )
			CU_ASSERT( (double)field_int( &c, v ) >= v->min &&
			           (double)field_int( &c, v ) <= v->max );
		if ( v->type == T_DOUBLE )
			CU_ASSERT( field_double( &c, v ) >= v->min && field_double( &c, v ) <= v->max );
	}
	CU_ASSERT_EQUAL( c.mode, HYB_MODE_AUTO );
	CU_ASSERT( c.cpu_ratio_fixed < 0 );
	CU_ASSERT_EQUAL( c.n_routine_modes, 0 );
}

/* ------------------------------------------------------------------ types */

static void test_int( void )
{
	char buf[64];
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		if ( v->type != T_INT ) continue;
		hyb_config_t c;
		hyb_config_defaults( &c );
		snprintf( buf, sizeof buf, "%.0f", v->min );
		CU_ASSERT_EQUAL( set( &c, v->name, buf, HYB_SRC_ENV ), HYB_OK );
		CU_ASSERT_EQUAL( (double)field_int( &c, v ), v->min );
		CU_ASSERT_EQUAL( c.source[i], HYB_SRC_ENV );
		snprintf( buf, sizeof buf, "  %.0f\t", v->min ); /* spaces around are trimmed */
		CU_ASSERT_EQUAL( set( &c, v->name, buf, HYB_SRC_ENV ), HYB_OK );
		if ( v->max < 9e15 )
		{
			snprintf( buf, sizeof buf, "%.0f", v->max );
			CU_ASSERT_EQUAL( set( &c, v->name, buf, HYB_SRC_ENV ), HYB_OK );
			CU_ASSERT_EQUAL( (double)field_int( &c, v ), v->max );
			snprintf( buf, sizeof buf, "%.0f", v->max + 1 );
			expect_rejected( v->name, buf, HYB_E_INVALID );
		}
		snprintf( buf, sizeof buf, "%.0f", v->min - 1 );
		expect_rejected( v->name, buf, HYB_E_INVALID );
		static const char* bad[] = { "",    "abc", "12abc", "0x10",
			                         "1.5", "1e3", "5 5",   "99999999999999999999999",
			                         "--1", "1-" };
		for ( unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++ )
			expect_rejected( v->name, bad[b], HYB_E_PARSE );
	}
}

static void test_double( void )
{
	char buf[64];
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		if ( v->type != T_DOUBLE ) continue;
		hyb_config_t c;
		hyb_config_defaults( &c );
		snprintf( buf, sizeof buf, "%.17g", v->min );
		CU_ASSERT_EQUAL( set( &c, v->name, buf, HYB_SRC_ENV ), HYB_OK );
		CU_ASSERT_EQUAL( field_double( &c, v ), v->min );
		snprintf( buf, sizeof buf, "%.17g", v->max );
		CU_ASSERT_EQUAL( set( &c, v->name, buf, HYB_SRC_ENV ), HYB_OK );
		CU_ASSERT_EQUAL( field_double( &c, v ), v->max );
		double mid = v->min + ( v->max - v->min ) * 0.25;
		snprintf( buf, sizeof buf, "%.17g", mid );
		CU_ASSERT_EQUAL( set( &c, v->name, buf, HYB_SRC_ENV ), HYB_OK );
		CU_ASSERT_DOUBLE_EQUAL( field_double( &c, v ), mid, fabs( mid ) * 1e-15 );
		snprintf( buf, sizeof buf, "%.17g", v->max * 10 + 1 );
		expect_rejected( v->name, buf, HYB_E_INVALID );
		snprintf( buf, sizeof buf, "%.17g", v->min - 1 - fabs( v->min ) );
		expect_rejected( v->name, buf, HYB_E_INVALID );
		static const char* bad[] = { "",    "x",    "1.0x",  "1,5", "nan",
			                         "inf", "-inf", "1e999", "1e",  "..1" };
		for ( unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++ )
			expect_rejected( v->name, bad[b], HYB_E_PARSE );
	}
}

static void test_bool( void )
{
	static const char* yes[] = { "1", "yes", "on", "true", "TRUE", "Yes", " on " };
	static const char* no[]  = { "0", "no", "off", "false", "OFF", "False" };
	static const char* bad[] = { "2", "yess", "", "-1", "enable", "y", "1x" };
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		if ( v->type != T_BOOL ) continue;
		hyb_config_t c;
		hyb_config_defaults( &c );
		for ( unsigned k = 0; k < sizeof yes / sizeof yes[0]; k++ )
		{
			CU_ASSERT_EQUAL( set( &c, v->name, yes[k], HYB_SRC_ENV ), HYB_OK );
			CU_ASSERT_EQUAL( field_i( &c, v ), 1 );
			CU_ASSERT_EQUAL( set( &c, v->name, no[k % 6], HYB_SRC_ENV ), HYB_OK );
			CU_ASSERT_EQUAL( field_i( &c, v ), 0 );
		}
		for ( unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++ )
			expect_rejected( v->name, bad[b], HYB_E_PARSE );
	}
}

static void test_size( void )
{
	static const struct
	{
		const char* text;
		double      bytes;
		int         percent;
	} good[] = {
		{ "512M", 512.0 * 1048576, 0 },
		{ "512m", 512.0 * 1048576, 0 },
		{ "1G", 1073741824.0, 0 },
		{ "1.5G", 1.5 * 1073741824.0, 0 },
		{ "2GB", 2.0 * 1073741824.0, 0 },
		{ "2gb", 2.0 * 1073741824.0, 0 },
		{ "33554432", 33554432.0, 0 },
		{ "40960K", 40960.0 * 1024, 0 },
		{ "1T", 1099511627776.0, 0 },
		{ "50%", 50, 1 },
		{ "100%", 100, 1 },
		{ "0.5%", 0.5, 1 },
		{ " 90% ", 90, 1 },
	};
	static const char* bad_parse[] = { "0%",  "101%", "-1G",  "1Q",  "1KK", "%",  "",
		                               "1 G", "G",    "50%%", "5%B", "nan", "inf" };
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		if ( v->type != T_SIZE ) continue;
		for ( unsigned g = 0; g < sizeof good / sizeof good[0]; g++ )
		{
			if ( !good[g].percent && ( good[g].bytes < v->min || good[g].bytes > v->max ) )
				continue;
			hyb_config_t c;
			hyb_config_defaults( &c );
			CU_ASSERT_EQUAL( set( &c, v->name, good[g].text, HYB_SRC_ENV ), HYB_OK );
			hyb_cfg_size_t s = field_size( &c, v );
			CU_ASSERT_EQUAL( s.percent, good[g].percent );
			CU_ASSERT_DOUBLE_EQUAL( s.value, good[g].bytes, 1e-9 * good[g].bytes );
			/* Resolving against a whole. */
			double whole = 8e9;
			CU_ASSERT_DOUBLE_EQUAL( hyb_cfg_size_bytes( s, whole ),
			                        good[g].percent ? whole * good[g].bytes / 100 : good[g].bytes,
			                        1e-6 );
		}
		for ( unsigned b = 0; b < sizeof bad_parse / sizeof bad_parse[0]; b++ )
			expect_any_rejected( v->name, bad_parse[b] );
		/* Byte counts outside the range (percentages are the user's business). */
		char buf[64];
		snprintf( buf, sizeof buf, "%.0f", v->min - 1 );
		expect_rejected( v->name, buf, HYB_E_INVALID );
		snprintf( buf, sizeof buf, "%.0fK", v->max / 1024 * 2 + 1024 );
		expect_rejected( v->name, buf, HYB_E_INVALID );
	}
}

/* Enum choices are the help text before ':' split on '|'. */
static int enum_choices( const char* help, char out[][32], int cap )
{
	const char* end = strchr( help, ':' );
	int         n   = 0;
	const char* p   = help;
	while ( end && p < end && n < cap )
	{
		const char* bar = memchr( p, '|', (size_t)( end - p ) );
		size_t      len = (size_t)( ( bar ? bar : end ) - p );
		snprintf( out[n++], 32, "%.*s", (int)len, p );
		p += len + 1;
	}
	return n;
}

static void test_enum( void )
{
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		if ( v->type != T_ENUM ) continue;
		char ch[16][32];
		int  n = enum_choices( v->help, ch, 16 );
		CU_ASSERT( n >= 2 );
		int def_found = 0;
		for ( int k = 0; k < n; k++ )
		{
			hyb_config_t c;
			hyb_config_defaults( &c );
			if ( strcmp( ch[k], v->def ) == 0 )
			{
				def_found = 1;
				CU_ASSERT_EQUAL( field_i( &c, v ), k );
			}
			CU_ASSERT_EQUAL( set( &c, v->name, ch[k], HYB_SRC_ENV ), HYB_OK );
			CU_ASSERT_EQUAL( field_i( &c, v ), k );
			char up[32];
			for ( size_t q = 0; q <= strlen( ch[k] ); q++ )
				up[q] = (char)( ch[k][q] >= 'a' && ch[k][q] <= 'z' ? ch[k][q] - 32 : ch[k][q] );
			hyb_config_defaults( &c );
			CU_ASSERT_EQUAL( set( &c, v->name, up, HYB_SRC_ENV ), HYB_OK );
			CU_ASSERT_EQUAL( field_i( &c, v ), k );
			char longer[40], prefix[32];
			snprintf( longer, sizeof longer, "%s1", ch[k] );
			snprintf( prefix, sizeof prefix, "%.*s", (int)strlen( ch[k] ) - 1, ch[k] );
			expect_rejected( v->name, longer, HYB_E_INVALID );
			expect_rejected( v->name, prefix, HYB_E_INVALID );
		}
		CU_ASSERT( def_found );
		expect_rejected( v->name, "bogus", HYB_E_INVALID );
		expect_rejected( v->name, "", HYB_E_INVALID );
	}
}

static void test_string_path( void )
{
	static char text[4096];
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		if ( v->type != T_STRING && v->type != T_PATH ) continue;
		size_t       cap = v->type == T_PATH ? HYB_CFG_PATH_MAX : HYB_CFG_STRING_MAX;
		hyb_config_t c;
		hyb_config_defaults( &c );
		CU_ASSERT_EQUAL( set( &c, v->name, "  /some/where x  ", HYB_SRC_ENV ), HYB_OK );
		CU_ASSERT_STRING_EQUAL( field_str( &c, v ), "/some/where x" );
		/* The longest value that fits is kept whole; one more is refused, never
		   truncated (a truncated path names another file). */
		memset( text, 'a', cap - 1 );
		text[cap - 1] = '\0';
		CU_ASSERT_EQUAL( set( &c, v->name, text, HYB_SRC_ENV ), HYB_OK );
		CU_ASSERT_EQUAL( strlen( field_str( &c, v ) ), cap - 1 );
		int accepted = 0;
		for ( size_t extra = 1; extra <= 2048; extra *= 8 )
		{
			memset( text, 'b', cap - 1 + extra );
			text[cap - 1 + extra] = '\0';
			hyb_config_t before   = c;
			char         err[256];
			hyb_status_t st = hyb_config_set( &c, v->name, text, HYB_SRC_ENV, err, sizeof err );
			accepted += st != HYB_E_INVALID || memcmp( &before, &c, sizeof c ) != 0;
			c = before;
		}
		if ( accepted )
			fprintf( stderr, "\n    %s: a value over %zu characters was accepted (truncated)",
			         v->name, cap - 1 );
		CU_ASSERT_EQUAL( accepted, 0 );
	}
}

static void test_unknown_name_set( void )
{
	hyb_config_t c, before;
	hyb_config_defaults( &c );
	before                = c;
	char         err[256] = "";
	hyb_status_t st =
	    hyb_config_set( &c, "HYBLAS_NO_SUCH_THING", "1", HYB_SRC_ENV, err, sizeof err );
	CU_ASSERT_EQUAL( st, HYB_E_INVALID );
	CU_ASSERT( strstr( err, "HYBLAS_NO_SUCH_THING" ) != NULL );
	CU_ASSERT( memcmp( &c, &before, sizeof c ) == 0 );
}

/* ------------------------------------------------------------------ precedence */

static void test_precedence_matrix( void )
{
	for ( int s1 = HYB_SRC_DEFAULT; s1 <= HYB_SRC_TEST; s1++ )
		for ( int s2 = HYB_SRC_DEFAULT; s2 <= HYB_SRC_TEST; s2++ )
		{
			hyb_config_t c;
			hyb_config_defaults( &c );
			CU_ASSERT_EQUAL( set( &c, "HYBLAS_TILE", "100", (hyb_cfg_source_t)s1 ), HYB_OK );
			CU_ASSERT_EQUAL( set( &c, "HYBLAS_TILE", "200", (hyb_cfg_source_t)s2 ), HYB_OK );
			int later_wins = s2 >= s1;
			CU_ASSERT_EQUAL( c.tile, later_wins ? 200 : 100 );
			CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_tile], later_wins ? s2 : s1 );
		}
	/* A bad value from a higher source keeps the lower source's value. */
	hyb_config_t c;
	hyb_config_defaults( &c );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_TILE", "300", HYB_SRC_FILE ), HYB_OK );
	CU_ASSERT_NOT_EQUAL( set( &c, "HYBLAS_TILE", "3x0", HYB_SRC_ENV ), HYB_OK );
	CU_ASSERT_EQUAL( c.tile, 300 );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_tile], HYB_SRC_FILE );
}

/* The process order (profile, nvblas, file, environment) and the reverse
   give the same result: precedence is by source, not by order. */
static void apply_all( hyb_config_t* c, int reverse )
{
	static const char* profile =
	    "HYBLAS_TILE=11\nHYBLAS_LOG_LEVEL=2\nHYBLAS_COPY_THREADS=3\nh2d_pinned = 5e10\n";
	static const char* nvconf =
	    "NVBLAS_TILE_DIM 22\nNVBLAS_CPU_BLAS_LIB /nv/libblas.so\nNVBLAS_LOGFILE /nv/log\n";
	static const char* file  = "HYBLAS_TILE=33\nHYBLAS_CPU_LIB=/file/libblas.so\n";
	static char* const env[] = { "HYBLAS_TILE=44", "PATH=/bin", NULL };
	for ( int s = 0; s < 4; s++ )
	{
		switch ( reverse ? 3 - s : s )
		{
		case 0:
			hyb_config_apply_text( c, profile, HYB_SRC_PROFILE, "profile", 1 );
			break;
		case 1:
			hyb_config_apply_nvblas( c, nvconf, "nvblas.conf" );
			break;
		case 2:
			hyb_config_apply_text( c, file, HYB_SRC_FILE, "file", 0 );
			break;
		default:
			hyb_config_apply_env( c, env );
			break;
		}
	}
}

static void test_precedence_sources( void )
{
	for ( int reverse = 0; reverse < 2; reverse++ )
	{
		hyb_config_t c;
		hyb_config_defaults( &c );
		hyb_t_log_begin( HYB_LOG_WARN );
		apply_all( &c, reverse );
		hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
		CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
		CU_ASSERT_EQUAL( c.tile, 44 );
		CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_tile], HYB_SRC_ENV );
		CU_ASSERT_STRING_EQUAL( c.cpu_lib, "/file/libblas.so" );
		CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_cpu_lib], HYB_SRC_FILE );
		CU_ASSERT_STRING_EQUAL( c.log_file, "/nv/log" );
		CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_log_file], HYB_SRC_NVBLAS );
		CU_ASSERT_EQUAL( c.log_level, 2 );
		CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_log_level], HYB_SRC_PROFILE );
		CU_ASSERT_EQUAL( c.copy_threads, 3 );
	}
}

/* ------------------------------------------------------------------ text and env */

static void test_apply_text( void )
{
	hyb_config_t c;
	hyb_config_defaults( &c );
	const char* text = "# a comment\n"
	                   "\n"
	                   "   HYBLAS_TILE = 128   # trailing comment\r\n"
	                   "HYBLAS_MODE=gpu\n"
	                   "this line has no equals sign\n"
	                   "OTHER_NAME=1\n"
	                   "HYBLAS_TILEE=64\n"
	                   "HYBLAS_LOG_LEVEL=9\n"
	                   "HYBLAS_REPORT=yes"; /* no final newline */
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_text( &c, text, HYB_SRC_FILE, "my.conf", 0 );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_EQUAL( c.tile, 128 );
	CU_ASSERT_EQUAL( c.mode, HYB_MODE_GPU );
	CU_ASSERT_EQUAL( c.report, 1 );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_tile], HYB_SRC_FILE );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_log_level], HYB_SRC_DEFAULT );
	/* One warning per bad line, naming the file and the line. */
	CU_ASSERT( strstr( hyb_log_buf, "my.conf:5" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "my.conf:6" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "OTHER_NAME" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "my.conf:7" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "did you mean HYBLAS_TILE?" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "my.conf:8" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "HYBLAS_LOG_LEVEL" ) != NULL );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "\n" ), 4 );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "my.conf:3" ) +
	                     hyb_t_count( hyb_log_buf, "my.conf:4" ) +
	                     hyb_t_count( hyb_log_buf, "my.conf:9" ),
	                 0 );

	/* A profile: other names are machine parameters, silently skipped. */
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_text( &c, "h2d_pinned = 5e10\nHYBLAS_TILE=64\n", HYB_SRC_PROFILE, "profile",
	                       1 );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
	CU_ASSERT_EQUAL( c.tile, 64 );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_tile], HYB_SRC_PROFILE );

	/* Empty and NULL texts are harmless. */
	hyb_config_apply_text( &c, "", HYB_SRC_FILE, "empty", 0 );
	hyb_config_apply_text( &c, NULL, HYB_SRC_FILE, "null", 0 );
	CU_ASSERT_EQUAL( c.tile, 64 );
}

static void test_apply_env( void )
{
	char*        env[] = { "HYBLAS_MODEE=gpu",         /* typo: warned with the closest name */
		                   "HYBLAS_XYZZY_PLUGH_FOO=1", /* nothing close: warned with a hint to list them */
		                   "HYBLAS_TILE=abc",          /* bad value: warned, default kept */
		                   "HYBLAS_COPY_THREADS=4", /* good */
		                   "HOME=/root",            /* not ours */
		                   "HYBLAS_NOEQUALS",       /* malformed entry: ignored */
		                   "NOT_HYBLAS_MODE=cpu",
		                   NULL };
	hyb_config_t c;
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_env( &c, env );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_EQUAL( c.copy_threads, 4 );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_copy_threads], HYB_SRC_ENV );
	CU_ASSERT_EQUAL( c.tile, 0 );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_tile], HYB_SRC_DEFAULT );
	CU_ASSERT_EQUAL( c.mode, HYB_MODE_AUTO );
	CU_ASSERT( strstr( hyb_log_buf, "HYBLAS_MODEE" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "did you mean HYBLAS_MODE?" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "HYBLAS_XYZZY_PLUGH_FOO" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "HYBLAS_PRINT_CONFIG" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "HYBLAS_TILE" ) != NULL );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "\n" ), 3 );
	CU_ASSERT_EQUAL(
	    hyb_t_count( hyb_log_buf, "NOEQUALS" ) + hyb_t_count( hyb_log_buf, "NOT_HYBLAS" ), 0 );

	/* Silent at level 0, still applied. */
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_SILENT );
	hyb_config_apply_env( &c, env );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
	CU_ASSERT_EQUAL( c.copy_threads, 4 );
	hyb_config_apply_env( &c, NULL );
}

/* Levenshtein distance (an independent copy, to know which hint is due). */
static size_t edit_distance( const char* a, const char* b )
{
	size_t la = strlen( a ), lb = strlen( b ), d[80][80];
	for ( size_t i = 0; i <= la; i++ ) d[i][0] = i;
	for ( size_t j = 0; j <= lb; j++ ) d[0][j] = j;
	for ( size_t i = 1; i <= la; i++ )
		for ( size_t j = 1; j <= lb; j++ )
		{
			size_t best = d[i - 1][j - 1] + ( a[i - 1] != b[j - 1] );
			if ( d[i - 1][j] + 1 < best ) best = d[i - 1][j] + 1;
			if ( d[i][j - 1] + 1 < best ) best = d[i][j - 1] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* Every near miss of every name (one letter dropped, one changed) gets the
   hint of the name it is closest to, when that name is the only closest. */
static void test_did_you_mean_every_name( void )
{
	int checked = 0;
	for ( int i = 0; i < HYB_NTVARS; i++ )
		for ( int kind = 0; kind < 2; kind++ )
		{
			char        typo[96], env0[128], want[128];
			const char* name = hyb_tvars[i].name;
			size_t      len  = strlen( name );
			size_t      cut  = 7 + ( len - 7 ) / 2;
			if ( kind == 0 )
				snprintf( typo, sizeof typo, "%.*s%s", (int)cut, name, name + cut + 1 );
			else
			{
				snprintf( typo, sizeof typo, "%s", name );
				typo[cut] = typo[cut] == 'Q' ? 'X' : 'Q';
			}
			int unique = 1;
			for ( int j = 0; j < HYB_NTVARS; j++ )
				if ( j != i && edit_distance( typo, hyb_tvars[j].name ) <= 1 ) unique = 0;
			if ( !unique ) continue;
			snprintf( env0, sizeof env0, "%s=1", typo );
			char*        env[] = { env0, NULL };
			hyb_config_t c;
			hyb_config_defaults( &c );
			hyb_t_log_begin( HYB_LOG_WARN );
			hyb_config_apply_env( &c, env );
			hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
			snprintf( want, sizeof want, "did you mean %s?", name );
			if ( strstr( hyb_log_buf, want ) == NULL )
				fprintf( stderr, "\n    %s: %s", typo, hyb_log_buf );
			CU_ASSERT( strstr( hyb_log_buf, want ) != NULL );
			checked++;
		}
	CU_ASSERT( checked >= HYB_NTVARS );
}

/* ------------------------------------------------------------------ derived */

static hyb_config_t finished( const char* name, const char* value, char* log, size_t cap )
{
	hyb_config_t c;
	hyb_config_defaults( &c );
	if ( name ) CU_ASSERT_EQUAL( set( &c, name, value, HYB_SRC_ENV ), HYB_OK );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_finish( &c );
	hyb_t_log_end( log, cap );
	return c;
}

static void test_routine_mode( void )
{
	hyb_config_t c =
	    finished( "HYBLAS_ROUTINE_MODE", "dgemm=gpu,gemm=cpu,TRSM=GPU, zherk=auto ,strmm_=cpu",
	              hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_D ),
	                 HYB_MODE_GPU ); /* routine beats family */
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_S ), HYB_MODE_CPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_Z ), HYB_MODE_CPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_TRSM, HYB_PREC_C ), HYB_MODE_GPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_HERK, HYB_PREC_Z ), HYB_MODE_AUTO );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_SYMM, HYB_PREC_D ),
	                 HYB_MODE_AUTO ); /* HYBLAS_MODE */

	/* The order of entries does not matter. */
	hyb_config_t r =
	    finished( "HYBLAS_ROUTINE_MODE", "gemm=cpu,dgemm=gpu", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &r, HYB_OP_GEMM, HYB_PREC_D ), HYB_MODE_GPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &r, HYB_OP_GEMM, HYB_PREC_C ), HYB_MODE_CPU );

	/* HYBLAS_MODE applies to everything not named. */
	hyb_config_defaults( &c );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_MODE", "cpu", HYB_SRC_ENV ), HYB_OK );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_ROUTINE_MODE", "syrk=gpu", HYB_SRC_ENV ), HYB_OK );
	hyb_config_finish( &c );
	for ( int op = HYB_OP_GEMM; op <= HYB_OP_TRMM; op++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
			CU_ASSERT_EQUAL( hyb_config_mode_for( &c, (hyb_op_t)op, (hyb_prec_t)p ),
			                 op == HYB_OP_SYRK ? HYB_MODE_GPU : HYB_MODE_CPU );
}

/* Property: for random sets of entries (each key at most once), the mode is
   the routine entry's, else the family entry's, else HYBLAS_MODE. */
static void test_routine_mode_random( void )
{
	static const char* ops[]   = { "gemm",  "symm",  "hemm", "syrk", "herk",
		                           "syr2k", "her2k", "trsm", "trmm" };
	static const char* modes[] = { "auto", "cpu", "gpu" };
	hyb_t_rng_t        rng     = hyb_t_rng( 17 );
	for ( int iter = 0; iter < 200; iter++ )
	{
		int  fam[9], rout[9][4], global = (int)hyb_t_int( &rng, 0, 2 );
		char text[HYB_CFG_STRING_MAX] = "";
		for ( int o = 0; o < 9; o++ )
		{
			fam[o] = hyb_t_int( &rng, 0, 3 ) == 0 ? (int)hyb_t_int( &rng, 0, 2 ) : -1;
			if ( fam[o] >= 0 && strlen( text ) < 400 )
				snprintf( text + strlen( text ), sizeof text - strlen( text ), "%s%s=%s",
				          text[0] ? "," : "", ops[o], modes[fam[o]] );
			else
				fam[o] = -1;
			for ( int p = 0; p < 4; p++ )
			{
				rout[o][p] = hyb_t_int( &rng, 0, 5 ) == 0 ? (int)hyb_t_int( &rng, 0, 2 ) : -1;
				if ( rout[o][p] >= 0 && strlen( text ) < 400 )
					snprintf( text + strlen( text ), sizeof text - strlen( text ), "%s%c%s=%s",
					          text[0] ? "," : "", "sdcz"[p], ops[o], modes[rout[o][p]] );
				else
					rout[o][p] = -1;
			}
		}
		hyb_config_t c;
		hyb_config_defaults( &c );
		CU_ASSERT_EQUAL( set( &c, "HYBLAS_MODE", modes[global], HYB_SRC_ENV ), HYB_OK );
		CU_ASSERT_EQUAL( set( &c, "HYBLAS_ROUTINE_MODE", text, HYB_SRC_ENV ), HYB_OK );
		hyb_config_finish( &c );
		for ( int o = 0; o < 9; o++ )
			for ( int p = 0; p < 4; p++ )
			{
				int want = rout[o][p] >= 0 ? rout[o][p] : fam[o] >= 0 ? fam[o] : global;
				CU_ASSERT_EQUAL( (int)hyb_config_mode_for( &c, (hyb_op_t)o, (hyb_prec_t)p ), want );
			}
	}
}

/* An entry naming an exact exported symbol beats the routine name, which
   beats the family, which beats HYBLAS_MODE. */
static void test_routine_mode_symbols( void )
{
	hyb_config_t c =
	    finished( "HYBLAS_ROUTINE_MODE", "cblas_dgemm=gpu,dgemm=cpu,gemm=auto,dgemm_=auto",
	              hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
	CU_ASSERT_EQUAL( hyb_config_mode_for_call( &c, "cblas_dgemm", HYB_OP_GEMM, HYB_PREC_D ),
	                 HYB_MODE_GPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for_call( &c, "dgemm_", HYB_OP_GEMM, HYB_PREC_D ),
	                 HYB_MODE_AUTO );
	CU_ASSERT_EQUAL( hyb_config_mode_for_call( &c, "dgemm", HYB_OP_GEMM, HYB_PREC_D ),
	                 HYB_MODE_CPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for_call( &c, "scipy_dgemm_", HYB_OP_GEMM, HYB_PREC_D ),
	                 HYB_MODE_CPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for_call( &c, "cblas_sgemm", HYB_OP_GEMM, HYB_PREC_S ),
	                 HYB_MODE_AUTO );
	CU_ASSERT_EQUAL( hyb_config_mode_for_call( &c, NULL, HYB_OP_GEMM, HYB_PREC_D ), HYB_MODE_CPU );
	/* A symbol entry never acts as a routine or family entry. */
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_D ), HYB_MODE_CPU );
}

static void test_routine_mode_bad_entries( void )
{
	static const char* bad[] = { "dgemm",   "dgemm=fast", "xgemm=gpu", "=gpu",
		                         "foo=cpu", "gemm==gpu",  "dgemmm=cpu" };
	for ( unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++ )
	{
		char text[128];
		snprintf( text, sizeof text, "trsm=gpu,%s,,syrk=cpu", bad[b] );
		hyb_config_t c = finished( "HYBLAS_ROUTINE_MODE", text, hyb_log_buf, sizeof hyb_log_buf );
		/* The bad entry is warned about once and ignored; the others apply. */
		CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "HYBLAS_ROUTINE_MODE" ), 1 );
		CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_TRSM, HYB_PREC_D ), HYB_MODE_GPU );
		CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_SYRK, HYB_PREC_S ), HYB_MODE_CPU );
		CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_D ), HYB_MODE_AUTO );
		CU_ASSERT_EQUAL( hyb_config_mode_for_call( &c, "dgemm_", HYB_OP_GEMM, HYB_PREC_D ),
		                 HYB_MODE_AUTO );
	}
	/* An empty name first in the list (nothing before it to read). */
	hyb_config_t c =
	    finished( "HYBLAS_ROUTINE_MODE", "=gpu,trsm=gpu", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "HYBLAS_ROUTINE_MODE" ), 1 );
	CU_ASSERT_EQUAL( c.n_routine_modes, 1 );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_TRSM, HYB_PREC_D ), HYB_MODE_GPU );
}

static void test_cpu_ratio( void )
{
	static const struct
	{
		const char* text;
		double      want;
	} good[] = { { "auto", -1 }, { "AUTO", -1 },   { "0", 0 },
		         { "0.3", 0.3 }, { "0.95", 0.95 }, { " 0.5 ", 0.5 } };
	for ( unsigned g = 0; g < sizeof good / sizeof good[0]; g++ )
	{
		hyb_config_t c =
		    finished( "HYBLAS_CPU_RATIO", good[g].text, hyb_log_buf, sizeof hyb_log_buf );
		CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
		CU_ASSERT_DOUBLE_EQUAL( c.cpu_ratio_fixed, good[g].want, 1e-15 );
	}
	static const char* bad[] = { "0.96", "1", "-0.1", "abc", "0.5x", "50%", "nan" };
	for ( unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++ )
	{
		hyb_config_t c = finished( "HYBLAS_CPU_RATIO", bad[b], hyb_log_buf, sizeof hyb_log_buf );
		CU_ASSERT( c.cpu_ratio_fixed < 0 );
		CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "HYBLAS_CPU_RATIO" ), 1 );
	}
}

static void test_gpus( void )
{
	hyb_config_t c = finished( NULL, NULL, hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( c.gpus_auto && !c.gpus_all && c.gpus_count == 0 && c.n_gpu_list == 0 );
	c = finished( "HYBLAS_GPUS", "AUTO", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( c.gpus_auto && !c.gpus_all );
	c = finished( "HYBLAS_GPUS", "all", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( c.gpus_all && !c.gpus_auto && c.n_gpu_list == 0 );
	c = finished( "HYBLAS_GPUS", "3", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( !c.gpus_auto && !c.gpus_all && c.gpus_count == 3 && c.n_gpu_list == 0 );
	c = finished( "HYBLAS_GPUS", "0,2", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( c.gpus_count == 0 && c.n_gpu_list == 2 && c.gpu_list[0] == 0 && c.gpu_list[1] == 2 );
	c = finished( "HYBLAS_GPUS", "3,", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( c.n_gpu_list == 1 && c.gpu_list[0] == 3 );
	c = finished( "HYBLAS_GPUS", " 1 , 3 ", hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( c.n_gpu_list == 2 && c.gpu_list[0] == 1 && c.gpu_list[1] == 3 );
	CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
	static const char* bad[] = { "0", "a", "1,b", "-1", "1024", "2x", "1,,-3" };
	for ( unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++ )
	{
		c = finished( "HYBLAS_GPUS", bad[b], hyb_log_buf, sizeof hyb_log_buf );
		CU_ASSERT( c.gpus_auto && !c.gpus_all && c.gpus_count == 0 && c.n_gpu_list == 0 );
		CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "HYBLAS_GPUS" ), 1 );
	}
}

/* ------------------------------------------------------------------ nvblas.conf */

static void test_nvblas_keywords( void )
{
	const char*  conf = "# NVBLAS configuration\n"
	                    "NVBLAS_LOGFILE  /tmp/nvblas.log\n"
	                    "NVBLAS_CPU_BLAS_LIB\t/opt/lib/libopenblas.so\n"
	                    "NVBLAS_GPU_LIST 0 1\n"
	                    "NVBLAS_TILE_DIM 2048\n"
	                    "NVBLAS_AUTOPIN_MEM_ENABLED\n"
	                    "NVBLAS_TRACE_LOG_ENABLED\n"
	                    "NVBLAS_GPU_DISABLED_DGEMM\n"
	                    "NVBLAS_GPU_DISABLED_ZTRSM\n"
	                    "NVBLAS_CPU_RATIO_DGEMM 0.1\n";
	hyb_config_t c;
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_nvblas( &c, conf, "nvblas.conf" );
	hyb_config_finish( &c );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( hyb_log_buf, "" );
	CU_ASSERT_STRING_EQUAL( c.log_file, "/tmp/nvblas.log" );
	CU_ASSERT_STRING_EQUAL( c.cpu_lib, "/opt/lib/libopenblas.so" );
	CU_ASSERT_EQUAL( c.tile, 2048 );
	CU_ASSERT( c.n_gpu_list == 2 && c.gpu_list[0] == 0 && c.gpu_list[1] == 1 );
	CU_ASSERT_STRING_EQUAL( c.trace, "/tmp/nvblas.log" ); /* NVBLAS traces into its log file */
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_D ), HYB_MODE_CPU );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_S ), HYB_MODE_AUTO );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_TRSM, HYB_PREC_Z ), HYB_MODE_CPU );
	CU_ASSERT_DOUBLE_EQUAL( c.cpu_ratio_fixed, 0.1, 1e-15 );
	static const int idx[] = { HYB_CFG_IDX_log_file, HYB_CFG_IDX_cpu_lib, HYB_CFG_IDX_tile,
		                       HYB_CFG_IDX_gpus,     HYB_CFG_IDX_trace,   HYB_CFG_IDX_routine_mode,
		                       HYB_CFG_IDX_cpu_ratio };
	for ( unsigned i = 0; i < sizeof idx / sizeof idx[0]; i++ )
		CU_ASSERT_EQUAL( c.source[idx[i]], HYB_SRC_NVBLAS );

	/* "ALL" and "ALL0" select every device; tracing without a log file goes to stderr. */
	hyb_config_defaults( &c );
	hyb_config_apply_nvblas( &c, "NVBLAS_GPU_LIST ALL0\nNVBLAS_TRACE_LOG_ENABLED\n", "n" );
	hyb_config_finish( &c );
	CU_ASSERT( c.gpus_all );
	CU_ASSERT( strlen( c.trace ) > 0 );
	hyb_config_defaults( &c );
	hyb_config_apply_nvblas( &c, "NVBLAS_GPU_LIST ALL\n", "n" );
	hyb_config_finish( &c );
	CU_ASSERT( c.gpus_all );

	/* Unknown keywords and bad values warn with the line. */
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_nvblas( &c, "NVBLAS_FROBNICATE 1\nNVBLAS_TILE_DIM huge\n", "x.conf" );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT( strstr( hyb_log_buf, "x.conf:1" ) != NULL &&
	           strstr( hyb_log_buf, "NVBLAS_FROBNICATE" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "x.conf:2" ) != NULL );
	CU_ASSERT_EQUAL( c.tile, 0 );
}

/* NVBLAS_GPU_LIST names devices: a single number is device N, not N devices. */
static void test_nvblas_single_gpu( void )
{
	hyb_config_t c;
	hyb_config_defaults( &c );
	hyb_config_apply_nvblas( &c, "NVBLAS_GPU_LIST 2\n", "nvblas.conf" );
	hyb_config_finish( &c );
	CU_ASSERT_EQUAL( c.gpus_count, 0 );
	CU_ASSERT_EQUAL( c.n_gpu_list, 1 );
	CU_ASSERT_EQUAL( c.gpu_list[0], 2 );
}

/* nvblas.conf is below the config file and the environment whatever the
   order of application. */
static void test_nvblas_precedence( void )
{
	hyb_config_t c;
	hyb_config_defaults( &c );
	char* env[] = {
		"HYBLAS_TILE=512",      "HYBLAS_GPUS=1,",          "HYBLAS_ROUTINE_MODE=dgemm=gpu",
		"HYBLAS_CPU_RATIO=0.2", "HYBLAS_TRACE=/env/trace", NULL
	};
	hyb_config_apply_env( &c, env );
	hyb_config_apply_nvblas(
	    &c,
	    "NVBLAS_TILE_DIM 1024\nNVBLAS_GPU_LIST 0 3\nNVBLAS_GPU_DISABLED_DGEMM\n"
	    "NVBLAS_CPU_RATIO_DGEMM 0.5\nNVBLAS_TRACE_LOG_ENABLED\nNVBLAS_LOGFILE /nv.log\n",
	    "nvblas.conf" );
	hyb_config_finish( &c );
	CU_ASSERT_EQUAL( c.tile, 512 );
	CU_ASSERT( c.n_gpu_list == 1 && c.gpu_list[0] == 1 );
	CU_ASSERT_DOUBLE_EQUAL( c.cpu_ratio_fixed, 0.2, 1e-15 );
	CU_ASSERT_STRING_EQUAL( c.trace, "/env/trace" );
	CU_ASSERT_STRING_EQUAL( c.routine_mode, "dgemm=gpu" );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_routine_mode], HYB_SRC_ENV );
	CU_ASSERT_EQUAL( hyb_config_mode_for( &c, HYB_OP_GEMM, HYB_PREC_D ), HYB_MODE_GPU );
}

/* ------------------------------------------------------------------ print */

static void test_print( void )
{
	hyb_config_t c;
	hyb_config_defaults( &c );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_TILE", "96", HYB_SRC_ENV ), HYB_OK );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_MODE", "gpu", HYB_SRC_FILE ), HYB_OK );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_SIM_MEM", "50%", HYB_SRC_PROFILE ), HYB_OK );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_CPU_LIB", "/x/libblas.so", HYB_SRC_NVBLAS ), HYB_OK );
	hyb_config_finish( &c );
	char path[] = "/tmp/hyb_unit_printXXXXXX";
	int  fd     = mkstemp( path );
	CU_ASSERT_FATAL( fd >= 0 );
	unlink( path );
	hyb_config_print( &c, fd );
	lseek( fd, 0, SEEK_SET );
	ssize_t n = read( fd, hyb_log_buf, sizeof hyb_log_buf - 1 );
	close( fd );
	CU_ASSERT_FATAL( n > 0 );
	hyb_log_buf[n] = '\0';
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "\n" ), HYB_CFG_COUNT );
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		/* Each name on exactly one line, with its value's source. */
		char key[80];
		snprintf( key, sizeof key, "%s ", hyb_tvars[i].name );
		CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, key ), 1 );
		const char* line = strstr( hyb_log_buf, key );
		if ( line == NULL ) continue;
		const char* eol = strchr( line, '\n' );
		char        want[64];
		snprintf( want, sizeof want, "(%s)", hyb_config_source_name( c.source[i] ) );
		const char* src = strstr( line, want );
		CU_ASSERT( src != NULL && src < eol );
	}
	CU_ASSERT( strstr( hyb_log_buf, "96" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "50%" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "/x/libblas.so" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "(environment)" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "(config file)" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "(profile)" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "(nvblas.conf)" ) != NULL );
	/* The enum prints its choice's name. */
	const char* mode = strstr( hyb_log_buf, "HYBLAS_MODE " );
	CU_ASSERT( mode != NULL && strstr( mode, "gpu" ) != NULL &&
	           strstr( mode, "gpu" ) < strchr( mode, '\n' ) );
}

static void test_install_for_test( void )
{
	hyb_config_t c;
	hyb_config_defaults( &c );
	CU_ASSERT_EQUAL( set( &c, "HYBLAS_TILE", "77", HYB_SRC_TEST ), HYB_OK );
	hyb_config_install_for_test( &c );
	CU_ASSERT_PTR_EQUAL( hyb_config(), &c );
	CU_ASSERT_EQUAL( hyb_config()->tile, 77 );
	hyb_config_install_for_test( NULL );
	CU_ASSERT_PTR_NOT_EQUAL( hyb_config(), &c );
	CU_ASSERT_PTR_EQUAL( hyb_config(), hyb_config() ); /* one process configuration */
}

/* ------------------------------------------------------------------ files and secure execution */

/* A line longer than the reader's buffer is refused whole: cut short, a path
   would name another file. Padding makes the line long while the value
   itself would fit. */
static void test_overlong_line( void )
{
	static char text[4096];
	static char value[1200];
	int         w = snprintf( value, sizeof value, "/tmp/hyb_overlong_" );
	memset( value + w, 'a', 900 );
	snprintf( value + w + 900, sizeof value - (size_t)w - 900, "/trace" );
	int n = snprintf( text, sizeof text, "HYBLAS_TRACE=%*s%s\nHYBLAS_TILE=64\n", 300, "", value );
	CU_ASSERT_FATAL( n > 1200 && n < (int)sizeof text );
	hyb_config_t c;
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_text( &c, text, HYB_SRC_FILE, "long.conf", 0 );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( c.trace, "" );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_trace], HYB_SRC_DEFAULT );
	CU_ASSERT_EQUAL( c.tile, 64 ); /* the next line is read as usual */
	CU_ASSERT( strstr( hyb_log_buf, "long.conf:1" ) != NULL &&
	           strstr( hyb_log_buf, "longer than" ) != NULL );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "\n" ), 1 );

	/* The same in an nvblas.conf. */
	n = snprintf( text, sizeof text, "NVBLAS_LOGFILE %*s%s\nNVBLAS_TILE_DIM 128\n", 300, "",
	              value );
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_nvblas( &c, text, "nvblas.conf" );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_STRING_EQUAL( c.log_file, "" );
	CU_ASSERT_EQUAL( c.tile, 128 );
	CU_ASSERT( strstr( hyb_log_buf, "nvblas.conf:1" ) != NULL &&
	           strstr( hyb_log_buf, "longer than" ) != NULL );
}

/* A profile is measured data, often in a shared cache directory: it cannot
   name a library to load or a file to write. */
static void test_profile_cannot_name_files( void )
{
	hyb_config_t c;
	hyb_config_defaults( &c );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_apply_text(
	    &c,
	    "HYBLAS_CPU_LIB=/tmp/evil.so\nHYBLAS_PLUGIN=/tmp/evil_cuda.so\n"
	    "HYBLAS_TRACE=/tmp/t\nHYBLAS_LOG_FILE=/tmp/l\nHYBLAS_CONFIG_FILE=/tmp/c\n"
	    "HYBLAS_PROFILE=/tmp/p\nHYBLAS_TILE=64\nh2d_pinned = 5e10\n",
	    HYB_SRC_PROFILE, "profile", 1 );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	for ( int i = 0; i < HYB_NTVARS; i++ )
		if ( hyb_tvars[i].type == T_PATH )
		{
			CU_ASSERT_STRING_EQUAL( field_str( &c, &hyb_tvars[i] ), "" );
			CU_ASSERT_EQUAL( c.source[hyb_tvars[i].idx], HYB_SRC_DEFAULT );
		}
	CU_ASSERT_EQUAL( c.tile, 64 );
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "a profile cannot set" ), 6 );
	/* The same lines in a configuration file the user named are honoured. */
	hyb_config_apply_text( &c, "HYBLAS_CPU_LIB=/opt/blas/libblas.so\n", HYB_SRC_FILE, "file", 0 );
	CU_ASSERT_STRING_EQUAL( c.cpu_lib, "/opt/blas/libblas.so" );
}

static char tc_dir[256];

static void tc_put( const char* name, const char* text, char* path, size_t cap )
{
	snprintf( path, cap, "%s/%s", tc_dir, name );
	FILE* f = fopen( path, "w" );
	CU_ASSERT_FATAL( f != NULL );
	fputs( text, f );
	fclose( f );
}

/* Under secure execution (a setuid or setgid program) nothing of the
   environment and no file is used: the defaults, no device, and one warning
   that echoes nothing of the files. The same environment without it is
   honoured, so the variables below are effective ones. */
static void test_load_secure( void )
{
	snprintf( tc_dir, sizeof tc_dir, "/tmp/hyb_test_cfgload_XXXXXX" );
	CU_ASSERT_FATAL( mkdtemp( tc_dir ) != NULL );
	char conf[400], prof[400], nv[400], cache[400], e[8][600];
	tc_put( "hyblas.conf", "HYBLAS_MODE=gpu\nroot:SECRET-LINE:19000:0:99999:7:::\n", conf,
	        sizeof conf );
	tc_put( "profile", "HYBLAS_TILE=77\nh2d_pinned = 5e10\n", prof, sizeof prof );
	tc_put( "nvblas.conf", "NVBLAS_TILE_DIM 96\nSECRET-NV-LINE\n", nv, sizeof nv );
	snprintf( cache, sizeof cache, "%s/cache", tc_dir );
	snprintf( e[0], sizeof e[0], "HYBLAS_CONFIG_FILE=%s", conf );
	snprintf( e[1], sizeof e[1], "HYBLAS_PROFILE=%s", prof );
	snprintf( e[2], sizeof e[2], "NVBLAS_CONFIG_FILE=%s", nv );
	snprintf( e[3], sizeof e[3], "HYBLAS_CPU_LIB=%s/evil.so", tc_dir );
	snprintf( e[4], sizeof e[4], "HYBLAS_PLUGIN=%s/evil_cuda.so", tc_dir );
	snprintf( e[5], sizeof e[5], "HYBLAS_LOG_FILE=%s/log", tc_dir );
	snprintf( e[6], sizeof e[6], "HYBLAS_TRACE=%s/trace", tc_dir );
	snprintf( e[7], sizeof e[7], "XDG_CACHE_HOME=%s", cache );
	char* env[] = {
		e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], "HYBLAS_DEVICE=sim", "HYBLAS_LOG_LEVEL=3",
		NULL
	};

	hyb_config_t c, d;
	hyb_config_defaults( &d );
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_load( &c, env, HYB_CFG_LOAD_SECURE );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	for ( int i = 0; i < HYB_NTVARS; i++ )
	{
		const hyb_tvar_t* v = &hyb_tvars[i];
		if ( v->idx == HYB_CFG_IDX_device ) continue;
		CU_ASSERT_EQUAL( c.source[v->idx], HYB_SRC_DEFAULT );
		if ( v->type == T_PATH || v->type == T_STRING )
			CU_ASSERT_STRING_EQUAL( field_str( &c, v ), field_str( &d, v ) );
	}
	CU_ASSERT_EQUAL( c.device, HYB_DEVICE_NONE );
	CU_ASSERT_EQUAL( c.source[HYB_CFG_IDX_device], HYB_SRC_SECURE );
	CU_ASSERT_EQUAL( c.tile, d.tile );
	CU_ASSERT_EQUAL( c.mode, d.mode );
	CU_ASSERT_STRING_EQUAL( c.profile, "" ); /* no default profile path either */
	CU_ASSERT_EQUAL( hyb_t_count( hyb_log_buf, "\n" ), 1 );
	CU_ASSERT( strstr( hyb_log_buf, "setuid" ) != NULL );
	CU_ASSERT( strstr( hyb_log_buf, "SECRET" ) == NULL );

	/* Control: the same environment, not secure. */
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_load( &c, env, 0 );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	CU_ASSERT_EQUAL( c.mode, HYB_MODE_GPU );
	CU_ASSERT_EQUAL( c.tile, 96 ); /* nvblas.conf over the profile */
	CU_ASSERT_EQUAL( c.device, HYB_DEVICE_SIM );
	CU_ASSERT( strstr( c.cpu_lib, "evil.so" ) != NULL );
	CU_ASSERT_STRING_EQUAL( c.profile, prof );
	CU_ASSERT_EQUAL( access( e[5] + 16, F_OK ), -1 ); /* loading opens no log file */
	CU_ASSERT_EQUAL( hyb_log_level(), HYB_LOG_WARN ); /* nor changes the log without SET_LOG */

	/* Without HYBLAS_PROFILE the default path comes from XDG_CACHE_HOME. */
	char* env2[] = { e[7], NULL };
	hyb_config_load( &c, env2, 0 );
	char want[500];
	snprintf( want, sizeof want, "%s/hyblas/profile", cache );
	CU_ASSERT_STRING_EQUAL( c.profile, want );
}

/* FIFOs named as configuration, profile and nvblas.conf: loading neither
   blocks nor reads them, and says so. */
static int tc_fifo_child( void* arg )
{
	(void)arg;
	char f[400], e[3][500];
	snprintf( f, sizeof f, "%s/fifo", tc_dir );
	snprintf( e[0], sizeof e[0], "HYBLAS_CONFIG_FILE=%s", f );
	snprintf( e[1], sizeof e[1], "HYBLAS_PROFILE=%s", f );
	snprintf( e[2], sizeof e[2], "NVBLAS_CONFIG_FILE=%s", f );
	char*        env[] = { e[0], e[1], e[2], NULL };
	hyb_config_t c;
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_config_load( &c, env, 0 );
	hyb_t_log_end( hyb_log_buf, sizeof hyb_log_buf );
	return hyb_t_count( hyb_log_buf, "FIFO" ) == 3 ? 0 : 1;
}

static void test_load_fifo( void )
{
	char f[400];
	snprintf( f, sizeof f, "%s/fifo", tc_dir );
	unlink( f );
	CU_ASSERT_FATAL( mkfifo( f, 0600 ) == 0 );
	CU_ASSERT_EQUAL( hyb_t_isolated( "configuration from FIFOs", tc_fifo_child, NULL, 10 ), 0 );
	char cmd[400];
	snprintf( cmd, sizeof cmd, "rm -rf '%s'", tc_dir );
	CU_ASSERT_EQUAL( system( cmd ), 0 );
}

static CU_TestInfo hyb_tests_config[] = {
	{ "table", test_table },
	{ "defaults", test_defaults },
	{ "int", test_int },
	{ "double", test_double },
	{ "bool", test_bool },
	{ "size", test_size },
	{ "enum", test_enum },
	{ "string_path", test_string_path },
	{ "unknown_name_set", test_unknown_name_set },
	{ "precedence_matrix", test_precedence_matrix },
	{ "precedence_sources", test_precedence_sources },
	{ "apply_text", test_apply_text },
	{ "apply_env", test_apply_env },
	{ "did_you_mean_every_name", test_did_you_mean_every_name },
	{ "routine_mode", test_routine_mode },
	{ "routine_mode_random", test_routine_mode_random },
	{ "routine_mode_symbols", test_routine_mode_symbols },
	{ "routine_mode_bad_entries", test_routine_mode_bad_entries },
	{ "cpu_ratio", test_cpu_ratio },
	{ "gpus", test_gpus },
	{ "nvblas_keywords", test_nvblas_keywords },
	{ "nvblas_single_gpu", test_nvblas_single_gpu },
	{ "nvblas_precedence", test_nvblas_precedence },
	{ "print", test_print },
	{ "install_for_test", test_install_for_test },
	{ "overlong_line", test_overlong_line },
	{ "profile_cannot_name_files", test_profile_cannot_name_files },
	{ "load_secure", test_load_secure },
	{ "load_fifo", test_load_fifo },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_config = { "config", NULL, NULL, NULL, NULL, hyb_tests_config };
