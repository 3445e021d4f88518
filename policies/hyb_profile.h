/* SPDX-License-Identifier: BSD-3-Clause */
/* The machine profile: bandwidths and rates the cost model uses, from the
   built-in defaults or from the file hyblas-calibrate writes. */
#ifndef HYB_PROFILE_H
#define HYB_PROFILE_H

#include <stddef.h>

#include "hyb_status.h"
#include "hyb_types.h"

typedef struct
{
	double h2d_pageable, d2h_pageable; /* bytes/s */
	double h2d_pinned, d2h_pinned, bidir_pinned;
	double register_s_per_byte, unregister_s_per_byte;
	double host_copy;                 /* bytes/s of one staging copy team */
	double host_copy_dual;            /* bytes/s of two teams at once (load1 + store2) */
	double copy_piece_half;           /* a copy in contiguous pieces of this many bytes runs
	                                     at half the rate of a contiguous copy */
	double gpu_flops[HYB_PREC_COUNT]; /* device gemm on resident data */
	double gpu_half_flops;            /* efficiency knee of one device product */
	double cpu_flops[HYB_PREC_COUNT]; /* CPU library gemm */
	double cpu_half_flops;            /* efficiency knee of a CPU call */
	double gpu_call_overhead;         /* seconds per device call */
	double launch_latency;            /* seconds per device operation */
	double min_cpu_share;
	char   origin[256]; /* "built-in defaults (...)" or the file and its machine line */
} hyb_profile_t;

/* The built-in defaults (policies/hyb_policy_defaults.h). */
void hyb_profile_defaults( hyb_profile_t* p );

/* Parse "key = value" lines ('#' comments; HYBLAS_* lines are settings and
   skipped here) over the current values. Unknown keys and bad values are
   reported through `origin` and skipped. Pure apart from logging. */
void hyb_profile_parse( hyb_profile_t* p, const char* text, const char* origin );

/* Write the profile as text (hyblas-calibrate). Returns HYB_E_IO. */
hyb_status_t hyb_profile_write( const hyb_profile_t* p, const char* path, const char* header );

/* The path of a file kept beside the profile: HYBLAS_PROFILE + suffix (".learn", ".spmv"),
   or "" when no profile path is set. */
void hyb_profile_sibling( const char* suffix, char* out, size_t len );

/* The process profile: defaults overlaid with the HYBLAS_PROFILE file, read
   on first use. Never NULL. */
const hyb_profile_t* hyb_profile( void );

#endif
