#!/bin/bash
# Which reads slow the pair: threads reading the upload's buffer, the download's, another
# buffer of the same size, or 8 GiB elsewhere (32 MiB each way, registered 4 KiB pages).
O=${1:-/tmp/r3}; mkdir -p $O
P=$(pwd)/.stage/gpu_probe_bus_time
date -u > $O/date.txt
$P --series --host registered-4k --mib 32 --seconds 3 > $O/reads.txt 2>&1
for n in 4 14; do
  for f in up down other far; do
    $P --series --host registered-4k --mib 32 --seconds 3 --readers $n --read-from $f >> $O/reads.txt 2>&1
  done
done
$P --series --host registered-4k --mib 32 --seconds 3 >> $O/reads.txt 2>&1
grep -h '^#\|^series p' $O/reads.txt | sed 's/# gpu_probe_bus_time --series: registered-4k host memory, 32 MiB up beside 32 MiB down, fixed buffers, 3 s, //' | cut -c1-160
