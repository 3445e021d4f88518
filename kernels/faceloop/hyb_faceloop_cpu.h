/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop solver's loops on the host: the serial reference and the OpenMP loop, over
   the same per-element code as the device kernels. */
#ifndef HYB_FACELOOP_CPU_H
#define HYB_FACELOOP_CPU_H

#include "kernels/faceloop/hyb_faceloop_kargs.h"

/* Each loop runs its kernel's per-element function over every element: serially in index
   order when threads <= 1 (the reference), else on `threads` OpenMP threads with a static
   schedule. Every element writes only its own outputs and sums in a fixed order, so the
   serial and the OpenMP loops give the same bits. The arguments are trusted (the caller
   checked them, see hyb_fl_*_args_ok); thread-safe for disjoint outputs. */
void hyb_faceloop_face_cpu( const hyb_faceloop_face_args_t* a, int threads );
void hyb_faceloop_volume_cpu( const hyb_faceloop_volume_args_t* a, int threads );
void hyb_faceloop_gather_cpu( const hyb_faceloop_gather_args_t* a, int threads );
void hyb_faceloop_update_cpu( const hyb_faceloop_update_args_t* a, int threads );

/* dst := src for n values, as wide as the loops, in streaming pieces (core/hyb_copy): the
   state's copies into and out of the device's staging (one thread moves a few GB/s, far
   below what the memory can). */
void hyb_faceloop_copy_cpu( double* dst, const double* src, int64_t n, int threads );

#endif
