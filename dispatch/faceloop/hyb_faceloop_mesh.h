/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's mesh: its arrays, built and validated from cells (and optional
   faces and periodic identification), reference-counted between the caller and solvers. */
#ifndef HYB_FACELOOP_MESH_H
#define HYB_FACELOOP_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "hyblas_ext.h"

/* Warp width the divergence counts use. */
#define HYB_FL_WARP 32

struct hyblas_faceloop_mesh_s
{
	int      refs; /* changed only by hyb_fl_mesh_retain / release, atomically */
	int32_t  nv;
	int64_t  n_vertices, n_cells, n_faces, n_boundary, n_bilinear;
	double*  xy;            /* 2 per vertex */
	int32_t* cell_vertices; /* nv per cell, counterclockwise */
	int32_t* face_cell;     /* 2 per face: left cell, right cell (-1: boundary) */
	int8_t*  face_edge;     /* 2 per face: local edge in each (-1: none) */
	int32_t* cell_face;     /* nv per cell: 2 * face + side */
	double*  face_geom;     /* HYB_FL_GEOM_COUNT per face, component-major */
	int32_t* remap;         /* the faces partitioned by kind: interior first */
	int64_t  n_interior;
	int64_t  warps_mixed_vanilla, warps_mixed_remapped;
	double   h_min, area;
};

/* Validate desc and build a mesh with one reference (see hyblas_faceloop_mesh_create for
   the rules). On failure nothing is allocated, *out is untouched and a reason is written
   to why (when not NULL). `threads` bounds the OpenMP threads of the partition. */
hyblas_status_t hyb_fl_mesh_build( const hyblas_faceloop_mesh_desc_t* desc, int threads,
                                   hyblas_faceloop_mesh_t** out, char* why, size_t why_len );

/* Take and drop a reference; the last drop frees the mesh. Thread-safe. */
void hyb_fl_mesh_retain( hyblas_faceloop_mesh_t* m );
void hyb_fl_mesh_release( hyblas_faceloop_mesh_t* m );

/* Warps of `warp` consecutive threads that hold both boundary and interior faces when
   thread t works on face order[t] (order NULL: face t). */
int64_t hyb_fl_mixed_warps( const int32_t* face_cell, const int32_t* order, int64_t n, int warp );

/* The generators' mesh (see hyblas_faceloop_grid_t); the grid was checked by the caller. */
hyblas_status_t hyb_fl_mesh_grid( const hyblas_faceloop_grid_t* g, int threads,
                                  hyblas_faceloop_mesh_t** out, char* why, size_t why_len );

#endif
