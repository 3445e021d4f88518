/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's process state: its locks in their fixed order and the one
   fork protocol.

   Every process-wide lock of the library lives here, named and ranked in
   core/hyb_state_locks.def (top = lowest rank). The rule: a thread that
   holds a lock takes only locks of higher rank. The one pthread_atfork
   handler (installed by the shim, hyb_state_fork_install) takes every lock
   in rank order before fork() (prepare), releases them in reverse order in
   the parent, and in the child makes every lock and condition new, marks
   the child's thread, and runs the child hooks the modules registered. So
   fork() waits until no thread is inside a locked section, no lock can be
   held in the child by a thread that does not exist there, and prepare
   cannot deadlock with a thread that follows the rule (jemalloc's
   witness-ranked locks and postfork handlers are the model).

   Locks that belong to one object (a residency cache, a device context, a
   pipeline run, a thread team) are not here: a child never uses the
   parent's objects of that kind (its device is forbidden, and the
   residency objects recognise a child by its pid). Ownership tokens that
   nobody waits for (the sparse check thread, the staging team) are atomics,
   which fork needs nothing for; their modules forget them in a child hook.

   pthread_once is fork-safe in glibc (an initialisation interrupted by
   fork() runs again in the child), so the once-guards of configuration,
   profile and stage-1 init need nothing here. */
#ifndef HYB_STATE_H
#define HYB_STATE_H

typedef enum
{
#define HYB_LOCK( name, guards ) HYB_LOCK_##name,
#include "hyb_state_locks.def"
#undef HYB_LOCK
	HYB_LOCK_COUNT
} hyb_lock_id_t;

/* Take / release lock id (blocking). Taking a lock while holding one of
   equal or higher rank breaks the order that makes fork() safe: it is
   counted and logged once (never fatal). Thread-safe; usable before any
   init. */
void hyb_lock( hyb_lock_id_t id );
void hyb_unlock( hyb_lock_id_t id );

/* Take lock id if it is free; 1 when taken. Never blocks, so it may be
   taken out of order. */
int hyb_trylock( hyb_lock_id_t id );

/* The condition that goes with lock id: wait (the caller holds the lock;
   releases it while waiting, holds it again on return) and wake every
   waiter. */
void hyb_lock_wait( hyb_lock_id_t id );
void hyb_lock_broadcast( hyb_lock_id_t id );

/* Name of lock id, as in hyb_state_locks.def ("LEARN"). */
const char* hyb_lock_name( hyb_lock_id_t id );

/* Lock-order violations seen so far in this process (tests). */
unsigned hyb_state_order_violations( void );

/* Whether the calling thread holds any of the library's locks. */
int hyb_state_holds_locks( void );

/* Register what a child of fork() must forget of the state lock id guards
   (helper threads that do not exist there, the parent's device resources):
   fn runs in the child after every lock was made new, alone, in rank
   order; it may not take locks, allocate or log (write(2) only). One hook
   per lock, replaced by a later call; cheap enough to call whenever the
   state it forgets is created. */
void hyb_state_on_fork_child( hyb_lock_id_t id, void ( *fn )( void ) );

/* The fork protocol (see above). The handlers are called by pthread_atfork;
   install registers them once per process (idempotent, thread-safe): the
   shim at stage-1 init, and the unit-test runner, whose children must
   behave as a program's do. */
void hyb_state_fork_prepare( void );
void hyb_state_fork_parent( void );
void hyb_state_fork_child( void );
void hyb_state_fork_install( void );

/* 1 in a child of fork(), in the thread that called fork() (the child's
   only thread at first); 0 in every other thread, including those the
   child creates. */
int hyb_state_forked_thread( void );

/* OpenMP in the thread that came through fork(): if that thread ran a
   parallel region in the parent, libgomp keeps its team, whose threads did
   not survive fork(), and the next parallel region waits for them forever.
   Call enter at the start of a call that may run OpenMP regions and leave
   with its result at the end: in that thread the regions in between use
   one thread (the caller's own setting is restored); elsewhere nothing
   changes. */
int  hyb_state_omp_enter( void );
void hyb_state_omp_leave( int saved );

#endif
