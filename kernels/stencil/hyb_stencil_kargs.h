/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument blocks of the stencil kernels (CPU, simulated device, CUDA): a
   buffer holding a range of planes of the domain, the planes to update and
   the time levels to read and write. Plain C, no CUDA types. */
#ifndef HYB_STENCIL_KARGS_H
#define HYB_STENCIL_KARGS_H

#include <stdint.h>

/* Element types. */
typedef enum
{
	HYB_STENCIL_F32 = 0,
	HYB_STENCIL_F64 = 1
} hyb_stencil_elem_t;

/* The stencils (values as hyblas_stencil_kind_t). */
typedef enum
{
	HYB_STENCIL_ACOUSTIC = 1,
	HYB_STENCIL_HIMENO   = 2,
	HYB_STENCIL_LAPLACE  = 3,
	HYB_STENCIL_STAR     = 4,
	HYB_STENCIL_WAVE     = 5
} hyb_stencil_kind_t;

#define HYB_STENCIL_MAX_RADIUS 8

/* The eighth-order second-derivative weights of the acoustic stencil
   (seed 003, eq. 3.5): c0 for the centre, c1..c4 for offsets 1..4. */
#define HYB_ACOUSTIC_C0 ( -205.0 / 72.0 )
#define HYB_ACOUSTIC_C1 ( 8.0 / 5.0 )
#define HYB_ACOUSTIC_C2 ( -1.0 / 5.0 )
#define HYB_ACOUSTIC_C3 ( 8.0 / 315.0 )
#define HYB_ACOUSTIC_C4 ( -1.0 / 560.0 )

/* Where a kernel works. The domain is nz planes of ny rows of nx points
   (x fastest; a 2-D domain has ny = 1 and its rows are the planes). A
   buffer holds the planes [base, base + planes) of each array it names,
   contiguous, plane `base` first. The kernel writes the planes [z0, z1) of
   its output: a point in the fixed band of width `radius` on any face (any
   axis of the domain, z included) copies its value from the current level,
   every other point applies the stencil, which reads up to `radius` planes
   on either side: those must lie in the buffer. */
typedef struct
{
	int64_t nx, ny, nz;
	int64_t base, planes;
	int64_t z0, z1;
	int32_t elem;   /* hyb_stencil_elem_t */
	int32_t dims;   /* 2 or 3 */
	int32_t radius; /* 1 .. HYB_STENCIL_MAX_RADIUS */
} hyb_stencil_box_t;

/* Acoustic wave propagation (seed 003, Fig. 3.1), level t+1 from t and t-1:
     lap  = center * cur + ix * X + iy * Y + iz * Z,
     X    = c4 (x+4 + x-4) + c3 (x+3 + x-3) + c2 (x+2 + x-2) + c1 (x+1 + x-1),
     next = vel^2 * dt2 * lap + 2 cur - prev,
   evaluated in the element type, every scalar converted from its double
   here. center = (ix + iy + iz) c0, ix = 1/dx^2 (likewise y, z). */
typedef struct
{
	hyb_stencil_box_t box;
	const void*       cur;
	const void*       prev;
	void*             next;
	const void*       vel;
	double            center, ix, iy, iz, dt2;
} hyb_stencil_acoustic_args_t;

/* One Himeno point-Jacobi iteration (the benchmark's jacobi(), i = z,
   j = y, k = x):
     s0 = a0 p(z+1) + a1 p(y+1) + a2 p(x+1)
        + b0 (p(z+1,y+1) - p(z+1,y-1) - p(z-1,y+1) + p(z-1,y-1))
        + b1 (p(y+1,x+1) - p(y-1,x+1) - p(y+1,x-1) + p(y-1,x-1))
        + b2 (p(z+1,x+1) - p(z-1,x+1) - p(z+1,x-1) + p(z-1,x-1))
        + c0 p(z-1) + c1 p(y-1) + c2 p(x-1) + wrk1,
     ss = (s0 a3 - p) bnd,   p_new = p + omega ss,
   in the element type. With plane_ss non-NULL the kernel also stores, for
   every plane z of [own0, own1) (inside [z0, z1)), the sum over the plane's
   interior points of ss * ss (each product rounded in the element type,
   summed in double) at plane_ss[z - own0]. `work` is device scratch of
   hyb_stencil_himeno_work_len() doubles for the CUDA launcher (the host
   kernels ignore it). */
typedef struct
{
	hyb_stencil_box_t box;
	const void*       p;
	void*             p_new;
	const void*       a[4];
	const void*       b[3];
	const void*       c[3];
	const void*       bnd;
	const void*       wrk1;
	double            omega;
	double*           plane_ss;
	int64_t           own0, own1;
	double*           work;
} hyb_stencil_himeno_args_t;

/* 2-D five-point Laplace sweep (seed 003, Fig. 3.2):
   u_new = 0.25 * (u(x+1) + u(x-1) + u(z+1) + u(z-1)), z being the row. */
typedef struct
{
	hyb_stencil_box_t box;
	const void*       u;
	void*             u_new;
} hyb_stencil_laplace_args_t;

/* Constant-coefficient star of radius r = box.radius, in the element type:
   acc = center u; then for each axis a (x, y, z; no y in 2-D), for
   j = 1..r: acc += coef[a][r - j] u(-j e_a); acc += coef[a][r - 1 + j]
   u(+j e_a); u_new = acc. */
