# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 5.91162e+09
d2h_pageable           = 1.0734e+10
h2d_pinned             = 5.44032e+10
d2h_pinned             = 5.51113e+10
bidir_pinned           = 8.74809e+10
register_s_per_byte    = 5.46467e-11
unregister_s_per_byte  = 2.08438e-11
host_copy              = 3.1274e+10
host_copy_dual         = 4.63173e+10
copy_piece_half        = 170.641
gpu_sflops             = 5.12899e+13
gpu_dflops             = 5.97104e+13
gpu_cflops             = 5.41017e+13
gpu_zflops             = 5.71131e+13
gpu_half_flops         = 3.88821e+08
cpu_sflops             = 1.94543e+11
cpu_dflops             = 9.86963e+10
cpu_cflops             = 1.87626e+11
cpu_zflops             = 1.005e+11
cpu_half_flops         = 5.52781e+06
gpu_call_overhead      = 0.00020171
launch_latency         = 8e-06
min_cpu_share          = 0.03
