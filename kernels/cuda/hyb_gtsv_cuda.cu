/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU truncated SPIKE for diagonally dominant tridiagonal systems (?gtsv_), C-callable:
   one pass over device-resident data, many small partitions per thread block. */
#include "kernels/cuda/hyb_gtsv_cuda.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <vector>

/* ---------------------------------------------------------------------------------------
   Two kernels, queued on one stream.

   seam_kernel: one thread per tile boundary s (s = T, 2T, ... < n, T = rows per tile):
   the truncated SPIKE reduced system of the seam from the window [s-m, s+m) (LU sweep
   down to row s-1, UL sweep up to row s, each starting fresh unless it starts at row 0 or
   n-1; then the 2x2 system), writing x[s-1] and x[s] into B. A window never reaches another
   boundary's two rows (T > m), so the threads do not interfere.

   tile_kernel: one thread block per tile [t0, t0 + T), P threads, thread k owning
   partition k = local rows k*R .. k*R + R-1 (rows 0 .. R-2 its interior, R-1 its
   separator). The first row of a tile (t0 > 0) and its last row (when a boundary follows)
   already hold the seam kernel's x: they are loaded as identity rows (x = b), which
   decouples the tile from its neighbours, so the solve inside the tile is exact and a
   block reads and writes only its own rows of B (no halo, no race between blocks). Rows
   at or past n are identity rows too.

   Shared memory of a block, in elements of T:
     A, D, C, B[0..NB-1]   per row: the coefficient of x[r-1], of x[r], of x[r+1], and the
                           right-hand sides; row i of partition k at k*(R+1) + i (the pad
                           slot makes the per-thread stride odd: no bank conflicts)
     X[0 .. 2+NB]          per partition: exchange between threads (spike tops, the PCR
                           equations, the separator solutions)
   After the sweeps a partition's interior slots are reused: D holds 1/u_ii of its LU
   factorisation, B the forward-substituted right-hand sides, A the forward-substituted
   "p" spike (see phase_sweeps).

   Every phase of tile_kernel is a __host__ __device__ function of one thread, and
   tile_step numbers them: the kernel runs the steps separated by __syncthreads(), the host
   emulator runs each step for all threads in turn (so both execute the same sequence). No
   phase reads shared memory another thread writes in the same phase.
   --------------------------------------------------------------------------------------- */

