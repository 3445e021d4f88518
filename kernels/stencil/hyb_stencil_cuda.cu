/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA stencil kernels and their launchers: the acoustic 25-point
   stencil marching along z with a register queue of its nine z-neighbours
   and a shared-memory tile of the current plane for the x and y ones; the
   Himeno, Laplace, star and damped-wave stencils reading their neighbours through the
   caches. Each point is computed with the CPU kernels' sums in the CPU
   kernels' order. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/stencil/hyb_stencil_cuda.h"
#include "kernels/stencil/hyb_stencil_kargs.h"

namespace
{

typedef long long i64;

/* The acoustic kernel's tile width and radius (its tile heights: the
   shapes below), and the blocks of the others. */
constexpr int kAX = 32, kAR = 4;
constexpr int kHX = HYB_HIMENO_TILE_X, kHY = HYB_HIMENO_TILE_Y;

__device__ __forceinline__ i64 hyb_at( const hyb_stencil_box_t& b, i64 z, i64 y, i64 x )
{
	return ( ( z - b.base ) * b.ny + y ) * b.nx + x;
}

/* The z range [zs, ze) of this block: ranges are cut into segments of
   `zseg` planes, one per blockIdx.z. */
__device__ __forceinline__ void hyb_zseg( const hyb_stencil_box_t& b, i64 zseg, i64* zs, i64* ze )
{
	*zs = b.z0 + (i64)blockIdx.z * zseg;
	*ze = *zs + zseg < b.z1 ? *zs + zseg : b.z1;
}

/* The acoustic kernel on a tile of kAX x (BY * RY) points of a plane: a
   block of kAX x BY threads, each thread RY rows of the tile (rows ty,
   ty + BY, ...), each row's nine z-neighbours in a register queue and the
   plane's x and y neighbours in shared memory. The halo cells (kAR columns
   each side of every row, kAR rows above and below) are spread over all
   threads, their offsets computed once, so that a plane costs each thread
   RY loads of the level, a few halo loads and two barriers, whatever the
   shape. Rows per thread trade registers for fewer halo loads and barriers
   per point (measured in gpu_check_stencil). */
template <typename T, int BY, int RY>
__global__ void __launch_bounds__( kAX* BY )
    hyb_acoustic_kernel( const hyb_stencil_acoustic_args_t a, i64 zseg )
{
	constexpr int            TY = BY * RY, SX = kAX + 2 * kAR;
	constexpr int            NXH = 2 * kAR * TY, NH = NXH + 2 * kAR * kAX, NT = kAX * BY;
	constexpr int            HPT = ( NH + NT - 1 ) / NT;
	__shared__ T             tile[( TY + 2 * kAR ) * SX];
	const hyb_stencil_box_t& b  = a.box;
	const int                tx = threadIdx.x, ty = threadIdx.y;
	const int                tid = ty * kAX + tx;
	const i64                x   = (i64)blockIdx.x * kAX + tx;
	const i64                y0  = (i64)blockIdx.y * TY;
	const i64                pl  = b.nx * b.ny;
	const T* __restrict__ cur    = static_cast<const T*>( a.cur );
	const T* __restrict__ prev   = static_cast<const T*>( a.prev );
	const T* __restrict__ vel    = static_cast<const T*>( a.vel );
	T* __restrict__ next         = static_cast<T*>( a.next );
	const i64 blo = b.base, bhi = b.base + b.planes;
	i64       zs, ze;
	hyb_zseg( b, zseg, &zs, &ze );
	/* This thread's rows: in-plane offset, -1 outside the domain; and
	   whether the point is fixed in x or y. */
	i64  off[RY];
	bool xyfix[RY];
#pragma unroll
	for ( int r = 0; r < RY; r++ )
	{
		const i64 y = y0 + ty + r * BY;
		off[r]      = x < b.nx && y < b.ny ? y * b.nx + x : -1;
		xyfix[r]    = y < 4 || y >= b.ny - 4 || x < 4 || x >= b.nx - 4;
	}
	/* This thread's halo cells: in-plane offset (-1 outside the domain:
	   zero) and place in the tile (-1: none). */
	i64 hoff[HPT];
	int hpos[HPT];
#pragma unroll
	for ( int h = 0; h < HPT; h++ )
	{
		const int i = tid + h * NT;
		int       sx, sy;
		if ( i < NXH )
		{
			const int c = i % ( 2 * kAR );
			sy          = i / ( 2 * kAR ) + kAR;
			sx          = c < kAR ? c : c + kAX;
		}
		else
		{
			const int j = i - NXH, row = j / kAX;
			sy = row < kAR ? row : row + TY;
			sx = j % kAX + kAR;
		}
		const i64  gx = (i64)blockIdx.x * kAX + sx - kAR, gy = y0 + sy - kAR;
		const bool ok = i < NH && gx >= 0 && gx < b.nx && gy >= 0 && gy < b.ny;
		hoff[h]       = ok ? gy * b.nx + gx : -1;
		hpos[h]       = i < NH ? sy * SX + sx : -1;
	}
	/* Plane z of the current level, zero outside the buffer (only fixed
	   points, which never use their neighbours, see those). */
	auto plane = [&]( i64 z ) -> const T*
	{ return z >= blo && z < bhi ? cur + ( z - blo ) * pl : 0; };
	/* q[r][j]: the current level at z - 4 + j of row r's column; hv: this
	   thread's halo cells of plane z. Both are loaded a plane ahead, so that
	   the loads are in flight while the plane before is computed. */
	T q[RY][9], hv[HPT];
#pragma unroll
	for ( int j = 0; j < 9; j++ )
	{
		const T* p = plane( zs - 4 + j );
#pragma unroll
		for ( int r = 0; r < RY; r++ ) q[r][j] = p && off[r] >= 0 ? p[off[r]] : T( 0 );
	}
	{
		const T* p0 = plane( zs );
#pragma unroll
		for ( int h = 0; h < HPT; h++ ) hv[h] = p0 && hoff[h] >= 0 ? p0[hoff[h]] : T( 0 );
	}
	const T kc = (T)a.center, kx = (T)a.ix, ky = (T)a.iy, kz = (T)a.iz, dt2 = (T)a.dt2, two = (T)2;
	const T c1 = (T)HYB_ACOUSTIC_C1, c2 = (T)HYB_ACOUSTIC_C2, c3 = (T)HYB_ACOUSTIC_C3,
	        c4 = (T)HYB_ACOUSTIC_C4;
	for ( i64 z = zs; z < ze; z++ )
	{
		__syncthreads(); /* the previous plane's tile is read */
#pragma unroll
		for ( int r = 0; r < RY; r++ ) tile[( ty + r * BY + kAR ) * SX + tx + kAR] = q[r][4];
#pragma unroll
		for ( int h = 0; h < HPT; h++ )
			if ( hpos[h] >= 0 ) tile[hpos[h]] = hv[h];
		const i64  zo   = ( z - blo ) * pl;
		const bool zfix = z < 4 || z >= b.nz - 4;
		T          pv[RY], vv[RY], nq[RY];
#pragma unroll
		for ( int r = 0; r < RY; r++ )
		{
			const bool upd = off[r] >= 0 && !zfix && !xyfix[r];
			pv[r]          = upd ? prev[zo + off[r]] : T( 0 );
			vv[r]          = upd ? vel[zo + off[r]] : T( 0 );
		}
		const T* p5 = z + 1 < ze ? plane( z + 5 ) : 0;
		const T* p1 = z + 1 < ze ? plane( z + 1 ) : 0;
#pragma unroll
		for ( int r = 0; r < RY; r++ ) nq[r] = p5 && off[r] >= 0 ? p5[off[r]] : T( 0 );
#pragma unroll
		for ( int h = 0; h < HPT; h++ ) hv[h] = p1 && hoff[h] >= 0 ? p1[hoff[h]] : T( 0 );
		__syncthreads();
#pragma unroll
		for ( int r = 0; r < RY; r++ )
		{
			if ( off[r] < 0 ) continue;
			const i64 o = zo + off[r];
			if ( zfix || xyfix[r] )
				next[o] = q[r][4];
			else
			{
				const T* t   = &tile[( ty + r * BY + kAR ) * SX + tx + kAR];
				const T* qq  = q[r];
				T        lap = kc * qq[4];
				lap += kx * ( c4 * ( t[4] + t[-4] ) + c3 * ( t[3] + t[-3] ) +
				              c2 * ( t[2] + t[-2] ) + c1 * ( t[1] + t[-1] ) );
				lap += ky * ( c4 * ( t[4 * SX] + t[-4 * SX] ) + c3 * ( t[3 * SX] + t[-3 * SX] ) +
				              c2 * ( t[2 * SX] + t[-2 * SX] ) + c1 * ( t[SX] + t[-SX] ) );
				lap += kz * ( c4 * ( qq[8] + qq[0] ) + c3 * ( qq[7] + qq[1] ) +
				              c2 * ( qq[6] + qq[2] ) + c1 * ( qq[5] + qq[3] ) );
				const T v = vv[r];
				next[o]   = v * v * dt2 * lap + two * qq[4] - pv[r];
			}
		}
#pragma unroll
		for ( int r = 0; r < RY; r++ )
		{
#pragma unroll
			for ( int j = 0; j < 8; j++ ) q[r][j] = q[r][j + 1];
			q[r][8] = nq[r];
		}
	}
}

template <typename T>
__global__ void __launch_bounds__( kHX* kHY )
    hyb_himeno_kernel( const hyb_stencil_himeno_args_t a, i64 zseg )
{
	__shared__ double        red[kHX * kHY];
	const hyb_stencil_box_t& b   = a.box;
	const int                tid = threadIdx.y * kHX + threadIdx.x;
	const i64                x   = (i64)blockIdx.x * kHX + threadIdx.x;
	const i64                y   = (i64)blockIdx.y * kHY + threadIdx.y;
	const bool               in  = x < b.nx && y < b.ny;
	const i64 tile = (i64)blockIdx.y * gridDim.x + blockIdx.x, ntiles = (i64)gridDim.x * gridDim.y;
	const T* __restrict__ p = static_cast<const T*>( a.p );
	T* __restrict__ pn      = static_cast<T*>( a.p_new );
	const i64 sy = b.nx, sz = b.nx * b.ny;
	const T   om = (T)a.omega;
	i64       zs, ze;
	hyb_zseg( b, zseg, &zs, &ze );
	for ( i64 z = zs; z < ze; z++ )
	{
		double ss2 = 0.0;
		if ( in )
		{
			const i64 o = hyb_at( b, z, y, x );
			if ( z < 1 || z >= b.nz - 1 || y < 1 || y >= b.ny - 1 || x < 1 || x >= b.nx - 1 )
				pn[o] = p[o];
			else
			{
				auto c = [&]( const void* f ) -> T
				{ return __ldg( static_cast<const T*>( f ) + o ); };
				const T* q  = p + o;
				const T  s0 = c( a.a[0] ) * q[sz] + c( a.a[1] ) * q[sy] + c( a.a[2] ) * q[1] +
				             c( a.b[0] ) * ( q[sz + sy] - q[sz - sy] - q[-sz + sy] + q[-sz - sy] ) +
				             c( a.b[1] ) * ( q[sy + 1] - q[-sy + 1] - q[sy - 1] + q[-sy - 1] ) +
				             c( a.b[2] ) * ( q[sz + 1] - q[-sz + 1] - q[sz - 1] + q[-sz - 1] ) +
				             c( a.c[0] ) * q[-sz] + c( a.c[1] ) * q[-sy] + c( a.c[2] ) * q[-1] +
				             c( a.wrk1 );
				const T ss = ( s0 * c( a.a[3] ) - q[0] ) * c( a.bnd );
				ss2        = (double)( ss * ss );
				pn[o]      = q[0] + om * ss;
			}
		}
		/* The plane's residual: a fixed tree over the block, one partial sum
		   per tile (the condition is the same for the whole block). */
		if ( a.plane_ss && z >= a.own0 && z < a.own1 )
		{
			red[tid] = ss2;
			__syncthreads();
			for ( int s = kHX * kHY / 2; s > 0; s >>= 1 )
			{
				if ( tid < s ) red[tid] += red[tid + s];
				__syncthreads();
			}
			if ( tid == 0 ) a.work[( z - a.own0 ) * ntiles + tile] = red[0];
			__syncthreads();
		}
	}
}

/* plane_ss[i] = the tiles' partial sums of plane own0 + i, in tile order. */
__global__ void hyb_himeno_planes( double* plane_ss, const double* work, i64 planes, i64 ntiles )
{
	const i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= planes ) return;
	double acc = 0.0;
	for ( i64 t = 0; t < ntiles; t++ ) acc += work[i * ntiles + t];
	plane_ss[i] = acc;
}

