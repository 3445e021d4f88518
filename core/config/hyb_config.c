/* SPDX-License-Identifier: BSD-3-Clause */
/* Strict parsing of the configuration table from every source. */
#define _GNU_SOURCE
#include "core/config/hyb_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "hyb_file.h"
#include "hyb_log.h"
#include "hyb_secure.h"

typedef enum
{
	HYB_T_INT,
	HYB_T_DOUBLE,
	HYB_T_BOOL,
	HYB_T_SIZE,
	HYB_T_ENUM,
	HYB_T_STRING,
	HYB_T_PATH
} hyb_cfg_type_t;

/* What the text of a value of each parsed type must be, for the error of one that is not. */
static const char* const hyb_cfg_type_text[] = {
	[HYB_T_INT]    = "an integer",
	[HYB_T_DOUBLE] = "a number",
	[HYB_T_BOOL]   = "a boolean (1/0, yes/no, on/off, true/false)",
	[HYB_T_SIZE]   = "a size (bytes with K/M/G/T, or 1..100%)",
};

typedef struct
{
	const char*    name;
	hyb_cfg_type_t type;
	size_t         offset;
	const char*    def;
	double         min, max;
	const char*    help;
} hyb_cfg_desc_t;

static const hyb_cfg_desc_t hyb_cfg_desc[HYB_CFG_COUNT] = {
#define HYB_VAR( NAME, TYPE, field, def, min, max, help )                                          \
	[HYB_CFG_IDX_##                                                                                \
	    field] = { #NAME, HYB_T_##TYPE, offsetof( hyb_config_t, field ), def, min, max, help },
#include "core/config/hyb_config_vars.def"
#undef HYB_VAR
};

const char* hyb_config_var_name( int idx )
{
	return ( idx >= 0 && idx < HYB_CFG_COUNT ) ? hyb_cfg_desc[idx].name : NULL;
}

const char* hyb_config_var_help( int idx )
{
	return ( idx >= 0 && idx < HYB_CFG_COUNT ) ? hyb_cfg_desc[idx].help : NULL;
}

const char* hyb_config_source_name( hyb_cfg_source_t src )
{
	static const char* names[] = { "default",     "profile", "nvblas.conf",   "config file",
		                           "environment", "test",    "setuid program" };
	return names[src];
}

static int hyb_cfg_find( const char* name )
{
	for ( int i = 0; i < HYB_CFG_COUNT; i++ )
		if ( strcmp( hyb_cfg_desc[i].name, name ) == 0 ) return i;
	return -1;
}

/* Enum choices are the help text up to the first ':', separated by '|'.
   Returns the index of `value` among them, or -1. */
static int hyb_cfg_enum_index( const char* help, const char* value )
{
	const char* end = strchr( help, ':' );
	if ( end == NULL ) return -1;
	int         idx = 0;
	const char* p   = help;
	while ( p < end )
	{
		const char* bar = memchr( p, '|', (size_t)( end - p ) );
		size_t      len = (size_t)( ( bar ? bar : end ) - p );
		if ( strlen( value ) == len && strncasecmp( p, value, len ) == 0 ) return idx;
		idx++;
		p += len + 1;
	}
	return -1;
}

static int hyb_parse_bool( const char* s, int* out )
{
	static const char* yes[] = { "1", "yes", "on", "true" };
	static const char* no[]  = { "0", "no", "off", "false" };
	for ( unsigned i = 0; i < 4; i++ )
	{
		if ( strcasecmp( s, yes[i] ) == 0 ) return *out = 1, 1;
		if ( strcasecmp( s, no[i] ) == 0 ) return *out = 0, 1;
	}
	return 0;
}

static int hyb_parse_double( const char* s, double* out )
{
	char* end = NULL;
	errno     = 0;
	double v  = strtod( s, &end );
	if ( end == s || *end != '\0' || errno == ERANGE || !isfinite( v ) ) return 0;
	*out = v;
	return 1;
}

/* "123", "64K", "1.5G", "90%". */
static int hyb_parse_size( const char* s, hyb_cfg_size_t* out )
{
	char* end = NULL;
	errno     = 0;
	double v  = strtod( s, &end );
	if ( end == s || errno == ERANGE || !isfinite( v ) || v < 0 ) return 0;
	double mult    = 1;
	int    percent = 0;
	switch ( *end )
	{
	case '\0':
		break;
	case 'k':
	case 'K':
		mult = 1024.0;
		end++;
		break;
	case 'm':
	case 'M':
		mult = 1024.0 * 1024;
		end++;
		break;
	case 'g':
	case 'G':
		mult = 1024.0 * 1024 * 1024;
		end++;
		break;
	case 't':
	case 'T':
		mult = 1024.0 * 1024 * 1024 * 1024;
		end++;
		break;
	case '%':
		percent = 1;
		end++;
		break;
	default:
		return 0;
	}
	if ( !percent && ( *end == 'b' || *end == 'B' ) ) end++;
	if ( *end != '\0' ) return 0;
	if ( percent && ( v <= 0 || v > 100 ) ) return 0;
	out->value   = v * mult;
	out->percent = percent;
	return 1;
}

static void hyb_trim( char* s )
{
	size_t n = strlen( s );
	while ( n && ( s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n' ) )
		s[--n] = '\0';
	size_t lead = strspn( s, " \t" );
	if ( lead ) memmove( s, s + lead, n - lead + 1 );
}

/* The error of a value that does not parse as the setting's type. */
static hyb_status_t hyb_cfg_unparsed( const hyb_cfg_desc_t* d, const char* value, char* err,
                                      size_t errlen )
{
	snprintf( err, errlen, "%s=\"%s\" is not %s", d->name, value, hyb_cfg_type_text[d->type] );
	return HYB_E_PARSE;
}

/* The error of a setting or value that is refused: the message, printf-style, in err. */
static hyb_status_t hyb_cfg_invalid( char* err, size_t errlen, const char* fmt, ... )
    __attribute__( ( format( printf, 3, 4 ) ) );
static hyb_status_t hyb_cfg_invalid( char* err, size_t errlen, const char* fmt, ... )
{
	va_list ap;
	va_start( ap, fmt );
	vsnprintf( err, errlen, fmt, ap );
	va_end( ap );
	return HYB_E_INVALID;
}

static hyb_status_t hyb_cfg_store( hyb_config_t* cfg, int idx, const char* value, char* err,
                                   size_t errlen )
{
	const hyb_cfg_desc_t* d     = &hyb_cfg_desc[idx];
	char*                 field = (char*)cfg + d->offset;
	switch ( d->type )
	{
	case HYB_T_INT:
	{
		char* end   = NULL;
		errno       = 0;
		long long v = strtoll( value, &end, 10 );
		if ( end == value || *end != '\0' || errno == ERANGE )
			return hyb_cfg_unparsed( d, value, err, errlen );
		if ( (double)v < d->min || (double)v > d->max )
			return hyb_cfg_invalid( err, errlen, "%s=%lld is outside [%.0f, %.0f]", d->name, v,
			                        d->min, d->max );
		*(int64_t*)field = (int64_t)v;
		return HYB_OK;
	}
	case HYB_T_DOUBLE:
	{
		double v;
		if ( !hyb_parse_double( value, &v ) ) return hyb_cfg_unparsed( d, value, err, errlen );
		if ( v < d->min || v > d->max )
			return hyb_cfg_invalid( err, errlen, "%s=%g is outside [%g, %g]", d->name, v, d->min,
			                        d->max );
		*(double*)field = v;
		return HYB_OK;
	}
	case HYB_T_BOOL:
	{
		int v;
		if ( !hyb_parse_bool( value, &v ) ) return hyb_cfg_unparsed( d, value, err, errlen );
		*(int*)field = v;
		return HYB_OK;
	}
	case HYB_T_SIZE:
	{
		hyb_cfg_size_t v;
		if ( !hyb_parse_size( value, &v ) ) return hyb_cfg_unparsed( d, value, err, errlen );
		if ( !v.percent && ( v.value < d->min || v.value > d->max ) )
			return hyb_cfg_invalid( err, errlen, "%s=%s is outside [%.0f, %.0f] bytes", d->name,
			                        value, d->min, d->max );
		/* Member by member: a struct assignment may copy v's undefined
		   padding, and setting a value's text again must leave the same
		   bytes. */
		hyb_cfg_size_t* out = (hyb_cfg_size_t*)field;
		out->value          = v.value;
		out->percent        = v.percent;
		return HYB_OK;
	}
	case HYB_T_ENUM:
	{
		int v = hyb_cfg_enum_index( d->help, value );
		if ( v < 0 )
		{
			const char* colon = strchr( d->help, ':' );
			return hyb_cfg_invalid( err, errlen, "%s=\"%s\" is not one of %.*s", d->name, value,
			                        (int)( colon - d->help ), d->help );
		}
		*(int*)field = v;
		return HYB_OK;
	}
	case HYB_T_STRING:
	case HYB_T_PATH:
	{
		size_t cap = d->type == HYB_T_PATH ? HYB_CFG_PATH_MAX : HYB_CFG_STRING_MAX;
		if ( strlen( value ) >= cap )
			return hyb_cfg_invalid( err, errlen, "%s is longer than %zu characters", d->name,
			                        cap - 1 );
		memcpy( field, value, strlen( value ) + 1 );
		return HYB_OK;
	}
	}
	return HYB_E_INVALID;
}

void hyb_config_defaults( hyb_config_t* cfg )
{
	memset( cfg, 0, sizeof *cfg );
	char err[256];
	for ( int i = 0; i < HYB_CFG_COUNT; i++ )
	{
		hyb_status_t st = hyb_cfg_store( cfg, i, hyb_cfg_desc[i].def, err, sizeof err );
		/* A default that does not parse is a bug in the table. */
		if ( st != HYB_OK )
			hyb_log_always( "internal error: default of %s: %s", hyb_cfg_desc[i].name, err );
		cfg->source[i] = HYB_SRC_DEFAULT;
	}
	cfg->cpu_ratio_fixed = -1;
	cfg->gpus_auto       = 1;
}

hyb_status_t hyb_config_set( hyb_config_t* cfg, const char* name, const char* value,
                             hyb_cfg_source_t src, char* err, size_t errlen )
{
	int idx = hyb_cfg_find( name );
	if ( idx < 0 ) return hyb_cfg_invalid( err, errlen, "unknown setting %s", name );
	if ( cfg->source[idx] > src ) return HYB_OK; /* a higher source already decided */
	char buf[HYB_CFG_PATH_MAX];
	if ( strlen( value ) >= sizeof buf )
	{
		/* Cutting it short would name another file. */
		return hyb_cfg_invalid( err, errlen, "%s is longer than %zu characters", name,
		                        sizeof buf - 1 );
	}
	snprintf( buf, sizeof buf, "%s", value );
	hyb_trim( buf );
	hyb_status_t st = hyb_cfg_store( cfg, idx, buf, err, errlen );
	if ( st == HYB_OK ) cfg->source[idx] = src;
	return st;
}

/* Levenshtein distance, for "did you mean" hints on typos. */
static size_t hyb_edit_distance( const char* a, const char* b )
{
	size_t la = strlen( a ), lb = strlen( b );
	if ( la > 63 || lb > 63 ) return 99;
	size_t row[64];
	for ( size_t j = 0; j <= lb; j++ ) row[j] = j;
	for ( size_t i = 1; i <= la; i++ )
	{
		size_t prev = row[0];
		row[0]      = i;
		for ( size_t j = 1; j <= lb; j++ )
		{
			size_t cur  = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = prev + cost;
			if ( row[j] + 1 < best ) best = row[j] + 1;
			if ( row[j - 1] + 1 < best ) best = row[j - 1] + 1;
			row[j] = best;
			prev   = cur;
		}
	}
	return row[lb];
}

static const char* hyb_closest_name( const char* name )
{
	const char* best  = NULL;
	size_t      bestd = 4; /* suggest only near misses */
	for ( int i = 0; i < HYB_CFG_COUNT; i++ )
	{
		size_t d = hyb_edit_distance( name, hyb_cfg_desc[i].name );
		if ( d < bestd ) bestd = d, best = hyb_cfg_desc[i].name;
	}
	return best;
}

/* Copies the next line of a configuration text into line without its
   comment and surrounding blanks; returns 0 once the text is used up. A line
   too long for the buffer is warned about and comes back empty: cut short,
   a path would name another file. */
static int hyb_next_config_line( const char** p, char* line, size_t cap, int* lineno,
                                 const char* origin )
{
	int overlong = 0;
	if ( !hyb_file_next_line( p, line, cap, &overlong, lineno ) ) return 0;
	if ( overlong )
		HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: line longer than %zu characters; ignored", origin,
		         *lineno, cap - 1 );
	char* hash = strchr( line, '#' );
	if ( hash ) *hash = '\0';
	hyb_trim( line );
	return 1;
}

void hyb_config_apply_text( hyb_config_t* cfg, const char* text, hyb_cfg_source_t src,
                            const char* origin, int only_hyblas )
{
	int         lineno = 0;
	const char* p      = text;
	char        line[HYB_CFG_PATH_MAX + 128];
	while ( hyb_next_config_line( &p, line, sizeof line, &lineno, origin ) )
	{
		if ( line[0] == '\0' ) continue;
		char* eq = strchr( line, '=' );
		if ( eq == NULL )
		{
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: expected NAME=VALUE", origin, lineno );
			continue;
		}
		*eq = '\0';
		hyb_trim( line );
		char* value = eq + 1;
		hyb_trim( value );
		if ( strncmp( line, "HYBLAS_", 7 ) != 0 )
		{
			if ( !only_hyblas )
				HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: %s is not a hyblas setting", origin, lineno,
				         line );
			continue;
		}
		int idx = hyb_cfg_find( line );
		if ( src == HYB_SRC_PROFILE && idx >= 0 && hyb_cfg_desc[idx].type == HYB_T_PATH )
		{
			/* A profile is measured data, often in a shared cache directory:
			   it may not name a library to load or a file to write. */
			HYB_LOG( HYB_LOG_WARN,
			         "warning: %s:%d: a profile cannot set %s (it names a file); ignored", origin,
			         lineno, line );
			continue;
		}
		char         err[256];
		hyb_status_t st = hyb_config_set( cfg, line, value, src, err, sizeof err );
		if ( st != HYB_OK )
		{
			const char* hint = hyb_closest_name( line );
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: %s%s%s%s; ignored", origin, lineno, err,
			         hint && strcmp( hint, line ) ? " (did you mean " : "",
			         hint && strcmp( hint, line ) ? hint : "",
			         hint && strcmp( hint, line ) ? "?)" : "" );
		}
	}
}