namespace
{

constexpr int kR        = 8;   /* rows per partition: 7 interior + 1 separator */
constexpr int kMaxBlock = 512; /* threads per block at most (launch bounds) */

template <typename T> struct Args
{
	long long n;
	const T*  dl;
	const T*  d;
	const T*  du;
	T*        b;
	long long ldb;
	int       tile; /* rows per block, P * kR */
	int       m;    /* truncation window of the seams */
};

template <typename T, int NB> struct Smem
{
	T* A;
	T* D;
	T* C;
	T* B[NB];
	T* X[3 + NB];
};

template <typename T, int NB> struct State
{
	T pt, qt, pb, qb; /* top and bottom of the interior spikes p (from above), q (below) */
	T gt[NB], gb[NB]; /* top and bottom of the interior solution g */
	T a, c, e;        /* this separator's equation a x[k-1] + c x[k] + e x[k+1] = r */
	T r[NB];
};

/* Elements of shared memory for P threads. */
template <int NB> __host__ __device__ inline size_t smem_elems( int P )
{
	return (size_t)( 3 + NB ) * (size_t)P * ( kR + 1 ) + (size_t)( 3 + NB ) * (size_t)P;
}

template <typename T, int NB> __host__ __device__ inline Smem<T, NB> smem_carve( T* base, int P )
{
	Smem<T, NB> s;
	size_t      rows = (size_t)P * ( kR + 1 );
	s.A              = base;
	s.D              = base + rows;
	s.C              = base + 2 * rows;
	for ( int j = 0; j < NB; j++ ) s.B[j] = base + ( 3 + j ) * rows;
	T* x = base + ( 3 + NB ) * rows;
	for ( int f = 0; f < 3 + NB; f++ ) s.X[f] = x + (size_t)f * P;
	return s;
}

__host__ __device__ inline int slot( int l )
{
	return ( l / kR ) * ( kR + 1 ) + l % kR;
}

/* The rows of tile blk that thread tid moves between global and shared memory, coalesced
   (consecutive threads, consecutive rows): f( l, r, idx ) for each of its local rows l, with
   the global row r (possibly past n) and the shared-memory slot idx. */
template <typename T, typename F>
__host__ __device__ inline void tile_rows( const Args<T>& g, long long blk, int P, int tid, F f )
{
	const long long t0 = blk * g.tile;
	for ( int l = tid; l < P * kR; l += P ) f( l, t0 + l, slot( l ) );
}

/* Global rows -> shared memory. The tile's first and last rows are identity rows when the
   seam kernel solved them. */
template <typename T, int NB>
__host__ __device__ inline void phase_load( const Args<T>& g, const Smem<T, NB>& s, long long blk,
                                            int P, int tid )
{
	auto load = [&]( int l, long long r, int idx )
	{
		bool in    = r < g.n;
		bool known = ( l == 0 && r > 0 ) || ( l == P * kR - 1 && r + 1 < g.n );
		if ( in && !known )
		{
			s.A[idx] = r >= 1 ? g.dl[r - 1] : T( 0 );
			s.D[idx] = g.d[r];
			s.C[idx] = r + 1 < g.n ? g.du[r] : T( 0 );
		}
		else
		{
			s.A[idx] = T( 0 );
			s.D[idx] = T( 1 );
			s.C[idx] = T( 0 );
		}
		for ( int j = 0; j < NB; j++ ) s.B[j][idx] = in ? g.b[r + j * g.ldb] : T( 0 );
	};
	tile_rows( g, blk, P, tid, load );
}

/* The interior rows of partition tid: UL sweep (upward) for the tops of g, p, q, then LU
   sweep (downward) for the bottoms, leaving 1/u_ii in D, the forward-substituted b in B
   and the forward-substituted p right-hand side in A for phase_interior. Publishes the tops
   for the separator above (thread tid-1). The interior system is
       A_I x_I = b_I - A[0] x_up e_0 - C[L-1] x_dn e_(L-1),  x_I = g - p x_up - q x_dn. */
template <typename T, int NB>
__host__ __device__ inline void phase_sweeps( const Smem<T, NB>& s, int tid, State<T, NB>& st )
{
	const int L = kR - 1;
	const int o = tid * ( kR + 1 );
	T*        A = s.A + o;
	T*        D = s.D + o;
	const T*  C = s.C + o;

	/* UL: row i reduced to A[i] x[i-1] + e x[i] = z after eliminating x[i+1]. */
	T e = D[L - 1], zq = C[L - 1], zb[NB];
	for ( int j = 0; j < NB; j++ ) zb[j] = s.B[j][o + L - 1];
	for ( int i = L - 2; i >= 0; i-- )
	{
		T u = C[i] / e;
		e   = D[i] - u * A[i + 1];
		for ( int j = 0; j < NB; j++ ) zb[j] = s.B[j][o + i] - u * zb[j];
		zq = -u * zq;
	}
	T inv = T( 1 ) / e;
	st.pt = A[0] * inv;
	st.qt = zq * inv;
	for ( int j = 0; j < NB; j++ ) st.gt[j] = zb[j] * inv;

	/* LU: multipliers l = A[i] / u_(i-1,i-1). */
	T rc = T( 1 ) / D[0], yp = A[0], yb[NB];
	for ( int j = 0; j < NB; j++ ) yb[j] = s.B[j][o];
	D[0] = rc;
	for ( int i = 1; i < L; i++ )
	{
		T l = A[i] * rc;
		T c = D[i] - l * C[i - 1];
		for ( int j = 0; j < NB; j++ )
		{
			yb[j]         = s.B[j][o + i] - l * yb[j];
			s.B[j][o + i] = yb[j];
		}
		yp   = -l * yp;
		rc   = T( 1 ) / c;
		D[i] = rc;
		A[i] = yp;
	}
	st.pb = yp * rc;
	st.qb = C[L - 1] * rc;
	for ( int j = 0; j < NB; j++ ) st.gb[j] = yb[j] * rc;

	s.X[0][tid] = st.pt;
	s.X[1][tid] = st.qt;
	for ( int j = 0; j < NB; j++ ) s.X[2 + j][tid] = st.gt[j];
}

/* Separator equation of partition tid (its row R-1): substitute the interior bottoms of
   partition tid and the interior tops of tid+1. Nothing couples out of the tile (its
   first and last rows are identity or outside the matrix), so a = 0 for the first
   partition and the last one has no neighbour below. */
template <typename T, int NB>
__host__ __device__ inline void phase_assemble( const Smem<T, NB>& s, int P, int tid,
                                                State<T, NB>& st )
{
	const int sp = tid * ( kR + 1 ) + kR - 1;
	T         As = s.A[sp], Ds = s.D[sp], Cs = s.C[sp];
	T         ptn = 0, qtn = 0, gtn[NB];
	for ( int j = 0; j < NB; j++ ) gtn[j] = 0;
	if ( tid + 1 < P )
	{
		ptn = s.X[0][tid + 1];
		qtn = s.X[1][tid + 1];
		for ( int j = 0; j < NB; j++ ) gtn[j] = s.X[2 + j][tid + 1];
	}
	st.a = tid > 0 ? -As * st.pb : T( 0 );
	st.c = Ds - As * st.qb - Cs * ptn;
	st.e = -Cs * qtn;
	for ( int j = 0; j < NB; j++ ) st.r[j] = s.B[j][sp] - As * st.gb[j] - Cs * gtn[j];
}

template <typename T, int NB>
__host__ __device__ inline void pcr_publish( const Smem<T, NB>& s, int tid, const State<T, NB>& st )
{
	s.X[0][tid] = st.a;
	s.X[1][tid] = st.c;
	s.X[2][tid] = st.e;
	for ( int j = 0; j < NB; j++ ) s.X[3 + j][tid] = st.r[j];
}

/* One step of parallel cyclic reduction: eliminate x[k-stride] and x[k+stride] from this
   equation with theirs. Where k-stride < 0 the coefficient a is already 0 (it couples to
   a row that does not exist), likewise e beyond the end. */
template <typename T, int NB>
__host__ __device__ inline void pcr_combine( const Smem<T, NB>& s, int P, int tid, int stride,
                                             State<T, NB>& st )
{
	int km = tid - stride, kp = tid + stride;
	T   a = 0, c = st.c, e = 0, r[NB];
	for ( int j = 0; j < NB; j++ ) r[j] = st.r[j];
	if ( km >= 0 )
	{
		T alpha = -st.a / s.X[1][km];
		a       = alpha * s.X[0][km];
		c += alpha * s.X[2][km];
		for ( int j = 0; j < NB; j++ ) r[j] += alpha * s.X[3 + j][km];
	}
	if ( kp < P )
	{
		T gamma = -st.e / s.X[1][kp];
		e       = gamma * s.X[2][kp];
		c += gamma * s.X[0][kp];
		for ( int j = 0; j < NB; j++ ) r[j] += gamma * s.X[3 + j][kp];
	}
	st.a = a;
	st.c = c;
	st.e = e;
	for ( int j = 0; j < NB; j++ ) st.r[j] = r[j];
}

template <typename T, int NB>
__host__ __device__ inline void separator_publish( const Smem<T, NB>& s, int tid,
                                                   const State<T, NB>& st )
{
	T inv = T( 1 ) / st.c;
	for ( int j = 0; j < NB; j++ ) s.X[j][tid] = st.r[j] * inv;
}

/* Back substitution of a partition with its two separators known:
   y' = y - yp x_up (minus C[L-1] x_dn on the last row), x = (y' - C x_next) / u. */
template <typename T, int NB>
__host__ __device__ inline void phase_interior( const Smem<T, NB>& s, int tid )
{
	const int L = kR - 1;
	const int o = tid * ( kR + 1 );
	for ( int j = 0; j < NB; j++ )
	{
		/* Partition 0 has no separator above: its first row does not couple upwards. */
		T  xu = tid > 0 ? s.X[j][tid - 1] : T( 0 ), xd = s.X[j][tid];
		T* B     = s.B[j] + o;
		T  xn    = ( B[L - 1] - s.A[o + L - 1] * xu - s.C[o + L - 1] * xd ) * s.D[o + L - 1];
		B[L - 1] = xn;
		for ( int i = L - 2; i >= 0; i-- )
		{
			xn   = ( B[i] - s.A[o + i] * xu - s.C[o + i] * xn ) * s.D[o + i];
			B[i] = xn;
		}
		B[L] = xd;
	}
}

/* The tile's rows inside the matrix back to global memory. */
template <typename T, int NB>
__host__ __device__ inline void phase_store( const Args<T>& g, const Smem<T, NB>& s, long long blk,
                                             int P, int tid )
{
	auto store = [&]( int, long long r, int idx )
	{
		if ( r < g.n )
			for ( int j = 0; j < NB; j++ ) g.b[r + j * g.ldb] = s.B[j][idx];
	};
	tile_rows( g, blk, P, tid, store );
}

/* The seam at boundary s = k * tile (1 <= k, s < n): x[s-1], x[s] from the window
   [s-m, s+m) as in hyb_?gtsv_seam on the CPU, written into B. */
template <typename T, int NB>
__host__ __device__ inline void seam_one( const Args<T>& g, long long k )
{
	const long long s  = k * g.tile;
	const long long w0 = s - g.m > 0 ? s - g.m : 0;
	const long long w1 = s + g.m < g.n ? s + g.m : g.n;
	/* LU forward over [w0, s) (exact when w0 = 0). */
	T c = g.d[w0], y[NB];
	for ( int j = 0; j < NB; j++ ) y[j] = g.b[w0 + j * g.ldb];
		/* Unrolled: the loads do not depend on the recurrence, so four rows' loads (one thread
		   per seam: uncoalesced, each sector serves four rows) are in flight together. */
#ifdef __CUDA_ARCH__ /* device pass only: the host compiler does not know the pragma */
#pragma unroll 4
#endif
	for ( long long i = w0 + 1; i < s; i++ )
	{
		T f = g.dl[i - 1] / c;
		c   = g.d[i] - f * g.du[i - 1];
		for ( int j = 0; j < NB; j++ ) y[j] = g.b[i + j * g.ldb] - f * y[j];
	}
	/* UL forward over [s, w1) upward (exact when w1 = n). */
	T e = g.d[w1 - 1], z[NB];
	for ( int j = 0; j < NB; j++ ) z[j] = g.b[w1 - 1 + j * g.ldb];
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
	for ( long long i = w1 - 2; i >= s; i-- )
	{
		T u = g.du[i] / e;
		e   = g.d[i] - u * g.dl[i];
		for ( int j = 0; j < NB; j++ ) z[j] = g.b[i + j * g.ldb] - u * z[j];
	}
	/* d'[s-1] x[s-1] + du[s-1] x[s] = y;  dl[s-1] x[s-1] + e x[s] = z. */
	const T lo = g.dl[s - 1], up = g.du[s - 1];
	const T inv = T( 1 ) / ( c * e - up * lo );
	for ( int j = 0; j < NB; j++ )
	{
		T xp                   = ( y[j] * e - up * z[j] ) * inv;
		T xs                   = ( c * z[j] - lo * y[j] ) * inv;
		g.b[s - 1 + j * g.ldb] = xp;
		g.b[s + j * g.ldb]     = xs;
	}
}

template <typename T, int NB>
__global__ void __launch_bounds__( 256 ) seam_kernel( Args<T> g, long long nseam )
{
	long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x + 1;
	if ( k <= nseam ) seam_one<T, NB>( g, k );
}

/* The phases of a tile in order, numbered so that the kernel and the host emulator run
   exactly the same sequence: step 0 load, 1 sweeps, 2 assemble, then publish/combine per
   PCR stride 1, 2, 4, .. < P, then the separators, the interiors, the store. A barrier
   separates consecutive steps. */
__host__ __device__ inline int pcr_steps( int P )
{
	int q = 0;
	for ( int stride = 1; stride < P; stride *= 2 ) q++;
	return q;
}

__host__ __device__ inline int tile_steps( int P )
{
	return 3 + 2 * pcr_steps( P ) + 3;
}

template <typename T, int NB>
__host__ __device__ inline void tile_step( int k, const Args<T>& g, const Smem<T, NB>& s,
                                           long long blk, int P, int tid, State<T, NB>& st )
{
	const int q = k - 3, npcr = pcr_steps( P );
	if ( k == 0 )
		phase_load( g, s, blk, P, tid );
	else if ( k == 1 )
		phase_sweeps( s, tid, st );
	else if ( k == 2 )
		phase_assemble( s, P, tid, st );
	else if ( q < 2 * npcr && q % 2 == 0 )
		pcr_publish( s, tid, st );
	else if ( q < 2 * npcr )
		pcr_combine( s, P, tid, 1 << ( q / 2 ), st );
	else if ( q == 2 * npcr )
		separator_publish( s, tid, st );
	else if ( q == 2 * npcr + 1 )
		phase_interior( s, tid );
	else
		phase_store( g, s, blk, P, tid );
}

template <typename T, int NB>
__global__ void __launch_bounds__( kMaxBlock ) tile_kernel( Args<T> g )
{
	extern __shared__ __align__( 16 ) unsigned char hyb_gtsv_smem[];
	const int                                       P   = blockDim.x;
	const long long                                 blk = blockIdx.x;
	Smem<T, NB>  s = smem_carve<T, NB>( reinterpret_cast<T*>( hyb_gtsv_smem ), P );
	State<T, NB> st;
	const int    K = tile_steps( P );
	for ( int k = 0; k < K; k++ )
	{
		tile_step( k, g, s, blk, P, (int)threadIdx.x, st );
		if ( k + 1 < K ) __syncthreads();
	}
}

/* The same sequence on the host: the seams, then every phase for all threads of a block,
   block by block. Seams and blocks run in a scrambled order (odd ones first, backwards),
   so a result that depended on their order would show. */
template <typename T, int NB>
void emulate_all( const Args<T>& g, int P, long long nseam, long long nblk )
{
	for ( int pass = 0; pass < 2; pass++ )
		for ( long long k = nseam; k >= 1; k-- )
			if ( ( k & 1 ) != pass ) seam_one<T, NB>( g, k );

	std::vector<T>            mem( smem_elems<NB>( P ) );
	std::vector<State<T, NB>> st( (size_t)P );
	Smem<T, NB>               s = smem_carve<T, NB>( mem.data(), P );
	for ( int pass = 0; pass < 2; pass++ )
		for ( long long blk = nblk - 1; blk >= 0; blk-- )
		{
			if ( ( blk & 1 ) == pass ) continue;
			for ( int k = 0; k < tile_steps( P ); k++ )
				for ( int t = 0; t < P; t++ ) tile_step( k, g, s, blk, P, t, st[t] );
		}
}

/* Launch geometry for a window m: P = 256 threads (tiles of 2048 rows) while the seams'
   windows cost at most a quarter of the rows (2m <= 512), else 512 (4096 rows); a tile
   must be longer than the window (T > m). The group width NB (right-hand sides per pass)
   is the largest of 4, 2, 1 not above the remaining count whose shared memory fits the
   device's limit. */
struct Plan
{
	int    P, NB;
	size_t smem;
};

size_t smem_bytes( int NB, int P, size_t elem )
{
	return elem * ( (size_t)( 3 + NB ) * (size_t)P * ( kR + 2 ) );
}

int64_t max_window()
{
	return (int64_t)kMaxBlock * kR - 1;
}

bool make_plan( int64_t m, int64_t nrhs_left, size_t elem, size_t smem_max, Plan* p )
{
	if ( m < 1 || m > max_window() ) return false;
	int              P         = 2 * m <= 256 * kR / 4 ? 256 : kMaxBlock;
	static const int widths[3] = { 4, 2, 1 };
	for ( int w : widths )
	{
		if ( w > nrhs_left && w > 1 ) continue;
		size_t bytes = smem_bytes( w, P, elem );
		if ( bytes <= smem_max )
		{
			p->P    = P;
			p->NB   = w;
			p->smem = bytes;
			return true;
		}
	}
	return false;
}

bool args_ok( int64_t n, int64_t nrhs, const void* dl, const void* d, const void* du, const void* b,
              int64_t ldb, int64_t m )
{
	if ( n < 0 || nrhs < 0 || ldb < ( n > 1 ? n : 1 ) || m < 1 || m > max_window() ) return false;
	if ( n >= 1 && ( d == nullptr || ( nrhs >= 1 && b == nullptr ) ) ) return false;
	if ( n >= 2 && ( dl == nullptr || du == nullptr ) ) return false;
	return true;
}

template <typename T, int NB>
cudaError_t launch( const Args<T>& g, const Plan& p, long long nseam, long long nblk,
                    cudaStream_t stream )
{
	if ( nseam > 0 )
	{
		seam_kernel<T, NB><<<(unsigned)( ( nseam + 255 ) / 256 ), 256, 0, stream>>>( g, nseam );
		cudaError_t err = cudaGetLastError();
		if ( err != cudaSuccess ) return err;
	}
	cudaError_t err = cudaFuncSetAttribute(
	    tile_kernel<T, NB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p.smem );
	if ( err != cudaSuccess ) return err;
	tile_kernel<T, NB><<<(unsigned)nblk, p.P, p.smem, stream>>>( g );
	return cudaGetLastError();
}

template <typename T>
cudaError_t run( int64_t n, int64_t nrhs, const T* dl, const T* d, const T* du, T* b, int64_t ldb,
                 int64_t m, cudaStream_t stream, bool emulate )
{
	if ( !args_ok( n, nrhs, dl, d, du, b, ldb, m ) ) return cudaErrorInvalidValue;
	if ( n == 0 || nrhs == 0 ) return cudaSuccess;

	size_t smem_max = 227 * 1024;
	if ( !emulate )
	{
		int         dev = 0, optin = 0;
		cudaError_t err = cudaGetDevice( &dev );
		if ( err == cudaSuccess )
			err = cudaDeviceGetAttribute( &optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev );
		if ( err != cudaSuccess ) return err;
		smem_max = (size_t)optin;
	}

	for ( int64_t j0 = 0; j0 < nrhs; )
	{
		Plan p;
		if ( !make_plan( m, nrhs - j0, sizeof( T ), smem_max, &p ) ) return cudaErrorInvalidValue;
		Args<T> g;
		g.n               = n;
		g.dl              = dl;
		g.d               = d;
		g.du              = du;
		g.b               = b + j0 * ldb;
		g.ldb             = ldb;
		g.tile            = p.P * kR;
		g.m               = (int)m;
		long long   nblk  = ( n + g.tile - 1 ) / g.tile;
		long long   nseam = nblk - 1; /* boundaries s = k * tile, 1 <= k < nblk */
		cudaError_t err   = cudaSuccess;
		if ( emulate )
		{
			if ( p.NB == 4 )
				emulate_all<T, 4>( g, p.P, nseam, nblk );
			else if ( p.NB == 2 )
				emulate_all<T, 2>( g, p.P, nseam, nblk );
			else
				emulate_all<T, 1>( g, p.P, nseam, nblk );
		}
		else
		{
			if ( p.NB == 4 )
				err = launch<T, 4>( g, p, nseam, nblk, stream );
			else if ( p.NB == 2 )
				err = launch<T, 2>( g, p, nseam, nblk, stream );
			else
				err = launch<T, 1>( g, p, nseam, nblk, stream );
		}
		if ( err != cudaSuccess ) return err;
		j0 += p.NB;
	}
	return cudaSuccess;
}

/* ---------------------------------------------------------------------------------------
   Pivots (hyb_?gtsv_cuda_pivots): one thread per partition of `part` rows.
   --------------------------------------------------------------------------------------- */

constexpr int kPivotsBlock = 64; /* threads a block: 2^21 rows at P = 256 make 128 blocks */

long long pivots_part( long long warm )
{
	if ( warm < 1 ) return 0;
	return warm > 128 ? ( warm < LLONG_MAX / 2 ? 2 * warm : LLONG_MAX ) : 256;
}

/* Partition [lo, hi): the restart from row s = max(0, lo - warm) (c = first at row 0,
   else d[s]; rows s+1 .. lo-1 not written), then the partition's rows written. */
template <typename T>
__host__ __device__ inline void pivots_one( const T* __restrict__ dl, const T* __restrict__ d,
                                            const T* __restrict__ du, T* __restrict__ out, T first,
                                            long long lo, long long hi, long long warm )
{
	const long long s = lo - warm <= 0 ? 0 : lo - warm;
	T               c = s == 0 ? first : d[s];
	if ( lo == 0 ) out[0] = c;
		/* The loads do not depend on the recurrence: unrolled, four rows' loads are in flight
		   while the divisions run (as seam_one). */
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
	for ( long long i = s + 1; i < lo; i++ )
	{
		T f = dl[i - 1] / c;
		c   = d[i] - f * du[i - 1];
	}
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
	for ( long long i = lo > 0 ? lo : 1; i < hi; i++ )
	{
		T f    = dl[i - 1] / c;
		c      = d[i] - f * du[i - 1];
		out[i] = c;
	}
}

template <typename T>
__global__ void __launch_bounds__( kPivotsBlock )
    pivots_kernel( long long n, const T* __restrict__ dl, const T* __restrict__ d,
                   const T* __restrict__ du, T* __restrict__ out, T first, long long warm,
                   long long part, long long nparts )
{
	long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if ( k >= nparts ) return;
	long long lo = k * part;
	long long hi = n - lo > part ? lo + part : n;
	pivots_one<T>( dl, d, du, out, first, lo, hi, warm );
}

/* [a, a + na) and [b, b + nb) elements of T overlap. */
template <typename T> bool overlaps( const T* a, long long na, const void* b, long long nb )
{
	if ( na <= 0 || nb <= 0 || b == nullptr ) return false;
	uintptr_t a0 = (uintptr_t)a, a1 = a0 + (uintptr_t)na * sizeof( T );
	uintptr_t b0 = (uintptr_t)b, b1 = b0 + (uintptr_t)nb * sizeof( T );
	return a0 < b1 && b0 < a1;
}

template <typename T>
cudaError_t pivots_run( int64_t n, const T* dl, const T* d, const T* du, T* out, T first,
                        int64_t warm, cudaStream_t stream, bool emulate )
{
	if ( n < 0 || warm < 1 ) return cudaErrorInvalidValue;
	if ( n >= 1 && ( d == nullptr || out == nullptr ) ) return cudaErrorInvalidValue;
	if ( n >= 2 && ( dl == nullptr || du == nullptr ) ) return cudaErrorInvalidValue;
	if ( overlaps( out, n, d, n ) || overlaps( out, n, dl, n - 1 ) ||
	     overlaps( out, n, du, n - 1 ) )
		return cudaErrorInvalidValue;
	if ( n == 0 ) return cudaSuccess;
	long long part   = std::min( pivots_part( warm ), (long long)n );
	long long nparts = ( n - 1 ) / part + 1;
	if ( emulate )
	{
		/* Odd partitions first, backwards: a result that depended on their order would show. */
		for ( int pass = 0; pass < 2; pass++ )
			for ( long long k = nparts - 1; k >= 0; k-- )
				if ( ( k & 1 ) != pass )
				{
					long long lo = k * part, hi = n - lo > part ? lo + part : n;
					pivots_one<T>( dl, d, du, out, first, lo, hi, warm );
				}
		return cudaSuccess;
	}
	long long blocks = ( nparts + kPivotsBlock - 1 ) / kPivotsBlock;
	if ( blocks > INT_MAX ) return cudaErrorInvalidValue; /* n beyond 2^52 rows */
	pivots_kernel<T><<<(unsigned)blocks, kPivotsBlock, 0, stream>>>( n, dl, d, du, out, first, warm,
	                                                                 part, nparts );
	return cudaGetLastError();
}

} /* namespace */

