/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU check of the face-loop kernels (issue 24): the CUDA launchers called directly on a
   stream against the CPU face loop, every form and case checked, with registers,
   occupancy and times; then one Runge-Kutta step per workflow (the seed's per-step
   offload, and resident) against the CPU's OpenMP step. */

/* Usage: gpu_check_faceloop [--quick] [--no-huge]
     (default)  part 1: the register study (every face kernel: registers, spill bytes,
                resident blocks and occupancy at 64 and 128 threads per block);
                part 2: the seed's 24 cases and meshes of 10^5 and 10^6 faces (adv-sin and
                Burgers, P1 and P3, quadrilaterals and triangles) and 10^7 faces (adv-sin
                P1 both shapes, P3 quadrilaterals): each form (vanilla, remapped,
                register-limited) against the CPU face loop, kernel times (CUDA events,
                mean of R launches after warm-up), the CPU loop's times, one step per
                workflow against the CPU step.
     --quick    the 10 x 10 seed cases and one 10^5-face mesh
     --no-huge  leave out the 10^7-face meshes
   Tolerances: a GPU face loop's output against the CPU's, max |gpu - cpu| / max |cpu| <=
   1e-12 (the same per-face code; only the compilers' contraction of multiply-adds and the
   device's sine differ); remapped against vanilla: bit for bit (one compiled kernel, each
   face's output independent of the thread that computes it); a state after the timed
   steps, max |gpu - cpu| / max |cpu| <= 1e-11.
   The CPU reference is the OpenMP loop, which the unit suite faceloop_kernels proves equal
   bit for bit to the serial loop (so the large meshes need no serial pass).
   Exit status: 0 all correct, 1 a wrong result or a CUDA error, 77 no device. */

#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C"
{
#include "dispatch/faceloop/hyb_faceloop_solver.h"
#include "hyb_types.h"
#include "kernels/faceloop/hyb_faceloop_cpu.h"
}
#include "kernels/faceloop/hyb_faceloop_launch.h"
#include "tools/bench/hyb_bench_cuda_check.h"
#include "tools/bench/hyb_faceloop_cases.h"

