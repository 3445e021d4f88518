/* SPDX-License-Identifier: BSD-3-Clause */
/* Machine profile: defaults, parsing and writing (see hyb_profile.h). */
#define _GNU_SOURCE
#include "policies/hyb_profile.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "hyb_file.h"
#include "hyb_log.h"
#include "policies/hyb_policy_defaults.h"

/* One table for parsing and writing: key, field offset. */
#define HYB_PF( key, field )                                                                       \
	{                                                                                              \
		key, offsetof( hyb_profile_t, field )                                                      \
	}
static const struct
{
	const char* key;
	size_t      off;
} hyb_profile_keys[] = {
	HYB_PF( "h2d_pageable", h2d_pageable ),
	HYB_PF( "d2h_pageable", d2h_pageable ),
	HYB_PF( "h2d_pinned", h2d_pinned ),
	HYB_PF( "d2h_pinned", d2h_pinned ),
	HYB_PF( "bidir_pinned", bidir_pinned ),
	HYB_PF( "register_s_per_byte", register_s_per_byte ),
	HYB_PF( "unregister_s_per_byte", unregister_s_per_byte ),
	HYB_PF( "host_copy", host_copy ),
	HYB_PF( "host_copy_dual", host_copy_dual ),
	HYB_PF( "copy_piece_half", copy_piece_half ),
	HYB_PF( "gpu_sflops", gpu_flops[HYB_PREC_S] ),
	HYB_PF( "gpu_dflops", gpu_flops[HYB_PREC_D] ),
	HYB_PF( "gpu_cflops", gpu_flops[HYB_PREC_C] ),
	HYB_PF( "gpu_zflops", gpu_flops[HYB_PREC_Z] ),
	HYB_PF( "gpu_half_flops", gpu_half_flops ),
	HYB_PF( "cpu_sflops", cpu_flops[HYB_PREC_S] ),
	HYB_PF( "cpu_dflops", cpu_flops[HYB_PREC_D] ),
	HYB_PF( "cpu_cflops", cpu_flops[HYB_PREC_C] ),
	HYB_PF( "cpu_zflops", cpu_flops[HYB_PREC_Z] ),
	HYB_PF( "cpu_half_flops", cpu_half_flops ),
	HYB_PF( "gpu_call_overhead", gpu_call_overhead ),
	HYB_PF( "launch_latency", launch_latency ),
	HYB_PF( "min_cpu_share", min_cpu_share ),
};
#define HYB_PROFILE_NKEYS ( sizeof hyb_profile_keys / sizeof hyb_profile_keys[0] )

void hyb_profile_defaults( hyb_profile_t* p )
{
	memset( p, 0, sizeof *p );
	p->h2d_pageable          = HYB_DEF_H2D_PAGEABLE;
	p->d2h_pageable          = HYB_DEF_D2H_PAGEABLE;
	p->h2d_pinned            = HYB_DEF_H2D_PINNED;
	p->d2h_pinned            = HYB_DEF_D2H_PINNED;
	p->bidir_pinned          = HYB_DEF_BIDIR_PINNED;
	p->register_s_per_byte   = HYB_DEF_REGISTER_S_PER_B;
	p->unregister_s_per_byte = HYB_DEF_UNREGISTER_S_PER_B;
	p->host_copy             = HYB_DEF_HOST_COPY;
	p->host_copy_dual        = HYB_DEF_HOST_COPY_DUAL;
	p->copy_piece_half       = HYB_DEF_COPY_PIECE_HALF;
	p->gpu_flops[HYB_PREC_S] = HYB_DEF_GPU_SFLOPS;
	p->gpu_flops[HYB_PREC_D] = HYB_DEF_GPU_DFLOPS;
	p->gpu_flops[HYB_PREC_C] = HYB_DEF_GPU_CFLOPS;
	p->gpu_flops[HYB_PREC_Z] = HYB_DEF_GPU_ZFLOPS;
	p->gpu_half_flops        = HYB_DEF_GPU_HALF_FLOPS;
	p->cpu_flops[HYB_PREC_S] = HYB_DEF_CPU_SFLOPS;
	p->cpu_flops[HYB_PREC_D] = HYB_DEF_CPU_DFLOPS;
	p->cpu_flops[HYB_PREC_C] = HYB_DEF_CPU_CFLOPS;
	p->cpu_flops[HYB_PREC_Z] = HYB_DEF_CPU_ZFLOPS;
	p->cpu_half_flops        = HYB_DEF_CPU_HALF_FLOPS;
	p->gpu_call_overhead     = HYB_DEF_GPU_CALL_OVERHEAD;
	p->launch_latency        = HYB_DEF_LAUNCH_LATENCY;
	p->min_cpu_share         = HYB_DEF_MIN_CPU_SHARE;
	snprintf( p->origin, sizeof p->origin,
	          "built-in defaults (H200 + 16-core Xeon anchors, shared/ANCHORS.md)" );
}

