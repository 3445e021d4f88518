/* SPDX-License-Identifier: BSD-3-Clause */
/* The monotonic clock every timing in hyblas uses. */
#include "hyb_types.h"

#include <time.h>

double hyb_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
