/* SPDX-License-Identifier: BSD-3-Clause */
/* The process's tridiagonal throughput profile: the rates the heterogeneous split and the
   side choice use, kept in the learning store (policies/hyb_learn.h; where each rate lives:
   policies/hyb_policy_gtsv.h), so read from <HYBLAS_PROFILE>.learn, refined after each
   call and written back. */
#ifndef HYB_GTSV_RATES_H
#define HYB_GTSV_RATES_H

#include "hyb_types.h"
#include "policies/hyb_policy_gtsv.h"
#include "policies/hyb_policy_gtsv_side.h"

/* Calls (or shares of a call) with fewer rows are not measured: their times are mostly
   fixed costs (thread start, events) that say little about the steady rate. */
#define HYB_GTSV_REFIT_MIN_ROWS ( (int64_t)1 << 18 )

/* Rates are rows per second for one right-hand side (hyb_policy_gtsv_rhs_weight). */

/* Copy the profiled rates of precision prec (those of registered pages when in->reg) into
   the split input (0 = unknown). The store reads its file on first use, and again whenever
   HYBLAS_PROFILE names another file (tests). Thread-safe. */
void hyb_gtsv_rates_fill( hyb_prec_t prec, hyb_gtsv_split_in_t* in );

/* Fold one call's measurements (rows/s for one right-hand side; <= 0: not measured) of
   configuration conf into the profile and write the file (atomically; a failure to write
   is logged once and the rates are kept in memory). Thread-safe. */
void hyb_gtsv_rates_update( hyb_prec_t prec, hyb_gtsv_conf_t conf, int reg, double cpu_rate,
                            int ndev, const double* dev_rate );

/* The measured rates of LAPACK and the CPU SPIKE for a system of n rows at `threads`
   OpenMP threads (policies/hyb_policy_gtsv_side.h's keys; 0 and 0 samples unknown).
   Thread-safe. */
void hyb_gtsv_rates_side( hyb_prec_t prec, int threads, int64_t n, hyb_gtsv_side_in_t* in );

/* Fold one measured call of side spike (0 LAPACK, 1 CPU SPIKE with its check) at rate
   (rows/s for one right-hand side, > 0) into the profile; the file is rewritten at most
   once a second, and at exit. A process's first call of each side is not
   folded in: it pays once for what later calls reuse (the SPIKE's thread team and work
   arrays cost 10x a later call at 2^16 rows on one core) and would keep the faster side
   out until the next probe. Thread-safe. */
void hyb_gtsv_rates_side_update( hyb_prec_t prec, int threads, int64_t n, int spike, double rate );

/* Add a LAPACK call's seconds to the process's total (hyb_gtsv_side_in_t's lapack_spent).
   Thread-safe. */
void hyb_gtsv_rates_lapack_spent( double seconds );

/* Forget the persisted rates, read the file again at the next use (tests switching files);
   the sides count as run before, so that every call is learned. Not thread-safe. */
void hyb_gtsv_rates_reset_for_test( void );

/* Make both sides count as not yet run in this process, and no LAPACK time spent (tests
   of the first calls).
   Not thread-safe. */
void hyb_gtsv_rates_side_cold_for_test( void );

#endif
