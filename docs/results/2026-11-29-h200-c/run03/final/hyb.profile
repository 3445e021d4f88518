# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.8833e+09
d2h_pageable           = 1.41431e+10
h2d_pinned             = 5.5434e+10
d2h_pinned             = 5.5326e+10
bidir_pinned           = 1.0156e+11
register_s_per_byte    = 4.79423e-11
unregister_s_per_byte  = 1.76058e-11
host_copy              = 3.9799e+10
host_copy_dual         = 5.92284e+10
copy_piece_half        = 0
gpu_sflops             = 5.13117e+13
gpu_dflops             = 5.87477e+13
gpu_cflops             = 5.40993e+13
gpu_zflops             = 5.68484e+13
gpu_half_flops         = 3.64099e+08
cpu_sflops             = 2.09426e+11
cpu_dflops             = 1.02056e+11
cpu_cflops             = 2.06612e+11
cpu_zflops             = 1.05607e+11
cpu_half_flops         = 6.0651e+06
gpu_call_overhead      = 0.000938304
launch_latency         = 8e-06
min_cpu_share          = 0.03