/* The damped wave, marching down a segment of rows: a thread per column
   x, the column's p at rows z - 1, z and z + 1 in registers and its row
   neighbours x -+ 1 from the next lanes of its warp (from memory at the
   warp's two edges), so that p and q are read from memory once each and
   p_new and q_new written once: 16 bytes a point in float. Read through
   the caches, as the row kernels do, p's five loads kept the kernel at
   about half the device's memory rate. Both quantities at one point with
   the CPU row's operations in the CPU row's order. */
constexpr int kWX = 128;

template <typename T>
__global__ void __launch_bounds__( kWX )
    hyb_wave_kernel( const hyb_stencil_wave_args_t a, i64 zseg )
{
	const hyb_stencil_box_t& b    = a.box;
	const unsigned           all  = 0xffffffffu;
	const int                lane = threadIdx.x & 31;
	const i64                x    = (i64)blockIdx.x * kWX + threadIdx.x;
	const bool               in   = x < b.nx;
	/* Lanes past the row's end follow the others (their shuffles), on its last column. */
	const i64 xc            = in ? x : b.nx - 1;
	const T* __restrict__ p = static_cast<const T*>( a.p );
	const T* __restrict__ q = static_cast<const T*>( a.q );
	T* __restrict__ pn      = static_cast<T*>( a.p_new );
	T* __restrict__ qn      = static_cast<T*>( a.q_new );
	const T   ix = (T)a.ix, iz = (T)a.iz, kc = (T)a.center;
	const T   decay = (T)a.decay, c2dt = (T)a.c2dt, dt = (T)a.dt;
	const i64 blo = b.base, bhi = b.base + b.planes;
	i64       zs, ze;
	hyb_zseg( b, zseg, &zs, &ze );
	/* Row z of this column, zero outside the buffer (only fixed rows, which
	   never use their neighbours, see those). */
	auto row = [&]( i64 z ) -> T
	{ return z >= blo && z < bhi ? p[( z - blo ) * b.nx + xc] : T( 0 ); };
	T pm = row( zs - 1 ), pc = row( zs );
	for ( i64 z = zs; z < ze; z++ )
	{
		const T   pp    = row( z + 1 );
		const i64 o     = ( z - blo ) * b.nx + xc;
		T         left  = __shfl_up_sync( all, pc, 1 );
		T         right = __shfl_down_sync( all, pc, 1 );
		if ( lane == 0 && xc >= 1 ) left = p[o - 1];
		if ( lane == 31 && xc + 1 < b.nx ) right = p[o + 1];
		if ( in )
		{
			if ( z < 1 || z >= b.nz - 1 || x < 1 || x >= b.nx - 1 )
			{
				pn[o] = pc;
				qn[o] = q[o];
			}
			else
			{
				const T lap = ix * ( right + left ) + iz * ( pp + pm ) - kc * pc;
				const T v   = decay * q[o] + c2dt * lap;
				qn[o]       = v;
				pn[o]       = pc + dt * v;
			}
		}
		pm = pc;
		pc = pp;
	}
}

