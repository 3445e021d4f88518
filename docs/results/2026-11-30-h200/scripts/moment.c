/* Experiment (not part of the library): the bus's pinned rates at the moment of each
   stencil run, measured as hyblas-calibrate measures them (512 MiB, best of three: up
   alone, down alone, both at once on two streams), right before and right after the run. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

void hyb_x_moment( const char* when );

static double now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void hyb_x_moment( const char* when )
{
	static char *dev, *host;
	static cudaStream_t up, down;
	const size_t n = (size_t)512 << 20;
	if ( !dev && ( cudaMalloc( (void**)&dev, 2 * n ) || cudaMallocHost( (void**)&host, 2 * n ) ||
	               cudaStreamCreateWithFlags( &up, cudaStreamNonBlocking ) ||
	               cudaStreamCreateWithFlags( &down, cudaStreamNonBlocking ) ) )
	{
		fprintf( stderr, "exp moment: no memory\n" );
		dev = NULL;
		return;
	}
	double best[3] = { 1e30, 1e30, 1e30 };
	for ( int r = 0; r < 3; r++ )
		for ( int m = 0; m < 3; m++ )
		{
			const double t0 = now();
			if ( m != 1 ) cudaMemcpyAsync( dev, host, n, cudaMemcpyHostToDevice, up );
			if ( m != 0 ) cudaMemcpyAsync( host + n, dev + n, n, cudaMemcpyDeviceToHost, down );
			cudaStreamSynchronize( up );
			cudaStreamSynchronize( down );
			const double dt = now() - t0;
			if ( dt < best[m] ) best[m] = dt;
		}
	fprintf( stderr, "exp moment %s h2d %.2f d2h %.2f both %.2f\n", when, n / best[0] * 1e-9,
	         n / best[1] * 1e-9, 2.0 * n / best[2] * 1e-9 );
}
