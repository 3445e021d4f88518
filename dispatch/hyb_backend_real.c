/* SPDX-License-Identifier: BSD-3-Clause */
/* Lazily resolved table of real-library symbols and worker selection. */
#include "dispatch/hyb_backend_real.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hyb_log.h"
#include "hyb_routines.h"

static _Atomic( void* )                     hyb_real_fns[HYB_R_COUNT];
static _Atomic( hyb_real_resolver_fn )      hyb_real_resolver;
static _Atomic( hyb_real_name_resolver_fn ) hyb_real_name_resolver;

void hyb_real_set_resolver( hyb_real_resolver_fn fn )
{
	atomic_store_explicit( &hyb_real_resolver, fn, memory_order_release );
}

void* hyb_real_get( hyb_routine_id_t id )
{
	void* fn = atomic_load_explicit( &hyb_real_fns[id], memory_order_acquire );
	if ( fn ) return fn;
	hyb_real_resolver_fn resolve = atomic_load_explicit( &hyb_real_resolver, memory_order_acquire );
	if ( resolve == NULL ) return NULL;
	fn = resolve( id );
	/* Every thread that races here resolves the same address. */
	if ( fn ) atomic_store_explicit( &hyb_real_fns[id], fn, memory_order_release );
	return fn;
}

void hyb_real_set_name_resolver( hyb_real_name_resolver_fn fn )
{
	atomic_store_explicit( &hyb_real_name_resolver, fn, memory_order_release );
}

typedef void ( *hyb_xerbla_fn )( const char* srname, const int32_t* info, hyb_charlen_t len );
typedef void ( *hyb_xerbla_64_fn )( const char* srname, const int64_t* info, hyb_charlen_t len );

void hyb_real_xerbla( hyb_routine_id_t id, int info )
{
	/* The reference's SRNAME: the routine's name in capitals, blank-padded
	   to six characters, without the name decoration of any flavor. */
	char srname[8];
	int len = snprintf( srname, sizeof srname, "%c%-5s", hyb_prec_char( hyb_routine_info[id].prec ),
	                    hyb_op_name( hyb_routine_info[id].op ) );
	if ( len < 0 || len > 6 ) len = 6;
	for ( int i = 0; i < len; i++ ) srname[i] = (char)toupper( (unsigned char)srname[i] );

	hyb_real_name_resolver_fn resolve =
	    atomic_load_explicit( &hyb_real_name_resolver, memory_order_acquire );
	hyb_abi_t abi = hyb_routine_info[id].abi;
	if ( resolve && ( abi == HYB_ABI_F77_64 || abi == HYB_ABI_CBLAS_64 ) )
	{
		hyb_xerbla_64_fn x64 = (hyb_xerbla_64_fn)resolve( "xerbla_64_" );
		if ( x64 )
		{
			const int64_t i64 = info;
			x64( srname, &i64, (hyb_charlen_t)len );
			return;
		}
	}
	hyb_xerbla_fn x = resolve ? (hyb_xerbla_fn)resolve( "xerbla_" ) : NULL;
	if ( x )
	{
		const int32_t i32 = info;
		x( srname, &i32, (hyb_charlen_t)len );
		return;
	}
	hyb_log_always(
	    " ** On entry to %.*s parameter number %d had an illegal value (%s; no xerbla_ in the "
	    "process)",
	    len, srname, info, hyb_routine_info[id].name );
}

void hyb_real_missing( hyb_routine_id_t id )
{
	const char* name = hyb_routine_info[id].name;
	hyb_log_once( hyb_hash_str( name, 0x6d697373 ), HYB_LOG_SILENT,
	              "error: no BLAS library provides %s; the call had no effect. "
	              "Set HYBLAS_CPU_LIB=/path/to/libblas.so",
	              name );
}

void hyb_real_reset( void )
{
	for ( int i = 0; i < HYB_R_COUNT; i++ )
		atomic_store_explicit( &hyb_real_fns[i], NULL, memory_order_relaxed );
}

hyb_routine_id_t hyb_real_worker( hyb_routine_id_t like, hyb_op_t op, hyb_prec_t prec )
{
	int              preferred = hyb_routine_info[like].flavor;
	hyb_routine_id_t id        = hyb_routine_find( preferred, op, prec );
	if ( id >= 0 && hyb_real_get( id ) ) return id;
	for ( int f = 0; f < HYB_FLAVOR_COUNT; f++ )
	{
		if ( f == preferred ) continue;
		id = hyb_routine_find( f, op, prec );
		if ( id >= 0 && hyb_real_get( id ) ) return id;
	}
	return -1;
}
