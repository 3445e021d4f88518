/* SPDX-License-Identifier: BSD-3-Clause */
/* Bulk copies for staging: non-temporal stores, so that writing a buffer
   that will not be read soon by this core (a page-locked staging buffer, or
   the application's output) does not first read it into the cache. */
#ifndef HYB_COPY_H
#define HYB_COPY_H

#include <stddef.h>

/* memcpy semantics (no overlap). Call hyb_copy_fence() before another agent
   (a DMA engine, another thread) reads what was written. */
void hyb_copy_stream( void* dst, const void* src, size_t bytes );

/* Order the streaming stores before what follows (an sfence). */
void hyb_copy_fence( void );

#endif
