/* SPDX-License-Identifier: BSD-3-Clause */
/* Library threads: started with the program's asynchronous signals blocked,
   so that a signal the program sends to itself goes to one of its own
   threads, whose handlers expect it, never to one of ours. The signals a
   fault raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP) stay open: one of
   our threads may touch the program's memory, and a program that catches
   its own page faults (a write barrier, a checkpointer) must see them there
   too; blocked, the kernel would kill the process instead. */
#ifndef HYB_THREAD_H
#define HYB_THREAD_H

#include <pthread.h>

#include "hyb_status.h"

/* pthread_create with that mask. */
int hyb_thread_create( pthread_t* th, const pthread_attr_t* attr, void* ( *fn )(void*), void* arg );

/* A library thread with the lock and condition its owner shares with it. */
typedef struct
{
	pthread_t       th;
	pthread_mutex_t mu;
	pthread_cond_t  cv;
} hyb_thread_t;

/* Initialise w's lock and condition and run fn(arg) on a new thread.
   HYB_E_NO_MEMORY when the thread cannot be had: then nothing of w is left
   initialised. */
hyb_status_t hyb_thread_start( hyb_thread_t* w, void* ( *fn )(void*), void* arg );

/* Join w's thread (its owner has told it to stop). */
void hyb_thread_join( hyb_thread_t* w );

/* Destroy w's lock and condition (after the join, once nothing uses them). */
void hyb_thread_end( hyb_thread_t* w );

/* One step of a spin-wait: tells the core that this thread is waiting (a pause), so that
   a sibling hyperthread runs and the loop does not flood the memory system. */
static inline void hyb_cpu_relax( void )
{
#if defined( __x86_64__ ) || defined( __i386__ )
	__builtin_ia32_pause();
#elif defined( __aarch64__ )
	__asm__ __volatile__( "yield" );
#endif
}

#endif
