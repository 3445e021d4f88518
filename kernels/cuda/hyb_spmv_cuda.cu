/* SPDX-License-Identifier: BSD-3-Clause */
/* CUDA SpMV kernels: ELL and DIA parts of the hybrid split, a vector CSR kernel for the
   device-only path, the additions that merge partial results, the check of a CSR copy
   before its first use, the row pointers of a COO copy, and the diagonal histogram of a copy
   and its DIA blocks written from it. Every kernel is a plain
   one-thread-per-row (or sub-warp-per-row) loop, memory-bound by design. */
#include "kernels/cuda/hyb_spmv_cuda.h"

#include <cuda_runtime.h>

namespace
{

const int kBlock = 256; /* threads per block for every kernel */

/* Blocks for n threads (n > 0), as the grid's x dimension allows (2^31 - 1). */
inline unsigned hyb_blocks( int64_t n )
{
	return (unsigned)( ( n + kBlock - 1 ) / kBlock );
}

/* y[i] := sum or y[i] += sum; y is only read when accumulating (no extra traffic). */
template <typename T>
__device__ __forceinline__ void hyb_put( T* y, int64_t i, double sum, int accumulate )
{
	if ( accumulate )
		y[i] = (T)( (double)y[i] + sum );
	else
		y[i] = (T)sum;
}

/* One thread per row; slot j of row i at j*m + i, so a warp reads 32 consecutive slots
   (coalesced). A row ends at its first padding slot. */
template <typename T>
__global__ void __launch_bounds__( kBlock )
    hyb_ell_kernel( int64_t m, int K, const int* __restrict__ index, const T* __restrict__ data,
                    const T* __restrict__ x, T* __restrict__ y, int accumulate )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= m ) return;
	double sum = 0.0;
	for ( int j = 0; j < K; j++ )
	{
		int64_t p = (int64_t)j * m + i;
		int     c = __ldg( index + p );
		if ( c < 0 ) break;
		sum += (double)__ldg( data + p ) * (double)__ldg( x + c );
	}
	hyb_put( y, i, sum, accumulate );
}

/* One thread per row; offsets staged in shared memory (at most 1024 of them). Slot d of
   row i at d*m + i (coalesced); x[i + offset] is coalesced too. */
template <typename T>
__global__ void __launch_bounds__( kBlock )
    hyb_dia_kernel( int64_t m, int nd, const int* __restrict__ offset, const T* __restrict__ data,
                    const T* __restrict__ x, T* __restrict__ y, int accumulate )
{
	extern __shared__ int s_off[];
	for ( int d = threadIdx.x; d < nd; d += blockDim.x ) s_off[d] = offset[d];
	__syncthreads();
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= m ) return;
	double sum = 0.0;
	for ( int d = 0; d < nd; d++ )
	{
		int64_t j = i + s_off[d];
		if ( j < 0 || j >= m ) continue;
		T v = __ldg( data + (int64_t)d * m + i );
		if ( v != (T)0 ) sum += (double)v * (double)__ldg( x + j );
	}
	hyb_put( y, i, sum, accumulate );
}

/* TPR threads per row (a power of two <= 32): lanes stride over the row, then a shuffle
   reduction inside the sub-warp. No thread returns early, so every lane of a warp takes
   part in the full-mask shuffles. */
template <typename T, int TPR>
__global__ void __launch_bounds__( kBlock )
    hyb_csr_kernel( int64_t rows, const int* __restrict__ ptr, const int* __restrict__ col,
                    const T* __restrict__ val, int base, const T* __restrict__ x, T* __restrict__ y,
                    int accumulate )
{
	int64_t t    = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	int64_t row  = t / TPR;
	int     lane = (int)( t & ( TPR - 1 ) );
	double  sum  = 0.0;
	if ( row < rows )
	{
		int p0 = __ldg( ptr );
		int k0 = __ldg( ptr + row ) - p0, k1 = __ldg( ptr + row + 1 ) - p0;
		for ( int k = k0 + lane; k < k1; k += TPR )
			sum += (double)__ldg( val + k ) * (double)__ldg( x + ( __ldg( col + k ) - base ) );
	}
	for ( int off = TPR / 2; off > 0; off >>= 1 )
		sum += __shfl_down_sync( 0xffffffffu, sum, off, TPR );
	if ( row < rows && lane == 0 ) hyb_put( y, row, sum, accumulate );
}

template <typename T>
__global__ void __launch_bounds__( kBlock )
    hyb_vadd_kernel( int64_t n, const T* __restrict__ z, T* __restrict__ y )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i < n ) y[i] += z[i];
}

