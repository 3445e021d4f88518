/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil kernels' declarations: names, argument sizes, the shared
   argument checks, the simulated device's launchers and their work. */
#include "kernels/stencil/hyb_stencil_kernels.h"

#include "kernels/stencil/hyb_stencil_kargs.h"
#include "kernels/stencil/hyb_stencil_sim.h"

static hyb_status_t hyb_stencil_acoustic_check( const void* args )
{
	return hyb_stencil_acoustic_bad( args ) ? HYB_E_INVALID : HYB_OK;
}

static hyb_status_t hyb_stencil_himeno_check( const void* args )
{
	return hyb_stencil_himeno_bad( args ) ? HYB_E_INVALID : HYB_OK;
}

static hyb_status_t hyb_stencil_laplace_check( const void* args )
{
	return hyb_stencil_laplace_bad( args ) ? HYB_E_INVALID : HYB_OK;
}

static hyb_status_t hyb_stencil_star_check( const void* args )
{
	return hyb_stencil_star_bad( args ) ? HYB_E_INVALID : HYB_OK;
}

static hyb_status_t hyb_stencil_wave_check( const void* args )
{
	return hyb_stencil_wave_bad( args ) ? HYB_E_INVALID : HYB_OK;
}

/* Points updated by one launch (every argument struct starts with its box). */
static double hyb_stencil_points( const void* args )
{
	const hyb_stencil_box_t* b = args;
	return (double)b->nx * (double)b->ny * (double)( b->z1 - b->z0 );
}

/* Per point: the operations of the formula and the arrays read and written
   once each (neighbours come from caches). */
static void hyb_stencil_acoustic_work( const void* args, double* flops, double* bytes )
{
	const hyb_stencil_box_t* b = args;
	*flops                     = 33.0 * hyb_stencil_points( args );
	*bytes = 4.0 * (double)( b->elem == HYB_STENCIL_F32 ? 4 : 8 ) * hyb_stencil_points( args );
}

static void hyb_stencil_himeno_work( const void* args, double* flops, double* bytes )
{
	const hyb_stencil_box_t* b = args;
	*flops                     = 34.0 * hyb_stencil_points( args );
	*bytes = 14.0 * (double)( b->elem == HYB_STENCIL_F32 ? 4 : 8 ) * hyb_stencil_points( args );
}

static void hyb_stencil_grid_work( const void* args, double* flops, double* bytes )
{
	const hyb_stencil_box_t* b = args;
	*flops = (double)( 2 * b->dims * b->radius + 1 ) * 2.0 * hyb_stencil_points( args );
	*bytes = 2.0 * (double)( b->elem == HYB_STENCIL_F32 ? 4 : 8 ) * hyb_stencil_points( args );
}

/* Two levels read (p, q) and two written per point. */
static void hyb_stencil_wave_work( const void* args, double* flops, double* bytes )
{
	const hyb_stencil_box_t* b = args;
	*flops                     = 12.0 * hyb_stencil_points( args );
	*bytes = 4.0 * (double)( b->elem == HYB_STENCIL_F32 ? 4 : 8 ) * hyb_stencil_points( args );
}

static HYB_KERNEL_DEFINE( hyb_stencil_acoustic_kernel, "stencil.acoustic", NULL,
                          hyb_stencil_acoustic_args_t, hyb_stencil_acoustic_check,
                          hyb_stencil_acoustic_sim, hyb_stencil_acoustic_work );
static HYB_KERNEL_DEFINE( hyb_stencil_himeno_kernel, "stencil.himeno", NULL,
                          hyb_stencil_himeno_args_t, hyb_stencil_himeno_check,
                          hyb_stencil_himeno_sim, hyb_stencil_himeno_work );
static HYB_KERNEL_DEFINE( hyb_stencil_laplace_kernel, "stencil.laplace", NULL,
                          hyb_stencil_laplace_args_t, hyb_stencil_laplace_check,
                          hyb_stencil_laplace_sim, hyb_stencil_grid_work );
static HYB_KERNEL_DEFINE( hyb_stencil_star_kernel, "stencil.star", NULL, hyb_stencil_star_args_t,
                          hyb_stencil_star_check, hyb_stencil_star_sim, hyb_stencil_grid_work );
static HYB_KERNEL_DEFINE( hyb_stencil_wave_kernel, "stencil.wave", NULL, hyb_stencil_wave_args_t,
                          hyb_stencil_wave_check, hyb_stencil_wave_sim, hyb_stencil_wave_work );

hyb_kernel_id_t hyb_stencil_kernel_id( int32_t kind )
{
	static atomic_int                    cache[5];
	static const hyb_kernel_def_t* const defs[5] = {
		&hyb_stencil_acoustic_kernel, &hyb_stencil_himeno_kernel, &hyb_stencil_laplace_kernel,
		&hyb_stencil_star_kernel, &hyb_stencil_wave_kernel
	};
	if ( kind < HYB_STENCIL_ACOUSTIC || kind > HYB_STENCIL_WAVE ) return HYB_KERNEL_NONE;
	return hyb_kernel_id_cached( &cache[kind - HYB_STENCIL_ACOUSTIC],
	                             defs[kind - HYB_STENCIL_ACOUSTIC] );
}
