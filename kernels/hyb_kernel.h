/* SPDX-License-Identifier: BSD-3-Clause */
/* The contract of a device kernel that a workload family registers: one C
   launcher per backend, with one signature, and its argument block. Plain C,
   no CUDA types, so the core, the simulated device and every family's .c
   files can name kernels; only the CUDA launchers themselves include CUDA. */
#ifndef HYB_KERNEL_H
#define HYB_KERNEL_H

#include <stddef.h>

#include "hyb_status.h"

/* What a launcher gets from the context it runs on. On the CUDA backend
   `stream` is the cudaStream_t of the stream the kernel was queued on and
   the handles are the context's cublasHandle_t / cusparseHandle_t, already
   bound to that stream; on the simulated device every pointer is NULL,
   `ordinal` is the simulated device's number, and the launcher runs on the
   host thread that plays the stream, in stream order. */
typedef struct
{
	void* stream;
	void* blas;   /* cublasHandle_t, CUDA only */
	void* sparse; /* cusparseHandle_t, CUDA only */
	int   ordinal;
} hyb_kernel_env_t;

/* A launcher queues its work on env->stream and returns without waiting
   for it (the simulated device's launchers simply compute). It never
   allocates device memory and never synchronizes: buffers come in `args`,
   sized by the caller. `args` points to the family's argument struct
   (device pointers, sizes, scalars); the runtime copies it at launch, so
   the caller may reuse its struct at once. Returns HYB_OK or the launch
   error; errors of the queued work surface at the next synchronization. */
typedef hyb_status_t ( *hyb_kernel_fn )( const hyb_kernel_env_t* env, const void* args );

/* ------------------------------------------------------------ registration

   A family declares each of its kernels once, in its own .c file of the
   core, and registers it with HYB_KERNEL_REGISTER; the runtime finds every
   registered kernel at run time (a linker section), so adding a kernel or a
   family edits no shared file. The CUDA launchers live in the plugin and
   register there with HYB_KERNEL_IMPL_REGISTER under the same name; the
   runtime matches the two by name when the plugin loads. A kernel with no
   launcher on the backend in use is "not supported" there: its callers
   stay on the CPU. */

/* The core's declaration of a kernel. */
typedef struct hyb_kernel_def_s
{
	/* "family.kernel": lower-case letters, digits, '_' and one '.'. Fault
	   plans (HYBLAS_FAULT_INJECT) address the kernel by this name. */
	const char* name;
	/* Another name fault plans accept for it (a name older plans used), or
	   NULL. */
	const char* alias;
	/* sizeof the family's argument struct: the simulated device copies that
	   many bytes at launch. */
	size_t args_size;
	/* Checks the arguments on the calling thread before anything is queued,
	   on every backend: HYB_OK, or the status the launch returns (nothing
	   queued, the context stays usable). NULL: no check. */
	hyb_status_t ( *check )( const void* args );
	/* The simulated device's launcher, plain C on host memory; NULL: none. */
	hyb_kernel_fn sim;
	/* What one launch does, for the simulated device's throttle (its
	   HYBLAS_SIM_FLOPS and HYBLAS_SIM_BW): floating-point operations and bytes
	   of device memory moved. NULL: the launch costs the latency only. */
	void ( *work )( const void* args, double* flops, double* bytes );
} hyb_kernel_def_t;

/* What a CUDA launcher needs from its context besides the stream. */
enum
{
	HYB_KERNEL_NEEDS_BLAS   = 1u << 0, /* env->blas: a cuBLAS handle */
	HYB_KERNEL_NEEDS_SPARSE = 1u << 1  /* env->sparse: a cuSPARSE handle */
};

/* The plugin's implementation of a registered kernel. */
typedef struct hyb_kernel_impl_s
{
	const char*   name;   /* the hyb_kernel_def_t's name */
	hyb_kernel_fn launch; /* queues the work on env->stream */
	unsigned      needs;  /* HYB_KERNEL_NEEDS_* */
	/* The address of the launcher's main __global__ function (as const
	   void*), whose registers and occupancy hyb_dev_kernel_attr reports; a
	   function, so that a launcher written in C can name a kernel of a .cu
	   file. NULL: none. */
	const void* ( *func )( void );
} hyb_kernel_impl_t;

/* One pointer per registered object in a named linker section (the runtime
   walks __start_<section> .. __stop_<section>). Pointers rather than the
   objects themselves, so that every entry has the same size and alignment
   whatever the compiler pads; `used` keeps an entry that nothing names. */
#define HYB_KERNEL_SECTION_ENTRY_( type, var, sec, obj )                                           \
	static type* const var __attribute__( ( used, section( sec ), aligned( sizeof( void* ) ) ) ) = \
	    &( obj )

/* Register the hyb_kernel_def_t `def` (an identifier) of the core. */
#define HYB_KERNEL_REGISTER( def )                                                                 \
	HYB_KERNEL_SECTION_ENTRY_( const hyb_kernel_def_t, hyb_kernel_entry_##def, "hyb_kernels", def )

/* Register the hyb_kernel_impl_t `impl` (an identifier) of the plugin. */
#define HYB_KERNEL_IMPL_REGISTER( impl )                                                           \
	HYB_KERNEL_SECTION_ENTRY_( const hyb_kernel_impl_t, hyb_kernel_impl_entry_##impl,              \
	                           "hyb_kernel_impls", impl )

/* Define the core's declaration `var` of the kernel `kname` and register it: one statement
   per kernel, so that a declaration cannot be written and left unregistered. `kalias`,
   `chk` and `work_fn` may be NULL (see hyb_kernel_def_t). Write `static` before it for a
   declaration that only its own file names. */
#define HYB_KERNEL_DEFINE( var, kname, kalias, args_type, chk, sim_fn, work_fn )                   \
	const hyb_kernel_def_t var = { .name      = ( kname ),                                         \
		                           .alias     = ( kalias ),                                        \
		                           .args_size = sizeof( args_type ),                               \
		                           .check     = ( chk ),                                           \
		                           .sim       = ( sim_fn ),                                        \
		                           .work      = ( work_fn ) };                                          \
	HYB_KERNEL_REGISTER( var )

/* Define and register the plugin's implementation of the kernel `kname` by the launcher
   `fn` (see hyb_kernel_impl_t for `needs` and `func`). Only the section entry names the
   object, so its name is derived from the launcher's. */
#define HYB_KERNEL_IMPL( kname, fn, needs_, func_ )                                                \
	static const hyb_kernel_impl_t hyb_kernel_impl_##fn = { ( kname ), fn, ( needs_ ), func_ };    \
	HYB_KERNEL_IMPL_REGISTER( hyb_kernel_impl_##fn )

#endif
