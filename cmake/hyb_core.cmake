# SPDX-License-Identifier: BSD-3-Clause
# Sources of the core library (everything but the exported wrappers and the
# CUDA plugin), grouped by layer as in DESIGN.md.
list(APPEND HYB_CORE_SOURCES
  # core: what every layer uses
  ${PROJECT_SOURCE_DIR}/core/hyb_status.c
  ${PROJECT_SOURCE_DIR}/core/hyb_log.c
  ${PROJECT_SOURCE_DIR}/core/hyb_state.c
  ${PROJECT_SOURCE_DIR}/core/hyb_secure.c
  ${PROJECT_SOURCE_DIR}/core/hyb_file.c
  ${PROJECT_SOURCE_DIR}/core/hyb_time.c
  ${PROJECT_SOURCE_DIR}/core/hyb_guard.c
  ${PROJECT_SOURCE_DIR}/core/hyb_op.c
  ${PROJECT_SOURCE_DIR}/core/hyb_stats.c
  ${PROJECT_SOURCE_DIR}/core/hyb_trace_line.c
  ${PROJECT_SOURCE_DIR}/core/hyb_team.c
  ${PROJECT_SOURCE_DIR}/core/hyb_thread.c
  ${PROJECT_SOURCE_DIR}/core/hyb_copy.c
  ${PROJECT_SOURCE_DIR}/core/hyb_self_read.c
  # core/config: the configuration table, read by every layer through hyb_config()
  ${PROJECT_SOURCE_DIR}/core/config/hyb_config.c
  # policies: profile, cost models, the learning store
  ${PROJECT_SOURCE_DIR}/policies/hyb_profile.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_policy_l3.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_learn.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_refit.c
  # kernels: backends and pipelines
  ${PROJECT_SOURCE_DIR}/kernels/hyb_kernel_registry.c
  ${PROJECT_SOURCE_DIR}/kernels/hyb_device_registry.c
  ${PROJECT_SOURCE_DIR}/kernels/sim/hyb_device_sim.c
  ${PROJECT_SOURCE_DIR}/kernels/l3/hyb_l3_sim.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_l3_tasks.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_l3_pipeline.c
  # dispatch: decisions become actions
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_backend_real.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_l3_check.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_l3_memo.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_dispatch_l3.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_dispatch_gtsv.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_dispatch_spmv.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_dispatch_stats.c
  # generated from shim/routines.tsv
  ${HYB_GEN_DIR}/hyb_routines.c
)
set(HYB_SHIM_SOURCES
  ${PROJECT_SOURCE_DIR}/shim/hyb_shim_init.c
  ${PROJECT_SOURCE_DIR}/shim/hyb_shim_ext.c
  ${PROJECT_SOURCE_DIR}/shim/hyb_shim_resolve.c
  ${PROJECT_SOURCE_DIR}/shim/hyb_shim_fork.c
  # exported (hyblas_host_alloc): with the shim's objects, which libhyblas links whole
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_host_mem.c
)
