/* SPDX-License-Identifier: BSD-3-Clause */
/* The memory-model microbenchmark of issue 24 (seed 004 sec. 4.6, Table 4.2) on today's
   hardware: no-op, add, atomicAdd and atomicAdd_system over device memory, mapped pinned
   host memory and managed memory (with and without prefetch), each thread on its own
   element (no contention), beside the seed's SVM numbers. */

/* Usage: gpu_bench_memmodel [--quick]
     Two sizes: 6144 elements in 64-thread blocks as the seed (the launch dominates; time
     per launch over 1000 launches), and 64 Mi elements (256 MiB, 64-thread blocks; time
     per launch over as many launches as fit 0.3 s, at least 3 unless one takes over 0.1 s,
     and bandwidth). --quick: 100 launches and 4 Mi elements.
   First the device's attributes; a combination the device does not support is marked
   "n/s (reason)" and not run:
     mapped pinned memory           needs canMapHostMemory
     managed memory                 needs managedMemory
     managed with prefetch          needs concurrentManagedAccess (prefetching is a no-op
                                    hint without it)
     atomicAdd_system, mapped       needs hostNativeAtomicSupported: over a link without
                                    native atomics a system-scope atomic on host memory is
                                    not atomic with respect to the CPU
     atomicAdd_system, managed      needs concurrentManagedAccess (CPU and GPU may then
                                    touch the pages at once, which system scope is for)
   Managed memory is allocated far below the free device memory (at most an eighth of it;
   never oversubscribed). Managed without prefetch: the host writes the array (its pages
   on the host), the first launch migrates them ("first" column), later launches find them
   on the device. With prefetch: the host writes, cudaMemPrefetchAsync moves the pages to
   the device, then the launches.
   Check: after R launches every element equals R (0 for the no-op).
   Exit status: 0 all checks pass, 1 a check or a CUDA call failed, 77 no device. */

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tools/bench/hyb_bench_cuda_check.h"

namespace
{

constexpr int kBlock = 64;

enum Op
{
	NOOP = 0,
	ADD,
	ATOMIC,
	ATOMIC_SYSTEM,
	N_OPS
};
enum Mem
{
	DEVICE = 0,
	MAPPED,
	MANAGED,
	MANAGED_PREFETCH,
	N_MEMS
};
const char* const kOpName[N_OPS]   = { "no-op", "add", "atomicAdd", "atomicAdd_system" };
const char* const kMemName[N_MEMS] = { "device", "mapped pinned", "managed", "managed+prefetch" };

/* The seed's Table 4.2 (microseconds; X: not applicable), by operation: REG_BUF,
   SVM (FINE_GRAIN), SVM (ATOMIC). An atomic on its SVM (ATOMIC) buffer is platform-scope,
   the analogue of atomicAdd_system, so that row repeats the 180. */
const char* const kSeed[N_OPS] = { "3 / 3 / 2", "11 / 15 / 22", "14 / X / 180",
	                               "SVM (ATOMIC) atomic_add: 180" };

template <int OP> __global__ void mb_kernel( unsigned* a, int64_t n )
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= n ) return;
	if ( OP == ADD ) a[i] += 1u;
	if ( OP == ATOMIC ) atomicAdd( &a[i], 1u );
	if ( OP == ATOMIC_SYSTEM ) atomicAdd_system( &a[i], 1u );
}

void launch( int op, unsigned* a, int64_t n )
{
	const unsigned grid = (unsigned)( ( n + kBlock - 1 ) / kBlock );
	switch ( op )
	{
	case NOOP:
		mb_kernel<NOOP><<<grid, kBlock>>>( a, n );
		break;
	case ADD:
		mb_kernel<ADD><<<grid, kBlock>>>( a, n );
		break;
	case ATOMIC:
		mb_kernel<ATOMIC><<<grid, kBlock>>>( a, n );
		break;
	default:
		mb_kernel<ATOMIC_SYSTEM><<<grid, kBlock>>>( a, n );
		break;
	}
}

struct Caps
{
	int map_host, managed, concurrent, pageable, host_atomics, pageable_host_tables, direct_managed;
	unsigned host_atomic_add; /* cudaDeviceGetHostAtomicCapabilities, integer add; 0 unknown */
};

Caps query( int dev )
{
	Caps c;
	memset( &c, 0, sizeof c );
	CK_CUDA( cudaDeviceGetAttribute( &c.map_host, cudaDevAttrCanMapHostMemory, dev ) );
	CK_CUDA( cudaDeviceGetAttribute( &c.managed, cudaDevAttrManagedMemory, dev ) );
	CK_CUDA( cudaDeviceGetAttribute( &c.concurrent, cudaDevAttrConcurrentManagedAccess, dev ) );
	CK_CUDA( cudaDeviceGetAttribute( &c.pageable, cudaDevAttrPageableMemoryAccess, dev ) );
	CK_CUDA( cudaDeviceGetAttribute( &c.host_atomics, cudaDevAttrHostNativeAtomicSupported, dev ) );
	CK_CUDA( cudaDeviceGetAttribute( &c.pageable_host_tables,
	                                 cudaDevAttrPageableMemoryAccessUsesHostPageTables, dev ) );
	CK_CUDA( cudaDeviceGetAttribute( &c.direct_managed, cudaDevAttrDirectManagedMemAccessFromHost,
	                                 dev ) );
	const cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
	if ( cudaDeviceGetHostAtomicCapabilities( &c.host_atomic_add, &op, 1, dev ) != cudaSuccess )
	{
		c.host_atomic_add = 0;
		cudaGetLastError();
	}
	return c;
}

