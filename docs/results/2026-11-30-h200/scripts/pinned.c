/* Experiment (not part of the library): the benchmark's fields in page-locked memory of
   cudaMallocHost, zeroed from the threads, for HYB_X_PINNED=1 (with the engine's host_pinned). */
#include <cuda_runtime.h>
#include <string.h>

void* hyb_x_pinned_alloc( size_t bytes );
void  hyb_x_pinned_free( void* p );

void* hyb_x_pinned_alloc( size_t bytes )
{
	void* p = NULL;
	if ( cudaMallocHost( &p, bytes ) != cudaSuccess ) return NULL;
#pragma omp parallel for schedule( static )
	for ( size_t i = 0; i < bytes; i += 4096 ) memset( (char*)p + i, 0, bytes - i < 4096 ? bytes - i : 4096 );
	return p;
}

void hyb_x_pinned_free( void* p )
{
	cudaFreeHost( p );
}
