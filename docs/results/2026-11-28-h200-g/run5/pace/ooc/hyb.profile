# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.97498e+09
d2h_pageable           = 1.05676e+10
h2d_pinned             = 5.53784e+10
d2h_pinned             = 5.52782e+10
bidir_pinned           = 9.93065e+10
register_s_per_byte    = 5.52859e-11
unregister_s_per_byte  = 2.04076e-11
host_copy              = 4.07384e+10
host_copy_dual         = 5.38086e+10
copy_piece_half        = 1875.76
gpu_sflops             = 5.1124e+13
gpu_dflops             = 5.92461e+13
gpu_cflops             = 5.41021e+13
gpu_zflops             = 5.81041e+13
gpu_half_flops         = 3.72512e+08
cpu_sflops             = 2.11936e+11
cpu_dflops             = 1.16321e+11
cpu_cflops             = 2.15347e+11
cpu_zflops             = 1.19194e+11
cpu_half_flops         = 5.38088e+06
gpu_call_overhead      = 0.000453195
launch_latency         = 8e-06
min_cpu_share          = 0.03
