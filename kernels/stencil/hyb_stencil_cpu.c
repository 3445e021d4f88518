/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP CPU stencil kernels: argument checks and the parallel loop
   over the rows of a range of planes (the rows themselves are in
   hyb_stencil_cpu_row.h). */
#include "kernels/stencil/hyb_stencil_cpu.h"

#include <omp.h>
#include <stdint.h>
#include <string.h>

#define HYB_STENCIL_BODY "kernels/stencil/hyb_stencil_cpu_row.h"
#include "kernels/stencil/hyb_stencil_types.h"

typedef double ( *hyb_stencil_row_fn )( const void* args, int64_t z, int64_t y );

/* Every row of [z0, z1) of the box b of the checked `args`, in parallel, by row_f32 or
   row_f64 as the box's element type says. With
   `plane_ss`, the planes of [own0, own1) also store their residual: each plane is then
   one thread's, summed row by row in order, so the sum does not depend on the
   threads. Returns HYB_OK. */
static hyb_status_t hyb_stencil_rows( const hyb_stencil_box_t* b, const void* args,
                                      hyb_stencil_row_fn row_f32, hyb_stencil_row_fn row_f64,
                                      double* plane_ss, int64_t own0, int64_t own1, int nthreads )
{
	const hyb_stencil_row_fn row  = b->elem == HYB_STENCIL_F32 ? row_f32 : row_f64;
	const int                nth  = nthreads > 0 ? nthreads : omp_get_max_threads();
	const int64_t            ny   = b->ny;
	const int64_t            rows = ( b->z1 - b->z0 ) * ny;
	if ( plane_ss == NULL )
	{
#pragma omp parallel for num_threads( nth ) schedule( static )
		for ( int64_t i = 0; i < rows; i++ ) row( args, b->z0 + i / ny, i % ny );
		return HYB_OK;
	}
#pragma omp parallel for num_threads( nth ) schedule( static )
	for ( int64_t z = b->z0; z < b->z1; z++ )
	{
		double acc = 0.0;
		for ( int64_t y = 0; y < ny; y++ ) acc += row( args, z, y );
		if ( z >= own0 && z < own1 ) plane_ss[z - own0] = acc;
	}
	return HYB_OK;
}

hyb_status_t hyb_stencil_acoustic_cpu( const hyb_stencil_acoustic_args_t* a, int nthreads )
{
	if ( hyb_stencil_acoustic_bad( a ) ) return HYB_E_INVALID;
	return hyb_stencil_rows( &a->box, a, acoustic_row_f32, acoustic_row_f64, NULL, 0, 0, nthreads );
}

hyb_status_t hyb_stencil_himeno_cpu( const hyb_stencil_himeno_args_t* a, int nthreads )
{
	if ( hyb_stencil_himeno_bad( a ) ) return HYB_E_INVALID;
	return hyb_stencil_rows( &a->box, a, himeno_row_f32, himeno_row_f64, a->plane_ss, a->own0,
	                         a->own1, nthreads );
}

hyb_status_t hyb_stencil_laplace_cpu( const hyb_stencil_laplace_args_t* a, int nthreads )
{
	if ( hyb_stencil_laplace_bad( a ) ) return HYB_E_INVALID;
	return hyb_stencil_rows( &a->box, a, laplace_row_f32, laplace_row_f64, NULL, 0, 0, nthreads );
}

hyb_status_t hyb_stencil_wave_cpu( const hyb_stencil_wave_args_t* a, int nthreads )
{
	if ( hyb_stencil_wave_bad( a ) ) return HYB_E_INVALID;
	return hyb_stencil_rows( &a->box, a, wave_row_f32, wave_row_f64, NULL, 0, 0, nthreads );
}

hyb_status_t hyb_stencil_star_cpu( const hyb_stencil_star_args_t* a, int nthreads )
{
	if ( hyb_stencil_star_bad( a ) ) return HYB_E_INVALID;
	return hyb_stencil_rows( &a->box, a, star_row_f32, star_row_f64, NULL, 0, 0, nthreads );
}
