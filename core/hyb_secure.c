/* SPDX-License-Identifier: BSD-3-Clause */
/* The secure-execution decision (see hyb_secure.h). */
#include "hyb_secure.h"

#include <stdatomic.h>
#include <sys/auxv.h>

/* -1: not decided yet; 0 or 1 from the kernel; a test's forced value wins. */
static atomic_int hyb_secure_kernel = -1;
static atomic_int hyb_secure_forced = -1;

int hyb_secure_mode( void )
{
	int forced = atomic_load_explicit( &hyb_secure_forced, memory_order_relaxed );
	if ( forced >= 0 ) return forced;
	int v = atomic_load_explicit( &hyb_secure_kernel, memory_order_relaxed );
	if ( v < 0 )
	{
		/* AT_SECURE is set when the effective ids differ from the real ones or
		   the program gained capabilities on exec; an absent entry reads 0. */
		v = getauxval( AT_SECURE ) != 0;
		atomic_store_explicit( &hyb_secure_kernel, v, memory_order_relaxed );
	}
	return v;
}

void hyb_secure_force_for_test( int secure )
{
	atomic_store_explicit( &hyb_secure_forced, secure < 0 ? -1 : secure != 0,
	                       memory_order_relaxed );
}
