/* SPDX-License-Identifier: BSD-3-Clause */
/* A stencil problem as the kernel layer sees it (domain, stencil, host
   fields, resolved coefficients), which fields are time levels and which
   are read-only, and the kernel arguments of one step built from it. */
#ifndef HYB_STENCIL_PROB_H
#define HYB_STENCIL_PROB_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_kargs.h"

#define HYB_STENCIL_FIELDS_MAX 16
#define HYB_STENCIL_COEFS_MAX  12

/* Field roles (the public header's values). */
enum
{
	HYB_ACOUSTIC_PREV = 0,
	HYB_ACOUSTIC_CUR  = 1,
	HYB_ACOUSTIC_NEXT = 2,
	HYB_ACOUSTIC_VEL  = 3,
	HYB_HIMENO_P      = 0,
	HYB_HIMENO_A0     = 1,
	HYB_HIMENO_B0     = 5,
	HYB_HIMENO_C0     = 8,
	HYB_HIMENO_BND    = 11,
	HYB_HIMENO_WRK1   = 12,
	HYB_HIMENO_WRK2   = 13,
	HYB_GRID_U        = 0,
	HYB_GRID_WORK     = 1,
	HYB_WAVE_P        = 0,
	HYB_WAVE_P_WORK   = 1,
	HYB_WAVE_Q        = 2,
	HYB_WAVE_Q_WORK   = 3
};

/* The problem. Kernel layout: a 2-D problem has ny = 1, dims = 2 and its
   rows as the planes (nz = the caller's ny). Coefficients are resolved (no
   zero defaults); the star's are per kernel axis (x, y, z). */
typedef struct
{
	int32_t kind;   /* hyb_stencil_kind_t */
	int32_t elem;   /* hyb_stencil_elem_t */
	int32_t dims;   /* 2 or 3 */
	int32_t radius; /* the stencil's reach and the fixed band's width */
	int64_t nx, ny, nz;
	void*   field[HYB_STENCIL_FIELDS_MAX];
	int32_t nfields;
	/* Per field: fixed-rate ZFP bits per value (0: moved uncompressed).
	   The time levels share one rate (hyb_stencil_state_rate). */
	double rate[HYB_STENCIL_FIELDS_MAX];
	/* Compressed bytes one stage call moves at most (0: the engine's
	   HYB_STENCIL_ZFP_PIECE_BYTES; tests make it small to cut ranges). */
	int64_t zfp_piece_bytes;
	/* Out of core: the plan's slot buffers (0: the seed's 3), as
	   hyb_stencil_sched_in_t.slots. */
	int32_t slots;
	double  dx, dy, dz, dt; /* acoustic; wave: dx, dy, dt */
	double  speed, damping; /* wave: c and gamma */
	double  omega;          /* Himeno */
	double  center;         /* star */
	double  coef[3][2 * HYB_STENCIL_MAX_RADIUS];
} hyb_stencil_prob_t;

/* Quantities a stencil steps together at most. */
#define HYB_STENCIL_QUANTS_MAX 2

/* How a stencil's fields evolve. The state is `levels` consecutive time
   levels of each of `quants` quantities, stepped together: a step reads
   `inputs` levels of every quantity (1: u(t); 2: p(t) and p(t-1)) and
   writes one level of each. Every quantity has `nstate` caller fields, its
   inputs plus one work array (roles, oldest input first, work last):
   quantity j's are state[j * nstate .. (j + 1) * nstate). The quantities
   move, rotate and are kept alike, so the schedule is the one-quantity
   schedule with each state copy done for every quantity; two quantities
   are supported with one input level (levels 2). The `coef` fields are
   read-only. */
typedef struct
{
	int32_t levels, inputs;
	int32_t quants;
	int32_t nstate, ncoef;
	int32_t state[HYB_STENCIL_QUANTS_MAX * 3];
	int32_t coef[HYB_STENCIL_COEFS_MAX];
} hyb_stencil_roles_t;

/* The role of state field j (0 .. nstate - 1) of quantity q. */
static inline int32_t hyb_stencil_state_role( const hyb_stencil_roles_t* r, int q, int j )
{
	return r->state[q * r->nstate + j];
}

/* The roles of a kind (0 for an unknown kind, roles untouched). */
int hyb_stencil_roles( int32_t kind, hyb_stencil_roles_t* roles );

/* Fields a kind has (0 for an unknown kind). */
int32_t hyb_stencil_nfields( int32_t kind );

/* Bytes per element and per plane of the problem. */
int64_t hyb_stencil_elem_bytes( int32_t elem );
int64_t hyb_stencil_plane_bytes( const hyb_stencil_prob_t* p );

/* The arguments of any stencil (box first in each). */
typedef union
{
	hyb_stencil_box_t           box;
	hyb_stencil_acoustic_args_t acoustic;
	hyb_stencil_himeno_args_t   himeno;
	hyb_stencil_laplace_args_t  laplace;
	hyb_stencil_star_args_t     star;
	hyb_stencil_wave_args_t     wave;
} hyb_stencil_args_t;

/* The box of `p` for a buffer of planes [base, base + planes) updating
   [z0, z1). */
hyb_stencil_box_t hyb_stencil_prob_box( const hyb_stencil_prob_t* p, int64_t base, int64_t planes,
                                        int64_t z0, int64_t z1 );

/* Arguments of one step of `p` on `box`: level t in `cur`, t-1 in `prev`
   (acoustic only), level t+1 written to `next`, the read-only fields in
   coef[] in the order of hyb_stencil_roles().coef; every pointer addresses
   plane box.base of its array. The Himeno residual fields are cleared
   (plane_ss NULL). For kinds of one quantity: the damped wave's second
   quantity is left NULL (use hyb_stencil_prob_args_q). */
void hyb_stencil_prob_args( const hyb_stencil_prob_t* p, const hyb_stencil_box_t* box,
                            const void* cur, const void* prev, void* next, const void* const* coef,
                            hyb_stencil_args_t* out );

/* The same for every quantity: cur[j], prev[j], next[j] are quantity j's
   (roles.quants of them). */
void hyb_stencil_prob_args_q( const hyb_stencil_prob_t* p, const hyb_stencil_box_t* box,
                              const void* const* cur, const void* const* prev, void* const* next,
                              const void* const* coef, hyb_stencil_args_t* out );

/* Run one step with the OpenMP CPU kernel of `kind`. */
hyb_status_t hyb_stencil_step_cpu( int32_t kind, const hyb_stencil_args_t* a, int nthreads );

#endif
