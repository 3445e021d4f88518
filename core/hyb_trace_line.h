/* SPDX-License-Identifier: BSD-3-Clause */
/* The one builder of HYBLAS_TRACE lines: the fields every operation has, and a family's
   own key=value pairs. */
#ifndef HYB_TRACE_LINE_H
#define HYB_TRACE_LINE_H

#include "hyb_op.h"

/* One call's line: "<name> op=<kind> <shape> path=<path> pred_cpu=.. pred_gpu=..
   pred=.. seconds=..<extra> why="<why>"". Tools and tests parse these keys. */
typedef struct
{
	hyb_op_id_t op;       /* names the line (hyb_op_name_of) */
	const char* kind;     /* op=: precision and operation, "dgemm", "zgtsv", "dcsrmv" */
	const char* shape;    /* the family's size keys, "m=10 n=20 k=30" (NULL: none) */
	const char* path;     /* "cpu", "gpu", "split", "fallback" */
	double      pred_cpu; /* model predictions and measured seconds */
	double      pred_gpu;
	double      pred;
	double      seconds;
	const char* extra; /* more " key=value" pairs, each with its leading space (NULL: none) */
	const char* why;   /* the plan's reason, quoted (NULL: none) */
} hyb_trace_fields_t;

/* Format f into one line and write it to the trace with one write(2) (hyb_trace_write);
   nothing when no trace is open. A line longer than the builder's buffer loses its why,
   then is dropped whole rather than cut. */
void hyb_trace_line( const hyb_trace_fields_t* f );

#endif
