/* SPDX-License-Identifier: BSD-3-Clause */
/* What the bus probes (tools/gpu_probe_duplex.cu, tools/gpu_probe_bus_time.cu) share: error
   reports, the device check, host memory of the kinds they move, and the measurement of the
   two directions at once. */
#ifndef HYB_GPU_PROBE_COMMON_CUH
#define HYB_GPU_PROBE_COMMON_CUH

#include <errno.h> /* program_invocation_short_name */
#include <sys/mman.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

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

inline bool cuda_ok( cudaError_t e, const char* what )
{
	if ( e == cudaSuccess ) return true;
	std::fprintf( stderr, "%s: %s: %s\n", program_invocation_short_name, what,
	              cudaGetErrorString( e ) );
	return false;
}

/* Host memory of a kind --host names: "pinned" (the driver's page-locked memory),
   "registered" (ordinary memory page-locked by cudaHostRegister, as the stencil engine and
   the sparse pipeline move the program's arrays) or "registered-4k" (the same, refused
   transparent huge pages first, so that every 4 KiB page is mapped on its own). Ordinary
   memory is first touched by `touch_threads` threads at once, each its own slice (an OpenMP
   program's initialisation; 1: one memset). Null on failure. */
inline char* host_alloc( size_t bytes, const char* kind, int touch_threads = 1 )
{
	if ( !std::strcmp( kind, "pinned" ) )
	{
		void* p = nullptr;
		return cuda_ok( cudaMallocHost( &p, bytes ), "pinned" ) ? (char*)p : nullptr;
	}
	void* p = mmap( nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( p == MAP_FAILED ) return nullptr;
	if ( !std::strcmp( kind, "registered-4k" ) ) madvise( p, bytes, MADV_NOHUGEPAGE );
	std::vector<std::thread> team;
	const size_t             slice = ( bytes / touch_threads + 4095 ) / 4096 * 4096;
	for ( int t = 0; t < touch_threads; t++ )
	{
		const size_t at = std::min( bytes, (size_t)t * slice );
		const size_t n  = std::min( slice, bytes - at );
		team.emplace_back( [=] { std::memset( (char*)p + at, 0, n ); } );
	}
	for ( auto& t : team ) t.join();
	if ( !cuda_ok( cudaHostRegister( p, bytes, cudaHostRegisterDefault ), "register" ) )
	{
		munmap( p, bytes );
		return nullptr;
	}
	return (char*)p;
}

inline void host_free( char* p, size_t bytes, const char* kind )
{
	if ( !std::strcmp( kind, "pinned" ) )
	{
		cudaFreeHost( p );
		return;
	}
	cudaHostUnregister( p );
	munmap( p, bytes );
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
		if ( !cuda_ok( cudaDeviceSynchronize(), "duplex" ) ) return x;
		float ms = 0;
		if ( h_up && cudaEventElapsedTime( &ms, ev[0], ev[1] ) == cudaSuccess && ms > 0 )
			x.up = (double)bytes / ( ms * 1e-3 ) * 1e-9;
		if ( h_down && cudaEventElapsedTime( &ms, ev[2], ev[3] ) == cudaSuccess && ms > 0 )
			x.down = (double)bytes / ( ms * 1e-3 ) * 1e-9;
		return x;
	}
};

#endif
