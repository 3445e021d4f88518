/* SPDX-License-Identifier: BSD-3-Clause */
/* A library thread with the lock and condition its owner shares with it:
   started with every signal blocked, so that the program's signals go to
   the program's own threads, never to one of ours. */
#ifndef HYB_WORKER_H
#define HYB_WORKER_H

#include <pthread.h>

#include "hyb_status.h"

typedef struct
{
	pthread_t       th;
	pthread_mutex_t mu;
	pthread_cond_t  cv;
} hyb_worker_t;

/* Initialise w's lock and condition and run fn(arg) on a new thread.
   HYB_E_NO_MEMORY when the thread cannot be had: then nothing of w is left
   initialised. */
hyb_status_t hyb_worker_start( hyb_worker_t* w, void* ( *fn )(void*), void* arg );

/* Join w's thread (its owner has told it to stop). */
void hyb_worker_join( hyb_worker_t* w );

/* Destroy w's lock and condition (after the join, once nothing uses them). */
void hyb_worker_end( hyb_worker_t* w );

#endif
