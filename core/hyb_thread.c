/* SPDX-License-Identifier: BSD-3-Clause */
/* Library threads and their signal mask (see hyb_thread.h). */
#include "hyb_thread.h"

#include <signal.h>

int hyb_thread_create( pthread_t* th, const pthread_attr_t* attr, void* ( *fn )(void*), void* arg )
{
	/* The new thread inherits the mask in force here. */
	sigset_t mask, old;
	sigfillset( &mask );
	sigdelset( &mask, SIGSEGV );
	sigdelset( &mask, SIGBUS );
	sigdelset( &mask, SIGFPE );
	sigdelset( &mask, SIGILL );
	sigdelset( &mask, SIGTRAP );
	pthread_sigmask( SIG_SETMASK, &mask, &old );
	const int rc = pthread_create( th, attr, fn, arg );
	pthread_sigmask( SIG_SETMASK, &old, NULL );
	return rc;
}

hyb_status_t hyb_thread_start( hyb_thread_t* w, void* ( *fn )(void*), void* arg )
{
	pthread_mutex_init( &w->mu, NULL );
	pthread_cond_init( &w->cv, NULL );
	if ( hyb_thread_create( &w->th, NULL, fn, arg ) == 0 ) return HYB_OK;
	pthread_cond_destroy( &w->cv );
	pthread_mutex_destroy( &w->mu );
	return HYB_E_NO_MEMORY;
}

void hyb_thread_join( hyb_thread_t* w )
{
	pthread_join( w->th, NULL );
}

void hyb_thread_end( hyb_thread_t* w )
{
	pthread_cond_destroy( &w->cv );
	pthread_mutex_destroy( &w->mu );
}
