# hyblas machine profile, written by hyblas-calibrate
# machine: Intel(R) Xeon(R) Processor; 16 cores; NVIDIA H200; 2026-11-30
# Bandwidths in bytes/s, rates in flop/s, times in seconds.
h2d_pageable           = 8.26757e+09
d2h_pageable           = 1.52097e+10
h2d_pinned             = 5.54506e+10
d2h_pinned             = 5.53411e+10
bidir_pinned           = 1.01597e+11
register_s_per_byte    = 3.71127e-11
unregister_s_per_byte  = 1.55663e-11
host_copy              = 3.75547e+10
host_copy_dual         = 5.66426e+10
copy_piece_half        = 0
gpu_sflops             = 5.10381e+13
gpu_dflops             = 6.06888e+13
gpu_cflops             = 5.40986e+13
gpu_zflops             = 5.82279e+13
gpu_half_flops         = 5.7021e+08
cpu_sflops             = 2.45048e+11
cpu_dflops             = 1.28821e+11
cpu_cflops             = 2.54446e+11
cpu_zflops             = 1.30107e+11
cpu_half_flops         = 1.04506e+07
gpu_call_overhead      = 0
launch_latency         = 8e-06
min_cpu_share          = 0.03
