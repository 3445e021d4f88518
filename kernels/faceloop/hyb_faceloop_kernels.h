/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's registered device kernels and the typed launches its device
   driver uses (each calls hyb_dev_launch with the kernel's argument block). */
#ifndef HYB_FACELOOP_KERNELS_H
#define HYB_FACELOOP_KERNELS_H

#include "kernels/faceloop/hyb_faceloop_kargs.h"
#include "kernels/hyb_device.h"

/* Registered in kernels/faceloop/hyb_faceloop_sim.c; the plugin's launchers are registered
   in kernels/faceloop/hyb_faceloop_launch_cuda.c under the same names. */
extern const hyb_kernel_def_t hyb_faceloop_face_kernel;        /* "faceloop.face" */
extern const hyb_kernel_def_t hyb_faceloop_face_lowreg_kernel; /* "faceloop.face_lowreg" */
extern const hyb_kernel_def_t hyb_faceloop_volume_kernel;      /* "faceloop.volume" */
extern const hyb_kernel_def_t hyb_faceloop_gather_kernel;      /* "faceloop.gather" */
extern const hyb_kernel_def_t hyb_faceloop_update_kernel;      /* "faceloop.update" */

/* Queue the face loop (the register-limited kernel when lowreg) on `stream` of d. */
static inline hyb_status_t hyb_dev_faceloop_face( hyb_dev_t* d, int stream, int lowreg,
                                                  const hyb_faceloop_face_args_t* a )
{
	static atomic_int id, id_lowreg;
	return lowreg ? hyb_dev_launch(
	                    d, stream,
	                    hyb_kernel_id_cached( &id_lowreg, &hyb_faceloop_face_lowreg_kernel ), a )
	              : hyb_dev_launch( d, stream,
	                                hyb_kernel_id_cached( &id, &hyb_faceloop_face_kernel ), a );
}

static inline hyb_status_t hyb_dev_faceloop_volume( hyb_dev_t* d, int stream,
                                                    const hyb_faceloop_volume_args_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_faceloop_volume_kernel ), a );
}

static inline hyb_status_t hyb_dev_faceloop_gather( hyb_dev_t* d, int stream,
                                                    const hyb_faceloop_gather_args_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_faceloop_gather_kernel ), a );
}

static inline hyb_status_t hyb_dev_faceloop_update( hyb_dev_t* d, int stream,
                                                    const hyb_faceloop_update_args_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_faceloop_update_kernel ), a );
}

/* Whether the backend in use runs every kernel the device driver needs. */
static inline int hyb_faceloop_kernels_supported( void )
{
	const hyb_kernel_def_t* defs[] = { &hyb_faceloop_face_kernel, &hyb_faceloop_face_lowreg_kernel,
		                               &hyb_faceloop_volume_kernel, &hyb_faceloop_gather_kernel,
		                               &hyb_faceloop_update_kernel };
	for ( int k = 0; k < 5; k++ )
		if ( !hyb_devices_kernel_supported( hyb_kernel_id( defs[k] ) ) ) return 0;
	return 1;
}

#endif
