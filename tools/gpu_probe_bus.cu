/* SPDX-License-Identifier: BSD-3-Clause */
/* Probe of the host memory bus on the GPU machine: how much the cores move alone, how much
   the copy engines move alone, how much both move at the same time, and what registering
   pageable memory costs (alone and while the cores stream).

   Why: on host-resident data the tridiagonal split (issue 5) and the SpMV first call
   (issue 4) give the device rows that the CPU would otherwise stream. Whether that can gain
   more than the ~1.15x measured depends on one fact this probe measures: does the DMA of the
   copy engines add bandwidth to what the cores already pull from memory, or share it?

   Usage: gpu_probe_bus [--mib M] [--seconds S] [--pages | --xsum]
     M   size of each CPU stream array and each DMA buffer (default 1024 MiB)
     S   length of each timed window (default 0.5 s)
     --pages  only part E: what registering costs by the kind of pages (4 KiB or transparent
              huge pages), with and without cudaHostRegisterReadOnly, and whether the
              device reads pageable memory directly (could the tridiagonal split's device
              rows skip both the staging copy and the 71-109 ms a GiB that registering
              4 KiB pages was measured to cost?)
     --xsum   only part F: the sparse product's fingerprint of x on the host (what proves a
              registered x, kernels/spmv/hyb_spmv_xsum.h) against a plain read and against a
              one-multiplication variant, on 1 to all-but-one threads, alone and while the
              copy engines move both ways: is the fingerprint bound by the cores or the bus?
   Prints one line per measurement: what ran, its GB/s (10^9 bytes a second; a triad counts
   3 arrays, a read sum 1, each copy its bytes once), and the time. Exit 77 without a device. */

#include <cuda_runtime.h>
#include <omp.h>

#include "kernels/spmv/hyb_spmv_xsum.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace
{
using clk = std::chrono::steady_clock;

double seconds_since( clk::time_point t0 )
{
	return std::chrono::duration<double>( clk::now() - t0 ).count();
}

bool cuda_ok( cudaError_t e, const char* what )
{
	if ( e == cudaSuccess ) return true;
	std::fprintf( stderr, "gpu_probe_bus: %s: %s\n", what, cudaGetErrorString( e ) );
	return false;
}

struct cpu_arrays
{
	double *a, *b, *c;
	size_t  n;
};

/* One kind of CPU streaming for a window of `secs` on `threads` threads: whole passes,
   counted in bytes. triad: a = b + s c (24 bytes an element); read: sum of b (8). */
enum cpu_kind
{
	CPU_TRIAD,
	CPU_READ,
	CPU_XSUM, /* the sparse product's fingerprint of x (kernels/spmv/hyb_spmv_xsum.h) */
	CPU_XSUM1 /* the same with one multiplication a word instead of two (a candidate) */
};

/* One piece of CPU_XSUM1: 32 lanes, acc = rotl((acc ^ w) K1, 29). */
uint64_t xsum1_piece( const unsigned char* b, size_t bytes )
{
	uint64_t acc[HYB_SPMV_XSUM_LANES];
	for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ ) acc[l] = (uint64_t)( l + 1 ) * HYB_SPMV_XSUM_K3;
	for ( size_t i = 0; i + 8 * HYB_SPMV_XSUM_LANES <= bytes; i += 8 * HYB_SPMV_XSUM_LANES )
		for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ )
		{
			uint64_t w;
			std::memcpy( &w, b + i + 8 * (size_t)l, 8 );
			uint64_t a = ( acc[l] ^ w ) * HYB_SPMV_XSUM_K1;
			acc[l]     = ( a << 29 ) | ( a >> 35 );
		}
	uint64_t h = 0;
	for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ ) h += hyb_spmv_xsum_final( acc[l] );
	return h;
}

