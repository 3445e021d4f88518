/* SPDX-License-Identifier: BSD-3-Clause */
/* Probe of the bus over time and over place: when a transfer beside one the other way runs
   slower than it did a moment ago, is it the moment or the memory?

   Why: the out-of-core stencil's bus-bound plans (issue 21) and the resident sparse calls
   (issue 25) spread by 5-15 % from one process to the next on the same machine, and a
   sparse call's transfers sometimes slow part-way. gpu_probe_duplex --scan-duplex found the
   rate an upload keeps beside a download moving by about 15 % from one GiB of host memory to
   the next, but it measured the GiBs in order, so a slow GiB was also a slow moment. This
   probe separates the two.

   --series (the default): one pair of fixed buffers of M MiB each way, the upload beside the
   download, repeated for S seconds. The buffers never change, so whatever moves the rate is
   time. Printed: the percentiles of each pair's time, the share of pairs slower than 1.25x
   the median, the longest run of such pairs, and per window of W ms the median rate of the
   upload beside the download. With --readers N, N threads read a buffer over and over
   meanwhile (their rate printed), as the resident sparse call's fingerprint team reads x
   while the DMA moves it: --read-from up (the upload's own buffer, the default), down (the
   download's), other (a buffer of the same size that no transfer touches) or far (8 GiB
   that no transfer touches, so that the reads miss the caches).
   --place G: G GiB of ordinary memory in 4 KiB pages, registered; each GiB goes up beside a
   download into a fixed pinned buffer, the GiBs in a shuffled order, P passes, each its own
   order. If the rate belongs to the place, a GiB keeps its rate from pass to pass; if it
   belongs to the moment, GiBs measured one after the other share their rate instead.
   Printed: per GiB its rate in each pass and the guest-physical GiB most of its pages lie
   in (from /proc/self/pagemap, which shows frame numbers to root only; '-' otherwise); then
   the correlation between passes and, per pass, between measurements adjacent in time.
   Usage: gpu_probe_bus_time [--series] [--host pinned|registered-4k] [--mib M]
                             [--seconds S] [--window-ms W] [--readers N]
                             [--read-from up|down|other|far] [--place G] [--passes P]
                             [--seed N]
     M MiB each way (default 32, the 27-point sparse matrix's x in single precision), S
     seconds (default 10), W ms (default 500); P passes (default 2).
   Exit 77 without a device. */

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "tools/gpu_probe_common.cuh"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <vector>

namespace
{

/* One upload beside one download: seconds each way; false on a device error. */
bool pair_once( Duplex& pair, char* d_up, const char* h_up, char* h_down, const char* d_down,
                size_t bytes, double* up_s, double* down_s )
{
	const Rates r = pair.once( d_up, h_up, h_down, d_down, bytes );
	if ( r.up <= 0 || r.down <= 0 ) return false;
	*up_s   = (double)bytes / ( r.up * 1e9 );
	*down_s = (double)bytes / ( r.down * 1e9 );
	return true;
}

double quantile( std::vector<double> v, double q )
{
	if ( v.empty() ) return 0;
	std::sort( v.begin(), v.end() );
	return v[(size_t)std::min( (double)v.size() - 1, q * ( v.size() - 1 ) + 0.5 )];
}

double correlation( const std::vector<double>& a, const std::vector<double>& b )
{
	const size_t n = std::min( a.size(), b.size() );
	if ( n < 3 ) return 0;
	double ma = 0, mb = 0;
	for ( size_t i = 0; i < n; i++ )
	{
		ma += a[i];
		mb += b[i];
	}
	ma /= n;
	mb /= n;
	double sab = 0, saa = 0, sbb = 0;
	for ( size_t i = 0; i < n; i++ )
	{
		sab += ( a[i] - ma ) * ( b[i] - mb );
		saa += ( a[i] - ma ) * ( a[i] - ma );
		sbb += ( b[i] - mb ) * ( b[i] - mb );
	}
	return saa > 0 && sbb > 0 ? sab / std::sqrt( saa * sbb ) : 0;
}

/* Threads that read `bytes` at `p` over and over until stopped; bytes read in all. */
struct Readers
{
	std::atomic<bool>        stop{ false };
	std::atomic<uint64_t>    read{ 0 }, sink{ 0 };
	std::vector<std::thread> team;