void hyb_config_apply_env( hyb_config_t* cfg, char* const* envp )
{
	for ( char* const* e = envp; e && *e; e++ )
	{
		if ( strncmp( *e, "HYBLAS_", 7 ) != 0 ) continue;
		const char* eq = strchr( *e, '=' );
		if ( eq == NULL ) continue;
		char   name[128];
		size_t n = (size_t)( eq - *e );
		if ( n >= sizeof name ) n = sizeof name - 1;
		memcpy( name, *e, n );
		name[n] = '\0';
		char         err[256];
		hyb_status_t st = hyb_config_set( cfg, name, eq + 1, HYB_SRC_ENV, err, sizeof err );
		if ( st == HYB_OK ) continue;
		if ( hyb_cfg_find( name ) < 0 )
		{
			const char* hint = hyb_closest_name( name );
			if ( hint )
				HYB_LOG( HYB_LOG_WARN, "warning: unknown variable %s (did you mean %s?)", name,
				         hint );
			else
				HYB_LOG( HYB_LOG_WARN,
				         "warning: unknown variable %s (HYBLAS_PRINT_CONFIG=1 lists "
				         "the known ones)",
				         name );
		}
		else
			HYB_LOG( HYB_LOG_WARN, "warning: %s; keeping %s", err, "the previous value" );
	}
}

