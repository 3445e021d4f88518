/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU check of the stencil family's CUDA launchers: every stencil in both
   element types is run through its schedule on the device (in core, and
   out of core with intermediate copying, direct mapping and region
   sharing, d = 1 .. 4, odd and even k, T not a multiple of k), one stream
   issuing the steps in order, and checked:
     - the device schemes agree bit for bit (same kernels on the same
       inputs, whatever the buffer and range);
     - each agrees with the OpenMP CPU path within the tolerance of
       docs/stencil.md: max |gpu - cpu| <= 8 T m eps max |cpu| (m stencil
       points, eps of the element type), and Himeno's residual within the
       bound derived there from the field difference;
     - the launchers reject bad arguments without queuing anything.
   Then (unless --quick) times each kernel on a resident domain and prints
   its rate in points/s and the memory traffic the cost model assumes.
   Exit 0 all correct, 1 a wrong result or an error, 77 no device.
   Usage: gpu_check_stencil [--quick] */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

extern "C"
{
#include "kernels/stencil/hyb_stencil_cpurun.h"
#include "kernels/stencil/hyb_stencil_data.h"
#include "kernels/stencil/hyb_stencil_exec.h"
#include "kernels/stencil/hyb_stencil_sched.h"
#include "policies/stencil/hyb_stencil_defaults.h"
#include "policies/stencil/hyb_stencil_model.h"
}
#include "kernels/stencil/hyb_stencil_cuda.h"
#include "tools/bench/hyb_bench_cuda_check.h"

namespace
{

int g_fail = 0;

/* ------------------------------------------------------------------ device operations */

struct Dev
{
	cudaStream_t stream;
};

void* dev_alloc( void* ctx, size_t bytes, int host )
{
	(void)ctx;
	void* p = nullptr;
	if ( ( host ? cudaMallocHost( &p, bytes ? bytes : 1 ) : cudaMalloc( &p, bytes ? bytes : 1 ) ) !=
	     cudaSuccess )
		return nullptr;
	return p;
}

void dev_release( void* ctx, void* p, int host )
{
	(void)ctx;
	if ( host )
		cudaFreeHost( p );
	else
		cudaFree( p );
}

hyb_status_t dev_copy( void* ctx, int stream, void* dst, const void* src, size_t bytes, int dir )
{
	(void)stream;
	Dev* d = static_cast<Dev*>( ctx );
	if ( dir == HYB_SX_H2H )
	{
		/* A host copy runs after everything queued before it. */
		if ( cudaStreamSynchronize( d->stream ) != cudaSuccess ) return HYB_E_DEVICE;
		std::memmove( dst, src, bytes );
		return HYB_OK;
	}
	return cudaMemcpyAsync( dst, src, bytes, cudaMemcpyDefault, d->stream ) == cudaSuccess
	           ? HYB_OK
	           : HYB_E_DEVICE;
}

hyb_status_t dev_compute( void* ctx, int stream, int32_t kind, const hyb_stencil_args_t* a )
{
	(void)stream;
	hyb_kernel_env_t env;
	std::memset( &env, 0, sizeof env );
	env.stream = static_cast<Dev*>( ctx )->stream;
	switch ( kind )
	{
	case HYB_STENCIL_ACOUSTIC:
		return hyb_stencil_acoustic_cuda( &env, a );
	case HYB_STENCIL_HIMENO:
		return hyb_stencil_himeno_cuda( &env, a );
	case HYB_STENCIL_LAPLACE:
		return hyb_stencil_laplace_cuda( &env, a );
	case HYB_STENCIL_STAR:
		return hyb_stencil_star_cuda( &env, a );
	case HYB_STENCIL_WAVE:
		return hyb_stencil_wave_cuda( &env, a );
	default:
		return HYB_E_INVALID;
	}
}

hyb_status_t dev_finish( void* ctx )
{
	return cudaStreamSynchronize( static_cast<Dev*>( ctx )->stream ) == cudaSuccess ? HYB_OK
	                                                                                : HYB_E_DEVICE;
}

/* ------------------------------------------------------------------ problems */

struct Prob
{
	hyb_stencil_prob_t             p;
	std::vector<std::vector<char>> mem;
};

void make( Prob& q, int32_t kind, int32_t elem, int64_t nx, int64_t ny, int64_t nz, int32_t r )
{
	hyb_stencil_prob_t& p = q.p;
	std::memset( &p, 0, sizeof p );
	p.kind    = kind;
	p.elem    = elem;
	p.dims    = ny == 1 ? 2 : 3;
	p.radius  = r;
	p.nx      = nx;
	p.ny      = ny;
	p.nz      = nz;
	p.nfields = hyb_stencil_nfields( kind );
	p.dx = p.dy = p.dz = HYB_ACOUSTIC_DEF_DX;
	p.dt               = HYB_ACOUSTIC_DEF_COURANT * HYB_ACOUSTIC_DEF_DX / HYB_ACOUSTIC_DEF_VEL;
	p.omega            = HYB_HIMENO_DEF_OMEGA;
	if ( kind == HYB_STENCIL_WAVE )
	{
		/* Unequal spacings and damping, so that every coefficient counts. */
		p.dx      = 1.0;
		p.dy      = 1.5;
		p.speed   = 1.0;
		p.damping = 0.1;
		p.dt      = hyb_stencil_wave_dt( p.speed, p.dx, p.dy );
	}
	if ( kind == HYB_STENCIL_STAR )
	{
		/* An averaging star: weights 1, 2, ... summing to 0.9, centre 0.1. */
		double sum = 0.0, w = 1.0;
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * r; j++ )
				if ( !( a == 1 && p.dims == 2 ) ) sum += p.coef[a][j] = w++;
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * r; j++ ) p.coef[a][j] *= 0.9 / sum;
		p.center = 0.1;
	}
	const size_t bytes = (size_t)( nx * ny * nz * hyb_stencil_elem_bytes( elem ) );
	q.mem.assign( p.nfields, std::vector<char>( bytes ) );
	for ( int f = 0; f < p.nfields; f++ ) p.field[f] = q.mem[f].data();
	hyb_stencil_fill( &p );
}

