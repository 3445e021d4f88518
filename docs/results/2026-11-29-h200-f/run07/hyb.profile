# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.6396e+09
d2h_pageable           = 1.07244e+10
h2d_pinned             = 5.5008e+10
d2h_pinned             = 5.52133e+10
bidir_pinned           = 9.58311e+10
register_s_per_byte    = 4.36145e-11
unregister_s_per_byte  = 1.75299e-11
host_copy              = 3.75507e+10
host_copy_dual         = 4.97173e+10
copy_piece_half        = 768.975
gpu_sflops             = 5.12786e+13
gpu_dflops             = 5.88335e+13
gpu_cflops             = 5.40921e+13
gpu_zflops             = 5.88427e+13
gpu_half_flops         = 3.71156e+08
cpu_sflops             = 2.08038e+11
cpu_dflops             = 1.03924e+11
cpu_cflops             = 2.25007e+11
cpu_zflops             = 1.16613e+11
cpu_half_flops         = 4.21942e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
