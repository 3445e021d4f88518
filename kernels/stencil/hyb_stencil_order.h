/* SPDX-License-Identifier: BSD-3-Clause */
/* The order in which a device executor issues a schedule's steps. The list order is one
   valid order; where host steps run on a queue of their own, a device step that depends on
   a host step makes the issuing thread wait for it, and every device step listed after it
   waits with it although most do not depend on it. This order lets them go first.
   Uploads go as early as their dependencies let them: a device API call may block the
   issuing thread (the driver's queue of launches is full) until a kernel queued behind an
   upload starts, and the next chunk's upload, issued after that kernel, would then start
   only that long after the bus fell idle. Issued early, an upload starts once its slot is
   free, beside the one before it if that is still running: the two share the bus, which
   measured as fast as one after the other (docs/stencil.md). */
#ifndef HYB_STENCIL_ORDER_H
#define HYB_STENCIL_ORDER_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_sched.h"

/* Into order[0 .. s->nsteps): the steps in list order, except that an upload that may go
   goes before the steps listed ahead of it, and a device step that depends on a host step
   is issued only once `window` more steps have been issued after that host step, or when
   nothing else may go (the first step not yet issued always may).
   Every step follows its dependencies and the steps before it on its stream; the host
   steps keep their list order. HYB_OK or HYB_E_NO_MEMORY. Pure. */
hyb_status_t hyb_stencil_issue_order( const hyb_stencil_sched_t* s, int64_t window,
                                      int64_t* order );

#endif
