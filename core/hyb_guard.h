/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-thread depth of calls into the real library or a backend, so that a
   BLAS call made from inside one goes straight to the real symbol; and the
   fork gate: fork() waits until no other thread is inside the real
   library, whose internal locks (OpenBLAS's level-3 lock, say) a thread
   holds while it is inside and which a child would find locked forever. */
#ifndef HYB_GUARD_H
#define HYB_GUARD_H

#include <stdatomic.h>

/* initial-exec: one TLS load, no __tls_get_addr call on the hot path (the
   library is normally preloaded or linked, where static TLS is available). */
extern __thread unsigned hyb_tls_depth __attribute__( ( tls_model( "initial-exec" ) ) );

static inline unsigned hyb_guard_depth( void )
{
	return hyb_tls_depth;
}

/* The outermost entry and exit of a thread (hyb_guard.c). */
void hyb_guard_gate_in( void );
void hyb_guard_gate_out( void );

static inline void hyb_guard_enter( void )
{
	if ( hyb_tls_depth++ == 0 ) hyb_guard_gate_in();
}

static inline void hyb_guard_leave( void )
{
	if ( --hyb_tls_depth == 0 ) hyb_guard_gate_out();
}

/* Seconds fork() waits at most for the other threads to leave the real
   library: a thread inside may itself wait for the forking thread (an
   application's xerbla taking a lock the forking thread holds), and the
   parent must not hang for it; past the bound the fork goes on as it would
   without the gate. */
#define HYB_GUARD_FORK_WAIT_S 10.0

/* Close the gate (new entries wait) and wait up to max_s seconds for every
   other thread to leave; returns 1 when none is inside, 0 when the bound
   passed. The gate stays closed until hyb_guard_fork_open. */
int hyb_guard_fork_close( double max_s );

/* Open the gate again: in the parent after fork, and in the child, where
   the other threads' records are also released (async-signal-safe). */
void hyb_guard_fork_open( int child );

#endif