double cpu_stream( const cpu_arrays& m, cpu_kind kind, int threads, double secs, double* sink )
{
	auto   t0    = clk::now();
	double bytes = 0, acc = 0;
	while ( seconds_since( t0 ) < secs )
	{
		if ( kind == CPU_TRIAD )
		{
#pragma omp parallel for num_threads( threads ) schedule( static )
			for ( size_t i = 0; i < m.n; i++ ) m.a[i] = m.b[i] + 0.5 * m.c[i];
			bytes += 24.0 * m.n;
		}
		else if ( kind == CPU_READ )
		{
			double s = 0;
#pragma omp parallel for num_threads( threads ) schedule( static ) reduction( + : s )
			for ( size_t i = 0; i < m.n; i++ ) s += m.b[i];
			acc += s;
			bytes += 8.0 * m.n;
		}
		else
		{
			const size_t  nb     = m.n * sizeof( double );
			const int64_t pieces = hyb_spmv_xsum_pieces( nb );
			uint64_t      h      = 0;
#pragma omp parallel for num_threads( threads ) schedule( static ) reduction( ^ : h )
			for ( int64_t p = 0; p < pieces; p++ )
				h ^= kind == CPU_XSUM
				         ? hyb_spmv_xsum_of( m.b, nb, p )
				         : xsum1_piece( (const unsigned char*)m.b + (size_t)p * HYB_SPMV_XSUM_PIECE,
				                        std::min( HYB_SPMV_XSUM_PIECE,
				                                  nb - (size_t)p * HYB_SPMV_XSUM_PIECE ) );
			acc += (double)( h & 1 );
			bytes += (double)nb;
		}
	}
	*sink += acc;
	return bytes / seconds_since( t0 ) / 1e9;
}

/* The copy engines kept busy from another thread until `stop`: up (host to device), down
   (device to host) or both, in 64 MiB pieces on two streams. */
struct dma_loop
{
	char *            host_up, *host_down, *dev_up, *dev_down;
	size_t            bytes;
	bool              up, down;
	std::atomic<bool> stop{ false }, started{ false };
	double            moved = 0, secs = 0;
	bool              failed = false;

	void run()
	{
		cudaStream_t s_up, s_down;
		if ( !cuda_ok( cudaStreamCreateWithFlags( &s_up, cudaStreamNonBlocking ), "stream" ) ||
		     !cuda_ok( cudaStreamCreateWithFlags( &s_down, cudaStreamNonBlocking ), "stream" ) )
		{
			failed  = true;
			started = true;
			return;
		}
		const size_t piece = (size_t)64 << 20;
		auto         t0    = clk::now();
		started            = true;
		while ( !stop.load() )
		{
			for ( size_t off = 0; off + piece <= bytes; off += piece )
			{
				if ( up )
					cudaMemcpyAsync( dev_up + off, host_up + off, piece, cudaMemcpyHostToDevice,
					                 s_up );
				if ( down )
					cudaMemcpyAsync( host_down + off, dev_down + off, piece, cudaMemcpyDeviceToHost,
					                 s_down );
				moved += (double)piece * ( ( up ? 1 : 0 ) + ( down ? 1 : 0 ) );
			}
			if ( !cuda_ok( cudaStreamSynchronize( s_up ), "copy up" ) ||
			     !cuda_ok( cudaStreamSynchronize( s_down ), "copy down" ) )
			{
				failed = true;
				break;
			}
		}
		secs = seconds_since( t0 );
		cudaStreamDestroy( s_up );
		cudaStreamDestroy( s_down );
	}
};

double dma_alone( dma_loop& d, double secs )
{
	d.stop    = false;
	d.started = false;
	d.moved   = 0;
	std::thread t( [&] { d.run(); } );
	std::this_thread::sleep_for( std::chrono::duration<double>( secs ) );
	d.stop = true;
	t.join();
	return d.moved / d.secs / 1e9;
}

/* Both at once: the DMA thread starts, the cores stream for the window, the DMA stops. */
void both( dma_loop& d, const cpu_arrays& m, cpu_kind kind, int threads, double secs, double* sink,
           double* cpu_gbs, double* dma_gbs )
{
	d.stop    = false;
	d.started = false;
	d.moved   = 0;
	std::thread t( [&] { d.run(); } );
	while ( !d.started.load() ) std::this_thread::yield();
	*cpu_gbs = cpu_stream( m, kind, threads, secs, sink );
	d.stop   = true;
	t.join();
	*dma_gbs = d.moved / d.secs / 1e9;
}

