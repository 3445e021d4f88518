/* SPDX-License-Identifier: BSD-3-Clause */
/* A small persistent team of threads running one parallel-for at a time
   (the pipelines' staging copies), independent of the application's
   OpenMP or BLAS threads. */
#ifndef HYB_TEAM_H
#define HYB_TEAM_H

#include <stdint.h>

typedef struct hyb_team_s hyb_team_t;

/* A team of `nthreads` workers plus the calling thread. NULL on failure
   (callers then run serially). */
hyb_team_t* hyb_team_create( int nthreads );
void        hyb_team_destroy( hyb_team_t* t );

/* Threads that run a hyb_team_run (the workers in use plus the caller); 1 for NULL. */
int hyb_team_size( const hyb_team_t* t );

/* Run the following runs (and hold the following holds) on the caller and the team's
   first `threads - 1` workers only, clamped to the team's workers; the others sleep until
   a later call lets them in. So one team, made once at the largest size, serves calls
   that need fewer threads. Call between runs, while the team is not held; one caller at a
   time (the team's owner). A new team uses all its workers. */
void hyb_team_use( hyb_team_t* t, int threads );

/* Run fn(arg, begin, end) over [0, n) split into contiguous ranges, one per
   thread (the caller takes one); returns when all are done. With t == NULL
   the caller runs everything. One run at a time per team. */
void hyb_team_run( hyb_team_t* t, int64_t n, void ( *fn )( void* arg, int64_t begin, int64_t end ),
                   void* arg );

/* Between hyb_team_hold(t) and hyb_team_release(t) the workers do not sleep between runs:
   they spin, so a run starts and ends in well under a microsecond instead of paying a
   sleeping thread's wake-up (tens of microseconds each on a virtual machine, measured as
   most of a chunked staging copy's time). Hold only across a burst of runs with little
   else for the cores to do: held workers keep their cores busy. A hold is refused (returns
   0, nothing to release) when the team is already held, is NULL, or when its workers and
   those of every other held team would not leave a core free for their callers: spinning
   on a machine with fewer cores than threads would take the cores the runs need. Returns
   1 when held; then call hyb_team_release once. */
int  hyb_team_hold( hyb_team_t* t );
void hyb_team_release( hyb_team_t* t );

#endif