/* Why (mem, op) cannot run on this device, or NULL. */
const char* unsupported( const Caps& c, int mem, int op )
{
	if ( mem == MAPPED && !c.map_host ) return "no canMapHostMemory";
	if ( ( mem == MANAGED || mem == MANAGED_PREFETCH ) && !c.managed ) return "no managedMemory";
	if ( mem == MANAGED_PREFETCH && !c.concurrent ) return "no concurrentManagedAccess";
	if ( op == ATOMIC_SYSTEM && mem == MAPPED && !c.host_atomics )
		return "no hostNativeAtomicSupported";
	if ( op == ATOMIC_SYSTEM && mem == MANAGED && !c.concurrent )
		return "no concurrentManagedAccess";
	return nullptr;
}

struct Result
{
	double first_us, per_us, gbs;
};

int g_failures = 0;

/* Run `reps` launches of op over n elements of memory kind mem (reps 0: as many as fit
   0.3 s, at least 3). */
Result run( int dev, int mem, int op, int64_t n, int reps_fixed )
{
	const size_t bytes = (size_t)n * sizeof( unsigned );
	unsigned *   host = nullptr, *dptr = nullptr;
	if ( mem == DEVICE ) CK_CUDA( cudaMalloc( &dptr, bytes ) );
	if ( mem == MAPPED )
	{
		CK_CUDA( cudaHostAlloc( &host, bytes, cudaHostAllocMapped ) );
		CK_CUDA( cudaHostGetDevicePointer( (void**)&dptr, host, 0 ) );
	}
	if ( mem == MANAGED || mem == MANAGED_PREFETCH )
	{
		CK_CUDA( cudaMallocManaged( &dptr, bytes ) );
		host = dptr;
	}
	/* Start from zeros written where the memory kind puts them first. */
	if ( mem == DEVICE )
		CK_CUDA( cudaMemset( dptr, 0, bytes ) );
	else
		memset( host, 0, bytes );
	if ( mem == MANAGED_PREFETCH )
	{
		cudaMemLocation loc;
		loc.type = cudaMemLocationTypeDevice;
		loc.id   = dev;
		CK_CUDA( cudaMemPrefetchAsync( dptr, bytes, loc, 0, 0 ) );
	}
	CK_CUDA( cudaDeviceSynchronize() );
	cudaEvent_t e0, e1, e2;
	CK_CUDA( cudaEventCreate( &e0 ) );
	CK_CUDA( cudaEventCreate( &e1 ) );
	CK_CUDA( cudaEventCreate( &e2 ) );
	CK_CUDA( cudaEventRecord( e0 ) );
	launch( op, dptr, n );
	CK_CUDA( cudaGetLastError() );
	CK_CUDA( cudaEventRecord( e1 ) );
	CK_CUDA( cudaEventSynchronize( e1 ) );
	float first = 0.0f;
	CK_CUDA( cudaEventElapsedTime( &first, e0, e1 ) );
	/* One more launch sizes the timed batch. */
	CK_CUDA( cudaEventRecord( e0 ) );
	launch( op, dptr, n );
	CK_CUDA( cudaEventRecord( e1 ) );
	CK_CUDA( cudaEventSynchronize( e1 ) );
	float one = 0.0f;
	CK_CUDA( cudaEventElapsedTime( &one, e0, e1 ) );
	/* At least 3 launches, but a single one where a launch takes over 0.1 s (atomics over
	   PCIe on the large array), so the whole program stays well under a minute. */
	const int reps =
	    reps_fixed > 0 ? reps_fixed
	    : one > 100.0f ? 1
	                   : std::max( 3, std::min( 1000, (int)( 300.0f / std::max( one, 1e-3f ) ) ) );
	CK_CUDA( cudaEventRecord( e1 ) );
	for ( int r = 0; r < reps; r++ ) launch( op, dptr, n );
	CK_CUDA( cudaGetLastError() );
	CK_CUDA( cudaEventRecord( e2 ) );
	CK_CUDA( cudaEventSynchronize( e2 ) );
	float ms = 0.0f;
	CK_CUDA( cudaEventElapsedTime( &ms, e1, e2 ) );
	/* The check: every element counted every launch (2 + reps of them). */
	const unsigned want = op == NOOP ? 0u : (unsigned)( 2 + reps );
	unsigned*      chk  = host;
	unsigned*      buf  = nullptr;
	if ( mem == DEVICE )
	{
		buf = (unsigned*)malloc( bytes );
		CK_CUDA( cudaMemcpy( buf, dptr, bytes, cudaMemcpyDeviceToHost ) );
		chk = buf;
	}
	int64_t bad = 0;
	for ( int64_t i = 0; i < n; i++ ) bad += chk[i] != want;
	if ( bad )
	{
		fprintf( stderr, "WRONG: %s, %s, n = %lld: %lld elements differ from %u\n", kMemName[mem],
		         kOpName[op], (long long)n, (long long)bad, want );
		g_failures++;
	}
	free( buf );
	CK_CUDA( cudaEventDestroy( e0 ) );
	CK_CUDA( cudaEventDestroy( e1 ) );
	CK_CUDA( cudaEventDestroy( e2 ) );
	if ( mem == MAPPED )
		CK_CUDA( cudaFreeHost( host ) );
	else
		CK_CUDA( cudaFree( dptr ) );
	const double per = 1e-3 * ms / reps;
	/* Bytes each launch moves: a read and a write of each element (none for the no-op). */
	const double moved = op == NOOP ? 0.0 : 2.0 * (double)bytes;
	return { 1e3 * first, 1e6 * per, moved / per * 1e-9 };
}

} // namespace