namespace
{

int g_failures = 0;

#define CK_HYB( expr )                                                                             \
	do {                                                                                           \
		hyb_status_t s_ = ( expr );                                                                \
		if ( s_ != HYB_OK )                                                                        \
		{                                                                                          \
			fprintf( stderr, "%s:%d: %s: status %d\n", __FILE__, __LINE__, #expr, (int)s_ );       \
			exit( 1 );                                                                             \
		}                                                                                          \
	} while ( 0 )

template <typename T> T* dev_copy( const T* host, size_t n )
{
	T* d = nullptr;
	CK_CUDA( cudaMalloc( &d, std::max<size_t>( n, 1 ) * sizeof( T ) ) );
	if ( n ) CK_CUDA( cudaMemcpy( d, host, n * sizeof( T ), cudaMemcpyHostToDevice ) );
	return d;
}

template <typename T> T* dev_alloc( size_t n )
{
	T* d = nullptr;
	CK_CUDA( cudaMalloc( &d, std::max<size_t>( n, 1 ) * sizeof( T ) ) );
	return d;
}

/* The solver's arrays on the device and the argument blocks pointing to them. */
struct DevSolver
{
	const hyblas_faceloop_solver_t* s;
	int32_t *                       face_cell, *cell_face, *remap, *cell_minv;
	int8_t*                         face_edge;
	double *         face_geom, *cell_xy, *cell_invdet, *minv, *u, *u1, *u2, *rhs, *out;
	hyb_fl_tables_t* tab;
	int64_t          nf, nc, np;

	explicit DevSolver( const hyblas_faceloop_solver_t* sv ) : s( sv )
	{
		const hyblas_faceloop_mesh_t* m = s->mesh;
		nf                              = m->n_faces;
		nc                              = m->n_cells;
		np                              = s->np;
		face_cell                       = dev_copy( m->face_cell, 2 * (size_t)nf );
		face_edge                       = dev_copy( m->face_edge, 2 * (size_t)nf );
		face_geom                       = dev_copy( m->face_geom, HYB_FL_GEOM_COUNT * (size_t)nf );
		cell_face                       = dev_copy( m->cell_face, (size_t)( nc * m->nv ) );
		remap                           = dev_copy( m->remap, (size_t)nf );
		cell_xy                         = dev_copy( s->cell_xy, (size_t)( 2 * nc * m->nv ) );
		cell_invdet                     = dev_copy( s->cell_invdet, (size_t)nc );
		cell_minv                       = dev_copy( s->cell_minv, (size_t)nc );
		minv                            = dev_copy( s->minv, (size_t)( m->n_bilinear * np * np ) );
		tab                             = dev_copy( &s->tab, 1 );
		u                               = dev_copy( s->u, (size_t)( nc * np ) );
		u1                              = dev_alloc<double>( (size_t)( nc * np ) );
		u2                              = dev_alloc<double>( (size_t)( nc * np ) );
		rhs                             = dev_alloc<double>( (size_t)( nc * np ) );
		out                             = dev_alloc<double>( (size_t)( 2 * np * nf ) );
		/* cudaMemcpy from pageable memory may return before its DMA lands. */
		CK_CUDA( cudaDeviceSynchronize() );
	}
	~DevSolver()
	{
		void* p[] = { face_cell, face_edge,   face_geom, cell_face, remap,
			          cell_xy,   cell_invdet, cell_minv, minv,      tab,
			          u,         u1,          u2,        rhs,       out };
		for ( void* q : p ) cudaFree( q );
	}
	DevSolver( const DevSolver& )            = delete;
	DevSolver& operator=( const DevSolver& ) = delete;

	const double* dtab( size_t off ) const
	{
		return reinterpret_cast<const double*>( reinterpret_cast<const char*>( tab ) + off );
	}

	/* The face loop on device state du at `time`, component-major output into dout. */
	hyb_faceloop_face_args_t face( const double* du, double time, bool remapped, int block,
	                               double* dout ) const
	{
		hyb_faceloop_face_args_t a;
		hyb_fl_face_args( s, du, time, remapped ? remap : nullptr, dout, nf, 1, &a );
		a.face_cell = face_cell;
		a.face_edge = face_edge;
		a.face_geom = face_geom;
		a.edge_t    = dtab( offsetof( hyb_fl_tables_t, edge_t ) );
		a.edge_w    = dtab( offsetof( hyb_fl_tables_t, edge_w ) );
		a.edge_phi  = dtab( offsetof( hyb_fl_tables_t, edge_phi ) );
		a.block     = block;
		return a;
	}
	hyb_faceloop_volume_args_t volume( const double* du, double* drhs ) const
	{
		hyb_faceloop_volume_args_t a;
		hyb_fl_volume_args( s, du, drhs, &a );
		a.cell_xy  = cell_xy;
		a.vol_w    = dtab( offsetof( hyb_fl_tables_t, vol_w ) );
		a.vol_xi   = dtab( offsetof( hyb_fl_tables_t, vol_xi ) );
		a.vol_phi  = dtab( offsetof( hyb_fl_tables_t, vol_phi ) );
		a.vol_dphi = dtab( offsetof( hyb_fl_tables_t, vol_dphi ) );
		return a;
	}
	hyb_faceloop_gather_args_t gather() const
	{
		hyb_faceloop_gather_args_t a;
		hyb_fl_gather_args( s, out, nf, 1, rhs, &a );
		a.cell_face = cell_face;
		return a;
	}
	hyb_faceloop_update_args_t update( int k, const double* cur, double* next ) const
	{
		hyb_faceloop_update_args_t a;
		hyb_fl_update_args( s, hyb_fl_rk_a[k], hyb_fl_rk_b[k], u, cur, next, &a );
		a.cell_invdet = cell_invdet;
		a.cell_minv   = cell_minv;
		a.minv        = minv;
		a.rhs         = rhs;
		return a;
	}
};

/* max |a - b| / max |b| over n values; infinite when a holds a non-finite value. */
double rel_diff( const double* a, const double* b, int64_t n )
{
	double num = 0.0, den = 0.0;
	for ( int64_t i = 0; i < n; i++ )
	{
		num = std::max( num, std::fabs( a[i] - b[i] ) );
		den = std::max( den, std::fabs( b[i] ) );
		if ( !std::isfinite( a[i] ) ) return INFINITY;
	}
	return den > 0.0 ? num / den : num;
}

/* The device output (component-major) rearranged face-major, boundary faces' unused right
   sides set to the CPU's (never written by either). */
void to_face_major( const std::vector<double>& dev, int64_t nf, int64_t np,
                    const std::vector<double>& cpu, const int32_t* face_cell,
                    std::vector<double>& fm )
{
	fm.resize( (size_t)( 2 * np * nf ) );
#pragma omp parallel for schedule( static )
	for ( int64_t f = 0; f < nf; f++ )
		for ( int64_t k = 0; k < 2 * np; k++ )
			fm[f * 2 * np + k] =
			    ( k >= np && face_cell[2 * f + 1] < 0 ) ? cpu[f * 2 * np + k] : dev[k * nf + f];
}

struct Timing
{
	cudaEvent_t a, b;
	Timing()
	{
		CK_CUDA( cudaEventCreate( &a ) );
		CK_CUDA( cudaEventCreate( &b ) );
	}
	~Timing()
	{
		cudaEventDestroy( a );
		cudaEventDestroy( b );
	}
};

/* Mean seconds of one launch of the face loop form, over enough launches to last ~20 ms
   (at least 5, at most 2000), after two warm-ups. */
double time_face( hyb_status_t ( *fn )( const hyb_kernel_env_t*, const void* ),
                  const hyb_faceloop_face_args_t& a, cudaStream_t st )
{
	hyb_kernel_env_t env = { st, nullptr, nullptr, 0 };
	Timing           t;
	for ( int w = 0; w < 2; w++ ) CK_HYB( fn( &env, &a ) );
	CK_CUDA( cudaEventRecord( t.a, st ) );
	CK_HYB( fn( &env, &a ) );
	CK_CUDA( cudaEventRecord( t.b, st ) );
	CK_CUDA( cudaEventSynchronize( t.b ) );
	float one = 0.0f;
	CK_CUDA( cudaEventElapsedTime( &one, t.a, t.b ) );
	const int reps = std::max( 5, std::min( 2000, (int)( 20.0 / std::max( one, 1e-3f ) ) ) );
	CK_CUDA( cudaEventRecord( t.a, st ) );
	for ( int r = 0; r < reps; r++ ) CK_HYB( fn( &env, &a ) );
	CK_CUDA( cudaEventRecord( t.b, st ) );
	CK_CUDA( cudaEventSynchronize( t.b ) );
	float ms = 0.0f;
	CK_CUDA( cudaEventElapsedTime( &ms, t.a, t.b ) );
	return 1e-3 * ms / reps;
}

/* --------------------------------------------------------------------------------------
   Part 1: the register study.
   -------------------------------------------------------------------------------------- */
void register_study()
{
	printf( "\n== Part 1: face kernels, registers and occupancy (seed: 169 VGPRs -> 10 %%, "
	        "reduced to 126 -> 12.5 %%)\n" );
	printf( "%-6s %-8s %-3s | %-26s | %-26s\n", "cells", "equation", "P",
	        "vanilla/remapped: regs spill occ64 occ128",
	        "register-limited: regs spill occ64 occ128" );
	for ( int nv = 3; nv <= 4; nv++ )
		for ( int eq = 0; eq <= 1; eq++ )
			for ( int p = 1; p <= 3; p++ )
			{
				printf( "%-6s %-8s P%-2d |", nv == 3 ? "tri" : "quad", eq ? "burgers" : "adv-sin",
				        p );
				for ( int low = 0; low <= 1; low++ )
				{
					hyb_faceloop_kinfo_t i64, i128;
					CK_HYB( hyb_faceloop_face_cuda_info( low, nv, p, eq, 64, &i64 ) );
					CK_HYB( hyb_faceloop_face_cuda_info( low, nv, p, eq, 128, &i128 ) );
					printf( " %4d %5d B %5.1f %% %5.1f %% |", i64.regs, i64.local_bytes,
					        100.0 * i64.occupancy, 100.0 * i128.occupancy );
					if ( low ) printf( "\n" );
				}
				hyb_faceloop_kinfo_t a, b;
				CK_HYB( hyb_faceloop_face_cuda_info( 0, nv, p, eq, 64, &a ) );
				CK_HYB( hyb_faceloop_face_cuda_info( 1, nv, p, eq, 64, &b ) );
				printf( "csv,regs,%s,%s,%d,%d,%d,%.4f,%d,%d,%.4f\n", nv == 3 ? "tri" : "quad",
				        eq ? "burgers" : "adv-sin", p, a.regs, a.local_bytes, a.occupancy, b.regs,
				        b.local_bytes, b.occupancy );
			}
}

/* --------------------------------------------------------------------------------------
   Part 2: a case.
   -------------------------------------------------------------------------------------- */
struct CaseResult
{
	bool    seed;
	double  gain; /* remapped over vanilla, kernel time */
	int64_t faces;
	double  resident_speedup;
};

std::vector<CaseResult> g_results;

void check( bool ok, const char* what, const char* label, double v )
{
	if ( ok ) return;
	fprintf( stderr, "WRONG: %s: %s (%.3g)\n", label, what, v );
	g_failures++;
}

/* One SSP-RK3 step, the seed's workflow: per stage the state is staged into pinned memory
   ("gather the face inputs"), sent, the face kernel runs, its output comes back, while the
   host runs the volume loop; then the host adds the faces' contributions to the cells
   ("scatter") and updates. Returns seconds. */
double step_per_stage( hyblas_faceloop_solver_t* s, DevSolver& d, double* pin_u, double* pin_out,
                       cudaStream_t st )
{
	hyb_kernel_env_t env = { st, nullptr, nullptr, 0 };
	const int64_t    nc = d.nc, np = d.np, nf = d.nf;
	double* const    cur[3]  = { s->u, s->u1, s->u2 };
	double* const    next[3] = { s->u1, s->u2, s->u };
	const int        th      = omp_get_max_threads();
	const double     t0      = hyb_now();
	for ( int k = 0; k < 3; k++ )
	{
		memcpy( pin_u, cur[k], (size_t)( nc * np ) * sizeof( double ) );
		CK_CUDA( cudaMemcpyAsync( d.u, pin_u, (size_t)( nc * np ) * sizeof( double ),
		                          cudaMemcpyHostToDevice, st ) );
		const hyb_faceloop_face_args_t fa =
		    d.face( d.u, s->time + hyb_fl_rk_c[k] * s->dt, true, 0, d.out );
		CK_HYB( hyb_faceloop_face_cuda( &env, &fa ) );
		CK_CUDA( cudaMemcpyAsync( pin_out, d.out, (size_t)( 2 * np * nf ) * sizeof( double ),
		                          cudaMemcpyDeviceToHost, st ) );
		hyb_faceloop_volume_args_t va;
		hyb_fl_volume_args( s, cur[k], s->rhs, &va );
		hyb_faceloop_volume_cpu( &va, th );
		CK_CUDA( cudaStreamSynchronize( st ) );
		hyb_faceloop_gather_args_t ga;
		hyb_fl_gather_args( s, pin_out, nf, 1, s->rhs, &ga );
		hyb_faceloop_gather_cpu( &ga, th );
		hyb_faceloop_update_args_t ua;
		hyb_fl_update_args( s, hyb_fl_rk_a[k], hyb_fl_rk_b[k], s->u, cur[k], next[k], &ua );
		hyb_faceloop_update_cpu( &ua, th );
	}
	s->time += s->dt;
	s->steps_done++;
	return hyb_now() - t0;
}

/* `steps` resident steps: the four kernels per stage, nothing crosses the bus. Returns the
   seconds per step by CUDA events. */
double steps_resident( DevSolver& d, double t_start, double dt, int steps, cudaStream_t st )
{
	hyb_kernel_env_t env     = { st, nullptr, nullptr, 0 };
	double* const    cur[3]  = { d.u, d.u1, d.u2 };
	double* const    next[3] = { d.u1, d.u2, d.u };
	Timing           t;
	CK_CUDA( cudaEventRecord( t.a, st ) );
	for ( int n = 0; n < steps; n++ )
		for ( int k = 0; k < 3; k++ )
		{
			const hyb_faceloop_volume_args_t va = d.volume( cur[k], d.rhs );
			const hyb_faceloop_face_args_t   fa =
			    d.face( cur[k], t_start + ( n + hyb_fl_rk_c[k] ) * dt, true, 0, d.out );
			const hyb_faceloop_gather_args_t ga = d.gather();
			const hyb_faceloop_update_args_t ua = d.update( k, cur[k], next[k] );
			CK_HYB( hyb_faceloop_volume_cuda( &env, &va ) );
			CK_HYB( hyb_faceloop_face_cuda( &env, &fa ) );
			CK_HYB( hyb_faceloop_gather_cuda( &env, &ga ) );
			CK_HYB( hyb_faceloop_update_cuda( &env, &ua ) );
		}
	CK_CUDA( cudaEventRecord( t.b, st ) );
	CK_CUDA( cudaEventSynchronize( t.b ) );
	float ms = 0.0f;
	CK_CUDA( cudaEventElapsedTime( &ms, t.a, t.b ) );
	return 1e-3 * ms / steps;
}

void run_case( const hyb_flb_case_t* c, bool seed, bool quick )
{
	const int                 eq = c->eq, p = c->p, tri = c->tri;
	const char*               label = c->label;
	hyblas_faceloop_mesh_t*   m     = hyb_flb_mesh( c );
	hyblas_faceloop_solver_t* s     = m ? hyb_flb_solver( m, c ) : nullptr;
	if ( s == nullptr ) exit( 1 );
	const int64_t nf = m->n_faces, nc = m->n_cells, np = s->np;
	size_t        fr = 0, tot = 0;
	CK_CUDA( cudaMemGetInfo( &fr, &tot ) );
	const double need =
	    (double)nf * ( 2 * np * 8.0 * 3 + 90 ) + (double)nc * np * 8.0 * 5 + (double)nc * 100;
	if ( need > 0.7 * (double)fr )
	{
		printf( "%-9s %-8s P%d: needs %.1f GB of %.1f GB free, skipped\n", label,
		        eq ? "burgers" : "adv-sin", p, 1e-9 * need, 1e-9 * (double)fr );
		hyblas_faceloop_solver_destroy( s );
		hyblas_faceloop_mesh_destroy( m );
		return;
	}
	/* A blocking stream: it waits for the legacy stream's copies (the uploads below). */
	cudaStream_t st;
	CK_CUDA( cudaStreamCreate( &st ) );
	DevSolver d( s );
	/* The CPU reference at a stage time inside the first step. */
	const double             time = 0.5 * s->dt;
	const int                th   = omp_get_max_threads();
	std::vector<double>      cpu( (size_t)( 2 * np * nf ), 0.0 ), got, fm;
	hyb_faceloop_face_args_t ha;
	hyb_fl_face_args( s, s->u, time, nullptr, cpu.data(), 1, 2 * np, &ha );
	double t0 = hyb_now();
	hyb_faceloop_face_cpu( &ha, th );
	const double cpu_omp = hyb_now() - t0;
	double       cpu_ser = NAN;
	if ( nf <= 200000 )
	{
		std::vector<double> ser( cpu.size(), 0.0 );
		hyb_fl_face_args( s, s->u, time, nullptr, ser.data(), 1, 2 * np, &ha );
		int reps = 0;
		t0       = hyb_now();
		do {
			hyb_faceloop_face_cpu( &ha, 1 );
			reps++;
		} while ( hyb_now() - t0 < 0.02 && reps < 1000 );
		cpu_ser = ( hyb_now() - t0 ) / reps;
		check( memcmp( ser.data(), cpu.data(), cpu.size() * sizeof( double ) ) == 0,
		       "serial and OpenMP CPU face loops differ", label, 0.0 );
	}
	/* Every form: correct, then timed. */
	hyb_status_t ( *fns[3] )( const hyb_kernel_env_t*,
	                          const void* ) = { hyb_faceloop_face_cuda, hyb_faceloop_face_cuda,
		                                        hyb_faceloop_face_lowreg_cuda };
	double              tk[3];
	std::vector<double> vanilla;
	double              err_low = 0.0;
	for ( int form = 0; form < 3; form++ )
	{
		hyb_kernel_env_t env = { st, nullptr, nullptr, 0 };
		CK_CUDA( cudaMemsetAsync( d.out, 0xff, (size_t)( 2 * np * nf ) * sizeof( double ), st ) );
		const hyb_faceloop_face_args_t a =
		    d.face( d.u, time, form > 0, form == 2 ? HYB_FL_LOWREG_BLOCK : 0, d.out );
		CK_HYB( fns[form]( &env, &a ) );
		CK_CUDA( cudaStreamSynchronize( st ) );
		got.resize( (size_t)( 2 * np * nf ) );
		CK_CUDA( cudaMemcpy( got.data(), d.out, got.size() * sizeof( double ),
		                     cudaMemcpyDeviceToHost ) );
		to_face_major( got, nf, np, cpu, m->face_cell, fm );
		const double e = rel_diff( fm.data(), cpu.data(), (int64_t)cpu.size() );
		check( e <= 1e-12,
		       form == 0   ? "vanilla vs CPU"
		       : form == 1 ? "remapped vs CPU"
		                   : "lowreg vs CPU",
		       label, e );
		if ( form == 0 ) vanilla = fm;
		if ( form == 1 )
			check( memcmp( fm.data(), vanilla.data(), fm.size() * sizeof( double ) ) == 0,
			       "remapped != vanilla bitwise", label, 0.0 );
		if ( form == 2 ) err_low = e;
		tk[form] = time_face( fns[form], a, st );
	}
	/* One step per workflow from the same state, against the CPU's OpenMP step. */
	const int64_t       ns = (int64_t)( nc * np );
	std::vector<double> u0( s->u, s->u + ns ), ucpu, ugpu;
	const double        t_start = s->time;
	const int           steps   = quick ? 1 : 2;
	hyb_fl_loop_times_t lt      = { 0, 0, 0, 0 };
	t0                          = hyb_now();
	hyb_fl_solver_cpu_steps( s, steps, th, nullptr, &lt );
	const double cpu_step = ( hyb_now() - t0 ) / steps;
	ucpu.assign( s->u, s->u + ns );
	/* Per step (the seed's workflow). */
	memcpy( s->u, u0.data(), (size_t)ns * sizeof( double ) );
	s->time       = t_start;
	double *pin_u = nullptr, *pin_out = nullptr;
	CK_CUDA( cudaMallocHost( &pin_u, (size_t)ns * sizeof( double ) ) );
	CK_CUDA( cudaMallocHost( &pin_out, (size_t)( 2 * np * nf ) * sizeof( double ) ) );
	step_per_stage( s, d, pin_u, pin_out, st ); /* warm-up (first touch of the pinned pages) */
	memcpy( s->u, u0.data(), (size_t)ns * sizeof( double ) );
	s->time         = t_start;
	double per_step = 0.0;
	for ( int k = 0; k < steps; k++ )
		per_step += step_per_stage( s, d, pin_u, pin_out, st ) / steps;
	const double e_ps = rel_diff( s->u, ucpu.data(), ns );
	check( e_ps <= 1e-11, "per-step state vs CPU", label, e_ps );
	CK_CUDA( cudaFreeHost( pin_u ) );
	CK_CUDA( cudaFreeHost( pin_out ) );
	/* Resident: upload the state once, run, download once. */
	CK_CUDA( cudaMemcpy( d.u, u0.data(), (size_t)ns * sizeof( double ), cudaMemcpyHostToDevice ) );
	CK_CUDA( cudaDeviceSynchronize() );
	steps_resident( d, t_start, s->dt, 1, st ); /* warm-up */
	CK_CUDA( cudaMemcpy( d.u, u0.data(), (size_t)ns * sizeof( double ), cudaMemcpyHostToDevice ) );
	CK_CUDA( cudaDeviceSynchronize() );
	const double resident = steps_resident( d, t_start, s->dt, steps, st );
	ugpu.resize( (size_t)ns );
	CK_CUDA(
	    cudaMemcpy( ugpu.data(), d.u, (size_t)ns * sizeof( double ), cudaMemcpyDeviceToHost ) );
	const double e_res = rel_diff( ugpu.data(), ucpu.data(), ns );
	check( e_res <= 1e-11, "resident state vs CPU", label, e_res );

	hyblas_faceloop_mesh_info_t mi;
	memset( &mi, 0, sizeof mi );
	mi.struct_size = sizeof mi;
	hyblas_faceloop_mesh_info( m, &mi );
	hyb_faceloop_kinfo_t ki;
	CK_HYB( hyb_faceloop_face_cuda_info( 0, m->nv, p, eq, 64, &ki ) );
	const double gain = tk[0] / tk[1] - 1.0;
	printf( "%-9s %-8s P%d %9lld %6lld %6lld/%-3lld %4d | %9.2f %9.2f %9.2f %+6.1f %% | %10.1f "
	        "%10.1f | %10.1f %10.1f "
	        "%10.1f %6.1fx %6.1fx | %.1e %.1e %.1e\n",
	        label, eq ? "burgers" : "adv-sin", p, (long long)nf, (long long)c->seed_faces,
	        (long long)mi.warps_mixed_vanilla, (long long)mi.warps_mixed_remapped, ki.regs,
	        1e6 * tk[0], 1e6 * tk[1], 1e6 * tk[2], 100.0 * gain, 1e6 * cpu_ser, 1e6 * cpu_omp,
	        1e6 * cpu_step, 1e6 * per_step, 1e6 * resident, cpu_step / per_step,
	        cpu_step / resident, err_low, e_ps, e_res );
	printf( "csv,case,%s,%s,%d,%s,%lld,%lld,%lld,%lld,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
	        label, eq ? "burgers" : "adv-sin", p, tri ? "tri" : "quad", (long long)nf,
	        (long long)c->seed_faces, (long long)mi.warps_mixed_vanilla,
	        (long long)mi.warps_mixed_remapped, ki.regs, 1e6 * tk[0], 1e6 * tk[1], 1e6 * tk[2],
	        1e6 * cpu_ser, 1e6 * cpu_omp, 1e6 * cpu_step, 1e6 * per_step, 1e6 * resident );
	fflush( stdout );
	g_results.push_back( { seed, gain, nf, cpu_step / resident } );
	CK_CUDA( cudaStreamDestroy( st ) );
	hyblas_faceloop_solver_destroy( s );
	hyblas_faceloop_mesh_destroy( m );
}

} // namespace

int main( int argc, char** argv )
{
	bool quick = false, huge = true;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--quick" ) == 0 )
			quick = true;
		else if ( strcmp( argv[i], "--no-huge" ) == 0 )
			huge = false;
		else
		{
			fprintf( stderr, "usage: %s [--quick] [--no-huge]\n", argv[0] );
			return 1;
		}
	}
	int ndev = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev == 0 )
	{
		printf( "gpu_check_faceloop: no CUDA device; skipped\n" );
		return 77;
	}
	cudaDeviceProp prop;
	CK_CUDA( cudaGetDeviceProperties( &prop, 0 ) );
	printf( "# gpu_check_faceloop: %s, %d SMs, CC %d.%d; %d OpenMP threads\n", prop.name,
	        prop.multiProcessorCount, prop.major, prop.minor, omp_get_max_threads() );
	register_study();

	printf( "\n== Part 2: face loop per form against the CPU, steps per workflow\n" );
	printf(
	    "kernel times per launch (CUDA events); CPU face loop serial / OpenMP; one SSP-RK3 step: "
	    "CPU OpenMP, "
	    "GPU per-step offload (seed's workflow), GPU resident; speedup = CPU step / GPU step\n" );
	printf( "%-9s %-8s %-2s %9s %6s %10s %4s | %9s %9s %9s %8s | %10s %10s | %10s %10s %10s %7s "
	        "%7s | %s\n",
	        "case", "equation", "P", "faces", "seed", "mixed v/r", "regs", "vanilla", "remapped",
	        "lowreg", "gain", "cpu ser", "cpu omp", "cpu step", "per-step", "resident", "x p-s",
	        "x res", "err low/ps/res" );
	hyb_flb_case_t cases[24];
	const int      ncases = hyb_flb_seed_cases( cases, quick );
	for ( int k = 0; k < ncases; k++ ) run_case( cases + k, true, quick );
	const int64_t big[2] = { 100000, 1000000 };
	for ( int b = 0; b < ( quick ? 1 : 2 ); b++ )
	{
		const int nl = hyb_flb_large_cases( cases, big[b] );
		/* --quick: adv-sin P1 quadrilaterals only. */
		for ( int k = 0; k < ( quick ? 1 : nl ); k++ ) run_case( cases + k, false, quick );
	}
	if ( huge && !quick )
	{
		/* 10^7 faces: adv-sin P1 on both shapes, P3 on quadrilaterals (cases 0, 1, 2). */
		const int nl = hyb_flb_large_cases( cases, 10000000 );
		for ( int k = 0; k < 3 && k < nl; k++ ) run_case( cases + k, false, false );
	}

	/* The issue's targets beside the seed's numbers. */
	double best = -1e9, sum = 0.0, big_best = -1e9;
	int    nseed    = 0;
	double res6_min = INFINITY;
	for ( const CaseResult& r : g_results )
	{
		if ( r.seed )
		{
			best = std::max( best, r.gain );
			sum += r.gain;
			nseed++;
		}
		else
			big_best = std::max( big_best, r.gain );
		if ( r.faces >= 900000 && r.faces <= 1100000 )
			res6_min = std::min( res6_min, r.resident_speedup );
	}
	printf( "\n== Summary\n" );
	if ( nseed )
		printf( "remapped over vanilla, face kernel, the seed's cases (%d): best %+.1f %%, average "
		        "%+.1f %% "
		        "(seed: +56 %% best, +22 %% average over its 24)\n",
		        nseed, 100.0 * best, 100.0 * sum / nseed );
	if ( big_best > -1e9 )
		printf( "remapped over vanilla, large meshes: best %+.1f %%\n", 100.0 * big_best );
	if ( std::isfinite( res6_min ) )
		printf( "one step at 10^6 faces, resident GPU over OpenMP CPU: at least %.1fx (issue "
		        "target: 10x)\n",
		        res6_min );
	printf( "%s: %d wrong result(s)\n", g_failures ? "FAILED" : "PASSED", g_failures );
	return g_failures ? 1 : 0;
}
