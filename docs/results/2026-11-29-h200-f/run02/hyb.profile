# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 5.8443e+09
d2h_pageable           = 9.5411e+09
h2d_pinned             = 5.3212e+10
d2h_pinned             = 5.36619e+10
bidir_pinned           = 8.44224e+10
register_s_per_byte    = 6.7169e-11
unregister_s_per_byte  = 2.23471e-11
host_copy              = 3.24987e+10
host_copy_dual         = 4.80328e+10
copy_piece_half        = 0
gpu_sflops             = 5.11069e+13
gpu_dflops             = 5.85432e+13
gpu_cflops             = 5.40947e+13
gpu_zflops             = 5.92361e+13
gpu_half_flops         = 3.53857e+08
cpu_sflops             = 2.00705e+11
cpu_dflops             = 1.00612e+11
cpu_cflops             = 2.13537e+11
cpu_zflops             = 1.02411e+11
cpu_half_flops         = 4.1818e+06
gpu_call_overhead      = 0.000173363
launch_latency         = 8e-06
min_cpu_share          = 0.03
