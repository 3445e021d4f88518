/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the face-loop suites: generated meshes and solvers. */
#include "unit/faceloop/test_faceloop_util.h"

#include <CUnit/CUnit.h>
#include <string.h>

hyblas_faceloop_mesh_t* hyb_flt_grid( hyblas_faceloop_shape_t shape, int64_t nx, int64_t ny,
                                      int periodic, double perturb, uint64_t seed )
{
	hyblas_faceloop_grid_t g;
	memset( &g, 0, sizeof g );
	g.struct_size             = sizeof g;
	g.shape                   = shape;
	g.nx                      = nx;
	g.ny                      = ny;
	g.periodic                = periodic;
	g.perturb                 = perturb;
	g.seed                    = seed;
	hyblas_faceloop_mesh_t* m = NULL;
	CU_ASSERT_EQUAL_FATAL( hyblas_faceloop_mesh_generate( &g, &m ), HYBLAS_OK );
	return m;
}

hyblas_faceloop_solver_t* hyb_flt_solver( hyblas_faceloop_mesh_t* m, int eq, int p, double dt )
{
	hyblas_faceloop_solver_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size               = sizeof d;
	d.equation                  = (hyblas_faceloop_equation_t)eq;
	d.degree                    = p;
	d.dt                        = dt;
	hyblas_faceloop_solver_t* s = NULL;
	CU_ASSERT_EQUAL_FATAL( hyblas_faceloop_solver_create( m, &d, &s ), HYBLAS_OK );
	return s;
}
