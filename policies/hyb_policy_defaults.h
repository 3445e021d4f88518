/* SPDX-License-Identifier: BSD-3-Clause */
/* Built-in machine parameters, used until hyblas-calibrate has measured the
   machine. Each carries where it was measured. */
#ifndef HYB_POLICY_DEFAULTS_H
#define HYB_POLICY_DEFAULTS_H

/* PCIe, page-locking and host memory: one NVIDIA H200 over PCIe gen5 x16,
   16 Xeon cores, driver 580, CUDA 13; shared/ANCHORS.md probes (probe.cu),
   2026-11. */
#define HYB_DEF_H2D_PAGEABLE 10.4e9 /* bytes/s */
#define HYB_DEF_D2H_PAGEABLE 18.6e9
#define HYB_DEF_H2D_PINNED 55.5e9
#define HYB_DEF_D2H_PINNED 55.4e9
#define HYB_DEF_BIDIR_PINNED 101.5e9   /* both directions at once, total */
#define HYB_DEF_REGISTER_S_PER_B ( 31e-3 / 1073741824.0 )   /* cudaHostRegister 1 GiB: 31 ms */
#define HYB_DEF_UNREGISTER_S_PER_B ( 13e-3 / 1073741824.0 ) /* cudaHostUnregister: 13 ms */
#define HYB_DEF_HOST_TRIAD 118e9 /* STREAM-like triad, 16 threads */

/* The staging copy (application memory to page-locked buffer) with the
   copy team: not in the anchors; estimated as host bandwidth over three
   streams (read, write, then the DMA's read) until calibrated. */
#define HYB_DEF_HOST_COPY ( HYB_DEF_HOST_TRIAD / 3.0 )

/* Device products on resident data: cuBLAS DGEMM 56-61 TFLOP/s for n =
   2048..16384 on the H200 (ANCHORS.md). Other precisions: the H100/H200
   datasheet ratios (FP32 without tensor cores ~ FP64 tensor cores; complex
   runs at the real rate in real flops), to be replaced by calibration. */
#define HYB_DEF_GPU_SFLOPS 50e12
#define HYB_DEF_GPU_DFLOPS 55e12
#define HYB_DEF_GPU_CFLOPS 50e12
#define HYB_DEF_GPU_ZFLOPS 55e12
/* Products below this many flops run visibly below the rate (launch and
   wave quantization): effective rate = rate * f / (f + half). */
#define HYB_DEF_GPU_HALF_FLOPS 2e9

/* CPU library: Debian OpenBLAS 0.3.21 on the 16 cores of the same machine,
   DGEMM 0.26-0.27 TFLOP/s for n = 2048..8192 (ANCHORS.md); single
   precision at twice the rate, complex at the real rate. */
#define HYB_DEF_CPU_SFLOPS 0.52e12
#define HYB_DEF_CPU_DFLOPS 0.26e12
#define HYB_DEF_CPU_CFLOPS 0.52e12
#define HYB_DEF_CPU_ZFLOPS 0.26e12
/* n = 1024 reached 0.15 of 0.26 TFLOP/s there: half rate near 1.5e9 flops. */
#define HYB_DEF_CPU_HALF_FLOPS 1.5e9

/* Fixed cost of a device call: waking the workers, first synchronizations,
   the first block's load and the last tile's store are modelled apart.
   An estimate until calibrated. */
#define HYB_DEF_GPU_CALL_OVERHEAD 150e-6 /* seconds */
#define HYB_DEF_LAUNCH_LATENCY 8e-6      /* seconds per device operation */

/* CPU strip of a split call: below this share the co-execution is not
   worth its contention with the staging copies. */
#define HYB_DEF_MIN_CPU_SHARE 0.03

#endif
