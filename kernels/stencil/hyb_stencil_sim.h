/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil kernels of the simulated device: launchers with the
   registered-kernel signature (kernels/hyb_kernel.h) that run the CPU
   kernels on host memory standing for device memory. */
#ifndef HYB_STENCIL_SIM_H
#define HYB_STENCIL_SIM_H

#include "hyb_status.h"
#include "kernels/hyb_kernel.h"
#include "kernels/stencil/hyb_stencil_prob.h"

/* One time step as hyb_stencil_kargs.h defines it; `args` points to the
   stencil's argument struct, `env` is ignored (the simulated device runs
   each launch to completion on the calling thread, in stream order).
   Returns HYB_OK or HYB_E_INVALID (nothing written). */
hyb_status_t hyb_stencil_acoustic_sim( const hyb_kernel_env_t* env, const void* args );
hyb_status_t hyb_stencil_himeno_sim( const hyb_kernel_env_t* env, const void* args );
hyb_status_t hyb_stencil_laplace_sim( const hyb_kernel_env_t* env, const void* args );
hyb_status_t hyb_stencil_star_sim( const hyb_kernel_env_t* env, const void* args );
hyb_status_t hyb_stencil_wave_sim( const hyb_kernel_env_t* env, const void* args );

/* The launcher of `kind` applied to `a`. */
hyb_status_t hyb_stencil_sim_step( int32_t kind, const hyb_stencil_args_t* a );

#endif