/* nvblas.conf keywords and their hyblas equivalents (NVBLAS guide, "NVBLAS
   Configuration File"). Keywords with a routine suffix are handled below. */
static const struct
{
	const char* nvblas;
	const char* hyblas;
} hyb_nvblas_map[] = {
	{ "NVBLAS_LOGFILE", "HYBLAS_LOG_FILE" },
	{ "NVBLAS_CPU_BLAS_LIB", "HYBLAS_CPU_LIB" },
	{ "NVBLAS_TILE_DIM", "HYBLAS_TILE" },
};

static void hyb_append_routine_mode( hyb_config_t* cfg, const char* routine, const char* mode,
                                     const char* origin, int lineno )
{
	if ( cfg->source[HYB_CFG_IDX_routine_mode] > HYB_SRC_NVBLAS )
		return; /* the file or environment decided */
	char   entry[64];
	char   low[32];
	size_t n = 0;
	for ( ; routine[n] && n < sizeof low - 1; n++ )
		low[n] = (char)( ( routine[n] >= 'A' && routine[n] <= 'Z' ) ? routine[n] - 'A' + 'a'
		                                                            : routine[n] );
	low[n] = '\0';
	snprintf( entry, sizeof entry, "%s%s=%s", cfg->routine_mode[0] ? "," : "", low, mode );
	size_t have = strlen( cfg->routine_mode );
	if ( have + strlen( entry ) >= sizeof cfg->routine_mode )
	{
		HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: too many routine settings; ignored", origin,
		         lineno );
		return;
	}
	memcpy( cfg->routine_mode + have, entry, strlen( entry ) + 1 );
	cfg->source[HYB_CFG_IDX_routine_mode] = HYB_SRC_NVBLAS;
}

