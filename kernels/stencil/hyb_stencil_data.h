/* SPDX-License-Identifier: BSD-3-Clause */
/* The documented data sets of the stencil family (docs/stencil.md): the
   acoustic pulse, the Himeno benchmark's initialisation, the Laplace plate
   and the star's bump, and their default constants. */
#ifndef HYB_STENCIL_DATA_H
#define HYB_STENCIL_DATA_H

#include "kernels/stencil/hyb_stencil_prob.h"

/* Acoustic: 10 m grid, water (1500 m/s), dt = 0.2 dx / v. The leapfrog
   scheme with the eighth-order Laplacian is stable up to
   v dt / dx = 2 / sqrt(3 * 6.5016) = 0.4529 (6.5016 = |c0| + 2 sum |cj|,
   the largest eigenvalue of the 1-D operator times dx^2), so 0.2 keeps a
   factor 2.3 below it. The pulse is exp(-r^2 / (2 sigma^2)), sigma in grid
   points, at the centre, with zero initial velocity (PREV = CUR). */
#define HYB_ACOUSTIC_DEF_DX      10.0
#define HYB_ACOUSTIC_DEF_VEL     1500.0
#define HYB_ACOUSTIC_DEF_COURANT 0.2
#define HYB_ACOUSTIC_PULSE_SIGMA 4.0

/* Damped wave: unit grid spacing and wave speed, no damping, and dt at
   half the stability limit of the forward-backward step
   (c^2 dt^2 (1/dx^2 + 1/dy^2) <= 1 - gamma dt / 2, docs/stencil.md): a
   factor 2 in dt keeps the step stable for any damping with
   gamma dt <= 1.5. The pulse is exp(-r^2 / (2 sigma^2)) in p at the
   centre, sigma a fixed share of the shorter side (so that the field is
   not mostly zeros at any size), q zero. */
#define HYB_WAVE_DEF_DX      1.0
#define HYB_WAVE_DEF_SPEED   1.0
#define HYB_WAVE_DEF_COURANT 0.5
#define HYB_WAVE_PULSE_SHARE ( 1.0 / 16.0 )

/* The default dt of the damped wave with speed c and spacings dx, dy. */
double hyb_stencil_wave_dt( double c, double dx, double dy );

/* 1 when the forward-backward step with these constants is stable:
   0 <= gamma dt <= 1 and c^2 dt^2 (1/dx^2 + 1/dy^2) <= 1 - gamma dt / 2. */
int hyb_stencil_wave_stable( double c, double gamma, double dx, double dy, double dt );

/* Himeno: the benchmark's relaxation factor. */
#define HYB_HIMENO_DEF_OMEGA 0.8

/* Fill every field of `p` with its kind's data set, in parallel by planes
   (so that the first touch spreads the pages as the kernels read them):
   acoustic: the pulse in PREV and CUR with zero fixed bands, NEXT zero,
   VEL = 1500; Himeno: p = z^2 / (nz - 1)^2 (the benchmark's i^2/(imax-1)^2,
   i being the slowest index), a0 = a1 = a2 = 1, a3 = 1/6, b = 0, c = 1,
   bnd = 1, wrk1 = wrk2 = 0; Laplace: U = 1 on the first row, 0 elsewhere,
   WORK zero; star: U = prod over axes of sin(pi i / (n - 1)) inside the
   fixed band, 0 on it, WORK zero; wave: the pulse in P with zero fixed
   bands, Q and both work arrays zero. `p` must be a valid problem. */
void hyb_stencil_fill( const hyb_stencil_prob_t* p );

#endif