template <typename T>
__global__ void __launch_bounds__( kHX* kHY )
    hyb_laplace_kernel( const hyb_stencil_laplace_args_t a )
{
	const hyb_stencil_box_t& b = a.box;
	const i64                x = (i64)blockIdx.x * kHX + threadIdx.x;
	const T* __restrict__ u    = static_cast<const T*>( a.u );
	T* __restrict__ un         = static_cast<T*>( a.u_new );
	const T quarter            = (T)0.25;
	if ( x >= b.nx ) return;
	for ( i64 z = b.z0 + (i64)blockIdx.y * kHY + threadIdx.y; z < b.z1; z += (i64)gridDim.y * kHY )
	{
		const i64 o = ( z - b.base ) * b.nx + x;
		if ( z < 1 || z >= b.nz - 1 || x < 1 || x >= b.nx - 1 )
			un[o] = u[o];
		else
			un[o] = quarter * ( u[o + 1] + u[o - 1] + u[o + b.nx] + u[o - b.nx] );
	}
}

template <typename T>
__global__ void __launch_bounds__( kHX* kHY )
    hyb_star_kernel( const hyb_stencil_star_args_t a, i64 zseg )
{
	const hyb_stencil_box_t& b = a.box;
	const i64                x = (i64)blockIdx.x * kHX + threadIdx.x;
	const i64                y = (i64)blockIdx.y * kHY + threadIdx.y;
	const T* __restrict__ u    = static_cast<const T*>( a.u );
	T* __restrict__ un         = static_cast<T*>( a.u_new );
	const int r                = b.radius;
	const i64 stride[3]        = { 1, b.nx, b.nx * b.ny };
	i64       zs, ze;
	hyb_zseg( b, zseg, &zs, &ze );
	/* 3-D: a thread per column (x, y); 2-D (one row a plane): the block's
	   rows share the segment's planes. */
	const int flat = b.ny == 1;
	if ( x >= b.nx || ( !flat && y >= b.ny ) ) return;
	for ( i64 z = zs + ( flat ? threadIdx.y : 0 ); z < ze; z += flat ? kHY : 1 )
	{
		const i64  o     = hyb_at( b, z, flat ? 0 : y, x );
		const bool fixed = z < r || z >= b.nz - r || x < r || x >= b.nx - r ||
		                   ( b.dims == 3 && !flat && ( y < r || y >= b.ny - r ) );
		if ( fixed )
		{
			un[o] = u[o];
			continue;
		}
		T acc = (T)a.center * u[o];
		for ( int ax = 0; ax < 3; ax++ )
		{
			if ( ax == 1 && b.dims == 2 ) continue;
			for ( int j = 1; j <= r; j++ )
			{
				acc += (T)a.coef[ax][r - j] * u[o - j * stride[ax]];
				acc += (T)a.coef[ax][r - 1 + j] * u[o + j * stride[ax]];
			}
		}
		un[o] = acc;
	}
}

