/* SPDX-License-Identifier: BSD-3-Clause */
/* Built-in machine parameters, used until hyblas-calibrate has measured the
   machine: its measurements on a GPU host of the kind the library was built
   for. Each says what it measures; docs/performance.md ("Built-in defaults")
   says where each was measured. */
#ifndef HYB_POLICY_DEFAULTS_H
#define HYB_POLICY_DEFAULTS_H

/* PCIe, page-locking and host memory of a host with one GPU on PCIe gen5
   x16 and 16 Xeon cores, as hyblas-calibrate measures them; the project's
   bandwidth probes (shared/ANCHORS.md) agree within 3 %. */
#define HYB_DEF_H2D_PAGEABLE       10.7e9 /* bytes/s */
#define HYB_DEF_D2H_PAGEABLE       18.9e9
#define HYB_DEF_H2D_PINNED         55.5e9
#define HYB_DEF_D2H_PINNED         55.4e9
#define HYB_DEF_BIDIR_PINNED       101.6e9                    /* both directions at once, total */
#define HYB_DEF_REGISTER_S_PER_B   ( 37.0e-3 / 1073741824.0 ) /* cudaHostRegister 1 GiB */
#define HYB_DEF_UNREGISTER_S_PER_B ( 12.4e-3 / 1073741824.0 ) /* cudaHostUnregister 1 GiB */
#define HYB_DEF_HOST_TRIAD         118e9                      /* STREAM-like triad, 16 threads */

/* The staging copy (application memory to page-locked buffer, 8 threads,
   1 MiB pieces), as hyblas-calibrate measures it on that host. Two teams at
   once (load1 and store2 of a pipeline): estimated at 1.3x one team until
   calibrated (still well under the host's triad, HYB_DEF_HOST_TRIAD). */
#define HYB_DEF_HOST_COPY      48.2e9
#define HYB_DEF_HOST_COPY_DUAL ( 1.3 * HYB_DEF_HOST_COPY )
/* Copies of column pieces (a tile of a larger matrix) are slower than one
   contiguous copy: in the level-3 pipeline's traces, the load1 of 1024-row
   double blocks (8 KiB pieces) ran at about half the contiguous rate. */
#define HYB_DEF_COPY_PIECE_HALF 8192.0

/* Device products on resident data: cuBLAS on that host's GPU as
   hyblas-calibrate measures them (n = 8192 for s/d, 4096 for c/z), in the
   range of the project's DGEMM probes (ANCHORS.md). Real flops (a complex
   multiply-add counts 8). */
#define HYB_DEF_GPU_SFLOPS 51.3e12
#define HYB_DEF_GPU_DFLOPS 58.2e12
#define HYB_DEF_GPU_CFLOPS 53.9e12
#define HYB_DEF_GPU_ZFLOPS 56.1e12
/* Products below this many flops run visibly below the rate (launch and
   wave quantization): effective rate = rate * f / (f + half); fitted from
   DGEMM n = 1024 against n = 8192 there. */
#define HYB_DEF_GPU_HALF_FLOPS 3.8e8

/* CPU library: OpenBLAS on the 16 cores of the same host, as
   hyblas-calibrate measures it (n = 2048 s/d, 1024 c/z). */
#define HYB_DEF_CPU_SFLOPS 0.626e12
#define HYB_DEF_CPU_DFLOPS 0.320e12
#define HYB_DEF_CPU_CFLOPS 0.646e12
#define HYB_DEF_CPU_ZFLOPS 0.331e12
/* Fitted from DGEMM n = 256 against n = 2048 there. */
#define HYB_DEF_CPU_HALF_FLOPS 2.0e7

/* Fixed cost of a device call (the first block's load and the last tile's
   store are modelled apart), as hyblas-calibrate measures it there. */
#define HYB_DEF_GPU_CALL_OVERHEAD 188e-6 /* seconds */
#define HYB_DEF_LAUNCH_LATENCY    8e-6   /* seconds per device operation (estimate) */

/* CPU strip of a split call: below this share the co-execution is not
   worth its contention with the staging copies. */
#define HYB_DEF_MIN_CPU_SHARE 0.03

#endif
