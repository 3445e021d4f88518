/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-operation counters (calls, time, flops, bytes per path) for the intercepted
   routines and the registered extension operations (core/hyb_op.h), the per-call trace
   file and the exit report. */
#ifndef HYB_STATS_H
#define HYB_STATS_H

#include <stdint.h>

#include "hyb_types.h"

/* Size the tables (number of routines and their names). Called once by
   stage-1 init before any record; names must outlive the process. trace_fd
   >= 0 is a descriptor the trace goes to (tests); otherwise no trace. */
void hyb_stats_init( int nroutines, const char* const* names, int report, int trace_fd );

/* hyb_stats_init with the trace appended to the file `trace` (NULL or empty: none). The
   file is opened at the first trace line and checked before each (core/hyb_file.h,
   sinks); one that cannot be used is warned about once. The core knows no routine table:
   the caller passes the names (dispatch/hyb_dispatch.h, hyb_stats_init_routines). */
void hyb_stats_init_traced( int nroutines, const char* const* names, const char* trace,
                            int report );

/* Whether calls must be timed (report or trace enabled). One load. */
int hyb_stats_timing( void );

/* Account one call of operation `id` (a routine's id, or hyb_op_register's) that ran on
   `path`. seconds < 0 means
   "not timed". Thread-safe, lock-free. */
void hyb_stats_record( int id, hyb_path_t path, double seconds, double flops, double bytes );

/* Account the model's prediction for a call that went to a device, to report
   predicted versus measured time. */
void hyb_stats_prediction( int id, double predicted, double measured );

/* Count a fallback (device planned, CPU finished) of operation `id`. */
void hyb_stats_fallback( int id );

/* Write one trace line (already formatted, without newline) with a single
   write(2). No-op when no trace file is open. */
void hyb_trace_write( const char* line, int len );
/* Whether trace lines are written (a descriptor or HYBLAS_TRACE): for traces that cost
   something to gather, gathered only then. */
int hyb_trace_active( void );

/* Print the summary table to the log destination (called at exit when
   HYBLAS_REPORT=1; also usable by tools). Never touches a device. */
void hyb_stats_report( void );

/* Read back counters (tests, tools). */
uint64_t hyb_stats_calls( int id, hyb_path_t path );
uint64_t hyb_stats_fallbacks( int id );

/* Set one line of device information shown in the report (e.g. "cuda:
   NVIDIA H100, 1 device, staging copy"). */
void hyb_stats_set_device_note( const char* note );

#endif