void hyb_config_apply_nvblas( hyb_config_t* cfg, const char* text, const char* origin )
{
	int         lineno = 0;
	const char* p      = text;
	char        err[256];
	int         trace = 0;
	char        line[HYB_CFG_PATH_MAX + 128];
	while ( hyb_next_config_line( &p, line, sizeof line, &lineno, origin ) )
	{
		if ( line[0] == '\0' ) continue;

		char* value = line + strcspn( line, " \t" );
		if ( *value ) *value++ = '\0';
		hyb_trim( value );

		int mapped = 0;
		for ( unsigned i = 0; i < sizeof hyb_nvblas_map / sizeof hyb_nvblas_map[0]; i++ )
		{
			if ( strcmp( line, hyb_nvblas_map[i].nvblas ) != 0 ) continue;
			mapped = 1;
			if ( cfg->source[hyb_cfg_find( hyb_nvblas_map[i].hyblas )] <= HYB_SRC_NVBLAS &&
			     hyb_config_set( cfg, hyb_nvblas_map[i].hyblas, value, HYB_SRC_NVBLAS, err,
			                     sizeof err ) != HYB_OK )
				HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: %s", origin, lineno, err );
		}
		if ( mapped ) continue;

		if ( strcmp( line, "NVBLAS_GPU_LIST" ) == 0 )
		{
			/* "ALL", "ALL0" (all devices like device 0) or numbers separated by spaces. */
			char list[HYB_CFG_STRING_MAX] = "";
			if ( strncasecmp( value, "ALL", 3 ) == 0 )
				snprintf( list, sizeof list, "all" );
			else
			{
				/* Device numbers; a trailing ',' keeps a single number a
				   device list (HYBLAS_GPUS=2 alone would mean two devices). */
				size_t w = 0;
				for ( const char* c = value; *c && w + 2 < sizeof list; c++ )
					list[w++] = ( *c == ' ' || *c == '\t' ) ? ',' : *c;
				if ( w > 0 && list[w - 1] != ',' ) list[w++] = ',';
				list[w] = '\0';
			}
			if ( hyb_config_set( cfg, "HYBLAS_GPUS", list, HYB_SRC_NVBLAS, err, sizeof err ) !=
			     HYB_OK )
				HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: %s", origin, lineno, err );
		}
		else if ( strcmp( line, "NVBLAS_TRACE_LOG_ENABLED" ) == 0 )
			trace = 1;
		else if ( strcmp( line, "NVBLAS_AUTOPIN_MEM_ENABLED" ) == 0 )
			; /* hyblas pins or stages per call by measurement (HYBLAS_STAGING=auto) */
		else if ( strncmp( line, "NVBLAS_GPU_DISABLED_", 20 ) == 0 )
			hyb_append_routine_mode( cfg, line + 20, "cpu", origin, lineno );
		else if ( strncmp( line, "NVBLAS_CPU_RATIO_", 17 ) == 0 )
		{
			/* NVBLAS sets a ratio per routine; hyblas has one ratio for the
			   level-3 split, so the last one read applies to all. */
			if ( hyb_config_set( cfg, "HYBLAS_CPU_RATIO", value, HYB_SRC_NVBLAS, err,
			                     sizeof err ) != HYB_OK )
				HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: %s", origin, lineno, err );
			else
				HYB_LOG( HYB_LOG_INFO, "%s:%d: %s applies to every level-3 routine in hyblas",
				         origin, lineno, line );
		}
		else
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: unknown nvblas.conf keyword %s; ignored",
			         origin, lineno, line );
	}
	if ( trace && cfg->source[HYB_CFG_IDX_trace] <= HYB_SRC_NVBLAS )
	{
		/* NVBLAS traces into its log file. */
		const char* dest = cfg->log_file[0] ? cfg->log_file : "/dev/stderr";
		if ( hyb_config_set( cfg, "HYBLAS_TRACE", dest, HYB_SRC_NVBLAS, err, sizeof err ) !=
		     HYB_OK )
			HYB_LOG( HYB_LOG_WARN, "warning: %s: %s", origin, err );
	}
}

