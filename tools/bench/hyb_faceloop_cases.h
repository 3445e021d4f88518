/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's benchmark cases, shared by the CPU benchmark and the GPU check: the seed's
   24 (Table 4.1) with our meshes beside its face counts, the large meshes, and how both
   programs build a case's mesh and solver. */
#ifndef HYB_FACELOOP_CASES_H
#define HYB_FACELOOP_CASES_H

#include <stdint.h>

#include "hyblas_ext.h"

#ifdef __cplusplus
extern "C"
{
#endif

	typedef struct
	{
		int     eq;         /* HYBLAS_FACELOOP_ADVECTION or _BURGERS */
		int     p;          /* degree */
		int     tri;        /* triangles (1) or quadrilaterals (0) */
		int64_t n;          /* squares per side of our mesh */
		int64_t seed_faces; /* the seed's face count for this case, 0 for ours alone */
		char    label[24];  /* "quad-10", "tri-40", "quad-1e6", ... */
	} hyb_flb_case_t;

	/* The n x n grid whose face count (quadrilaterals 2n(n+1), triangles 3n^2 + 2n) is closest
	   to `faces`. */
	int64_t hyb_flb_n_for( int tri, int64_t faces );

	/* The seed's cases in its order (equation, degree, shape, size 10 / 20 / 40): quadrilateral
	   n x n as the seed; triangles with the n closest to the seed's count for that equation.
	   quick: size 10 only (8 cases). Writes at most 24 and returns the count. */
	int hyb_flb_seed_cases( hyb_flb_case_t* out, int quick );

	/* Both equations, P1 and P3, both shapes, on meshes of about `faces` faces (8 cases; label
	   "quad-1e<k>" for faces = 10^k). Returns the count. */
	int hyb_flb_large_cases( hyb_flb_case_t* out, int64_t faces );

	/* A case's mesh (triangles perturbed by 0.15 of the spacing, quadrilaterals regular, seed
	   2017, inflow boundaries) and a solver on it (dt from cfl 1); NULL after printing why. */
	hyblas_faceloop_mesh_t*   hyb_flb_mesh( const hyb_flb_case_t* c );
	hyblas_faceloop_solver_t* hyb_flb_solver( hyblas_faceloop_mesh_t* m, const hyb_flb_case_t* c );

#ifdef __cplusplus
}
#endif

#endif
