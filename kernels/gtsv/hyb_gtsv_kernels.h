/* SPDX-License-Identifier: BSD-3-Clause */
/* The tridiagonal family's registered device kernels and the typed launches its pipeline
   uses (each packs the arguments and calls hyb_dev_launch). */
#ifndef HYB_GTSV_KERNELS_H
#define HYB_GTSV_KERNELS_H

#include "kernels/gtsv/hyb_gtsv_kargs.h"
#include "kernels/hyb_device.h"

/* Registered in kernels/gtsv/hyb_gtsv_sim.c; the plugin's launchers are in
   kernels/gtsv/hyb_gtsv_launch_cuda.c. */
extern const hyb_kernel_def_t hyb_gtsv_spike_kernel;  /* "gtsv.spike" */
extern const hyb_kernel_def_t hyb_gtsv_pivots_kernel; /* "gtsv.pivots" */

static inline hyb_status_t hyb_dev_gtsv_spike( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t n,
                                               int64_t nrhs, const void* dl, const void* dd,
                                               const void* du, void* b, int64_t ldb, int64_t m )
{
	static atomic_int            id;
	const hyb_gtsv_spike_kargs_t a = { { prec, n, dl, dd, du }, nrhs, b, ldb, m };
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_gtsv_spike_kernel ), &a );
}

static inline hyb_status_t hyb_dev_gtsv_pivots( hyb_dev_t* d, int stream, hyb_prec_t prec,
                                                int64_t n, const void* dl, const void* dd,
                                                const void* du, void* out, double first,
                                                int64_t warm )
{
	static atomic_int             id;
	const hyb_gtsv_pivots_kargs_t a = { { prec, n, dl, dd, du }, out, first, warm };
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_gtsv_pivots_kernel ), &a );
}

#endif