void clone( const Prob& a, Prob& b )
{
	b.p   = a.p;
	b.mem = a.mem;
	for ( int f = 0; f < b.p.nfields; f++ ) b.p.field[f] = b.mem[f].data();
}

double at( const hyb_stencil_prob_t& p, int f, int64_t i )
{
	return p.elem == HYB_STENCIL_F64 ? static_cast<const double*>( p.field[f] )[i]
	                                 : (double)static_cast<const float*>( p.field[f] )[i];
}

/* The result fields of a kind: acoustic PREV and CUR, wave P and Q, else
   the first; result i is field result( p, i ). */
int nresult( const hyb_stencil_prob_t& p )
{
	return p.kind == HYB_STENCIL_ACOUSTIC || p.kind == HYB_STENCIL_WAVE ? 2 : 1;
}

int result( const hyb_stencil_prob_t& p, int i )
{
	if ( p.kind == HYB_STENCIL_WAVE ) return i ? HYB_WAVE_Q : HYB_WAVE_P;
	return i;
}

int points( const hyb_stencil_prob_t& p )
{
	switch ( p.kind )
	{
	case HYB_STENCIL_ACOUSTIC:
		return 25;
	case HYB_STENCIL_HIMENO:
		return 19;
	case HYB_STENCIL_LAPLACE:
		return 5;
	case HYB_STENCIL_WAVE:
		/* The Laplacian's five terms, then q's and p's updates. */
		return 9;
	default:
		return 2 * ( p.dims ) * p.radius + 1;
	}
}

/* Run schedule `in` on the device for a copy of `init`; the residual too. */
bool run_device( const Prob& init, const hyb_stencil_sched_in_t& in, Dev& dev, Prob& out,
                 double* gosa )
{
	clone( init, out );
	hyb_stencil_sched_t s;
	if ( hyb_stencil_sched_build( &in, &s ) != HYB_OK ) return false;
	const hyb_stencil_exec_ops_t ops = { &dev,     dev_alloc,   dev_release,
		                                 dev_copy, dev_compute, dev_finish };
	hyb_stencil_exec_t           ex;
	bool                         ok = hyb_stencil_exec_init( &ex, &ops, &out.p, &s ) == HYB_OK;
	ok = ok && hyb_stencil_exec_run( &ex, &s, nullptr, -1, nullptr ) == HYB_OK;
	ok = ok && hyb_stencil_exec_residual( &ex, gosa ) == HYB_OK;
	hyb_stencil_exec_free( &ex );
	hyb_stencil_sched_free( &s );
	return ok;
}

