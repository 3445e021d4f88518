/* SPDX-License-Identifier: BSD-3-Clause */
/* Deciding a stencil run: the device plan the model picks under the
   memory budget, the CPU's predicted time, and where the run goes. */
#ifndef HYB_STENCIL_PLAN_H
#define HYB_STENCIL_PLAN_H

#include "hyblas_ext.h"
#include "kernels/stencil/hyb_stencil_prob.h"
#include "policies/stencil/hyb_stencil_model.h"

typedef struct
{
	hyb_stencil_work_t    work;
	hyb_stencil_machine_t mach;
	hyb_stencil_pred_t    pred;  /* the device plan */
	int                   found; /* a device plan fits */
	double                cpu_seconds;
	hyblas_path_t         path; /* where the run goes: CPU or GPU */
	char                  why[256];
} hyb_stencil_decision_t;

/* The machine the model plans for: the profile's PCIe, registration and
   copy rates, the family's defaults for the rest, and the device memory
   budget: `device_mem` when non-zero, else HYBLAS_GPU_MEM (a percentage
   applies to the default device's 80 GB while no device is open). */
void hyb_stencil_machine( uint64_t device_mem, hyb_stencil_machine_t* m );

/* The work `p` makes for `steps` steps under params `prm` (checked). */
void hyb_stencil_work( const hyb_stencil_prob_t* p, int64_t steps,
                       const hyblas_stencil_params_t* prm, hyb_stencil_work_t* w );

/* Decide: the model's plan for the scheme, chunks and block steps the
   parameters force or leave free, and the path. A forced scheme, chunk
   count or block depth that admits no plan (a halo deeper than a chunk, or
   more device memory than the budget) is HYBLAS_E_INVALID. With nothing
   forced and no plan fitting, the run goes to the CPU; likewise when no
   usable device implements the stencil's kernel. `why` says where and why
   beside the device plan. `registered`: an earlier run page-locked the
   caller's arrays already (the model charges it no registration). */
hyblas_status_t hyb_stencil_decide( const hyb_stencil_prob_t* p, int64_t steps,
                                    const hyblas_stencil_params_t* prm, int registered,
                                    hyb_stencil_decision_t* out );

/* Statistics of a decision: the device plan's scheme, d, k, bytes and
   predicted stage times (as a plan query reports them), the path and why. */
void hyb_stencil_decision_stats( const hyb_stencil_decision_t* dc, int64_t steps,
                                 hyblas_stencil_stats_t* s );

#endif
