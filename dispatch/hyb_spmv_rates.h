/* SPDX-License-Identifier: BSD-3-Clause */
/* The rates the SpMV cost model runs with in this process: built-in defaults, the machine
   profile's transfer rates, the calibration file <HYBLAS_PROFILE>.spmv (written by the
   benchmark's calibration, in the profile's key = value format: machine data, not learned),
   and refits from the calls measured so far, kept in the learning store
   (policies/hyb_learn.h; classes in policies/hyb_policy_spmv.h). */
#ifndef HYB_SPMV_RATES_H
#define HYB_SPMV_RATES_H

#include "hyb_status.h"
#include "policies/hyb_policy_spmv.h"

/* How a call moves x and y, which sets the effective transfer rates of the model. */
typedef struct
{
	int y_registered; /* y comes down by DMA straight into the application's pages */
	int pipelined;    /* x up, kernels and y down overlap by row blocks */
} hyb_spmv_xfer_t;

/* The rates for one call: the process base rates (defaults < profile < .spmv file < test
   override), transfer rates for how x and y move (x is staged through page-locked buffers:
   the slower of the host copy and the DMA; y registered: the DMA rate), the overlap of a
   pipelined call, and the refitted device and CPU factors. Reads hyb_config() and
   hyb_profile() on first use. Thread-safe. */
void hyb_spmv_rates_get( const hyb_spmv_xfer_t* xf, hyb_spmv_rates_t* out );

/* Refit from a measured call. CPU product of `bytes` (the CSR traffic model of
   hyb_policy_spmv.c) in `seconds`; COO remainder of `bytes` (the model's) in `seconds`
   (without the start of its parallel region); a device span of a kind predicted `pred`
   seconds with that kind's `scale` and measured `meas` (the kind's scale becomes the
   measured span over the unscaled prediction, averaged; a kind not measured yet borrows its
   twin's, the same kernel alone or beside a CPU side, else the mean of the measured kinds);
   the host cost of a device call
   outside its span, its CPU side and its y copy (gpu_call_s). CPU calls shorter than
   50 us are ignored. Thread-safe. */
void hyb_spmv_rates_refit_cpu( double bytes, double seconds );
void hyb_spmv_rates_refit_coo( double bytes, double seconds );
void hyb_spmv_rates_refit_gpu( hyb_spmv_span_t kind, double scale, double pred, double meas );
void hyb_spmv_rates_refit_call( double seconds );

/* Overlay `key = value` lines of a rates file (keys: the field names of hyb_spmv_rates_t;
   '#' comments). A missing file is HYB_E_IO and leaves *r alone; bad lines are skipped with
   a warning naming the file. */
hyb_status_t hyb_spmv_rates_read( const char* path, hyb_spmv_rates_t* r );

/* Write every field of *r as `key = value` lines after a '#' header line. HYB_E_IO. */
hyb_status_t hyb_spmv_rates_write( const char* path, const hyb_spmv_rates_t* r,
                                   const char* header );

/* The file next to the machine profile (HYBLAS_PROFILE + ".spmv"), or "" when no profile
   path is set. */
void hyb_spmv_rates_path( char* buf, size_t len );

/* The process base rates (defaults < profile < .spmv file < override), without the
   per-call transfer view and the refits. Thread-safe. */
void hyb_spmv_rates_base( hyb_spmv_rates_t* out );

/* Replace the base rates (tests, the benchmark after calibrating); NULL reloads them from
   the defaults, profile and file at the next use. Also forgets the refits (not the
   measured choices). Not thread-safe with concurrent calls. */
void hyb_spmv_rates_set_base( const hyb_spmv_rates_t* r );

#endif