double time_register( char* p, size_t bytes, bool unregister_too, double* unreg_s,
                      unsigned flags = cudaHostRegisterDefault )
{
	auto t0 = clk::now();
	if ( !cuda_ok( cudaHostRegister( p, bytes, flags ), "cudaHostRegister" ) ) return -1;
	double s = seconds_since( t0 );
	if ( unregister_too )
	{
		t0 = clk::now();
		cudaHostUnregister( p );
		*unreg_s = seconds_since( t0 );
	}
	return s;
}

/* Part E. */
std::string first_line( const char* path )
{
	std::ifstream f( path );
	std::string   l;
	if ( !std::getline( f, l ) ) l = "(unreadable)";
	return l;
}

/* kB of this process's anonymous memory on transparent huge pages. */
long anon_huge_kib()
{
	std::ifstream f( "/proc/self/smaps_rollup" );
	std::string   key;
	long          v;
	while ( f >> key )
	{
		if ( key == "AnonHugePages:" && f >> v ) return v;
		f.ignore( 1 << 12, '\n' );
	}
	return -1;
}

__global__ void read_sum( const double* p, size_t n, double* out )
{
	double s = 0;
	for ( size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	      i += (size_t)gridDim.x * blockDim.x )
		s += p[i];
	if ( s == 12345.678 ) *out = s; /* keeps the loads */
}

/* Registers and unregisters an already touched region of `bytes` with `flags`, twice (the
   second is reported: the first may fault page tables in), then times a DMA up from it. */
void register_case( const char* what, char* p, size_t bytes, unsigned flags, dma_loop& d,
                    double secs )
{
	double unreg = 0, reg = time_register( p, bytes, true, &unreg, flags );
	if ( reg >= 0 ) reg = time_register( p, bytes, false, nullptr, flags );
	if ( reg < 0 )
	{
		std::printf( "%-40s refused (the reason on stderr)\n", what );
		return;
	}
	char* keep = d.host_up;
	d.host_up  = p;
	d.up       = true;
	d.down     = false;
	double g   = dma_alone( d, secs );
	d.host_up  = keep;
	auto t0    = clk::now();
	cudaHostUnregister( p );
	double       unreg2 = seconds_since( t0 );
	const double gib    = (double)bytes / ( 1 << 30 );
	std::printf(
	    "%-40s register %6.1f ms/GiB  unregister %5.1f / %5.1f ms/GiB  dma up %5.1f GB/s\n", what,
	    reg * 1e3 / gib, unreg * 1e3 / gib, unreg2 * 1e3 / gib, g );
}

