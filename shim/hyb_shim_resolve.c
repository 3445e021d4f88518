/* SPDX-License-Identifier: BSD-3-Clause */
/* Finding the real CPU library's symbols, and never our own; keeping the
   libraries they come from loaded.

   A resolved address is cached for the life of the process and called
   without a lock (kernels/real). So the object it lies in is held: one
   reference of ours, taken by its path, keeps it mapped after the program
   dlcloses it (a plugin host unloading a plugin and its BLAS, Python
   unloading an extension). The alternative, resolving again whenever the
   loader's add/sub counters moved, would read those counters through
   dl_iterate_phdr (the loader's lock) on every call, and a call could still
   race with the unload. What holding costs: a library the program closed
   stays mapped, and calls keep reaching it after the program loaded
   another BLAS, which computes the same products. */
#define _GNU_SOURCE
#include "shim/hyb_shim.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_state.h"

/* Libraries tried last when nothing in the process provides a symbol (a
   program that loads its BLAS later than its first call, or none at all). */
static const char* const hyb_default_libs[] = { "libopenblas.so.0", "libblas.so.3",
	                                            "libcblas.so.3" };

/* Under HYB_LOCK_RESOLVE. */
static void*     hyb_cpu_lib_handle;
static int       hyb_cpu_lib_tried;
static uintptr_t hyb_self;
static int       hyb_self_known; /* 0: not looked for yet; 1: hyb_self is it; -1: not found */
/* Per routine: 1 + the process's load counter when resolution last failed.
   A new search is only worth doing once something new has been loaded. */
static unsigned long long hyb_failed_at[HYB_R_COUNT];
/* Objects we hold a reference to, each once (a few BLAS libraries at most;
   past the bound an object keeps an extra reference, which is harmless). */
#define HYB_HELD_MAX 32
static void* hyb_held[HYB_HELD_MAX];
static int   hyb_nheld;

/* The object an address lies in, found through the objects' loaded segments: its load
   base and its name ("" for the main program). dladdr would answer too, but it also looks
   for the nearest symbol, linearly through the object's symbol table: in OpenBLAS about
   half a million instructions for every routine's first call. */
typedef struct
{
	uintptr_t p;
	int       found;
	uintptr_t base;
	char      name[4096];
} hyb_object_t;

static int hyb_object_cb( struct dl_phdr_info* info, size_t size, void* data )
{
	(void)size;
	hyb_object_t* o = data;
	for ( int i = 0; i < info->dlpi_phnum; i++ )
	{
		const ElfW( Phdr )* ph = &info->dlpi_phdr[i];
		if ( ph->p_type != PT_LOAD ) continue;
		const uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
		if ( o->p >= start && o->p - start < (uintptr_t)ph->p_memsz )
		{
			o->found = 1;
			o->base  = (uintptr_t)info->dlpi_addr;
			snprintf( o->name, sizeof o->name, "%s", info->dlpi_name ? info->dlpi_name : "" );
			return 1;
		}
	}
	return 0;
}

/* 1 and *o filled when p lies in a loaded object. */
static int hyb_object_of( const void* p, hyb_object_t* o )
{
	o->p     = (uintptr_t)p;
	o->found = 0;
	dl_iterate_phdr( hyb_object_cb, o );
	return o->found;
}

/* Whether `base` is libhyblas's own load base (under the resolve lock). A non-PIE main
   program's base is 0 too, so an unknown base of ours matches nothing. */
static int hyb_is_self_base( uintptr_t base )
{
	if ( !hyb_self_known )
	{
		hyb_object_t o;
		const int    found = hyb_object_of( (const void*)&hyb_is_self_base, &o );
		hyb_self           = found ? o.base : 0;
		hyb_self_known     = found ? 1 : -1;
	}
	return hyb_self_known == 1 && base == hyb_self;
}

/* An address inside libhyblas would make the call recurse forever. */
static int hyb_is_ours( void* p )
{
	hyb_object_t o;
	return p == NULL || ( hyb_object_of( p, &o ) && hyb_is_self_base( o.base ) );
}

static void* hyb_try_handle( void* handle, const char* name )
{
	if ( handle == NULL ) return NULL;
	void* p = dlsym( handle, name );
	return hyb_is_ours( p ) ? NULL : p;
}

typedef struct
{
	char** paths;
	size_t n, cap;
} hyb_scan_t;

static int hyb_scan_cb( struct dl_phdr_info* info, size_t size, void* data )
{
	(void)size;
	hyb_scan_t* s = data;
	if ( info->dlpi_name == NULL || info->dlpi_name[0] == '\0' ) return 0; /* main program */
	if ( (void*)info->dlpi_addr == NULL ) return 0;
	if ( s->n == s->cap )
	{
		size_t cap   = s->cap ? 2 * s->cap : 64;
		char** grown = realloc( s->paths, cap * sizeof *grown );
		if ( grown == NULL ) return 1;
		s->paths = grown;
		s->cap   = cap;
	}
	s->paths[s->n] = strdup( info->dlpi_name );
	if ( s->paths[s->n] ) s->n++;
	return 0;
}

/* Keep reference h (from dlopen) to the object of a resolved symbol: the
   first reference to an object is kept for good, a repeated one is given
   back. Under the resolve lock. */