/* Segments of a z range: long enough to amortise a column's start, short
   enough to give the device enough blocks, at most 65535 of them. */
i64 hyb_zseg_len( i64 len, i64 blocks_per_plane, i64 preferred )
{
	i64 seg = blocks_per_plane >= 1024 ? preferred : 16;
	if ( ( len + seg - 1 ) / seg > 65535 ) seg = ( len + 65534 ) / 65535;
	return seg < 1 ? 1 : seg;
}

hyb_status_t hyb_launched( void )
{
	return cudaGetLastError() == cudaSuccess ? HYB_OK : HYB_E_DEVICE;
}

cudaStream_t hyb_stream( const hyb_kernel_env_t* env )
{
	return env ? static_cast<cudaStream_t>( env->stream ) : 0;
}

/* The grid of a kernel that marches tiles of bx x by points along z: one
   block per tile and z-segment of *seg planes of the len planes to update. */
dim3 hyb_zgrid( const hyb_stencil_box_t& box, i64 bx, i64 by, i64 preferred, i64* seg )
{
	const i64 gx = ( box.nx + bx - 1 ) / bx, gy = ( box.ny + by - 1 ) / by;
	const i64 len = box.z1 - box.z0;
	*seg          = hyb_zseg_len( len, gx * gy, preferred );
	return dim3( (unsigned)gx, (unsigned)gy, (unsigned)( ( len + *seg - 1 ) / *seg ) );
}