extern "C" cudaError_t hyb_dgtsv_cuda_spike( int64_t n, int64_t nrhs, const double* dl,
                                             const double* d, const double* du, double* b,
                                             int64_t ldb, int64_t m, cudaStream_t stream )
{
	return run<double>( n, nrhs, dl, d, du, b, ldb, m, stream, false );
}

extern "C" cudaError_t hyb_sgtsv_cuda_spike( int64_t n, int64_t nrhs, const float* dl,
                                             const float* d, const float* du, float* b, int64_t ldb,
                                             int64_t m, cudaStream_t stream )
{
	return run<float>( n, nrhs, dl, d, du, b, ldb, m, stream, false );
}

extern "C" cudaError_t hyb_dgtsv_cuda_spike_emulate( int64_t n, int64_t nrhs, const double* dl,
                                                     const double* d, const double* du, double* b,
                                                     int64_t ldb, int64_t m )
{
	return run<double>( n, nrhs, dl, d, du, b, ldb, m, nullptr, true );
}

extern "C" cudaError_t hyb_sgtsv_cuda_spike_emulate( int64_t n, int64_t nrhs, const float* dl,
                                                     const float* d, const float* du, float* b,
                                                     int64_t ldb, int64_t m )
{
	return run<float>( n, nrhs, dl, d, du, b, ldb, m, nullptr, true );
}