struct Case
{
	int32_t     kind;
	int64_t     nx, ny, nz;
	int32_t     r;
	const char* name;
};

void check_case( const Case& c, int32_t elem, int64_t T, Dev& dev )
{
	Prob init;
	make( init, c.kind, elem, c.nx, c.ny, c.nz, c.r );
	hyb_stencil_roles_t roles;
	hyb_stencil_roles( c.kind, &roles );
	Prob   ref;
	double gref = 0.0;
	clone( init, ref );
	if ( hyb_stencil_cpu_run( &ref.p, T, 0, &gref ) != HYB_OK )
	{
		std::printf( "FAIL %s: CPU path\n", c.name );
		g_fail = 1;
		return;
	}
	/* (scheme, d, k): in core in pieces, then out of core. */
	const int32_t plans[][3] = {
		{ HYB_STENCIL_SCH_IN_CORE, 4, 1 }, { HYB_STENCIL_SCH_COPY, 3, 2 },
		{ HYB_STENCIL_SCH_DIRECT, 3, 3 },  { HYB_STENCIL_SCH_SHARED, 4, 2 },
		{ HYB_STENCIL_SCH_SHARED, 2, 3 },  { HYB_STENCIL_SCH_SHARED, 1, 5 }
	};
	const double  eps  = elem == HYB_STENCIL_F64 ? 0x1.0p-53 : 0x1.0p-24;
	double        cmax = 0.0;
	const int64_t n    = c.nx * c.ny * c.nz;
	for ( int j = 0; j < nresult( ref.p ); j++ )
		for ( int64_t i = 0; i < n; i++ )
			cmax = std::fmax( cmax, std::fabs( at( ref.p, result( ref.p, j ), i ) ) );
	const double tol = 8.0 * (double)T * points( ref.p ) * eps * cmax;
	Prob         first;
	bool         have_first = false;
	for ( const auto& pl : plans )
	{
		hyb_stencil_sched_in_t in;
		std::memset( &in, 0, sizeof in );
		in.scheme   = pl[0];
		in.n        = ref.p.nz;
		in.h        = ref.p.radius;
		in.levels   = roles.levels;
		in.inputs   = roles.inputs;
		in.ncoef    = roles.ncoef;
		in.quants   = roles.quants;
		in.d        = pl[1];
		in.k        = pl[2];
		in.steps    = T;
		in.residual = c.kind == HYB_STENCIL_HIMENO;
		Prob   got;
		double g = 0.0;
		if ( !run_device( init, in, dev, got, &g ) )
		{
			std::printf( "FAIL %-22s %s scheme %d d %d k %d: device run\n", c.name,
			             elem ? "d" : "s", pl[0], pl[1], pl[2] );
			g_fail = 1;
			continue;
		}
		double err = 0.0;
		for ( int j = 0; j < nresult( ref.p ); j++ )
			for ( int64_t i = 0; i < n; i++ )
			{
				const int f = result( ref.p, j );
				err         = std::fmax( err, std::fabs( at( got.p, f, i ) - at( ref.p, f, i ) ) );
			}
		bool same = true;
		if ( !have_first )
		{
			clone( got, first );
			have_first = true;
		}
		else
			for ( int j = 0; j < nresult( ref.p ); j++ )
				same = same && got.mem[result( ref.p, j )] == first.mem[result( ref.p, j )];
		/* Himeno: gosa_gpu - gosa_cpu = sum (ss_g - ss_c)(ss_g + ss_c), so
		   |difference| <= 2 max|d ss| sqrt(N gosa) (Cauchy-Schwarz), with
		   |d ss| <= the field difference plus one step's rounding; plus the
		   sums' own rounding. */
		double gtol = 0.0;
		if ( c.kind == HYB_STENCIL_HIMENO )
		{
			const double dss = err + 2.0 * points( ref.p ) * eps * cmax;
			gtol             = 2.0 * 2.0 * dss * std::sqrt( (double)n * gref ) +
			       4.0 * (double)n * 0x1.0p-53 * gref;
		}
		const bool ok = same && err <= tol && std::fabs( g - gref ) <= gtol;
		std::printf( "%s %-22s %s %-8s d %d k %d T %lld: max err %.3g (tol %.3g)%s",
		             ok ? "ok  " : "FAIL", c.name, elem ? "d" : "s",
		             hyb_stencil_scheme_name( pl[0] ), pl[1], pl[2], (long long)T, err, tol,
		             same ? "" : " NOT bit-identical to the first scheme" );
		if ( c.kind == HYB_STENCIL_HIMENO )
			std::printf( ", gosa %.9g vs CPU %.9g (tol %.3g)", g, gref, gtol );
		std::printf( "\n" );
		if ( !ok ) g_fail = 1;
	}
}