/* "gemm" -> (HYB_OP_GEMM, -1); "dgemm" -> (HYB_OP_GEMM, HYB_PREC_D). */
static int hyb_parse_routine_key( const char* key, int* op, int* prec )
{
	static const char* ops[HYB_OP_COUNT] = { "gemm",  "symm", "hemm", "syrk", "herk",  "syr2k",
		                                     "her2k", "trsm", "trmm", "gtsv", "coomv", "csrmv" };
	char               low[32];
	size_t             n = strlen( key );
	if ( n == 0 || n >= sizeof low ) return 0;
	for ( size_t i = 0; i <= n; i++ )
		low[i] = (char)( ( key[i] >= 'A' && key[i] <= 'Z' ) ? key[i] - 'A' + 'a' : key[i] );
	while ( n && low[n - 1] == '_' ) low[--n] = '\0'; /* "dgemm_" as NVBLAS names it */
	for ( int o = 0; o < HYB_OP_COUNT; o++ )
	{
		if ( strcmp( low, ops[o] ) == 0 ) return *op = o, *prec = -1, 1;
		const char* t = strchr( "sdcz", low[0] );
		if ( t && low[0] && strcmp( low + 1, ops[o] ) == 0 )
			return *op = o, *prec = (int)( t - "sdcz" ), 1;
	}
	return 0;
}

