/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading hyblas's per-call trace file (HYBLAS_TRACE) from a black-box
   program, to assert which calls were intercepted and which path each took.
   The trace format is one line per call: "ROUTINE op=.. m=M n=N k=K
   path=P ...". */
#ifndef HYB_BB_TRACE_H
#define HYB_BB_TRACE_H

typedef struct
{
	char      routine[64];
	char      path[16];
	long long m, n, k;
} hyb_bb_trace_line_t;

/* Empty the trace file, creating it if missing (hyblas appends to it, so
   its writes go to the new end). Returns 0, or -1 if it cannot be opened. */
int hyb_bb_trace_reset( const char* file );

/* Parse up to max lines of the file into out. Returns the number of lines
   parsed, or -1 if the file cannot be read. Lines that do not parse are
   returned with an empty routine name. */
int hyb_bb_trace_read( const char* file, hyb_bb_trace_line_t* out, int max );

/* Lines of routine `routine` (exact name) taking path `path` (NULL: any). */
int hyb_bb_trace_count( const hyb_bb_trace_line_t* t, int n, const char* routine,
                        const char* path );

/* Whether libhyblas's own counts (its exported hyb_calls, found with dlsym)
   agree with the trace: for every routine in it, the calls on each path
   (cpu, gpu, split, fallback); and that hyb_calls refuses a name hyblas does
   not intercept, leaving the counts untouched. Each disagreement is
   reported through hyb_bb_expect. Returns 1 when all agree. */
int hyb_bb_trace_matches_counts( const hyb_bb_trace_line_t* t, int n );

/* Print the parsed lines, one per line, prefixed "trace: ". */
void hyb_bb_trace_print( const hyb_bb_trace_line_t* t, int n );

#endif
