/* SPDX-License-Identifier: BSD-3-Clause */
/* Family dispatch: the only place where decisions become actions. Each
   entry takes the call record (to forward the original arguments) and the
   decoded arguments. Stage-1 init must have run (the wrappers ensure it). */
#ifndef HYB_DISPATCH_H
#define HYB_DISPATCH_H

#include "hyb_args.h"

/* Level-3 BLAS: validate -> (invalid: forward) -> normalize -> trivial or
   mode cpu: forward -> policy -> device pipeline with CPU strip -> CPU
   completion of anything the device did not finish -> stats and trace. */
void hyb_dispatch_l3( const hyb_call_t* call, const hyb_l3_args_t* args );

/* LAPACK ?gtsv: invalid or not diagonally dominant: the real LAPACK;
   otherwise truncated SPIKE on the CPU, the device or both (seed 002). */
void hyb_dispatch_gtsv( const hyb_call_t* call, const hyb_gtsv_args_t* args );

/* MKL sparse products: MKL's own routine when the process has MKL; else
   hyblas's CPU kernel, the device, or both at once (seed 001). */
void hyb_dispatch_spmv( const hyb_call_t* call, const hyb_spmv_args_t* args );

/* Size the statistics for the routines hyblas intercepts (the generated routine table
   names operations 0 .. HYB_R_COUNT - 1) and open the trace file `trace` at the first
   traced call (NULL or empty: none). Called once by stage-1 init before any record. */
void hyb_stats_init_routines( const char* trace, int report );

#endif
