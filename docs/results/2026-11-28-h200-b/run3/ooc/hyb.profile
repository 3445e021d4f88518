# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.32845e+09
d2h_pageable           = 1.1087e+10
h2d_pinned             = 5.5384e+10
d2h_pinned             = 5.53315e+10
bidir_pinned           = 1.01314e+11
register_s_per_byte    = 3.45395e-11
unregister_s_per_byte  = 1.51342e-11
host_copy              = 4.44436e+10
host_copy_dual         = 5.72956e+10
copy_piece_half        = 165.074
gpu_sflops             = 5.13283e+13
gpu_dflops             = 5.87297e+13
gpu_cflops             = 5.40981e+13
gpu_zflops             = 5.66967e+13
gpu_half_flops         = 3.53556e+08
cpu_sflops             = 2.2787e+11
cpu_dflops             = 1.12838e+11
cpu_cflops             = 2.26849e+11
cpu_zflops             = 1.11668e+11
cpu_half_flops         = 1.06933e+07
gpu_call_overhead      = 0.000373643
launch_latency         = 8e-06
min_cpu_share          = 0.03
