/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's planner: cost model and choice (pure). */
#include "policies/faceloop/hyb_faceloop_plan.h"

#include <stdio.h>

#include "kernels/faceloop/hyb_faceloop_kargs.h"

void hyb_fl_rates_default( hyb_fl_rates_t* r )
{
	/* One core runs the loops' scalar double arithmetic (gathers, short dot products, no
	   SIMD) at about 2 Gflop/s of the model's flop counts: the median of the serial face and
	   volume loops over the 24 seed cases, timed by thread CPU time (docs/faceloop.md, "The
	   planner"). */
	r->cpu_flops_core = 2.0e9;
	/* Host memory triad with 16 threads on the GPU machine (ANCHORS.md: 118 GB/s). */
	r->cpu_bw = 118e9;
	/* The loops are independent per element and statically scheduled. */
	r->cpu_eff = 0.8;
	/* H100 HBM3 reaches about 3.0 TB/s device to device (ANCHORS.md, seeds-003-004.md
	   sec. 1); the face kernel gathers two cells per face, so about two thirds of it. */
	r->gpu_bw    = 2.0e12;
	r->gpu_flops = 2.5e13; /* H100 FP64 without tensor cores is 34 Tflop/s peak */
	/* Kernel launch on H100 about 2 - 4 us (seeds-003-004.md sec. 5.5); a host wait on a
	   stream about 10 us. */
	r->launch_s = 4e-6;
	r->sync_s   = 10e-6;
	/* Pinned copies each way on the GPU machine (ANCHORS.md: 55.5 / 55.4 GB/s). */
	r->h2d_bw = 55e9;
	r->d2h_bw = 55e9;
	/* Staging copies, 8 threads (ANCHORS.md). */
	r->host_copy_bw = 32e9;
	/* cudaHostRegister ran at 35-47 ms/GiB on one thread on the GPU machines
	   (docs/design-notes-gtsv.md, "The registered-pages split"). */
	r->register_s = 47e-3 / 1073741824.0;
	r->margin     = 0.2;
	/* The seed's largest case has 6224 faces and saw no gain; an H100 holds 132 x 2048
	   threads, so below 20000 faces a kernel fills under a tenth of it and the launches,
	   copies and waits of a stage cost more than the CPU's loop. */
	r->min_faces = 20000;
}

/* ------------------------------------------------------------------ element costs */

/* Cost of the exact solution at one point: two sines for advection, a Newton solve of
   about five iterations (a sine and a cosine each) for Burgers; a sine counted as 20. */
static double exact_flops( int eq )
{
	return eq == HYB_FL_EQ_BURGERS ? 5.0 * 50.0 : 45.0;
}

double hyb_fl_face_flops( int np, int nq, int eq, int boundary )
{
	/* Traces: one dot product of np per side and point; flux: about 10 per point;
	   contributions: one sum of nq per mode and side. */
	const double sides = boundary ? 1.0 : 2.0;
	return sides * 2.0 * np * nq + 10.0 * nq + sides * 2.0 * np * nq +
	       ( boundary ? nq * exact_flops( eq ) : 0.0 );
}

double hyb_fl_face_bytes( int np, int boundary )
{
	/* Connectivity (2 cells, 2 edges), geometry (3, or 7 for a boundary face), the cells'
	   states and the outputs, 8 bytes each. */
	const double sides = boundary ? 1.0 : 2.0;
	return 10.0 + 8.0 * ( boundary ? 7.0 : 3.0 ) + sides * 16.0 * np;
}

double hyb_fl_volume_flops( int np, int nqv )
{
	return nqv * ( 2.0 * np + 12.0 + 4.0 * np );
}

double hyb_fl_volume_bytes( int nv, int np )
{
	return 16.0 * nv + 16.0 * np;
}

/* Bytes of the mesh arrays a device run holds. */
static double mesh_bytes( const hyb_fl_plan_in_t* in )
{
	const double faces = (double)in->n_faces * ( 8.0 + 2.0 + 8.0 * HYB_FL_GEOM_COUNT + 4.0 );
	const double cells = (double)in->n_cells * ( 16.0 * in->nv + 4.0 * in->nv + 12.0 );
	return faces + cells + (double)in->n_bilinear * 8.0 * in->np * in->np;
}

double hyb_fl_device_bytes( const hyb_fl_plan_in_t* in, int resident )
{
	const double state = 8.0 * (double)in->n_cells * in->np;
	const double out   = 16.0 * (double)in->n_faces * in->np;
	return mesh_bytes( in ) + out + ( resident ? 4.0 * state : state );
}

