/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's locks in their fixed order and the one fork protocol
   (see hyb_state.h). */
#include "hyb_state.h"

#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "hyb_guard.h"
#include "hyb_log.h"

_Static_assert( HYB_LOCK_COUNT <= 32, "the held-lock mask is 32 bits" );

static const char* const hyb_lock_names[HYB_LOCK_COUNT] = {
#define HYB_LOCK( name, guards ) #name,
#include "hyb_state_locks.def"
#undef HYB_LOCK
};

/* Statically initialised, so a lock works before any init and from any
   constructor. */
static struct
{
	pthread_mutex_t mu;
	pthread_cond_t  cv;
} hyb_locks[HYB_LOCK_COUNT] = {
#define HYB_LOCK( name, guards ) { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER },
#include "hyb_state_locks.def"
#undef HYB_LOCK
};

static void ( *_Atomic hyb_child_hooks[HYB_LOCK_COUNT] )( void );
static atomic_uint    hyb_order_violations;
static pthread_once_t hyb_fork_once = PTHREAD_ONCE_INIT;

/* The locks this thread holds, one bit per rank. */
static _Thread_local uint32_t hyb_held;
static _Thread_local int      hyb_forked;

/* A lock of equal or higher rank held already: the order is broken. */
static void hyb_lock_check_order( hyb_lock_id_t id )
{
	uint32_t above = hyb_held >> id;
	if ( above == 0 ) return;
	int held = (int)id;
	while ( ( above >>= 1 ) != 0 ) held++;
	atomic_fetch_add( &hyb_order_violations, 1 );
	hyb_log_once( hyb_hash_str( hyb_lock_names[id], (uint64_t)held ), HYB_LOG_WARN,
	              "internal error: lock %s taken while holding %s, against their order "
	              "(core/hyb_state_locks.def); please report",
	              hyb_lock_names[id], hyb_lock_names[held] );
}

void hyb_lock( hyb_lock_id_t id )
{
	hyb_lock_check_order( id );
	pthread_mutex_lock( &hyb_locks[id].mu );
	hyb_held |= (uint32_t)1 << id;
}

void hyb_unlock( hyb_lock_id_t id )
{
	hyb_held &= ~( (uint32_t)1 << id );
	pthread_mutex_unlock( &hyb_locks[id].mu );
}

int hyb_trylock( hyb_lock_id_t id )
{
	if ( pthread_mutex_trylock( &hyb_locks[id].mu ) != 0 ) return 0;
	hyb_held |= (uint32_t)1 << id;
	return 1;
}

void hyb_lock_wait( hyb_lock_id_t id )
{
	pthread_cond_wait( &hyb_locks[id].cv, &hyb_locks[id].mu );
}

void hyb_lock_broadcast( hyb_lock_id_t id )
{
	pthread_cond_broadcast( &hyb_locks[id].cv );
}

const char* hyb_lock_name( hyb_lock_id_t id )
{
	return (unsigned)id < HYB_LOCK_COUNT ? hyb_lock_names[id] : "?";
}

int hyb_state_holds_locks( void )
{
	return hyb_held != 0;
}

unsigned hyb_state_order_violations( void )
{
	return atomic_load( &hyb_order_violations );
}

void hyb_state_on_fork_child( hyb_lock_id_t id, void ( *fn )( void ) )
{
	atomic_store( &hyb_child_hooks[id], fn );
}

/* ------------------------------------------------------------ fork */

/* First the other threads leave the real library (hyb_guard.h: its own
   locks must not be held by a thread the child will not have), then the
   library's locks are taken. */
void hyb_state_fork_prepare( void )
{
	hyb_guard_fork_close( HYB_GUARD_FORK_WAIT_S );
	for ( int i = 0; i < HYB_LOCK_COUNT; i++ ) hyb_lock( (hyb_lock_id_t)i );
}

void hyb_state_fork_parent( void )
{
	for ( int i = HYB_LOCK_COUNT - 1; i >= 0; i-- ) hyb_unlock( (hyb_lock_id_t)i );
	hyb_guard_fork_open( 0 );
}

/* Only async-signal-safe work: the locks were taken by this thread in
   prepare, the threads that might wait on the conditions are gone, so all
   are simply made new. */
void hyb_state_fork_child( void )
{
	for ( int i = 0; i < HYB_LOCK_COUNT; i++ )
	{
		pthread_mutex_init( &hyb_locks[i].mu, NULL );
		pthread_cond_init( &hyb_locks[i].cv, NULL );
	}
	hyb_held   = 0;
	hyb_forked = 1;
	hyb_guard_fork_open( 1 );
	for ( int i = 0; i < HYB_LOCK_COUNT; i++ )
	{
		void ( *fn )( void ) = atomic_load( &hyb_child_hooks[i] );
		if ( fn ) fn();
	}
}

static void hyb_state_fork_register( void )
{
	pthread_atfork( hyb_state_fork_prepare, hyb_state_fork_parent, hyb_state_fork_child );
}

void hyb_state_fork_install( void )
{
	pthread_once( &hyb_fork_once, hyb_state_fork_register );
}

int hyb_state_forked_thread( void )
{
	return hyb_forked;
}

int hyb_state_omp_enter( void )
{
	if ( !hyb_forked ) return 0;
	int saved = omp_get_max_threads();
	omp_set_num_threads( 1 );
	return saved;
}

void hyb_state_omp_leave( int saved )
{
	if ( saved > 0 ) omp_set_num_threads( saved );
}
