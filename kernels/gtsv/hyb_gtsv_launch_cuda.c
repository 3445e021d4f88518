/* SPDX-License-Identifier: BSD-3-Clause */
/* The tridiagonal family's CUDA launchers: gtsv.spike and gtsv.pivots on the kernels of
   kernels/cuda/hyb_gtsv_cuda.cu. Built only into the plugin. */
#include "kernels/cuda/hyb_cuda_try.h"
#include "kernels/cuda/hyb_gtsv_cuda.h"
#include "kernels/gtsv/hyb_gtsv_kargs.h"
#include "kernels/hyb_kernel.h"

static hyb_status_t hyb_gtsv_spike_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_gtsv_spike_kargs_t* a = args;
	cudaStream_t                  s = env->stream;
	/* The kernels' tiles bound the window; a wider one stays on the CPU. */
	if ( a->m < 1 || a->m > hyb_gtsv_cuda_max_window() ) return HYB_E_NOT_SUPPORTED;
	HYB_CUDA_TRY( a->tri.prec == HYB_PREC_D
	                  ? hyb_dgtsv_cuda_spike( a->tri.n, a->nrhs, a->tri.dl, a->tri.d, a->tri.du,
	                                          a->b, a->ldb, a->m, s )
	                  : hyb_sgtsv_cuda_spike( a->tri.n, a->nrhs, a->tri.dl, a->tri.d, a->tri.du,
	                                          a->b, a->ldb, a->m, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_gtsv_pivots_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_gtsv_pivots_kargs_t* a = args;
	cudaStream_t                   s = env->stream;
	HYB_CUDA_TRY( a->tri.prec == HYB_PREC_D
	                  ? hyb_dgtsv_cuda_pivots( a->tri.n, a->tri.dl, a->tri.d, a->tri.du, a->out,
	                                           a->first, a->warm, s )
	                  : hyb_sgtsv_cuda_pivots( a->tri.n, a->tri.dl, a->tri.d, a->tri.du, a->out,
	                                           (float)a->first, a->warm, s ) );
	return HYB_OK;
}

HYB_KERNEL_IMPL( "gtsv.spike", hyb_gtsv_spike_cuda, 0, NULL );
HYB_KERNEL_IMPL( "gtsv.pivots", hyb_gtsv_pivots_cuda, 0, NULL );