/* ------------------------------------------------------------------ bad arguments */

void check_rejects( Dev& dev )
{
	hyb_kernel_env_t env;
	std::memset( &env, 0, sizeof env );
	env.stream = dev.stream;
	hyb_stencil_acoustic_args_t a;
	std::memset( &a, 0, sizeof a );
	a.box.nx = a.box.ny = a.box.nz = 20;
	a.box.planes                   = 20;
	a.box.z1                       = 21; /* past the buffer */
	a.box.dims                     = 3;
	a.box.radius                   = 4;
	float* d                       = nullptr;
	CK_CUDA( cudaMalloc( &d, 4 * 8000 * sizeof( float ) ) );
	a.cur = d, a.prev = d + 8000, a.next = d + 16000, a.vel = d + 24000;
	const bool r1                = hyb_stencil_acoustic_cuda( &env, &a ) == HYB_E_INVALID;
	a.box.z1                     = 20;
	a.box.radius                 = 2;
	const bool                r2 = hyb_stencil_acoustic_cuda( &env, &a ) == HYB_E_INVALID;
	hyb_stencil_himeno_args_t h;
	std::memset( &h, 0, sizeof h );
	const bool              r3 = hyb_stencil_himeno_cuda( &env, &h ) == HYB_E_INVALID;
	const bool              r4 = hyb_stencil_laplace_cuda( &env, nullptr ) == HYB_E_INVALID;
	hyb_stencil_wave_args_t w;
	std::memset( &w, 0, sizeof w );
	w.box = a.box; /* 3-D, radius 2: not the wave's */
	w.p = d, w.q = d + 8000, w.p_new = d + 16000, w.q_new = d + 24000;
	const bool r5 = hyb_stencil_wave_cuda( &env, &w ) == HYB_E_INVALID;
	CK_CUDA( cudaStreamSynchronize( dev.stream ) );
	CK_CUDA( cudaFree( d ) );
	const bool ok = r1 && r2 && r3 && r4 && r5;
	std::printf( "%s bad arguments rejected\n", ok ? "ok  " : "FAIL" );
	if ( !ok ) g_fail = 1;
}

/* ------------------------------------------------------------------ timing */

/* A problem's fields resident on the device and the arguments of one step over its whole
   domain (first quantity's levels at cur, prev and next). */
struct Resident
{
	Prob               q;
	std::vector<void*> f;
	size_t             bytes = 0;
	void*              next0 = nullptr;
	hyb_stencil_args_t a;

	Resident( int32_t kind, int32_t elem, int64_t nx, int64_t ny, int64_t nz, int32_t r )
	{
		make( q, kind, elem, nx, ny, nz, r );
		hyb_stencil_roles_t roles;
		hyb_stencil_roles( kind, &roles );
		bytes = q.mem[0].size();
		f.resize( q.p.nfields );
		for ( int i = 0; i < q.p.nfields; i++ )
		{
			CK_CUDA( cudaMalloc( &f[i], bytes ) );
			CK_CUDA( cudaMemcpy( f[i], q.mem[i].data(), bytes, cudaMemcpyHostToDevice ) );
		}
		const void* coef[HYB_STENCIL_COEFS_MAX];
		const void* cur[HYB_STENCIL_QUANTS_MAX];
		const void* prev[HYB_STENCIL_QUANTS_MAX];
		void*       next[HYB_STENCIL_QUANTS_MAX];
		for ( int c = 0; c < roles.ncoef; c++ ) coef[c] = f[roles.coef[c]];
		for ( int j = 0; j < roles.quants; j++ )
		{
			cur[j]  = f[hyb_stencil_state_role( &roles, j, roles.inputs - 1 )];
			prev[j] = f[hyb_stencil_state_role( &roles, j, 0 )];
			next[j] = f[hyb_stencil_state_role( &roles, j, roles.inputs )];
		}
		next0                       = next[0];
		const hyb_stencil_box_t box = hyb_stencil_prob_box( &q.p, 0, q.p.nz, 0, q.p.nz );
		hyb_stencil_prob_args_q( &q.p, &box, cur, prev, next, coef, &a );
	}
	Resident( const Resident& )            = delete;
	Resident& operator=( const Resident& ) = delete;
	~Resident()
	{
		for ( void* p : f ) CK_CUDA( cudaFree( p ) );
	}
};

