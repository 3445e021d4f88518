/* SPDX-License-Identifier: BSD-3-Clause */
/* The serial oracle of the stencil family: each stencil over the whole
   domain written as its source does (seed 003 Figs. 3.1 and 3.2, the Himeno
   benchmark's jacobi()), with none of the engine's code. */
#ifndef HYB_STENCIL_ORACLE_H
#define HYB_STENCIL_ORACLE_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_prob.h"

/* Advance `p` by `steps` steps in its own fields, serially, with the
   engine's boundary rule (the band of width r keeps its values), leaving
   the fields where the engine promises them: acoustic CUR = p(T),
   PREV = p(T-1) (three arrays rotated, then copied into place); Himeno and
   the grids compute into WRK2 / WORK and copy the interior back into P / U
   each step, as the benchmark and Fig. 3.2 do; the damped wave computes
   Q_WORK and P_WORK and copies both interiors back into Q and P. *residual (may be NULL)
   receives Himeno's gosa of the last iteration, summed in double in
   (z, y, x) order (0 for the others). Returns HYB_E_INVALID for an unknown
   kind or a negative step count. Not parallel; for tests. */
hyb_status_t hyb_stencil_oracle( const hyb_stencil_prob_t* p, int64_t steps, double* residual );

#endif
