/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-thread depth of calls into the real library or a backend, so that a
   BLAS call made from inside one goes straight to the real symbol. */
#ifndef HYB_GUARD_H
#define HYB_GUARD_H

/* initial-exec: one TLS load, no __tls_get_addr call on the hot path (the
   library is normally preloaded or linked, where static TLS is available). */
extern __thread unsigned hyb_tls_depth __attribute__( ( tls_model( "initial-exec" ) ) );

static inline unsigned hyb_guard_depth( void )
{
	return hyb_tls_depth;
}

static inline void hyb_guard_enter( void )
{
	hyb_tls_depth++;
}

static inline void hyb_guard_leave( void )
{
	hyb_tls_depth--;
}

#endif
