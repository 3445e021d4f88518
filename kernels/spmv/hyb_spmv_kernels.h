/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse family's registered device kernels and the typed launches its pipeline
   uses (each packs the arguments and calls hyb_dev_launch). */
#ifndef HYB_SPMV_KERNELS_H
#define HYB_SPMV_KERNELS_H

#include "kernels/hyb_device.h"
#include "kernels/spmv/hyb_spmv_kargs.h"

/* Registered in kernels/spmv/hyb_spmv_sim.c; the plugin's launchers are in
   kernels/spmv/hyb_spmv_launch_cuda.c. */
extern const hyb_kernel_def_t hyb_spmv_ell_kernel;        /* "spmv.ell" */
extern const hyb_kernel_def_t hyb_spmv_dia_kernel;        /* "spmv.dia" */
extern const hyb_kernel_def_t hyb_spmv_csr_kernel;        /* "spmv.csr" */
extern const hyb_kernel_def_t hyb_spmv_vadd_kernel;       /* "spmv.vadd" */
extern const hyb_kernel_def_t hyb_spmv_check_kernel;      /* "spmv.check" */
extern const hyb_kernel_def_t hyb_spmv_cooptr_kernel;     /* "spmv.cooptr" */
extern const hyb_kernel_def_t hyb_spmv_diahist_kernel;    /* "spmv.diahist" */
extern const hyb_kernel_def_t hyb_spmv_diascatter_kernel; /* "spmv.diascatter" */
extern const hyb_kernel_def_t hyb_spmv_xsum_kernel;       /* "spmv.xsum" */

/* The ELL (dia == 0) or DIA (dia != 0) part: one argument struct, one launch. */
static inline hyb_status_t hyb_dev_spmv_slots( hyb_dev_t* d, int stream, int dia, hyb_prec_t prec,
                                               int64_t m, int64_t width, const int* index,
                                               const void* data, const void* x, void* y,
                                               int accumulate )
{
	static atomic_int             ids[2];
	const hyb_spmv_slots_kargs_t  a = { prec, m, width, index, data, x, y, accumulate };
	const hyb_kernel_def_t* const k = dia ? &hyb_spmv_dia_kernel : &hyb_spmv_ell_kernel;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &ids[dia != 0], k ), &a );
}

static inline hyb_status_t hyb_dev_spmv_csr( hyb_dev_t* d, int stream, hyb_prec_t prec,
                                             int64_t rows, const int* ptr, const int* col,
                                             const void* val, int base, double mean_len,
                                             const void* x, void* y, int accumulate )
{
	static atomic_int          id;
	const hyb_spmv_csr_kargs_t a = { prec, rows, ptr, col, val, base, mean_len, x, y, accumulate };
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_spmv_csr_kernel ), &a );
}

static inline hyb_status_t hyb_dev_vadd( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t n,
                                         const void* z, void* y )
{
	static atomic_int           id;
	const hyb_spmv_vadd_kargs_t a = { prec, n, z, y };
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_spmv_vadd_kernel ), &a );
}

/* spmv.check (see hyb_spmv_check_kargs_t). */
static inline hyb_status_t hyb_dev_spmv_check( hyb_dev_t* d, int stream,
                                               const hyb_spmv_check_kargs_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_spmv_check_kernel ), a );
}

/* spmv.cooptr (see hyb_spmv_cooptr_kargs_t). */
static inline hyb_status_t hyb_dev_spmv_cooptr( hyb_dev_t* d, int stream,
                                                const hyb_spmv_cooptr_kargs_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_spmv_cooptr_kernel ), a );
}

/* spmv.diahist (see hyb_spmv_diahist_kargs_t). */
static inline hyb_status_t hyb_dev_spmv_diahist( hyb_dev_t* d, int stream,
                                                 const hyb_spmv_diahist_kargs_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_spmv_diahist_kernel ), a );
}

/* spmv.diascatter (see hyb_spmv_diascatter_kargs_t). */
static inline hyb_status_t hyb_dev_spmv_diascatter( hyb_dev_t* d, int stream,
                                                    const hyb_spmv_diascatter_kargs_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_spmv_diascatter_kernel ), a );
}

/* spmv.xsum (see hyb_spmv_xsum_kargs_t). */
static inline hyb_status_t hyb_dev_spmv_xsum( hyb_dev_t* d, int stream,
                                              const hyb_spmv_xsum_kargs_t* a )
{
	static atomic_int id;
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_spmv_xsum_kernel ), a );
}

/* Whether the backend in use has a launcher of spmv.xsum (0 before the devices are up). */
static inline int hyb_devices_spmv_xsum_supported( void )
{
	static atomic_int id;
	return hyb_devices_kernel_supported( hyb_kernel_id_cached( &id, &hyb_spmv_xsum_kernel ) );
}

/* Whether the backend in use has launchers of both spmv.diahist and spmv.diascatter (0
   before the devices are up). */
static inline int hyb_devices_spmv_todia_supported( void )
{
	static atomic_int ids[2];
	return hyb_devices_kernel_supported(
	           hyb_kernel_id_cached( &ids[0], &hyb_spmv_diahist_kernel ) ) &&
	       hyb_devices_kernel_supported(
	           hyb_kernel_id_cached( &ids[1], &hyb_spmv_diascatter_kernel ) );
}

/* Whether the backend in use has a launcher of spmv.check (coo = 0) or spmv.cooptr (coo = 1)
   (0 before the devices are up). */
static inline int hyb_devices_spmv_check_supported( int coo )
{
	static atomic_int ids[2];
	return hyb_devices_kernel_supported( hyb_kernel_id_cached(
	    &ids[coo != 0], coo ? &hyb_spmv_cooptr_kernel : &hyb_spmv_check_kernel ) );
}

#endif