template <typename T>
__global__ void __launch_bounds__( kBlock )
    hyb_axpyi_kernel( int64_t nz, const T* __restrict__ val, const int* __restrict__ idx,
                      T* __restrict__ y )
{
	int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( k < nz ) y[idx[k]] += val[k];
}

/* The check's out: valid, and every block's column window empty. */
__global__ void __launch_bounds__( kBlock )
    hyb_check_init_kernel( int64_t nblk, int cols, int* out )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i == 0 ) out[0] = 0;
	if ( i < nblk )
	{
		out[1 + 2 * i] = cols;
		out[2 + 2 * i] = -1;
	}
}

/* The column window of block `blk` widened by (cmin, cmax) from every lane that has one: a
   warp whose lanes all name one block (or none) reduces by shuffles and one lane updates it;
   otherwise every lane does. Every lane of the warp calls it. */
__device__ __forceinline__ void hyb_window_put( int64_t blk, int has, int cmin, int cmax, int* out )
{
	int64_t b0  = __shfl_sync( 0xffffffffu, has ? blk : -1, 0 );
	int     one = __all_sync( 0xffffffffu, !has || blk == b0 );
	if ( one )
	{
		for ( int off = 16; off > 0; off >>= 1 )
		{
			cmin = min( cmin, __shfl_xor_sync( 0xffffffffu, cmin, off ) );
			cmax = max( cmax, __shfl_xor_sync( 0xffffffffu, cmax, off ) );
		}
		has = ( threadIdx.x & 31 ) == 0 && cmax >= 0;
		blk = b0;
	}
	if ( has && cmax >= 0 && blk >= 0 )
	{
		atomicMin( out + 1 + 2 * blk, cmin );
		atomicMax( out + 2 + 2 * blk, cmax );
	}
}

/* One thread per row: its pointers, then its columns (only where the pointers are in range,
   so nothing outside col is read), its columns into its block's window. No thread returns
   early: every lane takes part in the window's warp-wide steps. */
__global__ void __launch_bounds__( kBlock )
    hyb_check_kernel( int64_t rows, int64_t cols, int64_t nnz, int64_t block_rows,
                      const int* __restrict__ ptr, const int* __restrict__ col, int first, int base,
                      int* __restrict__ out )
{
	int64_t i    = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	int     bad  = 0;
	int     cmin = (int)cols, cmax = -1;
	if ( i == 0 ) bad = __ldg( ptr ) != first || (int64_t)__ldg( ptr + rows ) - first != nnz;
	if ( i < rows )
	{
		int64_t p0 = __ldg( ptr );
		int64_t lo = __ldg( ptr + i ) - p0, hi = __ldg( ptr + i + 1 ) - p0;
		if ( lo < 0 || hi < lo || hi > nnz )
			bad = 1;
		else
			for ( int64_t e = lo; e < hi; e++ )
			{
				int64_t c = (int64_t)__ldg( col + e ) - base;
				if ( c < 0 || c >= cols )
					bad = 1;
				else
				{
					cmin = c < cmin ? (int)c : cmin;
					cmax = c > cmax ? (int)c : cmax;
				}
			}
	}
	if ( bad ) atomicOr( out, 1 );
	hyb_window_put( i / block_rows, i < rows && cmax >= 0, cmin, cmax, out );
}

/* One thread per entry: its row and column checked, the pointers of the rows after the
   previous entry's up to its own set to it (the last entry also those after its row), its
   column into its block's window. Pointers are written only inside [0, rows]. */
__global__ void __launch_bounds__( kBlock )
    hyb_cooptr_kernel( int64_t rows, int64_t nnz, int64_t block_rows, const int* __restrict__ row,
                       const int* __restrict__ col, int base, int* __restrict__ ptr,
                       int* __restrict__ out )
{
	int64_t e   = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	int     why = 0, has = 0;
	int64_t r = 0, c = 0;
	if ( e < nnz )
	{
		r = (int64_t)__ldg( row + e ) - base;
		c = (int64_t)__ldg( col + e ) - base;
		if ( r < 0 || r >= rows || c < 0 || c >= rows )
			why = HYB_CUDA_COOPTR_RANGE;
		else
		{
			/* The previous entry's row, where it is in range: beside an index out of range
			   the reason is that one (the simulated launcher skips such entries). */
			const int64_t p    = e > 0 ? (int64_t)__ldg( row + e - 1 ) - base : -1;
			const bool    pin  = p >= 0 && p < rows;
			const int64_t from = e == 0 ? 0 : pin ? p + 1 : r + 1;
			if ( pin && p > r ) why = HYB_CUDA_COOPTR_ORDER;
			for ( int64_t q = from; q <= r; q++ ) ptr[q] = (int)e;
			if ( e == nnz - 1 )
				for ( int64_t q = r + 1; q <= rows; q++ ) ptr[q] = (int)nnz;
			has = 1;
		}
	}
	if ( why ) atomicOr( out, why );
	hyb_window_put( r / block_rows, has, has ? (int)c : (int)rows, has ? (int)c : -1, out );
}

