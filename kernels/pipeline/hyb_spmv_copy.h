/* SPDX-License-Identifier: BSD-3-Clause */
/* A device copy of a CSR matrix's own arrays, made at little cost to the host: the
   application's three arrays read in pieces straight into two page-locked slots, each piece
   uploaded as soon as it is read, and the copy checked on the device (spmv.check) for what
   the CPU path would have rejected before anything uses it. COO arrays grouped by rows are
   copied the same way, their row pointers built on the device (spmv.cooptr) from the row
   indices, which are not kept. No snapshot, no statistics pass,
   no conversion, no product: about three host memory bytes per byte of the matrix (the
   read, the write into the slot, the DMA's read). */
#ifndef HYB_SPMV_COPY_H
#define HYB_SPMV_COPY_H

#include "hyb_status.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_spmv_build.h"

/* Bytes per piece by default: large enough that the per-piece costs (a read call, a copy's
   start, an event) stay small against the piece's own time, small enough that the two slots
   (64 MiB of page-locked memory for the build's time) are cheap to allocate and free. */
#define HYB_SPMV_COPY_PIECE ( (size_t)32 << 20 )

typedef struct
{
	hyb_spmv_dmat_t* dm;   /* laid out by hyb_spmv_dmat_plan_copy; its blocks are completed here */
	void*            dmem; /* device memory of hyb_spmv_copy_dev_bytes( dm ) bytes, of the
	                          context the copy runs on */
	const int* ia;         /* CSR: the application's m + 1 row pointers */
	const int* row;        /* COO grouped by rows: its nnz row indices, from which the device
	                          builds the pointers (spmv.cooptr); NULL for CSR */
	const int*  ja;        /* the column indices of the nnz entries (CSR: from ia[0] - base on) */
	const void* val;       /* their values */
	int         first;     /* CSR: ia[0] when the copy was decided: the check insists on it */
	/* Copies `bytes` of this process's memory at src into dst; 0 where it cannot (a page no
	   longer mapped, the library unloading), never a fault. */
	int ( *read )( void* dst, const void* src, size_t bytes );
	/* Called on the copy's thread with each piece as it was read (the bytes that go up), before
	   its upload: array 0 the row pointers (COO: row indices), 1 the column indices, 2 the
	   values; `at` the piece's offset in the array. NULL: nothing is called. */
	void ( *seen )( void* ctx, int array, size_t at, const void* bytes, size_t len );
	void*  seen_ctx;
	size_t piece;   /* bytes per piece (0: HYB_SPMV_COPY_PIECE) */
	int    readers; /* threads reading each piece, the caller one of them (0 or 1: the caller
	                   alone); `read` must then be safe to call from several threads */
} hyb_spmv_copy_in_t;

typedef struct
{
	double seconds;   /* the whole copy */
	double read_s;    /* host: reading the pieces into the slots */
	double wait_s;    /* host: waiting for a slot's upload, and for the check */
	double bytes_h2d; /* uploaded */
	int    pieces;
	int    readers; /* threads that read the pieces */
	int    reject;  /* the check's reason when it rejected the copy (COO: the
	                   HYB_SPMV_COOPTR_* or'ed), else 0 */
} hyb_spmv_copy_out_t;

/* Device memory the copy needs: the matrix, then the check's result. */
size_t hyb_spmv_copy_dev_bytes( const hyb_spmv_dmat_t* dm );

/* Make the copy on context d (held by the caller): upload, check (COO: build the row
   pointers), and complete dm's blocks (entry offsets from the row pointers, column windows
   from the check). Returns HYB_OK when the copy is valid and complete, with nothing in
   flight; HYB_E_INVALID when the check rejected it (an index outside the matrix; CSR row
   pointers that decrease, leave [first, first + nnz] or do not end at first + nnz; COO rows
   that decrease): arrays changed since the call that accepted them, or a COO not grouped
   by rows (out->reject says which); HYB_E_IO when an array could not be read;
   HYB_E_NOT_SUPPORTED when the backend has no spmv.check (spmv.cooptr) launcher; or a
   device error. On any error nothing is in flight any more and the copy must not be used.
   Thread-safe for distinct contexts. */
hyb_status_t hyb_spmv_copy_run( hyb_dev_t* d, const hyb_spmv_copy_in_t* in,
                                hyb_spmv_copy_out_t* out );

#endif
