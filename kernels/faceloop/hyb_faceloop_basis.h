/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference elements of the face-loop solver: Gauss-Legendre and collapsed triangle
   quadrature, the orthonormal modal bases (Dubiner on the triangle, tensor Legendre on the
   square) and the tables of basis values the kernels read. Host code, pure. */
#ifndef HYB_FACELOOP_BASIS_H
#define HYB_FACELOOP_BASIS_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/faceloop/hyb_faceloop_kargs.h"

/* Coefficients of a polynomial in two variables, c[a][b] of x^a y^b. Degree 3 per variable
   is the most a basis needs; products while building one stay below 8. */
#define HYB_FL_POLY_DIM 8

/* The basis of one reference element. Reference triangle: vertices (0,0), (1,0), (0,1);
   reference square: (-1,-1), (1,-1), (1,1), (-1,1); both counterclockwise, physical
   vertex k maps to reference vertex k. Orthonormal: the integral of phi_i phi_j over the
   reference element is delta_ij. Mode order: triangle phi_(i,j) (i + j <= p) by total
   degree, then i; square phi_(i,j) = L_i(x) L_j(y) at index j (p + 1) + i. */
typedef struct
{
	int32_t nv, p, np;
	double  c[HYB_FL_NP_MAX][HYB_FL_POLY_DIM][HYB_FL_POLY_DIM];
} hyb_fl_basis_t;

/* The tables a kernel reads for one (cell shape, degree, equation); see the kargs for the
   layouts. */
typedef struct
{
	int32_t nv, p, np, nq, nqv;
	double  edge_t[HYB_FL_NQ_MAX];
	double  edge_w[HYB_FL_NQ_MAX];
	double  edge_phi[4 * HYB_FL_NQ_MAX * HYB_FL_NP_MAX];
	double  vol_w[HYB_FL_NQV_MAX];
	double  vol_xi[2 * HYB_FL_NQV_MAX];
	double  vol_phi[HYB_FL_NQV_MAX * HYB_FL_NP_MAX];
	double  vol_dphi[HYB_FL_NQV_MAX * HYB_FL_NP_MAX * 2];
} hyb_fl_tables_t;

/* Modes of degree p on a cell of nv vertices: (p+1)(p+2)/2 on a triangle, (p+1)^2 on a
   quadrilateral. */
int hyb_fl_modes( int nv, int p );

/* Points on each face for equation eq (HYB_FL_EQ_*) at degree p: Gauss-Legendre exact to
   degree 2p + 1 for advection (the integrand phi_i u has degree 2p), to 3p for Burgers
   (phi_i u^2). */
int hyb_fl_face_points( int eq, int p );

/* Gauss-Legendre rule of n points (1 <= n <= 16) on [0, 1], exact to degree 2n - 1,
   computed by Newton's method on the Legendre polynomial (to rounding), points ascending
   and exactly symmetric (t[n-1-k] == 1 - t[k]): a face's far side reads the same points
   in reverse. Returns HYB_E_INVALID for n out of range. */
hyb_status_t hyb_fl_gauss_legendre( int n, double* t, double* w );

/* Quadrature on the reference triangle exact to total degree `degree` (0 .. 20): the
   collapsed (Duffy) product of two Gauss-Legendre rules, x = a (1 - b), y = b, weight
   w_a w_b (1 - b), with ceil((degree+1)/2) points in a and ceil((degree+2)/2) in b
   (the factor 1 - b raises b's degree by one). Writes at most `cap` points (xy pairs) and
   returns their count, or -1 when cap is too small or degree out of range. */
int hyb_fl_rule_tri( int degree, int cap, double* xy, double* w );

/* Tensor Gauss-Legendre on the reference square, n (1 .. 16) points per direction: exact
   to degree 2n - 1 in each variable. Same contract as hyb_fl_rule_tri. */
int hyb_fl_rule_quad( int n, int cap, double* xy, double* w );

/* The volume rule the kernels use for (nv, eq, p): triangle exact to total degree 2p for
   advection, 3p for Burgers; square p + 1 points per direction for advection, enough for
   degree 3p per direction for Burgers (the bilinear map's adjugate adds one degree per
   variable, which these rules still integrate exactly for advection). Same contract. */
int hyb_fl_rule_volume( int nv, int eq, int p, int cap, double* xy, double* w );

/* Build the basis of (nv, p), p in 0 .. HYB_FL_P_MAX: the polynomials of the construction
   (Dubiner: Legendre in the collapsed coordinate times (1-y)^i times Jacobi P^(2i+1,0) in
   y; square: Legendre products), each scaled to unit norm by a rule exact for its square.
   Returns HYB_E_INVALID for nv not 3 or 4 or p out of range. */
hyb_status_t hyb_fl_basis_init( int nv, int p, hyb_fl_basis_t* b );

/* Values (phi, np entries) and reference gradients (dphi, 2 per mode: d/dx, d/dy; may be
   NULL) of every mode at reference point (x, y). */
void hyb_fl_basis_eval( const hyb_fl_basis_t* b, double x, double y, double* phi, double* dphi );

/* The tables of (nv, p, eq). Returns HYB_E_INVALID for an unsupported combination. */
hyb_status_t hyb_fl_tables_build( int nv, int p, int eq, hyb_fl_tables_t* t );

#endif
