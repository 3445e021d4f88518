/* SPDX-License-Identifier: BSD-3-Clause */
/* The C heap as the device and engine interfaces' allocator callbacks, and the free of
   every array a struct owns in one statement. */
#ifndef HYB_HEAP_H
#define HYB_HEAP_H

#include <stddef.h>
#include <stdlib.h>

#include "hyb_status.h"

/* An allocator callback on the C heap (`ctx` unused). A request of 0 bytes gets a block
   of 1, so that a NULL result always means no memory. */
static inline hyb_status_t hyb_heap_alloc( void* ctx, size_t bytes, void** out )
{
	(void)ctx;
	*out = malloc( bytes ? bytes : 1 );
	return *out ? HYB_OK : HYB_E_NO_MEMORY;
}

/* The free callback that goes with hyb_heap_alloc. */
static inline void hyb_heap_free( void* ctx, void* p )
{
	(void)ctx;
	free( p );
}

/* free() each of the `n` pointers at p. */
static inline void hyb_free_each( const void* const* p, size_t n )
{
	for ( size_t i = 0; i < n; i++ ) free( (void*)p[i] );
}

/* free() each argument: HYB_FREE_ALL( s->a, s->b, s->c ). */
#define HYB_FREE_ALL( ... )                                                                        \
	hyb_free_each( ( const void* const[] ){ __VA_ARGS__ },                                         \
	               sizeof( ( const void* const[] ){ __VA_ARGS__ } ) / sizeof( const void* ) )

#endif
