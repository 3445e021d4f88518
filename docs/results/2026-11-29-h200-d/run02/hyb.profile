# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.19572e+09
d2h_pageable           = 1.50073e+10
h2d_pinned             = 5.5284e+10
d2h_pinned             = 5.52832e+10
bidir_pinned           = 9.77196e+10
register_s_per_byte    = 5.96501e-11
unregister_s_per_byte  = 2.0924e-11
host_copy              = 3.44065e+10
host_copy_dual         = 4.88204e+10
copy_piece_half        = 0
gpu_sflops             = 5.12634e+13
gpu_dflops             = 5.97479e+13
gpu_cflops             = 5.40982e+13
gpu_zflops             = 5.8871e+13
gpu_half_flops         = 4.03416e+08
cpu_sflops             = 2.39219e+11
cpu_dflops             = 1.20389e+11
cpu_cflops             = 2.63057e+11
cpu_zflops             = 1.21584e+11
cpu_half_flops         = 5.19658e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
