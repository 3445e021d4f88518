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

/* Threads that run a hyb_team_run (workers plus the caller); 1 for NULL. */
int hyb_team_size( const hyb_team_t* t );

/* Run fn(arg, begin, end) over [0, n) split into contiguous ranges, one per
   thread (the caller takes one); returns when all are done. With t == NULL
   the caller runs everything. One run at a time per team. */
void hyb_team_run( hyb_team_t* t, int64_t n, void ( *fn )( void* arg, int64_t begin, int64_t end ),
                   void* arg );

#endif
