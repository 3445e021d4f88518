#!/bin/bash
# Stronger pacing of the downloads than run 1's, run by run within one process
# (pace-modes.patch on 8bb8b1c): unpaced (u); a 1 MiB device-to-device copy on the lane
# between pieces of 8 (e), 2 (h) MiB; a 16 MiB copy between 8 MiB pieces (f); the sleeping
# kernel's 10 us between 8 MiB pieces (q) and 5 us between 2 MiB pieces (s). The bus-bound
# plans leave the downloads slack (they end well before the uploads): a split nearer the
# bytes' 1.5 : 1 should shorten them.
export CYCLE=nnuehfqssqfheu
exec bash "$(dirname "$0")/run1.sh" "$@"
