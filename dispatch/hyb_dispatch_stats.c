/* SPDX-License-Identifier: BSD-3-Clause */
/* The intercepted routines as operations of the statistics: their names come from the
   generated routine table, which the core must not see. */
#include "dispatch/hyb_dispatch.h"

#include "hyb_routines.h"
#include "hyb_stats.h"

void hyb_stats_init_routines( const char* trace, int report )
{
	/* Kept for the life of the process: the statistics keep the pointer. */
	static const char* names[HYB_R_COUNT];
	for ( int i = 0; i < HYB_R_COUNT; i++ ) names[i] = hyb_routine_info[i].name;
	hyb_stats_init_traced( HYB_R_COUNT, names, trace, report );
}
