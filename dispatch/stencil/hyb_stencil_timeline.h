/* SPDX-License-Identifier: BSD-3-Clause */
/* Where a traced device run of the stencil pipeline spends its time: each
   device step between two timing events on its stream, summed and merged
   per kind of step (upload, share, compute, download) after the run, with
   how long steps began after they were ready, one trace line per
   schedule. Gathered only while a trace is written. */
#ifndef HYB_STENCIL_TIMELINE_H
#define HYB_STENCIL_TIMELINE_H

#include <stdint.h>

#include "hyb_types.h"
#include "kernels/hyb_device.h"
#include "kernels/stencil/hyb_stencil_sched.h"

typedef struct
{
	int            on;     /* a trace is written: events are recorded */
	int64_t        n;      /* steps of the schedule */
	hyb_devent_t*  origin; /* recorded before the first step */
	hyb_devent_t** beg;    /* per step: before it on its stream (device steps) */
	hyb_devent_t** end;    /* per step: after it */
	double*        issued; /* per step: when the host issued it, from the origin's issue */
	double         t_open;
	double         issue_wait; /* seconds the issuing thread waited for host steps */
} hyb_sd_timeline_t;

/* Prepares t for a schedule of n steps on dev: nothing when no trace is
   written. A timeline that cannot be made is left off (the run goes on). */
void hyb_sd_timeline_open( hyb_sd_timeline_t* t, hyb_dev_t* dev, int64_t n );
/* Records step i's begin (end = 0) or end event on `stream`. */
void hyb_sd_timeline_mark( hyb_sd_timeline_t* t, hyb_dev_t* dev, int stream, int64_t i, int end );
/* After every stream is synchronised: the trace line of schedule s, then
   the events destroyed. `ok`: the run completed (else no line). */
void hyb_sd_timeline_close( hyb_sd_timeline_t* t, hyb_dev_t* dev, const hyb_stencil_sched_t* s,
                            int ok );

#endif