/* ------------------------------------------------------------------ stage costs */

static double roofline( double flops, double flop_rate, double bytes, double bw )
{
	const double a = flops / flop_rate, b = bytes / bw;
	return a > b ? a : b;
}

hyb_fl_stage_cost_t hyb_fl_cpu_stage( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r,
                                      int threads )
{
	const double t    = threads < 1 ? 1.0 : (double)threads;
	const double rate = r->cpu_flops_core * ( t > 1.0 ? t * r->cpu_eff : 1.0 );
	const double nint = (double)( in->n_faces - in->n_boundary ), nbnd = (double)in->n_boundary;
	const double cells = (double)in->n_cells;
	hyb_fl_stage_cost_t c;
	c.face = roofline(
	    nint * hyb_fl_face_flops( in->np, in->nq, in->equation, 0 ) +
	        nbnd * hyb_fl_face_flops( in->np, in->nq, in->equation, 1 ),
	    rate, nint * hyb_fl_face_bytes( in->np, 0 ) + nbnd * hyb_fl_face_bytes( in->np, 1 ),
	    r->cpu_bw );
	c.volume = roofline( cells * hyb_fl_volume_flops( in->np, in->nqv ), rate,
	                     cells * hyb_fl_volume_bytes( in->nv, in->np ), r->cpu_bw );
	c.gather = roofline( cells * in->nv * in->np, rate, cells * ( 16.0 + 8.0 * in->nv ) * in->np,
	                     r->cpu_bw );
	c.update = roofline( cells * 4.0 * in->np + (double)in->n_bilinear * 2.0 * in->np * in->np,
	                     rate, cells * 32.0 * in->np, r->cpu_bw );
	return c;
}

hyb_fl_stage_cost_t hyb_fl_gpu_stage( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r )
{
	const double nint = (double)( in->n_faces - in->n_boundary ), nbnd = (double)in->n_boundary;
	const double cells = (double)in->n_cells;
	hyb_fl_stage_cost_t c;
	c.face =
	    r->launch_s +
	    roofline( nint * hyb_fl_face_flops( in->np, in->nq, in->equation, 0 ) +
	                  nbnd * hyb_fl_face_flops( in->np, in->nq, in->equation, 1 ),
	              r->gpu_flops,
	              nint * hyb_fl_face_bytes( in->np, 0 ) + nbnd * hyb_fl_face_bytes( in->np, 1 ),
	              r->gpu_bw );
	c.volume = r->launch_s + roofline( cells * hyb_fl_volume_flops( in->np, in->nqv ), r->gpu_flops,
	                                   cells * hyb_fl_volume_bytes( in->nv, in->np ), r->gpu_bw );
	c.gather = r->launch_s + cells * ( 16.0 + 8.0 * in->nv ) * in->np / r->gpu_bw;
	c.update = r->launch_s + cells * 32.0 * in->np / r->gpu_bw;
	return c;
}

/* ------------------------------------------------------------------ run times */

static double stage_sum( hyb_fl_stage_cost_t c )
{
	return c.face + c.volume + c.gather + c.update;
}

double hyb_fl_time_cpu( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r )
{
	return 3.0 * (double)in->steps * stage_sum( hyb_fl_cpu_stage( in, r, in->cpu_threads ) );
}

double hyb_fl_time_gpu_per_step( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r )
{
	if ( hyb_fl_device_bytes( in, 0 ) > in->device_mem ) return -1.0;
	const hyb_fl_stage_cost_t h     = hyb_fl_cpu_stage( in, r, in->cpu_threads );
	const hyb_fl_stage_cost_t d     = hyb_fl_gpu_stage( in, r );
	const double              state = 8.0 * (double)in->n_cells * in->np;
	const double              out   = 16.0 * (double)in->n_faces * in->np;
	/* The seed's workflow per stage: stage the state, send it, run the face kernel, bring
	   the output back, wait; the host's volume loop runs meanwhile; then the host gathers
	   and updates. */
	const double device = state / r->h2d_bw + d.face + out / r->d2h_bw + r->sync_s;
	const double stage  = state / r->host_copy_bw + ( device > h.volume ? device : h.volume ) +
	                     out / r->host_copy_bw + h.gather + h.update;
	return mesh_bytes( in ) / r->h2d_bw + 3.0 * (double)in->steps * stage;
}