extern "C" int64_t hyb_gtsv_cuda_max_window( void )
{
	return max_window();
}

extern "C" double hyb_gtsv_cuda_bytes( int64_t n, int64_t nrhs, size_t elem, int64_t m )
{
	if ( n < 0 || nrhs < 0 || ( elem != 4 && elem != 8 ) || m < 1 || m > max_window() ) return 0;
	double  bytes = 0;
	int64_t left  = nrhs;
	while ( left > 0 )
	{
		Plan p;
		if ( !make_plan( m, left, elem, 227 * 1024, &p ) ) return 0;
		double tile  = (double)p.P * kR;
		double nseam = std::ceil( (double)n / tile ) - 1;
		double win   = std::min( 2.0 * (double)m, (double)n );
		/* tile pass: the matrix and NB columns read, NB columns written; seams: their
		   windows read, two rows of each column written. */
		bytes += (double)elem * ( (double)n * ( 3 + 2 * p.NB ) +
		                          ( nseam > 0 ? nseam : 0 ) * ( win * ( 3 + p.NB ) + 2.0 * p.NB ) );
		left -= p.NB;
	}
	return bytes;
}

extern "C" cudaError_t hyb_dgtsv_cuda_pivots( int64_t n, const double* dl, const double* d,
                                              const double* du, double* out, double first,
                                              int64_t warm, cudaStream_t stream )
{
	return pivots_run<double>( n, dl, d, du, out, first, warm, stream, false );
}

extern "C" cudaError_t hyb_sgtsv_cuda_pivots( int64_t n, const float* dl, const float* d,
                                              const float* du, float* out, float first,
                                              int64_t warm, cudaStream_t stream )
{
	return pivots_run<float>( n, dl, d, du, out, first, warm, stream, false );
}

extern "C" int64_t hyb_gtsv_cuda_pivots_part( int64_t warm )
{
	return pivots_part( warm );
}

extern "C" cudaError_t hyb_dgtsv_cuda_pivots_emulate( int64_t n, const double* dl, const double* d,
                                                      const double* du, double* out, double first,
                                                      int64_t warm )
{
	return pivots_run<double>( n, dl, d, du, out, first, warm, nullptr, true );
}

extern "C" cudaError_t hyb_sgtsv_cuda_pivots_emulate( int64_t n, const float* dl, const float* d,
                                                      const float* du, float* out, float first,
                                                      int64_t warm )
{
	return pivots_run<float>( n, dl, d, du, out, first, warm, nullptr, true );
}
