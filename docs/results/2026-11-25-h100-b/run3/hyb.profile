# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H100 80GB HBM3; 2026-11-25
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.7383e+09
d2h_pageable           = 1.11007e+10
h2d_pinned             = 5.51003e+10
d2h_pinned             = 5.50772e+10
bidir_pinned           = 9.45676e+10
register_s_per_byte    = 8.61542e-11
unregister_s_per_byte  = 1.88793e-11
host_copy              = 4.47829e+10
host_copy_dual         = 6.18006e+10
copy_piece_half        = 937.308
gpu_sflops             = 5.15935e+13
gpu_dflops             = 5.81672e+13
gpu_cflops             = 5.41055e+13
gpu_zflops             = 5.71733e+13
gpu_half_flops         = 3.6385e+08
cpu_sflops             = 2.10709e+11
cpu_dflops             = 1.08151e+11
cpu_cflops             = 2.27433e+11
cpu_zflops             = 1.09149e+11
cpu_half_flops         = 5.20997e+06
gpu_call_overhead      = 0.000279105
launch_latency         = 8e-06
min_cpu_share          = 0.03
