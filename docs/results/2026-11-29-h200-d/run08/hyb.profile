# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.12585e+09
d2h_pageable           = 1.56427e+10
h2d_pinned             = 5.53796e+10
d2h_pinned             = 5.53793e+10
bidir_pinned           = 1.01087e+11
register_s_per_byte    = 4.78125e-11
unregister_s_per_byte  = 1.66278e-11
host_copy              = 3.8388e+10
host_copy_dual         = 5.66769e+10
copy_piece_half        = 1223.25
gpu_sflops             = 5.12586e+13
gpu_dflops             = 5.8694e+13
gpu_cflops             = 5.41009e+13
gpu_zflops             = 5.90075e+13
gpu_half_flops         = 3.45648e+08
cpu_sflops             = 2.21789e+11
cpu_dflops             = 1.04888e+11
cpu_cflops             = 2.1129e+11
cpu_zflops             = 1.15795e+11
cpu_half_flops         = 1.74697e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
