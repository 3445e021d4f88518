# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.95311e+09
d2h_pageable           = 1.4082e+10
h2d_pinned             = 5.52877e+10
d2h_pinned             = 5.52307e+10
bidir_pinned           = 1.00569e+11
register_s_per_byte    = 4.08439e-11
unregister_s_per_byte  = 1.7677e-11
host_copy              = 3.67021e+10
host_copy_dual         = 5.89369e+10
copy_piece_half        = 0
gpu_sflops             = 5.12766e+13
gpu_dflops             = 5.84392e+13
gpu_cflops             = 5.40917e+13
gpu_zflops             = 5.64115e+13
gpu_half_flops         = 3.17621e+08
cpu_sflops             = 1.90188e+11
cpu_dflops             = 1.14385e+11
cpu_cflops             = 2.30901e+11
cpu_zflops             = 1.2018e+11
cpu_half_flops         = 5.29445e+06
gpu_call_overhead      = 8.94984e-05
launch_latency         = 8e-06
min_cpu_share          = 0.03
