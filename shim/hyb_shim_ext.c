/* SPDX-License-Identifier: BSD-3-Clause */
/* What libhyblas exports besides the names it intercepts: the functions of
   include/hyblas_ext.h. */
#include "shim/hyb_shim.h"

#include <string.h>

#include "hyb_routines.h"
#include "hyb_op.h"
#include "hyb_stats.h"

/* hyblas_ext.h promises four counts, in the order of hyb_path_t. */
_Static_assert( HYB_PATH_COUNT == 4, "hyb_calls reports four paths" );

#ifndef HYB_VERSION_STRING
#define HYB_VERSION_STRING "0.0.0"
#endif

__attribute__( ( visibility( "default" ) ) ) const char* hyb_version( void )
{
	return HYB_VERSION_STRING;
}

__attribute__( ( visibility( "default" ) ) ) int hyb_calls( const char*        routine,
                                                            unsigned long long counts[4] )
{
	if ( routine == NULL || counts == NULL ) return -1;
	hyb_op_id_t id = hyb_op_find( routine ); /* an intercepted routine or a registered operation */
	if ( id == HYB_OP_NONE ) return -1;
	for ( int path = 0; path < HYB_PATH_COUNT; path++ )
		counts[path] = hyb_stats_calls( id, (hyb_path_t)path );
	return 0;
}

__attribute__( ( visibility( "default" ) ) ) const char* hyblas_status_string( hyblas_status_t s )
{
	switch ( s )
	{
	case HYBLAS_OK:
		return "success";
	case HYBLAS_E_INVALID:
		return "invalid parameter; nothing was changed";
	case HYBLAS_E_NO_MEMORY:
		return "out of host memory; nothing was changed";
	case HYBLAS_E_UNSUPPORTED:
		return "not supported by this build or machine";
	case HYBLAS_E_STRUCT_SIZE:
		return "struct_size not set or too small";
	case HYBLAS_E_CAPACITY:
		return "a caller-sized buffer ran out";
	case HYBLAS_E_INTERNAL:
		return "internal error";
	}
	return "unknown status";
}
