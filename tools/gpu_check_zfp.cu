/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU check of the CUDA ZFP codec: every test field at every test rate
   encoded and decoded on the device, bit for bit against the host codec and
   (when built with it) libzfp, a slab of a padded array in place, then the
   throughput of encode and decode on large fields (CUDA events, median of
   repetitions, GB/s of uncompressed data) beside a device-to-device copy of
   the same bytes. libzfp is the CPU codec's (opened at run time): where it
   cannot be opened the check says so and compares with the host codec only,
   which the unit suites hold bit-exact with libzfp. Exits 0 when every
   result is bit-exact, 1 when one is not, 77 without a device.
   Usage: gpu_check_zfp [--quick] [--reps N] [--csv FILE] */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "kernels/zfp/hyb_zfp_cpu.h"
#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_kargs.h"
#include "unit/zfp/test_zfp_cases.h"
#include "tools/bench/hyb_bench_cuda_check.h"

/* Device buffers reused by every case (the largest case decides). */
struct gc_bufs
{
	void*        field;
	void*        stream;
	size_t       field_cap, stream_cap;
	cudaStream_t st;
};

static hyb_kernel_env_t gc_env( const gc_bufs* b )
{
	hyb_kernel_env_t env;
	env.stream  = (void*)b->st;
	env.blas    = NULL;
	env.sparse  = NULL;
	env.ordinal = 0;
	return env;
}

/* The device's stream of `values` and its decode of `ref` (a correct
   stream), back on the host. */
static bool gc_device( gc_bufs* b, const hyb_zfp_field_t* f, double rate, const void* values,
                       size_t vbytes, const void* ref, void* stream_out, void* values_out )
{
	const size_t     bytes = hyb_zfp_stream_bytes( f, rate );
	hyb_kernel_env_t env   = gc_env( b );
	CK_CUDA( cudaMemcpyAsync( b->field, values, vbytes, cudaMemcpyHostToDevice, b->st ) );
	CK_CUDA( cudaMemsetAsync( b->stream, 0xa5, bytes + 8, b->st ) );
	hyb_zfp_encode_args_t e = { *f, rate, b->field, b->stream };
	if ( hyb_zfp_encode_cuda( &env, &e ) != HYB_OK ) return false;
	CK_CUDA( cudaMemcpyAsync( stream_out, b->stream, bytes + 8, cudaMemcpyDeviceToHost, b->st ) );
	/* decode the reference stream into a field full of a marker */
	CK_CUDA( cudaMemcpyAsync( b->stream, ref, bytes, cudaMemcpyHostToDevice, b->st ) );
	CK_CUDA( cudaMemsetAsync( b->field, 0x7f, vbytes, b->st ) );
	hyb_zfp_decode_args_t d = { *f, rate, b->stream, b->field };
	if ( hyb_zfp_decode_cuda( &env, &d ) != HYB_OK ) return false;
	CK_CUDA( cudaMemcpyAsync( values_out, b->field, vbytes, cudaMemcpyDeviceToHost, b->st ) );
	CK_CUDA( cudaStreamSynchronize( b->st ) );
	return true;
}

/* Every case at every rate (every 5th rate with --quick). */
static size_t gc_cases( gc_bufs* b, bool quick, size_t* runs )
{
	const bool lib   = hyb_zfp_cpu_available();
	size_t     fails = 0;
	for ( size_t i = 0; i < hyb_zc_count(); i++ )
	{
		hyb_zc_case_t              c      = hyb_zc_get( i );
		const size_t               vbytes = hyb_zc_values( &c ) * hyb_zfp_type_size( c.f.type );
		std::vector<unsigned char> values( vbytes ), ref_dec( vbytes ), dev_dec( vbytes ),
		    lib_dec( vbytes );
		hyb_zc_fill( &c, values.data() );
		size_t        nr;
		const double* rates = hyb_zc_rates( c.f.type, &nr );
		for ( size_t r = 0; r < nr; r += quick ? 5 : 1 )
		{
			const size_t          bytes = hyb_zfp_stream_bytes( &c.f, rates[r] );
			std::vector<uint64_t> ref( bytes / 8 + 2 ), dev( bytes / 8 + 2 ), zl( bytes / 8 + 2 );
			hyb_zfp_host_encode( &c.f, rates[r], values.data(), ref.data(), bytes );
			hyb_zfp_host_decode( &c.f, rates[r], ref.data(), bytes, ref_dec.data() );
			bool ok = gc_device( b, &c.f, rates[r], values.data(), vbytes, ref.data(), dev.data(),
			                     dev_dec.data() );
			ok      = ok && memcmp( ref.data(), dev.data(), bytes ) == 0;
			/* nothing written past the stream's last byte */
			for ( size_t k = bytes; k < bytes + 8; k++ )
				ok = ok && ( (unsigned char*)dev.data() )[k] == 0xa5;
			ok = ok && memcmp( ref_dec.data(), dev_dec.data(), vbytes ) == 0;
			if ( lib )
			{
				ok = ok &&
				     hyb_zfp_cpu_encode( &c.f, rates[r], values.data(), zl.data(), bytes ) ==
				         HYB_OK &&
				     memcmp( zl.data(), dev.data(), bytes ) == 0;
				ok = ok &&
				     hyb_zfp_cpu_decode( &c.f, rates[r], zl.data(), bytes, lib_dec.data() ) ==
				         HYB_OK &&
				     memcmp( lib_dec.data(), dev_dec.data(), vbytes ) == 0;
			}
			++*runs;
			if ( !ok && fails++ < 20 )
				printf( "MISMATCH %s %uD %lldx%lldx%lld %s rate %g\n",
				        c.f.type == HYB_ZFP_FLOAT ? "float" : "double", c.f.dims, (long long)c.f.nx,
				        (long long)c.f.ny, (long long)c.f.nz, hyb_zc_kind_name( c.kind ),
				        rates[r] );
		}
	}
	return fails;
}

