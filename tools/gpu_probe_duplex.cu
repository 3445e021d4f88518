/* SPDX-License-Identifier: BSD-3-Clause */
/* Probe of PCIe's two directions at once: can uploads keep their full rate while downloads
   run beside them, if the downloads are paced?

   Why: the out-of-core stencil's bus-bound plans (issue 21) upload about 1.5 times what they
   download. Measured on the H200 hosts, each direction alone moves about 55 GB/s and both at
   once about 96 GB/s, shared about evenly (48 / 48) when both run. The issue's bound lets the
   uploads run at 55 GB/s beside the downloads, so an even split costs about 10 % against it.
   A device read (upload) sends its read requests up the same link direction that carries the
   downloads' data; downloads paced below their share might leave the requests room, and the
   uploads their full rate. This probe measures whether they do.

   What it runs (pinned host buffers, one device, the upload on one stream, the download on
   another, each timed with events):
     A. each direction alone;
     B. both at once, unpaced;
     C. both at once, the download cut into pieces with a sleeping kernel between them on its
        stream (pace: microseconds of sleep per piece), for several paces;
     D. for each pace of C, the time to move U up and D down with U = 1.5 D (the acoustic
        set's ratio), the uploads running throughout: max(U / up_rate_beside, D /
        down_rate_paced) against the issue's bound max(U / h2d, D / d2h, (U + D) / both),
        both from A and B.
   Usage: gpu_probe_duplex [--mib M] [--piece-mib P] [--reps R]
     M  bytes moved each way per measurement (default 2048 MiB), P download piece (default 8),
        R repetitions, the best kept (default 3).
   Prints one line per measurement. Exit 77 without a device. */

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace
{

bool cuda_ok( cudaError_t e, const char* what )
{
	if ( e == cudaSuccess ) return true;
	std::fprintf( stderr, "gpu_probe_duplex: %s: %s\n", what, cudaGetErrorString( e ) );
	return false;
}

/* One thread that sleeps `ns` nanoseconds: the download stream's pause between pieces. */
__global__ void pause_kernel( unsigned ns )
{
	for ( unsigned left = ns; left > 0; )
	{
		unsigned step = left < 1000000u ? left : 1000000u;
		__nanosleep( step );
		left -= step;
	}
}

struct Buffers
{
	char * h_up = nullptr, *h_down = nullptr, *d_up = nullptr, *d_down = nullptr;
	size_t bytes = 0;
};

struct Rates
{
	double up = 0, down = 0; /* GB/s, each over its own span */
};

/* Upload and/or download `b.bytes` each; the download in pieces of `piece` with a pause of
   `pause_us` after each (0: one copy). Best of `reps` by the slower direction's span. */
Rates run( const Buffers& b, bool up, bool down, size_t piece, double pause_us, int reps )
{
	cudaStream_t su, sd;
	cudaEvent_t  u0, u1, d0, d1;
	cudaStreamCreateWithFlags( &su, cudaStreamNonBlocking );
	cudaStreamCreateWithFlags( &sd, cudaStreamNonBlocking );
	cudaEventCreate( &u0 );
	cudaEventCreate( &u1 );
	cudaEventCreate( &d0 );
	cudaEventCreate( &d1 );
	Rates  best;
	double best_span = 0;
	for ( int r = 0; r < reps + 1; r++ ) /* the first warms up */
	{
		cudaDeviceSynchronize();
		if ( up )
		{
			cudaEventRecord( u0, su );
			cudaMemcpyAsync( b.d_up, b.h_up, b.bytes, cudaMemcpyHostToDevice, su );
			cudaEventRecord( u1, su );
		}
		if ( down )
		{
			cudaEventRecord( d0, sd );
			if ( pause_us <= 0 || piece >= b.bytes )
				cudaMemcpyAsync( b.h_down, b.d_down, b.bytes, cudaMemcpyDeviceToHost, sd );
			else
				for ( size_t at = 0; at < b.bytes; at += piece )
				{
					size_t n = std::min( piece, b.bytes - at );
					cudaMemcpyAsync( b.h_down + at, b.d_down + at, n, cudaMemcpyDeviceToHost, sd );
					pause_kernel<<<1, 1, 0, sd>>>( (unsigned)( pause_us * 1000.0 ) );
				}
			cudaEventRecord( d1, sd );
		}
		if ( !cuda_ok( cudaDeviceSynchronize(), "run" ) ) break;
		float  mu = 0, md = 0;
		Rates  x;
		double span = 0;
		if ( up && cudaEventElapsedTime( &mu, u0, u1 ) == cudaSuccess && mu > 0 )
		{
			x.up = (double)b.bytes / ( mu * 1e-3 ) * 1e-9;
			span = std::max( span, (double)mu );
		}
		if ( down && cudaEventElapsedTime( &md, d0, d1 ) == cudaSuccess && md > 0 )
		{
			x.down = (double)b.bytes / ( md * 1e-3 ) * 1e-9;
			span   = std::max( span, (double)md );
		}
		if ( r > 0 && ( best_span == 0 || span < best_span ) )
		{
			best_span = span;
			best      = x;
		}
	}
	cudaEventDestroy( u0 );
	cudaEventDestroy( u1 );
	cudaEventDestroy( d0 );
	cudaEventDestroy( d1 );
	cudaStreamDestroy( su );
	cudaStreamDestroy( sd );
	return best;
}

} /* namespace */

