/* SPDX-License-Identifier: BSD-3-Clause */
/* Stage-1 init: configuration, logging, statistics, resolver, fork
   handlers, exit report. Never touches a device. */
#define _GNU_SOURCE
#include "shim/hyb_shim.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "kernels/real/hyb_backend_real.h"
#include "policies/hyb_config.h"

#ifndef HYB_VERSION_STRING
#define HYB_VERSION_STRING "0.0.0"
#endif

static pthread_once_t hyb_shim_once = PTHREAD_ONCE_INIT;
static const char*    hyb_routine_names[HYB_R_COUNT];

static void hyb_shim_report_at_exit( void )
{
	hyb_stats_report();
}

static void hyb_shim_init_once( void )
{
	const hyb_config_t* cfg = hyb_config();

	hyb_real_set_resolver( hyb_shim_resolve );

	int trace_fd = -1;
	if ( cfg->trace[0] )
	{
		trace_fd = open( cfg->trace, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644 );
		if ( trace_fd < 0 )
			HYB_LOG( HYB_LOG_WARN, "warning: cannot open HYBLAS_TRACE=%s; no trace", cfg->trace );
	}
	for ( int i = 0; i < HYB_R_COUNT; i++ ) hyb_routine_names[i] = hyb_routine_info[i].name;
	hyb_stats_init( HYB_R_COUNT, hyb_routine_names, cfg->report, trace_fd );
	if ( cfg->report ) atexit( hyb_shim_report_at_exit );

	hyb_shim_fork_register();
	HYB_LOG( HYB_LOG_INFO, "%s loaded", HYB_VERSION_STRING );
}

void hyb_shim_ensure_init( void )
{
	pthread_once( &hyb_shim_once, hyb_shim_init_once );
}

/* Runs when the library is loaded. Another library's constructor may call a
   BLAS routine before this one runs: every wrapper calls
   hyb_shim_ensure_init() too. */
__attribute__( ( constructor ) ) static void hyb_shim_constructor( void )
{
	hyb_shim_ensure_init();
}

__attribute__( ( visibility( "default" ) ) ) const char* hyb_version( void )
{
	return HYB_VERSION_STRING;
}