/* A slab in place: rows [y0, y1) of a padded 2-D array and z-planes of a
   3-D one, encoded from and decoded into the parent on the device. */
static size_t gc_slabs( gc_bufs* b )
{
	size_t fails = 0;
	for ( unsigned dims = 2; dims <= 3; dims++ )
	{
		const int64_t      nx = 301, ny = 97, nz = dims == 3 ? 21 : 1, pitch = 320;
		const size_t       n = (size_t)( pitch * ny * nz );
		std::vector<float> parent( n ), back( n ), devback( n );
		for ( size_t i = 0; i < n; i++ ) parent[i] = (float)( ( i * 2654435761u ) % 1000 ) * 0.001f;
		hyb_zfp_field_t s         = dims == 2 ? hyb_zfp_field_2d( HYB_ZFP_FLOAT, nx, 48 )
		                                      : hyb_zfp_field_3d( HYB_ZFP_FLOAT, nx, ny, 8 );
		s.sy                      = pitch;
		s.sz                      = pitch * ny;
		const size_t          off = dims == 2 ? (size_t)( 24 * pitch ) : (size_t)( 8 * pitch * ny );
		const double          rate  = 12;
		const size_t          bytes = hyb_zfp_stream_bytes( &s, rate );
		std::vector<uint64_t> ref( bytes / 8 + 1 ), dev( bytes / 8 + 1 );
		hyb_zfp_host_encode( &s, rate, parent.data() + off, ref.data(), bytes );
		back = parent;
		hyb_zfp_host_decode( &s, rate, ref.data(), bytes, back.data() + off );

		hyb_kernel_env_t env = gc_env( b );
		CK_CUDA( cudaMemcpyAsync( b->field, parent.data(), n * 4, cudaMemcpyHostToDevice, b->st ) );
		hyb_zfp_encode_args_t e  = { s, rate, (float*)b->field + off, b->stream };
		hyb_zfp_decode_args_t d  = { s, rate, b->stream, (float*)b->field + off };
		bool                  ok = hyb_zfp_encode_cuda( &env, &e ) == HYB_OK;
		CK_CUDA( cudaMemcpyAsync( dev.data(), b->stream, bytes, cudaMemcpyDeviceToHost, b->st ) );
		ok = ok && hyb_zfp_decode_cuda( &env, &d ) == HYB_OK;
		CK_CUDA(
		    cudaMemcpyAsync( devback.data(), b->field, n * 4, cudaMemcpyDeviceToHost, b->st ) );
		CK_CUDA( cudaStreamSynchronize( b->st ) );
		ok = ok && memcmp( ref.data(), dev.data(), bytes ) == 0 &&
		     memcmp( back.data(), devback.data(), n * 4 ) == 0;
		printf( "slab %uD in place (pitch %lld): %s\n", dims, (long long)pitch,
		        ok ? "bit-exact" : "MISMATCH" );
		fails += !ok;
	}
	return fails;
}