/* spmv.xsum: one warp per piece, lane l taking words l, l + 32, ... (coalesced), each lane's
   final mix summed over the warp. Constants and steps as kernels/spmv/hyb_spmv_xsum.h. */
__device__ __forceinline__ uint64_t hyb_xsum_round( uint64_t acc, uint64_t w )
{
	acc += w * 0xC2B2AE3D27D4EB4Full;
	acc = ( acc << 31 ) | ( acc >> 33 );
	return acc * 0x9E3779B185EBCA87ull;
}

__device__ __forceinline__ uint64_t hyb_xsum_final( uint64_t v )
{
	v ^= v >> 33;
	v *= 0xC2B2AE3D27D4EB4Full;
	v ^= v >> 29;
	v *= 0x165667B19E3779F9ull;
	v ^= v >> 32;
	return v;
}

__global__ void __launch_bounds__( kBlock )
    hyb_xsum_kernel( int64_t bytes, const unsigned char* __restrict__ x, uint64_t* out )
{
	const int64_t piece = ( (int64_t)blockIdx.x * kBlock + threadIdx.x ) / 32;
	const int     lane  = threadIdx.x % 32;
	if ( piece * HYB_CUDA_XSUM_PIECE >= bytes ) return;
	const int64_t a    = piece * HYB_CUDA_XSUM_PIECE;
	const int64_t n    = bytes - a < HYB_CUDA_XSUM_PIECE ? bytes - a : HYB_CUDA_XSUM_PIECE;
	const int64_t full = n / 8;
	const uint64_t* w  = (const uint64_t*)( x + a );
	uint64_t        acc = (uint64_t)( lane + 1 ) * 0x165667B19E3779F9ull;
	for ( int64_t i = lane; i < full; i += 32 ) acc = hyb_xsum_round( acc, __ldg( w + i ) );
	if ( n % 8 && full % 32 == lane )
	{
		uint64_t t = 0;
		for ( int k = 0; k < n % 8; k++ ) t |= (uint64_t)x[a + full * 8 + k] << ( 8 * k );
		acc = hyb_xsum_round( acc, t );
	}
	uint64_t h = hyb_xsum_final( acc );
	for ( int o = 16; o > 0; o /= 2 ) h += __shfl_xor_sync( 0xffffffffu, h, o );
	if ( lane == 0 ) out[piece] = h;
}

/* spmv.diahist: one thread per row counts its entries' diagonals; the lanes of a warp on one
   diagonal add once (a stencil's neighbouring rows share their diagonals, so a warp's 32
   entries of one step are one atomic, not 32). key -1: a diagonal outside the window. */
__global__ void __launch_bounds__( kBlock )
    hyb_diahist_kernel( int64_t rows, int64_t            W, const int* __restrict__ ptr,
                        const int* __restrict__ col, int base, int* hist, int* out )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= rows ) return;
	const int     p0 = __ldg( ptr );
	const int64_t hi = (int64_t)__ldg( ptr + i + 1 ) - p0;
	for ( int64_t e = (int64_t)__ldg( ptr + i ) - p0; e < hi; e++ )
	{
		const int64_t  off   = (int64_t)__ldg( col + e ) - base - i;
		const int      key   = off >= -W && off <= W ? (int)( off + W ) : -1;
		const unsigned peers = __match_any_sync( __activemask(), key );
		if ( (int)( threadIdx.x & 31 ) == __ffs( peers ) - 1 )
			atomicAdd( key >= 0 ? hist + key : out, __popc( peers ) );
	}
}

/* The diagonals holding an entry: one ballot per warp (every lane reaches it). */
__global__ void __launch_bounds__( kBlock )
    hyb_diahist_held_kernel( int64_t L, const int* __restrict__ hist, int* held )
{
	int64_t        q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const unsigned b = __ballot_sync( 0xffffffffu, q < L && hist[q] > 0 );
	if ( ( threadIdx.x & 31 ) == 0 && b ) atomicAdd( held, __popc( b ) );
}

