#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A/B of the level-3 copy teams spinning through a device call (HYBLAS_TEAM_SPIN=1, the
# default) against sleeping between copies (0, the behaviour before).
#   tools/bench/run_team_spin_ab.sh
exec "$(dirname "$0")/run_setting_ab.sh" HYBLAS_TEAM_SPIN tools/bench/team_spin.txt
