/* SPDX-License-Identifier: BSD-3-Clause */
/* The schedule of the seed's wave run (45000^2, region sharing, d 8, k 16,
   64 steps; align 1 uncompressed, 4 compressed as argv[1]) with each step's
   dependencies: "index op stream dep...". Built against the repository's
   scheduler: gcc -I. -Ikernels -Icore -Iinclude THIS kernels/stencil/
   hyb_stencil_sched.c kernels/stencil/hyb_stencil_track.c */
#include <stdlib.h>
#include <stdio.h>
#include "kernels/stencil/hyb_stencil_sched.h"
int main(int argc,char**argv){
  hyb_stencil_sched_in_t in = {0};
  in.scheme=HYB_STENCIL_SCH_SHARED; in.n=45000; in.h=1; in.levels=2; in.inputs=1; in.ncoef=0; in.quants=2;
  in.d=8; in.k=16; in.steps=64; in.align=argc > 1 ? atoi(argv[1]) : 1;
  hyb_stencil_sched_t s;
  if (hyb_stencil_sched_build(&in,&s)) return 1;
  for (int64_t i=0;i<s.nsteps;i++){ hyb_stencil_step_t*st=&s.steps[i]; printf("%lld %d %d", (long long)i, st->op, st->stream);
    for (int e=0;e<st->ndep;e++) printf(" %lld", (long long)s.deps[st->dep0+e]); printf("\n"); }
  return 0; }