/* spmv.diascatter: one thread per row of [e0, e1): its slots zeroed, then (rows of [r0, r1))
   its entries added in the copy's order in the matrix's precision, as the host build adds
   them; a diagonal found among the offsets (shared memory) by bisection. */
template <typename T>
__global__ void __launch_bounds__( kBlock )
    hyb_diascatter_kernel( int64_t r0, int64_t r1, int64_t e0, int64_t e1, int nd,
                           const int* __restrict__ offsets, const int* __restrict__ ptr,
                           const int* __restrict__ col, const T* __restrict__ val, int base,
                           T* __restrict__ data, int* missed )
{
	extern __shared__ int s_off[];
	for ( int d = threadIdx.x; d < nd; d += blockDim.x ) s_off[d] = offsets[d];
	__syncthreads();
	const int64_t i = e0 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= e1 ) return;
	const int64_t mE = e1 - e0, li = i - e0;
	for ( int d = 0; d < nd; d++ ) data[(int64_t)d * mE + li] = (T)0;
	if ( i < r0 || i >= r1 ) return;
	const int     p0 = __ldg( ptr );
	const int64_t hi = (int64_t)__ldg( ptr + i + 1 ) - p0;
	for ( int64_t e = (int64_t)__ldg( ptr + i ) - p0; e < hi; e++ )
	{
		const int64_t off = (int64_t)__ldg( col + e ) - base - i;
		int           lo = 0, up = nd;
		while ( lo < up )
		{
			int mid = ( lo + up ) / 2;
			if ( s_off[mid] < off )
				lo = mid + 1;
			else
				up = mid;
		}
		if ( lo >= nd || s_off[lo] != off )
		{
			atomicAdd( missed, 1 );
			continue;
		}
		T* slot = data + (int64_t)lo * mE + li;
		*slot   = *slot + __ldg( val + e );
	}
}

template <typename T>
cudaError_t hyb_diascatter( int64_t r0, int64_t r1, int64_t e0, int64_t e1, int64_t nd,
                            const int* offsets, const int* ptr, const int* col, const T* val,
                            int base, T* data, int* missed, cudaStream_t s )
{
	if ( e0 < 0 || r0 < e0 || r1 < r0 || e1 < r1 || nd < 0 || nd > 1024 )
		return cudaErrorInvalidValue;
	if ( e1 == e0 ) return cudaSuccess;
	hyb_diascatter_kernel<T><<<hyb_blocks( e1 - e0 ), kBlock, (size_t)nd * sizeof( int ), s>>>(
	    r0, r1, e0, e1, (int)nd, offsets, ptr, col, val, base, data, missed );
	return cudaGetLastError();
}

template <typename T>
cudaError_t hyb_ell( int64_t m, int64_t K, const int* index, const T* data, const T* x, T* y,
                     int acc, cudaStream_t s )
{
	if ( m <= 0 ) return cudaSuccess;
	if ( K < 0 || K > 0x7fffffff ) return cudaErrorInvalidValue;
	hyb_ell_kernel<T><<<hyb_blocks( m ), kBlock, 0, s>>>( m, (int)K, index, data, x, y, acc );
	return cudaGetLastError();
}

template <typename T>
cudaError_t hyb_dia( int64_t m, int64_t nd, const int* offset, const T* data, const T* x, T* y,
                     int acc, cudaStream_t s )
{
	if ( m <= 0 ) return cudaSuccess;
	if ( nd < 0 || nd > 1024 ) return cudaErrorInvalidValue;
	hyb_dia_kernel<T><<<hyb_blocks( m ), kBlock, (size_t)nd * sizeof( int ), s>>>(
	    m, (int)nd, offset, data, x, y, acc );
	return cudaGetLastError();
}

template <typename T, int TPR>
cudaError_t hyb_csr_launch( int64_t rows, const int* ptr, const int* col, const T* val, int base,
                            const T* x, T* y, int acc, cudaStream_t s )
{
	hyb_csr_kernel<T, TPR>
	    <<<hyb_blocks( rows * TPR ), kBlock, 0, s>>>( rows, ptr, col, val, base, x, y, acc );
	return cudaGetLastError();
}

/* Threads per row: the power of two nearest above the mean row length, 2..32 (the CUSP
   vector-kernel rule: short rows waste few lanes, long rows use a whole warp). */
