/* SPDX-License-Identifier: BSD-3-Clause */
/* The tridiagonal family's kernels on the simulated device: a reference solve and the
   pivots with the CUDA kernel's partition rule, their sim launchers, and their
   registration. */
#include <stdlib.h>

#include "kernels/gtsv/hyb_gtsv_kernels.h"

/* The Thomas algorithm (no pivoting), in place on b; the matrix is not modified. The
   truncated SPIKE of the CUDA kernel agrees with it to the truncation error, which the
   caller's window keeps below rounding. */
static hyb_status_t hyb_gtsv_thomas_ref( hyb_prec_t prec, int64_t n, int64_t nrhs, const void* dl,
                                         const void* d, const void* du, void* b, int64_t ldb )
{
	if ( n <= 0 ) return HYB_OK;
	double* c = malloc( (size_t)n * sizeof *c ); /* modified superdiagonal */
	if ( c == NULL ) return HYB_E_NO_MEMORY;
	for ( int64_t r = 0; r < nrhs; r++ )
	{
		int64_t o     = r * ldb;
		double  denom = hyb_real_load( prec, d, 0 );
		c[0]          = n > 1 ? hyb_real_load( prec, du, 0 ) / denom : 0;
		hyb_real_store( prec, b, o, hyb_real_load( prec, b, o ) / denom );
		for ( int64_t i = 1; i < n; i++ )
		{
			double l = hyb_real_load( prec, dl, i - 1 );
			denom    = hyb_real_load( prec, d, i ) - l * c[i - 1];
			c[i]     = i < n - 1 ? hyb_real_load( prec, du, i ) / denom : 0;
			hyb_real_store(
			    prec, b, o + i,
			    ( hyb_real_load( prec, b, o + i ) - l * hyb_real_load( prec, b, o + i - 1 ) ) /
			        denom );
		}
		for ( int64_t i = n - 2; i >= 0; i-- )
			hyb_real_store( prec, b, o + i,
			                hyb_real_load( prec, b, o + i ) -
			                    c[i] * hyb_real_load( prec, b, o + i + 1 ) );
	}
	free( c );
	return HYB_OK;
}

/* Rows per partition of the pivots for a restart distance `warm`: the CUDA kernel's rule
   (max(256, 2 warm)), so that the simulated device exercises the restarts. */
static int64_t hyb_gtsv_pivots_part( int64_t warm )
{
	return warm > 128 ? ( warm < INT64_MAX / 2 ? 2 * warm : INT64_MAX ) : 256;
}

/* One partition [lo, hi) of the pivots in the array's precision: the restart (from row
   s = max(0, lo - warm); rows s+1 .. lo-1 are not written), then the partition's rows. */
#define HYB_GTSV_PIVOTS_PART( T, NAME )                                                            \
	static void NAME( const T* dl, const T* d, const T* du, T* out, T first, int64_t lo,           \
	                  int64_t hi, int64_t warm )                                                   \
	{                                                                                              \
		int64_t s = lo - warm <= 0 ? 0 : lo - warm;                                                \
		T       c = s == 0 ? first : d[s];                                                         \
		if ( lo == 0 ) out[0] = c;                                                                 \
		for ( int64_t i = s + 1; i < lo; i++ ) c = d[i] - ( dl[i - 1] / c ) * du[i - 1];           \
		for ( int64_t i = lo > 0 ? lo : 1; i < hi; i++ )                                           \
		{                                                                                          \
			c      = d[i] - ( dl[i - 1] / c ) * du[i - 1];                                         \
			out[i] = c;                                                                            \
		}                                                                                          \
	}

HYB_GTSV_PIVOTS_PART( float, hyb_gtsv_spivots_part )
HYB_GTSV_PIVOTS_PART( double, hyb_gtsv_dpivots_part )

