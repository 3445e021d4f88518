# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.26749e+09
d2h_pageable           = 1.25081e+10
h2d_pinned             = 5.54487e+10
d2h_pinned             = 5.53064e+10
bidir_pinned           = 9.7635e+10
register_s_per_byte    = 5.76515e-11
unregister_s_per_byte  = 2.00183e-11
host_copy              = 3.69906e+10
host_copy_dual         = 5.8625e+10
copy_piece_half        = 841.88
gpu_sflops             = 5.12773e+13
gpu_dflops             = 6.00607e+13
gpu_cflops             = 5.41067e+13
gpu_zflops             = 5.71756e+13
gpu_half_flops         = 4.11007e+08
cpu_sflops             = 2.21524e+11
cpu_dflops             = 1.17566e+11
cpu_cflops             = 2.18571e+11
cpu_zflops             = 1.14728e+11
cpu_half_flops         = 7.90989e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
