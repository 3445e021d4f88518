/* SPDX-License-Identifier: BSD-3-Clause */
/* The monotonic clock every timing in hyblas uses, and when the CPU library last
   returned from a threaded call (see hyb_types.h). */
#include "hyb_types.h"

#include <stdatomic.h>
#include <time.h>

double hyb_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds of the last note, as bits of a double (0: never). */
static _Atomic uint64_t hyb_cpu_lib_last;

void hyb_cpu_lib_note( void )
{
	double   t = hyb_now();
	uint64_t bits;
	__builtin_memcpy( &bits, &t, sizeof bits );
	atomic_store_explicit( &hyb_cpu_lib_last, bits, memory_order_relaxed );
}

int hyb_cpu_lib_recent( void )
{
	uint64_t bits = atomic_load_explicit( &hyb_cpu_lib_last, memory_order_relaxed );
	double   t;
	__builtin_memcpy( &t, &bits, sizeof t );
	return bits != 0 && hyb_now() - t < HYB_CPU_LIB_SPIN_S;
}