/* The part of a launcher that marches tiles of BX x TY points along z (acoustic, Himeno,
   star): kernel<float> or kernel<double> by the box's element type, on BX x BY blocks and
   the grid of hyb_zgrid. Returns false and launches nothing for an empty box; else
   true, with the grid it used in *grid. */
template <int BX, int BY, int TY, typename A>
bool hyb_launch_zmarch( const hyb_kernel_env_t* env, const A& a, void ( *f32 )( A, i64 ),
                        void ( *f64 )( A, i64 ), i64 preferred, dim3* grid )
{
	const i64 len = a.box.z1 - a.box.z0;
	if ( len == 0 ) return false;
	const dim3 block( BX, BY );
	i64        seg;
	*grid = hyb_zgrid( a.box, BX, TY, preferred, &seg );
	if ( a.box.elem == HYB_STENCIL_F32 )
		f32<<<*grid, block, 0, hyb_stream( env )>>>( a, seg );
	else
		f64<<<*grid, block, 0, hyb_stream( env )>>>( a, seg );
	return true;
}

/* The acoustic kernel on BY threads in y of RY rows each. */
template <int BY, int RY>
bool hyb_launch_acoustic( const hyb_kernel_env_t* env, const hyb_stencil_acoustic_args_t& a,
                          i64 seg )
{
	dim3 grid;
	return hyb_launch_zmarch<kAX, BY, BY * RY>( env, a, hyb_acoustic_kernel<float, BY, RY>,
	                                            hyb_acoustic_kernel<double, BY, RY>, seg, &grid );
}

