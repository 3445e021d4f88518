/* SPDX-License-Identifier: BSD-3-Clause */
/* Stage-1 init: configuration, logging, statistics, resolver, fork
   handlers, exit report. Never touches a device. */
#define _GNU_SOURCE
#include "shim/hyb_shim.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_backend_real.h"
#include "dispatch/hyb_dispatch.h"
#include "hyb_log.h"
#include "hyb_stats.h"

static pthread_once_t hyb_shim_once = PTHREAD_ONCE_INIT;

static void hyb_shim_report_at_exit( void )
{
	hyb_stats_report();
}

static void hyb_shim_init_once( void )
{
	const hyb_config_t* cfg = hyb_config();

	hyb_real_set_resolver( hyb_shim_resolve );
	hyb_real_set_name_resolver( hyb_shim_resolve_name );

	hyb_stats_init_routines( cfg->trace, cfg->report );
	if ( cfg->report ) atexit( hyb_shim_report_at_exit );

	hyb_shim_fork_register();
	HYB_LOG( HYB_LOG_INFO, "%s loaded", hyb_version() );
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