void hyb_config_finish( hyb_config_t* cfg )
{
	/* HYBLAS_ROUTINE_MODE */
	cfg->n_routine_modes = 0;
	char buf[HYB_CFG_STRING_MAX];
	snprintf( buf, sizeof buf, "%s", cfg->routine_mode );
	char* save = NULL;
	for ( char* tok = strtok_r( buf, ",", &save ); tok; tok = strtok_r( NULL, ",", &save ) )
	{
		hyb_trim( tok );
		if ( !*tok ) continue;
		char* eq = strchr( tok, '=' );
		int   op = -1, prec = -1, mode = -1;
		if ( eq )
		{
			*eq  = '\0';
			mode = hyb_cfg_enum_index( "auto|cpu|gpu:", eq + 1 );
		}
		/* An exact symbol: a name with a trailing underscore or a cblas_,
		   scipy_ or mkl_ prefix ("dgemm" alone means every dgemm flavor). */
		int symbol = eq && tok[0] &&
		             ( tok[strlen( tok ) - 1] == '_' || strncmp( tok, "cblas_", 6 ) == 0 ||
		               strncmp( tok, "scipy_", 6 ) == 0 || strncmp( tok, "mkl_", 4 ) == 0 );
		if ( !eq || mode < 0 || ( !symbol && !hyb_parse_routine_key( tok, &op, &prec ) ) ||
		     strlen( tok ) >= sizeof cfg->routine_modes[0].symbol )
		{
			HYB_LOG(
			    HYB_LOG_WARN,
			    "warning: HYBLAS_ROUTINE_MODE entry \"%s\" is not ROUTINE=auto|cpu|gpu "
			    "(ROUTINE: gemm, dgemm, trsm, ... or an exact symbol such as cblas_dgemm); ignored",
			    tok );
			continue;
		}
		if ( cfg->n_routine_modes == HYB_CFG_MAX_ROUTINE_MODES ) break;
		hyb_cfg_routine_mode_t* r = &cfg->routine_modes[cfg->n_routine_modes++];
		*r                        = ( hyb_cfg_routine_mode_t ){ .op   = symbol ? -1 : op,
			                                                    .prec = symbol ? -1 : prec,
			                                                    .mode = (hyb_mode_t)mode };
		if ( symbol ) snprintf( r->symbol, sizeof r->symbol, "%s", tok );
	}

	/* HYBLAS_CPU_RATIO */
	cfg->cpu_ratio_fixed = -1;
	if ( strcasecmp( cfg->cpu_ratio, "auto" ) != 0 )
	{
		double v;
		if ( hyb_parse_double( cfg->cpu_ratio, &v ) && v >= 0 && v <= 0.95 )
			cfg->cpu_ratio_fixed = v;
		else
			HYB_LOG( HYB_LOG_WARN,
			         "warning: HYBLAS_CPU_RATIO=\"%s\" is not auto or 0..0.95; using auto",
			         cfg->cpu_ratio );
	}

	/* HYBLAS_GPUS */
	cfg->gpus_all = cfg->gpus_auto = 0;
	cfg->gpus_count = cfg->n_gpu_list = 0;
	if ( strcasecmp( cfg->gpus, "auto" ) == 0 )
		cfg->gpus_auto = 1;
	else if ( strcasecmp( cfg->gpus, "all" ) == 0 )
		cfg->gpus_all = 1;
	else
	{
		/* "N" alone is a count; "a,b,..." are device numbers (a single device
		   is written "2,"). */
		int  is_list = strchr( cfg->gpus, ',' ) != NULL;
		char list[HYB_CFG_STRING_MAX];
		snprintf( list, sizeof list, "%s", cfg->gpus );
		int ok = 1;
		for ( char* tok = strtok_r( list, ",", &save ); tok && ok;
		      tok       = strtok_r( NULL, ",", &save ) )
		{
			hyb_trim( tok );
			char* end = NULL;
			long  v   = strtol( tok, &end, 10 );
			if ( end == tok || *end || v < 0 || v > 1023 )
				ok = 0;
			else if ( !is_list )
				cfg->gpus_count = (int)v;
			else if ( cfg->n_gpu_list < HYB_CFG_MAX_GPUS )
				cfg->gpu_list[cfg->n_gpu_list++] = (int)v;
		}
		if ( !ok || ( !is_list && cfg->gpus_count == 0 ) )
		{
			HYB_LOG( HYB_LOG_WARN,
			         "warning: HYBLAS_GPUS=\"%s\" is not auto, all, a count or a list "
			         "like 0,1; using auto",
			         cfg->gpus );
			cfg->gpus_auto  = 1;
			cfg->gpus_count = cfg->n_gpu_list = 0;
		}
	}
}

hyb_mode_t hyb_config_mode_for_call( const hyb_config_t* cfg, const char* symbol, hyb_op_t op,
                                     hyb_prec_t prec )
{
	for ( int i = 0; symbol && i < cfg->n_routine_modes; i++ )
		if ( cfg->routine_modes[i].symbol[0] &&
		     strcmp( cfg->routine_modes[i].symbol, symbol ) == 0 )
			return cfg->routine_modes[i].mode;
	return hyb_config_mode_for( cfg, op, prec );
}

hyb_mode_t hyb_config_mode_for( const hyb_config_t* cfg, hyb_op_t op, hyb_prec_t prec )
{
	int family = -1;
	for ( int i = 0; i < cfg->n_routine_modes; i++ )
	{
		const hyb_cfg_routine_mode_t* r = &cfg->routine_modes[i];
		if ( r->symbol[0] || r->op != (int)op ) continue;
		if ( r->prec == (int)prec ) return r->mode; /* the most specific entry wins */
		if ( r->prec < 0 ) family = (int)r->mode;
	}
	return family >= 0 ? (hyb_mode_t)family : (hyb_mode_t)cfg->mode;
}