/* Milliseconds per call of launch(), queued on dev's stream: `warm` calls untimed, then
   `reps` timed between two events. */
template <typename F> double ms_per_call( Dev& dev, int warm, int reps, F launch )
{
	cudaEvent_t e0, e1;
	CK_CUDA( cudaEventCreate( &e0 ) );
	CK_CUDA( cudaEventCreate( &e1 ) );
	for ( int w = 0; w < warm; w++ ) launch();
	CK_CUDA( cudaEventRecord( e0, dev.stream ) );
	for ( int i = 0; i < reps; i++ ) launch();
	CK_CUDA( cudaEventRecord( e1, dev.stream ) );
	CK_CUDA( cudaEventSynchronize( e1 ) );
	float ms = 0.0f;
	CK_CUDA( cudaEventElapsedTime( &ms, e0, e1 ) );
	CK_CUDA( cudaEventDestroy( e0 ) );
	CK_CUDA( cudaEventDestroy( e1 ) );
	return ms / reps;
}

void time_kernel( const char* name, int32_t kind, int32_t elem, int64_t nx, int64_t ny, int64_t nz,
                  int32_t r, double elems_per_point, Dev& dev )
{
	Resident     res( kind, elem, nx, ny, nz, r );
	const double s =
	    ms_per_call( dev, 2, 10, [&] { dev_compute( &dev, 0, kind, &res.a ); } ) * 1e-3;
	const double pts = (double)( nx * ny * nz );
	std::printf( "time %-12s %s %5lld x %5lld x %5lld: %8.3f ms/step, %7.2f Gpoints/s, %7.1f GB/s "
	             "at %.2f elements/point\n",
	             name, elem ? "d" : "s", (long long)nx, (long long)ny, (long long)nz, s * 1e3,
	             pts / s * 1e-9,
	             pts * elems_per_point * (double)hyb_stencil_elem_bytes( elem ) / s * 1e-9,
	             elems_per_point );
}

/* Every shape of the acoustic kernel on one resident domain: its output bit for bit
   the library's shape's, and its time per step (the library launches the fastest). */
void time_acoustic_shapes( int32_t elem, int64_t nx, int64_t ny, int64_t nz, int reps, Dev& dev )
{
	Resident         res( HYB_STENCIL_ACOUSTIC, elem, nx, ny, nz, 4 );
	const size_t     bytes = res.bytes;
	hyb_kernel_env_t env;
	std::memset( &env, 0, sizeof env );
	env.stream = dev.stream;
	std::vector<unsigned char> want( bytes ), got( bytes );
	CK_CUDA( cudaMemset( res.next0, 0xff, bytes ) );
	if ( hyb_stencil_acoustic_cuda( &env, &res.a ) != HYB_OK ) g_fail = 1;
	CK_CUDA( cudaStreamSynchronize( dev.stream ) );
	CK_CUDA( cudaMemcpy( want.data(), res.next0, bytes, cudaMemcpyDeviceToHost ) );
	for ( int s = 0; hyb_stencil_acoustic_cuda_shape( s ); s++ )
	{
		CK_CUDA( cudaMemset( res.next0, 0xff, bytes ) );
		const bool launched = hyb_stencil_acoustic_cuda_as( &env, &res.a, s ) == HYB_OK;
		CK_CUDA( cudaStreamSynchronize( dev.stream ) );
		CK_CUDA( cudaMemcpy( got.data(), res.next0, bytes, cudaMemcpyDeviceToHost ) );
		const bool same = launched && std::memcmp( got.data(), want.data(), bytes ) == 0;
		if ( !same ) g_fail = 1;
		const double ms_step =
		    reps > 0 ? ms_per_call( dev, 1, reps,
		                            [&] { hyb_stencil_acoustic_cuda_as( &env, &res.a, s ); } )
		             : 0.0;
		const double pts = (double)( nx * ny * nz );
		std::printf( "%s acoustic shape %d %s %5lld x %5lld x %5lld: %s, %8.3f ms/step, %7.2f "
		             "Gpoints/s (%s)\n",
		             reps > 0 ? "time" : "ok  ", s, elem ? "d" : "s", (long long)nx, (long long)ny,
		             (long long)nz, same ? "same as the library's shape" : "DIFFERS", ms_step,
		             ms_step > 0 ? pts / ( ms_step * 1e-3 ) * 1e-9 : 0.0,
		             hyb_stencil_acoustic_cuda_shape( s ) );
	}
}

} // namespace

