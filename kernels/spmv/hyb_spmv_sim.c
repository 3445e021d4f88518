/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse family's kernels on the simulated device: reference ELL, DIA and CSR
   products, the vector addition, the check of a CSR copy, the row pointers of a COO copy,
   the diagonal histogram of a copy and its DIA blocks, the fingerprints of a vector, their
   sim launchers, and their registration. */
#include "kernels/spmv/hyb_spmv_kernels.h"

#include <string.h>

#include "kernels/cpu/hyb_spmv_format.h"
#include "kernels/spmv/hyb_spmv_xsum.h"

/* The ELL or DIA part: the same sum over a row's slots; only the column of a slot differs
   (an ELL slot names it, a DIA slot lies on its diagonal and is skipped outside the matrix). */
static hyb_status_t hyb_spmv_slots_sim( const hyb_kernel_env_t* env, const void* args, int dia )
{
	const hyb_spmv_slots_kargs_t* a = args;
	const int64_t                 m = a->m;
	(void)env;
	for ( int64_t i = 0; i < m; i++ )
	{
		double s = a->accumulate ? hyb_real_load( a->prec, a->y, i ) : 0.0;
		for ( int64_t j = 0; j < a->width; j++ )
		{
			int64_t c = dia ? i + a->index[j] : a->index[j * m + i];
			if ( c >= 0 && ( !dia || c < m ) )
				s += hyb_real_load( a->prec, a->data, j * m + i ) *
				     hyb_real_load( a->prec, a->x, c );
		}
		hyb_real_store( a->prec, a->y, i, s );
	}
	return HYB_OK;
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

/* spmv.check, as the CUDA kernel computes it (see hyb_spmv_check_kargs_t). */
static void hyb_spmv_check_ref( const hyb_spmv_check_kargs_t* a )
{
	int64_t nblk = hyb_spmv_check_out_len( a->rows, a->block_rows ) / 2;
	int     bad  = a->ptr[0] != a->first || (int64_t)a->ptr[a->rows] - a->first != a->nnz;
	for ( int64_t b = 0; b < nblk; b++ )
	{
		a->out[1 + 2 * b] = (int)a->cols;
		a->out[2 + 2 * b] = -1;
	}
	for ( int64_t i = 0; i < a->rows; i++ )
	{
		int64_t lo = (int64_t)a->ptr[i] - a->ptr[0], hi = (int64_t)a->ptr[i + 1] - a->ptr[0];
		if ( lo < 0 || hi < lo || hi > a->nnz )
		{
			bad = 1;
			continue; /* its entries are not read: they may lie outside col */
		}
		int* w = a->out + 1 + 2 * ( i / a->block_rows );
		for ( int64_t e = lo; e < hi; e++ )
		{
			int64_t c = (int64_t)a->col[e] - a->base;
			if ( c < 0 || c >= a->cols )
				bad = 1;
			else
			{
				w[0] = c < w[0] ? (int)c : w[0];
				w[1] = c > w[1] ? (int)c : w[1];
			}
		}
	}
	a->out[0] = bad;
}

/* spmv.cooptr, as the CUDA kernel computes it (see hyb_spmv_cooptr_kargs_t): entry e sets
   the pointers of the rows after the previous entry's up to its own. */
static void hyb_spmv_cooptr_ref( const hyb_spmv_cooptr_kargs_t* a )
{
	int64_t nblk = hyb_spmv_check_out_len( a->rows, a->block_rows ) / 2;
	int     why  = 0;
	for ( int64_t b = 0; b < nblk; b++ )
	{
		a->out[1 + 2 * b] = (int)a->rows;
		a->out[2 + 2 * b] = -1;
	}
	int64_t prev = -1;
	for ( int64_t e = 0; e < a->nnz; e++ )
	{
		int64_t r = (int64_t)a->row[e] - a->base, c = (int64_t)a->col[e] - a->base;
		if ( r < 0 || r >= a->rows || c < 0 || c >= a->rows )
		{
			why |= HYB_SPMV_COOPTR_RANGE;
			continue;
		}
		if ( r < prev ) why |= HYB_SPMV_COOPTR_ORDER;
		for ( int64_t q = prev + 1; q <= r; q++ ) a->ptr[q] = (int)e;
		prev   = r > prev ? r : prev;
		int* w = a->out + 1 + 2 * ( r / a->block_rows );
		w[0]   = c < w[0] ? (int)c : w[0];
		w[1]   = c > w[1] ? (int)c : w[1];
	}
	for ( int64_t q = prev + 1; q <= a->rows; q++ ) a->ptr[q] = (int)a->nnz;
	a->out[0] = why;
}

/* spmv.diahist, as the CUDA kernels compute it (see hyb_spmv_diahist_kargs_t). */
static void hyb_spmv_diahist_ref( const hyb_spmv_diahist_kargs_t* a )
{
	const int64_t W = a->window;
	memset( a->hist, 0, (size_t)( 2 * W + 1 ) * sizeof( int ) );
	a->out[0] = 0;
	a->out[1] = 0;
	for ( int64_t i = 0; i < a->rows; i++ )
		for ( int64_t e = a->ptr[i] - a->ptr[0]; e < a->ptr[i + 1] - a->ptr[0]; e++ )
		{
			int64_t off = (int64_t)a->col[e] - a->base - i;
			if ( off >= -W && off <= W )
				a->hist[off + W]++;
			else
				a->out[0]++;
		}
	for ( int64_t q = 0; q <= 2 * W; q++ ) a->out[1] += a->hist[q] > 0;
}

/* spmv.diascatter (see hyb_spmv_diascatter_kargs_t): row by row, each row's slots zeroed,
   then its entries added in order in the matrix's precision, as the host build adds them. */
static void hyb_spmv_diascatter_ref( const hyb_spmv_diascatter_kargs_t* a )
{
	const int64_t mE  = a->e1 - a->e0;
	const int     isd = a->prec == HYB_PREC_D;
	for ( int64_t i = a->e0; i < a->e1; i++ )
	{
		for ( int64_t j = 0; j < a->ndiag; j++ )
			hyb_real_store( a->prec, a->data, j * mE + i - a->e0, 0.0 );
		if ( i < a->r0 || i >= a->r1 ) continue;
		for ( int64_t e = a->ptr[i] - a->ptr[0]; e < a->ptr[i + 1] - a->ptr[0]; e++ )
		{
			int64_t s = hyb_spmv_dia_find( a->offsets, a->ndiag, (int64_t)a->col[e] - a->base - i );
			if ( s < 0 )
			{
				( *a->missed )++;
				continue;
			}
			int64_t slot = s * mE + ( i - a->e0 );
			if ( isd )
				( (double*)a->data )[slot] += ( (const double*)a->val )[e];
			else
				( (float*)a->data )[slot] += ( (const float*)a->val )[e];
		}
	}
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
	return hyb_spmv_slots_sim( env, args, 0 );
}

static hyb_status_t hyb_spmv_dia_sim( const hyb_kernel_env_t* env, const void* args )
{
	return hyb_spmv_slots_sim( env, args, 1 );
}

static hyb_status_t hyb_spmv_csr_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_csr_kargs_t* a = args;
	(void)env;
	hyb_spmv_csr_ref( a->prec, a->rows, a->ptr, a->col, a->val, a->base, a->x, a->y,
	                  a->accumulate );
	return HYB_OK;
}

