# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.43e+09
d2h_pageable           = 1.30736e+10
h2d_pinned             = 5.52647e+10
d2h_pinned             = 5.51875e+10
bidir_pinned           = 9.87383e+10
register_s_per_byte    = 1.01338e-10
unregister_s_per_byte  = 1.83183e-11
host_copy              = 4.02403e+10
host_copy_dual         = 5.15827e+10
copy_piece_half        = 1160.98
gpu_sflops             = 5.10951e+13
gpu_dflops             = 6.04272e+13
gpu_cflops             = 5.41009e+13
gpu_zflops             = 5.79143e+13
gpu_half_flops         = 5.32196e+08
cpu_sflops             = 2.09916e+11
cpu_dflops             = 1.05995e+11
cpu_cflops             = 2.15625e+11
cpu_zflops             = 1.05697e+11
cpu_half_flops         = 4.33723e+06
gpu_call_overhead      = 1.20974e-05
launch_latency         = 8e-06
min_cpu_share          = 0.03
