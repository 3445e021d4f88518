# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.97377e+09
d2h_pageable           = 1.1227e+10
h2d_pinned             = 5.54062e+10
d2h_pinned             = 5.53355e+10
bidir_pinned           = 1.01694e+11
register_s_per_byte    = 5.73287e-11
unregister_s_per_byte  = 2.11924e-11
host_copy              = 3.79213e+10
host_copy_dual         = 5.57351e+10
copy_piece_half        = 0
gpu_sflops             = 5.13276e+13
gpu_dflops             = 5.81969e+13
gpu_cflops             = 5.40988e+13
gpu_zflops             = 5.70083e+13
gpu_half_flops         = 3.23046e+08
cpu_sflops             = 2.20669e+11
cpu_dflops             = 1.12975e+11
cpu_cflops             = 2.34327e+11
cpu_zflops             = 7.28514e+10
cpu_half_flops         = 2.67475e+07
gpu_call_overhead      = 0.000235351
launch_latency         = 8e-06
min_cpu_share          = 0.03