/* spmv.check's arguments besides the precision: sizes the kernel's loops can trust. */
static hyb_status_t hyb_spmv_check_args( const void* args )
{
	const hyb_spmv_check_kargs_t* a = args;
	if ( hyb_spmv_check( args ) != HYB_OK ) return HYB_E_NOT_SUPPORTED;
	return a->rows >= 0 && a->cols >= 0 && a->nnz >= 0 && a->block_rows > 0 && a->ptr && a->out &&
	               ( a->col || a->nnz == 0 )
	           ? HYB_OK
	           : HYB_E_INVALID;
}

static hyb_status_t hyb_spmv_csrcheck_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	hyb_spmv_check_ref( args );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_cooptr_args( const void* args )
{
	const hyb_spmv_cooptr_kargs_t* a = args;
	if ( hyb_spmv_check( args ) != HYB_OK ) return HYB_E_NOT_SUPPORTED;
	return a->rows > 0 && a->rows < 0x7fffffff && a->nnz >= 0 && a->nnz <= 0x7fffffff &&
	               a->block_rows > 0 && a->ptr && a->out && ( ( a->row && a->col ) || a->nnz == 0 )
	           ? HYB_OK
	           : HYB_E_INVALID;
}

static hyb_status_t hyb_spmv_cooptr_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	hyb_spmv_cooptr_ref( args );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_diahist_args( const void* args )
{
	const hyb_spmv_diahist_kargs_t* a = args;
	if ( hyb_spmv_check( args ) != HYB_OK ) return HYB_E_NOT_SUPPORTED;
	return a->rows > 0 && a->nnz >= 0 && a->window >= 0 && a->window < a->rows && a->ptr &&
	               a->hist && a->out && ( a->col || a->nnz == 0 )
	           ? HYB_OK
	           : HYB_E_INVALID;
}

