# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.41638e+09
d2h_pageable           = 9.59738e+09
h2d_pinned             = 5.53416e+10
d2h_pinned             = 5.51176e+10
bidir_pinned           = 9.85492e+10
register_s_per_byte    = 5.33072e-11
unregister_s_per_byte  = 1.95672e-11
host_copy              = 3.80768e+10
host_copy_dual         = 5.2328e+10
copy_piece_half        = 319.864
gpu_sflops             = 5.12506e+13
gpu_dflops             = 5.76982e+13
gpu_cflops             = 5.40938e+13
gpu_zflops             = 5.64789e+13
gpu_half_flops         = 3.02245e+08
cpu_sflops             = 2.23983e+11
cpu_dflops             = 1.163e+11
cpu_cflops             = 2.31203e+11
cpu_zflops             = 1.1542e+11
cpu_half_flops         = 7.44159e+06
gpu_call_overhead      = 0.000159594
launch_latency         = 8e-06
min_cpu_share          = 0.03
