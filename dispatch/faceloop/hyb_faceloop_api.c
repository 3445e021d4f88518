/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's public functions (include/hyblas/faceloop.h): validate, plan,
   run, fall back, fill the statistics. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "dispatch/faceloop/hyb_faceloop_device.h"
#include "dispatch/faceloop/hyb_faceloop_mesh.h"
#include "dispatch/faceloop/hyb_faceloop_solver.h"
#include "dispatch/hyb_ext_status.h"
#include "hyb_op.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "hyb_types.h"
#include "kernels/faceloop/hyb_faceloop_kernels.h"
#include "kernels/faceloop/hyb_faceloop_partition.h"
#include "policies/faceloop/hyb_faceloop_plan.h"
#include "core/config/hyb_config.h"

#define HYB_FL_EXPORT __attribute__( ( visibility( "default" ) ) )

/* ------------------------------------------------------------------ versioned structs */

/* Copy the caller's input struct (its struct_size bytes, at most ours) over a zeroed one of
   ours: fields a newer caller added are not read, fields an older caller lacks stay zero
   (their defaults). The first version of every struct is its current size. */
static hyblas_status_t struct_in( const void* src, void* dst, size_t ours )
{
	memset( dst, 0, ours );
	if ( src == NULL ) return HYBLAS_OK;
	const size_t sz = *(const size_t*)src;
	if ( sz < ours ) return HYBLAS_E_STRUCT_SIZE;
	memcpy( dst, src, ours );
	return HYBLAS_OK;
}

/* The caller's output struct must hold at least our first version; ours, `src`, starts
   zeroed for struct_out to copy once it is filled. */
static hyblas_status_t struct_out_start( const void* dst, void* src, size_t ours )
{
	memset( src, 0, ours );
	return dst == NULL || *(const size_t*)dst >= ours ? HYBLAS_OK : HYBLAS_E_STRUCT_SIZE;
}

/* Write our output struct into the caller's (struct_out_start passed), keeping its size. */
static void struct_out( void* dst, const void* src, size_t ours )
{
	if ( dst == NULL ) return;
	const size_t sz = *(const size_t*)dst;
	memcpy( dst, src, ours );
	*(size_t*)dst = sz;
}

static int omp_threads( void )
{
	const int t = omp_get_max_threads();
	return t > 0 ? t : 1;
}

/* ------------------------------------------------------------------ partition */

HYB_FL_EXPORT hyblas_status_t hyblas_partition_by_predicate( const uint8_t* pred, int64_t n,
                                                             int32_t* idx_out, int64_t* n_true )
{
	return hyb_ext_status( hyb_fl_partition( pred, n, idx_out, n_true, omp_threads() ) );
}