void hyb_config_print( const hyb_config_t* cfg, int fd )
{
	for ( int i = 0; i < HYB_CFG_COUNT; i++ )
	{
		const hyb_cfg_desc_t* d     = &hyb_cfg_desc[i];
		const char*           field = (const char*)cfg + d->offset;
		char                  val[HYB_CFG_PATH_MAX + 32];
		switch ( d->type )
		{
		case HYB_T_INT:
			snprintf( val, sizeof val, "%lld", (long long)*(const int64_t*)field );
			break;
		case HYB_T_DOUBLE:
			snprintf( val, sizeof val, "%g", *(const double*)field );
			break;
		case HYB_T_BOOL:
			snprintf( val, sizeof val, "%d", *(const int*)field );
			break;
		case HYB_T_SIZE:
		{
			const hyb_cfg_size_t* s = (const hyb_cfg_size_t*)field;
			if ( s->percent )
				snprintf( val, sizeof val, "%g%%", s->value );
			else
				snprintf( val, sizeof val, "%.0f bytes", s->value );
			break;
		}
		case HYB_T_ENUM:
		{
			const char* p = d->help;
			for ( int k = *(const int*)field; k > 0 && p; k-- )
			{
				p = strchr( p, '|' );
				if ( p ) p++;
			}
			size_t len = p ? strcspn( p, "|:" ) : 0;
			snprintf( val, sizeof val, "%.*s", (int)len, p ? p : "" );
			break;
		}
		case HYB_T_STRING:
		case HYB_T_PATH:
			snprintf( val, sizeof val, "\"%s\"", field );
			break;
		}
		char line[HYB_CFG_PATH_MAX + 128];
		int  n = snprintf( line, sizeof line, "[hyblas config] %-20s = %-24s (%s)\n", d->name, val,
		                   hyb_config_source_name( cfg->source[i] ) );
		if ( n > 0 )
		{
			ssize_t w = write( fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1 );
			(void)w;
		}
	}
}

/* ------------------------------------------------------------------------
   The process configuration. */

static hyb_config_t   hyb_process_config;
static pthread_once_t hyb_config_once = PTHREAD_ONCE_INIT;

/* The value of `name` in an environment block, or NULL. */
static const char* hyb_env_get( char* const* envp, const char* name )
{
	size_t n = strlen( name );
	for ( char* const* e = envp; e && *e; e++ )
		if ( strncmp( *e, name, n ) == 0 && ( *e )[n] == '=' ) return *e + n + 1;
	return NULL;
}

/* Whether an environment block holds anything hyblas would act on. */
static int hyb_env_has_settings( char* const* envp )
{
	for ( char* const* e = envp; e && *e; e++ )
		if ( strncmp( *e, "HYBLAS_", 7 ) == 0 || strncmp( *e, "NVBLAS_CONFIG_FILE=", 19 ) == 0 )
			return 1;
	return 0;
}

/* The text of one configuration source, or NULL. A source the user named
   (named != 0) that cannot be used is warned about; the default profile
   path is allowed not to exist. */
static char* hyb_config_read_source( const char* setting, const char* path, int named )
{
	char         why[192] = "";
	char*        text     = NULL;
	hyb_status_t st       = hyb_file_read( path, HYB_FILE_READ_MAX, &text, NULL, why, sizeof why );
	if ( st != HYB_OK && ( named || st != HYB_E_IO ) )
		HYB_LOG( HYB_LOG_WARN, "warning: cannot read %s=%s (%s); ignored", setting, path, why );
	return text;
}

/* The default profile path: $XDG_CACHE_HOME/hyblas/profile, else
   $HOME/.cache/hyblas/profile. */
static void hyb_default_profile_path( char* const* envp, char* out, size_t len )
{
	const char* xdg  = hyb_env_get( envp, "XDG_CACHE_HOME" );
	const char* home = hyb_env_get( envp, "HOME" );
	if ( xdg && *xdg )
		snprintf( out, len, "%s/hyblas/profile", xdg );
	else if ( home && *home )
		snprintf( out, len, "%s/.cache/hyblas/profile", home );
	else
		out[0] = '\0';
}

/* Secure execution: the built-in defaults, no device (the CUDA driver acts
   on environment variables of its own, some naming libraries to load), and
   nothing read. */
static void hyb_config_load_secure( hyb_config_t* cfg, char* const* envp )
{
	char err[256];
	hyb_config_set( cfg, "HYBLAS_DEVICE", "none", HYB_SRC_SECURE, err, sizeof err );
	hyb_config_finish( cfg );
	if ( hyb_env_has_settings( envp ) )
		HYB_LOG( HYB_LOG_WARN, "warning: setuid or setgid program: HYBLAS_* settings and "
		                       "NVBLAS_CONFIG_FILE are ignored; built-in defaults, CPU only" );
}

