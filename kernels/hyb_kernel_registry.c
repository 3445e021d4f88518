/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of registered device kernels, built once from the "hyb_kernels" linker
   section that HYB_KERNEL_REGISTER fills. */
#include "kernels/hyb_kernel_registry.h"

#include <pthread.h>
#include <string.h>

#include "hyb_log.h"

/* The linker defines these around the section when at least one object in the link
   registers a kernel; weak, so that a link without any is still valid (empty table).
   Hidden: each library walks its own section, never another one's. */
extern const hyb_kernel_def_t* const __start_hyb_kernels[]
    __attribute__( ( weak, visibility( "hidden" ) ) );
extern const hyb_kernel_def_t* const __stop_hyb_kernels[]
    __attribute__( ( weak, visibility( "hidden" ) ) );

static struct
{
	pthread_once_t          once;
	int                     n;
	const hyb_kernel_def_t* def[HYB_KERNEL_MAX];
} hyb_kernels = { .once = PTHREAD_ONCE_INIT };

int hyb_kernel_name_valid( const char* name )
{
	if ( name == NULL ) return 0;
	size_t len = strlen( name ), dots = 0, left = 0;
	if ( len == 0 || len > 63 ) return 0;
	for ( size_t i = 0; i < len; i++ )
	{
		char c = name[i];
		if ( c == '.' )
		{
			if ( ++dots > 1 || i == 0 || i + 1 == len ) return 0;
			left = i;
		}
		else if ( !( ( c >= 'a' && c <= 'z' ) || ( c >= '0' && c <= '9' ) || c == '_' ) )
			return 0;
	}
	return dots == 1 && left > 0;
}

/* An alias: what a name may hold, the dot optional (older plans named kernels "gemm"). */
static int hyb_kernel_alias_valid( const char* alias )
{
	size_t len = strlen( alias );
	if ( len == 0 || len > 63 ) return 0;
	for ( size_t i = 0; i < len; i++ )
	{
		char c = alias[i];
		if ( !( ( c >= 'a' && c <= 'z' ) || ( c >= '0' && c <= '9' ) || c == '_' || c == '.' ) )
			return 0;
	}
	return 1;
}

static int hyb_kernel_taken( const char* name )
{
	for ( int i = 0; i < hyb_kernels.n; i++ )
		if ( strcmp( hyb_kernels.def[i]->name, name ) == 0 ||
		     ( hyb_kernels.def[i]->alias && strcmp( hyb_kernels.def[i]->alias, name ) == 0 ) )
			return 1;
	return 0;
}

static void hyb_kernel_table_build( void )
{
	if ( __start_hyb_kernels == NULL || __stop_hyb_kernels == NULL ) return;
	for ( const hyb_kernel_def_t* const* e = __start_hyb_kernels; e < __stop_hyb_kernels; e++ )
	{
		const hyb_kernel_def_t* d = *e;
		if ( d == NULL ) continue;
		const char* bad = NULL;
		if ( !hyb_kernel_name_valid( d->name ) )
			bad = "malformed name";
		else if ( d->alias && !hyb_kernel_alias_valid( d->alias ) )
			bad = "malformed alias";
		else if ( d->args_size == 0 )
			bad = "no argument size";
		else if ( hyb_kernel_taken( d->name ) || ( d->alias && hyb_kernel_taken( d->alias ) ) )
			bad = "name already registered";
		else if ( hyb_kernels.n == HYB_KERNEL_MAX )
			bad = "too many kernels";
		if ( bad )
		{
			hyb_log_always( "warning: device kernel \"%.63s\" not registered: %s",
			                d->name ? d->name : "(null)", bad );
			continue;
		}
		hyb_kernels.def[hyb_kernels.n++] = d;
	}
}

static inline void hyb_kernel_table( void )
{
	pthread_once( &hyb_kernels.once, hyb_kernel_table_build );
}

int hyb_kernel_count( void )
{
	hyb_kernel_table();
	return hyb_kernels.n;
}

const hyb_kernel_def_t* hyb_kernel_def( hyb_kernel_id_t id )
{
	hyb_kernel_table();
	return id >= 0 && id < hyb_kernels.n ? hyb_kernels.def[id] : NULL;
}

hyb_kernel_id_t hyb_kernel_find( const char* name )
{
	hyb_kernel_table();
	if ( name == NULL ) return HYB_KERNEL_NONE;
	for ( int i = 0; i < hyb_kernels.n; i++ )
		if ( strcmp( hyb_kernels.def[i]->name, name ) == 0 ||
		     ( hyb_kernels.def[i]->alias && strcmp( hyb_kernels.def[i]->alias, name ) == 0 ) )
			return i;
	return HYB_KERNEL_NONE;
}

hyb_kernel_id_t hyb_kernel_id( const hyb_kernel_def_t* def )
{
	hyb_kernel_table();
	for ( int i = 0; i < hyb_kernels.n; i++ )
		if ( hyb_kernels.def[i] == def ) return i;
	return HYB_KERNEL_NONE;
}
