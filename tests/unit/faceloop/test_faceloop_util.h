/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the face-loop suites: a generated mesh and a solver on it, through the public
   API, failing the current test when either cannot be made. */
#ifndef TEST_FACELOOP_UTIL_H
#define TEST_FACELOOP_UTIL_H

#include <stdint.h>

#include "hyblas_ext.h"

/* hyblas_faceloop_mesh_generate of the unit square (ny 0: nx); asserts success. */
hyblas_faceloop_mesh_t* hyb_flt_grid( hyblas_faceloop_shape_t shape, int64_t nx, int64_t ny,
                                      int periodic, double perturb, uint64_t seed );

/* hyblas_faceloop_solver_create with the equation, degree and dt (0: from cfl 1); asserts
   success. */
hyblas_faceloop_solver_t* hyb_flt_solver( hyblas_faceloop_mesh_t* m, int eq, int p, double dt );

#endif
