/* SPDX-License-Identifier: BSD-3-Clause */
/* A device CSR copy of a matrix (kernels/pipeline/hyb_spmv_copy.h) turned into the DIA
   device matrix the host build would make of it, on the device: its diagonals counted there
   (spmv.diahist) into the host's diagonal listing, which the policy judges as it judges the
   host's; then, where DIA wins, each DIA block written there from the copy (spmv.diascatter),
   the entries summed in the order and the precision of the host build. Nothing of the matrix
   crosses the bus but the histogram (8 bytes per diagonal of the window) and the offsets. */
#ifndef HYB_SPMV_TODIA_H
#define HYB_SPMV_TODIA_H

#include "hyb_status.h"
#include "kernels/cpu/hyb_spmv_format.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_spmv_build.h"

/* The diagonals of a valid copy `copy` (laid out by hyb_spmv_dmat_plan_copy, made and checked
   by hyb_spmv_copy_run, at cmem), counted on context d into the listing hyb_spmv_diags_build
   makes of the same matrix (span HYB_SPMV_DIA_SPAN, at most HYB_SPMV_DIA_MAX listed, the same
   order). Waits for the count. HYB_E_INVALID when the counts do not add up to the copy's
   entries, HYB_E_NO_MEMORY, or a device error; diags is then empty. Thread-safe for distinct
   contexts. */
hyb_status_t hyb_spmv_todia_count( hyb_dev_t* d, const hyb_spmv_dmat_t* copy, const void* cmem,
                                   hyb_spmv_diags_t* diags );

/* Write the DIA device matrix `dia` (laid out by hyb_spmv_dmat_plan_dia with the copy's order,
   entries and precision) into dmem from the copy at cmem, on context d: its offsets, then
   each block. Waits for the writes. HYB_E_INVALID when an entry of the copy lies on none of
   dia's diagonals; a device error. On any error nothing is in flight any more and dmem must
   not be used; the copy is never written. Thread-safe for distinct contexts. */
hyb_status_t hyb_spmv_todia_write( hyb_dev_t* d, const hyb_spmv_dmat_t* copy, const void* cmem,
                                   const hyb_spmv_dmat_t* dia, void* dmem );

#endif
