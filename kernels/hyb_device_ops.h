/* SPDX-License-Identifier: BSD-3-Clause */
/* The async-device interface: what a device implementation (the simulated
   device, the CUDA plugin) provides: memory, streams, events, copies and the
   launch of registered kernels; it names no workload. Pipelines never call
   it directly; they go through kernels/hyb_device.h, which adds pooling, the
   memory budget and fault injection uniformly. Plain C, no device types. */
#ifndef HYB_DEVICE_OPS_H
#define HYB_DEVICE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"
#include "kernels/hyb_kernel.h"

/* Bumped on any incompatible change; checked when a plugin registers. */
#define HYB_DEVICE_ABI 8

/* Streams of a context. Work on one stream runs in order; different streams
   overlap. A context offers HYB_DEV_STREAMS streams, each made on its first
   use (a pipeline that uses three pays for three); the first three have the
   names the copy/compute/copy pipelines use. */
enum
{
	HYB_STREAM_H2D     = 0,
	HYB_STREAM_COMPUTE = 1,
	HYB_STREAM_D2H     = 2,
	HYB_STREAM_COUNT   = 3,  /* the named streams */
	HYB_DEV_STREAMS    = 12, /* streams 0 .. 11 */
	/* The last streams are urgent: where the backend has stream
	   priorities, their kernels' blocks are scheduled ahead of the other
	   streams' waiting blocks (short codec kernels that a copy waits for,
	   beside long kernels that fill the device). */
	HYB_DEV_STREAMS_URGENT = 3
};

typedef struct hyb_dctx_s   hyb_dctx_t;   /* one device, one user at a time */
typedef struct hyb_devent_s hyb_devent_t; /* a point in a stream */

typedef struct
{
	char   name[128];
	double mem_total, mem_free; /* bytes */
	int    cc_major, cc_minor;
	int    multiprocessors;
	int    copy_engines;
} hyb_device_info_t;

/* What the device reports of a kernel's main function for a block size. */
typedef struct
{
	int    regs_per_thread;
	int    max_threads_per_block; /* the most this function can be launched with */
	size_t shared_bytes;          /* static shared memory per block */
	size_t local_bytes;           /* local (spilled) memory per thread */
	int    blocks_per_sm;         /* resident blocks per multiprocessor at `block` threads */
	double occupancy;             /* resident threads / the multiprocessor's maximum, 0..1 */
} hyb_kernel_attr_t;

/* What the core hands an implementation at init. */
typedef struct
{
	unsigned abi;
	void ( *log )( int level, const char* msg );
	/* Simulated device only. */
	int    sim_devices;
	double sim_mem;     /* bytes per device */
	double sim_bw;      /* bytes/s per copy direction, 0 = unthrottled */
	double sim_flops;   /* flop/s of products, 0 = unthrottled */
	double sim_latency; /* seconds added to every operation */
} hyb_device_env_t;

/* Every function returns HYB_OK or an error; errors of queued work may
   instead surface at the next event or stream synchronization of the same
   context. Streams are 0 .. HYB_DEV_STREAMS - 1. */
