/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer harness: hyblas_faceloop_mesh_create on meshes made from the input bytes
   (a few vertices on a small integer grid, so that degenerate, clockwise, overlapping,
   non-manifold, periodic and explicitly listed faces all come up), with vertex indices,
   aliases and face lists that may be out of range. The contract checked: HYBLAS_OK gives
   a mesh whose info is consistent and on which a solver takes a CPU step with a finite
   state; HYBLAS_E_INVALID leaves *mesh untouched and writes a NUL-terminated reason. Any
   crash, sanitizer report or abort() is a finding. tools/fuzz/run.sh builds and runs it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "hyblas_ext.h"

/* An index in [-1, n]: mostly valid, sometimes one off either end. */
static int32_t fz_index( fz_in_t* in, int64_t n )
{
	return (int32_t)( (int64_t)fz_byte( in ) % ( n + 2 ) ) - 1;
}

static void fz_step( hyblas_faceloop_mesh_t* mesh, int degree )
{
	hyblas_faceloop_solver_desc_t sd;
	memset( &sd, 0, sizeof sd );
	sd.struct_size              = sizeof sd;
	sd.degree                   = degree;
	hyblas_faceloop_solver_t* s = NULL;
	if ( hyblas_faceloop_solver_create( mesh, &sd, &s ) != HYBLAS_OK ) abort();
	hyblas_faceloop_run_params_t rp;
	memset( &rp, 0, sizeof rp );
	rp.struct_size = sizeof rp;
	rp.path        = HYBLAS_PATH_CPU;
	rp.cpu_threads = 1;
	if ( hyblas_faceloop_run( s, 1, &rp, NULL ) != HYBLAS_OK ) abort();
	hyblas_faceloop_solver_info_t si;
	memset( &si, 0, sizeof si );
	si.struct_size = sizeof si;
	if ( hyblas_faceloop_solver_info( s, &si ) != HYBLAS_OK || !isfinite( si.integral ) ) abort();
	hyblas_faceloop_solver_destroy( s );
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	fz_in_t                     in = { data, size, 0 };
	hyblas_faceloop_mesh_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size          = sizeof d;
	d.cell_nv              = 3 + (int32_t)( fz_byte( &in ) & 1u );
	d.n_vertices           = 1 + fz_byte( &in ) % 16;
	d.n_cells              = 1 + fz_byte( &in ) % 12;
	const unsigned flags   = fz_byte( &in );
	const int      degree  = 1 + (int)( flags >> 4 ) % 3;
	double*        xy      = malloc( (size_t)d.n_vertices * 2 * sizeof *xy );
	int32_t*       cv      = malloc( (size_t)( d.n_cells * d.cell_nv ) * sizeof *cv );
	int32_t*       alias   = malloc( (size_t)d.n_vertices * sizeof *alias );
	const int64_t  n_faces = ( flags & 2u ) ? fz_byte( &in ) % 48 : 0;
	int32_t*       fv      = malloc( (size_t)( 2 * n_faces + 1 ) * sizeof *fv );
	if ( !xy || !cv || !alias || !fv ) abort();
	for ( int64_t i = 0; i < 2 * d.n_vertices; i++ ) xy[i] = (double)( fz_byte( &in ) % 8 ) / 4.0;
	for ( int64_t i = 0; i < d.n_cells * d.cell_nv; i++ ) cv[i] = fz_index( &in, d.n_vertices );
	for ( int64_t v = 0; v < d.n_vertices; v++ )
	{
		const unsigned b = fz_byte( &in );
		alias[v]         = b < 160 ? (int32_t)v : fz_index( &in, d.n_vertices );
	}
	for ( int64_t i = 0; i < 2 * n_faces; i++ ) fv[i] = fz_index( &in, d.n_vertices );
	d.xy            = xy;
	d.cell_vertices = cv;
	d.vertex_alias  = ( flags & 1u ) ? alias : NULL;
	d.n_faces       = n_faces;
	d.face_vertices = n_faces ? fv : NULL;

	hyblas_faceloop_mesh_t* const sentinel = (hyblas_faceloop_mesh_t*)&in;
	hyblas_faceloop_mesh_t*       mesh     = sentinel;
	char                          why[96];
	memset( why, 'x', sizeof why );
	const hyblas_status_t st = hyblas_faceloop_mesh_create( &d, &mesh, why, sizeof why );
	if ( st == HYBLAS_OK )
	{
		hyblas_faceloop_mesh_info_t mi;
		memset( &mi, 0, sizeof mi );
		mi.struct_size = sizeof mi;
		if ( mesh == sentinel || mesh == NULL ||
		     hyblas_faceloop_mesh_info( mesh, &mi ) != HYBLAS_OK || mi.n_cells != d.n_cells ||
		     mi.n_faces < 1 || mi.n_boundary_faces > mi.n_faces || !( mi.area > 0.0 ) ||
		     !( mi.h_min > 0.0 ) || ( n_faces && mi.n_faces != n_faces ) )
			abort();
		fz_step( mesh, degree );
		hyblas_faceloop_mesh_destroy( mesh );
	}
	else if ( st != HYBLAS_E_INVALID || mesh != sentinel ||
	          memchr( why, '\0', sizeof why ) == NULL )
		abort();
	free( xy );
	free( cv );
	free( alias );
	free( fv );
	return 0;
}
