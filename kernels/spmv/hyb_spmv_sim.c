/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse family's kernels on the simulated device: reference ELL, DIA and CSR
   products and the vector addition, their sim launchers, and their registration. */
#include "kernels/spmv/hyb_spmv_kernels.h"

static void hyb_spmv_ell_ref( hyb_prec_t prec, int64_t m, int64_t K, const int* index,
                              const void* data, const void* x, void* y, int accumulate )
{
	for ( int64_t i = 0; i < m; i++ )
	{
		double s = accumulate ? hyb_real_load( prec, y, i ) : 0.0;
		for ( int64_t j = 0; j < K; j++ )
		{
			int c = index[j * m + i];
			if ( c >= 0 ) s += hyb_real_load( prec, data, j * m + i ) * hyb_real_load( prec, x, c );
		}
		hyb_real_store( prec, y, i, s );
	}
}

static void hyb_spmv_dia_ref( hyb_prec_t prec, int64_t m, int64_t ndiag, const int* offset,
                              const void* data, const void* x, void* y, int accumulate )
{
	for ( int64_t i = 0; i < m; i++ )
	{
		double s = accumulate ? hyb_real_load( prec, y, i ) : 0.0;
		for ( int64_t d = 0; d < ndiag; d++ )
		{
			int64_t c = i + offset[d];
			if ( c >= 0 && c < m )
				s += hyb_real_load( prec, data, d * m + i ) * hyb_real_load( prec, x, c );
		}
		hyb_real_store( prec, y, i, s );
	}
}

static void hyb_spmv_csr_ref( hyb_prec_t prec, int64_t rows, const int* ptr, const int* col,
                              const void* val, int base, const void* x, void* y, int accumulate )
{
	/* As the CUDA kernel: val and col are indexed relative to ptr[0], so a
	   slice of a larger matrix passes its own row pointers unchanged. */
	for ( int64_t i = 0; i < rows; i++ )
	{
		double s = accumulate ? hyb_real_load( prec, y, i ) : 0.0;
		for ( int64_t e = ptr[i] - ptr[0]; e < ptr[i + 1] - ptr[0]; e++ )
			s += hyb_real_load( prec, val, e ) * hyb_real_load( prec, x, col[e] - base );
		hyb_real_store( prec, y, i, s );
	}
}

static void hyb_spmv_vadd_ref( hyb_prec_t prec, int64_t n, const void* z, void* y )
{
	for ( int64_t i = 0; i < n; i++ )
		hyb_real_store( prec, y, i, hyb_real_load( prec, y, i ) + hyb_real_load( prec, z, i ) );
}

/* ------------------------------------------------------------ launchers */

/* The CUDA kernels exist in single and double precision only. Every argument struct of
   the family starts with its precision. */
static hyb_status_t hyb_spmv_check( const void* args )
{
	return hyb_prec_is_complex( *(const hyb_prec_t*)args ) ? HYB_E_NOT_SUPPORTED : HYB_OK;
}

static hyb_status_t hyb_spmv_ell_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_ell_kargs_t* a = args;
	(void)env;
	hyb_spmv_ell_ref( a->prec, a->m, a->K, a->index, a->data, a->x, a->y, a->accumulate );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_dia_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_dia_kargs_t* a = args;
	(void)env;
	hyb_spmv_dia_ref( a->prec, a->m, a->ndiag, a->offset, a->data, a->x, a->y, a->accumulate );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_csr_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_csr_kargs_t* a = args;
	(void)env;
	hyb_spmv_csr_ref( a->prec, a->rows, a->ptr, a->col, a->val, a->base, a->x, a->y,
	                  a->accumulate );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_vadd_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_vadd_kargs_t* a = args;
	(void)env;
	hyb_spmv_vadd_ref( a->prec, a->n, a->z, a->y );
	return HYB_OK;
}

/* Memory-bound: the simulated device charges the bytes each kernel touches (the CSR
   product only the latency). */
static void hyb_spmv_ell_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_ell_kargs_t* a = args;
	*flops                        = 0;
	*bytes                        = (double)a->m * (double)a->K * 12;
}

static void hyb_spmv_dia_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_dia_kargs_t* a = args;
	*flops                        = 0;
	*bytes                        = (double)a->m * (double)a->ndiag * 8;
}

static void hyb_spmv_vadd_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_vadd_kargs_t* a = args;
	*flops                         = 0;
	*bytes                         = (double)a->n * 24;
}

HYB_KERNEL_DEFINE( hyb_spmv_ell_kernel, "spmv.ell", NULL, hyb_spmv_ell_kargs_t, hyb_spmv_check,
                   hyb_spmv_ell_sim, hyb_spmv_ell_work );
HYB_KERNEL_DEFINE( hyb_spmv_dia_kernel, "spmv.dia", NULL, hyb_spmv_dia_kargs_t, hyb_spmv_check,
                   hyb_spmv_dia_sim, hyb_spmv_dia_work );
HYB_KERNEL_DEFINE( hyb_spmv_csr_kernel, "spmv.csr", NULL, hyb_spmv_csr_kargs_t, hyb_spmv_check,
                   hyb_spmv_csr_sim, NULL );
HYB_KERNEL_DEFINE( hyb_spmv_vadd_kernel, "spmv.vadd", NULL, hyb_spmv_vadd_kargs_t, hyb_spmv_check,
                   hyb_spmv_vadd_sim, hyb_spmv_vadd_work );
