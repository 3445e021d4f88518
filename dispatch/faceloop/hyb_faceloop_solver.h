/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's solver: the discontinuous Galerkin state on a mesh, its per-cell
   data, the kernels' argument blocks, and the SSP-RK3 steps on the CPU. */
#ifndef HYB_FACELOOP_SOLVER_H
#define HYB_FACELOOP_SOLVER_H

#include <stdint.h>

#include "dispatch/faceloop/hyb_faceloop_mesh.h"
#include "hyblas_ext.h"
#include "kernels/faceloop/hyb_faceloop_basis.h"
#include "kernels/faceloop/hyb_faceloop_kargs.h"
#include "policies/faceloop/hyb_faceloop_plan.h"

struct hyblas_faceloop_solver_s
{
	hyblas_faceloop_mesh_t* mesh; /* one reference held */
	hyb_fl_eq_t             eq;
	int32_t                 p, np;
	hyb_fl_tables_t         tab;
	hyb_fl_basis_t          basis;
	double                  dt, time;
	int64_t                 steps_done;
	double*                 cell_xy;     /* 2 nv per cell */
	double*                 cell_invdet; /* 1 / det(J) of an affine cell */
	int32_t*                cell_minv;   /* -1, or the index of a bilinear cell's inverse mass */
	double*                 minv;        /* np * np per bilinear cell */
	double*                 u;           /* the state, np per cell */
	double *                u1, *u2;     /* Runge-Kutta stages */
	double*                 rhs;         /* np per cell */
	double*                 out;         /* the face loop's output, 2 np per face, face-major */
	/* Resident device runs (dispatch/faceloop/hyb_faceloop_device.c): u and u_next are
	   page-locked from the first such run to the solver's end; the state comes down into
	   u_next, which then becomes u. */
	double* u_next;
	int     pin; /* HYB_FL_PIN_* (policies/faceloop/hyb_faceloop_plan.h) */
};

/* Seconds spent in each loop of a run. */
typedef struct
{
	double face, gather, volume, update;
} hyb_fl_loop_times_t;

/* A solver for (mesh, eq, degree p 1 .. 3) with the projected initial condition at t = 0;
   dt as given (> 0) or from cfl (see hyblas_faceloop_solver_desc_t). Arguments checked by
   the caller. Returns HYBLAS_OK or HYBLAS_E_NO_MEMORY (nothing kept). */
hyblas_status_t hyb_fl_solver_new( hyblas_faceloop_mesh_t* mesh, hyb_fl_eq_t eq, int p, double dt,
                                   double cfl, int threads, hyblas_faceloop_solver_t** out );

void hyb_fl_solver_free( hyblas_faceloop_solver_t* s );

/* The argument blocks of the four kernels over the solver's host arrays: the face loop on
   state u at `time` in the order idx (NULL: the mesh's), writing `out` with the given
   strides; the volume loop on u into rhs; the gather of `out` into rhs; the stage update
   next = a u0 + b (cur + dt M^-1 rhs). A device run copies a block and swaps its pointers
   for device ones. */
void hyb_fl_face_args( const hyblas_faceloop_solver_t* s, const double* u, double time,
                       const int32_t* idx, double* out, int64_t cstride, int64_t fstride,
                       hyb_faceloop_face_args_t* a );
void hyb_fl_volume_args( const hyblas_faceloop_solver_t* s, const double* u, double* rhs,
                         hyb_faceloop_volume_args_t* a );
void hyb_fl_gather_args( const hyblas_faceloop_solver_t* s, const double* out, int64_t cstride,
                         int64_t fstride, double* rhs, hyb_faceloop_gather_args_t* a );
void hyb_fl_update_args( const hyblas_faceloop_solver_t* s, double a_, double b_, const double* u0,
                         const double* cur, double* next, hyb_faceloop_update_args_t* a );

/* The three stages of SSP-RK3 (Shu-Osher form): stage k computes next = A[k] u^n +
   B[k] (cur + dt L(cur)) at time t + C[k] dt. */
extern const double hyb_fl_rk_a[3], hyb_fl_rk_b[3], hyb_fl_rk_c[3];

/* The four argument blocks of one stage. */
typedef struct
{
	hyb_faceloop_volume_args_t volume;
	hyb_faceloop_face_args_t   face;
	hyb_faceloop_gather_args_t gather;
	hyb_faceloop_update_args_t update;
} hyb_fl_stage_args_t;

/* The blocks of stage k of the step from time t, over the solver's host arrays but for
   the arrays named: state[0] holds u^n, state[1] and state[2] the stages (stage k reads
   cur = state[k] and writes next = state[(k + 1) % 3]); the volume loop and the gather
   write rhs, which the update reads; the face loop runs in the order idx and writes out
   with the given strides, which the gather reads. */
void hyb_fl_stage_args( const hyblas_faceloop_solver_t* s, int k, double t, double* const state[3],
                        double* rhs, const int32_t* idx, double* out, int64_t cstride,
                        int64_t fstride, hyb_fl_stage_args_t* g );

/* `steps` steps on the CPU: the four loops per stage on `threads` threads (1: the serial
   reference), faces in the order `order` (NULL: the mesh's); adds the loops' seconds to
   *t. Advances time and steps_done. */
void hyb_fl_solver_cpu_steps( hyblas_faceloop_solver_t* s, int64_t steps, int threads,
                              const int32_t* order, hyb_fl_loop_times_t* t );

/* Integral of the state over the mesh, and the L2 norm of state minus exact solution at
   the current time (deterministic for any thread count). Return HYBLAS_E_NO_MEMORY when
   the per-cell scratch cannot be had. */
hyblas_status_t hyb_fl_solver_integral( const hyblas_faceloop_solver_t* s, int threads, double* v );
hyblas_status_t hyb_fl_solver_l2_error( const hyblas_faceloop_solver_t* s, int threads, double* v );

#endif
