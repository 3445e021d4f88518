/* SPDX-License-Identifier: BSD-3-Clause */
/* The operation registry: routine names given at init, extension operations registered
   by name at run time. */
#include "hyb_op.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "hyb_state.h"

typedef struct
{
	char name[HYB_OP_NAME_MAX];
	char family[HYB_OP_NAME_MAX];
} hyb_op_entry_t;

static const char* const* hyb_op_routines;
static atomic_int         hyb_op_nroutines;
static hyb_op_entry_t     hyb_op_ext[HYB_OP_EXT_MAX];
static atomic_int         hyb_op_next; /* entries below it are complete */

void hyb_op_set_routines( int n, const char* const* names )
{
	hyb_lock( HYB_LOCK_OPS );
	if ( atomic_load( &hyb_op_nroutines ) == 0 && n > 0 && names )
	{
		hyb_op_routines = names;
		atomic_store( &hyb_op_nroutines, n );
	}
	hyb_unlock( HYB_LOCK_OPS );
}

int hyb_op_routine_count( void )
{
	return atomic_load( &hyb_op_nroutines );
}

int hyb_op_ext_count( void )
{
	return atomic_load( &hyb_op_next );
}

int hyb_op_name_ok( const char* s )
{
	size_t n = s ? strlen( s ) : 0;
	if ( n == 0 || n >= HYB_OP_NAME_MAX ) return 0;
	for ( size_t i = 0; i < n; i++ )
	{
		char c = s[i];
		if ( !( ( c >= 'a' && c <= 'z' ) || ( c >= 'A' && c <= 'Z' ) || ( c >= '0' && c <= '9' ) ||
		        c == '_' || c == '.' || c == '-' ) )
			return 0;
	}
	return 1;
}

hyb_op_id_t hyb_op_find( const char* name )
{
	if ( !hyb_op_name_ok( name ) ) return HYB_OP_NONE;
	int nr = atomic_load( &hyb_op_nroutines );
	for ( int i = 0; i < nr; i++ )
		if ( strcmp( hyb_op_routines[i], name ) == 0 ) return i;
	int ne = atomic_load( &hyb_op_next );
	for ( int i = 0; i < ne; i++ )
		if ( strcmp( hyb_op_ext[i].name, name ) == 0 ) return HYB_OP_EXT_BASE + i;
	return HYB_OP_NONE;
}

hyb_op_id_t hyb_op_register( const char* name, const char* family )
{
	hyb_op_id_t id = hyb_op_find( name );
	if ( id != HYB_OP_NONE || !hyb_op_name_ok( name ) ) return id;
	hyb_lock( HYB_LOCK_OPS );
	id    = hyb_op_find( name ); /* another thread may have registered it meanwhile */
	int n = atomic_load( &hyb_op_next );
	if ( id == HYB_OP_NONE && n < HYB_OP_EXT_MAX )
	{
		strcpy( hyb_op_ext[n].name, name );
		snprintf( hyb_op_ext[n].family, sizeof hyb_op_ext[n].family, "%s", family ? family : "" );
		atomic_store( &hyb_op_next, n + 1 ); /* publishes the entry */
		id = HYB_OP_EXT_BASE + n;
	}
	hyb_unlock( HYB_LOCK_OPS );
	return id;
}

const char* hyb_op_name_of( hyb_op_id_t id )
{
	if ( id >= 0 && id < atomic_load( &hyb_op_nroutines ) ) return hyb_op_routines[id];
	if ( id >= HYB_OP_EXT_BASE && id - HYB_OP_EXT_BASE < atomic_load( &hyb_op_next ) )
		return hyb_op_ext[id - HYB_OP_EXT_BASE].name;
	return NULL;
}

const char* hyb_op_family_of( hyb_op_id_t id )
{
	if ( id >= 0 && id < atomic_load( &hyb_op_nroutines ) ) return "routine";
	if ( id >= HYB_OP_EXT_BASE && id - HYB_OP_EXT_BASE < atomic_load( &hyb_op_next ) )
		return hyb_op_ext[id - HYB_OP_EXT_BASE].family;
	return NULL;
}