template <typename T>
cudaError_t hyb_csr( int64_t rows, const int* ptr, const int* col, const T* val, int base,
                     double mean, const T* x, T* y, int acc, cudaStream_t s )
{
	if ( rows <= 0 ) return cudaSuccess;
	if ( mean <= 2.0 ) return hyb_csr_launch<T, 2>( rows, ptr, col, val, base, x, y, acc, s );
	if ( mean <= 4.0 ) return hyb_csr_launch<T, 4>( rows, ptr, col, val, base, x, y, acc, s );
	if ( mean <= 8.0 ) return hyb_csr_launch<T, 8>( rows, ptr, col, val, base, x, y, acc, s );
	if ( mean <= 16.0 ) return hyb_csr_launch<T, 16>( rows, ptr, col, val, base, x, y, acc, s );
	return hyb_csr_launch<T, 32>( rows, ptr, col, val, base, x, y, acc, s );
}

template <typename T> cudaError_t hyb_vadd( int64_t n, const T* z, T* y, cudaStream_t s )
{
	if ( n <= 0 ) return cudaSuccess;
	hyb_vadd_kernel<T><<<hyb_blocks( n ), kBlock, 0, s>>>( n, z, y );
	return cudaGetLastError();
}

template <typename T>
cudaError_t hyb_axpyi( int64_t nz, const T* val, const int* idx, T* y, cudaStream_t s )
{
	if ( nz <= 0 ) return cudaSuccess;
	hyb_axpyi_kernel<T><<<hyb_blocks( nz ), kBlock, 0, s>>>( nz, val, idx, y );
	return cudaGetLastError();
}

} /* namespace */

/* The ELL and DIA entry points take the same arguments (m, the slots per row, their index
   array, the slots' values, x, y): one definition per part and precision. */
#define HYB_SLOTS_ENTRY( name, part, T )                                                           \
	cudaError_t name( int64_t m, int64_t width, const int* index, const T* data, const T* x, T* y, \
	                  int accumulate, cudaStream_t stream )                                        \
	{                                                                                              \
		return part<T>( m, width, index, data, x, y, accumulate, stream );                         \
	}

