/* SPDX-License-Identifier: BSD-3-Clause */
/* The core's view of devices: stage-2 init (loading the plugin or the
   simulated device), device selection, a pool of contexts per device, the
   device-memory budget, cached workspaces, copies, the launch of registered
   kernels, and fault injection. Pipelines use only these functions; each
   family's header wraps its own kernels' launches. */
#ifndef HYB_DEVICE_H
#define HYB_DEVICE_H

#include "kernels/hyb_device_ops.h"
#include "kernels/hyb_kernel_registry.h"

#define HYB_MAX_DEVICES 16

/* A pooled context of one selected device, owned by one thread between
   hyb_dev_acquire and hyb_dev_release. */
typedef struct hyb_dev_s
{
	const hyb_device_ops_t* ops;
	hyb_dctx_t*             ctx;
	int                     index;   /* among the selected devices */
	int                     ordinal; /* the implementation's device number */
	_Atomic int             broken;  /* an error happened: destroy on release */
	_Atomic int             pending; /* injected asynchronous error (hyb_status_t), reported at
	                                    the next synchronization */
	void*  ws;                       /* cached device workspace */
	size_t ws_bytes;
	void*  stage; /* cached page-locked host staging */
	size_t stage_bytes;
	void*  engine; /* a pipeline's state cached with the context */
	void ( *engine_free )( void* engine );
	struct hyb_dev_s* next;
} hyb_dev_t;

/* Stage-2 init, once per process, on the first call that could use a
   device (never from a constructor): opens the implementation chosen by
   HYBLAS_DEVICE, selects devices (HYBLAS_GPUS, MPI local rank), computes the
   memory budgets. HYB_OK when at least one device is usable; otherwise the
   reason, logged once, and every later call returns it at once. */
hyb_status_t hyb_devices_ensure( void );

/* Number of selected devices (0 before a successful hyb_devices_ensure). */
int                      hyb_devices_count( void );
const hyb_device_info_t* hyb_devices_info( int index );
const char*              hyb_devices_name( void ); /* "cuda", "sim" */

/* Device-memory budget of a selected device, bytes. */
double hyb_dev_budget( int index );

/* Take a context of selected device `index` from its pool (creating one if
   none is free). */
hyb_status_t hyb_dev_acquire( int index, hyb_dev_t** out );
/* Give it back; a broken context is destroyed and its memory returned. */
void hyb_dev_release( hyb_dev_t* d );

/* A device buffer of at least `bytes`, cached in the context across calls
   (grow-only within the budget). */
hyb_status_t hyb_dev_workspace( hyb_dev_t* d, size_t bytes, void** dptr );
/* A page-locked host buffer of at least `bytes`, cached likewise. */
hyb_status_t hyb_dev_staging( hyb_dev_t* d, size_t bytes, void** hptr );

/* A device buffer of `bytes` owned by the caller (not cached): charged to
   the device's budget (HYB_E_NO_MEMORY beyond it) and gated as an "alloc"
   fault. For pipelines that hold several buffers at once; hyb_dev_free
   with the same `bytes` returns it, before the context is released. */
hyb_status_t hyb_dev_alloc( hyb_dev_t* d, size_t bytes, void** dptr );
void         hyb_dev_free( hyb_dev_t* d, void* dptr, size_t bytes );
/* Page-locked host memory owned by the caller, gated as "host_alloc";
   hyb_dev_host_free returns it, before the context is released. */
hyb_status_t hyb_dev_host_alloc( hyb_dev_t* d, size_t bytes, void** hptr );
void         hyb_dev_host_free( hyb_dev_t* d, void* hptr );

/* Page-lock (and unlock) the caller's host memory for DMA. Locking or unlocking, and
   allocating or freeing page-locked memory (hyb_dev_host_alloc, a growing
   hyb_dev_staging), change the device's address mappings: where an IOMMU translates the
   device's addresses, every transfer in flight in the process, either direction, stalls
   meanwhile (down to a small fraction of its rate; docs/architecture.md). So a pipeline
   does these before its transfers or after them, and keeps what it locks across calls
   where it can, never between a transfer's issue and its completion. */
hyb_status_t hyb_dev_register( hyb_dev_t* d, void* p, size_t bytes );
hyb_status_t hyb_dev_unregister( hyb_dev_t* d, void* p );

