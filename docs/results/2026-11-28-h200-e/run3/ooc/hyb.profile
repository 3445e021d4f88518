# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-28
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 6.50402e+09
d2h_pageable           = 1.4467e+10
h2d_pinned             = 5.42728e+10
d2h_pinned             = 5.53229e+10
bidir_pinned           = 8.86393e+10
register_s_per_byte    = 4.67057e-11
unregister_s_per_byte  = 1.66626e-11
host_copy              = 3.359e+10
host_copy_dual         = 4.39265e+10
copy_piece_half        = 1486.49
gpu_sflops             = 5.12796e+13
gpu_dflops             = 5.80489e+13
gpu_cflops             = 5.40959e+13
gpu_zflops             = 5.89183e+13
gpu_half_flops         = 3.39795e+08
cpu_sflops             = 2.29198e+11
cpu_dflops             = 1.16265e+11
cpu_cflops             = 2.3567e+11
cpu_zflops             = 1.12934e+11
cpu_half_flops         = 1.0562e+07
gpu_call_overhead      = 0.00023496
launch_latency         = 8e-06
min_cpu_share          = 0.03