/* Median of `reps` timings of op (0 encode, 1 decode, 2 copy) in ms. */
static double gc_time( gc_bufs* b, int op, const hyb_zfp_field_t* f, double rate, size_t vbytes,
                       int reps )
{
	hyb_kernel_env_t      env = gc_env( b );
	hyb_zfp_encode_args_t e   = { *f, rate, b->field, b->stream };
	hyb_zfp_decode_args_t d   = { *f, rate, b->stream, b->field };
	cudaEvent_t           t0, t1;
	CK_CUDA( cudaEventCreate( &t0 ) );
	CK_CUDA( cudaEventCreate( &t1 ) );
	std::vector<double> ms;
	for ( int i = 0; i <= reps; i++ )
	{
		CK_CUDA( cudaEventRecord( t0, b->st ) );
		hyb_status_t st = HYB_OK;
		if ( op == 0 )
			st = hyb_zfp_encode_cuda( &env, &e );
		else if ( op == 1 )
			st = hyb_zfp_decode_cuda( &env, &d );
		else
			CK_CUDA( cudaMemcpyAsync( (char*)b->field + b->field_cap / 2, b->field, vbytes,
			                          cudaMemcpyDeviceToDevice, b->st ) );
		if ( st != HYB_OK ) return -1;
		CK_CUDA( cudaEventRecord( t1, b->st ) );
		CK_CUDA( cudaEventSynchronize( t1 ) );
		float t;
		CK_CUDA( cudaEventElapsedTime( &t, t0, t1 ) );
		if ( i > 0 ) ms.push_back( t ); /* the first run warms up */
	}
	CK_CUDA( cudaEventDestroy( t0 ) );
	CK_CUDA( cudaEventDestroy( t1 ) );
	std::sort( ms.begin(), ms.end() );
	return ms[ms.size() / 2];
}

struct gc_perf
{
	const char*     name;
	hyb_zfp_field_t f;
	double          rate;
};

/* Throughput, and the large field's bit-exactness against the host codec. */
static size_t gc_throughput( gc_bufs* b, bool quick, int reps, FILE* csv )
{
	const int64_t big    = quick ? 8192 : 16384;
	gc_perf       runs[] = {
		      { "float 2D", hyb_zfp_field_2d( HYB_ZFP_FLOAT, big, big ), 16 },
		      { "float 2D", hyb_zfp_field_2d( HYB_ZFP_FLOAT, big, big ), 8 },
		      { "float 2D", hyb_zfp_field_2d( HYB_ZFP_FLOAT, big, big ), 12 },
		      { "float 2D", hyb_zfp_field_2d( HYB_ZFP_FLOAT, big, big ), 32 },
		      { "double 2D", hyb_zfp_field_2d( HYB_ZFP_DOUBLE, big, big / 2 ), 32 },
		      { "float 3D", hyb_zfp_field_3d( HYB_ZFP_FLOAT, 512, 512, quick ? 256 : 1024 ), 16 },
		      { "double 3D", hyb_zfp_field_3d( HYB_ZFP_DOUBLE, 512, 512, quick ? 128 : 512 ), 32 },
	};
	size_t fails = 0;
	printf( "\n%-10s %14s %5s %8s %10s %10s %10s %10s %10s %10s\n", "field", "size", "rate", "GiB",
	        "enc ms", "enc GB/s", "dec ms", "dec GB/s", "copy GB/s", "exact" );
	if ( csv )
		fprintf( csv, "field,nx,ny,nz,rate,bytes,encode_ms,encode_gbps,decode_ms,decode_gbps,copy_"
		              "gbps,exact\n" );
	for ( const gc_perf& p : runs )
	{
		const size_t vbytes = (size_t)( p.f.nx * p.f.ny * p.f.nz ) * hyb_zfp_type_size( p.f.type );
		const size_t bytes  = hyb_zfp_stream_bytes( &p.f, p.rate );
		/* a smooth field with noise, filled on the host once per size */
		std::vector<unsigned char> host( vbytes );
		const size_t               n = vbytes / hyb_zfp_type_size( p.f.type );
		for ( size_t i = 0; i < n; i++ )
		{
			double x = (double)( i % (size_t)p.f.nx ), y = (double)( i / (size_t)p.f.nx );
			double v = 1e-3 * x + 2e-3 * y + 1e-4 * (double)( ( i * 2654435761u ) % 997 );
			if ( p.f.type == HYB_ZFP_FLOAT )
				( (float*)host.data() )[i] = (float)v;
			else
				( (double*)host.data() )[i] = v;
		}
		CK_CUDA( cudaMemcpy( b->field, host.data(), vbytes, cudaMemcpyHostToDevice ) );
		double enc = gc_time( b, 0, &p.f, p.rate, vbytes, reps );
		/* the device stream against the host codec's */
		std::vector<uint64_t> dev( bytes / 8 + 1 ), ref( bytes / 8 + 1 );
		CK_CUDA( cudaMemcpy( dev.data(), b->stream, bytes, cudaMemcpyDeviceToHost ) );
		hyb_zfp_host_encode( &p.f, p.rate, host.data(), ref.data(), bytes );
		bool                       exact = memcmp( dev.data(), ref.data(), bytes ) == 0;
		double                     dec   = gc_time( b, 1, &p.f, p.rate, vbytes, reps );
		std::vector<unsigned char> back( vbytes ), hback( vbytes );
		CK_CUDA( cudaMemcpy( back.data(), b->field, vbytes, cudaMemcpyDeviceToHost ) );
		hyb_zfp_host_decode( &p.f, p.rate, ref.data(), bytes, hback.data() );
		exact       = exact && memcmp( back.data(), hback.data(), vbytes ) == 0;
		double copy = gc_time( b, 2, &p.f, p.rate, vbytes, reps );
		fails += !exact || enc < 0 || dec < 0;
		char size[48];
		snprintf( size, sizeof size, p.f.dims == 2 ? "%lldx%lld" : "%lldx%lldx%lld",
		          (long long)p.f.nx, (long long)p.f.ny, (long long)p.f.nz );
		printf( "%-10s %14s %5g %8.2f %10.3f %10.1f %10.3f %10.1f %10.1f %10s\n", p.name, size,
		        p.rate, (double)vbytes / ( 1 << 30 ), enc, (double)vbytes / enc / 1e6, dec,
		        (double)vbytes / dec / 1e6, 2.0 * (double)vbytes / copy / 1e6,
		        exact ? "yes" : "NO" );
		if ( csv )
			fprintf( csv, "%s,%lld,%lld,%lld,%g,%zu,%.4f,%.2f,%.4f,%.2f,%.2f,%d\n", p.name,
			         (long long)p.f.nx, (long long)p.f.ny, (long long)p.f.nz, p.rate, vbytes, enc,
			         (double)vbytes / enc / 1e6, dec, (double)vbytes / dec / 1e6,
			         2.0 * (double)vbytes / copy / 1e6, exact );
	}
	printf(
	    "(GB/s: uncompressed bytes per second, 1e9; copy: a device-to-device copy of the field, "
	    "bytes read + written)\n" );
	return fails;
}

