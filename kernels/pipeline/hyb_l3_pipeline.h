/* SPDX-License-Identifier: BSD-3-Clause */
/* Running level-3 work (hyb_l3_tasks.h) on the devices: the five-stage
   pipeline of seed 000 (load1 host copy into page-locked staging, load2 DMA
   in, mult1 products on the device, store1 DMA out, store2 host copy into
   the application's memory), double-buffered, with blocks cached on the
   device while consecutive tiles reuse them, several devices each starting
   on its own band of tiles and taking over what is left of the others', an
   optional CPU strip computed at the same time, and exact CPU completion of
   whatever a device did not finish. */
#ifndef HYB_L3_PIPELINE_H
#define HYB_L3_PIPELINE_H

#include "kernels/pipeline/hyb_l3_tasks.h"

/* When the copy teams spin through a call (hyb_team_hold). */
enum
{
	HYB_SPIN_NEVER  = 0,
	HYB_SPIN_LARGE  = 1, /* calls that copy enough to gain from it */
	HYB_SPIN_ALWAYS = 2  /* any call (tests: their calls are small) */
};

typedef struct
{
	int                  ndev;         /* devices to use: selected devices 0 .. ndev-1 */
	int                  register_ops; /* DMA straight from registered application pages */
	int                  copy_threads; /* host threads per staging copy team */
	int                  team_spin;    /* HYB_SPIN_* */
	hyb_l3_cpu_fn        cpu;          /* the real library on a sub-problem */
	void*                cpu_user;
	const hyb_l3_args_t* cpu_strip; /* computed on the CPU concurrently, or NULL */
} hyb_l3_exec_opts_t;

typedef struct
{
	double       seconds;          /* the whole call */
	double       dev_seconds;      /* longest device worker, first issue to last store */
	double       cpu_seconds;      /* the CPU strip */
	double       fallback_seconds; /* CPU completion after a device failure */
	double       load1_seconds, store2_seconds, wait_seconds; /* host time per stage */
	int          tasks_dev, tasks_cpu;
	double       bytes_h2d, bytes_d2h;
	hyb_status_t error; /* first device error (the result is complete anyway) */
} hyb_l3_exec_report_t;

/* Compute the work. On return the output holds the complete result unless
   the CPU library itself could not be called (then that status). Device
   errors are reported in r->error and handled by CPU completion. */
hyb_status_t hyb_l3_pipeline_run( const hyb_l3_work_t* w, const hyb_l3_exec_opts_t* o,
                                  hyb_l3_exec_report_t* r );

#endif
