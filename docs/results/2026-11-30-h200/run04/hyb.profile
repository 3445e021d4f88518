# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.78868e+09
d2h_pageable           = 9.58865e+09
h2d_pinned             = 5.53331e+10
d2h_pinned             = 5.51722e+10
bidir_pinned           = 9.1484e+10
register_s_per_byte    = 5.3207e-11
unregister_s_per_byte  = 2.09331e-11
host_copy              = 3.69834e+10
host_copy_dual         = 5.74062e+10
copy_piece_half        = 0
gpu_sflops             = 5.11135e+13
gpu_dflops             = 6.03308e+13
gpu_cflops             = 5.40883e+13
gpu_zflops             = 5.96874e+13
gpu_half_flops         = 4.27915e+08
cpu_sflops             = 2.18737e+11
cpu_dflops             = 1.18344e+11
cpu_cflops             = 2.20243e+11
cpu_zflops             = 1.13765e+11
cpu_half_flops         = 9.71081e+06
gpu_call_overhead      = 0.000786665
launch_latency         = 8e-06
min_cpu_share          = 0.03
