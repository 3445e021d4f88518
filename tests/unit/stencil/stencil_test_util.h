/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the stencil suites: problems with their fields allocated and
   filled, deep copies, and field comparisons. */
#ifndef STENCIL_TEST_UTIL_H
#define STENCIL_TEST_UTIL_H

#include <stdint.h>

#include "hyblas_ext.h"
#include "kernels/stencil/hyb_stencil_prob.h"

/* A problem of `kind` and element type with the kernel-layout sizes
   (2-D: ny = 1), fields allocated and filled with the documented data set;
   the star (radius r) gets asymmetric positive weights summing to 1 with
   centre 0.1 (an averaging, stable stencil whose mirror images differ),
   Himeno's coefficient fields small perturbations of their own. */
void sx_make( hyb_stencil_prob_t* p, int32_t kind, int32_t elem, int64_t nx, int64_t ny, int64_t nz,
              int32_t r );

/* The damped wave of the suites: unequal spacings (a swapped axis shows),
   damping, and dt the default for them. */
#define SX_WAVE_DX      1.0
#define SX_WAVE_DY      1.5
#define SX_WAVE_DAMPING 0.1

/* Add fixed patterns to the wave's p and q (n elements each). */
void sx_wave_perturb( void* p, void* q, int32_t elem, int64_t n );

/* A copy of `src` with fields of its own. */
void sx_clone( const hyb_stencil_prob_t* src, hyb_stencil_prob_t* dst );

void sx_free( hyb_stencil_prob_t* p );

/* Bytes of one field. */
int64_t sx_field_bytes( const hyb_stencil_prob_t* p );

/* 1 when field `role` of a and b is bit for bit equal. */
int sx_same( const hyb_stencil_prob_t* a, const hyb_stencil_prob_t* b, int role );

/* 1 when every result field of the kind (acoustic PREV and CUR, wave P
   and Q, else the first state field) is bit for bit equal in a and b. */
int sx_same_result( const hyb_stencil_prob_t* a, const hyb_stencil_prob_t* b );

/* max |a - b| over field `role`, and max |a| (as doubles). */
double sx_maxdiff( const hyb_stencil_prob_t* a, const hyb_stencil_prob_t* b, int role );
double sx_maxabs( const hyb_stencil_prob_t* a, int role );

/* Value of field `role` at (z, y, x) as a double. */
double sx_at( const hyb_stencil_prob_t* p, int role, int64_t z, int64_t y, int64_t x );

/* A public description of `kind` with fields of its own, filled with the
   documented data set (hyblas_stencil_fill); the star gets distinct weights
   per axis and side summing to 0.8 with centre 0.2. */
hyblas_stencil_desc_t sx_desc( hyblas_stencil_kind_t kind, hyblas_stencil_type_t type, int64_t nx,
                               int64_t ny, int64_t nz, int32_t r );
void                  sx_desc_free( hyblas_stencil_desc_t* d );
/* Bytes of one field of d. */
int64_t sx_desc_bytes( const hyblas_stencil_desc_t* d );

/* 1 when the result fields (acoustic CUR and PREV, wave P and Q, else the
   first) of a and b are bit for bit equal. */
int sx_desc_same( const hyblas_stencil_desc_t* a, const hyblas_stencil_desc_t* b );

/* Parameters of a run on `path` with scheme, d and k forced (0: the
   planner's) and 2 CPU threads. */
hyblas_stencil_params_t sx_params( hyblas_path_t path, int scheme, int d, int k );

/* hyblas_stencil_solve of d for `steps` with p, *st cleared first. */
hyblas_status_t sx_solve( hyblas_stencil_desc_t* d, const hyblas_stencil_params_t* p, int64_t steps,
                          hyblas_stencil_stats_t* st );

/* `want` run on the CPU, then `got` (the same problem, or with rates) on
   the device with scheme/d/k under the device fault plan `fault`: asserts
   that the device run fell back and that the results are equal bit for
   bit; returns the device run's statistics. Needs a simulated device. */
hyblas_stencil_stats_t sx_fault_run( hyblas_stencil_desc_t* want, hyblas_stencil_desc_t* got,
                                     const char* fault, int scheme, int d, int k, int64_t steps );

#endif
