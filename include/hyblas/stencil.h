/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family of the extension API: time-stepped 2-D and 3-D stencils
   on arrays in host memory that may be far larger than the device's memory
   (seed 003, chapter 3: 1.5-D chunks, temporal blocking, direct mapping and
   region sharing). docs/stencil.md describes the engine, its plans and its
   cost model. */
#ifndef HYBLAS_STENCIL_H
#define HYBLAS_STENCIL_H

#include <stddef.h>
#include <stdint.h>

#include "hyblas_ext.h"

#ifdef __cplusplus
extern "C"
{
#endif

	/* ------------------------------------------------------------------ */
	/* The problem.

	   Every field is one host array of nx * ny * nz elements, x fastest, then
	   y, then z (C order a[z][y][x]); 2-D problems have nz = 1 and are cut
	   along y. The engine cuts along the slowest axis, so a chunk of planes is
	   one contiguous piece of every array.

	   Boundary condition of every stencil: a band of width r (the stencil's
	   radius) on every face is fixed. Its points are never computed; each new
	   time level carries them over from the level before, so they keep the
	   values the caller put in the newest level (the documented data sets put
	   zeros there, except Himeno's standard pressure). */

	typedef enum
	{
		/* 3-D acoustic wave propagator: 25 points, eighth order in space, second
		   in time (leapfrog), radius 4. Fields PREV (p at t-1), CUR (p at t),
		   NEXT (work space) and VEL (the velocity). After a run of T steps CUR
		   holds p(t + T) and PREV p(t + T - 1); NEXT is left unspecified. */
		HYBLAS_STENCIL_ACOUSTIC = 1,
		/* The Himeno benchmark: 19-point point-Jacobi for the pressure Poisson
		   equation, radius 1, 14 fields (P, A0..A3, B0..B2, C0..C2, BND, WRK1,
		   WRK2). After a run P holds the pressure after T iterations, the
		   statistics' residual is the last iteration's gosa (the sum of ss^2
		   over the interior points), and WRK2 is left unspecified. */
		HYBLAS_STENCIL_HIMENO = 2,
		/* 2-D 5-point Laplace (Jacobi) sweep u' = (u_E + u_W + u_N + u_S) / 4,
		   radius 1, nz = 1. Fields U and WORK; after a run U holds the result
		   and WORK is left unspecified. */
		HYBLAS_STENCIL_LAPLACE2D = 3,
		/* A constant-coefficient star stencil of radius 1..8, 2-D (nz = 1) or
		   3-D: u'(p) = center * u(p) + sum over each axis a and offset
		   j in [-r, r], j != 0, of coef[a][j] * u(p + j e_a). Fields U and WORK
		   as the Laplace stencil. */
		HYBLAS_STENCIL_STAR = 4,
		/* 2-D damped linear acoustics, the coupled two-field stand-in for seed
		   003 chapter 4's Formura fluid code (docs/stencil.md, "The damped
		   wave"): the pressure p and its rate q = dp/dt obey
		     dp/dt = q,   dq/dt = c^2 (d2p/dx2 + d2p/dy2) - gamma q,
		   the damped wave equation p_tt + gamma p_t = c^2 Lap p written as a
		   first-order system. One step is forward-backward (symplectic Euler)
		   on the 5-point Laplacian, radius 1, nz = 1:
		     q' = (1 - gamma dt) q + c^2 dt Lap_h p,
		     p' = p + dt q',
		   Lap_h p = (p_E - 2p + p_W) / dx^2 + (p_N - 2p + p_S) / dy^2, so each
		   field is updated from the other every step. It is stable when
		   0 <= gamma dt <= 1 and c^2 dt^2 (1/dx^2 + 1/dy^2) <= 1 - gamma dt / 2
		   (create checks it). Four arrays: P and Q (the state), P_WORK and
		   Q_WORK (work space); after a run P and Q hold p and q after T steps
		   and the work arrays are left unspecified. Defaults: dx = dy = 1,
		   c = 1, gamma = 0, dt half the undamped limit. Compressing "the
		   pressure alone" means a rate on P and P_WORK (the one quantity's
		   arrays), Q and Q_WORK raw; since only P and Q cross PCIe, that is
		   half of the bytes moved, not the quarter the 1.14x bound
		   assumes (docs/stencil.md). */
		HYBLAS_STENCIL_WAVE2D = 5
	} hyblas_stencil_kind_t;

	typedef enum
	{
		HYBLAS_STENCIL_FLOAT  = 1,
		HYBLAS_STENCIL_DOUBLE = 2
	} hyblas_stencil_type_t;

	/* Field roles: the index of each field in hyblas_stencil_desc_t.fields. */
	enum
	{
		HYBLAS_ACOUSTIC_PREV   = 0,
		HYBLAS_ACOUSTIC_CUR    = 1,
		HYBLAS_ACOUSTIC_NEXT   = 2,
		HYBLAS_ACOUSTIC_VEL    = 3,
		HYBLAS_ACOUSTIC_FIELDS = 4,

		HYBLAS_HIMENO_P      = 0,
		HYBLAS_HIMENO_A0     = 1, /* A0..A3 = 1..4 */
		HYBLAS_HIMENO_B0     = 5, /* B0..B2 = 5..7 */
		HYBLAS_HIMENO_C0     = 8, /* C0..C2 = 8..10 */
		HYBLAS_HIMENO_BND    = 11,
		HYBLAS_HIMENO_WRK1   = 12,
		HYBLAS_HIMENO_WRK2   = 13,
		HYBLAS_HIMENO_FIELDS = 14,

		HYBLAS_GRID_U      = 0, /* Laplace and star */
		HYBLAS_GRID_WORK   = 1,
		HYBLAS_GRID_FIELDS = 2,

		HYBLAS_WAVE_P      = 0, /* the damped wave */
		HYBLAS_WAVE_P_WORK = 1,
		HYBLAS_WAVE_Q      = 2,
		HYBLAS_WAVE_Q_WORK = 3,
		HYBLAS_WAVE_FIELDS = 4
	};

#define HYBLAS_STENCIL_MAX_FIELDS 16
#define HYBLAS_STENCIL_MAX_RADIUS 8

	/* One field. `rate`: 0 moves the field uncompressed; otherwise the bits
	   per value of fixed-rate ZFP (seed 003 ch. 4; docs/stencil.md): the
	   field is kept compressed on the host for the call and crosses PCIe
	   compressed, in (0, 32] for float and (0, 64] for double, and such that
	   4 planes of it code to whole bytes (every integer rate does). The time
	   levels of a quantity share a rate: the input roles (PREV and CUR, P,
	   U) carry one rate, the work role (NEXT, WRK2, WORK) that rate or 0;
	   the damped wave's two quantities each so (P with P_WORK, Q with
	   Q_WORK), with rates of their own. A
	   compressed run is lossy: it computes on the decoded values, and there
	   is no pointwise error bound (the fidelity check measures it). The
	   caller's read-only fields are never written. `flags` is reserved and
	   must be 0. */
	typedef struct
	{
		void*    data;
		double   rate;
		uint32_t flags;
	} hyblas_stencil_field_t;

	typedef struct
	{
		size_t                struct_size;
		hyblas_stencil_kind_t kind;
		hyblas_stencil_type_t type;
		int64_t               nx, ny, nz;
		/* The kind's fields, by role; every role must be given, no two fields
		   may overlap. The caller keeps them alive and unmoved while a handle
		   made from this description exists. */
		hyblas_stencil_field_t fields[HYBLAS_STENCIL_MAX_FIELDS];

		/* Acoustic: grid spacings and time step (0: the documented data set's
		   10 m and 0.2 dx / 1500 m/s). */
		double dx, dy, dz, dt;
		/* Himeno: the relaxation factor (0: the benchmark's 0.8). */
		double omega;
		/* Star: radius, centre coefficient and coef[axis][j]: axis 0 = x,
		   1 = y, 2 = z (unused in 2-D), j = 0 .. r-1 for offsets -r .. -1 and
		   j = r .. 2r-1 for offsets 1 .. r. */
		int32_t radius;
		double  center;
		double  coef[3][2 * HYBLAS_STENCIL_MAX_RADIUS];

		/* (Later version.) Damped wave: the wave speed c (0: 1) and the
		   damping gamma (>= 0; 0: none); its dx, dy (0: 1) and dt (0: half
		   the stability limit) are the fields above. */
		double speed, damping;
	} hyblas_stencil_desc_t;

	/* ------------------------------------------------------------------ */
	/* How a run moves data (seed 003 §3.4-3.5; docs/stencil.md). */
	typedef enum
	{
		HYBLAS_STENCIL_SCHEME_AUTO = 0,
		/* The whole set on the device, uploaded in pieces overlapped with the
		   first steps, downloaded once. */
		HYBLAS_STENCIL_SCHEME_IN_CORE = 1,
		/* Out of core through pinned transfer buffers (the original PACC). */
		HYBLAS_STENCIL_SCHEME_COPY = 2,
		/* Out of core, DMA straight from and to the program's arrays. */
		HYBLAS_STENCIL_SCHEME_DIRECT = 3,
		/* Direct mapping plus region sharing: the region two neighbouring
		   chunks share is copied on the device, so no halo crosses PCIe
		   twice. */
		HYBLAS_STENCIL_SCHEME_SHARED = 4
	} hyblas_stencil_scheme_t;

	typedef struct
	{
		size_t                  struct_size;
		hyblas_path_t           path;
		hyblas_stencil_scheme_t scheme;
		int32_t                 chunks;      /* d; 0: the planner's */
		int32_t                 block_steps; /* k, steps per temporal block; 0: the planner's */
		/* Device memory the run may use, bytes; 0: HYBLAS_GPU_MEM (a share of
		   the device's free memory by default). */
		uint64_t device_mem;
		/* 1: the caller guarantees that every field is page-locked
		   (cudaHostAlloc, cudaHostRegister): direct mapping needs no
		   registration. Fields in blocks of hyblas_host_alloc count so
		   without it. */
		int32_t host_pinned;
		/* 1: never register the caller's pages (direct mapping then reads
		   pageable memory or the planner prefers the copying scheme). */
		int32_t no_register;
		/* OpenMP threads of the CPU path; 0: the OpenMP default. */
		int32_t cpu_threads;

		/* (Second version: compression.) The fidelity check of a run with
		   compressed fields: fidelity_every > 0 runs an uncompressed
		   reference beside it (on the same path, with host memory for a copy
		   of the time levels) and compares the newest level every
		   fidelity_every steps and at the end, at fidelity_points points
		   (0: 20,000,000, the seed's sample) spread over every row. Temporal
		   blocks restart at each checkpoint. At most HYBLAS_STENCIL_FIDELITY_MAX
		   checkpoints. Ignored without compressed fields. */
		int64_t fidelity_every;
		int64_t fidelity_points;
	} hyblas_stencil_params_t;

#define HYBLAS_STENCIL_FIDELITY_MAX 32

	/* One checkpoint of the fidelity check: after `step` steps of the call,
	   the newest level (CUR, P, U; the damped wave's pressure P) of the
	   compressed run against the
	   uncompressed reference at `points` points: absolute errors |a - b|,
	   relative errors |a - b| / |b| over the points where b != 0. */
	typedef struct
	{
		int64_t step;
		int64_t points;
		double  max_abs, mean_abs;
		double  max_rel, mean_rel;
	} hyblas_stencil_fidelity_t;

	typedef struct
	{
		size_t                  struct_size;
		hyblas_path_t           path;        /* where the steps ran: CPU or GPU */
		hyblas_stencil_scheme_t scheme;      /* the device plan (chosen or forced) */
		int32_t                 chunks;      /* d of the device plan */
		int32_t                 block_steps; /* k of the device plan */
		int32_t                 in_core;     /* 1: the device plan keeps the set resident */
		int32_t                 fell_back;   /* 1: planned for the device, finished on the CPU */
		int64_t                 steps;       /* time steps run */

		/* Data moved (what the plan predicts for a plan query). */
		uint64_t bytes_h2d, bytes_d2h, bytes_d2d, bytes_host_copy;
		uint64_t device_bytes; /* device memory the plan needs */

		/* Seconds: the whole call, then per stage (stages overlap on the
		   device, so they do not add up to the total). A plan query gives
		   the model's stage times. After a device run the stages are not
		   timed one by one: seconds_kernel holds the pipeline's wall time
		   (transfers and kernels, overlapped, and the waits for the
		   rollback copy taken beside them), seconds_host_copy the host
		   work before and after it (encoding and decoding compressed
		   fields, releasing the rollback copy), seconds_register the page-locking of the
		   caller's (first run of a handle) and the compressed arrays. */
		double seconds;
		double seconds_h2d, seconds_d2h, seconds_d2d, seconds_kernel;
		double seconds_host_copy, seconds_register, seconds_cpu;

		/* The model's predictions for the device plan and for the CPU. */
		double predicted_seconds;
		double predicted_cpu_seconds;

		/* Himeno: gosa of the last iteration; 0 for the other kinds. */
		double residual;

		/* One line: the plan and why. */
		char why[256];

		/* (Second version: compression.) Fields that moved compressed (0
		   after a fallback: the CPU finished uncompressed), and the bytes
		   the transfers above would have moved uncompressed (equal to them
		   without compression). */
		int32_t  compressed_fields;
		uint64_t bytes_h2d_raw, bytes_d2h_raw;
		/* The fidelity check, when asked for: its checkpoints in order. */
		int32_t                   fidelity_checks;
		hyblas_stencil_fidelity_t fidelity[HYBLAS_STENCIL_FIDELITY_MAX];

		/* (Third version.) Device slot buffers of the plan: out of core, the
		   chunks in flight at once (the seed's pipeline has 3; the planner
		   takes up to HYBLAS_STENCIL_SLOTS where the budget holds them); in
		   core 1. */
		int32_t slots;
	} hyblas_stencil_stats_t;

	typedef struct hyblas_stencil_s hyblas_stencil_t;

	/* Create a handle for the problem `desc` (copied; the fields stay the
	   caller's). Checks everything that does not depend on a run: kind, type,
	   sizes (every axis of the kind at least 2r + 1 points; nz = 1 for 2-D),
	   fields present and not overlapping, coefficients finite, rates as the
	   field's comment says. Returns HYBLAS_OK and *out, or HYBLAS_E_INVALID
	   (also a bad rate) / HYBLAS_E_STRUCT_SIZE / HYBLAS_E_UNSUPPORTED
	   (non-zero flags) / HYBLAS_E_NO_MEMORY with *out untouched.
	   Thread-safe. */
	hyblas_status_t hyblas_stencil_create( const hyblas_stencil_desc_t* desc,
	                                       hyblas_stencil_t**           out );

	/* Advance the problem by `steps` time steps (0: nothing), in place in the
	   caller's arrays, on the path and plan `params` asks for (NULL: all
	   defaults). `stats` (may be NULL) receives what ran. Bad parameters
	   (unknown path or scheme, negative counts, a forced plan whose halo h * k
	   exceeds a chunk or that does not fit the device memory, a fidelity
	   check of more than HYBLAS_STENCIL_FIDELITY_MAX checkpoints) return
	   HYBLAS_E_INVALID and change nothing; with compressed fields a forced
	   in-core or copying scheme is HYBLAS_E_UNSUPPORTED. A device failure
	   finishes on the CPU from inputs the device path never overwrote
	   (stats->fell_back), without compression. With compressed fields the
	   CPU path applies the same round trips (libzfp, or hyblas's own codec
	   with the same bits) at the device plan's block depth, so both paths
	   give the same bits on the simulated device.
	   What a handle holds from its first device run until destroy: the
	   caller's arrays page-locked (unless host_pinned or no_register), the
	   compressed form of its compressed fields (page-locked host memory of
	   their rate's share of each field's size),
	   and host memory the size of the uncompressed input time levels (one
	   field, two for the acoustic and the damped wave) into which each device run copies them,
	   beside the pipeline, so that a failure can put them back. A handle runs one call at a time;
	   different handles may run at once. */
	hyblas_status_t hyblas_stencil_run( hyblas_stencil_t* st, int64_t steps,
	                                    const hyblas_stencil_params_t* params,
	                                    hyblas_stencil_stats_t*        stats );

	/* What hyblas_stencil_run would do, without computing: the plan, its bytes
	   and predicted times, in `plan` (path is where it would run). Same
	   validation as a run. */
	hyblas_status_t hyblas_stencil_plan( const hyblas_stencil_t* st, int64_t steps,
	                                     const hyblas_stencil_params_t* params,
	                                     hyblas_stencil_stats_t*        plan );

	/* Release a handle and what its device runs hold (NULL is allowed). */
	hyblas_status_t hyblas_stencil_destroy( hyblas_stencil_t* st );

	/* One call: create, run, destroy. */
	hyblas_status_t hyblas_stencil_solve( const hyblas_stencil_desc_t* desc, int64_t steps,
	                                      const hyblas_stencil_params_t* params,
	                                      hyblas_stencil_stats_t*        stats );

	/* Fill the fields of `desc` with the documented data set of its kind
	   (docs/stencil.md): acoustic: a Gaussian pulse at the centre in PREV and
	   CUR, zero boundary bands, constant velocity 1500 m/s (the CFL-safe dt is
	   the descriptor default); Himeno: the benchmark's initialisation; Laplace:
	   1 on the first row (y = 0), 0 elsewhere; star: a smooth bump; damped
	   wave: a Gaussian pulse of p at the centre (sigma 1/16 of the shorter
	   side), zero bands, q = 0. The WORK, NEXT, WRK2 and wave work fields
	   are zeroed. Same checks as hyblas_stencil_create. */
	hyblas_status_t hyblas_stencil_fill( const hyblas_stencil_desc_t* desc );

#ifdef __cplusplus
}
#endif

#endif
