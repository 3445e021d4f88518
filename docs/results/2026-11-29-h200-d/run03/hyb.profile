# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-29
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.3389e+09
d2h_pageable           = 1.46506e+10
h2d_pinned             = 5.52831e+10
d2h_pinned             = 5.52834e+10
bidir_pinned           = 9.37278e+10
register_s_per_byte    = 4.5468e-11
unregister_s_per_byte  = 1.93684e-11
host_copy              = 3.76032e+10
host_copy_dual         = 4.77558e+10
copy_piece_half        = 889.958
gpu_sflops             = 5.13161e+13
gpu_dflops             = 5.91283e+13
gpu_cflops             = 5.40994e+13
gpu_zflops             = 5.97636e+13
gpu_half_flops         = 3.61071e+08
cpu_sflops             = 2.02465e+11
cpu_dflops             = 1.01417e+11
cpu_cflops             = 2.00109e+11
cpu_zflops             = 1.07802e+11
cpu_half_flops         = 7.37653e+06
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
