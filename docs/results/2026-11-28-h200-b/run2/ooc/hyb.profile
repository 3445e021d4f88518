# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 7.05602e+09
d2h_pageable           = 1.09432e+10
h2d_pinned             = 5.54084e+10
d2h_pinned             = 5.52863e+10
bidir_pinned           = 1.01475e+11
register_s_per_byte    = 5.50994e-11
unregister_s_per_byte  = 1.92281e-11
host_copy              = 3.65464e+10
host_copy_dual         = 5.64457e+10
copy_piece_half        = 170.816
gpu_sflops             = 5.11161e+13
gpu_dflops             = 5.78904e+13
gpu_cflops             = 5.40962e+13
gpu_zflops             = 5.89303e+13
gpu_half_flops         = 3.33004e+08
cpu_sflops             = 2.52327e+11
cpu_dflops             = 1.05246e+11
cpu_cflops             = 2.4362e+11
cpu_zflops             = 1.31368e+11
cpu_half_flops         = 0
gpu_call_overhead      = 0.000198067
launch_latency         = 8e-06
min_cpu_share          = 0.03
