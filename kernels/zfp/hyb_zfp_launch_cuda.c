/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA plugin's registration of the ZFP launchers of hyb_zfp_cuda.cu
   under the core's kernel names "zfp.encode" and "zfp.decode". */
#include "kernels/zfp/hyb_zfp_kargs.h"

static const hyb_kernel_impl_t hyb_zfp_encode_impl = { "zfp.encode", hyb_zfp_encode_cuda, 0, NULL };
static const hyb_kernel_impl_t hyb_zfp_decode_impl = { "zfp.decode", hyb_zfp_decode_cuda, 0, NULL };
HYB_KERNEL_IMPL_REGISTER( hyb_zfp_encode_impl );
HYB_KERNEL_IMPL_REGISTER( hyb_zfp_decode_impl );
