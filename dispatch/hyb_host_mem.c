/* SPDX-License-Identifier: BSD-3-Clause */
/* hyblas_host_alloc and hyblas_host_free: a mapping of the library's own in 2 MiB pages
   where the system gives them, zeroed by the OpenMP threads and page-locked with device 0's
   driver where a device is in use; the blocks are kept in a list so that a workload can
   tell page-locked arrays without asking the driver.

   Why not the driver's own page-locked allocation (cudaHostAlloc, as seed 003 allocates
   its data sets): it zeroes and locks on one thread, 11.5 s for the 24.9 GB acoustic set
   on an H200 machine, where zeroing this mapping on every core and locking it took 1.4-1.5 s
   with the device's start-up; larger pages also lock faster than a program's 4 KiB ones
   (docs/stencil.md, "Host memory for the fields"). */
#include "dispatch/hyb_host_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "hyb_state.h"
#include "hyblas_ext.h"
#include "kernels/hyb_device.h"

#define HYB_HOST_MEM_EXPORT __attribute__( ( visibility( "default" ) ) )

/* The mapping's alignment and granule: one transparent huge page. */
#define HYB_HOST_MEM_HUGE ( (size_t)2 << 20 )

typedef struct
{
	uintptr_t lo;
	size_t    bytes;  /* asked for */
	size_t    mapped; /* bytes rounded up to HYB_HOST_MEM_HUGE */
	int       pinned; /* page-locked with device 0's driver */
	pid_t     pid;    /* the process that locked it: a fork child forgets the lock */
} hyb_host_block_t;

/* The blocks not yet freed, unordered (a program holds a handful). HOST_MEM guards them. */
static hyb_host_block_t* hyb_host_blocks;
static size_t            hyb_host_nblocks, hyb_host_cap;

/* `mapped` bytes at a huge page's boundary, asked for huge pages and zeroed by the OpenMP
   threads (each touches its own part, as an OpenMP program's first touch would); NULL when
   the address space or memory runs out. */
static char* hyb_host_mem_map( size_t mapped )
{
	const size_t span = mapped + HYB_HOST_MEM_HUGE;
	char*        a = mmap( NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( a == MAP_FAILED ) return NULL;
	char* lo = (char*)( ( (uintptr_t)a + HYB_HOST_MEM_HUGE - 1 ) & ~( HYB_HOST_MEM_HUGE - 1 ) );
	if ( lo > a ) munmap( a, (size_t)( lo - a ) );
	if ( lo + mapped < a + span ) munmap( lo + mapped, (size_t)( a + span - ( lo + mapped ) ) );
#ifdef MADV_HUGEPAGE
	madvise( lo, mapped, MADV_HUGEPAGE );
#endif
	const long pieces = (long)( mapped / HYB_HOST_MEM_HUGE );
#pragma omp parallel for schedule( static )
	for ( long i = 0; i < pieces; i++ )
		memset( lo + (size_t)i * HYB_HOST_MEM_HUGE, 0, HYB_HOST_MEM_HUGE );
	return lo;
}

/* Page-lock [p, p + bytes) with device 0's driver; 0 without a device or when it refuses
   (page-locked memory is scarcer than address space). */
static int hyb_host_mem_lock( void* p, size_t bytes )
{
	hyb_dev_t* d = NULL;
	if ( hyb_devices_ensure() != HYB_OK || hyb_devices_count() < 1 ||
	     hyb_dev_acquire( 0, &d ) != HYB_OK )
		return 0;
	const int locked = hyb_dev_register( d, p, bytes ) == HYB_OK;
	hyb_dev_release( d );
	return locked;
}

/* Unlock (where this process locked it) and unmap a block. A block locked by another
   process (the parent of this fork child) is not this process's to unlock: its device is
   forbidden here; the child's copy of the mapping is its own to unmap. */
static void hyb_host_mem_release( const hyb_host_block_t* b )
{
	hyb_dev_t* d = NULL;
	if ( b->pinned && b->pid == getpid() && hyb_dev_acquire( 0, &d ) == HYB_OK )
	{
		hyb_dev_unregister( d, (void*)b->lo );
		hyb_dev_release( d );
	}
	munmap( (void*)b->lo, b->mapped );
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
	if ( bytes > SIZE_MAX - 2 * HYB_HOST_MEM_HUGE ) return HYBLAS_E_NO_MEMORY;
	hyb_host_block_t b = { .bytes = bytes, .pid = getpid() };
	b.mapped           = ( bytes + HYB_HOST_MEM_HUGE - 1 ) / HYB_HOST_MEM_HUGE * HYB_HOST_MEM_HUGE;
	char* p            = hyb_host_mem_map( b.mapped );
	if ( p == NULL ) return HYBLAS_E_NO_MEMORY;
	b.lo     = (uintptr_t)p;
	b.pinned = hyb_host_mem_lock( p, b.mapped );
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