/* A shape of the acoustic kernel: its launcher (threads in y, rows per thread) and the
   planes per z segment. */
struct hyb_acoustic_shape
{
	bool ( *launch )( const hyb_kernel_env_t*, const hyb_stencil_acoustic_args_t&, i64 );
	int         seg;
	const char* name;
};
constexpr hyb_acoustic_shape kAcousticShapes[] = {
	{ hyb_launch_acoustic<16, 1>, 64, "32x16 threads, 1 row each, 64 planes" },
	{ hyb_launch_acoustic<16, 2>, 64, "32x16 threads, 2 rows each, 64 planes" },
	{ hyb_launch_acoustic<8, 1>, 64, "32x8 threads, 1 row each, 64 planes" },
	{ hyb_launch_acoustic<8, 2>, 64, "32x8 threads, 2 rows each, 64 planes" },
	{ hyb_launch_acoustic<8, 4>, 64, "32x8 threads, 4 rows each, 64 planes" },
	{ hyb_launch_acoustic<4, 1>, 64, "32x4 threads, 1 row each, 64 planes" },
	{ hyb_launch_acoustic<4, 2>, 64, "32x4 threads, 2 rows each, 64 planes" },
	{ hyb_launch_acoustic<8, 2>, 128, "32x8 threads, 2 rows each, 128 planes" },
};
constexpr int kAcousticShapeCount = sizeof kAcousticShapes / sizeof kAcousticShapes[0];
/* The shapes the library launches, by element type: the fastest measured on an H200
   (docs/stencil.md, "The acoustic kernel"; gpu_check_stencil times them all). */
constexpr int kAcousticShapeF32 = 3, kAcousticShapeF64 = 2;

} // namespace

extern "C" const char* hyb_stencil_acoustic_cuda_shape( int shape )
{
	return shape >= 0 && shape < kAcousticShapeCount ? kAcousticShapes[shape].name : NULL;
}

extern "C" hyb_status_t hyb_stencil_acoustic_cuda_as( const hyb_kernel_env_t* env, const void* args,
                                                      int shape )
{
	const hyb_stencil_acoustic_args_t* a = static_cast<const hyb_stencil_acoustic_args_t*>( args );
	if ( hyb_stencil_acoustic_bad( a ) || !hyb_stencil_acoustic_cuda_shape( shape ) )
		return HYB_E_INVALID;
	const hyb_acoustic_shape& s        = kAcousticShapes[shape];
	const bool                launched = s.launch( env, *a, s.seg );
	return launched ? hyb_launched() : HYB_OK;
}

extern "C" hyb_status_t hyb_stencil_acoustic_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_stencil_acoustic_args_t* a = static_cast<const hyb_stencil_acoustic_args_t*>( args );
	return hyb_stencil_acoustic_cuda_as(
	    env, args, a && a->box.elem == HYB_STENCIL_F64 ? kAcousticShapeF64 : kAcousticShapeF32 );
}

