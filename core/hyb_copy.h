/* SPDX-License-Identifier: BSD-3-Clause */
/* Bulk copies for staging: non-temporal stores, so that writing a buffer
   that will not be read soon by this core (a page-locked staging buffer, or
   the application's output) does not first read it into the cache. */
#ifndef HYB_COPY_H
#define HYB_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_types.h"

/* memcpy semantics (no overlap). Call hyb_copy_fence() before another agent
   (a DMA engine, another thread) reads what was written. */
void hyb_copy_stream( void* dst, const void* src, size_t bytes );

/* Pieces [b, e) of a copy of `total` contiguous bytes cut into pieces of `piece` bytes
   (the last one shorter), then a fence: the body of a team run over a chunked copy. */
void hyb_copy_pieces( void* dst, const void* src, size_t total, size_t piece, int64_t b,
                      int64_t e );

struct hyb_team_s;
/* A copy of `bytes` (no overlap) cut into pieces of `piece` bytes shared out over `team`
   (NULL: the calling thread alone), fenced: the bulk host copies of a pipeline, where one
   core's copy rate would bound the stage. */
void hyb_copy_team( struct hyb_team_s* team, void* dst, const void* src, size_t bytes,
                    size_t piece );

/* dst := beta dst + src for `count` elements of precision `prec` (beta is
   complex for c and z; its imaginary part is ignored for s and d). The
   level-3 pipeline applies the call's beta this way while it stores an
   output tile, so that the old tile never crosses PCIe. Ordinary stores:
   each line of dst was just read into the cache, so writing it costs no
   extra read (with streaming stores the update moved 97 GB/s of memory
   traffic where the copies of the same call shape moved 143). */
void hyb_copy_update( void* dst, const void* src, size_t count, hyb_prec_t prec,
                      const double beta[2] );

/* Order the streaming stores before what follows (an sfence). */
void hyb_copy_fence( void );

/* Copies under this size run on the calling thread: waking a team of copy
   threads costs tens of microseconds, more than it saves. Above it one thread
   is far too slow: the level-3 blocks and SpMV vectors copied by one thread
   moved a fraction of what a team of 8 moves (docs/design-notes.md,
   "Predicted versus measured"). */
#define HYB_COPY_TEAM_MIN ( (size_t)512 << 10 )

#endif
