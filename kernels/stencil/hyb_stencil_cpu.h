/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP CPU kernels of the stencil family: one time step of each
   stencil over a range of planes of a buffer (the same kernels serve the
   whole-domain CPU path, the host executor and the simulated device). */
#ifndef HYB_STENCIL_CPU_H
#define HYB_STENCIL_CPU_H

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_kargs.h"

/* One time step over the planes [z0, z1) of the box, as the argument
   structs in hyb_stencil_kargs.h define it, with `nthreads` OpenMP threads
   (0: the OpenMP default). Every point's value depends only on its inputs,
   never on the thread count or the range, so a chunked run is bit for bit
   the whole-domain run. The Himeno residual sums each plane serially in
   (y, x) order. Returns HYB_OK, or HYB_E_INVALID for an inconsistent box,
   a wrong radius or dimension for the stencil (acoustic: 3-D, radius 4;
   Himeno: 3-D, radius 1; Laplace and wave: 2-D, radius 1), a NULL array, or a
   residual range outside [z0, z1); nothing is written then. Thread-safe. */
hyb_status_t hyb_stencil_acoustic_cpu( const hyb_stencil_acoustic_args_t* a, int nthreads );
hyb_status_t hyb_stencil_himeno_cpu( const hyb_stencil_himeno_args_t* a, int nthreads );
hyb_status_t hyb_stencil_laplace_cpu( const hyb_stencil_laplace_args_t* a, int nthreads );
hyb_status_t hyb_stencil_star_cpu( const hyb_stencil_star_args_t* a, int nthreads );
hyb_status_t hyb_stencil_wave_cpu( const hyb_stencil_wave_args_t* a, int nthreads );

#endif
