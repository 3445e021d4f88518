# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.94142e+09
d2h_pageable           = 1.62016e+10
h2d_pinned             = 5.53324e+10
d2h_pinned             = 5.52018e+10
bidir_pinned           = 1.01326e+11
register_s_per_byte    = 4.18928e-11
unregister_s_per_byte  = 1.6397e-11
host_copy              = 4.41e+10
host_copy_dual         = 5.61926e+10
copy_piece_half        = 506.677
gpu_sflops             = 5.11567e+13
gpu_dflops             = 5.93267e+13
gpu_cflops             = 5.40991e+13
gpu_zflops             = 5.89298e+13
gpu_half_flops         = 4.73145e+08
cpu_sflops             = 2.45149e+11
cpu_dflops             = 1.21955e+11
cpu_cflops             = 2.32358e+11
cpu_zflops             = 1.1312e+11
cpu_half_flops         = 6.81149e+06
gpu_call_overhead      = 0.000314829
launch_latency         = 8e-06
min_cpu_share          = 0.03
