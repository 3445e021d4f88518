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
        both from A and B;
     H. as C, but the pause is kept by the host: the download stream waits on a word of
        page-locked memory before each piece (a stream memory operation, which needs no
        multiprocessor) and writes another after it; a host thread sees the piece done,
        waits the pause and releases the next. Pace 0 is the handshake alone.
   With --busy-us B, B and C and H run beside kernels that fill every multiprocessor with
   blocks of B microseconds each, on a stream of the lowest priority (the download stream has
   the highest), as the stencil engine's kernels fill the device while its downloads run:
   there the sleeping kernel's block must wait for room on a multiprocessor.
   With --host registered the host buffers are ordinary memory page-locked by
   cudaHostRegister, as the stencil engine's direct mapping moves the program's arrays; with
   registered-4k, ordinary memory refused transparent huge pages (madvise) first, so that
   every 4 KiB page is mapped on its own.
   The engine does more beside its transfers; each of these adds one thing to the busy
   measurements, to find what takes the two directions' sum below what the bus gives alone:
   --busy-mem: the busy blocks stream device memory (as the stencil's kernels do) instead of
   sleeping; --d2d MIB: device-to-device copies of MIB MiB one after another on a stream of
   their own (the region sharing's copies); --up-streams 2: the upload in two halves on two
   streams at once (two slots uploading); --offset BYTES: the host side of every copy starts
   that far into its buffer (the engine's planes start 256 bytes past a page); --no-pace: B
   only. --scan MIB instead: one registered buffer of MIB MiB, each GiB of it uploaded alone
   (best of R), to see whether the rate depends on where in the host's memory the bytes lie
   (a virtual machine's memory may be backed by more than one socket of its host).
   --scan-duplex: as --scan, but each GiB also moves beside the other direction (a download
   into a pinned buffer while the GiB goes up; the GiB coming down while a pinned buffer goes
   up), R times each, the mean and the slowest printed: whether the rate a direction keeps
   beside the other depends on where the host bytes lie, when its rate alone does not.
   --mix: the engine's pattern of concurrent transfers (see mix()), M MiB down.
   --churn: both directions at once beside a thread repeating per-call work (see churn()).
   --touch-threads N: registered memory is first touched by N threads at once, each its own
   slice (an OpenMP program's initialisation), instead of one memset.
   Usage: gpu_probe_duplex [--mib M] [--piece-mib P] [--reps R] [--busy-us B]
                           [--host pinned|registered|registered-4k] [--busy-mem] [--d2d MIB]
                           [--up-streams 1|2] [--offset BYTES] [--no-pace] [--scan MIB]
                           [--scan-duplex] [--mix] [--churn] [--touch-threads N]
     M  bytes moved each way per measurement (default 2048 MiB), P download piece (default 8),
        R repetitions, the best kept (default 3), B busy blocks' length (default 0: none).
   Prints one line per measurement. Exit 77 without a device. */

#include <sys/mman.h>

#include <cuda.h>
#include <cuda_runtime.h>

#include "tools/gpu_probe_common.cuh"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace
{

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

__device__ __forceinline__ unsigned long long globaltimer()
{
	unsigned long long t;
	asm volatile( "mov.u64 %0, %%globaltimer;" : "=l"( t ) );
	return t;
}

/* A block that keeps its multiprocessor slot for `ns` nanoseconds, sleeping, or with `mem`
   (words, a power of two) copying one half of it into the other meanwhile, coalesced and
   four loads in flight per thread, as near the device memory's rate as a simple copy goes. */
__global__ void busy_kernel( unsigned long long ns, float4* mem, size_t words )
{
	const unsigned long long t0 = globaltimer();
	if ( mem == nullptr )
	{
		while ( globaltimer() - t0 < ns ) __nanosleep( 200 );
		return;
	}
	const size_t half = words / 2, span = (size_t)blockDim.x * 4;
	for ( size_t r = 0; globaltimer() - t0 < ns; r++ )
	{
		const size_t at = ( ( (size_t)blockIdx.x * 64 + r ) * span ) & ( half - 1 );
		float4       v[4];
		for ( int u = 0; u < 4; u++ ) v[u] = mem[at + u * blockDim.x + threadIdx.x];
		for ( int u = 0; u < 4; u++ ) mem[half + at + u * blockDim.x + threadIdx.x] = v[u];
	}
}

/* What else runs beside the transfers (see the usage). */
struct Beside
{
	double  busy_us    = 0;
	float4* busy_mem   = nullptr;
	size_t  busy_words = 0;
	char *  d2d_a = nullptr, *d2d_b = nullptr;
	size_t  d2d_bytes  = 0;
	int     up_streams = 1;
};

/* The driver's stream memory operations (not in the runtime API). */
typedef CUresult ( *wait_value_fn )( CUstream, CUdeviceptr, cuuint32_t, unsigned int );
typedef CUresult ( *write_value_fn )( CUstream, CUdeviceptr, cuuint32_t, unsigned int );
wait_value_fn  wait_value  = nullptr;
write_value_fn write_value = nullptr;

bool load_memops()
{
	cudaDriverEntryPointQueryResult q;
	void *                          w = nullptr, *x = nullptr;
	if ( cudaGetDriverEntryPointByVersion( "cuStreamWaitValue32", &w, 12000, cudaEnableDefault,
	                                       &q ) != cudaSuccess ||
	     q != cudaDriverEntryPointSuccess ||
	     cudaGetDriverEntryPointByVersion( "cuStreamWriteValue32", &x, 12000, cudaEnableDefault,
	                                       &q ) != cudaSuccess ||
	     q != cudaDriverEntryPointSuccess )
		return false;
	wait_value  = (wait_value_fn)w;
	write_value = (write_value_fn)x;
	return true;
}

/* Words the download stream and the host pacer share (page-locked, mapped). */
struct Handshake
{
	volatile unsigned* go     = nullptr; /* pieces released by the host */
	volatile unsigned* done   = nullptr; /* pieces finished by the stream */
	CUdeviceptr        go_dev = 0, done_dev = 0;
};

/* Threads that first touch registered host memory, each its own slice at the same time, as
   an OpenMP program's initialisation does (--touch-threads; 1: one memset). */
int touch_threads = 1;

struct Buffers
{
	char * h_up = nullptr, *h_down = nullptr, *d_up = nullptr, *d_down = nullptr;
	size_t bytes = 0;
};

enum class Pace
{
	kernel, /* a sleeping kernel between pieces */
	host    /* the host releases each piece (Handshake) */
};

/* The host's half of the handshake: release piece 0, then each next piece `pause_us` after
   the stream reports the one before done. */
void pacer( Handshake* hs, unsigned pieces, double pause_us )
{
	using clock      = std::chrono::steady_clock;
	const auto pause = std::chrono::nanoseconds( (long long)( pause_us * 1000.0 ) );
	*hs->go          = 1;
	for ( unsigned j = 1; j < pieces; j++ )
	{
		while ( *hs->done < j ) std::atomic_thread_fence( std::memory_order_acquire );
		const auto seen = clock::now();
		while ( clock::now() - seen < pause )
		{
		}
		std::atomic_thread_fence( std::memory_order_release );
		*hs->go = j + 1;
	}
}

/* Upload and/or download `b.bytes` each; the download in pieces of `piece` with a pause of
   `pause_us` after each (0 with Pace::kernel: one copy), kept as `how` says; with busy_us,
   beside kernels of blocks that long. Best of `reps` by the slower direction's span. */
Rates run( const Buffers& b, bool up, bool down, size_t piece, double pause_us, int reps,
           Pace how = Pace::kernel, Handshake* hs = nullptr, const Beside* with = nullptr )
{
	const double busy_us = with ? with->busy_us : 0;
	cudaStream_t su, su2, sd, sb, sc;
	cudaEvent_t  u0, u1, d0, d1;
	int          lowest = 0, highest = 0;
	cudaDeviceGetStreamPriorityRange( &lowest, &highest );
	cudaStreamCreateWithFlags( &su, cudaStreamNonBlocking );
	cudaStreamCreateWithFlags( &su2, cudaStreamNonBlocking );
	cudaStreamCreateWithFlags( &sc, cudaStreamNonBlocking );
	cudaStreamCreateWithPriority( &sd, cudaStreamNonBlocking, highest );
	cudaStreamCreateWithPriority( &sb, cudaStreamNonBlocking, lowest );
	int sms = 0;
	cudaDeviceGetAttribute( &sms, cudaDevAttrMultiProcessorCount, 0 );
	cudaEventCreate( &u0 );
	cudaEventCreate( &u1 );
	cudaEventCreate( &d0 );
	cudaEventCreate( &d1 );
	Rates  best;
	double best_span = 0;
	for ( int r = 0; r < reps + 1; r++ ) /* the first warms up */
	{
		cudaDeviceSynchronize();
		const bool     handshake = down && how == Pace::host && piece > 0 && piece < b.bytes;
		const unsigned pieces    = piece > 0 ? (unsigned)( ( b.bytes + piece - 1 ) / piece ) : 1;
		if ( handshake ) *hs->go = *hs->done = 0;
		if ( busy_us > 0 )
		{
			/* Blocks of 256 threads, 8 per multiprocessor at a time, for about 0.3 s. */
			const double       waves = 0.3e6 / busy_us;
			const unsigned int grid  = (unsigned)( waves * sms * 8 );
			busy_kernel<<<grid, 256, 0, sb>>>( (unsigned long long)( busy_us * 1000.0 ),
			                                   with->busy_mem, with->busy_words );
		}
		if ( with && with->d2d_bytes > 0 )
			for ( int c = 0; c < 64; c++ )
				cudaMemcpyAsync( c % 2 ? with->d2d_a : with->d2d_b,
				                 c % 2 ? with->d2d_b : with->d2d_a, with->d2d_bytes,
				                 cudaMemcpyDeviceToDevice, sc );
		if ( up )
		{
			cudaEventRecord( u0, su );
			if ( with && with->up_streams > 1 )
			{
				const size_t half = b.bytes / 2;
				cudaStreamWaitEvent( su2, u0, 0 );
				cudaMemcpyAsync( b.d_up, b.h_up, half, cudaMemcpyHostToDevice, su );
				cudaMemcpyAsync( b.d_up + half, b.h_up + half, b.bytes - half,
				                 cudaMemcpyHostToDevice, su2 );
				cudaEventRecord( u1, su2 );
				cudaStreamWaitEvent( su, u1, 0 );
			}
			else
				cudaMemcpyAsync( b.d_up, b.h_up, b.bytes, cudaMemcpyHostToDevice, su );
			cudaEventRecord( u1, su );
		}
		if ( down )
		{
			cudaEventRecord( d0, sd );
			if ( handshake )
				for ( unsigned j = 0; j < pieces; j++ )
				{
					const size_t at = (size_t)j * piece, n = std::min( piece, b.bytes - at );
					wait_value( sd, hs->go_dev, j + 1, CU_STREAM_WAIT_VALUE_GEQ );
					cudaMemcpyAsync( b.h_down + at, b.d_down + at, n, cudaMemcpyDeviceToHost, sd );
					write_value( sd, hs->done_dev, j + 1, CU_STREAM_WRITE_VALUE_DEFAULT );
				}
			else if ( pause_us <= 0 || piece >= b.bytes )
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
		if ( handshake ) pacer( hs, pieces, pause_us );
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
	cudaStreamDestroy( sb );
	cudaStreamDestroy( su2 );
	cudaStreamDestroy( sc );
	return best;
}

/* --scan-duplex: each GiB of `h` up alone, up beside a download into pinned memory, and down
   beside an upload from pinned memory; per case the mean and the slowest of `reps`. */
int scan_duplex( char* h, size_t total, const char* host, int reps )
{
	const size_t gib  = (size_t)1 << 30;
	char *       d_up = nullptr, *d_down = nullptr, *p = nullptr;
	if ( !cuda_ok( cudaMalloc( &d_up, gib ), "device up" ) ||
	     !cuda_ok( cudaMalloc( &d_down, gib ), "device down" ) ||
	     !cuda_ok( cudaMallocHost( &p, gib ), "pinned partner" ) )
		return 1;
	std::memset( p, 4, gib );
	cudaMemset( d_down, 5, gib );
	Duplex pair;
	std::printf( "# gpu_probe_duplex --scan-duplex: %zu MiB of %s host memory, each GiB %d "
	             "times; GB/s mean/slowest: up alone, up beside a download into pinned "
	             "memory (and that download), down beside an upload from pinned memory (and "
	             "that upload)\n",
	             total >> 20, host, reps );
	for ( size_t at = 0; at + gib <= total; at += gib )
	{
		double sum[5] = { 0 }, low[5] = { 0 };
		for ( int r = 0; r <= reps; r++ ) /* the first warms up */
		{
			const Rates  alone = pair.once( d_up, h + at, nullptr, nullptr, gib );
			const Rates  up    = pair.once( d_up, h + at, p, d_down, gib );
			const Rates  down  = pair.once( d_up, p, h + at, d_down, gib );
			const double v[5]  = { alone.up, up.up, up.down, down.down, down.up };
			for ( int j = 0; r > 0 && j < 5; j++ )
			{
				sum[j] += v[j];
				low[j] = r == 1 ? v[j] : std::min( low[j], v[j] );
			}
		}
		std::printf( "scan GiB %3zu  alone %5.1f/%5.1f  up %5.1f/%5.1f (down %5.1f/%5.1f)  "
		             "down %5.1f/%5.1f (up %5.1f/%5.1f)\n",
		             at / gib, sum[0] / reps, low[0], sum[1] / reps, low[1], sum[2] / reps, low[2],
		             sum[3] / reps, low[3], sum[4] / reps, low[4] );
	}
	cudaFreeHost( p );
	cudaFree( d_up );
	cudaFree( d_down );
	return 0;
}

/* --mix: the stencil engine's pattern of concurrent transfers on one host buffer of `host`
   memory: 1.5 M bytes up, split over `ups` streams each reading its own region, beside M
   bytes down on one stream, optionally beside device-to-device copies of M / 2 on a stream of
   their own; each direction's rate over its own span (first start to last end) and the time
   of the whole against max(U / up alone, D / down alone) from the same buffer. Whether more
   transfers at once, or device copies beside them, take the two directions' sum below what
   one stream each way gets. */
int mix( const char* host, size_t mib, int reps )
{
	const size_t m = mib << 20, gap = ( (size_t)2 << 30 ) + 4096 * 7;
	const size_t total = 5 * gap;
	char*        h     = host_alloc( total, host, touch_threads );
	char *       dev = nullptr, *dd = nullptr;
	if ( h == nullptr || !cuda_ok( cudaMalloc( &dev, 4 * m ), "device" ) ||
	     !cuda_ok( cudaMalloc( &dd, m ), "device copies" ) )
		return 1;
	cudaMemset( dev, 1, 4 * m );
	cudaStream_t s[5];
	for ( auto& x : s ) cudaStreamCreateWithFlags( &x, cudaStreamNonBlocking );
	cudaEvent_t ev[10];
	for ( auto& e : ev ) cudaEventCreate( &e );
	std::printf( "# gpu_probe_duplex --mix: %s host memory, %zu MiB down, 1.5x that up; best of "
	             "%d by the whole's time\n",
	             host, mib, reps );
	double up_alone = 0, down_alone = 0;
	for ( int ups = 0; ups <= 3; ups++ )
		for ( int copies = 0; copies <= ( ups > 0 ? 1 : 0 ); copies++ )
		{
			double best_t = 0, best_up = 0, best_down = 0;
			for ( int r = 0; r <= reps; r++ )
			{
				cudaDeviceSynchronize();
				const int    n     = ups > 0 ? ups : 1;
				const size_t piece = 3 * m / 2 / n;
				/* ups 0: each direction alone, one stream each, one after the other */
				for ( int u = 0; u < n; u++ )
				{
					cudaEventRecord( ev[2 * u], s[u] );
					cudaMemcpyAsync( dev + u * piece, h + u * gap, piece, cudaMemcpyHostToDevice,
					                 s[u] );
					cudaEventRecord( ev[2 * u + 1], s[u] );
				}
				if ( ups == 0 ) cudaDeviceSynchronize();
				cudaEventRecord( ev[6], s[3] );
				cudaMemcpyAsync( h + 4 * gap, dev + 3 * m, m, cudaMemcpyDeviceToHost, s[3] );
				cudaEventRecord( ev[7], s[3] );
				if ( copies )
				{
					cudaEventRecord( ev[8], s[4] );
					cudaMemcpyAsync( dd, dev + 2 * m, m / 2, cudaMemcpyDeviceToDevice, s[4] );
					cudaMemcpyAsync( dd + m / 2, dev + 2 * m + m / 2, m / 2,
					                 cudaMemcpyDeviceToDevice, s[4] );
					cudaEventRecord( ev[9], s[4] );
				}
				if ( !cuda_ok( cudaDeviceSynchronize(), "mix" ) ) return 1;
				float  ms = 0, first = 1e30f, last = 0;
				double up_span = 0;
				for ( int u = 0; u < n; u++ )
				{
					cudaEventElapsedTime( &ms, ev[0], ev[2 * u] );
					first = std::min( first, ms );
					cudaEventElapsedTime( &ms, ev[0], ev[2 * u + 1] );
					last = std::max( last, ms );
				}
				up_span = ( last - first ) * 1e-3;
				cudaEventElapsedTime( &ms, ev[6], ev[7] );
				const double down_span = ms * 1e-3;
				cudaEventElapsedTime( &ms, ev[0], ev[7] );
				const double whole = std::max( (double)last, (double)ms ) * 1e-3;
				if ( r > 0 && ( best_t == 0 || whole < best_t ) )
				{
					best_t    = whole;
					best_up   = (double)( piece * n ) / up_span * 1e-9;
					best_down = (double)m / down_span * 1e-9;
				}
			}
			if ( ups == 0 )
			{
				up_alone   = best_up;
				down_alone = best_down;
				std::printf( "mix alone: up %.2f GB/s, down %.2f GB/s\n", up_alone, down_alone );
				continue;
			}
			const double bound =
			    std::max( 1.5 * (double)m / ( up_alone * 1e9 ), (double)m / ( down_alone * 1e9 ) );
			std::printf( "mix ups %d copies %d: up %.2f GB/s, down %.2f GB/s, sum %.2f; whole "
			             "%.4f s, %.3fx max(U/up, D/down)\n",
			             ups, copies, best_up, best_down, best_up + best_down, best_t,
			             best_t / bound );
		}
	for ( auto& e : ev ) cudaEventDestroy( e );
	for ( auto& x : s ) cudaStreamDestroy( x );
	cudaFree( dev );
	cudaFree( dd );
	host_free( h, total, host );
	return 0;
}

/* --churn: both directions at once (M MiB each way, one stream each) while another thread
   repeats one operation that a library may make per call: registering and unregistering a
   2 MiB buffer (IOMMU mappings made and torn down), creating and destroying an event,
   allocating and freeing 2 MiB of pinned memory, or mapping, touching and unmapping 64 MiB
   (page faults). Mean and slowest of R: whether such work beside the transfers slows them. */
/* One operation of --churn's kind: `small` is a 2 MiB buffer of the caller's. */
void churn_op( const char* kind, char* small, size_t small_bytes )
{
	const size_t big = (size_t)64 << 20;
	if ( !std::strcmp( kind, "none" ) )
		std::this_thread::sleep_for( std::chrono::microseconds( 100 ) );
	else if ( !std::strcmp( kind, "register" ) )
	{
		cudaHostRegister( small, small_bytes, cudaHostRegisterDefault );
		cudaHostUnregister( small );
	}
	else if ( !std::strcmp( kind, "event" ) )
	{
		cudaEvent_t e;
		cudaEventCreate( &e );
		cudaEventDestroy( e );
	}
	else if ( !std::strcmp( kind, "pinned" ) )
	{
		void* p = nullptr;
		if ( cudaMallocHost( &p, small_bytes ) == cudaSuccess ) cudaFreeHost( p );
	}
	else
	{
		void* p = mmap( nullptr, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
		if ( p != MAP_FAILED )
		{
			std::memset( p, 1, big );
			munmap( p, big );
		}
	}
}

int churn( const char* host, size_t mib, int reps )
{
	const size_t bytes = mib << 20;
	char*        h_up  = host_alloc( bytes, host, touch_threads );
	char*        h_dn  = host_alloc( bytes, host, touch_threads );
	char *       d_up = nullptr, *d_dn = nullptr;
	if ( !h_up || !h_dn || !cuda_ok( cudaMalloc( &d_up, bytes ), "device up" ) ||
	     !cuda_ok( cudaMalloc( &d_dn, bytes ), "device down" ) )
		return 1;
	cudaMemset( d_dn, 3, bytes );
	Duplex pair;
	std::printf( "# gpu_probe_duplex --churn: %s host memory, %zu MiB each way, %d times each; "
	             "GB/s mean/slowest\n",
	             host, mib, reps );
	const char* kinds[] = { "none", "register", "event", "pinned", "touch" };
	for ( const char* kind : kinds )
	{
		std::atomic<bool> stop{ false };
		std::atomic<long> ops{ 0 };
		std::thread       t(
            [&stop, &ops, kind]
            {
                const size_t      small = (size_t)2 << 20;
                std::vector<char> r( small, 0 );
                while ( !stop.load() )
                {
                    churn_op( kind, r.data(), small );
                    ops++;
                }
            } );
		std::this_thread::sleep_for( std::chrono::milliseconds( 20 ) );
		const long o0     = ops.load();
		const auto t0     = std::chrono::steady_clock::now();
		double     su_sum = 0, sd_sum = 0, su_min = 1e30, sd_min = 1e30;
		for ( int r = 0; r < reps; r++ )
		{
			const Rates x = pair.once( d_up, h_up, h_dn, d_dn, bytes );
			su_sum += x.up;
			sd_sum += x.down;
			su_min = std::min( su_min, x.up );
			sd_min = std::min( sd_min, x.down );
		}
		const double secs =
		    std::chrono::duration<double>( std::chrono::steady_clock::now() - t0 ).count();
		const long n = ops.load() - o0;
		stop         = true;
		t.join();
		std::printf(
		    "churn %-8s up %5.1f/%5.1f  down %5.1f/%5.1f  sum %6.1f  (%.0f ops/s beside)\n", kind,
		    su_sum / reps, su_min, sd_sum / reps, sd_min, ( su_sum + sd_sum ) / reps, n / secs );
	}
	cudaFree( d_up );
	cudaFree( d_dn );
	host_free( h_up, bytes, host );
	host_free( h_dn, bytes, host );
	return 0;
}

} /* namespace */

int main( int argc, char** argv )
{
	size_t      mib = 2048, piece_mib = 8;
	int         reps = 3;
	const char* host = "pinned";
	bool   busy_mem = false, no_pace = false, scan_both = false, mixed = false, churned = false;
	size_t d2d_mib = 0, offset = 0, scan_mib = 0;
	Beside with;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !std::strcmp( argv[i], "--mib" ) && i + 1 < argc )
			mib = (size_t)std::atol( argv[++i] );
		else if ( !std::strcmp( argv[i], "--piece-mib" ) && i + 1 < argc )
			piece_mib = (size_t)std::atol( argv[++i] );
		else if ( !std::strcmp( argv[i], "--reps" ) && i + 1 < argc )
			reps = std::max( 1, std::atoi( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--busy-us" ) && i + 1 < argc )
			with.busy_us = std::max( 0.0, std::atof( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--busy-mem" ) )
			busy_mem = true;
		else if ( !std::strcmp( argv[i], "--no-pace" ) )
			no_pace = true;
		else if ( !std::strcmp( argv[i], "--d2d" ) && i + 1 < argc )
			d2d_mib = (size_t)std::atol( argv[++i] );
		else if ( !std::strcmp( argv[i], "--touch-threads" ) && i + 1 < argc )
			touch_threads = std::max( 1, std::atoi( argv[++i] ) );
		else if ( !std::strcmp( argv[i], "--scan" ) && i + 1 < argc )
			scan_mib = (size_t)std::atol( argv[++i] );
		else if ( !std::strcmp( argv[i], "--churn" ) )
			churned = true;
		else if ( !std::strcmp( argv[i], "--mix" ) )
			mixed = true;
		else if ( !std::strcmp( argv[i], "--scan-duplex" ) )
			scan_both = true;
		else if ( !std::strcmp( argv[i], "--offset" ) && i + 1 < argc )
			offset = (size_t)std::atol( argv[++i] );
		else if ( !std::strcmp( argv[i], "--up-streams" ) && i + 1 < argc )
			with.up_streams = std::max( 1, std::min( 2, std::atoi( argv[++i] ) ) );
		else if ( !std::strcmp( argv[i], "--host" ) && i + 1 < argc &&
		          ( !std::strcmp( argv[i + 1], "pinned" ) ||
		            !std::strcmp( argv[i + 1], "registered" ) ||
		            !std::strcmp( argv[i + 1], "registered-4k" ) ) )
			host = argv[++i];
		else
		{
			std::fprintf( stderr,
			              "usage: %s [--mib M] [--piece-mib P] [--reps R] [--busy-us B] "
			              "[--host pinned|registered|registered-4k] [--busy-mem] [--d2d MIB] "
			              "[--up-streams 1|2] [--offset BYTES] [--no-pace] [--scan MIB] "
			              "[--scan-duplex] [--mix] [--churn] [--touch-threads N]\n",
			              argv[0] );
			return 2;
		}
	}
	if ( !have_device() ) return 77;
	cudaDeviceProp prop;
	cudaGetDeviceProperties( &prop, 0 );
	if ( mixed ) return mix( host, mib, reps );
	if ( churned ) return churn( host, mib, reps );
	if ( scan_mib > 0 )
	{
		const size_t gib = (size_t)1 << 30, total = scan_mib << 20;
		char*        h = host_alloc( total, host, touch_threads );
		char*        d = nullptr;
		if ( h == nullptr ) return 1;
		if ( scan_both )
		{
			const int rc = scan_duplex( h, total, host, reps );
			host_free( h, total, host );
			return rc;
		}
		if ( !cuda_ok( cudaMalloc( &d, gib ), "device" ) ) return 1;
		cudaEvent_t e0, e1;
		cudaEventCreate( &e0 );
		cudaEventCreate( &e1 );
		std::printf( "# gpu_probe_duplex --scan: %zu MiB of %s host memory, each GiB up alone\n",
		             scan_mib, host );
		for ( size_t at = 0; at + gib <= total; at += gib )
		{
			float best = 0;
			for ( int r = 0; r <= reps; r++ )
			{
				cudaEventRecord( e0 );
				cudaMemcpyAsync( d, h + at, gib, cudaMemcpyHostToDevice );
				cudaEventRecord( e1 );
				cudaEventSynchronize( e1 );
				float ms = 0;
				cudaEventElapsedTime( &ms, e0, e1 );
				if ( r > 0 && ( best == 0 || ms < best ) ) best = ms;
			}
			std::printf( "scan GiB %3zu  up %6.2f GB/s\n", at / gib,
			             (double)gib / ( best * 1e-3 ) * 1e-9 );
		}
		host_free( h, total, host );
		cudaFree( d );
		return 0;
	}
	Buffers b;
	b.bytes        = mib << 20;
	char* up_mem   = host_alloc( b.bytes + offset, host, touch_threads );
	char* down_mem = host_alloc( b.bytes + offset, host, touch_threads );
	b.h_up         = up_mem ? up_mem + offset : nullptr;
	b.h_down       = down_mem ? down_mem + offset : nullptr;
	if ( b.h_up == nullptr || b.h_down == nullptr ||
	     !cuda_ok( cudaMalloc( &b.d_up, b.bytes ), "device up" ) ||
	     !cuda_ok( cudaMalloc( &b.d_down, b.bytes ), "device down" ) )
		return 1;
	std::memset( b.h_up, 1, b.bytes );
	std::memset( b.h_down, 2, b.bytes );
	cudaMemset( b.d_down, 3, b.bytes );
	const double busy_us = with.busy_us;
	if ( busy_mem )
	{
		with.busy_words = (size_t)1 << 28; /* 4 GiB of float4 */
		if ( !cuda_ok( cudaMalloc( &with.busy_mem, with.busy_words * sizeof( float4 ) ),
		               "busy memory" ) )
			return 1;
	}
	if ( d2d_mib > 0 )
	{
		with.d2d_bytes = d2d_mib << 20;
		if ( !cuda_ok( cudaMalloc( &with.d2d_a, with.d2d_bytes ), "d2d a" ) ||
		     !cuda_ok( cudaMalloc( &with.d2d_b, with.d2d_bytes ), "d2d b" ) )
			return 1;
	}
	Handshake hs;
	void *    go = nullptr, *done = nullptr;
	if ( !load_memops() || !cuda_ok( cudaHostAlloc( &go, 64, cudaHostAllocMapped ), "go" ) ||
	     !cuda_ok( cudaHostAlloc( &done, 64, cudaHostAllocMapped ), "done" ) )
		return 1;
	void *go_dev = nullptr, *done_dev = nullptr;
	cudaHostGetDevicePointer( &go_dev, go, 0 );
	cudaHostGetDevicePointer( &done_dev, done, 0 );
	hs.go       = (volatile unsigned*)go;
	hs.done     = (volatile unsigned*)done;
	hs.go_dev   = (CUdeviceptr)go_dev;
	hs.done_dev = (CUdeviceptr)done_dev;
	std::printf(
	    "# gpu_probe_duplex: %s, %zu MiB each way, download pieces of %zu MiB, best of "
	    "%d, busy blocks of %.0f us%s, %s host memory at offset %zu, d2d %zu MiB, %d upload "
	    "stream(s)\n",
	    prop.name, mib, piece_mib, reps, busy_us, busy_mem ? " streaming memory" : "", host, offset,
	    d2d_mib, with.up_streams );
	const size_t piece     = ( piece_mib > 0 ? piece_mib : 1 ) << 20;
	Rates        up        = run( b, true, false, 0, 0, reps );
	Rates        down      = run( b, false, true, 0, 0, reps );
	Rates        both      = run( b, true, true, 0, 0, reps );
	Rates        busy      = run( b, true, true, 0, 0, reps, Pace::kernel, nullptr, &with );
	Rates        up_beside = run( b, true, false, 0, 0, reps, Pace::kernel, nullptr, &with );
	Rates        dn_beside = run( b, false, true, 0, 0, reps, Pace::kernel, nullptr, &with );
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
	if ( busy_us > 0 || d2d_mib > 0 || with.up_streams > 1 )
		std::printf(
		    "A up alone, beside           %6.2f GB/s\nA down alone, beside         %6.2f GB/s\n",
		    up_beside.up, dn_beside.down );
	if ( busy_us > 0 || d2d_mib > 0 || with.up_streams > 1 )
		std::printf( "B both, unpaced, beside       up %6.2f  down %6.2f  sum %6.2f GB/s;  D "
		             "%.3fx the bound\n",
		             busy.up, busy.down, busy.up + busy.down, flow( busy.up, busy.down ) / bound );
	const double paces[] = { 0, 2, 5, 10, 20, 40, 80 };
	for ( Pace how : { Pace::kernel, Pace::host } )
		for ( double p : paces )
		{
			if ( no_pace ) break;
			if ( how == Pace::kernel && p <= 0 ) continue;
			Rates  c = run( b, true, true, piece, p, reps, how, &hs, &with );
			double t = flow( c.up, c.down );
			std::printf( "%c pause %5.0f us per %zu MiB   up %6.2f  down %6.2f  sum %6.2f GB/s;  D "
			             "%.4f s per GB down, %.3fx the bound\n",
			             how == Pace::kernel ? 'C' : 'H', p, piece_mib, c.up, c.down, c.up + c.down,
			             t, t / bound );
		}
	cudaFree( with.busy_mem );
	cudaFree( with.d2d_a );
	cudaFree( with.d2d_b );
	cudaFreeHost( go );
	cudaFreeHost( done );
	host_free( up_mem, b.bytes + offset, host );
	host_free( down_mem, b.bytes + offset, host );
	cudaFree( b.d_up );
	cudaFree( b.d_down );
	return 0;
}
