/* SPDX-License-Identifier: BSD-3-Clause */
/* Library threads with their lock and condition (see hyb_worker.h). */
#include "hyb_worker.h"

#include <signal.h>

hyb_status_t hyb_worker_start( hyb_worker_t* w, void* ( *fn )(void*), void* arg )
{
	pthread_mutex_init( &w->mu, NULL );
	pthread_cond_init( &w->cv, NULL );
	/* The new thread inherits the mask in force here. */
	sigset_t all, old;
	sigfillset( &all );
	pthread_sigmask( SIG_SETMASK, &all, &old );
	const int rc = pthread_create( &w->th, NULL, fn, arg );
	pthread_sigmask( SIG_SETMASK, &old, NULL );
	if ( rc == 0 ) return HYB_OK;
	pthread_cond_destroy( &w->cv );
	pthread_mutex_destroy( &w->mu );
	return HYB_E_NO_MEMORY;
}

void hyb_worker_join( hyb_worker_t* w )
{
	pthread_join( w->th, NULL );
}

void hyb_worker_end( hyb_worker_t* w )
{
	pthread_cond_destroy( &w->cv );
	pthread_mutex_destroy( &w->mu );
}