/* ------------------------------------------------------------------ meshes */

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_mesh_create( const hyblas_faceloop_mesh_desc_t* desc,
                                                           hyblas_faceloop_mesh_t** mesh, char* why,
                                                           size_t why_len )
{
	if ( desc == NULL || mesh == NULL )
	{
		if ( why && why_len ) snprintf( why, why_len, "desc and mesh must not be NULL" );
		return HYBLAS_E_INVALID;
	}
	hyblas_faceloop_mesh_desc_t d;
	const hyblas_status_t       st = struct_in( desc, &d, sizeof d );
	if ( st != HYBLAS_OK )
	{
		if ( why && why_len ) snprintf( why, why_len, "desc->struct_size is too small" );
		return st;
	}
	return hyb_fl_mesh_build( &d, omp_threads(), mesh, why, why_len );
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_mesh_generate( const hyblas_faceloop_grid_t* grid,
                                                             hyblas_faceloop_mesh_t**      mesh )
{
	if ( grid == NULL || mesh == NULL ) return HYBLAS_E_INVALID;
	hyblas_faceloop_grid_t g;
	hyblas_status_t        st = struct_in( grid, &g, sizeof g );
	if ( st != HYBLAS_OK ) return st;
	const int64_t ny = g.ny > 0 ? g.ny : g.nx;
	const int     nc = g.shape == HYBLAS_FACELOOP_TRI ? 6 : 4; /* vertices listed per square */
	if ( ( g.shape != HYBLAS_FACELOOP_QUAD && g.shape != HYBLAS_FACELOOP_TRI ) || g.nx < 1 ||
	     g.ny < 0 || ( g.periodic != 0 && g.periodic != 1 ) ||
	     !( g.perturb >= 0.0 && g.perturb <= 0.3 ) )
		return HYBLAS_E_INVALID;
	/* Periodic with fewer than 3 squares a side would join two different edges through
	   the same pair of (identified) vertices. */
	if ( g.periodic && ( g.nx < 3 || ny < 3 ) ) return HYBLAS_E_INVALID;
	/* Vertices, and the cells' vertex lists, must be countable as hyb_fl_mesh_build
	   requires (cells' vertex entries below 2^30). */
	if ( (double)( g.nx + 1 ) * (double)( ny + 1 ) > (double)INT32_MAX ||
	     (double)g.nx * (double)ny * nc > (double)( INT32_MAX / 2 ) )
		return HYBLAS_E_INVALID;
	char why[160];
	st = hyb_fl_mesh_grid( &g, omp_threads(), mesh, why, sizeof why );
	return st == HYBLAS_E_INVALID ? HYBLAS_E_INTERNAL : st; /* a generated mesh is valid */
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_mesh_info( const hyblas_faceloop_mesh_t* m,
                                                         hyblas_faceloop_mesh_info_t*  info )
{
	if ( m == NULL || info == NULL ) return HYBLAS_E_INVALID;
	hyblas_faceloop_mesh_info_t r;
	if ( struct_out_start( info, &r, sizeof r ) != HYBLAS_OK ) return HYBLAS_E_STRUCT_SIZE;
	r.cell_nv              = m->nv;
	r.n_vertices           = m->n_vertices;
	r.n_cells              = m->n_cells;
	r.n_faces              = m->n_faces;
	r.n_boundary_faces     = m->n_boundary;
	r.n_bilinear_cells     = m->n_bilinear;
	r.h_min                = m->h_min;
	r.area                 = m->area;
	r.warps_mixed_vanilla  = m->warps_mixed_vanilla;
	r.warps_mixed_remapped = m->warps_mixed_remapped;
	struct_out( info, &r, sizeof r );
	return HYBLAS_OK;
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_mesh_destroy( hyblas_faceloop_mesh_t* mesh )
{
	hyb_fl_mesh_release( mesh );
	return HYBLAS_OK;
}

/* ------------------------------------------------------------------ solver */

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_solver_create(
    hyblas_faceloop_mesh_t* mesh, const hyblas_faceloop_solver_desc_t* desc,
    hyblas_faceloop_solver_t** solver )
{
	if ( mesh == NULL || solver == NULL ) return HYBLAS_E_INVALID;
	hyblas_faceloop_solver_desc_t d;
	hyblas_status_t               st = struct_in( desc, &d, sizeof d );
	if ( st != HYBLAS_OK ) return st;
	const int p = d.degree == 0 ? 1 : d.degree;
	if ( ( d.equation != HYBLAS_FACELOOP_ADVECTION && d.equation != HYBLAS_FACELOOP_BURGERS ) ||
	     p < 1 || p > HYB_FL_P_MAX || !isfinite( d.ax ) || !isfinite( d.ay ) ||
	     !( d.dt >= 0.0 && d.dt < INFINITY ) || !( d.cfl >= 0.0 && d.cfl < INFINITY ) )
		return HYBLAS_E_INVALID;
	hyb_fl_eq_t eq;
	eq.kind = d.equation == HYBLAS_FACELOOP_BURGERS ? HYB_FL_EQ_BURGERS : HYB_FL_EQ_ADVECTION;
	eq.ax   = d.ax;
	eq.ay   = d.ay;
	if ( eq.kind == HYB_FL_EQ_ADVECTION && d.ax == 0.0 && d.ay == 0.0 )
	{
		eq.ax = 1.0;
		eq.ay = 0.5;
	}
	return hyb_fl_solver_new( mesh, eq, p, d.dt, d.cfl > 0.0 ? d.cfl : 1.0, omp_threads(), solver );
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_solver_destroy( hyblas_faceloop_solver_t* solver )
{
	hyb_fl_solver_free( solver );
	return HYBLAS_OK;
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_solver_info( const hyblas_faceloop_solver_t* s,
                                                           hyblas_faceloop_solver_info_t*  info )
{
	if ( s == NULL || info == NULL ) return HYBLAS_E_INVALID;
	hyblas_faceloop_solver_info_t r;
	if ( struct_out_start( info, &r, sizeof r ) != HYBLAS_OK ) return HYBLAS_E_STRUCT_SIZE;
	const hyblas_status_t st = hyb_fl_solver_integral( s, omp_threads(), &r.integral );
	if ( st != HYBLAS_OK ) return st;
	r.degree         = s->p;
	r.modes_per_cell = s->np;
	r.face_points    = s->tab.nq;
	r.volume_points  = s->tab.nqv;
	r.n_cells        = s->mesh->n_cells;
	r.steps_done     = s->steps_done;
	r.dt             = s->dt;
	r.time           = s->time;
	struct_out( info, &r, sizeof r );
	return HYBLAS_OK;
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_get_state( const hyblas_faceloop_solver_t* s,
                                                         double* modes, int64_t len )
{
	if ( s == NULL || modes == NULL || len < s->mesh->n_cells * s->np ) return HYBLAS_E_INVALID;
	memcpy( modes, s->u, (size_t)( s->mesh->n_cells * s->np ) * sizeof *modes );
	return HYBLAS_OK;
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_set_state( hyblas_faceloop_solver_t* s,
                                                         const double* modes, int64_t len,
                                                         double time )
{
	if ( s == NULL || modes == NULL || len < s->mesh->n_cells * s->np || !isfinite( time ) )
		return HYBLAS_E_INVALID;
	const int64_t n = s->mesh->n_cells * s->np;
	for ( int64_t i = 0; i < n; i++ )
		if ( !isfinite( modes[i] ) ) return HYBLAS_E_INVALID;
	memcpy( s->u, modes, (size_t)n * sizeof *modes );
	s->time = time;
	return HYBLAS_OK;
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_l2_error( const hyblas_faceloop_solver_t* s,
                                                        double*                         err )
{
	if ( s == NULL || err == NULL ) return HYBLAS_E_INVALID;
	/* Burgers' characteristics cross at t = 1 / pi: no smooth solution to compare with. */
	if ( s->eq.kind == HYB_FL_EQ_BURGERS && s->time >= 1.0 / M_PI ) return HYBLAS_E_UNSUPPORTED;
	return hyb_fl_solver_l2_error( s, omp_threads(), err );
}

/* ------------------------------------------------------------------ run */

static hyblas_status_t check_params( const hyblas_faceloop_run_params_t* p )
{
	if ( p->path != HYBLAS_PATH_AUTO && p->path != HYBLAS_PATH_CPU && p->path != HYBLAS_PATH_GPU )
		return HYBLAS_E_INVALID;
	if ( (unsigned)p->form > HYBLAS_FACELOOP_FORM_LOWREG ||
	     (unsigned)p->xfer > HYBLAS_FACELOOP_XFER_RESIDENT )
		return HYBLAS_E_INVALID;
	if ( p->cpu_threads < 0 || p->cpu_threads > 4096 ) return HYBLAS_E_INVALID;
	if ( p->block_size != 0 &&
	     ( p->block_size < 32 || p->block_size > 1024 || p->block_size % 32 ) )
		return HYBLAS_E_INVALID;
	return HYBLAS_OK;
}

/* Whether a device can run this family's kernels: not when the process is kept on the
   CPU (HYBLAS_MODE=cpu) or the caller asked for the CPU; otherwise the device runtime's
   answer (initialised on the first such call), and the memory its budget allows. */
static int device_usable( const hyblas_faceloop_run_params_t* p, double* mem )
{
	*mem = 0.0;
	if ( p->path == HYBLAS_PATH_CPU ) return 0;
	if ( p->path == HYBLAS_PATH_AUTO && hyb_config()->mode == HYB_MODE_CPU ) return 0;
	if ( hyb_devices_ensure() != HYB_OK || hyb_devices_count() < 1 ||
	     !hyb_faceloop_kernels_supported() )
		return 0;
	*mem = hyb_dev_budget( 0 );
	return 1;
}

/* What the planner needs to know of this run. */
static hyb_fl_plan_in_t plan_input( const hyblas_faceloop_solver_t* s, int64_t steps,
                                    const hyblas_faceloop_run_params_t* p, int threads )
{
	hyb_fl_plan_in_t in;
	memset( &in, 0, sizeof in );
	in.n_faces     = s->mesh->n_faces;
	in.n_boundary  = s->mesh->n_boundary;
	in.n_cells     = s->mesh->n_cells;
	in.n_bilinear  = s->mesh->n_bilinear;
	in.nv          = s->mesh->nv;
	in.np          = s->np;
	in.nq          = s->tab.nq;
	in.nqv         = s->tab.nqv;
	in.equation    = s->eq.kind;
	in.steps       = steps;
	in.cpu_threads = threads;
	in.want_path   = p->path;
	in.want_form   = p->form;
	in.want_xfer   = p->xfer;
	in.state_pin   = s->pin;
	return in;
}

/* The operation every run is counted as (hyb_calls("hyblas_faceloop_run")). */
static hyb_op_id_t run_op( void )
{
	static atomic_int op = HYB_OP_NONE;
	if ( atomic_load( &op ) == HYB_OP_NONE )
		atomic_store( &op, hyb_op_register( "hyblas_faceloop_run", "faceloop" ) );
	return atomic_load( &op );
}

/* Count the run and write its trace line. */
static void account( const hyblas_faceloop_solver_t* s, const hyblas_faceloop_stats_t* r,
                     int planned_gpu, const hyb_fl_dev_out_t* dev )
{
	const hyb_op_id_t op   = run_op();
	const hyb_path_t  path = r->path == HYBLAS_PATH_GPU ? HYB_PATH_GPU
	                         : planned_gpu              ? HYB_PATH_FALLBACK
	                                                    : HYB_PATH_CPU;
	if ( path == HYB_PATH_FALLBACK ) hyb_stats_fallback( op );
	const double flops =
	    3.0 * (double)r->steps *
	    ( (double)s->mesh->n_faces * hyb_fl_face_flops( s->np, s->tab.nq, s->eq.kind, 0 ) +
	      (double)s->mesh->n_cells * hyb_fl_volume_flops( s->np, s->tab.nqv ) );
	hyb_stats_record( op, path, r->total_s, flops, (double)( r->bytes_h2d + r->bytes_d2h ) );
	char shape[128], extra[384];
	snprintf( shape, sizeof shape, "faces=%lld cells=%lld nv=%d p=%d steps=%lld",
	          (long long)s->mesh->n_faces, (long long)s->mesh->n_cells, (int)s->mesh->nv, (int)s->p,
	          (long long)r->steps );
	snprintf( extra, sizeof extra,
	          " plan=\"%s\" face_s=%.6g face_e2e_s=%.6g mesh_s=%.6g trip_s=%.6g trip_up_s=%.6g "
	          "trip_copy_s=%.6g pin_s=%.6g h2d=%lld d2h=%lld",
	          r->plan, r->face_loop_s, r->face_end_to_end_s, dev->mesh_s, dev->trip_s,
	          dev->trip_up_s, dev->trip_copy_s, dev->pin_s, (long long)r->bytes_h2d,
	          (long long)r->bytes_d2h );
	const hyb_trace_fields_t f = { op,
		                           s->eq.kind == HYB_FL_EQ_BURGERS ? "burgers" : "advection",
		                           shape,
		                           hyb_path_name( path ),
		                           r->predicted_cpu_s,
		                           r->predicted_gpu_s,
		                           r->path == HYBLAS_PATH_GPU ? r->predicted_gpu_s
		                                                      : r->predicted_cpu_s,
		                           r->total_s,
		                           extra,
		                           r->why };
	hyb_trace_line( &f );
}

HYB_FL_EXPORT hyblas_status_t hyblas_faceloop_run( hyblas_faceloop_solver_t* s, int64_t steps,
                                                   const hyblas_faceloop_run_params_t* params,
                                                   hyblas_faceloop_stats_t*            stats )
{
	if ( s == NULL || steps < 0 ) return HYBLAS_E_INVALID;
	hyblas_faceloop_run_params_t p;
	hyblas_status_t              st = struct_in( params, &p, sizeof p );
	if ( st != HYBLAS_OK ) return st;
	if ( check_params( &p ) != HYBLAS_OK ) return HYBLAS_E_INVALID;
	hyblas_faceloop_stats_t r;
	if ( struct_out_start( stats, &r, sizeof r ) != HYBLAS_OK ) return HYBLAS_E_STRUCT_SIZE;

	const double   t0      = hyb_now();
	const int      threads = p.cpu_threads > 0 ? p.cpu_threads : omp_threads();
	hyb_fl_rates_t rates;
	hyb_fl_rates_default( &rates );
	/* The device model is evaluated as if the device had room, so the statistics show its
	   prediction beside the CPU's even where no device runs. */
	hyb_fl_plan_in_t in       = plan_input( s, steps, &p, threads );
	in.device_ok              = 1;
	in.device_mem             = INFINITY;
	hyb_fl_plan_t plan        = hyb_fl_plan_choose( &in, &rates );
	const double  t_gpu_model = plan.t_gpu;
	/* Where even a device with room would not be used (the CPU asked for, the size floor,
	   the model's margin) that plan stands and no device is started; otherwise ask the
	   runtime and plan again with its answer. */
	if ( plan.path == HYBLAS_PATH_GPU || plan.gpu_wanted )
	{
		in.device_ok = device_usable( &p, &in.device_mem );
		plan         = hyb_fl_plan_choose( &in, &rates );
	}

	const int        lowreg   = plan.form == HYBLAS_FACELOOP_FORM_LOWREG;
	const int        remapped = plan.form == HYBLAS_FACELOOP_FORM_REMAPPED || lowreg;
	hyb_fl_dev_out_t dev;
	memset( &dev, 0, sizeof dev );
	hyb_status_t dst = HYB_E_NO_DEVICE;
	if ( plan.path == HYBLAS_PATH_GPU )
	{
		hyb_fl_dev_req_t q;
		q.resident = plan.xfer == HYBLAS_FACELOOP_XFER_RESIDENT;
		q.remapped = remapped;
		q.lowreg   = lowreg;
		q.block    = p.block_size;
		q.threads  = threads;
		dst        = hyb_fl_device_steps( s, steps, &q, &dev );
	}
	const int on_device = dst == HYB_OK;
	/* The CPU runs the face loop in the mesh's order unless a remapped order was asked for
	   (the order changes no bit of the result, only the device's warps). A failed device
	   run left the solver as it was: the CPU runs all the steps. */
	hyb_fl_loop_times_t t = { 0, 0, 0, 0 };
	if ( !on_device )
		hyb_fl_solver_cpu_steps( s, steps, threads, remapped ? s->mesh->remap : NULL, &t );

	r.struct_size       = sizeof r;
	r.steps             = steps;
	r.time              = s->time;
	r.path              = on_device ? HYBLAS_PATH_GPU : HYBLAS_PATH_CPU;
	r.form              = remapped ? plan.form : HYBLAS_FACELOOP_FORM_VANILLA;
	r.xfer              = plan.xfer;
	r.fell_back         = plan.gpu_wanted && !on_device;
	r.cpu_threads       = threads;
	r.face_loop_s       = on_device ? dev.face_s : t.face;
	r.face_end_to_end_s = on_device ? dev.face_e2e_s : t.face + t.gather;
	r.volume_loop_s     = on_device ? dev.volume_s : t.volume;
	r.update_loop_s     = on_device ? dev.update_s : t.update;
	r.bytes_h2d         = dev.bytes_h2d;
	r.bytes_d2h         = dev.bytes_d2h;
	r.predicted_cpu_s   = plan.t_cpu;
	r.predicted_gpu_s   = t_gpu_model;
	/* The face kernel is compiled per (shape, degree, equation): the runtime's kernel
	   attributes name no single function for it, so registers and occupancy stay unknown
	   here (gpu_check_faceloop reports them per kernel). */
	r.regs_per_thread = -1;
	r.occupancy       = -1.0;
	r.warps_mixed     = remapped ? s->mesh->warps_mixed_remapped : s->mesh->warps_mixed_vanilla;
	static const char* const forms[] = { "auto", "vanilla", "remapped", "lowreg" };
	if ( on_device )
		snprintf( r.plan, sizeof r.plan, "gpu %s %s", forms[r.form],
		          plan.xfer == HYBLAS_FACELOOP_XFER_RESIDENT ? "resident" : "per-step" );
	else if ( threads == 1 )
		snprintf( r.plan, sizeof r.plan, "cpu serial" );
	else
		snprintf( r.plan, sizeof r.plan, "cpu omp %d", threads );
	if ( plan.gpu_wanted && !on_device && plan.path == HYBLAS_PATH_GPU )
		snprintf( r.why, sizeof r.why, "device failed (%s): the CPU ran the steps",
		          hyb_status_name( dst ) );
	else
		snprintf( r.why, sizeof r.why, "%s", plan.why );
	r.total_s = hyb_now() - t0;
	account( s, &r, plan.gpu_wanted, &dev );
	struct_out( stats, &r, sizeof r );
	return HYBLAS_OK;
}