typedef struct hyb_device_ops_s
{
	const char* name;
	unsigned    abi;

	/* Once per process (never from a constructor). Sets the device count. */
	hyb_status_t ( *init )( const hyb_device_env_t* env, int* ndevices );
	hyb_status_t ( *info )( int dev, hyb_device_info_t* out );

	/* A context: streams and library handles of one device. Created by the
	   core's pool, used by one thread at a time, possibly several threads in
	   turn. `broken` on destroy means an error happened on it. */
	hyb_status_t ( *ctx_create )( int dev, hyb_dctx_t** ctx );
	void ( *ctx_destroy )( hyb_dctx_t* ctx, int broken );

	hyb_status_t ( *mem_alloc )( hyb_dctx_t* ctx, size_t bytes, void** dptr );
	void ( *mem_free )( hyb_dctx_t* ctx, void* dptr );
	/* Page-locked host memory, and registration of existing host pages. */
	hyb_status_t ( *host_alloc )( hyb_dctx_t* ctx, size_t bytes, void** p );
	void ( *host_free )( hyb_dctx_t* ctx, void* p );
	hyb_status_t ( *host_register )( hyb_dctx_t* ctx, void* p, size_t bytes );
	hyb_status_t ( *host_unregister )( hyb_dctx_t* ctx, void* p );

	hyb_status_t ( *event_create )( hyb_dctx_t* ctx, hyb_devent_t** ev );
	void ( *event_destroy )( hyb_dctx_t* ctx, hyb_devent_t* ev );
	hyb_status_t ( *event_record )( hyb_dctx_t* ctx, int stream, hyb_devent_t* ev );
	/* Work queued on `stream` after this waits for `ev`. */
	hyb_status_t ( *stream_wait )( hyb_dctx_t* ctx, int stream, hyb_devent_t* ev );
	/* The host waits for `ev`; HYB_OK, or the error of the work before it. */
	hyb_status_t ( *event_sync )( hyb_dctx_t* ctx, hyb_devent_t* ev );
	/* HYB_OK if reached, HYB_E_AGAIN if not yet, or an error. */
	hyb_status_t ( *event_query )( hyb_dctx_t* ctx, hyb_devent_t* ev );
	/* Seconds between two reached events of the same context. */
	hyb_status_t ( *event_elapsed )( hyb_dctx_t* ctx, hyb_devent_t* from, hyb_devent_t* to,
	                                 double* seconds );
	hyb_status_t ( *stream_sync )( hyb_dctx_t* ctx, int stream );

	/* 2-D copies of `rows` rows of `width` bytes; pitches in bytes. The host
	   side must be page-locked (host_alloc or host_register) for the copy to
	   be asynchronous; pageable memory is allowed but synchronous. */
	hyb_status_t ( *copy_h2d )( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
	                            const void* src, size_t spitch, size_t width, size_t rows );
	hyb_status_t ( *copy_d2h )( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
	                            const void* src, size_t spitch, size_t width, size_t rows );

	/* Device to device, same context; pitches in bytes. */
	hyb_status_t ( *copy_d2d )( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
	                            const void* src, size_t spitch, size_t width, size_t rows );
	/* `bytes` bytes of device memory at dptr set to `value`. */
	hyb_status_t ( *memset )( hyb_dctx_t* ctx, int stream, void* dptr, int value, size_t bytes );
	/* Hold `stream` for at least `ns` (> 0) nanoseconds: the work queued on it after this
	   starts no earlier, the other streams go on. For pacing: a download cut into pieces
	   with pauses between them leaves the bus more room for the uploads beside it. */
	hyb_status_t ( *stream_pause )( hyb_dctx_t* ctx, int stream, uint64_t ns );

	/* Registered kernels (kernels/hyb_kernel.h). kernel_find gives this
	   backend's implementation of `def` (an opaque handle, matched by name),
	   or NULL when it has none; called once per kernel at init, never on a
	   launch. kernel_name lists the backend's own implementations (i from 0
	   until it returns NULL) without starting the device. */
	const void* ( *kernel_find )( const hyb_kernel_def_t* def );
	const char* ( *kernel_name )( int i );
	/* Queue a launch of `impl` on `stream`; `args` is the kernel's argument
	   struct of `args_size` bytes, which the caller may reuse at once. */
	hyb_status_t ( *launch )( hyb_dctx_t* ctx, int stream, const void* impl, const void* args,
	                          size_t args_size );
	/* Attributes of `impl`'s main function on device `dev` for blocks of
	   `block` threads with `smem` bytes of dynamic shared memory;
	   HYB_E_NOT_SUPPORTED (and zeros) where the backend has none. */
	hyb_status_t ( *kernel_attr )( int dev, const void* impl, int block, size_t smem,
	                               hyb_kernel_attr_t* out );
} hyb_device_ops_t;

/* Every entry of a backend's table but its name: the ABI it was built for, the functions
   named pfx_<entry> (hyb_sim_init, hyb_cuda_init, ...), and the three copies, given
   because a backend may serve them with one function. Listed once here, so that an entry
   added to the interface is filled in every backend's table. */
#define HYB_DEVICE_OPS_ENTRIES( pfx, h2d, d2h, d2d )                                               \
	.abi = HYB_DEVICE_ABI, .init = pfx##_init, .info = pfx##_info, .ctx_create = pfx##_ctx_create, \
	.ctx_destroy = pfx##_ctx_destroy, .mem_alloc = pfx##_mem_alloc, .mem_free = pfx##_mem_free,    \
	.host_alloc = pfx##_host_alloc, .host_free = pfx##_host_free,                                  \
	.host_register = pfx##_host_register, .host_unregister = pfx##_host_unregister,                \
	.event_create = pfx##_event_create, .event_destroy = pfx##_event_destroy,                      \
	.event_record = pfx##_event_record, .stream_wait = pfx##_stream_wait,                          \
	.event_sync = pfx##_event_sync, .event_query = pfx##_event_query,                              \
	.event_elapsed = pfx##_event_elapsed, .stream_sync = pfx##_stream_sync, .copy_h2d = h2d,       \
	.copy_d2h = d2h, .copy_d2d = d2d, .memset = pfx##_memset, .stream_pause = pfx##_stream_pause,  \
	.kernel_find = pfx##_kernel_find, .kernel_name = pfx##_kernel_name, .launch = pfx##_launch,    \
	.kernel_attr = pfx##_kernel_attr

/* The one symbol a device plugin exports. Returns NULL when the plugin was
   built for another ABI. */
typedef const hyb_device_ops_t* ( *hyb_plugin_entry_fn )( unsigned abi );
#define HYB_PLUGIN_ENTRY "hyb_plugin_device_ops"

#endif