static hyb_status_t hyb_spmv_diahist_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	hyb_spmv_diahist_ref( args );
	return HYB_OK;
}

static hyb_status_t hyb_spmv_diascatter_args( const void* args )
{
	const hyb_spmv_diascatter_kargs_t* a = args;
	if ( hyb_spmv_check( args ) != HYB_OK ) return HYB_E_NOT_SUPPORTED;
	return a->e0 >= 0 && a->e0 <= a->r0 && a->r0 <= a->r1 && a->r1 <= a->e1 && a->ndiag >= 0 &&
	               a->ndiag <= HYB_SPMV_DIA_MAX && a->ptr && a->missed &&
	               ( a->offsets || a->ndiag == 0 ) && ( a->data || a->ndiag == 0 ) &&
	               ( ( a->col && a->val ) || a->r0 == a->r1 )
	           ? HYB_OK
	           : HYB_E_INVALID;
}

static hyb_status_t hyb_spmv_diascatter_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	hyb_spmv_diascatter_ref( args );
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
/* An ELL slot reads its value, its index and x (12 bytes); a DIA slot its value and x. */
static void hyb_spmv_slots_work( const void* args, double slot_bytes, double* flops, double* bytes )
{
	const hyb_spmv_slots_kargs_t* a = args;
	*flops                          = 0;
	*bytes                          = (double)a->m * (double)a->width * slot_bytes;
}

static void hyb_spmv_ell_work( const void* args, double* flops, double* bytes )
{
	hyb_spmv_slots_work( args, 12, flops, bytes );
}

static void hyb_spmv_dia_work( const void* args, double* flops, double* bytes )
{
	hyb_spmv_slots_work( args, 8, flops, bytes );
}

static void hyb_spmv_vadd_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_vadd_kargs_t* a = args;
	*flops                         = 0;
	*bytes                         = (double)a->n * 24;
}

static hyb_status_t hyb_spmv_xsum_args( const void* args )
{
	const hyb_spmv_xsum_kargs_t* a = args;
	if ( hyb_spmv_check( args ) != HYB_OK ) return HYB_E_NOT_SUPPORTED;
	return a->bytes > 0 && a->x && a->out && (uintptr_t)a->x % 8 == 0 ? HYB_OK : HYB_E_INVALID;
}

static hyb_status_t hyb_spmv_xsum_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_spmv_xsum_kargs_t* a = args;
	(void)env;
	for ( int64_t j = 0; j < hyb_spmv_xsum_pieces( (size_t)a->bytes ); j++ )
		a->out[j] = hyb_spmv_xsum_of( a->x, (size_t)a->bytes, j );
	return HYB_OK;
}

/* The fingerprints read the vector once. */
static void hyb_spmv_xsum_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_xsum_kargs_t* a = args;
	*flops                         = 0;
	*bytes                         = (double)a->bytes;
}

