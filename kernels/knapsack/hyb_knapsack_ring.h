/* SPDX-License-Identifier: BSD-3-Clause */
/* The circular host buffer of subproblems (seed 003 sec. 2.4.1): head,
   tail and check indices over an array that grows on demand up to a limit,
   the one or two contiguous segments a batch occupies (two when it wraps),
   and the check bookkeeping that decides termination. */
#ifndef HYB_KNAPSACK_RING_H
#define HYB_KNAPSACK_RING_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "kernels/knapsack/hyb_knapsack_node.h"

/* Where the ring's storage comes from: pinned host memory of the device in
   the GPU drivers, plain malloc for the CPU method. */
typedef struct
{
	void* ctx;
	hyb_status_t ( *alloc )( void* ctx, size_t bytes, void** out );
	void ( *release )( void* ctx, void* p );
} hyb_knapsack_host_mem_t;

/* Records occupy positions head, head + 1, ... (mod cap); tail = head +
   count. The check index of the seed is head + nchk: the records in
   [head, check) may be unfinished, those in [check, tail) are all
   finished; the search has ended on the host side when check == head. */
typedef struct
{
	hyb_knapsack_node_t*    buf;
	int64_t                 cap;   /* records the storage holds now */
	int64_t                 limit; /* most records ever (s_cpu) */
	int64_t                 head;
	int64_t                 count;
	int64_t                 nchk;
	int64_t                 peak;            /* most records stored at once */
	uint64_t                bytes_allocated; /* largest storage, bytes */
	hyb_knapsack_host_mem_t mem;
} hyb_knapsack_ring_t;

/* A contiguous run of ring positions. */
typedef struct
{
	int64_t pos;
	int64_t len;
} hyb_knapsack_seg_t;

/* An empty ring of at most `limit` records (>= 1); nothing allocated yet. */
void hyb_knapsack_ring_init( hyb_knapsack_ring_t* r, int64_t limit, hyb_knapsack_host_mem_t mem );

/* Release the storage (NULL-safe). */
void hyb_knapsack_ring_free( hyb_knapsack_ring_t* r );

/* Make room for `more` records after the tail, growing the storage
   (doubling, at least 4096 records, at most `limit`; the records are moved
   to start at position 0). Must not be called while a transfer into or out
   of the ring is in flight. Returns HYB_OK, HYB_E_AGAIN when count + more
   exceeds the limit (the seed's "CPU buffer exhausted"; nothing changed),
   or the allocator's status. */
hyb_status_t hyb_knapsack_ring_reserve( hyb_knapsack_ring_t* r, int64_t more );

/* Move the records into storage from `mem` (same capacity; the old storage
   is released with the old allocator), which the ring uses from then on.
   Same rules as reserve; on failure nothing changed. */
hyb_status_t hyb_knapsack_ring_rehome( hyb_knapsack_ring_t* r, hyb_knapsack_host_mem_t mem );

/* The segments of the `len` records after the tail (room must be
   reserved) or of the first `len` records from the head (len <= count).
   Returns the number of segments (0, 1, or 2 when the run wraps). */
int hyb_knapsack_ring_back_segs( const hyb_knapsack_ring_t* r, int64_t len,
                                 hyb_knapsack_seg_t seg[2] );
int hyb_knapsack_ring_front_segs( const hyb_knapsack_ring_t* r, int64_t len,
                                  hyb_knapsack_seg_t seg[2] );

/* Account `len` records written after the tail; `unfinished` says whether
   the batch may hold an unfinished subproblem (then check := the new tail,
   as the seed does after each DtoH batch). */
void hyb_knapsack_ring_commit_back( hyb_knapsack_ring_t* r, int64_t len, int unfinished );

/* Account `len` records taken from the head; returns how many of them may
   be unfinished (those that were before check). */
int64_t hyb_knapsack_ring_commit_front( hyb_knapsack_ring_t* r, int64_t len );

/* Host-side push of one record (room reserved) and pop of the head
   (count >= 1), with the same bookkeeping. */
void hyb_knapsack_ring_push( hyb_knapsack_ring_t* r, const hyb_knapsack_node_t* v, int unfinished );
hyb_knapsack_node_t hyb_knapsack_ring_pop( hyb_knapsack_ring_t* r );

/* The seed's indices, for statistics and tests. */
static inline int64_t hyb_knapsack_ring_tail( const hyb_knapsack_ring_t* r )
{
	return r->cap ? ( r->head + r->count ) % r->cap : 0;
}
static inline int64_t hyb_knapsack_ring_check( const hyb_knapsack_ring_t* r )
{
	return r->cap ? ( r->head + r->nchk ) % r->cap : 0;
}

#endif
