/* SPDX-License-Identifier: BSD-3-Clause */
/* The async-device interface: what a device implementation (the simulated
   device, the CUDA plugin) provides. Pipelines never call it directly; they
   go through kernels/hyb_device.h, which adds pooling, the memory budget and
   fault injection uniformly. Plain C, no device types. */
#ifndef HYB_DEVICE_OPS_H
#define HYB_DEVICE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"

/* Bumped on any incompatible change; checked when a plugin registers. */
#define HYB_DEVICE_ABI 5

/* Streams of a context: copies in, products, copies out. Work on one stream
   runs in order; different streams overlap. */
enum
{
	HYB_STREAM_H2D     = 0,
	HYB_STREAM_COMPUTE = 1,
	HYB_STREAM_D2H     = 2,
	HYB_STREAM_COUNT   = 3
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

/* Column-major dense operations take leading dimensions in elements and
   scalars as double (re, im). Options are 'N','T','C' / 'L','R' / 'U','L' /
   'N','U'. Every function returns HYB_OK or an error; errors of queued work
   may instead surface at the next event or stream synchronization of the
   same context. */
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

	/* C = alpha op(A) op(B) + beta C (beta = 0: C is not read). */
	hyb_status_t ( *gemm )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char transa, char transb,
	                        int64_t m, int64_t n, int64_t k, const double alpha[2], const void* a,
	                        int64_t lda, const void* b, int64_t ldb, const double beta[2], void* c,
	                        int64_t ldc );
	/* B = alpha op(A)^-1 B (side L) or alpha B op(A)^-1 (side R), in place. */
	hyb_status_t ( *trsm )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char side, char uplo,
	                        char trans, char diag, int64_t m, int64_t n, const double alpha[2],
	                        const void* a, int64_t lda, void* b, int64_t ldb );
	/* C = alpha op(A) B (side L) or alpha B op(A) (side R); C may not alias B. */
	hyb_status_t ( *trmm )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char side, char uplo,
	                        char trans, char diag, int64_t m, int64_t n, const double alpha[2],
	                        const void* a, int64_t lda, const void* b, int64_t ldb, void* c,
	                        int64_t ldc );

	/* Sparse kernels (seed 001) on device memory; int indices (MKL LP64).
	   ELL: m rows, K slots, data[j*m + i], index -1 marks padding. DIA: ndiag
	   diagonals at offsets, data[d*m + i] is A(i, i + offset[d]). CSR: rows
	   row pointers ptr[0..rows] (base 0 or 1). accumulate: y += A x, else
	   y = A x. */
	hyb_status_t ( *spmv_ell )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t m, int64_t K,
	                            const int* index, const void* data, const void* x, void* y, int accumulate );
	hyb_status_t ( *spmv_dia )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t m, int64_t ndiag,
	                            const int* offset, const void* data, const void* x, void* y, int accumulate );
	hyb_status_t ( *spmv_csr )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t rows, const int* ptr,
	                            const int* col, const void* val, int base, double mean_len, const void* x,
	                            void* y, int accumulate );
	/* y += z, n elements. */
	hyb_status_t ( *vadd )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, const void* z, void* y );

	/* Tridiagonal solve in place (seed 002's truncated SPIKE with window m;
	   the caller checked diagonal dominance). dl, du: n-1; d: n; b: n x nrhs
	   with leading dimension ldb. */
	hyb_status_t ( *gtsv_spike )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, int64_t nrhs,
	                              const void* dl, const void* d, const void* du, void* b, int64_t ldb,
	                              int64_t m );
	/* LAPACK's no-swap pivots d' of rows [0, n) of a chunk (dl, du: n-1; d, out: n; device
	   memory; out may not alias the inputs): out[0] = first (the caller's exact value),
	   out[i] = d[i] - (dl[i-1] / out[i-1]) du[i-1]. Partitions may restart `warm` rows early
	   from d alone (hyb_?gtsv_factors_range's rule; a restart that would reach row 0 starts
	   from `first`), so out matches the exact recurrence to rounding on a diagonally dominant
	   chunk. warm >= 1. */
	hyb_status_t ( *gtsv_pivots )( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n,
	                               const void* dl, const void* d, const void* du, void* out,
	                               double first, int64_t warm );
} hyb_device_ops_t;

/* The one symbol a device plugin exports. Returns NULL when the plugin was
   built for another ABI. */
typedef const hyb_device_ops_t* ( *hyb_plugin_entry_fn )( unsigned abi );
#define HYB_PLUGIN_ENTRY "hyb_plugin_device_ops"

#endif
