/* SPDX-License-Identifier: BSD-3-Clause */
/* The measured choice between LAPACK's ?gtsv_ and hyblas's CPU SPIKE for a call the CPU
   alone solves: profile keys per thread count and size class, and the rule. */
#ifndef HYB_POLICY_GTSV_SIDE_H
#define HYB_POLICY_GTSV_SIDE_H

#include <stddef.h>
#include <stdint.h>

/* SPIKE (check included) must be measured this much faster than LAPACK to be used: the
   promise is "never slower than LAPACK", so a tie goes to LAPACK, and a gain smaller
   than the run-to-run spread of a call is not worth the risk of being wrong. */
#define HYB_GTSV_SIDE_MARGIN 1.05

/* The side not in use is measured again when the side in use has 4^(its samples) - 1
   samples: once after the first call, then ever more rarely (after 4, 16, 64, ...
   calls), so that one disturbed measurement cannot keep a faster side out for good while
   exploring costs a vanishing share of the calls ... */
#define HYB_GTSV_SIDE_PROBE_BASE 4
/* ... and not before the probes' extra time (each probe: the slower side's time over the
   faster's, less one) is at most this share of the calls made on the side in use: a side
   5x slower costs 4 calls' time per probe, so probing it after 3 and 15 calls would make
   the first 16 calls take 1.5x the faster side's time. */
#define HYB_GTSV_SIDE_PROBE_SHARE 0.02

/* The CPU SPIKE's first call in a process starts the OpenMP team: about this many seconds
   a thread beyond the first (21 us on the 16-core H200 hosts, 50 us on the 2-core build
   machine; docs/design-notes-gtsv.md). Until the process's LAPACK calls have taken that
   time over HYB_GTSV_SIDE_PROBE_SHARE, LAPACK keeps the call: at 2^13 rows on 16 cores
   the start costs 2.4 LAPACK calls, which a program making a few calls never wins back. */
#define HYB_GTSV_SIDE_TEAM_START_S 50e-6

/* The CPU SPIKE's first measurement at a size costs about this many seconds beyond a later
   call (work arrays first touched; and a process's first call of a side is not learned,
   so it may take two): it is made once LAPACK's calls at that size have taken this time
   over HYB_GTSV_SIDE_PROBE_SHARE, at once for a call of 5 ms or more, after about 40 calls
   at 2^13 rows. */
#define HYB_GTSV_SIDE_FIRST_PROBE_S 100e-6

/* Size classes: floor(log2(n)), the rates of LAPACK and SPIKE change with the cache level
   the system fits in (on the 2-core VM SPIKE lost at 2^20 rows and won at 2^22). */
int hyb_policy_gtsv_side_class( int64_t n );

/* The profile key of side spike (0 LAPACK, 1 CPU SPIKE) at `threads` OpenMP threads and
   size class cls into out (at least 32 bytes): "lapack.t<threads>.n<cls>" or
   "spike.t<threads>.n<cls>". */
void hyb_policy_gtsv_side_key( int spike, int threads, int cls, char* out, size_t len );

typedef struct
{
	double  lapack;         /* LAPACK rows/s (one right-hand side), 0 unknown */
	int64_t lapack_samples; /* calls folded into it */
	double  spike;          /* CPU SPIKE rows/s, the check included, 0 unknown */
	int64_t spike_samples;
	double  team_start;   /* seconds the SPIKE's first call in the process would add, 0 none */
	double  lapack_spent; /* seconds the process's LAPACK calls have taken */
	double  rows;         /* the call's rows (LAPACK's calls at this size took lapack_samples
	                         times rows / lapack seconds) */
} hyb_gtsv_side_in_t;

typedef struct
{
	int         spike; /* 1: CPU SPIKE; 0: LAPACK */
	int         probe; /* 1: chosen to measure the side, not because it is faster */
	const char* why;
} hyb_gtsv_side_t;

/* The rule. Without a LAPACK rate: LAPACK (a first call is never slower than LAPACK).
   While the team's start is not paid for (team_start > lapack_spent times
   HYB_GTSV_SIDE_PROBE_SHARE): LAPACK. With only LAPACK's rate: SPIKE, to measure it, once
   LAPACK's calls at this size have paid for HYB_GTSV_SIDE_FIRST_PROBE_S. With
   both: SPIKE when its rate is at least HYB_GTSV_SIDE_MARGIN times LAPACK's, else LAPACK; the other
   side is probed as HYB_GTSV_SIDE_PROBE_BASE and HYB_GTSV_SIDE_PROBE_SHARE say. Pure. */
hyb_gtsv_side_t hyb_policy_gtsv_side( const hyb_gtsv_side_in_t* in );

#endif