void pages_probe( size_t bytes, dma_loop& d, double secs )
{
	std::printf( "# E: transparent huge pages: enabled %s; defrag %s\n",
	             first_line( "/sys/kernel/mm/transparent_hugepage/enabled" ).c_str(),
	             first_line( "/sys/kernel/mm/transparent_hugepage/defrag" ).c_str() );
	int dev = 0, pma = 0, pma_hpt = 0, ro = 0, reg = 0, cma = 0;
	cudaGetDevice( &dev );
	cudaDeviceGetAttribute( &pma, cudaDevAttrPageableMemoryAccess, dev );
	cudaDeviceGetAttribute( &pma_hpt, cudaDevAttrPageableMemoryAccessUsesHostPageTables, dev );
	cudaDeviceGetAttribute( &ro, cudaDevAttrHostRegisterReadOnlySupported, dev );
	cudaDeviceGetAttribute( &reg, cudaDevAttrHostRegisterSupported, dev );
	cudaDeviceGetAttribute( &cma, cudaDevAttrConcurrentManagedAccess, dev );
	std::printf( "# E: device attributes: pageableMemoryAccess %d, usesHostPageTables %d, "
	             "hostRegisterReadOnly %d, hostRegister %d, concurrentManagedAccess %d\n",
	             pma, pma_hpt, ro, reg, cma );

	/* As a program's arrays come: malloc, touched. */
	long  h0    = anon_huge_kib();
	char* plain = (char*)std::malloc( bytes );
	if ( !plain ) return;
	std::memset( plain, 3, bytes );
	long h1 = anon_huge_kib();
	std::printf( "# E: malloc'd %zu MiB, touched: %ld MiB of it on huge pages\n", bytes >> 20,
	             ( h1 - h0 ) >> 10 );
	register_case( "malloc, default flags", plain, bytes, cudaHostRegisterDefault, d, secs );
	if ( ro ) register_case( "malloc, read-only", plain, bytes, cudaHostRegisterReadOnly, d, secs );

	/* The same asked for huge pages (2 MiB aligned, madvise before the first touch). */
	const size_t huge = (size_t)2 << 20;
	char*        thp  = (char*)std::aligned_alloc( huge, ( bytes + huge - 1 ) / huge * huge );
	if ( thp )
	{
		madvise( thp, bytes, MADV_HUGEPAGE );
		h0 = anon_huge_kib();
		std::memset( thp, 3, bytes );
		h1 = anon_huge_kib();
		std::printf( "# E: aligned + MADV_HUGEPAGE %zu MiB, touched: %ld MiB on huge pages\n",
		             bytes >> 20, ( h1 - h0 ) >> 10 );
		register_case( "huge pages, default flags", thp, bytes, cudaHostRegisterDefault, d, secs );
		if ( ro )
			register_case( "huge pages, read-only", thp, bytes, cudaHostRegisterReadOnly, d, secs );
	}

	/* A kernel reading the malloc'd (CPU-touched) pages directly, where the device can. */
	if ( pma )
	{
		double* out;
		cudaMalloc( (void**)&out, sizeof( double ) );
		for ( int pass = 0; pass < 3; pass++ )
		{
			auto t0 = clk::now();
			read_sum<<<1024, 256>>>( (const double*)plain, bytes / sizeof( double ), out );
			cudaError_t e = cudaDeviceSynchronize();
			double      s = seconds_since( t0 );
			std::printf( "pageable read by a kernel, pass %d: %.1f ms, %.1f GB/s (%s)\n", pass,
			             s * 1e3, bytes / s / 1e9, cudaGetErrorString( e ) );
		}
		auto   t0  = clk::now();
		double acc = 0;
		for ( size_t i = 0; i < bytes; i += 4096 ) acc += plain[i];
		std::printf( "CPU touches each page afterwards: %.1f ms (sink %g)\n",
		             seconds_since( t0 ) * 1e3, acc );
		cudaFree( out );
	}
	std::free( thp );
	std::free( plain );
}
} // namespace

int main( int argc, char** argv )
{
	size_t mib        = 1024;
	double secs       = 0.5;
	bool   pages_only = false, xsum_only = false;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !std::strcmp( argv[i], "--mib" ) && i + 1 < argc )
			mib = std::strtoul( argv[++i], nullptr, 10 );
		else if ( !std::strcmp( argv[i], "--seconds" ) && i + 1 < argc )
			secs = std::atof( argv[++i] );
		else if ( !std::strcmp( argv[i], "--pages" ) )
			pages_only = true;
		else if ( !std::strcmp( argv[i], "--xsum" ) )
			xsum_only = true;
		else
		{
			std::fprintf( stderr,
			              "usage: gpu_probe_bus [--mib M] [--seconds S] [--pages | --xsum]\n" );
			return 2;
		}
	}
	int ndev = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev == 0 )
	{
		std::printf( "gpu_probe_bus: no CUDA device\n" );
		return 77;
	}
	const size_t bytes = mib << 20;
	const int    cores = omp_get_num_procs();
	double       sink  = 0;

	cpu_arrays m;
	m.n = bytes / sizeof( double );
	m.a = (double*)std::malloc( bytes );
	m.b = (double*)std::malloc( bytes );
	m.c = (double*)std::malloc( bytes );
	if ( !m.a || !m.b || !m.c ) return 1;