extern "C" hyb_status_t hyb_stencil_himeno_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_stencil_himeno_args_t* a = static_cast<const hyb_stencil_himeno_args_t*>( args );
	if ( hyb_stencil_himeno_bad( a ) || ( a->plane_ss && a->work == NULL ) ) return HYB_E_INVALID;
	dim3 grid;
	if ( !hyb_launch_zmarch<kHX, kHY, kHY>( env, *a, hyb_himeno_kernel<float>,
	                                        hyb_himeno_kernel<double>, 32, &grid ) )
		return HYB_OK;
	if ( a->plane_ss && a->own1 > a->own0 )
	{
		const i64 planes = a->own1 - a->own0;
		hyb_himeno_planes<<<(unsigned)( ( planes + 127 ) / 128 ), 128, 0, hyb_stream( env )>>>(
		    a->plane_ss, a->work, planes, (i64)grid.x * grid.y );
	}
	return hyb_launched();
}

/* A 2-D row kernel over the rows [z0, z1) of the box: blocks of kHX
   points of a row by kHY rows, striding over the rows when they outnumber
   the grid's limit. */
template <typename A>
hyb_status_t hyb_launch_rows( const hyb_kernel_env_t* env, const A& a, void ( *kf )( const A ),
                              void ( *kd )( const A ) )
{
	const i64 len = a.box.z1 - a.box.z0;
	if ( len == 0 ) return HYB_OK;
	const i64  rows = ( len + kHY - 1 ) / kHY;
	const dim3 block( kHX, kHY );
	const dim3 grid( (unsigned)( ( a.box.nx + kHX - 1 ) / kHX ),
	                 (unsigned)( rows < 65535 ? rows : 65535 ) );
	if ( a.box.elem == HYB_STENCIL_F32 )
		kf<<<grid, block, 0, hyb_stream( env )>>>( a );
	else
		kd<<<grid, block, 0, hyb_stream( env )>>>( a );
	return hyb_launched();
}

extern "C" hyb_status_t hyb_stencil_laplace_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_stencil_laplace_args_t* a = static_cast<const hyb_stencil_laplace_args_t*>( args );
	if ( hyb_stencil_laplace_bad( a ) ) return HYB_E_INVALID;
	return hyb_launch_rows( env, *a, hyb_laplace_kernel<float>, hyb_laplace_kernel<double> );
}

extern "C" hyb_status_t hyb_stencil_wave_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_stencil_wave_args_t* a = static_cast<const hyb_stencil_wave_args_t*>( args );
	if ( hyb_stencil_wave_bad( a ) ) return HYB_E_INVALID;
	const i64 len = a->box.z1 - a->box.z0;
	if ( len == 0 ) return HYB_OK;
	/* Segments of 32 rows: two rows a column loads twice (6 % of p's reads),
	   and enough blocks to fill the device for any row length. */
	i64 seg = 32;
	if ( ( len + seg - 1 ) / seg > 65535 ) seg = ( len + 65534 ) / 65535;
	const dim3 grid( (unsigned)( ( a->box.nx + kWX - 1 ) / kWX ), 1,
	                 (unsigned)( ( len + seg - 1 ) / seg ) );
	if ( a->box.elem == HYB_STENCIL_F32 )
		hyb_wave_kernel<float><<<grid, kWX, 0, hyb_stream( env )>>>( *a, seg );
	else
		hyb_wave_kernel<double><<<grid, kWX, 0, hyb_stream( env )>>>( *a, seg );
	return hyb_launched();
}

extern "C" hyb_status_t hyb_stencil_star_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_stencil_star_args_t* a = static_cast<const hyb_stencil_star_args_t*>( args );
	if ( hyb_stencil_star_bad( a ) ) return HYB_E_INVALID;
	dim3 grid;
	if ( !hyb_launch_zmarch<kHX, kHY, kHY>( env, *a, hyb_star_kernel<float>,
	                                        hyb_star_kernel<double>, 32, &grid ) )
		return HYB_OK;
	return hyb_launched();
}
