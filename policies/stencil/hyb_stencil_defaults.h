/* SPDX-License-Identifier: BSD-3-Clause */
/* Built-in rates of the stencil cost model that the machine profile does
   not hold, each with where it comes from; the PCIe, registration and host
   copy rates come from the profile (policies/hyb_policy_defaults.h). */
#ifndef HYB_STENCIL_DEFAULTS_H
#define HYB_STENCIL_DEFAULTS_H

/* Device memory a streaming stencil kernel moves per second: cuSPARSE CSR
   SpMV streams 2.86 TB/s on the H200 (shared/ANCHORS.md); a stencil kernel
   streams as well or better. Estimate until tools/gpu_check_stencil has
   measured the kernels (it prints their rates). */
#define HYB_STENCIL_DEF_DEV_BW 2.8e12
/* Bytes a device-to-device copy moves per second (each byte read and
   written): half the stream rate above. Estimate. */
#define HYB_STENCIL_DEF_D2D ( 0.5 * HYB_STENCIL_DEF_DEV_BW )
/* Host memory the OpenMP kernels stream per second on 16 cores: the triad
   of shared/ANCHORS.md (118 GB/s) at the efficiency of a stencil sweep,
   whose neighbour planes fall out of cache for large planes. Estimate. */
#define HYB_STENCIL_DEF_CPU_BW 80e9
/* Device memory of the device the model plans for when none is open and
   HYBLAS_GPU_MEM is a percentage: the H100's 80 GB (the smaller of the
   GPU machines). */
#define HYB_STENCIL_DEF_DEVICE_MEM 80e9

/* Memory traffic of one point update, in elements: every array the stencil
   streams once, plus the re-reads its neighbours cost (tile halos on the
   device; planes out of cache on the CPU). Estimates from the kernels'
   access patterns: Himeno streams its 13 inputs and one output; the grids
   read u and write u'; the damped wave reads p and q and writes both, twice
   a grid's arrays with the same neighbour re-reads on p. The acoustic kernel's is measured instead
   (the in-core time per step, expressed at the stream rate above; docs/stencil.md, "The model"),
   because a kernel that looks too cheap makes the model favour plans that recompute many halo
   planes: 170 G points/s in float at 1160 x 1160 x 160 on an H200 (gpu_check_stencil, the
   launched shape), 4.1 elements at the stream rate above (double: 97 G points/s, 3.6).
   The damped wave's is measured too: its kernel marches down rows and reads p and q once,
   218.2 G points/s on an H200 (gpu_check_stencil at 16384 x 8192): 3.21 elements at the
   stream rate above, where its access pattern says 4 (the kernel streams faster than the
   rate above).
 */
#define HYB_STENCIL_DEV_ELEMS_ACOUSTIC 4.1
#define HYB_STENCIL_CPU_ELEMS_ACOUSTIC 6.0
#define HYB_STENCIL_DEV_ELEMS_HIMENO   14.5
#define HYB_STENCIL_CPU_ELEMS_HIMENO   16.0
#define HYB_STENCIL_DEV_ELEMS_GRID     2.25
#define HYB_STENCIL_CPU_ELEMS_GRID     2.5
#define HYB_STENCIL_DEV_ELEMS_WAVE     3.21
#define HYB_STENCIL_CPU_ELEMS_WAVE     4.5

/* Bytes of values the device's ZFP codec encodes or decodes per second:
   the slower of the two kernels measured by tools/gpu_check_zfp, fixed rate
   16, float, 2-D, on the H100 (encode 301.5 GB/s, decode 398.1 GB/s;
   docs/results/2026-11-24-h100 runE). */
#define HYB_STENCIL_DEF_ZFP_BW 300e9

/* The copying scheme's staging, measured on the H100 hosts (every
   copying plan of a (d, k) sweep against the same plan's first run in a
   fresh process; docs/stencil.md, "The copying scheme as measured"): its
   host steps move 13.6-15.9 GB/s through the page-locked staging while the
   DMA engines use it (a plain host copy: 41 GB/s), and a first run that
   page-locks the staging pays 4-7e-10 s a byte of it. Left out, the
   copying scheme looks cheapest for a handle's first run, which does not
   page-lock the caller's arrays, and takes 3-10x the time of the plans
   that do. */
#define HYB_STENCIL_DEF_STAGE_COPY      14e9
#define HYB_STENCIL_DEF_STAGE_LOCK_S_PB 6e-10

/* Pieces of the in-core scheme's first upload and last download: enough to
   overlap the first steps with the upload, few enough that each piece is a
   large copy. */
#define HYB_STENCIL_IN_CORE_PIECES 16

#endif