	Readers( const char* p, size_t bytes, int n )
	{
		for ( int t = 0; t < n; t++ )
			team.emplace_back(
			    [this, p, bytes, t, n]
			    {
				    const size_t words = bytes / 8, from = words * t / n,
				                 to     = words * ( t + 1 ) / n;
				    const uint64_t* w   = (const uint64_t*)p;
				    uint64_t        acc = 0;
				    while ( !stop.load( std::memory_order_relaxed ) )
				    {
					    for ( size_t i = from; i < to; i++ ) acc += w[i] * 0x9E3779B97F4A7C15ull;
					    read += ( to - from ) * 8;
				    }
				    sink += acc;
			    } );
	}
	~Readers()
	{
		stop = true;
		for ( auto& t : team ) t.join();
	}
};

int series( bool pinned, size_t bytes, double seconds, double window_ms, int readers,
            const char* from )
{
	const char* kind = pinned ? "pinned" : "registered-4k";
	char*       h_up = host_alloc( bytes, kind );
	char*       h_dn = host_alloc( bytes, kind );
	char *      d_up = nullptr, *d_dn = nullptr;
	if ( !h_up || !h_dn || !cuda_ok( cudaMalloc( &d_up, bytes ), "device up" ) ||
	     !cuda_ok( cudaMalloc( &d_dn, bytes ), "device down" ) )
		return 1;
	cudaMemset( d_dn, 3, bytes );
	Duplex              pair;
	std::vector<double> at, span, up_rate, up_s, down_s;
	double              u = 0, d = 0;
	for ( int w = 0; w < 3; w++ ) pair_once( pair, d_up, h_up, h_dn, d_dn, bytes, &u, &d );
	const bool   apart = !std::strcmp( from, "other" ) || !std::strcmp( from, "far" );
	const size_t other = !std::strcmp( from, "far" ) ? (size_t)8 << 30 : bytes;
	char*        alone = nullptr;
	if ( readers > 0 && apart )
	{
		alone = (char*)std::malloc( other );
		if ( alone == nullptr ) return 1;
		std::memset( alone, 7, other );
	}
	const char* read_at = apart ? alone : !std::strcmp( from, "down" ) ? h_dn : h_up;
	Readers* team = readers > 0 ? new Readers( read_at, apart ? other : bytes, readers ) : nullptr;
	const auto t0 = std::chrono::steady_clock::now();
	for ( ;; )
	{
		const double now =
		    std::chrono::duration<double>( std::chrono::steady_clock::now() - t0 ).count();
		if ( now >= seconds ) break;
		if ( !pair_once( pair, d_up, h_up, h_dn, d_dn, bytes, &u, &d ) ) return 1;
		at.push_back( now );
		span.push_back( std::max( u, d ) );
		up_s.push_back( u );
		down_s.push_back( d );
		up_rate.push_back( (double)bytes / u * 1e-9 );
	}
	const double took =
	    std::chrono::duration<double>( std::chrono::steady_clock::now() - t0 ).count();
	const double read_rate = team ? (double)team->read.load() / took * 1e-9 : 0;
	delete team;
	std::free( alone );
	const double med  = quantile( span, 0.5 );
	size_t       slow = 0, run = 0, longest = 0;
	for ( double s : span )
	{
		run     = s > 1.25 * med ? run + 1 : 0;
		slow    = slow + ( s > 1.25 * med );
		longest = std::max( longest, run );
	}
	std::printf( "# gpu_probe_bus_time --series: %s host memory, %zu MiB up beside %zu MiB down, "
	             "fixed buffers, %.0f s, %d threads reading %s (%.1f GB/s)\n",
	             kind, bytes >> 20, bytes >> 20, seconds, readers, from, read_rate );
	std::printf( "series p50 us: up %.0f, down %.0f\n", quantile( up_s, 0.5 ) * 1e6,
	             quantile( down_s, 0.5 ) * 1e6 );
	std::printf( "series pairs %zu  span us p1 %.0f p10 %.0f p50 %.0f p90 %.0f p99 %.0f max %.0f  "
	             "slow(>1.25x p50) %.2f%%  longest slow run %zu\n",
	             span.size(), quantile( span, 0.01 ) * 1e6, quantile( span, 0.1 ) * 1e6, med * 1e6,
	             quantile( span, 0.9 ) * 1e6, quantile( span, 0.99 ) * 1e6,
	             quantile( span, 1.0 ) * 1e6, 100.0 * slow / std::max<size_t>( 1, span.size() ),
	             longest );
	std::printf( "series bound (both ways at once, the pair's bytes over its p1 span): %.1f GB/s\n",
	             2.0 * bytes / quantile( span, 0.01 ) * 1e-9 );
	const double w = window_ms * 1e-3;
	for ( size_t i = 0; i < at.size(); )
	{
		const double        from = std::floor( at[i] / w ) * w;
		std::vector<double> r, s;
		for ( ; i < at.size() && at[i] < from + w; i++ )
		{
			r.push_back( up_rate[i] );
			s.push_back( span[i] );
		}
		size_t k = 0;
		for ( double x : s ) k += x > 1.25 * med;
		std::printf( "window %7.2f s  pairs %5zu  up beside down p50 %5.1f GB/s p10 %5.1f  slow "
		             "%5.1f%%\n",
		             from, r.size(), quantile( r, 0.5 ), quantile( r, 0.1 ),
		             100.0 * k / std::max<size_t>( 1, s.size() ) );
	}
	cudaFree( d_up );
	cudaFree( d_dn );
	host_free( h_up, bytes, kind );
	host_free( h_dn, bytes, kind );
	return 0;
}

/* The guest-physical GiB holding most of [p, p + bytes) and its share of the pages; -1 where
   pagemap shows no frame numbers (not root). */
int physical_gib( const char* p, size_t bytes, double* share )
{
	*share       = 0;
	const int fd = open( "/proc/self/pagemap", O_RDONLY | O_CLOEXEC );
	if ( fd < 0 ) return -1;
	const size_t          pages = bytes / 4096;
	std::vector<uint64_t> e( pages );
	const off_t           off = (off_t)( (uintptr_t)p / 4096 * 8 );
	const ssize_t         got = pread( fd, e.data(), pages * 8, off );
	close( fd );
	if ( got != (ssize_t)( pages * 8 ) ) return -1;
	std::map<uint64_t, size_t> count;
	for ( uint64_t x : e )
	{
		const uint64_t pfn = x & ( ( (uint64_t)1 << 55 ) - 1 );
		if ( ( x >> 63 ) && pfn != 0 ) count[pfn >> 18]++;
	}
	if ( count.empty() ) return -1;
	auto best =
	    std::max_element( count.begin(), count.end(),
	                      []( const auto& a, const auto& b ) { return a.second < b.second; } );
	*share = (double)best->second / pages;
	return (int)best->first;
}

int place( size_t gibs, int passes, unsigned seed )
{
	const size_t gib = (size_t)1 << 30, total = gibs * gib;
	char*        h = host_alloc( total, "registered-4k" );
	char *       p = nullptr, *d_up = nullptr, *d_dn = nullptr;
	if ( !h || !cuda_ok( cudaMallocHost( &p, gib ), "pinned partner" ) ||
	     !cuda_ok( cudaMalloc( &d_up, gib ), "device up" ) ||
	     !cuda_ok( cudaMalloc( &d_dn, gib ), "device down" ) )
		return 1;
	std::memset( p, 4, gib );
	cudaMemset( d_dn, 5, gib );
	Duplex                           pair;
	std::mt19937                     rng( seed );
	std::vector<std::vector<double>> rate( passes, std::vector<double>( gibs ) );
	std::vector<double>              lag1( passes );
	double                           u = 0, d = 0;
	pair_once( pair, d_up, h, p, d_dn, gib, &u, &d ); /* warm up */
	for ( int q = 0; q < passes; q++ )
	{
		std::vector<size_t> order( gibs );
		for ( size_t i = 0; i < gibs; i++ ) order[i] = i;
		std::shuffle( order.begin(), order.end(), rng );
		std::vector<double> in_time;
		for ( size_t g : order )
		{
			if ( !pair_once( pair, d_up, h + g * gib, p, d_dn, gib, &u, &d ) ) return 1;
			rate[q][g] = (double)gib / u * 1e-9;
			in_time.push_back( rate[q][g] );
		}
		std::vector<double> a( in_time.begin(), in_time.end() - 1 ),
		    b( in_time.begin() + 1, in_time.end() );
		lag1[q] = correlation( a, b );
	}
	std::printf( "# gpu_probe_bus_time --place: %zu GiB of registered 4 KiB pages, each GiB up "
	             "beside a 1 GiB download into pinned memory, %d passes in shuffled orders; GB/s "
	             "per pass; the guest-physical GiB most of its pages lie in (share)\n",
	             gibs, passes );
	for ( size_t g = 0; g < gibs; g++ )
	{
		double    share = 0;
		const int phys  = physical_gib( h + g * gib, gib, &share );
		std::printf( "place GiB %3zu ", g );
		for ( int q = 0; q < passes; q++ ) std::printf( " %5.1f", rate[q][g] );
		if ( phys >= 0 )
			std::printf( "  phys %4d (%3.0f%%)\n", phys, 100 * share );
		else
			std::printf( "  phys -\n" );
	}
	for ( int q = 1; q < passes; q++ )
		std::printf( "place correlation pass 1 with pass %d (same GiB): %+.2f\n", q + 1,
		             correlation( rate[0], rate[q] ) );
	for ( int q = 0; q < passes; q++ )
		std::printf( "place correlation within pass %d (adjacent in time): %+.2f\n", q + 1,
		             lag1[q] );
	cudaFree( d_up );
	cudaFree( d_dn );
	cudaFreeHost( p );
	host_free( h, total, "registered-4k" );
	return 0;
}

} /* namespace */