void hyb_profile_parse( hyb_profile_t* p, const char* text, const char* origin )
{
	int         lineno = 0;
	int         overlong;
	const char* s = text;
	char        line[512];
	while ( hyb_file_next_line( &s, line, sizeof line, &overlong, &lineno ) )
	{
		if ( overlong )
		{
			/* Cut short, a number would read as another number. */
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: line longer than %zu characters; ignored",
			         origin, lineno, sizeof line - 1 );
			continue;
		}
		if ( strncmp( line, "# machine:", 10 ) == 0 )
			snprintf( p->origin, sizeof p->origin, "%s (%s)", origin,
			          line + 10 + strspn( line + 10, " " ) );
		char* hash = strchr( line, '#' );
		if ( hash ) *hash = '\0';
		char key[128];
		char value[256];
		int  used = 0;
		if ( sscanf( line, " %127[A-Za-z0-9_] = %255s%n", key, value, &used ) != 2 ) continue;
		if ( line[used] != '\0' && line[used] != ' ' && line[used] != '\t' && line[used] != '\r' )
		{
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: value too long; ignored", origin, lineno );
			continue;
		}
		if ( strncmp( key, "HYBLAS_", 7 ) == 0 ) continue; /* a setting, read by the config */
		size_t k = 0;
		while ( k < HYB_PROFILE_NKEYS && strcmp( hyb_profile_keys[k].key, key ) != 0 ) k++;
		char* end = NULL;
		errno     = 0;
		double v  = strtod( value, &end );
		if ( k == HYB_PROFILE_NKEYS )
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: unknown profile key %s", origin, lineno, key );
		else if ( end == value || *end || errno || !isfinite( v ) || v < 0 )
			HYB_LOG( HYB_LOG_WARN, "warning: %s:%d: bad value for %s", origin, lineno, key );
		else
			*(double*)( (char*)p + hyb_profile_keys[k].off ) = v;
	}
}

hyb_status_t hyb_profile_write( const hyb_profile_t* p, const char* path, const char* header )
{
	char*  text = NULL;
	size_t len  = 0;
	FILE*  f    = open_memstream( &text, &len );
	if ( f == NULL ) return HYB_E_NO_MEMORY;
	fprintf( f, "%s", header );
	for ( size_t k = 0; k < HYB_PROFILE_NKEYS; k++ )
		fprintf( f, "%-22s = %.6g\n", hyb_profile_keys[k].key,
		         *(const double*)( (const char*)p + hyb_profile_keys[k].off ) );
	if ( fclose( f ) != 0 )
	{
		free( text );
		return HYB_E_NO_MEMORY;
	}
	hyb_status_t st = hyb_file_replace( path, text, len, 0644 );
	free( text );
	return st == HYB_OK ? HYB_OK : HYB_E_IO;
}

/* Floors of measured values that the model cannot do without. The
   calibration measures pieces at a regular stride, which hardware
   prefetchers follow, and found 0-2 KiB; the tiles of real operands ran at
   half rate with 8 KiB pieces (1024-row double tiles; docs/performance.md,
   "Built-in defaults"). */
#define HYB_PROFILE_MIN_PIECE_HALF 8192.0

static void hyb_profile_sanitize( hyb_profile_t* p )
{
	if ( p->copy_piece_half < HYB_PROFILE_MIN_PIECE_HALF )
		p->copy_piece_half = HYB_PROFILE_MIN_PIECE_HALF;
}

static hyb_profile_t  hyb_process_profile;
static pthread_once_t hyb_profile_once = PTHREAD_ONCE_INIT;

static void hyb_profile_load( void )
{
	hyb_profile_defaults( &hyb_process_profile );
	const char* path = hyb_config()->profile;
	if ( !path[0] ) return;
	/* No calibration yet, or a file that cannot be used (the configuration
	   already warned when reading its settings): the defaults. */
	char* text = NULL;
	if ( hyb_file_read( path, HYB_FILE_READ_MAX, &text, NULL, NULL, 0 ) == HYB_OK )
		hyb_profile_parse( &hyb_process_profile, text, path );
	free( text );
	hyb_profile_sanitize( &hyb_process_profile );
}

const hyb_profile_t* hyb_profile( void )
{
	pthread_once( &hyb_profile_once, hyb_profile_load );
	return &hyb_process_profile;
}

void hyb_profile_sibling( const char* suffix, char* out, size_t len )
{
	const char* base = hyb_config()->profile;
	if ( base[0] )
		snprintf( out, len, "%s%s", base, suffix );
	else if ( len )
		out[0] = '\0';
}
