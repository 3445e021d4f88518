/* Experiment (not part of the library): after the benchmark's runs, the duplex rate of each
   GiB of the program's own fields, in the same process, to correlate with the engine's time. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double up, down; } rates_t;

static rates_t once( char* du, const char* hu, char* hd, const char* dd, size_t n, cudaStream_t su,
                     cudaStream_t sd, cudaEvent_t* ev )
{
	rates_t x = { 0, 0 };
	if ( hu ) { cudaEventRecord( ev[0], su ); cudaMemcpyAsync( du, hu, n, cudaMemcpyHostToDevice, su ); cudaEventRecord( ev[1], su ); }
	if ( hd ) { cudaEventRecord( ev[2], sd ); cudaMemcpyAsync( hd, dd, n, cudaMemcpyDeviceToHost, sd ); cudaEventRecord( ev[3], sd ); }
	if ( cudaDeviceSynchronize() != cudaSuccess ) return x;
	float ms = 0;
	if ( hu && cudaEventElapsedTime( &ms, ev[0], ev[1] ) == cudaSuccess && ms > 0 ) x.up = n / ( ms * 1e-3 ) * 1e-9;
	if ( hd && cudaEventElapsedTime( &ms, ev[2], ev[3] ) == cudaSuccess && ms > 0 ) x.down = n / ( ms * 1e-3 ) * 1e-9;
	return x;
}

void hyb_x_bus_scan( void** fields, int nfields, size_t bytes )
{
	const size_t gib = (size_t)1 << 30;
	char *du = NULL, *dd = NULL, *p = NULL;
	if ( cudaMalloc( (void**)&du, gib ) || cudaMalloc( (void**)&dd, gib ) || cudaMallocHost( (void**)&p, gib ) )
	{ printf( "# busscan: no memory\n" ); return; }
	memset( p, 4, gib );
	cudaStream_t su, sd; cudaEvent_t ev[4];
	cudaStreamCreateWithFlags( &su, cudaStreamNonBlocking );
	cudaStreamCreateWithFlags( &sd, cudaStreamNonBlocking );
	for ( int i = 0; i < 4; i++ ) cudaEventCreate( &ev[i] );
	double s_alone = 0, s_up = 0, s_down = 0, s_upd = 0, lo_up = 1e9, hi_up = 0; int cnt = 0;
	for ( int f = 0; f < nfields; f++ )
	{
		if ( !fields[f] ) continue;
		cudaError_t e = cudaHostRegister( fields[f], bytes, cudaHostRegisterDefault );
		if ( e != cudaSuccess ) { printf( "# busscan field %d: register: %s\n", f, cudaGetErrorString( e ) ); cudaGetLastError(); continue; }
		for ( size_t at = 0; at + gib <= bytes; at += gib )
		{
			char* h = (char*)fields[f] + at;
			double a = 0, u = 0, ud = 0, d = 0;
			for ( int r = 0; r <= 2; r++ )
			{
				rates_t x1 = once( du, h, NULL, NULL, gib, su, sd, ev );
				rates_t x2 = once( du, h, p, dd, gib, su, sd, ev );
				rates_t x3 = once( du, p, h, dd, gib, su, sd, ev );
				if ( r == 0 ) continue;
				a += x1.up / 2; u += x2.up / 2; ud += x2.down / 2; d += x3.down / 2;
			}
			printf( "busscan field %d GiB %2zu alone %5.1f up-beside %5.1f (down %5.1f) down-beside %5.1f\n", f, at / gib, a, u, ud, d );
			s_alone += a; s_up += u; s_upd += ud; s_down += d; cnt++;
			if ( u < lo_up ) lo_up = u; if ( u > hi_up ) hi_up = u;
		}
		cudaHostUnregister( fields[f] );
	}
	if ( cnt ) printf( "busscan summary: %d GiB, alone %.2f, up beside a download %.2f (min %.1f max %.1f), that download %.2f, down beside an upload %.2f GB/s\n",
	                   cnt, s_alone / cnt, s_up / cnt, lo_up, hi_up, s_upd / cnt, s_down / cnt );
	cudaFreeHost( p ); cudaFree( du ); cudaFree( dd );
}

void* hyb_x_pinned_alloc( size_t bytes )
{
	void* p = NULL;
	if ( cudaMallocHost( &p, bytes ) != cudaSuccess ) return NULL;
#pragma omp parallel for schedule( static )
	for ( size_t i = 0; i < bytes; i += 4096 ) memset( (char*)p + i, 0, bytes - i < 4096 ? bytes - i : 4096 );
	return p;
}

void hyb_x_pinned_free( void* p ) { cudaFreeHost( p ); }