static void hyb_hold( void* h )
{
	for ( int i = 0; i < hyb_nheld; i++ )
		if ( hyb_held[i] == h )
		{
			dlclose( h );
			return;
		}
	if ( hyb_nheld < HYB_HELD_MAX ) hyb_held[hyb_nheld++] = h;
}

/* Hold the object that p lies in. NOLOAD takes a reference without ever
   loading anything; the main program (which has no name to open) is never
   unloaded anyway. */
static void hyb_hold_object_of( void* p )
{
	hyb_object_t o;
	if ( !hyb_object_of( p, &o ) || o.name[0] == '\0' ) return;
	void* h = dlopen( o.name, RTLD_NOW | RTLD_NOLOAD );
	if ( h ) hyb_hold( h );
}

/* Look through every loaded object, including libraries loaded with
   RTLD_LOCAL (a Python extension's BLAS), which RTLD_NEXT cannot see. The
   paths are collected first: dlopen inside dl_iterate_phdr's callback could
   deadlock on the loader lock. The object providing the symbol is held by
   the reference NOLOAD took while looking, so it cannot go away between
   finding the symbol and holding it. */
static void* hyb_scan_loaded( const char* name )
{
	hyb_scan_t s = { 0 };
	dl_iterate_phdr( hyb_scan_cb, &s );
	void* found = NULL;
	for ( size_t i = 0; i < s.n && found == NULL; i++ )
	{
		void* h = dlopen( s.paths[i], RTLD_LAZY | RTLD_NOLOAD );
		if ( h )
		{
			found = hyb_try_handle( h, name );
			if ( found )
				hyb_hold( h );
			else
				dlclose( h ); /* gives back only the reference NOLOAD took */
		}
	}
	for ( size_t i = 0; i < s.n; i++ ) free( s.paths[i] );
	free( s.paths );
	return found;
}

static int hyb_adds_cb( struct dl_phdr_info* info, size_t size, void* data )
{
	(void)size;
	*(unsigned long long*)data = info->dlpi_adds;
	return 1; /* the first object carries the counter; stop there */
}

/* How many objects the process has loaded so far (never decreases). */
static unsigned long long hyb_loaded_adds( void )
{
	unsigned long long adds = 0;
	dl_iterate_phdr( hyb_adds_cb, &adds );
	return adds;
}

static void hyb_open_cpu_lib( const hyb_config_t* cfg )
{
	if ( hyb_cpu_lib_tried ) return;
	hyb_cpu_lib_tried = 1;
	if ( !cfg->cpu_lib[0] ) return;
	hyb_cpu_lib_handle = dlopen( cfg->cpu_lib, RTLD_NOW | RTLD_LOCAL );
	if ( hyb_cpu_lib_handle == NULL )
		hyb_log_always( "warning: HYBLAS_CPU_LIB=%s cannot be loaded (%s); using the BLAS the "
		                "program was linked with",
		                cfg->cpu_lib, dlerror() );
}

void* hyb_shim_resolve( hyb_routine_id_t id )
{
	const char* name = hyb_routine_info[id].name;
	hyb_lock( HYB_LOCK_RESOLVE );
	hyb_open_cpu_lib( hyb_config() );
	unsigned long long adds = hyb_loaded_adds();
	if ( hyb_failed_at[id] == adds + 1 )
	{
		hyb_unlock( HYB_LOCK_RESOLVE );
		return NULL;
	}

	/* HYBLAS_CPU_LIB's handle is never closed. */
	void* p = hyb_try_handle( hyb_cpu_lib_handle, name );
	if ( p == NULL )
	{
		p = hyb_try_handle( RTLD_NEXT, name );
		if ( p ) hyb_hold_object_of( p );
	}
	if ( p == NULL ) p = hyb_scan_loaded( name );
	for ( size_t i = 0; p == NULL && i < sizeof hyb_default_libs / sizeof hyb_default_libs[0]; i++ )
	{
		void* h = dlopen( hyb_default_libs[i], RTLD_NOW | RTLD_LOCAL );
		p       = hyb_try_handle( h, name );
		if ( p )
			hyb_hold( h );
		else if ( h )
			dlclose( h );
	}
	/* Loading a default library above changed the counter: read it again. */
	if ( p == NULL ) hyb_failed_at[id] = hyb_loaded_adds() + 1;
	hyb_unlock( HYB_LOCK_RESOLVE );
	if ( p )
	{
		Dl_info info;
		if ( hyb_log_level() >= HYB_LOG_TRACE && dladdr( p, &info ) )
			hyb_log_emit( HYB_LOG_TRACE, "resolved %s in %s", name, info.dli_fname );
	}
	return p;
}

void* hyb_shim_resolve_name( const char* name )
{
	/* First what the real library's own call of it reaches: the global
	   lookup order, where a program's own handler comes first. Its object
	   is held like a routine's, so a dlclose cannot leave it dangling. */
	hyb_lock( HYB_LOCK_RESOLVE );
	void* p = hyb_try_handle( RTLD_DEFAULT, name );
	if ( p )
		hyb_hold_object_of( p );
	else
	{
		hyb_open_cpu_lib( hyb_config() );
		p = hyb_try_handle( hyb_cpu_lib_handle, name );
		if ( p == NULL ) p = hyb_scan_loaded( name );
	}
	hyb_unlock( HYB_LOCK_RESOLVE );
	return p;
}
