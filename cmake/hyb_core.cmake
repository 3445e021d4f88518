# SPDX-License-Identifier: BSD-3-Clause
# Sources of the core library (everything but the exported wrappers and the
# CUDA plugin), one line per file, grouped by layer.
list(APPEND HYB_CORE_SOURCES
  core/hyb_status.c
  core/hyb_log.c
  core/hyb_time.c
)
