/* SPDX-License-Identifier: BSD-3-Clause */
/* hyblas_host_alloc and hyblas_host_free: a block page-locked by the device's driver where
   one is in use (seed 003's direct mapping allocates its fields so, with cudaHostAlloc),
   ordinary page-aligned memory otherwise; the blocks are kept in a list so that a workload
   can tell page-locked arrays without asking the driver. */
#include "dispatch/hyb_host_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "hyb_state.h"
#include "hyblas_ext.h"
#include "kernels/hyb_device.h"

#define HYB_HOST_MEM_EXPORT __attribute__( ( visibility( "default" ) ) )

typedef struct
{
	uintptr_t lo;
	size_t    bytes;
	int       pinned; /* from the driver; else from posix_memalign */
	pid_t     pid;    /* the process that allocated it: a fork child forgets it */
} hyb_host_block_t;

/* The blocks not yet freed, unordered (a program holds a handful). HOST_MEM guards them. */
static hyb_host_block_t* hyb_host_blocks;
static size_t            hyb_host_nblocks, hyb_host_cap;

/* Page-locked memory from device 0's driver, or NULL (no device, or the driver refused:
   page-locked memory is a scarcer resource than address space). */
static void* hyb_host_mem_locked( size_t bytes )
{
	void*      p = NULL;
	hyb_dev_t* d = NULL;
	if ( hyb_devices_ensure() != HYB_OK || hyb_devices_count() < 1 ||
	     hyb_dev_acquire( 0, &d ) != HYB_OK )
		return NULL;
	if ( hyb_dev_host_alloc( d, bytes, &p ) != HYB_OK ) p = NULL;
	hyb_dev_release( d );
	return p;
}

/* Hand a block back to where it came from. A page-locked block allocated by another
   process (the parent of this fork child) is not this process's to return: its device is
   forbidden here. */
static void hyb_host_mem_release( const hyb_host_block_t* b )
{
	void* p = (void*)b->lo;
	if ( !b->pinned )
	{
		free( p );
		return;
	}
	hyb_dev_t* d = NULL;
	if ( b->pid == getpid() && hyb_dev_acquire( 0, &d ) == HYB_OK )
	{
		hyb_dev_host_free( d, p );
		hyb_dev_release( d );
	}
}

/* Append a block; 0 when the list cannot grow. */
static int hyb_host_mem_add( const hyb_host_block_t* b )
{
	int ok = 1;
	hyb_lock( HYB_LOCK_HOST_MEM );
	if ( hyb_host_nblocks == hyb_host_cap )
	{
		const size_t      cap  = hyb_host_cap ? 2 * hyb_host_cap : 16;
		hyb_host_block_t* more = realloc( hyb_host_blocks, cap * sizeof *more );
		if ( more )
		{
			hyb_host_blocks = more;
			hyb_host_cap    = cap;
		}
		else
			ok = 0;
	}
	if ( ok ) hyb_host_blocks[hyb_host_nblocks++] = *b;
	hyb_unlock( HYB_LOCK_HOST_MEM );
	return ok;
}

HYB_HOST_MEM_EXPORT hyblas_status_t hyblas_host_alloc( size_t bytes, void** out )
{
	if ( out == NULL || bytes == 0 ) return HYBLAS_E_INVALID;
	hyb_host_block_t b = { .bytes = bytes, .pid = getpid() };
	void*            p = hyb_host_mem_locked( bytes );
	b.pinned           = p != NULL;
	if ( p == NULL && posix_memalign( &p, (size_t)sysconf( _SC_PAGESIZE ), bytes ) != 0 )
		return HYBLAS_E_NO_MEMORY;
	b.lo = (uintptr_t)p;
	if ( !hyb_host_mem_add( &b ) )
	{
		hyb_host_mem_release( &b );
		return HYBLAS_E_NO_MEMORY;
	}
	*out = p;
	return HYBLAS_OK;
}

HYB_HOST_MEM_EXPORT hyblas_status_t hyblas_host_free( void* p )
{
	if ( p == NULL ) return HYBLAS_OK;
	hyb_host_block_t b;
	int              found = 0;
	hyb_lock( HYB_LOCK_HOST_MEM );
	for ( size_t i = 0; i < hyb_host_nblocks && !found; i++ )
		if ( hyb_host_blocks[i].lo == (uintptr_t)p )
		{
			b                  = hyb_host_blocks[i];
			hyb_host_blocks[i] = hyb_host_blocks[--hyb_host_nblocks];
			found              = 1;
		}
	hyb_unlock( HYB_LOCK_HOST_MEM );
	if ( !found ) return HYBLAS_E_INVALID;
	hyb_host_mem_release( &b );
	return HYBLAS_OK;
}

int hyb_host_mem_pinned( const void* p, size_t bytes )
{
	const uintptr_t lo   = (uintptr_t)p;
	const pid_t     self = getpid();
	int             in   = 0;
	hyb_lock( HYB_LOCK_HOST_MEM );
	for ( size_t i = 0; i < hyb_host_nblocks && !in; i++ )
	{
		const hyb_host_block_t* b = &hyb_host_blocks[i];
		in = b->pinned && b->pid == self && lo >= b->lo && bytes <= b->bytes &&
		     lo - b->lo <= b->bytes - bytes;
	}
	hyb_unlock( HYB_LOCK_HOST_MEM );
	return in;
}
