/* SPDX-License-Identifier: BSD-3-Clause */
/* The public hyblas header. Programs need nothing from it to be accelerated
   (hyblas intercepts the BLAS, LAPACK and MKL names they already call); it
   declares what libhyblas exports besides those names: where calls ran, and
   the extension API for workloads that are not BLAS. */
#ifndef HYBLAS_EXT_H
#define HYBLAS_EXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

	/* "hyblas X.Y.Z": the version of the libhyblas in the process. */
	const char* hyb_version( void );

	/* How many calls of the intercepted name `routine` ("dgemm_", "cblas_dgemm",
	   "dgtsv_", "mkl_cspblas_dcsrgemv", ...; the name the program called, not
	   its alias) have run since the library loaded, by where they ran:
	   counts[0] the CPU library (or hyblas's CPU kernel) alone, counts[1] the
	   device alone, counts[2] the device and the CPU at once, counts[3] planned
	   for the device and finished on the CPU after a device failure. A program
	   or benchmark can read it before and after a stretch of calls to know what
	   auto mode chose. An extension operation's name ("stencil.run", ...)
	   answers likewise once the operation has been registered (it has run).
	   Returns 0, or -1 (counts untouched) for a name hyblas neither intercepts
	   nor has registered. Counting costs nothing measurable and is always on. */
	int hyb_calls( const char* routine, unsigned long long counts[4] );

	/* ------------------------------------------------------------------ */
	/* The extension API: conventions shared by every workload.

	   - Every function returns a hyblas_status_t. A call that returns anything
	     but HYBLAS_OK has changed nothing the caller can see (outputs, handles,
	     the caller's arrays), unless its own documentation says otherwise.
	   - Parameter and statistics structs begin with `size_t struct_size`, which
	     the caller sets to sizeof the struct it was compiled with; a field the
	     library does not know is never read, a field the caller's struct lacks
	     takes its default. A zero field means the documented default.
	   - Handles are opaque; no CUDA type appears here. Without a GPU, without
	     CUDA, or after a device failure, every workload runs on the CPU and
	     returns the same result within the tolerance its documentation states. */

	typedef enum
	{
		HYBLAS_OK            = 0,
		HYBLAS_E_INVALID     = -1, /* a bad parameter: nothing was changed */
		HYBLAS_E_NO_MEMORY   = -2, /* host memory ran out: nothing was changed */
		HYBLAS_E_UNSUPPORTED = -3, /* a valid request this build or machine cannot run */
		HYBLAS_E_STRUCT_SIZE = -4, /* struct_size is 0 or smaller than the first version */
		HYBLAS_E_CAPACITY    = -5, /* a bounded buffer the caller sized ran out */
		HYBLAS_E_INTERNAL    = -6  /* a bug: please report it */
	} hyblas_status_t;

	/* A short English message for a status; never NULL. */
	const char* hyblas_status_string( hyblas_status_t s );

	/* Where a workload runs. AUTO lets the planner decide; CPU and GPU force a
	   side (GPU without a usable device runs on the CPU and says so in the
	   statistics). */
	typedef enum
	{
		HYBLAS_PATH_AUTO = 0,
		HYBLAS_PATH_CPU  = 1,
		HYBLAS_PATH_GPU  = 2
	} hyblas_path_t;

	/* Host memory for a workload's arrays that a device moves at its full rate
	   without page-locking them first: a mapping of its own in 2 MiB pages where
	   the system gives them, zeroed by the OpenMP threads, and page-locked with
	   the device's driver where a device is in use (ordinary memory, zeroed the
	   same, without a device, without CUDA, or when the driver refuses:
	   page-locked memory is scarcer than address space). The stencil engine
	   takes arrays inside such a block as page-locked by the caller
	   (host_pinned), so its first device run locks nothing; both kinds of memory
	   give the same results. A block takes whole 2 MiB pages: it is meant for
	   arrays worth moving by DMA. Returns HYBLAS_OK and *out, or HYBLAS_E_INVALID
	   (bytes = 0, out NULL) / HYBLAS_E_NO_MEMORY with *out untouched.
	   Thread-safe. */
	hyblas_status_t hyblas_host_alloc( size_t bytes, void** out );

	/* Return a block of hyblas_host_alloc; NULL does nothing. Any other pointer,
	   or one freed already, is HYBLAS_E_INVALID and frees nothing. A child of
	   fork() unmaps its copy of a parent's block without unlocking it: the lock
	   is the parent's driver's, which the child may not call. Thread-safe. */
	hyblas_status_t hyblas_host_free( void* p );

#include "hyblas/stencil.h"
#include "hyblas/knapsack.h"
#include "hyblas/faceloop.h"

#ifdef __cplusplus
}
#endif

#endif
