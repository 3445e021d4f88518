/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's launchers on the simulated device: each checks its argument block
   and runs the serial host loop at once (the simulated stream's thread is the caller). */
#include "kernels/faceloop/hyb_faceloop_launch.h"

#include "kernels/faceloop/hyb_faceloop_check.h"
#include "kernels/faceloop/hyb_faceloop_cpu.h"

/* A simulated launcher: check the block, run the serial loop. */
#define HYB_FL_SIM_LAUNCHER( kernel ) \
	hyb_status_t hyb_faceloop_##kernel##_sim( const hyb_kernel_env_t* env, const void* args ) \
	{ \
		(void)env; \
		const hyb_faceloop_##kernel##_args_t* a = (const hyb_faceloop_##kernel##_args_t*)args; \
		if ( !hyb_fl_##kernel##_args_ok( a ) ) return HYB_E_INVALID; \
		hyb_faceloop_##kernel##_cpu( a, 1 ); \
		return HYB_OK; \
	}

HYB_FL_SIM_LAUNCHER( face )
HYB_FL_SIM_LAUNCHER( volume )
HYB_FL_SIM_LAUNCHER( gather )
HYB_FL_SIM_LAUNCHER( update )

/* The simulated device has no registers to limit: the same work, with the register-limited
   form's block-size rule. */
hyb_status_t hyb_faceloop_face_lowreg_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_faceloop_face_args_t* a = (const hyb_faceloop_face_args_t*)args;
	if ( a != NULL && a->block > HYB_FL_LOWREG_BLOCK ) return HYB_E_INVALID;
	return hyb_faceloop_face_sim( env, args );
}