typedef struct
{
	hyb_stencil_box_t box;
	const void*       u;
	void*             u_new;
	double            center;
	double            coef[3][2 * HYB_STENCIL_MAX_RADIUS];
} hyb_stencil_star_args_t;

/* 2-D damped linear acoustics, one forward-backward (symplectic Euler)
   step of the pressure p and its rate q (docs/stencil.md), z being the row:
     lap   = ix (p(x+1) + p(x-1)) + iz (p(z+1) + p(z-1)) - center p,
     q_new = decay q + c2dt lap,
     p_new = p + dt q_new,
   in the element type, every scalar converted from its double here:
   ix = 1/dx^2, iz = 1/dy^2, center = 2 (ix + iz), decay = 1 - gamma dt,
   c2dt = c^2 dt. Both new levels keep the fixed band of their own
   quantity. */
typedef struct
{
	hyb_stencil_box_t box;
	const void*       p;
	const void*       q;
	void*             p_new;
	void*             q_new;
	double            ix, iz, center, decay, c2dt, dt;
} hyb_stencil_wave_args_t;

/* 0 when `b` is consistent (sizes positive, buffer inside the domain,
   [z0, z1) inside the buffer, every plane the stencil reads for the
   interior planes of [z0, z1) inside the buffer), else 1. */
static inline int hyb_stencil_box_bad( const hyb_stencil_box_t* b )
{
	if ( b->nx < 1 || b->ny < 1 || b->nz < 1 ) return 1;
	if ( b->elem != HYB_STENCIL_F32 && b->elem != HYB_STENCIL_F64 ) return 1;
	if ( b->dims != 2 && b->dims != 3 ) return 1;
	if ( b->dims == 2 && b->ny != 1 ) return 1;
	if ( b->radius < 1 || b->radius > HYB_STENCIL_MAX_RADIUS ) return 1;
	if ( b->base < 0 || b->planes < 0 || b->base + b->planes > b->nz ) return 1;
	if ( b->z0 < b->base || b->z1 < b->z0 || b->z1 > b->base + b->planes ) return 1;
	const int64_t r  = b->radius;
	const int64_t lo = b->z0 > r ? b->z0 : r;
	const int64_t hi = b->z1 < b->nz - r ? b->z1 : b->nz - r;
	if ( lo < hi && ( lo - r < b->base || hi + r > b->base + b->planes ) ) return 1;
	return 0;
}

/* 1 when a kernel's arguments are unusable: a bad box, the wrong dimension
   or radius for the stencil (0: any), a NULL array, a residual range
   outside the updated planes. Shared by every backend's launchers. */
static inline int hyb_stencil_shape_bad( const hyb_stencil_box_t* b, int dims, int radius )
{
	if ( hyb_stencil_box_bad( b ) ) return 1;
	if ( dims && b->dims != dims ) return 1;
	return radius && b->radius != radius;
}

static inline int hyb_stencil_acoustic_bad( const hyb_stencil_acoustic_args_t* a )
{
	return a == 0 || hyb_stencil_shape_bad( &a->box, 3, 4 ) || !a->cur || !a->prev || !a->next ||
	       !a->vel;
}

static inline int hyb_stencil_himeno_bad( const hyb_stencil_himeno_args_t* a )
{
	if ( a == 0 || hyb_stencil_shape_bad( &a->box, 3, 1 ) ) return 1;
	if ( !a->p || !a->p_new || !a->bnd || !a->wrk1 ) return 1;
	for ( int i = 0; i < 4; i++ )
		if ( !a->a[i] || ( i < 3 && ( !a->b[i] || !a->c[i] ) ) ) return 1;
	return a->plane_ss && ( a->own0 < a->box.z0 || a->own1 < a->own0 || a->own1 > a->box.z1 );
}

static inline int hyb_stencil_laplace_bad( const hyb_stencil_laplace_args_t* a )
{
	return a == 0 || hyb_stencil_shape_bad( &a->box, 2, 1 ) || !a->u || !a->u_new;
}

static inline int hyb_stencil_wave_bad( const hyb_stencil_wave_args_t* a )
{
	return a == 0 || hyb_stencil_shape_bad( &a->box, 2, 1 ) || !a->p || !a->q || !a->p_new ||
	       !a->q_new;
}

static inline int hyb_stencil_star_bad( const hyb_stencil_star_args_t* a )
{
	return a == 0 || hyb_stencil_shape_bad( &a->box, 0, 0 ) || !a->u || !a->u_new;
}

/* Tiles of the CUDA Himeno kernel (its residual partial sums are kept per
   plane and tile, so they sum in the same order whatever the chunking). */
#define HYB_HIMENO_TILE_X 32
#define HYB_HIMENO_TILE_Y 8

/* Doubles of device scratch the CUDA Himeno launcher needs for a residual
   over `planes` planes of an nx x ny domain. */
static inline int64_t hyb_stencil_himeno_work_len( int64_t nx, int64_t ny, int64_t planes )
{
	const int64_t tx = ( nx + HYB_HIMENO_TILE_X - 1 ) / HYB_HIMENO_TILE_X;
	const int64_t ty = ( ny + HYB_HIMENO_TILE_Y - 1 ) / HYB_HIMENO_TILE_Y;
	return tx * ty * ( planes > 0 ? planes : 0 );
}

#endif