double hyb_fl_time_gpu_resident( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r )
{
	if ( hyb_fl_device_bytes( in, 1 ) > in->device_mem ) return -1.0;
	const double state = 8.0 * (double)in->n_cells * in->np;
	/* The state crosses from page-locked arrays: the first resident run of a solver locks
	   its state and a second array of its size; where that failed, host copies stage it
	   both ways. */
	const double trip_host = in->state_pin == HYB_FL_PIN_UNTRIED ? 2.0 * state * r->register_s
	                         : in->state_pin == HYB_FL_PIN_NEVER ? 2.0 * state / r->host_copy_bw
	                                                             : 0.0;
	return ( mesh_bytes( in ) + state ) / r->h2d_bw + state / r->d2h_bw + r->sync_s + trip_host +
	       3.0 * (double)in->steps * stage_sum( hyb_fl_gpu_stage( in, r ) );
}

/* ------------------------------------------------------------------ choice */

hyb_fl_plan_t hyb_fl_plan_choose( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r )
{
	hyb_fl_plan_t p;
	p.path           = HYBLAS_PATH_CPU;
	p.form           = in->want_form != HYBLAS_FACELOOP_FORM_AUTO ? in->want_form
	                   : in->n_boundary > 0                       ? HYBLAS_FACELOOP_FORM_REMAPPED
	                                                              : HYBLAS_FACELOOP_FORM_VANILLA;
	p.t_cpu          = hyb_fl_time_cpu( in, r );
	p.t_gpu_per_step = hyb_fl_time_gpu_per_step( in, r );
	p.t_gpu_resident = hyb_fl_time_gpu_resident( in, r );
	p.gpu_wanted     = 0;
	p.why[0]         = '\0';

	/* The transfer scheme the request allows, best first. */
	const int res_ok = in->want_xfer != HYBLAS_FACELOOP_XFER_PER_STEP && p.t_gpu_resident >= 0.0;
	const int ps_ok  = in->want_xfer != HYBLAS_FACELOOP_XFER_RESIDENT && p.t_gpu_per_step >= 0.0;
	p.xfer           = res_ok ? HYBLAS_FACELOOP_XFER_RESIDENT : HYBLAS_FACELOOP_XFER_PER_STEP;
	p.t_gpu          = res_ok ? p.t_gpu_resident : ps_ok ? p.t_gpu_per_step : -1.0;

	if ( in->want_path == HYBLAS_PATH_CPU )
	{
		snprintf( p.why, sizeof p.why, "path cpu asked" );
		return p;
	}
	if ( in->want_path == HYBLAS_PATH_AUTO && in->n_faces < r->min_faces )
	{
		snprintf( p.why, sizeof p.why,
		          "%lld faces < %lld: launches and copies outweigh the loop (the seed saw no gain "
		          "up to 6224 faces)",
		          (long long)in->n_faces, (long long)r->min_faces );
		return p;
	}
	if ( !in->device_ok )
	{
		p.gpu_wanted = in->want_path == HYBLAS_PATH_GPU;
		snprintf( p.why, sizeof p.why, "%sno usable device for the face loop: cpu",
		          p.gpu_wanted ? "path gpu asked, but " : "" );
		return p;
	}
	if ( p.t_gpu < 0.0 )
	{
		p.gpu_wanted = in->want_path == HYBLAS_PATH_GPU;
		snprintf( p.why, sizeof p.why, "the run needs %.3g GB of device memory, %.3g GB allowed",
		          1e-9 * hyb_fl_device_bytes( in, in->want_xfer == HYBLAS_FACELOOP_XFER_RESIDENT ),
		          1e-9 * in->device_mem );
		return p;
	}
	if ( in->want_path == HYBLAS_PATH_AUTO && !( p.t_gpu * ( 1.0 + r->margin ) < p.t_cpu ) )
	{
		snprintf( p.why, sizeof p.why, "model: device %.3g s not %.0f %% faster than cpu %.3g s",
		          p.t_gpu, 100.0 * r->margin, p.t_cpu );
		return p;
	}
	p.gpu_wanted = 1;
	p.path       = HYBLAS_PATH_GPU;
	if ( in->want_path == HYBLAS_PATH_GPU )
		snprintf( p.why, sizeof p.why, "path gpu asked" );
	else
		snprintf( p.why, sizeof p.why, "model: device %.3g s vs cpu %.3g s", p.t_gpu, p.t_cpu );
	return p;
}
