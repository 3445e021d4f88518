/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's device pipeline on the device runtime: the planned
   schedule run through the executor with device memory, copies and
   launches of the registered kernels, falling back to the CPU path. */
#ifndef HYB_STENCIL_DEVICE_H
#define HYB_STENCIL_DEVICE_H

#include <stdint.h>

#include "hyb_status.h"
#include "dispatch/stencil/hyb_stencil_keep.h"
#include "kernels/stencil/hyb_stencil_prob.h"
#include "kernels/stencil/hyb_stencil_zfp.h"

/* What a device run moved and how long its parts took: bytes across PCIe
   as moved (compressed where a field is), and what the same transfers
   would have moved uncompressed. */
typedef struct
{
	double bytes_h2d, bytes_d2h, bytes_d2d, bytes_host;
	double bytes_h2d_raw, bytes_d2h_raw;
	/* Before the device (encoding compressed fields, starting the
	   rollback copy), page-locking compressed arrays, the pipeline (every
	   segment, drained), after it (decoding, unlocking, releasing the
	   rollback copy); of the pipeline, the waits of its writes for the
	   rollback copy. */
	double seconds_setup, seconds_pin, seconds_pipeline, seconds_final;
	double seconds_keep_wait;
	/* Pauses queued between the pieces of paced downloads (HYBLAS_STENCIL_DOWN_PAUSE_NS;
	   0: no download was paced). */
	int64_t pauses;
} hyb_stencil_dev_stats_t;

/* Host memory for a run's compressed arrays, one block. */
typedef struct
{
	void*  mem;
	size_t bytes;
	int    locked; /* page-locked with the device */
} hyb_stencil_zmem_t;

/* What a handle holds across its device runs, so that only its first run
   pays for making it: the rollback copy's memory (touched once) and the
   compressed arrays' block (allocated and page-locked once, grown when a
   run needs more). */
typedef struct
{
	hyb_sd_keep_mem_t  keep;
	hyb_stencil_zmem_t zip;
} hyb_stencil_held_t;

/* Give back what h holds (h stays usable, empty; NULL: nothing). */
void hyb_stencil_held_free( hyb_stencil_held_t* h );

/* Whether the device path can run kind `kind`: a device opens and its
   backend implements the kind's kernel. */
int hyb_stencil_device_usable( int32_t kind );

/* Advance `p` by `steps` steps on device 0 with scheme `scheme`
   (hyb_stencil_scheme_t), d chunks (in core: pieces) and k steps per block,
   leaving the fields as hyb_stencil_cpu_run does (with compressed fields,
   as hyb_stencil_cpu_run_lossy does with the same k and `every`), bit for
   bit on the simulated device. Fields with a rate are kept compressed on
   the host for the call and move through the ZFP stage (out-of-core direct
   and shared schemes). every > 0: the run is cut into segments of `every`
   steps (blocks restart at each), and after each segment cb(cbctx, t,
   newest) receives the newest level as the run would leave it. *residual:
   Himeno's last residual. On any failure (allocation, copy, launch,
   synchronization) the input time levels are as they were before the call
   (the work level is not: the CPU path writes it before reading it) and
   the status is returned: the caller reruns on the CPU from untouched
   inputs. The rollback copy that makes this possible, and the compressed
   arrays, go into `held` (grown as needed and left to the caller, who
   holds it across runs; NULL: memory of the run's own). HYB_E_NO_MEMORY
   when it cannot be had (nothing touched). */
hyb_status_t hyb_stencil_device_run( const hyb_stencil_prob_t* p, int64_t steps, int32_t scheme,
                                     int32_t d, int32_t k, int64_t every, hyb_stencil_check_fn cb,
                                     void* cbctx, hyb_stencil_held_t* held, double* residual,
                                     hyb_stencil_dev_stats_t* ds );

/* Page-lock with device 0 the caller's arrays, so that direct mapping and
   in core move them by DMA at the pinned rate and overlapped (a compressed
   field's array crosses once each way, as values, to and from the
   device's codec); locked[f] = 1
   for each array locked. An array with skip[f] set (page-locked already, by
   hyblas_host_alloc) is left alone. One that cannot be locked (no device,
   already page-locked, overlapping another) stays as it is and moves from
   pageable memory, correctly but slower. Returns the seconds it took. */
double hyb_stencil_device_register( const hyb_stencil_prob_t* p,
                                    const unsigned char       skip[HYB_STENCIL_FIELDS_MAX],
                                    unsigned char             locked[HYB_STENCIL_FIELDS_MAX] );

/* Undo hyb_stencil_device_register (locked[] cleared). */
void hyb_stencil_device_unregister( const hyb_stencil_prob_t* p,
                                    unsigned char             locked[HYB_STENCIL_FIELDS_MAX] );

#endif