int main( int argc, char** argv )
{
	bool        pinned = true;
	size_t      mib = 32, place_gib = 0;
	double      seconds = 10, window_ms = 500;
	int         passes = 2, readers = 0;
	const char* from = "up";
	unsigned    seed = 1;
	for ( int i = 1; i < argc; i++ )
	{
		const bool more = i + 1 < argc;
		if ( !std::strcmp( argv[i], "--series" ) )
			place_gib = 0;
		else if ( !std::strcmp( argv[i], "--host" ) && more &&
		          ( !std::strcmp( argv[i + 1], "pinned" ) ||
		            !std::strcmp( argv[i + 1], "registered-4k" ) ) )
			pinned = !std::strcmp( argv[++i], "pinned" );
		else if ( !std::strcmp( argv[i], "--mib" ) && more )
			mib = (size_t)std::max( 1L, std::atol( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--seconds" ) && more )
			seconds = std::max( 0.1, std::atof( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--window-ms" ) && more )
			window_ms = std::max( 1.0, std::atof( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--readers" ) && more )
			readers = std::max( 0, std::atoi( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--read-from" ) && more &&
		          ( !std::strcmp( argv[i + 1], "up" ) || !std::strcmp( argv[i + 1], "down" ) ||
		            !std::strcmp( argv[i + 1], "other" ) || !std::strcmp( argv[i + 1], "far" ) ) )
			from = argv[++i];
		else if ( !std::strcmp( argv[i], "--place" ) && more )
			place_gib = (size_t)std::max( 2L, std::atol( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--passes" ) && more )
			passes = std::max( 2, std::atoi( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--seed" ) && more )
			seed = (unsigned)std::atol( argv[++i] );
		else
		{
			std::fprintf( stderr,
			              "usage: %s [--series] [--host pinned|registered-4k] [--mib M] "
			              "[--seconds S] [--window-ms W] [--readers N] "
			              "[--read-from up|down|other|far] [--place G] [--passes P] [--seed N]\n",
			              argv[0] );
			return 2;
		}
	}
	if ( !have_device() ) return 77;
	if ( place_gib > 0 ) return place( place_gib, passes, seed );
	return series( pinned, mib << 20, seconds, window_ms, readers, from );
}
