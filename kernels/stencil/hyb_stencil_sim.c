/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil launchers of the simulated device. */
#include "kernels/stencil/hyb_stencil_sim.h"

#include "kernels/stencil/hyb_stencil_cpu.h"

/* Each launcher runs the CPU kernel on the simulated device's memory (host memory), with
   the OpenMP default thread count. */
#define HYB_STENCIL_SIM( kind )                                                                    \
	hyb_status_t hyb_stencil_##kind##_sim( const hyb_kernel_env_t* env, const void* args )         \
	{                                                                                              \
		(void)env;                                                                                 \
		return hyb_stencil_##kind##_cpu( args, 0 );                                                \
	}

HYB_STENCIL_SIM( acoustic )
HYB_STENCIL_SIM( himeno )
HYB_STENCIL_SIM( laplace )
HYB_STENCIL_SIM( star )
HYB_STENCIL_SIM( wave )

hyb_status_t hyb_stencil_sim_step( int32_t kind, const hyb_stencil_args_t* a )
{
	static const hyb_kernel_fn launch[] = { NULL,
		                                    hyb_stencil_acoustic_sim,
		                                    hyb_stencil_himeno_sim,
		                                    hyb_stencil_laplace_sim,
		                                    hyb_stencil_star_sim,
		                                    hyb_stencil_wave_sim };
	if ( kind < HYB_STENCIL_ACOUSTIC || kind > HYB_STENCIL_WAVE || a == NULL ) return HYB_E_INVALID;
	return launch[kind]( NULL, a );
}