#pragma omp parallel for schedule( static )
	for ( size_t i = 0; i < m.n; i++ )
	{
		m.a[i] = 0;
		m.b[i] = 1.0 + (double)( i & 7 );
		m.c[i] = 2.0;
	}

	dma_loop d;
	d.bytes = bytes;
	if ( !cuda_ok( cudaHostAlloc( (void**)&d.host_up, bytes, cudaHostAllocDefault ),
	               "cudaHostAlloc" ) ||
	     !cuda_ok( cudaHostAlloc( (void**)&d.host_down, bytes, cudaHostAllocDefault ),
	               "cudaHostAlloc" ) ||
	     !cuda_ok( cudaMalloc( (void**)&d.dev_up, bytes ), "cudaMalloc" ) ||
	     !cuda_ok( cudaMalloc( (void**)&d.dev_down, bytes ), "cudaMalloc" ) )
		return 1;
	std::memset( d.host_up, 1, bytes );
	std::memset( d.host_down, 0, bytes );
	cudaMemset( d.dev_down, 0, bytes );
	cudaDeviceSynchronize();
	if ( pages_only )
	{
		pages_probe( bytes, d, secs );
		return d.failed ? 1 : 0;
	}
	if ( xsum_only )
	{
		/* Part F: x's fingerprint on the host, against a plain read, alone and while the copy
		   engines move both ways (as beside a resident sparse product). */
		std::printf( "# F: x's fingerprint, %zu MiB, windows of %.2f s\n", mib, secs );
		std::printf( "%-44s %10s %10s %10s\n", "measurement", "cpu_GB/s", "dma_GB/s", "sum_GB/s" );
		const cpu_kind    kinds[] = { CPU_READ, CPU_XSUM, CPU_XSUM1 };
		const char* const names[] = { "read sum", "fingerprint", "one-multiply fingerprint" };
		cpu_stream( m, CPU_XSUM, cores, secs / 2, &sink ); /* warm */
		for ( int k = 0; k < 3; k++ )
			for ( int t : { 1, 4, 8, cores - 1 } )
			{
				double c = cpu_stream( m, kinds[k], t, secs, &sink );
				char   name[64];
				std::snprintf( name, sizeof name, "%s, %2d threads", names[k], t );
				std::printf( "%-44s %10.1f %10s %10.1f\n", name, c, "-", c );
			}
		d.up   = true;
		d.down = true;
		for ( int k = 0; k < 3; k++ )
			for ( int t : { 8, cores - 1 } )
			{
				double c, g;
				both( d, m, kinds[k], t, secs, &sink, &c, &g );
				char name[64];
				std::snprintf( name, sizeof name, "%s %2d thr + dma up+down", names[k], t );
				std::printf( "%-44s %10.1f %10.1f %10.1f\n", name, c, g, c + g );
			}
		std::printf( "# sink %g\n", sink );
		return d.failed ? 1 : 0;
	}

	std::printf( "# gpu_probe_bus: %d cores, arrays and buffers of %zu MiB, windows of %.2f s\n",
	             cores, mib, secs );
	std::printf( "%-44s %10s %10s %10s\n", "measurement", "cpu_GB/s", "dma_GB/s", "sum_GB/s" );

	/* A: the cores alone. */
	const int team[] = { cores, cores - 1, cores / 2, 4 };
	double    triad_alone[4], read_alone = 0;
	cpu_stream( m, CPU_TRIAD, cores, secs / 2, &sink ); /* warm */
	for ( int k = 0; k < 4; k++ )
	{
		triad_alone[k] = cpu_stream( m, CPU_TRIAD, team[k], secs, &sink );
		std::printf( "cpu triad, %2d threads%22s %10.1f %10s %10.1f\n", team[k], "", triad_alone[k],
		             "-", triad_alone[k] );
	}
	read_alone = cpu_stream( m, CPU_READ, cores - 1, secs, &sink );
	std::printf( "cpu read sum, %2d threads%19s %10.1f %10s %10.1f\n", cores - 1, "", read_alone,
	             "-", read_alone );

	/* B: the copy engines alone (pinned buffers). */
	struct
	{
		bool        up, down;
		const char* name;
	} dirs[] = { { true, false, "dma up (pinned)" },
		         { false, true, "dma down (pinned)" },
		         { true, true, "dma up+down (pinned)" } };
	double dma_alone_gbs[3];
	for ( int k = 0; k < 3; k++ )
	{
		d.up             = dirs[k].up;
		d.down           = dirs[k].down;
		dma_alone_gbs[k] = dma_alone( d, secs );
		std::printf( "%-44s %10s %10.1f %10.1f\n", dirs[k].name, "-", dma_alone_gbs[k],
		             dma_alone_gbs[k] );
	}

	/* C: both at once; the cores leave one thread to drive the copies. */
	for ( int k = 0; k < 3; k++ )
	{
		d.up   = dirs[k].up;
		d.down = dirs[k].down;
		for ( int t : { cores - 1, cores / 2 } )
		{
			double c, g;
			both( d, m, CPU_TRIAD, t, secs, &sink, &c, &g );
			char name[64];
			std::snprintf( name, sizeof name, "triad %2d thr + %s", t, dirs[k].name );
			std::printf( "%-44s %10.1f %10.1f %10.1f\n", name, c, g, c + g );
		}
	}
	{
		double c, g;
		d.up = d.down = true;
		both( d, m, CPU_READ, cores - 1, secs, &sink, &c, &g );
		char name[64];
		std::snprintf( name, sizeof name, "read sum %2d thr + dma up+down", cores - 1 );
		std::printf( "%-44s %10.1f %10.1f %10.1f\n", name, c, g, c + g );
	}

	/* D: registering pageable memory (already touched), alone, in pieces from several
	   threads, and while the cores stream; then DMA from the registered pages. */
	char* pg = (char*)std::malloc( bytes );
	if ( !pg ) return 1;
	std::memset( pg, 3, bytes );
	double unreg = 0;
	double reg1  = time_register( pg, bytes, true, &unreg );
	std::printf( "register %zu MiB, 1 thread: %.1f ms (%.1f ms/GiB), unregister %.1f ms\n", mib,
	             reg1 * 1e3, reg1 * 1e3 * 1024 / mib, unreg * 1e3 );
	for ( int nt : { 2, 4, 8 } )
	{
		size_t                   part = bytes / nt;
		std::vector<std::thread> th;
		auto                     t0 = clk::now();
		for ( int i = 0; i < nt; i++ )
			th.emplace_back(
			    [&, i] { cudaHostRegister( pg + i * part, part, cudaHostRegisterDefault ); } );
		for ( auto& x : th ) x.join();
		double s = seconds_since( t0 );
		th.clear();
		t0 = clk::now();
		for ( int i = 0; i < nt; i++ )
			th.emplace_back( [&, i] { cudaHostUnregister( pg + i * part ); } );
		for ( auto& x : th ) x.join();
		double u = seconds_since( t0 );
		std::printf(
		    "register %zu MiB, %d threads in pieces: %.1f ms (%.1f ms/GiB), unregister %.1f ms\n",
		    mib, nt, s * 1e3, s * 1e3 * 1024 / mib, u * 1e3 );
	}
	{
		std::atomic<bool> go{ false };
		double            reg_s = 0;
		std::thread       t(
            [&]
            {
                while ( !go.load() ) std::this_thread::yield();
                double u;
                reg_s = time_register( pg, bytes, true, &u );
            } );
		go       = true;
		double c = cpu_stream( m, CPU_TRIAD, cores - 1, secs, &sink );
		t.join();
		std::printf(
		    "register %zu MiB while triad %2d thr: %.1f ms; triad %.1f GB/s (alone %.1f)\n", mib,
		    cores - 1, reg_s * 1e3, c, triad_alone[1] );
	}
	if ( cuda_ok( cudaHostRegister( pg, bytes, cudaHostRegisterDefault ), "cudaHostRegister" ) )
	{
		char* keep_up = d.host_up;
		d.host_up     = pg;
		d.up          = true;
		d.down        = false;
		double g      = dma_alone( d, secs );
		std::printf( "%-44s %10s %10.1f %10.1f\n", "dma up (registered pageable)", "-", g, g );
		double c;
		both( d, m, CPU_TRIAD, cores - 1, secs, &sink, &c, &g );
		char name[64];
		std::snprintf( name, sizeof name, "triad %2d thr + dma up (registered)", cores - 1 );
		std::printf( "%-44s %10.1f %10.1f %10.1f\n", name, c, g, c + g );
		d.host_up = keep_up;
		cudaHostUnregister( pg );
	}
	pages_probe( bytes, d, secs );
	if ( d.failed ) return 1;
	std::printf( "# sink %g\n", sink );
	return 0;
}
