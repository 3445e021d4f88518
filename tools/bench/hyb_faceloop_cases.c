/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's benchmark cases, shared by the CPU benchmark and the GPU check. */
#include "tools/bench/hyb_faceloop_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t faces_of( int tri, int64_t n )
{
	return tri ? 3 * n * n + 2 * n : 2 * n * ( n + 1 );
}

int64_t hyb_flb_n_for( int tri, int64_t faces )
{
	int64_t best = 1;
	for ( int64_t n = 2; n < 5000; n++ )
		if ( llabs( faces_of( tri, n ) - faces ) < llabs( faces_of( tri, best ) - faces ) )
			best = n;
	return best;
}

int hyb_flb_seed_cases( hyb_flb_case_t* out, int quick )
{
	/* Table 4.1 of the seed: its triangle meshes differ between the two equations. */
	static const int64_t tri_seed[2][3] = { { 404, 1576, 6224 }, { 380, 1480, 5840 } };
	static const int     sizes[3]       = { 10, 20, 40 };
	int                  k              = 0;
	for ( int eq = 0; eq <= 1; eq++ )
		for ( int p = 1; p <= 3; p += 2 )
			for ( int tri = 0; tri <= 1; tri++ )
				for ( int s = 0; s < ( quick ? 1 : 3 ); s++, k++ )
				{
					hyb_flb_case_t* c = out + k;
					c->eq             = eq;
					c->p              = p;
					c->tri            = tri;
					c->seed_faces     = tri ? tri_seed[eq][s] : faces_of( 0, sizes[s] );
					c->n              = tri ? hyb_flb_n_for( 1, c->seed_faces ) : sizes[s];
					snprintf( c->label, sizeof c->label, "%s-%d", tri ? "tri" : "quad", sizes[s] );
				}
	return k;
}

int hyb_flb_large_cases( hyb_flb_case_t* out, int64_t faces )
{
	int exp10 = 0;
	for ( int64_t f = faces; f >= 10; f /= 10 ) exp10++;
	int k = 0;
	for ( int eq = 0; eq <= 1; eq++ )
		for ( int p = 1; p <= 3; p += 2 )
			for ( int tri = 0; tri <= 1; tri++, k++ )
			{
				hyb_flb_case_t* c = out + k;
				c->eq             = eq;
				c->p              = p;
				c->tri            = tri;
				c->seed_faces     = 0;
				c->n              = hyb_flb_n_for( tri, faces );
				snprintf( c->label, sizeof c->label, "%s-1e%d", tri ? "tri" : "quad", exp10 );
			}
	return k;
}

hyblas_faceloop_mesh_t* hyb_flb_mesh( const hyb_flb_case_t* c )
{
	hyblas_faceloop_grid_t g;
	memset( &g, 0, sizeof g );
	g.struct_size              = sizeof g;
	g.shape                    = c->tri ? HYBLAS_FACELOOP_TRI : HYBLAS_FACELOOP_QUAD;
	g.nx                       = c->n;
	g.seed                     = 2017;
	g.perturb                  = c->tri ? 0.15 : 0.0;
	hyblas_faceloop_mesh_t* m  = NULL;
	const hyblas_status_t   st = hyblas_faceloop_mesh_generate( &g, &m );
	if ( st != HYBLAS_OK ) fprintf( stderr, "%s: mesh generation: status %d\n", c->label, (int)st );
	return st == HYBLAS_OK ? m : NULL;
}

hyblas_faceloop_solver_t* hyb_flb_solver( hyblas_faceloop_mesh_t* m, const hyb_flb_case_t* c )
{
	hyblas_faceloop_solver_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size                = sizeof d;
	d.equation                   = c->eq ? HYBLAS_FACELOOP_BURGERS : HYBLAS_FACELOOP_ADVECTION;
	d.degree                     = c->p;
	hyblas_faceloop_solver_t* s  = NULL;
	const hyblas_status_t     st = hyblas_faceloop_solver_create( m, &d, &s );
	if ( st != HYBLAS_OK ) fprintf( stderr, "%s: solver creation: status %d\n", c->label, (int)st );
	return st == HYBLAS_OK ? s : NULL;
}
