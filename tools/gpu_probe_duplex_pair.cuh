/* SPDX-License-Identifier: BSD-3-Clause */
/* The bus probes' measurement of the two directions at once (tools/gpu_probe_duplex.cu,
   tools/gpu_probe_bus_time.cu). */
#ifndef HYB_GPU_PROBE_DUPLEX_PAIR_CUH
#define HYB_GPU_PROBE_DUPLEX_PAIR_CUH

#include <cuda_runtime.h>

#include <cstdio>

struct Rates
{
	double up = 0, down = 0; /* GB/s, each over its own span */
};

/* Whether a device is there; without one the probes print so and exit 77 (ctest's skip). */
inline bool have_device()
{
	int n = 0;
	if ( cudaGetDeviceCount( &n ) == cudaSuccess && n > 0 ) return true;
	std::printf( "no CUDA device: skipped\n" );
	return false;
}

inline bool duplex_ok( cudaError_t e )
{
	if ( e == cudaSuccess ) return true;
	std::fprintf( stderr, "duplex: %s\n", cudaGetErrorString( e ) );
	return false;
}

/* One stream each way and their timing events. once(): one transfer each way at once (either
   may be skipped with a null host pointer), each timed by its own events: up from `h_up` into
   `d_up`, down from `d_down` into `h_down`. */
struct Duplex
{
	cudaStream_t su = nullptr, sd = nullptr;
	cudaEvent_t  ev[4] = {};

	Duplex()
	{
		cudaStreamCreateWithFlags( &su, cudaStreamNonBlocking );
		cudaStreamCreateWithFlags( &sd, cudaStreamNonBlocking );
		for ( auto& e : ev ) cudaEventCreate( &e );
	}
	~Duplex()
	{
		for ( auto& e : ev ) cudaEventDestroy( e );
		cudaStreamDestroy( su );
		cudaStreamDestroy( sd );
	}
	Duplex( const Duplex& )            = delete;
	Duplex& operator=( const Duplex& ) = delete;

	Rates once( char* d_up, const char* h_up, char* h_down, const char* d_down, size_t bytes )
	{
		if ( h_up )
		{
			cudaEventRecord( ev[0], su );
			cudaMemcpyAsync( d_up, h_up, bytes, cudaMemcpyHostToDevice, su );
			cudaEventRecord( ev[1], su );
		}
		if ( h_down )
		{
			cudaEventRecord( ev[2], sd );
			cudaMemcpyAsync( h_down, d_down, bytes, cudaMemcpyDeviceToHost, sd );
			cudaEventRecord( ev[3], sd );
		}
		Rates x;
		if ( !duplex_ok( cudaDeviceSynchronize() ) ) return x;
		float ms = 0;
		if ( h_up && cudaEventElapsedTime( &ms, ev[0], ev[1] ) == cudaSuccess && ms > 0 )
			x.up = (double)bytes / ( ms * 1e-3 ) * 1e-9;
		if ( h_down && cudaEventElapsedTime( &ms, ev[2], ev[3] ) == cudaSuccess && ms > 0 )
			x.down = (double)bytes / ( ms * 1e-3 ) * 1e-9;
		return x;
	}
};

#endif