/* The check reads the row pointers and every column index once. */
static void hyb_spmv_check_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_check_kargs_t* a = args;
	*flops                          = 0;
	*bytes                          = (double)( a->rows + 1 + a->nnz ) * sizeof( int );
}

/* Reads the row and column indices once, writes the pointers. */
static void hyb_spmv_cooptr_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_cooptr_kargs_t* a = args;
	*flops                           = 0;
	*bytes                           = (double)( 2 * a->nnz + a->rows + 1 ) * sizeof( int );
}

/* The histogram reads the row pointers and every column index once, then its bins. */
static void hyb_spmv_diahist_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_diahist_kargs_t* a = args;
	*flops                            = 0;
	*bytes = (double)( a->rows + 1 + a->nnz + 2 * ( 2 * a->window + 1 ) ) * sizeof( int );
}

/* The scatter reads its rows' pointers, columns and values, and writes the block's slots. */
static void hyb_spmv_diascatter_work( const void* args, double* flops, double* bytes )
{
	const hyb_spmv_diascatter_kargs_t* a   = args;
	const double                       vb  = (double)hyb_prec_size( a->prec );
	const int64_t                      nnz = a->r1 > a->r0 ? a->ptr[a->r1] - a->ptr[a->r0] : 0;
	*flops                                 = 0;
	*bytes = (double)( a->r1 - a->r0 + 1 + nnz ) * sizeof( int ) + (double)nnz * vb +
	         (double)( a->ndiag * ( a->e1 - a->e0 ) ) * vb;
}

HYB_KERNEL_DEFINE( hyb_spmv_ell_kernel, "spmv.ell", NULL, hyb_spmv_slots_kargs_t, hyb_spmv_check,
                   hyb_spmv_ell_sim, hyb_spmv_ell_work );
HYB_KERNEL_DEFINE( hyb_spmv_dia_kernel, "spmv.dia", NULL, hyb_spmv_slots_kargs_t, hyb_spmv_check,
                   hyb_spmv_dia_sim, hyb_spmv_dia_work );
HYB_KERNEL_DEFINE( hyb_spmv_csr_kernel, "spmv.csr", NULL, hyb_spmv_csr_kargs_t, hyb_spmv_check,
                   hyb_spmv_csr_sim, NULL );
HYB_KERNEL_DEFINE( hyb_spmv_vadd_kernel, "spmv.vadd", NULL, hyb_spmv_vadd_kargs_t, hyb_spmv_check,
                   hyb_spmv_vadd_sim, hyb_spmv_vadd_work );
HYB_KERNEL_DEFINE( hyb_spmv_check_kernel, "spmv.check", NULL, hyb_spmv_check_kargs_t,
                   hyb_spmv_check_args, hyb_spmv_csrcheck_sim, hyb_spmv_check_work );
HYB_KERNEL_DEFINE( hyb_spmv_cooptr_kernel, "spmv.cooptr", NULL, hyb_spmv_cooptr_kargs_t,
                   hyb_spmv_cooptr_args, hyb_spmv_cooptr_sim, hyb_spmv_cooptr_work );
HYB_KERNEL_DEFINE( hyb_spmv_diahist_kernel, "spmv.diahist", NULL, hyb_spmv_diahist_kargs_t,
                   hyb_spmv_diahist_args, hyb_spmv_diahist_sim, hyb_spmv_diahist_work );
HYB_KERNEL_DEFINE( hyb_spmv_diascatter_kernel, "spmv.diascatter", NULL, hyb_spmv_diascatter_kargs_t,
                   hyb_spmv_diascatter_args, hyb_spmv_diascatter_sim, hyb_spmv_diascatter_work );
HYB_KERNEL_DEFINE( hyb_spmv_xsum_kernel, "spmv.xsum", NULL, hyb_spmv_xsum_kargs_t,
                   hyb_spmv_xsum_args, hyb_spmv_xsum_sim, hyb_spmv_xsum_work );
