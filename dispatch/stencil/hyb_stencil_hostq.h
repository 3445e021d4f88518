/* SPDX-License-Identifier: BSD-3-Clause */
/* The host steps of a stencil device run (staging, the acoustic's deferred
   commits, the final placement) on a thread of their own: each copy waits
   for the device events it depends on there, so the thread that issues the
   schedule never blocks on a transfer it does not itself depend on, and
   the copy is shared out over a copy team. */
#ifndef HYB_STENCIL_HOSTQ_H
#define HYB_STENCIL_HOSTQ_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_team.h"
#include "kernels/hyb_device.h"

/* Events one queued copy may wait for. */
#define HYB_SD_HOSTQ_EVENTS 16

typedef struct hyb_sd_hostq_s hyb_sd_hostq_t;

/* A queue on context `dev` whose copies use `team` (NULL: the queue's
   thread alone). HYB_E_NO_MEMORY (or the thread's failure) leaves *out NULL:
   the caller then does its host steps itself. */
hyb_status_t hyb_sd_hostq_start( hyb_dev_t* dev, hyb_team_t* team, hyb_sd_hostq_t** out );

/* Queue a copy of `bytes` from src to dst (memmove semantics) that starts
   once the events ev[0 .. nev) (nev <= HYB_SD_HOSTQ_EVENTS) completed;
   copies run in queue order. *seq receives its number, for
   hyb_sd_hostq_wait. After a failure nothing more is copied. */
hyb_status_t hyb_sd_hostq_push( hyb_sd_hostq_t* q, hyb_devent_t* const* ev, int nev, void* dst,
                                const void* src, size_t bytes, uint64_t* seq );

/* Copies queued so far (the number the next one gets, minus one). */
uint64_t hyb_sd_hostq_pushed( const hyb_sd_hostq_t* q );

/* Wait until copies 1 .. seq are done (or skipped after a failure); the
   first failure's status (an event's, or HYB_OK). */
hyb_status_t hyb_sd_hostq_wait( hyb_sd_hostq_t* q, uint64_t seq );

/* The first failure so far, without waiting. */
hyb_status_t hyb_sd_hostq_status( hyb_sd_hostq_t* q );

/* Finish every queued copy, stop the thread, free q (NULL: nothing); the
   first failure's status. */
hyb_status_t hyb_sd_hostq_stop( hyb_sd_hostq_t* q );

#endif
