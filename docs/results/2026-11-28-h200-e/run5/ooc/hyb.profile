# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.11575e+09
d2h_pageable           = 1.10138e+10
h2d_pinned             = 5.53236e+10
d2h_pinned             = 5.52327e+10
bidir_pinned           = 7.8846e+10
register_s_per_byte    = 6.92573e-11
unregister_s_per_byte  = 2.30937e-11
host_copy              = 3.52936e+10
host_copy_dual         = 4.85507e+10
copy_piece_half        = 715.053
gpu_sflops             = 5.10818e+13
gpu_dflops             = 5.93508e+13
gpu_cflops             = 5.40866e+13
gpu_zflops             = 5.76709e+13
gpu_half_flops         = 3.92161e+08
cpu_sflops             = 1.92259e+11
cpu_dflops             = 9.56955e+10
cpu_cflops             = 1.99667e+11
cpu_zflops             = 9.68637e+10
cpu_half_flops         = 9.96004e+06
gpu_call_overhead      = 0.000586556
launch_latency         = 8e-06
min_cpu_share          = 0.03
