/* SPDX-License-Identifier: BSD-3-Clause */
/* Probe of a host-to-device copy from page-locked memory after the device has been idle:
   is the first transfer after a pause slower than one right after another, and does it
   matter whether the host slept or computed on every core meanwhile?

   Why: the face loop's resident run sends its state up once after the host's own work
   (mesh set-up, the CPU's comparison run), and that one upload measured anywhere from bus
   speed to ten times slower between runs of the same size.

   Usage: gpu_probe_wake [--mib M] [--pause-ms P] [--reps R]
   Prints, for each kind of pause (none, host asleep, host cores busy, device kernel just
   before), the median and worst GB/s of R uploads of M MiB. Exit 77 without a device. */

#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace
{

double now()
{
	return std::chrono::duration<double>( std::chrono::steady_clock::now().time_since_epoch() )
	    .count();
}

__global__ void spin_kernel( float* p, int n )
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if ( i < n ) p[i] = p[i] * 0.5f + 1.0f;
}

void busy_host( double seconds )
{
	const double end = now() + seconds;
#pragma omp parallel
	{
		volatile double x = 0;
		while ( now() < end )
			for ( int k = 0; k < 10000; k++ ) x = x + 1.0;
	}
}

} // namespace

int main( int argc, char** argv )
{
	size_t mib      = 64;
	int    pause_ms = 200, reps = 8;
	for ( int i = 1; i + 1 < argc; i += 2 )
	{
		if ( !std::strcmp( argv[i], "--mib" ) ) mib = (size_t)std::atol( argv[i + 1] );
		if ( !std::strcmp( argv[i], "--pause-ms" ) ) pause_ms = std::atoi( argv[i + 1] );
		if ( !std::strcmp( argv[i], "--reps" ) ) reps = std::atoi( argv[i + 1] );
	}
	int n = 0;
	if ( cudaGetDeviceCount( &n ) != cudaSuccess || n == 0 ) return 77;
	const size_t bytes = mib << 20;
	void *       h = nullptr, *d = nullptr;
	float*       k = nullptr;
	if ( cudaHostAlloc( &h, bytes, cudaHostAllocDefault ) != cudaSuccess ||
	     cudaMalloc( &d, bytes ) != cudaSuccess || cudaMalloc( &k, 1 << 24 ) != cudaSuccess )
		return 1;
	std::memset( h, 1, bytes );
	cudaStream_t s;
	cudaStreamCreate( &s );
	const char* kinds[4] = { "back to back", "after host sleep", "after host busy",
		                     "after a kernel" };
	for ( int kind = 0; kind < 4; kind++ )
	{
		std::vector<double> gbs;
		for ( int r = 0; r < reps; r++ )
		{
			if ( kind == 0 )
				cudaMemcpyAsync( d, h, bytes, cudaMemcpyHostToDevice, s ); /* the previous one */
			else if ( kind == 1 )
				std::this_thread::sleep_for( std::chrono::milliseconds( pause_ms ) );
			else if ( kind == 2 )
				busy_host( pause_ms * 1e-3 );
			else
			{
				std::this_thread::sleep_for( std::chrono::milliseconds( pause_ms ) );
				spin_kernel<<<( 1 << 22 ) / 256, 256, 0, s>>>( k, 1 << 22 );
			}
			cudaStreamSynchronize( s );
			const double t = now();
			cudaMemcpyAsync( d, h, bytes, cudaMemcpyHostToDevice, s );
			cudaStreamSynchronize( s );
			gbs.push_back( (double)bytes / ( now() - t ) / 1e9 );
		}
		std::sort( gbs.begin(), gbs.end() );
		std::printf( "%-18s %zu MiB: median %6.1f GB/s, worst %6.1f GB/s, best %6.1f GB/s\n",
		             kinds[kind], mib, gbs[gbs.size() / 2], gbs.front(), gbs.back() );
	}
	return 0;
}
