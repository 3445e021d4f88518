# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.60066e+09
d2h_pageable           = 1.36567e+10
h2d_pinned             = 5.53404e+10
d2h_pinned             = 5.51998e+10
bidir_pinned           = 1.00886e+11
register_s_per_byte    = 5.40947e-11
unregister_s_per_byte  = 1.85068e-11
host_copy              = 3.94652e+10
host_copy_dual         = 5.05061e+10
copy_piece_half        = 1268.08
gpu_sflops             = 5.13028e+13
gpu_dflops             = 5.97272e+13
gpu_cflops             = 5.40977e+13
gpu_zflops             = 5.64827e+13
gpu_half_flops         = 3.93743e+08
cpu_sflops             = 2.16566e+11
cpu_dflops             = 1.18714e+11
cpu_cflops             = 2.13714e+11
cpu_zflops             = 1.15509e+11
cpu_half_flops         = 7.1251e+06
gpu_call_overhead      = 9.28278e-05
launch_latency         = 8e-06
min_cpu_share          = 0.03