extern "C"
{

	HYB_SLOTS_ENTRY( hyb_dellmv_cuda, hyb_ell, double )
	HYB_SLOTS_ENTRY( hyb_sellmv_cuda, hyb_ell, float )
	HYB_SLOTS_ENTRY( hyb_ddiamv_cuda, hyb_dia, double )
	HYB_SLOTS_ENTRY( hyb_sdiamv_cuda, hyb_dia, float )
#undef HYB_SLOTS_ENTRY

	cudaError_t hyb_dcsrmv_cuda( int64_t rows, const int* ptr, const int* col, const double* val,
	                             int base, double mean_len, const double* x, double* y,
	                             int accumulate, cudaStream_t stream )
	{
		return hyb_csr<double>( rows, ptr, col, val, base, mean_len, x, y, accumulate, stream );
	}

	cudaError_t hyb_scsrmv_cuda( int64_t rows, const int* ptr, const int* col, const float* val,
	                             int base, double mean_len, const float* x, float* y,
	                             int accumulate, cudaStream_t stream )
	{
		return hyb_csr<float>( rows, ptr, col, val, base, mean_len, x, y, accumulate, stream );
	}

	cudaError_t hyb_dvadd_cuda( int64_t n, const double* z, double* y, cudaStream_t stream )
	{
		return hyb_vadd<double>( n, z, y, stream );
	}

	cudaError_t hyb_svadd_cuda( int64_t n, const float* z, float* y, cudaStream_t stream )
	{
		return hyb_vadd<float>( n, z, y, stream );
	}

	cudaError_t hyb_daxpyi_cuda( int64_t nz, const double* val, const int* idx, double* y,
	                             cudaStream_t stream )
	{
		return hyb_axpyi<double>( nz, val, idx, y, stream );
	}

	cudaError_t hyb_saxpyi_cuda( int64_t nz, const float* val, const int* idx, float* y,
	                             cudaStream_t stream )
	{
		return hyb_axpyi<float>( nz, val, idx, y, stream );
	}

	cudaError_t hyb_csrcheck_cuda( int64_t rows, int64_t cols, int64_t nnz, int64_t block_rows,
	                               const int* ptr, const int* col, int first, int base, int* out,
	                               cudaStream_t stream )
	{
		if ( rows < 0 || block_rows <= 0 || cols < 0 || cols > 0x7fffffff )
			return cudaErrorInvalidValue;
		int64_t nblk = ( rows + block_rows - 1 ) / block_rows;
		hyb_check_init_kernel<<<hyb_blocks( nblk > 0 ? nblk : 1 ), kBlock, 0, stream>>>(
		    nblk, (int)cols, out );
		cudaError_t e = cudaGetLastError();
		if ( e != cudaSuccess || rows == 0 ) return e;
		hyb_check_kernel<<<hyb_blocks( rows ), kBlock, 0, stream>>>( rows, cols, nnz, block_rows,
		                                                             ptr, col, first, base, out );
		return cudaGetLastError();
	}

	cudaError_t hyb_cooptr_cuda( int64_t rows, int64_t nnz, int64_t block_rows, const int* row,
	                             const int* col, int base, int* ptr, int* out, cudaStream_t stream )
	{
		if ( rows <= 0 || rows >= 0x7fffffff || nnz < 0 || nnz > 0x7fffffff || block_rows <= 0 )
			return cudaErrorInvalidValue;
		int64_t nblk = ( rows + block_rows - 1 ) / block_rows;
		hyb_check_init_kernel<<<hyb_blocks( nblk ), kBlock, 0, stream>>>( nblk, (int)rows, out );
		cudaError_t e = cudaGetLastError();
		if ( e != cudaSuccess ) return e;
		if ( nnz == 0 )
			return cudaMemsetAsync( ptr, 0, (size_t)( rows + 1 ) * sizeof( int ), stream );
		hyb_cooptr_kernel<<<hyb_blocks( nnz ), kBlock, 0, stream>>>( rows, nnz, block_rows, row,
		                                                             col, base, ptr, out );
		return cudaGetLastError();
	}

	cudaError_t hyb_diahist_cuda( int64_t rows, int64_t window, const int* ptr, const int* col,
	                              int base, int* hist, int* out, cudaStream_t stream )
	{
		if ( rows <= 0 || window < 0 || window >= rows || window > 0x3fffffff )
			return cudaErrorInvalidValue;
		const int64_t L = 2 * window + 1;
		cudaError_t   e = cudaMemsetAsync( hist, 0, (size_t)L * sizeof( int ), stream );
		if ( e == cudaSuccess ) e = cudaMemsetAsync( out, 0, 2 * sizeof( int ), stream );
		if ( e != cudaSuccess ) return e;
		hyb_diahist_kernel<<<hyb_blocks( rows ), kBlock, 0, stream>>>( rows, window, ptr, col, base,
		                                                               hist, out );
		if ( ( e = cudaGetLastError() ) != cudaSuccess ) return e;
		hyb_diahist_held_kernel<<<hyb_blocks( L ), kBlock, 0, stream>>>( L, hist, out + 1 );
		return cudaGetLastError();
	}

	cudaError_t hyb_xsum_cuda( int64_t bytes, const void* x, uint64_t* out, cudaStream_t stream )
	{
		if ( bytes <= 0 || (uintptr_t)x % 8 ) return cudaErrorInvalidValue;
		const int64_t pieces = ( bytes + HYB_CUDA_XSUM_PIECE - 1 ) / HYB_CUDA_XSUM_PIECE;
		hyb_xsum_kernel<<<hyb_blocks( pieces * 32 ), kBlock, 0, stream>>>(
		    bytes, (const unsigned char*)x, out );
		return cudaGetLastError();
	}

	cudaError_t hyb_ddiascatter_cuda( int64_t r0, int64_t r1, int64_t e0, int64_t e1, int64_t ndiag,
	                                  const int* offsets, const int* ptr, const int* col,
	                                  const double* val, int base, double* data, int* missed,
	                                  cudaStream_t stream )
	{
		return hyb_diascatter<double>( r0, r1, e0, e1, ndiag, offsets, ptr, col, val, base, data,
		                               missed, stream );
	}

	cudaError_t hyb_sdiascatter_cuda( int64_t r0, int64_t r1, int64_t e0, int64_t e1, int64_t ndiag,
	                                  const int* offsets, const int* ptr, const int* col,
	                                  const float* val, int base, float* data, int* missed,
	                                  cudaStream_t stream )
	{
		return hyb_diascatter<float>( r0, r1, e0, e1, ndiag, offsets, ptr, col, val, base, data,
		                              missed, stream );
	}

	const void* hyb_spmv_cuda_ell_func( void )
	{
		return (const void*)hyb_ell_kernel<double>;
	}

} /* extern "C" */
