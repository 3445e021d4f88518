/* SPDX-License-Identifier: BSD-3-Clause */
/* Page registration ahead of a tridiagonal system's uploads (issue 5's registered split):
   a thread registers the pages of rows [0, rows) of every array of the system, piece by
   piece in row order, so that a device can read them by DMA without a staging copy; the
   device's worker waits for the rows it uploads next and reports the rows it has uploaded,
   whose pages the same thread then unregisters (docs/design-notes-gtsv.md). */
#ifndef HYB_GTSV_PIN_H
#define HYB_GTSV_PIN_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"

/* How pages are registered: the device's host_register / host_unregister in the library,
   a recording double in the tests. `ctx` is the argument given to the call that registers
   (hyb_gtsv_pin_start) or unregisters (hyb_gtsv_pin_release, hyb_gtsv_pin_finish). */
typedef struct
{
	hyb_status_t ( *reg )( void* ctx, void* p, size_t bytes );
	void ( *unreg )( void* ctx, void* p );
} hyb_gtsv_pin_ops_t;

/* One array of the system: element i of it lies at base + i * elem, for i < len. */
typedef struct
{
	const void* base;
	int64_t     len;
} hyb_gtsv_pin_array_t;

#define HYB_GTSV_PIN_ARRAYS_MAX 16 /* dl, d, du and up to 13 columns of B */

/* Rows a piece registers at once (32 MiB of each double array, a few of the stream's
   chunks): the first piece is registered long before the check ends, and a registration's
   fixed cost is spread over 8192 pages (measured: pieces of 2 MiB registered at 86-167 ms a
   GiB, one call of 1 GiB at 47; pieces of 8 MiB unregistered at 55 ms a GiB, one of 1 GiB
   at 15-18). */
#define HYB_GTSV_PIN_PIECE_ROWS ( (int64_t)1 << 22 )

typedef struct hyb_gtsv_pin_s hyb_gtsv_pin_t;

/* What the registration cost (seconds of the threads that did it). */
typedef struct
{
	double  reg_seconds, unreg_seconds;
	double  reg_bytes;
	int64_t rows;   /* rows registered in every array when it ended */
	int     failed; /* a registration was refused: the rows after `rows` were not registered */
} hyb_gtsv_pin_report_t;

/* Start registering rows [0, rows) of the narr arrays (elements of elem bytes; each array
   only up to its len) in pieces of piece_rows (0: HYB_GTSV_PIN_PIECE_ROWS), on a new thread
   that calls ops->reg(reg_ctx, ...). Pages shared by two arrays, or by two pieces, are
   registered once. ops->reg and ops->unreg are called with reg_ctx, on that thread (and in
   hyb_gtsv_pin_finish with its ctx). HYB_OK with *out set, HYB_E_INVALID, HYB_E_NO_MEMORY (nothing
   started). */
hyb_status_t hyb_gtsv_pin_start( const hyb_gtsv_pin_ops_t* ops, void* reg_ctx,
                                 const hyb_gtsv_pin_array_t* arr, int narr, size_t elem,
                                 int64_t rows, int64_t piece_rows, hyb_gtsv_pin_t** out );

/* Wait until rows [0, want) of every array are registered, or registration ended short of
   them (refused, or finished). Returns the rows registered (>= want, or fewer). */
int64_t hyb_gtsv_pin_wait( hyb_gtsv_pin_t* pin, int64_t want );

/* Cut [p, p + bytes) at the edges of the registrations it crosses (a DMA must lie within
   one registration: CUDA refuses or stages a copy that spans two), into at most max spans
   (offset from p, length). Returns the number of spans, or -1 when a part of the range is
   not registered or max is too small. Any thread, while the range is registered. */
typedef struct
{
	size_t off, bytes;
} hyb_gtsv_pin_span_t;

int hyb_gtsv_pin_spans( hyb_gtsv_pin_t* pin, const void* p, size_t bytes, hyb_gtsv_pin_span_t* out,
                        int max );

/* The uploads of rows [0, done) are complete: the registering thread unregisters every
   registration that no later row needs (ops->unreg(reg_ctx, ...)), between its pieces. */
void hyb_gtsv_pin_release( hyb_gtsv_pin_t* pin, int64_t done );

/* Stop the thread, unregister everything still registered (ops->unreg(ctx, ...)), report
   and free. Only once no upload from the registered pages is in flight any more. */
void hyb_gtsv_pin_finish( hyb_gtsv_pin_t* pin, void* ctx, hyb_gtsv_pin_report_t* rep );

#endif
