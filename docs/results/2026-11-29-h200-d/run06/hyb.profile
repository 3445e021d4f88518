# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.02423e+09
d2h_pageable           = 1.1648e+10
h2d_pinned             = 5.54376e+10
d2h_pinned             = 5.52967e+10
bidir_pinned           = 9.94135e+10
register_s_per_byte    = 4.2516e-11
unregister_s_per_byte  = 1.7345e-11
host_copy              = 4.20716e+10
host_copy_dual         = 5.50022e+10
copy_piece_half        = 1780.02
gpu_sflops             = 5.12685e+13
gpu_dflops             = 5.97359e+13
gpu_cflops             = 5.4098e+13
gpu_zflops             = 5.66128e+13
gpu_half_flops         = 5.8565e+08
cpu_sflops             = 1.81374e+11
cpu_dflops             = 1.21497e+11
cpu_cflops             = 2.72092e+11
cpu_zflops             = 1.24847e+11
cpu_half_flops         = 7.46656e+06
gpu_call_overhead      = 0.00039639
launch_latency         = 8e-06
min_cpu_share          = 0.03
