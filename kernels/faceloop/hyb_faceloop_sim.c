/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's launchers on the simulated device (each checks its argument block
   and runs the serial host loop at once: the simulated stream's thread is the caller) and
   the declarations that register the family's kernels with the device runtime. */
#include "kernels/faceloop/hyb_faceloop_kernels.h"
#include "kernels/faceloop/hyb_faceloop_launch.h"

#include "kernels/faceloop/hyb_faceloop_check.h"
#include "kernels/faceloop/hyb_faceloop_cpu.h"

/* A simulated launcher: check the block, run the serial loop. */
#define HYB_FL_SIM_LAUNCHER( kernel )                                                              \
	hyb_status_t hyb_faceloop_##kernel##_sim( const hyb_kernel_env_t* env, const void* args )      \
	{                                                                                              \
		(void)env;                                                                                 \
		const hyb_faceloop_##kernel##_args_t* a = (const hyb_faceloop_##kernel##_args_t*)args;     \
		if ( !hyb_fl_##kernel##_args_ok( a ) ) return HYB_E_INVALID;                               \
		hyb_faceloop_##kernel##_cpu( a, 1 );                                                       \
		return HYB_OK;                                                                             \
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

/* ------------------------------------------------------------------ registration */

/* The kernels' declarations (kernels/faceloop/hyb_faceloop_kernels.h): the checks run on the
   calling thread on every backend, so a bad block queues nothing anywhere. */
#define HYB_FL_CHECK( kernel )                                                                     \
	static hyb_status_t hyb_fl_##kernel##_check( const void* args )                                \
	{                                                                                              \
		return hyb_fl_##kernel##_args_ok( (const hyb_faceloop_##kernel##_args_t*)args )            \
		           ? HYB_OK                                                                        \
		           : HYB_E_INVALID;                                                                \
	}

HYB_FL_CHECK( face )
HYB_FL_CHECK( volume )
HYB_FL_CHECK( gather )
HYB_FL_CHECK( update )

static hyb_status_t hyb_fl_face_lowreg_check( const void* args )
{
	const hyb_faceloop_face_args_t* a = (const hyb_faceloop_face_args_t*)args;
	return hyb_fl_face_args_ok( a ) && a->block <= HYB_FL_LOWREG_BLOCK ? HYB_OK : HYB_E_INVALID;
}

HYB_KERNEL_DEFINE( hyb_faceloop_face_kernel, "faceloop.face", NULL, hyb_faceloop_face_args_t,
                   hyb_fl_face_check, hyb_faceloop_face_sim, NULL );
HYB_KERNEL_DEFINE( hyb_faceloop_face_lowreg_kernel, "faceloop.face_lowreg", NULL,
                   hyb_faceloop_face_args_t, hyb_fl_face_lowreg_check, hyb_faceloop_face_lowreg_sim,
                   NULL );
HYB_KERNEL_DEFINE( hyb_faceloop_volume_kernel, "faceloop.volume", NULL, hyb_faceloop_volume_args_t,
                   hyb_fl_volume_check, hyb_faceloop_volume_sim, NULL );
HYB_KERNEL_DEFINE( hyb_faceloop_gather_kernel, "faceloop.gather", NULL, hyb_faceloop_gather_args_t,
                   hyb_fl_gather_check, hyb_faceloop_gather_sim, NULL );
HYB_KERNEL_DEFINE( hyb_faceloop_update_kernel, "faceloop.update", NULL, hyb_faceloop_update_args_t,
                   hyb_fl_update_check, hyb_faceloop_update_sim, NULL );