int main( int argc, char** argv )
{
	size_t mib = 2048, piece_mib = 8;
	int    reps = 3;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !std::strcmp( argv[i], "--mib" ) && i + 1 < argc )
			mib = (size_t)std::atol( argv[++i] );
		else if ( !std::strcmp( argv[i], "--piece-mib" ) && i + 1 < argc )
			piece_mib = (size_t)std::atol( argv[++i] );
		else if ( !std::strcmp( argv[i], "--reps" ) && i + 1 < argc )
			reps = std::max( 1, std::atoi( argv[++i] ) );
		else
		{
			std::fprintf( stderr, "usage: %s [--mib M] [--piece-mib P] [--reps R]\n", argv[0] );
			return 2;
		}
	}
	int ndev = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev == 0 )
	{
		std::printf( "no CUDA device: skipped\n" );
		return 77;
	}
	cudaDeviceProp prop;
	cudaGetDeviceProperties( &prop, 0 );
	Buffers b;
	b.bytes = mib << 20;
	if ( !cuda_ok( cudaMallocHost( &b.h_up, b.bytes ), "pinned up" ) ||
	     !cuda_ok( cudaMallocHost( &b.h_down, b.bytes ), "pinned down" ) ||
	     !cuda_ok( cudaMalloc( &b.d_up, b.bytes ), "device up" ) ||
	     !cuda_ok( cudaMalloc( &b.d_down, b.bytes ), "device down" ) )
		return 1;
	std::memset( b.h_up, 1, b.bytes );
	std::memset( b.h_down, 2, b.bytes );
	cudaMemset( b.d_down, 3, b.bytes );
	std::printf( "# gpu_probe_duplex: %s, %zu MiB each way, download pieces of %zu MiB, best of "
	             "%d\n",
	             prop.name, mib, piece_mib, reps );
	const size_t piece = ( piece_mib > 0 ? piece_mib : 1 ) << 20;
	Rates        up    = run( b, true, false, 0, 0, reps );
	Rates        down  = run( b, false, true, 0, 0, reps );
	Rates        both  = run( b, true, true, 0, 0, reps );
	const double h2d = up.up, d2h = down.down, sum = both.up + both.down;
	std::printf( "A up alone                    %6.2f GB/s\n", h2d );
	std::printf( "A down alone                  %6.2f GB/s\n", d2h );
	std::printf( "B both, unpaced               up %6.2f  down %6.2f  sum %6.2f GB/s\n", both.up,
	             both.down, sum );
	/* D: U = 1.5 D, in seconds per GB downloaded; the bound from A and B */
	const double ratio = 1.5;
	const double bound = std::max( { ratio / h2d, 1.0 / d2h, ( ratio + 1.0 ) / sum } );
	auto         flow  = [&]( double ru, double rd )
	{
		/* both directions together until the downloads end, then the uploads alone */
		double t_down  = 1.0 / rd;
		double up_done = ru * t_down;
		return up_done >= ratio ? std::max( ratio / ru, t_down )
		                        : t_down + ( ratio - up_done ) / h2d;
	};
	std::printf( "D unpaced: %.4f s per GB down, %.3fx the bound (%.4f)\n",
	             flow( both.up, both.down ), flow( both.up, both.down ) / bound, bound );
	const double paces[] = { 5, 10, 20, 40, 80, 160 };
	for ( double p : paces )
	{
		Rates  c = run( b, true, true, piece, p, reps );
		double t = flow( c.up, c.down );
		std::printf(
		    "C pause %5.0f us per %zu MiB   up %6.2f  down %6.2f  sum %6.2f GB/s;  D %.4f s "
		    "per GB down, %.3fx the bound\n",
		    p, piece_mib, c.up, c.down, c.up + c.down, t, t / bound );
	}
	cudaFreeHost( b.h_up );
	cudaFreeHost( b.h_down );
	cudaFree( b.d_up );
	cudaFree( b.d_down );
	return 0;
}