int main( int argc, char** argv )
{
	const bool quick = argc > 1 && strcmp( argv[1], "--quick" ) == 0;
	int        ndev  = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev == 0 )
	{
		printf( "gpu_bench_memmodel: no CUDA device; skipped\n" );
		return 77;
	}
	const int dev = 0;
	CK_CUDA( cudaSetDevice( dev ) );
	cudaDeviceProp prop;
	CK_CUDA( cudaGetDeviceProperties( &prop, dev ) );
	const Caps c = query( dev );
	printf( "# gpu_bench_memmodel: %s (CC %d.%d)\n", prop.name, prop.major, prop.minor );
	printf( "# attributes: canMapHostMemory %d, managedMemory %d, concurrentManagedAccess %d, "
	        "pageableMemoryAccess %d (uses host page tables %d), hostNativeAtomicSupported %d, "
	        "directManagedMemAccessFromHost %d, host atomic capabilities (integer add) 0x%x\n",
	        c.map_host, c.managed, c.concurrent, c.pageable, c.pageable_host_tables, c.host_atomics,
	        c.direct_managed, c.host_atomic_add );
	size_t fr = 0, tot = 0;
	CK_CUDA( cudaMemGetInfo( &fr, &tot ) );
	int64_t big = quick ? ( (int64_t)4 << 20 ) : ( (int64_t)64 << 20 );
	/* Never oversubscribe: at most an eighth of the free memory per array. */
	while ( big > 6144 && (double)big * sizeof( unsigned ) > (double)fr / 8.0 ) big /= 2;
	const int64_t sizes[2] = { 6144, big };
	printf( "# blocks of %d threads, one element per thread; times per launch in microseconds "
	        "(CUDA events); "
	        "\"first\": the first launch on freshly written memory\n",
	        kBlock );
	printf( "%-10s %-17s %-16s | %12s %12s %10s | %s\n", "elements", "memory", "operation",
	        "first us", "per launch us", "GB/s",
	        "seed Table 4.2 (REG_BUF / SVM FINE_GRAIN / SVM ATOMIC), us" );
	for ( int si = 0; si < 2; si++ )
		for ( int op = 0; op < N_OPS; op++ )
			for ( int mem = 0; mem < N_MEMS; mem++ )
			{
				const char* why = unsupported( c, mem, op );
				printf( "%-10lld %-17s %-16s | ", (long long)sizes[si], kMemName[mem],
				        kOpName[op] );
				if ( why )
				{
					printf( "%12s %12s %10s | not supported: %s\n", "n/s", "n/s", "", why );
					printf( "csv,memmodel,%lld,%s,%s,n/s (%s)\n", (long long)sizes[si],
					        kMemName[mem], kOpName[op], why );
					continue;
				}
				const Result r =
				    run( dev, mem, op, sizes[si], si == 0 ? ( quick ? 100 : 1000 ) : 0 );
				printf( "%12.2f %12.2f %10.1f | %s\n", r.first_us, r.per_us, si == 1 ? r.gbs : 0.0,
				        mem == 0 && si == 0 ? kSeed[op] : "" );
				printf( "csv,memmodel,%lld,%s,%s,%.3f,%.3f,%.2f\n", (long long)sizes[si],
				        kMemName[mem], kOpName[op], r.first_us, r.per_us, r.gbs );
				fflush( stdout );
			}
	printf( "# seed (AMD A10-7850K APU, OpenCL 2.0, 6144 elements, 64 per work-group): no-op 3 / 3 "
	        "/ 2 us, "
	        "add 11 / 15 / 22 us, atomic_add 14 / X / 180 us (X: not applicable)\n" );
	printf( "%s: %d failed check(s)\n", g_failures ? "FAILED" : "PASSED", g_failures );
	return g_failures ? 1 : 0;
}