int main( int argc, char** argv )
{
	bool quick = false;
	for ( int i = 1; i < argc; i++ )
	{
		if ( std::strcmp( argv[i], "--quick" ) == 0 )
			quick = true;
		else
		{
			std::fprintf( stderr, "usage: %s [--quick]\n", argv[0] );
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
	CK_CUDA( cudaGetDeviceProperties( &prop, 0 ) );
	std::printf( "device: %s, %.1f GB\n", prop.name, (double)prop.totalGlobalMem * 1e-9 );
	Dev dev;
	CK_CUDA( cudaStreamCreate( &dev.stream ) );

	const Case cases[] = { { HYB_STENCIL_ACOUSTIC, 70, 45, 64, 4, "acoustic 70x45x64" },
		                   { HYB_STENCIL_HIMENO, 65, 33, 40, 1, "himeno 65x33x40" },
		                   { HYB_STENCIL_LAPLACE, 257, 1, 130, 1, "laplace 257x130" },
		                   { HYB_STENCIL_STAR, 40, 36, 52, 3, "star r3 40x36x52" },
		                   { HYB_STENCIL_STAR, 300, 1, 101, 2, "star r2 300x101" },
		                   { HYB_STENCIL_WAVE, 257, 1, 130, 1, "wave 257x130" } };
	for ( const Case& c : cases )
		for ( int32_t elem = 0; elem < 2; elem++ ) check_case( c, elem, 11, dev );
	check_rejects( dev );
	for ( int32_t elem = 0; elem < 2; elem++ ) time_acoustic_shapes( elem, 70, 45, 64, 0, dev );

	if ( !quick )
	{
		time_kernel( "acoustic", HYB_STENCIL_ACOUSTIC, HYB_STENCIL_F32, 512, 512, 512, 4,
		             HYB_STENCIL_DEV_ELEMS_ACOUSTIC, dev );
		time_kernel( "acoustic", HYB_STENCIL_ACOUSTIC, HYB_STENCIL_F64, 512, 512, 256, 4,
		             HYB_STENCIL_DEV_ELEMS_ACOUSTIC, dev );
		time_acoustic_shapes( HYB_STENCIL_F32, 512, 512, 512, 10, dev );
		time_acoustic_shapes( HYB_STENCIL_F32, 1160, 1160, 160, 10, dev );
		time_acoustic_shapes( HYB_STENCIL_F64, 512, 512, 256, 10, dev );
		time_kernel( "himeno", HYB_STENCIL_HIMENO, HYB_STENCIL_F32, 513, 257, 257, 1,
		             HYB_STENCIL_DEV_ELEMS_HIMENO, dev );
		time_kernel( "laplace", HYB_STENCIL_LAPLACE, HYB_STENCIL_F32, 16384, 1, 8192, 1,
		             HYB_STENCIL_DEV_ELEMS_GRID, dev );
		time_kernel( "star-r4", HYB_STENCIL_STAR, HYB_STENCIL_F32, 512, 512, 512, 4,
		             HYB_STENCIL_DEV_ELEMS_GRID, dev );
		time_kernel( "wave", HYB_STENCIL_WAVE, HYB_STENCIL_F32, 16384, 1, 8192, 1,
		             HYB_STENCIL_DEV_ELEMS_WAVE, dev );
	}
	CK_CUDA( cudaStreamDestroy( dev.stream ) );
	std::printf( "%s\n", g_fail ? "FAILED" : "PASSED" );
	return g_fail;
}