void hyb_config_load( hyb_config_t* cfg, char* const* envp, int flags )
{
	hyb_config_defaults( cfg );
	int set_log = ( flags & HYB_CFG_LOAD_SET_LOG ) != 0;
	if ( flags & HYB_CFG_LOAD_SECURE )
	{
		hyb_config_load_secure( cfg, envp );
		return;
	}

	/* Log settings first, so that problems below are reported where asked:
	   a first pass over the environment alone (silently) gives the log level,
	   the log file and the paths of the other sources. */
	int          level = hyb_log_level();
	hyb_config_t early;
	hyb_config_defaults( &early );
	hyb_log_set_level( HYB_LOG_SILENT );
	hyb_config_apply_env( &early, envp );
	if ( set_log ) hyb_log_set_file( early.log_file );
	hyb_log_set_level( set_log ? (int)early.log_level : level );

	/* Precedence: default < profile < nvblas.conf < config file < environment.
	   The profile path may itself come from the config file. */
	char* file_text = early.config_file[0]
	                      ? hyb_config_read_source( "HYBLAS_CONFIG_FILE", early.config_file, 1 )
	                      : NULL;
	if ( file_text )
	{
		hyb_config_t probe;
		hyb_config_defaults( &probe );
		int shown = hyb_log_level();
		hyb_log_set_level( HYB_LOG_SILENT );
		hyb_config_apply_text( &probe, file_text, HYB_SRC_FILE, early.config_file, 1 );
		hyb_log_set_level( shown );
		if ( !early.profile[0] ) memcpy( early.profile, probe.profile, sizeof early.profile );
	}

	char profile_path[HYB_CFG_PATH_MAX];
	if ( early.profile[0] )
		snprintf( profile_path, sizeof profile_path, "%s", early.profile );
	else
		hyb_default_profile_path( envp, profile_path, sizeof profile_path );
	char* profile_text = profile_path[0] ? hyb_config_read_source( "HYBLAS_PROFILE", profile_path,
	                                                               early.profile[0] != 0 )
	                                     : NULL;
	if ( profile_text )
		hyb_config_apply_text( cfg, profile_text, HYB_SRC_PROFILE, profile_path, 1 );

	const char* nvconf = hyb_env_get( envp, "NVBLAS_CONFIG_FILE" );
	if ( nvconf && *nvconf )
	{
		char* nvtext = hyb_config_read_source( "NVBLAS_CONFIG_FILE", nvconf, 1 );
		if ( nvtext ) hyb_config_apply_nvblas( cfg, nvtext, nvconf );
		free( nvtext );
	}
	if ( file_text ) hyb_config_apply_text( cfg, file_text, HYB_SRC_FILE, early.config_file, 0 );
	hyb_config_apply_env( cfg, envp );
	hyb_config_finish( cfg );

	/* The effective profile path, for the cost model and hyblas-calibrate. */
	if ( !cfg->profile[0] ) snprintf( cfg->profile, sizeof cfg->profile, "%s", profile_path );
	free( file_text );
	free( profile_text );

	/* A log file or level named only in a file source applies from now on. */
	if ( set_log )
	{
		if ( strcmp( cfg->log_file, early.log_file ) != 0 ) hyb_log_set_file( cfg->log_file );
		hyb_log_set_level( (int)cfg->log_level );
	}
	else
		hyb_log_set_level( level );
}

static void hyb_config_load_process( void )
{
	extern char** environ;
	hyb_config_t* cfg = &hyb_process_config;
	hyb_config_load( cfg, environ,
	                 HYB_CFG_LOAD_SET_LOG | ( hyb_secure_mode() ? HYB_CFG_LOAD_SECURE : 0 ) );
	if ( cfg->print_config ) hyb_config_print( cfg, STDERR_FILENO );
}

/* The configuration in use, published once loaded: the per-call read is
   one acquire load instead of pthread_once. */
static _Atomic( const hyb_config_t* ) hyb_config_current;

static void hyb_config_load_and_publish( void )
{
	hyb_config_load_process();
	atomic_store_explicit( &hyb_config_current, &hyb_process_config, memory_order_release );
}

const hyb_config_t* hyb_config( void )
{
	const hyb_config_t* c = atomic_load_explicit( &hyb_config_current, memory_order_acquire );
	if ( c ) return c;
	pthread_once( &hyb_config_once, hyb_config_load_and_publish );
	c = atomic_load_explicit( &hyb_config_current, memory_order_acquire );
	return c ? c : &hyb_process_config;
}

void hyb_config_install_for_test( const hyb_config_t* cfg )
{
	/* NULL goes back to the process configuration (loading it if needed). */
	if ( cfg == NULL )
	{
		pthread_once( &hyb_config_once, hyb_config_load_and_publish );
		atomic_store_explicit( &hyb_config_current, &hyb_process_config, memory_order_release );
	}
	else
		atomic_store_explicit( &hyb_config_current, cfg, memory_order_release );
}
