#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Lateness of each device step in a step trace of this session (lines without ready=):
# begin minus the latest of its issue, its stream's previous end and its dependencies'
# ends (from sched_deps.c's output), summed per kind and attributed to the kind of step
# that ended just before. Usage: gaps.py TRACE DEPS SCHEDULE_INDEX
import sys
from collections import defaultdict
deps={}; stream={}
for l in open(sys.argv[2]):
    v=list(map(int,l.split())); deps[v[0]]=v[3:]; stream[v[0]]=v[2]
runs=[];cur=[]
for l in open(sys.argv[1]):
    if l.startswith('hyblas_stencil_step'):
        d=dict(kv.split('=') for kv in l.split()[1:]); cur.append(d)
    elif l.startswith('hyblas_stencil_timeline'):
        runs.append(cur); cur=[]
r={int(d['i']):d for d in runs[int(sys.argv[3])]}
assert all(int(r[i]['stream'])==stream[i] for i in r)
ends=sorted((float(d['e']),i) for i,d in r.items())
last_on={}; gap=defaultdict(float); cause=defaultdict(float)
for i in sorted(r):
    d=r[i]; b=float(d['b']); s=int(d['stream']); ready=float(d['h'])
    for j in deps[i]:
        if j in r: ready=max(ready,float(r[j]['e']))
    if s in last_on: ready=max(ready,float(r[last_on[s]]['e']))
    last_on[s]=i; g=b-ready; gap[d['op']]+=g
    if g>0.002:
        prev=max((e,j) for e,j in ends if e<=b+1e-6)
        cause[(d['op'], r[prev[1]]['op'])]+=g
print({k:round(v,3) for k,v in gap.items()}); print({k:round(v,3) for k,v in cause.items()})