/* The pivots (hyb_gtsv_pivots_kargs_t) with the partition rule, not the serial
   recurrence, so that tests see the restarts a real device makes: partitions of
   hyb_gtsv_pivots_part(warm) rows, each after the first restarting `warm` rows early from
   d alone (from `first` where the restart would reach row 0), in the array's precision. */
static void hyb_gtsv_pivots_ref( hyb_prec_t prec, int64_t n, const void* dl, const void* d,
                                 const void* du, void* out, double first, int64_t warm )
{
	int64_t part = hyb_gtsv_pivots_part( warm );
	for ( int64_t lo = 0, hi; lo < n; lo = hi )
	{
		hi = n - lo > part ? lo + part : n;
		if ( prec == HYB_PREC_S )
			hyb_gtsv_spivots_part( dl, d, du, out, (float)first, lo, hi, warm );
		else
			hyb_gtsv_dpivots_part( dl, d, du, out, first, lo, hi, warm );
	}
}

/* ------------------------------------------------------------ launchers */

/* Both kernels exist in single and double precision only; every argument struct of the
   family starts with its precision. */
static hyb_status_t hyb_gtsv_spike_check( const void* args )
{
	return hyb_prec_is_complex( *(const hyb_prec_t*)args ) ? HYB_E_NOT_SUPPORTED : HYB_OK;
}

static hyb_status_t hyb_gtsv_pivots_check( const void* args )
{
	const hyb_gtsv_pivots_kargs_t* a  = args;
	hyb_status_t                   st = hyb_gtsv_spike_check( args );
	if ( st != HYB_OK ) return st;
	if ( a->tri.n < 0 || a->warm < 1 ||
	     ( a->tri.n >= 1 && ( a->tri.d == NULL || a->out == NULL ) ) ||
	     ( a->tri.n >= 2 && ( a->tri.dl == NULL || a->tri.du == NULL ) ) )
		return HYB_E_INVALID;
	return HYB_OK;
}

static hyb_status_t hyb_gtsv_spike_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_gtsv_spike_kargs_t* a = args; /* the window does not matter: the solve is exact */
	(void)env;
	return hyb_gtsv_thomas_ref( a->tri.prec, a->tri.n, a->nrhs, a->tri.dl, a->tri.d, a->tri.du,
	                            a->b, a->ldb );
}

static hyb_status_t hyb_gtsv_pivots_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_gtsv_pivots_kargs_t* a = args;
	(void)env;
	hyb_gtsv_pivots_ref( a->tri.prec, a->tri.n, a->tri.dl, a->tri.d, a->tri.du, a->out, a->first,
	                     a->warm );
	return HYB_OK;
}

/* Memory-bound: the matrix and the right-hand sides once. */
static void hyb_gtsv_spike_work( const void* args, double* flops, double* bytes )
{
	const hyb_gtsv_spike_kargs_t* a = args;
	*flops                          = 0;
	*bytes                          = (double)a->tri.n * (double)( 4 + a->nrhs ) * 8;
}

/* dl, d, du read (again over each restart), out written. */
static void hyb_gtsv_pivots_work( const void* args, double* flops, double* bytes )
{
	const hyb_gtsv_pivots_kargs_t* a = args;
	double                         rows =
	    (double)a->tri.n * ( 1 + (double)a->warm / (double)hyb_gtsv_pivots_part( a->warm ) );
	*flops = 0;
	*bytes = rows * 4 * (double)hyb_prec_size( a->tri.prec );
}

HYB_KERNEL_DEFINE( hyb_gtsv_spike_kernel, "gtsv.spike", NULL, hyb_gtsv_spike_kargs_t,
                   hyb_gtsv_spike_check, hyb_gtsv_spike_sim, hyb_gtsv_spike_work );
HYB_KERNEL_DEFINE( hyb_gtsv_pivots_kernel, "gtsv.pivots", NULL, hyb_gtsv_pivots_kargs_t,
                   hyb_gtsv_pivots_check, hyb_gtsv_pivots_sim, hyb_gtsv_pivots_work );
