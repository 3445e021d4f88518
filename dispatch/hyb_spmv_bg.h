/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse products' background builder: one helper thread, made on first use, that runs
   one job at a time (a matrix's statistics, conversion and upload) while the calls go on. */
#ifndef HYB_SPMV_BG_H
#define HYB_SPMV_BG_H

#include <stdint.h>

/* Counts since the process started (or since the last reset). */
typedef struct
{
	uint64_t submitted; /* jobs accepted */
	uint64_t finished;  /* jobs that ran to their end (whatever their outcome) */
	uint64_t refused;   /* submissions refused: a job in flight, or no thread */
} hyb_spmv_bg_stats_t;

/* Hand fn(arg) to the helper thread, tagged `tag` (the array set it builds). `threads`: the
   cores the job keeps busy, which its OpenMP regions use and the CPU products give up
   meanwhile (0: the build's usual share, a quarter of OpenMP's default team, at least one).
   Returns 1 when accepted (fn owns arg from now on and runs on the helper), 0 when refused:
   another job is queued or running, the thread could not be made, or the library is
   unloading; the caller keeps arg. Never waits for a job. */
int hyb_spmv_bg_submit( void ( *fn )( void* ), void* arg, uint64_t tag, int threads );

/* 1 when no job is queued or running (a submission now would be accepted, thread
   permitting). */
int hyb_spmv_bg_idle( void );

/* 1 while a job tagged `tag` is queued or running, else 0. */
int hyb_spmv_bg_building( uint64_t tag );

/* Threads for a CPU product to use now: 0 (its default) when no job is queued or running,
   else OpenMP's default less the job's threads (at least one left), so that the products
   and the build do not share a core: an oversubscribed core slows a statically scheduled
   product by its slowest thread, more than the cores it gives up. */
int hyb_spmv_bg_cpu_threads( void );

/* 1 once the library is being unloaded: a job should end as soon as it can (its work is
   waited for by the unloading). */
int hyb_spmv_bg_quitting( void );

/* Wait until no job is queued or running (tests, unloading). */
void hyb_spmv_bg_wait( void );

/* Tests: while closed, an accepted job waits before it starts (so a test can act during a
   build); opening lets it run. */
void hyb_spmv_bg_gate( int closed );

void hyb_spmv_bg_stats( hyb_spmv_bg_stats_t* out );

#endif
