/* SPDX-License-Identifier: BSD-3-Clause */
/* A count of coming events that a test hook is to act on (the next n proofs fail, the next
   n reads are refused): each event takes one while some are left. */
#ifndef HYB_COUNTDOWN_H
#define HYB_COUNTDOWN_H

#include <stdatomic.h>

/* 1 if one was left and this call took it, 0 if none was left. Thread-safe. */
static inline int hyb_countdown_take( atomic_int* c )
{
	int f = atomic_load( c );
	while ( f > 0 && !atomic_compare_exchange_weak( c, &f, f - 1 ) )
		;
	return f > 0;
}

#endif
