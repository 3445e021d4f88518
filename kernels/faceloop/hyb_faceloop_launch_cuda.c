/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's CUDA launchers (kernels/faceloop/hyb_faceloop_cuda.cu) registered
   with the plugin under the names of their declarations. Built only into the plugin. The
   face kernel is compiled per (shape, degree, equation), so no single main function is
   named: its registers and occupancy come from hyb_faceloop_face_cuda_info. */
#include "kernels/faceloop/hyb_faceloop_launch.h"
#include "kernels/hyb_kernel.h"

HYB_KERNEL_IMPL( "faceloop.face", hyb_faceloop_face_cuda, 0, NULL );
HYB_KERNEL_IMPL( "faceloop.face_lowreg", hyb_faceloop_face_lowreg_cuda, 0, NULL );
HYB_KERNEL_IMPL( "faceloop.volume", hyb_faceloop_volume_cuda, 0, NULL );
HYB_KERNEL_IMPL( "faceloop.gather", hyb_faceloop_gather_cuda, 0, NULL );
HYB_KERNEL_IMPL( "faceloop.update", hyb_faceloop_update_cuda, 0, NULL );