hyb_status_t hyb_dev_event_create( hyb_dev_t* d, hyb_devent_t** ev );
void         hyb_dev_event_destroy( hyb_dev_t* d, hyb_devent_t* ev );
hyb_status_t hyb_dev_record( hyb_dev_t* d, int stream, hyb_devent_t* ev );
hyb_status_t hyb_dev_wait( hyb_dev_t* d, int stream, hyb_devent_t* ev );
hyb_status_t hyb_dev_sync( hyb_dev_t* d, hyb_devent_t* ev );
hyb_status_t hyb_dev_query( hyb_dev_t* d, hyb_devent_t* ev );
/* hyb_dev_sync, but the caller polls until the event is reached instead of sleeping in
   the driver: for a short wait on the critical path (a transfer of a few milliseconds),
   where a sleeping thread's wake-up can cost as much as the wait, and more when the
   program's own threads (an OpenMP team spinning after its last parallel region) hold
   every core when the event fires. Keeps the core busy while it waits. */
hyb_status_t hyb_dev_sync_polled( hyb_dev_t* d, hyb_devent_t* ev );
hyb_status_t hyb_dev_elapsed( hyb_dev_t* d, hyb_devent_t* from, hyb_devent_t* to, double* s );
hyb_status_t hyb_dev_stream_sync( hyb_dev_t* d, int stream );

hyb_status_t hyb_dev_h2d( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows );
hyb_status_t hyb_dev_d2h( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows );
hyb_status_t hyb_dev_d2d( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows );
hyb_status_t hyb_dev_memset( hyb_dev_t* d, int stream, void* dptr, int value, size_t bytes );
/* Hold `stream` of context d for at least `ns` nanoseconds: what is queued on it after this
   starts no earlier; the other streams go on. ns = 0 queues nothing. HYB_OK, an injected
   fault (kind "pause"), HYB_E_INVALID for a stream out of range, or the backend's status.
   For pacing copies (the stencil's download lane). */
hyb_status_t hyb_dev_pause( hyb_dev_t* d, int stream, uint64_t ns );

/* Queue registered kernel `id` (kernels/hyb_kernel_registry.h) on `stream` of context d
   with its argument struct `args` (the family's struct of the kernel's args_size bytes;
   the caller may reuse it at once). HYB_E_NOT_SUPPORTED when the backend in use has no
   implementation of the kernel (the caller computes on the CPU; nothing is queued and
   the context stays usable), the kernel's argument check's status likewise, an injected
   fault, or the launch's status. Costs no string compare: resolve the id once. */
hyb_status_t hyb_dev_launch( hyb_dev_t* d, int stream, hyb_kernel_id_t id, const void* args );

/* Whether the backend in use implements kernel `id` (0 before a successful
   hyb_devices_ensure): for planners that offer a device path only where it exists. */
int hyb_devices_kernel_supported( hyb_kernel_id_t id );

/* Registers, occupancy and limits of kernel `id`'s main function on the device of
   context d for blocks of `block` threads and `smem` bytes of dynamic shared memory.
   HYB_E_NOT_SUPPORTED (out zeroed) on the simulated device or when the kernel names no
   main function. */
hyb_status_t hyb_dev_kernel_attr( hyb_dev_t* d, hyb_kernel_id_t id, int block, size_t smem,
                                  hyb_kernel_attr_t* out );

/* Fault injection (HYBLAS_FAULT_INJECT syntax: "kind:N[a][,kind:N[a]...]",
   the N-th operation of that kind fails; suffix 'a' makes it fail
   asynchronously, reported at the next synchronization). Kinds: alloc
   (device workspace), host_alloc (or pinned: page-locked staging), register,
   h2d, d2h, d2d, memset, pause, sync, kernel (any launch), any (every
   operation above), or a registered kernel's name or alias ("spmv.ell",
   "gemm"): its own launches. Replaces the plan and restarts the counts.
   Returns HYB_E_PARSE on a malformed plan or an unknown kind (and injects
   nothing). */
hyb_status_t hyb_device_faults_set( const char* plan );

/* Mark the devices unusable for the rest of the process (a fatal error). */
void hyb_devices_disable( const char* why );

/* Forget everything and start over at the next hyb_devices_ensure (unit
   tests switching between simulated configurations). Not thread-safe. */
void hyb_devices_reset_for_test( void );

#endif
