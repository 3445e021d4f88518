# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 9.04875e+09
d2h_pageable           = 1.7992e+10
h2d_pinned             = 5.54758e+10
d2h_pinned             = 5.53669e+10
bidir_pinned           = 1.01713e+11
register_s_per_byte    = 3.66522e-11
unregister_s_per_byte  = 1.48659e-11
host_copy              = 4.3753e+10
host_copy_dual         = 6.33682e+10
copy_piece_half        = 225.4
gpu_sflops             = 5.13175e+13
gpu_dflops             = 5.80792e+13
gpu_cflops             = 5.41002e+13
gpu_zflops             = 5.89566e+13
gpu_half_flops         = 3.25853e+08
cpu_sflops             = 2.60516e+11
cpu_dflops             = 1.31983e+11
cpu_cflops             = 2.58948e+11
cpu_zflops             = 1.48284e+11
cpu_half_flops         = 5.06526e+06
gpu_call_overhead      = 0.000196935
launch_latency         = 8e-06
min_cpu_share          = 0.03
