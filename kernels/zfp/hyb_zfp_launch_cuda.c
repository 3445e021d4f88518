/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA plugin's registration of the ZFP launchers of hyb_zfp_cuda.cu
   under the core's kernel names "zfp.encode" and "zfp.decode". */
#include "kernels/zfp/hyb_zfp_kargs.h"

HYB_KERNEL_IMPL( "zfp.encode", hyb_zfp_encode_cuda, 0, NULL );
HYB_KERNEL_IMPL( "zfp.decode", hyb_zfp_decode_cuda, 0, NULL );
