/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's planner: a cost model of one run on the CPU (serial or OpenMP) and on the
   device (per-step offload as the seed, or resident), and the choice of path, face order
   and transfer scheme. Pure functions: no globals, no I/O, no CUDA. */
#ifndef HYB_FACELOOP_PLAN_H
#define HYB_FACELOOP_PLAN_H

#include <stdint.h>

#include "hyblas_ext.h"

/* Machine rates the model uses (defaults: hyb_fl_rates_default, with their provenance). */
typedef struct
{
	double  cpu_flops_core; /* arithmetic of the solver's loops on one core, flop/s */
	double  cpu_bw;         /* host memory bandwidth with every core, bytes/s */
	double  cpu_eff;        /* parallel efficiency of the OpenMP loops, 0 .. 1 */
	double  gpu_bw;         /* device memory bandwidth the gathers of a face kernel reach */
	double  gpu_flops;      /* device double-precision rate, flop/s */
	double  launch_s;       /* one kernel launch queued behind another, seconds */
	double  sync_s;         /* one stream synchronisation seen by the host, seconds */
	double  h2d_bw, d2h_bw; /* pinned copies, bytes/s */
	double  host_copy_bw;   /* host memcpy into pinned staging, bytes/s */
	double  register_s;     /* page-locking host memory, seconds per byte */
	double  margin;         /* the device must be predicted faster by this fraction */
	int64_t min_faces;      /* AUTO keeps fewer faces on the CPU whatever the model says */
} hyb_fl_rates_t;

/* Whether a solver's state is page-locked for the resident scheme's trip: not yet (its first
   resident run locks it and a second array of its size), locked, or never (locking failed
   once: the trip is staged through pinned buffers by host copies). */
enum
{
	HYB_FL_PIN_UNTRIED = 0,
	HYB_FL_PIN_LOCKED  = 1,
	HYB_FL_PIN_NEVER   = 2
};

/* What the planner knows of a run. */
typedef struct
{
	int64_t                n_faces, n_boundary, n_cells, n_bilinear;
	int32_t                nv, np, nq, nqv;
	int32_t                equation; /* HYB_FL_EQ_* */
	int64_t                steps;
	int32_t                cpu_threads; /* threads the CPU loops would use (>= 1) */
	int32_t                state_pin;   /* HYB_FL_PIN_*: the solver's state */
	int32_t                device_ok;   /* a usable device and a device driver for the family */
	double                 device_mem;  /* bytes of device memory the run may use */
	hyblas_path_t          want_path;
	hyblas_faceloop_form_t want_form;
	hyblas_faceloop_xfer_t want_xfer;
} hyb_fl_plan_in_t;

/* Predicted seconds of the loops of one Runge-Kutta stage. */
typedef struct
{
	double face, volume, gather, update;
} hyb_fl_stage_cost_t;

typedef struct
{
	hyblas_path_t          path;  /* CPU or GPU */
	hyblas_faceloop_form_t form;  /* never AUTO */
	hyblas_faceloop_xfer_t xfer;  /* never AUTO (meaningful for GPU) */
	double                 t_cpu; /* the run on the CPU with cpu_threads */
	double t_gpu_per_step;        /* the run offloaded per stage; < 0 where it does not fit */
	double t_gpu_resident;        /* the run with the state resident; < 0 where it does not fit */
	double t_gpu;                 /* the better of the two that the request allows, < 0: none */
	int    gpu_wanted;            /* the device was asked for, or chosen by the model */
	char   why[192];
} hyb_fl_plan_t;

/* The defaults (provenance in the definition). */
void hyb_fl_rates_default( hyb_fl_rates_t* r );

/* Work of one element: flops and bytes of memory traffic (the model's units). A boundary
   face evaluates the exact solution at its points instead of reading a second cell. */
double hyb_fl_face_flops( int np, int nq, int eq, int boundary );
double hyb_fl_face_bytes( int np, int boundary );
double hyb_fl_volume_flops( int np, int nqv );
double hyb_fl_volume_bytes( int nv, int np );

/* Device memory of a run: the mesh, the tables, the face order and the face output, plus
   one state (per step) or the three Runge-Kutta states and the right-hand side
   (resident). */
double hyb_fl_device_bytes( const hyb_fl_plan_in_t* in, int resident );

/* The CPU loops of one stage on `threads` threads. */
hyb_fl_stage_cost_t hyb_fl_cpu_stage( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r,
                                      int threads );

/* The device kernels of one stage (each at least one launch). */
hyb_fl_stage_cost_t hyb_fl_gpu_stage( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r );

/* Predicted seconds of the whole run: on the CPU; offloaded per stage (state up, face
   kernel, output down, the host's gather and update, the host's volume loop overlapping
   the device); resident (mesh and state up once, four kernels per stage, state down once). */
double hyb_fl_time_cpu( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r );
double hyb_fl_time_gpu_per_step( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r );
double hyb_fl_time_gpu_resident( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r );

/* The plan, rule by rule: the CPU when asked; in AUTO below min_faces faces; when no
   device is usable; when the run fits the device memory in no transfer scheme the request
   allows; in AUTO when the device is not predicted faster by `margin`. Otherwise the device
   with the transfer scheme asked for (AUTO: resident when it fits, else per step).
   gpu_wanted: the request or the model chose the device (a forced GPU without a device
   falls back). Form: as asked; AUTO takes remapped when the mesh has boundary faces,
   vanilla otherwise. `why` says which rule decided. */
hyb_fl_plan_t hyb_fl_plan_choose( const hyb_fl_plan_in_t* in, const hyb_fl_rates_t* r );

#endif
