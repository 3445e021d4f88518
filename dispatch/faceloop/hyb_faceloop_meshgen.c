/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's mesh generators: the unit square as nx x ny quadrilaterals or as
   triangles with diagonals drawn at random, optionally perturbed and periodic,
   deterministic by seed. */
#include "dispatch/faceloop/hyb_faceloop_mesh.h"

#include <stdlib.h>

/* splitmix64's finaliser: a counter-based stream, so a vertex's or a square's draw does
   not depend on the order of the loop. */
static uint64_t gen_mix( uint64_t x )
{
	x += 0x9E3779B97F4A7C15ull;
	x = ( x ^ ( x >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	x = ( x ^ ( x >> 27 ) ) * 0x94D049BB133111EBull;
	return x ^ ( x >> 31 );
}

/* Uniform in [-1, 1) for item k of stream s. */
static double gen_sym( uint64_t seed, uint64_t s, uint64_t k )
{
	const uint64_t r = gen_mix( gen_mix( seed ^ ( s << 56 ) ) ^ k );
	return (double)( r >> 11 ) * 0x1p-52 - 1.0;
}

hyblas_status_t hyb_fl_mesh_grid( const hyblas_faceloop_grid_t* g, int threads,
                                  hyblas_faceloop_mesh_t** out, char* why, size_t why_len )
{
	const int64_t nx = g->nx, ny = g->ny > 0 ? g->ny : g->nx;
	const int     tri = g->shape == HYBLAS_FACELOOP_TRI;
	const int64_t nvx = nx + 1, nvert = nvx * ( ny + 1 ), ncell = nx * ny * ( tri ? 2 : 1 );
	const int     nv    = tri ? 3 : 4;
	double*       xy    = malloc( 2 * (size_t)nvert * sizeof *xy );
	int32_t*      cv    = malloc( (size_t)ncell * nv * sizeof *cv );
	int32_t*      alias = g->periodic ? malloc( (size_t)nvert * sizeof *alias ) : NULL;
	if ( !xy || !cv || ( g->periodic && !alias ) )
	{
		free( xy );
		free( cv );
		free( alias );
		return HYBLAS_E_NO_MEMORY;
	}
#pragma omp parallel for schedule( static ) num_threads( threads )
	for ( int64_t j = 0; j <= ny; j++ )
		for ( int64_t i = 0; i <= nx; i++ )
		{
			const int64_t v = j * nvx + i;
			double        x = (double)i / (double)nx, y = (double)j / (double)ny;
			if ( i > 0 && i < nx && j > 0 && j < ny && g->perturb > 0.0 )
			{
				x += g->perturb * gen_sym( g->seed, 1, (uint64_t)v ) / (double)nx;
				y += g->perturb * gen_sym( g->seed, 2, (uint64_t)v ) / (double)ny;
			}
			xy[2 * v]     = x;
			xy[2 * v + 1] = y;
			if ( alias ) alias[v] = (int32_t)( ( j % ny ) * nvx + i % nx );
		}
#pragma omp parallel for schedule( static ) num_threads( threads )
	for ( int64_t j = 0; j < ny; j++ )
		for ( int64_t i = 0; i < nx; i++ )
		{
			const int32_t v00 = (int32_t)( j * nvx + i ), v10 = v00 + 1;
			const int32_t v01 = (int32_t)( v00 + nvx ), v11 = v01 + 1;
			const int64_t s = j * nx + i;
			int32_t*      c = cv + s * ( tri ? 6 : 4 );
			if ( !tri )
			{
				c[0] = v00, c[1] = v10, c[2] = v11, c[3] = v01;
			}
			else if ( gen_mix( g->seed ^ gen_mix( (uint64_t)s ) ) & 1 )
			{
				c[0] = v00, c[1] = v10, c[2] = v11; /* diagonal v00 - v11 */
				c[3] = v00, c[4] = v11, c[5] = v01;
			}
			else
			{
				c[0] = v00, c[1] = v10, c[2] = v01; /* diagonal v10 - v01 */
				c[3] = v10, c[4] = v11, c[5] = v01;
			}
		}
	hyblas_faceloop_mesh_desc_t d = { 0 };
	d.struct_size                 = sizeof d;
	d.n_vertices                  = nvert;
	d.xy                          = xy;
	d.n_cells                     = ncell;
	d.cell_nv                     = nv;
	d.cell_vertices               = cv;
	d.vertex_alias                = alias;
	const hyblas_status_t st      = hyb_fl_mesh_build( &d, threads, out, why, why_len );
	free( xy );
	free( cv );
	free( alias );
	return st;
}
