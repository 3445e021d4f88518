# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.35183e+09
d2h_pageable           = 1.66712e+10
h2d_pinned             = 5.54439e+10
d2h_pinned             = 5.53436e+10
bidir_pinned           = 1.01621e+11
register_s_per_byte    = 3.8064e-11
unregister_s_per_byte  = 1.47222e-11
host_copy              = 4.01035e+10
host_copy_dual         = 6.13243e+10
copy_piece_half        = 0
gpu_sflops             = 5.1172e+13
gpu_dflops             = 6.0416e+13
gpu_cflops             = 5.40993e+13
gpu_zflops             = 5.81286e+13
gpu_half_flops         = 4.22275e+08
cpu_sflops             = 2.35509e+11
cpu_dflops             = 1.19951e+11
cpu_cflops             = 2.40495e+11
cpu_zflops             = 1.15255e+11
cpu_half_flops         = 8.28084e+06
gpu_call_overhead      = 0.000539919
launch_latency         = 8e-06
min_cpu_share          = 0.03
