/* SPDX-License-Identifier: BSD-3-Clause */
/* The core's view of devices: stage-2 init (loading the plugin or the
   simulated device), device selection, a pool of contexts per device, the
   device-memory budget, cached workspaces, and fault injection. Pipelines
   use only these functions. */
#ifndef HYB_DEVICE_H
#define HYB_DEVICE_H

#include "kernels/hyb_device_ops.h"

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
	void*                   ws;      /* cached device workspace */
	size_t                  ws_bytes;
	void*                   stage;   /* cached page-locked host staging */
	size_t                  stage_bytes;
	void*                   engine; /* a pipeline's state cached with the context */
	void ( *engine_free )( void* engine );
	struct hyb_dev_s*       next;
} hyb_dev_t;

/* Stage-2 init, once per process, on the first call that could use a
   device (never from a constructor): opens the implementation chosen by
   HYBLAS_DEVICE, selects devices (HYBLAS_GPUS, MPI local rank), computes the
   memory budgets. HYB_OK when at least one device is usable; otherwise the
   reason, logged once, and every later call returns it at once. */
hyb_status_t hyb_devices_ensure( void );

/* Number of selected devices (0 before a successful hyb_devices_ensure). */
int hyb_devices_count( void );
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

hyb_status_t hyb_dev_register( hyb_dev_t* d, void* p, size_t bytes );
hyb_status_t hyb_dev_unregister( hyb_dev_t* d, void* p );

hyb_status_t hyb_dev_event_create( hyb_dev_t* d, hyb_devent_t** ev );
void         hyb_dev_event_destroy( hyb_dev_t* d, hyb_devent_t* ev );
hyb_status_t hyb_dev_record( hyb_dev_t* d, int stream, hyb_devent_t* ev );
hyb_status_t hyb_dev_wait( hyb_dev_t* d, int stream, hyb_devent_t* ev );
hyb_status_t hyb_dev_sync( hyb_dev_t* d, hyb_devent_t* ev );
hyb_status_t hyb_dev_query( hyb_dev_t* d, hyb_devent_t* ev );
hyb_status_t hyb_dev_elapsed( hyb_dev_t* d, hyb_devent_t* from, hyb_devent_t* to, double* s );
hyb_status_t hyb_dev_stream_sync( hyb_dev_t* d, int stream );

hyb_status_t hyb_dev_h2d( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows );
hyb_status_t hyb_dev_d2h( hyb_dev_t* d, int stream, void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t rows );
hyb_status_t hyb_dev_gemm( hyb_dev_t* d, int stream, hyb_prec_t prec, char ta, char tb, int64_t m,
                           int64_t n, int64_t k, const double alpha[2], const void* a, int64_t lda,
                           const void* b, int64_t ldb, const double beta[2], void* c, int64_t ldc );
hyb_status_t hyb_dev_trsm( hyb_dev_t* d, int stream, hyb_prec_t prec, char side, char uplo,
                           char trans, char diag, int64_t m, int64_t n, const double alpha[2],
                           const void* a, int64_t lda, void* b, int64_t ldb );
hyb_status_t hyb_dev_trmm( hyb_dev_t* d, int stream, hyb_prec_t prec, char side, char uplo,
                           char trans, char diag, int64_t m, int64_t n, const double alpha[2],
                           const void* a, int64_t lda, const void* b, int64_t ldb, void* c,
                           int64_t ldc );

hyb_status_t hyb_dev_spmv_ell( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t m, int64_t K,
                               const int* index, const void* data, const void* x, void* y, int accumulate );
hyb_status_t hyb_dev_spmv_dia( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t m, int64_t ndiag,
                               const int* offset, const void* data, const void* x, void* y, int accumulate );
hyb_status_t hyb_dev_spmv_csr( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t rows, const int* ptr,
                               const int* col, const void* val, int base, double mean_len, const void* x,
                               void* y, int accumulate );
hyb_status_t hyb_dev_vadd( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t n, const void* z, void* y );
hyb_status_t hyb_dev_gtsv_spike( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t n, int64_t nrhs,
                                 const void* dl, const void* dd, const void* du, void* b, int64_t ldb,
                                 int64_t m );
hyb_status_t hyb_dev_gtsv_pivots( hyb_dev_t* d, int stream, hyb_prec_t prec, int64_t n, const void* dl,
                                  const void* dd, const void* du, void* out, double first, int64_t warm );

/* Fault injection (HYBLAS_FAULT_INJECT syntax: "kind:N[a][,kind:N[a]...]",
   the N-th operation of that kind fails; suffix 'a' makes it fail
   asynchronously, reported at the next synchronization). Replaces the plan
   and restarts the counts. Returns HYB_E_PARSE on a malformed plan. */
hyb_status_t hyb_device_faults_set( const char* plan );

/* Mark the devices unusable for the rest of the process (a fatal error). */
void hyb_devices_disable( const char* why );

/* Forget everything and start over at the next hyb_devices_ensure (unit
   tests switching between simulated configurations). Not thread-safe. */
void hyb_devices_reset_for_test( void );

#endif
