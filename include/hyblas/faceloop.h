/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop workload of the extension API (seed 004): a discontinuous Galerkin solver
   for 2-D scalar conservation laws on unstructured triangle and quadrilateral meshes, whose
   loop over faces is the part a device takes; and the generic predicate partition that
   orders its faces. Included by hyblas_ext.h; C99, no CUDA type. docs/faceloop.md
   describes the scheme, the meshes and the offload. */
#ifndef HYBLAS_FACELOOP_H
#define HYBLAS_FACELOOP_H

#include <stddef.h>
#include <stdint.h>

#include "hyblas_ext.h"

#ifdef __cplusplus
extern "C"
{
#endif

	/* ------------------------------------------------------------------ partition */

	/* Stable partition of the indices 0 .. n-1 by a predicate: idx_out[0 .. *n_true) receives
	   the i with pred[i] != 0 in increasing order, idx_out[*n_true .. n) the others in
	   increasing order. This is thread remapping: launching thread t on item idx_out[t] puts
	   items of one kind next to each other, so no warp holds both kinds except the one at the
	   seam. n from 0 to 2^31 (indices are int32); pred and idx_out may be NULL when n is 0.
	   Large n (from 65536) runs on the OpenMP threads with the same result. Returns HYBLAS_OK,
	   HYBLAS_E_INVALID (nothing written) or HYBLAS_E_NO_MEMORY. Thread-safe. */
	hyblas_status_t hyblas_partition_by_predicate( const uint8_t* pred, int64_t n, int32_t* idx_out,
	                                               int64_t* n_true );

	/* ------------------------------------------------------------------ meshes */

	typedef struct hyblas_faceloop_mesh_s hyblas_faceloop_mesh_t;

	/* A mesh from the caller's arrays (copied; the caller may free them after the call).
	   Cells are all triangles (cell_nv 3) or all quadrilaterals (4), straight-sided, their
	   vertices counterclockwise (a quadrilateral strictly convex). Faces are the cells' edges;
	   two cells that share an edge share a face, an edge of one cell only is a boundary face
	   (its exterior value is the equation's exact solution, see the solver). */
	typedef struct
	{
		size_t         struct_size;   /* sizeof(hyblas_faceloop_mesh_desc_t) */
		int64_t        n_vertices;    /* 1 .. 2^31 - 1 */
		const double*  xy;            /* 2 per vertex: x, y (finite) */
		int64_t        n_cells;       /* >= 1; n_cells * cell_nv < 2^30 */
		int32_t        cell_nv;       /* 3 or 4 */
		const int32_t* cell_vertices; /* cell_nv per cell, counterclockwise */
		/* Optional periodicity: NULL, or per vertex the vertex it is identified with
		   (vertex_alias[v] == v for a vertex that stands for itself; vertex_alias of an alias is
		   itself). Edges are matched through it, so the two sides of a periodic domain become
		   interior faces; their edges must be translates of each other. */
		const int32_t* vertex_alias;
		/* Optional explicit faces, in the order the face loop visits them: n_faces pairs of
		   vertices in face_vertices. 0 / NULL: the faces are derived, numbered in the order of
		   first appearance cell by cell (boundary and interior faces interleaved as a mesh file
		   orders them). Every listed face must be an edge of a cell and every cell edge must be
		   listed once. */
		int64_t        n_faces;
		const int32_t* face_vertices;
	} hyblas_faceloop_mesh_desc_t;

	/* Build and validate a mesh. On HYBLAS_E_INVALID (a bad size or pointer, a vertex index
	   out of range, a clockwise or degenerate cell, a non-convex quadrilateral, an edge of
	   more than two cells (non-manifold) or walked the same way by two cells (inconsistent
	   orientation, overlapping cells), a listed face that is no cell's edge (dangling) or a
	   cell edge the list lacks, mismatched periodic sides) *mesh is untouched and, when `why`
	   is not NULL, a one-line reason naming the first offending cell, face or vertex is
	   written there (at most why_len bytes, NUL-terminated): the one output a failed call
	   writes. Also HYBLAS_E_STRUCT_SIZE, HYBLAS_E_NO_MEMORY. The mesh is released with
	   hyblas_faceloop_mesh_destroy. Thread-safe. */
	hyblas_status_t hyblas_faceloop_mesh_create( const hyblas_faceloop_mesh_desc_t* desc,
	                                             hyblas_faceloop_mesh_t** mesh, char* why,
	                                             size_t why_len );

	typedef enum
	{
		HYBLAS_FACELOOP_QUAD = 0, /* n x n squares */
		HYBLAS_FACELOOP_TRI  = 1  /* each square cut in two along a diagonal chosen at random */
	} hyblas_faceloop_shape_t;

	/* A generated mesh of the unit square: nx x ny squares of the grid, as quadrilaterals or
	   triangles, cells row by row, faces in order of first appearance (see above). Face
	   counts: quadrilaterals 2 nx ny + nx + ny (2n(n+1): 220, 840, 3280 for n = 10, 20, 40, as
	   the seed's table), triangles 3 nx ny + nx + ny; periodic: 2 nx ny and 3 nx ny. */
	typedef struct
	{
		size_t                  struct_size; /* sizeof(hyblas_faceloop_grid_t) */
		hyblas_faceloop_shape_t shape;       /* 0: quadrilaterals */
		int64_t                 nx, ny;      /* squares per side, nx >= 1; ny 0: nx */
		int32_t periodic; /* 0: boundary all around; 1: periodic in x and y (nx, ny >= 3) */
		/* Interior vertices move by up to perturb * (grid spacing) in x and in y, 0 .. 0.3 (0:
		   the regular grid); with quadrilaterals this makes bilinear (non-parallelogram) cells. */
		double   perturb;
		uint64_t seed; /* the diagonals and the perturbation */
	} hyblas_faceloop_grid_t;

	/* Generate a mesh (validated as hyblas_faceloop_mesh_create does). Deterministic: the
	   same grid struct gives the same mesh. Returns HYBLAS_OK, HYBLAS_E_INVALID (bad sizes or
	   perturbation), HYBLAS_E_STRUCT_SIZE or HYBLAS_E_NO_MEMORY; *mesh untouched on failure. */
	hyblas_status_t hyblas_faceloop_mesh_generate( const hyblas_faceloop_grid_t* grid,
	                                               hyblas_faceloop_mesh_t**      mesh );

	typedef struct
	{
		size_t  struct_size; /* sizeof(hyblas_faceloop_mesh_info_t) */
		int32_t cell_nv;
		int64_t n_vertices, n_cells, n_faces, n_boundary_faces;
		int64_t n_bilinear_cells; /* quadrilaterals that are not parallelograms */
		double  h_min;            /* smallest area / perimeter of a cell */
		double  area;             /* of the whole mesh */
		/* Warps of 32 consecutive faces that hold both boundary and interior faces: in the
		   mesh's order (the vanilla face loop) and after partitioning by kind (remapped:
		   0 or 1). */
		int64_t warps_mixed_vanilla, warps_mixed_remapped;
	} hyblas_faceloop_mesh_info_t;

	/* Sizes and properties of a mesh. HYBLAS_E_INVALID for NULL arguments. */
	hyblas_status_t hyblas_faceloop_mesh_info( const hyblas_faceloop_mesh_t* mesh,
	                                           hyblas_faceloop_mesh_info_t*  info );

	/* Release the caller's reference (NULL: nothing). A solver keeps its own reference, so a
	   mesh may be destroyed while solvers built on it live. */
	hyblas_status_t hyblas_faceloop_mesh_destroy( hyblas_faceloop_mesh_t* mesh );

	/* ------------------------------------------------------------------ solver */

	/* u_t + div F(u) = 0 on the unit square, with the seed's two problems:
	   ADVECTION  ("adv-sin") F = (ax u, ay u), u0 = sin(2 pi x) sin(2 pi y), upwind flux;
	   BURGERS    F = (u^2/2, u^2/2), u0 = 1/2 + 1/4 sin(2 pi (x + y)), local Lax-Friedrichs
	              flux; smooth until the shock forms at t = 1/pi.
	   Boundary faces take the exact solution as exterior value (inflow data; at outflow the
	   flux ignores it). */
	typedef enum
	{
		HYBLAS_FACELOOP_ADVECTION = 0,
		HYBLAS_FACELOOP_BURGERS   = 1
	} hyblas_faceloop_equation_t;

	typedef struct hyblas_faceloop_solver_s hyblas_faceloop_solver_t;

	typedef struct
	{
		size_t                     struct_size; /* sizeof(hyblas_faceloop_solver_desc_t) */
		hyblas_faceloop_equation_t equation;
		int32_t                    degree; /* 1 .. 3 (the seed's P1 .. P3); 0: 1 */
		double                     ax, ay; /* advection velocity; both 0: (1, 0.5) */
		/* Time step: dt > 0 is used as is; 0: dt = cfl * h_min / ((2 degree + 1) lambda), with
		   h_min the mesh's smallest area / perimeter and lambda the largest wave speed (|ax| +
		   |ay|, or twice the largest |u0| for Burgers); cfl 0 means 1 (stable with SSP-RK3 at
		   every degree, with room to spare). */
		double dt;
		double cfl;
	} hyblas_faceloop_solver_desc_t;

	/* A solver on `mesh` (referenced, not copied) with the L2 projection of the initial
	   condition as its state at time 0: orthonormal modal bases (Dubiner on triangles,
	   tensor Legendre on quadrilaterals), SSP-RK3 in time. Returns HYBLAS_OK,
	   HYBLAS_E_INVALID (bad mesh pointer, equation, degree, velocity, dt or cfl),
	   HYBLAS_E_STRUCT_SIZE, HYBLAS_E_NO_MEMORY; *solver untouched on failure. */
	hyblas_status_t hyblas_faceloop_solver_create( hyblas_faceloop_mesh_t*              mesh,
	                                               const hyblas_faceloop_solver_desc_t* desc,
	                                               hyblas_faceloop_solver_t**           solver );

	/* Release a solver (NULL: nothing). */
	hyblas_status_t hyblas_faceloop_solver_destroy( hyblas_faceloop_solver_t* solver );

	typedef struct
	{
		size_t  struct_size; /* sizeof(hyblas_faceloop_solver_info_t) */
		int32_t degree;
		int32_t modes_per_cell; /* state entries per cell */
		int32_t face_points;    /* quadrature points per face */
		int32_t volume_points;  /* quadrature points per cell */
		int64_t n_cells;
		int64_t steps_done;
		double  dt, time;
		double  integral; /* of the current state over the mesh (conserved) */
	} hyblas_faceloop_solver_info_t;

	hyblas_status_t hyblas_faceloop_solver_info( const hyblas_faceloop_solver_t* solver,
	                                             hyblas_faceloop_solver_info_t*  info );

	/* The state: modes_per_cell coefficients per cell, cell by cell (len >= n_cells *
	   modes_per_cell, else HYBLAS_E_INVALID). */
	hyblas_status_t hyblas_faceloop_get_state( const hyblas_faceloop_solver_t* solver,
	                                           double* modes, int64_t len );

	/* Replace the state and the time (finite values, len as get_state). */
	hyblas_status_t hyblas_faceloop_set_state( hyblas_faceloop_solver_t* solver,
	                                           const double* modes, int64_t len, double time );

	/* L2 norm over the mesh of the state minus the exact solution at the current time
	   (quadrature exact to degree 2 degree + 8). HYBLAS_E_UNSUPPORTED for Burgers from the
	   shock time 1/pi on, where no smooth exact solution exists. */
	hyblas_status_t hyblas_faceloop_l2_error( const hyblas_faceloop_solver_t* solver, double* err );

	/* The face loop's three device forms (seed 004 sec. 3.2-3.3). */
	typedef enum
	{
		HYBLAS_FACELOOP_FORM_AUTO     = 0, /* remapped when the mesh has boundary faces */
		HYBLAS_FACELOOP_FORM_VANILLA  = 1, /* thread t on face t: faces in the mesh's order */
		HYBLAS_FACELOOP_FORM_REMAPPED = 2, /* thread t on the t-th face of the partition by kind */
		HYBLAS_FACELOOP_FORM_LOWREG   = 3  /* remapped, compiled for at most 64 registers */
	} hyblas_faceloop_form_t;

	/* How a device run moves the state. */
	typedef enum
	{
		HYBLAS_FACELOOP_XFER_AUTO     = 0, /* resident when it fits the device */
		HYBLAS_FACELOOP_XFER_PER_STEP = 1, /* the seed's workflow: each stage the state goes up,
		                                      the face loop runs, its output comes down and the
		                                      host adds it to the cells */
		HYBLAS_FACELOOP_XFER_RESIDENT = 2  /* the state stays on the device across steps */
	} hyblas_faceloop_xfer_t;

	typedef struct
	{
		size_t                 struct_size; /* sizeof(hyblas_faceloop_run_params_t) */
		hyblas_path_t          path;        /* AUTO: the cost model decides */
		hyblas_faceloop_form_t form;
		hyblas_faceloop_xfer_t xfer;
		int32_t cpu_threads; /* CPU loops: 0 the OpenMP default, 1 the serial reference */
		int32_t block_size;  /* device threads per block, 32 .. 1024 by 32; 0: 64 */
	} hyblas_faceloop_run_params_t;

	typedef struct
	{
		size_t                 struct_size; /* sizeof(hyblas_faceloop_stats_t) */
		int64_t                steps;
		double                 time;        /* the solver's time after the run */
		hyblas_path_t          path;        /* where the loops ran: CPU or GPU */
		hyblas_faceloop_form_t form;        /* the face order used */
		hyblas_faceloop_xfer_t xfer;        /* the device transfer scheme (GPU runs) */
		int32_t                fell_back;   /* 1: the plan chose the device, the CPU ran it */
		int32_t                cpu_threads; /* threads of the CPU loops */
		double  face_loop_s;       /* the face loop itself (CPU loop, or device kernel time) */
		double  face_end_to_end_s; /* the face loop with its gather, copies, launches, scatter */
		double  volume_loop_s;     /* the other loops: volume ... */
		double  update_loop_s;     /* ... and the Runge-Kutta updates */
		double  total_s;           /* the whole run */
		double  predicted_cpu_s;   /* the cost model's time for the run on the CPU ... */
		double  predicted_gpu_s;   /* ... and on the device (its best transfer scheme) */
		int64_t bytes_h2d, bytes_d2h;
		int32_t regs_per_thread; /* of the device face kernel; -1 on the CPU */
		double  occupancy;       /* of the device face kernel, 0 .. 1; -1 on the CPU */
		int64_t warps_mixed;     /* warps of 32 faces of both kinds in the order used */
		char    plan[48];        /* e.g. "cpu omp 16", "gpu remapped resident" */
		char    why[192];        /* the planner's reason, one line */
	} hyblas_faceloop_stats_t;

	/* Advance the state by `steps` SSP-RK3 steps of the solver's dt (steps >= 0). params may be
	   NULL (all defaults), stats may be NULL. The device path runs where the cost model (AUTO)
	   or the caller (GPU) puts it and the device is usable; otherwise, or after a device
	   failure, the CPU runs the same steps (path GPU without a device: stats->fell_back = 1).
	   Returns HYBLAS_OK, HYBLAS_E_INVALID or HYBLAS_E_STRUCT_SIZE (nothing changed). Not
	   thread-safe on one solver; distinct solvers may run at once. */
	hyblas_status_t hyblas_faceloop_run( hyblas_faceloop_solver_t* solver, int64_t steps,
	                                     const hyblas_faceloop_run_params_t* params,
	                                     hyblas_faceloop_stats_t*            stats );

#ifdef __cplusplus
}
#endif

#endif
