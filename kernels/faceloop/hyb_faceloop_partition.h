/* SPDX-License-Identifier: BSD-3-Clause */
/* The stable partition of indices by a predicate (thread remapping: the indices whose
   predicate holds first, the others after, each group in increasing order), serial and
   OpenMP. */
#ifndef HYB_FACELOOP_PARTITION_H
#define HYB_FACELOOP_PARTITION_H

#include <stdint.h>

#include "hyb_status.h"

/* Below this many indices the partition runs serially: the OpenMP pass pays a fork and
   two barriers (a few microseconds) that a serial pass of 64 Ki bytes does not need. */
#define HYB_FL_PARTITION_PAR_MIN ( (int64_t)1 << 16 )

/* idx[0 .. *n_true) = the i with pred[i] != 0, ascending; idx[*n_true .. n) = the i with
   pred[i] == 0, ascending. n in 0 .. 2^31 (indices are int32); pred and idx may be NULL
   only when n == 0. threads <= 1 or n below HYB_FL_PARTITION_PAR_MIN: one serial pass
   pair; else blocks of n / threads counted in parallel, their offsets prefix-summed and
   written in parallel (same result). Returns HYB_E_INVALID (nothing written) for bad
   arguments. Thread-safe. */
hyb_status_t hyb_fl_partition( const uint8_t* pred, int64_t n, int32_t* idx, int64_t* n_true,
                               int threads );

#endif
