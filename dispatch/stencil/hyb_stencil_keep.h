/* SPDX-License-Identifier: BSD-3-Clause */
/* The rollback copy of a stencil device run's input levels, taken on a
   thread of its own while the run goes on: the run must not write a byte
   of a kept array before that byte is kept (hyb_sd_keep_cover), and after
   a failure only the kept part is put back, since nothing beyond it was
   written. The run then pays for the copy only where the copy falls
   behind its writes, instead of copying every input before it starts. */
#ifndef HYB_STENCIL_KEEP_H
#define HYB_STENCIL_KEEP_H

#include <stddef.h>

#include "hyb_status.h"
#include "hyb_team.h"

/* Arrays one keep covers at most (the time levels a run reads). */
#define HYB_SD_KEEP_ARRAYS 3

typedef struct hyb_sd_keep_s hyb_sd_keep_t;

/* Memory a keep copies into, held by its owner (a handle) across runs:
   touched once, so that later runs copy at the memory's rate instead of
   first faulting every page in. */
typedef struct
{
	void*  mem;
	size_t bytes;
} hyb_sd_keep_mem_t;

/* Give back m's memory (m stays usable, empty). */
void hyb_sd_keep_mem_free( hyb_sd_keep_mem_t* m );

/* Start keeping arrays[0 .. n) of `bytes` each, each copied from the front
   in pieces (the runs write the planes of a level in that order), first
   the array a write waits for, else the least kept of the lowest rank
   (rank[a]: lower for an array the run first writes sooner; NULL: all
   alike), by `threads` threads
   (1: the keep's thread alone), into `mem` (grown to n * bytes when
   smaller; NULL: memory of the keep's own, given back at the end).
   HYB_E_NO_MEMORY (the copy's memory or the thread cannot be had) leaves
   *out NULL and nothing copied. */
hyb_status_t hyb_sd_keep_start( void* const* arrays, const int* rank, int n, size_t bytes,
                                int threads, hyb_sd_keep_mem_t* mem, hyb_sd_keep_t** out );

/* The team to keep n arrays of ranks rank[0 .. n) with, given `threads`
   for a copy of all of them at once: `threads` times the largest share of
   the arrays that one rank holds, rounded up, at least one (NULL rank:
   `threads`). The copy has to stay ahead only of the block that first
   writes each array; where blocks write the ranks one after another, each
   block needs that share of the rate. A faster copy costs the transfers
   beside it more than a slower one (docs/stencil.md, "The rollback copy's
   team"). */
int hyb_sd_keep_team_size( const int* rank, int n, int threads );

/* Before a write of `len` bytes at `dst`: if dst lies in a kept array,
   wait until that array is kept up to the write's end. NULL k: returns. */
void hyb_sd_keep_cover( hyb_sd_keep_t* k, const void* dst, size_t len );

/* Seconds hyb_sd_keep_cover has waited so far (0 for NULL). */
double hyb_sd_keep_waited( hyb_sd_keep_t* k );

/* Bytes of array a kept so far (0 for NULL). */
size_t hyb_sd_keep_kept( hyb_sd_keep_t* k, int a );

/* Stop copying (the piece under way finishes), then with `restore` put the
   kept part of every array back, and free k (NULL: nothing). Call once
   nothing writes the arrays any more. */
void hyb_sd_keep_end( hyb_sd_keep_t* k, int restore, hyb_team_t* team );

/* Tests: keep in pieces of `piece` bytes (0: the default) and wait `us`
   microseconds before each, so that a run overtakes the copy, must wait for
   it, and may fail with an array kept in part. */
void hyb_sd_keep_test( unsigned us, size_t piece );

#endif
