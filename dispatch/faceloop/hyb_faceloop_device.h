/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's device driver on the device runtime: SSP-RK3 steps with the face
   loop offloaded per stage (the seed's workflow) or with the whole state resident. */
#ifndef HYB_FACELOOP_DEVICE_H
#define HYB_FACELOOP_DEVICE_H

#include <stdint.h>

#include "dispatch/faceloop/hyb_faceloop_solver.h"
#include "hyb_status.h"

/* What a device run is asked to do. */
typedef struct
{
	int resident; /* 1: all four loops on the device, state up once and down once */
	int remapped; /* faces in the mesh's remap order (interior first) */
	int lowreg;   /* the register-limited face kernel (implies remapped order) */
	int block;    /* threads per block, 0: the launchers' default */
	int threads;  /* host threads of the per-step workflow's host loops */
} hyb_fl_dev_req_t;

/* What it measured. */
typedef struct
{
	double face_s;     /* the face loop: device time of its kernels (events) */
	double face_e2e_s; /* per step: staging, copies, kernel, waits and the host's gather;
	                      resident: face and gather kernels, and the state's one trip up
	                      and down (staging copies and transfers) */
	double  volume_s, update_s;
	double  mesh_s;      /* the mesh's and tables' upload, once per run */
	double  trip_s;      /* resident: the state's trip up and down, host-timed ... */
	double  trip_up_s;   /* ... of which up */
	double  trip_copy_s; /* the host's copies into and out of staging (both ways) */
	double  pin_s;       /* page-locking the state at the solver's first resident run */
	int64_t bytes_h2d, bytes_d2h;
} hyb_fl_dev_out_t;

/* Run `steps` steps of solver s on selected device 0 (hyb_devices_ensure succeeded).
   HYB_OK: s's state, time and steps advanced exactly as hyb_fl_solver_cpu_steps would
   (the device's kernels compute the same per-element code). Any device failure
   (allocation, copy, launch, synchronisation, an unsupported kernel) returns its status
   with s exactly as it was on entry: the caller reruns the steps on the CPU. */
hyb_status_t hyb_fl_device_steps( hyblas_faceloop_solver_t* s, int64_t steps,
                                  const hyb_fl_dev_req_t* q, hyb_fl_dev_out_t* o );

/* Unlock what a resident run page-locked of s (nothing if none); the solver frees the
   arrays. Without a device to do it with (a child of fork()), the pages stay as they are. */
void hyb_fl_device_unpin( hyblas_faceloop_solver_t* s );

#endif
