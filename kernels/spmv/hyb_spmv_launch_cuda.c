/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse family's CUDA launchers: spmv.ell, spmv.dia, spmv.csr, spmv.vadd, spmv.check,
   spmv.cooptr, spmv.diahist, spmv.diascatter and spmv.xsum on the kernels of kernels/cuda/hyb_spmv_cuda.cu.
   Built only into the plugin. */
#include "kernels/cuda/hyb_cuda_try.h"
#include "kernels/cuda/hyb_spmv_cuda.h"
#include "kernels/hyb_kernel.h"
#include "kernels/spmv/hyb_spmv_kargs.h"
#include "kernels/spmv/hyb_spmv_xsum.h"

/* hyb_dellmv_cuda and hyb_ddiamv_cuda (likewise the float pair) take the same arguments. */
typedef cudaError_t ( *hyb_spmv_slots_dfn )( int64_t, int64_t, const int*, const double*,
                                             const double*, double*, int, cudaStream_t );
typedef cudaError_t ( *hyb_spmv_slots_sfn )( int64_t, int64_t, const int*, const float*,
                                             const float*, float*, int, cudaStream_t );

static hyb_status_t hyb_spmv_slots_cuda( const hyb_kernel_env_t* env, const void* args,
                                         hyb_spmv_slots_dfn dfn, hyb_spmv_slots_sfn sfn )
{
	const hyb_spmv_slots_kargs_t* a = args;
	cudaStream_t                  s = env->stream;
	HYB_CUDA_TRY( a->prec == HYB_PREC_D
	                  ? dfn( a->m, a->width, a->index, a->data, a->x, a->y, a->accumulate, s )
	                  : sfn( a->m, a->width, a->index, a->data, a->x, a->y, a->accumulate, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_ell_cuda( const hyb_kernel_env_t* env, const void* args )
{
	return hyb_spmv_slots_cuda( env, args, hyb_dellmv_cuda, hyb_sellmv_cuda );
}

static hyb_status_t hyb_spmv_dia_cuda( const hyb_kernel_env_t* env, const void* args )
{
	return hyb_spmv_slots_cuda( env, args, hyb_ddiamv_cuda, hyb_sdiamv_cuda );
}

static hyb_status_t hyb_spmv_csr_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_csr_kargs_t* a = args;
	cudaStream_t                s = env->stream;
	HYB_CUDA_TRY( a->prec == HYB_PREC_D
	                  ? hyb_dcsrmv_cuda( a->rows, a->ptr, a->col, a->val, a->base, a->mean_len,
	                                     a->x, a->y, a->accumulate, s )
	                  : hyb_scsrmv_cuda( a->rows, a->ptr, a->col, a->val, a->base, a->mean_len,
	                                     a->x, a->y, a->accumulate, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_vadd_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_vadd_kargs_t* a = args;
	cudaStream_t                 s = env->stream;
	HYB_CUDA_TRY( a->prec == HYB_PREC_D ? hyb_dvadd_cuda( a->n, a->z, a->y, s )
	                                    : hyb_svadd_cuda( a->n, a->z, a->y, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_check_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_check_kargs_t* a = args;
	HYB_CUDA_TRY( hyb_csrcheck_cuda( a->rows, a->cols, a->nnz, a->block_rows, a->ptr, a->col,
	                                 a->first, a->base, a->out, env->stream ) );
	return HYB_OK;
}

_Static_assert( HYB_CUDA_COOPTR_RANGE == HYB_SPMV_COOPTR_RANGE &&
                    HYB_CUDA_COOPTR_ORDER == HYB_SPMV_COOPTR_ORDER,
                "spmv.cooptr's reasons are the same on the device" );

static hyb_status_t hyb_spmv_cooptr_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_cooptr_kargs_t* a = args;
	HYB_CUDA_TRY( hyb_cooptr_cuda( a->rows, a->nnz, a->block_rows, a->row, a->col, a->base, a->ptr,
	                               a->out, env->stream ) );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_diahist_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_diahist_kargs_t* a = args;
	HYB_CUDA_TRY( hyb_diahist_cuda( a->rows, a->window, a->ptr, a->col, a->base, a->hist, a->out,
	                                env->stream ) );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_diascatter_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_diascatter_kargs_t* a = args;
	cudaStream_t                       s = env->stream;
	HYB_CUDA_TRY(
	    a->prec == HYB_PREC_D
	        ? hyb_ddiascatter_cuda( a->r0, a->r1, a->e0, a->e1, a->ndiag, a->offsets, a->ptr,
	                                a->col, a->val, a->base, a->data, a->missed, s )
	        : hyb_sdiascatter_cuda( a->r0, a->r1, a->e0, a->e1, a->ndiag, a->offsets, a->ptr,
	                                a->col, a->val, a->base, a->data, a->missed, s ) );
	return HYB_OK;
}

_Static_assert( HYB_CUDA_XSUM_PIECE == HYB_SPMV_XSUM_PIECE &&
                    HYB_CUDA_XSUM_LANES == HYB_SPMV_XSUM_LANES,
                "spmv.xsum's pieces and lanes are the same on the device" );

static hyb_status_t hyb_spmv_xsum_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_xsum_kargs_t* a = args;
	HYB_CUDA_TRY( hyb_xsum_cuda( a->bytes, a->x, a->out, env->stream ) );
	return HYB_OK;
}

HYB_KERNEL_IMPL( "spmv.ell", hyb_spmv_ell_cuda, 0, hyb_spmv_cuda_ell_func );
HYB_KERNEL_IMPL( "spmv.dia", hyb_spmv_dia_cuda, 0, NULL );
HYB_KERNEL_IMPL( "spmv.csr", hyb_spmv_csr_cuda, 0, NULL );
HYB_KERNEL_IMPL( "spmv.vadd", hyb_spmv_vadd_cuda, 0, NULL );
HYB_KERNEL_IMPL( "spmv.check", hyb_spmv_check_cuda, 0, NULL );
HYB_KERNEL_IMPL( "spmv.cooptr", hyb_spmv_cooptr_cuda, 0, NULL );
HYB_KERNEL_IMPL( "spmv.diahist", hyb_spmv_diahist_cuda, 0, NULL );
HYB_KERNEL_IMPL( "spmv.diascatter", hyb_spmv_diascatter_cuda, 0, NULL );
HYB_KERNEL_IMPL( "spmv.xsum", hyb_spmv_xsum_cuda, 0, NULL );