int main( int argc, char** argv )
{
	bool        quick = false;
	int         reps  = 11;
	const char* csvp  = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !strcmp( argv[i], "--quick" ) )
			quick = true;
		else if ( !strcmp( argv[i], "--reps" ) && i + 1 < argc )
			reps = atoi( argv[++i] ) > 0 ? atoi( argv[i] ) : 11;
		else if ( !strcmp( argv[i], "--csv" ) && i + 1 < argc )
			csvp = argv[++i];
		else
		{
			fprintf( stderr, "usage: %s [--quick] [--reps N] [--csv FILE]\n", argv[0] );
			return 2;
		}
	}
	int ndev = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev == 0 )
	{
		printf( "gpu_check_zfp: no CUDA device, skipped\n" );
		return 77;
	}
	cudaDeviceProp prop;
	CK_CUDA( cudaGetDeviceProperties( &prop, 0 ) );
	const bool lib = hyb_zfp_cpu_available();
	printf( "device: %s (sm_%d%d), libzfp: %s\n", prop.name, prop.major, prop.minor,
	        lib ? hyb_zfp_cpu_version() : "not available (host codec only)" );

	gc_bufs b;
	/* the largest timed field (16384^2 float = 1 GiB; 512^3 float = 512 MiB,
	   doubled for the copy's destination) */
	b.field_cap  = (size_t)2 << 30;
	b.stream_cap = ( (size_t)1 << 30 ) + 64;
	CK_CUDA( cudaMalloc( &b.field, b.field_cap ) );
	CK_CUDA( cudaMalloc( &b.stream, b.stream_cap ) );
	CK_CUDA( cudaStreamCreateWithFlags( &b.st, cudaStreamNonBlocking ) );

	size_t runs  = 0;
	size_t fails = gc_cases( &b, quick, &runs );
	printf( "test fields: %zu encodes and %zu decodes, %zu mismatches (against the host codec%s)\n",
	        runs, runs, fails, lib ? " and libzfp" : "" );
	fails += gc_slabs( &b );
	FILE* csv = csvp ? fopen( csvp, "w" ) : NULL;
	fails += gc_throughput( &b, quick, reps, csv );
	if ( csv ) fclose( csv );

	CK_CUDA( cudaStreamDestroy( b.st ) );
	CK_CUDA( cudaFree( b.field ) );
	CK_CUDA( cudaFree( b.stream ) );
	printf( "%s\n", fails ? "FAILED" : "all bit-exact" );
	return fails ? 1 : 0;
}
