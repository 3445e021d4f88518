#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Writes an HPC Challenge input (hpccinf.txt) to stdout: HPL problems
# N x N with block NB on a P x Q grid (default 1 x 1: one MPI process),
# HPL.dat's usual choices otherwise, and PTRANS on PN x PN with block PNB
# (default the first N and NB). N and NB may be comma lists: HPL runs every
# pair, and the rest of the suite is sized by the largest N.
# hpcc reads the HPL part line by line, the comment after each value; line
# 32 is a separator.
#   tools/hpccinf.sh N[,N...] NB[,NB...] [PN PNB [P Q]] > hpccinf.txt
set -eu
ns=$(echo "$1" | tr , ' ') nbs=$(echo "$2" | tr , ' ')
pn=${3:-${ns%% *}} pnb=${4:-${nbs%% *}} p=${5:-1} q=${6:-1}
cat <<EOT
HPLinpack input for hyblas
(written by tools/hpccinf.sh)
HPL.out      output file name (if any)
8            device out (6=stdout,7=stderr,file)
$(echo $ns | wc -w)            # of problems sizes (N)
$ns           Ns
$(echo $nbs | wc -w)            # of NBs
$nbs          NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
$p            Ps
$q            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0            Number of additional problem sizes for PTRANS
$pn          values of N
0            number of additional blocking sizes for PTRANS
$pnb         values of NB
EOT
