/* SPDX-License-Identifier: BSD-3-Clause */
/* The argument blocks of the face-loop family's kernels (volume, face, gather, update):
   device pointers, sizes and scalars, no CUDA type, shared by the CPU loops, the simulated
   device's launchers and the CUDA launchers. */
#ifndef HYB_FACELOOP_KARGS_H
#define HYB_FACELOOP_KARGS_H

#include <stdint.h>

/* Largest sizes a kernel handles: degree 3 on a quadrilateral has 16 modes; Burgers' face
   rule at degree 3 has 5 points, its quadrilateral volume rule 6 x 6. The launchers refuse
   anything larger. */
#define HYB_FL_P_MAX   3
#define HYB_FL_NP_MAX  16
#define HYB_FL_NQ_MAX  5
#define HYB_FL_NQV_MAX 36

/* The equations (values of hyb_fl_eq_t.kind). */
#define HYB_FL_EQ_ADVECTION 0
#define HYB_FL_EQ_BURGERS   1

/* Per-face geometry, component-major (component k of face f at geom[k * n_faces + f]):
   the unit normal pointing out of the left cell, the face's length, and the face's end
   points in the left cell's counterclockwise order (read by boundary faces only, which
   evaluate the boundary data at their quadrature points). */
#define HYB_FL_GEOM_NX    0
#define HYB_FL_GEOM_NY    1
#define HYB_FL_GEOM_LEN   2
#define HYB_FL_GEOM_XA    3
#define HYB_FL_GEOM_YA    4
#define HYB_FL_GEOM_XB    5
#define HYB_FL_GEOM_YB    6
#define HYB_FL_GEOM_COUNT 7

/* The conservation law u_t + div F(u) = 0 and its exact solution (boundary data):
   ADVECTION  F = (ax u, ay u), u(x, y, 0) = sin(2 pi x) sin(2 pi y)
   BURGERS    F = (u^2 / 2, u^2 / 2), u(x, y, 0) = 1/2 + 1/4 sin(2 pi (x + y)) */
typedef struct
{
	int32_t kind; /* HYB_FL_EQ_* */
	double  ax, ay;
} hyb_fl_eq_t;

/* The face loop: for every face, the traces of the two cells (or the boundary data) at the
   face's quadrature points, the numerical flux (upwind / local Lax-Friedrichs), and the
   contributions of the face to both cells' right-hand sides, written per face (no sums
   across faces, so any order of faces gives the same bits).
   Output of face f, side s (0 left, 1 right), mode i: out[(s * np + i) * out_cstride +
   f * out_fstride]; the right side of a boundary face is not written. */
typedef struct
{
	int64_t        n_faces;       /* threads: faces processed (all of them, or idx's length) */
	int64_t        n_faces_total; /* faces of the mesh: the stride of face_geom */
	int32_t        nv, np, nq;    /* vertices per cell (3, 4), modes per cell, points per face */
	int32_t        block;         /* CUDA threads per block; 0: 64 */
	hyb_fl_eq_t    eq;
	double         time;      /* time of the boundary data */
	const int32_t* face_cell; /* 2 per face: left cell, right cell (-1: boundary) */
	const int8_t*  face_edge; /* 2 per face: the face's local edge in each cell */
	const double*  face_geom; /* HYB_FL_GEOM_COUNT per face, component-major */
	const double*  edge_t;    /* nq: points on [0, 1] along an edge, ascending */
	const double*  edge_w;    /* nq: weights on [0, 1] (sum 1) */
	const double*  edge_phi;  /* nv * nq * np: basis at edge e's point q, e counterclockwise */
	const double*  u;         /* np per cell */
	double*        out;       /* 2 * np per face, strides below */
	int64_t        out_cstride, out_fstride;
	const int32_t* idx; /* n_faces face numbers (thread t works on idx[t]), or NULL */
} hyb_faceloop_face_args_t;

/* The volume loop: rhs[c * np + i] = integral over cell c of grad(phi_i) . F(u). */
typedef struct
{
	int64_t       n_cells;
	int32_t       nv, np, nqv;
	int32_t       block;
	hyb_fl_eq_t   eq;
	const double* cell_xy;  /* 2 * nv per cell: x0, y0, x1, y1, ... counterclockwise */
	const double* vol_w;    /* nqv: weights on the reference cell */
	const double* vol_xi;   /* 2 * nqv: reference coordinates (read for quadrilaterals) */
	const double* vol_phi;  /* nqv * np: basis values */
	const double* vol_dphi; /* nqv * np * 2: reference gradients */
	const double* u;        /* np per cell */
	double*       rhs;      /* np per cell, overwritten */
} hyb_faceloop_volume_args_t;

/* The gather ("scatter back" of the seed): every cell adds its faces' contributions, in the
   order of its local edges, to its right-hand side. */
typedef struct
{
	int64_t        n_cells;
	int32_t        nv, np;
	int32_t        block;
	const int32_t* cell_face; /* nv per cell: 2 * face + side of the cell on that face */
	const double*  out;       /* the face loop's output, strides below */
	int64_t        out_cstride, out_fstride;
	double*        rhs; /* np per cell, added to */
} hyb_faceloop_gather_args_t;

/* One Runge-Kutta stage: next = a * u0 + b * (cur + dt * M^-1 rhs), cell by cell. M is
   det(J) I on a cell with an affine map (cell_invdet = 1 / det(J)); on a bilinear
   quadrilateral the dense inverse minv[cell_minv[c] * np * np ...]. `next` may be `u0`
   (each entry is read before it is written), never `cur`. */
typedef struct
{
	int64_t        n_cells;
	int32_t        np;
	int32_t        block;
	double         a, b, dt;
	const double*  cell_invdet; /* per cell */
	const int32_t* cell_minv;   /* per cell: -1 affine, else the index of its inverse */
	const double*  minv;        /* np * np per bilinear cell, row-major */
	const double*  rhs;
	const double*  u0;
	const double*  cur;
	double*        next;
} hyb_faceloop_update_args_t;

#endif
